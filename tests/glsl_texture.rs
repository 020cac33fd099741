//! The texture lowering: every `shaders/glsl/tex_*.asm` translates in both
//! dialects, passes glslangValidator (es300) and naga (vk450), and shows
//! the specific facts its rule promises.

mod common;

use std::path::Path;

use dxbc_dbg::dxbc::asm::assemble;
use dxbc_dbg::dxbc::shader::{ParseOptions, Shader};
use dxbc_dbg::glsl::{self, Dialect, Options, Reason, Translation};

/// The manifest's uniforms as (name, offset, block).
fn uniform_layout(t: &glsl::Translation) -> Vec<(&str, u32, &str)> {
    t.manifest
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.offset, u.block.as_str()))
        .collect()
}

fn shader(name: &str) -> Shader {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("shaders/glsl")
        .join(format!("{name}.asm"));
    let text = std::fs::read_to_string(&path).expect("read asm");
    shader_from(&text)
}

fn shader_from(text: &str) -> Shader {
    let bytes = assemble(text).unwrap_or_else(|e| panic!("assemble: {e:?}"));
    Shader::parse(
        &bytes,
        ParseOptions {
            verify_checksum: true,
        },
    )
    .expect("parse")
}

fn translate_opts(name: &str, options: &Options) -> Translation {
    let s = shader(name);
    let t = glsl::translate(&s, options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let check = match options.dialect {
        Dialect::Es300 => common::validate::es300(t.stage, &t.source),
        Dialect::Vk450 => common::validate::vk450(t.stage, &t.source),
    };
    if let Err(msg) = check {
        panic!(
            "{name} ({}) does not validate:\n{msg}\n{}",
            options.dialect.name(),
            t.source
        );
    }
    t
}

fn es(name: &str) -> Translation {
    translate_opts(name, &Options::new(Dialect::Es300))
}

fn vk(name: &str) -> Translation {
    translate_opts(name, &Options::new(Dialect::Vk450))
}

fn all_names() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/glsl");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("shaders/glsl")
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            (n.starts_with("tex_") && n.ends_with(".asm"))
                .then(|| n.trim_end_matches(".asm").into())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_texture_shader_validates_in_both_dialects() {
    let mut names = all_names();
    names.push("../shadow_pcf".into());
    assert!(names.len() >= 15, "{names:?}");
    for n in &names {
        es(n);
        vk(n);
    }
}

#[test]
fn declarations_follow_the_combined_sampler_abi() {
    let t = es("tex_sample_mixed");
    for line in [
        "uniform highp sampler2D t0;",
        "uniform highp sampler2D t0TEX_with_SMPs0;",
        "uniform highp sampler2DShadow hlslcc_zcmpt0;",
        "uniform highp sampler2DShadow hlslcc_zcmpt0TEX_with_SMPs1;",
    ] {
        assert!(t.source.contains(line), "{line}\n{}", t.source);
    }
    assert_eq!(t.manifest.combined_samplers.len(), 2);
    let s = shader("tex_sample_mixed");
    let v = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect("vk450");
    for line in [
        "layout(set = 0, binding = 16) uniform texture2D t0;",
        "layout(set = 0, binding = 160) uniform sampler s0;",
        "layout(set = 0, binding = 161) uniform samplerShadow s1;",
        // Plain reads of a compared texture go through its second view.
        "layout(set = 0, binding = 96) uniform texture2D t0_plain;",
        "texture(sampler2D(t0_plain, s0), vec2(hlslcc_mirrorOnce(dx_t0.x, hlslcc_samplerMode_s0.x)",
        "textureLod(sampler2DShadow(t0, s1), txVec0, 0.0)",
    ] {
        assert!(v.source.contains(line), "{line}\n{}", v.source);
    }
    assert_eq!(v.manifest.textures[0].binding, Some(16));
    assert!(
        v.manifest
            .textures
            .iter()
            .any(|t| t.glsl_name == "t0_plain" && t.binding == Some(96))
    );
    let int = es("tex_int_load");
    assert!(int.source.contains("uniform highp isampler2D t0;"));
    assert!(int.source.contains("texelFetch(t0, dx_t0.xy, dx_t0.w)"));
    assert!(int.source.contains("r0 = intBitsToFloat(dx_t1);"));
}

/// `clamp(MipLODBias, -16, 15.99)` of s0 / s1, as every sample folds it in.
const B0: &str = "clamp(hlslcc_samplerLod_s0.x, -16.0, 15.99)";
const B1: &str = "clamp(hlslcc_samplerLod_s1.x, -16.0, 15.99)";
/// The 2D coordinate `dx_t0` through mirror once on both axes.
const MIRRORED: &str = "vec2(hlslcc_mirrorOnce(dx_t0.x, hlslcc_samplerMode_s0.x), \
                        hlslcc_mirrorOnce(dx_t0.y, hlslcc_samplerMode_s0.y))";

#[track_caller]
fn has(src: &str, needle: &str) {
    assert!(src.contains(needle), "missing `{needle}` in:\n{src}");
}

#[test]
fn sample_forms_fold_the_mip_lod_bias() {
    let s = es("tex_sample").source;
    has(
        &s,
        &format!("dx_t1 = texture(t0TEX_with_SMPs0, {MIRRORED}, {B0});"),
    );
    has(&s, "r0.xyz = dx_t1.zyx;");
    has(
        &es("tex_sample_offset").source,
        &format!("textureOffset(t0TEX_with_SMPs0, {MIRRORED}, ivec2(-2, 3), {B0})"),
    );
    has(
        &es("tex_sample_offset_3d").source,
        "ivec3(1, -1, 2), clamp(",
    );
    let l = es("tex_sample_l").source;
    // sample_l: the bias adds to the given LOD.
    has(
        &l,
        &format!("textureLod(t0TEX_with_SMPs0, {MIRRORED}, v1.z + {B0});"),
    );
    has(&l, &format!(", 2.0 + {B0}, ivec2(1, 1));"));
    // sample_b: the instruction's bias, held to [-16, 15.99], plus the sampler's.
    has(
        &es("tex_sample_b").source,
        &format!("texture(t0TEX_with_SMPs0, {MIRRORED}, clamp(v1.w, -16.0, 15.99) + {B0});"),
    );
    // sample_d: gradients scaled by 2^b move the LOD by b.
    let d = es("tex_sample_d").source;
    has(&d, &format!("float dx_t2 = exp2({B0});"));
    has(&d, "r0.xy * dx_t2, r1.xy * dx_t2);");
    assert!(es("tex_sample_array").source.contains("roundEven("));
    assert!(vk("tex_sample_array").source.contains("roundEven("));
    // Mirror once: abs(u) where the axis's mode is 5.
    has(
        &s,
        "float hlslcc_mirrorOnce(float u, int mode) {\n    return mode == 5 ? abs(u) : u;\n}",
    );
}

#[test]
fn comparison_sampling_folds_the_bias_per_sampler_type() {
    let s = es("tex_sample_c_2d").source;
    has(&s, &format!("vec3 txVec0 = vec3({MIRRORED}, v1.z);"));
    has(
        &s,
        &format!("texture(hlslcc_zcmpt0TEX_with_SMPs0, txVec0, {B0})"),
    );
    // naga reads explicit LODs and gradients on shadow samplers as level 0
    // and has no bias form: the implicit call, and a MipLODBias other than
    // 0 takes the emulated path.
    let v = vk("tex_sample_c_2d").source;
    has(
        &v,
        "if (any(equal(hlslcc_samplerMode_s0.xy, ivec2(4))) || hlslcc_samplerLod_s0.x != 0.0) {",
    );
    has(
        &v,
        "dx_t1 = vec4(texture(sampler2DShadow(t0, s0), txVec0));",
    );
    // sample_c_lz: LOD b.
    let s = es("tex_sample_c_lz_2d").source;
    has(
        &s,
        &format!("textureLod(hlslcc_zcmpt0TEX_with_SMPs0, txVec0, {B0})"),
    );
    has(
        &s,
        &format!("textureLodOffset(hlslcc_zcmpt0TEX_with_SMPs0, txVec1, {B0}, ivec2(1, 0))"),
    );
    // 2D-array shadow has neither: sample_c through derivatives, sample_c_lz
    // through axis-aligned gradients 2^b texels long (0 when b <= 0).
    let s = es("tex_sample_c_array").source;
    has(&s, "vec4 txVec1 = vec4(");
    has(&s, "dFdx(dx_t1.xy) * dx_t3, dFdy(dx_t1.xy) * dx_t3)");
    has(&s, &format!("float dx_t7 = {B0};"));
    has(
        &s,
        "vec2 dx_t8 = dx_t7 > 0.0 ? exp2(dx_t7) / vec2(textureSize(",
    );
    has(&s, "txVec1, vec2(dx_t8.x, 0.0), vec2(0.0, dx_t8.y))");
    let v = vk("tex_sample_c_array").source;
    has(&v, "vec4(texture(sampler2DArrayShadow(t0, s0), txVec0))");
    has(
        &v,
        "vec4(textureGrad(sampler2DArrayShadow(t0, s0), txVec1, vec2(0.0), vec2(0.0)))",
    );
    let cube = es("tex_sample_c_cube").source;
    has(
        &cube,
        &format!("texture(hlslcc_zcmpt0TEX_with_SMPs0, txVec0, {B0})"),
    );
    has(
        &cube,
        "float dx_t1 = dx_t0 > 0.0 ? exp2(dx_t0) * 2.0 / float(textureSize(hlslcc_zcmpt0TEX_with_SMPs0, 0).x) : 0.0;",
    );
    has(
        &cube,
        "textureGrad(hlslcc_zcmpt0TEX_with_SMPs0, txVec1, hlslcc_cubeLodGradient(txVec1.xyz, dx_t1, 0), hlslcc_cubeLodGradient(txVec1.xyz, dx_t1, 1))",
    );
    // Cubes ignore address modes: no mirror, no border branch.
    assert!(!cube.contains("hlslcc_mirrorOnce("), "{cube}");
    assert!(!cube.contains("hlslcc_sampleEmulated"), "{cube}");
    // vk450 cubes have no emulated path: MipLODBias is lost there.
    let cube = vk("tex_sample_c_cube").source;
    has(&cube, "texture(samplerCubeShadow(t0, s0), txVec0)");
    has(&cube, "textureLod(samplerCubeShadow(t0, s0), txVec1, 0.0)");
    let mixed = es("tex_sample_mixed").source;
    has(
        &mixed,
        &format!("textureLod(hlslcc_zcmpt0TEX_with_SMPs1, txVec0, {B1})"),
    );
}

#[test]
fn border_takes_the_emulated_path() {
    let t = es("tex_sample");
    let s = &t.source;
    // Border on an addressed axis, or a min/max reduction (no sampler
    // reduces), takes the emulated path.
    has(
        s,
        "if (any(equal(hlslcc_samplerMode_s0.xy, ivec2(4))) || hlslcc_samplerFilter_s0.w != 0) {",
    );
    has(s, "return red == 1 ? lo : red == 2 ? hi : acc;");
    has(s, "int red = f.w;");
    // Implicit LOD from the coordinate's derivatives, no bias, no offset.
    has(
        s,
        "dx_t1 = hlslcc_sampleEmulated_t0_s0(dx_t0, vec3(dFdx(dx_t0.xy), 0.0), vec3(dFdy(dx_t0.xy), 0.0), 0.0, true, ivec3(0, 0, 0));",
    );
    has(s, "} else {");
    // The LOD rules of vm/texture/lod.rs, in order.
    let lines = [
        "l += g > 0.0 ? 0.5 * log2(g) : -uintBitsToFloat(0x7f800000u);",
        "l += clamp(st.x, -16.0, 15.99);",
        "l = min(isnan(l) ? st.y : max(l, st.y), st.z);",
        "l = roundEven(l * 256.0) / 256.0;",
        "bool magnify = !(l > 0.0);",
        "float last = float(max(hlslcc_textureLevels_t0.x - 1, 0));",
        "l = isnan(l) ? 0.0 : clamp(l, 0.0, last);",
        "int nearest = int(min(floor(l + 0.5), last));",
        "int filt = magnify ? f.y : f.x;",
        "int red = f.w;",
        "if (f.z == 0) return hlslcc_sampleLevel_t0_s0(c, base, layer, nearest, filt, red, off);",
        "vec4 r1 = hlslcc_sampleLevel_t0_s0(c, base, layer, int(l0) + 1, filt, red, off);",
        "return red == 1 ? min(r, r1) : red == 2 ? max(r, r1) : (1.0 - w) * r + w * r1;",
    ];
    let mut last = 0;
    for line in lines {
        let at = s
            .find(line)
            .unwrap_or_else(|| panic!("missing `{line}` in:\n{s}"));
        assert!(at > last, "`{line}` out of order");
        last = at;
    }
    // Filter weights around pos - 0.5; border taps read the border colour.
    has(s, "vec3 x = filt == 0 ? p : p - vec3(0.5, 0.5, 0.0);");
    // A 2D footprint has four taps, written out (no loop for the GPU's
    // compiler to analyse), each weighted by its axes' sides of the
    // footprint; zero-weight ones are skipped.
    assert!(!s.contains("for (int k"), "taps are not looped over");
    for (corner, weight) in [
        ("ivec3(0, 0, 0)", "w0.x * w0.y * w0.z"),
        ("ivec3(1, 0, 0)", "w1.x * w0.y * w0.z"),
        ("ivec3(0, 1, 0)", "w0.x * w1.y * w0.z"),
        ("ivec3(1, 1, 0)", "w1.x * w1.y * w0.z"),
    ] {
        has(
            s,
            &format!(
                "b = {corner};\n    w = {weight};\n    \
                 if (w != 0.0) {{ v = hlslcc_sampleTap_t0_s0(i + b, size, layer, level); \
                 acc += w * v; lo = min(lo, v); hi = max(hi, v); }}"
            ),
        );
    }
    assert!(!s.contains("b = ivec3(0, 0, 1)"), "no third axis in 2D");
    has(s, "if (x < 0 || y < 0) return hlslcc_samplerBorder_s0;");
    has(s, "return texelFetch(t0, ivec2(x, y), level);");
    // The block, with the new filter member, and the mip counts.
    let names = uniform_layout(&t);
    assert_eq!(
        names,
        [
            ("hlslcc_textureLevels_t0", 0, "hlslcc_TextureLevels"),
            ("hlslcc_samplerMode_s0", 0, "hlslcc_SamplerState"),
            ("hlslcc_samplerBorder_s0", 16, "hlslcc_SamplerState"),
            ("hlslcc_samplerLod_s0", 32, "hlslcc_SamplerState"),
            ("hlslcc_samplerFilter_s0", 48, "hlslcc_SamplerState"),
        ]
    );
    // Offsets move texels before the mirror: mirror once takes the
    // emulated path too, and the offset goes to it.
    let o = es("tex_sample_offset").source;
    has(
        &o,
        "if (any(equal(hlslcc_samplerMode_s0.xy, ivec2(4))) || any(equal(hlslcc_samplerMode_s0.xy, ivec2(5))) || hlslcc_samplerFilter_s0.w != 0) {",
    );
    has(&o, "0.0, true, ivec3(-2, 3, 0));");
    // 1D: one addressed axis, row 0 of the height-1 texture.
    let one = es("tex_tex1d").source;
    has(
        &one,
        "if (hlslcc_samplerMode_s0.x == 4 || hlslcc_samplerFilter_s0.w != 0) {",
    );
    has(&one, "vec3(dFdx(dx_t0.x), 0.0, 0.0)");
    has(&one, "if (x < 0) return hlslcc_samplerBorder_s0;");
    has(&one, "return texelFetch(t0, ivec2(x, 0), level);");
    has(&one, "return texelFetch(t1, ivec3(x, 0, layer), level);");
    // 2D array: the layer clamped to the array; 3D: three axes, 8 taps.
    let a = es("tex_sample_array").source;
    has(
        &a,
        "int layer = int(clamp(isnan(c.z) ? 0.0 : c.z, 0.0, float(ts.z - 1)));",
    );
    let f = es("tex_sample_bias_forms").source;
    has(
        &f,
        "if (any(equal(hlslcc_samplerMode_s0.xyz, ivec3(4))) || hlslcc_samplerFilter_s0.w != 0) {",
    );
    has(
        &f,
        "hlslcc_sampleEmulated_t2_s0(dx_t13, vec3(0.0), vec3(0.0), v2.x, false, ivec3(0, 0, 0))",
    );
    has(
        &f,
        "if (x < 0 || y < 0 || z < 0) return hlslcc_samplerBorder_s0;",
    );
    has(&f, "vec3 n = vec3(base);");
    // sample_b hands its clamped bias to the gradient LOD; sample_d its gradients.
    has(&f, "clamp(v1.w, -16.0, 15.99), true, ivec3(1, -2, 0))");
    has(
        &f,
        "hlslcc_sampleEmulated_t1_s0(dx_t3, vec3(v2.xy, 0.0), vec3(v2.zw, 0.0), 0.0, true,",
    );
}

#[test]
fn comparison_border_compares_each_tap_then_filters() {
    let s = es("tex_sample_c_2d").source;
    has(
        &s,
        "v = vec4(hlslcc_compareTexel(ref, hlslcc_sampleTap_t0_s0(i + b, size, layer, level).x, m.w)); acc += w * v;",
    );
    // Comparisons filter their 1/0 results with the weights, never reduce.
    has(&s, "int red = 0;");
    has(
        &s,
        "if (hlslcc_textureLevels_t0.y != 0) ref = isnan(ref) ? 0.0 : clamp(ref, 0.0, 1.0);",
    );
    has(&s, "0.0, true, ivec3(0, 0, 0), v1.z);");
    // sample_c_lz: LOD 0, no gradients.
    let lz = es("tex_sample_c_lz_2d").source;
    has(
        &lz,
        "(dx_t0, vec3(0.0), vec3(0.0), 0.0, false, ivec3(0, 0, 0), v1.z);",
    );
    // vk450 fetches a compared texture through its plain view.
    let v = vk("tex_sample_c_2d").source;
    has(
        &v,
        "texelFetch(sampler2D(t0_plain, hlslcc_fetchSampler), ivec2(x, y), level)",
    );
}

#[test]
fn skip_border_emulation_leaves_only_the_hardware_call() {
    for dialect in [Dialect::Es300, Dialect::Vk450] {
        let mut o = Options::new(dialect);
        o.skip_border_emulation = true;
        for name in ["tex_sample", "tex_sample_c_2d", "tex_tex1d"] {
            let t = translate_opts(name, &o);
            let s = &t.source;
            assert!(!s.contains("hlslcc_sampleEmulated"), "{s}");
            assert!(!s.contains("ivec2(4)") && !s.contains(".x == 4)"), "{s}");
            // Mirror once stays, and the bias but in vk450 comparisons
            // (which cannot take it in hardware).
            has(s, "hlslcc_mirrorOnce(dx_t0.x, hlslcc_samplerMode_s0.x)");
            if dialect == Dialect::Es300 || name != "tex_sample_c_2d" {
                has(s, B0);
            }
        }
        let t = translate_opts("tex_sample", &o);
        assert!(
            !t.manifest
                .uniforms
                .iter()
                .any(|u| u.block == "hlslcc_TextureLevels"),
            "no emulated path, no mip counts"
        );
    }
}

#[test]
fn the_vertex_stage_has_no_derivatives() {
    for t in [es("tex_sample_vs"), vk("tex_sample_vs")] {
        let s = &t.source;
        assert!(!s.contains("dFdx") && !s.contains("dFdy"), "{s}");
        // sample: LOD 0 + b; sample_b: its bias + b.
        has(s, &format!(", {B0});"));
        has(s, &format!(", clamp(v1.w, -16.0, 15.99) + {B0});"));
        has(
            s,
            "(dx_t2, vec3(0.0), vec3(0.0), clamp(v1.w, -16.0, 15.99), false, ivec3(0, 0, 0));",
        );
        // sample_c: sample_c_lz's lowering (LOD b; level 0 in vk450).
        if s.starts_with("#version 300 es") {
            has(s, &format!("txVec0, {B1})"));
            has(s, "txVec1, vec2(dx_t10.x, 0.0), vec2(0.0, dx_t10.y))");
        } else {
            has(s, "txVec0, 0.0)");
            has(s, "txVec1, vec2(0.0), vec2(0.0))");
        }
        // Cube sample_l: the bias only.
        has(s, &format!("v1.xyz, 1.0 + {B0});"));
    }
}

#[test]
fn integer_textures_emulate_without_filtering() {
    // fxc rejects filtered sampling of integer formats and naga too, so only
    // es300 can be checked: the nearest mip, the point texel, the border
    // colour's bits.
    let text = "ps_5_0\ndcl_sampler s0, mode_default\n\
        dcl_resource_texture2d (sint,sint,sint,sint) t0\n\
        dcl_input_ps linear v1.xy\ndcl_output o0.xyzw\n\
        sample_indexable(texture2d)(sint,sint,sint,sint) o0.xyzw, v1.xyxx, t0.xyzw, s0\nret\n";
    let t = glsl::translate(&shader_from(text), &Options::new(Dialect::Es300)).expect("es300");
    common::validate::es300(t.stage, &t.source).unwrap_or_else(|e| panic!("{e}\n{}", t.source));
    let s = &t.source;
    has(s, "ivec4 hlslcc_sampleEmulated_t0_s0(vec2 c,");
    has(
        s,
        "return hlslcc_sampleLevel_t0_s0(c, base, layer, nearest, off);",
    );
    has(
        s,
        "return hlslcc_sampleTap_t0_s0(ivec3(floor(p)) + off, size, layer, level);",
    );
    has(s, "return floatBitsToInt(hlslcc_samplerBorder_s0);");
    assert!(!s.contains("int filt"), "{s}");
}

#[test]
fn gather_is_emulated_with_d3d_tap_order() {
    let t = es("tex_gather4_x");
    let s = &t.source;
    assert!(!s.contains("textureGather("));
    assert!(s.contains("vec4 ta = hlslcc_gatherTap_t0_s0(i0, j0 + 1, size, layer);"));
    assert!(s.contains("vec4 tb = hlslcc_gatherTap_t0_s0(i0 + 1, j0 + 1, size, layer);"));
    assert!(s.contains("vec4 tc = hlslcc_gatherTap_t0_s0(i0 + 1, j0, size, layer);"));
    assert!(s.contains("vec4 td = hlslcc_gatherTap_t0_s0(i0, j0, size, layer);"));
    assert!(s.contains("return vec4((comp == 0 ? ta.x : comp == 1 ? ta.y : comp == 2 ? ta.z : ta.w), (comp == 0 ? tb.x"));
    assert!(s.contains("roundEven(x * 256.0) / 256.0"));
    assert!(s.contains("texelFetch(t0, ivec2(x, y), 0)"));
    for (c, n) in ["x", "y", "z", "w"].iter().zip(0..) {
        let s = es(&format!("tex_gather4_{c}")).source;
        assert!(
            s.contains(&format!(
                "hlslcc_textureGather4Emulated_t0_s0(v1.xy, ivec2(0, 0), {n})"
            )),
            "{s}"
        );
    }
    // The sampler-state block, listed with std140 offsets.
    let names = uniform_layout(&t);
    assert_eq!(
        names,
        [
            ("hlslcc_samplerMode_s0", 0, "hlslcc_SamplerState"),
            ("hlslcc_samplerBorder_s0", 16, "hlslcc_SamplerState"),
            ("hlslcc_samplerLod_s0", 32, "hlslcc_SamplerState"),
            ("hlslcc_samplerFilter_s0", 48, "hlslcc_SamplerState"),
        ]
    );
    // vk450 fetches through a declared non-comparison sampler.
    let v = vk("tex_gather4_x");
    assert!(
        v.source
            .contains("texelFetch(sampler2D(t0, s0), ivec2(x, y), 0)")
    );
    assert_eq!(v.manifest.uniforms[0].binding, Some(15));
    // Offsets: immediate, and programmable with their low 6 bits.
    assert!(
        es("tex_gather4_offset")
            .source
            .contains("(v1.xy, ivec2(-1, 2), 0)")
    );
    assert!(
        es("tex_gather4_po")
            .source
            .contains("(((floatBitsToInt(r0.xy)) & ivec2(63)) ^ ivec2(32)) - ivec2(32)")
    );
    let a = es("tex_gather4_array").source;
    assert!(a.contains("hlslcc_textureGather4EmulatedArray_t0_s0(v1.xyz, ivec2(0, 0), 1).wzyx"));
    assert!(a.contains("texelFetch(t0, ivec3(x, y, layer), 0)"));
    let u = es("tex_gather4_uint").source;
    assert!(u.contains("uvec4 hlslcc_textureGather4Emulated_t0_s0("));
    assert!(u.contains("return floatBitsToUint(hlslcc_samplerBorder_s0);"));
}

#[test]
fn gather_compare_and_fault_injection() {
    let t = es("tex_gather4_c");
    assert!(t.source.contains("hlslcc_compareTexel(ref, (comp == 0 ? ta.x : comp == 1 ? ta.y : comp == 2 ? ta.z : ta.w), f)"));
    assert!(t.source.contains("int f = hlslcc_samplerMode_s0.w;"));
    assert!(
        t.manifest
            .uniforms
            .iter()
            .any(|u| u.name == "hlslcc_textureLevels_t0")
    );
    // A comparison-only shader gets a dedicated fetch sampler in vk450.
    let v = vk("tex_gather4_po_c");
    assert!(v.source.contains("uniform sampler hlslcc_fetchSampler;"));
    assert!(
        v.manifest
            .samplers
            .iter()
            .any(|s| s.glsl_name.as_deref() == Some("hlslcc_fetchSampler"))
    );
    let mut o = Options::new(Dialect::Es300);
    o.flip_gather_order = true;
    let f = translate_opts("tex_gather4_x", &o).source;
    assert!(f.contains("return vec4((comp == 0 ? td.x : comp == 1 ? td.y : comp == 2 ? td.z : td.w), (comp == 0 ? tc.x"));
    let cube = es("tex_gather4_cube").source;
    assert!(cube.contains("hlslcc_cubeTexelDir"));
    assert!(cube.contains(
        "textureLod(t0TEX_with_SMPs0, hlslcc_cubeTexelDir(face, ij + ivec2(0, 1), n), 0.0)"
    ));
}

#[test]
fn loads_and_queries() {
    let s = es("tex_ld_offset").source;
    assert!(
        s.contains("texelFetch(t0, dx_t0.xy + ivec2(1, -1), dx_t0.w)"),
        "{s}"
    );
    assert!(s.contains("if (uint(dx_t0.w) < uint(hlslcc_textureLevels_t0.x)) {"));
    assert!(
        s.contains("lessThan(uvec2(dx_t0.xy + ivec2(1, -1)), uvec2(max(textureSize(t0, 0) >> ivec2(dx_t0.w), ivec2(1))))")
    );
    let f = es("tex_resinfo_float");
    assert!(
        f.source
            .contains("uvec4(0u, 0u, 0u, uint(hlslcc_textureLevels_t0.x))")
    );
    assert_eq!(f.manifest.uniforms[0].block, "hlslcc_TextureLevels");
    let r = es("tex_resinfo_rcp").source;
    assert!(r.contains("uintBitsToFloat(0x7f800000u) : 1.0 /"));
    assert!(!r.contains(".z = dx_t1.z == 0u"), "{r}");
    let u = es("tex_resinfo_uint").source;
    assert!(u.contains(".wzyx"));
    let v = vk("tex_resinfo_uint");
    assert_eq!(v.manifest.uniforms[0].binding, Some(14));
    let l = es("tex_lod").source;
    assert!(l.contains("hlslcc_textureQueryLod_t0_s0(v1.xy)"));
    let one_d = es("tex_tex1d").source;
    assert!(one_d.contains("vec2 dx_t0 = vec2(v1.x, 0.5);"));
    assert!(one_d.contains(
        "texture(t0TEX_with_SMPs0, vec2(hlslcc_mirrorOnce(dx_t0.x, hlslcc_samplerMode_s0.x), dx_t0.y), "
    ));
    assert!(one_d.contains("uniform highp sampler2DArray t1;"));
}

#[test]
fn unsupported_resources_are_refused() {
    let cases = [
        (
            "dcl_resource_buffer (float,float,float,float) t0",
            "ld_indexable(buffer)(float,float,float,float) o0.xyzw, l(0,0,0,0), t0.xyzw",
            Reason::TypedBuffer,
        ),
        (
            "dcl_resource_texture2dms(4) (float,float,float,float) t0",
            "ldms_indexable(texture2dms)(float,float,float,float) o0.xyzw, l(0,0,0,0), t0.xyzw, l(0)",
            Reason::Multisample,
        ),
        (
            "dcl_resource_texturecubearray (float,float,float,float) t0\ndcl_sampler s0, mode_default",
            "sample_indexable(texturecubearray)(float,float,float,float) o0.xyzw, l(0,0,1,0), t0.xyzw, s0",
            Reason::CubeArray,
        ),
    ];
    for (decl, body, reason) in cases {
        let text = format!("ps_5_0\n{decl}\ndcl_output o0.xyzw\n{body}\nret\n");
        let s = shader_from(&text);
        let err = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err(body);
        assert_eq!(err.reasons(), vec![reason], "{err}");
        // Both the declaration and the instruction are listed.
        assert!(err.diagnostics.len() >= 2, "{err}");
    }
}

/// Cube-map arrays are es300's refusal only: es300 refuses the declaration
/// and every instruction with its own reason, vk450 lowers each texture
/// instruction to the `samplerCubeArray` forms (a vec4 coordinate with the
/// cube index rounded to nearest even, `textureSize` as (w, h, cubes), the
/// reference of a comparison as `texture`'s separate argument), naga
/// validates the text, and a reviewed snapshot pins it.
#[test]
fn cube_arrays_lower_in_vk450_and_are_refused_in_es300() {
    let s = shader_from(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/vk450/tex_cubearray.asm"),
        )
        .expect("read asm"),
    );
    let err = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err("es300 refuses");
    assert_eq!(err.reasons(), vec![Reason::CubeArray], "{err}");
    assert!(
        err.to_string().contains("OES_texture_cube_map_array"),
        "{err}"
    );
    // Both declarations and every texture instruction.
    assert!(err.diagnostics.len() >= 12, "{err}");

    let t = glsl::translate(&s, &Options::new(Dialect::Vk450)).unwrap_or_else(|e| panic!("{e}"));
    if let Err(msg) = common::validate::vk450(t.stage, &t.source) {
        panic!(
            "tex_cubearray (vk450) does not validate:\n{msg}\n{}",
            t.source
        );
    }
    let src = &t.source;
    has(src, "uniform textureCubeArray t0;");
    has(src, "uniform textureCubeArray t1;");
    // The cube index: w rounded to nearest even, as 2D-array layers.
    has(src, ".xyz, roundEven(");
    has(src, "textureLod(samplerCubeArray(t0, s0), vec4(");
    has(src, "textureGrad(samplerCubeArray(t0, s0), vec4(");
    // The reference is texture()'s third argument (there is no vec5).
    has(src, "texture(samplerCubeArrayShadow(t1, s1), vec4(");
    assert!(!src.contains("vec5"), "{src}");
    // resinfo: (w, h, cubes) from textureSize, the cube count kept per mip.
    has(src, "textureSize(samplerCubeArray(t0, ");
    has(src, "ivec3(max(");
    has(src, "hlslcc_textureGather4EmulatedCubeArray_t0_s0");
    has(src, "hlslcc_textureGather4CmpEmulatedCubeArray_t1_s1");
    let shapes: Vec<_> = t
        .manifest
        .textures
        .iter()
        .map(|m| m.glsl_type.shape)
        .collect();
    assert!(
        shapes.iter().all(|s| *s == glsl::TextureShape::CubeArray),
        "{shapes:?}"
    );
    insta::assert_snapshot!("tex_cubearray_vk450", t.source);
}

