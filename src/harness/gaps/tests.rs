//! The arithmetic rules on hand-made source values; the whole detector on
//! cases is tested in `tests/gaps.rs`.

use super::alu;
use super::{GapKind, Pending};
use crate::dxbc::asm::assemble;
use crate::dxbc::shader::Shader;
use crate::vm::SourceValue;

/// The first instruction after the declarations of a one-instruction
/// shader body.
fn instruction(line: &str) -> crate::dxbc::ir::Instruction {
    let text = format!(
        "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\ndcl_temps 2\n{line}\nret\n"
    );
    let bytes = assemble(&text).expect("assembles");
    let shader = Shader::parse(&bytes, Default::default()).expect("parses");
    shader
        .program
        .instructions
        .iter()
        .find(|i| !i.info().is_decl())
        .cloned()
        .expect("an instruction")
}

fn src(operand: usize, bits: [u32; 4]) -> SourceValue {
    SourceValue {
        operand,
        raw: bits,
        read: bits,
    }
}

fn kinds(line: &str, sources: &[SourceValue]) -> Vec<(GapKind, Vec<u32>)> {
    let inst = instruction(line);
    let mut out: Vec<Pending> = Vec::new();
    alu::hits(&inst, sources, &mut out);
    out.into_iter()
        .map(|p| (p.kind, p.values.iter().map(|v| v.bits).collect()))
        .collect()
}

const NAN: u32 = 0x7fc0_0000;
const ONE: u32 = 0x3f80_0000;

#[test]
fn min_with_nan_in_a_written_component_only() {
    // x is written and reads NaN from source 1; w reads NaN but is not written.
    let s = [src(1, [NAN, ONE, ONE, NAN]), src(2, [ONE; 4])];
    assert_eq!(
        kinds("min r0.xy, r1.xyzw, r1.xyzw", &s),
        vec![(GapKind::MinMaxNan, vec![NAN])]
    );
    let clean = [src(1, [ONE, ONE, ONE, NAN]), src(2, [ONE; 4])];
    assert_eq!(kinds("max r0.xy, r1.xyzw, r1.xyzw", &clean), vec![]);
}

#[test]
fn ftoi_nan_and_range() {
    // 2^31 (0x4f000000) is one past INT_MAX; -2^31 (0xcf000000) fits.
    let s = [src(1, [NAN, 0x4f00_0000, 0xcf00_0000, ONE])];
    assert_eq!(
        kinds("ftoi r0.xyzw, r1.xyzw", &s),
        vec![
            (GapKind::FloatToIntNan, vec![NAN]),
            (GapKind::FloatToIntRange, vec![0x4f00_0000])
        ]
    );
    // ftou: -0.5 (0xbf000000) is negative (undefined in GLSL ES though it
    // truncates to 0); -0.0 is not below 0; 2^32 (0x4f800000) is out.
    let s = [src(1, [0xbf00_0000, 0x8000_0000, 0x4f80_0000, ONE])];
    assert_eq!(
        kinds("ftou r0.xyzw, r1.xyzw", &s),
        vec![(GapKind::FloatToIntRange, vec![0xbf00_0000, 0x4f80_0000])]
    );
}

#[test]
fn shift_counts_from_the_second_source_only() {
    // The shifted value 40 is no count; counts 33 and -1 (0xffffffff) are out, 31 is in.
    let s = [src(1, [40, 40, 40, 40]), src(2, [33, 31, 0xffff_ffff, 0])];
    assert_eq!(
        kinds("ishl r0.xyz, r1.xyzw, r1.xyzw", &s),
        vec![(GapKind::ShiftCount, vec![33, 0xffff_ffff])]
    );
}

#[test]
fn udiv_by_zero() {
    let s = [src(2, [0, 7, 0, 0]), src(3, [5, 0, 0, 0])];
    // x divides 0 by 5 (fine), y 7 by 0.
    assert_eq!(
        kinds("udiv r0.xy, r1.xy, r1.xyxx, r1.xyxx", &s),
        vec![(GapKind::DivideByZero, vec![0])]
    );
}

#[test]
fn reciprocal_of_either_zero() {
    let s = [src(1, [0, 0x8000_0000, ONE, 0])];
    assert_eq!(
        kinds("rcp r0.xyz, r1.xyzw", &s),
        vec![(GapKind::ReciprocalOfZero, vec![0, 0x8000_0000])]
    );
}

