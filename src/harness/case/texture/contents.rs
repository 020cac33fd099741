//! What a `[texture N]` holds: texel `values` and `raw` bytes read in the
//! form the format takes, block-compressed `blocks`, generated `fill`s and
//! image files (PNG and the like through `fill image`, DDS files with their
//! whole texture). Each reader checks its values against the format, so a
//! value the format cannot store is an error at its own line.

use std::path::Path;

use super::super::CaseError;
use super::super::values::{Ctx, Lines};
use super::Listing;
use super::shape::desc_for;
use crate::vm::texture::{Dimension, Format, Texture, TextureDesc};

/// Bytes of a `blocks` line: each token is either plain hex digits, bytes
/// in memory order (`00f81f00`), or `0x` and eight digits, a 32-bit word
/// stored little-endian (`0x001ff800` is the bytes `00 f8 1f 00`).
pub(super) fn block_bytes(
    ctx: &Ctx,
    l: usize,
    toks: &[&str],
    out: &mut Vec<u8>,
) -> Result<(), CaseError> {
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

/// One texel value in the form its component's kind takes: integers
/// (`7`, `7u`, `-1i`) for UINT/SINT components (a depth-stencil format's
/// stencil), floats for the rest, hex bits (`0x…`) for either. A UINT
/// component takes no negative number.
fn texel_lane(ctx: &Ctx, l: usize, format: Format, lane: usize, t: &str) -> Result<u32, CaseError> {
    use crate::vm::texture::NumericKind;
    if t.starts_with("0x") {
        return ctx.lane(l, t);
    }
    let integer = t.strip_suffix(['u', 'i']).unwrap_or(t);
    let kind = format.field_kind(lane);
    if matches!(kind, NumericKind::Uint | NumericKind::Sint) {
        let v: i64 = integer.parse().map_err(|_| {
            ctx.err(
                l,
                format!("{} takes integer texel values, found `{t}`", format.name()),
            )
        })?;
        let fits = match kind {
            NumericKind::Uint => (0..=i64::from(u32::MAX)).contains(&v),
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

pub(super) fn texel_lanes(
    ctx: &Ctx,
    l: usize,
    format: Format,
    toks: &[&str],
) -> Result<[u32; 4], CaseError> {
    if toks.len() != 4 {
        return Err(ctx.err(l, format!("expected four values, found {}", toks.len())));
    }
    let mut v = [0; 4];
    for (i, (lane, t)) in v.iter_mut().zip(toks).enumerate() {
        *lane = texel_lane(ctx, l, format, i, t)?;
    }
    Ok(v)
}

/// One texel's memory bytes from `0x` and exactly two hex digits per byte,
/// read as the texel's little-endian number (so `0xAABBGGRR` for RGBA8).
pub(super) fn raw_texel(
    ctx: &Ctx,
    l: usize,
    format: Format,
    t: &str,
) -> Result<Vec<u8>, CaseError> {
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

/// A block-compressed texture: its `blocks` (all-zero blocks when the
/// section gives none), which must cover every subresource exactly.
pub(super) fn block_texture(
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
pub(super) fn dds_texture(
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
/// are laid out layer by layer, each layer's mip chain from level 0,
/// row-major, a multisampled texel's samples consecutively; patterns are
/// computed from the texel's index within the top level's rows (every
/// sample of a texel gets the texel's value).
pub(super) fn generate(
    ctx: &Ctx,
    l: usize,
    what: &[String],
    format: Format,
    count: usize,
    [w, h]: [u32; 2],
    samples: u32,
) -> Result<Vec<[u32; 4]>, CaseError> {
    let pattern = what.first().map(String::as_str);
    if format
        .fields()
        .iter()
        .any(|f| format.field_kind(f.lane) != format.kind())
        && pattern != Some("constant")
    {
        // A depth and a stencil: no pattern fills both.
        return Err(ctx.err(
            l,
            format!(
                "{} holds a depth and a stencil: use `fill constant depth stencil 0 0` or `values`",
                format.name()
            ),
        ));
    }
    if pattern == Some("pattern") {
        let texels = pattern_texels(ctx, l, what, format, count / samples as usize)?;
        return Ok(texels
            .into_iter()
            .flat_map(|t| std::iter::repeat_n(t, samples as usize))
            .collect());
    }
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
                "expected `fill checker`, `fill gradient`, `fill ramp`, `fill pattern SEED`, `fill constant r g b a` or `fill image PATH`",
            ));
        }
    };
    Ok(texels
        .into_iter()
        .flat_map(|t| std::iter::repeat_n(t, samples as usize))
        .collect())
}

/// `fill pattern SEED`: every channel of every texel a hash of the seed,
/// the texel's place in D3D's subresource order (so its layer, mip and
/// coordinates) and the channel, so each texel, level, layer and channel
/// differs from its neighbours and every filter and gather tap shows in
/// the result. The values are exact in the format: `k / 255` for UNORM,
/// sRGB and float formats (depths too: [0, 1]), `k / 127` (k in
/// -127..=127) for SNORM, 0..=255 for UINT and -64..=63 for SINT, so they
/// fit every width of their kind.
fn pattern_texels(
    ctx: &Ctx,
    l: usize,
    what: &[String],
    format: Format,
    count: usize,
) -> Result<Vec<[u32; 4]>, CaseError> {
    use crate::vm::texture::NumericKind;
    let seed: u64 = match what {
        [_, seed] => seed.parse().map_err(|_| {
            ctx.err(
                l,
                format!("fill pattern {seed}: the seed is a whole number 0..=18446744073709551615"),
            )
        })?,
        _ => return Err(ctx.err(l, "expected `fill pattern SEED`")),
    };
    let kind = format.kind();
    Ok((0..count as u64)
        .map(|i| {
            std::array::from_fn(|c| {
                let h = pattern_hash(seed, i, c as u64);
                let byte = (h >> 24) as u32 & 0xff;
                match kind {
                    NumericKind::Uint => byte,
                    NumericKind::Sint => ((byte & 0x7f) as i32 - 64) as u32,
                    NumericKind::Snorm => (((byte % 255) as i32 - 127) as f32 / 127.0).to_bits(),
                    _ => (byte as f32 / 255.0).to_bits(),
                }
            })
        })
        .collect())
}

/// SplitMix64's finaliser over the seed, texel index and channel: a fixed
/// function, so a pattern is the same on every machine.
fn pattern_hash(seed: u64, texel: u64, channel: u64) -> u64 {
    let mut z = seed
        .wrapping_add(texel.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(channel.wrapping_mul(0xd1b5_4a32_d192_ed03));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
