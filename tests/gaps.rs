//! The D3D11 ↔ GLSL ES 3.00 gap detector (`harness::gaps`) on cases written
//! for each gap: every kind is found at the instruction and with the
//! operand values each case's comments work by hand, and nothing is found
//! where the values are in the domain both languages define. Last, the
//! same through the binary (`trace --gaps`, text and JSON).

mod common;

use std::path::Path;

use common::cli::{dxbc_dbg, stdout};
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::gaps::{Gap, GapKind, Handling, case_gaps, cause};

fn gaps(case: &str, pixel: (u32, u32)) -> Vec<Gap> {
    let case = Case::load(Path::new(case)).expect("case loads");
    let shaders = case.shaders().expect("shaders assemble");
    case_gaps(&case, &shaders, pixel).expect("the pixel runs")
}

/// (instruction index, kind, the bits of each value that hit).
fn summary(gaps: &[Gap]) -> Vec<(usize, GapKind, Vec<u32>)> {
    gaps.iter()
        .map(|g| (g.index, g.kind, g.values.iter().map(|v| v.bits).collect()))
        .collect()
}

const NAN: u32 = 0x7fc0_0000;

#[test]
fn ftoi_and_ftou_of_nan_and_out_of_range() {
    // Seven declarations, then ftoi r0 (7), ftoi r1 (8), ftou r2 (9),
    // ftou r3 (10). Row 0 = (NaN, 3e9, -3e9, +inf), row 1 = (-inf, -0.5,
    // 5e9, 2.75): ftoi fits [-2^31, 2^31), so 3e9, -3e9, +inf, -inf and 5e9
    // are out and -0.5, 2.75 in; ftou fits [0, 2^32) and GLSL ES leaves
    // any negative undefined, so -3e9, +inf, -inf, -0.5, 5e9 are out and
    // 3e9, 2.75 in.
    let g = gaps("tests/cases/alu/ftoi_nan_range.case", (0, 0));
    assert_eq!(
        summary(&g),
        vec![
            (7, GapKind::FloatToIntNan, vec![NAN]),
            (
                7,
                GapKind::FloatToIntRange,
                vec![0x4f32_d05e, 0xcf32_d05e, 0x7f80_0000]
            ),
            (8, GapKind::FloatToIntRange, vec![0xff80_0000, 0x4f95_02f9]),
            (9, GapKind::FloatToIntNan, vec![NAN]),
            (9, GapKind::FloatToIntRange, vec![0xcf32_d05e, 0x7f80_0000]),
            (
                10,
                GapKind::FloatToIntRange,
                vec![0xff80_0000, 0xbf00_0000, 0x4f95_02f9]
            ),
        ]
    );
    // D3D's values: NaN -> 0, 3e9 -> INT_MAX, -3e9 -> INT_MIN, +inf -> INT_MAX.
    assert_eq!(
        g[0].d3d_result.as_deref(),
        Some(
            "r0.x = 0 (0x00000000), r0.y = 2147483647 (0x7fffffff), \
             r0.z = -2147483648 (0x80000000), r0.w = 2147483647 (0x7fffffff)"
        )
    );
    assert_eq!(g[0].values[0].source, "cb0[0].x");
    assert!(g[0].glsl.contains("int(NaN)"), "{}", g[0].glsl);
    assert!(g[0].d3d.contains("NaN give 0"), "{}", g[0].d3d);
}

#[test]
fn shift_counts_of_32_and_more_but_not_31() {
    // ishl by 33 (4), ushr by 32 (5), ishr by 35 (6); ushr by 31 (7) is in range.
    let g = gaps("tests/cases/alu/shift_counts.case", (2, 1));
    assert_eq!(
        summary(&g),
        vec![
            (4, GapKind::ShiftCount, vec![33]),
            (5, GapKind::ShiftCount, vec![32]),
            (6, GapKind::ShiftCount, vec![35]),
        ]
    );
    assert_eq!(g[0].values[0].source, "cb0[1].x");
    assert_eq!(g[0].dxbc_dbg, Handling::Covered);
    // 1 << (33 & 31) = 2, as D3D shifts by the low 5 bits.
    assert_eq!(g[0].d3d_result.as_deref(), Some("r0.x = 2 (0x00000002)"));
}

#[test]
fn udiv_by_zero_but_not_by_five() {
    // udiv 17 / 0 (4) hits; udiv 17 / 5 (5) does not.
    let g = gaps("tests/cases/alu/udiv_by_zero.case", (0, 0));
    assert_eq!(summary(&g), vec![(4, GapKind::DivideByZero, vec![0])]);
    assert_eq!(g[0].values[0].source, "cb0[0].y");
    assert_eq!(
        g[0].d3d_result.as_deref(),
        Some("r0.x = 4294967295 (0xffffffff), r0.y = 4294967295 (0xffffffff)")
    );
}

