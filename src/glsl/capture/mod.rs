//! Register capture: an instrumented translation that, for one pixel,
//! records every executed DXBC instruction and the registers it wrote, so
//! `harness::bisect` can lay the GPU's register values beside the
//! emulator's, step by step. Where the records go is the dialect's:
//! `vk450` appends them to a storage buffer, `es300` (no storage in GLSL ES
//! 3.00) keeps a window of them per draw and writes it to integer render
//! targets (docs/glsl.md, "Register capture"). Both give the harness the
//! same words: a header of [`HEADER_WORDS`] (record count, overflow flag)
//! and then records of [`RECORD_WORDS`] words each:
//! `[instruction index, register file code, register, element, x, y, z, w]`,
//! the register's four components as exact bits after the instruction
//! ([`CaptureFile`] says which register file; `element` is the array
//! element of an indexable temp). The pixel's input registers come first,
//! once, with the index [`ENTRY`]. An instruction with no register
//! destination (flow, stores, `nop`) gives one record with
//! [`CaptureFile::None`]; one with two destinations gives two.
//!
//! This module writes what the dialects share: the record sites (`dxbc_cap`
//! calls) and the pixel test. Which instructions are recorded is
//! `Op::is_path_step`, the rule the emulator's side uses too; flow
//! instructions record before they act (so `ret` and `discard` are seen),
//! the rest after. Only the chosen pixel's invocation records:
//! `dxbc_capture_on` compares D3D's window position, built as
//! `hlslcc_FragCoord` builds it. Helper invocations write neither storage
//! nor outputs, so the pixel's helper runs in a neighbouring triangle's
//! quad record nothing. The instrumentation only reads registers: what the
//! shader computes is unchanged.

use super::Dialect;
use super::emit::Emitter;
use super::writer::Section;
use crate::dxbc::ir::{Instruction, Operand, OperandType};

mod es300;
mod vk450;

pub use es300::{ES300_CAPACITY, es300_outputs, es300_records_per_draw};

/// The pixel whose invocation records, in D3D window coordinates (the
/// render target's pixel, rows from the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CapturePixel {
    pub x: u32,
    pub y: u32,
}

/// Words before the first record.
pub const HEADER_WORDS: usize = 4;
/// Words per record.
pub const RECORD_WORDS: usize = 8;
// The text stores the header as one uvec4 and a record as two.
const _: () = assert!(HEADER_WORDS == 4 && RECORD_WORDS == 8);

/// Records the buffer holds (2 MiB of records): a long loop overflows it,
/// which the header says.
pub const CAPACITY: u32 = 1 << 16;
/// The instruction index of the input records written at entry.
pub const ENTRY: u32 = u32::MAX;
/// The GLSL name of the capture block's instance.
pub const BUFFER_NAME: &str = "dxbc_capture";

/// Which register a record holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureFile {
    /// No register: the record only marks the instruction as executed.
    None,
    Temp,
    Indexable,
    Output,
    Depth,
    Coverage,
    Input,
}

impl CaptureFile {
    const ALL: [CaptureFile; 7] = [
        CaptureFile::None,
        CaptureFile::Temp,
        CaptureFile::Indexable,
        CaptureFile::Output,
        CaptureFile::Depth,
        CaptureFile::Coverage,
        CaptureFile::Input,
    ];

    /// The word a record stores for it.
    pub fn word(self) -> u32 {
        Self::ALL.iter().position(|f| *f == self).unwrap_or(0) as u32
    }

    pub fn from_word(code: u32) -> Option<CaptureFile> {
        Self::ALL.get(code as usize).copied()
    }
}

/// Whether a destination in register file `ty` gets a record of its own
/// (the others, `null` among them, get none). The stencil reference
/// (`SV_StencilRef`) has none: the translation refuses a shader that
/// writes it, so no capture ever runs one.
pub fn captures(ty: OperandType) -> bool {
    ty.is_lane_register() && ty != OperandType::OUTPUT_STENCIL_REF
}

/// The destinations of `inst` that get a record, in operand order: a
/// reader groups an execution's records by this (an instruction run
/// twice in a row gives twice as many).
pub fn recorded_destinations(inst: &Instruction) -> Vec<&Operand> {
    if inst.info().class == crate::dxbc::opcodes::Class::Flow {
        return Vec::new();
    }
    let dsts = inst.info().dst as usize;
    inst.operands
        .iter()
        .take(dsts)
        .filter(|o| captures(o.ty))
        .collect()
}

