//! Declarations: constant buffers, temps, indexable temps, the immediate
//! constant buffer, global flags and stage inputs and outputs. Textures and
//! samplers belong to [`super::texture`].
//!
//! Inputs are declared once per signature element (`in_SEMn`, `vs_SEMn`)
//! and copied into `v` registers before the body; outputs are copied out of
//! `o` registers after it. Every `o` register starts at zero, so outputs the
//! signature lists but no instruction writes come out as zero.

use std::collections::BTreeSet;

use super::emit::{Emitter, convert};
use super::link::Interpolation;
use super::manifest::{ConstantBufferEntry, InterpolationQualifier, VaryingEntry};
use super::names;
use super::support::{Support, support};
use super::types::{Scalar, Ty, ValueType, mask_components, mask_count, swizzle};
use super::writer::Section;
use super::{Dialect, Reason, texture};

/// D3D11 limits: temps (and indexable-temp elements), constant-buffer rows,
/// input/output registers. Bytecode past them is malformed.
const MAX_TEMPS: u32 = 4096;
const MAX_CB_ROWS: u32 = 4096;
const MAX_IO_REGISTERS: u32 = 64;
use crate::dxbc::enums::{ComponentType, SystemValue};
use crate::dxbc::ir::{CustomData, DeclKind, Instruction, OperandType, ProgramType, Selection};
use crate::dxbc::opcodes::Op;
use crate::dxbc::signature::{RENDER_TARGETS, SignatureElement, SignatureKind, mask_columns};

/// Whether [`emit`] lowers `op` (for [`super::support::has_lowering`]).
pub(super) fn lowers(op: Op) -> bool {
    matches!(
        op,
        Op::DclTemps
            | Op::DclIndexableTemp
            | Op::DclConstantBuffer
            | Op::DclGlobalFlags
            | Op::DclResource
            | Op::DclSampler
            | Op::DclInput
            | Op::DclInputSgv
            | Op::DclInputSiv
            | Op::DclInputPs
            | Op::DclInputPsSgv
            | Op::DclInputPsSiv
            | Op::DclOutput
            | Op::DclOutputSgv
            | Op::DclOutputSiv
            | Op::DclIndexRange
            | Op::DclFunctionBody
            | Op::DclFunctionTable
            | Op::DclInterface
            | Op::Customdata
    )
}

pub fn emit(e: &mut Emitter, inst: &Instruction) {
    if let Support::Refused(reason) = support(inst.op) {
        e.refuse(inst, reason);
        return;
    }
    match inst.op {
        Op::DclTemps => {
            if let DeclKind::Count(n) = inst.decl
                && n > MAX_TEMPS
            {
                e.refuse(inst, Reason::Limit);
            } else if let DeclKind::Count(n) = inst.decl
                && n > 0
            {
                let regs: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
                e.decl_line(format!("vec4 {};", regs.join(", ")));
            }
        }
        Op::DclIndexableTemp => {
            if let DeclKind::IndexableTemp {
                reg,
                size,
                components,
            } = inst.decl
            {
                if size > MAX_TEMPS {
                    e.refuse(inst, Reason::Limit);
                    return;
                }
                let ty = Ty::Float.vec(components.clamp(1, 4) as usize);
                e.decl_line(format!("{ty} x{reg}[{}];", size.max(1)));
            }
        }
        Op::DclConstantBuffer => constant_buffer(e, inst),
        Op::DclGlobalFlags => {
            let flags = inst.global_flags().unwrap_or_default();
            if flags.force_early_depth_stencil {
                e.decl_line("// early_fragment_tests dropped: GLSL ES 3.00 has no such layout");
            }
            // vk450 lowers doubles (`double.rs`); ES 3.00 has none.
            if flags.enable_double_precision && e.dialect == Dialect::Es300 {
                e.refuse(inst, Reason::Double);
            }
        }
        Op::DclResource | Op::DclSampler => texture::declare(e, inst),
        Op::DclInput
        | Op::DclInputSgv
        | Op::DclInputSiv
        | Op::DclInputPs
        | Op::DclInputPsSgv
        | Op::DclInputPsSiv => input(e, inst),
        Op::DclOutput | Op::DclOutputSgv | Op::DclOutputSiv => output(e, inst),
        Op::DclIndexRange => {}
        Op::DclFunctionBody | Op::DclFunctionTable | Op::DclInterface => {
            super::interfaces::declare(e, inst)
        }
        Op::Customdata => {
            if let Some(c) = &inst.custom
                && let CustomData::ImmediateConstantBuffer(data) = c.as_ref()
            {
                if data.len() > 4 * MAX_CB_ROWS as usize {
                    e.refuse(inst, Reason::Limit);
                } else {
                    immediate_constant_buffer(e, data);
                }
            }
        }
        // Everything else is refused through the support table above or
        // is not a declaration.
        _ => {}
    }
}

