//! Hand-made token streams for operand and declaration forms fxc writes
//! that the listing must carry exactly: 64-bit immediates (one and two
//! doubles), minimum-precision tags on negated and absolute operands, and
//! interpolation modes on system-value pixel inputs. Each stream decodes to
//! what the tokenized program format says, prints as fxc prints it, and
//! `disasm` → `asm` gives back the same tokens.
//!
//! Token values are worked by hand from the format: an operand token holds
//! the component count in bits 0..1, the selection mode in 2..3, the mask or
//! swizzle in 4..11, the register file in 12..19, the index count in 20..21
//! and "extended" in bit 31; an extended operand token of type 1 holds the
//! modifier in bits 6..13 (1 neg, 2 abs, 3 both), the minimum precision in
//! 14..16 (1 min16f, 2 min2_8f, 4 min16i, 5 min16u) and `nonuniform` in 17.

use dxbc_dbg::dxbc::asm::{self, EXACT_PREFIX, lossy_immediates};
use dxbc_dbg::dxbc::decode::decode_program;
use dxbc_dbg::dxbc::disasm::{self, Style};
use dxbc_dbg::dxbc::encode::encode_program;
use dxbc_dbg::dxbc::ir::*;

/// `ps_5_0`'s version token.
const PS_5_0: u32 = 0x0000_0050;
/// `r0.xyzw` as a destination: temp file, four components, mask 0xf, one
/// immediate index.
const R0_XYZW: u32 = 0x0010_00f2;
/// `r0.xy` as a destination (mask 0x3).
const R0_XY: u32 = 0x0010_0032;
/// `ret`, to show the decoder stops where the instruction ends.
const RET: u32 = 0x0100_003e;

