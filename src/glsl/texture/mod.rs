//! Textures and samplers: declarations (the combined-sampler ABI), the
//! sample/gather/load/query instructions and their helpers.
//!
//! Split by what each module owns: [`decl`] the uniforms, the two uniform
//! blocks and the manifest entries; [`sample`] the `sample*` family through
//! the hardware sampler (with the sampler state WebGL2 lacks folded in);
//! [`emulate`] the manual sampling path border addressing needs;
//! [`gather`] the emulated `gather4*` family; [`address`] the addressing and
//! comparison helpers those two share; [`query`] `ld`, `resinfo` and `lod`. This module holds what they share: the scan that runs before the
//! walk, per-dimension facts and the names instruction bodies use.
//!
//! ES 3.00 has no 1D textures, so `texture1d` and `texture1darray` are
//! declared and addressed as 2D and 2D-array textures of height 1 (sampling
//! at `v = 0.5`, fetching row 0).

mod address;
mod decl;
mod emulate;
mod gather;
mod query;
mod sample;

use std::collections::{BTreeMap, BTreeSet};

use super::emit::Emitter;
use super::types::{COMPONENTS, TextureShape, Ty};
use super::{Dialect, Reason};
use crate::dxbc::enums::{ResourceDimension, ReturnType, SamplerMode};
use crate::dxbc::ir::{DeclKind, FeedbackParts, Instruction, Operand, OperandType};
use crate::dxbc::opcodes::{Op, TextureOperands};

use super::writer::cat;

pub use decl::declare;

/// Declares the levels block before the walk when the shader reads the
/// rasterizer (`sampleinfo`/`samplepos`) but declares no texture or
/// sampler, at whose declaration it would otherwise appear.
pub fn declare_rasterizer_block(e: &mut Emitter) {
    if e.textures.rasterizer && e.textures.resources.is_empty() && e.textures.samplers.is_empty() {
        decl::blocks(e);
    }
}

/// `D3D10_SB_RESOURCE_DIMENSION` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dim {
    Buffer,
    Tex1D,
    Tex2D,
    Tex2DMS,
    Tex3D,
    Cube,
    Tex1DArray,
    Tex2DArray,
    Tex2DMSArray,
    CubeArray,
    RawOrStructured,
    Unknown,
}

impl Dim {
    pub fn from_d3d(d: ResourceDimension) -> Dim {
        match d {
            ResourceDimension::Buffer => Dim::Buffer,
            ResourceDimension::Texture1D => Dim::Tex1D,
            ResourceDimension::Texture2D => Dim::Tex2D,
            ResourceDimension::Texture2DMs => Dim::Tex2DMS,
            ResourceDimension::Texture3D => Dim::Tex3D,
            ResourceDimension::TextureCube => Dim::Cube,
            ResourceDimension::Texture1DArray => Dim::Tex1DArray,
            ResourceDimension::Texture2DArray => Dim::Tex2DArray,
            ResourceDimension::Texture2DMsArray => Dim::Tex2DMSArray,
            ResourceDimension::TextureCubeArray => Dim::CubeArray,
            ResourceDimension::RawBuffer | ResourceDimension::StructuredBuffer => {
                Dim::RawOrStructured
            }
            ResourceDimension::Unknown | ResourceDimension::Other(_) => Dim::Unknown,
        }
    }

    /// Why this dimension cannot be lowered in `dialect`, if it cannot.
    /// Cube arrays are core in GLSL 4.50 (and naga reads them), but ES 3.00
    /// has them only through OES_texture_cube_map_array, which WebGL2 lacks;
    /// multisampled textures are likewise ES 3.00's lack only.
    pub fn refusal(self, dialect: Dialect) -> Option<Reason> {
        match self {
            // vk450 lowers a typed buffer's declaration, `ld` and
            // `bufinfo` in `memory::typed_srv` before they get here; what
            // reaches here (resinfo, a tiled `ld_s`) has no lowering.
            Dim::Buffer => Some(Reason::TypedBuffer),
            Dim::Tex2DMS | Dim::Tex2DMSArray if dialect == Dialect::Es300 => {
                Some(Reason::Multisample)
            }
            Dim::CubeArray if dialect == Dialect::Es300 => Some(Reason::CubeArray),
            Dim::RawOrStructured => Some(Reason::RawStructuredBuffer),
            Dim::Unknown => Some(Reason::Operand),
            _ => None,
        }
    }

