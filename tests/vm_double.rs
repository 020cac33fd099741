//! The emulator's double-precision instructions against bit patterns worked
//! out by hand from IEEE 754 binary64 and the D3D11 rules for doubles:
//! a double is two 32-bit components, low word first (`.xy`, `.zw`).
//!
//! binary64 reminders used below: sign bit 63, exponent bits 62..52 biased
//! by 1023, 52 fraction bits. The high word holds sign, exponent and the top
//! 20 fraction bits; the low word the other 32 fraction bits.

mod common;

use dxbc_dbg::vm::{Loc, Machine, VmError};

fn machine(body: &str, v0: [u32; 4]) -> Result<Machine, VmError> {
    common::quad::run(body, [v0; 4])
}

/// Runs `body` with `v0` in every lane; o0 and o1 of lane 0.
fn run(body: &str, v0: [u32; 4]) -> ([u32; 4], [u32; 4]) {
    let m = machine(body, v0).expect("runs");
    let out = |r| *m.state.lanes[0].get(Loc::Output(r)).expect("output");
    (out(0), out(1))
}

// 1.0 = 0x3FF00000_00000000 (exponent 1023, fraction 0).
const ONE_HI: u32 = 0x3ff0_0000;

#[test]
fn dadd_keeps_what_a_float_would_lose_and_pairs_follow_the_mask() {
    // 2^-40: exponent 1023 - 40 = 983 = 0x3D7 → 0x3D700000_00000000.
    // 1 + 2^-40: fraction bit 52 - 40 = 12 → low word 0x00001000.
    let v0 = [0, ONE_HI, 0, 0x3d70_0000];
    let (o0, _) = run(
        "dadd o0.xy, v0.xyxy, v0.zwzw\ndadd o0.zw, v0.xyxy, v0.zwzw",
        v0,
    );
    assert_eq!(o0, [0x1000, ONE_HI, 0x1000, ONE_HI]);
}

#[test]
fn dtof_rounds_to_nearest_even_into_the_masks_components_in_order() {
    // 1 + 2^-24 (fraction bit 28: low word 0x10000000) lies halfway between
    // the floats 1.0 and 1 + 2^-23: the even one is 1.0 = 0x3F800000.
    // 1 + 3·2^-24 (bits 29 and 28: 0x30000000) lies halfway between
    // 1 + 2^-23 and 1 + 2^-22: the even one is 1 + 2^-22 = 0x3F800002.
    let v0 = [0x1000_0000, ONE_HI, 0x3000_0000, ONE_HI];
    // `.yw`: the first double's result to .y, the second's to .w.
    let (o0, o1) = run(
        "mov o0.xyzw, l(7, 7, 7, 7)\ndtof o0.yw, v0.xyzw\ndtof o1.x, v0.zwxy",
        v0,
    );
    assert_eq!(o0, [7, 0x3f80_0000, 7, 0x3f80_0002]);
    assert_eq!(o1[0], 0x3f80_0002);
}

#[test]
fn dtoi_and_dtou_truncate_and_saturate() {
    // -2.75 = -1.375·2^1: exponent 1024 = 0x400, fraction .011b → 0xC0060000_00000000.
    // 3e9 = 0x41E65A0B_C0000000 (exponent 31; fraction (3e9 - 2^31)·2^21).
    let v0 = [0, 0xc006_0000, 0xc000_0000, 0x41e6_5a0b];
    let (o0, o1) = run("dtoi o0.xy, v0.xyzw\ndtou o1.xy, v0.xyzw", v0);
    // dtoi: -2.75 → -2 (toward zero); 3e9 > 2^31 - 1 → 0x7FFFFFFF.
    assert_eq!(&o0[..2], &[(-2i32) as u32, 0x7fff_ffff]);
    // dtou: negative → 0; 3e9 = 0xB2D05E00 fits.
    assert_eq!(&o1[..2], &[0, 0xb2d0_5e00]);
}

#[test]
fn itod_and_utod_are_exact_where_float_is_not() {
    // 2^24 + 1 = 16777217: exponent 24 → 0x417, fraction 2^28 → 0x41700000_10000000.
    // 2^32 - 1: exponent 31 → 0x41E, fraction (2^31 - 1)·2^21 → 0x41EFFFFF_FFE00000.
    let v0 = [16_777_217, 0xffff_ffff, u32::MAX, 0];
    let (o0, o1) = run("itod o0.xyzw, v0.xzxx\nutod o1.zw, v0.xyxx", v0);
    // itod: .x → 16777217 into .xy, .z (-1 as int) → -1.0 into .zw.
    assert_eq!(o0, [0x1000_0000, 0x4170_0000, 0, 0xbff0_0000]);
    // A `.zw` destination takes the second converted value, post-swizzle .y.
    assert_eq!(&o1[2..], &[0xffe0_0000, 0x41ef_ffff]);
}

