//! [`Operands`]: an instruction's operands, which drop for free in the
//! common case.
//!
//! An operand owns heap memory only through a relative index (see
//! [`super::indices`]). Dropping a program used to visit every operand of
//! every instruction to ask it so; `Operands` keeps the answer for all of
//! them at once (a flag set when an operand that owns memory is stored, or
//! the operands spill to the heap), so dropping the usual instruction skips
//! its operands altogether.
//!
//! It reads as a `[Operand]` (through `Deref`) and offers the small vector's
//! `push`, `extend` and `reserve_exact`, so code written against the vector
//! reads it unchanged.

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use smallvec::SmallVec;

use super::ir::Operand;

/// An instruction's operands, in stream order.
#[derive(Default)]
pub struct Operands {
    /// Four inline: `mad` and the plain `sample` forms have four, and with
    /// three each of them allocated (decoding the corpus took a tenth
    /// longer). Five gained nothing measurable for a larger instruction;
    /// the rarer sampling forms with more spill to the heap.
    items: ManuallyDrop<SmallVec<[Operand; 4]>>,
    /// True once `items` may own heap memory: an operand that owns some was
    /// stored, the operands spilled to the heap, or a caller took a `&mut`
    /// to them, through which anything may have been written. Never
    /// cleared while `items` holds anything; only when it is false is
    /// dropping `items` skipped.
    owns: bool,
}

impl Operands {
    pub fn new() -> Operands {
        Operands::default()
    }

    /// How many operands fit without a heap allocation.
    pub fn inline_size(&self) -> usize {
        self.items.inline_size()
    }

    /// Makes room for `additional` more operands, exactly (see
    /// `SmallVec::reserve_exact`).
    pub fn reserve_exact(&mut self, additional: usize) {
        self.items.reserve_exact(additional);
        self.owns |= self.items.spilled();
    }

    /// Appends one operand.
    pub fn push(&mut self, op: Operand) {
        self.owns |= op.indices.owns_heap() || self.items.len() == self.items.inline_size();
        self.items.push(op);
    }

    /// Appends a blank operand, written in place (not moved from the
    /// caller's stack, which for an operand this size costs more than
    /// writing it), and returns it for the decoder to fill.
    /// [`Operands::settle_last`] must follow once it is filled.
    pub(in crate::dxbc) fn push_blank(&mut self) -> &mut Operand {
        if self.items.len() == self.items.capacity() {
            self.items.reserve(1);
            self.owns |= self.items.spilled();
        }
        let n = self.items.len();
        // SAFETY: there is room for one more (reserved above); every field
        // of the slot at `n` is written before the length takes it in.
        unsafe {
            let p = self.items.as_mut_ptr().add(n);
            // Field by field: writing `Operand::default()` whole copied it
            // from a stack temporary, reading the indices' unused inline
            // room back wider than it had been written (a stall on every
            // operand decoded).
            let Operand {
                ty,
                components,
                selection,
                indices,
                modifier,
                min_precision,
                nonuniform,
                extended,
                imm,
            } = Operand::default();
            std::ptr::addr_of_mut!((*p).ty).write(ty);
            std::ptr::addr_of_mut!((*p).components).write(components);
            std::ptr::addr_of_mut!((*p).selection).write(selection);
            std::ptr::addr_of_mut!((*p).indices).write(indices);
            std::ptr::addr_of_mut!((*p).modifier).write(modifier);
            std::ptr::addr_of_mut!((*p).min_precision).write(min_precision);
            std::ptr::addr_of_mut!((*p).nonuniform).write(nonuniform);
            std::ptr::addr_of_mut!((*p).extended).write(extended);
            std::ptr::addr_of_mut!((*p).imm).write(imm);
            self.items.set_len(n + 1);
            &mut *p
        }
    }

    /// Records whether the operand [`Operands::push_blank`] handed out owns
    /// heap memory now that it is filled.
    pub(in crate::dxbc) fn settle_last(&mut self) {
        self.owns |= self.items.last().is_some_and(|o| o.indices.owns_heap());
    }
}

impl Drop for Operands {
    #[inline]
    fn drop(&mut self) {
        if self.owns {
            // SAFETY: `items` is dropped here once and never used again.
            unsafe { ManuallyDrop::drop(&mut self.items) }
        }
        // Otherwise every operand is inline and owns nothing: skipping
        // their drops frees nothing late.
    }
}

impl Clone for Operands {
    fn clone(&self) -> Operands {
        Operands {
            items: self.items.clone(),
            owns: self.owns,
        }
    }
}

impl Deref for Operands {
    type Target = [Operand];
    #[inline]
    fn deref(&self) -> &[Operand] {
        &self.items
    }
}

impl DerefMut for Operands {
    fn deref_mut(&mut self) -> &mut [Operand] {
        // What the caller writes is not seen, so assume the worst.
        self.owns = true;
        &mut self.items
    }
}

impl Extend<Operand> for Operands {
    fn extend<I: IntoIterator<Item = Operand>>(&mut self, iter: I) {
        for op in iter {
            self.push(op);
        }
    }
}

impl PartialEq for Operands {
    fn eq(&self, other: &Operands) -> bool {
        **self == **other
    }
}

/// Printed as the list of operands, as a vector would print.
impl std::fmt::Debug for Operands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Operands {
    type Item = &'a Operand;
    type IntoIter = std::slice::Iter<'a, Operand>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::ir::{Index, OperandType};

    fn temp(indices: &[Index]) -> Operand {
        let mut op = Operand {
            ty: OperandType::TEMP,
            ..Operand::default()
        };
        for i in indices {
            op.indices.push(i.clone());
        }
        op
    }

    #[test]
    fn plain_operands_own_nothing() {
        let mut ops = Operands::new();
        ops.push(temp(&[Index::Imm32(0)]));
        ops.extend([temp(&[Index::Imm32(1)]), temp(&[Index::Imm32(2)])]);
        assert!(!ops.owns);
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[2].reg(), Some(2));
        let blank = ops.clone();
        assert!(!blank.owns && blank == ops);
    }

    #[test]
    fn owning_spilled_or_written_operands_are_freed() {
        // Each of these owns heap memory that only the flag makes the drop
        // free; run under a leak checker, a missed case shows as a leak.
        let rel = Index::Relative(Box::new(temp(&[Index::Imm32(5)])));
        let mut owning = Operands::new();
        owning.push(temp(&[Index::Imm32(0), rel.clone()]));
        assert!(owning.owns);

        let mut filled = Operands::new();
        filled.push_blank().indices.push(rel);
        assert!(!filled.owns, "not yet settled");
        filled.settle_last();
        assert!(filled.owns);

        let mut spilled = Operands::new();
        spilled.reserve_exact(5);
        assert!(spilled.owns);
        let mut grown = Operands::new();
        for r in 0..5 {
            grown.push(temp(&[Index::Imm32(r)]));
        }
        assert!(grown.owns);

        let mut written = Operands::new();
        written.push(Operand::default());
        written[0] = temp(&[Index::Imm32(1)]);
        assert!(written.owns);
    }
}
