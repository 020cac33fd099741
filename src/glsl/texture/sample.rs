//! `sample`, `sample_l`, `sample_b`, `sample_d`, `sample_c`, `sample_c_lz`.
//!
//! Coordinates, LOD, bias, gradients and the reference are read as float;
//! immediate offsets become the `…Offset` forms. Array layers are rounded
//! to nearest even (`roundEven`) as D3D and the reference emulator do: GL
//! would round halves up and naga truncates. Comparison sampling builds the
//! coordinate-plus-reference vector in a `txVecN` temp per call site.
//!
//! WebGL2 samplers have no MipLODBias, no border addressing and no mirror
//! once, so the runtime binds a sampler without them (border and mirror once
//! as CLAMP_TO_EDGE, no LOD bias) and the shader supplies them from the
//! `hlslcc_SamplerState` block:
//!
//! * MipLODBias `b` (held to [−16, 15.99]) is folded into the hardware call:
//!   added to the bias or the LOD, or scaling the gradients by `exp2(b)`.
//!   vk450 comparisons cannot take it in hardware (naga reads explicit LODs
//!   on shadow samplers as level 0): they run the emulated path for any
//!   MipLODBias but 0. Where es300 has neither a bias nor an explicit-LOD
//!   form (comparisons on some sampler types, see `shadow_call`) the call becomes
//!   `textureGrad`, with the coordinate's own derivatives scaled by
//!   `exp2(b)`, or for an explicit LOD axis-aligned gradients `exp2(b)`
//!   texels long (zero gradients when b ≤ 0: the LOD then drops to MinLOD
//!   and still magnifies level 0, as D3D's LOD b does).
//! * Mirror once: the coordinate becomes `abs(u)` on an axis whose mode is
//!   5; with CLAMP_TO_EDGE that reads the texels (and weights) D3D's mirror
//!   of the texel indices does.
//! * Border (and mirror once where an offset moves the texels before the
//!   mirror): a dynamically uniform branch on the sampler's modes runs the
//!   emulated path of [`super::emulate`] instead of the hardware call.
//!
//! Cube maps ignore address modes: they get the bias and nothing else.
//! Stages without derivatives (all but the pixel shader) sample at LOD 0
//! plus the biases, as GLSL's implicit forms do there.

use super::super::emit::Emitter;
use super::super::types::Ty;
use super::super::writer::{Piece, cat};
use super::super::{Dialect, Reason};
use super::decl::{filter_name, lod_name, mode_name};
use super::type_prefix;
use super::{Ctx, Dim, assign_result, combined_shadow, emulate, offset_literal, push_combined};
use crate::dxbc::ir::{Instruction, Operand, ProgramType};
use crate::dxbc::opcodes::Op;

/// Whether `op` is one of the six sampling instructions.
pub(crate) fn is_sample(op: Op) -> bool {
    matches!(
        op,
        Op::Sample | Op::SampleL | Op::SampleB | Op::SampleD | Op::SampleC | Op::SampleCLz
    )
}

/// Whether sampling this dimension honours address modes (and so may need
/// the emulated path): everything but cubes and cube arrays.
pub(crate) fn emulates_addressing(dim: Dim) -> bool {
    !dim.is_cube()
}

const MIRROR_ONCE: &str = "\
// Mirror once (mode 5) through a CLAMP_TO_EDGE sampler: mirroring the
// coordinate about 0 picks the texels and weights that D3D's mirror of the
// texel indices (-1 <-> 0, then clamp) does.
float hlslcc_mirrorOnce(float u, int mode) {
    return mode == 5 ? abs(u) : u;
}";