#[test]
fn min_max_with_nan_but_not_with_signed_zeros() {
    // max(NaN, 1) (3) and min(NaN, -1) (4); max/min of -0 and +0 (5, 6)
    // are no gap: both languages order them (or may not, but no NaN).
    let g = gaps("tests/cases/alu/minmax_nan_zero.case", (1, 3));
    assert_eq!(
        summary(&g),
        vec![
            (3, GapKind::MinMaxNan, vec![NAN]),
            (4, GapKind::MinMaxNan, vec![NAN]),
        ]
    );
    assert_eq!(
        g[0].d3d_result.as_deref(),
        Some("o0.x = 1.000000 (0x3f800000)")
    );
    // dxbc-dbg's text decides the NaN cases itself (dx_min/dx_max).
    assert_eq!(g[0].dxbc_dbg, Handling::Covered);
}

#[test]
fn reciprocals_of_zero_but_not_of_four() {
    // rcp +0 (4), rcp -0 (5), rsq +0 (6), rsq -0 (7); rcp 4, rsq 4, rsq 0.25
    // (8..10) are in the domain.
    let g = gaps("tests/cases/alu/rcp_rsq_zero.case", (0, 0));
    assert_eq!(
        summary(&g),
        vec![
            (4, GapKind::ReciprocalOfZero, vec![0]),
            (5, GapKind::ReciprocalOfZero, vec![0x8000_0000]),
            (6, GapKind::ReciprocalOfZero, vec![0]),
            (7, GapKind::ReciprocalOfZero, vec![0x8000_0000]),
        ]
    );
    assert_eq!(g[3].d3d_result.as_deref(), Some("o0.w = -inf (0xff800000)"));
}

#[test]
fn comparisons_with_nan_but_not_without() {
    // eq (5), lt (6), ge (7), ge (8) read NaN (ge NaN, NaN: one value, the
    // same component twice); the four comparisons of 1 and 2 (10..13) do not.
    let g = gaps("tests/cases/alu/nan_comparisons.case", (0, 0));
    assert_eq!(
        summary(&g),
        vec![
            (5, GapKind::NanComparison, vec![NAN]),
            (6, GapKind::NanComparison, vec![NAN]),
            (7, GapKind::NanComparison, vec![NAN]),
            (8, GapKind::NanComparison, vec![NAN]),
        ]
    );
    assert_eq!(
        g[0].d3d_result.as_deref(),
        Some("r0.x = false (0x00000000)")
    );
}

#[test]
fn denormal_sources_of_arithmetic_but_not_of_a_move() {
    // mul 0x00400000 (3), add 0x00000001 (4), mul 0x80400000 (5): each
    // source a denormal (2^24 is not); the mov (6) flushes nothing.
    let g = gaps("tests/gaps/denormal_flush.case", (0, 0));
    assert_eq!(
        summary(&g),
        vec![
            (3, GapKind::Denormal, vec![0x0040_0000]),
            (4, GapKind::Denormal, vec![0x0000_0001]),
            (5, GapKind::Denormal, vec![0x8040_0000]),
        ]
    );
    // D3D flushes: +0, and -0 for the negative one.
    assert_eq!(
        g[0].d3d_result.as_deref(),
        Some("o0.x = 0.000000 (0x00000000)")
    );
    assert_eq!(
        g[2].d3d_result.as_deref(),
        Some("o0.z = -0.000000 (0x80000000)")
    );
}

#[test]
fn any_gather_is_a_gap() {
    // u = v = 0.375 at pixel (1, 1) (the case's (x + 0.5)/4).
    let g = gaps("tests/cases/gather4/red_wrap_centres.case", (1, 1));
    assert_eq!(
        summary(&g),
        vec![(7, GapKind::Gather, vec![0x3ec0_0000, 0x3ec0_0000])]
    );
    assert!(g[0].glsl.contains("textureGather"));
}

#[test]
fn border_taps_only_where_the_read_leaves_the_texture() {
    // (0,0) reads level 1's texel -1: the border colour; (1,1) reads
    // texel (0,0) inside.
    let g = gaps("tests/cases/border/sample_b.case", (0, 0));
    assert_eq!(
        summary(&g),
        vec![(7, GapKind::BorderColour, vec![0x3e80_0000])]
    );
    assert_eq!(
        g[0].values[0].view,
        "BorderColor (0.250000, 0.500000, 0.750000, 1.000000)"
    );
    assert!(gaps("tests/cases/border/sample_b.case", (1, 1)).is_empty());
}

