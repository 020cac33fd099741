//! One hand-written shader per GLSL lowering rule (`shaders/glsl/*.asm`):
//! each is assembled, translated to es300 and vk450, both texts are checked
//! by their validator (glslangValidator, naga), every instruction must have
//! a source-map range, and both texts are pinned by reviewed insta
//! snapshots named after the file. New files in the folder are picked up
//! without touching this test. Rules that are easy to state as a substring
//! are also asserted directly below, so a snapshot accepted by mistake
//! cannot hide them.

mod common;

use std::path::{Path, PathBuf};

use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::glsl::{self, Dialect, Options, Translation};

fn glsl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/glsl")
}

fn sources() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(glsl_dir())
        .expect("shaders/glsl/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    paths.sort();
    paths
}

fn parse(path: &Path) -> Shader {
    let text = std::fs::read_to_string(path).expect("read shader source");
    let bytes = asm::assemble(&text)
        .unwrap_or_else(|e| panic!("{}", e.in_file(&path.display().to_string())));
    Shader::parse(&bytes, ParseOptions::default()).expect("assembled shader reads back")
}

fn translate(shader: &Shader, dialect: Dialect, name: &str) -> Translation {
    glsl::translate(shader, &Options::new(dialect))
        .unwrap_or_else(|e| panic!("{name} ({}): {e}", dialect.name()))
}

/// The es300 text of `shaders/glsl/{name}.asm`.
fn es300(name: &str) -> String {
    let shader = parse(&glsl_dir().join(format!("{name}.asm")));
    translate(&shader, Dialect::Es300, name).source
}

fn vk450(name: &str) -> String {
    let shader = parse(&glsl_dir().join(format!("{name}.asm")));
    translate(&shader, Dialect::Vk450, name).source
}

/// Lines that are code, not the emitter's comments.
fn code_lines(src: &str) -> impl Iterator<Item = &str> {
    src.lines().filter(|l| !l.trim_start().starts_with("//"))
}

#[track_caller]
fn has(src: &str, needle: &str) {
    assert!(src.contains(needle), "missing `{needle}` in:\n{src}");
}

#[test]
fn every_rule_shader_translates_validates_and_matches_its_snapshot() {
    let paths = sources();
    assert!(
        paths.len() >= 28,
        "expected the rule shaders in shaders/glsl"
    );
    for path in &paths {
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let shader = parse(path);
        let count = shader.program.instructions.len();
        for dialect in [Dialect::Es300, Dialect::Vk450] {
            let t = translate(&shader, dialect, stem);
            let valid = match dialect {
                Dialect::Es300 => common::validate::es300(t.stage, &t.source),
                Dialect::Vk450 => common::validate::vk450(t.stage, &t.source),
            };
            if let Err(e) = valid {
                panic!(
                    "{stem} ({}) does not validate:\n{e}\n{}",
                    dialect.name(),
                    t.source
                );
            }
            for i in 0..count {
                assert!(
                    t.map.lines(i).is_some(),
                    "{stem} ({}): instruction {i} has no source-map range",
                    dialect.name()
                );
            }
            match dialect {
                Dialect::Es300 => {
                    assert!(t.source.starts_with("#version 300 es\n"), "{stem}");
                    insta::assert_snapshot!(stem.to_string(), t.source);
                }
                Dialect::Vk450 => {
                    insta::assert_snapshot!(format!("{stem}_vk450"), t.source);
                }
            }
        }
    }
}

#[test]
fn float_arith_saturates_float_results() {
    let s = es300("float_arith_sat");
    has(&s, "o0.xy = clamp(r0.xy + r1.xz, vec2(0.0), vec2(1.0));");
    has(&s, "o0.z = clamp(r0.z * r0.w + 0.5, 0.0, 1.0);");
    has(&s, "r1.z = 1.0 / v1.y;");
}

