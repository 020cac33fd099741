//! The manual sampling path: the sampler state WebGL2 cannot express in
//! hardware (border addressing, and mirror once where an offset moves the
//! texels before the mirror), computed in the shader exactly as the
//! reference emulator does (`src/vm/texture/lod.rs`, `filter.rs`,
//! `sample.rs`):
//!
//! * LOD: `0.5·log2` of the longer squared gradient in level-0 texels of
//!   the addressed axes (−∞ for zero gradients) or the given value, plus the
//!   instruction's bias, plus MipLODBias held to [−16, 15.99]; then MinLOD
//!   (which also replaces a NaN LOD) and MaxLOD; then 8 fractional bits
//!   (ties to even). LOD ≤ 0 (or NaN) magnifies. Clamped to the mip range,
//!   point mip filtering reads level floor(lod + 0.5), linear mip filtering
//!   blends floor(lod) and the next level by the fraction (one level when it
//!   is 0).
//! * Per level: the texel-space position per axis is snapped to 8 fractional
//!   bits; point reads texel floor(pos) + offset, linear the pair around
//!   pos − 0.5 with weights 1 − f and f (multiples of 1/256). Every tap goes
//!   through the address mode (border taps read the border colour) and
//!   `texelFetch`; taps of weight 0 are skipped so an infinite texel outside
//!   the footprint cannot poison the sum.
//! * Min/max reduction (`hlslcc_samplerFilter_sM.w` 1 / 2, D3D11.1's
//!   `MINIMUM_*` / `MAXIMUM_*` filters): the component-wise minimum or
//!   maximum of the taps with a non-zero weight, over both levels when
//!   linear mip filtering blends two; comparisons ignore it.
//! * Comparison (`sample_c*`) compares every tap as `reference <func>
//!   texel.r` and filters the 1/0 results; UNORM formats clamp the
//!   reference to [0, 1] first (NaN → 0).
//! * Integer formats do not filter: the nearest mip, the point texel, its
//!   bits (the border colour's bits at the border).
//!
//! The state comes from `hlslcc_SamplerState`, the mip count and UNORM flag
//! from `hlslcc_TextureLevels`. Coordinates arrive as the hardware call
//! would take them (1D lowered to `vec2(u, 0.5)`, layers already rounded to
//! nearest even); gradients and offsets padded to three axes.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::super::emit::{Emitter, convert};
use super::super::types::Ty;
use super::address::{self, COMPARE};
use super::decl::{border_name, filter_name, lod_name, mode_name};
use super::{Ctx, Dim, fetch_name, levels_name, type_prefix};
use crate::dxbc::numfmt::push_u64;

/// What a dimension looks like to the emulated path.
struct Shape {
    /// GLSL coordinate type (after the 1D → 2D lowering).
    cty: &'static str,
    /// Addressed axes (1, 2 or 3).
    axes: usize,
    array: bool,
}

fn shape(dim: Dim) -> Shape {
    let (cty, axes, array) = match dim {
        Dim::Tex1D => ("vec2", 1, false),
        Dim::Tex1DArray => ("vec3", 1, true),
        Dim::Tex2DArray => ("vec3", 2, true),
        Dim::Tex3D => ("vec3", 3, false),
        _ => ("vec2", 2, false),
    };
    Shape { cty, axes, array }
}

const XYZ: [&str; 3] = ["x", "y", "z"];