/// Outside the pixel shader vk450 has no cube-array comparison (naga's only
/// form takes an implicit LOD), so `sample_c_lz` there is refused with its
/// own reason, while plain sampling with an explicit LOD translates.
#[test]
fn cube_array_comparisons_need_the_pixel_shader() {
    let decl = "dcl_sampler s0, mode_comparison\ndcl_sampler s1, mode_default\n\
                dcl_resource_texturecubearray (float,float,float,float) t0\n\
                dcl_resource_texturecubearray (float,float,float,float) t1\n\
                dcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n";
    let compare = "sample_c_lz_indexable(texturecubearray)(float,float,float,float) o1.x, v0.xyzw, t0.xxxx, s0, l(0.5)";
    let plain = "sample_l_indexable(texturecubearray)(float,float,float,float) o1.xyzw, v0.xyzw, t1.xyzw, s1, l(0.0)";
    let vs = |body: &str| {
        shader_from(&format!(
            "vs_5_0\n{decl}mov o0.xyzw, v0.xyzw\n{body}\nret\n"
        ))
    };
    let err = glsl::translate(&vs(compare), &Options::new(Dialect::Vk450)).expect_err(compare);
    assert_eq!(err.reasons(), vec![Reason::CubeArrayShadowLod], "{err}");
    let t = glsl::translate(&vs(plain), &Options::new(Dialect::Vk450))
        .unwrap_or_else(|e| panic!("{e}"));
    if let Err(msg) = common::validate::vk450(t.stage, &t.source) {
        panic!(
            "vertex cube-array sample_l does not validate:\n{msg}\n{}",
            t.source
        );
    }
    has(&t.source, "textureLod(samplerCubeArray(t1, s1), vec4(");
}