fn constant_buffer(e: &mut Emitter, inst: &Instruction) {
    let Some(op) = inst.operands.first() else {
        return;
    };
    let (slot, size) = if e.program.is_sm51() {
        // CB#[lower:upper] with the range ID first; the size (in vec4s)
        // and the space follow as payload dwords, not operand indices.
        let id = op.indices.first().and_then(|i| i.imm()).unwrap_or(0) as u32;
        let size = inst.trailing.first().copied().unwrap_or(1);
        (id, size)
    } else {
        (
            op.reg().unwrap_or(0),
            op.indices.get(1).and_then(|i| i.imm()).unwrap_or(1) as u32,
        )
    };
    if size > MAX_CB_ROWS || slot > 15 {
        e.refuse(inst, Reason::Limit);
        return;
    }
    // A buffer read only by relative addressing may declare 0 rows;
    // a GLSL array needs one at least.
    let size = size.max(1);
    let layout = match e.dialect {
        Dialect::Es300 => "layout(std140)".to_string(),
        Dialect::Vk450 => format!(
            "layout(std140, set = {}, binding = {})",
            names::SET,
            names::cbuffer_binding(slot)
        ),
    };
    e.decl_line(format!(
        "{layout} uniform ConstantBuffer{slot} {{ vec4 data[{size}]; }} cb{slot};"
    ));
    let reflected_name = e.manifest.reflected_cbuffer(slot);
    e.manifest.constant_buffers.push(ConstantBufferEntry {
        slot,
        block: format!("ConstantBuffer{slot}"),
        instance: format!("cb{slot}"),
        vec4_count: size,
        binding: (e.dialect == Dialect::Vk450).then(|| names::cbuffer_binding(slot)),
        reflected_name,
    });
}

/// The ICB as raw bits: `uvec4` rows, reinterpreted at each read, so NaN
/// payloads, infinities and denormals survive exactly.
fn immediate_constant_buffer(e: &mut Emitter, data: &[u32]) {
    let rows = data.len().div_ceil(4).max(1);
    let mut items = Vec::with_capacity(rows);
    for r in 0..rows {
        let lane = |c: usize| data.get(r * 4 + c).copied().unwrap_or(0);
        items.push(format!(
            "uvec4({:#010x}u, {:#010x}u, {:#010x}u, {:#010x}u)",
            lane(0),
            lane(1),
            lane(2),
            lane(3)
        ));
    }
    e.decl_line(format!("const uvec4 ImmCB_0[{rows}] = uvec4[{rows}]("));
    let last = items.len() - 1;
    for (i, item) in items.into_iter().enumerate() {
        let sep = if i == last { "" } else { "," };
        e.decl_line(format!("    {item}{sep}"));
    }
    e.decl_line(");");
}

fn signature<'a>(e: &Emitter<'a>, kind: SignatureKind) -> Vec<&'a SignatureElement> {
    e.shader
        .signatures
        .iter()
        .filter(|s| s.kind == kind)
        .flat_map(|s| s.elements.iter())
        .collect()
}

/// Signature elements in register `reg` overlapping `mask`.
fn elements_at<'a>(
    e: &Emitter<'a>,
    kind: SignatureKind,
    reg: u32,
    mask: u8,
) -> Vec<&'a SignatureElement> {
    signature(e, kind)
        .into_iter()
        .filter(|el| el.register == reg && el.mask & mask != 0)
        .collect()
}

