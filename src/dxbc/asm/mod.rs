//! The assembler: fxc-syntax assembly text (what `disasm` prints and fxc's
//! `/Fc` listings) to a DXBC container. It parses into the same IR the
//! decoder produces and encodes through `encode`, so there is no second
//! description of the opcodes.
//!
//! Layout of the input: an optional comment header (fxc's buffer, binding
//! and signature tables), the profile line (`ps_5_0`), one instruction per
//! line (`dcl_immediateConstantBuffer` may span lines), and trailing
//! comments. Two comment forms carry meaning: fxc's
//! `// Approximately N instruction slots used`, and the
//! `// dxbc-dbg exact I.O.L 0xBITS` lines `disasm` adds when a printed float
//! does not read back as the same bits (see `docs/assembler.md`).

mod decl;
pub mod error;
pub mod header;
pub mod inst;
pub mod operand;
pub mod signatures;

pub use error::{AsmError, AsmResult};

use crate::dxbc::disasm::Style;
use crate::dxbc::encode::encode_program;
use crate::dxbc::ir::*;
use crate::dxbc::numfmt;
use crate::dxbc::opcodes::{NumType, Op};
use header::NumberedLine;
use operand::{Pos, parse_number};

/// Prefix of the lines that pin float immediates to exact bits.
pub const EXACT_PREFIX: &str = "// dxbc-dbg exact ";

/// What the text said, before it becomes bytes.
#[derive(Debug, Clone)]
pub struct Assembly {
    pub program: Program,
    pub header: signatures::Reflection,
    /// From `// Approximately N instruction slots used`.
    pub slots: Option<u32>,
    /// The printing style the text was written in, when it differs from
    /// what the compiler named in the header implies (kept in `LSTY`).
    pub style: Option<Style>,
}

/// The style the header's compiler implies.
fn creator_style(header: &signatures::Reflection) -> Style {
    header
        .header
        .rdef
        .as_ref()
        .map(|r| Style::from_creator(&r.creator))
        .unwrap_or_default()
}

/// Reads the printing dialect off the text: fxc releases differ in details
/// the bytecode does not record (`CB0` vs `cb0` in declarations, the stray
/// character in typeless lists, `constant` on `dcl_input_ps_sgv`). Each
/// instruction is re-rendered both ways and compared with its source line.
fn detect_style(program: &Program, sources: &[&str], base: Style) -> Style {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    let mut style = base;
    for (inst, src) in program.instructions.iter().zip(sources) {
        if inst.op == Op::DclConstantBuffer && !src.contains(':') {
            let reg = src.split_whitespace().nth(1).unwrap_or("");
            if reg.starts_with("CB") {
                style.upper_cb_decl = true;
            } else if reg.starts_with("cb") {
                style.upper_cb_decl = false;
            }
        }
        // `dcl_input_ps_sgv` reads as `constant` with or without the word;
        // whether the text wrote it is the dialect.
        if inst.op == Op::DclInputPsSgv && inst.interpolation() == Some(Interpolation::Constant) {
            style.sgv_interpolation = src.split_whitespace().nth(1) == Some("constant");
        }
        let info = inst.info();
        // Float style: where classic and modern text differ, the line says
        // which one printed it (3Dmigoto dumps keep the compiler's banner but
        // were disassembled by a modern d3dcompiler).
        for (o, op) in inst.operands.iter().enumerate() {
            if op.ty != OperandType::IMMEDIATE32 {
                continue;
            }
            let render = |floats: numfmt::FloatStyle| -> String {
                let vals: Vec<String> = match info.imm_kind(o) {
                    NumType::Float => op
                        .imm
                        .iter()
                        .map(|&b| numfmt::format_float(b, floats))
                        .collect(),
                    NumType::Untyped => {
                        numfmt::format_untyped_list(&op.imm, floats, style.stray_prefix)
                    }
                    _ => return String::new(),
                };
                format!("l({})", vals.join(","))
            };
            let (classic, modern) = (
                render(numfmt::FloatStyle::Classic),
                render(numfmt::FloatStyle::Modern),
            );
            if classic != modern {
                let line = squash(src);
                if line.contains(&modern) {
                    style.floats = numfmt::FloatStyle::Modern;
                } else if line.contains(&classic) {
                    style.floats = numfmt::FloatStyle::Classic;
                }
            }
        }
        for (o, op) in inst.operands.iter().enumerate() {
            if op.ty != OperandType::IMMEDIATE32 || info.imm_kind(o) != NumType::Untyped {
                continue;
            }
            let with = numfmt::format_untyped_list(&op.imm, style.floats, true).join(",");
            let without = numfmt::format_untyped_list(&op.imm, style.floats, false).join(",");
            if with != without {
                let line = squash(src);
                if line.contains(&format!("l({with})")) {
                    style.stray_prefix = true;
                } else if line.contains(&format!("l({without})")) {
                    style.stray_prefix = false;
                }
            }
        }
    }
    style
}

