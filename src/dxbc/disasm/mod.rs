//! The IR printed in fxc's listing syntax, instruction by instruction. The
//! assembler parses exactly this syntax back, so the two must stay in step.

mod decl;

use decl::format_decl;
pub use decl::{
    GLOBAL_FLAGS, interpolation_name, primitive_name, system_value_name, topology_name,
};

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
        let version: Vec<u32> = creator
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .split('.')
            .map_while(|p| p.parse().ok())
            .collect();
        Style {
            floats: FloatStyle::from_creator(creator),
            upper_cb_decl: version.len() == 2 && version[0] == 10 && version[1] >= 1,
            stray_prefix: true,
            // 9.x is d3dcompiler_43/46; 6.3 and 10.x are d3dcompiler_47.
            sgv_interpolation: version.first() != Some(&9),
        }
    }
}

/// The program as fxc prints it after the comment header: the profile line,
/// then one line per instruction, indented by block depth.
pub fn program_lines(p: &Program, style: Style) -> Vec<String> {
    let mut lines = Vec::with_capacity(p.instructions.len() + 1);
    lines.push(p.profile());
    let mut depth = 0usize;
    for inst in &p.instructions {
        let block = inst.info().block;
        if matches!(block, Block::Close | Block::Middle) {
            depth = depth.saturating_sub(1);
        }
        let text = format_instruction(inst, style);
        for (i, line) in text.lines().enumerate() {
            let indent = if i == 0 { depth * 2 } else { 0 };
            lines.push(format!("{:indent$}{line}", ""));
        }
        if matches!(block, Block::Open | Block::Middle) {
            depth += 1;
        }
    }
    lines
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

fn mask_str(mask: u8) -> String {
    (0..4)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| COMPONENTS[i])
        .collect()
}

fn selection_suffix(sel: &Selection) -> String {
    match *sel {
        Selection::None => String::new(),
        Selection::Mask(0) => String::new(),
        Selection::Mask(m) => format!(".{}", mask_str(m)),
        Selection::Swizzle(s) => {
            let mut out = String::from(".");
            out.extend(s.iter().map(|&c| COMPONENTS[c as usize & 3]));
            out
        }
        Selection::Select1(c) => format!(".{}", COMPONENTS[c as usize & 3]),
    }
}

fn format_index(idx: &Index, style: Style) -> String {
    match idx {
        Index::Imm32(v) => v.to_string(),
        Index::Imm64(v) => v.to_string(),
        // fxc always shows the immediate part, even when the token has none.
        Index::Relative(r) => format!("{} + 0", format_operand(r, NumType::Uint, style)),
        Index::Imm32Relative(v, r) => format!("{} + {v}", format_operand(r, NumType::Uint, style)),
        Index::Imm64Relative(v, r) => format!("{} + {v}", format_operand(r, NumType::Uint, style)),
    }
}

fn immediate_list(op: &Operand, kind: NumType, style: Style) -> String {
    if op.ty == OperandType::IMMEDIATE64 {
        // fxc: `d(1.000000l, 2.000000l)`, one value per double (see
        // `Operand::imm` for how the doubles lie in the lanes).
        let vals: Vec<String> = op
            .imm
            .chunks(2)
            .map(|c| {
                let bits = c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32;
                numfmt::format_double(bits, style.floats)
            })
            .collect();
        return format!("d({})", vals.join(", "));
    }
    let sep = if kind == NumType::Untyped { "," } else { ", " };
    let vals: Vec<String> = match kind {
        NumType::Untyped => numfmt::format_untyped_list(&op.imm, style.floats, style.stray_prefix),
        _ => op
            .imm
            .iter()
            .map(|&b| match kind {
                NumType::Int => numfmt::format_int(b),
                NumType::Uint => numfmt::format_uint(b),
                _ => numfmt::format_float(b, style.floats),
            })
            .collect(),
    };
    format!("l({})", vals.join(sep))
}

/// Register name with its indices, no modifier or swizzle (`cb0[r1.x + 3]`).
pub(super) fn register_name(op: &Operand, style: Style) -> String {
    let ty = op.ty;
    let prefix = ty
        .prefix()
        .map(str::to_string)
        .unwrap_or_else(|| format!("<type{}>", ty.0));
    if ty.is_named_register() || ty == OperandType::NULL {
        return prefix;
    }
    let bracket_first = matches!(
        ty,
        OperandType::IMMEDIATE_CONSTANT_BUFFER
            | OperandType::INPUT_CONTROL_POINT
            | OperandType::OUTPUT_CONTROL_POINT
            | OperandType::THIS_POINTER
    ) || (ty == OperandType::INPUT && op.indices.len() == 2);
    let mut s = prefix;
    for (i, idx) in op.indices.iter().enumerate() {
        let plain = matches!(idx, Index::Imm32(_) | Index::Imm64(_));
        if i == 0 && plain && !bracket_first {
            s.push_str(&format_index(idx, style));
        } else {
            s.push('[');
            s.push_str(&format_index(idx, style));
            s.push(']');
        }
    }
    s
}

