//! Operands: a source operand's index arithmetic and value (with its
//! modifier), and where a destination writes (with saturation and the undo
//! log).

use super::{Change, Machine};
use crate::dxbc::ir::*;
use crate::dxbc::opcodes::NumType;
use crate::vm::VmError;
use crate::vm::float;
use crate::vm::state::{Loc, Reg};

impl Machine {
    pub(super) fn index_value(&self, idx: &Index, lane: usize) -> Result<u32, VmError> {
        Ok(match idx {
            Index::Imm32(v) => *v,
            Index::Imm64(v) => *v as u32,
            Index::Relative(r) => self.read(r, lane, NumType::Untyped)?[0],
            Index::Imm32Relative(v, r) => v.wrapping_add(self.read(r, lane, NumType::Untyped)?[0]),
            Index::Imm64Relative(v, r) => {
                (*v as u32).wrapping_add(self.read(r, lane, NumType::Untyped)?[0])
            }
        })
    }

    /// The slot a resource or sampler operand names. fxc indexes them
    /// dynamically (`t[r0.w + 0]`) with a class instance's base slots
    /// from `this[]`; the value is read for every active lane, and lanes
    /// that disagree stop the run (a quad samples through one slot; D3D
    /// leaves a divergent index undefined).
    pub(in crate::vm) fn slot(&self, index: usize, op: &Operand) -> Result<u32, VmError> {
        let Some(first) = op.indices.first() else {
            return Ok(u32::MAX);
        };
        if let Index::Imm32(v) = first {
            return Ok(*v);
        }
        let mut slot = None;
        for l in self.active_lanes() {
            let v = self.index_value(first, l)?;
            match slot {
                Some(s) if s != v => {
                    return Err(VmError::Operand {
                        index,
                        message: format!(
                            "the {} index differs across the quad ({s} and {v}): \
                             undefined in D3D11",
                            op.ty.prefix().unwrap_or("resource")
                        ),
                    });
                }
                _ => slot = Some(v),
            }
        }
        Ok(slot.unwrap_or(u32::MAX))
    }

    #[inline]
    fn indices(&self, op: &Operand, lane: usize) -> Result<[u32; 3], VmError> {
        // Most operands are `r3`, `cb0[4]`: plain immediates.
        match op.indices.as_slice() {
            [] => return Ok([0; 3]),
            [Index::Imm32(a)] => return Ok([*a, 0, 0]),
            [Index::Imm32(a), Index::Imm32(b)] => return Ok([*a, *b, 0]),
            _ => {}
        }
        let mut out = [0; 3];
        for (i, idx) in op.indices.iter().take(3).enumerate() {
            out[i] = self.index_value(idx, lane)?;
        }
        Ok(out)
    }

    /// The register's four components before swizzle and modifiers.
    fn fetch(&self, op: &Operand, lane: usize) -> Result<Reg, VmError> {
        let zero = [0u32; 4];
        let i = self.indices(op, lane)?;
        let row = |v: Option<&Reg>| *v.unwrap_or(&zero);
        let l = &self.state.lanes[lane];
        Ok(match op.ty {
            OperandType::IMMEDIATE32 | OperandType::IMMEDIATE64 => {
                op.immediate_lanes().unwrap_or(zero)
            }
            OperandType::TEMP => row(l.temps.get(i[0] as usize)),
            OperandType::INPUT => row(self.state.inputs[lane].get(i[0] as usize)),
            OperandType::OUTPUT => row(l.outputs.get(i[0] as usize)),
            OperandType::INDEXABLE_TEMP => row(l
                .indexable
                .get(i[0] as usize)
                .and_then(|x| x.get(i[1] as usize))),
            OperandType::CONSTANT_BUFFER => row(self
                .state
                .constant_buffers
                .get(i[0] as usize)
                // From shader model 5.1 on `CB#[register][row]`: the row
                // is the third index.
                .and_then(|cb| {
                    cb.get(i[self.prepared.program.constant_buffer_row_index()] as usize)
                })),
            OperandType::IMMEDIATE_CONSTANT_BUFFER => row(self.state.icb.get(i[0] as usize)),
            OperandType::INPUT_PRIMITIVEID => [self.setup.primitive_id; 4],
            // The instance data bound to interface slot i[0].
            OperandType::THIS_POINTER => self.setup.interfaces.get(i[0]).this,
            OperandType::INPUT_COVERAGE_MASK => [self.setup.coverage[lane]; 4],
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => [l.depth; 4],
            OperandType::OUTPUT_COVERAGE_MASK => [l.coverage; 4],
            OperandType::NULL => zero,
            other => return Err(self.not_emulated("reading", other)),
        })
    }

