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

pub(super) fn parse_texture(ctx: &Ctx, at: usize, lines: &Lines) -> Result<Texture, CaseError> {
    // Each setting remembers the line that gave it: a DDS file must agree
    // with every setting the section states, and supplies the rest.
    let mut format_at: Option<(usize, Format)> = None;
    let mut dimension_at: Option<(usize, Dimension)> = None;
    let mut size_at: Option<(usize, [u32; 3])> = None;
    let mut mips_at: Option<(usize, u32)> = None;
    let mut size = [1u32, 1, 1];
    let mut fill: Option<(usize, Vec<String>)> = None;
    let mut values: Vec<[u32; 4]> = Vec::new();
    let mut in_values = false;
    let mut blocks: Option<(usize, Vec<u8>)> = None;
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if let Some((_, bytes)) = &mut blocks {
            block_bytes(ctx, *l, &toks, bytes)?;
            continue;
        }
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
                format_at = Some((
                    *l,
                    format_named(f).ok_or_else(|| ctx.err(*l, format!("unknown format `{f}`")))?,
                ))
            }
            ["dimension", d] => {
                let dimension = match *d {
                    "1d" => Dimension::Tex1D,
                    "1darray" => Dimension::Tex1DArray,
                    "2d" => Dimension::Tex2D,
                    "2darray" => Dimension::Tex2DArray,
                    "3d" => Dimension::Tex3D,
                    "cube" => Dimension::Cube,
                    "cubearray" => Dimension::CubeArray,
                    _ => return Err(ctx.err(*l, format!("unknown dimension `{d}`"))),
                };
                dimension_at = Some((*l, dimension));
            }
            ["size", dims @ ..] if !dims.is_empty() && dims.len() <= 3 => {
                for (i, d) in dims.iter().enumerate() {
                    size[i] = ctx.u32(*l, d)?;
                    if !(1..=4096).contains(&size[i]) {
                        return Err(ctx.err(*l, format!("texture size {d} is outside 1..=4096")));
                    }
                }
                size_at = Some((*l, size));
            }
            ["mips", "full"] => mips_at = Some((*l, 0)),
            ["mips", n] => {
                let mips = ctx.u32(*l, n)?;
                if !(1..=16).contains(&mips) {
                    return Err(ctx.err(*l, format!("mip count {n} is outside 1..=16")));
                }
                mips_at = Some((*l, mips));
            }
            ["fill", "image", path] if path.to_ascii_lowercase().ends_with(".dds") => {
                return dds_texture(
                    ctx,
                    *l,
                    path,
                    format_at,
                    dimension_at,
                    size_at,
                    mips_at,
                    lines,
                );
            }
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
            ["values"] => in_values = true,
            ["blocks"] => blocks = Some((*l, Vec::new())),
            _ => return Err(ctx.err(*l, format!("unknown texture setting `{t}`"))),
        }
    }
    let format = format_at.map_or(Format::Rgba8Unorm, |f| f.1);
    let dimension = dimension_at.map_or(Dimension::Tex2D, |d| d.1);
    let mips = mips_at.map_or(1, |m| m.1);
    let [w, h, _] = size;
    let desc = desc_for(dimension, format, size).with_mips(mips);
    if format.is_block_compressed() {
        return block_texture(ctx, at, desc, fill.map(|f| f.0), !values.is_empty(), blocks);
    }
    if let Some((l, _)) = blocks {
        return Err(ctx.err(
            l,
            format!(
                "`blocks` is for block-compressed formats, not {}",
                format.name()
            ),
        ));
    }
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
    tex.map_err(|e| ctx.err(at, format!("texture: {e}")))
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
    has_values: bool,
    blocks: Option<(usize, Vec<u8>)>,
) -> Result<Texture, CaseError> {
    let name = desc.format.name();
    if let Some(l) = fill {
        return Err(ctx.err(
            l,
            format!("{name} is block-compressed: give its `blocks` or `fill image FILE.dds`"),
        ));
    }
    if has_values {
        return Err(ctx.err(
            at,
            format!("{name} is block-compressed: give its `blocks`, not texel `values`"),
        ));
    }
    let zero = Texture::zeroed(desc).map_err(|e| ctx.err(at, format!("texture: {e}")))?;
    let Some((l, bytes)) = blocks else {
        return Ok(zero);
    };
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

#[cfg(test)]
mod tests {
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
