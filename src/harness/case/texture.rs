//! `[texture N]`: a texture's format, dimension, size, mips and contents
//! (generated, from an image file or given texel by texel).

use std::path::Path;

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::vm::texture::{Dimension, Format, Texture, TextureDesc, TextureError, View, ViewError};

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

/// Bytes of a `blocks` line: each token is either plain hex digits, bytes
/// in memory order (`00f81f00`), or `0x` and eight digits, a 32-bit word
/// stored little-endian (`0x001ff800` is the bytes `00 f8 1f 00`).
fn block_bytes(ctx: &Ctx, l: usize, toks: &[&str], out: &mut Vec<u8>) -> Result<(), CaseError> {
    for t in toks {
        let bad = || {
            ctx.err(l, format!("bad block bytes `{t}`: expected hex bytes (`00f8`) or a 32-bit `0x` word (`0x001ff800`)"))
        };
        if let Some(h) = t.strip_prefix("0x") {
            if h.len() != 8 {
                return Err(bad());
            }
            let w = u32::from_str_radix(h, 16).map_err(|_| bad())?;
            out.extend_from_slice(&w.to_le_bytes());
        } else {
            if !t.len().is_multiple_of(2) || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad());
            }
            for i in (0..t.len()).step_by(2) {
                out.push(u8::from_str_radix(&t[i..i + 2], 16).map_err(|_| bad())?);
            }
        }
    }
    Ok(())
}

/// Which texel list the lines after `values`, `raw` or `blocks` belong to.
#[derive(PartialEq)]
enum Listing {
    None,
    Values,
    Raw,
    Blocks,
}

/// One texel value in the form its format's kind takes: integers (`7`,
/// `7u`, `-1i`) for UINT/SINT formats, floats for the rest, hex bits
/// (`0x…`) for either. A UINT format takes no negative number.
fn texel_lane(ctx: &Ctx, l: usize, format: Format, t: &str) -> Result<u32, CaseError> {
    if t.starts_with("0x") {
        return ctx.lane(l, t);
    }
    let integer = t.strip_suffix(['u', 'i']).unwrap_or(t);
    if format.is_integer() {
        let v: i64 = integer.parse().map_err(|_| {
            ctx.err(
                l,
                format!("{} takes integer texel values, found `{t}`", format.name()),
            )
        })?;
        let fits = match format.kind() {
            crate::vm::texture::NumericKind::Uint => (0..=i64::from(u32::MAX)).contains(&v),
            _ => (i64::from(i32::MIN)..=i64::from(i32::MAX)).contains(&v),
        };
        if !fits || (t.ends_with('u') && v < 0) {
            return Err(ctx.err(
                l,
                format!("{t} is outside the 32-bit range of {}", format.name()),
            ));
        }
        return Ok(v as u32);
    }
    if integer != t {
        return Err(ctx.err(
            l,
            format!("{} takes float texel values, found `{t}`", format.name()),
        ));
    }
    ctx.lane(l, t)
}

fn texel_lanes(ctx: &Ctx, l: usize, format: Format, toks: &[&str]) -> Result<[u32; 4], CaseError> {
    if toks.len() != 4 {
        return Err(ctx.err(l, format!("expected four values, found {}", toks.len())));
    }
    let mut v = [0; 4];
    for (lane, t) in v.iter_mut().zip(toks) {
        *lane = texel_lane(ctx, l, format, t)?;
    }
    Ok(v)
}

/// One texel's memory bytes from `0x` and exactly two hex digits per byte,
/// read as the texel's little-endian number (so `0xAABBGGRR` for RGBA8).
fn raw_texel(ctx: &Ctx, l: usize, format: Format, t: &str) -> Result<Vec<u8>, CaseError> {
    let n = format.bytes_per_texel();
    let bad = || {
        ctx.err(
            l,
            format!(
                "a raw {} texel is 0x and {} hex digits, found `{t}`",
                format.name(),
                2 * n
            ),
        )
    };
    let hex = t.strip_prefix("0x").ok_or_else(bad)?;
    if hex.len() != 2 * n {
        return Err(bad());
    }
    let word = u128::from_str_radix(hex, 16).map_err(|_| bad())?;
    Ok(word.to_le_bytes()[..n].to_vec())
}

