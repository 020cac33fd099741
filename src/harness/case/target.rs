//! `[render target]`: the size of the target the quad is drawn into and
//! its sample count.

use super::CaseError;
use super::values::{Ctx, Lines};

/// `size W H` (and `format F`, accepted for the one format drawn today):
/// the target's width and height; `samples N` (1, 2, 4, 8 or 16; default
/// 1): its sample count; a multisampled target is drawn with coverage per
/// sample at D3D's standard positions and compared after a resolve
/// (docs/cases.md).
pub(super) fn parse_target(
    ctx: &Ctx,
    lines: &Lines,
    size: &mut [u32; 2],
    samples: &mut u32,
) -> Result<(), CaseError> {
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        match toks.as_slice() {
            ["size", w, h] => {
                size[0] = ctx.u32(*l, w)?;
                size[1] = ctx.u32(*l, h)?;
                if !(1..=4096).contains(&size[0]) || !(1..=4096).contains(&size[1]) {
                    return Err(ctx.err(
                        *l,
                        format!("render target size {w}x{h} is outside 1..=4096"),
                    ));
                }
            }
            ["format", _] => {}
            ["samples", n] => *samples = super::texture::sample_count(ctx, *l, n)?,
            _ => return Err(ctx.err(*l, "expected `size W H`, `format F` or `samples N`")),
        }
    }
    Ok(())
}