/// The buffer's size in bytes.
pub fn buffer_bytes() -> u64 {
    ((HEADER_WORDS + RECORD_WORDS * CAPACITY as usize) * 4) as u64
}

/// Whether this translation records: a capture pixel asked for, in a
/// pixel shader (a case's vertex shader, translated with the same
/// options, records nothing).
pub(super) fn active(e: &Emitter) -> bool {
    e.options.capture.is_some() && e.stage == crate::dxbc::ir::ProgramType::Pixel
}

/// The record of a flow instruction, written before it acts.
pub(super) fn flow(e: &mut Emitter, inst: &Instruction) {
    if active(e) && inst.op.is_path_step() {
        let i = e.cur.unwrap_or(0);
        e.line(format_args!("dxbc_cap({i}u, 0u, 0u, 0u, uvec4(0u));"));
    }
}

/// The records of any other instruction, written after it: one per
/// register destination, or one marking it executed.
pub(super) fn after(e: &mut Emitter, inst: &Instruction) {
    if !active(e) || !inst.op.is_path_step() {
        return;
    }
    let i = e.cur.unwrap_or(0);
    let mut any = false;
    for op in recorded_destinations(inst) {
        if let Some((file, reg, element, bits)) = register(e, inst, op) {
            e.line(format_args!(
                "dxbc_cap({i}u, {}u, {reg}, {element}, {bits});",
                file.word()
            ));
            any = true;
        }
    }
    if !any {
        e.line(format_args!("dxbc_cap({i}u, 0u, 0u, 0u, uvec4(0u));"));
    }
}

/// A destination's register file, number and element (GLSL `uint`
/// expressions) and its value as `uvec4` bits.
fn register(
    e: &mut Emitter,
    inst: &Instruction,
    op: &Operand,
) -> Option<(CaptureFile, String, String, String)> {
    let uint = |s: String| format!("uint({s})");
    let pad = |expr: String, width: usize| match width {
        1 => format!("uvec4(floatBitsToUint({expr}), 0u, 0u, 0u)"),
        2 => format!("uvec4(floatBitsToUint({expr}), 0u, 0u)"),
        3 => format!("uvec4(floatBitsToUint({expr}), 0u)"),
        _ => format!("floatBitsToUint({expr})"),
    };
    match op.ty {
        OperandType::TEMP => {
            let base = e.base(inst, op)?;
            let reg = format!("{}u", op.reg().unwrap_or(0));
            Some((CaptureFile::Temp, reg, "0u".into(), pad(base.expr, 4)))
        }
        OperandType::OUTPUT => {
            let base = e.base(inst, op)?;
            let reg = match op.indices.first() {
                Some(crate::dxbc::ir::Index::Imm32(r)) => format!("{r}u"),
                Some(i) => {
                    let i = i.clone();
                    uint(e.index_expr(inst, &i))
                }
                None => "0u".into(),
            };
            Some((CaptureFile::Output, reg, "0u".into(), pad(base.expr, 4)))
        }
        OperandType::INDEXABLE_TEMP => {
            let base = e.base(inst, op)?;
            let element = match op.indices.get(1) {
                Some(i) => {
                    let i = i.clone();
                    uint(e.index_expr(inst, &i))
                }
                None => "0u".into(),
            };
            let reg = format!("{}u", op.reg().unwrap_or(0));
            Some((
                CaptureFile::Indexable,
                reg,
                element,
                pad(base.expr, base.width),
            ))
        }
        OperandType::OUTPUT_DEPTH
        | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
        | OperandType::OUTPUT_DEPTH_LESS_EQUAL => {
            let base = e.base(inst, op)?;
            Some((
                CaptureFile::Depth,
                "0u".into(),
                "0u".into(),
                pad(base.expr, 1),
            ))
        }
        OperandType::OUTPUT_COVERAGE_MASK => {
            let base = e.base(inst, op)?;
            Some((
                CaptureFile::Coverage,
                "0u".into(),
                "0u".into(),
                format!("uvec4({}, 0u, 0u, 0u)", base.expr),
            ))
        }
        _ => None,
    }
}

/// The declarations and `dxbc_cap`, before the functions that call it;
/// and the manifest's entry for the harness.
pub(super) fn declare(e: &mut Emitter, out: &mut Section) {
    if !active(e) {
        return;
    }
    match e.dialect {
        Dialect::Vk450 => vk450::declare(e, out),
        Dialect::Es300 => es300::declare(e, out),
    }
}