/// How a case file spells a dimension (`dimension` in `[texture N]`).
const DIMENSIONS: [(&str, Dimension); 7] = [
    ("1d", Dimension::Tex1D),
    ("1darray", Dimension::Tex1DArray),
    ("2d", Dimension::Tex2D),
    ("2darray", Dimension::Tex2DArray),
    ("3d", Dimension::Tex3D),
    ("cube", Dimension::Cube),
    ("cubearray", Dimension::CubeArray),
];

fn dimension_named(name: &str) -> Option<Dimension> {
    DIMENSIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, dim)| *dim)
}

/// The `view …` lines of a texture, each aspect with the line that set it
/// (so an error names the line at fault).
#[derive(Default)]
struct ViewLines {
    mips: Option<(usize, u32, u32)>,
    layers: Option<(usize, u32, u32)>,
    dimension: Option<(usize, Dimension)>,
    format: Option<(usize, Format)>,
}

impl ViewLines {
    fn parse(&mut self, ctx: &Ctx, l: usize, toks: &[&str]) -> Result<(), CaseError> {
        let twice = |what: &str| ctx.err(l, format!("`view {what}` is given twice"));
        match toks {
            ["mips", first, count] => {
                if self.mips.is_some() {
                    return Err(twice("mips"));
                }
                self.mips = Some((l, ctx.u32(l, first)?, ctx.u32(l, count)?));
            }
            ["layers", first, count] => {
                if self.layers.is_some() {
                    return Err(twice("layers"));
                }
                self.layers = Some((l, ctx.u32(l, first)?, ctx.u32(l, count)?));
            }
            ["dimension", d, rest @ ..] => {
                if self.dimension.is_some() {
                    return Err(twice("dimension"));
                }
                let dim = dimension_named(d)
                    .ok_or_else(|| ctx.err(l, format!("unknown view dimension `{d}`")))?;
                self.dimension = Some((l, dim));
                match rest {
                    [] => {}
                    // `layer N`: one layer, for a 1D or 2D view of an array.
                    ["layer", n] => {
                        if self.layers.is_some() {
                            return Err(twice("layers"));
                        }
                        self.layers = Some((l, ctx.u32(l, n)?, 1));
                    }
                    _ => return Err(ctx.err(l, "expected `view dimension DIM [layer N]`")),
                }
            }
            ["format", f] => {
                if self.format.is_some() {
                    return Err(twice("format"));
                }
                let f = format_named(f)
                    .ok_or_else(|| ctx.err(l, format!("unknown view format `{f}`")))?;
                self.format = Some((l, f));
            }
            _ => {
                return Err(ctx.err(
                    l,
                    "expected `view mips FIRST COUNT`, `view layers FIRST COUNT`, \
                     `view dimension DIM [layer N]` or `view format FORMAT`",
                ));
            }
        }
        Ok(())
    }