const CUBE_LOD_GRADIENT: &str = "\
// A direction gradient along minor axis k (0 or 1) of d's major axis, g·|ma|
// long: the face coordinate moves by g/2 per pixel while the major axis
// stays, so the LOD is log2(g/2 · face size) on every implementation.
vec3 hlslcc_cubeLodGradient(vec3 d, float g, int k) {
    vec3 a = abs(d);
    float ma = max(a.x, max(a.y, a.z));
    vec3 v;
    if (a.x >= a.y && a.x >= a.z) v = k == 0 ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0);
    else if (a.y >= a.z) v = k == 0 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 0.0, 1.0);
    else v = k == 0 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    return v * (g * ma);
}";

/// The GLSL coordinate for `ctx`'s texture from operand 1: 1D lowered to
/// 2D at `v = 0.5`, array layers (a cube array's cube index, `w`) rounded
/// to nearest even.
pub(crate) fn coord(e: &mut Emitter, inst: &Instruction, dim: Dim) -> String {
    let src = &inst.operands[1];
    match dim {
        Dim::Tex1D => {
            let u = e.read_scalar(inst, src, Ty::Float);
            cat!("vec2(", u, ", 0.5)")
        }
        Dim::Tex1DArray => {
            let c = e.read_n(inst, src, 2, Ty::Float);
            let t = e.tmp();
            e.line_cat(&["vec2 ", &t, " = ", &c, ";"]);
            cat!("vec3(", t, ".x, 0.5, roundEven(", t, ".y))")
        }
        Dim::Tex2DArray => {
            let c = e.read_n(inst, src, 3, Ty::Float);
            let t = e.tmp();
            e.line_cat(&["vec3 ", &t, " = ", &c, ";"]);
            cat!("vec3(", t, ".xy, roundEven(", t, ".z))")
        }
        Dim::CubeArray => {
            let c = e.read_n(inst, src, 4, Ty::Float);
            let t = e.tmp();
            e.line_cat(&["vec4 ", &t, " = ", &c, ";"]);
            cat!("vec4(", t, ".xyz, roundEven(", t, ".w))")
        }
        _ => e.read_n(inst, src, dim.glsl_components(), Ty::Float),
    }
}

/// `vecN` for a coordinate temp (dimensions give 2 to 4).
fn vec_name(n: usize) -> &'static str {
    ["vec0", "vec1", "vec2", "vec3", "vec4"][n.min(4)]
}

/// The swizzle of a coordinate's addressed axes.
fn axes_swizzle(dim: Dim) -> &'static str {
    ["x", "xy", "xyz"][dim.axes() - 1]
}

/// The instruction's operands past the sampler, read once (borrowed from
/// the caller, which holds them for the whole sample).
struct Inputs<'a> {
    op: Op,
    /// `sample_l`'s LOD, `sample_b`'s bias or `sample_c*`'s reference.
    scalar: &'a str,
    /// `sample_d`'s gradients over the addressed axes.
    grads: Option<(&'a str, &'a str)>,
    /// The offset literal for the `…Offset` forms (None on cubes).
    offset: Option<&'a str>,
    /// Whether the stage has derivatives (implicit LOD).
    implicit: bool,
    /// The coordinate before mirror once, whose derivatives D3D takes
    /// (None: the hardware coordinate itself).
    raw: Option<&'a str>,
    /// A `_cl` form's minimum-LOD clamp, read (None: no clamp).
    min_lod: Option<&'a str>,
}

impl Inputs<'_> {
    /// What a call's name takes for the `…Offset` form: `Offset` when the
    /// instruction has an offset.
    fn off(&self) -> &'static str {
        if self.offset.is_some() { "Offset" } else { "" }
    }

    /// The `, offset` a call's arguments end with, if any.
    fn tail(&self) -> Tail<'_> {
        Tail(self.offset)
    }
}

/// `, offset` when there is one, as a piece.
#[derive(Clone, Copy)]
struct Tail<'a>(Option<&'a str>);

impl Piece for Tail<'_> {
    fn push_to(&self, out: &mut String) {
        if let Some(o) = self.0 {
            out.push_str(", ");
            out.push_str(o);
        }
    }
}

