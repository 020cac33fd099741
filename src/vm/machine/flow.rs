//! Control flow for a quad: each lane either runs or waits on a block
//! frame (`if`, `loop`, `switch`, `call`) with the place it resumes, so
//! `break`, `continue`, `ret` and `discard` inside nested blocks resume
//! exactly where D3D resumes them.

use super::{Frame, LaneState, Machine, Resume, fast};
use crate::dxbc::ir::{DeclKind, Instruction};
use crate::dxbc::limits::SUBROUTINE_NESTING_LIMIT;
use crate::dxbc::opcodes::NumType;
use crate::dxbc::opcodes::Op;
use crate::vm::VmError;
use crate::vm::state::LANES;

impl Machine {
    /// The test of a conditional instruction for each active lane (false
    /// for the others). A planned operand was resolved when the program was
    /// prepared (`fast::Cond`): loops test one every iteration.
    #[inline]
    fn tests(&self, index: usize, inst: &Instruction) -> Result<[bool; LANES], VmError> {
        let running = self.execution_mask();
        if self.fast
            && let Some(fast::Op::Flow(Some(cond))) = self.prepared.ops.get(index)
        {
            return Ok(fast::test(&self.state, cond, running));
        }
        let nonzero = inst.test_nonzero();
        let mut out = [false; LANES];
        let Some(src) = inst.operands.last() else {
            return Err(self.missing(inst));
        };
        // `call`/`callc` have the label last; the condition comes first.
        let src = if matches!(inst.op, Op::Callc) {
            inst.operands.first().unwrap_or(src)
        } else {
            src
        };
        for (l, o) in out.iter_mut().enumerate() {
            *o = running[l] && (self.read(src, l, NumType::Untyped)?[0] != 0) == nonzero;
        }
        Ok(out)
    }

    fn set_lanes(&mut self, from: impl Fn(LaneState) -> bool, to: LaneState) {
        for l in self.control.lanes.iter_mut() {
            if from(*l) {
                *l = to;
            }
        }
    }

    /// Where a branch of an `if` goes on: into the branch (`next`) while any
    /// lane runs it, otherwise straight to `skip` (`None` when the block
    /// has no such instruction).
    fn next_or_skip(&self, next: usize, skip: Option<usize>) -> Option<usize> {
        if self.active_lanes().next().is_some() {
            Some(next)
        } else {
            skip
        }
    }

    /// Leaves the innermost block (frame `d`) at its end: the lanes parked
    /// on it at any of `resumes` run again, and its frame goes.
    fn close_block(&mut self, d: usize, resumes: &[Resume]) {
        self.set_lanes(
            |l| matches!(l, LaneState::Waiting(fd, r) if fd == d && resumes.contains(&r)),
            LaneState::Active,
        );
        self.control.frames.pop();
    }

    fn innermost(&self, pred: impl Fn(&Frame) -> bool) -> Option<usize> {
        self.control.frames.iter().rposition(pred)
    }

    pub(super) fn flow(&mut self, index: usize, inst: &Instruction) -> Result<(), VmError> {
        let result = self.flow_lanes(index, inst);
        self.control.refresh();
        result
    }

