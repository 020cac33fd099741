//! The IR printed in fxc's listing syntax, instruction by instruction. The
//! assembler parses exactly this syntax back, so the two must stay in step.

mod decl;
mod plain;

use decl::write_decl;
pub use decl::{
    GLOBAL_FLAGS, interpolation_name, primitive_name, system_value_name, topology_name,
};

use std::fmt::Write as _;

use super::ir::*;
use super::numfmt::{self, FloatStyle};
use super::opcodes::{Block, Class, NumType, Op};

/// Printing options: the details in which fxc versions differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub floats: FloatStyle,
    /// HLSL compiler 10.1 names constant-buffer declarations `CB0[n]`
    /// (upper case) while instructions still say `cb0[i]`.
    pub upper_cb_decl: bool,
    /// The modern disassembler's stray character before repeated nine-digit
    /// typeless values (see `numfmt::format_untyped`); most releases have it.
    pub stray_prefix: bool,
    /// d3dcompiler_47 (compilers 6.3 and 10.x) prints the interpolation
    /// mode fxc encodes on `dcl_input_ps_sgv` (`constant`); earlier
    /// releases leave it out. Modes other than `constant` print either way.
    pub sgv_interpolation: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            floats: FloatStyle::default(),
            upper_cb_decl: false,
            stray_prefix: true,
            sgv_interpolation: true,
        }
    }
}

/// The `LSTY` chunk: printing-style facts the assembler read from a listing
/// that the compiler named in RDEF would not imply. Written only when they
/// differ, so fxc's containers never carry it.
pub mod style_chunk {
    use super::{FloatStyle, Style};

    pub const FOURCC: [u8; 4] = *b"LSTY";
    const VERSION: u32 = 1;