fn component_ty(el: Option<&SignatureElement>) -> Ty {
    match el.map(|e| e.component_type()) {
        Some(ComponentType::Uint32) => Ty::Uint,
        Some(ComponentType::Sint32) => Ty::Int,
        _ => Ty::Float,
    }
}

/// The vk450 location of a non-system-value varying: its position in the
/// link's order (a vertex shader translated with one), else in the
/// caller's order, else among the stage's non-system-value elements.
/// Elements an order leaves out take the locations after it, in signature
/// order, so none shares a location with a listed one.
fn varying_location(e: &Emitter, kind: SignatureKind, el: &SignatureElement) -> u32 {
    let linked = match (&e.options.link, e.stage) {
        (Some(link), ProgramType::Vertex) => Some(link.varying_order()),
        _ => None,
    };
    let order = linked.as_ref().or(e.options.varying_locations.as_ref());
    let listed = |x: &SignatureElement| {
        order.and_then(|o| {
            o.iter().position(|(n, i)| {
                n.eq_ignore_ascii_case(&x.semantic_name) && *i == x.semantic_index
            })
        })
    };
    if let Some(p) = listed(el) {
        return p as u32;
    }
    let mut next = order.map_or(0, |o| o.len());
    for x in signature(e, kind) {
        if x.is_system_value() {
            continue;
        }
        if std::ptr::eq(x, el) {
            return next as u32;
        }
        if listed(x).is_none() {
            next += 1;
        }
    }
    el.register
}

/// The register, mask and system value a `dcl_input*`/`dcl_output*`
/// declares, with the register recorded in the file. None when there is
/// nothing to declare: a register past D3D's limits (refused) or an empty
/// mask (the register still exists and stays zero).
fn io_register(
    e: &mut Emitter,
    inst: &Instruction,
    op: &crate::dxbc::ir::Operand,
    output: bool,
) -> Option<(u32, u8, SystemValue)> {
    let reg = op
        .reg()
        .unwrap_or_else(|| op.indices.get(1).and_then(|i| i.imm()).unwrap_or(0) as u32);
    let mask = match op.selection {
        Selection::Mask(m) => m,
        _ => 0xf,
    };
    if reg >= MAX_IO_REGISTERS {
        e.refuse(inst, Reason::Limit);
        return None;
    }
    if output {
        e.output_regs.insert(reg);
    } else {
        e.input_regs.insert(reg);
    }
    let sv = inst.system_value().unwrap_or(SystemValue::Undefined);
    (mask != 0).then_some((reg, mask, sv))
}