/// An integer cube gather: es300 reads the four texel centres with
/// `textureLod` (valid in GLSL ES 3.00); naga refuses `textureLod` on an
/// integer texture, so vk450 refuses the gather by name instead of
/// emitting text naga rejects.
#[test]
fn integer_cube_gathers_are_refused_in_vk450_only() {
    let s = shader_from(
        "ps_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texturecube (sint,sint,sint,sint) t0\n\
         dcl_input_ps linear v1.xyz\ndcl_output o0.xyzw\n\
         gather4_indexable(texturecube)(sint,sint,sint,sint) o0.xyzw, v1.xyzx, t0.xyzw, s0.x\nret\n",
    );
    let err = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect_err("vk450 refuses");
    assert_eq!(err.reasons(), vec![Reason::IntegerCubeGather], "{err}");
    let t = glsl::translate(&s, &Options::new(Dialect::Es300)).unwrap_or_else(|e| panic!("{e}"));
    has(&t.source, "textureLod(");
    if let Err(msg) = common::validate::es300(t.stage, &t.source) {
        panic!(
            "es300 integer cube gather does not validate:\n{msg}\n{}",
            t.source
        );
    }
}

/// The manifest is a typed contract: a runtime reads the stage, texture
/// shapes and number types, sampler modes, which objects are compared and
/// what each block member holds as values, and the JSON spells each one
/// as the word or GLSL type it stands for (docs/glsl-textures.md).
#[test]
fn manifest_entries_are_typed_and_serialise_as_their_words() {
    use dxbc_dbg::dxbc::ir::ProgramType;
    use glsl::{Dim, Opaque, OpaqueType, SamplerKind, TextureShape, Ty, UniformRole, ValueType};

    // t0 (2D, float) sampled through s0 and compared through s1.
    let v = vk("tex_sample_mixed");
    let m = &v.manifest;
    assert_eq!((m.stage, m.dialect), (ProgramType::Pixel, Dialect::Vk450));
    let texture_2d = OpaqueType {
        object: Opaque::Texture,
        ty: Ty::Float,
        shape: TextureShape::D2,
        shadow: false,
    };
    let t: Vec<_> = m
        .textures
        .iter()
        .map(|t| {
            (
                t.glsl_name.as_str(),
                t.dimension,
                t.return_type.name(),
                t.glsl_type,
                t.binding,
                t.compared,
            )
        })
        .collect();
    // The compared object is the depth-typed one; its plain reads go
    // through a second view that is never compared.
    assert_eq!(
        t,
        [
            ("t0", Dim::Tex2D, "float", texture_2d, Some(16), true),
            ("t0_plain", Dim::Tex2D, "float", texture_2d, Some(96), false),
        ]
    );
    let s: Vec<_> = m
        .samplers
        .iter()
        .map(|s| (s.slot, s.mode, s.binding))
        .collect();
    assert_eq!(
        s,
        [
            (0, SamplerKind::Default, Some(160)),
            (1, SamplerKind::Comparison, Some(161)),
        ]
    );
    let shadow = m
        .combined_samplers
        .iter()
        .find(|c| c.shadow)
        .expect("a shadow pair");
    assert_eq!((shadow.texture, shadow.sampler), (0, 1));
    assert_eq!(shadow.glsl_type.to_string(), "sampler2DShadow");
    // Every sampler a sample reads gets its four state members, in order.
    let lod = m
        .uniforms
        .iter()
        .find(|u| u.name == "hlslcc_samplerLod_s1")
        .expect("s1's lod member");
    assert_eq!(lod.role, UniformRole::SamplerLod { sampler: 1 });
    assert_eq!(lod.glsl_type, ValueType::vec(Ty::Float, 4));
    assert_eq!(
        (lod.block.as_str(), lod.binding),
        ("hlslcc_SamplerState", Some(15))
    );

    let json = m.to_json();
    for words in [
        "\"stage\": \"pixel\"",
        "\"dialect\": \"vk450\"",
        "\"dimension\": \"texture2d\"",
        "\"return_type\": \"float\"",
        "\"glsl_type\": \"texture2D\"",
        "\"mode\": \"default\"",
        "\"mode\": \"comparison\"",
        "\"glsl_type\": \"sampler2DShadow\"",
        "\"glsl_type\": \"ivec4\"",
    ] {
        assert!(json.contains(words), "{words} in\n{json}");
    }
    // Rust-only fields stay out of the JSON.
    assert!(
        !json.contains("compared") && !json.contains("role"),
        "{json}"
    );

    // es300 compares through its own `hlslcc_zcmp` samplers: no bare
    // texture is compared.
    let e = es("tex_sample_mixed");
    assert_eq!(e.manifest.dialect, Dialect::Es300);
    assert!(e.manifest.textures.iter().all(|t| !t.compared));
    assert_eq!(
        e.manifest.textures[0].glsl_type.to_string(),
        "sampler2D",
        "es300's bare t0"
    );

    // A comparison-only shader that fetches gets vk450's fetch sampler.
    let g = vk("tex_gather4_po_c");
    let fetch = g
        .manifest
        .samplers
        .iter()
        .find(|s| s.mode == SamplerKind::Fetch)
        .expect("the fetch sampler");
    assert_eq!(fetch.binding, Some(176));
    assert!(g.manifest.to_json().contains(
        "\"mode\": \"fetch (any non-comparison sampler; texelFetch ignores its state)\""
    ));

    // A 3D texture's mip count: its levels member names it.
    let r = vk("tex_resinfo_uint");
    let t0 = &r.manifest.textures[0];
    assert_eq!(
        (t0.dimension, t0.glsl_type.shape),
        (Dim::Tex3D, TextureShape::D3)
    );
    let levels = r
        .manifest
        .uniforms
        .iter()
        .find(|u| u.name == "hlslcc_textureLevels_t0")
        .expect("t0's levels");
    assert_eq!(levels.role, UniformRole::TextureLevels { texture: 0 });
    assert_eq!(levels.binding, Some(14));
}

