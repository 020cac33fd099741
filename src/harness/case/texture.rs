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
        _ => return None,
    })
}

/// Which texel list the lines after `values` or `raw` belong to.
#[derive(PartialEq)]
enum Listing {
    None,
    Values,
    Raw,
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

fn dimension_named(name: &str) -> Option<Dimension> {
    super::bindings::DIMENSIONS
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
                ViewError::Format { .. } => self.format.map(|f| f.0),
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
                    format_named(f).ok_or_else(|| ctx.err(*l, format!("unknown format `{f}`")))?
            }
            ["dimension", d] => {
                dimension = dimension_named(d)
                    .ok_or_else(|| ctx.err(*l, format!("unknown dimension `{d}`")))?
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
            }
            ["mips", n] => {
                mips = ctx.u32(*l, n)?;
                mips_at = *l;
                if mips == 0 {
                    return Err(ctx.err(*l, "a texture has at least one mip level"));
                }
            }
            ["samples", n] => samples = Some((*l, sample_count(ctx, *l, n)?)),
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
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