#[test]
fn mirror_once_only_below_zero() {
    // (1,2): u = -0.9375 (-3.75 texels), v = -0.5625 (-2.25 texels);
    // (4,4): u = v = 0.1875, where mirror once and clamp agree.
    let g = gaps("tests/cases/mirror_once/point.case", (1, 2));
    assert_eq!(
        summary(&g),
        vec![(7, GapKind::MirrorOnce, vec![0xbf70_0000, 0xbf10_0000])]
    );
    assert_eq!(g[0].values[0].view, "coordinate -0.937500 (-3.75 texels)");
    assert!(gaps("tests/cases/mirror_once/point.case", (4, 4)).is_empty());
}

#[test]
fn reduction_filters_only_over_taps_that_differ() {
    // (1,0): u = 1.5 * 0.25 = 0.375, 0.75 texels, 0.25 past column 0's
    // centre: columns 0 and 1 weighted 0.75 and 0.25; v = 0.25, 0.5 texels,
    // on row 0's centre: row 1 weighted 0. Taps (1, 8, 3, 0.5) and
    // (2, 7, 4, 0.25) differ, so the maximum is not the weighted sum. The
    // sample is instruction 6 (after the five declarations and the mul).
    let g = gaps("tests/cases/reduction/max_bilinear.case", (1, 0));
    assert_eq!(summary(&g), vec![(6, GapKind::ReductionFilter, vec![0])]);
    assert_eq!(
        g[0].values[0].view,
        "maximum over 2 weighted taps that differ"
    );
    // (0,0): u = 0.125, 0.25 texels: x - 0.5 < 0 clamps to column 0 twice
    // (clamp addressing), so every weighted tap is (1, 8, 3, 0.5) and the
    // maximum is the weighted sum.
    assert!(gaps("tests/cases/reduction/max_bilinear.case", (0, 0)).is_empty());
}

#[test]
fn noperspective_inputs_only_under_differing_w() {
    // clip/near_far_planes: v2 is `linear noperspective` and the corners'
    // clip w are 1, 2, 1, 2, so screen-linear and perspective-correct
    // interpolation differ; the gap is the declaration (instruction 2),
    // whatever pixel. SV_Position (v0), also noperspective, is the
    // rasterizer's own and no gap.
    let g = gaps("tests/cases/clip/near_far_planes.case", (2, 0));
    assert_eq!(
        summary(&g),
        vec![(2, GapKind::Noperspective, vec![1.0f32.to_bits()])]
    );
    assert_eq!(g[0].values[0].view, "1, 2, 1, 2");
    assert_eq!(g[0].dxbc_dbg, Handling::Covered);
    // Equal w: the two interpolations agree, no gap.
    let flat = dxbc_dbg::harness::gaps::declared_gaps(
        &Case::load(Path::new("tests/cases/clip/near_far_planes.case"))
            .expect("case loads")
            .shaders()
            .expect("shaders assemble")
            .pixel,
        &[2.0, 2.0, 2.0, 2.0],
    );
    assert!(flat.is_empty(), "{flat:?}");
}

#[test]
fn mip_lod_bias_and_lod_range() {
    // Every sampler has a MipLODBias (1, -1, -3, 2): four mip_lod_bias hits.
    // At x = 0: s2's LOD x - 1 = -1 is raised to MinLOD 1 (a lod_clamp);
    // s3's x + 1 = 1 is inside MaxLOD 2 (none). At x = 3: s2's 2 is inside,
    // s3's 4 is held to MaxLOD 2. The instruction biases (x - 1) stay
    // within ±2: no sample_bias.
    let bits = |f: f32| f.to_bits();
    let g = gaps("tests/cases/lod_bias/sample_b.case", (0, 0));
    assert_eq!(
        summary(&g),
        vec![
            (12, GapKind::MipLodBias, vec![bits(1.0)]),
            (14, GapKind::MipLodBias, vec![bits(-1.0)]),
            (16, GapKind::MipLodBias, vec![bits(-3.0)]),
            (16, GapKind::LodClamp, vec![bits(1.0)]),
            (18, GapKind::MipLodBias, vec![bits(2.0)]),
        ]
    );
    assert_eq!(g[3].values[0].source, "s2 MinLOD");
    let g = gaps("tests/cases/lod_bias/sample_b.case", (3, 0));
    let clamps: Vec<_> = summary(&g)
        .into_iter()
        .filter(|(_, k, _)| *k == GapKind::LodClamp)
        .collect();
    assert_eq!(clamps, vec![(18, GapKind::LodClamp, vec![bits(2.0)])]);
}