fn input(e: &mut Emitter, inst: &Instruction) {
    let Some(op) = inst.operands.first() else {
        return;
    };
    if op.ty == OperandType::INPUT_COVERAGE_MASK && e.dialect == Dialect::Vk450 {
        // Read through the operand (emit.rs): only a sample-frequency
        // shader's is expressible.
        if runs_per_sample(e) {
            e.decl_line("// vCoverage: this sample's bit, 1u << gl_SampleID (sample frequency)");
            let uint = ValueType::vec(Ty::Uint, 1);
            push_sv_entry(e, false, u32::MAX, 1, "SV_Coverage", "gl_SampleID", uint);
        } else {
            e.refuse(inst, Reason::CoverageInput);
        }
        return;
    }
    if op.ty != OperandType::INPUT {
        // vPrim, vCoverage and friends: system values without a built-in.
        e.refuse(inst, Reason::SystemValue);
        return;
    }
    let Some((reg, mask, sv)) = io_register(e, inst, op, false) else {
        return;
    };
    let reg_name = e.input_name(reg);
    // The register's mode as the analysis pass records it (one per
    // register, as D3D requires), the same the CPU rasteriser
    // interpolates with; vertex inputs have none.
    let interp = e
        .analysis
        .inputs
        .get(reg)
        .and_then(|r| r.interpolation)
        .unwrap_or(Interpolation::Undefined);
    match (e.stage, sv) {
        (_, SystemValue::Undefined) => {}
        (ProgramType::Pixel, SystemValue::Position) => {
            if !e.frag_coord {
                e.frag_coord = true;
                // es300: D3D counts rows from the top; GL's window y runs
                // that way only when the vertex shader flipped y (drawing
                // into a texture), so hlslcc_YFlip says which (docs/glsl.md).
                // Vulkan's window y already runs as D3D's.
                let xyz = match e.dialect {
                    Dialect::Es300 => {
                        e.y_flip = true;
                        "gl_FragCoord.x, hlslcc_YFlip.y - hlslcc_YFlip.x * gl_FragCoord.y, gl_FragCoord.z"
                    }
                    Dialect::Vk450 => "gl_FragCoord.xyz",
                };
                e.prologue.line(
                    None,
                    format!("vec4 hlslcc_FragCoord = vec4({xyz}, 1.0 / gl_FragCoord.w);"),
                );
            }
            let sw = swizzle(&mask_components(mask));
            e.prologue
                .line(None, format!("{reg_name}{sw} = hlslcc_FragCoord{sw};"));
            e.decl_line(format!(
                "// {reg_name}{sw}: SV_Position as hlslcc_FragCoord (w = 1 / gl_FragCoord.w = clip w)"
            ));
            push_sv_entry(
                e,
                false,
                reg,
                mask,
                "SV_Position",
                "hlslcc_FragCoord",
                ValueType::vec(Ty::Float, 4),
            );
            return;
        }
        (ProgramType::Pixel, SystemValue::IsFrontFace) => {
            let c = swizzle(&mask_components(mask)[..1]);
            e.prologue.line(
                None,
                format!("{reg_name}{c} = uintBitsToFloat(gl_FrontFacing ? 0xffffffffu : 0u);"),
            );
            e.decl_line(format!(
                "// {reg_name}{c}: SV_IsFrontFace as a 0xFFFFFFFF / 0 mask of gl_FrontFacing"
            ));
            push_sv_entry(
                e,
                false,
                reg,
                mask,
                "SV_IsFrontFace",
                "gl_FrontFacing",
                ValueType::vec(Scalar::Bool, 1),
            );
            return;
        }
        (ProgramType::Pixel, SystemValue::SampleIndex) if e.dialect == Dialect::Vk450 => {
            // Reading gl_SampleID runs the shader once per sample, as
            // SV_SampleIndex does in D3D. naga types it as uint.
            let c = swizzle(&mask_components(mask)[..1]);
            e.prologue.line(
                None,
                format!("{reg_name}{c} = uintBitsToFloat(uint(gl_SampleID));"),
            );
            e.decl_line(format!("// {reg_name}{c}: SV_SampleIndex from gl_SampleID"));
            push_sv_entry(
                e,
                false,
                reg,
                mask,
                "SV_SampleIndex",
                "gl_SampleID",
                ValueType::vec(Ty::Uint, 1),
            );
            return;
        }
        (ProgramType::Vertex, SystemValue::VertexId | SystemValue::InstanceId) => {
            let (builtin, semantic) = match (sv, e.dialect) {
                (SystemValue::VertexId, Dialect::Es300) => ("gl_VertexID", "SV_VertexID"),
                (SystemValue::VertexId, Dialect::Vk450) => ("gl_VertexIndex", "SV_VertexID"),
                (_, Dialect::Es300) => ("gl_InstanceID", "SV_InstanceID"),
                (_, Dialect::Vk450) => ("gl_InstanceIndex", "SV_InstanceID"),
            };
            let c = swizzle(&mask_components(mask)[..1]);
            // naga types gl_VertexIndex/gl_InstanceIndex as uint; int() of
            // either keeps the bits.
            let value = match e.dialect {
                Dialect::Es300 => builtin.to_string(),
                Dialect::Vk450 => format!("int({builtin})"),
            };
            e.prologue
                .line(None, format!("{reg_name}{c} = intBitsToFloat({value});"));
            e.decl_line(format!("// {reg_name}{c}: {semantic} from {builtin}"));
            push_sv_entry(
                e,
                false,
                reg,
                mask,
                semantic,
                builtin,
                ValueType::vec(Ty::Int, 1),
            );
            return;
        }
        _ => {
            e.refuse(inst, Reason::SystemValue);
            return;
        }
    }
    let elements = elements_at(e, SignatureKind::Input, reg, mask);
    if elements.is_empty() {
        // No signature: name the register itself.
        let (name, ty) = (format!("in_v{reg}"), Ty::Float);
        if !declare_input(e, reg, mask, None, &name, ty, interp) {
            e.refuse(inst, Reason::NameClash);
        }
        return;
    }
    for el in elements {
        if el.system_value() != SystemValue::Undefined && e.stage == ProgramType::Pixel {
            // A system value declared through plain dcl_input_ps.
            e.refuse(inst, Reason::SystemValue);
            continue;
        }
        let name = match e.stage {
            ProgramType::Vertex => names::vertex_input(&el.semantic_name, el.semantic_index),
            _ => names::varying(&el.semantic_name, el.semantic_index),
        };
        let ty = component_ty(Some(el));
        if !declare_input(e, reg, el.mask, Some(el), &name, ty, interp) {
            e.refuse(inst, Reason::NameClash);
        }
    }
}

