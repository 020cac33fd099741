//! What a vertex shader needs to know about the pixel shader it feeds.
//!
//! D3D decides how a varying is interpolated in the pixel shader alone
//! (`dcl_input_ps constant|linear [centroid] [noperspective]`); the vertex
//! shader's outputs carry no interpolation mode. GLSL ES 3.00 requires the
//! qualifiers of a varying to match on both sides or the program does not
//! link, and Vulkan requires matching locations. A [`Link`] carries the
//! pixel shader's choice over to the vertex shader's outputs.
//!
//! GLSL ES 3.00 also requires a uniform block of one name to be declared
//! alike in every stage of a program, and the translation names constant
//! buffer N's block `ConstantBufferN` with the size the shader declares —
//! which differs between a vertex and a pixel shader that share the
//! buffer but read different parts of it. A [`Link`] carries each stage's
//! constant buffer sizes to the other, and both declare the larger
//! (docs/glsl.md, "Linked stages").

use crate::dxbc::ir::{Instruction, OperandType, Program, ProgramType, Selection};
use crate::dxbc::opcodes::Op;
use crate::dxbc::shader::Shader;
use crate::dxbc::signature::SignatureKind;

// The interpolation mode and component type are D3D's enums, described in
// `dxbc`. An element no `dcl_input_ps` declares (never read) has
// `Interpolation::Undefined`.
pub use crate::dxbc::enums::{ComponentType, Interpolation};

/// One non-system-value input of the pixel shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedInput {
    pub semantic: String,
    pub semantic_index: u32,
    pub interpolation: Interpolation,
    pub component: ComponentType,
    /// The register components the element occupies (bit 0 = x): a linked
    /// vertex output is declared with these, so both sides agree on the
    /// varying's type.
    pub mask: u8,
    /// The vk450 location both stages use: the position among the pixel
    /// shader's non-system-value input elements, in signature order.
    pub location: u32,
}

/// What one stage of a linked pair needs from the other
/// ([`super::Options::link`]): for a vertex shader, the pixel shader's
/// inputs and constant buffer sizes; for a pixel shader, the vertex
/// shader's constant buffer sizes (its `inputs` empty).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Link {
    pub inputs: Vec<LinkedInput>,
    /// (slot, rows) for each constant buffer the other stage declares.
    pub constant_buffers: Vec<(u32, u32)>,
}

/// The slot and size in rows (vec4s) a `dcl_constantbuffer` declares:
/// `cbN[rows]` up to SM5.0; from SM5.1 the range ID first, the size a
/// payload dword after the operand.
pub(super) fn constant_buffer_decl(program: &Program, inst: &Instruction) -> Option<(u32, u32)> {
    if inst.op != Op::DclConstantBuffer {
        return None;
    }
    let op = inst.operands.first()?;
    Some(if program.is_sm51() {
        let id = op.indices.first().and_then(|i| i.imm()).unwrap_or(0) as u32;
        (id, inst.trailing.first().copied().unwrap_or(1))
    } else {
        (
            op.reg().unwrap_or(0),
            op.indices.get(1).and_then(|i| i.imm()).unwrap_or(1) as u32,
        )
    })
}

fn constant_buffers(program: &Program) -> Vec<(u32, u32)> {
    program
        .instructions
        .iter()
        .filter_map(|i| constant_buffer_decl(program, i))
        .collect()
}

