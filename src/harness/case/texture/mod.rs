//! `[texture N]`: a texture's format, dimension, size, mips and contents
//! (generated, from an image file or given texel by texel). This module
//! reads the section line by line and owns the format names a case may use;
//! what the lines mean is split by what a reader looks for: `view` (the
//! `view …` lines), `contents` (texel values, raw bytes, blocks, generated
//! fills and image files) and `shape` (dimensions, size extents, sample
//! counts and the texture memory budget).

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::vm::texture::{Dimension, Format, Texture, TextureDesc, TextureError};

mod contents;
mod shape;
mod typed_buffer;
mod view;

#[cfg(test)]
mod bc_tests;
#[cfg(test)]
mod tests;

use contents::{block_bytes, block_texture, dds_texture, generate, raw_texel, texel_lanes};
pub(super) use shape::{Budget, dimension_name, sample_count};
use shape::{dimension_named, size_extents};
pub(super) use typed_buffer::{is_typed, parse_typed_buffer};
use view::ViewLines;

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
        // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
        "rgba8_unorm_srgb" => Format::Rgba8UnormSrgb,
        "bgra8_unorm" => Format::Bgra8Unorm,
        "bgra8_unorm_srgb" => Format::Bgra8UnormSrgb,
        "rgba8_snorm" => Format::Rgba8Snorm,
        "rgba8_uint" => Format::Rgba8Uint,
        "rgba8_sint" => Format::Rgba8Sint,
        "rg8_snorm" => Format::Rg8Snorm,
        "rgba16_unorm" => Format::Rgba16Unorm,
        "rgba16_snorm" => Format::Rgba16Snorm,
        "rgba16_uint" => Format::Rgba16Uint,
        "rgba16_sint" => Format::Rgba16Sint,
        "r16_unorm" => Format::R16Unorm,
        "r16_snorm" => Format::R16Snorm,
        "r16_uint" => Format::R16Uint,
        "r16_sint" => Format::R16Sint,
        "r16_float" => Format::R16Float,
        "rg16_unorm" => Format::Rg16Unorm,
        "rg16_snorm" => Format::Rg16Snorm,
        "rg16_uint" => Format::Rg16Uint,
        "rg16_sint" => Format::Rg16Sint,
        "rg16_float" => Format::Rg16Float,
        "rgb10a2_unorm" => Format::Rgb10a2Unorm,
        "rg11b10_float" => Format::Rg11b10Float,
        "rgb9e5" => Format::Rgb9e5,
        "a8_unorm" => Format::A8Unorm,
        "r8_uint" => Format::R8Uint,
        // Depth-stencil: the resources, read through one of their views.
        "d24_unorm_s8_uint" => Format::D24UnormS8Uint,
        "r24_unorm_x8_typeless" => Format::R24UnormX8Typeless,
        "x24_typeless_g8_uint" => Format::X24TypelessG8Uint,
        "d32_float_s8x24_uint" => Format::D32FloatS8X24Uint,
        "r32_float_x8x24_typeless" => Format::R32FloatX8X24Typeless,
        "x32_typeless_g8x24_uint" => Format::X32TypelessG8X24Uint,
        // Block-compressed: contents from `blocks` or a DDS file.
        "bc1_unorm" => Format::Bc1Unorm,
        "bc1_unorm_srgb" => Format::Bc1UnormSrgb,
        "bc2_unorm" => Format::Bc2Unorm,
        "bc2_unorm_srgb" => Format::Bc2UnormSrgb,
        "bc3_unorm" => Format::Bc3Unorm,
        "bc3_unorm_srgb" => Format::Bc3UnormSrgb,
        "bc4_unorm" => Format::Bc4Unorm,
        "bc4_snorm" => Format::Bc4Snorm,
        "bc5_unorm" => Format::Bc5Unorm,
        "bc5_snorm" => Format::Bc5Snorm,
        "bc6h_uf16" => Format::Bc6hUf16,
        "bc6h_sf16" => Format::Bc6hSf16,
        "bc7_unorm" => Format::Bc7Unorm,
        "bc7_unorm_srgb" => Format::Bc7UnormSrgb,
        _ => return None,
    })
}