    /// The GLSL texture shape it is declared as; 1D lowers to 2D.
    pub fn glsl_shape(self) -> TextureShape {
        match self {
            Dim::Tex1D | Dim::Tex2D => TextureShape::D2,
            Dim::Tex1DArray | Dim::Tex2DArray => TextureShape::D2Array,
            Dim::Tex3D => TextureShape::D3,
            Dim::Cube => TextureShape::Cube,
            Dim::CubeArray => TextureShape::CubeArray,
            Dim::Tex2DMS => TextureShape::D2MS,
            Dim::Tex2DMSArray => TextureShape::D2MSArray,
            _ => TextureShape::D2,
        }
    }

    /// The GLSL type suffix (`2D`, `2DArray`, …); 1D lowers to 2D.
    pub fn glsl_suffix(self) -> &'static str {
        self.glsl_shape().suffix()
    }

    pub fn name(self) -> &'static str {
        match self {
            Dim::Buffer => "buffer",
            Dim::Tex1D => "texture1d",
            Dim::Tex2D => "texture2d",
            Dim::Tex2DMS => "texture2dms",
            Dim::Tex3D => "texture3d",
            Dim::Cube => "texturecube",
            Dim::Tex1DArray => "texture1darray",
            Dim::Tex2DArray => "texture2darray",
            Dim::Tex2DMSArray => "texture2dmsarray",
            Dim::CubeArray => "texturecubearray",
            Dim::RawOrStructured => "raw/structured buffer",
            Dim::Unknown => "unknown",
        }
    }

    /// A cube or a cube array: addressed by a direction, no address modes,
    /// no offsets, no `ld`.
    pub fn is_cube(self) -> bool {
        matches!(self, Dim::Cube | Dim::CubeArray)
    }

    /// Addressed axes (gradients, offsets): layers excluded.
    pub fn axes(self) -> usize {
        match self {
            Dim::Tex1D | Dim::Tex1DArray => 1,
            Dim::Tex3D | Dim::Cube | Dim::CubeArray => 3,
            _ => 2,
        }
    }

    /// Components of the GLSL coordinate (after the 1D → 2D lowering):
    /// a cube array's is the direction and the cube index.
    pub fn glsl_components(self) -> usize {
        match self {
            Dim::Tex1D | Dim::Tex2D | Dim::Tex2DMS => 2,
            Dim::CubeArray => 4,
            _ => 3,
        }
    }

    /// Components of `textureSize` for the GLSL type: a cube's (w, h), a
    /// cube array's (w, h, cubes).
    pub fn size_components(self) -> usize {
        match self {
            Dim::Cube => 2,
            _ => self.glsl_components().min(3),
        }
    }
}

/// A declared texture.
#[derive(Debug, Clone, Copy)]
pub struct Res {
    pub dim: Dim,
    pub ty: Ty,
    /// `dcl_resource`'s first return type (what the manifest reports).
    pub return_type: ReturnType,
}

/// What the program does with its textures and samplers, gathered before
/// the walk so declarations know which combinations instructions use.
#[derive(Debug, Default)]
pub struct Textures {
    /// `dcl_resource` by slot.
    pub resources: BTreeMap<u32, Res>,
    /// `dcl_sampler` mode (0 default, 1 comparison, 2 mono) by slot.
    pub samplers: BTreeMap<u32, SamplerMode>,
    /// (texture, sampler) pairs used by non-comparison operations.
    pub plain_pairs: BTreeSet<(u32, u32)>,
    /// Pairs used by `sample_c`/`sample_c_lz` (and emulated cube gathers).
    pub shadow_pairs: BTreeSet<(u32, u32)>,
    /// Textures whose `hlslcc_textureLevels_tN` the body reads.
    pub levels: BTreeSet<u32>,
    /// Samplers whose state the body reads.
    pub states: BTreeSet<u32>,
    /// Whether the body reads the rasterizer's sample count
    /// (`hlslcc_rasterizer`).
    pub rasterizer: bool,
    /// Textures read with `texelFetch`/`textureSize` (vk450 needs a sampler
    /// to make them combined).
    pub fetched: BTreeSet<u32>,
    /// vk450: the sampler used for fetches and size queries.
    pub fetch_sampler: Option<String>,
    /// Whether the uniform blocks (and the vk450 fetch sampler) have been
    /// declared.
    pub blocks_declared: bool,
    /// Next `txVecN` temp.
    pub next_txvec: u32,
    /// The emulated-sample helpers requested so far, as (texture, sampler,
    /// comparison, clamped): a few entries, where asking the helper list
    /// would compare the name against every helper the shader has.
    pub emulated: Vec<(u32, u32, bool, bool)>,
}

