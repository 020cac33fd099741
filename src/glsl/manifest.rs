//! The binding manifest: every GLSL name the translation declares that a
//! runtime must bind or fill, tied back to its D3D register and, when the
//! container has an RDEF chunk, its reflected name. Names in the GLSL never
//! depend on RDEF; reflected names appear only here.
//!
//! This is the typed contract between the emitter and whatever runs its
//! output: the stage, the dialect, texture shapes and number types, sampler
//! modes, interpolation and what each extra uniform holds are enums and
//! structs, so a runtime matches on them instead of re-parsing the text the
//! emitter wrote. The JSON (`to_json`, the CLI's `--manifest`) is only this
//! contract's serialisation: every typed field prints as the word or GLSL
//! spelling it stands for, and fields that exist for runtimes in Rust alone
//! (`compared`, `role`) are left out of it.

use std::fmt;

use serde::{Serialize, Serializer};

use super::Dialect;
use super::texture::Dim;
use super::types::{OpaqueType, ValueType};
use super::writer::cat;
use crate::dxbc::ir::{ProgramType, ReturnType};
use crate::dxbc::rdef::InputType;
use crate::dxbc::shader::Shader;

#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    pub profile: String,
    #[serde(serialize_with = "stage_name")]
    pub stage: ProgramType,
    pub dialect: Dialect,
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
    /// vk450: raw, structured and typed buffer views (SRVs and UAVs), each
    /// a std430 block of `uint` words. Left out of the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub storage_buffers: Vec<StorageBufferEntry>,
    /// vk450: typed 2D UAVs, storage images.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub storage_images: Vec<StorageImageEntry>,
    /// vk450: the hidden counters of UAVs `imm_atomic_alloc`/`_consume` use.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterEntry>,
    /// vk450: typed buffer SRVs (`Buffer<T>`), each a read-only std430
    /// block of the elements' bytes as D3D lays them out, decoded in the
    /// shader by the view's format (its `uniforms` entry, `BufferView`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub typed_buffers: Vec<TypedBufferEntry>,
    /// vk450 with `Options::capture`: the register capture's storage
    /// buffer, which the runtime binds zeroed and reads back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<CaptureEntry>,
    /// es300 with `Options::capture`: the register capture's outputs and
    /// the uniform choosing the window of records a draw keeps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture_outputs: Option<CaptureOutputsEntry>,
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
    /// The dimension `dcl_resource` declares. A runtime uploads the case's
    /// texture by it but views it as `glsl_type.shape` (1D is declared 2D).
    pub dimension: Dim,
    /// `dcl_resource`'s first return type.
    #[serde(serialize_with = "return_type_name")]
    pub return_type: ReturnType,
    /// The bare `tN` uniform (es300) or `texture*` object (vk450).
    pub glsl_name: String,
    pub glsl_type: OpaqueType,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
    /// vk450: this object is combined with a comparison sampler somewhere,
    /// so a runtime must bind a depth texture there (naga types it as
    /// one); its plain reads go through a second entry, `tN_plain`, which
    /// is never compared. Always false in es300, whose comparisons read
    /// their own `hlslcc_zcmp*` samplers.
    #[serde(skip)]
    pub compared: bool,
}

/// How a storage buffer's words are addressed (the declaration's layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageLayout {
    /// Byte addresses (`dcl_resource_raw`, `dcl_uav_raw`).
    Raw,
    /// Elements of `stride` bytes (`dcl_*_structured`).
    Structured { stride: u32 },
    /// A typed R32 buffer UAV (`dcl_uav_typed_buffer`): one word per
    /// element, read as the return type.
    Typed { return_type: ReturnType },
}

impl Serialize for StorageLayout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&match self {
            StorageLayout::Raw => "raw".to_string(),
            StorageLayout::Structured { stride } => format!("structured, stride {stride}"),
            StorageLayout::Typed { return_type } => format!("typed {}", return_type.name()),
        })
    }
}

/// A buffer view bound as a storage buffer: `tN` (read-only) or `uN`.
#[derive(Debug, Clone, Serialize)]
pub struct StorageBufferEntry {
    /// `t3` or `u1`.
    pub register: String,
    pub slot: u32,
    /// A UAV (`u#`) rather than an SRV (`t#`).
    pub uav: bool,
    pub layout: StorageLayout,
    /// Declared `readonly` (SRVs): bound read-only.
    pub read_only: bool,
    /// The block's instance; its one member is `words`, a `uint[]`.
    pub glsl_name: String,
    pub block: String,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
}

