//! `[quad]`: the four corners drawn, and the default full-screen quad.

use super::values::{Ctx, Lines};
use super::{CaseError, Vertex};

/// A full-screen quad at w = 1 with no attributes.
pub fn default_quad() -> Vec<Vertex> {
    [(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .map(|&(x, y)| Vertex {
            position: [x, y, 0.5, 1.0],
            attributes: Vec::new(),
        })
        .collect()
}

/// Input registers a vertex may give values for (D3D11's vertex and pixel
/// shader input register count).
pub const INPUT_REGISTERS: u32 = 32;

/// `vertex X Y Z W [vN a b c d]...`, four lines.
pub(super) fn parse_quad(ctx: &Ctx, lines: &Lines) -> Result<Vec<Vertex>, CaseError> {
    let mut quad = Vec::new();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if toks.first() != Some(&"vertex") || toks.len() < 5 {
            return Err(ctx.err(*l, "expected `vertex X Y Z W [vN a b c d]...`"));
        }
        let mut position = [0.0; 4];
        for i in 0..4 {
            position[i] = ctx.f32(*l, toks[1 + i])?;
        }
        let mut attributes = Vec::new();
        let mut rest = &toks[5..];
        while let Some(reg) = rest.first() {
            let r = reg.strip_prefix('v').ok_or_else(|| {
                ctx.err(
                    *l,
                    format!("expected an input register like v1, found `{reg}`"),
                )
            })?;
            let r = ctx.u32(*l, r)?;
            // D3D11 shaders have 32 input registers; a larger number could
            // never be read, and silently dropping it would hide the typo.
            if r >= INPUT_REGISTERS {
                return Err(ctx.err(*l, format!("{reg} is outside v0..v{}", INPUT_REGISTERS - 1)));
            }
            if attributes.iter().any(|(a, _)| *a == r) {
                return Err(ctx.err(*l, format!("{reg} is given twice")));
            }
            if rest.len() < 5 {
                return Err(ctx.err(*l, format!("{reg} needs four values")));
            }
            attributes.push((r, ctx.lanes4(*l, &rest[1..5])?));
            rest = &rest[5..];
        }
        quad.push(Vertex {
            position,
            attributes,
        });
    }
    if quad.len() != 4 {
        let line = lines.first().map(|(l, _)| *l).unwrap_or(0);
        return Err(ctx.err(
            line,
            format!("a quad has four vertices, found {}", quad.len()),
        ));
    }
    Ok(quad)
}