/// Which texel list the lines after `values`, `raw` or `blocks` belong to.
#[derive(PartialEq)]
enum Listing {
    None,
    Values,
    Raw,
    Blocks,
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
    let mut samples: Option<(usize, u32)> = None;
    let mut fill: Option<(usize, Vec<String>)> = None;
    // Texel tokens with their line; parsed once the format is known.
    let mut values: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut raw: Vec<(usize, &str)> = Vec::new();
    let mut listing = Listing::None;
    // Where `values` or `raw` began, for errors about the list as a whole.
    let mut listing_at = at;
    // Block-compressed contents, memory order.
    let mut blocks: Vec<u8> = Vec::new();
    // The lines that gave the format, the dimension and the mip count: a
    // DDS file must agree with each setting the section states.
    let mut format_at: Option<usize> = None;
    let mut dimension_at: Option<usize> = None;
    let mut mips_given: Option<usize> = None;
    let mut once = Once::default();
    let mut view = ViewLines::default();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        match listing {
            Listing::Values => {
                if !toks.len().is_multiple_of(4) {
                    return Err(ctx.err(*l, "texel values come four to a texel"));
                }
                values.extend(toks.chunks(4).map(|c| (*l, c.to_vec())));
                continue;
            }
            Listing::Raw => {
                raw.extend(toks.iter().map(|t| (*l, *t)));
                continue;
            }
            Listing::Blocks => {
                block_bytes(ctx, *l, &toks, &mut blocks)?;
                continue;
            }
            Listing::None => {}
        }
        // A `view` line's setting is its aspect, checked where it is read.
        if let Some(key) = toks.first()
            && *key != "view"
        {
            once.check(ctx, *l, key)?;
        }
        match toks.as_slice() {
            ["format", f] => {
                format =
                    format_named(f).ok_or_else(|| ctx.err(*l, format!("unknown format `{f}`")))?;
                format_at = Some(*l);
            }
            ["dimension", d] => {
                dimension = dimension_named(d)
                    .ok_or_else(|| ctx.err(*l, format!("unknown dimension `{d}`")))?;
                dimension_at = Some(*l);
            }
            ["view", rest @ ..] => view.parse(ctx, &mut once, *l, rest)?,
            ["size", dims @ ..] if !dims.is_empty() && dims.len() <= 3 => {
                for (i, d) in dims.iter().enumerate() {
                    size[i] = ctx.u32(*l, d)?;
                }
                size_at = Some((*l, dims.len()));
            }
            ["mips", "full"] => {
                mips = 0;
                mips_at = *l;
                mips_given = Some(*l);
            }
            ["mips", n] => {
                mips = ctx.u32(*l, n)?;
                mips_at = *l;
                mips_given = Some(*l);
                if mips == 0 {
                    return Err(ctx.err(*l, "a texture has at least one mip level"));
                }
            }
            ["samples", n] => samples = Some((*l, sample_count(ctx, *l, n)?)),
            ["fill", "image", path] if path.to_ascii_lowercase().ends_with(".dds") => {
                if let Some((sl, _)) = samples {
                    return Err(ctx.err(
                        sl,
                        "a DDS file holds no multisampled texture: drop `samples`",
                    ));
                }
                let tex = dds_texture(
                    ctx,
                    *l,
                    path,
                    format_at.map(|fl| (fl, format)),
                    dimension_at.map(|dl| (dl, dimension)),
                    size_at.map(|(sl, _)| (sl, size)),
                    mips_given.map(|ml| (ml, mips)),
                    lines,
                )?;
                budget.take(ctx, *l, tex.texel_count())?;
                // A DDS file may hold a depth-stencil format too.
                view.depth_stencil(ctx, *l, tex.format())?;
                return view.apply(ctx, at, tex);
            }
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
            ["blocks"] => {
                if let Some((first, _)) = &fill {
                    return Err(ctx.err(
                        *l,
                        format!(
                            "a texture takes one of `fill`, `values`, `raw` and `blocks` (`fill` is at line {first})"
                        ),
                    ));
                }
                listing = Listing::Blocks;
                listing_at = *l;
            }
            ["values"] | ["raw"] => {
                // `fill`, `values` and `raw` each give the whole contents.
                if let Some((first, _)) = &fill {
                    return Err(ctx.err(
                        *l,
                        format!(
                            "a texture takes one of `fill`, `values` and `raw` (`fill` is at line {first})"
                        ),
                    ));
                }
                listing = if toks[0] == "values" {
                    Listing::Values
                } else {
                    Listing::Raw
                };
                listing_at = *l;
            }
            _ => return Err(ctx.err(*l, format!("unknown texture setting `{t}`"))),
        }
    }
    view.depth_stencil(ctx, format_at.unwrap_or(at), format)?;
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
    if let Some((l, _)) = samples {
        // A sample count makes the texture multisampled (`Texture2DMS`,
        // `Texture2DMSArray`), which D3D11 allows for 2D textures only,
        // with one mip level.
        dimension = match dimension {
            Dimension::Tex2D => Dimension::Tex2DMS,
            Dimension::Tex2DArray => Dimension::Tex2DMSArray,
            _ => {
                return Err(ctx.err(
                    l,
                    "`samples` needs `dimension 2d` or `2darray` (D3D11 multisamples only 2D textures)",
                ));
            }
        };
        if mips != 1 {
            return Err(ctx.err(
                l,
                "a multisampled texture has exactly one mip level (`mips 1`)",
            ));
        }
    }
    let samples = samples.map_or(1, |(_, n)| n);
    let desc = match dimension {
        Dimension::Tex2DMS => TextureDesc::tex2d_ms(format, w, h, samples),
        Dimension::Tex2DMSArray => TextureDesc::tex2d_ms_array(format, w, h, d, samples),
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
    if format.is_block_compressed() {
        let tex = block_texture(
            ctx,
            at,
            desc,
            fill.map(|f| f.0),
            &listing,
            listing_at,
            blocks,
        )?;
        return view.apply(ctx, at, tex);
    }
    if listing == Listing::Blocks {
        return Err(ctx.err(
            listing_at,
            format!(
                "`blocks` is for block-compressed formats, not {}",
                format.name()
            ),
        ));
    }
    let tex = if listing == Listing::Raw {
        if raw.len() != count {
            return Err(ctx.err(
                listing_at,
                format!("texture needs {count} raw texels, found {}", raw.len()),
            ));
        }
        let mut bytes = Vec::with_capacity(count * format.bytes_per_texel());
        for (l, t) in raw {
            bytes.extend(raw_texel(ctx, l, format, t)?);
        }
        Texture::from_bytes(desc, &bytes)
    } else {
        let texels: Vec<(usize, [u32; 4])> = match fill {
            Some((l, f)) => generate(ctx, l, &f, format, count, [w, h], samples)?
                .into_iter()
                .map(|t| (l, t))
                .collect(),
            None if listing == Listing::Values => {
                if values.len() != count {
                    return Err(ctx.err(
                        listing_at,
                        format!("texture needs {count} texel values, found {}", values.len()),
                    ));
                }
                let mut out = Vec::with_capacity(count);
                for (l, toks) in values {
                    out.push((l, texel_lanes(ctx, l, format, &toks)?));
                }
                out
            }
            // Unfilled: zeros, opaque.
            None => {
                let alpha = if format.is_integer() {
                    1
                } else {
                    1.0f32.to_bits()
                };
                vec![(at, [0, 0, 0, alpha]); count]
            }
        };
        for (l, t) in &texels {
            format.check_lanes(*t).map_err(|e| ctx.err(*l, e))?;
        }
        let lanes: Vec<[u32; 4]> = texels.into_iter().map(|(_, t)| t).collect();
        // sRGB values are the stored (encoded) ones, as an image editor
        // shows them: store them through the UNORM twin, then let the sRGB
        // format decode those bytes to linear.
        let mut stored = desc;
        stored.format = format.without_srgb();
        Texture::from_lanes(stored, &lanes).and_then(|t| {
            if format.is_srgb() {
                Texture::from_bytes(desc, &t.to_bytes())
            } else {
                Ok(t)
            }
        })
    };
    let tex = tex.map_err(|e| ctx.err(at, format!("texture: {e}")))?;
    view.apply(ctx, at, tex)
}