    /// The resource seen through the view (itself without `view` lines).
    fn apply(&self, ctx: &Ctx, at: usize, tex: Texture) -> Result<Texture, CaseError> {
        let mut v = View::whole(&tex);
        let mut any = None;
        if let Some((l, first, count)) = self.mips {
            (v.first_mip, v.mip_count) = (first, count);
            any = Some(l);
        }
        if let Some((l, first, count)) = self.layers {
            (v.first_layer, v.layer_count) = (first, count);
            any = Some(l);
        }
        if let Some((l, d)) = self.dimension {
            v.dimension = d;
            any = Some(l);
        }
        if let Some((l, f)) = self.format {
            v.format = f;
            any = Some(l);
        }
        let Some(any) = any else { return Ok(tex) };
        tex.with_view(v).map_err(|e| {
            let line = match e {
                ViewError::Mips { .. } => self.mips.map(|m| m.0),
                ViewError::Layers { .. } => self.layers.map(|m| m.0),
                ViewError::LayerCount { .. } => {
                    self.layers.map(|m| m.0).or(self.dimension.map(|d| d.0))
                }
                ViewError::Dimension { .. } => self.dimension.map(|d| d.0),
                ViewError::Format { .. } | ViewError::Blocks(_) => self.format.map(|f| f.0),
            };
            ctx.err(line.unwrap_or(any).max(at), format!("view: {e}"))
        })
    }
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
        // `view` lines each set one aspect of the view and check their own
        // repeats (`view mips` twice is an error, `view mips` then `view
        // layers` is not).
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
            ["view", rest @ ..] => view.parse(ctx, *l, rest)?,
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

/// The shape `size w h d` gives for a dimension: 1D arrays take their
/// layers from the second number, 2D arrays, 3D textures and cube arrays
/// from the third.
fn desc_for(dimension: Dimension, format: Format, [w, h, d]: [u32; 3]) -> TextureDesc {
    match dimension {
        Dimension::Tex1D => TextureDesc::tex1d(format, w),
        Dimension::Tex1DArray => TextureDesc::tex1d_array(format, w, h),
        Dimension::Tex2DArray => TextureDesc::tex2d_array(format, w, h, d),
        Dimension::Tex3D => TextureDesc::tex3d(format, w, h, d),
        Dimension::Cube => TextureDesc::cube(format, w),
        Dimension::CubeArray => TextureDesc::cube_array(format, w, d),
        _ => TextureDesc::tex2d(format, w, h),
    }
}

/// A block-compressed texture: its `blocks` (all-zero blocks when the
/// section gives none), which must cover every subresource exactly.
fn block_texture(
    ctx: &Ctx,
    at: usize,
    desc: TextureDesc,
    fill: Option<usize>,
    listing: &Listing,
    listing_at: usize,
    blocks: Vec<u8>,
) -> Result<Texture, CaseError> {
    let name = desc.format.name();
    if let Some(l) = fill {
        return Err(ctx.err(
            l,
            format!("{name} is block-compressed: give its `blocks` or `fill image FILE.dds`"),
        ));
    }
    if matches!(listing, Listing::Values | Listing::Raw) {
        return Err(ctx.err(
            listing_at,
            format!("{name} is block-compressed: give its `blocks`, not texel `values` or `raw`"),
        ));
    }
    let zero = Texture::zeroed(desc).map_err(|e| ctx.err(at, format!("texture: {e}")))?;
    if *listing != Listing::Blocks {
        return Ok(zero);
    }
    let (l, bytes) = (listing_at, blocks);
    let want = zero.block_data_len();
    if bytes.len() != want {
        let block = desc.format.block_bytes().unwrap_or(16);
        return Err(ctx.err(
            l,
            format!(
                "{name} texture needs {want} bytes of blocks ({} blocks of {block}), found {}",
                want / block,
                bytes.len()
            ),
        ));
    }
    Texture::from_bytes(desc, &bytes).map_err(|e| ctx.err(at, format!("texture: {e}")))
}

/// A texture from a DDS file. The section's own settings are optional;
/// each one given must match the file's (a mismatch names the line), and
/// nothing else may follow in the section.
#[allow(clippy::too_many_arguments)]
fn dds_texture(
    ctx: &Ctx,
    l: usize,
    file: &str,
    format_at: Option<(usize, Format)>,
    dimension_at: Option<(usize, Dimension)>,
    size_at: Option<(usize, [u32; 3])>,
    mips_at: Option<(usize, u32)>,
    lines: &Lines,
) -> Result<Texture, CaseError> {
    let path = Path::new(ctx.file)
        .parent()
        .unwrap_or(Path::new(""))
        .join(file);
    let shown = path.display();
    let bytes = std::fs::read(&path).map_err(|e| ctx.err(l, format!("{shown}: {e}")))?;
    let dds =
        crate::harness::dds::parse(&bytes).map_err(|e| ctx.err(l, format!("{shown}: {e}")))?;
    let tex = dds.texture;
    let d = tex.desc();
    // The same bound as a section's `size`, so a file cannot bring in more
    // than a case could describe.
    for (what, n) in [
        ("width", d.width),
        ("height", d.height),
        ("depth", d.depth),
        ("array size", d.array_size),
    ] {
        if n > 4096 {
            return Err(ctx.err(
                l,
                format!("{shown}: {what} {n} is outside a case texture's 1..=4096"),
            ));
        }
    }
    let mismatch = |line: usize, what: &str, case: String, file: String| {
        ctx.err(
            line,
            format!("{what} {case} does not match {shown}'s {file}"),
        )
    };
    if let Some((line, f)) = format_at
        && f != d.format
    {
        return Err(mismatch(
            line,
            "format",
            f.name().into(),
            d.format.name().into(),
        ));
    }
    if let Some((line, dim)) = dimension_at
        && dim != d.dimension
    {
        return Err(mismatch(
            line,
            "dimension",
            format!("{dim:?}"),
            format!("{:?}", d.dimension),
        ));
    }
    if let Some((line, s)) = size_at {
        // The section's size, read as the section reads it for the file's
        // dimension, against the file's.
        let mine = desc_for(d.dimension, d.format, s);
        let same = mine.width == d.width
            && (d.dimension.size_axes() < 2 || d.dimension.is_cube() || mine.height == d.height)
            && (d.dimension != Dimension::Tex3D || mine.depth == d.depth)
            && (!d.dimension.is_array() || mine.array_size == d.array_size);
        if !same {
            return Err(mismatch(
                line,
                "size",
                s.map(|n| n.to_string()).join(" "),
                crate::harness::dds::describe(d),
            ));
        }
    }
    if let Some((line, m)) = mips_at {
        let full = m == 0
            && d.mip_levels
                == tex
                    .level_size(0)
                    .map_or(1, |[w, h, z]| 32 - w.max(h).max(z).leading_zeros());
        if m != d.mip_levels && !full {
            return Err(mismatch(
                line,
                "mip count",
                m.to_string(),
                d.mip_levels.to_string(),
            ));
        }
    }
    if let Some((after, t)) = lines.iter().find(|(n, _)| *n > l) {
        return Err(ctx.err(
            *after,
            format!("`{t}` after `fill image {file}`: the DDS file gives the whole texture"),
        ));
    }
    Ok(tex)
}

/// A `samples N` count: D3D11's sample counts that have a standard sample
/// pattern (1, 2, 4, 8, 16). D3D11 also allows 32 where a device offers
/// it, but defines no positions for it, so `samplepos` and coverage would
/// be the driver's: refused rather than guessed.
pub(super) fn sample_count(ctx: &Ctx, l: usize, n: &str) -> Result<u32, CaseError> {
    let count = ctx.u32(l, n)?;
    if crate::vm::texture::standard_pattern(count).is_none() {
        return Err(ctx.err(
            l,
            format!(
                "sample count {n} is not one of 1, 2, 4, 8, 16 (the counts with a D3D11 standard sample pattern)"
            ),
        ));
    }
    Ok(count)
}

/// Texels for `fill checker | gradient | ramp | constant r g b a`. Texels
/// are laid out layer by layer, each layer's mip chain from level 0,
/// row-major, a multisampled texel's samples consecutively; patterns are
/// computed from the texel's index within the top level's rows (every
/// sample of a texel gets the texel's value).
fn generate(
    ctx: &Ctx,
    l: usize,
    what: &[String],
    format: Format,
    count: usize,
    [w, h]: [u32; 2],
    samples: u32,
) -> Result<Vec<[u32; 4]>, CaseError> {
    let pattern = what.first().map(String::as_str);
    if format.is_integer() && pattern != Some("constant") {
        // The patterns are fractions in [0, 1]; an integer texture would
        // get their float bits as integers.
        return Err(ctx.err(
            l,
            format!(
                "{} takes integers: use `fill constant r g b a` or `values`",
                format.name()
            ),
        ));
    }
    let one = 1.0f32.to_bits();
    let per_image = (w * h).max(1) as usize;
    let count = count / samples as usize;
    let texels: Vec<[u32; 4]> = match what.first().map(String::as_str) {
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
            vec![texel_lanes(ctx, l, format, &toks)?; count]
        }
        _ => {
            return Err(ctx.err(
                l,
                "expected `fill checker`, `fill gradient`, `fill ramp`, `fill constant r g b a` or `fill image PATH`",
            ));
        }
    };
    Ok(texels
        .into_iter()
        .flat_map(|t| std::iter::repeat_n(t, samples as usize))
        .collect())
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

/// How a message names a texture's dimension: its `dimension` word, and
/// for the multisampled shapes `samples N` turns a 2D one into, that word
/// and "multisampled".
pub(super) fn dimension_name(d: Dimension) -> &'static str {
    match d {
        Dimension::Tex2DMS => "2d multisampled",
        Dimension::Tex2DMSArray => "2darray multisampled",
        Dimension::Buffer => "buffer",
        _ => DIMENSIONS
            .iter()
            .find(|(_, x)| *x == d)
            .map_or("unnamed", |(n, _)| n),
    }
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

#[cfg(test)]
mod tests {
    use crate::harness::case::{Case, CaseError};
    use std::path::Path;