/// Removes a `//` comment (outside a quoted string) and surrounding space.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    let b = line.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'"' => quoted = !quoted,
            b'/' if !quoted && b.get(i + 1) == Some(&b'/') => return line[..i].trim(),
            _ => {}
        }
    }
    line.trim()
}

/// `ps_5_0` → (kind, major, minor); only SM4/SM5 profiles, so that a
/// listing's Level9 (`ps_2_x`) section is not taken for the program.
pub fn parse_profile(text: &str) -> Option<(ProgramType, u8, u8)> {
    let p = header::Profile::parse(text)?;
    if !(4..=5).contains(&p.major) || p.minor > 1 {
        return None;
    }
    Some((
        Some(ProgramType::from_code((p.program_token() >> 16) as u16)).filter(|k| k.is_known())?,
        p.major,
        p.minor,
    ))
}

/// Parses assembly text into the IR and the reflection data around it.
pub fn parse(text: &str) -> AsmResult<Assembly> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let profile_at = lines
        .iter()
        .position(|(_, l)| parse_profile(strip_comment(l)).is_some())
        .ok_or_else(|| AsmError::new(1, 1, "expected a profile line such as `ps_5_0`"))?;
    let (line_no, profile_line) = lines[profile_at];
    let (kind, major, minor) = parse_profile(strip_comment(profile_line))
        .ok_or_else(|| AsmError::new(line_no, 1, "expected a profile line"))?;
    // `.semantic` directives may stand before the profile line too.
    let (directives, header_lines): (Vec<NumberedLine>, Vec<NumberedLine>) = lines[..profile_at]
        .iter()
        .partition(|(_, l)| l.trim_start().starts_with(".semantic"));
    let mut header = signatures::Reflection::from_header(&header_lines, (kind, major, minor))?;
    for (n, l) in directives {
        let t = l.trim_start();
        let column = l.len() - t.len() + 1;
        header.semantic_directive(strip_comment(t).trim_start_matches(".semantic"), n, column)?;
    }

    let mut instructions = Vec::new();
    let mut sources: Vec<&str> = Vec::new();
    // Source line number of each instruction, for errors found after parsing.
    let mut lines_of: Vec<usize> = Vec::new();
    let mut slots = None;
    let mut exact: Vec<(usize, usize, usize, u32, usize)> = Vec::new();
    let mut i = profile_at + 1;
    while i < lines.len() {
        let (n, raw) = lines[i];
        i += 1;
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix(EXACT_PREFIX) {
            exact.push(parse_exact(rest, n)?);
            continue;
        }
        if let Some(count) = trimmed
            .strip_prefix("// Approximately ")
            .and_then(|r| r.strip_suffix(" instruction slots used"))
        {
            slots = count.trim().parse().ok();
            continue;
        }
        let line = strip_comment(raw);
        // `#line` markers (left by some dumping tools) are not instructions.
        if line.is_empty() || line.starts_with("#line") {
            continue;
        }
        let column = raw.len() - raw.trim_start().len() + 1;
        if let Some(directive) = line.strip_prefix(".semantic") {
            header.semantic_directive(directive, n, column)?;
            continue;
        }
        if let Some(body) = line.strip_prefix("dcl_immediateConstantBuffer") {
            // Gather lines until the braces balance.
            let mut text = body.to_string();
            let depth = |s: &str| s.matches('{').count() as i64 - s.matches('}').count() as i64;
            while depth(&text) > 0 && i < lines.len() {
                text.push(' ');
                text.push_str(strip_comment(lines[i].1));
                i += 1;
            }
            instructions.push(inst::immediate_constant_buffer(
                &text,
                Pos { line: n, column },
            )?);
            sources.push(line);
            lines_of.push(n);
            continue;
        }
        instructions.push(inst::parse_instruction(line, n, column)?);
        sources.push(line);
        lines_of.push(n);
    }
    let mut program = Program {
        kind,
        major,
        minor,
        shex: major >= 5,
        instructions,
    };
    for (inst_i, op_i, lane, bits, n) in exact {
        apply_exact(&mut program, inst_i, op_i, lane, bits)
            .ok_or_else(|| AsmError::new(n, 1, "`dxbc-dbg exact` names no float immediate"))?;
    }
    verify_encoding(&program, &lines_of)?;
    let base = creator_style(&header);
    let detected = detect_style(&program, &sources, base);
    Ok(Assembly {
        program,
        header,
        slots,
        style: (detected != base).then_some(detected),
    })
}