#[test]
fn source_modifiers_apply_in_the_read_type() {
    let s = es300("source_modifiers");
    has(&s, "r0.x = -(v1.x) + abs(v1.y);");
    has(&s, "r0.y = -abs(v1.z) * v1.w;");
    has(&s, "-(floatBitsToInt(v2.x)) + floatBitsToInt(v2.y)");
    has(&s, "abs(floatBitsToInt(v2.x)) + -abs(floatBitsToInt(v2.y))");
}

#[test]
fn comparisons_give_all_ones_masks() {
    let f = es300("compare_float");
    has(
        &f,
        "r0.x = uintBitsToFloat((v1.x == v1.y) ? 0xffffffffu : 0u);",
    );
    has(
        &f,
        "r0.zw = uintBitsToFloat(uvec2(lessThan(v1.xy, v1.zw)) * 0xffffffffu);",
    );
    let i = es300("compare_int");
    has(&i, "lessThan(floatBitsToInt(v0.xy), ivec2(-1, 7))");
    let u = es300("compare_uint");
    has(
        &u,
        "(floatBitsToUint(v0.x) < 4294967295u) ? 0xffffffffu : 0u",
    );
    has(
        &u,
        "greaterThanEqual(floatBitsToUint(v0), uvec4(1u, 2u, 3u, 2147483648u))",
    );
}

#[test]
fn movc_and_swapc_select_on_bits() {
    let m = es300("movc_select");
    has(&m, "r1.x = (floatBitsToUint(r0.x) != 0u) ? v1.x : v2.x;");
    has(&m, "notEqual(floatBitsToUint(r0.yzw), uvec3(0u))");
    has(&m, "uintBitsToFloat(0x7fc00000u)");
    let s = es300("swapc_pair");
    // Sources are copied before either destination is written.
    has(&s, "vec4 dx_t1 = r1.xyxx;");
    has(
        &s,
        "r1.xy = mix(dx_t1.xy, dx_t2.xy, notEqual(dx_t0.xy, uvec2(0u)));",
    );
    has(
        &s,
        "r2.xy = mix(dx_t2.xy, dx_t1.xy, notEqual(dx_t0.xy, uvec2(0u)));",
    );
}

#[test]
fn sincos_null_destinations_write_nothing() {
    let s = es300("sincos_dests");
    has(&s, "r0.xy = sin(dx_t0.xy);");
    has(&s, "r1.xy = cos(dx_t0.xy);");
    has(&s, "r0.z = cos(dx_t1.z);");
    has(&s, "r0.w = sin(dx_t2.w);");
    assert!(!s.contains("sin(dx_t1") && !s.contains("cos(dx_t2"), "{s}");
}

#[test]
fn dot_products_reduce_their_width_and_replicate() {
    let s = es300("dot_products");
    has(&s, "r0.x = dot(v1.xy, v2.xy);");
    has(&s, "r0.yz = vec2(dot(v1.xyz, v2.zyx));");
    has(&s, "o0.xyw = vec3(dot(r0, vec4(1.0)));");
}

#[test]
fn integer_arithmetic_is_in_int() {
    let s = es300("int_arith");
    has(&s, "floatBitsToInt(v0.xy) + ivec2(-1, 2147483647)");
    has(&s, "min(floatBitsToInt(v0.x), -5)");
    has(&s, "r1.zw = intBitsToFloat(-floatBitsToInt(v0.zw));");
}

#[test]
fn udiv_by_zero_goes_through_helpers() {
    let s = es300("udiv_by_zero");
    has(&s, "return b == 0u ? 0xffffffffu : a / b;");
    has(&s, "return b == 0u ? 0xffffffffu : a % b;");
    has(&s, "r0.z = uintBitsToFloat(dx_udiv(dx_t2.z, dx_t3.z));");
    has(&s, "r1.z = uintBitsToFloat(dx_urem(dx_t4.z, dx_t5.z));");
}