/// The register capture's buffer (`glsl::capture` gives its layout).
#[derive(Debug, Clone, Serialize)]
pub struct CaptureEntry {
    pub binding: u32,
    pub glsl_name: String,
    /// The size to bind: header and every record.
    pub bytes: u64,
}

/// The es300 register capture's outputs (`glsl::capture` gives their
/// layout): `uvec4` outputs at locations `0..outputs`, the header first.
#[derive(Debug, Clone, Serialize)]
pub struct CaptureOutputsEntry {
    /// The `uint` uniform: the first record number a draw keeps.
    pub window_uniform: String,
    pub outputs: u32,
    pub records_per_draw: u32,
    /// Records counted at most (the overflow flag is set past them).
    pub capacity: u32,
}

/// A typed buffer SRV (`dcl_resource_buffer`, HLSL `Buffer<T>`): a
/// read-only storage buffer of `uint` words holding the view's elements in
/// its format's memory layout (tightly packed, little-endian, as D3D
/// stores them), plus the view's description in `view`, a member of the
/// `hlslcc_BufferViews` block listed among the uniforms
/// (`UniformRole::BufferView`): `.x` the view's DXGI format code, `.y` its
/// element count. The declaration names only the return type; the format
/// is the view's, known to a runtime at bind time, which is why the shader
/// reads it rather than the translation fixing it.
#[derive(Debug, Clone, Serialize)]
pub struct TypedBufferEntry {
    pub slot: u32,
    /// `dcl_resource_buffer`'s first return type.
    #[serde(serialize_with = "return_type_name")]
    pub return_type: ReturnType,
    /// The block's instance, `tN`; its one member is `words`, a `uint[]`.
    pub glsl_name: String,
    pub block: String,
    pub binding: Option<u32>,
    /// The uniform holding the view (`hlslcc_bufferViews[N]`).
    pub view: String,
    pub reflected_name: Option<String>,
}

/// A typed 2D UAV bound as a storage image.
#[derive(Debug, Clone, Serialize)]
pub struct StorageImageEntry {
    pub slot: u32,
    #[serde(serialize_with = "return_type_name")]
    pub return_type: ReturnType,
    pub glsl_name: String,
    /// `uimage2D`, `iimage2D` or `image2D`.
    pub glsl_type: String,
    /// `r32ui`, `r32i` or `r32f`.
    pub glsl_format: String,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
    /// Whether an atomic (`imageAtomic*`) touches this image. A runtime
    /// whose shader compiler cannot read image atomics must hand such a
    /// shader to the driver another way (the Vulkan path passes its SPIR-V
    /// through). Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub atomics: bool,
}

/// A UAV's hidden counter: a block of one `uint count`.
#[derive(Debug, Clone, Serialize)]
pub struct CounterEntry {
    /// The UAV's slot.
    pub slot: u32,
    pub glsl_name: String,
    pub block: String,
    pub binding: Option<u32>,
}

/// What a sampler declaration is for: D3D's `dcl_sampler` mode (dxbc's
/// `SamplerMode`, a value D3D does not define read as the default), or
/// vk450's own fetch sampler, which has no D3D mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SamplerKind {
    /// `dcl_sampler … mode_default`.
    Default,
    /// `mode_comparison`: vk450 declares it `samplerShadow`.
    Comparison,
    /// `mode_mono`.
    Mono,
    /// vk450's own `hlslcc_fetchSampler`, declared when the shader fetches
    /// but has no non-comparison sampler: any non-comparison sampler will
    /// do, since `texelFetch` ignores its state.
    Fetch,
}