    fn flow_lanes(&mut self, index: usize, inst: &Instruction) -> Result<(), VmError> {
        let depth = self.control.frames.len();
        let next = index + 1;
        let malformed = |m: &str| VmError::Malformed {
            index,
            message: m.to_string(),
        };
        // The frame a block's `else`/`end…` belongs to; `m` names the
        // instruction found with no block open.
        let innermost_frame = |m: &str| depth.checked_sub(1).ok_or_else(|| malformed(m));
        match inst.op {
            // if
            Op::If => {
                let running = self.execution_mask();
                let taken = self.tests(index, inst)?;
                for l in 0..LANES {
                    if running[l] && !taken[l] {
                        self.control.lanes[l] = LaneState::Waiting(depth, Resume::Else);
                    }
                }
                self.control.frames.push(Frame::If);
                let skip = self.prepared.structure.else_of[index]
                    .or(self.prepared.structure.end_of[index]);
                self.pc = self
                    .next_or_skip(next, skip)
                    .ok_or_else(|| malformed("`if` without `endif`"))?;
            }
            // else
            Op::Else => {
                let d = innermost_frame("`else` outside `if`")?;
                for l in self.control.lanes.iter_mut() {
                    *l = match *l {
                        LaneState::Active => LaneState::Waiting(d, Resume::End),
                        LaneState::Waiting(fd, Resume::Else) if fd == d => LaneState::Active,
                        other => other,
                    };
                }
                self.pc = self
                    .next_or_skip(next, self.prepared.structure.end_of[index])
                    .ok_or_else(|| malformed("`else` without `endif`"))?;
            }
            // endif
            Op::Endif => {
                let d = innermost_frame("`endif` outside `if`")?;
                self.close_block(d, &[Resume::Else, Resume::End]);
                self.pc = next;
            }
            // loop
            Op::Loop => {
                self.control.frames.push(Frame::Loop { start: index });
                self.pc = next;
            }
            // endloop
            Op::Endloop => {
                let d = innermost_frame("`endloop` outside `loop`")?;
                let Some(Frame::Loop { start }) = self.control.frames.last().cloned() else {
                    return Err(malformed("`endloop` does not close a `loop`"));
                };
                self.set_lanes(
                    |l| l == LaneState::Waiting(d, Resume::Continue),
                    LaneState::Active,
                );
                if self.active_lanes().next().is_some() {
                    self.pc = start + 1;
                } else {
                    self.close_block(d, &[Resume::Exit]);
                    self.pc = next;
                }
            }
            // break, breakc, continue, continuec
            Op::Break | Op::Breakc | Op::Continue | Op::Continuec => {
                let is_break = matches!(inst.op, Op::Break | Op::Breakc);
                let target = if is_break {
                    self.innermost(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. }))
                } else {
                    self.innermost(|f| matches!(f, Frame::Loop { .. }))
                }
                .ok_or_else(|| malformed("`break`/`continue` outside a loop or switch"))?;
                let resume = if is_break {
                    Resume::Exit
                } else {
                    Resume::Continue
                };
                let leaving = if matches!(inst.op, Op::Break | Op::Continue) {
                    self.execution_mask()
                } else {
                    self.tests(index, inst)?
                };
                for (lane, leaves) in self.control.lanes.iter_mut().zip(leaving) {
                    if leaves {
                        *lane = LaneState::Waiting(target, resume);
                    }
                }
                self.pc = next;
            }
            // switch
            Op::Switch => {
                let mut selector = [0u32; LANES];
                let running = self.execution_mask();
                let lanes = (0..LANES).filter(|&l| running[l]);
                let src = inst.operands.first().ok_or_else(|| self.missing(inst))?;
                for l in lanes {
                    selector[l] = self.read(src, l, NumType::Untyped)?[0];
                    self.control.lanes[l] = LaneState::Waiting(depth, Resume::Case);
                }
                self.control.frames.push(Frame::Switch {
                    open: index,
                    selector,
                });
                self.pc = next;
            }
            // case, default
            Op::Case | Op::Default => {
                let d = self
                    .innermost(|f| matches!(f, Frame::Switch { .. }))
                    .ok_or_else(|| malformed("`case` outside `switch`"))?;
                let Frame::Switch { open, selector } = self.control.frames[d].clone() else {
                    return Err(malformed("`case` outside `switch`"));
                };
                let value = inst.operands.first().and_then(|o| o.imm.first().copied());
                let cases = &self.prepared.structure.cases[open];
                for (lane, sel) in self.control.lanes.iter_mut().zip(selector) {
                    if *lane == LaneState::Waiting(d, Resume::Case) {
                        let hit = match value {
                            Some(v) => sel == v,
                            None => !cases.contains(&sel),
                        };
                        if hit {
                            *lane = LaneState::Active;
                        }
                    }
                }
                self.pc = next;
            }
            // endswitch
            Op::Endswitch => {
                let d = innermost_frame("`endswitch` outside `switch`")?;
                self.close_block(d, &[Resume::Exit, Resume::Case]);
                self.pc = next;
            }
            // discard: the lane keeps running (its neighbours' derivatives
            // need it) but its outputs are dropped.
            Op::Discard => {
                let taken = self.tests(index, inst)?;
                for (d, taken) in self.control.discarded.iter_mut().zip(taken) {
                    *d |= taken;
                }
                self.pc = next;
            }
            // ret, retc
            Op::Ret | Op::Retc => {
                let leaving = if inst.op == Op::Ret {
                    self.execution_mask()
                } else {
                    self.tests(index, inst)?
                };
                let call = self.innermost(|f| matches!(f, Frame::Call { .. }));
                for (lane, leaves) in self.control.lanes.iter_mut().zip(leaving) {
                    if leaves {
                        *lane = match call {
                            Some(d) => LaneState::Waiting(d, Resume::Return),
                            None => LaneState::Retired,
                        };
                    }
                }
                self.pc = next;
                if let Some(d) = call {
                    let waiting_deeper = self
                        .control
                        .lanes
                        .iter()
                        .any(|l| matches!(l, LaneState::Waiting(fd, _) if *fd > d));
                    if self.active_lanes().next().is_none() && !waiting_deeper {
                        self.set_lanes(
                            |l| l == LaneState::Waiting(d, Resume::Return),
                            LaneState::Active,
                        );
                        let Frame::Call { ret } = self.control.frames[d] else {
                            return Err(malformed("bad call frame"));
                        };
                        self.control.frames.truncate(d);
                        self.pc = ret;
                    }
                } else if self.active_lanes().next().is_none()
                    && !self
                        .control
                        .lanes
                        .iter()
                        .any(|l| matches!(l, LaneState::Waiting(..)))
                {
                    self.control.finished = true;
                }
                if call.is_none() && matches!(inst.op, Op::Ret) && depth == 0 {
                    self.control.finished = true;
                }
            }
            // A call with 32 return addresses already stacked is skipped
            // over (D3D11's subroutine nesting limit), for every lane.
            Op::Call | Op::Callc | Op::InterfaceCall if self.stack_full() => {
                self.pc = next;
            }
            // call, callc
            Op::Call | Op::Callc => {
                let label = inst
                    .operands
                    .last()
                    .and_then(|o| o.reg())
                    .ok_or_else(|| self.missing(inst))?;
                let at = self
                    .prepared
                    .structure
                    .label(label)
                    .ok_or_else(|| malformed("call to a label that does not exist"))?;
                if inst.op == Op::Callc {
                    let running = self.execution_mask();
                    let taken = self.tests(index, inst)?;
                    for l in 0..LANES {
                        if running[l] && !taken[l] {
                            self.control.lanes[l] = LaneState::Waiting(depth, Resume::Return);
                        }
                    }
                }
                self.control.frames.push(Frame::Call { ret: next });
                if self.active_lanes().next().is_none() {
                    self.set_lanes(
                        |l| l == LaneState::Waiting(depth, Resume::Return),
                        LaneState::Active,
                    );
                    self.control.frames.pop();
                    self.pc = next;
                } else {
                    self.pc = at + 1;
                }
            }
            // fcall fpN[index][site]: a call to the body the bound class's
            // table gives for the site.
            Op::InterfaceCall => {
                if self.active_lanes().next().is_none() {
                    self.pc = next;
                    return Ok(());
                }
                let at = self.interface_target(index, inst)?;
                self.control.frames.push(Frame::Call { ret: next });
                self.pc = at + 1;
            }
            _ => self.pc = next,
        }
        Ok(())
    }
}

