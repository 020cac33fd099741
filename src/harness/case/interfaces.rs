//! `[interfaces]`: the class instance bound to each interface slot, as an
//! application passes them to `PSSetShader`/`VSSetShader`: which of the
//! slot's function tables it uses, and its instance data (`this[slot]`).

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::dxbc::limits::{
    CONSTANT_BUFFER_ROWS, CONSTANT_BUFFER_SLOTS, INTERFACE_SLOTS, SAMPLER_SLOTS,
    SHADER_RESOURCE_SLOTS,
};
use crate::vm::interfaces::Bindings;

/// Where each slot's settings were made, for the checks against the
/// shaders' declarations (`bindings.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterfaceLine {
    pub line: usize,
    pub slot: u32,
    /// `slot N table T` (the table position) or `this N …`.
    pub table: Option<u32>,
    /// The instance's constant buffer, for `this` lines.
    pub constant_buffer: Option<u32>,
}

const SYNTAX: &str = "expected `slot N table T` or `this N CB ROW TEXTURE SAMPLER`";

/// `slot N table T` and `this N CB ROW TEXTURE SAMPLER` lines.
pub(super) fn parse_interfaces(
    ctx: &Ctx,
    lines: &Lines,
) -> Result<(Bindings, Vec<InterfaceLine>), CaseError> {
    let mut bindings = Bindings::default();
    let mut out = Vec::new();
    let mut once = Once::default();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        // A value within 0..limit, named for the message.
        let bounded = |tok: &str, limit: u32, what: &str| -> Result<u32, CaseError> {
            let v = ctx.u32(*l, tok)?;
            if v >= limit {
                return Err(ctx.err(*l, format!("{what} {v} is outside 0..={}", limit - 1)));
            }
            Ok(v)
        };
        let slot_of = |tok: &str| bounded(tok, INTERFACE_SLOTS, "interface slot");
        match toks.as_slice() {
            ["slot", n, "table", t] => {
                let slot = slot_of(n)?;
                once.check(ctx, *l, &format!("slot {slot}"))?;
                // Checked against the slot's `dcl_interface` list once the
                // shaders are assembled.
                let table = ctx.u32(*l, t)?;
                bindings.entry(slot).table = table;
                out.push(InterfaceLine {
                    line: *l,
                    slot,
                    table: Some(table),
                    constant_buffer: None,
                });
            }
            ["this", n, cb, row, tex, smp] => {
                let slot = slot_of(n)?;
                once.check(ctx, *l, &format!("this {slot}"))?;
                let this = [
                    bounded(cb, CONSTANT_BUFFER_SLOTS, "constant buffer")?,
                    bounded(row, CONSTANT_BUFFER_ROWS, "row")?,
                    bounded(tex, SHADER_RESOURCE_SLOTS, "texture")?,
                    bounded(smp, SAMPLER_SLOTS, "sampler")?,
                ];
                bindings.entry(slot).this = this;
                out.push(InterfaceLine {
                    line: *l,
                    slot,
                    table: None,
                    constant_buffer: Some(this[0]),
                });
            }
            _ => return Err(ctx.err(*l, SYNTAX)),
        }
    }
    Ok((bindings, out))
}
