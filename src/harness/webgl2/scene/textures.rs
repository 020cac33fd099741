//! The case's textures as GL textures in upload order (decoded, or as
//! their blocks where the page has the extension), zero textures for
//! unbound slots, and one texture unit per sampler uniform with its
//! sampler object.

use crate::glsl::{Manifest, OpaqueType, Ty};
use crate::harness::case::Case;
use crate::harness::runtime::{self, HardwareAddress, HardwareSampler};
use crate::vm::texture::{Dimension, Filter, Format, Sampler, Texture, View};

use super::super::base64;
use super::gl_names::{gl_compare, gl_compressed, gl_format, gl_target};
use super::{GlCompressed, GlImage, GlSampler, GlTexture, Unit};

/// The blocks of a block-compressed texture in GL's upload order, with
/// each level's own (virtual) size, as `compressedTexImage*` takes them.
/// `None` for 3D textures (the S3TC extension allows none; one rule for
/// every block format keeps the page simple), and
/// for a top level that is not whole 4x4 blocks, which the extensions
/// reject: those go up decoded (the page then says nothing, so the note
/// is made here).
fn compressed_images(
    tex: &Texture,
    slot: u32,
    target: &'static str,
    notes: &mut Vec<String>,
) -> Option<GlCompressed> {
    let (extensions, internal) = gl_compressed(tex.format())?;
    if tex.view().is_some() {
        // The view's mips and layers are a part of the resource's blocks;
        // `upload` already cut the decoded view out for the page.
        notes.push(format!(
            "t{slot}: {} uploaded decoded (RGBA32F): a view of a block texture goes up decoded on this path",
            tex.format().name()
        ));
        return None;
    }
    let [w, h, _] = tex.level_size(0)?;
    if target == "TEXTURE_3D" || !(w.is_multiple_of(4) && h.is_multiple_of(4)) {
        notes.push(format!(
            "t{slot}: {} uploaded decoded (RGBA32F): {}",
            tex.format().name(),
            if target == "TEXTURE_3D" {
                "3D block textures go up decoded on this path".to_string()
            } else {
                format!("{w}x{h} is not whole 4x4 blocks")
            }
        ));
        return None;
    }
    let blocks = tex.to_bytes();
    let levels = tex.mip_levels();
    let mut per: Vec<Vec<&[u8]>> = vec![Vec::new(); levels as usize];
    let mut at = 0usize;
    for _layer in 0..tex.layers() {
        for level in 0..levels {
            let n = tex.level_data_len(level);
            per[level as usize].push(blocks.get(at..at + n)?);
            at += n;
        }
    }
    let mut images = Vec::new();
    for (level, chunks) in per.iter().enumerate() {
        let [w, h, _] = tex.level_size(level as u32)?;
        let level = level as u32;
        if target == "TEXTURE_CUBE_MAP" {
            for (face, c) in chunks.iter().enumerate() {
                images.push(GlImage {
                    level,
                    face: face as u32,
                    width: w,
                    height: h,
                    depth: 1,
                    data: base64(c),
                });
            }
        } else {
            images.push(GlImage {
                level,
                face: 0,
                width: w,
                height: h,
                depth: if target == "TEXTURE_2D_ARRAY" {
                    tex.layers()
                } else {
                    1
                },
                data: base64(&chunks.concat()),
            });
        }
    }
    Some(GlCompressed {
        label: format!("t{slot}: {}", tex.format().name()),
        extensions,
        internal,
        images,
    })
}

/// The runtime contract's hardware sampler as a WebGL2 sampler object.
fn gl_sampler(h: &HardwareSampler) -> GlSampler {
    let wrap = |a: HardwareAddress| match a {
        HardwareAddress::Repeat => "REPEAT",
        HardwareAddress::MirroredRepeat => "MIRRORED_REPEAT",
        HardwareAddress::ClampToEdge => "CLAMP_TO_EDGE",
    };
    let min_filter = match (h.min_filter, h.mip_filter) {
        (Filter::Point, Filter::Point) => "NEAREST_MIPMAP_NEAREST",
        (Filter::Point, Filter::Linear) => "NEAREST_MIPMAP_LINEAR",
        (Filter::Linear, Filter::Point) => "LINEAR_MIPMAP_NEAREST",
        (Filter::Linear, Filter::Linear) => "LINEAR_MIPMAP_LINEAR",
    };
    GlSampler {
        wrap: h.address.map(wrap),
        min_filter,
        mag_filter: match h.mag_filter {
            Filter::Point => "NEAREST",
            Filter::Linear => "LINEAR",
        },
        min_lod: h.min_lod,
        max_lod: h.max_lod,
        compare: h.compare.map(gl_compare),
        max_anisotropy: h.max_anisotropy,
    }
}

