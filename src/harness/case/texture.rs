//! `[texture N]`: a texture's format, dimension, size, mips and contents
//! (generated, from an image file or given texel by texel).

use std::path::Path;

use super::CaseError;
use super::values::{Ctx, Lines};
use crate::vm::texture::{Dimension, Format, Texture, TextureDesc};

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
        _ => return None,
    })
}

pub(super) fn parse_texture(ctx: &Ctx, at: usize, lines: &Lines) -> Result<Texture, CaseError> {
    let mut format = Format::Rgba8Unorm;
    let mut dimension = Dimension::Tex2D;
    let mut size = [1u32, 1, 1];
    let mut mips = 1u32;
    let mut samples: Option<(usize, u32)> = None;
    let mut fill: Option<(usize, Vec<String>)> = None;
    let mut values: Vec<[u32; 4]> = Vec::new();
    let mut in_values = false;
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if in_values {
            if !toks.len().is_multiple_of(4) {
                return Err(ctx.err(*l, "texel values come four to a texel"));
            }
            for c in toks.chunks(4) {
                values.push(ctx.lanes4(*l, c)?);
            }
            continue;
        }
        match toks.as_slice() {
            ["format", f] => {
                format =
                    format_named(f).ok_or_else(|| ctx.err(*l, format!("unknown format `{f}`")))?
            }
            ["dimension", d] => {
                dimension = match *d {
                    "1d" => Dimension::Tex1D,
                    "1darray" => Dimension::Tex1DArray,
                    "2d" => Dimension::Tex2D,
                    "2darray" => Dimension::Tex2DArray,
                    "3d" => Dimension::Tex3D,
                    "cube" => Dimension::Cube,
                    "cubearray" => Dimension::CubeArray,
                    _ => return Err(ctx.err(*l, format!("unknown dimension `{d}`"))),
                }
            }
            ["size", dims @ ..] if !dims.is_empty() && dims.len() <= 3 => {
                for (i, d) in dims.iter().enumerate() {
                    size[i] = ctx.u32(*l, d)?;
                    if !(1..=4096).contains(&size[i]) {
                        return Err(ctx.err(*l, format!("texture size {d} is outside 1..=4096")));
                    }
                }
            }
            ["mips", "full"] => mips = 0,
            ["mips", n] => {
                mips = ctx.u32(*l, n)?;
                if !(1..=16).contains(&mips) {
                    return Err(ctx.err(*l, format!("mip count {n} is outside 1..=16")));
                }
            }
            ["samples", n] => samples = Some((*l, sample_count(ctx, *l, n)?)),
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
            ["values"] => in_values = true,
            _ => return Err(ctx.err(*l, format!("unknown texture setting `{t}`"))),
        }
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
        Dimension::Cube => TextureDesc::cube(format, w),
        Dimension::CubeArray => TextureDesc::cube_array(format, w, d),
        _ => TextureDesc::tex2d(format, w, h),
    }
    .with_mips(mips);
    let count = Texture::zeroed(desc)
        .map_err(|e| ctx.err(at, format!("texture: {e}")))?
        .texel_count();
    let texels: Vec<[u32; 4]> = match fill {
        Some((l, f)) => generate(ctx, l, &f, count, [w, h], samples)?,
        None if !values.is_empty() => {
            if values.len() != count {
                return Err(ctx.err(
                    at,
                    format!("texture needs {count} texel values, found {}", values.len()),
                ));
            }
            values
        }
        None => vec![[0, 0, 0, 1.0f32.to_bits()]; count],
    };
    let floats: Vec<[f32; 4]> = texels.iter().map(|t| t.map(f32::from_bits)).collect();
    let integer = matches!(format, Format::R32Uint | Format::R32Sint);
    let tex = if integer {
        Texture::from_lanes(desc, &texels)
    } else {
        Texture::from_f32(desc, &floats)
    };
    tex.map_err(|e| ctx.err(at, format!("texture: {e}")))
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
    count: usize,
    [w, h]: [u32; 2],
    samples: u32,
) -> Result<Vec<[u32; 4]>, CaseError> {
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
            vec![ctx.lanes4(l, &toks)?; count]
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
