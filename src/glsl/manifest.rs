//! The binding manifest: every GLSL name the translation declares that a
//! runtime must bind or fill, tied back to its D3D register and, when the
//! container has an RDEF chunk, its reflected name. Names in the GLSL never
//! depend on RDEF; reflected names appear only here.

use serde::Serialize;

use super::Dialect;
use crate::dxbc::ir::ProgramType;
use crate::dxbc::rdef::InputType;
use crate::dxbc::shader::Shader;

#[derive(Debug, Clone, Serialize, Default)]
pub struct Manifest {
    pub profile: String,
    pub stage: String,
    pub dialect: String,
    pub constant_buffers: Vec<ConstantBufferEntry>,
    pub textures: Vec<TextureEntry>,
    pub samplers: Vec<SamplerEntry>,
    /// es300: the combined sampler uniforms instruction bodies use.
    pub combined_samplers: Vec<CombinedEntry>,
    /// Extra uniforms the translation needs filled by the runtime (mip
    /// counts for `resinfo`, sampler state for gather emulation, es300's
    /// `hlslcc_YFlip`).
    pub uniforms: Vec<UniformEntry>,
    pub inputs: Vec<VaryingEntry>,
    pub outputs: Vec<VaryingEntry>,
    #[serde(skip)]
    reflected: Vec<(InputType, u32, u32, String)>,
    #[serde(skip)]
    reflected_cbuffers: Vec<(u32, String)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConstantBufferEntry {
    pub slot: u32,
    pub block: String,
    pub instance: String,
    pub vec4_count: u32,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TextureEntry {
    pub slot: u32,
    pub dimension: String,
    pub return_type: String,
    /// The bare `tN` uniform (es300) or `texture*` object (vk450).
    pub glsl_name: String,
    pub glsl_type: String,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SamplerEntry {
    pub slot: u32,
    /// `default`, `comparison` or `mono`.
    pub mode: String,
    /// vk450: the `sampler`/`samplerShadow` object; es300: none (folded
    /// into combined samplers).
    pub glsl_name: Option<String>,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CombinedEntry {
    pub name: String,
    pub glsl_type: String,
    pub texture: u32,
    pub sampler: u32,
    pub shadow: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct UniformEntry {
    pub name: String,
    pub glsl_type: String,
    /// What the runtime puts there, in words.
    pub meaning: String,
    /// The uniform block holding it; empty (and left out of the JSON) for
    /// a plain uniform, set with `uniform2f` and the like.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub block: String,
    /// Byte offset in the block (std140); 0 for a plain uniform.
    pub offset: u32,
    pub binding: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
pub struct VaryingEntry {
    pub register: u32,
    pub mask: String,
    pub semantic: String,
    pub semantic_index: u32,
    /// The GLSL variable or built-in.
    pub glsl_name: String,
    pub glsl_type: String,
    pub location: Option<u32>,
    pub interpolation: Option<String>,
}

impl Manifest {
    pub fn new(shader: &Shader, dialect: Dialect) -> Manifest {
        let mut reflected = Vec::new();
        let mut reflected_cbuffers = Vec::new();
        if let Some(rdef) = &shader.rdef {
            for b in &rdef.bindings {
                reflected.push((
                    b.input_type,
                    b.bind_point,
                    b.bind_count.max(1),
                    b.name.clone(),
                ));
                if b.input_type == InputType::CBuffer {
                    reflected_cbuffers.push((b.bind_point, b.name.clone()));
                }
            }
        }
        Manifest {
            profile: shader.program.profile(),
            stage: match shader.program.kind {
                ProgramType::Vertex => "vertex",
                ProgramType::Pixel => "pixel",
                _ => "other",
            }
            .into(),
            dialect: dialect.name().into(),
            reflected,
            reflected_cbuffers,
            ..Manifest::default()
        }
    }

    /// The RDEF name bound at `slot` for resources of the given kinds.
    pub fn reflected_name(&self, kinds: &[InputType], slot: u32) -> Option<String> {
        self.reflected
            .iter()
            .find(|(t, p, n, _)| kinds.contains(t) && (*p..*p + *n).contains(&slot))
            .map(|(_, _, _, name)| name.clone())
    }

    pub fn reflected_cbuffer(&self, slot: u32) -> Option<String> {
        self.reflected_cbuffers
            .iter()
            .find(|(p, _)| *p == slot)
            .map(|(_, n)| n.clone())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into())
    }
}
