//! `dcl_resource` and `dcl_sampler`: the texture and sampler uniforms, the
//! two uniform blocks the runtime fills (mip counts and format facts per
//! texture, sampler state per sampler), and their manifest entries.
//!
//! es300 declares, per texture, the bare `tN` (register identity, and what
//! `texelFetch`/`textureSize` use), one `tNTEX_with_SMPsM` per pair used by
//! non-comparison sampling and one `hlslcc_zcmptNTEX_with_SMPsM` per pair
//! used by comparison sampling, plus the bare `hlslcc_zcmptN` when any
//! comparison uses `tN`. vk450 declares separate `textureXX tN` and
//! `sampler sM` / `samplerShadow sM` objects and combines them at use
//! sites.

use std::fmt;

use super::super::emit::Emitter;
use super::super::manifest::{
    CombinedEntry, SamplerEntry, SamplerKind, TextureEntry, UniformEntry, UniformRole,
};
use super::super::names::{self, FETCH_SAMPLER_BINDING};
use super::super::types::{Opaque, OpaqueType, Ty, ValueType};
use super::super::writer::{Piece, cat};
use super::super::{Dialect, Reason};
use super::{Dim, levels_name};
use crate::dxbc::enums::SamplerMode;
use crate::dxbc::ir::Instruction;
use crate::dxbc::numfmt::push_u64;
use crate::dxbc::rdef::InputType;

/// vk450: the sampler declared for fetches when the shader has no
/// non-comparison sampler of its own.
pub const FETCH_SAMPLER: &str = "hlslcc_fetchSampler";
pub const LEVELS_BLOCK: &str = "hlslcc_TextureLevels";
/// The member of the levels block holding the render target's sample
/// count, for `sampleinfo`/`samplepos` of the rasterizer.
pub const RASTERIZER: &str = "hlslcc_rasterizer";
pub const STATE_BLOCK: &str = "hlslcc_SamplerState";

/// A uniform's name: a fixed prefix, then a texture or sampler slot
/// (`hlslcc_samplerMode_s3`). Every sample names several; as a piece the
/// name is pushed where it is used rather than built as a `String` first.
#[derive(Debug, Clone, Copy)]
pub struct SlotName(pub &'static str, pub u32);

impl Piece for SlotName {
    fn push_to(&self, out: &mut String) {
        out.push_str(self.0);
        push_u64(out, self.1.into());
    }
}

impl fmt::Display for SlotName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&cat!(self))
    }
}

pub fn mode_name(slot: u32) -> SlotName {
    SlotName("hlslcc_samplerMode_s", slot)
}

pub fn border_name(slot: u32) -> SlotName {
    SlotName("hlslcc_samplerBorder_s", slot)
}

pub fn lod_name(slot: u32) -> SlotName {
    SlotName("hlslcc_samplerLod_s", slot)
}

pub fn filter_name(slot: u32) -> SlotName {
    SlotName("hlslcc_samplerFilter_s", slot)
}

/// `dcl_resource` and `dcl_sampler`.
pub fn declare(e: &mut Emitter, inst: &Instruction) {
    blocks(e);
    let Some(slot) = inst.operands.first().and_then(|o| o.reg()) else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    if let Some(mode) = inst.sampler_mode() {
        sampler(e, slot, mode);
    } else {
        resource(e, inst, slot);
    }
}

fn sampler(e: &mut Emitter, slot: u32, mode: SamplerMode) {
    let reflected_name = e.manifest.reflected_name(&[InputType::Sampler], slot);
    // The manifest's kind: D3D's mode, with values D3D does not define read
    // as the default (as the sampler declaration below does).
    let kind = match mode {
        SamplerMode::Comparison => SamplerKind::Comparison,
        SamplerMode::Mono => SamplerKind::Mono,
        SamplerMode::Default | SamplerMode::Other(_) => SamplerKind::Default,
    };
    let (glsl_name, binding) = match e.dialect {
        Dialect::Es300 => {
            e.decl_line((
                "// s",
                slot,
                ": folded into the combined samplers that use it",
            ));
            (None, None)
        }
        Dialect::Vk450 => {
            let ty = if mode == SamplerMode::Comparison {
                "samplerShadow"
            } else {
                "sampler"
            };
            let b = names::sampler_binding(slot);
            e.decl_line((
                "layout(set = ",
                names::SET,
                ", binding = ",
                b,
                ") uniform ",
                ty,
                " s",
                slot,
                ';',
            ));
            (Some(cat!('s', slot)), Some(b))
        }
    };
    e.manifest.samplers.push(SamplerEntry {
        slot,
        mode: kind,
        glsl_name,
        binding,
        reflected_name,
    });
}