/// Whether `name` is already the variable of another element (or another
/// register). Semantic names come from the file and keep only their ASCII
/// letters and digits in identifiers, so `CO.UR` and `CO\u{e9}UR` both give
/// `vs_CO_UR0`; declaring the name once would silently drop one of them.
fn taken_by_another(
    declared: &[VaryingEntry],
    name: &str,
    reg: u32,
    el: Option<&SignatureElement>,
) -> bool {
    declared.iter().any(|v| {
        v.glsl_name == name
            && (v.register != reg
                || el.is_some_and(|el| {
                    v.semantic != el.semantic_name || v.semantic_index != el.semantic_index
                }))
    })
}

/// Declares one input variable (once) and its copy into the `v` register.
/// False when the name belongs to another element: the caller refuses.
fn declare_input(
    e: &mut Emitter,
    reg: u32,
    mask: u8,
    el: Option<&SignatureElement>,
    name: &str,
    ty: Ty,
    mode: Interpolation,
) -> bool {
    if taken_by_another(&e.manifest.inputs, name, reg, el) {
        return false;
    }
    if e.manifest.inputs.iter().any(|i| i.glsl_name == name) {
        return true;
    }
    let n = mask_count(mask);
    let vertex = e.stage == ProgramType::Vertex;
    // Vertex attributes are float whatever their type: runtimes bind them
    // with vertexAttribPointer, and the body bitcasts at each use.
    let decl_ty = if vertex { Ty::Float } else { ty };
    let flat = !vertex && (decl_ty != Ty::Float || mode.is_constant());
    let noperspective = !vertex && !flat && mode.is_noperspective();
    // es300 drops `sample` (ES 3.20): the value is taken at the pixel
    // centre or, with `centroid`, the centroid. vk450 keeps it, which (as
    // in D3D) also runs the shader once per sample.
    let mut qualifier = qualifier(
        e.dialect,
        flat,
        mode.is_centroid() && !vertex,
        noperspective,
    );
    if e.dialect == Dialect::Vk450 && !vertex && !flat && mode.is_sample() {
        qualifier.push_str("sample ");
    }
    let location = match (e.dialect, el) {
        (Dialect::Vk450, Some(el)) if vertex => Some(
            signature(e, SignatureKind::Input)
                .iter()
                .position(|x| std::ptr::eq(*x, el))
                .unwrap_or(reg as usize) as u32,
        ),
        (Dialect::Vk450, Some(el)) => Some(varying_location(e, SignatureKind::Input, el)),
        (Dialect::Vk450, None) => Some(reg),
        (Dialect::Es300, _) => None,
    };
    let layout = location
        .map(|l| format!("layout(location = {l}) "))
        .unwrap_or_default();
    let glsl_ty = ValueType::vec(decl_ty, n);
    e.decl_line(format!("{layout}{qualifier}in {glsl_ty} {name};"));
    let reg_name = e.input_name(reg);
    let sw = swizzle(&mask_components(mask));
    let mut value = convert(name, decl_ty, Ty::Float, n);
    if noperspective && !native_noperspective(e.dialect) {
        // The linked vertex shader wrote value * clip w; interpolated with
        // perspective that is w-weighted, and gl_FragCoord.w (1 / the
        // interpolated w) turns it back into the screen-linear value.
        value = format!("{value} * gl_FragCoord.w");
        e.decl_line(format!(
            "// {name}: noperspective emulated (not in GLSL ES 3.00): the linked vertex shader writes value * clip w"
        ));
    }
    e.prologue.line(None, format!("{reg_name}{sw} = {value};"));
    e.manifest.inputs.push(VaryingEntry {
        register: reg,
        mask: mask_text(mask),
        semantic: el.map_or(String::new(), |el| el.semantic_name.clone()),
        semantic_index: el.map_or(0, |el| el.semantic_index),
        glsl_name: name.to_string(),
        glsl_type: glsl_ty,
        location,
        interpolation: InterpolationQualifier::with_sample(
            flat,
            mode.is_centroid() && !vertex,
            noperspective,
            e.dialect == Dialect::Vk450 && !vertex && mode.is_sample(),
        ),
        builtin: false,
    });
    true
}