/// Collects texture/sampler pairs and the uniforms instructions will need.
pub fn scan(e: &mut Emitter) {
    let mut t = Textures::default();
    // The analysis pass lists each declared slot with its declaration (and
    // has refused any use of an undeclared one).
    let declared = &e.analysis.resources;
    for (&slot, &at) in &declared.textures.declared {
        let inst = &e.program.instructions[at];
        // Raw and structured buffers are `t#` too, refused by the support
        // table: no texture to declare.
        if inst.op != Op::DclResource {
            continue;
        }
        let dim = inst
            .resource_dimension()
            .map_or(Dim::Unknown, Dim::from_d3d);
        let rt = match inst.decl {
            DeclKind::ReturnTypes(r) => r[0],
            _ => ReturnType::Float,
        };
        let ty = Ty::of_return(rt);
        t.resources.insert(
            slot,
            Res {
                dim,
                ty,
                return_type: rt,
            },
        );
    }
    for (&slot, &at) in &declared.samplers.declared {
        let mode = e.program.instructions[at].sampler_mode();
        t.samplers
            .insert(slot, mode.unwrap_or(SamplerMode::Default));
    }
    for inst in &e.program.instructions {
        // Most instructions are arithmetic: out before anything is built
        // for them (the same test the walk's support table makes).
        if !lowers(inst.op) {
            continue;
        }
        // A tiled-resource `_s` form uses its texture as its plain form
        // does; with a minimum-LOD clamp it samples on the emulated path
        // alone (see `feedback`).
        let feedback = inst.feedback_parts();
        let clamped = feedback
            .as_ref()
            .is_some_and(|f| min_lod_clamp(f).is_some());
        let inst = feedback.as_ref().map_or(inst, |f| &f.plain);
        let parts = parts(inst).or((inst.op == Op::SamplePos).then_some(TextureOperands {
            resource: 1,
            sampler: None,
        }));
        let Some(parts) = parts else {
            continue;
        };
        let res_op = inst.operands.get(parts.resource);
        if res_op.is_some_and(|o| o.ty == OperandType::RASTERIZER) {
            t.rasterizer = true;
            continue;
        }
        let Some(tex) = res_op.and_then(Operand::reg) else {
            continue;
        };
        let smp = parts.sampler.and_then(|i| inst.operands.get(i)?.reg());
        let dim = t
            .resources
            .get(&tex)
            .map(|r| r.dim)
            .or_else(|| inst.resource_dim().map(|(d, _)| Dim::from_d3d(d)))
            .unwrap_or(Dim::Tex2D);
        if let (Some(s), true) = (smp, sample::is_sample(inst.op)) {
            // Every sample reads its sampler's MipLODBias (and modes); the
            // emulated path also fetches level by level within the mip count.
            t.states.insert(s);
            if sample::emulates_addressing(dim) && (clamped || !e.options.skip_border_emulation) {
                t.levels.insert(tex);
                t.fetched.insert(tex);
            }
            if clamped {
                continue;
            }
        }
        match inst.op {
            Op::Sample | Op::SampleL | Op::SampleB | Op::SampleD => {
                if let Some(s) = smp {
                    t.plain_pairs.insert((tex, s));
                }
            }
            Op::SampleC | Op::SampleCLz => {
                if let Some(s) = smp {
                    t.shadow_pairs.insert((tex, s));
                }
            }
            Op::Gather4 | Op::Gather4Po | Op::Gather4C | Op::Gather4PoC => {
                let compare = matches!(inst.op, Op::Gather4C | Op::Gather4PoC);
                if let Some(s) = smp {
                    // Declared for every sampler a sampling instruction
                    // uses, whether or not this path reads it.
                    t.states.insert(s);
                    if dim.is_cube() {
                        // Cube gathers sample texel centres (see gather.rs).
                        if compare {
                            t.shadow_pairs.insert((tex, s));
                        } else {
                            t.plain_pairs.insert((tex, s));
                        }
                    } else {
                        t.fetched.insert(tex);
                        if compare {
                            t.levels.insert(tex);
                        }
                    }
                }
            }
            // A typed buffer has no levels to count and is never sampled:
            // vk450 reads it as a storage buffer (`memory::typed_srv`),
            // es300 refuses it.
            Op::Ld | Op::Resinfo | Op::LdMs if dim == Dim::Buffer => {}
            Op::Ld | Op::Resinfo | Op::LdMs => {
                t.levels.insert(tex);
                t.fetched.insert(tex);
            }
            // The sample count is the levels block's `.w`.
            Op::SampleInfo | Op::SamplePos => {
                t.levels.insert(tex);
            }
            Op::Lod => {
                t.levels.insert(tex);
                t.fetched.insert(tex);
                if let Some(s) = smp {
                    t.states.insert(s);
                }
            }
            _ => {}
        }
    }
    if e.dialect == Dialect::Vk450 && !t.fetched.is_empty() {
        t.fetch_sampler = Some(
            t.samplers
                .iter()
                .find(|(_, m)| **m != SamplerMode::Comparison)
                .map(|(s, _)| cat!('s', s))
                .unwrap_or_else(|| decl::FETCH_SAMPLER.to_string()),
        );
    }
    e.textures = t;
}

