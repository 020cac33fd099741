//! `[render target]`: the size of the target the quad is drawn into.

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::dxbc::limits::RENDER_TARGET_SIDE;

/// `size W H` (and `format F`, accepted for the one format drawn today):
/// the target's width and height.
pub(super) fn parse_target(ctx: &Ctx, lines: &Lines, size: &mut [u32; 2]) -> Result<(), CaseError> {
    let mut once = Once::default();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if let Some(key) = toks.first() {
            once.check(ctx, *l, key)?;
        }
        match toks.as_slice() {
            ["size", w, h] => {
                size[0] = ctx.u32(*l, w)?;
                size[1] = ctx.u32(*l, h)?;
                if !(1..=RENDER_TARGET_SIDE).contains(&size[0])
                    || !(1..=RENDER_TARGET_SIDE).contains(&size[1])
                {
                    return Err(ctx.err(
                        *l,
                        format!(
                            "render target size {w}x{h} is outside 1..={RENDER_TARGET_SIDE} (Direct3D 11's limit)"
                        ),
                    ));
                }
                let pixels = u64::from(size[0]) * u64::from(size[1]);
                if pixels > TARGET_PIXELS {
                    return Err(ctx.err(
                        *l,
                        format!(
                            "render target size {w}x{h} is {pixels} pixels; a case may draw at most {TARGET_PIXELS} (4096x4096)"
                        ),
                    ));
                }
            }
            ["format", _] => {}
            _ => return Err(ctx.err(*l, "expected `size W H` or `format F`")),
        }
    }
    Ok(())
}

/// Pixels a case's render target may have. Every target of a draw is this
/// size, held as four 32-bit values a pixel on the emulator and on the GPU
/// (eight targets of 4096x4096 are 2 GiB); D3D's own limit, 16384 a side,
/// would allow 32 GiB.
pub const TARGET_PIXELS: u64 = 4096 * 4096;