/// In `main()`, after the input copies: the pixel test, then the input
/// registers' records.
pub(super) fn entry(e: &Emitter, main: &mut Section) {
    let Some(p) = e.options.capture.filter(|_| active(e)) else {
        return;
    };
    // D3D's window position of the invocation, as `hlslcc_FragCoord`
    // gives it: Vulkan's window y counts rows from the top already; in
    // es300 `hlslcc_YFlip` says which way GL's runs (docs/glsl.md).
    let at = match e.dialect {
        Dialect::Vk450 => "uvec2(gl_FragCoord.xy)".to_string(),
        Dialect::Es300 => {
            "uvec2(gl_FragCoord.x, hlslcc_YFlip.y - hlslcc_YFlip.x * gl_FragCoord.y)".to_string()
        }
    };
    main.line(
        None,
        format!(
            "dxbc_capture_on = all(equal({at}, uvec2({}u, {}u)));",
            p.x, p.y
        ),
    );
    let input = CaptureFile::Input.word();
    for r in e.input_regs.iter() {
        let v = e.input_name(r);
        main.line(
            None,
            format!("dxbc_cap({ENTRY}u, {input}u, {r}u, 0u, floatBitsToUint({v}));"),
        );
    }
}

/// At the end of `main()`, the one exit of an es300 capture (its
/// `discard` is left out, see [`es300`]): the kept records copied to the
/// capture outputs.
pub(super) fn exit(e: &Emitter, main: &mut Section) {
    if active(e) && e.dialect == Dialect::Es300 {
        es300::exit(e, main);
    }
}

