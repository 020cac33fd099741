//! `[render target]`: the size of the target the quad is drawn into.

use super::CaseError;
use super::values::{Ctx, Lines};

/// `size W H` (and `format F`, accepted for the one format drawn today):
/// the target's width and height.
pub(super) fn parse_target(ctx: &Ctx, lines: &Lines, size: &mut [u32; 2]) -> Result<(), CaseError> {
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
            _ => return Err(ctx.err(*l, "expected `size W H` or `format F`")),
        }
    }
    Ok(())
}