/// Whether the dialect has `noperspective` (GLSL 4.50 does, ES 3.00 not).
fn native_noperspective(dialect: Dialect) -> bool {
    dialect == Dialect::Vk450
}

/// The interpolation qualifiers of a varying (with a trailing space).
/// es300 has no `noperspective`; the value is scaled by w instead (see
/// [`declare_input`] and [`declare_output`]).
fn qualifier(dialect: Dialect, flat: bool, centroid: bool, noperspective: bool) -> String {
    if flat {
        return "flat ".into();
    }
    let mut q = String::new();
    if noperspective && native_noperspective(dialect) {
        q.push_str("noperspective ");
    }
    if centroid {
        q.push_str("centroid ");
    }
    q
}

/// A mask as the manifest writes it (`xy`, `x_z`… without spaces).
fn mask_text(mask: u8) -> String {
    mask_columns(mask).replace(' ', "")
}

fn push_sv_entry(
    e: &mut Emitter,
    output: bool,
    reg: u32,
    mask: u8,
    semantic: &str,
    glsl: &str,
    ty: ValueType,
) {
    let entry = VaryingEntry {
        register: reg,
        mask: mask_text(mask),
        semantic: semantic.into(),
        semantic_index: 0,
        glsl_name: glsl.into(),
        glsl_type: ty,
        location: None,
        interpolation: None,
        builtin: true,
    };
    if output {
        e.manifest.outputs.push(entry);
    } else {
        e.manifest.inputs.push(entry);
    }
}