    /// A source operand: swizzled, with modifiers applied as `kind` reads them.
    pub(in crate::vm) fn read(
        &self,
        op: &Operand,
        lane: usize,
        kind: NumType,
    ) -> Result<Reg, VmError> {
        let raw = self.fetch(op, lane)?;
        let v = match op.selection {
            Selection::Swizzle(s) => s.map(|c| raw[c as usize & 3]),
            Selection::Select1(c) => [raw[c as usize & 3]; 4],
            _ => raw,
        };
        Ok(Self::modify(v, kind, op.modifier))
    }

    /// Denormal flushing (float reads) and the source modifier, decided once
    /// per operand rather than per component.
    #[inline(always)]
    pub(in crate::vm) fn modify(v: Reg, kind: NumType, modifier: Modifier) -> Reg {
        // The common case first: no modifier.
        if modifier == Modifier::None {
            return if kind == NumType::Float {
                v.map(float::flush)
            } else {
                v
            };
        }
        Self::modify_slow(v, kind, modifier)
    }

    #[cold]
    fn modify_slow(v: Reg, kind: NumType, modifier: Modifier) -> Reg {
        // A double's sign is in its high word; its denormals are kept.
        if kind == NumType::Double {
            let (neg, abs) = match modifier {
                Modifier::None => (false, false),
                Modifier::Neg => (true, false),
                Modifier::Abs => (false, true),
                Modifier::AbsNeg => (true, true),
            };
            return crate::vm::double::modify(v, neg, abs);
        }
        let flush = kind == NumType::Float;
        let m = |b: u32| if flush { float::flush(b) } else { b };
        match (kind, modifier) {
            (_, Modifier::None) => v.map(m),
            (k, Modifier::Neg) if k.is_integer() => v.map(|b| b.wrapping_neg()),
            (k, Modifier::Abs) if k.is_integer() => v.map(|b| (b as i32).wrapping_abs() as u32),
            (k, Modifier::AbsNeg) if k.is_integer() => {
                v.map(|b| (b as i32).wrapping_abs().wrapping_neg() as u32)
            }
            (_, Modifier::Neg) => v.map(|b| m(b) ^ 0x8000_0000),
            (_, Modifier::Abs) => v.map(|b| m(b) & 0x7fff_ffff),
            (_, Modifier::AbsNeg) => v.map(|b| m(b) | 0x8000_0000),
        }
    }

    /// Where a destination operand writes, and its write mask.
    pub(super) fn target(&self, op: &Operand, lane: usize) -> Result<Option<(Loc, u8)>, VmError> {
        let mask = match op.selection {
            Selection::Mask(m) => m,
            _ if op.components == Components::One => 1,
            _ => 0xf,
        };
        let i = self.indices(op, lane)?;
        Ok(match op.ty {
            OperandType::TEMP => Some((Loc::Temp(i[0]), mask)),
            OperandType::OUTPUT => Some((Loc::Output(i[0]), mask)),
            OperandType::INDEXABLE_TEMP => Some((Loc::Indexable(i[0], i[1]), mask)),
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => Some((Loc::Depth, 1)),
            OperandType::OUTPUT_COVERAGE_MASK => Some((Loc::Coverage, 1)),
            OperandType::OUTPUT_STENCIL_REF => Some((Loc::StencilRef, 1)),
            OperandType::NULL => None,
            other => return Err(self.not_emulated("writing", other)),
        })
    }

