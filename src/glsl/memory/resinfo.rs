//! `resinfo` on a UAV (`resinfo[_uint|_rcpFloat] dst, mip, uN`).
//!
//! D3D11 gives a UAV view exactly one mip level: `.w` is always 1, and any
//! mip other than 0 is out of range, so the sizes read 0 there (their
//! reciprocals +inf under `_rcpFloat`). A typed 2D UAV reports `(width,
//! height, 0, 1)`, the width and height from `imageSize`. Buffers are
//! sized with `bufinfo`, never `resinfo` (fxc compiles a `RWBuffer`'s
//! `GetDimensions` to `bufinfo`), so `resinfo` on a buffer UAV is refused
//! (`Reason::ViewMismatch`); typed UAVs of other dimensions are refused
//! with their declaration (`Reason::UavDimension`).

use super::super::emit::Emitter;
use super::super::types::{Ty, mask_components, swizzle};
use super::super::{Dialect, Reason};
use super::{Kind, es300_reason, view, view_name};
use crate::dxbc::enums::ResInfoReturn;
use crate::dxbc::ir::{Instruction, OperandType};

/// `resinfo` whose resource is a UAV; false (nothing written) when it
/// names something else, which the texture path lowers.
pub fn resinfo(e: &mut Emitter, inst: &Instruction) -> bool {
    let Some(res) = inst.operands.get(2) else {
        return false;
    };
    if res.ty != OperandType::UNORDERED_ACCESS_VIEW {
        return false;
    }
    if e.dialect == Dialect::Es300 {
        e.refuse(inst, es300_reason(inst));
        return true;
    }
    let Some((_, slot, kind)) = view(e, inst, res) else {
        return true;
    };
    if !matches!(kind, Kind::Typed2D(_)) {
        e.refuse(inst, Reason::ViewMismatch);
        return true;
    }
    let name = view_name(true, slot);
    let mip = e.read_scalar(inst, &inst.operands[1], Ty::Uint);
    let v = e.tmp();
    e.line(format_args!("uvec4 {v} = uvec4(0u, 0u, 0u, 1u);"));
    // One mip level: only mip 0 has a size.
    e.line(format_args!(
        "if ({mip} == 0u) {v}.xy = uvec2(imageSize({name}));"
    ));
    let (value, ty) = match inst.resinfo_return().unwrap_or(ResInfoReturn::Float) {
        ResInfoReturn::Uint => (v, Ty::Uint),
        ResInfoReturn::RcpFloat => {
            let f = e.tmp();
            e.line(format_args!("vec4 {f} = vec4({v});"));
            // Only the sizes take the reciprocal; 1/0 is +inf in D3D,
            // where GLSL leaves division by zero open.
            for c in ["x", "y"] {
                e.line(format_args!(
                    "{f}.{c} = {v}.{c} == 0u ? uintBitsToFloat(0x7f800000u) : 1.0 / {f}.{c};"
                ));
            }
            (f, Ty::Float)
        }
        _ => (format!("vec4({v})"), Ty::Float),
    };
    let Some(dst) = inst.operands.first() else {
        return true;
    };
    if dst.ty == OperandType::NULL {
        return true;
    }
    let comps = Emitter::source_components(res, &mask_components(Emitter::dst_mask(dst)));
    let expr = if comps == [0, 1, 2, 3] {
        value
    } else {
        format!("{value}{}", swizzle(&comps))
    };
    e.assign(inst, dst, &expr, ty, inst.saturate());
    true
}