fn output(e: &mut Emitter, inst: &Instruction) {
    let Some(op) = inst.operands.first() else {
        return;
    };
    match op.ty {
        OperandType::OUTPUT => {}
        OperandType::OUTPUT_DEPTH
        | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
        | OperandType::OUTPUT_DEPTH_LESS_EQUAL => {
            e.uses_depth_output = true;
            if op.ty != OperandType::OUTPUT_DEPTH {
                e.decl_line("// conservative depth hint dropped: not in GLSL ES 3.00");
            }
            e.epilogue.line(None, "gl_FragDepth = oDepth;");
            let float = ValueType::vec(Ty::Float, 1);
            push_sv_entry(e, true, u32::MAX, 1, "SV_Depth", "gl_FragDepth", float);
            return;
        }
        OperandType::OUTPUT_COVERAGE_MASK if e.dialect == Dialect::Vk450 => {
            // naga's GLSL front end has no gl_SampleMask. Each sample's
            // invocation instead drops itself when its bit of oMask is
            // clear: reading gl_SampleID runs the shader per sample, and
            // the samples kept are those D3D keeps (oMask ANDed with the
            // coverage), provided the outputs do not depend on where in
            // the pixel the shader runs (docs/glsl-textures.md).
            e.uses_coverage_output = true;
            e.epilogue.line(
                None,
                "if (((oMask >> uint(gl_SampleID)) & 1u) == 0u) { discard; }",
            );
            let uint = ValueType::vec(Ty::Uint, 1);
            push_sv_entry(e, true, u32::MAX, 1, "SV_Coverage", "gl_SampleID", uint);
            return;
        }
        _ => {
            e.refuse(inst, Reason::SystemValue);
            return;
        }
    }
    let Some((reg, mask, sv)) = io_register(e, inst, op, true) else {
        return;
    };
    let reg_name = e.output_name(reg);
    if e.stage == ProgramType::Vertex && sv == SystemValue::Position {
        e.position.line(None, format!("gl_Position = {reg_name};"));
        if e.dialect == Dialect::Es300 {
            // D3D's y (rows from the top) when drawing into a texture,
            // and clip z in [0, w] moved to GL's [-w, w], so the window
            // depth of the default depthRange(0, 1) is D3D's (docs/glsl.md).
            e.position.line(None, "gl_Position.y *= hlslcc_YFlip.x;");
            e.position
                .line(None, "gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;");
        }
        e.decl_line(format!("// {reg_name}: SV_Position to gl_Position"));
        let vec4 = ValueType::vec(Ty::Float, 4);
        push_sv_entry(e, true, reg, mask, "SV_Position", "gl_Position", vec4);
        return;
    }
    if sv != SystemValue::Undefined {
        e.refuse(inst, Reason::SystemValue);
        return;
    }
    let elements = elements_at(e, SignatureKind::Output, reg, mask);
    if elements.is_empty() {
        // Without a signature the register is the render target.
        if e.stage == ProgramType::Pixel && reg >= RENDER_TARGETS {
            e.refuse(inst, Reason::Limit);
            return;
        }
        let name = match e.stage {
            ProgramType::Pixel => format!("SV_Target{reg}"),
            _ => format!("vs_o{reg}"),
        };
        if !declare_output(e, reg, mask, None, &name, Ty::Float, reg) {
            e.refuse(inst, Reason::NameClash);
        }
        return;
    }
    for el in elements {
        let name = match e.stage {
            ProgramType::Pixel => {
                if !el.semantic_name.eq_ignore_ascii_case("SV_Target") {
                    e.refuse(inst, Reason::SystemValue);
                    continue;
                }
                // The index is the render target, and so the GLSL
                // location: past D3D's eight it is damaged bytecode.
                if el.semantic_index >= RENDER_TARGETS {
                    e.refuse(inst, Reason::Limit);
                    continue;
                }
                format!("SV_Target{}", el.semantic_index)
            }
            _ => {
                if el.is_system_value() {
                    e.refuse(inst, Reason::SystemValue);
                    continue;
                }
                names::varying(&el.semantic_name, el.semantic_index)
            }
        };
        let ty = component_ty(Some(el));
        if !declare_output(e, reg, el.mask, Some(el), &name, ty, el.semantic_index) {
            e.refuse(inst, Reason::NameClash);
        }
    }
}

/// Declares one output variable (once) and its copy from the `o`
/// register. False when the name belongs to another element: the caller
/// refuses.
fn declare_output(
    e: &mut Emitter,
    reg: u32,
    mask: u8,
    el: Option<&SignatureElement>,
    name: &str,
    ty: Ty,
    target_index: u32,
) -> bool {
    if taken_by_another(&e.manifest.outputs, name, reg, el) {
        return false;
    }
    if e.manifest.outputs.iter().any(|o| o.glsl_name == name) {
        return true;
    }
    let pixel = e.stage == ProgramType::Pixel;
    // The pixel input this output feeds, when translated with a link: D3D
    // decides interpolation there, and GLSL wants it on both sides.
    let linked = match (&e.options.link, el) {
        (Some(link), Some(el)) if !pixel => link.input(&el.semantic_name, el.semantic_index),
        _ => None,
    };
    // D3D lets a pixel shader read fewer components of an element than the
    // vertex shader writes; GLSL wants one type on both sides, so a linked
    // output is declared with the components the pixel shader reads.
    let mask = linked
        .map(|i| mask & i.mask)
        .filter(|m| *m != 0)
        .unwrap_or(mask);
    let n = mask_count(mask);
    let glsl_ty = ValueType::vec(ty, n);
    let location = if pixel {
        Some(target_index)
    } else {
        match (e.dialect, el) {
            (Dialect::Vk450, Some(el)) => Some(varying_location(e, SignatureKind::Output, el)),
            (Dialect::Vk450, None) => Some(reg),
            (Dialect::Es300, _) => None,
        }
    };
    let layout = location
        .map(|l| format!("layout(location = {l}) "))
        .unwrap_or_default();
    let mode = linked.map_or(Interpolation::Undefined, |i| i.interpolation);
    let flat = !pixel
        && (ty != Ty::Float
            || mode.is_constant()
            || linked.is_some_and(|i| i.component.is_integer()));
    let noperspective = !flat && mode.is_noperspective();
    let centroid = !flat && mode.is_centroid();
    let mut qualifiers = qualifier(e.dialect, flat, centroid, noperspective);
    // wgpu matches sampling between the stages: the linked pixel input's
    // `sample` is repeated (vk450; es300 drops it on both sides).
    let sample = !flat && e.dialect == Dialect::Vk450 && mode.is_sample();
    if sample {
        qualifiers.push_str("sample ");
    }
    e.decl_line(format!("{layout}{qualifiers}out {glsl_ty} {name};"));
    let reg_name = e.output_name(reg);
    let sw = swizzle(&mask_components(mask));
    let mut value = convert(&format!("{reg_name}{sw}"), Ty::Float, ty, n);
    if noperspective && !native_noperspective(e.dialect) {
        // The pixel shader multiplies by gl_FragCoord.w (see
        // declare_input). gl_Position is written first, and its fix-up
        // leaves w alone.
        value = format!("{value} * gl_Position.w");
    }
    e.epilogue.line(None, format!("{name} = {value};"));
    e.manifest.outputs.push(VaryingEntry {
        register: reg,
        mask: mask_text(mask),
        semantic: el.map_or(String::new(), |el| el.semantic_name.clone()),
        semantic_index: el.map_or(target_index, |el| el.semantic_index),
        glsl_name: name.to_string(),
        glsl_type: glsl_ty,
        location,
        interpolation: InterpolationQualifier::with_sample(flat, centroid, noperspective, sample),
        builtin: false,
    });
    true
}