#[test]
fn wide_multiplies_and_carries() {
    let m = es300("mul_wide");
    has(&m, "r0.x = uintBitsToFloat(dx_umul_hi(dx_t0.x, dx_t1.x));");
    has(&m, "r0.y = uintBitsToFloat(dx_t0.y * dx_t1.y);");
    has(&m, "r0.z = intBitsToFloat(dx_imul_hi(dx_t2.z, dx_t3.z));");
    let c = es300("carry_borrow");
    has(&c, "return (a + b) < a ? 1u : 0u;");
    has(&c, "return a < b ? 1u : 0u;");
}

#[test]
fn shift_counts_are_masked_to_five_bits() {
    let s = es300("shift_counts");
    let shifts: Vec<&str> = code_lines(&s)
        .filter(|l| l.trim_start().starts_with("r") && (l.contains("<<") || l.contains(">>")))
        .collect();
    assert_eq!(shifts.len(), 5, "{s}");
    for l in shifts {
        assert!(l.contains("& 31u") || l.contains("& uvec4(31u)"), "{l}");
    }
}

#[test]
fn bit_helpers_follow_d3d_conventions() {
    let s = es300("bit_ops");
    // firstbit_hi counts from the most significant bit, not findMSB's way.
    has(&s, "uint dx_firstbit_hi(uint a) {");
    has(&s, "if ((a & 0x80000000u) == 0u) { n += 1u; }");
    has(&s, "return dx_firstbit_hi(a < 0 ? ~u : u);");
    has(&s, "return dx_countbits((a & (~a + 1u)) - 1u);");
    has(&s, "r0.w = uintBitsToFloat(~floatBitsToUint(v0.w));");
    let b = es300("bitfield_extract_insert");
    has(&b, "if (w == 0u) return 0u;");
    has(
        &b,
        "uint m = (w == 0u) ? 0u : ((0xffffffffu >> (32u - w)) << o);",
    );
    has(&b, "dx_ibfe(5u, 27u, floatBitsToInt(v0.y))");
}

#[test]
fn conversions_saturate_and_halves_use_low_bits() {
    let c = es300("float_int_conversions");
    has(&c, "if (isnan(a)) return 0;");
    has(&c, "if (isnan(a) || a <= 0.0) return 0u;");
    has(&c, "r1.x = float((-2147483647 - 1));");
    has(&c, "r1.y = float(4294967295u);");
    let h = es300("half_conversions");
    // Integer arithmetic, rounding to nearest even as D3D does (packHalf2x16
    // leaves rounding to the implementation).
    has(
        &h,
        "if (r > 0x1000u || (r == 0x1000u && (h & 1u) != 0u)) h += 1u;",
    );
    has(
        &h,
        "return uintBitsToFloat(s | ((e + 112u) << 23u) | (m << 13u));",
    );
}

#[test]
fn derivatives_coarse_and_fine() {
    let s = es300("derivatives");
    has(&s, "r0.zw = dFdx(v1.zw);");
    has(&s, "r1.x = -hlslcc_YFlip.x * dFdy(v1.x);");
    has(&s, "r1.y = dx_dFdxFine(v1.y);");
    has(&s, "r1.zw = -hlslcc_YFlip.x * dx_dFdyFine(v1.zw);");
}

/// The uniform declarations of a text (`uniform highp vec2 hlslcc_YFlip;`).
fn declares_y_flip(src: &str) -> bool {
    code_lines(src).any(|l| l == "uniform highp vec2 hlslcc_YFlip;")
}

