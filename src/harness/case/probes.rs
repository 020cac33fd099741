//! `[test]`: probes (a pixel or a rectangle and its expected value) and
//! the golden-image comparison.

use super::values::{Ctx, Lines};
use super::{CaseError, Probe};

pub(super) fn parse_test(
    ctx: &Ctx,
    lines: &Lines,
    probes: &mut Vec<Probe>,
    golden: &mut bool,
) -> Result<(), CaseError> {
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        let probe = match toks.as_slice() {
            ["golden"] => {
                *golden = true;
                continue;
            }
            ["probe", "rect", x, y, w, h, r, g, b, a] => Probe {
                line: *l,
                rect: [
                    ctx.u32(*l, x)?,
                    ctx.u32(*l, y)?,
                    ctx.u32(*l, w)?,
                    ctx.u32(*l, h)?,
                ],
                expected: [
                    ctx.probe_value(*l, r)?,
                    ctx.probe_value(*l, g)?,
                    ctx.probe_value(*l, b)?,
                    ctx.probe_value(*l, a)?,
                ],
            },
            ["probe", x, y, r, g, b, a] => Probe {
                line: *l,
                rect: [ctx.u32(*l, x)?, ctx.u32(*l, y)?, 1, 1],
                expected: [
                    ctx.probe_value(*l, r)?,
                    ctx.probe_value(*l, g)?,
                    ctx.probe_value(*l, b)?,
                    ctx.probe_value(*l, a)?,
                ],
            },
            _ => {
                return Err(ctx.err(
                    *l,
                    "expected `probe X Y r g b a`, `probe rect X Y W H r g b a` or `golden`",
                ));
            }
        };
        probes.push(probe);
    }
    Ok(())
}

/// Every probe lies inside the render target: one outside would compare
/// nothing and pass.
pub(super) fn check_inside(ctx: &Ctx, probes: &[Probe], [w, h]: [u32; 2]) -> Result<(), CaseError> {
    for p in probes {
        let [x, y, pw, ph] = p.rect;
        let inside = pw >= 1
            && ph >= 1
            && u64::from(x) + u64::from(pw) <= u64::from(w)
            && u64::from(y) + u64::from(ph) <= u64::from(h);
        if !inside {
            return Err(ctx.err(
                p.line,
                format!("the probe's pixels ({x},{y}) size {pw}x{ph} are not all inside the {w}x{h} render target"),
            ));
        }
    }
    Ok(())
}