fn program(body: &[u32]) -> Vec<u32> {
    let mut words = vec![PS_5_0, body.len() as u32 + 2];
    words.extend_from_slice(body);
    words
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn decode(words: &[u32]) -> Program {
    decode_program(&bytes(words), 0, true).unwrap_or_else(|e| panic!("decodes: {e}"))
}

fn modern() -> Style {
    Style::default()
}

fn before_47() -> Style {
    Style {
        sgv_interpolation: false,
        ..Style::default()
    }
}

/// The program's listing in `style` (with the exact-bits lines `disasm`
/// adds), assembled again: the tokens must be the original ones. Returns
/// the instruction lines.
fn round_trip(words: &[u32], style: Style) -> Vec<String> {
    let p = decode(words);
    let lines = disasm::program_lines(&p, style);
    let mut text = lines.join("\n");
    for (i, o, lane, bits) in lossy_immediates(&p, style) {
        text.push_str(&format!("\n{EXACT_PREFIX}{i}.{o}.{lane} 0x{bits:08x}"));
    }
    let a = asm::parse(&text).unwrap_or_else(|e| panic!("assembles:\n{text}\n{e}"));
    assert_eq!(
        encode_program(&a.program),
        words,
        "tokens differ for\n{text}"
    );
    lines[1..].to_vec()
}

// 1.0 is 0x3ff0_0000_0000_0000, 2.0 0x4000_0000_0000_0000 and -0.5
// 0xbfe0_0000_0000_0000; the low dword comes first.

#[test]
fn two_doubles_fill_four_dwords() {
    // dmov (199) r0.xyzw, d(1.0, 2.0): opcode + r0 (2) + 0x00005002 (a
    // 64-bit immediate, four components) + 4 dwords = 8.
    let words = program(&[
        0x0800_00c7,
        R0_XYZW,
        0,
        0x0000_5002,
        0,
        0x3ff0_0000,
        0,
        0x4000_0000,
        RET,
    ]);
    let p = decode(&words);
    assert_eq!(p.instructions.len(), 2, "the immediate is four dwords");
    let imm = &p.instructions[0].operands[1];
    assert_eq!(imm.ty, OperandType::IMMEDIATE64);
    assert_eq!(imm.components, Components::Four);
    assert_eq!(&imm.imm[..], &[0, 0x3ff0_0000, 0, 0x4000_0000]);
    assert_eq!(imm.doubles().unwrap().as_slice(), &[1.0, 2.0]);
    assert_eq!(p.instructions[1].op, dxbc_dbg::dxbc::opcodes::Op::Ret);
    assert_eq!(
        round_trip(&words, modern()),
        ["dmov r0.xyzw, d(1.000000l, 2.000000l)", "ret"]
    );
}

#[test]
fn one_double_fills_two_dwords() {
    // dmov r0.xy, d(-0.5): 0x00005001 is a one-component 64-bit immediate.
    let words = program(&[0x0600_00c7, R0_XY, 0, 0x0000_5001, 0, 0xbfe0_0000, RET]);
    let p = decode(&words);
    assert_eq!(p.instructions.len(), 2);
    let imm = &p.instructions[0].operands[1];
    assert_eq!(imm.components, Components::One);
    assert_eq!(&imm.imm[..], &[0, 0xbfe0_0000]);
    assert_eq!(imm.doubles().unwrap().as_slice(), &[-0.5]);
    assert_eq!(
        round_trip(&words, before_47()),
        ["dmov r0.xy, d(-0.500000l)", "ret"]
    );
}

#[test]
fn a_double_cut_short_names_its_offset() {
    // The instruction says six dwords, but its four-component immediate
    // needs four after the operand token at dword 5: two remain, from byte
    // 24 (dword 6).
    let words = program(&[0x0600_00c7, R0_XYZW, 0, 0x0000_5002, 0, 0x3ff0_0000]);
    let e = decode_program(&bytes(&words), 0, true).unwrap_err();
    assert_eq!(e.offset(), 24);
    assert_eq!(
        e.to_string(),
        "byte offset 24: truncated 64-bit immediate (two doubles): need 16 bytes, 8 remain"
    );
    // A one-double immediate with one dword left.
    let words = program(&[0x0500_00c7, R0_XY, 0, 0x0000_5001, 0]);
    let e = decode_program(&bytes(&words), 0, true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "byte offset 24: truncated 64-bit immediate (one double): need 8 bytes, 4 remain"
    );
    // An N-component selection (mode 3, here 2 components) is no 64-bit
    // immediate's shape; refused at the operand token, dword 5.
    let words = program(&[0x0800_00c7, R0_XYZW, 0, 0x0000_5023, 0, 0, 0, 0]);
    let e = decode_program(&bytes(&words), 0, true).unwrap_err();
    assert_eq!(e.offset(), 20);
}

#[test]
fn doubles_text_cannot_hold_is_pinned() {
    // 1 + 2^-40 is 0x3ff0_0000_0000_1000: `%f` prints 1.000000, which reads
    // back as 1.0, so the low dword (lane 0) is pinned. A signalling NaN
    // 0x7ff0_0000_0000_0001 prints `nan` and reads back as the quiet NaN
    // 0x7ff8_0000_0000_0000: both halves (lanes 2 and 3) are pinned.
    let words = program(&[
        0x0800_00c7,
        R0_XYZW,
        0,
        0x0000_5002,
        0x0000_1000,
        0x3ff0_0000,
        0x0000_0001,
        0x7ff0_0000,
    ]);
    let p = decode(&words);
    assert_eq!(
        lossy_immediates(&p, modern()),
        [(0, 1, 0, 0x0000_1000), (0, 1, 2, 1), (0, 1, 3, 0x7ff0_0000)]
    );
    assert_eq!(
        round_trip(&words, modern()),
        ["dmov r0.xyzw, d(1.000000l, nanl)"]
    );
}

/// `mov r0.xyzw, <op>` where `<op>` is r2.xyzw (swizzle mode, 0xe4) with
/// an extended operand token.
fn mov_from_r2(ext: u32) -> Vec<u32> {
    program(&[0x0600_0036, R0_XYZW, 0, 0x8010_0e46, ext, 2])
}

#[test]
fn precision_tags_inside_modifiers_round_trip() {
    // (extended operand token, how fxc prints the operand).
    let cases = [
        (0x0000_4041, "-r2.xyzw {min16f}"),
        (0x0000_4081, "|r2.xyzw {min16f}|"),
        (0x0000_40c1, "-|r2.xyzw {min16f}|"),
        (0x0000_8041, "-r2.xyzw {min2_8f}"),
        (0x0000_8081, "|r2.xyzw {min2_8f}|"),
        (0x0000_80c1, "-|r2.xyzw {min2_8f}|"),
        (0x0001_0041, "-r2.xyzw {min16i}"),
        (0x0001_0081, "|r2.xyzw {min16i}|"),
        (0x0001_00c1, "-|r2.xyzw {min16i}|"),
        (0x0001_4041, "-r2.xyzw {min16u}"),
        (0x0001_4081, "|r2.xyzw {min16u}|"),
        (0x0001_40c1, "-|r2.xyzw {min16u}|"),
        (0x0002_0041, "-r2.xyzw {nonuniform}"),
        (0x0002_00c1, "-|r2.xyzw {nonuniform}|"),
        (0x0003_4081, "|r2.xyzw {min16u} {nonuniform}|"),
        (0x0000_4001, "r2.xyzw {min16f}"),
    ];
    for (ext, text) in cases {
        let words = mov_from_r2(ext);
        assert_eq!(
            round_trip(&words, modern()),
            [format!("mov r0.xyzw, {text}")],
            "extended token {ext:#x}"
        );
    }
}

#[test]
fn a_tagged_destination_and_sources_round_trip() {
    // mad r2.xyzw {min16f}, |r2.xyzw {min16f}|, l(-4.0) {min16f},
    // -cb0[1].x {min16f}: a tagged destination (mask, 0x4001), an absolute
    // source (0x4081), a tagged one-lane immediate and a negated constant.
    let words = program(&[
        0x0e00_0032,
        0x8010_00f2,
        0x0000_4001,
        2,
        0x8010_0e46,
        0x0000_4081,
        2,
        0x8000_4001,
        0x0000_4001,
        0xc080_0000,
        0x8020_800a,
        0x0000_4041,
        0,
        1,
    ]);
    assert_eq!(
        round_trip(&words, modern()),
        ["mad r2.xyzw {min16f}, |r2.xyzw {min16f}|, l(-4.000000) {min16f}, -cb0[1].x {min16f}"]
    );
}

/// `dcl_input_ps_sgv MODE v0.x, is_front_face`: opcode 99 with the mode in
/// bits 11..14, v0.x as a declaration (mask 0x1) and system value 9.
fn sgv(mode: u32) -> Vec<u32> {
    program(&[0x0400_0063 | mode << 11, 0x0010_1012, 0, 9])
}

#[test]
fn sgv_interpolation_prints_as_each_release_did() {
    // d3dcompiler_47 prints the mode; earlier releases leave `constant`
    // (what fxc encodes) out. Any other mode must print in both, since a
    // bare line reads as constant.
    let expect = [
        (
            0,
            "dcl_input_ps_sgv undefined v0.x, is_front_face",
            "dcl_input_ps_sgv undefined v0.x, is_front_face",
        ),
        (
            1,
            "dcl_input_ps_sgv constant v0.x, is_front_face",
            "dcl_input_ps_sgv v0.x, is_front_face",
        ),
        (
            2,
            "dcl_input_ps_sgv linear v0.x, is_front_face",
            "dcl_input_ps_sgv linear v0.x, is_front_face",
        ),
        (
            5,
            "dcl_input_ps_sgv linear noperspective centroid v0.x, is_front_face",
            "dcl_input_ps_sgv linear noperspective centroid v0.x, is_front_face",
        ),
        (
            7,
            "dcl_input_ps_sgv linear noperspective sample v0.x, is_front_face",
            "dcl_input_ps_sgv linear noperspective sample v0.x, is_front_face",
        ),
        (
            9,
            "dcl_input_ps_sgv interpolation_9 v0.x, is_front_face",
            "dcl_input_ps_sgv interpolation_9 v0.x, is_front_face",
        ),
    ];
    for (mode, now, before) in expect {
        let words = sgv(mode);
        assert_eq!(round_trip(&words, modern()), [now], "mode {mode}");
        assert_eq!(round_trip(&words, before_47()), [before], "mode {mode}");
    }
}

#[test]
fn siv_interpolation_round_trips() {
    // dcl_input_ps_siv (100) v0.xy (mask 0x3), position (1).
    let siv = |mode: u32| program(&[0x0400_0064 | mode << 11, 0x0010_1032, 0, 1]);
    assert_eq!(
        round_trip(&siv(4), before_47()),
        ["dcl_input_ps_siv linear noperspective v0.xy, position"]
    );
    assert_eq!(
        round_trip(&siv(1), modern()),
        ["dcl_input_ps_siv constant v0.xy, position"]
    );
    assert_eq!(
        round_trip(&siv(0), modern()),
        ["dcl_input_ps_siv v0.xy, position"]
    );
}

#[test]
fn the_assembler_keeps_the_sgv_dialect_it_read() {
    // Without RDEF the style is d3dcompiler_47's; a listing that leaves
    // `constant` out records that it did.
    let with = asm::parse("ps_5_0\ndcl_input_ps_sgv constant v0.x, is_front_face\nret").unwrap();
    assert_eq!(with.style, None);
    let without = asm::parse("ps_5_0\ndcl_input_ps_sgv v0.x, is_front_face\nret").unwrap();
    assert_eq!(without.style.map(|s| s.sgv_interpolation), Some(false));
    assert_eq!(
        encode_program(&with.program),
        encode_program(&without.program)
    );
    let bytes = asm::assemble("ps_5_0\ndcl_input_ps_sgv v0.x, is_front_face\nret").unwrap();
    let shader =
        dxbc_dbg::dxbc::Shader::parse(&bytes, dxbc_dbg::dxbc::ParseOptions::default()).unwrap();
    assert_eq!(
        shader.program_lines()[1],
        "dcl_input_ps_sgv v0.x, is_front_face"
    );
}

#[test]
fn n_component_immediates_hold_at_most_four_values() {
    // mov r0.xyzw, l(1, 2, 3) written in the N-component form fxc never
    // uses: 0x00004033 is register file 4 (IMMEDIATE32), component bits 3
    // (N) and n = 3 in bits 4..11. Opcode 0x36 (mov), length 1 + 2 (r0
    // token and index) + 1 + 3 = 7 dwords.
    let words = program(&[0x0700_0036, R0_XYZW, 0, 0x0000_4033, 1, 2, 3, RET]);
    let p = decode(&words);
    let imm = &p.instructions[0].operands[1];
    assert_eq!(imm.components, Components::N(3));
    assert_eq!(&imm.imm[..], &[1, 2, 3]);
    // n = 5 (0x00004053, length 9): five values are no register's value,
    // so the decoder reports the operand instead of keeping them.
    let words = program(&[0x0900_0036, R0_XYZW, 0, 0x0000_4053, 1, 2, 3, 4, 5, RET]);
    let e = decode_program(&bytes(&words), 0, true).unwrap_err();
    assert!(e.to_string().contains("at most four values, not 5"), "{e}");
}
