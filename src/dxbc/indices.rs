//! [`Indices`]: an operand's indices, which drop for free in the common case.
//!
//! Only a relative index (`r0[r1.x]`, `cb0[r2.y + 3]`) owns heap memory: its
//! register operand is boxed. Almost every operand of a real program has
//! immediate indices only, yet a plain small vector of [`Index`] would look
//! at every index of every operand when a program is dropped, to find boxes
//! that are not there; that walk was about a sixth of decoding a shader and
//! dropping it. `Indices` remembers whether it may own heap memory (a
//! relative index was stored, or it outgrew its inline room), and its drop
//! is one test of that flag otherwise.
//!
//! It reads as a `[Index]` (through `Deref`) and offers the small vector's
//! `push` and `pop`, so code written against the vector reads it unchanged.

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use smallvec::SmallVec;

use super::ir::Index;

/// An operand's indices in the order the token lists them.
#[derive(Default)]
pub struct Indices {
    /// Two inline: all but a few operands (SM5.1 resource ranges and
    /// constant buffers) have one or two; a third spills. Three inline
    /// made every operand (and so every instruction) a fifth larger, for
    /// no measurable gain.
    items: ManuallyDrop<SmallVec<[Index; 2]>>,
    /// True once `items` may own heap memory: a relative index (a boxed
    /// operand) was stored, the indices spilled to the heap, or a caller
    /// took a `&mut [Index]`, through which anything may have been written.
    /// Never cleared while `items` holds anything; only when it is false is
    /// dropping `items` skipped.
    owns: bool,
}

impl Indices {
    pub fn new() -> Indices {
        Indices::default()
    }

    /// Appends one index.
    ///
    /// Written straight into its slot: a vector's `push` built the index
    /// on the stack first, with narrow stores that the wide copy into the
    /// slot then waited on (a stall on nearly every operand decoded).
    #[inline(always)]
    pub fn push(&mut self, index: Index) {
        if !matches!(index, Index::Imm32(_) | Index::Imm64(_)) {
            self.owns = true;
        }
        if self.items.len() == self.items.capacity() {
            self.items.reserve(1);
            // Spilled: the heap block is the drop's to free.
            self.owns = true;
        }
        let n = self.items.len();
        // SAFETY: there is room for one more (reserved above); the slot at
        // `n` is written before the length takes it in.
        unsafe {
            self.items.as_mut_ptr().add(n).write(index);
            self.items.set_len(n + 1);
        }
    }

    /// Appends an `Imm32` index, the commonest, written field by field
    /// into its slot (see `decode_operand_into`).
    #[inline(always)]
    pub(in crate::dxbc) fn push_imm32(&mut self, v: u32) {
        if self.items.len() == self.items.capacity() {
            self.items.reserve(1);
            self.owns = true;
        }
        let n = self.items.len();
        // SAFETY: as in `push`.
        unsafe {
            self.items.as_mut_ptr().add(n).write(Index::Imm32(v));
            self.items.set_len(n + 1);
        }
    }

    /// Removes and returns the last index.
    pub fn pop(&mut self) -> Option<Index> {
        self.items.pop()
    }

    pub fn as_slice(&self) -> &[Index] {
        &self.items
    }

    /// Whether these indices may own heap memory (the `owns` flag),
    /// which decides whether the operand holding them must be dropped.
    pub(in crate::dxbc) fn owns_heap(&self) -> bool {
        self.owns
    }
}

impl Drop for Indices {
    #[inline]
    fn drop(&mut self) {
        if self.owns {
            // SAFETY: `items` is dropped here once and never used again.
            unsafe { ManuallyDrop::drop(&mut self.items) }
        }
        // Otherwise `items` holds immediate indices only, inline: nothing
        // in it owns memory, so skipping its drop frees nothing late.
    }
}

impl Clone for Indices {
    fn clone(&self) -> Indices {
        Indices {
            items: self.items.clone(),
            owns: self.owns,
        }
    }
}

impl Deref for Indices {
    type Target = [Index];
    #[inline]
    fn deref(&self) -> &[Index] {
        &self.items
    }
}

impl DerefMut for Indices {
    fn deref_mut(&mut self) -> &mut [Index] {
        // What the caller writes is not seen, so assume the worst.
        self.owns = true;
        &mut self.items
    }
}

/// Collected through [`Indices::push`], so the flag sees every index.
impl FromIterator<Index> for Indices {
    fn from_iter<I: IntoIterator<Item = Index>>(iter: I) -> Indices {
        let mut indices = Indices::new();
        for index in iter {
            indices.push(index);
        }
        indices
    }
}

impl PartialEq for Indices {
    fn eq(&self, other: &Indices) -> bool {
        **self == **other
    }
}

/// Printed as the list of indices, as a vector would print.
impl std::fmt::Debug for Indices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Indices {
    type Item = &'a Index;
    type IntoIter = std::slice::Iter<'a, Index>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::ir::{Operand, OperandType};

    fn relative() -> Index {
        Index::Imm32Relative(
            3,
            Box::new(Operand {
                ty: OperandType::TEMP,
                ..Operand::default()
            }),
        )
    }

    #[test]
    fn immediate_indices_own_nothing() {
        let mut i = Indices::new();
        i.push(Index::Imm32(1));
        i.push(Index::Imm64(2));
        assert!(!i.owns);
        assert_eq!(i.as_slice(), &[Index::Imm32(1), Index::Imm64(2)]);
        assert_eq!(format!("{i:?}"), "[Imm32(1), Imm64(2)]");
        assert_eq!(i.pop(), Some(Index::Imm64(2)));
        assert!(!i.owns);
    }

    #[test]
    fn relative_spilled_or_written_indices_are_freed() {
        // Each of these owns heap memory that only the flag makes the drop
        // free; run under a leak checker, a missed case shows as a leak.
        let mut rel = Indices::new();
        rel.push(Index::Imm32(0));
        rel.push(relative());
        assert!(rel.owns);
        let copy = rel.clone();
        assert!(copy.owns && copy == rel);

        let mut spilled = Indices::new();
        for v in 0..5 {
            spilled.push(Index::Imm32(v));
        }
        assert!(spilled.owns);
        assert_eq!(spilled.pop(), Some(Index::Imm32(4)));
        assert_eq!(spilled.len(), 4);

        let mut written = Indices::new();
        written.push(Index::Imm32(0));
        written[0] = relative();
        assert!(written.owns);
        assert_eq!(written[0].imm(), Some(3));
    }
}
