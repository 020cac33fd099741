//! Parsing tests: what a case file means and how its errors read.

use super::*;
use crate::vm::texture::{AddressMode, Format};

fn parse(text: &str) -> Result<Case, CaseError> {
    Case::parse(text, Path::new("t.case"))
}

#[test]
fn a_complete_case_parses() {
    let c = parse(
        "[pixel shader]\nps_5_0\nret\n[render target]\nsize 8 4\n[quad]\nvertex -1 1 0 1 v1 0 0 0 1\nvertex 1 1 0 2 v1 1 0 0 1\nvertex -1 -1 0 1 v1 0 1 0 1\nvertex 1 -1 0 2 v1 1 1 0 1\n[texture 0]\nformat r32_float\nsize 2 2\nvalues\n0 0 0 1  1 0 0 1\n0.5 0 0 1  0.25 0 0 1\n[sampler 0]\nfilter point\naddress border clamp\ncompare less_equal\n[constant buffer 1]\nrow 2 uint 1 2 3 4\n[tolerance]\nabs 0.001\n[test]\nprobe 1 2 0 0 0 1\nprobe rect 0 0 4 4 1 1 1 1\n",
    )
    .expect("parses");
    assert_eq!((c.width, c.height), (8, 4));
    assert_eq!(c.quad[1].position[3], 2.0);
    assert_eq!(c.quad[3].attributes[0].0, 1);
    assert_eq!(c.constant_buffers[0].1[2], [1, 2, 3, 4]);
    assert_eq!(c.samplers[0].1.address[1], AddressMode::Clamp);
    assert_eq!(c.probes.len(), 2);
    assert_eq!(c.tolerance.abs, 0.001);
}

#[test]
fn errors_name_file_and_line() {
    let e = parse("[pixel shader]\nps_5_0\n[quad]\nvertex 1 2 3\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert_eq!(e.to_string().split(':').next(), Some("t.case"));
    let e = parse("[pixel shader]\nps_5_0\n[texture 0]\nsize 2 2\nvalues\n1 2 3\n").unwrap_err();
    assert_eq!(e.line, 6);
    let e = parse("[sampler 0]\nfilter blurry\n[pixel shader]\nps_5_0\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        parse("[render target]\nsize 4 4\n")
            .unwrap_err()
            .message
            .contains("pixel shader")
    );
}

#[test]
fn quad_attributes_name_a_real_input_register_once() {
    let quad = |first: &str| {
        format!(
            "[pixel shader]\nps_5_0\n[quad]\nvertex -1 1 0 1 {first}\nvertex 1 1 0 1\nvertex -1 -1 0 1\nvertex 1 -1 0 1\n"
        )
    };
    // v31 is the last of D3D11's 32 input registers.
    let c = parse(&quad("v31 1 2 3 4")).expect("v31 exists");
    assert_eq!(
        c.quad[0].attributes,
        vec![(31, [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits))]
    );
    let e = parse(&quad("v32 1 2 3 4")).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (4, "v32 is outside v0..v31"));
    // u32::MAX once overflowed the register count built from it.
    let e = parse(&quad("v4294967295 0 0 0 1")).unwrap_err();
    assert_eq!(e.message, "v4294967295 is outside v0..v31");
    let e = parse(&quad("v1 0 0 0 1 v1 1 1 1 1")).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (4, "v1 is given twice"));
}

#[test]
fn invalid_utf8_is_refused_at_its_line_and_offset() {
    // "[pixel shader]\n" is 15 bytes and "ps_5_0\n" 7, so the 0xff
    // after "mov " on line 3 is byte 15 + 7 + 4 = 26.
    let e = Case::from_bytes(
        b"[pixel shader]\nps_5_0\nmov \xff\nret\n",
        Path::new("t.case"),
    )
    .unwrap_err();
    assert_eq!(e.line, 3);
    assert_eq!(e.to_string(), "t.case:3: not UTF-8: byte offset 26 (0xff)");
    // A sequence cut off by the end of the file is refused the same way:
    // 0xc3 starts a two-byte character at offset 0 of line 1.
    let e = Case::from_bytes(b"\xc3", Path::new("t.case")).unwrap_err();
    assert_eq!(
        (e.line, e.message.as_str()),
        (1, "not UTF-8: byte offset 0 (0xc3)")
    );
}