/// Interpolation is an enum whose words are GLSL 4.50's, whichever dialect.
#[test]
fn manifest_interpolation_is_typed() {
    use glsl::InterpolationQualifier as Q;
    for t in [es("interpolation_modes"), vk("interpolation_modes")] {
        let modes: Vec<_> = t
            .manifest
            .inputs
            .iter()
            .map(|i| (i.register, i.interpolation, i.glsl_type.to_string()))
            .collect();
        // From the dcl_input_ps modes: linear, linear centroid, linear
        // noperspective, linear noperspective centroid, constant.
        assert_eq!(
            modes,
            [
                (1, None, "vec4".to_string()),
                (2, Some(Q::Centroid), "vec2".to_string()),
                (3, Some(Q::NoPerspective), "vec4".to_string()),
                (4, Some(Q::NoPerspectiveCentroid), "float".to_string()),
                (5, Some(Q::Flat), "float".to_string()),
            ],
            "{}",
            t.dialect.name()
        );
        assert!(
            t.manifest
                .to_json()
                .contains("\"interpolation\": \"noperspective centroid\"")
        );
        assert!(t.manifest.inputs.iter().all(|i| !i.builtin));
    }
    // SV_Position read by a pixel shader is the pipeline's, not a varying
    // another stage writes.
    let p = es("ps_position_fragcoord");
    let i: Vec<_> = p
        .manifest
        .inputs
        .iter()
        .map(|i| (i.glsl_name.as_str(), i.builtin))
        .collect();
    assert_eq!(i, [("hlslcc_FragCoord", true)]);
}

