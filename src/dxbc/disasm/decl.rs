//! Declarations in fxc's syntax: the names fxc gives interpolation modes,
//! system values, primitives and flags, and one printer per declaration
//! layout. The assembler parses the same names back.

use std::fmt::Write as _;

use super::{Style, return_type_list, write_operand, write_register_name, write_return_type_list};
use crate::dxbc::ir::*;
use crate::dxbc::numfmt;
use crate::dxbc::opcodes::{NumType, Op};

pub fn system_value_name(v: u32) -> String {
    match system_value_str(v) {
        Some(s) => s.to_string(),
        None => format!("system_value_{v}"),
    }
}

/// [`system_value_name`] appended to `out`, without a String for the named
/// ones.
fn push_system_value(out: &mut String, v: u32) {
    match system_value_str(v) {
        Some(s) => out.push_str(s),
        None => {
            out.push_str("system_value_");
            push_num(out, v);
        }
    }
}

/// The `D3D10_SB_NAME` words fxc prints, for the codes it names.
fn system_value_str(v: u32) -> Option<&'static str> {
    Some(match v {
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
        _ => return None,
    })
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

/// A number in decimal, the one kind of value declarations print.
fn push_num(out: &mut String, v: u32) {
    numfmt::push_u64(out, u64::from(v));
}

/// `dcl_input_ps`'s interpolation words ([`interpolation_name`]) appended
/// without building a String for the common modes.
fn push_interpolation(out: &mut String, mode: u32) {
    match mode {
        0 => out.push_str("undefined"),
        1 => out.push_str("constant"),
        2 => out.push_str("linear"),
        3 => out.push_str("linear centroid"),
        4 => out.push_str("linear noperspective"),
        5 => out.push_str("linear noperspective centroid"),
        6 => out.push_str("linear sample"),
        7 => out.push_str("linear noperspective sample"),
        _ => out.push_str(&interpolation_name(mode)),
    }
}

