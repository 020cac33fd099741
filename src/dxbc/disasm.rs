//! The IR printed in fxc's listing syntax, instruction by instruction. The
//! assembler parses exactly this syntax back, so the two must stay in step.

use super::ir::*;
use super::numfmt::{self, FloatStyle};
use super::opcodes::{Block, Class, ImmKind, code};

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
}

impl Default for Style {
    fn default() -> Self {
        Style {
            floats: FloatStyle::default(),
            upper_cb_decl: false,
            stray_prefix: true,
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
        let flags = floats | (style.upper_cb_decl as u32) << 2 | (!style.stray_prefix as u32) << 3;
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
        Index::Relative(r) => format!("{} + 0", format_operand(r, ImmKind::Uint, style)),
        Index::Imm32Relative(v, r) => format!("{} + {v}", format_operand(r, ImmKind::Uint, style)),
        Index::Imm64Relative(v, r) => format!("{} + {v}", format_operand(r, ImmKind::Uint, style)),
    }
}

fn immediate_list(op: &Operand, kind: ImmKind, style: Style) -> String {
    if op.ty == OperandType::IMMEDIATE64 {
        let vals: Vec<String> = op
            .imm
            .chunks(2)
            .map(|c| {
                let bits = c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32;
                let v = f64::from_bits(bits);
                if v.is_finite() {
                    numfmt::msvc_fixed(v, 6)
                } else {
                    format!("{v}")
                }
            })
            .collect();
        return format!("d({})", vals.join(", "));
    }
    let sep = if kind == ImmKind::Untyped { "," } else { ", " };
    let vals: Vec<String> = match kind {
        ImmKind::Untyped => numfmt::format_untyped_list(&op.imm, style.floats, style.stray_prefix),
        _ => op
            .imm
            .iter()
            .map(|&b| match kind {
                ImmKind::Int => numfmt::format_int(b),
                ImmKind::Uint => numfmt::format_uint(b),
                _ => numfmt::format_float(b, style.floats),
            })
            .collect(),
    };
    format!("l({})", vals.join(sep))
}

/// Register name with its indices, no modifier or swizzle (`cb0[r1.x + 3]`).
fn register_name(op: &Operand, style: Style) -> String {
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
pub fn format_operand(op: &Operand, kind: ImmKind, style: Style) -> String {
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

fn return_type_list(types: &[ReturnType; 4]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.name()).collect();
    format!("({})", names.join(","))
}

pub fn system_value_name(v: u32) -> String {
    let s = match v {
        0 => "undefined",
        1 => "position",
        2 => "clip_distance",
        3 => "cull_distance",
        4 => "rendertarget_array_index",
        5 => "viewport_array_index",
        6 => "vertex_id",
        7 => "primitive_id",
        8 => "instance_id",
        9 => "is_front_face",
        10 => "sampleIndex",
        11 => "finalQuadUeq0EdgeTessFactor",
        12 => "finalQuadVeq0EdgeTessFactor",
        13 => "finalQuadUeq1EdgeTessFactor",
        14 => "finalQuadVeq1EdgeTessFactor",
        15 => "finalQuadUInsideTessFactor",
        16 => "finalQuadVInsideTessFactor",
        17 => "finalTriUeq0EdgeTessFactor",
        18 => "finalTriVeq0EdgeTessFactor",
        19 => "finalTriWeq0EdgeTessFactor",
        20 => "finalTriInsideTessFactor",
        21 => "finalLineDetailTessFactor",
        22 => "finalLineDensityTessFactor",
        _ => return format!("system_value_{v}"),
    };
    s.to_string()
}

pub fn interpolation_name(mode: u32) -> &'static str {
    match mode {
        1 => "constant",
        2 => "linear",
        3 => "linear centroid",
        4 => "linear noperspective",
        5 => "linear noperspective centroid",
        6 => "linear sample",
        7 => "linear noperspective sample",
        _ => "",
    }
}

pub const GLOBAL_FLAGS: [(u32, &str); 8] = [
    (1 << 11, "refactoringAllowed"),
    (1 << 12, "enableDoublePrecisionFloatOps"),
    (1 << 13, "forceEarlyDepthStencil"),
    (1 << 14, "enableRawAndStructuredBuffers"),
    (1 << 15, "skipOptimization"),
    (1 << 16, "enableMinimumPrecision"),
    (1 << 17, "enable11_1DoubleExtensions"),
    (1 << 18, "enable11_1ShaderExtensions"),
];

pub fn primitive_name(v: u32) -> String {
    match v {
        1 => "point".into(),
        2 => "line".into(),
        3 => "triangle".into(),
        6 => "lineadj".into(),
        7 => "triangleadj".into(),
        8..=39 => format!("patch{}", v - 7),
        _ => format!("primitive_{v}"),
    }
}

pub fn topology_name(v: u32) -> String {
    match v {
        1 => "pointlist".into(),
        2 => "linelist".into(),
        3 => "linestrip".into(),
        4 => "trianglelist".into(),
        5 => "trianglestrip".into(),
        10 => "linelistadj".into(),
        11 => "linestripadj".into(),
        12 => "trianglelistadj".into(),
        13 => "trianglestripadj".into(),
        _ => format!("topology_{v}"),
    }
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

/// Register name with a declared size in brackets, for `dcl_constantbuffer`
/// and SM5.1 ranges.
fn decl_register(op: Option<&Operand>, style: Style) -> String {
    match op {
        Some(o) => format_operand(o, ImmKind::Uint, style),
        None => String::new(),
    }
}

/// A declared register without its component selection (`cb0[4]`).
fn decl_register_bare(op: Option<&Operand>, style: Style) -> String {
    op.map(|o| register_name(o, style)).unwrap_or_default()
}

/// SM5.1 declarations name a register range, `T0[2:5]`, in the operand's
/// three indices (id, first, last); the space (and, for constant buffers,
/// the size) follow as payload dwords.
fn sm51_range(op: &Operand) -> Option<String> {
    if op.indices.len() != 3 {
        return None;
    }
    let prefix = op.ty.prefix()?.to_uppercase();
    let i: Vec<String> = op
        .indices
        .iter()
        .map(|x| match x.imm() {
            Some(v) if v == u32::MAX as u64 => String::new(),
            Some(v) => v.to_string(),
            None => "?".to_string(),
        })
        .collect();
    Some(format!("{prefix}{}[{}:{}]", i[0], i[1], i[2]))
}

/// The SM5.1 form of a resource declaration, when the operand is a range.
fn format_decl_sm51(inst: &Instruction, style: Style) -> Option<String> {
    let op = inst.operands.first()?;
    let range = sm51_range(op)?;
    let name = inst.name();
    let c = inst.controls;
    let t = &inst.trailing;
    let space = t.last().map(|s| format!(", space={s}")).unwrap_or_default();
    Some(match inst.opcode {
        code::DCL_CONSTANT_BUFFER => {
            let size = t.first().copied().unwrap_or(0);
            let access = if c & (1 << 11) != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            format!("{name} {range}[{size}], {access}{space}")
        }
        code::DCL_SAMPLER => {
            let mode = match (c >> 11) & 0xf {
                1 => "mode_comparison",
                2 => "mode_mono",
                _ => "mode_default",
            };
            format!("{name} {range}, {mode}{space}")
        }
        code::DCL_RESOURCE | code::DCL_UAV_TYPED => {
            let dim = ResourceDim(((c >> 11) & 0x1f) as u8);
            let types = match &inst.decl {
                DeclKind::ReturnTypes(t) => return_type_list(t),
                _ => String::new(),
            };
            let kind = if inst.opcode == code::DCL_RESOURCE {
                "dcl_resource"
            } else {
                "dcl_uav_typed"
            };
            format!("{kind}_{} {types} {range}{space}", dim.name())
        }
        code::DCL_RESOURCE_STRUCTURED | code::DCL_UAV_STRUCTURED => {
            format!("{name} {range}, {}{space}", count(inst))
        }
        _ => {
            let _ = style;
            format!("{name} {range}{space}")
        }
    })
}

fn format_decl(inst: &Instruction, style: Style) -> String {
    if let Some(s) = format_decl_sm51(inst, style) {
        return s;
    }
    let c = inst.controls;
    let op = inst.operands.first();
    let reg = decl_register(op, style);
    let name = inst.name();
    let mut s = match inst.opcode {
        code::DCL_GLOBAL_FLAGS => {
            let names: Vec<&str> = GLOBAL_FLAGS
                .iter()
                .filter(|(b, _)| c & b != 0)
                .map(|(_, n)| *n)
                .collect();
            let unknown = c & !GLOBAL_FLAGS.iter().fold(0, |m, (b, _)| m | b);
            let mut list = names.join(" | ");
            if unknown != 0 {
                if !list.is_empty() {
                    list.push_str(" | ");
                }
                list.push_str(&format!("{unknown:#x}"));
            }
            format!("{name} {list}")
        }
        code::DCL_CONSTANT_BUFFER => {
            let access = if c & (1 << 11) != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            let mut reg = decl_register_bare(op, style);
            if style.upper_cb_decl {
                reg = reg.replacen("cb", "CB", 1);
            }
            format!("{name} {reg}, {access}")
        }
        code::DCL_SAMPLER => {
            let mode = match (c >> 11) & 0xf {
                0 => "mode_default".to_string(),
                1 => "mode_comparison".to_string(),
                2 => "mode_mono".to_string(),
                m => format!("mode_{m}"),
            };
            format!("{name} {reg}, {mode}")
        }
        code::DCL_RESOURCE => {
            let dim = ResourceDim(((c >> 11) & 0x1f) as u8);
            let samples = (c >> 16) & 0x7f;
            let ms = if dim.0 == 4 || dim.0 == 9 {
                format!("({samples})")
            } else {
                String::new()
            };
            let types = match &inst.decl {
                DeclKind::ReturnTypes(t) => return_type_list(t),
                _ => String::new(),
            };
            format!("dcl_resource_{}{ms} {types} {reg}", dim.name())
        }
        code::DCL_UAV_TYPED => {
            let dim = ResourceDim(((c >> 11) & 0x1f) as u8);
            let types = match &inst.decl {
                DeclKind::ReturnTypes(t) => return_type_list(t),
                _ => String::new(),
            };
            format!("dcl_uav_typed_{}{} {types} {reg}", dim.name(), uav_flags(c))
        }
        code::DCL_UAV_RAW => format!("dcl_uav_raw{} {reg}", uav_flags(c)),
        code::DCL_UAV_STRUCTURED => {
            let counter = if c & (1 << 23) != 0 { "_opc" } else { "" };
            format!(
                "dcl_uav_structured{}{counter} {reg}, {}",
                uav_flags(c),
                count(inst)
            )
        }
        code::DCL_RESOURCE_RAW => format!("{name} {reg}"),
        code::DCL_RESOURCE_STRUCTURED | code::DCL_TGSM_RAW => {
            format!("{name} {reg}, {}", count(inst))
        }
        code::DCL_TGSM_STRUCTURED => match inst.decl {
            DeclKind::Pair(a, b) => format!("{name} {reg}, {a}, {b}"),
            _ => format!("{name} {reg}"),
        },
        code::DCL_INPUT_PS | code::DCL_INPUT_PS_SIV | code::DCL_INPUT_PS_SGV => {
            // System-generated values are not interpolated; fxc omits the mode.
            let interp = if inst.opcode == code::DCL_INPUT_PS_SGV {
                ""
            } else {
                interpolation_name((c >> 11) & 0xf)
            };
            let sv = match inst.decl {
                DeclKind::SystemValue(v) => format!(", {}", system_value_name(v)),
                _ => String::new(),
            };
            if interp.is_empty() {
                format!("{name} {reg}{sv}")
            } else {
                format!("{name} {interp} {reg}{sv}")
            }
        }
        code::DCL_INPUT_SGV | code::DCL_INPUT_SIV | code::DCL_OUTPUT_SGV | code::DCL_OUTPUT_SIV => {
            let sv = match inst.decl {
                DeclKind::SystemValue(v) => system_value_name(v),
                _ => String::new(),
            };
            format!("{name} {reg}, {sv}")
        }
        code::DCL_INDEX_RANGE => format!("{name} {reg} {}", count(inst)),
        code::DCL_TEMPS
        | code::DCL_MAX_OUTPUT_VERTEX_COUNT
        | code::DCL_HS_FORK_PHASE_INSTANCE_COUNT
        | code::DCL_HS_JOIN_PHASE_INSTANCE_COUNT
        | code::DCL_GS_INSTANCE_COUNT => format!("{name} {}", count(inst)),
        code::DCL_FUNCTION_BODY => format!("{name} fb{}", count(inst)),
        code::DCL_HS_MAX_TESSFACTOR => format!(
            "{name} l({})",
            numfmt::format_float(count(inst), style.floats)
        ),
        code::DCL_INDEXABLE_TEMP => match inst.decl {
            DeclKind::IndexableTemp {
                reg,
                size,
                components,
            } => format!("{name} x{reg}[{size}], {components}"),
            _ => name.to_string(),
        },
        code::DCL_THREAD_GROUP => match inst.decl {
            DeclKind::ThreadGroup([x, y, z]) => format!("{name} {x}, {y}, {z}"),
            _ => name.to_string(),
        },
        code::DCL_FUNCTION_TABLE => match &inst.decl {
            DeclKind::FunctionTable { table, bodies } => {
                let list: Vec<String> = bodies.iter().map(|b| format!("fb{b}")).collect();
                format!("{name} ft{table} = {{{}}}", list.join(", "))
            }
            _ => name.to_string(),
        },
        code::DCL_INTERFACE => match &inst.decl {
            DeclKind::Interface {
                index,
                table_length,
                array_length,
                tables,
            } => {
                let list: Vec<String> = tables.iter().map(|t| format!("ft{t}")).collect();
                let dynamic = if c & (1 << 11) != 0 {
                    "_dynamicindexed"
                } else {
                    ""
                };
                format!(
                    "{name}{dynamic} fp{index}[{array_length}][{table_length}] = {{{}}}",
                    list.join(", ")
                )
            }
            _ => name.to_string(),
        },
        code::INTERFACE_CALL => {
            let function = match inst.decl {
                DeclKind::InterfaceCall { function } => function,
                _ => 0,
            };
            format!("{name} {reg}[{function}]")
        }
        code::DCL_GS_INPUT_PRIMITIVE => {
            format!("{name} {}", primitive_name((c >> 11) & 0x3f))
        }
        code::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
            format!("{name} {}", topology_name((c >> 11) & 0x7f))
        }
        code::DCL_INPUT_CONTROL_POINT_COUNT | code::DCL_OUTPUT_CONTROL_POINT_COUNT => {
            format!("{name} {}", (c >> 11) & 0x3f)
        }
        code::DCL_TESS_DOMAIN => {
            let d = match (c >> 11) & 3 {
                1 => "domain_isoline",
                2 => "domain_tri",
                3 => "domain_quad",
                _ => "domain_undefined",
            };
            format!("{name} {d}")
        }
        code::DCL_TESS_PARTITIONING => {
            let p = match (c >> 11) & 7 {
                1 => "partitioning_integer",
                2 => "partitioning_pow2",
                3 => "partitioning_fractional_odd",
                4 => "partitioning_fractional_even",
                _ => "partitioning_undefined",
            };
            format!("{name} {p}")
        }
        code::DCL_TESS_OUTPUT_PRIMITIVE => {
            let p = match (c >> 11) & 7 {
                1 => "output_point",
                2 => "output_line",
                3 => "output_triangle_cw",
                4 => "output_triangle_ccw",
                _ => "output_undefined",
            };
            format!("{name} {p}")
        }
        _ => {
            if reg.is_empty() {
                name.to_string()
            } else {
                format!("{name} {reg}")
            }
        }
    };
    for w in &inst.trailing {
        s.push_str(&format!(", {w}"));
    }
    s
}

fn uav_flags(c: u32) -> &'static str {
    match (c & (1 << 16) != 0, c & (1 << 17) != 0) {
        (true, true) => "_glc_rov",
        (true, false) => "_glc",
        (false, true) => "_rov",
        (false, false) => "",
    }
}

fn count(inst: &Instruction) -> u32 {
    match inst.decl {
        DeclKind::Count(n) => n,
        _ => 0,
    }
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
                s.push_str(&format_operand(op, ImmKind::Untyped, style));
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
        || inst.opcode == code::INTERFACE_CALL
    {
        return format_decl(inst, style);
    }
    if inst.opcode == code::SYNC {
        return sync_name(inst.controls);
    }

    let c = inst.controls;
    let mut head = String::from(info.name);
    let hs_phase = matches!(
        inst.opcode,
        code::HS_DECLS | code::HS_CONTROL_POINT_PHASE | code::HS_FORK_PHASE | code::HS_JOIN_PHASE
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
        if d.0 == 12 {
            head.push_str(&format!("({}, stride={stride})", d.name()));
        } else {
            head.push_str(&format!("({})", d.name()));
        }
    }
    if let Some(types) = inst.return_types() {
        head.push_str(&return_type_list(&types));
    }
    match inst.opcode {
        code::RESINFO => match (c >> 11) & 3 {
            1 => head.push_str("_rcpfloat"),
            2 => head.push_str("_uint"),
            _ => {}
        },
        code::SAMPLE_INFO if c & (1 << 11) != 0 => head.push_str("_uint"),
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