#[test]
fn vertex_position_gets_d3d_window_conventions_in_es300() {
    let s = es300("vs_position_d3d_conventions");
    assert!(declares_y_flip(&s), "{s}");
    // D3D's clip z runs over [0, w], GL's over [-w, w]: z' = 2z - w maps
    // 0 to -w and w to w, so with depthRange(0, 1) the window depth is
    // z / w, D3D's. y is negated when drawing into a texture (x = -1), so
    // GL's window y, and so the texture's rows, run top-down as D3D's.
    has(
        &s,
        "    gl_Position = o1;\n    gl_Position.y *= hlslcc_YFlip.x;\n    \
         gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;\n    vs_TEXCOORD0 = o0.xy;\n",
    );
    let v = vk450("vs_position_d3d_conventions");
    assert!(!v.contains("hlslcc_YFlip"), "vk450 is unchanged:\n{v}");
    has(&v, "    gl_Position = o1;\n    vs_TEXCOORD0 = o0.xy;\n");
    // Every es300 vertex shader declares it, and lists it for the runtime.
    let shader = parse(&glsl_dir().join("vs_position_d3d_conventions.asm"));
    let t = translate(&shader, Dialect::Es300, "vs_position_d3d_conventions");
    let u: Vec<_> = t
        .manifest
        .uniforms
        .iter()
        .map(|u| (&u.name, u.glsl_type.to_string(), &u.block))
        .collect();
    assert_eq!(
        u,
        [(
            &"hlslcc_YFlip".to_string(),
            "vec2".to_string(),
            &String::new()
        )]
    );
    assert!(t.manifest.to_json().contains("\"name\": \"hlslcc_YFlip\""));
}

#[test]
fn pixel_y_follows_d3d_in_es300() {
    let s = es300("ps_position_deriv_rty");
    assert!(declares_y_flip(&s), "{s}");
    // (-1, 0): y = gl_FragCoord.y, GL's window rows already D3D's; (1, H):
    // y = H - gl_FragCoord.y, rows counted from the top. Derivatives along
    // y change sign the same way: -x * dFdy.
    has(
        &s,
        "vec4 hlslcc_FragCoord = vec4(gl_FragCoord.x, hlslcc_YFlip.y - hlslcc_YFlip.x * gl_FragCoord.y, gl_FragCoord.z, 1.0 / gl_FragCoord.w);",
    );
    has(&s, "v0.xy = hlslcc_FragCoord.xy;");
    has(&s, "r0.x = -hlslcc_YFlip.x * dFdy(v1.x);");
    has(&s, "r0.y = -hlslcc_YFlip.x * dFdy(v1.y);");
    has(&s, "r0.zw = -hlslcc_YFlip.x * dx_dFdyFine(v1.zw);");
    let v = vk450("ps_position_deriv_rty");
    assert!(!v.contains("hlslcc_YFlip"), "vk450 is unchanged:\n{v}");
    has(
        &v,
        "vec4 hlslcc_FragCoord = vec4(gl_FragCoord.xyz, 1.0 / gl_FragCoord.w);",
    );
    has(&v, "r0.x = dFdy(v1.x);");
    has(&v, "r0.zw = dx_dFdyFine(v1.zw);");
    // A pixel shader with neither reads no uniform.
    assert!(!es300("float_arith_sat").contains("hlslcc_YFlip"));
    assert!(!es300("interpolation_modes").contains("hlslcc_YFlip"));
}

/// The linked pair's texts: the vertex shader linked or alone, and the
/// pixel shader, in `dialect`.
fn linked_pair(dialect: Dialect, linked: bool) -> (Translation, Translation) {
    let ps = parse(&glsl_dir().join("linked_pair_ps.asm"));
    let vs = parse(&glsl_dir().join("linked_pair_vs.asm"));
    let mut options = Options::new(dialect);
    if linked {
        options.link = Some(glsl::Link::from_pixel_shader(&ps));
    }
    let v = glsl::translate(&vs, &options).expect("vertex shader translates");
    (v, translate(&ps, dialect, "linked_pair_ps"))
}

/// The interpolation the manifest gives each varying input (or output),
/// by GLSL name.
fn interpolations(m: &glsl::Manifest, inputs: bool) -> Vec<(String, Option<String>)> {
    let entries = if inputs { &m.inputs } else { &m.outputs };
    let mut v: Vec<_> = entries
        .iter()
        .filter(|e| e.glsl_name.starts_with("vs_"))
        .map(|e| (e.glsl_name.clone(), e.interpolation.map(|q| q.to_string())))
        .collect();
    v.sort();
    v
}