/// Whether this module lowers `op` (for [`super::support::has_lowering`]):
/// the texture instructions whose operands the opcode description places.
pub(super) fn lowers(op: Op) -> bool {
    let plain = op.feedback_form().map_or(op, |f| f.plain);
    plain.texture_operands().is_some() || plain == Op::SamplePos
}

/// Where an instruction's resource and sampler operands are, from the
/// opcode description.
pub(crate) fn parts(inst: &Instruction) -> Option<TextureOperands> {
    inst.op.texture_operands()
}

/// The specific reason a texture instruction the support table refuses is
/// refused for, when its operands say more than the opcode: `bufinfo` on a
/// raw or structured buffer or a UAV, `sampleinfo` of the rasterizer.
pub fn refusal(e: &Emitter, inst: &Instruction) -> Option<Reason> {
    let parts = parts(inst)?;
    let res_op = inst.operands.get(parts.resource)?;
    match res_op.ty {
        OperandType::UNORDERED_ACCESS_VIEW => Some(uav_refusal(e.dialect)),
        OperandType::RESOURCE if inst.op == Op::Bufinfo => {
            let dim = resource(e, inst, res_op.reg()?).dim;
            (dim == Dim::RawOrStructured).then_some(Reason::RawStructuredBuffer)
        }
        _ => None,
    }
}

/// Why a texture instruction naming a UAV is refused: es300 has no UAVs;
/// vk450 has them, but reads them only through the memory instructions,
/// `resinfo` and `bufinfo` (lowered in `memory`), never sampled or `ld`.
fn uav_refusal(dialect: Dialect) -> Reason {
    match dialect {
        Dialect::Es300 => Reason::Uav,
        Dialect::Vk450 => Reason::ViewMismatch,
    }
}

/// A texture-class instruction the support table lowers.
pub fn emit(e: &mut Emitter, inst: &Instruction) {
    if inst.op.feedback_form().is_some() {
        feedback(e, inst);
        return;
    }
    emit_plain(e, inst, None);
}

