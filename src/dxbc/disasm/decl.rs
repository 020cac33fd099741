//! Declarations in fxc's syntax: the names fxc gives interpolation modes,
//! system values, primitives and flags, and one printer per declaration
//! layout. The assembler parses the same names back.

use std::fmt::Write as _;

use super::{Style, format_operand, register_name, return_type_list, write_return_type_list};
use crate::dxbc::ir::*;
use crate::dxbc::numfmt;
use crate::dxbc::opcodes::{NumType, Op};

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

/// fxc's words for an interpolation mode; `undefined` (0) prints as nothing
/// except on `dcl_input_ps_sgv` (see `format_decl`), and codes past the
/// enum as `interpolation_N` so that they still read back.
pub fn interpolation_name(mode: u32) -> String {
    match mode {
        0 => "undefined".into(),
        1 => "constant".into(),
        2 => "linear".into(),
        3 => "linear centroid".into(),
        4 => "linear noperspective".into(),
        5 => "linear noperspective centroid".into(),
        6 => "linear sample".into(),
        7 => "linear noperspective sample".into(),
        _ => format!("interpolation_{mode}"),
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

/// Register name with a declared size in brackets, for `dcl_constantbuffer`
/// and SM5.1 ranges.
fn decl_register(op: Option<&Operand>, style: Style) -> String {
    match op {
        Some(o) => format_operand(o, NumType::Uint, style),
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
    Some(match inst.op {
        Op::DclConstantBuffer => {
            let size = t.first().copied().unwrap_or(0);
            let access = if c & (1 << 11) != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            format!("{name} {range}[{size}], {access}{space}")
        }
        Op::DclSampler => {
            let mode = match (c >> 11) & 0xf {
                1 => "mode_comparison",
                2 => "mode_mono",
                _ => "mode_default",
            };
            format!("{name} {range}, {mode}{space}")
        }
        Op::DclResource | Op::DclUavTyped => {
            let dim = ResourceDimension::from_code(((c >> 11) & 0x1f) as u8);
            let types = match &inst.decl {
                DeclKind::ReturnTypes(t) => return_type_list(t),
                _ => String::new(),
            };
            let kind = if inst.op == Op::DclResource {
                "dcl_resource"
            } else {
                "dcl_uav_typed"
            };
            format!("{kind}_{} {types} {range}{space}", dim.name())
        }
        Op::DclResourceStructured | Op::DclUavStructured => {
            format!("{name} {range}, {}{space}", count(inst))
        }
        _ => {
            let _ = style;
            format!("{name} {range}{space}")
        }
    })
}

/// `write!` into a `String`, which cannot fail.
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// One declaration appended to `out`.
pub(super) fn write_decl(out: &mut String, inst: &Instruction, style: Style) {
    if let Some(s) = format_decl_sm51(inst, style) {
        out.push_str(&s);
        return;
    }
    let c = inst.controls;
    let op = inst.operands.first();
    let reg = decl_register(op, style);
    let name = inst.name();
    match inst.op {
        Op::DclGlobalFlags => {
            w!(out, "{name} ");
            let mut first = true;
            for (_, n) in GLOBAL_FLAGS.iter().filter(|(b, _)| c & b != 0) {
                if !first {
                    out.push_str(" | ");
                }
                out.push_str(n);
                first = false;
            }
            let unknown = c & !GLOBAL_FLAGS.iter().fold(0, |m, (b, _)| m | b);
            if unknown != 0 {
                if !first {
                    out.push_str(" | ");
                }
                w!(out, "{unknown:#x}");
            }
        }
        Op::DclConstantBuffer => {
            let access = if c & (1 << 11) != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            let mut reg = decl_register_bare(op, style);
            if style.upper_cb_decl {
                reg = reg.replacen("cb", "CB", 1);
            }
            w!(out, "{name} {reg}, {access}");
        }
        Op::DclSampler => {
            w!(out, "{name} {reg}, ");
            match (c >> 11) & 0xf {
                0 => out.push_str("mode_default"),
                1 => out.push_str("mode_comparison"),
                2 => out.push_str("mode_mono"),
                m => w!(out, "mode_{m}"),
            }
        }
        Op::DclResource => {
            let dim = ResourceDimension::from_code(((c >> 11) & 0x1f) as u8);
            let samples = (c >> 16) & 0x7f;
            w!(out, "dcl_resource_{}", dim.name());
            if matches!(
                dim,
                ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray
            ) {
                w!(out, "({samples})");
            }
            out.push(' ');
            if let DeclKind::ReturnTypes(t) = &inst.decl {
                write_return_type_list(out, t);
            }
            w!(out, " {reg}");
        }
        Op::DclUavTyped => {
            let dim = ResourceDimension::from_code(((c >> 11) & 0x1f) as u8);
            w!(out, "dcl_uav_typed_{}{} ", dim.name(), uav_flags(c));
            if let DeclKind::ReturnTypes(t) = &inst.decl {
                write_return_type_list(out, t);
            }
            w!(out, " {reg}");
        }
        Op::DclUavRaw => w!(out, "dcl_uav_raw{} {reg}", uav_flags(c)),
        Op::DclUavStructured => {
            let counter = if c & (1 << 23) != 0 { "_opc" } else { "" };
            w!(
                out,
                "dcl_uav_structured{}{counter} {reg}, {}",
                uav_flags(c),
                count(inst)
            );
        }
        Op::DclResourceRaw => w!(out, "{name} {reg}"),
        Op::DclResourceStructured | Op::DclTgsmRaw => {
            w!(out, "{name} {reg}, {}", count(inst));
        }
        Op::DclTgsmStructured => match inst.decl {
            DeclKind::Pair(a, b) => w!(out, "{name} {reg}, {a}, {b}"),
            _ => w!(out, "{name} {reg}"),
        },
        Op::DclInputPs | Op::DclInputPsSiv | Op::DclInputPsSgv => {
            let mode = (c >> 11) & 0xf;
            // fxc encodes system-generated pixel inputs as `constant`; only
            // d3dcompiler_47 prints it, and the assembler reads a bare
            // `dcl_input_ps_sgv` as `constant`. So there any other mode,
            // `undefined` included, must be spelt out.
            let interp = match (inst.op, mode) {
                (Op::DclInputPsSgv, 1) if !style.sgv_interpolation => None,
                (Op::DclInputPsSgv, _) => Some(interpolation_name(mode)),
                (_, 0) => None,
                _ => Some(interpolation_name(mode)),
            };
            match interp {
                Some(i) => w!(out, "{name} {i} {reg}"),
                None => w!(out, "{name} {reg}"),
            }
            if let DeclKind::SystemValue(v) = inst.decl {
                w!(out, ", {}", system_value_name(v.code()));
            }
        }
        Op::DclInputSgv | Op::DclInputSiv | Op::DclOutputSgv | Op::DclOutputSiv => {
            w!(out, "{name} {reg}, ");
            if let DeclKind::SystemValue(v) = inst.decl {
                out.push_str(&system_value_name(v.code()));
            }
        }
        Op::DclIndexRange => w!(out, "{name} {reg} {}", count(inst)),
        Op::DclTemps
        | Op::DclMaxOutputVertexCount
        | Op::DclHsForkPhaseInstanceCount
        | Op::DclHsJoinPhaseInstanceCount
        | Op::DclGsInstanceCount => w!(out, "{name} {}", count(inst)),
        Op::DclFunctionBody => w!(out, "{name} fb{}", count(inst)),
        Op::DclHsMaxTessfactor => {
            w!(out, "{name} l(");
            numfmt::write_float(out, count(inst), style.floats);
            out.push(')');
        }
        Op::DclIndexableTemp => match inst.decl {
            DeclKind::IndexableTemp {
                reg,
                size,
                components,
            } => w!(out, "{name} x{reg}[{size}], {components}"),
            _ => out.push_str(name),
        },
        Op::DclThreadGroup => match inst.decl {
            DeclKind::ThreadGroup([x, y, z]) => w!(out, "{name} {x}, {y}, {z}"),
            _ => out.push_str(name),
        },
        Op::DclFunctionTable => match &inst.decl {
            DeclKind::FunctionTable { table, bodies } => {
                w!(out, "{name} ft{table} = ");
                write_braced(out, "fb", bodies);
            }
            _ => out.push_str(name),
        },
        Op::DclInterface => match &inst.decl {
            DeclKind::Interface {
                index,
                table_length,
                array_length,
                tables,
            } => {
                let dynamic = if c & (1 << 11) != 0 {
                    "_dynamicindexed"
                } else {
                    ""
                };
                w!(
                    out,
                    "{name}{dynamic} fp{index}[{array_length}][{table_length}] = "
                );
                write_braced(out, "ft", tables);
            }
            _ => out.push_str(name),
        },
        Op::InterfaceCall => {
            let function = match inst.decl {
                DeclKind::InterfaceCall { function } => function,
                _ => 0,
            };
            w!(out, "{name} {reg}[{function}]");
        }
        Op::DclGsInputPrimitive => {
            w!(out, "{name} {}", primitive_name((c >> 11) & 0x3f));
        }
        Op::DclGsOutputPrimitiveTopology => {
            w!(out, "{name} {}", topology_name((c >> 11) & 0x7f));
        }
        Op::DclInputControlPointCount | Op::DclOutputControlPointCount => {
            w!(out, "{name} {}", (c >> 11) & 0x3f);
        }
        Op::DclTessDomain => {
            let d = match (c >> 11) & 3 {
                1 => "domain_isoline",
                2 => "domain_tri",
                3 => "domain_quad",
                _ => "domain_undefined",
            };
            w!(out, "{name} {d}");
        }
        Op::DclTessPartitioning => {
            let p = match (c >> 11) & 7 {
                1 => "partitioning_integer",
                2 => "partitioning_pow2",
                3 => "partitioning_fractional_odd",
                4 => "partitioning_fractional_even",
                _ => "partitioning_undefined",
            };
            w!(out, "{name} {p}");
        }
        Op::DclTessOutputPrimitive => {
            let p = match (c >> 11) & 7 {
                1 => "output_point",
                2 => "output_line",
                3 => "output_triangle_cw",
                4 => "output_triangle_ccw",
                _ => "output_undefined",
            };
            w!(out, "{name} {p}");
        }
        _ => {
            out.push_str(name);
            if !reg.is_empty() {
                w!(out, " {reg}");
            }
        }
    }
    for w in &inst.trailing {
        w!(out, ", {w}");
    }
}

/// `{p0, p1, …}`: a function table's bodies (`fb`) or an interface's
/// tables (`ft`), each number after its register prefix.
fn write_braced(out: &mut String, prefix: &str, items: &[u32]) {
    out.push('{');
    for (i, n) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(prefix);
        numfmt::push_u64(out, u64::from(*n));
    }
    out.push('}');
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
