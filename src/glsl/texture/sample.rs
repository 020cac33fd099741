//! `sample`, `sample_l`, `sample_b`, `sample_d`, `sample_c`, `sample_c_lz`.
//!
//! Coordinates, LOD, bias, gradients and the reference are read as float;
//! immediate offsets become the `…Offset` forms. Array layers are rounded
//! to nearest even (`roundEven`) as D3D and the reference emulator do: GL
//! would round halves up and naga truncates. Comparison sampling builds the
//! coordinate-plus-reference vector in a `txVecN` temp per call site.
//!
//! Where GLSL has no explicit-LOD form for a shadow sampler, LOD 0 is
//! requested with zero gradients (`textureGrad(…, vec2(0.0), vec2(0.0))`):
//! always for 2D-array shadow (neither ES 3.00 nor naga has `textureLod`
//! there), and for cube shadow in es300 (vk450 has `textureLod`).

use super::super::emit::Emitter;
use super::super::types::Ty;
use super::super::{Dialect, Reason};
use super::{Ctx, Dim, assign_result, combined, combined_shadow, offset_literal, op};
use crate::dxbc::ir::Instruction;

/// The GLSL coordinate for `ctx`'s texture from operand 1: 1D lowered to
/// 2D at `v = 0.5`, array layers rounded to nearest even.
pub(crate) fn coord(e: &mut Emitter, inst: &Instruction, dim: Dim) -> String {
    let src = &inst.operands[1];
    match dim {
        Dim::Tex1D => {
            let u = e.read_scalar(inst, src, Ty::Float);
            format!("vec2({u}, 0.5)")
        }
        Dim::Tex1DArray => {
            let c = e.read_n(inst, src, 2, Ty::Float);
            let t = e.tmp();
            e.line(format!("vec2 {t} = {c};"));
            format!("vec3({t}.x, 0.5, roundEven({t}.y))")
        }
        Dim::Tex2DArray => {
            let c = e.read_n(inst, src, 3, Ty::Float);
            let t = e.tmp();
            e.line(format!("vec3 {t} = {c};"));
            format!("vec3({t}.xy, roundEven({t}.z))")
        }
        _ => e.read_n(inst, src, dim.glsl_components(), Ty::Float),
    }
}

/// A gradient operand cut to the addressed axes (1D: `vec2(g, 0.0)`).
fn gradient(e: &mut Emitter, inst: &Instruction, k: usize, dim: Dim) -> String {
    let src = &inst.operands[k];
    match dim {
        Dim::Tex1D | Dim::Tex1DArray => {
            let g = e.read_scalar(inst, src, Ty::Float);
            format!("vec2({g}, 0.0)")
        }
        _ => e.read_n(inst, src, dim.axes(), Ty::Float),
    }
}

pub(crate) fn emit(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let dim = ctx.res.dim;
    let Some(smp) = ctx.smp else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    // Offsets do not apply to cubes.
    let offset = if dim == Dim::Cube {
        None
    } else {
        offset_literal(
            inst,
            dim.axes(),
            matches!(dim, Dim::Tex1D | Dim::Tex1DArray),
        )
    };
    let off = |name: &str| {
        if offset.is_some() {
            format!("{name}Offset")
        } else {
            name.to_string()
        }
    };
    let tail = offset
        .as_ref()
        .map(|o| format!(", {o}"))
        .unwrap_or_default();
    let c = coord(e, inst, dim);
    let value = match inst.opcode {
        op::SAMPLE_C | op::SAMPLE_C_LZ => {
            if dim == Dim::Tex3D {
                e.refuse(inst, Reason::Operand);
                return;
            }
            let reference = e.read_scalar(inst, &inst.operands[4], Ty::Float);
            let n = dim.glsl_components() + 1;
            let tx = format!("txVec{}", e.textures.next_txvec);
            e.textures.next_txvec += 1;
            e.line(format!("vec{n} {tx} = vec{n}({c}, {reference});"));
            let s = combined_shadow(e, ctx, smp);
            let zero = |k: usize| format!("vec{k}(0.0)");
            let v = match (inst.opcode, dim) {
                (op::SAMPLE_C, Dim::Tex2DArray | Dim::Tex1DArray) if offset.is_some() => {
                    // No textureOffset on sampler2DArrayShadow: implicit
                    // LOD through the coordinate's own derivatives.
                    let uv = format!("{tx}.xy");
                    format!("textureGradOffset({s}, {tx}, dFdx({uv}), dFdy({uv}){tail})")
                }
                (op::SAMPLE_C, _) => format!("{}({s}, {tx}{tail})", off("texture")),
                (_, Dim::Tex2DArray | Dim::Tex1DArray) => format!(
                    "{}({s}, {tx}, {}, {}{tail})",
                    off("textureGrad"),
                    zero(2),
                    zero(2)
                ),
                (_, Dim::Cube) if e.dialect == Dialect::Es300 => {
                    format!("textureGrad({s}, {tx}, {}, {})", zero(3), zero(3))
                }
                _ => format!("{}({s}, {tx}, 0.0{tail})", off("textureLod")),
            };
            assign_result(e, inst, ctx, &format!("vec4({v})"), Ty::Float);
            return;
        }
        op::SAMPLE_L => {
            let lod = e.read_scalar(inst, &inst.operands[4], Ty::Float);
            let s = combined(e, ctx, smp);
            format!("{}({s}, {c}, {lod}{tail})", off("textureLod"))
        }
        op::SAMPLE_B => {
            let bias = e.read_scalar(inst, &inst.operands[4], Ty::Float);
            let s = combined(e, ctx, smp);
            format!("{}({s}, {c}{tail}, {bias})", off("texture"))
        }
        op::SAMPLE_D => {
            let dx = gradient(e, inst, 4, dim);
            let dy = gradient(e, inst, 5, dim);
            let s = combined(e, ctx, smp);
            format!("{}({s}, {c}, {dx}, {dy}{tail})", off("textureGrad"))
        }
        _ => {
            let s = combined(e, ctx, smp);
            format!("{}({s}, {c}{tail})", off("texture"))
        }
    };
    assign_result(e, inst, ctx, &value, ctx.res.ty);
}