/// The `v` and `o` registers (and `oDepth`), declared after the other
/// declarations; outputs start at zero.
pub fn register_file(e: &mut Emitter, out: &mut Section) {
    let count = |set: &BTreeSet<u32>| set.iter().next_back().map_or(0, |m| m + 1);
    let inputs = count(&e.input_regs);
    let outputs = count(&e.output_regs);
    if inputs > 0 {
        if e.inputs_indexed {
            out.line(None, format!("vec4 v[{inputs}];"));
        } else {
            let regs: Vec<String> = e.input_regs.iter().map(|r| format!("v{r}")).collect();
            out.line(None, format!("vec4 {};", regs.join(", ")));
        }
    }
    if outputs > 0 {
        if e.outputs_indexed {
            out.line(None, format!("vec4 o[{outputs}];"));
        } else {
            let regs: Vec<String> = e.output_regs.iter().map(|r| format!("o{r}")).collect();
            out.line(None, format!("vec4 {};", regs.join(", ")));
        }
    }
    if e.uses_depth_output {
        out.line(None, "float oDepth;");
    }
    if e.uses_coverage_output {
        out.line(None, "uint oMask;");
    }
    if !out.is_empty() {
        out.line(None, "");
    }
    // Zero every output before the body runs (prepended to the prologue).
    let mut zero = Section::indented(1);
    if e.outputs_indexed {
        for r in 0..outputs {
            zero.line(None, format!("o[{r}] = vec4(0.0);"));
        }
    } else {
        for r in &e.output_regs {
            let note = if e.outputs_written.contains(r) {
                ""
            } else {
                " // signature-only output: never written"
            };
            zero.line(None, format!("o{r} = vec4(0.0);{note}"));
        }
    }
    if e.uses_depth_output {
        zero.line(None, "oDepth = 0.0;");
    }
    if e.uses_coverage_output {
        // Every sample kept until the shader says otherwise.
        zero.line(None, "oMask = 0xffffffffu;");
    }
    let rest = std::mem::take(&mut e.prologue);
    zero.append(rest);
    e.prologue = zero;
}

/// Whether the pixel shader runs once per sample in D3D: it reads
/// `SV_SampleIndex` or interpolates an input at sample positions.
pub(super) fn runs_per_sample(e: &Emitter) -> bool {
    e.stage == ProgramType::Pixel
        && e.analysis.inputs.registers.iter().any(|r| {
            r.system_value == SystemValue::SampleIndex
                || r.interpolation.is_some_and(|i| i.is_sample())
        })
}
