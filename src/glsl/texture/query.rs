//! `ld`, `resinfo` and `lod`.
//!
//! `ld` is guarded: D3D returns zeros (and the format's defaults in the
//! components it does not store) for any out-of-range coordinate, layer or
//! mip, where GLSL leaves `texelFetch` undefined. Coordinates are compared
//! as unsigned, so negative ones are out of range as in D3D. `resinfo`
//! takes sizes from `textureSize` and the mip count from the
//! `hlslcc_TextureLevels` block (ES 3.00 has no `textureQueryLevels`); an
//! out-of-range mip gives zero sizes. `lod` is computed from `dFdx`/`dFdy`
//! of the coordinate in texels of level 0 (no `textureQueryLod` in ES 3.00
//! or naga): an approximation, see docs/glsl-textures.md.

use super::super::emit::Emitter;
use super::super::types::Ty;
use super::super::writer::cat;
use super::decl::{SlotName, lod_name};
use super::{Ctx, Dim, assign_result, fetch_name, levels_name, type_prefix};
use crate::dxbc::enums::{ResInfoReturn, SampleInfoReturn};
use crate::dxbc::ir::Instruction;

/// `ld dst, address, tN`.
pub(crate) fn ld(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let dim = ctx.res.dim;
    if dim.is_cube() {
        // `ld` cannot address cubes or cube arrays; D3D returns zeros.
        let z = cat!(type_prefix(ctx.res.ty), "vec4(0)");
        assign_result(e, inst, ctx, &z, ctx.res.ty);
        return;
    }
    let t = fetch_name(e, ctx.slot, &ctx.res);
    let levels = levels_name(ctx.slot);
    let c = e.read_n(inst, &inst.operands[1], 4, Ty::Int);
    let ci = e.tmp();
    e.line(("ivec4 ", &ci, " = ", &c, ';'));
    let r = e.tmp();
    default_texel(e, ctx.res.ty, &r, levels);
    let o = inst.offsets().unwrap_or([0; 3]);
    // (fetch coordinate, offset literal, components range-checked).
    let (fetch, off, checked): (String, String, String) = match dim {
        Dim::Tex1D => (
            cat!("ivec2(", ci, ".x, 0)"),
            cat!("ivec2(", o[0], ", 0)"),
            cat!("uvec2(", ci, ".x + ", o[0], ", 0)"),
        ),
        Dim::Tex1DArray => (
            cat!("ivec3(", ci, ".x, 0, ", ci, ".y)"),
            cat!("ivec3(", o[0], ", 0, 0)"),
            cat!("uvec3(", ci, ".x + ", o[0], ", 0, ", ci, ".y)"),
        ),
        Dim::Tex2D => (
            cat!(ci, ".xy"),
            cat!("ivec2(", o[0], ", ", o[1], ')'),
            cat!("uvec2(", ci, ".xy + ivec2(", o[0], ", ", o[1], "))"),
        ),
        Dim::Tex2DArray => (
            cat!(ci, ".xyz"),
            cat!("ivec3(", o[0], ", ", o[1], ", 0)"),
            cat!("uvec3(", ci, ".xyz + ivec3(", o[0], ", ", o[1], ", 0))"),
        ),
        _ => (
            cat!(ci, ".xyz"),
            cat!("ivec3(", o[0], ", ", o[1], ", ", o[2], ')'),
            cat!(
                "uvec3(",
                ci,
                ".xyz + ivec3(",
                o[0],
                ", ",
                o[1],
                ", ",
                o[2],
                "))"
            ),
        ),
    };
    let n = dim.size_components();
    e.line(("if (uint(", &ci, ".w) < uint(", levels, ".x)) {"));
    e.indent();
    let size = level_size(&t, &cat!(ci, ".w"), dim);
    e.line((
        "if (all(lessThan(",
        &checked,
        ", uvec",
        n,
        '(',
        &size,
        ")))) {",
    ));
    e.indent();
    // The offset is added to the coordinate rather than passed to
    // texelFetchOffset: the same texel, and naga drops texelFetchOffset's
    // offset.
    if inst.offsets().is_some() {
        e.line((
            &r,
            " = texelFetch(",
            &t,
            ", ",
            &fetch,
            " + ",
            &off,
            ", ",
            &ci,
            ".w);",
        ));
    } else {
        e.line((&r, " = texelFetch(", &t, ", ", &fetch, ", ", &ci, ".w);"));
    }
    e.dedent();
    e.line("}");
    e.dedent();
    e.line("}");
    assign_result(e, inst, ctx, &r, ctx.res.ty);
}