/// A texture instruction without feedback; `min_lod` is a `_cl` form's
/// minimum-LOD clamp (only the `sample*` forms have one).
fn emit_plain(e: &mut Emitter, inst: &Instruction, min_lod: Option<&Operand>) {
    let multisampled = matches!(inst.op, Op::LdMs | Op::SampleInfo | Op::SamplePos);
    if multisampled && e.dialect == Dialect::Es300 {
        // No sampler2DMS, gl_NumSamples or sample positions in ES 3.00.
        e.refuse(inst, Reason::Multisample);
        return;
    }
    // samplepos names its resource (or the rasterizer) in operand 1.
    let parts = parts(inst).or((inst.op == Op::SamplePos).then_some(TextureOperands {
        resource: 1,
        sampler: None,
    }));
    let Some(parts) = parts else {
        // The tiled-resource `_s` forms, anything else.
        e.refuse(inst, Reason::Operand);
        return;
    };
    let Some(res_op) = inst.operands.get(parts.resource) else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    if res_op.ty == OperandType::RASTERIZER && multisampled {
        query::rasterizer(e, inst, parts.resource);
        return;
    }
    if res_op.ty != OperandType::RESOURCE {
        let reason = match res_op.ty {
            OperandType::UNORDERED_ACCESS_VIEW => uav_refusal(e.dialect),
            _ => Reason::Operand,
        };
        e.refuse(inst, reason);
        return;
    }
    let Some(slot) = res_op.reg() else {
        e.refuse(inst, Reason::ResourceIndex);
        return;
    };
    let res = resource(e, inst, slot);
    if let Some(reason) = res.dim.refusal(e.dialect) {
        e.refuse(inst, reason);
        return;
    }
    let ctx = Ctx {
        slot,
        res,
        smp: parts
            .sampler
            .and_then(|i| inst.operands.get(i))
            .and_then(Operand::reg),
        res_index: parts.resource,
    };
    match inst.op {
        Op::Ld => query::ld(e, inst, &ctx),
        Op::LdMs => query::ldms(e, inst, &ctx),
        Op::SampleInfo => query::sampleinfo(e, inst, &ctx),
        Op::SamplePos => query::samplepos(e, inst, &ctx),
        Op::Resinfo => query::resinfo(e, inst, &ctx),
        Op::Lod => query::lod(e, inst, &ctx),
        Op::Gather4 | Op::Gather4C | Op::Gather4Po | Op::Gather4PoC => gather::emit(e, inst, &ctx),
        // bufinfo of raw/structured views and UAVs is `memory`'s; a typed
        // buffer (refused above by its dimension) or a texture has no
        // lowering.
        Op::Bufinfo => e.refuse(inst, Reason::TypedBuffer),
        _ => sample::emit(e, inst, &ctx, min_lod),
    }
}

/// A tiled-resource `_s` form: its plain instruction, then the status.
/// Neither dialect has tiled resources (GLSL ES 3.00 has no sparse
/// textures; the harness's Vulkan GLSL goes through naga, which reads no
/// sparse residency either), and every access to a resource that is not
/// tiled appears fully mapped (D3D11.2 functional spec 5.9.4.5.5): the
/// status is the emulator's fully-mapped value, 0, which
/// `check_access_fully_mapped` turns into true. A `_cl` form's minimum-LOD
/// clamp is the plain form when it is the literal 0, which the spec defines
/// as no clamp (what fxc writes when a shader asks for the status alone);
/// neither dialect has a per-sample LOD clamp for any other, so such a
/// sample runs the emulated path, which applies it (cubes are refused).
fn feedback(e: &mut Emitter, inst: &Instruction) {
    let Some(parts) = inst.feedback_parts() else {
        e.refuse(inst, Reason::Malformed);
        return;
    };
    let before = e.diagnostics.len();
    emit_plain(e, &parts.plain, min_lod_clamp(&parts));
    if e.diagnostics.len() > before {
        // Refused for what the plain form reads: name the instruction
        // as written.
        let text = e.inst_text(inst);
        for d in &mut e.diagnostics[before..] {
            d.text.clone_from(&text);
        }
        return;
    }
    if parts.status.ty != OperandType::NULL {
        e.line("// status: no tiled resources here (no sparse residency), every access is fully mapped");
        e.assign(inst, &parts.status, "0u", Ty::Uint, false);
    }
}

/// A `_cl` form's clamp operand, unless it is the literal 0 (no clamp).
fn min_lod_clamp(parts: &FeedbackParts) -> Option<&Operand> {
    parts.clamp.as_ref().filter(|c| !is_zero_immediate(c))
}

/// Whether a `_cl` clamp operand is the immediate 0.0 (either sign): no
/// clamp.
fn is_zero_immediate(op: &Operand) -> bool {
    op.ty == OperandType::IMMEDIATE32
        && !op.imm.is_empty()
        && op.imm.iter().all(|&b| f32::from_bits(b) == 0.0)
}

/// One instruction's texture, sampler and where its resource operand is.
pub(crate) struct Ctx {
    pub slot: u32,
    pub res: Res,
    pub smp: Option<u32>,
    pub res_index: usize,
}