/// Encodes the program and decodes it again: every instruction must come
/// back as written. This catches text that parses but cannot be expressed
/// in tokens (an operand count or payload the opcode's layout does not
/// have, an instruction over 127 dwords) with the line that caused it.
fn verify_encoding(program: &Program, lines_of: &[usize]) -> AsmResult<()> {
    let words = encode_program(program);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let line_at = |i: usize| lines_of.get(i).copied().unwrap_or(1);
    for (i, inst) in program.instructions.iter().enumerate() {
        if inst.custom.is_none() {
            let mut one = Vec::new();
            crate::dxbc::encode::encode_instruction(inst, &mut one);
            if one.len() > 127 {
                return Err(AsmError::new(
                    line_at(i),
                    1,
                    format!(
                        "instruction needs {} dwords; the format allows 127",
                        one.len()
                    ),
                ));
            }
        }
    }
    let decoded = crate::dxbc::decode::decode_program(&bytes, 0, program.shex)
        .map_err(|e| AsmError::new(1, 1, format!("assembled program does not decode: {e}")))?;
    for (i, inst) in program.instructions.iter().enumerate() {
        let Some(back) = decoded.instructions.get(i) else {
            return Err(AsmError::new(
                line_at(i),
                1,
                "instruction is lost when encoded",
            ));
        };
        let same = back.op == inst.op
            && back.controls == inst.controls
            && back.extended == inst.extended
            && back.operands == inst.operands
            && back.decl == inst.decl
            && back.custom == inst.custom
            && back.trailing == inst.trailing;
        if !same {
            return Err(AsmError::new(
                line_at(i),
                1,
                format!(
                    "`{}` cannot be encoded as written (check its operands and payload)",
                    inst.name()
                ),
            ));
        }
    }
    Ok(())
}

/// Assembles text into a complete container.
pub fn assemble(text: &str) -> AsmResult<Vec<u8>> {
    let a = parse(text)?;
    Ok(a.header
        .container(&a.program, a.slots, a.style, &encode_program(&a.program)))
}

/// Unit tests' shaders: fxc-syntax text assembled and the container
/// parsed, panicking on either (the text is the test's own).
#[cfg(test)]
pub(crate) fn test_shader(text: &str) -> crate::dxbc::Shader {
    let bytes = assemble(text).unwrap_or_else(|e| panic!("assembles: {e}"));
    crate::dxbc::Shader::parse(&bytes, crate::dxbc::ParseOptions::default())
        .unwrap_or_else(|e| panic!("parses: {e}"))
}

fn parse_exact(rest: &str, line: usize) -> AsmResult<(usize, usize, usize, u32, usize)> {
    let bad = || AsmError::at(line, 1, rest, "expected `I.O.L 0xBITS`");
    let (place, bits) = rest.trim().split_once(' ').ok_or_else(bad)?;
    let nums: Vec<usize> = place
        .split('.')
        .map(|p| p.parse().map_err(|_| bad()))
        .collect::<AsmResult<_>>()?;
    let bits = bits
        .trim()
        .strip_prefix("0x")
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or_else(bad)?;
    match nums.as_slice() {
        [i, o, l] => Ok((*i, *o, *l, bits, line)),
        _ => Err(bad()),
    }
}