/// One operand: modifier, register or immediate, swizzle.
pub fn format_operand(op: &Operand, kind: NumType, style: Style) -> String {
    let body = if op.is_immediate() {
        immediate_list(op, kind, style)
    } else {
        format!(
            "{}{}",
            register_name(op, style),
            selection_suffix(&op.selection)
        )
    };
    let body = match op.min_precision {
        MinPrecision::Default => body,
        MinPrecision::Float16 => format!("{body} {{min16f}}"),
        MinPrecision::Float2_8 => format!("{body} {{min2_8f}}"),
        MinPrecision::Sint16 => format!("{body} {{min16i}}"),
        MinPrecision::Uint16 => format!("{body} {{min16u}}"),
        MinPrecision::Other(v) => format!("{body} {{min_precision_{v}}}"),
    };
    let body = if op.nonuniform {
        format!("{body} {{nonuniform}}")
    } else {
        body
    };
    match op.modifier {
        Modifier::None => body,
        Modifier::Neg => format!("-{body}"),
        Modifier::Abs => format!("|{body}|"),
        Modifier::AbsNeg => format!("-|{body}|"),
    }
}

pub(super) fn return_type_list(types: &[ReturnType; 4]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.name()).collect();
    format!("({})", names.join(","))
}

/// Operands joined with `, `, immediates typed by the opcode table.
fn operand_list(inst: &Instruction, style: Style) -> String {
    let info = inst.info();
    inst.operands
        .iter()
        .enumerate()
        .map(|(i, op)| format_operand(op, info.imm_kind(i), style))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `dcl_immediateConstantBuffer { { a, b, c, d}, … }` over several lines.
fn format_icb(data: &[u32], style: Style) -> String {
    let mut s = String::from("dcl_immediateConstantBuffer {");
    let rows: Vec<String> = data
        .chunks(4)
        .map(|row| {
            let vals: Vec<String> = row
                .iter()
                .map(|&b| numfmt::format_untyped(b, style.floats, false))
                .collect();
            format!("{{ {}}}", vals.join(", "))
        })
        .collect();
    for (i, row) in rows.iter().enumerate() {
        if i == 0 {
            s.push(' ');
        } else {
            s.push_str(",\n                              ");
        }
        s.push_str(row);
    }
    s.push_str(" }");
    s
}

fn format_custom(custom: &CustomData, style: Style) -> String {
    match custom {
        CustomData::ImmediateConstantBuffer(d) => format_icb(d, style),
        CustomData::ShaderMessage {
            id, text, operands, ..
        } => {
            let name = match id {
                0x0020_0102 => "printf".to_string(),
                0x0020_0103 => "errorf".to_string(),
                other => format!("message_{other:#x}"),
            };
            let mut s = format!("{name} \"{text}\"");
            for op in operands {
                s.push_str(", ");
                s.push_str(&format_operand(op, NumType::Untyped, style));
            }
            s
        }
        // fxc's own words for customdata it does not show; the payload is
        // kept in the IR (and re-encoded) but cannot be written as text.
        _ => "undecipherable custom data".to_string(),
    }
}

fn sync_name(c: u32) -> String {
    let mut s = String::from("sync");
    if c & (1 << 13) != 0 {
        s.push_str("_sat");
    }
    if c & (1 << 14) != 0 {
        s.push_str("_uglobal");
    } else if c & (1 << 13) != 0 {
        s.push_str("_ugroup");
    }
    if c & (1 << 12) != 0 {
        s.push_str("_g");
    }
    if c & (1 << 11) != 0 {
        s.push_str("_t");
    }
    s
}

/// One instruction in fxc syntax (no indentation; ICBs span several lines).
pub fn format_instruction(inst: &Instruction, style: Style) -> String {
    if let Some(custom) = &inst.custom {
        return format_custom(custom, style);
    }
    let info = inst.info();
    if info.class == Class::Decl && info.layout == super::opcodes::Layout::Decl
        || inst.op == Op::InterfaceCall
    {
        return format_decl(inst, style);
    }
    if inst.op == Op::Sync {
        return sync_name(inst.controls);
    }

    let c = inst.controls;
    let mut head = String::from(info.name);
    let hs_phase = matches!(
        inst.op,
        Op::HsDecls | Op::HsControlPointPhase | Op::HsForkPhase | Op::HsJoinPhase
    );
    if !hs_phase && c & (1 << 13) != 0 {
        head.push_str("_sat");
    }
    if info.test {
        head.push_str(if inst.test_nonzero() { "_nz" } else { "_z" });
    }
    let offsets = inst.offsets();
    if offsets.is_some() {
        head.push_str("_aoffimmi");
    }
    let dim = inst.resource_dim();
    if dim.is_some() {
        head.push_str("_indexable");
    }
    let precise = inst.precise_mask();
    if precise == 0xf {
        head.push_str(" [precise]");
    } else if precise != 0 {
        head.push_str(&format!(" [precise({})]", mask_str(precise)));
    }
    if let Some([u, v, w]) = offsets {
        head.push_str(&format!("({u},{v},{w})"));
    }
    if let Some((d, stride)) = dim {
        if d == ResourceDimension::StructuredBuffer {
            head.push_str(&format!("({}, stride={stride})", d.name()));
        } else {
            head.push_str(&format!("({})", d.name()));
        }
    }
    if let Some(types) = inst.return_types() {
        head.push_str(&return_type_list(&types));
    }
    match inst.op {
        Op::Resinfo => match (c >> 11) & 3 {
            1 => head.push_str("_rcpfloat"),
            2 => head.push_str("_uint"),
            _ => {}
        },
        Op::SampleInfo if c & (1 << 11) != 0 => head.push_str("_uint"),
        _ => {}
    }
    for e in &inst.extended {
        if let ExtendedOpcode::Unknown(raw) = e {
            head.push_str(&format!("_ext({raw:#x})"));
        }
    }
    // Padding dwords after the operands are kept in the IR but, as in fxc's
    // listings, not printed.
    let ops = operand_list(inst, style);
    if ops.is_empty() {
        head
    } else {
        format!("{head} {ops}")
    }
}