    /// Writes each lane's value (where it has one) through destination
    /// `op`, as [`Machine::write`] for each lane in turn. A destination
    /// with immediate indices names the same register in every lane, so
    /// without an undo log it is looked up once for the quad.
    pub(in crate::vm) fn write_lanes(
        &mut self,
        op: &Operand,
        values: &[Option<Reg>; crate::vm::state::LANES],
    ) -> Result<(), VmError> {
        let Some(first) = values.iter().position(Option::is_some) else {
            return Ok(());
        };
        let immediate = op.indices.iter().all(|i| matches!(i, Index::Imm32(_)));
        let target = if immediate && !self.recording {
            self.target(op, first)?
        } else {
            None
        };
        let Some((loc, mask)) =
            target.filter(|(loc, _)| !matches!(loc, Loc::Depth | Loc::Coverage | Loc::StencilRef))
        else {
            for (l, v) in values.iter().enumerate() {
                if let Some(v) = v {
                    self.write(op, l, *v, false)?;
                }
            }
            return Ok(());
        };
        for (l, v) in values.iter().enumerate() {
            let (Some(v), Some(reg)) = (v, self.state.lanes[l].reg_mut(loc)) else {
                continue;
            };
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                reg[c] = v[c];
            }
        }
        Ok(())
    }

    /// Writes `value` through destination `op` for `lane`, recording changes.
    pub(in crate::vm) fn write(
        &mut self,
        op: &Operand,
        lane: usize,
        value: Reg,
        saturate: bool,
    ) -> Result<(), VmError> {
        let Some((loc, mask)) = self.target(op, lane)? else {
            return Ok(());
        };
        // The register (or the scalar output's one slot) is found once per
        // write, not per component: texture results and the other
        // general-path instructions write through here.
        let scalar = matches!(loc, Loc::Depth | Loc::Coverage | Loc::StencilRef);
        let regs = &mut self.state.lanes[lane];
        let found = if scalar {
            regs.component_mut(loc, 0).map(std::slice::from_mut)
        } else {
            regs.reg_mut(loc).map(|r| &mut r[..])
        };
        let Some(slots) = found else {
            return Ok(());
        };
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            let v = if saturate {
                float::saturate(value[c])
            } else {
                value[c]
            };
            let component = if scalar { 0 } else { c };
            let slot = &mut slots[component];
            if *slot != v && self.recording {
                self.writes.push(Change {
                    loc,
                    lane,
                    component,
                    old: *slot,
                    new: v,
                });
            }
            *slot = v;
        }
        Ok(())
    }
}

/// One source operand of the instruction at the program counter, as one
/// lane reads it (for [`Machine::source_values`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceValue {
    /// The operand's position in the instruction (destinations first).
    pub operand: usize,
    /// The four components after the swizzle, before the source modifier
    /// and any denormal flush: what the register held.
    pub raw: Reg,
    /// As the instruction reads them: the modifier applied and, for float
    /// sources, denormals flushed (the opcode description's source type).
    pub read: Reg,
}

impl Machine {
    /// The value sources of the instruction at the program counter as
    /// `lane` reads them now, without executing it: registers, constant
    /// buffers and immediates. Resource, sampler, UAV and label operands
    /// name slots, not values, and are left out. For tools that ask what an
    /// instruction was given (the D3D↔GLSL gap detector), never on the
    /// normal path. Empty when the machine has finished.
    pub fn source_values(&self, lane: usize) -> Result<Vec<SourceValue>, VmError> {
        let Some(inst) = self.program().instructions.get(self.pc) else {
            return Ok(Vec::new());
        };
        let info = inst.info();
        let kind = info.source_type().unwrap_or(NumType::Untyped);
        let mut out = Vec::new();
        for (i, op) in inst.operands.iter().enumerate().skip(info.dst as usize) {
            let is_value = matches!(
                op.ty,
                OperandType::TEMP
                    | OperandType::INPUT
                    | OperandType::OUTPUT
                    | OperandType::INDEXABLE_TEMP
                    | OperandType::IMMEDIATE32
                    | OperandType::CONSTANT_BUFFER
                    | OperandType::IMMEDIATE_CONSTANT_BUFFER
                    | OperandType::INPUT_PRIMITIVEID
                    | OperandType::THIS_POINTER
                    | OperandType::INPUT_COVERAGE_MASK
            );
            if !is_value {
                continue;
            }
            let raw = self.fetch(op, lane)?;
            let raw = match op.selection {
                Selection::Swizzle(s) => s.map(|c| raw[c as usize & 3]),
                Selection::Select1(c) => [raw[c as usize & 3]; 4],
                _ => raw,
            };
            out.push(SourceValue {
                operand: i,
                raw,
                read: Self::modify(raw, kind, op.modifier),
            });
        }
        Ok(out)
    }
}