/// Where an immediate lane lives: operand `o` of instruction `i`, or for
/// data-carrying instructions (ICB, `dcl_hs_max_tessfactor`) `o` = 0.
fn lane_mut(program: &mut Program, i: usize, o: usize, lane: usize) -> Option<&mut u32> {
    let inst = program.instructions.get_mut(i)?;
    if let Some(CustomData::ImmediateConstantBuffer(d)) = inst.custom.as_deref_mut() {
        return d.get_mut(lane);
    }
    if inst.op == Op::DclHsMaxTessfactor {
        return match &mut inst.decl {
            DeclKind::Count(v) if o == 0 && lane == 0 => Some(v),
            _ => None,
        };
    }
    let op = inst.operands.get_mut(o)?;
    // A double's lanes are its 32-bit halves, low first (`Operand::imm`).
    if !op.is_immediate() {
        return None;
    }
    op.imm.get_mut(lane)
}

fn apply_exact(program: &mut Program, i: usize, o: usize, lane: usize, bits: u32) -> Option<()> {
    *lane_mut(program, i, o, lane)? = bits;
    Some(())
}

/// Float immediates whose printed text would not read back as the same
/// bits, as `(instruction, operand, lane, bits)`. `disasm` prints one
/// `// dxbc-dbg exact` line for each so that assembling its listing gives
/// back the original program.
pub fn lossy_immediates(program: &Program, style: Style) -> Vec<(usize, usize, usize, u32)> {
    let pos = Pos { line: 0, column: 0 };
    let mut out = Vec::new();
    let mut double_pins = Vec::new();
    let mut text = String::new();
    // Each lane's text as the printer writes it, read back as the parser
    // will. `untyped` is None for a float position, else whether the
    // list takes the stray-character quirk; `lanes_stray` whether the
    // parser reads lanes after the first as such a list's.
    let mut check = |i: usize,
                     o: usize,
                     values: &[u32],
                     kind: NumType,
                     untyped: Option<bool>,
                     lanes_stray: bool| {
        let mut seen_precise = false;
        for (lane, &bits) in values.iter().enumerate() {
            // A value whose `%f` text provably reads back prints as that
            // text in every style (and is no nine-digit value for the
            // stray quirk to count), so it needs neither printing nor
            // parsing here; most immediates are such values.
            let prints_fixed = untyped.is_none() || numfmt::looks_like_float(bits);
            if prints_fixed && numfmt::fixed_reads_back(bits) {
                continue;
            }
            text.clear();
            match untyped {
                None => numfmt::write_float(&mut text, bits, style.floats),
                Some(stray) => {
                    seen_precise |=
                        numfmt::write_untyped(&mut text, bits, style.floats, stray && seen_precise)
                }
            }
            let read_lane = if lanes_stray { lane } else { 0 };
            if parse_number(&text, kind, read_lane, pos).ok() != Some(bits) {
                out.push((i, o, lane, bits));
            }
        }
    };
    for (i, inst) in program.instructions.iter().enumerate() {
        if let Some(CustomData::ImmediateConstantBuffer(d)) = inst.custom.as_deref() {
            check(i, 0, d, NumType::Untyped, Some(false), false);
            continue;
        }
        if inst.op == Op::DclHsMaxTessfactor {
            if let DeclKind::Count(bits) = inst.decl {
                check(i, 0, &[bits], NumType::Float, None, false);
            }
            continue;
        }
        let info = inst.info();
        for (o, op) in inst.operands.iter().enumerate() {
            if op.ty == OperandType::IMMEDIATE64 {
                // `%f` keeps six decimals of a double too; pin the halves
                // its text would not give back.
                for (d, pair) in op.imm.chunks_exact(2).enumerate() {
                    let bits = pair[0] as u64 | (pair[1] as u64) << 32;
                    let text = numfmt::format_double(bits, style.floats);
                    let back = numfmt::parse_double(&text);
                    for (half, &lane_bits) in pair.iter().enumerate() {
                        let read = back.map(|b| (b >> (32 * half)) as u32);
                        if read != Some(lane_bits) {
                            double_pins.push((i, o, 2 * d + half, lane_bits));
                        }
                    }
                }
                continue;
            }
            if op.ty != OperandType::IMMEDIATE32 {
                continue;
            }
            match info.imm_kind(o) {
                NumType::Untyped => check(
                    i,
                    o,
                    &op.imm,
                    NumType::Untyped,
                    Some(style.stray_prefix),
                    true,
                ),
                NumType::Float => check(i, o, &op.imm, NumType::Float, None, false),
                _ => {}
            }
        }
    }
    out.extend(double_pins);
    // In program order, doubles among the rest.
    out.sort_unstable();
    out
}
