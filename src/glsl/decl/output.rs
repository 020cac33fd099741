//! Stage outputs: `dcl_output*` as output variables copied out of `o`
//! registers after the body, `SV_Position`, depth and the coverage mask.

use super::super::emit::{Emitter, conversion};
use super::super::link::Interpolation;
use super::super::manifest::{InterpolationQualifier, VaryingEntry};
use super::super::names;
use super::super::types::{Swizzle, Ty, ValueType, mask_count};
use super::super::writer::cat;
use super::super::{Dialect, Reason};
use super::io::{
    LocationLayout, component_ty, elements_at, io_register, mask_text, native_noperspective,
    push_sv_entry, qualifier, taken_by_another, varying_location,
};
use crate::dxbc::enums::SystemValue;
use crate::dxbc::ir::{Instruction, OperandType, ProgramType};
use crate::dxbc::signature::{RENDER_TARGETS, SignatureElement, SignatureKind};

pub(super) fn output(e: &mut Emitter, inst: &Instruction) {
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
                // GLSL ES 3.00 has no depth layout qualifier; vk450 could
                // declare one, but a hint changes no value, so both
                // dialects drop it alike.
                e.decl_line(match e.dialect {
                    Dialect::Es300 => "// conservative depth hint dropped: not in GLSL ES 3.00",
                    Dialect::Vk450 => "// conservative depth hint dropped: a hint changes no value",
                });
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
    let reg_name = e.output_reg(reg);
    if e.stage == ProgramType::Vertex && sv == SystemValue::Position {
        e.position.line(None, ("gl_Position = ", reg_name, ';'));
        if e.dialect == Dialect::Es300 {
            // D3D's y (rows from the top) when drawing into a texture,
            // and clip z in [0, w] moved to GL's [-w, w], so the window
            // depth of the default depthRange(0, 1) is D3D's (docs/glsl.md).
            e.position.line(None, "gl_Position.y *= hlslcc_YFlip.x;");
            e.position
                .line(None, "gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;");
        }
        e.decl_line(("// ", reg_name, ": SV_Position to gl_Position"));
        let vec4 = ValueType::vec(Ty::Float, 4);
        push_sv_entry(e, true, reg, mask, "SV_Position", "gl_Position", vec4);
        return;
    }
    if sv != SystemValue::Undefined {
        e.refuse(inst, Reason::SystemValue);
        return;
    }
    let mut elements = elements_at(e, SignatureKind::Output, reg, mask).peekable();
    if elements.peek().is_none() {
        // Without a signature the register is the render target.
        if e.stage == ProgramType::Pixel && reg >= RENDER_TARGETS {
            e.refuse(inst, Reason::Limit);
            return;
        }
        let name = match e.stage {
            ProgramType::Pixel => cat!("SV_Target", reg),
            _ => cat!("vs_o", reg),
        };
        if !declare_output(e, reg, mask, None, name, Ty::Float, reg) {
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
                cat!("SV_Target", el.semantic_index)
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
        if !declare_output(e, reg, el.mask, Some(el), name, ty, el.semantic_index) {
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
    name: String,
    ty: Ty,
    target_index: u32,
) -> bool {
    if taken_by_another(&e.manifest.outputs, &name, reg, el) {
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
    let layout = LocationLayout(location);
    let mode = linked.map_or(Interpolation::Undefined, |i| i.interpolation);
    let flat = !pixel
        && (ty != Ty::Float
            || mode.is_constant()
            || linked.is_some_and(|i| i.component.is_integer()));
    let noperspective = !flat && mode.is_noperspective();
    let centroid = !flat && mode.is_centroid();
    // wgpu matches sampling between the stages: the linked pixel input's
    // `sample` is repeated (vk450; es300 drops it on both sides).
    let sample = !flat && e.dialect == Dialect::Vk450 && mode.is_sample();
    let qualifiers = qualifier(e.dialect, flat, centroid, noperspective, sample);
    if pixel && e.dialect == Dialect::Es300 && super::super::capture::active(e) {
        // The register capture's outputs take every draw buffer.
        e.decl_line((
            glsl_ty,
            ' ',
            &name,
            "; // a private global: the register capture writes the outputs",
        ));
    } else {
        e.decl_line((layout, qualifiers, "out ", glsl_ty, ' ', &name, ';'));
    }
    // `vs_X0 = floatBitsToUint(o1.xy) * …;`, pushed in pieces: the
    // register and swizzle go into the conversion's parentheses, so they
    // are pushed between its two halves.
    let reg_name = e.output_reg(reg);
    e.epilogue.open(None);
    let buf = e.epilogue.buf();
    cat!(buf; &name, " = ");
    let f = conversion(Ty::Float, ty, n);
    if let Some(f) = f {
        cat!(buf; f, '(');
    }
    cat!(buf; reg_name, Swizzle::of_mask(mask));
    if f.is_some() {
        buf.push(')');
    }
    if noperspective && !native_noperspective(e.dialect) {
        // The pixel shader multiplies by gl_FragCoord.w (see
        // declare_input). gl_Position is written first, and its fix-up
        // leaves w alone.
        buf.push_str(" * gl_Position.w");
    }
    buf.push_str(";\n");
    e.manifest.outputs.push(VaryingEntry {
        register: reg,
        mask: mask_text(mask),
        semantic: el.map_or(String::new(), |el| el.semantic_name.clone()),
        semantic_index: el.map_or(target_index, |el| el.semantic_index),
        glsl_name: name,
        glsl_type: glsl_ty,
        location,
        interpolation: InterpolationQualifier::with_sample(flat, centroid, noperspective, sample),
        builtin: false,
    });
    true
}