#[test]
fn sample_b_beyond_two_but_not_at_two() {
    // Biases 3 (7), -3 (9), 2 (11, ES's least limit: no gap), 20 (13).
    let g = gaps("tests/cases/lod_bias/sample_b_beyond_es_range.case", (1, 0));
    assert_eq!(
        summary(&g),
        vec![
            (7, GapKind::SampleBias, vec![3.0f32.to_bits()]),
            (9, GapKind::SampleBias, vec![(-3.0f32).to_bits()]),
            (13, GapKind::SampleBias, vec![20.0f32.to_bits()]),
        ]
    );
}

#[test]
fn filtered_comparisons_that_disagree() {
    // (1,2): texel 6 passes, 7, 10, 11 fail (reference 6.5/16): filtered
    // results that disagree. (0,1): all four pass, so any combination of
    // them GL may choose gives 1, as D3D does.
    let g = gaps("tests/cases/pcf/linear_between_texels.case", (1, 2));
    let cmp: Vec<_> = g.iter().filter(|g| g.kind == GapKind::Comparison).collect();
    assert!(!cmp.is_empty(), "{g:?}");
    assert_eq!(
        cmp[0].values[0].view,
        "4 comparisons of reference 0.406250 (1 passed)"
    );
    assert!(
        gaps("tests/cases/pcf/linear_between_texels.case", (0, 1))
            .iter()
            .all(|g| g.kind != GapKind::Comparison)
    );
}

#[test]
fn in_domain_values_hit_nothing() {
    // Integer min/max and wrapping, bilinear weights inside the texture, a
    // point comparison on a depth format.
    for (case, pixel) in [
        ("tests/cases/alu/int_wrap_minmax.case", (0, 0)),
        ("tests/cases/alu/bitfield_extract_insert.case", (1, 1)),
        ("tests/cases/sample/linear_weights.case", (1, 1)),
        ("tests/cases/pcf/point_less.case", (2, 1)),
    ] {
        assert_eq!(gaps(case, pixel), vec![], "{case}");
    }
}

#[test]
fn the_cause_line_a_report_gives() {
    let g = gaps("tests/cases/alu/shift_counts.case", (0, 0));
    assert_eq!(
        cause(&g).as_deref(),
        Some(
            "D3D11/GLSL ES 3.00 gap: shift_count at [4] ishl r0.x, cb0[0].x, cb0[1].x \
             (cb0[1].x = 33); shift_count at [5] ushr r0.y, cb0[0].y, cb0[1].y \
             (cb0[1].y = 32); shift_count at [6] ishr r0.z, cb0[0].z, cb0[1].z \
             (cb0[1].z = 35)"
        )
    );
    // Six gaps: three named, the rest counted.
    let g = gaps("tests/cases/alu/ftoi_nan_range.case", (0, 0));
    assert!(cause(&g).unwrap().ends_with("; and 3 more"));
    assert_eq!(cause(&[]), None);
}

#[test]
fn trace_gaps_through_the_binary() {
    let out = dxbc_dbg(&[
        "trace",
        "tests/cases/alu/shift_counts.case",
        "--pixel",
        "1,0",
        "--gaps",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.starts_with("3 D3D11/GLSL ES 3.00 gaps on this pixel's path:\n"),
        "{text}"
    );
    assert!(
        text.contains("[   4] ishl r0.x, cb0[0].x, cb0[1].x  -- shift_count\n       values: cb0[1].x = 33 (0x00000021)\n       D3D11 result: r0.x = 2 (0x00000002)\n"),
        "{text}"
    );
    let out = dxbc_dbg(&[
        "trace",
        "tests/cases/alu/shift_counts.case",
        "--pixel",
        "1,0",
        "--gaps",
        "--json",
    ]);
    assert!(out.status.success(), "{out:?}");
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    assert_eq!(doc["pixel"], serde_json::json!([1, 0]));
    assert_eq!(doc["lane"], 1);
    let gaps = doc["gaps"].as_array().expect("gaps");
    assert_eq!(gaps.len(), 3);
    assert_eq!(gaps[2]["kind"], "shift_count");
    assert_eq!(gaps[2]["index"], 6);
    assert_eq!(gaps[2]["values"][0]["bits"], 35);
    assert_eq!(gaps[2]["values"][0]["source"], "cb0[1].z");
    assert_eq!(gaps[2]["dxbc_dbg"], "covered");
    // A case without gaps says so.
    let out = dxbc_dbg(&["trace", "tests/cases/alu/int_wrap_minmax.case", "--gaps"]);
    assert_eq!(
        stdout(&out),
        "no D3D11/GLSL ES 3.00 gap on this pixel's path\n"
    );
}
