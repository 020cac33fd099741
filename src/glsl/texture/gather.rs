//! `gather4`, `gather4_c`, `gather4_po`, `gather4_po_c`, emulated: ES 3.00
//! has no `textureGather` (and naga's GLSL front end none either).
//!
//! 2D and 2D-array textures are exact, following the reference emulator's
//! rule: the texel-space position `u·W` is snapped to 8 fractional bits
//! (ties to even), i0 = floor(pos − 0.5) + offset.u, j0 likewise, and the
//! result is x = (i0, j1), y = (i1, j1), z = (i1, j0), w = (i0, j0) with
//! i1 = i0 + 1, j1 = j0 + 1. Each tap goes through the sampler's address
//! mode per axis (border taps read the border colour) and reads level 0
//! with `texelFetch`; `_c` compares `reference <func> texel` per tap. The
//! address modes, border colour and comparison function come from the
//! `hlslcc_SamplerState` block. Programmable offsets keep their low 6 bits,
//! signed.
//!
//! Cube maps are approximated: the face is picked by the major axis, the
//! four texels are chosen on that face by the same rule, clamped to the
//! face (no crossing to neighbouring faces, no corner synthesis), and each
//! is read by sampling its centre at LOD 0 through the combined sampler
//! (`texelFetch` cannot address a cube in ES 3.00). Cube arrays (vk450)
//! take the same taps on the cube the address's `w` picks (rounded to
//! nearest even, as sampling does); their comparisons go through
//! `texture(samplerCubeArrayShadow, P, ref)`, naga's only form for them
//! (implicit LOD: level 0 where the texture has one level).

use super::super::Dialect;
use super::super::emit::{Emitter, convert};
use super::super::types::Ty;
use super::super::writer::cat;
use super::address;
use super::decl::{border_name, mode_name};
use super::{Ctx, Dim, assign_result, combined, combined_shadow, fetch_name, levels_name};
use super::{parts, type_prefix};
use crate::dxbc::ir::{Instruction, ProgramType, Selection};
use crate::dxbc::opcodes::Op;

/// The lower texel of the bilinear pair around the snapped position.
const BASE: &str = "\
// gather: the lower texel of the bilinear pair around the snapped position.
int hlslcc_gatherBase(float u, int size, int mode) {
    return int(floor(hlslcc_texelPos(u, size, mode) - 0.5));
}";

const CUBE_DIR: &str = "\
// The direction through the centre of texel `ij` (clamped to the face) of
// cube face `face` (+X, -X, +Y, -Y, +Z, -Z) of `n` texels.
vec3 hlslcc_cubeTexelDir(int face, ivec2 ij, float n) {
    ivec2 c = clamp(ij, ivec2(0), ivec2(int(n) - 1));
    vec2 st = (vec2(c) + 0.5) / n * 2.0 - 1.0;
    if (face == 0) return vec3(1.0, -st.y, -st.x);
    if (face == 1) return vec3(-1.0, -st.y, st.x);
    if (face == 2) return vec3(st.x, 1.0, st.y);
    if (face == 3) return vec3(st.x, -1.0, -st.y);
    if (face == 4) return vec3(st.x, -st.y, 1.0);
    return vec3(-st.x, -st.y, -1.0);
}";

/// The four tap names in result order (x, y, z, w), or reversed for the
/// test-only fault injection.
fn order(flip: bool) -> [&'static str; 4] {
    if flip {
        ["td", "tc", "tb", "ta"]
    } else {
        ["ta", "tb", "tc", "td"]
    }
}

/// Pushes component `comp` of tap `v`, selected without dynamic indexing
/// (naga rejects indexing some vector values).
fn push_pick(out: &mut String, v: &str) {
    cat!(out; "(comp == 0 ? ", v, ".x : comp == 1 ? ", v, ".y : comp == 2 ? ", v, ".z : ", v, ".w)");
}

/// A gather helper's return type: compared taps are 0.0/1.0 floats, plain
/// ones keep the texture's component type (`p` is its prefix).
fn return_type(compare: bool, p: &str) -> &'static str {
    match (compare, p) {
        (false, "i") => "ivec4",
        (false, "u") => "uvec4",
        _ => "vec4",
    }
}