/// The sampler a bare texture uniform (`tN`, read by `texelFetch` and
/// `textureSize`) is bound with: nearest, no comparison, which every
/// format (integer and depth included) is complete with.
fn fetch_sampler() -> GlSampler {
    gl_sampler(&runtime::hardware_sampler(&Sampler::point(), false))
}

/// A case texture in GL's upload order: level by level, each level with
/// all its array layers (or slices) at once; cube faces one at a time.
/// 1D textures are 2D textures of height 1 (1D arrays: 2D arrays), as the
/// emitter declares them. The bytes are the texture unit's own, so both
/// renderers read identical texels.
///
/// A case texture's view: WebGL2 has no texture views, so the view's
/// layers are uploaded alone, in the view's format (a typeless resource
/// read as another format of its group: the same bytes), with the
/// resource's whole mip chain; TEXTURE_BASE_LEVEL / MAX_LEVEL select the
/// view's mips, to which `textureSize`, `texelFetch` and the LOD clamp are
/// relative in GLSL ES 3.00, as the view's are in D3D.
///
/// `shadow`: the texture is read through a comparison sampler. A depth
/// texture read without one goes up as `R32F` holding its decoded depths
/// (exact for 16- and 24-bit codes): D3D filters depth formats read
/// without comparison, and GLSL ES 3.00 makes a depth texture with a
/// linear filter and no compare mode incomplete.
fn upload(view: &Texture, target: &'static str, shadow: bool) -> Result<GlTexture, String> {
    let (tex, base_level, view_levels) = match view.view() {
        None => (view.clone(), 0, view.mip_levels()),
        Some(v) => {
            let res = view.resource();
            let all_mips = View {
                first_mip: 0,
                mip_count: res.mip_levels(),
                ..v
            };
            let layers = res.with_view(all_mips).map_err(|e| e.to_string())?;
            (layers.materialize(), v.first_mip, v.mip_count)
        }
    };
    let tex = &tex;
    let desc = tex.desc();
    if matches!(
        desc.dimension,
        Dimension::Buffer | Dimension::Tex2DMS | Dimension::Tex2DMSArray | Dimension::CubeArray
    ) {
        return Err(format!(
            "{:?} resources cannot be drawn in WebGL2",
            desc.dimension
        ));
    }
    let gl = if !shadow && tex.format().is_depth() {
        gl_format(Format::R32Float)
    } else {
        gl_format(tex.format())
    };
    let bytes = tex.to_bytes_as(gl.bytes_as);
    let bpp = gl.bytes_as.bytes_per_texel();
    let levels = tex.mip_levels();
    let layers = tex.layers();
    // `to_bytes` is D3D subresource order: layer by layer, each layer's
    // mip chain from level 0.
    let mut per: Vec<Vec<&[u8]>> = vec![Vec::new(); levels as usize];
    let mut at = 0usize;
    for _layer in 0..layers {
        for level in 0..levels {
            let [w, h, d] = tex.level_size(level).unwrap_or([1, 1, 1]);
            let n = (w * h * d) as usize * bpp;
            let chunk = bytes
                .get(at..at + n)
                .ok_or_else(|| "texture data shorter than its description".to_string())?;
            per[level as usize].push(chunk);
            at += n;
        }
    }
    let mut images = Vec::new();
    for (level, chunks) in per.iter().enumerate() {
        let [w, h, d] = tex.level_size(level as u32).unwrap_or([1, 1, 1]);
        if target == "TEXTURE_CUBE_MAP" {
            for (face, c) in chunks.iter().enumerate() {
                images.push(GlImage {
                    level: level as u32,
                    face: face as u32,
                    width: w,
                    height: h,
                    depth: 1,
                    data: base64(c),
                });
            }
            continue;
        }
        let all: Vec<u8> = chunks.concat();
        let depth = match target {
            "TEXTURE_3D" => d,
            "TEXTURE_2D_ARRAY" => layers,
            _ => 1,
        };
        images.push(GlImage {
            level: level as u32,
            face: 0,
            width: w,
            height: h,
            depth,
            data: base64(&all),
        });
    }
    Ok(GlTexture {
        target,
        internal: gl.internal,
        format: gl.format,
        ty: gl.ty,
        levels: view_levels,
        base_level,
        images,
        compressed: None,
    })
}

