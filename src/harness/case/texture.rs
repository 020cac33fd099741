//! `[texture N]`: a texture's format, dimension, size, mips and contents
//! (generated, from an image file or given texel by texel).

use std::path::Path;

use super::CaseError;
use super::values::{Ctx, Lines};
use crate::vm::texture::{Dimension, Format, Texture, TextureDesc, View, ViewError};

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

fn dimension_named(name: &str) -> Option<Dimension> {
    Some(match name {
        "1d" => Dimension::Tex1D,
        "1darray" => Dimension::Tex1DArray,
        "2d" => Dimension::Tex2D,
        "2darray" => Dimension::Tex2DArray,
        "3d" => Dimension::Tex3D,
        "cube" => Dimension::Cube,
        "cubearray" => Dimension::CubeArray,
        _ => return None,
    })
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

pub(super) fn parse_texture(ctx: &Ctx, at: usize, lines: &Lines) -> Result<Texture, CaseError> {
    let mut format = Format::Rgba8Unorm;
    let mut dimension = Dimension::Tex2D;
    let mut size = [1u32, 1, 1];
    let mut mips = 1u32;
    let mut fill: Option<(usize, Vec<String>)> = None;
    let mut values: Vec<[u32; 4]> = Vec::new();
    let mut in_values = false;
    let mut view = ViewLines::default();
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
                dimension = dimension_named(d)
                    .ok_or_else(|| ctx.err(*l, format!("unknown dimension `{d}`")))?
            }
            ["view", rest @ ..] => view.parse(ctx, *l, rest)?,
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
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
            ["values"] => in_values = true,
            _ => return Err(ctx.err(*l, format!("unknown texture setting `{t}`"))),
        }
    }
    let [w, h, d] = size;
    let desc = match dimension {
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
        Some((l, f)) => generate(ctx, l, &f, count, [w, h])?,
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
    let tex = tex.map_err(|e| ctx.err(at, format!("texture: {e}")))?;
    view.apply(ctx, at, tex)
}

/// Texels for `fill checker | gradient | ramp | constant r g b a`. Texels
/// are laid out level by level, layer by layer, row-major; patterns are
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