    fn texture(body: &str) -> Result<crate::vm::texture::Texture, CaseError> {
        let text = format!("[pixel shader]\nps_5_0\nret\n[texture 0]\n{body}");
        Case::parse(&text, Path::new("t.case")).map(|c| c.textures[0].1.clone())
    }

    fn err(body: &str) -> (usize, String) {
        let e = texture(body).unwrap_err();
        (e.line, e.message)
    }

    #[test]
    fn raw_texels_are_little_endian_words() {
        // B8G8R8A8: byte 0 (the low digits) is blue.
        let t = texture("format bgra8_unorm\nsize 1 1\nraw\n0x000000FF\n").unwrap();
        assert_eq!(t.texel(0, 0, [0, 0, 0], 0), Some([0, 0, 0x3F80_0000, 0]));
        // SNORM 0x80 and 0x81 are both -1.
        let t = texture("format rg8_snorm\nsize 1 1\nraw\n0x8081\n").unwrap();
        let r = t.texel(0, 0, [0, 0, 0], 0).unwrap();
        assert_eq!([r[0], r[1]], [(-1.0f32).to_bits(); 2]);
    }

    #[test]
    fn srgb_values_are_the_stored_codes() {
        // 0.2 stores code 51, which reads back linearised:
        // ((0.2 + 0.055) / 1.055)^2.4 = 0.0331; alpha stays 0.2.
        let t = texture("format rgba8_unorm_srgb\nsize 1 1\nvalues\n0.2 0 1 0.2\n").unwrap();
        let v = t.texel(0, 0, [0, 0, 0], 0).unwrap().map(f32::from_bits);
        assert!((v[0] - 0.033_104_76).abs() < 1e-6, "{v:?}");
        assert_eq!([v[1], v[2], v[3]], [0.0, 1.0, 0.2]);
    }