/// A plain gather helper's last line, pushed onto `out`: component `comp`
/// of each tap, in result order.
fn push_plain_return(out: &mut String, p: &str, flip: bool) {
    cat!(out; "return ", p, "vec4(");
    for (k, v) in order(flip).into_iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        push_pick(out, v);
    }
    out.push_str(");");
}

pub(crate) fn emit(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let compare = matches!(inst.op, Op::Gather4C | Op::Gather4PoC);
    let po = matches!(inst.op, Op::Gather4Po | Op::Gather4PoC);
    let Some(smp) = ctx.smp else {
        e.refuse(inst, super::super::Reason::Operand);
        return;
    };
    let dim = ctx.res.dim;
    let ty = if compare { Ty::Float } else { ctx.res.ty };
    if !matches!(dim, Dim::Tex2D | Dim::Tex2DArray) && !dim.is_cube()
        || (compare && ctx.res.ty != Ty::Float)
    {
        // D3D (and the emulator) return zeros: gather reads 2D, 2D-array,
        // cube and cube-array textures only, and never compares integer
        // texels.
        let z = cat!(type_prefix(ty), "vec4(0)");
        assign_result(e, inst, ctx, &z, ty);
        return;
    }
    if compare && dim == Dim::CubeArray && e.stage != ProgramType::Pixel {
        // See sample.rs: naga compares cube arrays with an implicit LOD only.
        e.refuse(inst, super::super::Reason::CubeArrayShadowLod);
        return;
    }
    if dim.is_cube() && ty != Ty::Float && e.dialect == Dialect::Vk450 {
        e.refuse(inst, super::super::Reason::IntegerCubeGather);
        return;
    }
    let smp_i = parts(inst).and_then(|p| p.sampler).unwrap_or(3);
    let channel = match inst.operands[smp_i].selection {
        Selection::Select1(c) => c,
        Selection::Swizzle(s) => s[0],
        _ => 0,
    } & 3;
    let coord = e.read_n(inst, &inst.operands[1], dim.glsl_components(), Ty::Float);
    let reference = compare.then(|| e.read_scalar(inst, &inst.operands[smp_i + 1], Ty::Float));
    let flip = e.options.flip_gather_order;
    address::use_addressing(e);
    e.helpers.use_custom_static("hlslcc_gatherBase", BASE);
    if compare {
        address::use_compare(e);
    }
    let name = if dim.is_cube() {
        cube_helper(e, ctx, smp, compare, flip)
    } else {
        helper(e, ctx, smp, compare, flip)
    };
    // `name(coord[, offset], channel[, reference])`, pushed in place.
    let mut call = e.take_buf();
    cat!(&mut call; name, '(', coord, ", ");
    if !dim.is_cube() {
        if po {
            let o = e.read_n(inst, &inst.operands[2], 2, Ty::Int);
            // The low six bits, sign-extended, without shifts: naga folds
            // a constant `uvec2(-1) << 26u` and rejects it as an overflow.
            cat!(&mut call; "(((", o, ") & ivec2(63)) ^ ivec2(32)) - ivec2(32), ");
        } else {
            let o = inst.offsets().unwrap_or([0; 3]);
            cat!(&mut call; "ivec2(", o[0], ", ", o[1], "), ");
        }
    }
    cat!(&mut call; channel);
    if let Some(r) = reference {
        cat!(&mut call; ", ", r);
    }
    call.push(')');
    assign_result(e, inst, ctx, &call, ty);
    e.give_buf(call);
}

/// An emulated gather helper's name, one per texture, sampler, shape
/// (``, `Array`, `Cube`, `CubeArray`) and comparison.
fn helper_name(compare: bool, shape: &str, t: u32, smp: u32) -> String {
    let variant = if compare { "Cmp" } else { "" };
    cat!(
        "hlslcc_textureGather4",
        variant,
        "Emulated",
        shape,
        "_t",
        t,
        "_s",
        smp
    )
}

