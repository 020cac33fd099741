//! `[test]`: probes (a pixel or a rectangle of one image and its expected
//! value) and the golden-image comparison.

use super::values::{Ctx, Lines};
use super::{CaseError, MAX_TARGETS, Probe, ProbeTarget, UavCheck, UavProbe};
use crate::vm::memory::{Buffer, Layout};

const EXPECTED: &str = "expected `probe [target N] [rect] X Y [W H] r g b a`, \
     `probe depth [rect] X Y [W H] D`, `probe uav N E[..F] uint|int|float|hex v...`, \
     `probe uav N counter C` or `golden`";

pub(super) fn parse_test(
    ctx: &Ctx,
    lines: &Lines,
    probes: &mut Vec<Probe>,
    uav_probes: &mut Vec<UavProbe>,
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
            ["probe", "uav", rest @ ..] => {
                uav_probes.push(parse_uav_probe(ctx, l, rest)?);
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

/// `N E[..F] KIND v...` or `N counter C` after `probe uav`.
fn parse_uav_probe(ctx: &Ctx, l: usize, rest: &[&str]) -> Result<UavProbe, CaseError> {
    let (slot, check) = match rest {
        [n, "counter", c] => (ctx.u32(l, n)?, UavCheck::Counter(ctx.u32(l, c)?)),
        [n, range, kind, vals @ ..] if !vals.is_empty() => {
            let (first, last) = match range.split_once("..") {
                Some((a, b)) => (ctx.u32(l, a)?, ctx.u32(l, b)?),
                None => (ctx.u32(l, range)?, ctx.u32(l, range)?),
            };
            if last < first {
                return Err(ctx.err(l, format!("the range {first}..{last} is empty")));
            }
            let words = vals
                .iter()
                .map(|v| super::buffer::word(ctx, l, kind, v))
                .collect::<Result<Vec<u32>, _>>()?;
            (ctx.u32(l, n)?, UavCheck::Elements { first, last, words })
        }
        _ => return Err(ctx.err(l, EXPECTED)),
    };
    Ok(UavProbe {
        line: l,
        slot,
        check,
    })
}

/// Every `probe uav` names a `[uav]` and reads inside it: a probe past the
/// end would compare against nothing the draw could write.
pub(super) fn check_uav_probes(
    ctx: &Ctx,
    probes: &[UavProbe],
    uavs: &[(u32, Buffer)],
) -> Result<(), CaseError> {
    for p in probes {
        let Some((_, b)) = uavs.iter().find(|(s, _)| *s == p.slot) else {
            return Err(ctx.err(p.line, format!("no [uav {}] to probe", p.slot)));
        };
        let UavCheck::Elements { last, words, .. } = &p.check else {
            continue;
        };
        let per = u64::from(b.layout.words_per_element());
        // Raw probes may span words (up to a 4-word window); structured
        // and typed ones stay inside their element.
        let most = if b.layout == Layout::Raw { 4 } else { per };
        if words.len() as u64 > most {
            return Err(ctx.err(
                p.line,
                format!(
                    "{} values, but an element here holds at most {most}",
                    words.len()
                ),
            ));
        }
        let end = u64::from(*last) * per + words.len() as u64;
        if end > b.words.len() as u64 {
            return Err(ctx.err(
                p.line,
                format!(
                    "element {last} (words up to {end}) is past the {}-word [uav {}]",
                    b.words.len(),
                    p.slot
                ),
            ));
        }
    }
    Ok(())
}

/// Words a UAV probe finds wrong in `b` (the UAV after a draw): each
/// failure's message names the element.
pub fn uav_probe_failures(p: &UavProbe, b: &Buffer) -> Vec<String> {
    match &p.check {
        UavCheck::Counter(c) => (b.counter != *c)
            .then(|| format!("counter is {}, expected {c}", b.counter))
            .into_iter()
            .collect(),
        UavCheck::Elements { first, last, words } => {
            let per = b.layout.words_per_element() as usize;
            (*first..=*last)
                .filter_map(|e| {
                    let at = e as usize * per;
                    let got = b.words.get(at..at + words.len())?;
                    (got != words.as_slice())
                        .then(|| format!("element {e} is {}, expected {}", hex(got), hex(words)))
                })
                .collect()
        }
    }
}

fn hex(w: &[u32]) -> String {
    let v: Vec<String> = w.iter().map(|x| format!("0x{x:08x}")).collect();
    v.join(" ")
}
