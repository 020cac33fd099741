//! `[constant buffer N]`: rows of four 32-bit values.

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::dxbc::limits::CONSTANT_BUFFER_ROWS;

/// `row N float|uint|int|hex a b c d` lines.
pub(super) fn parse_rows(ctx: &Ctx, lines: &Lines) -> Result<Vec<[u32; 4]>, CaseError> {
    let mut rows: Vec<[u32; 4]> = Vec::new();
    // Each row is set once; its repeat is keyed by the row's number.
    let mut once = Once::default();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        let (idx, kind, vals) = match toks.as_slice() {
            ["row", i, kind, rest @ ..] => (ctx.u32(*l, i)?, *kind, rest),
            _ => return Err(ctx.err(*l, "expected `row N float|uint|int|hex a b c d`")),
        };
        if vals.len() != 4 {
            return Err(ctx.err(*l, "a row has four values"));
        }
        let mut v = [0u32; 4];
        for (i, t) in vals.iter().enumerate() {
            v[i] = match kind {
                "float" => ctx.f32(*l, t)?.to_bits(),
                "uint" => ctx.u32(*l, t)?,
                "int" => t
                    .parse::<i32>()
                    .map_err(|_| ctx.err(*l, format!("bad integer `{t}`")))?
                    as u32,
                "hex" => ctx.lane(*l, t)?,
                k => return Err(ctx.err(*l, format!("unknown row type `{k}`"))),
            };
        }
        // D3D11 buffers hold at most 4096 16-byte constants; a row past
        // that is a mistake in the case, not something to move to the end.
        if idx >= CONSTANT_BUFFER_ROWS {
            return Err(ctx.err(
                *l,
                format!("row {idx} is outside 0..={}", CONSTANT_BUFFER_ROWS - 1),
            ));
        }
        let idx = idx as usize;
        if rows.len() <= idx {
            rows.resize(idx + 1, [0; 4]);
        }
        once.check(ctx, *l, &format!("row {idx}"))?;
        rows[idx] = v;
    }
    Ok(rows)
}
