//! Explaining the texture instruction at the program counter without
//! running it: per lane, what the texture unit would read and return. The
//! operands are read by the same helpers `sampling.rs` executes with
//! (coordinates, the quad's derivatives, LOD sources, offsets), and the
//! texture unit's `explain_*` entry points reuse its filtering code, so the
//! detail is what a step computes. Nothing here runs on the normal path.

use super::VmError;
use super::machine::Machine;
use super::sampling::{
    channel, coords, floats, gather_offset, gradients, min_lod_clamp, operand, sample_lod, scalar,
    swizzle,
};
use super::state::{LANES, Reg};
use super::texture::{self, FetchDetail, Sampler, TextureDesc};
use crate::dxbc::ir::{Instruction, Operand};
use crate::dxbc::opcodes::{NumType, Op};

/// One lane's texture read at the program counter.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneFetch {
    /// The resource slot (`t#`).
    pub texture: u32,
    /// The bound texture's description; `None` when the slot is unbound
    /// (the read returns zeros).
    pub desc: Option<TextureDesc>,
    /// The sampler slot (`s#`) and its state; `None` for `ld`.
    pub sampler: Option<(u32, Sampler)>,
    /// What the texture unit did; `None` when the slot is unbound.
    pub detail: Option<FetchDetail>,
    /// The value the destination receives: the result through the
    /// resource operand's swizzle (before the write mask).
    pub value: Reg,
}

/// Whether `op` is a texture read [`Machine::explain_fetch`] explains.
pub fn explains(op: Op) -> bool {
    matches!(
        op,
        Op::Sample
            | Op::SampleC
            | Op::SampleCLz
            | Op::SampleL
            | Op::SampleD
            | Op::SampleB
            | Op::Gather4
            | Op::Gather4C
            | Op::Gather4Po
            | Op::Gather4PoC
            | Op::Ld
    )
}

impl Machine {
    /// The texture read the instruction at the program counter would do in
    /// each running lane (`None` for lanes that do not run), from the
    /// current state, without executing it. `Ok(None)` when the instruction
    /// is not a sample, gather or `ld` (tiled `_s` forms included: they
    /// explain as the plain instruction they compute).
    pub fn explain_fetch(&self) -> Result<Option<[Option<LaneFetch>; LANES]>, VmError> {
        let index = self.pc();
        let Some(inst) = self.program().instructions.get(index) else {
            return Ok(None);
        };
        let parts;
        let (inst, clamp) = if inst.op.feedback_form().is_some() {
            parts = match inst.feedback_parts() {
                Some(p) => p,
                None => return Ok(None),
            };
            (&parts.plain, parts.clamp.as_ref())
        } else {
            (inst, None)
        };
        if !explains(inst.op) {
            return Ok(None);
        }
        let running = self.execution_mask();
        let mut out: [Option<LaneFetch>; LANES] = Default::default();
        for (l, slot) in out.iter_mut().enumerate() {
            if running[l] {
                *slot = Some(self.explain_lane(index, inst, clamp, l)?);
            }
        }
        Ok(Some(out))
    }

    fn explain_lane(
        &self,
        index: usize,
        inst: &Instruction,
        clamp: Option<&Operand>,
        l: usize,
    ) -> Result<LaneFetch, VmError> {
        let op = |i: usize| operand(index, inst, i);
        let offsets = inst.offsets().map(|o| o.map(i32::from)).unwrap_or([0; 3]);
        let (res, smp) = match inst.op {
            Op::Ld => (op(2)?, None),
            Op::Gather4Po | Op::Gather4PoC => (op(3)?, Some(op(4)?)),
            _ => (op(2)?, Some(op(3)?)),
        };
        let slot = self.slot(index, res)?;
        let tex = self.resources().texture(slot);
        let sampler = match smp {
            Some(s) => {
                let n = self.slot(index, s)?;
                Some((n, self.resources().sampler(n)))
            }
            None => None,
        };
        let detail = match tex {
            None => None,
            Some(tex) => Some(match inst.op {
                Op::Ld => {
                    let coord = self.read(op(1)?, l, NumType::Int)?;
                    texture::explain_ld(tex, coord, offsets)
                }
                Op::Gather4 | Op::Gather4C | Op::Gather4Po | Op::Gather4PoC => {
                    let po = matches!(inst.op, Op::Gather4Po | Op::Gather4PoC);
                    let s = smp.unwrap_or(res);
                    let reference = if matches!(inst.op, Op::Gather4C | Op::Gather4PoC) {
                        Some(scalar(self, op(if po { 5 } else { 4 })?, l)?)
                    } else {
                        None
                    };
                    let coord = floats(self.read(op(1)?, l, NumType::Float)?);
                    let smp_state = sampler.map(|(_, s)| s).unwrap_or_default();
                    texture::explain_gather(
                        tex,
                        &smp_state,
                        coord,
                        gather_offset(self, index, inst, l)?,
                        po,
                        channel(s),
                        reference,
                    )
                }
                _ => {
                    let c = coords(self, op(1)?)?;
                    let (ddx, ddy) = gradients(&c);
                    let lod = sample_lod(self, index, inst, l, ddx, ddy)?;
                    let reference = if matches!(inst.op, Op::SampleC | Op::SampleCLz) {
                        Some(scalar(self, op(4)?, l)?)
                    } else {
                        None
                    };
                    let smp_state = sampler.map(|(_, s)| s).unwrap_or_default();
                    texture::explain_sample(
                        tex,
                        &smp_state,
                        floats(c[l]),
                        offsets,
                        lod,
                        min_lod_clamp(self, clamp, l)?,
                        reference,
                    )
                }
            }),
        };
        let result = detail.as_ref().map_or([0; 4], |d| d.result);
        Ok(LaneFetch {
            texture: slot,
            desc: tex.map(|t| *t.desc()),
            sampler,
            detail,
            value: swizzle(res, result),
        })
    }
}

#[cfg(test)]
#[path = "fetch_tests.rs"]
mod tests;