#[test]
fn linked_vertex_outputs_take_the_pixel_inputs_qualifiers() {
    let (v, p) = linked_pair(Dialect::Es300, true);
    let (v, p) = (&v.source, &p.source);
    // Each pair from the dcl_input_ps modes: constant is flat, centroid
    // stays centroid, noperspective has no ES 3.00 qualifier and is
    // emulated by scaling with clip w on one side and gl_FragCoord.w on the
    // other (perspective interpolation of v * w, times the interpolated
    // 1 / w, is the screen-linear v).
    for (vs_decl, ps_decl) in [
        (
            "\nflat out vec4 vs_TEXCOORD1;",
            "\nflat in vec4 vs_TEXCOORD1;",
        ),
        (
            "\ncentroid out vec4 vs_TEXCOORD2;",
            "\ncentroid in vec4 vs_TEXCOORD2;",
        ),
        ("\nout vec2 vs_TEXCOORD3;", "\nin vec2 vs_TEXCOORD3;"),
        (
            "\ncentroid out float vs_TEXCOORD4;",
            "\ncentroid in float vs_TEXCOORD4;",
        ),
        ("\nout vec4 vs_COLOR0;", "\nin vec4 vs_COLOR0;"),
    ] {
        has(v, vs_decl);
        has(p, ps_decl);
    }
    has(v, "\nout vec2 vs_TEXCOORD0;");
    has(v, "vs_TEXCOORD3 = o4.xy * gl_Position.w;");
    has(v, "vs_TEXCOORD4 = o5.x * gl_Position.w;");
    has(v, "vs_TEXCOORD2 = o3.xyzw;");
    has(p, "v3.xy = vs_TEXCOORD3 * gl_FragCoord.w;");
    has(p, "v4.x = vs_TEXCOORD4 * gl_FragCoord.w;");
    // gl_Position (and so the w the copies read) is written first.
    let at = |s: &str| v.find(s).expect(s);
    assert!(at("gl_Position = o0;") < at("vs_TEXCOORD3 = "), "{v}");
    common::validate::es300(dxbc_dbg::dxbc::ir::ProgramType::Vertex, v).expect("vertex validates");
    common::validate::es300_link(v, p).expect("the linked pair links");
}

#[test]
fn linked_pair_manifests_agree() {
    for dialect in [Dialect::Es300, Dialect::Vk450] {
        let (v, p) = linked_pair(dialect, true);
        let expected = vec![
            ("vs_COLOR0".to_string(), None),
            ("vs_TEXCOORD1".to_string(), Some("flat".to_string())),
            ("vs_TEXCOORD2".to_string(), Some("centroid".to_string())),
            (
                "vs_TEXCOORD3".to_string(),
                Some("noperspective".to_string()),
            ),
            (
                "vs_TEXCOORD4".to_string(),
                Some("noperspective centroid".to_string()),
            ),
        ];
        assert_eq!(interpolations(&p.manifest, true), expected);
        let mut outputs = interpolations(&v.manifest, false);
        outputs.retain(|(n, _)| n != "vs_TEXCOORD0");
        assert_eq!(outputs, expected, "{}", dialect.name());
    }
}

