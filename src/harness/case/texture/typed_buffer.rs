//! `[buffer N]` with `format F`: a typed buffer SRV (`dcl_resource_buffer`,
//! HLSL `Buffer<T>`). It is the emulator's one texture model with
//! `Dimension::Buffer` (what `ld` and `bufinfo` already read), so its
//! elements are written as a texture's texels are: `values`, four lanes
//! to an element.

use super::super::CaseError;
use super::super::values::{Ctx, Lines, Once};
use super::contents::texel_lanes;
use super::shape::Budget;
use crate::vm::texture::{Format, Texture, TextureDesc};

/// The element formats a typed buffer case may use: the 32-bit float and
/// integer ones and the two packed ones a `Buffer<float4>` commonly holds.
/// vk450 decodes each of these in the shader from the element bytes, by
/// the view's DXGI format (`Format::dxgi`), which the runtime passes in
/// `hlslcc_BufferViews`; a format added here needs a branch there too.
pub const TYPED_BUFFER_FORMATS: [(&str, Format); 7] = [
    ("r32_float", Format::R32Float),
    ("r32_uint", Format::R32Uint),
    ("r32_sint", Format::R32Sint),
    ("rg32_float", Format::Rg32Float),
    ("rgba32_float", Format::Rgba32Float),
    ("rgba8_unorm", Format::Rgba8Unorm),
    ("rgba16_float", Format::Rgba16Float),
];

/// Whether a `[buffer]` section is typed (it has a `format` line).
pub(in crate::harness::case) fn is_typed(lines: &Lines) -> bool {
    lines
        .iter()
        .any(|(_, t)| t.split_whitespace().next() == Some("format"))
}

const EXPECTED: &str =
    "a typed [buffer] takes `format F`, `size N` and `values` (four lanes an element, as a texel)";

pub(in crate::harness::case) fn parse_typed_buffer(
    ctx: &Ctx,
    at: usize,
    lines: &Lines,
    budget: &mut Budget,
) -> Result<Texture, CaseError> {
    let mut format: Option<Format> = None;
    let mut size: Option<(usize, u32)> = None;
    // Where `values` began; every line after it is element values.
    let mut listing: Option<usize> = None;
    let mut toks_seen: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut once = Once::default();
    for (l, t) in lines {
        let l = *l;
        let toks: Vec<&str> = t.split_whitespace().collect();
        if listing.is_some() {
            toks_seen.push((l, toks));
            continue;
        }
        let key = toks.first().copied().unwrap_or("");
        once.check(ctx, l, key)?;
        match toks.as_slice() {
            ["format", f] => {
                let found = TYPED_BUFFER_FORMATS.iter().find(|(n, _)| n == f);
                let Some((_, found)) = found else {
                    let known: Vec<&str> = TYPED_BUFFER_FORMATS.iter().map(|(n, _)| *n).collect();
                    return Err(ctx.err(
                        l,
                        format!(
                            "format {f}: a typed buffer here is one of {}",
                            known.join(", ")
                        ),
                    ));
                };
                format = Some(*found);
            }
            ["size", n] => {
                let n = ctx.u32(l, n)?;
                if n == 0 {
                    return Err(ctx.err(l, "size 0: a buffer view holds at least one element"));
                }
                size = Some((l, n));
            }
            ["values"] => listing = Some(l),
            ["raw"] => {
                return Err(ctx.err(
                    l,
                    "`raw` and `format F` are two layouts: a [buffer] is raw, structured or typed",
                ));
            }
            _ => return Err(ctx.err(l, EXPECTED)),
        }
    }
    // `format` may only have been seen after `values`, as a value.
    let Some(format) = format else {
        return Err(ctx.err(at, "a typed [buffer] gives `format F` before `values`"));
    };
    let Some((size_line, n)) = size else {
        return Err(ctx.err(at, "a typed [buffer] needs `size N` (elements)"));
    };
    let desc = TextureDesc::buffer(format, n);
    let count =
        Texture::texels_for(desc).map_err(|e| ctx.err(size_line, format!("buffer: {e}")))?;
    budget.take(ctx, size_line, count)?;
    let tex = match listing {
        // Unfilled: zeros, as D3D11 leaves a buffer it is given no data for.
        None => Texture::from_lanes(desc, &vec![format.out_of_bounds_lanes(); count]),
        Some(ll) => {
            let mut texels = Vec::with_capacity(count);
            for (l, toks) in &toks_seen {
                if !toks.len().is_multiple_of(4) {
                    return Err(ctx.err(*l, "element values come four to an element"));
                }
                for c in toks.chunks(4) {
                    let t = texel_lanes(ctx, *l, format, c)?;
                    format.check_lanes(t).map_err(|e| ctx.err(*l, e))?;
                    texels.push(t);
                }
            }
            if texels.len() != count {
                return Err(ctx.err(
                    ll,
                    format!(
                        "size {n} needs {count} element values, found {}",
                        texels.len()
                    ),
                ));
            }
            Texture::from_lanes(desc, &texels)
        }
    };
    tex.map_err(|e| ctx.err(at, format!("buffer: {e}")))
}

#[cfg(test)]
mod tests {
    use super::TYPED_BUFFER_FORMATS;
    use crate::dxbc::enums::DxgiFormat;

    /// Every format a case may give a typed buffer is one the vk450
    /// decode knows by its DXGI code (an `Other` code would read as zeros
    /// on Vulkan while the emulator decodes it).
    #[test]
    fn every_typed_buffer_format_has_a_decoded_dxgi_code() {
        for (name, f) in TYPED_BUFFER_FORMATS {
            let code = DxgiFormat::from_code(f.dxgi());
            assert!(!matches!(code, DxgiFormat::Other(_)), "{name}: {code:?}");
        }
    }
}