fn resource(e: &mut Emitter, inst: &Instruction, slot: u32) {
    let Some(res) = e.textures.resources.get(&slot).copied() else {
        return;
    };
    // vk450 reads a typed buffer SRV as a storage buffer (`memory`).
    if let Some(&rt) = e.memory.typed_srvs.get(&slot) {
        super::super::memory::typed_srv::declare(e, slot, rt);
        return;
    }
    if let Some(reason) = res.dim.refusal(e.dialect) {
        e.refuse(inst, reason);
        return;
    }
    if res.dim == Dim::Tex1D || res.dim == Dim::Tex1DArray {
        e.decl_line((
            "// t",
            slot,
            ": ",
            res.dim.name(),
            " lowered to a ",
            res.dim.glsl_suffix(),
            " texture of height 1",
        ));
    }
    // One typed value per declared type: the text and the manifest entry
    // both print it, so they cannot disagree.
    let sampler_ty = OpaqueType {
        object: Opaque::Sampler,
        ty: res.ty,
        shape: res.dim.glsl_shape(),
        shadow: false,
    };
    let texture_ty = OpaqueType {
        object: Opaque::Texture,
        ..sampler_ty
    };
    let shadow_ty = OpaqueType {
        ty: Ty::Float,
        shadow: true,
        ..sampler_ty
    };
    let compared = pairs_of(&e.textures.shadow_pairs, slot).next().is_some();
    let reflected_name = e.manifest.reflected_name(&[InputType::Texture], slot);
    let (glsl_type, binding) = match e.dialect {
        Dialect::Es300 => {
            e.decl_line(("uniform highp ", sampler_ty, " t", slot, ';'));
            (sampler_ty, None)
        }
        Dialect::Vk450 => {
            let b = names::texture_binding(slot);
            e.decl_line((
                "layout(set = ",
                names::SET,
                ", binding = ",
                b,
                ") uniform ",
                texture_ty,
                " t",
                slot,
                ';',
            ));
            if super::compared_and_plain(e, slot) {
                let pb = names::texture_plain_binding(slot);
                e.decl_line((
                    "layout(set = ",
                    names::SET,
                    ", binding = ",
                    pb,
                    ") uniform ",
                    texture_ty,
                    " t",
                    slot,
                    "_plain; // t",
                    slot,
                    " again, for plain reads",
                ));
            }
            (texture_ty, Some(b))
        }
    };
    e.manifest.textures.push(TextureEntry {
        slot,
        dimension: res.dim,
        return_type: res.return_type,
        glsl_name: cat!('t', slot),
        glsl_type,
        binding,
        reflected_name: reflected_name.clone(),
        compared: e.dialect == Dialect::Vk450 && compared,
    });
    if e.dialect == Dialect::Vk450 && super::compared_and_plain(e, slot) {
        e.manifest.textures.push(TextureEntry {
            slot,
            dimension: res.dim,
            return_type: res.return_type,
            glsl_name: cat!('t', slot, "_plain"),
            glsl_type: texture_ty,
            binding: Some(names::texture_plain_binding(slot)),
            reflected_name,
            compared: false,
        });
    }
    // The pairs are walked by position (the next sampler after the last
    // one done) rather than collected: declaring them writes to `e`,
    // which holds the sets.
    combined_pairs(e, slot, sampler_ty);
    if e.dialect == Dialect::Es300 && compared && res.dim != Dim::Tex3D {
        e.decl_line(("uniform highp ", shadow_ty, " hlslcc_zcmpt", slot, ';'));
    }
    // es300 declares no comparison sampler for a 3D texture (sample_c
    // refuses one).
    if e.dialect == Dialect::Vk450 || res.dim != Dim::Tex3D {
        combined_pairs(e, slot, shadow_ty);
    }
}

/// The samplers paired with texture `slot`, in order.
fn pairs_of(
    set: &std::collections::BTreeSet<(u32, u32)>,
    slot: u32,
) -> impl Iterator<Item = u32> + '_ {
    set.range((slot, 0)..=(slot, u32::MAX)).map(|&(_, s)| s)
}