impl Link {
    /// The input elements of `ps` (a pixel shader; any other stage has no
    /// `dcl_input_ps`, so its elements come out `Undefined`), each with the
    /// interpolation mode of the `dcl_input_ps*` declaring its register
    /// and components.
    pub fn from_pixel_shader(ps: &Shader) -> Link {
        let decls: Vec<(u32, u8, Interpolation)> = if ps.program.kind == ProgramType::Pixel {
            ps.program
                .instructions
                .iter()
                .filter_map(|i| {
                    let mode = i.interpolation()?;
                    let op = i.operands.first()?;
                    if op.ty != OperandType::INPUT {
                        return None;
                    }
                    let mask = match op.selection {
                        Selection::Mask(m) => m,
                        _ => 0xf,
                    };
                    Some((op.reg()?, mask, mode))
                })
                .collect()
        } else {
            Vec::new()
        };
        let elements = ps
            .signatures
            .iter()
            .filter(|s| s.kind == SignatureKind::Input)
            .flat_map(|s| s.elements.iter())
            .filter(|el| !el.is_system_value());
        let inputs = elements
            .enumerate()
            .map(|(location, el)| {
                let mode = decls
                    .iter()
                    .find(|(reg, mask, _)| *reg == el.register && mask & el.mask != 0)
                    .map_or(Interpolation::Undefined, |d| d.2);
                LinkedInput {
                    semantic: el.semantic_name.clone(),
                    semantic_index: el.semantic_index,
                    interpolation: mode,
                    component: el.component_type(),
                    mask: el.mask,
                    location: location as u32,
                }
            })
            .collect();
        Link {
            inputs,
            constant_buffers: constant_buffers(&ps.program),
        }
    }

    /// What a pixel shader needs from the vertex shader feeding it: the
    /// sizes of its constant buffers.
    pub fn from_vertex_shader(vs: &Shader) -> Link {
        Link {
            inputs: Vec::new(),
            constant_buffers: constant_buffers(&vs.program),
        }
    }

    /// The rows the other stage declares constant buffer `slot` with.
    pub fn constant_buffer_rows(&self, slot: u32) -> Option<u32> {
        self.constant_buffers
            .iter()
            .filter(|(s, _)| *s == slot)
            .map(|(_, rows)| *rows)
            .max()
    }

    /// The input a vertex output with this semantic feeds (D3D matches
    /// semantic names without regard to case).
    pub fn input(&self, semantic: &str, index: u32) -> Option<&LinkedInput> {
        self.inputs
            .iter()
            .find(|i| i.semantic.eq_ignore_ascii_case(semantic) && i.semantic_index == index)
    }

    /// (semantic, index) in location order, as [`super::Options::varying_locations`]
    /// takes them.
    pub fn varying_order(&self) -> Vec<(String, u32)> {
        let mut v: Vec<&LinkedInput> = self.inputs.iter().collect();
        v.sort_by_key(|i| i.location);
        v.into_iter()
            .map(|i| (i.semantic.clone(), i.semantic_index))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::asm::test_shader as shader;

    #[test]
    fn reads_each_inputs_mode_type_and_location() {
        let ps = shader(
            "ps_5_0\n\
             dcl_input_ps_siv linear noperspective v0.xyzw, position\n\
             dcl_input_ps constant v1.x\n\
             dcl_input_ps linear centroid v2.xy\n\
             dcl_input_ps linear noperspective v3.xyzw\n\
             dcl_output o0.xyzw\n\
             mov o0.xyzw, v3.xyzw\n\
             ret\n",
        );
        let link = Link::from_pixel_shader(&ps);
        let modes: Vec<(String, u32, Interpolation, u32)> = link
            .inputs
            .iter()
            .map(|i| {
                (
                    i.semantic.clone(),
                    i.semantic_index,
                    i.interpolation,
                    i.location,
                )
            })
            .collect();
        // SV_Position takes no location; the rest count from 0.
        assert_eq!(
            modes,
            vec![
                ("TEXCOORD".into(), 1, Interpolation::Constant, 0),
                ("TEXCOORD".into(), 2, Interpolation::LinearCentroid, 1),
                ("TEXCOORD".into(), 3, Interpolation::LinearNoPerspective, 2),
            ]
        );
        assert!(link.input("texcoord", 2).is_some(), "case-insensitive");
        assert!(link.input("TEXCOORD", 0).is_none());
        assert_eq!(
            link.varying_order(),
            vec![
                ("TEXCOORD".to_string(), 1),
                ("TEXCOORD".to_string(), 2),
                ("TEXCOORD".to_string(), 3)
            ]
        );
    }
}