    pub fn write(style: Style) -> Vec<u8> {
        let floats = match style.floats {
            FloatStyle::Classic => 1,
            FloatStyle::Modern => 2,
        };
        let flags = floats
            | (style.upper_cb_decl as u32) << 2
            | (!style.stray_prefix as u32) << 3
            | (!style.sgv_interpolation as u32) << 4;
        [VERSION, flags]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    /// Reads the chunk; None when it is not a version this reader knows.
    pub fn read(data: &[u8]) -> Option<Style> {
        if data.len() < 8 || data[..4] != VERSION.to_le_bytes() {
            return None;
        }
        let flags = u32::from_le_bytes([data[4], data[5], data[6], data[7]]);
        Some(Style {
            floats: if flags & 3 == 1 {
                FloatStyle::Classic
            } else {
                FloatStyle::Modern
            },
            upper_cb_decl: flags & 4 != 0,
            stray_prefix: flags & 8 == 0,
            sgv_interpolation: flags & 16 == 0,
        })
    }
}

impl Style {
    /// The style of the compiler named in an RDEF creator string
    /// (`Microsoft (R) HLSL Shader Compiler 10.1`).
    pub fn from_creator(creator: &str) -> Style {
        // The version's leading numbers, read up to the first part that is
        // not one; only the first three matter (is it exactly `10.n`?), so
        // nothing is collected: this runs once per translated shader.
        let mut parts = creator
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .split('.')
            .map_while(|p| p.parse::<u32>().ok());
        let major = parts.next();
        let minor = parts.next();
        let exactly_two = minor.is_some() && parts.next().is_none();
        Style {
            // The same test as `FloatStyle::from_creator`: 9.x is classic.
            floats: if major == Some(9) {
                FloatStyle::Classic
            } else {
                FloatStyle::Modern
            },
            upper_cb_decl: exactly_two && major == Some(10) && minor.is_some_and(|m| m >= 1),
            stray_prefix: true,
            // 9.x is d3dcompiler_43/46; 6.3 and 10.x are d3dcompiler_47.
            sgv_interpolation: major != Some(9),
        }
    }
}

/// The program as fxc prints it after the comment header: the profile line,
/// then one line per instruction, indented by block depth.
pub fn program_lines(p: &Program, style: Style) -> Vec<String> {
    let mut lines = Vec::with_capacity(p.instructions.len() + 1);
    for_each_program_line(p, style, |indent, line| {
        lines.push(format!("{:indent$}{line}", ""));
    });
    lines
}

/// [`program_lines`] appended to `out`, each line ended by `\n`.
///
/// Each instruction is written straight into `out` after its indentation;
/// only text that `str::lines` would change (empty, ending in a newline,
/// or holding a carriage return, which a shader message's text can) is
/// taken back out and split as [`program_lines`] splits it, so both give
/// the same lines.
pub fn write_program(out: &mut String, p: &Program, style: Style) {
    out.push_str(&p.profile());
    out.push('\n');
    let mut depth = 0usize;
    for inst in &p.instructions {
        let block = inst.info().block;
        if matches!(block, Block::Close | Block::Middle) {
            depth = depth.saturating_sub(1);
        }
        let start = out.len();
        push_spaces(out, depth * 2);
        let body = out.len();
        write_instruction(out, inst, style);
        let text = &out[body..];
        // Only customdata prints text from the file (a shader message's).
        if text.is_empty() || text.ends_with('\n') || (inst.custom.is_some() && text.contains('\r'))
        {
            let text = text.to_string();
            out.truncate(start);
            for (i, line) in text.lines().enumerate() {
                push_spaces(out, if i == 0 { depth * 2 } else { 0 });
                out.push_str(line);
                out.push('\n');
            }
        } else {
            out.push('\n');
        }
        if matches!(block, Block::Open | Block::Middle) {
            depth += 1;
        }
    }
}

/// `n` spaces, a slice at a time.
fn push_spaces(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                ";
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// Calls `emit(indent, line)` for each program line. Each instruction is
/// written into one reused buffer and split with `str::lines`, so lines
/// come out exactly as they always have (continuation lines unindented).
fn for_each_program_line(p: &Program, style: Style, mut emit: impl FnMut(usize, &str)) {
    emit(0, &p.profile());
    let mut depth = 0usize;
    let mut text = String::with_capacity(128);
    for inst in &p.instructions {
        let block = inst.info().block;
        if matches!(block, Block::Close | Block::Middle) {
            depth = depth.saturating_sub(1);
        }
        text.clear();
        write_instruction(&mut text, inst, style);
        for (i, line) in text.lines().enumerate() {
            emit(if i == 0 { depth * 2 } else { 0 }, line);
        }
        if matches!(block, Block::Open | Block::Middle) {
            depth += 1;
        }
    }
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

fn write_mask(out: &mut String, mask: u8) {
    for (i, &c) in COMPONENTS.iter().enumerate() {
        if mask & (1 << i) != 0 {
            out.push(c);
        }
    }
}

fn write_selection(out: &mut String, sel: &Selection) {
    match *sel {
        Selection::None | Selection::Mask(0) => {}
        Selection::Mask(m) => {
            out.push('.');
            write_mask(out, m);
        }
        Selection::Swizzle(s) => {
            out.push('.');
            out.extend(s.iter().map(|&c| COMPONENTS[c as usize & 3]));
        }
        Selection::Select1(c) => {
            out.push('.');
            out.push(COMPONENTS[c as usize & 3]);
        }
    }
}

fn write_index(out: &mut String, idx: &Index, style: Style) {
    match idx {
        Index::Imm32(v) => numfmt::push_u64(out, *v as u64),
        Index::Imm64(v) => numfmt::push_u64(out, *v),
        // fxc always shows the immediate part, even when the token has none.
        Index::Relative(r) => {
            write_operand(out, r, NumType::Uint, style);
            out.push_str(" + 0");
        }
        Index::Imm32Relative(v, r) => {
            write_operand(out, r, NumType::Uint, style);
            out.push_str(" + ");
            numfmt::push_u64(out, *v as u64);
        }
        Index::Imm64Relative(v, r) => {
            write_operand(out, r, NumType::Uint, style);
            out.push_str(" + ");
            numfmt::push_u64(out, *v);
        }
    }
}

fn write_immediates(out: &mut String, op: &Operand, kind: NumType, style: Style) {
    if op.ty == OperandType::IMMEDIATE64 {
        // fxc: `d(1.000000l, 2.000000l)`, one value per double (see
        // `Operand::imm` for how the doubles lie in the lanes).
        out.push_str("d(");
        for (i, c) in op.imm.chunks(2).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let bits = c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32;
            numfmt::write_double(out, bits, style.floats);
        }
        out.push(')');
        return;
    }
    out.push_str("l(");
    if kind == NumType::Untyped {
        numfmt::write_untyped_list(out, &op.imm, style.floats, style.stray_prefix, ",");
    } else {
        for (i, &b) in op.imm.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            match kind {
                NumType::Int | NumType::Uint => numfmt::write_int(out, b),
                _ => numfmt::write_float(out, b, style.floats),
            }
        }
    }
    out.push(')');
}

/// Whether the operand's first index is written in brackets too
/// (`icb[3]`, `vicp[0][1]`, a two-index `v[2][3]`), as fxc writes these
/// files, rather than run into the name (`r3`, `cb0[1]`).
pub(super) fn brackets_first_index(op: &Operand) -> bool {
    let ty = op.ty;
    matches!(
        ty,
        OperandType::IMMEDIATE_CONSTANT_BUFFER
            | OperandType::INPUT_CONTROL_POINT
            | OperandType::OUTPUT_CONTROL_POINT
            | OperandType::THIS_POINTER
    ) || (ty == OperandType::INPUT && op.indices.len() == 2)
}

/// Register name with its indices, no modifier or swizzle (`cb0[r1.x + 3]`),
/// appended to `out`.
pub(super) fn write_register_name(out: &mut String, op: &Operand, style: Style) {
    let ty = op.ty;
    match ty.prefix() {
        Some(p) => out.push_str(p),
        None => {
            out.push_str("<type");
            numfmt::push_u64(out, ty.0 as u64);
            out.push('>');
        }
    }
    if ty.is_named_register() || ty == OperandType::NULL {
        return;
    }
    let bracket_first = brackets_first_index(op);
    for (i, idx) in op.indices.iter().enumerate() {
        let plain = matches!(idx, Index::Imm32(_) | Index::Imm64(_));
        if i == 0 && plain && !bracket_first {
            write_index(out, idx, style);
        } else {
            out.push('[');
            write_index(out, idx, style);
            out.push(']');
        }
    }
}

/// One operand: modifier, register or immediate, swizzle.
pub fn format_operand(op: &Operand, kind: NumType, style: Style) -> String {
    let mut s = String::new();
    write_operand(&mut s, op, kind, style);
    s
}

/// [`format_operand`] appended to `out`.
pub fn write_operand(out: &mut String, op: &Operand, kind: NumType, style: Style) {
    if !plain::write_plain_operand(out, op) {
        write_any_operand(out, op, kind, style);
    }
}

/// [`write_operand`] for every operand, the common ones included (the
/// reference `plain` is tested against).
fn write_any_operand(out: &mut String, op: &Operand, kind: NumType, style: Style) {
    match op.modifier {
        Modifier::None | Modifier::Abs => {}
        Modifier::Neg | Modifier::AbsNeg => out.push('-'),
    }
    if matches!(op.modifier, Modifier::Abs | Modifier::AbsNeg) {
        out.push('|');
    }
    if op.is_immediate() {
        write_immediates(out, op, kind, style);
    } else {
        write_register_name(out, op, style);
        write_selection(out, &op.selection);
    }
    match op.min_precision {
        MinPrecision::Default => {}
        MinPrecision::Float16 => out.push_str(" {min16f}"),
        MinPrecision::Float2_8 => out.push_str(" {min2_8f}"),
        MinPrecision::Sint16 => out.push_str(" {min16i}"),
        MinPrecision::Uint16 => out.push_str(" {min16u}"),
        MinPrecision::Other(v) => {
            out.push_str(" {min_precision_");
            numfmt::push_u64(out, v as u64);
            out.push('}');
        }
    }
    if op.nonuniform {
        out.push_str(" {nonuniform}");
    }
    if matches!(op.modifier, Modifier::Abs | Modifier::AbsNeg) {
        out.push('|');
    }
}

pub(super) fn return_type_list(types: &[ReturnType; 4]) -> String {
    let mut s = String::new();
    write_return_type_list(&mut s, types);
    s
}

pub(super) fn write_return_type_list(out: &mut String, types: &[ReturnType; 4]) {
    out.push('(');
    for (i, t) in types.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(t.name());
    }
    out.push(')');
}