/// The first sampler paired with texture `slot` from sampler `*from` on;
/// `*from` moves past it (None once past the last slot there is).
fn nth_pair(
    set: &std::collections::BTreeSet<(u32, u32)>,
    slot: u32,
    from: &mut Option<u32>,
) -> Option<u32> {
    let s = set.range((slot, (*from)?)..=(slot, u32::MAX)).next()?.1;
    *from = s.checked_add(1);
    Some(s)
}

/// Texture `slot`'s combined samplers of type `ty` (the plain pairs, or
/// the shadow pairs for a shadow type): es300 declares each as a uniform,
/// vk450 names the combination; the manifest lists both.
fn combined_pairs(e: &mut Emitter, slot: u32, ty: OpaqueType) {
    let prefix = if ty.shadow { "hlslcc_zcmpt" } else { "t" };
    let mut next = Some(0);
    loop {
        let pairs = if ty.shadow {
            &e.textures.shadow_pairs
        } else {
            &e.textures.plain_pairs
        };
        let Some(s) = nth_pair(pairs, slot, &mut next) else {
            break;
        };
        let name = match e.dialect {
            Dialect::Es300 => {
                let name = cat!(prefix, slot, "TEX_with_SMPs", s);
                e.decl_line(("uniform highp ", ty, ' ', &name, ';'));
                name
            }
            Dialect::Vk450 => cat!(ty, "(t", slot, ", s", s, ')'),
        };
        combined_entry(e, name, ty, slot, s);
    }
}

fn combined_entry(e: &mut Emitter, name: String, ty: OpaqueType, t: u32, s: u32) {
    e.manifest.combined_samplers.push(CombinedEntry {
        name,
        glsl_type: ty,
        texture: t,
        sampler: s,
        shadow: ty.shadow,
    });
}

/// The uniform blocks and the vk450 fetch sampler, once, at the first
/// texture or sampler declaration (or before the walk, in a shader that
/// reads the rasterizer and declares neither).
pub(super) fn blocks(e: &mut Emitter) {
    if e.textures.blocks_declared {
        return;
    }
    e.textures.blocks_declared = true;
    if e.dialect == Dialect::Vk450 && e.textures.fetch_sampler.as_deref() == Some(FETCH_SAMPLER) {
        e.decl_line((
            "layout(set = ",
            names::SET,
            ", binding = ",
            FETCH_SAMPLER_BINDING,
            ") uniform sampler ",
            FETCH_SAMPLER,
            ';',
        ));
        e.manifest.samplers.push(SamplerEntry {
            slot: FETCH_SAMPLER_BINDING - 160,
            mode: SamplerKind::Fetch,
            glsl_name: Some(FETCH_SAMPLER.into()),
            binding: Some(FETCH_SAMPLER_BINDING),
            reflected_name: None,
        });
    }
    // Members are built straight from the sets (no copy of them first);
    // names and meanings are pushed, not formatted.
    let t = &e.textures;
    if !t.levels.is_empty() || t.rasterizer {
        let ivec4 = ValueType::vec(Ty::Int, 4);
        let mut members: Vec<Member> = Vec::with_capacity(t.levels.len() + 1);
        members.extend(t.levels.iter().map(|&tex| {
            (
                cat!(levels_name(tex)),
                ivec4,
                UniformRole::TextureLevels { texture: tex },
                meaning(
                    't',
                    tex,
                    ": x = mip level count; y = 1 when the format is UNORM \
                     (comparison references are clamped to [0, 1]); z = number of \
                     components the format stores (1-4; out-of-range ld reads alpha \
                     as 1 below 4); w = sample count (1 unless multisampled)",
                ),
            )
        }));
        if t.rasterizer {
            members.push((
                RASTERIZER.into(),
                ivec4,
                UniformRole::RasterizerSamples,
                "x = the render target's sample count (1 when it is not multisampled); \
                 y, z, w unused"
                    .into(),
            ));
        }
        block(e, LEVELS_BLOCK, names::MIP_COUNT_BINDING, members);
    }
    let states = &e.textures.states;
    if !states.is_empty() {
        let (ivec4, vec4) = (ValueType::vec(Ty::Int, 4), ValueType::vec(Ty::Float, 4));
        let mut members: Vec<Member> = Vec::with_capacity(4 * states.len());
        for &s in states {
            members.push((
                cat!(mode_name(s)),
                ivec4,
                UniformRole::SamplerMode { sampler: s },
                meaning(
                    's',
                    s,
                    ": D3D11_TEXTURE_ADDRESS_MODE of U, V, W in x, y, z (1 wrap, 2 mirror, \
                     3 clamp, 4 border, 5 mirror once); D3D11_COMPARISON_FUNC in w \
                     (1 never … 8 always)",
                ),
            ));
            members.push((
                cat!(border_name(s)),
                vec4,
                UniformRole::SamplerBorder { sampler: s },
                meaning('s', s, ": BorderColor (RGBA)"),
            ));
            members.push((
                cat!(lod_name(s)),
                vec4,
                UniformRole::SamplerLod { sampler: s },
                meaning('s', s, ": MipLODBias, MinLOD, MaxLOD in x, y, z; w unused"),
            ));
            members.push((
                cat!(filter_name(s)),
                ivec4,
                UniformRole::SamplerFilter { sampler: s },
                meaning(
                    's',
                    s,
                    ": min, mag and mip filter in x, y, z (0 point, 1 linear; \
                     anisotropic counts as linear); reduction in w (0 standard, \
                     1 minimum, 2 maximum)",
                ),
            ));
        }
        block(e, STATE_BLOCK, names::SAMPLER_STATE_BINDING, members);
    }
}

