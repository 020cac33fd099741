//! The register-stable naming ABI and the vk450 binding numbers, in one
//! place so the manifest, the declarations and the instruction bodies agree.
//!
//! es300 names (what WebGL2 code binds against): `cbN` instances of
//! `ConstantBufferN` blocks, `tN` bare textures, `tNTEX_with_SMPsM` combined
//! samplers (`hlslcc_zcmp` prefix for the shadow variant), `in_SEMn` vertex
//! attributes, `vs_SEMn` varyings on both sides, `SV_TargetN` colour
//! outputs.
//!
//! vk450 bindings, all in set 0: constant buffer N at binding N; the mip
//! count block at 14; the sampler-state block at 15; texture N at 16 + N;
//! the plain view of a compared texture N at 96 + N; sampler N at 160 + N;
//! the fetch sampler at 176; the class-interface block at 200; the typed
//! buffer views block at 201; a raw, structured or typed buffer SRV tN at
//! 16 + N (a `t` slot holds a texture or a buffer,
//! never both); UAV N at 208 + N and its counter at 272 + N; the register capture's buffer at 336. These are
//! the only definitions of those numbers: the harness binds by them too.

use crate::dxbc::numfmt::push_u64;

pub const SET: u32 = 0;
/// `hlslcc_TextureLevels`, per texture the mip count and format facts.
pub const MIP_COUNT_BINDING: u32 = 14;
/// `hlslcc_SamplerState`, per sampler the state WebGL2 samplers lack.
pub const SAMPLER_STATE_BINDING: u32 = 15;
/// Texture N is at `TEXTURE_BINDING_BASE + N`.
pub const TEXTURE_BINDING_BASE: u32 = 16;
pub const TEXTURE_PLAIN_BINDING_BASE: u32 = 96;
pub const SAMPLER_BINDING_BASE: u32 = 160;
/// vk450's own fetch sampler (`hlslcc_fetchSampler`): past the sixteen
/// D3D11 sampler slots.
pub const FETCH_SAMPLER_BINDING: u32 = SAMPLER_BINDING_BASE + 16;
/// The class-interface block (`hlslcc_Interfaces`).
pub const INTERFACE_BINDING: u32 = 200;
/// The typed buffer views block (`hlslcc_BufferViews`): per typed buffer
/// SRV its format and element count.
pub const BUFFER_VIEW_BINDING: u32 = 201;

/// UAV N (storage buffer or image) is at `UAV_BINDING_BASE + N`: past
/// the class-interface block, room for D3D11.1's 64 UAV slots.
pub const UAV_BINDING_BASE: u32 = 208;
/// UAV N's hidden counter is at `COUNTER_BINDING_BASE + N`.
pub const COUNTER_BINDING_BASE: u32 = UAV_BINDING_BASE + 64;

/// The register capture's buffer (`Options::capture`), past the UAV
/// counters.
pub const CAPTURE_BINDING: u32 = COUNTER_BINDING_BASE + 64;

pub fn uav_binding(slot: u32) -> u32 {
    UAV_BINDING_BASE + slot
}

pub fn counter_binding(slot: u32) -> u32 {
    COUNTER_BINDING_BASE + slot
}

pub fn cbuffer_binding(slot: u32) -> u32 {
    slot
}

pub fn texture_binding(slot: u32) -> u32 {
    TEXTURE_BINDING_BASE + slot
}

/// vk450: a second view of a texture that is both compared and read
/// plainly (naga types a texture used with a comparison sampler as depth,
/// and a depth texture takes no plain reads).
pub fn texture_plain_binding(slot: u32) -> u32 {
    TEXTURE_PLAIN_BINDING_BASE + slot
}

pub fn sampler_binding(slot: u32) -> u32 {
    SAMPLER_BINDING_BASE + slot
}

/// A semantic name made safe as part of a GLSL identifier: letters, digits
/// and single underscores (GLSL ES reserves `__`).
pub fn semantic_ident(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    push_semantic_ident(&mut s, name, false);
    s
}

/// [`semantic_ident`] appended to `out`, upper-cased when `upper`: names
/// are built in one `String` each (every shader declares several), not
/// from a copy per step.
fn push_semantic_ident(out: &mut String, name: &str, upper: bool) {
    let start = out.len();
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '_' };
        if c == '_' && out.len() > start && out.ends_with('_') {
            continue;
        }
        out.push(if upper { c.to_ascii_uppercase() } else { c });
    }
    if out.len() == start {
        out.push_str("ATTR");
    }
}

/// `prefix`, the semantic as an identifier and its index, in one `String`.
fn semantic_name(prefix: &str, semantic: &str, index: u32, upper: bool) -> String {
    let mut s = String::with_capacity(prefix.len() + semantic.len() + 4);
    s.push_str(prefix);
    push_semantic_ident(&mut s, semantic, upper);
    push_u64(&mut s, index.into());
    s
}

/// `in_TEXCOORD3`.
pub fn vertex_input(semantic: &str, index: u32) -> String {
    semantic_name("in_", semantic, index, false)
}

/// `vs_TEXCOORD3`: a vertex output and the pixel input it feeds. D3D
/// matches semantics without regard to case (a vertex shader's `COLOR`
/// feeds a pixel shader's `color`) and GLSL links varyings by name, so the
/// name is upper-cased on both sides.
pub fn varying(semantic: &str, index: u32) -> String {
    semantic_name("vs_", semantic, index, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(vertex_input("POSITION", 0), "in_POSITION0");
        assert_eq!(varying("TEXCOORD", 3), "vs_TEXCOORD3");
        assert_eq!(varying("color", 0), varying("COLOR", 0));
        assert_eq!(semantic_ident("MY__SEM"), "MY_SEM");
        assert_eq!(semantic_ident("a.b"), "a_b");
        // Nothing usable left: a fixed name, as the upper-cased one too.
        assert_eq!(semantic_ident(".."), "_");
        assert_eq!(semantic_ident(""), "ATTR");
        assert_eq!(varying("", 2), "vs_ATTR2");
        assert_eq!(vertex_input("t\u{e9}x", 1), "in_t_x1");
        assert_eq!(varying("_a__b", 0), "vs__A_B0");
    }
}