/// Operands joined with `, `, immediates typed by the opcode table.
fn write_operand_list(out: &mut String, inst: &Instruction, style: Style) {
    let info = inst.info();
    for (i, op) in inst.operands.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_operand(out, op, info.imm_kind(i), style);
    }
}

/// `dcl_immediateConstantBuffer { { a, b, c, d}, … }` over several lines.
fn write_icb(out: &mut String, data: &[u32], style: Style) {
    out.push_str("dcl_immediateConstantBuffer {");
    for (i, row) in data.chunks(4).enumerate() {
        if i == 0 {
            out.push(' ');
        } else {
            out.push_str(",\n                              ");
        }
        out.push_str("{ ");
        for (j, &b) in row.iter().enumerate() {
            if j > 0 {
                out.push_str(", ");
            }
            numfmt::write_untyped(out, b, style.floats, false);
        }
        out.push('}');
    }
    out.push_str(" }");
}

fn write_custom(out: &mut String, custom: &CustomData, style: Style) {
    match custom {
        CustomData::ImmediateConstantBuffer(d) => write_icb(out, d, style),
        CustomData::ShaderMessage {
            id, text, operands, ..
        } => {
            match id {
                0x0020_0102 => out.push_str("printf"),
                0x0020_0103 => out.push_str("errorf"),
                other => {
                    let _ = write!(out, "message_{other:#x}");
                }
            }
            out.push_str(" \"");
            out.push_str(text);
            out.push('"');
            for op in operands {
                out.push_str(", ");
                write_operand(out, op, NumType::Untyped, style);
            }
        }
        // fxc's own words for customdata it does not show; the payload is
        // kept in the IR (and re-encoded) but cannot be written as text.
        _ => out.push_str("undecipherable custom data"),
    }
}