/// `clamp(MipLODBias, -16, 15.99)` of a sampler, as a piece: every sample
/// names it, most once in the middle of a longer expression.
#[derive(Clone, Copy)]
struct SamplerBias(u32);

impl Piece for SamplerBias {
    fn push_to(&self, out: &mut String) {
        cat!(out; "clamp(", lod_name(self.0), ".x, -16.0, 15.99)");
    }
}

/// `min_lod` is a `_cl` instruction's per-sample minimum-LOD clamp (other
/// than the literal 0): no hardware call takes one, so the sample runs the
/// emulated path, which applies it as the emulator does; cubes, which have
/// no emulated path, are refused.
pub(crate) fn emit(e: &mut Emitter, inst: &Instruction, ctx: &Ctx, min_lod: Option<&Operand>) {
    let dim = ctx.res.dim;
    let Some(smp) = ctx.smp else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    if min_lod.is_some() && !emulates_addressing(dim) {
        e.refuse(inst, Reason::LodClamp);
        return;
    }
    let compare = matches!(inst.op, Op::SampleC | Op::SampleCLz);
    if compare && dim == Dim::Tex3D {
        e.refuse(inst, Reason::Operand);
        return;
    }
    if compare && dim == Dim::CubeArray && e.stage != ProgramType::Pixel {
        // naga takes a samplerCubeArrayShadow only in `texture(s, P, ref)`,
        // whose implicit LOD exists only in pixel shaders.
        e.refuse(inst, Reason::CubeArrayShadowLod);
        return;
    }
    // Offsets do not apply to cubes.
    let offset = if dim.is_cube() {
        None
    } else {
        offset_literal(
            inst,
            dim.axes(),
            matches!(dim, Dim::Tex1D | Dim::Tex1DArray),
        )
    };
    let c = coord(e, inst, dim);
    let scalar = match inst.op {
        Op::SampleL | Op::SampleB | Op::SampleC | Op::SampleCLz => {
            e.read_scalar(inst, &inst.operands[4], Ty::Float)
        }
        _ => String::new(),
    };
    let grads = (inst.op == Op::SampleD).then(|| {
        let dx = e.read_n(inst, &inst.operands[4], dim.axes(), Ty::Float);
        let dy = e.read_n(inst, &inst.operands[5], dim.axes(), Ty::Float);
        (dx, dy)
    });
    let implicit = e.stage == ProgramType::Pixel;
    let inputs = |raw| Inputs {
        op: inst.op,
        scalar: &scalar,
        grads: grads.as_ref().map(|(x, y)| (x.as_str(), y.as_str())),
        offset: offset.as_deref(),
        implicit,
        raw,
        min_lod: None,
    };
    let ty = if compare { Ty::Float } else { ctx.res.ty };
    if let Some(clamp) = min_lod {
        let mn = e.read_scalar(inst, clamp, Ty::Float);
        let ct = e.tmp();
        e.line_cat(&[vec_name(dim.glsl_components()), " ", &ct, " = ", &c, ";"]);
        let mut inputs = inputs(Some(&ct));
        inputs.min_lod = Some(&mn);
        let mut v = e.take_buf();
        emulated(e, inst, ctx, smp, &ct, &inputs, &mut v);
        assign_result(e, inst, ctx, &v, ty);
        e.give_buf(v);
        return;
    }
    if !emulates_addressing(dim) {
        let mut v = e.take_buf();
        hardware(e, ctx, smp, &c, &inputs(None), &mut v);
        assign_result(e, inst, ctx, &v, ty);
        e.give_buf(v);
        return;
    }
    let ct = e.tmp();
    e.line_cat(&[vec_name(dim.glsl_components()), " ", &ct, " = ", &c, ";"]);
    let mut mirrored = e.take_buf();
    mirror_once(e, &ct, dim, smp, &mut mirrored);
    let inputs = inputs(Some(&ct));
    if e.options.skip_border_emulation {
        let mut v = e.take_buf();
        hardware(e, ctx, smp, &mirrored, &inputs, &mut v);
        assign_result(e, inst, ctx, &v, ty);
        e.give_buf(v);
        e.give_buf(mirrored);
        return;
    }
    // Offsets move the texels before the mirror, which abs(u) cannot do.
    let moved = inst
        .offsets()
        .is_some_and(|o| o[..dim.axes()].iter().any(|&v| v != 0));
    let r = e.tmp();
    e.line_cat(&[type_prefix(ty), "vec4 ", &r, ";"]);
    let bias = compare && e.dialect == Dialect::Vk450;
    // Min/max reduction filters floats; comparisons and integer formats
    // ignore it.
    let reduce = !compare && ctx.res.ty == Ty::Float;
    let mut cond = e.take_buf();
    emulation_condition(&mut cond, smp, dim, moved, bias, reduce);
    e.line(("if (", cond.as_str(), ") {"));
    e.give_buf(cond);
    e.indent();
    // Both calls are built in one buffer from the emitter's pool.
    let mut v = e.take_buf();
    emulated(e, inst, ctx, smp, &ct, &inputs, &mut v);
    e.line_cat(&[&r, " = ", &v, ";"]);
    e.dedent();
    e.line("} else {");
    e.indent();
    v.clear();
    hardware(e, ctx, smp, &mirrored, &inputs, &mut v);
    e.line_cat(&[&r, " = ", &v, ";"]);
    e.give_buf(v);
    e.give_buf(mirrored);
    e.dedent();
    e.line("}");
    assign_result(e, inst, ctx, &r, ty);
}

