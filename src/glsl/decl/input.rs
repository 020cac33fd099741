//! Stage inputs: `dcl_input*` as input variables copied into `v`
//! registers before the body, and the system values read through GLSL
//! built-ins.

use super::super::emit::{Emitter, push_converted};
use super::super::link::Interpolation;
use super::super::manifest::{InterpolationQualifier, VaryingEntry};
use super::super::names;
use super::super::types::{Scalar, Swizzle, Ty, ValueType, mask_count};
use super::super::writer::cat;
use super::super::{Dialect, Reason};
use super::io::{
    LocationLayout, component_ty, elements_at, io_register, mask_text, native_noperspective,
    push_sv_entry, qualifier, signature, taken_by_another, varying_location,
};
use crate::dxbc::enums::SystemValue;
use crate::dxbc::ir::{Instruction, OperandType, ProgramType};
use crate::dxbc::signature::{SignatureElement, SignatureKind};

pub(super) fn input(e: &mut Emitter, inst: &Instruction) {
    let Some(op) = inst.operands.first() else {
        return;
    };
    if op.ty == OperandType::INPUT_COVERAGE_MASK && e.dialect == Dialect::Vk450 {
        // Read through the operand (emit/operands.rs): only a sample-frequency
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
    let reg_name = e.input_reg(reg);
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
                // Test-only fault: the reciprocal left out.
                let w = if e.options.drop_frag_coord_reciprocal {
                    "gl_FragCoord.w"
                } else {
                    "1.0 / gl_FragCoord.w"
                };
                e.prologue
                    .line(None, ("vec4 hlslcc_FragCoord = vec4(", xyz, ", ", w, ");"));
            }
            let sw = Swizzle::of_mask(mask);
            e.prologue
                .line(None, (reg_name, sw, " = hlslcc_FragCoord", sw, ';'));
            e.decl_line((
                "// ",
                reg_name,
                sw,
                ": SV_Position as hlslcc_FragCoord (w = 1 / gl_FragCoord.w = clip w)",
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
            let c = Swizzle::first_of_mask(mask);
            e.prologue.line(
                None,
                (
                    reg_name,
                    c,
                    " = uintBitsToFloat(gl_FrontFacing ? 0xffffffffu : 0u);",
                ),
            );
            e.decl_line((
                "// ",
                reg_name,
                c,
                ": SV_IsFrontFace as a 0xFFFFFFFF / 0 mask of gl_FrontFacing",
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
            let c = Swizzle::first_of_mask(mask);
            e.prologue.line(
                None,
                (reg_name, c, " = uintBitsToFloat(uint(gl_SampleID));"),
            );
            e.decl_line(("// ", reg_name, c, ": SV_SampleIndex from gl_SampleID"));
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
            let c = Swizzle::first_of_mask(mask);
            // naga types gl_VertexIndex/gl_InstanceIndex as uint; int() of
            // either keeps the bits.
            let (open, close) = match e.dialect {
                Dialect::Es300 => ("", ""),
                Dialect::Vk450 => ("int(", ")"),
            };
            e.prologue.line(
                None,
                (
                    reg_name,
                    c,
                    " = intBitsToFloat(",
                    open,
                    builtin,
                    close,
                    ");",
                ),
            );
            e.decl_line(("// ", reg_name, c, ": ", semantic, " from ", builtin));
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
    let mut elements = elements_at(e, SignatureKind::Input, reg, mask).peekable();
    if elements.peek().is_none() {
        // No signature: name the register itself.
        let (name, ty) = (cat!("in_v", reg), Ty::Float);
        if !declare_input(e, reg, mask, None, name, ty, interp) {
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
        if !declare_input(e, reg, el.mask, Some(el), name, ty, interp) {
            e.refuse(inst, Reason::NameClash);
        }
    }
}

/// Declares one input variable (once) and its copy into the `v` register.
/// False when the name belongs to another element: the caller refuses.
fn declare_input(
    e: &mut Emitter,
    reg: u32,
    mask: u8,
    el: Option<&SignatureElement>,
    name: String,
    ty: Ty,
    mode: Interpolation,
) -> bool {
    if taken_by_another(&e.manifest.inputs, &name, reg, el) {
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
    let qualifier = qualifier(
        e.dialect,
        flat,
        mode.is_centroid() && !vertex,
        noperspective,
        e.dialect == Dialect::Vk450 && !vertex && !flat && mode.is_sample(),
    );
    let location = match (e.dialect, el) {
        (Dialect::Vk450, Some(el)) if vertex => Some(
            signature(e, SignatureKind::Input)
                .position(|x| std::ptr::eq(x, el))
                .unwrap_or(reg as usize) as u32,
        ),
        (Dialect::Vk450, Some(el)) => Some(varying_location(e, SignatureKind::Input, el)),
        (Dialect::Vk450, None) => Some(reg),
        (Dialect::Es300, _) => None,
    };
    let glsl_ty = ValueType::vec(decl_ty, n);
    let layout = LocationLayout(location);
    e.decl_line((layout, qualifier, "in ", glsl_ty, ' ', &name, ';'));
    // The linked vertex shader wrote value * clip w; interpolated with
    // perspective that is w-weighted, and gl_FragCoord.w (1 / the
    // interpolated w) turns it back into the screen-linear value.
    let emulated = noperspective && !native_noperspective(e.dialect);
    if emulated {
        e.decl_line((
            "// ",
            &name,
            ": noperspective emulated (not in GLSL ES 3.00): the linked vertex shader writes value * clip w",
        ));
    }
    // `v0.xy = floatBitsToUint(vs_X0) * …;`, pushed in pieces.
    let reg_name = e.input_reg(reg);
    e.prologue.open(None);
    let buf = e.prologue.buf();
    cat!(buf; reg_name, Swizzle::of_mask(mask), " = ");
    push_converted(buf, &name, decl_ty, Ty::Float, n);
    if emulated {
        buf.push_str(" * gl_FragCoord.w");
    }
    buf.push_str(";\n");
    e.manifest.inputs.push(VaryingEntry {
        register: reg,
        mask: mask_text(mask),
        semantic: el.map_or(String::new(), |el| el.semantic_name.clone()),
        semantic_index: el.map_or(0, |el| el.semantic_index),
        glsl_name: name,
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

/// Whether the pixel shader runs once per sample in D3D: it reads
/// `SV_SampleIndex` or interpolates an input at sample positions.
pub(in crate::glsl) fn runs_per_sample(e: &Emitter) -> bool {
    e.stage == ProgramType::Pixel
        && e.analysis.inputs.registers.iter().any(|r| {
            r.system_value == SystemValue::SampleIndex
                || r.interpolation.is_some_and(|i| i.is_sample())
        })
}