/// The declared texture at `slot`, or what the instruction's own extended
/// tokens say (SM5 `_indexable`), or a float 2D texture.
fn resource(e: &Emitter, inst: &Instruction, slot: u32) -> Res {
    if let Some(r) = e.textures.resources.get(&slot) {
        return *r;
    }
    let dim = inst
        .resource_dim()
        .map(|(d, _)| Dim::from_d3d(d))
        .unwrap_or(Dim::Tex2D);
    let ty = match inst.return_types() {
        Some(t) => Ty::of_return(t[0]),
        None => Ty::Float,
    };
    Res {
        dim,
        ty,
        return_type: ReturnType::Float,
    }
}

/// `ivec`/`uvec`/`vec` prefix of a sampler or texture type.
pub(crate) fn type_prefix(ty: Ty) -> &'static str {
    match ty {
        Ty::Float => "",
        Ty::Int => "i",
        Ty::Uint => "u",
    }
}

// The names below are asked for by every sample, load and query: they
// are pushed piece by piece (`cat!`), not formatted.

/// The combined sampler expression for plain sampling of `(tex, smp)`.
pub(crate) fn combined(e: &Emitter, ctx: &Ctx, smp: u32) -> String {
    let mut s = String::with_capacity(32);
    push_combined(&mut s, e, ctx, smp);
    s
}

/// [`combined`] pushed onto `out` (the hardware sample call it is part of).
pub(crate) fn push_combined(out: &mut String, e: &Emitter, ctx: &Ctx, smp: u32) {
    match e.dialect {
        Dialect::Es300 => cat!(out; 't', ctx.slot, "TEX_with_SMPs", smp),
        Dialect::Vk450 => {
            cat!(out; type_prefix(ctx.res.ty), "sampler", ctx.res.dim.glsl_suffix(), '(');
            push_plain_view(out, e, ctx.slot);
            cat!(out; ", s", smp, ')');
        }
    }
}

/// The combined shadow sampler expression for `(tex, smp)`.
pub(crate) fn combined_shadow(e: &Emitter, ctx: &Ctx, smp: u32) -> String {
    match e.dialect {
        Dialect::Es300 => cat!("hlslcc_zcmpt", ctx.slot, "TEX_with_SMPs", smp),
        Dialect::Vk450 => cat!(
            "sampler",
            ctx.res.dim.glsl_suffix(),
            "Shadow(t",
            ctx.slot,
            ", s",
            smp,
            ')'
        ),
    }
}

/// The texture as `texelFetch` and `textureSize` take it: the bare `tN`
/// (es300) or `tN` combined with the fetch sampler (vk450).
pub(crate) fn fetch_name(e: &Emitter, slot: u32, res: &Res) -> String {
    match e.dialect {
        Dialect::Es300 => cat!('t', slot),
        Dialect::Vk450 => {
            let mut s = cat!(type_prefix(res.ty), "sampler", res.dim.glsl_suffix(), '(');
            push_plain_view(&mut s, e, slot);
            let sampler = e.textures.fetch_sampler.as_deref();
            cat!(&mut s; ", ", sampler.unwrap_or(decl::FETCH_SAMPLER), ')');
            s
        }
    }
}

/// Whether texture `slot` is compared (`sample_c*`) and also read plainly
/// (sampled, fetched, gathered, sized).
pub(crate) fn compared_and_plain(e: &Emitter, slot: u32) -> bool {
    let t = &e.textures;
    t.shadow_pairs.iter().any(|(s, _)| *s == slot)
        && (t.plain_pairs.iter().any(|(s, _)| *s == slot) || t.fetched.contains(&slot))
}

/// The texture object plain reads use. In vk450 a texture that is also
/// compared is read through its second, plain view `tN_plain`: naga types a
/// texture paired with a `samplerShadow` as a depth texture and refuses
/// plain reads of it. Both views show the same texture, so the values
/// (a depth format reads as `(d, 0, 0, 1)`) are those of es300's `tN`.
/// Pushed onto `out`: it is part of the combined expressions.
fn push_plain_view(out: &mut String, e: &Emitter, slot: u32) {
    cat!(out; 't', slot);
    if e.dialect == Dialect::Vk450 && compared_and_plain(e, slot) {
        out.push_str("_plain");
    }
}

