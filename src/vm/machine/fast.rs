//! The fast path for the instructions real shaders spend their time in:
//! component-wise ALU instructions whose operands all have planned shapes.
//! Each is turned once per program into an [`AluOp`] and executed for the
//! whole quad at a time: sources read for all four lanes, the table entry
//! matched once per instruction (not per lane and component), only the
//! written components computed, and the result stored straight into the
//! register file. Everything else takes the general path in `mod.rs`.

use super::plan::{DstPlan, Plan, SrcPlan};
use super::{Change, LaneState, component_wise, component_wise_arity};
use crate::dxbc::ir::{Instruction, Modifier};
use crate::vm::alu::{Exec, Kind};
use crate::vm::float;
use crate::vm::state::{LANES, Reg, State};

/// One instruction, decided once per program.
#[derive(Clone, Copy)]
pub(super) enum Op {
    Alu(AluOp),
    /// Declarations, flow, textures, and ALU instructions with operands in
    /// uncommon shapes (relative indices, indexable temps, ...).
    General,
}

#[derive(Clone, Copy)]
pub(super) struct AluOp {
    exec: Exec,
    kind: Kind,
    arity: usize,
    srcs: [SrcPlan; 3],
    dst: DstPlan,
    saturate: bool,
}

/// The fast form of `inst`, when it has one.
pub(super) fn op(inst: &Instruction, exec: Exec, plan: Option<&Plan>) -> Op {
    let Some(p) = plan else { return Op::General };
    let Some(arity) = component_wise_arity(exec) else {
        return Op::General;
    };
    if p.dsts.len() != 1 || p.srcs.len() < arity || arity == 0 {
        return Op::General;
    }
    let mut srcs = [p.srcs[0]; 3];
    srcs[..arity].copy_from_slice(&p.srcs[..arity]);
    Op::Alu(AluOp {
        exec,
        kind: exec.kind(),
        arity,
        srcs,
        dst: p.dsts[0],
        saturate: inst.controls & (1 << 13) != 0 && inst.info().sat,
    })
}

/// Runs `a` for the active lanes. Lanes are visited one at a time: loops
/// diverge within a quad, and a lane that waits costs nothing. Changes are
/// logged to `log` when given (stepping back).
#[inline(always)]
pub(super) fn run_alu(
    state: &mut State,
    a: &AluOp,
    lanes: &[LaneState; LANES],
    mut log: Option<&mut Vec<Change>>,
) {
    let m = a.dst.mask();
    for (l, lane) in lanes.iter().enumerate() {
        if *lane != LaneState::Active {
            continue;
        }
        let mut s = [[[0u32; 4]; 1]; 3];
        for (v, src) in s.iter_mut().zip(&a.srcs).take(a.arity) {
            v[0] = state.read_planned(src, l, a.kind);
        }
        // `op` only builds component-wise entries.
        if let Some([r]) = component_wise(a.exec, s, m) {
            state.write_planned(a.dst, l, &r, a.saturate, log.as_deref_mut());
        }
    }
}

impl State {
    /// A planned source for one lane: swizzled, with modifiers applied as
    /// `kind` reads them.
    #[inline(always)]
    pub(super) fn read_planned(&self, p: &SrcPlan, lane: usize, kind: Kind) -> Reg {
        let raw = p.fetch(self, lane);
        let [x, y, z, w] = p.swizzle().map(|c| c as usize & 3);
        // Built as one literal from scalars: a swizzled array stored a
        // component at a time and then reloaded whole stalls store
        // forwarding, which dominated this path.
        if p.modifier() == Modifier::None {
            return if kind == Kind::Float {
                let fl = float::flush;
                [fl(raw[x]), fl(raw[y]), fl(raw[z]), fl(raw[w])]
            } else {
                [raw[x], raw[y], raw[z], raw[w]]
            };
        }
        super::Machine::modify([raw[x], raw[y], raw[z], raw[w]], kind, p.modifier())
    }

    /// Stores `value`'s masked components through a planned destination.
    #[inline(always)]
    pub(super) fn write_planned(
        &mut self,
        d: DstPlan,
        lane: usize,
        value: &Reg,
        saturate: bool,
        log: Option<&mut Vec<Change>>,
    ) {
        let Some(reg) = d.slot(&mut self.lanes[lane]) else {
            return;
        };
        let m = d.mask();
        match log {
            None => {
                for c in 0..4 {
                    if m & (1 << c) != 0 {
                        reg[c] = if saturate {
                            float::saturate(value[c])
                        } else {
                            value[c]
                        };
                    }
                }
            }
            Some(log) => {
                for c in 0..4 {
                    if m & (1 << c) == 0 {
                        continue;
                    }
                    let v = if saturate {
                        float::saturate(value[c])
                    } else {
                        value[c]
                    };
                    if reg[c] != v {
                        log.push(Change {
                            loc: d.loc(),
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
    }
}