/// vk450 lowers the multisampled reads (naga validates the result); es300
/// refuses each by name; `vCoverage` at pixel frequency needs
/// `gl_SampleMaskIn`, which naga lacks, and is refused with that reason.
#[test]
fn multisampled_reads_lower_in_vk450_only() {
    let text = "ps_5_0\n\
        dcl_resource_texture2dms(4) (float,float,float,float) t0\n\
        dcl_resource_texture2dmsarray(4) (uint,uint,uint,uint) t1\n\
        dcl_input_ps_sgv v1.x, sampleIndex\n\
        dcl_input vCoverage\n\
        dcl_output o0.xyzw\n\
        dcl_output o1.xyzw\n\
        dcl_output oMask\n\
        dcl_temps 2\n\
        ldms_indexable(texture2dms)(float,float,float,float) o0.xyzw, l(1,0,0,0), t0.xyzw, v1.x\n\
        ldms_indexable(texture2dmsarray)(uint,uint,uint,uint) r1.xyzw, l(0,0,2,0), t1.xyzw, l(3)\n\
        sampleinfo_uint r0.x, t0.x\n\
        samplepos r0.yz, t0.xxyx, v1.x\n\
        sampleinfo r0.w, rasterizer.x\n\
        mov o1.xyzw, r0.xyzw\n\
        mov oMask, vCoverage.x\n\
        ret\n";
    let s = shader_from(text);
    let t = glsl::translate(&s, &Options::new(Dialect::Vk450)).unwrap_or_else(|e| panic!("{e}"));
    if let Err(msg) = common::validate::vk450(t.stage, &t.source) {
        panic!("does not validate:\n{msg}\n{}", t.source);
    }
    let src = &t.source;
    for needle in [
        "uniform texture2DMS t0;",
        "uniform utexture2DMSArray t1;",
        "texelFetch(sampler2DMS(t0, ",
        "texelFetch(usampler2DMSArray(t1, ",
        // The sample index is checked against the count, the address
        // against the size.
        "< uint(hlslcc_textureLevels_t0.w)",
        "uvec4(uint(hlslcc_textureLevels_t0.w), 0u, 0u, 0u)",
        "ivec4 hlslcc_rasterizer;",
        "float(hlslcc_rasterizer.x)",
        "vec2(-0.125, -0.375), vec2(0.375, -0.125), vec2(-0.375, 0.125), vec2(0.125, 0.375)",
        "uintBitsToFloat(uint(gl_SampleID))",
        "(1u << uint(gl_SampleID))",
        "oMask = 0xffffffffu;",
        "if (((oMask >> uint(gl_SampleID)) & 1u) == 0u) { discard; }",
    ] {
        has(src, needle);
    }
    assert!(
        t.manifest.uniforms.iter().any(
            |u| u.role == glsl::UniformRole::RasterizerSamples && u.name == "hlslcc_rasterizer"
        ),
        "{:?}",
        t.manifest.uniforms
    );
    // es300: every multisampled read and both system values, by name.
    let err = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err("es300 refuses");
    let reasons = err.reasons();
    assert!(reasons.contains(&Reason::Multisample), "{err}");
    assert!(reasons.contains(&Reason::SystemValue), "{err}");
    assert!(!reasons.contains(&Reason::CoverageInput), "{err}");
    // Pixel frequency: vCoverage is refused in vk450 for naga's lack.
    let pixel_rate = shader_from(
        "ps_5_0\ndcl_input vCoverage\ndcl_output o0.xyzw\nutof o0.xyzw, vCoverage.xxxx\nret\n",
    );
    let err = glsl::translate(&pixel_rate, &Options::new(Dialect::Vk450)).expect_err("refused");
    assert_eq!(err.reasons(), vec![Reason::CoverageInput], "{err}");
}