impl SamplerKind {
    pub fn name(self) -> &'static str {
        match self {
            SamplerKind::Default => "default",
            SamplerKind::Comparison => "comparison",
            SamplerKind::Mono => "mono",
            SamplerKind::Fetch => {
                "fetch (any non-comparison sampler; texelFetch ignores its state)"
            }
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SamplerEntry {
    pub slot: u32,
    pub mode: SamplerKind,
    /// vk450: the `sampler`/`samplerShadow` object; es300: none (folded
    /// into combined samplers).
    pub glsl_name: Option<String>,
    pub binding: Option<u32>,
    pub reflected_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CombinedEntry {
    pub name: String,
    pub glsl_type: OpaqueType,
    pub texture: u32,
    pub sampler: u32,
    pub shadow: bool,
}

/// What the runtime puts in an extra uniform, by slot where it has one.
/// `UniformEntry::meaning` says the same in words, for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UniformRole {
    /// `hlslcc_textureLevels_tN` of `hlslcc_TextureLevels`.
    TextureLevels { texture: u32 },
    /// `hlslcc_rasterizer` of `hlslcc_TextureLevels`: the render target's
    /// sample count.
    RasterizerSamples,
    /// `hlslcc_samplerMode_sN` of `hlslcc_SamplerState`: address modes and
    /// comparison function.
    SamplerMode { sampler: u32 },
    /// `hlslcc_samplerBorder_sN`: the border colour.
    SamplerBorder { sampler: u32 },
    /// `hlslcc_samplerLod_sN`: MipLODBias, MinLOD, MaxLOD.
    SamplerLod { sampler: u32 },
    /// `hlslcc_samplerFilter_sN`: min, mag and mip filters, reduction.
    SamplerFilter { sampler: u32 },
    /// es300's `hlslcc_YFlip`, a plain uniform.
    YFlip,
    /// `hlslcc_interfaceTable` of `hlslcc_Interfaces`.
    InterfaceTable,
    /// `hlslcc_this` of `hlslcc_Interfaces`.
    InterfaceThis,
    /// `hlslcc_bufferViews[N]` of `hlslcc_BufferViews`: typed buffer
    /// SRV N's DXGI format and element count.
    BufferView { texture: u32 },
}

#[derive(Debug, Clone, Serialize)]
pub struct UniformEntry {
    pub name: String,
    pub glsl_type: ValueType,
    /// What the runtime puts there, in words.
    pub meaning: String,
    /// The uniform block holding it; empty (and left out of the JSON) for
    /// a plain uniform, set with `uniform2f` and the like.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub block: String,
    /// Byte offset in the block (std140); 0 for a plain uniform.
    pub offset: u32,
    pub binding: Option<u32>,
    /// What the runtime puts there, typed.
    #[serde(skip)]
    pub role: UniformRole,
}

/// The interpolation qualifiers of a varying, in GLSL 4.50 words whichever
/// dialect: es300 has no `noperspective` and emulates it, which a runtime
/// generating the other stage must repeat. A varying without one is
/// `smooth` (perspective-correct at the pixel centre), GLSL's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InterpolationQualifier {
    Flat,
    Centroid,
    NoPerspective,
    NoPerspectiveCentroid,
    /// vk450 only (es300 drops `sample`): interpolated at each sample,
    /// which also runs the shader per sample.
    Sample,
    NoPerspectiveSample,
}

impl InterpolationQualifier {
    /// `None` for the default; `flat` overrides the others, as in GLSL.
    pub fn from_flags(
        flat: bool,
        centroid: bool,
        noperspective: bool,
    ) -> Option<InterpolationQualifier> {
        Self::with_sample(flat, centroid, noperspective, false)
    }

    /// [`Self::from_flags`] with `sample` (which D3D never combines with
    /// `centroid`).
    pub fn with_sample(
        flat: bool,
        centroid: bool,
        noperspective: bool,
        sample: bool,
    ) -> Option<InterpolationQualifier> {
        use InterpolationQualifier as Q;
        match (flat, noperspective, centroid) {
            (true, _, _) => Some(Q::Flat),
            (false, true, _) if sample => Some(Q::NoPerspectiveSample),
            (false, false, _) if sample => Some(Q::Sample),
            (false, true, true) => Some(Q::NoPerspectiveCentroid),
            (false, true, false) => Some(Q::NoPerspective),
            (false, false, true) => Some(Q::Centroid),
            (false, false, false) => None,
        }
    }

    pub fn is_flat(self) -> bool {
        self == InterpolationQualifier::Flat
    }

    pub fn is_centroid(self) -> bool {
        matches!(
            self,
            InterpolationQualifier::Centroid | InterpolationQualifier::NoPerspectiveCentroid
        )
    }

    pub fn is_noperspective(self) -> bool {
        matches!(
            self,
            InterpolationQualifier::NoPerspective
                | InterpolationQualifier::NoPerspectiveCentroid
                | InterpolationQualifier::NoPerspectiveSample
        )
    }
}

impl fmt::Display for InterpolationQualifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InterpolationQualifier::Flat => "flat",
            InterpolationQualifier::Centroid => "centroid",
            InterpolationQualifier::NoPerspective => "noperspective",
            InterpolationQualifier::NoPerspectiveCentroid => "noperspective centroid",
            InterpolationQualifier::Sample => "sample",
            InterpolationQualifier::NoPerspectiveSample => "noperspective sample",
        })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct VaryingEntry {
    pub register: u32,
    pub mask: String,
    pub semantic: String,
    pub semantic_index: u32,
    /// The GLSL variable or built-in.
    pub glsl_name: String,
    /// As declared: vertex inputs are always float (runtimes bind them
    /// with float attribute formats and the body bitcasts).
    pub glsl_type: ValueType,
    pub location: Option<u32>,
    pub interpolation: Option<InterpolationQualifier>,
    /// A built-in (`gl_Position`, `gl_FrontFacing`, `gl_VertexID`…) or the
    /// emitter's stand-in for one (`hlslcc_FragCoord`): the pipeline fills
    /// or reads it, so no vertex attribute or generated stage feeds it.
    #[serde(skip)]
    pub builtin: bool,
}

