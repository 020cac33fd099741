//! The texture lowering: every `shaders/glsl/tex_*.asm` translates in both
//! dialects, passes glslangValidator (es300) and naga (vk450), and shows
//! the specific facts its rule promises.

mod common;

use std::path::Path;

use dxbc_dbg::dxbc::asm::assemble;
use dxbc_dbg::dxbc::shader::{ParseOptions, Shader};
use dxbc_dbg::glsl::{self, Dialect, Options, Reason, Translation};

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
        "texture(sampler2D(t0_plain, s0), v1.xy)",
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

#[test]
fn sample_forms() {
    assert!(
        es("tex_sample")
            .source
            .contains("r0.xyz = texture(t0TEX_with_SMPs0, v1.xy).zyx;")
    );
    assert!(
        es("tex_sample_offset")
            .source
            .contains("textureOffset(t0TEX_with_SMPs0, v1.xy, ivec2(-2, 3))")
    );
    assert!(
        es("tex_sample_offset_3d")
            .source
            .contains("ivec3(1, -1, 2)")
    );
    let l = es("tex_sample_l").source;
    assert!(l.contains("textureLod(t0TEX_with_SMPs0, v1.xy, v1.z)"));
    assert!(l.contains("textureLodOffset(t0TEX_with_SMPs0, v1.xy, 2.0, ivec2(1, 1))"));
    assert!(
        es("tex_sample_b")
            .source
            .contains("texture(t0TEX_with_SMPs0, v1.xy, v1.w)")
    );
    assert!(
        es("tex_sample_d")
            .source
            .contains("textureGrad(t0TEX_with_SMPs0, v1.xy, r0.xy, r1.xy)")
    );
    assert!(es("tex_sample_array").source.contains("roundEven("));
    assert!(vk("tex_sample_array").source.contains("roundEven("));
}

#[test]
fn comparison_sampling_uses_txvec_temps_and_the_lod_workaround() {
    let s = es("tex_sample_c_2d").source;
    assert!(s.contains("vec3 txVec0 = vec3(v1.xy, v1.z);"), "{s}");
    assert!(s.contains("texture(hlslcc_zcmpt0TEX_with_SMPs0, txVec0)"));
    let s = es("tex_sample_c_lz_2d").source;
    assert!(s.contains("textureLod(hlslcc_zcmpt0TEX_with_SMPs0, txVec0, 0.0)"));
    assert!(s.contains("textureLodOffset(hlslcc_zcmpt0TEX_with_SMPs0, txVec1, 0.0, ivec2(1, 0))"));
    for t in [es("tex_sample_c_array"), vk("tex_sample_c_array")] {
        assert!(t.source.contains("vec4 txVec1 = vec4("), "{}", t.source);
        assert!(
            t.source.contains("txVec1, vec2(0.0), vec2(0.0))"),
            "{}",
            t.source
        );
    }
    let cube = es("tex_sample_c_cube").source;
    assert!(
        cube.contains("textureGrad(hlslcc_zcmpt0TEX_with_SMPs0, txVec1, vec3(0.0), vec3(0.0))")
    );
    let cube = vk("tex_sample_c_cube").source;
    assert!(cube.contains("textureLod(samplerCubeShadow(t0, s0), txVec1, 0.0)"));
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
    let names: Vec<(&str, u32, &str)> = t
        .manifest
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.offset, u.block.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("hlslcc_samplerMode_s0", 0, "hlslcc_SamplerState"),
            ("hlslcc_samplerBorder_s0", 16, "hlslcc_SamplerState"),
            ("hlslcc_samplerLod_s0", 32, "hlslcc_SamplerState"),
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
            .contains("(ivec2(uvec2(floatBitsToInt(r0.xy)) << 26u) >> 26)")
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
    assert!(one_d.contains("texture(t0TEX_with_SMPs0, vec2(v1.x, 0.5))"));
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
