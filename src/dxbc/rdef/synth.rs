//! An RDEF made up from a program's declarations, for shaders assembled
//! without one (every hand-written case). Translators that bind by
//! reflection names read RDEF and nothing else — HLSLcc crashes on a
//! container without it — so the harness hands them this one: constant
//! buffer N holding one variable `cbN` of type `float4[rows]`, the buffer
//! at slot 0 named `$Globals` as fxc names the buffer of a shader's
//! global variables (always at cb0), the others `cbN`;
//! textures `tN`, samplers `sN`, with the shapes, return types and
//! sampler modes the declarations give. The names are the registers', so a
//! translator's text names what the case's sections set.

use super::{
    CbufferKind, ConstantBuffer, InputType, Rdef, ResourceBinding, Target, Type, Variable, class,
    input_flags, variable_flags,
};
use crate::dxbc::enums::{ResourceDimension, ReturnType, SamplerMode};
use crate::dxbc::ir::{DeclKind, Program};
use crate::dxbc::opcodes::Op;

/// The creator string of a made-up RDEF, so a listing of the blob says
/// where its reflection came from.
pub const SYNTHESIZED_CREATOR: &str = "dxbc-dbg (reflection from declarations)";

/// fxc's name for the constant buffer of global variables.
pub const GLOBALS: &str = "$Globals";

/// D3D_SRV_DIMENSION of a declared resource dimension (RDEF's numbering
/// differs from the declaration token's).
fn srv_dimension(d: ResourceDimension) -> u32 {
    match d {
        ResourceDimension::Buffer => 1,
        ResourceDimension::Texture1D => 2,
        ResourceDimension::Texture1DArray => 3,
        ResourceDimension::Texture2D => 4,
        ResourceDimension::Texture2DArray => 5,
        ResourceDimension::Texture2DMs => 6,
        ResourceDimension::Texture2DMsArray => 7,
        ResourceDimension::Texture3D => 8,
        ResourceDimension::TextureCube => 9,
        ResourceDimension::TextureCubeArray => 10,
        ResourceDimension::RawBuffer | ResourceDimension::StructuredBuffer => 11,
        ResourceDimension::Unknown | ResourceDimension::Other(_) => 0,
    }
}

/// The first immediate index of a declaration's first operand (its slot)
/// and, where there is one, the second (a constant buffer's row count).
fn slot_and_size(inst: &crate::dxbc::ir::Instruction) -> Option<(u32, Option<u32>)> {
    let op = inst.operands.first()?;
    let slot = u32::try_from(op.indices.first()?.imm()?).ok()?;
    let size = op
        .indices
        .get(1)
        .and_then(|i| i.imm())
        .and_then(|v| u32::try_from(v).ok());
    Some((slot, size))
}