/// What a `discard` becomes: itself, or in an es300 capture nothing (the
/// record before it says it ran), so the lane runs on as D3D's does and
/// the capture outputs are written.
pub(super) fn discard_statement(e: &Emitter) -> &'static str {
    if active(e) && e.dialect == Dialect::Es300 {
        "/* discard: left out by the register capture */"
    } else {
        "discard;"
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CapturePixel, Dialect, Options, Reason, translate};

    // 0 dcl_input_ps, 1 dcl_output, 2 dcl_temps, 3 add, 4 if_nz, 5 mov,
    // 6 endif, 7 ret.
    const SHADER: &str = "ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
        add r0.xy, v0.xyxx, v0.yxyy\nif_nz r0.x\nmov o0.xyzw, r0.xyxy\nendif\nret\n";

    fn options(dialect: Dialect) -> Options {
        Options {
            capture: Some(CapturePixel { x: 3, y: 5 }),
            ..Options::new(dialect)
        }
    }

    #[test]
    fn es300_refuses_a_capture_without_room_for_a_record() {
        let shader = crate::dxbc::asm::test_shader(SHADER);
        let options = Options {
            capture_outputs: 2,
            ..options(Dialect::Es300)
        };
        let r = translate(&shader, &options).expect_err("a header and no record");
        assert_eq!(r.reasons(), vec![Reason::Capture]);
    }

    /// The `dxbc_cap(...)` lines of a text, trimmed.
    fn records(s: &str) -> Vec<&str> {
        s.lines()
            .map(str::trim)
            .filter(|l| l.starts_with("dxbc_cap("))
            .collect()
    }

    #[test]
    fn es300_keeps_a_window_of_records_in_its_outputs() {
        // 0 dcl_input_ps, 1 dcl_output, 2 dcl_temps, 3 add, 4 discard_nz,
        // 5 mov, 6 ret.
        let shader = crate::dxbc::asm::test_shader(
            "ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
             add r0.xy, v0.xyxx, v0.yxyy\ndiscard_nz r0.x\nmov o0.xyzw, r0.xyxy\nret\n",
        );
        let options = Options {
            capture_outputs: 8,
            ..options(Dialect::Es300)
        };
        let t = translate(&shader, &options).expect("translates");
        let s = &t.source;
        // Eight draw buffers: the header and three records (seven
        // outputs); the case's target is a private global.
        assert!(
            s.contains("layout(location = 6) out highp uvec4 dxbc_capture6;"),
            "{s}"
        );
        assert!(!s.contains("location = 7"), "{s}");
        assert!(s.contains("\nvec4 SV_Target0; "), "{s}");
        assert!(!s.contains("out vec4 SV_Target0"), "{s}");
        assert!(s.contains("uniform highp uint dxbc_capture_first;"));
        // The window: record n kept in slot n - first, its two outputs.
        assert!(s.contains("uint k = n - dxbc_capture_first;"), "{s}");
        assert!(s.contains("} else if (k == 2u) {\n        dxbc_capture5 = uvec4(index, file, reg, element);\n        dxbc_capture6 = bits;"), "{s}");
        // D3D's row as hlslcc_FragCoord gives it (the y-flip uniform is
        // declared for it).
        assert!(s.contains(
            "dxbc_capture_on = all(equal(uvec2(gl_FragCoord.x, hlslcc_YFlip.y - hlslcc_YFlip.x * gl_FragCoord.y), uvec2(3u, 5u)));"
        ));
        assert!(s.contains("uniform highp vec2 hlslcc_YFlip;"));
        // The discard is recorded and left out; the header is the last
        // statement of main().
        assert!(s.contains("dxbc_cap(4u, 0u, 0u, 0u, uvec4(0u));"));
        assert!(!s.contains("discard;"), "{s}");
        assert!(s.trim_end().ends_with(
            "dxbc_capture0 = uvec4(dxbc_capture_count, dxbc_capture_overflow, dxbc_capture_first, 3u);\n}"
        ), "{s}");
        let m = t.manifest.capture_outputs.as_ref().expect("manifest entry");
        assert_eq!((m.outputs, m.records_per_draw), (7, 3));
        assert!(t.manifest.capture.is_none());
        // The record sites are those of vk450, one text for both.
        let vk = translate(&shader, &options_for(Dialect::Vk450)).expect("translates");
        assert_eq!(records(s), records(&vk.source));
        // Four draw buffers (WebGL2's least) keep one record a draw.
        let four = translate(
            &shader,
            &Options {
                capture_outputs: 4,
                ..options
            },
        )
        .expect("4");
        assert!(four.source.contains("dxbc_capture2 = bits;"));
        assert!(!four.source.contains("dxbc_capture3"));
    }

    fn options_for(dialect: Dialect) -> Options {
        options(dialect)
    }

    #[test]
    fn vk450_records_values_after_and_flow_before() {
        let shader = crate::dxbc::asm::test_shader(SHADER);
        let t = translate(&shader, &options(Dialect::Vk450)).expect("translates");
        let s = &t.source;
        let at = |needle: &str| {
            s.find(needle)
                .unwrap_or_else(|| panic!("`{needle}` missing from\n{s}"))
        };
        // The pixel test, then the input at entry, before the body runs.
        let on = at("dxbc_capture_on = all(equal(uvec2(gl_FragCoord.xy), uvec2(3u, 5u)));");
        let input = at("dxbc_cap(4294967295u, 6u, 0u, 0u, floatBitsToUint(v0));");
        assert!(on < input && input < at("dxbc_main();\n"));
        // The add's r0 after its assignment; the if's record before it.
        assert!(at("r0.xy = ") < at("dxbc_cap(3u, 1u, 0u, 0u, floatBitsToUint(r0));"));
        assert!(at("dxbc_cap(4u, 0u, 0u, 0u, uvec4(0u));") < at("if (floatBitsToUint(r0.x)"));
        assert!(s.contains("dxbc_cap(5u, 3u, 0u, 0u, floatBitsToUint(o0));"));
        assert!(s.contains("dxbc_cap(7u, 0u, 0u, 0u, uvec4(0u));"), "ret");
        assert!(!s.contains("dxbc_cap(6u"), "endif is no step");
        // Every record line belongs to its instruction in the map.
        for (n, line) in s.lines().enumerate() {
            if let Some(rest) = line.trim().strip_prefix("dxbc_cap(")
                && let Some(i) = rest.split('u').next().and_then(|i| i.parse::<usize>().ok())
                && i < shader.program.instructions.len()
            {
                assert_eq!(t.map.instruction_at(n as u32 + 1), Some(i), "{line}");
            }
        }
        assert_eq!(
            t.manifest.capture.as_ref().map(|c| c.binding),
            Some(super::super::names::CAPTURE_BINDING)
        );
        // Without the option nothing of it is written.
        let plain = translate(&shader, &Options::new(Dialect::Vk450)).expect("translates");
        assert!(!plain.source.contains("dxbc_cap"));
        assert!(plain.manifest.capture.is_none());
    }
}