#[test]
fn linked_vk450_uses_native_noperspective_and_the_pixel_locations() {
    let (v, p) = linked_pair(Dialect::Vk450, true);
    let (vs, ps) = (&v.source, &p.source);
    // Locations: the pixel shader's non-system-value inputs in signature
    // order (TEXCOORD1..4, COLOR0 = 0..4); TEXCOORD0, which it does not
    // read, the next one.
    for (vs_decl, ps_decl) in [
        (
            "layout(location = 0) flat out vec4 vs_TEXCOORD1;",
            "layout(location = 0) flat in vec4 vs_TEXCOORD1;",
        ),
        (
            "layout(location = 1) centroid out vec4 vs_TEXCOORD2;",
            "layout(location = 1) centroid in vec4 vs_TEXCOORD2;",
        ),
        (
            "layout(location = 2) noperspective out vec2 vs_TEXCOORD3;",
            "layout(location = 2) noperspective in vec2 vs_TEXCOORD3;",
        ),
        (
            "layout(location = 3) noperspective centroid out float vs_TEXCOORD4;",
            "layout(location = 3) noperspective centroid in float vs_TEXCOORD4;",
        ),
        (
            "layout(location = 4) out vec4 vs_COLOR0;",
            "layout(location = 4) in vec4 vs_COLOR0;",
        ),
    ] {
        has(vs, vs_decl);
        has(ps, ps_decl);
    }
    has(vs, "layout(location = 5) out vec2 vs_TEXCOORD0;");
    assert!(
        !vs.contains(".w;") && !ps.contains("gl_FragCoord.w"),
        "no emulation:\n{vs}\n{ps}"
    );
    for t in [&v, &p] {
        common::validate::vk450(t.stage, &t.source).expect("validates");
    }
    insta::assert_snapshot!(
        "linked_pair_vs_linked",
        linked_pair(Dialect::Es300, true).0.source
    );
    insta::assert_snapshot!("linked_pair_vs_linked_vk450", v.source);
}

#[test]
fn a_vertex_shader_alone_keeps_plain_outputs_and_does_not_link_to_a_flat_input() {
    let (v, p) = linked_pair(Dialect::Es300, false);
    has(&v.source, "\nout vec4 vs_TEXCOORD1;");
    has(&v.source, "\nout vec4 vs_TEXCOORD2;");
    has(&v.source, "vs_TEXCOORD3 = o4.xy;");
    let err = common::validate::es300_link(&v.source, &p.source)
        .expect_err("a constant float input needs a flat output");
    assert!(
        err.contains("`vs_TEXCOORD1` differs: vertex `smooth`, fragment `flat`"),
        "{err}"
    );
    // vk450 alone: the vertex shader numbers its own outputs.
    let (v, _) = linked_pair(Dialect::Vk450, false);
    has(&v.source, "layout(location = 0) out vec2 vs_TEXCOORD0;");
    // varying_locations still orders outputs, the unlisted after the list.
    let vs = parse(&glsl_dir().join("linked_pair_vs.asm"));
    let mut o = Options::new(Dialect::Vk450);
    o.varying_locations = Some(vec![("COLOR".into(), 0), ("TEXCOORD".into(), 3)]);
    let t = glsl::translate(&vs, &o).expect("translates");
    has(&t.source, "layout(location = 0) out vec4 vs_COLOR0;");
    has(&t.source, "layout(location = 1) out vec2 vs_TEXCOORD3;");
    has(&t.source, "layout(location = 2) out vec2 vs_TEXCOORD0;");
    has(&t.source, "layout(location = 3) out vec4 vs_TEXCOORD1;");
    has(&t.source, "layout(location = 5) out float vs_TEXCOORD4;");
}

#[test]
fn control_flow_tests_bits() {
    let i = es300("if_else_z_nz");
    has(&i, "if (floatBitsToUint(v1.x) != 0u) {");
    has(&i, "if (floatBitsToUint(v1.y) == 0u) {");
    has(&i, "} else {");
    let l = es300("loop_breakc_continuec");
    has(&l, "while (true) {");
    has(&l, "if (floatBitsToUint(r1.x) != 0u) { break; }");
    has(&l, "if (floatBitsToUint(r1.y) == 0u) { continue; }");
    let s = es300("switch_fallthrough");
    has(&s, "switch (floatBitsToInt(v1.x)) {");
    has(&s, "case -3:");
    has(&s, "default:");
    let r = es300("retc_early_return");
    has(&r, "if (floatBitsToUint(r0.x) != 0u) { return; }");
    let d = es300("discard_pixel");
    has(&d, "if (floatBitsToUint(r0.x) != 0u) { discard; }");
    has(&d, "if (floatBitsToUint(v1.x) == 0u) { discard; }");
    let c = es300("subroutine_call");
    has(&c, "void l0();\nvoid l1();");
    has(&c, "if (floatBitsToUint(r1.x) != 0u) { l1(); }");
}