/// The coordinate with `hlslcc_mirrorOnce` on each addressed axis, pushed
/// onto `s`.
fn mirror_once(e: &mut Emitter, ct: &str, dim: Dim, smp: u32, s: &mut String) {
    e.helpers
        .use_custom_static("hlslcc_mirrorOnce", MIRROR_ONCE);
    let m = mode_name(smp);
    let n = dim.glsl_components();
    cat!(s; "vec", n, '(');
    for (i, a) in ["x", "y", "z"][..n].iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        if i < dim.axes() {
            cat!(s; "hlslcc_mirrorOnce(", ct, '.', a, ", ", m, '.', a, ')');
        } else {
            cat!(s; ct, '.', a);
        }
    }
    s.push(')');
}

/// When the emulated path runs, pushed onto `c`: a border mode on an
/// addressed axis; when `moved` (a non-zero offset), mirror once; when
/// `bias` (vk450 comparisons, which cannot take it in hardware), a
/// MipLODBias other than 0; when `reduce`, a min/max reduction (neither
/// WebGL2 nor wgpu samplers have one).
fn emulation_condition(c: &mut String, smp: u32, dim: Dim, moved: bool, bias: bool, reduce: bool) {
    let m = mode_name(smp);
    let n = dim.axes();
    let has = |c: &mut String, v: u32| {
        if n == 1 {
            cat!(c; m, ".x == ", v);
        } else {
            cat!(c; "any(equal(", m, '.', axes_swizzle(dim), ", ivec", n, '(', v, ")))");
        }
    };
    has(c, 4);
    if moved {
        c.push_str(" || ");
        has(c, 5);
    }
    if bias {
        cat!(c; " || ", lod_name(smp), ".x != 0.0");
    }
    if reduce {
        cat!(c; " || ", filter_name(smp), ".w != 0");
    }
}