/// A 1x1 (six faces for cubes) zero texture for a slot the shader declares
/// and the case leaves unbound, of the kind the uniform's type reads.
fn dummy(glsl_type: OpaqueType, target: &'static str) -> GlTexture {
    let (internal, format, ty, bytes) = match (glsl_type.shadow, glsl_type.ty) {
        (true, _) => ("DEPTH_COMPONENT32F", "DEPTH_COMPONENT", "FLOAT", 4),
        (false, Ty::Int) => ("RGBA32I", "RGBA_INTEGER", "INT", 16),
        (false, Ty::Uint) => ("RGBA32UI", "RGBA_INTEGER", "UNSIGNED_INT", 16),
        (false, Ty::Float) => ("RGBA32F", "RGBA", "FLOAT", 16),
    };
    let faces = if target == "TEXTURE_CUBE_MAP" { 6 } else { 1 };
    GlTexture {
        target,
        internal,
        format,
        ty,
        levels: 1,
        base_level: 0,
        images: (0..faces)
            .map(|face| GlImage {
                level: 0,
                face,
                width: 1,
                height: 1,
                depth: 1,
                data: base64(&vec![0u8; bytes]),
            })
            .collect(),
        compressed: None,
    }
}

/// One GL texture per (slot, target) and one unit per sampler uniform the
/// manifests list: combined pairs with the case's sampler through the
/// runtime contract (comparison state for `Shadow` pairs), bare `tN` with
/// the fetch sampler.
pub(super) fn textures_and_units(
    case: &Case,
    manifests: &[&Manifest],
    notes: &mut Vec<String>,
) -> Result<(Vec<GlTexture>, Vec<Unit>), String> {
    let mut textures: Vec<GlTexture> = Vec::new();
    // A depth texture goes up once for comparison and once as a colour
    // texture (see `upload`), so the shadow flag is part of the key.
    let mut made: Vec<(u32, &'static str, bool)> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut texture_for = |slot: u32,
                           glsl_type: OpaqueType,
                           textures: &mut Vec<GlTexture>|
     -> Result<usize, String> {
        let target = gl_target(glsl_type.shape);
        let key = (slot, target, glsl_type.shadow);
        if let Some(i) = made.iter().position(|m| *m == key) {
            return Ok(i);
        }
        let t = match case.textures.iter().find(|(s, _)| *s == slot) {
            Some((_, tex)) => {
                let mut t =
                    upload(tex, target, glsl_type.shadow).map_err(|e| format!("t{slot}: {e}"))?;
                t.compressed = compressed_images(tex, slot, target, notes);
                t
            }
            None => dummy(glsl_type, target),
        };
        textures.push(t);
        made.push(key);
        Ok(textures.len() - 1)
    };
    for m in manifests {
        for c in &m.combined_samplers {
            if units.iter().any(|u| u.name == c.name) {
                continue;
            }
            let texture = texture_for(c.texture, c.glsl_type, &mut textures)?;
            let state = runtime::sampler(case, c.sampler);
            units.push(Unit {
                name: c.name.clone(),
                texture,
                sampler: gl_sampler(&runtime::hardware_sampler(&state, c.shadow)),
            });
        }
        for t in &m.textures {
            if units.iter().any(|u| u.name == t.glsl_name) {
                continue;
            }
            let texture = texture_for(t.slot, t.glsl_type, &mut textures)?;
            units.push(Unit {
                name: t.glsl_name.clone(),
                texture,
                sampler: fetch_sampler(),
            });
        }
    }
    Ok((textures, units))
}
