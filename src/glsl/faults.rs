//! Test-only fault injections that rewrite an instruction before it is
//! lowered (the others sit where their lowering is: `flip_gather_order` in
//! the gather, `skip_border_emulation` and `reverse_pcf_compare` in
//! sampling, `drop_frag_coord_reciprocal` at `SV_Position`). The tests of
//! the differential harness and of `bisect` use them to show a
//! translation mistake is caught, and at which instruction.

use crate::dxbc::ir::{Components, Instruction, Selection};

/// `inst` with its first register source read through a wrong swizzle:
/// every component moved on by one (`.xyzw` → `.yzwx`, `.x` → `.y`), so
/// even a replicated swizzle reads another component.
pub fn wrong_swizzle(inst: &Instruction) -> Instruction {
    let mut out = inst.clone();
    let dsts = inst.info().dst as usize;
    let next = |c: u8| (c + 1) & 3;
    if let Some(op) = out
        .operands
        .iter_mut()
        .skip(dsts)
        .find(|o| !o.is_immediate() && o.components == Components::Four)
    {
        op.selection = match op.selection {
            Selection::Swizzle(s) => Selection::Swizzle(s.map(next)),
            Selection::Select1(c) => Selection::Select1(next(c)),
            Selection::Mask(_) | Selection::None => Selection::Swizzle([1, 2, 3, 0]),
        };
    }
    out
}