/// The 2D / 2D-array helper for `(tex, smp)`; returns its name.
fn helper(e: &mut Emitter, ctx: &Ctx, smp: u32, compare: bool, flip: bool) -> String {
    let t = ctx.slot;
    let array = ctx.res.dim == Dim::Tex2DArray;
    let name = helper_name(compare, if array { "Array" } else { "" }, t, smp);
    // Written already (with its tap, requested just before it): every
    // gather of this pair after the first needs only the name.
    if e.helpers.has_custom(&name) {
        return name;
    }
    let p = type_prefix(ctx.res.ty);
    let tex = fetch_name(e, t, &ctx.res);
    let mode = mode_name(smp);
    let tap = cat!("hlslcc_gatherTap_t", t, "_s", smp);
    e.helpers.use_custom(&tap, || {
        // Integer formats read the border colour's bits.
        let border_value = convert(&cat!(border_name(smp)), Ty::Float, ctx.res.ty, 4);
        let at = if array {
            "ivec3(x, y, layer)"
        } else {
            "ivec2(x, y)"
        };
        cat!(
            p,
            "vec4 ",
            tap,
            "(int i, int j, ivec2 size, int layer) {\n    \
             int x = hlslcc_addressTexel(i, size.x, ",
            mode,
            ".x);\n    \
             int y = hlslcc_addressTexel(j, size.y, ",
            mode,
            ".y);\n    \
             if (x < 0 || y < 0) return ",
            border_value,
            ";\n    \
             return texelFetch(",
            tex,
            ", ",
            at,
            ", 0);\n\
             }"
        )
    });
    let (cty, layer) = if array {
        (
            "vec3",
            "int layer = int(clamp(roundEven(isnan(c.z) ? 0.0 : c.z), 0.0, float(ts.z - 1)));",
        )
    } else {
        ("vec2", "int layer = 0;")
    };
    let n: u8 = if array { 3 } else { 2 };
    e.helpers.use_custom(&name, || {
        let mut s = String::with_capacity(1536);
        cat!(&mut s;
            "// gather4 taps: x = (i0, j1), y = (i1, j1), z = (i1, j0), w = (i0, j0).\n",
            return_type(compare, p), ' ', name, '(', cty, " c, ivec2 offset, int comp",
            if compare { ", float ref" } else { "" }, ") {\n    \
             ivec", n, " ts = textureSize(", tex, ", 0);\n    \
             ivec2 size = ts.xy;\n    ",
            layer, "\n    \
             int i0 = hlslcc_gatherBase(c.x, size.x, ", mode, ".x) + offset.x;\n    \
             int j0 = hlslcc_gatherBase(c.y, size.y, ", mode, ".y) + offset.y;\n    ",
            p, "vec4 ta = ", tap, "(i0, j0 + 1, size, layer);\n    ",
            p, "vec4 tb = ", tap, "(i0 + 1, j0 + 1, size, layer);\n    ",
            p, "vec4 tc = ", tap, "(i0 + 1, j0, size, layer);\n    ",
            p, "vec4 td = ", tap, "(i0, j0, size, layer);\n    "
        );
        if compare {
            cat!(&mut s;
                "if (", levels_name(t), ".y != 0) ref = isnan(ref) ? 0.0 : clamp(ref, 0.0, 1.0);\n    \
                 int f = ", mode, ".w;\n    \
                 return vec4("
            );
            for (k, v) in order(flip).into_iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                s.push_str("hlslcc_compareTexel(ref, ");
                push_pick(&mut s, v);
                s.push_str(", f)");
            }
            s.push_str(");");
        } else {
            push_plain_return(&mut s, p, flip);
        }
        s.push_str("\n}");
        s
    });
    name
}