    #[test]
    fn integer_formats_take_integers() {
        let t = texture("format r16_sint\nsize 2 1\nvalues\n-5 0 0 0  7i 0 0 0\n").unwrap();
        assert_eq!(t.texel(0, 0, [0, 0, 0], 0).unwrap()[0], -5i32 as u32);
        assert_eq!(t.texel(0, 0, [1, 0, 0], 0).unwrap()[0], 7);
    }

    #[test]
    fn bad_texels_name_their_line() {
        let (line, m) = err("format r8_uint\nsize 2 1\nvalues\n1 0 0 0\n256 0 0 0\n");
        assert_eq!(line, 9);
        assert!(m.contains("256") && m.contains("R8_UINT"), "{m}");
        let (line, m) = err("format rgba8_snorm\nsize 1 1\nvalues\n-1.5 0 0 0\n");
        assert_eq!(line, 8);
        assert!(m.contains("-1.5"), "{m}");
        let (line, m) = err("format rgba8_uint\nsize 1 1\nvalues\n1.5 0 0 0\n");
        assert_eq!(line, 8);
        assert!(m.contains("integer"), "{m}");
        let (line, m) = err("format r16_float\nsize 1 1\nvalues\n3u 0 0 0\n");
        assert_eq!(line, 8);
        assert!(m.contains("float"), "{m}");
        let (line, m) = err("format r16_uint\nsize 1 1\nvalues\n-1 0 0 0\n");
        assert_eq!(line, 8);
        assert!(m.contains("above") || m.contains("outside"), "{m}");
        let (line, m) = err("format rgb9e5\nsize 1 1\nraw\n0x1234\n");
        assert_eq!(line, 8);
        assert!(m.contains("8 hex digits"), "{m}");
        let (line, _) = err("format rgb9e5\nsize 1 1\nfill constant -1 0 0 1\n");
        assert_eq!(line, 7);
        // The count is the list's fault: the `raw` line is named.
        let (line, m) = err("format rgba8_unorm\nsize 2 1\nraw\n0x00000000\n");
        assert_eq!(line, 7);
        assert!(m.contains("2 raw texels"), "{m}");
        let (_, m) = err("format rgba8_unorm\nsize 1 1\nfill constant 0 0 0 1\nraw\n0x00000000\n");
        assert!(m.contains("one of"), "{m}");
        let (line, m) = err("format r8_uint\nsize 2 1\nfill checker\n");
        assert_eq!(line, 7);
        assert!(m.contains("fill constant"), "{m}");
        let (line, m) = err("format bgr8\n");
        assert_eq!(line, 5);
        assert!(m.contains("unknown format"), "{m}");
    }
}

#[cfg(test)]
mod bc_tests {
    use super::super::{Case, CaseError};
    use crate::harness::dds::tests::file;
    use crate::vm::texture::Format;
    use std::path::{Path, PathBuf};

