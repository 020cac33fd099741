//! Texture instructions: reading coordinates, offsets, LODs and references
//! from the operands, calling the texture unit per lane, then applying the
//! resource operand's swizzle and the destination mask. Implicit LODs use
//! the quad's coarse derivatives of the coordinate (top row for x, left
//! column for y), as the hardware's quad does.

use super::VmError;
use super::alu::FULLY_MAPPED_STATUS;
use super::machine::Machine;
use super::state::{LANES, Reg};
use super::texture::{self, Lod, ResInfoReturn, SampleInfoReturn, Sampler, Texture};
use crate::dxbc::ir::{Instruction, Operand, OperandType, Selection};
use crate::dxbc::opcodes::NumType;
use crate::dxbc::opcodes::Op;

/// Textures and samplers bound by register (`t#`, `s#`). An unbound
/// texture reads as zeros, as in D3D; an unbound sampler uses D3D's
/// default sampler state.
#[derive(Debug, Clone, Default)]
pub struct Resources {
    pub textures: Vec<Option<Texture>>,
    pub samplers: Vec<Option<Sampler>>,
    /// Raw and structured buffers bound as SRVs (`t#`; a slot holds a
    /// texture or a buffer, never both).
    pub buffers: Vec<Option<super::memory::Buffer>>,
}

impl Resources {
    pub fn texture(&self, slot: u32) -> Option<&Texture> {
        self.textures.get(slot as usize)?.as_ref()
    }

    pub fn buffer(&self, slot: u32) -> Option<&super::memory::Buffer> {
        self.buffers.get(slot as usize)?.as_ref()
    }

    pub fn sampler(&self, slot: u32) -> Sampler {
        self.samplers
            .get(slot as usize)
            .and_then(Option::as_ref)
            .cloned()
            .unwrap_or_default()
    }
}

pub(super) fn floats(r: Reg) -> [f32; 4] {
    r.map(|b| f32::from_bits(super::float::flush(b)))
}

/// The resource operand's swizzle applied to a fetched texel (or to the
/// words a buffer load read: `vm::memory` applies it the same way).
pub(super) fn swizzle(op: &Operand, v: Reg) -> Reg {
    match op.selection {
        Selection::Swizzle(s) => s.map(|c| v[c as usize & 3]),
        Selection::Select1(c) => [v[c as usize & 3]; 4],
        _ => v,
    }
}

/// The component a sampler operand selects for gather (`s0.y` → 1).
pub(super) fn channel(op: &Operand) -> u32 {
    match op.selection {
        Selection::Select1(c) => c as u32,
        Selection::Swizzle(s) => s[0] as u32,
        _ => 0,
    }
}

fn unsupported(index: usize, inst: &Instruction, reason: &str) -> VmError {
    VmError::Unsupported {
        index,
        mnemonic: inst.name().to_string(),
        reason: reason.to_string(),
    }
}

/// Runs a texture instruction. A tiled-resource `_s` form runs as the
/// plain instruction it computes (with its minimum-LOD clamp, `_cl`), then
/// writes its status: [`FULLY_MAPPED_STATUS`] for every lane that ran,
/// the emulator's resources being none of them tiled.
pub fn execute(m: &mut Machine, index: usize, inst: &Instruction) -> Result<(), VmError> {
    if inst.op.feedback_form().is_none() {
        return execute_plain(m, index, inst, None);
    }
    let parts = inst.feedback_parts().ok_or_else(|| VmError::Malformed {
        index,
        message: format!("`{}` is missing operands", inst.name()),
    })?;
    execute_plain(m, index, &parts.plain, parts.clamp.as_ref())?;
    let running = m.execution_mask();
    for l in (0..LANES).filter(|&l| running[l]) {
        m.write(&parts.status, l, [FULLY_MAPPED_STATUS; 4], false)?;
    }
    Ok(())
}

/// The operand `i` of a texture instruction at `index`.
pub(super) fn operand(index: usize, inst: &Instruction, i: usize) -> Result<&Operand, VmError> {
    inst.operands.get(i).ok_or_else(|| VmError::Malformed {
        index,
        message: format!("`{}` is missing operands", inst.name()),
    })
}

/// The address operand's lanes in all four lanes (implicit LODs need
/// the neighbours).
pub(super) fn coords(m: &Machine, src: &Operand) -> Result<[Reg; LANES], VmError> {
    let mut c = [[0; 4]; LANES];
    for (l, slot) in c.iter_mut().enumerate() {
        *slot = m.read(src, l, NumType::Untyped)?;
    }
    Ok(c)
}

/// A scalar float operand of lane `l`, denormals flushed.
pub(super) fn scalar(m: &Machine, src: &Operand, l: usize) -> Result<f32, VmError> {
    Ok(f32::from_bits(super::float::flush(
        m.read(src, l, NumType::Float)?[0],
    )))
}

/// The quad's coarse derivatives of the coordinate: top row for x, left
/// column for y.
pub(super) fn gradients(c: &[Reg; LANES]) -> ([f32; 3], [f32; 3]) {
    let (a, bx, by) = (floats(c[0]), floats(c[1]), floats(c[2]));
    (
        [bx[0] - a[0], bx[1] - a[1], bx[2] - a[2]],
        [by[0] - a[0], by[1] - a[1], by[2] - a[2]],
    )
}

