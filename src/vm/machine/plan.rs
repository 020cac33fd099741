//! Operand plans: for operands in the common shapes (temps, inputs,
//! constant-buffer rows and immediates, all with plain indices), where to
//! read or write is worked out once per program. The fast path (`fast.rs`)
//! is built from them.

use super::Change;
use crate::dxbc::ir::*;
use crate::vm::float;
use crate::vm::state::{LaneRegs, Loc, Reg, State};

#[derive(Debug, Clone, Copy)]
pub(super) enum From {
    Temp(usize),
    Input(usize),
    Cb(usize, usize),
    Imm(Reg),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct SrcPlan {
    pub(super) from: From,
    pub(super) swizzle: [u8; 4],
    pub(super) modifier: Modifier,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct DstPlan {
    pub(super) loc: Loc,
    pub(super) mask: u8,
}

#[derive(Debug, Clone)]
pub(super) struct Plan {
    pub srcs: smallvec::SmallVec<[SrcPlan; 4]>,
    pub dsts: smallvec::SmallVec<[DstPlan; 2]>,
}

fn src_plan(op: &Operand) -> Option<SrcPlan> {
    let idx = |i: usize| match op.indices.get(i) {
        Some(Index::Imm32(v)) => Some(*v as usize),
        _ => None,
    };
    let from = match op.ty {
        OperandType::TEMP if op.indices.len() == 1 => From::Temp(idx(0)?),
        OperandType::INPUT if op.indices.len() == 1 => From::Input(idx(0)?),
        OperandType::CONSTANT_BUFFER if op.indices.len() == 2 => From::Cb(idx(0)?, idx(1)?),
        OperandType::IMMEDIATE32 | OperandType::IMMEDIATE64 => From::Imm(op.immediate_lanes()?),
        _ => return None,
    };
    let swizzle = match op.selection {
        Selection::Swizzle(s) => s,
        Selection::Select1(c) => [c; 4],
        _ => [0, 1, 2, 3],
    };
    Some(SrcPlan {
        from,
        swizzle,
        modifier: op.modifier,
    })
}

fn dst_plan(op: &Operand) -> Option<DstPlan> {
    let reg = match op.indices.as_slice() {
        [Index::Imm32(v)] => *v,
        _ => return None,
    };
    let mask = match op.selection {
        Selection::Mask(m) => m,
        _ => return None,
    };
    let loc = match op.ty {
        OperandType::TEMP => Loc::Temp(reg),
        OperandType::OUTPUT => Loc::Output(reg),
        _ => return None,
    };
    Some(DstPlan { loc, mask })
}

/// A plan for an instruction whose every operand has a common shape.
pub(super) fn plan(inst: &Instruction) -> Option<Plan> {
    let ndst = (inst.info().dst as usize).min(inst.operands.len());
    let (dsts, srcs) = inst.operands.split_at(ndst);
    Some(Plan {
        srcs: srcs.iter().map(src_plan).collect::<Option<_>>()?,
        dsts: dsts.iter().map(dst_plan).collect::<Option<_>>()?,
    })
}

impl DstPlan {
    /// The register written (None past the declared count: D3D drops such
    /// writes).
    #[inline(always)]
    pub(super) fn slot<'a>(&self, regs: &'a mut LaneRegs) -> Option<&'a mut Reg> {
        match self.loc {
            Loc::Temp(r) => regs.temps.get_mut(r as usize),
            Loc::Output(r) => regs.outputs.get_mut(r as usize),
            _ => None,
        }
    }
}

impl State {
    /// Stores `value`'s masked components through a planned destination,
    /// logging each component that changes (the undo log; the fast path
    /// writes without one by a masked blend).
    #[inline(always)]
    pub(super) fn write_logged(
        &mut self,
        d: DstPlan,
        lane: usize,
        value: &Reg,
        saturate: bool,
        log: &mut Vec<Change>,
    ) {
        let Some(reg) = d.slot(&mut self.lanes[lane]) else {
            return;
        };
        for c in 0..4 {
            if d.mask & (1 << c) == 0 {
                continue;
            }
            let v = if saturate {
                float::saturate(value[c])
            } else {
                value[c]
            };
            if reg[c] != v {
                log.push(Change {
                    loc: d.loc,
                    lane,
                    component: c,
                    old: reg[c],
                    new: v,
                });
            }
            reg[c] = v;
        }
    }
}