    const SHADER: &str = "[pixel shader]\nps_5_0\nret\n";

    fn parse(text: &str, at: &Path) -> Result<Case, CaseError> {
        Case::parse(&format!("{SHADER}{text}"), &at.join("t.case"))
    }

    /// A fresh directory for one test's files.
    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dxbc-dbg-bc-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// The section's line numbers start after the 3-line shader.
    fn err(text: &str, at: &Path) -> (usize, String) {
        let e = parse(text, at).unwrap_err();
        (e.line, e.to_string())
    }

    const RED: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0];

    #[test]
    fn blocks_give_a_block_compressed_texture() {
        let d = dir("blocks");
        let c = parse(
            "[texture 0]\nformat bc1_unorm\nsize 4 4\nblocks\n00f81f00 0x00000000\n",
            &d,
        )
        .unwrap();
        let tex = &c.textures[0].1;
        assert_eq!(tex.format(), Format::Bc1Unorm);
        assert_eq!(
            tex.texel(0, 0, [3, 3, 0], 0),
            Some([1.0f32, 0.0, 0.0, 1.0].map(f32::to_bits))
        );
        // 6x6 is 2x2 blocks.
        let e = err(
            "[texture 0]\nformat bc1_unorm\nsize 6 6\nblocks\n00f81f00 00000000\n",
            &d,
        );
        assert_eq!(e.0, 7, "{}", e.1);
        assert!(
            e.1.contains("needs 32 bytes of blocks (4 blocks of 8), found 8"),
            "{}",
            e.1
        );
        // Bad tokens, each naming its line.
        for bad in ["0f8", "0x1234", "zz", "0xgggggggg"] {
            let e = err(
                &format!("[texture 0]\nformat bc4_unorm\nsize 4 4\nblocks\n0000\n{bad}\n"),
                &d,
            );
            assert_eq!(e.0, 9, "{bad}: {}", e.1);
            assert!(e.1.contains("bad block bytes"), "{}", e.1);
        }
        // Texel values, generated fills and blocks on the wrong format.
        let e = err(
            "[texture 0]\nformat bc7_unorm\nsize 4 4\nvalues\n0 0 0 1\n",
            &d,
        );
        assert!(e.1.contains("not texel `values`"), "{}", e.1);
        let e = err(
            "[texture 0]\nformat bc7_unorm\nsize 4 4\nfill checker\n",
            &d,
        );
        assert_eq!(e.0, 7, "{}", e.1);
        let e = err("[texture 0]\nformat r8_unorm\nsize 4 4\nblocks\n00\n", &d);
        assert!(e.1.contains("not R8_UNORM"), "{}", e.1);
        // A block format where D3D has none.
        let e = err("[texture 0]\nformat bc1_unorm\ndimension 1d\nsize 4\n", &d);
        assert!(e.1.contains("block-compressed"), "{}", e.1);
    }

