//! `[texture N]`: a texture's format, dimension, size, mips and contents
//! (generated, from an image file or given texel by texel).

use std::path::Path;

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::vm::texture::{Dimension, Format, Texture, TextureDesc, TextureError};

fn format_named(name: &str) -> Option<Format> {
    Some(match name {
        "r8_unorm" => Format::R8Unorm,
        "rg8_unorm" => Format::Rg8Unorm,
        "rgba8_unorm" => Format::Rgba8Unorm,
        "r32_float" => Format::R32Float,
        "rg32_float" => Format::Rg32Float,
        "rgba16_float" => Format::Rgba16Float,
        "rgba32_float" => Format::Rgba32Float,
        "r32_uint" => Format::R32Uint,
        "r32_sint" => Format::R32Sint,
        "d32_float" => Format::D32Float,
        "d16_unorm" => Format::D16Unorm,
        "rgba8_unorm_srgb" => Format::Rgba8UnormSrgb,
        "rg16_float" => Format::Rg16Float,
        "rgba8_uint" => Format::Rgba8Uint,
        "r16_unorm" => Format::R16Unorm,
        _ => return None,
    })
}

pub(super) fn parse_texture(
    ctx: &Ctx,
    at: usize,
    lines: &Lines,
    budget: &mut Budget,
) -> Result<Texture, CaseError> {
    let mut format = Format::Rgba8Unorm;
    let mut dimension = Dimension::Tex2D;
    let mut size = [1u32, 1, 1];
    // The `size` line and how many extents it gave: checked against the
    // dimension once the whole section is read (either may come first).
    let mut size_at: Option<(usize, usize)> = None;
    let mut mips = 1u32;
    let mut mips_at = at;
    let mut fill: Option<(usize, Vec<String>)> = None;
    let mut values: Vec<[u32; 4]> = Vec::new();
    let mut values_at: Option<usize> = None;
    let mut once = Once::default();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if values_at.is_some() {
            if !toks.len().is_multiple_of(4) {
                return Err(ctx.err(*l, "texel values come four to a texel"));
            }
            for c in toks.chunks(4) {
                values.push(ctx.lanes4(*l, c)?);
            }
            continue;
        }
        if let Some(key) = toks.first() {
            once.check(ctx, *l, key)?;
        }
        match toks.as_slice() {
            ["format", f] => {
                format =
                    format_named(f).ok_or_else(|| ctx.err(*l, format!("unknown format `{f}`")))?
            }
            ["dimension", d] => {
                dimension = super::bindings::DIMENSIONS
                    .iter()
                    .find(|(name, _)| name == d)
                    .map(|(_, dim)| *dim)
                    .ok_or_else(|| ctx.err(*l, format!("unknown dimension `{d}`")))?
            }
            ["size", dims @ ..] if !dims.is_empty() && dims.len() <= 3 => {
                for (i, d) in dims.iter().enumerate() {
                    size[i] = ctx.u32(*l, d)?;
                }
                size_at = Some((*l, dims.len()));
            }
            ["mips", "full"] => {
                mips = 0;
                mips_at = *l;
            }
            ["mips", n] => {
                mips = ctx.u32(*l, n)?;
                mips_at = *l;
                if mips == 0 {
                    return Err(ctx.err(*l, "a texture has at least one mip level"));
                }
            }
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
            ["values"] => values_at = Some(*l),
            _ => return Err(ctx.err(*l, format!("unknown texture setting `{t}`"))),
        }
    }
    if let (Some((l, _)), Some(v)) = (&fill, values_at) {
        return Err(ctx.err(
            v,
            format!("`values` and `fill` (line {l}) both give the contents; keep one"),
        ));
    }
    let size_line = size_at.map_or(at, |(l, _)| l);
    if let Some((l, given)) = size_at {
        let (min, max, spelled) = size_extents(dimension);
        if !(min..=max).contains(&given) {
            return Err(ctx.err(
                l,
                format!(
                    "a {} texture's size is `size {spelled}`",
                    dimension_name(dimension)
                ),
            ));
        }
    }
    if dimension == Dimension::Cube && size_at.is_some_and(|(_, n)| n == 1) {
        size[1] = size[0];
    }
    let [w, h, d] = size;
    let desc = match dimension {
        Dimension::Tex1D => TextureDesc::tex1d(format, w),
        Dimension::Tex1DArray => TextureDesc::tex1d_array(format, w, h),
        Dimension::Tex2DArray => TextureDesc::tex2d_array(format, w, h, d),
        Dimension::Tex3D => TextureDesc::tex3d(format, w, h, d),
        // A cube's faces are square; `size S S2` with S2 != S is kept so
        // the texture model refuses it rather than the second being ignored.
        Dimension::Cube => TextureDesc {
            height: h,
            ..TextureDesc::cube(format, w)
        },
        Dimension::CubeArray => TextureDesc {
            height: h,
            ..TextureDesc::cube_array(format, w, d)
        },
        _ => TextureDesc::tex2d(format, w, h),
    }
    .with_mips(mips);
    let count = Texture::texels_for(desc).map_err(|e| {
        // A mip count beyond the chain is the `mips` line's mistake; every
        // other shape error is the size's.
        let line = match e {
            TextureError::TooManyMips { .. } => mips_at,
            _ => size_line,
        };
        ctx.err(line, format!("texture: {e}"))
    })?;
    budget.take(ctx, size_line, count)?;
    let texels: Vec<[u32; 4]> = match (fill, values_at) {
        (Some((l, f)), _) => generate(ctx, l, &f, count, [w, h])?,
        (None, Some(v)) => {
            if values.len() != count {
                return Err(ctx.err(
                    v,
                    format!("texture needs {count} texel values, found {}", values.len()),
                ));
            }
            values
        }
        (None, None) => vec![[0, 0, 0, 1.0f32.to_bits()]; count],
    };
    let floats: Vec<[f32; 4]> = texels.iter().map(|t| t.map(f32::from_bits)).collect();
    let integer = format.is_integer();
    let tex = if integer {
        Texture::from_lanes(desc, &texels)
    } else {
        Texture::from_f32(desc, &floats)
    };
    tex.map_err(|e| ctx.err(at, format!("texture: {e}")))
}