#[test]
fn out_of_range_sizes_are_errors_not_clamps() {
    let e = parse("[pixel shader]\nps_5_0\n[render target]\nsize 0 4\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("outside"), "{e}");
    // Direct3D 11's limit for a 2D texture side is 16384.
    let e = parse("[pixel shader]\nps_5_0\n[texture 0]\nsize 16385 2\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("limit of 16384"), "{e}");
    // A constant buffer holds 4096 rows, 0 to 4095; 4096 is one past.
    let e =
        parse("[pixel shader]\nps_5_0\n[constant buffer 0]\nrow 4096 uint 1 2 3 4\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("row 4096 is outside 0..=4095"), "{e}");
    let c = parse("[pixel shader]\nps_5_0\n[constant buffer 0]\nrow 4095 uint 1 2 3 4\n")
        .expect("the last row is allowed");
    assert_eq!(c.constant_buffers[0].1.len(), 4096);
    let e = parse("[pixel shader]\nps_5_0\n[texture 0]\nsize 2 2\nmips 17\n").unwrap_err();
    assert_eq!(e.line, 5);
    // A 2x2 chain is 2x2 and 1x1: two levels.
    assert!(e.message.contains("17 mip levels asked for"), "{e}");
    assert!(e.message.contains("at most 2"), "{e}");
}

#[test]
fn requirements_name_a_known_feature_and_a_reason() {
    let c = parse("[pixel shader]\nps_5_0\n[require]\nfine_derivatives one dFdx in ES\n")
        .expect("parses");
    assert_eq!(c.requires.len(), 1);
    assert_eq!(c.requires[0].feature, Feature::FineDerivatives);
    assert_eq!(c.requires[0].reason, "one dFdx in ES");
    let e = parse("[pixel shader]\nps_5_0\n[require]\nteleportation why not\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("fine_derivatives"), "{e}");
    let e = parse("[pixel shader]\nps_5_0\n[require]\nfine_derivatives\n").unwrap_err();
    assert!(e.message.contains("REASON"), "{e}");
}

#[test]
fn render_target_formats_clears_viewport_and_depth_parse() {
    let c = parse(
        "[pixel shader]\nps_5_0\nret\n[render target]\nsize 8 4\nformat 1 r32_uint\nformat 0 rgba8_unorm_srgb\nclear 0 0.5 0 0 1\nviewport 1 2 4 2 0.25 0.75\n[depth]\nformat d16_unorm\nfunc greater_equal\nwrite off\nclear 0.5\n[test]\nprobe target 1 0 0 7 0 0 1\nprobe depth rect 0 0 2 2 0.5\nprobe 1 1 128/255 0 0 1\n",
    )
    .expect("parses");
    assert_eq!(c.render_targets.len(), 2);
    assert_eq!(c.render_targets[0].index, 0);
    assert_eq!(
        c.render_targets[0].format,
        Some((7, Format::Rgba8UnormSrgb))
    );
    assert_eq!(c.render_targets[0].clear, Some((8, [0.5, 0.0, 0.0, 1.0])));
    assert_eq!(
        c.render_target(1).and_then(|t| t.format),
        Some((6, Format::R32Uint))
    );
    let vp = c.viewport();
    assert_eq!((vp.x, vp.y, vp.width, vp.height), (1.0, 2.0, 4.0, 2.0));
    assert_eq!((vp.min_depth, vp.max_depth), (0.25, 0.75));
    let d = c.depth.expect("depth");
    assert_eq!(
        d.state.format,
        crate::vm::output_merger::DepthFormat::D16Unorm
    );
    assert_eq!(
        d.state.func,
        crate::vm::texture::ComparisonFunc::GreaterEqual
    );
    assert!(d.state.test && !d.state.write);
    assert_eq!(d.clear, 0.5);
    assert_eq!(c.probes[0].target, ProbeTarget::Color(1));
    assert_eq!(c.probes[1].target, ProbeTarget::Depth);
    assert_eq!(c.probes[1].expected, [0.5, 0.0, 0.0, 0.0]);
    assert_eq!(c.probes[2].expected[0], (128.0f64 / 255.0) as f32);
    // The depth probe implies its requirement, with its line.
    assert!(
        c.requires
            .iter()
            .any(|r| r.feature == Feature::DepthReadback && r.line == 17)
    );
    // Without a viewport line, the whole target.
    let c = parse("[pixel shader]\nps_5_0\nret\n[render target]\nsize 8 4\n").expect("parses");
    assert_eq!(c.viewport(), Viewport::full(8, 4));
    assert!(c.depth.is_none() && c.requires.is_empty());
}

#[test]
fn bad_targets_viewports_and_depth_are_errors_at_their_line() {
    let head = "[pixel shader]\nps_5_0\nret\n";
    let line_of = |body: &str| {
        let e = parse(&format!("{head}{body}")).expect_err(body);
        assert!(e.to_string().starts_with("t.case:"), "{e}");
        e.line
    };
    // Line 4 is the section, 5 the first line in it.
    assert_eq!(line_of("[render target]\nformat rgba8_unorm\n"), 5);
    assert_eq!(line_of("[render target]\nformat 8 rgba8_unorm\n"), 5);
    assert_eq!(line_of("[render target]\nformat 0 d32_float\n"), 5);
    assert_eq!(line_of("[render target]\nformat 0 bogus\n"), 5);
    assert_eq!(
        line_of("[render target]\nformat 0 r8_unorm\nformat 0 r8_unorm\n"),
        6
    );
    assert_eq!(line_of("[render target]\nclear 0 1 2 3\n"), 5);
    assert_eq!(
        line_of("[render target]\nclear 0 1 2 3 4\nclear 0 1 2 3 4\n"),
        6
    );
    assert_eq!(line_of("[render target]\nsize 4 4\nsize 4 4\n"), 6);
    assert_eq!(line_of("[render target]\nviewport 0 0 0 4\n"), 5);
    assert_eq!(line_of("[render target]\nviewport -40000 0 4 4\n"), 5);
    assert_eq!(line_of("[render target]\nviewport 32000 0 1000 4\n"), 5);
    assert_eq!(line_of("[render target]\nviewport 0 0 4 4 0.5 1.5\n"), 5);
    assert_eq!(line_of("[render target]\nviewport 0 0 4 4 0.75 0.25\n"), 5);
    assert_eq!(line_of("[render target]\nviewport 0 0 4 4 0.5\n"), 5);
    assert_eq!(line_of("[depth]\nformat d24_unorm\n"), 5);
    assert_eq!(line_of("[depth]\ntest maybe\n"), 5);
    assert_eq!(line_of("[depth]\nfunc lesser\n"), 5);
    assert_eq!(line_of("[depth]\nclear 1.5\n"), 5);
    assert_eq!(line_of("[depth]\nfunc less\nfunc less\n"), 6);
    assert_eq!(line_of("[depth]\n[depth]\n"), 5);
    assert_eq!(line_of("[test]\nprobe depth 0 0 0.5\n"), 5);
    assert_eq!(line_of("[test]\nprobe depth 0 0 0.5 0 0 0\n"), 5);
    assert_eq!(line_of("[test]\nprobe target 9 0 0 0 0 0 0\n"), 5);
    assert_eq!(line_of("[test]\nprobe 0 0 1/0 0 0 0\n"), 5);
}

#[test]
fn sample_counts_make_multisampled_textures_and_targets() {
    use crate::vm::texture::Dimension;
    let c = parse(
        "[pixel shader]\nps_5_0\nret\n[render target]\nsize 2 2\nsamples 4\n\
         [texture 0]\nformat r32_float\nsize 2 1\nsamples 2\nvalues\n1 0 0 1  2 0 0 1  3 0 0 1  4 0 0 1\n\
         [texture 1]\nformat r32_float\ndimension 2darray\nsize 1 1 3\nsamples 4\nfill constant 5 0 0 1\n",
    )
    .expect("parses");
    assert_eq!(c.samples, 4);
    let t0 = &c.textures[0].1;
    assert_eq!((t0.dimension(), t0.sample_count()), (Dimension::Tex2DMS, 2));
    // Texel by texel, each texel's samples in order.
    assert_eq!(t0.texel(0, 0, [0, 0, 0], 1).unwrap()[0], 2.0f32.to_bits());
    assert_eq!(t0.texel(0, 0, [1, 0, 0], 0).unwrap()[0], 3.0f32.to_bits());
    let t1 = &c.textures[1].1;
    assert_eq!(t1.dimension(), Dimension::Tex2DMSArray);
    // `fill` gives every sample of every layer the texel's value.
    assert_eq!(t1.texel(2, 0, [0, 0, 0], 3).unwrap()[0], 5.0f32.to_bits());
    // Without `samples`, one sample and no multisampling.
    let c = parse("[pixel shader]\nps_5_0\nret\n[texture 0]\nsize 2 2\n").unwrap();
    assert_eq!(c.samples, 1);
    assert_eq!(c.textures[0].1.dimension(), Dimension::Tex2D);
}

#[test]
fn bad_sample_counts_are_errors_at_their_line() {
    let cases = [
        // Not a count with a standard pattern.
        (
            "[pixel shader]\nps_5_0\n[render target]\nsamples 3\n",
            4,
            "1, 2, 4, 8, 16",
        ),
        (
            "[pixel shader]\nps_5_0\n[render target]\nsamples 32\n",
            4,
            "1, 2, 4, 8, 16",
        ),
        (
            "[pixel shader]\nps_5_0\n[render target]\nsamples 0\n",
            4,
            "1, 2, 4, 8, 16",
        ),
        (
            "[pixel shader]\nps_5_0\n[texture 0]\nsamples 6\n",
            4,
            "1, 2, 4, 8, 16",
        ),
        // Only 2D textures multisample, with one mip.
        (
            "[pixel shader]\nps_5_0\n[texture 0]\ndimension 3d\nsize 2 2 2\nsamples 4\n",
            6,
            "2darray",
        ),
        (
            "[pixel shader]\nps_5_0\n[texture 0]\ndimension cube\nsamples 4\n",
            5,
            "2darray",
        ),
        (
            "[pixel shader]\nps_5_0\n[texture 0]\nsize 4 4\nmips 2\nsamples 4\n",
            6,
            "one mip level",
        ),
        // Values count the samples; the `values` line is named.
        (
            "[pixel shader]\nps_5_0\n[texture 0]\nsize 1 1\nsamples 2\nvalues\n1 0 0 1\n",
            6,
            "needs 2 texel values",
        ),
        // One `samples` line per section.
        (
            "[pixel shader]\nps_5_0\n[render target]\nsamples 4\nsamples 4\n",
            5,
            "`samples` is set twice in this section (first at line 4)",
        ),
        (
            "[pixel shader]\nps_5_0\n[texture 0]\nsamples 4\nsamples 4\n",
            5,
            "samples",
        ),
        // The depth buffer is single-sampled: [depth] is named.
        (
            "[pixel shader]\nps_5_0\n[render target]\nsamples 4\n[depth]\nfunc less\n",
            5,
            "single-sampled",
        ),
    ];
    for (text, line, words) in cases {
        let e = parse(text).expect_err(text);
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.message.contains(words), "{text}: {e}");
    }
}

#[test]
fn views_parse_and_their_errors_name_the_line() {
    let tex = |view: &str| {
        parse(&format!(
            "[pixel shader]\nps_5_0\n[texture 0]\nformat r32_float\ndimension 2darray\nsize 4 4 3\nmips 3\n{view}\n"
        ))
    };
    let c = tex("view mips 1 2\nview layers 1 2\nview format r32_uint").expect("parses");
    let v = c.textures[0].1.view().expect("a view");
    assert_eq!(
        (v.first_mip, v.mip_count, v.first_layer, v.layer_count),
        (1, 2, 1, 2)
    );
    assert_eq!(v.format, crate::vm::texture::Format::R32Uint);
    let c = tex("view dimension 2d layer 2").expect("parses");
    let v = c.textures[0].1.view().expect("a view");
    assert_eq!((v.first_layer, v.layer_count), (2, 1));
    // Each broken view names its own line (the view lines start at 8).
    let bad = [
        ("view mips 2 2", 8, "mips"),
        ("view mips 0 0", 8, "mips"),
        (
            "view layers 0 1\nview layers 3 1",
            9,
            "`view layers` is set twice",
        ),
        // `layer N` sets the layers too.
        (
            "view layers 0 1\nview dimension 2d layer 1",
            9,
            "`view layers` is set twice",
        ),
        ("view format r32_uint\nview layers 2 2", 9, "layers"),
        ("view dimension 2d", 8, "exactly 1"),
        ("view dimension cube layer 0", 8, "Cube"),
        ("view dimension 3d layer 0", 8, "Tex3D"),
        ("view mips 0 1\nview format rgba8_unorm", 9, "typeless"),
        ("view format bogus", 8, "unknown view format"),
        ("view aspects", 8, "expected"),
    ];
    for (view, line, says) in bad {
        let e = tex(view).unwrap_err();
        assert_eq!(e.line, line, "{view}: {e}");
        assert!(e.message.contains(says), "{view}: {e}");
    }
}

#[test]
fn sampler_reduction_and_anisotropy() {
    use crate::vm::texture::Reduction;
    let smp = |body: &str| parse(&format!("[pixel shader]\nps_5_0\n[sampler 0]\n{body}\n"));
    let c = smp("reduction min").unwrap();
    assert_eq!(c.samplers[0].1.reduction, Reduction::Minimum);
    let c = smp("reduction maximum").unwrap();
    assert_eq!(c.samplers[0].1.reduction, Reduction::Maximum);
    let c = smp("max_anisotropy 8\nfilter anisotropic").unwrap();
    assert_eq!(c.samplers[0].1.max_anisotropy, Some(8));
    let c = smp("filter linear").unwrap();
    assert_eq!(c.samplers[0].1.max_anisotropy, None);
    for (body, line) in [
        // One `filter` line per sampler: a second is an error, not an
        // override.
        ("filter anisotropic\nfilter linear", 5),
        ("filter anisotropic\nmax_anisotropy 17", 5),
        ("filter anisotropic\nmax_anisotropy 0", 5),
        ("max_anisotropy 4", 4),
        ("reduction median", 4),
    ] {
        assert_eq!(smp(body).unwrap_err().line, line, "{body}");
    }
}

#[test]
fn buffers_and_uavs_match_their_declarations() {
    // t1 declared structured with stride 8, u2 raw: the case's views must
    // be the same layouts (and stride), or the case is refused at the
    // section's title line.
    let shader = "[pixel shader]\nps_5_0\ndcl_output o0.xyzw\n\
                  dcl_resource_structured t1, 8\ndcl_uav_raw u2\n\
                  ld_structured o0.x, l(0), l(0), t1.xxxx\nret\n";
    let check = |views: &str| {
        let c = parse(&format!("{shader}{views}")).expect("parses");
        let s = c.shaders().expect("assembles");
        c.check_bindings(&[&s.pixel])
    };
    check("[buffer 1]\nstride 8\nsize 2\n[uav 2]\nraw\nsize 4\n").expect("matches");
    // Line 8 is `[buffer 1]` (the shader takes lines 1..7), 11 `[uav 2]`.
    let e = check("[buffer 1]\nstride 4\nsize 2\n[uav 2]\nraw\nsize 4\n").unwrap_err();
    assert_eq!(e.line, 8);
    assert!(
        e.message.contains(
            "t1 is structured, stride 4, but the pixel shader declares it structured, stride 8"
        ),
        "{}",
        e.message
    );
    let e = check("[buffer 1]\nstride 8\nsize 2\n[uav 2]\nstride 4\nsize 4\n").unwrap_err();
    assert_eq!(e.line, 11);
    assert!(
        e.message
            .contains("u2 is structured, stride 4, but the pixel shader declares it raw")
    );
    // A UAV no shader declares is legal D3D: drawn, with a warning at its
    // title (line 11).
    let w = check("[buffer 1]\nstride 8\nsize 2\n[uav 3]\nraw\nsize 4\n").expect("draws");
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].line, 11);
    assert!(w[0].message.contains("declares no buffer u3"), "{}", w[0]);
    assert!(
        w[0].to_string().contains("t.case:11: warning: "),
        "{}",
        w[0]
    );
}

#[test]
fn pixel_shader_uavs_start_after_the_render_targets() {
    // The shader writes SV_Target0 and SV_Target1 (o0, o1): u0 and u1 are
    // the targets' slots, so [uav 1] is refused at its title (line 9).
    let text = "[pixel shader]\nps_5_0\ndcl_output o0.xyzw\ndcl_output o1.xyzw\n\
                dcl_uav_raw u1\nmov o0.xyzw, l(0, 0, 0, 0)\nmov o1.xyzw, l(0, 0, 0, 0)\nret\n\
                [uav 1]\nraw\nsize 1\n";
    let c = parse(text).expect("parses");
    let s = c.shaders().expect("assembles");
    let e = c.check_bindings(&[&s.pixel]).unwrap_err();
    assert_eq!(e.line, 9);
    assert!(e.message.contains("UAVs start at u2"), "{}", e.message);
}