#[test]
fn indexable_temps_keep_their_width() {
    let s = es300("indexable_temp");
    has(&s, "vec2 x0[3];");
    has(&s, "vec4 x1[4];");
    has(&s, "x1[floatBitsToInt(v0.y) + 1].xw = vec2(7.0, 8.0);");
    has(&s, "r0.xy = x0[floatBitsToInt(v0.x)].yx;");
}

#[test]
fn immediate_constant_buffer_keeps_special_bits() {
    let s = es300("icb_special_bits");
    has(&s, "const uvec4 ImmCB_0[2] = uvec4[2](");
    has(
        &s,
        "uvec4(0x7fc00000u, 0x7f800000u, 0xff800000u, 0x00000001u),",
    );
    has(
        &s,
        "uvec4(0x7fa00001u, 0x80000000u, 0x807fffffu, 0x3fc00000u)",
    );
    has(&s, "r0 = uintBitsToFloat(ImmCB_0[floatBitsToInt(v0.x)]);");
}

#[test]
fn constant_buffers_are_register_stable() {
    let s = es300("cbuffer_relative");
    has(
        &s,
        "layout(std140) uniform ConstantBuffer3 { vec4 data[16]; } cb3;",
    );
    has(&s, "cb3.data[floatBitsToInt(v0.y) + 5].wzyx");
    let v = vk450("cbuffer_relative");
    has(&v, "uniform ConstantBuffer3 { vec4 data[16]; } cb3;");
    has(&v, "binding = 3)");
}

#[test]
fn pixel_system_values() {
    let p = es300("ps_position_fragcoord");
    has(
        &p,
        "vec4 hlslcc_FragCoord = vec4(gl_FragCoord.x, hlslcc_YFlip.y - hlslcc_YFlip.x * gl_FragCoord.y, gl_FragCoord.z, 1.0 / gl_FragCoord.w);",
    );
    has(&p, "v0.xyzw = hlslcc_FragCoord.xyzw;");
    let f = es300("ps_front_face_mask");
    has(
        &f,
        "v2.x = uintBitsToFloat(gl_FrontFacing ? 0xffffffffu : 0u);",
    );
}

#[test]
fn vertex_system_values() {
    let s = es300("vs_vertex_instance_id");
    has(&s, "v0.x = intBitsToFloat(gl_VertexID);");
    has(&s, "v1.x = intBitsToFloat(gl_InstanceID);");
    let v = vk450("vs_vertex_instance_id");
    has(&v, "v0.x = intBitsToFloat(int(gl_VertexIndex));");
    has(&v, "v1.x = intBitsToFloat(int(gl_InstanceIndex));");
}

#[test]
fn integer_attributes_are_float_and_varyings_flat() {
    let a = es300("vs_int_attributes");
    has(&a, "in vec2 in_BLENDINDICES0;");
    has(&a, "in float in_TEXCOORD3;");
    assert!(
        !code_lines(&a).any(|l| l.starts_with("in ivec") || l.starts_with("in uvec")),
        "{a}"
    );
    has(&a, "floatBitsToInt(v1.x) << (1u & 31u)");
    let vo = es300("vs_int_varyings");
    has(&vo, "flat out uvec2 vs_TEXCOORD1;");
    has(&vo, "flat out int vs_TEXCOORD2;");
    has(&vo, "vs_TEXCOORD1 = floatBitsToUint(o1.xy);");
    let pi = es300("ps_int_varyings");
    has(&pi, "flat in uvec2 vs_TEXCOORD1;");
    has(&pi, "flat in int vs_TEXCOORD2;");
    has(&pi, "v1.xy = uintBitsToFloat(vs_TEXCOORD1);");
}

#[test]
fn unwritten_signature_output_is_zero() {
    let s = es300("signature_only_output");
    has(
        &s,
        "o1 = vec4(0.0); // signature-only output: never written",
    );
    has(&s, "vs_TEXCOORD1 = o1.xyzw;");
}

