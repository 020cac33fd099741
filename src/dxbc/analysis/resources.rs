//! Declared against used resources: for textures (`t#`), samplers (`s#`),
//! constant buffers (`cb#`) and UAVs (`u#`), which slots the declarations
//! give and which the instructions read. A use of an undeclared slot is an
//! error, so the emitter never has to guess a texture's dimension and the
//! emulator never reads a binding nothing asked for.

use std::collections::BTreeMap;

use super::registers::visit;
use super::{AnalysisError, Check};
use crate::dxbc::ir::{Index, Instruction, Operand, OperandType, Program};

/// One kind of resource: its declared slots and its used ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slots {
    /// Slot (the range ID from shader model 5.1 on) → the instruction
    /// index of its declaration, where its dimension, return type or mode
    /// can be read.
    pub declared: BTreeMap<u32, usize>,
    /// Slot → the first instruction that uses it. Only immediate slots are
    /// listed: one chosen by a register (class-instance code) is known
    /// only when the shader runs.
    pub used: BTreeMap<u32, usize>,
}

impl Slots {
    pub fn is_used(&self, slot: u32) -> bool {
        self.used.contains_key(&slot)
    }

    /// The first use of a slot nothing declares: (slot, instruction).
    fn first_undeclared(&self) -> Option<(u32, usize)> {
        self.used
            .iter()
            .filter(|(s, _)| !self.declared.contains_key(s))
            .map(|(s, i)| (*s, *i))
            .min_by_key(|(_, i)| *i)
    }
}

/// Every kind of resource a program binds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceUse {
    pub textures: Slots,
    pub samplers: Slots,
    pub constant_buffers: Slots,
    pub uavs: Slots,
}

impl ResourceUse {
    /// Never fails; [`ResourceUse::check`] names an undeclared use.
    pub fn of(program: &Program) -> ResourceUse {
        let mut r = UseRecorder::default();
        for (i, inst) in program.instructions.iter().enumerate() {
            if inst.info().is_decl() {
                r.declare(i, inst);
                continue;
            }
            for op in &inst.operands {
                visit(op, &mut |op| r.record(i, op));
            }
        }
        r.finish()
    }

    /// The slots of kind `k`, as [`kind_index`] numbers them.
    fn slots_mut(&mut self, k: usize) -> &mut Slots {
        match k {
            0 => &mut self.textures,
            1 => &mut self.samplers,
            2 => &mut self.constant_buffers,
            _ => &mut self.uavs,
        }
    }

    /// The first instruction that uses an undeclared slot, named with it.
    pub fn check(&self, program: &Program) -> Result<(), AnalysisError> {
        let kinds = [
            ("t", &self.textures),
            ("s", &self.samplers),
            ("cb", &self.constant_buffers),
            ("u", &self.uavs),
        ];
        let first = kinds
            .iter()
            .filter_map(|(prefix, k)| k.first_undeclared().map(|(s, i)| (prefix, s, i)))
            .min_by_key(|(_, _, i)| *i);
        match first {
            None => Ok(()),
            Some((prefix, slot, index)) => Err(AnalysisError {
                index,
                offset: program.instructions[index].offset,
                check: Check::Undeclared,
                message: format!("{prefix}{slot} used, but never declared"),
            }),
        }
    }
}

/// Which kind of resource a register file binds: textures, samplers,
/// constant buffers, UAVs as 0 to 3; None for every other file.
fn kind_index(ty: OperandType) -> Option<usize> {
    Some(match ty {
        OperandType::RESOURCE => 0,
        OperandType::SAMPLER => 1,
        OperandType::CONSTANT_BUFFER => 2,
        OperandType::UNORDERED_ACCESS_VIEW => 3,
        _ => return None,
    })
}

/// Builds a [`ResourceUse`] one instruction at a time, so the analysis can
/// fold the scan into the walk the register check makes anyway.
#[derive(Default)]
pub(super) struct UseRecorder {
    uses: ResourceUse,
    /// Slots below 128 already listed as used, one bit set per kind: most
    /// uses name a slot seen before, and testing a bit is cheaper than the
    /// map's search.
    seen: [u128; 4],
}

impl UseRecorder {
    /// A declaration names its slot in its first operand.
    pub(super) fn declare(&mut self, i: usize, inst: &Instruction) {
        if let Some(op) = inst.operands.first()
            && let Some(slot) = op.reg()
            && let Some(k) = kind_index(op.ty)
        {
            self.uses.slots_mut(k).declared.entry(slot).or_insert(i);
        }
    }

    /// Notes one register (not its relative indices) that instruction `i`
    /// reads or writes.
    #[inline(always)]
    pub(super) fn record(&mut self, i: usize, op: &Operand) {
        let Some(k) = kind_index(op.ty) else { return };
        let Some(&Index::Imm32(slot)) = op.indices.first() else {
            return;
        };
        let bit = 1u128.checked_shl(slot).unwrap_or(0);
        if self.seen[k] & bit == 0 {
            self.seen[k] |= bit;
            self.uses.slots_mut(k).used.entry(slot).or_insert(i);
        }
    }

    pub(super) fn finish(self) -> ResourceUse {
        self.uses
    }
}
