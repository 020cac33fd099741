//! Register files and their sizes: how many `r#` temps, which `x#`
//! indexable temps with how many elements, how many rows each constant
//! buffer and the immediate constant buffer hold. The emulator sizes its
//! register file from this and the emitter its arrays, and the check below
//! makes sure no instruction addresses a register past what is declared,
//! so neither has to decide what such a read would mean.

use std::collections::BTreeMap;

use super::resources::UseRecorder;
use super::{AnalysisError, Check, IoLayout, ResourceUse};
use crate::dxbc::ir::{CustomData, DeclKind, Index, Instruction, Operand, OperandType, Program};
use crate::dxbc::opcodes::Op;

/// One `dcl_indexableTemp xN[size], components`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexableTemp {
    /// Elements (`[size]`).
    pub size: u32,
    /// Components per element (1 to 4 in valid bytecode).
    pub components: u32,
}

/// The declared sizes of a program's register files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Registers {
    /// `dcl_temps`' count; hull-shader phases each declare their own, and
    /// this is the largest.
    pub temps: u32,
    /// Indexable temps by register number. Where phases declare one
    /// register differently, the largest size and width are kept, so a
    /// register file sized from this holds every phase's.
    pub indexable: BTreeMap<u32, IndexableTemp>,
    /// Constant buffers by slot (the range ID from shader model 5.1 on),
    /// with their declared rows (`vec4`s).
    pub constant_buffers: BTreeMap<u32, u32>,
    /// Rows of the immediate constant buffer, when the program has one.
    pub icb_rows: Option<u32>,
}

impl Registers {
    /// The sizes the declarations give; never fails (the check is
    /// [`check`]), so a consumer that only sizes storage can read it even
    /// for a program the check rejects.
    pub fn of(program: &Program) -> Registers {
        let mut r = Registers::default();
        for inst in &program.instructions {
            match (inst.op, &inst.decl) {
                (Op::DclTemps, DeclKind::Count(n)) => r.temps = r.temps.max(*n),
                (
                    Op::DclIndexableTemp,
                    &DeclKind::IndexableTemp {
                        reg,
                        size,
                        components,
                    },
                ) => {
                    let e = r.indexable.entry(reg).or_insert(IndexableTemp {
                        size: 0,
                        components: 0,
                    });
                    e.size = e.size.max(size);
                    e.components = e.components.max(components);
                }
                (Op::DclConstantBuffer, _) => {
                    if let Some((slot, rows)) = constant_buffer(program, inst) {
                        r.constant_buffers.insert(slot, rows);
                    }
                }
                _ => {}
            }
            if let Some(CustomData::ImmediateConstantBuffer(d)) = inst.custom.as_deref() {
                r.icb_rows = Some(d.len().div_ceil(4) as u32);
            }
        }
        r
    }
}

/// A `dcl_constantbuffer`'s slot and rows. Before shader model 5.1 the
/// operand is `cb#[rows]`; from 5.1 on it is `CB#[lower:upper]` with the
/// range ID first and the rows in the payload dword after the operand.
fn constant_buffer(program: &Program, inst: &Instruction) -> Option<(u32, u32)> {
    let op = inst.operands.first()?;
    let slot = op.reg()?;
    let rows = if program.is_sm51() {
        *inst.trailing.first()?
    } else {
        u32::try_from(op.indices.get(1)?.imm()?).ok()?
    };
    Some((slot, rows))
}

/// Every register an instruction names lies inside what is declared:
/// `r#` below the `dcl_temps` count in force (hull-shader phases reset it),
/// `x#` declared and, for an immediate index, within its size, plain
/// `v#`/`o#` in the declarations or the signature, immediate constant
/// buffer rows within the declared size and immediate `icb` rows within the
/// ICB. Relative indices are values only known when the shader runs, so
/// only their register parts are checked here.
pub fn check(
    program: &Program,
    rows: &Registers,
    inputs: &IoLayout,
    outputs: &IoLayout,
) -> Result<(), AnalysisError> {
    check_with_uses(program, rows, inputs, outputs).map(|_| ())
}