/// One declaration appended to `out`. Pieces are pushed one by one (no
/// `write!`, no temporary register String): declarations are a good part of
/// every disassembly listing, and formatting machinery and an allocation per
/// declaration showed in translation profiles. The output is exactly what
/// the former `format!`-based printer produced.
pub(super) fn write_decl(out: &mut String, inst: &Instruction, style: Style) {
    if let Some(s) = format_decl_sm51(inst, style) {
        out.push_str(&s);
        return;
    }
    let c = inst.controls;
    let op = inst.operands.first();
    // The declared register as `format_operand` prints it (nothing when the
    // declaration has no operand).
    let reg = |out: &mut String| {
        if let Some(o) = op {
            write_operand(out, o, NumType::Uint, style);
        }
    };
    let name = inst.name();
    match inst.op {
        Op::DclGlobalFlags => {
            out.push_str(name);
            out.push(' ');
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
                let _ = write!(out, "{unknown:#x}");
            }
        }
        Op::DclConstantBuffer => {
            let access = if c & (1 << 11) != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            out.push_str(name);
            out.push(' ');
            let at = out.len();
            if let Some(o) = op {
                write_register_name(out, o, style);
            }
            if style.upper_cb_decl
                && let Some(i) = out[at..].find("cb")
            {
                out.replace_range(at + i..at + i + 2, "CB");
            }
            out.push_str(", ");
            out.push_str(access);
        }
        Op::DclSampler => {
            out.push_str(name);
            out.push(' ');
            reg(out);
            out.push_str(", ");
            match (c >> 11) & 0xf {
                0 => out.push_str("mode_default"),
                1 => out.push_str("mode_comparison"),
                2 => out.push_str("mode_mono"),
                m => {
                    out.push_str("mode_");
                    push_num(out, m);
                }
            }
        }
        Op::DclResource => {
            let dim = ResourceDimension::from_code(((c >> 11) & 0x1f) as u8);
            let samples = (c >> 16) & 0x7f;
            out.push_str("dcl_resource_");
            out.push_str(dim.name());
            if matches!(
                dim,
                ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray
            ) {
                out.push('(');
                push_num(out, samples);
                out.push(')');
            }
            out.push(' ');
            if let DeclKind::ReturnTypes(t) = &inst.decl {
                write_return_type_list(out, t);
            }
            out.push(' ');
            reg(out);
        }
        Op::DclUavTyped => {
            let dim = ResourceDimension::from_code(((c >> 11) & 0x1f) as u8);
            out.push_str("dcl_uav_typed_");
            out.push_str(dim.name());
            out.push_str(uav_flags(c));
            out.push(' ');
            if let DeclKind::ReturnTypes(t) = &inst.decl {
                write_return_type_list(out, t);
            }
            out.push(' ');
            reg(out);
        }
        Op::DclUavRaw => {
            out.push_str("dcl_uav_raw");
            out.push_str(uav_flags(c));
            out.push(' ');
            reg(out);
        }
        Op::DclUavStructured => {
            out.push_str("dcl_uav_structured");
            out.push_str(uav_flags(c));
            if c & (1 << 23) != 0 {
                out.push_str("_opc");
            }
            out.push(' ');
            reg(out);
            out.push_str(", ");
            push_num(out, count(inst));
        }
        Op::DclResourceRaw => {
            out.push_str(name);
            out.push(' ');
            reg(out);
        }
        Op::DclResourceStructured | Op::DclTgsmRaw => {
            out.push_str(name);
            out.push(' ');
            reg(out);
            out.push_str(", ");
            push_num(out, count(inst));
        }
        Op::DclTgsmStructured => {
            out.push_str(name);
            out.push(' ');
            reg(out);
            if let DeclKind::Pair(a, b) = inst.decl {
                out.push_str(", ");
                push_num(out, a);
                out.push_str(", ");
                push_num(out, b);
            }
        }
        Op::DclInputPs | Op::DclInputPsSiv | Op::DclInputPsSgv => {
            let mode = (c >> 11) & 0xf;
            // fxc encodes system-generated pixel inputs as `constant`; only
            // d3dcompiler_47 prints it, and the assembler reads a bare
            // `dcl_input_ps_sgv` as `constant`. So there any other mode,
            // `undefined` included, must be spelt out.
            let interp = match (inst.op, mode) {
                (Op::DclInputPsSgv, 1) if !style.sgv_interpolation => false,
                (Op::DclInputPsSgv, _) => true,
                (_, 0) => false,
                _ => true,
            };
            out.push_str(name);
            out.push(' ');
            if interp {
                push_interpolation(out, mode);
                out.push(' ');
            }
            reg(out);
            if let DeclKind::SystemValue(v) = inst.decl {
                out.push_str(", ");
                push_system_value(out, v.code());
            }
        }
        Op::DclInputSgv | Op::DclInputSiv | Op::DclOutputSgv | Op::DclOutputSiv => {
            out.push_str(name);
            out.push(' ');
            reg(out);
            out.push_str(", ");
            if let DeclKind::SystemValue(v) = inst.decl {
                push_system_value(out, v.code());
            }
        }
        Op::DclIndexRange => {
            out.push_str(name);
            out.push(' ');
            reg(out);
            out.push(' ');
            push_num(out, count(inst));
        }
        Op::DclTemps
        | Op::DclMaxOutputVertexCount
        | Op::DclHsForkPhaseInstanceCount
        | Op::DclHsJoinPhaseInstanceCount
        | Op::DclGsInstanceCount => {
            out.push_str(name);
            out.push(' ');
            push_num(out, count(inst));
        }
        Op::DclFunctionBody => {
            out.push_str(name);
            out.push_str(" fb");
            push_num(out, count(inst));
        }
        Op::DclHsMaxTessfactor => {
            out.push_str(name);
            out.push_str(" l(");
            numfmt::write_float(out, count(inst), style.floats);
            out.push(')');
        }
        Op::DclIndexableTemp => {
            out.push_str(name);
            if let DeclKind::IndexableTemp {
                reg,
                size,
                components,
            } = inst.decl
            {
                out.push_str(" x");
                push_num(out, reg);
                out.push('[');
                push_num(out, size);
                out.push_str("], ");
                push_num(out, components);
            }
        }
        Op::DclThreadGroup => {
            out.push_str(name);
            if let DeclKind::ThreadGroup([x, y, z]) = inst.decl {
                out.push(' ');
                push_num(out, x);
                out.push_str(", ");
                push_num(out, y);
                out.push_str(", ");
                push_num(out, z);
            }
        }
        Op::DclFunctionTable => {
            out.push_str(name);
            if let DeclKind::FunctionTable { table, bodies } = &inst.decl {
                out.push_str(" ft");
                push_num(out, *table);
                out.push_str(" = ");
                write_braced(out, "fb", bodies);
            }
        }
        Op::DclInterface => {
            out.push_str(name);
            if let DeclKind::Interface {
                index,
                table_length,
                array_length,
                tables,
            } = &inst.decl
            {
                if c & (1 << 11) != 0 {
                    out.push_str("_dynamicindexed");
                }
                out.push_str(" fp");
                push_num(out, *index);
                out.push('[');
                push_num(out, *array_length);
                out.push_str("][");
                push_num(out, *table_length);
                out.push_str("] = ");
                write_braced(out, "ft", tables);
            }
        }
        Op::InterfaceCall => {
            let function = match inst.decl {
                DeclKind::InterfaceCall { function } => function,
                _ => 0,
            };
            out.push_str(name);
            out.push(' ');
            reg(out);
            out.push('[');
            push_num(out, function);
            out.push(']');
        }
        Op::DclGsInputPrimitive => {
            out.push_str(name);
            out.push(' ');
            out.push_str(&primitive_name((c >> 11) & 0x3f));
        }
        Op::DclGsOutputPrimitiveTopology => {
            out.push_str(name);
            out.push(' ');
            out.push_str(&topology_name((c >> 11) & 0x7f));
        }
        Op::DclInputControlPointCount | Op::DclOutputControlPointCount => {
            out.push_str(name);
            out.push(' ');
            push_num(out, (c >> 11) & 0x3f);
        }
        Op::DclTessDomain => {
            let d = match (c >> 11) & 3 {
                1 => "domain_isoline",
                2 => "domain_tri",
                3 => "domain_quad",
                _ => "domain_undefined",
            };
            out.push_str(name);
            out.push(' ');
            out.push_str(d);
        }
        Op::DclTessPartitioning => {
            let p = match (c >> 11) & 7 {
                1 => "partitioning_integer",
                2 => "partitioning_pow2",
                3 => "partitioning_fractional_odd",
                4 => "partitioning_fractional_even",
                _ => "partitioning_undefined",
            };
            out.push_str(name);
            out.push(' ');
            out.push_str(p);
        }
        Op::DclTessOutputPrimitive => {
            let p = match (c >> 11) & 7 {
                1 => "output_point",
                2 => "output_line",
                3 => "output_triangle_cw",
                4 => "output_triangle_ccw",
                _ => "output_undefined",
            };
            out.push_str(name);
            out.push(' ');
            out.push_str(p);
        }
        _ => {
            out.push_str(name);
            // A space only when the register prints something.
            let at = out.len();
            out.push(' ');
            reg(out);
            if out.len() == at + 1 {
                out.truncate(at);
            }
        }
    }
    for w in &inst.trailing {
        out.push_str(", ");
        push_num(out, *w);
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