/// Where a `sample*` instruction's LOD comes from in lane `l`; `ddx`,
/// `ddy` are the quad's derivatives of the coordinate.
pub(super) fn sample_lod(
    m: &Machine,
    index: usize,
    inst: &Instruction,
    l: usize,
    ddx: [f32; 3],
    ddy: [f32; 3],
) -> Result<Lod, VmError> {
    let op = |i| operand(index, inst, i);
    Ok(match inst.op {
        Op::SampleL => Lod::Explicit(scalar(m, op(4)?, l)?),
        Op::SampleD => {
            let (gx, gy) = (
                floats(m.read(op(4)?, l, NumType::Float)?),
                floats(m.read(op(5)?, l, NumType::Float)?),
            );
            Lod::FromGradients {
                ddx: [gx[0], gx[1], gx[2]],
                ddy: [gy[0], gy[1], gy[2]],
                bias: 0.0,
            }
        }
        Op::SampleCLz => Lod::Zero,
        Op::SampleB => Lod::FromGradients {
            ddx,
            ddy,
            bias: scalar(m, op(4)?, l)?,
        },
        _ => Lod::FromGradients {
            ddx,
            ddy,
            bias: 0.0,
        },
    })
}

/// A `_cl` form's per-sample minimum-LOD clamp in lane `l`.
pub(super) fn min_lod_clamp(
    m: &Machine,
    clamp: Option<&Operand>,
    l: usize,
) -> Result<f32, VmError> {
    match clamp {
        Some(o) => scalar(m, o, l),
        None => Ok(texture::NO_LOD_CLAMP),
    }
}

/// A gather's texel offset in lane `l`: the `_po` forms' operand (all 32
/// bits; the texture unit keeps the low 6) or the `aoffimmi`.
pub(super) fn gather_offset(
    m: &Machine,
    index: usize,
    inst: &Instruction,
    l: usize,
) -> Result<[i32; 2], VmError> {
    if matches!(inst.op, Op::Gather4Po | Op::Gather4PoC) {
        let o = m.read(operand(index, inst, 2)?, l, NumType::Int)?;
        Ok([o[0] as i32, o[1] as i32])
    } else {
        let o = inst.offsets().map(|o| o.map(i32::from)).unwrap_or([0; 3]);
        Ok([o[0], o[1]])
    }
}