    #[test]
    fn dds_files_fill_textures_and_must_match_the_section() {
        let d = dir("dds");
        std::fs::write(d.join("ok.dds"), file(4, 4, 1, b"DXT1", 0, None, &RED)).unwrap();
        let c = parse("[texture 0]\nfill image ok.dds\n", &d).unwrap();
        assert_eq!(c.textures[0].1.format(), Format::Bc1Unorm);
        let c = parse(
            "[texture 0]\nformat bc1_unorm\ndimension 2d\nsize 4 4\nmips 1\nfill image ok.dds\n",
            &d,
        )
        .unwrap();
        assert_eq!(c.textures[0].1.mip_levels(), 1);
        // Each stated setting that differs names its own line and the file.
        let cases = [
            ("format bc3_unorm", "format BC3_UNORM does not match"),
            ("dimension 2darray", "dimension Tex2DArray does not match"),
            ("size 8 4", "size 8 4 1 does not match"),
            ("mips 2", "mip count 2 does not match"),
        ];
        for (setting, want) in cases {
            let e = err(&format!("[texture 0]\n{setting}\nfill image ok.dds\n"), &d);
            assert_eq!(e.0, 5, "{setting}: {}", e.1);
            assert!(e.1.contains(want) && e.1.contains("ok.dds"), "{}", e.1);
        }
        // Nothing may follow the file.
        let e = err("[texture 0]\nfill image ok.dds\nsize 4 4\n", &d);
        assert_eq!(e.0, 6, "{}", e.1);
        // Malformed files: the fill line, the file's name and what is wrong.
        let mut bad_magic = file(4, 4, 1, b"DXT1", 0, None, &RED);
        bad_magic[..4].copy_from_slice(b"PNG ");
        let truncated_header = file(4, 4, 1, b"DXT1", 0, None, &RED)[..60].to_vec();
        let truncated_data = file(8, 8, 1, b"DXT1", 0, None, &RED);
        let files: [(&str, Vec<u8>, &str); 3] = [
            ("magic.dds", bad_magic, "not a DDS file"),
            ("header.dds", truncated_header, "truncated header"),
            ("data.dds", truncated_data, "truncated data"),
        ];
        for (name, bytes, want) in files {
            std::fs::write(d.join(name), bytes).unwrap();
            let e = err(&format!("[texture 0]\nfill image {name}\n"), &d);
            assert_eq!(e.0, 5, "{name}: {}", e.1);
            assert!(e.1.contains(name) && e.1.contains(want), "{}", e.1);
        }
        // Larger than a section may describe (D3D allows it; cases do not).
        std::fs::write(
            d.join("big.dds"),
            file(8192, 4, 1, b"DXT1", 0, None, &[0; 8 * 2048]),
        )
        .unwrap();
        let e = err("[texture 0]\nfill image big.dds\n", &d);
        assert!(e.1.contains("width 8192 is outside"), "{}", e.1);
        let e = err("[texture 0]\nfill image missing.dds\n", &d);
        assert!(e.1.contains("missing.dds"), "{}", e.1);
    }
}