/// The tiled-resource `_s` forms lower as their plain forms plus the
/// fully-mapped status `0u`, and `check_access_fully_mapped` as the
/// comparison with it; a `_cl` clamp other than the literal 0 runs the
/// emulated path alone with the clamp, and on a cube (no emulated path) is
/// refused by name in both dialects, naming the instruction as written; an
/// `ldms_s` in es300 is refused with its plain form's reason.
#[test]
fn feedback_forms_write_the_fully_mapped_status() {
    for t in [es("tex_feedback"), vk("tex_feedback")] {
        let code: Vec<&str> = t
            .source
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        let code = code.join("\n");
        // Four statuses written (the gather's is null), two checks read.
        assert!(code.matches("floatBitsToUint").count() >= 2, "{code}");
        assert_eq!(code.matches("uintBitsToFloat(0u)").count(), 4, "{code}");
        has(&code, "== 0u) ? 0xffffffffu : 0u");
        has(&code, "equal(");
        has(&t.source, "no sparse residency");
    }
    let clamp = |dim: &str| {
        format!(
            "ps_5_0
dcl_sampler s0, mode_default
dcl_resource_{dim} (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
sample_cl_s o0.xyzw, r0.x, v1.xyzx, t0.xyzw, s0, v1.w
ret
"
        )
    };
    let s = shader_from(&clamp("texture2d"));
    for dialect in [Dialect::Es300, Dialect::Vk450] {
        let t = glsl::translate(&s, &Options::new(dialect)).unwrap_or_else(|e| panic!("{e}"));
        let valid = match dialect {
            Dialect::Es300 => common::validate::es300(t.stage, &t.source),
            Dialect::Vk450 => common::validate::vk450(t.stage, &t.source),
        };
        valid.unwrap_or_else(|e| panic!("{e}\n{}", t.source));
        has(&t.source, "if (!isnan(mn)) l = max(l, mn);");
        has(&t.source, "hlslcc_sampleEmulatedCl_t0_s0(");
        // No hardware call: the emulated path alone.
        assert!(!t.source.contains("texture("), "{}", t.source);
    }
    let s = shader_from(&clamp("texturecube"));
    for dialect in [Dialect::Es300, Dialect::Vk450] {
        let err = glsl::translate(&s, &Options::new(dialect)).expect_err("no emulated cube");
        assert_eq!(err.reasons(), vec![Reason::LodClamp], "{err}");
        assert!(err.to_string().contains("sample_cl_s"), "{err}");
    }
    let ldms = "ps_5_0
dcl_resource_texture2dms(4) (float,float,float,float) t0
dcl_output o0.xyzw
dcl_temps 1
ldms_s o0.xyzw, r0.x, l(0, 0, 0, 0), t0.xyzw, l(1)
ret
";
    let s = shader_from(ldms);
    let err = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err("no sampler2DMS");
    assert_eq!(err.reasons(), vec![Reason::Multisample], "{err}");
    assert!(err.to_string().contains("ldms_s"), "{err}");
    glsl::translate(&s, &Options::new(Dialect::Vk450)).unwrap_or_else(|e| panic!("{e}"));
}