/// The helper for `ctx`'s texture with sampler `smp`; returns its name. Its
/// parameters: the coordinate, the two gradients (normalized units, three
/// axes), the LOD or instruction bias `l`, whether `l` adds to the gradient
/// LOD (`grad`) or is the LOD itself, the texel offset, for comparisons the
/// reference and, when `clamped` (a `_cl` instruction's per-sample
/// minimum-LOD clamp, which no hardware call here takes), the clamp `mn`:
/// max(mn, LOD) after the sampler's clamps, and a clamp past the last level
/// reads out of bounds, as the emulator does (`vm/texture/lod.rs`).
pub(crate) fn helper(e: &mut Emitter, ctx: &Ctx, smp: u32, compare: bool, clamped: bool) -> String {
    let t = ctx.slot;
    let variant = if compare { "Cmp" } else { "" };
    let cl = if clamped { "Cl" } else { "" };
    // Pushed, not formatted: every emulated sample asks for its name.
    let mut name = String::with_capacity(48);
    name.push_str("hlslcc_sampleEmulated");
    name.push_str(variant);
    name.push_str(cl);
    name.push_str("_t");
    push_u64(&mut name, t.into());
    name.push_str("_s");
    push_u64(&mut name, smp.into());
    // Another sample of this texture with this sampler wrote all three
    // functions already (their names follow from the same key), and the
    // addressing helpers before them: building their text again would
    // only be thrown away.
    let requested = (t, smp, compare, clamped);
    if e.textures.emulated.contains(&requested) {
        return name;
    }
    e.textures.emulated.push(requested);
    address::use_addressing(e);
    if compare {
        address::use_compare(e);
    }
    let tex = fetch_name(e, t, &ctx.res);
    // The three texts depend on nothing but the key: the helper's name
    // (slots and variant), the texture's fetch expression, its dimension
    // and its component type. They are kilobytes built from many pieces,
    // so each key's are built once per thread and shared.
    // The name follows from the slots and flags, so they stand for it in
    // the key and the name is not copied into it.
    let key = (
        t,
        smp,
        compare,
        clamped,
        tex,
        ctx.res.dim,
        type_prefix(ctx.res.ty),
    );
    let texts = BUILT.with(|built| {
        if let Some(texts) = built.borrow().get(&key) {
            return Rc::clone(texts);
        }
        let texts: Rc<Texts> = Rc::new(build(ctx, smp, compare, clamped, &name, &key.4));
        let mut built = built.borrow_mut();
        // Keys are bounded by the slots and dimensions a program can
        // name; the bound only stops a long-running process that meets
        // very many from growing without end.
        if built.len() >= 4096 {
            built.clear();
        }
        built.insert(key, Rc::clone(&texts));
        texts
    });
    for (k, text) in texts.iter() {
        e.helpers.use_custom_shared(k, text);
    }
    name
}

/// A sample helper's functions, in the order they are written: the tap,
/// the level, the whole sample (each keyed by its function's name).
type Texts = [(String, Rc<str>); 3];