/// A block member's meaning, `t3: …` or `s0: …`, in one allocation of its
/// size: the texts run to a few hundred bytes, which a `String` grown
/// piece by piece would reallocate on the way.
fn meaning(object: char, slot: u32, text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 11);
    cat!(&mut s; object, slot, text);
    s
}

/// A block member: its name, type, what it holds, and that in words.
type Member = (String, ValueType, UniformRole, String);

/// One std140 block of 16-byte members, listed in the manifest.
/// The members are moved into the manifest: their names and meanings
/// were built for it.
fn block(e: &mut Emitter, name: &str, binding: u32, members: Vec<Member>) {
    match e.dialect {
        Dialect::Es300 => e.decl_line(("layout(std140) uniform ", name, " {")),
        Dialect::Vk450 => e.decl_line((
            "layout(std140, set = ",
            names::SET,
            ", binding = ",
            binding,
            ") uniform ",
            name,
            " {",
        )),
    }
    e.manifest.uniforms.reserve(members.len());
    for (i, (m, ty, role, meaning)) in members.into_iter().enumerate() {
        e.decl_line(("    ", ty, ' ', &m, ';'));
        e.manifest.uniforms.push(UniformEntry {
            name: m,
            glsl_type: ty,
            role,
            meaning,
            block: name.into(),
            offset: 16 * i as u32,
            binding: (e.dialect == Dialect::Vk450).then_some(binding),
        });
    }
    e.decl_line("};");
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A slot name pushes its prefix and the slot in decimal, and shows
    /// the same through Display (the emulated path's cached texts use it).
    #[test]
    fn slot_names_push_prefix_and_slot() {
        assert_eq!(cat!(mode_name(3)), "hlslcc_samplerMode_s3");
        assert_eq!(cat!(border_name(0)), "hlslcc_samplerBorder_s0");
        assert_eq!(filter_name(15).to_string(), "hlslcc_samplerFilter_s15");
        assert_eq!(
            cat!(levels_name(u32::MAX), ".x"),
            "hlslcc_textureLevels_t4294967295.x"
        );
        assert_eq!(format!("{}", lod_name(12)), "hlslcc_samplerLod_s12");
    }

    /// The pair walk gives texture 1's samplers in order and stops after
    /// the last, the largest slot included (its successor would overflow).
    #[test]
    fn pair_walk_visits_each_sampler_once() {
        let set: BTreeSet<(u32, u32)> = [(0, 1), (1, 0), (1, 5), (1, u32::MAX), (2, 0)]
            .into_iter()
            .collect();
        let mut next = Some(0);
        let mut seen = Vec::new();
        while let Some(s) = nth_pair(&set, 1, &mut next) {
            seen.push(s);
        }
        assert_eq!(seen, [0, 5, u32::MAX]);
        assert_eq!(pairs_of(&set, 1).count(), 3);
        assert_eq!(pairs_of(&set, 3).next(), None);
    }
}