/// RDEF for `program` from its `dcl_constantbuffer`, `dcl_resource` and
/// `dcl_sampler` declarations (other declarations have no reflection a
/// translator of pixel and vertex shaders reads). Bindings are listed as
/// fxc lists them: samplers, then textures, then constant buffers, each by
/// slot.
pub fn synthesize(program: &Program) -> Rdef {
    let mut samplers = Vec::new();
    let mut textures = Vec::new();
    let mut buffers = Vec::new();
    for inst in &program.instructions {
        let Some((slot, size)) = slot_and_size(inst) else {
            continue;
        };
        match inst.op {
            Op::DclSampler => {
                let compare = inst.sampler_mode() == Some(SamplerMode::Comparison);
                samplers.push(ResourceBinding {
                    name: format!("s{slot}"),
                    input_type: InputType::Sampler,
                    return_type: 0,
                    dimension: 0,
                    num_samples: 0,
                    bind_point: slot,
                    bind_count: 1,
                    flags: if compare {
                        input_flags::COMPARISON_SAMPLER
                    } else {
                        0
                    },
                    space: None,
                    id: None,
                });
            }
            Op::DclResource => {
                let dim = inst
                    .resource_dimension()
                    .unwrap_or(ResourceDimension::Unknown);
                let ret = match &inst.decl {
                    DeclKind::ReturnTypes(t) => t[0],
                    _ => ReturnType::Float,
                };
                let samples = inst.sample_count().unwrap_or(0);
                let multisampled = matches!(
                    dim,
                    ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray
                );
                textures.push(ResourceBinding {
                    name: format!("t{slot}"),
                    input_type: InputType::Texture,
                    return_type: u32::from(ret.code()),
                    dimension: srv_dimension(dim),
                    num_samples: if multisampled { samples } else { u32::MAX },
                    bind_point: slot,
                    bind_count: 1,
                    // Four components: the declaration gives a return
                    // type per component, all four always.
                    flags: input_flags::COMPONENT_MASK,
                    space: None,
                    id: None,
                });
            }
            Op::DclConstantBuffer => {
                let rows = size.unwrap_or(1).max(1);
                let name = format!("cb{slot}");
                let buffer = if slot == 0 {
                    GLOBALS.to_string()
                } else {
                    format!("cb{slot}")
                };
                let ty = Type {
                    class: class::VECTOR,
                    base: super::base::FLOAT,
                    rows: 1,
                    columns: 4,
                    elements: if rows > 1 {
                        u16::try_from(rows).unwrap_or(u16::MAX)
                    } else {
                        0
                    },
                    members: Vec::new(),
                    name: Some("float4".into()),
                    extra: Some([0; 4]),
                };
                let bytes = rows.saturating_mul(16);
                buffers.push((
                    slot,
                    ConstantBuffer {
                        name: buffer,
                        kind: CbufferKind::CBuffer,
                        size: bytes,
                        flags: 0,
                        variables: vec![Variable {
                            name: name.clone(),
                            offset: 0,
                            size: bytes,
                            flags: variable_flags::USED,
                            ty,
                            default_value: None,
                            resources: Some(super::VariableResources {
                                start_texture: u32::MAX,
                                texture_size: 0,
                                start_sampler: u32::MAX,
                                sampler_size: 0,
                            }),
                        }],
                    },
                ));
            }
            _ => {}
        }
    }
    samplers.sort_by_key(|b| b.bind_point);
    textures.sort_by_key(|b| b.bind_point);
    buffers.sort_by_key(|(s, _)| *s);
    let cb_bindings = buffers.iter().map(|(slot, cb)| ResourceBinding {
        name: cb.name.clone(),
        input_type: InputType::CBuffer,
        return_type: 0,
        dimension: 0,
        num_samples: 0,
        bind_point: *slot,
        bind_count: 1,
        flags: 0,
        space: None,
        id: None,
    });
    let bindings = samplers
        .into_iter()
        .chain(textures)
        .chain(cb_bindings)
        .collect();
    // An SM5 RDEF (with the RD11 header) whatever the program's model:
    // readers of SM4 RDEF skip the SM5 type fields, and translators read
    // both layouts.
    let (major, minor) = (program.major.max(4), program.minor);
    let token =
        (u32::from(program.kind.rdef_code()) << 16) | (u32::from(major) << 8) | u32::from(minor);
    let target = Target::from_token(token);
    let sm5 = major >= 5;
    Rdef {
        target,
        flags: 0,
        creator: SYNTHESIZED_CREATOR.into(),
        rd11: sm5.then(|| crate::dxbc::write::default_rd11(major, minor)),
        constant_buffers: buffers.into_iter().map(|(_, cb)| cb).collect(),
        bindings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::write::write_rdef;

    fn program(text: &str) -> crate::dxbc::Shader {
        crate::dxbc::asm::test_shader(text)
    }

    /// Every declaration becomes a binding of its slot, with the
    /// declaration's shape, return type and mode, and the RDEF written
    /// out parses back to the same value (the translator reads the bytes).
    #[test]
    fn declarations_become_bindings_that_round_trip() {
        for (profile, sm5) in [("ps_5_0", true), ("ps_4_0", false)] {
            let text = format!(
                "{profile}\n\
                 dcl_constantbuffer cb2[3], immediateIndexed\n\
                 dcl_sampler s1, mode_comparison\n\
                 dcl_sampler s0, mode_default\n\
                 dcl_resource_texture2darray (uint,uint,uint,uint) t3\n\
                 dcl_resource_texturecube (float,float,float,float) t0\n\
                 dcl_output o0.xyzw\n\
                 mov o0.xyzw, cb2[2].xyzw\n\
                 ret\n"
            );
            let shader = program(&text);
            let rdef = synthesize(&shader.program);
            assert_eq!(rdef.rd11.is_some(), sm5, "{profile}");
            let names: Vec<_> = rdef.bindings.iter().map(|b| b.name.as_str()).collect();
            assert_eq!(names, ["s0", "s1", "t0", "t3", "cb2"], "{profile}");
            let b = |n: &str| rdef.bindings.iter().find(|b| b.name == n).unwrap();
            assert_eq!(b("s1").flags, input_flags::COMPARISON_SAMPLER);
            assert_eq!(b("s0").flags, 0);
            assert_eq!((b("t3").dimension, b("t3").return_type), (5, 4));
            assert_eq!((b("t0").dimension, b("t0").return_type), (9, 5));
            assert_eq!(b("t3").components(), 4);
            assert_eq!(b("cb2").bind_point, 2);
            let cb = &rdef.constant_buffers[0];
            assert_eq!((cb.name.as_str(), cb.size), ("cb2", 48));
            let v = &cb.variables[0];
            assert_eq!((v.name.as_str(), v.offset, v.size), ("cb2", 0, 48));
            assert_eq!(
                (v.ty.class, v.ty.columns, v.ty.elements),
                (class::VECTOR, 4, 3)
            );
            let bytes = write_rdef(&rdef);
            let back = Rdef::parse(&bytes, 0).unwrap();
            if sm5 {
                assert_eq!(back, rdef, "{profile}");
            } else {
                // SM4 records have no type name nor variable resources.
                assert_eq!(back.bindings, rdef.bindings, "{profile}");
                assert_eq!(back.constant_buffers.len(), 1);
                assert_eq!(back.constant_buffers[0].variables[0].size, 48);
                assert_eq!(back.constant_buffers[0].variables[0].ty.elements, 3);
            }
        }
    }

    /// A one-row buffer is a plain `float4`, not an array of one, as fxc
    /// reflects a lone vector.
    #[test]
    fn a_one_row_buffer_is_a_plain_vector() {
        let shader = program(
            "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n",
        );
        let rdef = synthesize(&shader.program);
        let v = &rdef.constant_buffers[0].variables[0];
        assert_eq!((v.ty.elements, v.size), (0, 16));
        assert_eq!(rdef.target.profile(), "ps_5_0");
        assert_eq!(rdef.constant_buffers[0].name, GLOBALS);
        assert_eq!(v.name, "cb0");
    }
}