/// `hlslcc_textureLevels_tN` (mip count in `.x`).
pub(crate) fn levels_name(slot: u32) -> decl::SlotName {
    decl::SlotName("hlslcc_textureLevels_t", slot)
}

/// Writes a 4-component texture result `value` (a `ty` vector) through the
/// resource operand's swizzle and the destination mask.
pub(crate) fn assign_result(e: &mut Emitter, inst: &Instruction, ctx: &Ctx, value: &str, ty: Ty) {
    let Some(dst) = inst.operands.first() else {
        return;
    };
    let mask = Emitter::dst_mask(dst);
    let res_op = &inst.operands[ctx.res_index];
    // Every sample and load ends here: the swizzle is worked out in a
    // fixed array and the value built in a reused buffer.
    let mut comps = [0u8; 4];
    let mut len = 0;
    for c in 0..4u8 {
        if mask & (1 << c) != 0 {
            comps[len] = Emitter::source_component(res_op, c);
            len += 1;
        }
    }
    let comps = &comps[..len];
    let mut expr = e.take_buf();
    // Test-only fault: each tap compared by the complement of the
    // sampler's function, which for the filtered result is one minus it.
    if e.options.reverse_pcf_compare && matches!(inst.op, Op::SampleC | Op::SampleCLz) {
        expr.push_str("(1.0 - ");
        expr.push_str(value);
        expr.push(')');
    } else {
        expr.push_str(value);
    }
    if comps != [0, 1, 2, 3] {
        expr.push('.');
        for &c in comps {
            expr.push(COMPONENTS[(c & 3) as usize]);
        }
    }
    e.assign(inst, dst, &expr, ty, inst.saturate());
    e.give_buf(expr);
}

/// Immediate texel offsets as a GLSL literal for `n` axes, or None when the
/// instruction has none.
pub(crate) fn offset_literal(inst: &Instruction, n: usize, lowered_1d: bool) -> Option<String> {
    let o = inst.offsets()?;
    Some(match (n, lowered_1d) {
        (1, true) => cat!("ivec2(", o[0], ", 0)"),
        (1, false) => cat!(o[0]),
        (2, _) => cat!("ivec2(", o[0], ", ", o[1], ')'),
        _ => cat!("ivec3(", o[0], ", ", o[1], ", ", o[2], ')'),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions() {
        use ResourceDimension as R;
        assert_eq!(Dim::from_d3d(R::Texture1D).glsl_suffix(), "2D");
        assert_eq!(Dim::from_d3d(R::Texture1DArray).glsl_suffix(), "2DArray");
        // Cube arrays are es300's refusal only.
        assert_eq!(
            Dim::from_d3d(R::TextureCubeArray).refusal(Dialect::Es300),
            Some(Reason::CubeArray)
        );
        assert_eq!(
            Dim::from_d3d(R::TextureCubeArray).refusal(Dialect::Vk450),
            None
        );
        for d in [Dialect::Es300, Dialect::Vk450] {
            assert_eq!(
                Dim::from_d3d(R::Buffer).refusal(d),
                Some(Reason::TypedBuffer)
            );
        }
        // Multisampled textures are es300's refusal only.
        assert_eq!(
            Dim::from_d3d(R::Texture2DMs).refusal(Dialect::Es300),
            Some(Reason::Multisample)
        );
        assert_eq!(Dim::from_d3d(R::Texture2DMs).refusal(Dialect::Vk450), None);
        assert_eq!(Dim::Tex2DMS.glsl_suffix(), "2DMS");
        assert_eq!(Dim::Tex2DMSArray.glsl_components(), 3);
        assert_eq!(Dim::Tex1DArray.glsl_components(), 3);
        assert_eq!(Dim::Cube.size_components(), 2);
        assert_eq!(Dim::Tex2DArray.size_components(), 3);
        // samplerCubeArray: vec4 (direction, cube), textureSize ivec3.
        assert_eq!(Dim::CubeArray.glsl_suffix(), "CubeArray");
        assert_eq!(Dim::CubeArray.glsl_components(), 4);
        assert_eq!(Dim::CubeArray.size_components(), 3);
        assert_eq!(Dim::CubeArray.axes(), 3);
        assert!(Dim::CubeArray.is_cube() && Dim::Cube.is_cube() && !Dim::Tex2DArray.is_cube());
    }
}
