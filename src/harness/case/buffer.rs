//! `[buffer N]` (a raw or structured SRV at `tN`) and `[uav N]` (a raw or
//! structured UAV at `uN`): layout, contents and, for UAVs, the hidden
//! counter. A typed SRV (`format F`) is a texture of the buffer dimension,
//! read in `texture/typed_buffer.rs`. A typed UAV (`format F`, R32 formats) is a buffer or, with
//! `size W H`, a 2D texture.

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::vm::memory::{Buffer, Layout};
use crate::vm::texture::Format;

/// D3D11's largest structure stride (`D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES`).
pub const MAX_STRIDE: u32 = 2048;
/// Pixel-shader UAV slots in Direct3D 11.0 (`D3D11_PS_CS_UAV_REGISTER_COUNT`).
pub const UAV_SLOTS: u32 = 8;
/// The most 32-bit words a case buffer holds (16 MiB): far more than a
/// hand-worked case needs, small enough that a typo cannot exhaust memory.
pub const MAX_WORDS: u64 = 1 << 22;

const EXPECTED: &str = "expected `raw`, `stride S`, `format F` ([uav]), `size N`, `data uint|int|float|hex v...` \
     or (in [uav]) `counter C` or `unordered`";

/// One section's buffer, and (a [uav]) whether `unordered` is given: its
/// elements are compared between backends as a multiset, not in place.
pub(super) fn parse_buffer(
    ctx: &Ctx,
    title_line: usize,
    lines: &Lines,
    uav: bool,
) -> Result<(Buffer, bool), CaseError> {
    let mut unordered = false;
    let mut once = Once::default();
    let mut layout: Option<(usize, Layout)> = None;
    let mut size: Option<(usize, u32)> = None;
    // `size W H`: a typed 2D texture UAV of W x H texels.
    let mut texture: Option<(usize, u32, u32)> = None;
    let mut counter = 0;
    let mut words: Vec<u32> = Vec::new();
    for (l, t) in lines {
        let l = *l;
        let toks: Vec<&str> = t.split_whitespace().collect();
        let key = toks.first().copied().unwrap_or("");
        if key != "data" {
            // `raw` and `stride` both set the layout: one of them, once.
            let k = if matches!(key, "stride" | "format") {
                "raw"
            } else {
                key
            };
            once.check(ctx, l, k)?;
        }
        match toks.as_slice() {
            ["raw"] => layout = Some((l, Layout::Raw)),
            ["stride", s] => {
                let s = ctx.u32(l, s)?;
                if s == 0 || !s.is_multiple_of(4) || s > MAX_STRIDE {
                    return Err(ctx.err(
                        l,
                        format!("stride {s} is not a multiple of 4 in 4..={MAX_STRIDE}"),
                    ));
                }
                layout = Some((l, Layout::Structured { stride: s }));
            }
            ["format", f] if uav => {
                let format = match *f {
                    "r32_uint" => Format::R32Uint,
                    "r32_sint" => Format::R32Sint,
                    "r32_float" => Format::R32Float,
                    _ => {
                        return Err(ctx.err(
                            l,
                            format!(
                                "format {f}: a typed UAV here is r32_uint, r32_sint or r32_float \
                                 (what D3D11 loads from a typed UAV without extended formats)"
                            ),
                        ));
                    }
                };
                layout = Some((l, Layout::Typed { format, row: None }));
            }
            // A typed SRV is read by `texture::parse_typed_buffer`; the
            // section only comes here without a `format` line.
            ["format", _] => return Err(ctx.err(l, EXPECTED)),
            ["size", n] => size = Some((l, ctx.u32(l, n)?)),
            ["size", w, h] if uav => {
                let (w, h) = (ctx.u32(l, w)?, ctx.u32(l, h)?);
                let side = crate::dxbc::limits::RENDER_TARGET_SIDE;
                if w == 0 || h == 0 || w > side || h > side {
                    return Err(ctx.err(
                        l,
                        format!("size {w} {h}: a 2D texture's sides are in 1..={side}"),
                    ));
                }
                texture = Some((l, w, h));
            }
            ["counter", c] if uav => counter = ctx.u32(l, c)?,
            ["unordered"] if uav => unordered = true,
            ["unordered"] => {
                return Err(ctx.err(
                    l,
                    "`unordered` belongs to a [uav]: an SRV is not written by the draw",
                ));
            }
            ["counter", _] => {
                return Err(ctx.err(l, "`counter` belongs to a [uav]: an SRV has no counter"));
            }
            ["data", kind, vals @ ..] if !vals.is_empty() => {
                for v in vals {
                    words.push(word(ctx, l, kind, v)?);
                }
                if words.len() as u64 > MAX_WORDS {
                    return Err(ctx.err(l, format!("more than {MAX_WORDS} words of data")));
                }
            }
            _ => return Err(ctx.err(l, EXPECTED)),
        }
    }
    let Some((_, mut layout)) = layout else {
        return Err(ctx.err(
            title_line,
            "the buffer needs `raw`, `stride S` or (a [uav]) `format F`",
        ));
    };
    if let Some((l, w, h)) = texture {
        let Layout::Typed { format, .. } = layout else {
            return Err(ctx.err(l, "`size W H` (a 2D texture) needs `format F`"));
        };
        layout = Layout::Typed {
            format,
            row: Some(w),
        };
        // Texels as elements; `data` fills rows top to bottom.
        size = Some((l, w * h));
    }
    // Words per element: raw buffers count 32-bit words.
    let per = u64::from(layout.words_per_element());
    let total = match size {
        Some((l, n)) => {
            let total = u64::from(n) * per;
            if total > MAX_WORDS {
                return Err(ctx.err(l, format!("size {n} is more than {MAX_WORDS} words")));
            }
            if (words.len() as u64) > total {
                return Err(ctx.err(
                    l,
                    format!("the data ({} words) does not fit in size {n}", words.len()),
                ));
            }
            total
        }
        None => {
            if words.is_empty() {
                return Err(ctx.err(title_line, "the buffer needs `size N` or `data`"));
            }
            if !(words.len() as u64).is_multiple_of(per) {
                return Err(ctx.err(
                    title_line,
                    format!(
                        "the data ({} words) is not a whole number of {per}-word elements; give `size N`",
                        words.len()
                    ),
                ));
            }
            words.len() as u64
        }
    };
    words.resize(total as usize, 0);
    let mut b = Buffer::new(layout, words);
    b.counter = counter;
    Ok((b, unordered))
}

/// One 32-bit word written as `kind`.
pub(super) fn word(ctx: &Ctx, l: usize, kind: &str, v: &str) -> Result<u32, CaseError> {
    Ok(match kind {
        "uint" => ctx.u32(l, v)?,
        "int" => v
            .parse::<i32>()
            .map_err(|_| ctx.err(l, format!("bad integer `{v}`")))? as u32,
        "float" => ctx.f32(l, v)?.to_bits(),
        "hex" => {
            let h = v.strip_prefix("0x").unwrap_or(v);
            u32::from_str_radix(h, 16).map_err(|_| ctx.err(l, format!("bad hex value `{v}`")))?
        }
        k => {
            return Err(ctx.err(
                l,
                format!("unknown value type `{k}` (uint, int, float, hex)"),
            ));
        }
    })
}
