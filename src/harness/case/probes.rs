//! `[test]`: probes (a pixel or a rectangle of one image and its expected
//! value) and the golden-image comparison.

use super::values::{Ctx, Lines};
use super::{CaseError, MAX_TARGETS, Probe, ProbeTarget};

const EXPECTED: &str = "expected `probe [target N] [rect] X Y [W H] r g b a`, \
     `probe depth [rect] X Y [W H] D` or `golden`";

pub(super) fn parse_test(
    ctx: &Ctx,
    lines: &Lines,
    probes: &mut Vec<Probe>,
    golden: &mut bool,
) -> Result<(), CaseError> {
    for (l, t) in lines {
        let l = *l;
        let toks: Vec<&str> = t.split_whitespace().collect();
        let rest = match toks.as_slice() {
            ["golden"] => {
                *golden = true;
                continue;
            }
            ["probe", rest @ ..] => rest,
            _ => return Err(ctx.err(l, EXPECTED)),
        };
        // Which image: `target N` (SV_TargetN; 0 when not given) or `depth`.
        let (target, rest) = match rest {
            ["target", n, rest @ ..] => {
                let n = ctx.u32(l, n)?;
                if n >= MAX_TARGETS {
                    return Err(ctx.err(
                        l,
                        format!("render target {n} is outside 0..={}", MAX_TARGETS - 1),
                    ));
                }
                (ProbeTarget::Color(n), rest)
            }
            ["depth", rest @ ..] => (ProbeTarget::Depth, rest),
            _ => (ProbeTarget::Color(0), rest),
        };
        let (rect, values) = match rest {
            ["rect", x, y, w, h, values @ ..] => (
                [
                    ctx.u32(l, x)?,
                    ctx.u32(l, y)?,
                    ctx.u32(l, w)?,
                    ctx.u32(l, h)?,
                ],
                values,
            ),
            [x, y, values @ ..] => ([ctx.u32(l, x)?, ctx.u32(l, y)?, 1, 1], values),
            _ => return Err(ctx.err(l, EXPECTED)),
        };
        let expected = match (target, values) {
            (ProbeTarget::Depth, [d]) => [ctx.probe_value(l, d)?, 0.0, 0.0, 0.0],
            (ProbeTarget::Color(_), [r, g, b, a]) => [
                ctx.probe_value(l, r)?,
                ctx.probe_value(l, g)?,
                ctx.probe_value(l, b)?,
                ctx.probe_value(l, a)?,
            ],
            _ => return Err(ctx.err(l, EXPECTED)),
        };
        probes.push(Probe {
            line: l,
            target,
            rect,
            expected,
        });
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