/// Texels for `fill checker | gradient | ramp | constant r g b a`. Texels
/// are in D3D's subresource order (layer by layer, each layer's mip chain
/// from level 0, row-major), the order `values` takes; patterns are
/// computed from the index within the top level's rows.
fn generate(
    ctx: &Ctx,
    l: usize,
    what: &[String],
    count: usize,
    [w, h]: [u32; 2],
) -> Result<Vec<[u32; 4]>, CaseError> {
    let one = 1.0f32.to_bits();
    let per_image = (w * h).max(1) as usize;
    Ok(match what.first().map(String::as_str) {
        Some("checker") => (0..count)
            .map(|i| {
                let j = i % per_image;
                let (x, y) = (j % w as usize, j / w as usize);
                let v = if (x + y) % 2 == 1 { one } else { 0 };
                [v, v, v, one]
            })
            .collect(),
        Some("gradient") => (0..count)
            .map(|i| {
                let j = i % per_image;
                let (x, y) = ((j % w as usize) as f32, (j / w as usize) as f32);
                [
                    ((x + 0.5) / w as f32).to_bits(),
                    ((y + 0.5) / h as f32).to_bits(),
                    0,
                    one,
                ]
            })
            .collect(),
        Some("ramp") => (0..count)
            .map(|i| {
                let j = (i % per_image) as f32;
                let v = (j + 0.5) / per_image as f32;
                [v.to_bits(), 0, 0, one]
            })
            .collect(),
        Some("image") if what.len() == 2 => {
            let path = Path::new(ctx.file)
                .parent()
                .unwrap_or(Path::new(""))
                .join(&what[1]);
            let img = crate::harness::image::read_picture(&path)
                .map_err(|e| ctx.err(l, format!("{}: {e}", path.display())))?
                .to_rgba8();
            if img.width() != w || img.height() != h {
                return Err(ctx.err(
                    l,
                    format!(
                        "{} is {}x{}, the texture {w}x{h}",
                        path.display(),
                        img.width(),
                        img.height()
                    ),
                ));
            }
            (0..count)
                .map(|i| {
                    let j = i % per_image;
                    let p = img.get_pixel((j % w as usize) as u32, (j / w as usize) as u32);
                    p.0.map(|c| (c as f32 / 255.0).to_bits())
                })
                .collect()
        }
        Some("constant") if what.len() == 5 => {
            let toks: Vec<&str> = what[1..].iter().map(String::as_str).collect();
            vec![ctx.lanes4(l, &toks)?; count]
        }
        _ => {
            return Err(ctx.err(
                l,
                "expected `fill checker`, `fill gradient`, `fill ramp`, `fill constant r g b a` or `fill image PATH`",
            ));
        }
    })
}

/// How many extents `size` takes for a dimension (fewest, most) and how
/// it is spelled: width, then height, then depth or the array size.
fn size_extents(d: Dimension) -> (usize, usize, &'static str) {
    match d {
        Dimension::Tex1D => (1, 1, "W"),
        Dimension::Tex1DArray => (2, 2, "W LAYERS"),
        Dimension::Tex2DArray => (3, 3, "W H LAYERS"),
        Dimension::Tex3D => (3, 3, "W H D"),
        Dimension::Cube => (1, 2, "S or S S"),
        Dimension::CubeArray => (3, 3, "S S CUBES"),
        _ => (2, 2, "W H"),
    }
}

fn dimension_name(d: Dimension) -> &'static str {
    super::bindings::DIMENSIONS
        .iter()
        .find(|(_, x)| *x == d)
        .map_or("multisampled", |(n, _)| n)
}

/// Memory one case's textures may take, decoded (16 bytes a texel, as the
/// emulator holds them; the GPU copies are no larger). Direct3D 11 allows a
/// single 16384x16384 RGBA32 texture of 4 GiB; a test case that large is a
/// mistake or an attack, and refusing it by name beats running out of memory.
pub const TEXTURE_BUDGET_BYTES: usize = 512 << 20;

/// The texture memory a case has used so far.
#[derive(Default)]
pub(super) struct Budget {
    used: usize,
}

impl Budget {
    fn take(&mut self, ctx: &Ctx, line: usize, texels: usize) -> Result<(), CaseError> {
        let bytes = texels.saturating_mul(16);
        self.used = self.used.saturating_add(bytes);
        if self.used > TEXTURE_BUDGET_BYTES {
            return Err(ctx.err(
                line,
                format!(
                    "the case's textures would take {} MiB decoded; a case may use at most {} MiB",
                    self.used.div_ceil(1 << 20),
                    TEXTURE_BUDGET_BYTES >> 20
                ),
            ));
        }
        Ok(())
    }
}