// The JSON spellings. Types of this layer serialise themselves; the dxbc
// types the manifest holds are spelled here, since their words in the
// manifest are the manifest's business.

fn stage_name<S: Serializer>(kind: &ProgramType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match kind {
        ProgramType::Vertex => "vertex",
        ProgramType::Pixel => "pixel",
        _ => "other",
    })
}

fn return_type_name<S: Serializer>(t: &ReturnType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.name())
}

/// Serialises each listed type as one JSON string: what the named method
/// gives (`name` for the words the manifest uses, `to_string` for GLSL
/// spellings).
macro_rules! serialize_as_str {
    ($( $t:ty => $text:ident ; )*) => {
        $( impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.$text())
            }
        } )*
    };
}

serialize_as_str! {
    Dialect => name;
    Dim => name;
    SamplerKind => name;
    ValueType => to_string;
    OpaqueType => to_string;
    InterpolationQualifier => to_string;
}

impl Manifest {
    /// Whether the shader applies an atomic to a storage image.
    pub fn image_atomics(&self) -> bool {
        self.storage_images.iter().any(|i| i.atomics)
    }

    /// Whether the shader declares storage: buffer views, typed buffer
    /// SRVs (read as storage words), UAVs or counters. Such text needs
    /// GLSL 4.50's storage blocks and images, which naga's GLSL front end
    /// reads only in part, so a runtime compiles it another way
    /// (`docs/harness.md`, "Shaders with storage").
    pub fn has_storage(&self) -> bool {
        !self.storage_buffers.is_empty()
            || !self.storage_images.is_empty()
            || !self.counters.is_empty()
            || !self.typed_buffers.is_empty()
    }

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
            // `Program::profile`'s text, pushed rather than formatted:
            // every translation makes a manifest.
            profile: {
                let p = &shader.program;
                cat!(p.kind.prefix(), '_', p.major, '_', p.minor)
            },
            stage: shader.program.kind,
            dialect,
            constant_buffers: Vec::new(),
            textures: Vec::new(),
            samplers: Vec::new(),
            combined_samplers: Vec::new(),
            uniforms: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            storage_buffers: Vec::new(),
            storage_images: Vec::new(),
            counters: Vec::new(),
            typed_buffers: Vec::new(),
            capture: None,
            capture_outputs: None,
            reflected,
            reflected_cbuffers,
        }
    }

    /// The RDEF name bound at `slot` for resources of the given kinds.
    pub fn reflected_name(&self, kinds: &[InputType], slot: u32) -> Option<String> {
        // A binding's first slot and count come from the file: their sum
        // can pass u32::MAX, so the range test is done by distance from
        // the first slot instead.
        self.reflected
            .iter()
            .find(|(t, p, n, _)| kinds.contains(t) && slot.checked_sub(*p).is_some_and(|d| d < *n))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A binding at the last slot with two elements: its end, one past the
    /// last slot it covers, is 2^32 + 1, past u32. Slot 2^32 - 1 is its
    /// first element; slot 0 is not in it (the end must not wrap round).
    #[test]
    fn a_binding_ending_past_u32_still_names_its_slots() {
        let text = "\
// Resource Bindings:
//
// Name                                 Type  Format         Dim Slot Elements
// ------------------------------ ---------- ------- ----------- ---- --------
// edge                              sampler      NA          NA 4294967295    2
//
ps_5_0
dcl_sampler s0, mode_default
ret
";
        let shader = crate::dxbc::asm::test_shader(text);
        let m = Manifest::new(&shader, Dialect::Es300);
        assert_eq!(m.profile, "ps_5_0");
        assert_eq!(m.profile, shader.program.profile());
        let sampler = [InputType::Sampler];
        assert_eq!(
            m.reflected_name(&sampler, u32::MAX).as_deref(),
            Some("edge")
        );
        assert_eq!(m.reflected_name(&sampler, 0), None);
        assert_eq!(m.reflected_name(&[InputType::Texture], u32::MAX), None);
    }
}