fn write_sync_name(out: &mut String, c: u32) {
    out.push_str("sync");
    if c & (1 << 13) != 0 {
        out.push_str("_sat");
    }
    if c & (1 << 14) != 0 {
        out.push_str("_uglobal");
    } else if c & (1 << 13) != 0 {
        out.push_str("_ugroup");
    }
    if c & (1 << 12) != 0 {
        out.push_str("_g");
    }
    if c & (1 << 11) != 0 {
        out.push_str("_t");
    }
}

/// One instruction in fxc syntax (no indentation; ICBs span several lines).
pub fn format_instruction(inst: &Instruction, style: Style) -> String {
    let mut s = String::new();
    write_instruction(&mut s, inst, style);
    s
}

/// [`format_instruction`] appended to `out`.
pub fn write_instruction(out: &mut String, inst: &Instruction, style: Style) {
    if let Some(custom) = &inst.custom {
        return write_custom(out, custom, style);
    }
    let info = inst.info();
    if info.class == Class::Decl && info.layout == super::opcodes::Layout::Decl
        || inst.op == Op::InterfaceCall
    {
        return write_decl(out, inst, style);
    }
    if inst.op == Op::Sync {
        return write_sync_name(out, inst.controls);
    }

    let c = inst.controls;
    out.push_str(info.name);
    let hs_phase = matches!(
        inst.op,
        Op::HsDecls | Op::HsControlPointPhase | Op::HsForkPhase | Op::HsJoinPhase
    );
    if !hs_phase && c & (1 << 13) != 0 {
        out.push_str("_sat");
    }
    if info.test {
        out.push_str(if inst.test_nonzero() { "_nz" } else { "_z" });
    }
    let offsets = inst.offsets();
    if offsets.is_some() {
        out.push_str("_aoffimmi");
    }
    let dim = inst.resource_dim();
    if dim.is_some() {
        out.push_str("_indexable");
    }
    let precise = inst.precise_mask();
    if precise == 0xf {
        out.push_str(" [precise]");
    } else if precise != 0 {
        out.push_str(" [precise(");
        write_mask(out, precise);
        out.push_str(")]");
    }
    if let Some(offsets) = offsets {
        for (i, o) in offsets.into_iter().enumerate() {
            out.push(if i == 0 { '(' } else { ',' });
            if o < 0 {
                out.push('-');
            }
            numfmt::push_u64(out, o.unsigned_abs() as u64);
        }
        out.push(')');
    }
    if let Some((d, stride)) = dim {
        if d == ResourceDimension::StructuredBuffer {
            out.push('(');
            out.push_str(d.name());
            out.push_str(", stride=");
            numfmt::push_u64(out, stride as u64);
            out.push(')');
        } else {
            out.push('(');
            out.push_str(d.name());
            out.push(')');
        }
    }
    if let Some(types) = inst.return_types() {
        write_return_type_list(out, &types);
    }
    match inst.op {
        Op::Resinfo => match (c >> 11) & 3 {
            1 => out.push_str("_rcpfloat"),
            2 => out.push_str("_uint"),
            _ => {}
        },
        Op::SampleInfo if c & (1 << 11) != 0 => out.push_str("_uint"),
        _ => {}
    }
    for e in &inst.extended {
        if let ExtendedOpcode::Unknown(raw) = e {
            let _ = write!(out, "_ext({raw:#x})");
        }
    }
    // Padding dwords after the operands are kept in the IR but, as in fxc's
    // listings, not printed.
    if !inst.operands.is_empty() {
        out.push(' ');
        write_operand_list(out, inst, style);
    }
}