/// Declares `r`, what a guarded load reads out of range: zeros, and alpha
/// 1 for a format without it (`levels.z`, its component count, below 4).
fn default_texel(e: &mut Emitter, ty: Ty, r: &str, levels: SlotName) {
    // (type, the first three components, one, the last zero and the end):
    // spelled whole so that the line stays within a tuple's 12 pieces.
    let (v, zeros, one, zero) = match ty {
        Ty::Float => ("vec4", "0.0, 0.0, 0.0, ", "1.0", "0.0);"),
        Ty::Int => ("ivec4", "0, 0, 0, ", "1", "0);"),
        Ty::Uint => ("uvec4", "0, 0, 0, ", "1", "0);"),
    };
    e.line((
        v,
        ' ',
        r,
        " = ",
        v,
        '(',
        zeros,
        levels,
        ".z < 4 ? ",
        one,
        " : ",
        zero,
    ));
}

/// The size of mip level `lod` (an `int` expression, already checked to be
/// below the mip count) as `textureSize` gives it: level 0's size halved
/// `lod` times, at least 1, array layers (a cube array's cubes) unchanged —
/// D3D's rule, and what
/// `textureSize(t, lod)` returns; computed from level 0 because lavapipe
/// answers level 0 for every level of a combined image sampler.
fn level_size(t: &str, lod: &str, dim: Dim) -> String {
    let base = ("textureSize(", t, ", 0)");
    match dim {
        // One level, and `textureSize` of a multisampled sampler takes no
        // level.
        Dim::Tex2DMS | Dim::Tex2DMSArray => cat!("textureSize(", t, ')'),
        Dim::Tex1DArray | Dim::Tex2DArray | Dim::CubeArray => cat!(
            "ivec3(max(",
            base.0,
            base.1,
            base.2,
            ".xy >> ivec2(",
            lod,
            "), ivec2(1)), ",
            base.0,
            base.1,
            base.2,
            ".z)"
        ),
        _ => {
            let n = dim.size_components();
            cat!(
                "max(", base.0, base.1, base.2, " >> ivec", n, '(', lod, "), ivec", n, "(1))"
            )
        }
    }
}

/// `resinfo[_rcpFloat|_uint] dst, mip, tN`.
pub(crate) fn resinfo(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let dim = ctx.res.dim;
    let t = fetch_name(e, ctx.slot, &ctx.res);
    let levels = levels_name(ctx.slot);
    let mip = e.read_scalar(inst, &inst.operands[1], Ty::Uint);
    let m = e.tmp();
    e.line(("uint ", &m, " = ", &mip, ';'));
    let v = e.tmp();
    e.line(("uvec4 ", &v, " = uvec4(0u, 0u, 0u, uint(", levels, ".x));"));
    let n = dim.size_components();
    let s = e.tmp();
    // (w, h-or-layers, depth-or-layers) from textureSize, as pieces
    // around the size temp `s`; which are sizes.
    let (xyz, sizes): ((&str, &str, &str, &str, &str), usize) = match dim {
        Dim::Tex1D => (("uvec3(", &s, ".x, 0, 0)", "", ""), 1),
        Dim::Tex1DArray => (("uvec3(", &s, ".x, ", &s, ".z, 0)"), 1),
        Dim::Tex2D | Dim::Cube | Dim::Tex2DMS => (("uvec3(", &s, ".xy, 0)", "", ""), 2),
        // textureSize of a samplerCubeArray is (w, h, cubes), which is
        // also what D3D's resinfo reports.
        Dim::Tex2DArray | Dim::CubeArray | Dim::Tex2DMSArray => {
            (("uvec3(", &s, ".xyz)", "", ""), 2)
        }
        _ => (("uvec3(", &s, ".xyz)", "", ""), 3),
    };
    e.line(("if (", &m, " < uint(", levels, ".x)) {"));
    e.indent();
    let size = level_size(&t, &cat!("int(", m, ')'), dim);
    e.line(("ivec", n, ' ', &s, " = ", &size, ';'));
    e.line((&v, ".xyz = ", xyz.0, xyz.1, xyz.2, xyz.3, xyz.4, ';'));
    e.dedent();
    e.line("}");
    match inst.resinfo_return().unwrap_or(ResInfoReturn::Float) {
        ResInfoReturn::Uint => assign_result(e, inst, ctx, &v, Ty::Uint),
        ResInfoReturn::RcpFloat => {
            let f = e.tmp();
            e.line(("vec4 ", &f, " = vec4(", &v, ");"));
            for c in ["x", "y", "z"].iter().take(sizes) {
                // 1/0 is +inf in D3D; GLSL leaves division by zero open.
                e.line((
                    &f,
                    '.',
                    c,
                    " = ",
                    &v,
                    '.',
                    c,
                    " == 0u ? uintBitsToFloat(0x7f800000u) : 1.0 / ",
                    &f,
                    '.',
                    c,
                    ';',
                ));
            }
            assign_result(e, inst, ctx, &f, Ty::Float);
        }
        _ => assign_result(e, inst, ctx, &cat!("vec4(", v, ')'), Ty::Float),
    }
}