/// The call into the emulated path, pushed onto `s`.
fn emulated(
    e: &mut Emitter,
    inst: &Instruction,
    ctx: &Ctx,
    smp: u32,
    ct: &str,
    inputs: &Inputs,
    s: &mut String,
) {
    let min_lod = inputs.min_lod;
    let compare = matches!(inputs.op, Op::SampleC | Op::SampleCLz);
    if compare && ctx.res.ty != Ty::Float {
        // The reference compares no integer texel: zeros.
        s.push_str("vec4(0.0)");
        return;
    }
    let dim = ctx.res.dim;
    // Where the gradients come from: none (zero), the instruction's, or
    // the coordinate's own derivatives.
    enum Grads<'a> {
        Zero,
        Given(&'a str, &'a str),
        Derivs,
    }
    let scalar = inputs.scalar;
    // The LOD argument as (before, value, after): the instruction's LOD
    // or 0 as they are, its bias held to [-16, 15.99].
    let given = |l| ("", l, "");
    let bias = ("clamp(", scalar, ", -16.0, 15.99)");
    let (grads, l, grad) = match inputs.op {
        Op::SampleL => (Grads::Zero, given(scalar), false),
        Op::SampleD => {
            let (dx, dy) = inputs.grads.unwrap_or_default();
            (Grads::Given(dx, dy), given("0.0"), true)
        }
        Op::SampleCLz => (Grads::Zero, given("0.0"), false),
        Op::SampleB if inputs.implicit => (Grads::Derivs, bias, true),
        Op::SampleB => (Grads::Zero, bias, false),
        _ if inputs.implicit => (Grads::Derivs, given("0.0"), true),
        _ => (Grads::Zero, given("0.0"), false),
    };
    // Gradients are padded to three axes.
    let (open, close) = match dim.axes() {
        1 => ("vec3(", ", 0.0, 0.0)"),
        2 => ("vec3(", ", 0.0)"),
        _ => ("", ""),
    };
    let a = axes_swizzle(dim);
    let push_grad = |s: &mut String, given: &str, d: &str| match grads {
        Grads::Zero => s.push_str("vec3(0.0)"),
        Grads::Given(..) => cat!(s; open, given, close),
        Grads::Derivs => cat!(s; open, d, '(', ct, '.', a, ')', close),
    };
    let (dx, dy) = match grads {
        Grads::Given(dx, dy) => (dx, dy),
        _ => ("", ""),
    };
    let o = inst.offsets().unwrap_or([0; 3]);
    let name = emulate::helper(e, ctx, smp, compare, min_lod.is_some());
    // `name(ct, gx, gy, l, grad, ivec3(o)[, reference][, min_lod])`.
    cat!(s; name, '(', ct, ", ");
    push_grad(s, dx, "dFdx");
    s.push_str(", ");
    push_grad(s, dy, "dFdy");
    cat!(s; ", ", l.0, l.1, l.2, ", ", if grad { "true" } else { "false" }, ", ivec3(");
    for (i, &v) in o.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        cat!(s; if i < dim.axes() { v } else { 0 });
    }
    s.push(')');
    if compare {
        cat!(s; ", ", scalar);
    }
    if let Some(mn) = min_lod {
        cat!(s; ", ", mn);
    }
    s.push(')');
}

/// The hardware call for coordinate `c`, MipLODBias folded in, pushed
/// onto `s`; a 4-component value (comparisons: `vec4(r)`).
fn hardware(e: &mut Emitter, ctx: &Ctx, smp: u32, c: &str, inputs: &Inputs, s: &mut String) {
    let b = SamplerBias(smp);
    let tail = inputs.tail();
    let off = inputs.off();
    match inputs.op {
        Op::SampleC | Op::SampleCLz => {
            s.push_str("vec4(");
            shadow_call(s, e, ctx, smp, c, inputs);
            s.push(')');
        }
        Op::SampleL => {
            cat!(s; "textureLod", off, '(');
            push_combined(s, e, ctx, smp);
            cat!(s; ", ", c, ", ", inputs.scalar, " + ", b, tail, ')');
        }
        Op::SampleD => {
            let (dx, dy) = inputs.grads.unwrap_or_default();
            let (open, close) = match ctx.res.dim {
                Dim::Tex1D | Dim::Tex1DArray => ("vec2(", ", 0.0)"),
                _ => ("", ""),
            };
            let x = e.tmp();
            e.line(("float ", &x, " = exp2(", b, ");"));
            cat!(s; "textureGrad", off, '(');
            push_combined(s, e, ctx, smp);
            cat!(s; ", ", c, ", ", open, dx, close, " * ", x, ", ", open, dy, close, " * ", x, tail, ')');
        }
        op => {
            let implicit = inputs.implicit;
            cat!(s; if implicit { "texture" } else { "textureLod" }, off, '(');
            push_combined(s, e, ctx, smp);
            cat!(s; ", ", c);
            if implicit {
                cat!(s; tail);
            }
            s.push_str(", ");
            if op == Op::SampleB {
                cat!(s; "clamp(", inputs.scalar, ", -16.0, 15.99) + ");
            }
            cat!(s; b);
            if !implicit {
                cat!(s; tail);
            }
            s.push(')');
        }
    }
}