#[test]
fn dfma_is_fused() {
    // (1 + 2^-30)(1 - 2^-30) = 1 - 2^-60 exactly; fused, adding -1 leaves
    // -2^-60 = 0xBC300000_00000000 (exponent 1023 - 60 = 963 = 0x3C3).
    // Rounded first, the product would be 1.0 and the result 0.
    // 1 + 2^-30 = 0x3FF00000_00400000; 1 - 2^-30 = 0x3FEFFFFF_FF800000.
    let v0 = [0x0040_0000, ONE_HI, 0xff80_0000, 0x3fef_ffff];
    let (o0, o1) = run(
        "dmov r0.xy, v0.xyxy\ndmov r0.zw, v0.zwzw\nitod r1.xy, l(-1, 0, 0, 0)\n\
         dfma o0.xy, r0.xyxy, r0.zwzw, r1.xyxy\n\
         dmul r2.xy, r0.xyxy, r0.zwzw\ndadd o1.xy, r2.xyxy, r1.xyxy",
        v0,
    );
    assert_eq!(&o0[..2], &[0, 0xbc30_0000]);
    assert_eq!(&o1[..2], &[0, 0]);
}

#[test]
fn ddiv_and_drcp_round_to_nearest() {
    // 1/3 = 0x3FD55555_55555555 (0.0101…b, the last fraction bit rounded
    // down since the next bits are 0101…); 2/3 = 0x3FE55555_55555555.
    let (o0, _) = run(
        "itod r0.xyzw, l(1, 3, 0, 0)\nitod r1.xy, l(2, 0, 0, 0)\n\
         ddiv o0.xy, r0.xyxy, r0.zwzw\ndrcp r2.xy, r0.zwzw\ndmul o0.zw, r1.xyxy, r2.xyxy",
        [0; 4],
    );
    // 2·(1/3) is exact (an exponent step), so equals 2/3 rounded.
    assert_eq!(o0, [0x5555_5555, 0x3fd5_5555, 0x5555_5555, 0x3fe5_5555]);
}

#[test]
fn min_max_take_the_number_over_nan_and_comparisons_are_false_on_nan() {
    // A quiet NaN: 0x7FF80000_00000000; 2.0 = 0x40000000_00000000.
    let v0 = [0, 0x7ff8_0000, 0, 0x4000_0000];
    let (o0, o1) = run(
        "dmin o0.xy, v0.xyxy, v0.zwzw\ndmax o0.zw, v0.zwzw, v0.xyxy\n\
         deq o1.x, v0.xyxy, v0.xyxy\ndne o1.y, v0.xyxy, v0.xyxy\n\
         dlt o1.z, v0.zwzw, v0.xyxy\ndge o1.w, v0.zwzw, v0.zwzw",
        v0,
    );
    assert_eq!(o0, [0, 0x4000_0000, 0, 0x4000_0000]);
    assert_eq!(o1, [0, u32::MAX, 0, u32::MAX]);
}

#[test]
fn comparisons_write_one_component_per_double() {
    // itod 1, 2 into r0 (.xy = 1.0, .zw = 2.0), 2, 1 into r1.
    let (o0, _) = run(
        "itod r0.xyzw, l(1, 2, 0, 0)\nitod r1.xyzw, l(2, 1, 0, 0)\n\
         mov o0.xyzw, l(7, 7, 7, 7)\ndlt o0.xz, r0.xyzw, r1.xyzw",
        [0; 4],
    );
    // 1 < 2 → first component (.x) all ones; 2 < 1 → .z zero; .yw untouched.
    assert_eq!(o0, [u32::MAX, 7, 0, 7]);
}

#[test]
fn modifiers_touch_only_the_high_words_sign_and_moves_keep_bits() {
    // 2^-1074, the smallest denormal (low word 1): D3D11 keeps double
    // denormals, and a move keeps every bit anyway.
    let v0 = [1, 0, 0x9999_999a, 0x3fb9_9999];
    let (o0, o1) = run(
        "dmov o0.xy, -v0.zwzw\ndmov o0.zw, |v0.zwzw|\ndadd o1.xy, v0.xyxy, v0.xyxy\n\
         dmovc o1.zw, l(0, 0, 0, 0), v0.xyxy, v0.zwzw",
        v0,
    );
    // -0.1: only bit 31 of the high word flips.
    assert_eq!(o0, [0x9999_999a, 0xbfb9_9999, 0x9999_999a, 0x3fb9_9999]);
    // 2^-1074 + 2^-1074 = 2^-1073: low word 2, not flushed to 0.
    // dmovc with a zero condition (its post-swizzle .y for `.zw`) takes src2.
    assert_eq!(o1, [2, 0, 0x9999_999a, 0x3fb9_9999]);
}

#[test]
fn saturate_clamps_the_double_not_its_words() {
    // 2.0 saturates to 1.0 = 0x3FF00000_00000000; -1.0 to 0.
    let (o0, _) = run(
        "itod r0.xyzw, l(2, -1, 0, 0)\ndmov_sat o0.xyzw, r0.xyzw",
        [0; 4],
    );
    assert_eq!(o0, [0, ONE_HI, 0, 0]);
}

#[test]
fn a_mask_the_instruction_cannot_take_stops_the_machine() {
    let e = machine("dadd o0.x, v0.xyxy, v0.xyxy", [0; 4]).err();
    assert!(
        matches!(&e, Some(VmError::Malformed { message, .. }) if message.contains("`.x`")),
        "{e:?}"
    );
    let e = machine("dtof o0.xyz, v0.xyzw", [0; 4]).err();
    assert!(matches!(e, Some(VmError::Malformed { .. })), "{e:?}");
}