/// The cache key: texture and sampler slots, comparison, clamp, fetch
/// expression, dimension, type prefix.
type Key = (u32, u32, bool, bool, String, Dim, &'static str);

thread_local! {
    static BUILT: RefCell<BTreeMap<Key, Rc<Texts>>> = const { RefCell::new(BTreeMap::new()) };
}

/// The text of [`helper`]'s three functions for sample helper `name`.
fn build(ctx: &Ctx, smp: u32, compare: bool, clamped: bool, name: &str, tex: &str) -> Texts {
    let t = ctx.slot;
    let sh = shape(ctx.res.dim);
    let int = ctx.res.ty != Ty::Float;
    let p = type_prefix(ctx.res.ty);
    let mode = mode_name(smp);
    let levels = levels_name(t);
    let variant = if compare { "Cmp" } else { "" };

    // One tap: the address modes per axis, then the border colour or the
    // texel at `level`.
    let tap = format!("hlslcc_sampleTap_t{t}_s{smp}");
    let mut body = vec![format!("ivec4 m = {mode};")];
    for a in XYZ.iter().take(sh.axes) {
        body.push(format!(
            "int {a} = hlslcc_addressTexel(i.{a}, size.{a}, m.{a});"
        ));
    }
    let outside = XYZ[..sh.axes]
        .iter()
        .map(|a| format!("{a} < 0"))
        .collect::<Vec<_>>()
        .join(" || ");
    let border = convert(&border_name(smp).to_string(), Ty::Float, ctx.res.ty, 4);
    body.push(format!("if ({outside}) return {border};"));
    let at = match (sh.axes, sh.array) {
        (1, false) => "ivec2(x, 0)",
        (1, true) => "ivec3(x, 0, layer)",
        (2, false) => "ivec2(x, y)",
        (2, true) => "ivec3(x, y, layer)",
        _ => "ivec3(x, y, z)",
    };
    body.push(format!("return texelFetch({tex}, {at}, level);"));
    let tap_text = function(
        &format!("{p}vec4 {tap}(ivec3 i, ivec3 size, int layer, int level)"),
        &body,
    );

    // One mip level: the snapped positions, then the point texel or the
    // weighted linear footprint (up to 8 taps for 3D).
    let level_fn = format!("hlslcc_sampleLevel{variant}_t{t}_s{smp}");
    let pos = (0..3)
        .map(|a| {
            if a < sh.axes {
                let c = XYZ[a];
                format!("hlslcc_texelPos(c.{c}, size.{c}, m.{c})")
            } else {
                "0.0".to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut body = vec![
        format!("ivec4 m = {mode};"),
        "ivec3 size = max(base >> ivec3(level), ivec3(1));".to_string(),
        format!("vec3 p = vec3({pos});"),
    ];
    let (rty, params) = if int {
        body.push(format!(
            "return {tap}(ivec3(floor(p)) + off, size, layer, level);"
        ));
        (
            format!("{p}vec4"),
            format!("{} c, ivec3 base, int layer, int level, ivec3 off", sh.cty),
        )
    } else {
        let half = (0..3)
            .map(|a| if a < sh.axes { "0.5" } else { "0.0" })
            .collect::<Vec<_>>()
            .join(", ");
        let value = if compare {
            format!("vec4({COMPARE}(ref, {tap}(i + b, size, layer, level).x, m.w))")
        } else {
            format!("{tap}(i + b, size, layer, level)")
        };
        body.extend([
            "// Linear: the pair around pos - 0.5; point: the texel holding pos.".to_string(),
            format!("vec3 x = filt == 0 ? p : p - vec3({half});"),
            "vec3 fl = floor(x);".to_string(),
            "ivec3 i = ivec3(fl) + off;".to_string(),
            "vec3 w1 = filt == 0 ? vec3(0.0) : x - fl;".to_string(),
            "vec3 w0 = 1.0 - w1;".to_string(),
            "vec4 acc = vec4(0.0);".to_string(),
            "// Min/max reduction: the taps of non-zero weight, unweighted.".to_string(),
            "vec4 lo = vec4(uintBitsToFloat(0x7f800000u));".to_string(),
            "vec4 hi = -lo;".to_string(),
            "vec4 v;".to_string(),
            "ivec3 b;".to_string(),
            "float w;".to_string(),
        ]);
        // 2^axes taps: the footprint's other corners have weight 0. The
        // taps are written out rather than looped over: a loop around the
        // tap (itself inlined with its addressing) sends LLVM's loop
        // analysis, in lavapipe and SwiftShader alike, into minutes of
        // compiling for a shader with a few such samples.
        for k in 0..1 << sh.axes {
            let (bx, by, bz) = (k & 1, (k >> 1) & 1, (k >> 2) & 1);
            let pick = |bit: i32, a: &str| {
                if bit == 0 {
                    format!("w0.{a}")
                } else {
                    format!("w1.{a}")
                }
            };
            body.push(format!("b = ivec3({bx}, {by}, {bz});"));
            body.push(format!(
                "w = {} * {} * {};",
                pick(bx, "x"),
                pick(by, "y"),
                pick(bz, "z")
            ));
            // A zero-weight tap is skipped: an infinite texel times 0
            // would make NaN.
            body.push(format!(
                "if (w != 0.0) {{ v = {value}; acc += w * v; lo = min(lo, v); hi = max(hi, v); }}"
            ));
        }
        body.push("return red == 1 ? lo : red == 2 ? hi : acc;".to_string());
        let r = if compare { ", float ref" } else { "" };
        (
            "vec4".to_string(),
            format!(
                "{} c, ivec3 base, int layer, int level, int filt, int red, ivec3 off{r}",
                sh.cty
            ),
        )
    };
    let level_text = function(&format!("{rty} {level_fn}({params})"), &body);

    // The whole sample: LOD, mip plan, one or two levels.
    let (size_ty, base, n) = match (sh.axes, sh.array) {
        (1, false) => (
            "ivec2",
            "ivec3(ts.x, 1, 1)",
            "vec3(float(base.x), 0.0, 0.0)",
        ),
        (1, true) => (
            "ivec3",
            "ivec3(ts.x, 1, 1)",
            "vec3(float(base.x), 0.0, 0.0)",
        ),
        (2, false) => ("ivec2", "ivec3(ts, 1)", "vec3(vec2(base.xy), 0.0)"),
        (2, true) => ("ivec3", "ivec3(ts.xy, 1)", "vec3(vec2(base.xy), 0.0)"),
        _ => ("ivec3", "ts", "vec3(base)"),
    };
    let lod = lod_name(smp);
    let mut body = vec![
        format!("{size_ty} ts = textureSize({tex}, 0);"),
        format!("ivec3 base = {base};"),
        "if (grad) {".to_string(),
        format!("    vec3 n = {n};"),
        "    vec3 dx = gx * n;".to_string(),
        "    vec3 dy = gy * n;".to_string(),
        "    float g = max(dot(dx, dx), dot(dy, dy));".to_string(),
        "    // Zero gradients: LOD -inf (GLSL leaves log2(0) undefined).".to_string(),
        "    l += g > 0.0 ? 0.5 * log2(g) : -uintBitsToFloat(0x7f800000u);".to_string(),
        "}".to_string(),
        format!("vec4 st = {lod};"),
        "l += clamp(st.x, -16.0, 15.99);".to_string(),
        "// MinLOD also replaces a NaN LOD.".to_string(),
        "l = min(isnan(l) ? st.y : max(l, st.y), st.z);".to_string(),
    ];
    if clamped {
        body.extend([
            "// The per-sample clamp comes after the sampler's; NaN clamps nothing.".to_string(),
            "if (!isnan(mn)) l = max(l, mn);".to_string(),
        ]);
    }
    body.extend([
        "l = roundEven(l * 256.0) / 256.0;".to_string(),
        "bool magnify = !(l > 0.0);".to_string(),
        format!("float last = float(max({levels}.x - 1, 0));"),
    ]);
    if clamped {
        // No level left: out of bounds, 0 in the format's components and
        // the defaults in the rest (a comparison compares nothing: 0).
        let oob = if compare {
            "vec4(0.0)".to_string()
        } else if int {
            format!("{p}vec4(0, 0, 0, {levels}.z < 4 ? 1 : 0)")
        } else {
            format!("vec4(0.0, 0.0, 0.0, {levels}.z < 4 ? 1.0 : 0.0)")
        };
        body.push("// The levels below floor(mn) are clamped off: none may be left.".to_string());
        body.push(format!("if (floor(mn) > last) return {oob};"));
    }
    body.extend([
        "l = isnan(l) ? 0.0 : clamp(l, 0.0, last);".to_string(),
        "int nearest = int(min(floor(l + 0.5), last));".to_string(),
    ]);
    body.push(if sh.array {
        "int layer = int(clamp(isnan(c.z) ? 0.0 : c.z, 0.0, float(ts.z - 1)));".to_string()
    } else {
        "int layer = 0;".to_string()
    });
    let (rty, extra) = if int {
        body.push(format!("return {level_fn}(c, base, layer, nearest, off);"));
        (format!("{p}vec4"), "")
    } else {
        if compare {
            body.push(format!(
                "if ({levels}.y != 0) ref = isnan(ref) ? 0.0 : clamp(ref, 0.0, 1.0);"
            ));
        }
        let r = if compare { ", ref" } else { "" };
        body.extend([
            format!("ivec4 f = {};", filter_name(smp)),
            "int filt = magnify ? f.y : f.x;".to_string(),
            if compare {
                "int red = 0;".to_string()
            } else {
                "int red = f.w;".to_string()
            },
            format!("if (f.z == 0) return {level_fn}(c, base, layer, nearest, filt, red, off{r});"),
            "float l0 = floor(l);".to_string(),
            "float w = l - l0;".to_string(),
            format!("vec4 r = {level_fn}(c, base, layer, int(l0), filt, red, off{r});"),
            "if (w == 0.0) return r;".to_string(),
            format!("vec4 r1 = {level_fn}(c, base, layer, int(l0) + 1, filt, red, off{r});"),
            "return red == 1 ? min(r, r1) : red == 2 ? max(r, r1) : (1.0 - w) * r + w * r1;"
                .to_string(),
        ]);
        ("vec4".to_string(), if compare { ", float ref" } else { "" })
    };
    let mn = if clamped { ", float mn" } else { "" };
    let sig = format!(
        "{rty} {name}({} c, vec3 gx, vec3 gy, float l, bool grad, ivec3 off{extra}{mn})",
        sh.cty
    );
    let why = if clamped {
        "// Emulated sample with a per-sample minimum-LOD clamp (`_cl`), which no\n\
         // hardware call takes: the reference's LOD, mip and filter rules over\n\
         // texelFetch taps."
    } else {
        "// Emulated sample (border addressing, mirror once with offsets, min/max\n\
         // reduction): the reference's LOD, mip and filter rules over texelFetch taps."
    };
    let sample_text = format!("{why}\n{}", function(&sig, &body));
    [
        (tap, Rc::from(tap_text)),
        (level_fn, Rc::from(level_text)),
        (name.to_string(), Rc::from(sample_text)),
    ]
}

fn function(signature: &str, body: &[String]) -> String {
    let mut out = format!("{signature} {{\n");
    for l in body {
        out.push_str("    ");
        out.push_str(l);
        out.push('\n');
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_the_1d_lowering() {
        let s = shape(Dim::Tex1DArray);
        assert_eq!((s.cty, s.axes, s.array), ("vec3", 1, true));
        let s = shape(Dim::Tex3D);
        assert_eq!((s.cty, s.axes, s.array), ("vec3", 3, false));
        assert_eq!(
            function("void f()", &["return;".into()]),
            "void f() {\n    return;\n}"
        );
    }
}