/// `sample_c` / `sample_c_lz` through the comparison sampler, MipLODBias
/// `b` folded in where the dialect allows; the call is pushed onto `out`.
///
/// es300 (ES 3.00 offers, per shadow sampler type):
///
/// | | `texture(…, bias)` | `textureLod` | `textureGrad` |
/// |---|---|---|---|
/// | 2D shadow | yes | yes | yes |
/// | cube shadow | yes | — | yes |
/// | 2D-array shadow | — | — | yes |
///
/// `sample_c` takes the bias form where there is one, else `textureGrad`
/// with the coordinate's derivatives scaled by `exp2(b)`; `sample_c_lz`
/// (LOD b) takes `textureLod` where there is one, else `textureGrad` with
/// axis-aligned gradients `exp2(b)` texels long (zero when b ≤ 0).
///
/// vk450: naga turns any explicit LOD or gradient on a shadow sampler into
/// level 0, and has no bias form, so `sample_c` is the implicit-LOD call
/// and `sample_c_lz` the level-0 call — exact for MipLODBias 0; any other
/// bias runs the emulated path instead (cubes, which have none, ignore it).
/// Cube arrays (vk450 only) have a single form, `texture(s, P, ref)`, the
/// reference a separate argument (a vec5 does not exist); naga offers no
/// explicit LOD on it, so `sample_c_lz` takes the implicit LOD too: level 0
/// where that LOD is at most 0 or the texture has one level (and the min
/// and mag filters agree).
fn shadow_call(out: &mut String, e: &mut Emitter, ctx: &Ctx, smp: u32, c: &str, inputs: &Inputs) {
    let dim = ctx.res.dim;
    if dim == Dim::CubeArray {
        let s = combined_shadow(e, ctx, smp);
        cat!(out; "texture(", s, ", ", c, ", ", inputs.scalar, ')');
        return;
    }
    let b = SamplerBias(smp);
    let tail = inputs.tail();
    let off = inputs.off();
    let n = dim.glsl_components() + 1;
    let tx = cat!("txVec", e.textures.next_txvec);
    e.textures.next_txvec += 1;
    e.line((
        "vec",
        n,
        ' ',
        &tx,
        " = vec",
        n,
        '(',
        c,
        ", ",
        inputs.scalar,
        ");",
    ));
    let s = combined_shadow(e, ctx, smp);
    let es = e.dialect == Dialect::Es300;
    let array = matches!(dim, Dim::Tex2DArray | Dim::Tex1DArray);
    let cube = dim == Dim::Cube;
    // Outside the pixel shader `sample_c` has no derivatives: LOD 0 + b.
    let lz = inputs.op == Op::SampleCLz || !inputs.implicit;
    if !es {
        // naga reads every explicit LOD or gradient on a shadow sampler as
        // level 0: only the implicit LOD and level 0 are available, exact
        // for MipLODBias 0; other biases take the emulated path (see
        // `emulation_condition`).
        if !lz {
            cat!(out; "texture", off, '(', s, ", ", tx, tail, ')');
        } else if array {
            cat!(out; "textureGrad", off, '(', s, ", ", tx, ", vec2(0.0), vec2(0.0)", tail, ')');
        } else {
            cat!(out; "textureLod", off, '(', s, ", ", tx, ", 0.0", tail, ')');
        }
        return;
    }
    if !lz {
        if !array {
            cat!(out; "texture", off, '(', s, ", ", tx, tail, ", ", b, ')');
            return;
        }
        // The unmirrored coordinate's derivatives: abs(u) folds them where
        // a quad straddles 0.
        let d = inputs.raw.unwrap_or(&tx);
        let x = e.tmp();
        e.line(("float ", &x, " = exp2(", b, ");"));
        cat!(out; "textureGrad", off, '(', s, ", ", tx, ", dFdx(", d, ".xy) * ", x, ", dFdy(", d, ".xy) * ", x, tail, ')');
        return;
    }
    if !array && !cube {
        cat!(out; "textureLod", off, '(', s, ", ", tx, ", ", b, tail, ')');
        return;
    }
    // Gradient length in texels: exp2(b), or 0 (LOD −∞, clamped up to
    // MinLOD by the hardware) when b ≤ 0, where D3D's LOD b magnifies level
    // 0 just the same.
    // (textureSize through the comparison sampler itself: no plain view.)
    let bt = e.tmp();
    e.line(("float ", &bt, " = ", b, ';'));
    let g = e.tmp();
    if cube {
        e.helpers
            .use_custom_static("hlslcc_cubeLodGradient", CUBE_LOD_GRADIENT);
        e.line((
            "float ",
            &g,
            " = ",
            &bt,
            " > 0.0 ? exp2(",
            &bt,
            ") * 2.0 / float(textureSize(",
            &s,
            ", 0).x) : 0.0;",
        ));
        cat!(out; "textureGrad(", s, ", ", tx, ", hlslcc_cubeLodGradient(", tx, ".xyz, ", g, ", 0), \
             hlslcc_cubeLodGradient(", tx, ".xyz, ", g, ", 1))");
        return;
    }
    e.line((
        "vec2 ",
        &g,
        " = ",
        &bt,
        " > 0.0 ? exp2(",
        &bt,
        ") / vec2(textureSize(",
        &s,
        ", 0).xy) : vec2(0.0);",
    ));
    cat!(out; "textureGrad", off, '(', s, ", ", tx, ", vec2(", g, ".x, 0.0), vec2(0.0, ", g, ".y)", tail, ')');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of a hardware call: the offset tail is `, offset` or
    /// nothing; the sampler's MipLODBias is read clamped to D3D's
    /// [-16, 15.99].
    #[test]
    fn call_pieces() {
        assert_eq!(
            cat!("f(c", Tail(Some("ivec2(1, -2)")), ')'),
            "f(c, ivec2(1, -2))"
        );
        assert_eq!(cat!("f(c", Tail(None), ')'), "f(c)");
        assert_eq!(
            cat!(SamplerBias(2)),
            "clamp(hlslcc_samplerLod_s2.x, -16.0, 15.99)"
        );
        // Two addressed axes, a border test (4), then mirror once (5) when
        // an offset moves the texels, then the min/max reduction.
        let mut c = String::new();
        emulation_condition(&mut c, 1, Dim::Tex2D, true, false, true);
        assert_eq!(
            c,
            "any(equal(hlslcc_samplerMode_s1.xy, ivec2(4))) || \
             any(equal(hlslcc_samplerMode_s1.xy, ivec2(5))) || \
             hlslcc_samplerFilter_s1.w != 0"
        );
        // One axis (1D): a scalar test, and the vk450 comparison's bias.
        c.clear();
        emulation_condition(&mut c, 0, Dim::Tex1D, false, true, false);
        assert_eq!(
            c,
            "hlslcc_samplerMode_s0.x == 4 || hlslcc_samplerLod_s0.x != 0.0"
        );
    }
}