impl Machine {
    /// Whether the return-address stack holds D3D11's limit of calls.
    fn stack_full(&self) -> bool {
        let calls = self
            .control
            .frames
            .iter()
            .filter(|f| matches!(f, Frame::Call { .. }))
            .count();
        calls >= SUBROUTINE_NESTING_LIMIT
    }

    /// The `label` an `fcall` runs. A dynamic array index is read per
    /// active lane: D3D leaves a call whose index differs between the
    /// lanes of a quad undefined, so the emulator stops there rather than
    /// pick one lane's.
    fn interface_target(&self, index: usize, inst: &Instruction) -> Result<usize, VmError> {
        let op = inst.operands.first().ok_or_else(|| self.missing(inst))?;
        let fp = op.reg().ok_or_else(|| VmError::Malformed {
            index,
            message: "`fcall` without an interface number".to_string(),
        })?;
        let site = match inst.decl {
            DeclKind::InterfaceCall { function } => function,
            _ => 0,
        };
        let mut array_index = None;
        for l in self.active_lanes() {
            let v = match op.indices.get(1) {
                Some(i) => self.index_value(i, l)?,
                None => 0,
            };
            match array_index {
                Some(first) if first != v => {
                    return Err(VmError::Operand {
                        index,
                        message: format!(
                            "fp{fp}'s array index differs across the quad ({first} and {v}): \
                             undefined in D3D11"
                        ),
                    });
                }
                _ => array_index = Some(v),
            }
        }
        let (at, _slot) = crate::vm::interfaces::resolve(
            &self.prepared.linkage,
            &self.setup.interfaces,
            fp,
            array_index.unwrap_or(0),
            site,
        )
        .map_err(|e| VmError::Operand {
            index,
            message: e.to_string(),
        })?;
        Ok(at)
    }
}