#[test]
fn comparison_with_nan() {
    let s = [src(1, [ONE, ONE, ONE, ONE]), src(2, [ONE, NAN, ONE, ONE])];
    assert_eq!(
        kinds("lt r0.xy, r1.xyzw, r1.xyzw", &s),
        vec![(GapKind::NanComparison, vec![NAN])]
    );
}

#[test]
fn denormals_are_the_raw_value_of_float_arithmetic_only() {
    // 0x00000001 is the smallest denormal; the emulator's read flushes it
    // to 0, so the rule reads the raw value.
    let s = [SourceValue {
        operand: 1,
        raw: [1, ONE, ONE, ONE],
        read: [0, ONE, ONE, ONE],
    }];
    let other = SourceValue { operand: 2, ..s[0] };
    assert_eq!(
        kinds("add r0.x, r1.x, r1.y", &[s[0], other]),
        vec![(GapKind::Denormal, vec![1, 1])]
    );
    // mov is typeless: it flushes nothing, so no gap.
    assert_eq!(kinds("mov r0.x, r1.x", &s), vec![]);
}

/// A one-lane `sample_c` on a 4x4 2D texture in `format` under a linear
/// comparison sampler: `taps` as (source, weight, comparison result).
fn compare_fetch(
    format: crate::vm::texture::Format,
    taps: &[(crate::vm::texture::TapSource, f64, f64)],
) -> crate::vm::LaneFetch {
    use crate::vm::texture::{Dimension, FetchDetail, FetchKind, FetchTap, Sampler, TextureDesc};
    crate::vm::LaneFetch {
        texture: 0,
        desc: Some(TextureDesc {
            dimension: Dimension::Tex2D,
            format,
            width: 4,
            height: 4,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            sample_count: 1,
        }),
        sampler: Some((0, Sampler::default())),
        detail: Some(FetchDetail {
            kind: FetchKind::SampleCompare,
            coord: [0.5f32.to_bits(); 4],
            offset: [0; 3],
            lod: None,
            reference: Some(0.5),
            channel: None,
            taps: taps
                .iter()
                .map(|&(source, w, c)| FetchTap {
                    source,
                    value: [0; 4],
                    weight: Some(w),
                    compared: Some(c),
                })
                .collect(),
            result: [0; 4],
            note: None,
        }),
        value: [0; 4],
    }
}

fn texture_kinds(fetch: &crate::vm::LaneFetch) -> Vec<(GapKind, Vec<String>)> {
    let mut out = Vec::new();
    super::texture::sampler_hits(fetch, &mut out);
    out.into_iter()
        .map(|p| (p.kind, p.values.into_iter().map(|v| v.view).collect()))
        .collect()
}

#[test]
fn comparisons_on_a_non_depth_format_or_disagreeing() {
    use crate::vm::texture::{Format, TapSource};
    let texel = |x| TapSource::Texel {
        layer: 0,
        level: 0,
        xyz: [x, 0, 0],
        in_bounds: true,
    };
    // Two weighted taps that agree, on D32: nothing GL could combine
    // differently. A zero-weight border tap reads nothing.
    let agree = compare_fetch(
        Format::D32Float,
        &[
            (texel(0), 0.5, 1.0),
            (texel(1), 0.5, 1.0),
            (TapSource::Border, 0.0, 0.0),
        ],
    );
    assert_eq!(texture_kinds(&agree), vec![]);
    // One passes, one fails: the combination is the implementation's.
    let disagree = compare_fetch(
        Format::D32Float,
        &[(texel(0), 0.25, 1.0), (texel(1), 0.75, 0.0)],
    );
    assert_eq!(
        texture_kinds(&disagree),
        vec![(
            GapKind::Comparison,
            vec!["2 comparisons of reference 0.500000 (1 passed)".to_string()]
        )]
    );
    // R32_FLOAT: D3D compares it, GLSL ES 3.00 only depth formats; a
    // weighted border tap is the border colour.
    let float = compare_fetch(
        Format::R32Float,
        &[(texel(0), 0.5, 1.0), (TapSource::Border, 0.5, 1.0)],
    );
    assert_eq!(
        texture_kinds(&float),
        vec![
            (
                GapKind::BorderColour,
                vec!["BorderColor (1.000000, 1.000000, 1.000000, 1.000000)".to_string()]
            ),
            (
                GapKind::Comparison,
                vec!["R32_FLOAT (not a depth format)".to_string()]
            ),
        ]
    );
}
