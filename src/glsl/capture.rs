//! Register capture (vk450 only): an instrumented translation that, for
//! one pixel, appends a record per executed DXBC instruction to a storage
//! buffer of its own, so `harness::bisect` can lay the GPU's register
//! values beside the emulator's, step by step.
//!
//! The buffer (`dxbc_capture`, std430, at [`super::names::CAPTURE_BINDING`])
//! is a header of [`HEADER_WORDS`] words (record count, overflow flag, two
//! unused) and then records of [`RECORD_WORDS`] words each:
//! `[instruction index, register file code, register, element, x, y, z, w]`,
//! the register's four components as exact bits after the instruction
//! ([`CaptureFile`] says which register file; `element` is the array
//! element of an indexable temp). The pixel's input registers come first,
//! once, with the index [`ENTRY`]. An instruction with no register
//! destination (flow, stores, `nop`) gives one record with
//! [`CaptureFile::None`]; one with two destinations gives two.
//!
//! Which instructions are recorded is `Op::is_path_step`, the rule the
//! emulator's side uses too; flow instructions record before they act
//! (so `ret` and `discard` are seen), the rest after. Only the chosen
//! pixel's invocation writes: `dxbc_capture_on` compares
//! `gl_FragCoord.xy`, which in Vulkan counts rows from the top as D3D's
//! window position does (the same `gl_FragCoord` `hlslcc_FragCoord` is made
//! from). Helper invocations' stores have no effect in Vulkan, so the
//! pixel's helper runs in a neighbouring triangle's quad write nothing.
//! The instrumentation only reads registers and writes the capture
//! buffer: what the shader computes is unchanged. Records past
//! [`CAPACITY`] are dropped and the overflow flag set.

use super::emit::Emitter;
use super::names;
use super::writer::Section;
use crate::dxbc::ir::{Instruction, Operand, OperandType};

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
/// (the others, `null` among them, get none).
pub fn captures(ty: OperandType) -> bool {
    matches!(
        ty,
        OperandType::TEMP
            | OperandType::OUTPUT
            | OperandType::INDEXABLE_TEMP
            | OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL
            | OperandType::OUTPUT_COVERAGE_MASK
    )
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
        e.line(format!("dxbc_cap({i}u, 0u, 0u, 0u, uvec4(0u));"));
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
            e.line(format!(
                "dxbc_cap({i}u, {}u, {reg}, {element}, {bits});",
                file.word()
            ));
            any = true;
        }
    }
    if !any {
        e.line(format!("dxbc_cap({i}u, 0u, 0u, 0u, uvec4(0u));"));
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

/// The block, the pixel test and `dxbc_cap`, declared before the
/// functions that call it; and the manifest's entry for the harness.
pub(super) fn declare(e: &mut Emitter, out: &mut Section) {
    if !active(e) {
        return;
    }
    let binding = names::CAPTURE_BINDING;
    out.line(
        None,
        "// register capture (docs/glsl.md): one record per executed instruction of one pixel",
    );
    // One member, a runtime array of uvec4 whose first is the header:
    // naga's GLSL front end loads array elements of a buffer block but
    // not scalar members beside a runtime array.
    out.line(
        None,
        format!(
            "layout(std430, set = {}, binding = {binding}) buffer DxbcCapture {{ uvec4 words[]; }} {BUFFER_NAME};",
            names::SET
        ),
    );
    out.line(None, "bool dxbc_capture_on = false;");
    out.line(
        None,
        "void dxbc_cap(uint index, uint file, uint reg, uint element, uvec4 bits) {",
    );
    out.indent();
    out.line(None, "if (!dxbc_capture_on) { return; }");
    // One invocation writes, so a plain count is enough (and keeps the
    // text free of atomics, which naga's GLSL front end lacks). Two
    // vector stores a record: lavapipe compiles the shader's hundreds of
    // records in a fraction of the time eight scalar stores take.
    out.line(None, format!("uint n = {BUFFER_NAME}.words[0].x;"));
    out.line(
        None,
        format!("if (n >= {CAPACITY}u) {{ {BUFFER_NAME}.words[0].y = 1u; return; }}"),
    );
    out.line(None, format!("{BUFFER_NAME}.words[0].x = n + 1u;"));
    out.line(
        None,
        format!("{BUFFER_NAME}.words[1u + 2u * n] = uvec4(index, file, reg, element);"),
    );
    out.line(None, format!("{BUFFER_NAME}.words[2u + 2u * n] = bits;"));
    out.dedent();
    out.line(None, "}");
    out.line(None, "");
    e.manifest.capture = Some(super::manifest::CaptureEntry {
        binding,
        glsl_name: BUFFER_NAME.into(),
        bytes: buffer_bytes(),
    });
}

/// In `main()`, after the input copies: the pixel test, then the input
/// registers' records.
pub(super) fn entry(e: &Emitter, main: &mut Section) {
    let Some(p) = e.options.capture.filter(|_| active(e)) else {
        return;
    };
    main.line(
        None,
        format!(
            "dxbc_capture_on = all(equal(uvec2(gl_FragCoord.xy), uvec2({}u, {}u)));",
            p.x, p.y
        ),
    );
    let input = CaptureFile::Input.word();
    for &r in &e.input_regs {
        let v = e.input_name(r);
        main.line(
            None,
            format!("dxbc_cap({ENTRY}u, {input}u, {r}u, 0u, floatBitsToUint({v}));"),
        );
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
    fn es300_refuses_the_capture() {
        let shader = crate::dxbc::asm::test_shader(SHADER);
        let r = translate(&shader, &options(Dialect::Es300)).expect_err("no storage in es300");
        assert_eq!(r.reasons(), vec![Reason::Capture]);
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