#[cfg(test)]
mod tests {
    use super::{FloatStyle, Style};

    /// The style follows the creator's version: 9.x is classic floats
    /// without the sgv mode; exactly `10.n` with n ≥ 1 upper-cases the
    /// constant-buffer declaration (10.0 and a longer 10.1.x do not); a
    /// creator without a number is read as modern.
    #[test]
    fn style_from_creator() {
        let style =
            |v: &str| Style::from_creator(&format!("Microsoft (R) HLSL Shader Compiler {v}"));
        let s = style("9.29.952.3111");
        assert_eq!(s.floats, FloatStyle::Classic);
        assert!(!s.sgv_interpolation && !s.upper_cb_decl && s.stray_prefix);
        let s = style("10.1");
        assert_eq!(s.floats, FloatStyle::Modern);
        assert!(s.sgv_interpolation && s.upper_cb_decl);
        assert!(!style("10.0").upper_cb_decl);
        assert!(!style("10.1.5").upper_cb_decl);
        assert!(style("10.12").upper_cb_decl);
        let s = style("6.3.9600.16384");
        assert_eq!(s.floats, FloatStyle::Modern);
        assert!(s.sgv_interpolation && !s.upper_cb_decl);
        assert_eq!(Style::from_creator(""), Style::default());
        assert_eq!(Style::from_creator("no version"), Style::default());
    }
}
