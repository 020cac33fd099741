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