/// The cube approximation for `(tex, smp)`; returns its name.
fn cube_helper(e: &mut Emitter, ctx: &Ctx, smp: u32, compare: bool, flip: bool) -> String {
    let t = ctx.slot;
    e.helpers.use_custom_static("hlslcc_cubeTexelDir", CUBE_DIR);
    let array = ctx.res.dim == Dim::CubeArray;
    let name = helper_name(compare, if array { "CubeArray" } else { "Cube" }, t, smp);
    // Written already: every gather of this pair after the first needs
    // only the name.
    if e.helpers.has_custom(&name) {
        return name;
    }
    let p = type_prefix(ctx.res.ty);
    let s = if compare {
        combined_shadow(e, ctx, smp)
    } else {
        combined(e, ctx, smp)
    };
    e.helpers.use_custom(&name, || {
        // A cube array's taps carry the cube index after the direction.
        let (cparam, cube) = if array {
            (
                "vec4 c",
                "vec3 d = c.xyz;\n    float layer = roundEven(c.w);\n    ",
            )
        } else {
            ("vec3 d", "")
        };
        // The taps, in result order before any flip: a, b, c, d.
        let taps = [
            "ij + ivec2(0, 1)",
            "ij + ivec2(1, 1)",
            "ij + ivec2(1, 0)",
            "ij",
        ];
        let tap = |out: &mut String, ij: &str| {
            // The call, what opens its coordinate, and what follows the
            // texel's direction.
            let (call, open, close) = match (compare, array) {
                // The only samplerCubeArrayShadow form (see the module
                // notes).
                (true, true) => ("texture(", ", vec4(", ", layer), ref)"),
                // Zero gradients: LOD 0 on samplerCubeShadow in both
                // dialects.
                (true, false) => ("textureGrad(", ", vec4(", ", ref), vec3(0.0), vec3(0.0))"),
                (false, true) => ("textureLod(", ", vec4(", ", layer), 0.0)"),
                (false, false) => ("textureLod(", ", ", ", 0.0)"),
            };
            cat!(out; call, s, open, "hlslcc_cubeTexelDir(face, ", ij, ", n)", close);
        };
        let mut text = String::with_capacity(2048);
        cat!(&mut text;
            "// gather4 on a cube (approximation: taps stay on the major-axis face).\n",
            return_type(compare, p), ' ', name, '(', cparam, ", int comp",
            if compare { ", float ref" } else { "" }, ") {\n    ",
            cube, "vec3 m = abs(d);\n    \
             int face;\n    \
             float ma;\n    \
             vec2 sc;\n    \
             if (m.x >= m.y && m.x >= m.z) {\n        \
             face = d.x >= 0.0 ? 0 : 1; ma = m.x; sc = vec2(d.x >= 0.0 ? -d.z : d.z, -d.y);\n    \
             } else if (m.y >= m.z) {\n        \
             face = d.y >= 0.0 ? 2 : 3; ma = m.y; sc = vec2(d.x, d.y >= 0.0 ? d.z : -d.z);\n    \
             } else {\n        \
             face = d.z >= 0.0 ? 4 : 5; ma = m.z; sc = vec2(d.z >= 0.0 ? d.x : -d.x, -d.y);\n    \
             }\n    \
             float n = float(textureSize(", s, ", 0).x);\n    \
             vec2 pos = roundEven((sc / ma + 1.0) * 0.5 * n * 256.0) / 256.0;\n    \
             ivec2 ij = ivec2(floor(pos - 0.5));\n    "
        );
        let tty = if compare {
            "float"
        } else {
            return_type(false, p)
        };
        for (v, ij) in ["ta", "tb", "tc", "td"].into_iter().zip(taps) {
            cat!(&mut text; tty, ' ', v, " = ");
            tap(&mut text, ij);
            text.push_str(";\n    ");
        }
        if compare {
            let [x, y, z, w] = order(flip);
            cat!(&mut text; "return vec4(", x, ", ", y, ", ", z, ", ", w, ");");
        } else {
            push_plain_return(&mut text, p, flip);
        }
        text.push_str("\n}");
        text
    });
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tap_order_and_flip() {
        assert_eq!(order(false), ["ta", "tb", "tc", "td"]);
        assert_eq!(order(true), ["td", "tc", "tb", "ta"]);
        assert!(BASE.contains("floor(hlslcc_texelPos(u, size, mode) - 0.5)"));
    }

    /// A plain helper's last line: each tap's component `comp` picked by
    /// a chain of selections (no dynamic index), taps in result order,
    /// the vector of the texture's component type.
    #[test]
    fn plain_return_picks_each_tap() {
        let pick = |v: &str| {
            let mut s = String::new();
            push_pick(&mut s, v);
            s
        };
        assert_eq!(
            pick("tb"),
            "(comp == 0 ? tb.x : comp == 1 ? tb.y : comp == 2 ? tb.z : tb.w)"
        );
        let mut s = String::new();
        push_plain_return(&mut s, "u", true);
        let expected = format!(
            "return uvec4({}, {}, {}, {});",
            pick("td"),
            pick("tc"),
            pick("tb"),
            pick("ta")
        );
        assert_eq!(s, expected);
        assert_eq!(return_type(false, "i"), "ivec4");
        assert_eq!(return_type(false, ""), "vec4");
        // Compared taps are 0.0/1.0 whatever the texture holds.
        assert_eq!(return_type(true, "u"), "vec4");
    }
}