/// `lod dst, coord, tN, sM`: (clamped, unclamped, 0, 0).
pub(crate) fn lod(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let dim = ctx.res.dim;
    let Some(smp) = ctx.smp else {
        e.refuse(inst, super::super::Reason::Operand);
        return;
    };
    let name = cat!("hlslcc_textureQueryLod_t", ctx.slot, "_s", smp);
    let t = fetch_name(e, ctx.slot, &ctx.res);
    let levels = levels_name(ctx.slot);
    let state = lod_name(smp);
    let (cty, body) = match dim {
        Dim::Tex1D | Dim::Tex1DArray => (
            "float",
            "float n = float(size.x);\n    \
             vec2 dx = vec2(dFdx(c) * n, 0.0);\n    \
             vec2 dy = vec2(dFdy(c) * n, 0.0);",
        ),
        Dim::Tex2D | Dim::Tex2DArray => (
            "vec2",
            "vec2 n = vec2(size.xy);\n    \
             vec2 dx = dFdx(c) * n;\n    \
             vec2 dy = dFdy(c) * n;",
        ),
        Dim::Tex3D => (
            "vec3",
            "vec3 n = vec3(size.xyz);\n    \
             vec3 dx = dFdx(c) * n;\n    \
             vec3 dy = dFdy(c) * n;",
        ),
        _ => (
            // Cube (and a cube array, whose cube index does not count):
            // the direction's derivatives over the major axis, in
            // face texels (half the face spans [-1, 1]).
            "vec3",
            "vec3 a = abs(c);\n    \
             float ma = max(a.x, max(a.y, a.z));\n    \
             float n = float(size.x) * 0.5 / ma;\n    \
             vec3 dx = dFdx(c) * n;\n    \
             vec3 dy = dFdy(c) * n;",
        ),
    };
    let n = dim.size_components();
    e.helpers.use_custom(&name, || {
        format!(
            "// lod: log2 of the longer screen-space gradient in texels of level 0, plus\n\
             // MipLODBias; the clamped value also takes MinLOD/MaxLOD and the mip range.\n\
             vec4 {name}({cty} c) {{\n    \
             ivec{n} size = textureSize({t}, 0);\n    \
             {body}\n    \
             float l = 0.5 * log2(max(dot(dx, dx), dot(dy, dy)));\n    \
             float unclamped = l + clamp({state}.x, -16.0, 15.99);\n    \
             float last = float(max({levels}.x - 1, 0));\n    \
             float clamped = clamp(min(max(unclamped, {state}.y), {state}.z), 0.0, last);\n    \
             return vec4(clamped, unclamped, 0.0, 0.0);\n\
             }}"
        )
    });
    let c = match dim {
        Dim::Tex1D | Dim::Tex1DArray => e.read_scalar(inst, &inst.operands[1], Ty::Float),
        Dim::Tex2D | Dim::Tex2DArray => e.read_n(inst, &inst.operands[1], 2, Ty::Float),
        _ => e.read_n(inst, &inst.operands[1], 3, Ty::Float),
    };
    assign_result(e, inst, ctx, &cat!(name, '(', c, ')'), Ty::Float);
}

/// `ld2dms dst, address, tN, sample` (vk450): `texelFetch` of a
/// `sampler2DMS[Array]`, guarded like `ld` — an address outside the
/// texture, a layer past the array or a sample index past the count
/// (`hlslcc_textureLevels_tN.w`) reads zeros (alpha 1 for formats without
/// it), where GLSL leaves `texelFetch` undefined.
pub(crate) fn ldms(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let t = fetch_name(e, ctx.slot, &ctx.res);
    let levels = levels_name(ctx.slot);
    let c = e.read_n(inst, &inst.operands[1], 4, Ty::Int);
    let ci = e.tmp();
    e.line(("ivec4 ", &ci, " = ", &c, ';'));
    let s = inst
        .operands
        .get(3)
        .map(|op| e.read_scalar(inst, op, Ty::Int))
        .unwrap_or_else(|| "0".into());
    let si = e.tmp();
    e.line(("int ", &si, " = ", &s, ';'));
    let r = e.tmp();
    default_texel(e, ctx.res.ty, &r, levels);
    let o = inst.offsets().unwrap_or([0; 3]);
    let xy = format!("{ci}.xy + ivec2({}, {})", o[0], o[1]);
    let (fetch, checked, size) = if ctx.res.dim == Dim::Tex2DMSArray {
        (
            format!("ivec3({xy}, {ci}.z)"),
            format!("uvec3(ivec3({xy}, {ci}.z))"),
            format!("uvec3(textureSize({t}))"),
        )
    } else {
        (
            xy.clone(),
            format!("uvec2({xy})"),
            format!("uvec2(textureSize({t}))"),
        )
    };
    e.line(format_args!(
        "if (uint({si}) < uint({levels}.w) && all(lessThan({checked}, {size}))) {{"
    ));
    e.indent();
    e.line(format_args!("{r} = texelFetch({t}, {fetch}, {si});"));
    e.dedent();
    e.line("}");
    assign_result(e, inst, ctx, &r, ctx.res.ty);
}