#[test]
fn early_depth_stencil_is_dropped() {
    for s in [es300("early_depth_dropped"), vk450("early_depth_dropped")] {
        has(&s, "// early_fragment_tests dropped");
        assert!(
            !code_lines(&s).any(|l| l.contains("early_fragment_tests")),
            "{s}"
        );
    }
}

#[test]
fn interpolation_qualifiers() {
    let s = es300("interpolation_modes");
    assert!(!code_lines(&s).any(|l| l.contains("noperspective")), "{s}");
    has(&s, "// vs_TEXCOORD3: noperspective emulated");
    has(&s, "\nin vec4 vs_TEXCOORD3;");
    has(&s, "v3.xyzw = vs_TEXCOORD3 * gl_FragCoord.w;");
    has(&s, "centroid in vec2 vs_TEXCOORD2;");
    has(&s, "centroid in float vs_TEXCOORD4;");
    has(&s, "v4.x = vs_TEXCOORD4 * gl_FragCoord.w;");
    has(&s, "flat in float vs_TEXCOORD5;");
    has(&s, "v1.xyzw = vs_TEXCOORD1;");
    let v = vk450("interpolation_modes");
    has(
        &v,
        "layout(location = 2) noperspective in vec4 vs_TEXCOORD3;",
    );
    has(
        &v,
        "layout(location = 3) noperspective centroid in float vs_TEXCOORD4;",
    );
    has(&v, "v3.xyzw = vs_TEXCOORD3;");
}

#[test]
fn render_targets_and_depth() {
    let m = es300("mrt_int_target");
    has(&m, "layout(location = 0) out vec4 SV_Target0;");
    has(&m, "layout(location = 1) out vec2 SV_Target1;");
    has(&m, "layout(location = 2) out uvec4 SV_Target2;");
    has(&m, "SV_Target2 = floatBitsToUint(o2.xyzw);");
    let d = es300("depth_output");
    has(&d, "float oDepth;");
    has(&d, "oDepth = 0.0;");
    has(&d, "gl_FragDepth = oDepth;");
}

#[test]
fn packed_varyings_split_by_component() {
    let v = es300("packed_varyings_vs");
    has(&v, "out vec2 vs_TEXCOORD0;");
    has(&v, "out vec2 vs_COLOR0;");
    has(&v, "vs_TEXCOORD0 = o1.xy;");
    has(&v, "vs_COLOR0 = o1.zw;");
    let p = es300("packed_varyings_ps");
    has(&p, "v1.xy = vs_TEXCOORD0;");
    has(&p, "v1.zw = vs_COLOR0;");
    let pv = vk450("packed_varyings_ps");
    has(&pv, "layout(location = 0) in vec2 vs_TEXCOORD0;");
    has(&pv, "layout(location = 1) in vec2 vs_COLOR0;");
}

#[test]
fn class_interfaces_dispatch_through_the_bound_table() {
    let s = es300("class_interfaces");
    has(&s, "void fb3();");
    has(&s, "switch (hlslcc_interfaceTable[0].x) {");
    // Call site 1 of fp0: ft0's second body is fb2, ft1's is fb3.
    has(&s, "case 0: fb2(); break; // ft0");
    has(&s, "case 1: fb3(); break; // ft1");
    has(&s, "o0.w = float(hlslcc_this[0].y);");
    let v = vk450("class_interfaces");
    has(
        &v,
        "layout(std140, set = 0, binding = 200) uniform hlslcc_Interfaces {",
    );
}

#[test]
fn msad_skips_zero_reference_bytes_per_component() {
    let src = es300("msad");
    has(&src, "uint dx_msad(uint a, uint b, uint c) {");
    // A reference byte of 0 contributes nothing (D3D11.1's masked SAD).
    has(&src, "if (r != 0u) { sum += (r > s) ? r - s : s - r; }");
    has(
        &src,
        "o0 = uintBitsToFloat(dx_msad(floatBitsToUint(v0.xxxx), floatBitsToUint(v0.yyyy), floatBitsToUint(v0.zwzw)));",
    );
}