/// [`check`] and [`ResourceUse::of`] in one walk over the operands: both
/// visit every register of every instruction, and the walk itself (the
/// operand and index loops) costs more than either test. The range check's
/// error still comes first, as if it had run alone: the undeclared-slot
/// check only runs once the walk has finished without one.
pub(super) fn check_with_uses(
    program: &Program,
    rows: &Registers,
    inputs: &IoLayout,
    outputs: &IoLayout,
) -> Result<ResourceUse, AnalysisError> {
    let mut scope = Scope {
        temps: 0,
        indexable: BTreeMap::new(),
        row: program.constant_buffer_row_index(),
        rows,
        inputs,
        outputs,
    };
    let mut uses = UseRecorder::default();
    for (i, inst) in program.instructions.iter().enumerate() {
        scope.enter(inst);
        if inst.info().is_decl() {
            uses.declare(i, inst);
            continue;
        }
        // Custom-data blocks carry no registers to range-check, but the
        // resource scan has always looked at their operands too.
        let checked = inst.custom.is_none();
        for op in &inst.operands {
            let mut message = None;
            visit(op, &mut |op| {
                if message.is_some() {
                    return;
                }
                uses.record(i, op);
                if checked {
                    message = scope.out_of_range(op);
                }
            });
            if let Some(message) = message {
                return Err(AnalysisError {
                    index: i,
                    offset: inst.offset,
                    check: Check::Range,
                    message,
                });
            }
        }
    }
    Ok(uses.finish())
}

/// The register files in force at one instruction, and what a register
/// is checked against.
struct Scope<'a> {
    temps: u32,
    indexable: BTreeMap<u32, u32>,
    /// Which index of a `cb#` operand is the row (shader model 5.1 puts
    /// the range ID first).
    row: usize,
    rows: &'a Registers,
    inputs: &'a IoLayout,
    outputs: &'a IoLayout,
}

impl Scope<'_> {
    /// Temps and indexable temps in force: each hull-shader phase declares
    /// its own, starting from none.
    fn enter(&mut self, inst: &Instruction) {
        match (inst.op, &inst.decl) {
            (Op::HsControlPointPhase | Op::HsForkPhase | Op::HsJoinPhase, _) => {
                self.temps = 0;
                self.indexable.clear();
            }
            (Op::DclTemps, DeclKind::Count(n)) => self.temps = *n,
            (Op::DclIndexableTemp, &DeclKind::IndexableTemp { reg, size, .. }) => {
                self.indexable.insert(reg, size);
            }
            _ => {}
        }
    }

    /// Why `op` (one register, not its relative indices) lies past what is
    /// declared, if it does.
    fn out_of_range(&self, op: &Operand) -> Option<String> {
        match op.ty {
            OperandType::TEMP => {
                let temps = self.temps;
                op.reg()
                    .filter(|r| *r >= temps)
                    .map(|r| format!("r{r} used, but `dcl_temps` declares {temps}"))
            }
            OperandType::INDEXABLE_TEMP => {
                let reg = op.reg()?;
                match (self.indexable.get(&reg), op.indices.get(1)) {
                    (None, _) => Some(format!("x{reg} used, but never declared")),
                    (Some(&size), Some(Index::Imm32(at))) if *at >= size => {
                        Some(format!("x{reg}[{at}] used, but x{reg} has {size} elements"))
                    }
                    _ => None,
                }
            }
            OperandType::INPUT if op.indices.len() == 1 => {
                let reg = op.reg()?;
                self.inputs.get(reg).is_none().then(|| {
                    format!("v{reg} used, but neither declared nor in the input signature")
                })
            }
            OperandType::OUTPUT if op.indices.len() == 1 => {
                let reg = op.reg()?;
                self.outputs.get(reg).is_none().then(|| {
                    format!("o{reg} used, but neither declared nor in the output signature")
                })
            }
            OperandType::CONSTANT_BUFFER => {
                let (Some(slot), Some(Index::Imm32(at))) = (op.reg(), op.indices.get(self.row))
                else {
                    return None;
                };
                // An undeclared buffer is the resource check's to name.
                let size = *self.rows.constant_buffers.get(&slot)?;
                (*at >= size)
                    .then(|| format!("cb{slot}[{at}] used, but cb{slot} declares {size} rows"))
            }
            OperandType::IMMEDIATE_CONSTANT_BUFFER => {
                match (self.rows.icb_rows, op.indices.first()) {
                    (None, _) => {
                        Some("icb used, but no immediate constant buffer is declared".into())
                    }
                    (Some(n), Some(Index::Imm32(at))) if *at >= n => {
                        Some(format!("icb[{at}] used, but the icb has {n} rows"))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Calls `f` on `op` and on every register its relative indices read
/// (`cb0[r1.x + 2]` reads `r1`), depth first. Inlined so the common
/// operand (no relative index) costs no call; the rare nested ones go
/// through [`visit_nested`].
#[inline(always)]
pub(super) fn visit(op: &Operand, f: &mut impl FnMut(&Operand)) {
    f(op);
    for idx in &op.indices {
        if let Some(r) = idx.relative() {
            visit_nested(r, f);
        }
    }
}

#[inline(never)]
fn visit_nested(op: &Operand, f: &mut impl FnMut(&Operand)) {
    f(op);
    for idx in &op.indices {
        if let Some(r) = idx.relative() {
            visit_nested(r, f);
        }
    }
}