/// `sampleinfo[_uint] dst, tN`: the sample count from
/// `hlslcc_textureLevels_tN.w` (naga's GLSL front end has no
/// `textureSamples`); a texture not declared multisampled reports 0.
pub(crate) fn sampleinfo(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let count = if matches!(ctx.res.dim, Dim::Tex2DMS | Dim::Tex2DMSArray) {
        cat!(levels_name(ctx.slot), ".w")
    } else {
        "0".into()
    };
    count_result(e, inst, ctx, &count);
}

/// `(n, 0, 0, 0)` as `sampleinfo`'s return type says: float by default,
/// uint with `_uint`.
fn count_result(e: &mut Emitter, inst: &Instruction, ctx: &Ctx, count: &str) {
    let (value, ty) = match inst.sampleinfo_return() {
        Some(SampleInfoReturn::Uint) => (cat!("uvec4(uint(", count, "), 0u, 0u, 0u)"), Ty::Uint),
        _ => (cat!("vec4(float(", count, "), 0.0, 0.0, 0.0)"), Ty::Float),
    };
    assign_result(e, inst, ctx, &value, ty);
}

/// D3D11's standard sample positions (`D3D11_STANDARD_MULTISAMPLE_PATTERN`)
/// for 1, 2, 4, 8 and 16 samples, one after another, in pixels from the
/// centre: the pattern for `n` samples starts at index `n - 1`.
fn sample_position_table() -> String {
    let mut items = Vec::new();
    for n in [1u32, 2, 4, 8, 16] {
        for [x, y] in crate::dxbc::sample_pattern::standard_pattern(n).unwrap_or(&[]) {
            items.push(format!(
                "vec2({:?}, {:?})",
                *x as f32 / 16.0,
                *y as f32 / 16.0
            ));
        }
    }
    format!("vec2[31]({})", items.join(", "))
}

/// `samplepos dst, tN or rasterizer, index`: sample `index`'s position for
/// a sample count held in `count` (a GLSL int expression), zeros for an
/// index past the count or a count without a standard pattern, as D3D
/// gives.
fn position_of(e: &mut Emitter, inst: &Instruction, ctx: &Ctx, count: &str) {
    let index = inst
        .operands
        .get(2)
        .map(|op| e.read_scalar(inst, op, Ty::Int))
        .unwrap_or_else(|| "0".into());
    let (n, i, table, r) = (e.tmp(), e.tmp(), e.tmp(), e.tmp());
    e.line(format_args!("int {n} = {count};"));
    e.line(format_args!("int {i} = {index};"));
    e.line(format_args!(
        "vec2 {table}[31] = {};",
        sample_position_table()
    ));
    e.line(format_args!("vec4 {r} = vec4(0.0);"));
    e.line(format_args!(
        "if (({n} == 1 || {n} == 2 || {n} == 4 || {n} == 8 || {n} == 16) && uint({i}) < uint({n})) {{"
    ));
    e.indent();
    e.line(format_args!("{r}.xy = {table}[{n} - 1 + {i}];"));
    e.dedent();
    e.line("}");
    assign_result(e, inst, ctx, &r, Ty::Float);
}

/// `samplepos dst, tN, index` (vk450).
pub(crate) fn samplepos(e: &mut Emitter, inst: &Instruction, ctx: &Ctx) {
    let count = if matches!(ctx.res.dim, Dim::Tex2DMS | Dim::Tex2DMSArray) {
        cat!(levels_name(ctx.slot), ".w")
    } else {
        "0".into()
    };
    position_of(e, inst, ctx, &count);
}

/// `sampleinfo` and `samplepos` of the `rasterizer` (vk450): the render
/// target's sample count from `hlslcc_rasterizer.x` (naga's GLSL front end
/// has no `gl_NumSamples`); 1 for a single-sampled target.
pub(crate) fn rasterizer(e: &mut Emitter, inst: &Instruction, res_index: usize) {
    let ctx = Ctx {
        slot: 0,
        res: super::Res {
            dim: Dim::Tex2DMS,
            ty: Ty::Float,
            return_type: crate::dxbc::enums::ReturnType::Float,
        },
        smp: None,
        res_index,
    };
    let count = format!("{}.x", super::decl::RASTERIZER);
    if inst.op == crate::dxbc::opcodes::Op::SamplePos {
        position_of(e, inst, &ctx, &count);
    } else {
        count_result(e, inst, &ctx, &count);
    }
}