/// Runs a texture instruction without feedback; `clamp` is the per-sample
/// minimum-LOD clamp operand of a `_cl` form (read per lane as a float).
fn execute_plain(
    m: &mut Machine,
    index: usize,
    inst: &Instruction,
    clamp: Option<&Operand>,
) -> Result<(), VmError> {
    let op = |i: usize| operand(index, inst, i);
    let offsets = inst.offsets().map(|o| o.map(i32::from)).unwrap_or([0; 3]);
    let dst = op(0)?;
    let running = m.execution_mask();

    let mut results = [None::<Reg>; LANES];
    match inst.op {
        // sample, sample_b, sample_l, sample_d, sample_c, sample_c_lz
        Op::Sample | Op::SampleC | Op::SampleCLz | Op::SampleL | Op::SampleD | Op::SampleB => {
            let c = coords(m, op(1)?)?;
            let (res, smp) = (op(2)?, op(3)?);
            let sampler = m.resources().sampler(m.slot(index, smp)?);
            let (ddx, ddy) = gradients(&c);
            for l in (0..LANES).filter(|&l| running[l]) {
                let lod = sample_lod(m, index, inst, l, ddx, ddy)?;
                let min_lod = min_lod_clamp(m, clamp, l)?;
                let r = match m.resources().texture(m.slot(index, res)?) {
                    None => [0; 4],
                    Some(tex) if matches!(inst.op, Op::SampleC | Op::SampleCLz) => {
                        let reference = scalar(m, op(4)?, l)?;
                        texture::sample_c_cl(
                            tex,
                            &sampler,
                            floats(c[l]),
                            offsets,
                            reference,
                            lod,
                            min_lod,
                        )
                    }
                    Some(tex) => {
                        texture::sample_cl(tex, &sampler, floats(c[l]), offsets, lod, min_lod)
                    }
                };
                results[l] = Some(swizzle(res, r));
            }
        }
        // gather4, gather4_c, gather4_po, gather4_po_c
        Op::Gather4 | Op::Gather4C | Op::Gather4Po | Op::Gather4PoC => {
            let po = matches!(inst.op, Op::Gather4Po | Op::Gather4PoC);
            let compare = matches!(inst.op, Op::Gather4C | Op::Gather4PoC);
            let (res_i, smp_i) = if po { (3, 4) } else { (2, 3) };
            let (res, smp) = (op(res_i)?, op(smp_i)?);
            let sampler = m.resources().sampler(m.slot(index, smp)?);
            let ch = channel(smp);
            // The `_po` forms differ only in how they read the offset.
            let gather = if po {
                texture::gather4_po
            } else {
                texture::gather4
            };
            let gather_c = if po {
                texture::gather4_po_c
            } else {
                texture::gather4_c
            };
            for l in (0..LANES).filter(|&l| running[l]) {
                let coord = floats(m.read(op(1)?, l, NumType::Float)?);
                let programmable = gather_offset(m, index, inst, l)?;
                let r = match m.resources().texture(m.slot(index, res)?) {
                    None => [0; 4],
                    Some(tex) if compare => {
                        let reference = scalar(m, op(smp_i + 1)?, l)?;
                        gather_c(tex, &sampler, coord, programmable, ch, reference)
                    }
                    Some(tex) => gather(tex, &sampler, coord, programmable, ch),
                };
                results[l] = Some(swizzle(res, r));
            }
        }
        // ld, ldms
        Op::Ld | Op::LdMs => {
            let res = op(2)?;
            for l in (0..LANES).filter(|&l| running[l]) {
                let coord = m.read(op(1)?, l, NumType::Int)?;
                let r = match m.resources().texture(m.slot(index, res)?) {
                    None => [0; 4],
                    Some(tex) if inst.op == Op::LdMs => {
                        let sample = m.read(op(3)?, l, NumType::Int)?[0];
                        texture::ldms(tex, coord, sample, offsets)
                    }
                    Some(tex) => texture::ld(tex, coord, offsets),
                };
                results[l] = Some(swizzle(res, r));
            }
        }
        // resinfo
        Op::Resinfo => {
            let res = op(2)?;
            let ret = inst.resinfo_return().unwrap_or(ResInfoReturn::Float);
            let uav = res.ty == OperandType::UNORDERED_ACCESS_VIEW;
            for l in (0..LANES).filter(|&l| running[l]) {
                let mip = m.read(op(1)?, l, NumType::Int)?[0];
                let slot = m.slot(index, res)?;
                // A UAV's size is its view's (`u#` slots are not textures);
                // an unbound slot reads zeros either way.
                let r = if uav {
                    m.uav(slot).map_or([0; 4], |b| b.resinfo(mip, ret))
                } else {
                    m.resources()
                        .texture(slot)
                        .map_or([0; 4], |t| texture::resinfo(t, mip, ret))
                };
                results[l] = Some(swizzle(res, r));
            }
        }
        // sampleinfo
        Op::SampleInfo => {
            let res = op(1)?;
            let ret = inst.sampleinfo_return().unwrap_or(SampleInfoReturn::Float);
            // The same for every lane: it reads no lane's registers.
            let r = if res.ty == OperandType::RASTERIZER {
                texture::sample_count_info(m.rasterizer_samples(), ret)
            } else {
                m.resources()
                    .texture(m.slot(index, res)?)
                    .map_or([0; 4], |t| texture::sampleinfo(t, ret))
            };
            for l in (0..LANES).filter(|&l| running[l]) {
                results[l] = Some(swizzle(res, r));
            }
        }
        // bufinfo
        Op::Bufinfo => {
            let res = op(1)?;
            let slot = m.slot(index, res)?;
            // Raw and structured views (SRV or UAV) report bytes or
            // elements; a typed buffer is a texture and reports elements.
            let raw_or_structured = if res.ty == OperandType::UNORDERED_ACCESS_VIEW {
                m.uav(slot)
            } else {
                m.resources().buffer(slot)
            };
            let r = match raw_or_structured {
                Some(b) => [b.info(); 4],
                None => m.resources().texture(slot).map_or([0; 4], texture::bufinfo),
            };
            for l in (0..LANES).filter(|&l| running[l]) {
                results[l] = Some(swizzle(res, r));
            }
        }
        // samplepos dst, resource or rasterizer, sample index
        Op::SamplePos => {
            let res = op(1)?;
            for l in (0..LANES).filter(|&l| running[l]) {
                let sample = m.read(op(2)?, l, NumType::Int)?[0];
                let r = if res.ty == OperandType::RASTERIZER {
                    texture::sample_position(m.rasterizer_samples(), sample)
                } else {
                    m.resources()
                        .texture(m.slot(index, res)?)
                        .map_or([0; 4], |t| texture::samplepos(t, sample))
                };
                results[l] = Some(swizzle(res, r));
            }
        }
        // lod
        Op::Lod => {
            let c = coords(m, op(1)?)?;
            let (res, smp) = (op(2)?, op(3)?);
            let sampler = m.resources().sampler(m.slot(index, smp)?);
            let (ddx, ddy) = gradients(&c);
            for l in (0..LANES).filter(|&l| running[l]) {
                let r = m
                    .resources()
                    .texture(m.slot(index, res)?)
                    .map_or([0; 4], |t| {
                        texture::calc_lod(t, &sampler, floats(c[l]), ddx, ddy)
                    });
                results[l] = Some(swizzle(res, r));
            }
        }
        _ => {
            return Err(unsupported(
                index,
                inst,
                "this texture instruction is not emulated",
            ));
        }
    }
    m.write_lanes(dst, &results)
}
