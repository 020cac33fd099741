//! [`Lanes`]: an operand's immediate dwords, at most four.
//!
//! An immediate fills at most the four 32-bit components of a register, so
//! a fixed array holds every one. Unlike a small vector it never checks for
//! a heap spill when built or dropped, and owns no heap memory, which keeps
//! building and dropping every operand of a program cheap. It reads as a
//! `[u32]` (through `Deref`), so code written against a slice or a small
//! vector of lanes reads it unchanged.

use std::ops::{Deref, DerefMut};

/// Immediate dwords in stream order; see [`super::ir::Operand::imm`].
#[derive(Clone, Copy, Default)]
pub struct Lanes {
    words: [u32; 4],
    len: u8,
}

impl Lanes {
    /// The most lanes an operand holds: four 32-bit components.
    pub const CAPACITY: usize = 4;

    /// Lanes holding `words`, or None past [`Lanes::CAPACITY`].
    pub fn from_slice(words: &[u32]) -> Option<Lanes> {
        let mut l = Lanes::default();
        l.words.get_mut(..words.len())?.copy_from_slice(words);
        l.len = words.len() as u8;
        Some(l)
    }

    /// Appends one lane. Callers add at most [`Lanes::CAPACITY`] (the
    /// decoder and assembler check the count first); a fifth is a bug in
    /// the caller, not bad input.
    pub fn push(&mut self, w: u32) {
        assert!(
            (self.len as usize) < Self::CAPACITY,
            "an immediate holds at most four lanes"
        );
        self.words[self.len as usize] = w;
        self.len += 1;
    }
}

impl Deref for Lanes {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.words[..self.len as usize]
    }
}

impl DerefMut for Lanes {
    fn deref_mut(&mut self) -> &mut [u32] {
        &mut self.words[..self.len as usize]
    }
}

/// Equal when the lanes in use are; unused slots never count.
impl PartialEq for Lanes {
    fn eq(&self, other: &Lanes) -> bool {
        **self == **other
    }
}

impl Eq for Lanes {}

/// Printed as the list of lanes in use, as a vector would print.
impl std::fmt::Debug for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_up_to_four_lanes() {
        let l = Lanes::from_slice(&[1, 2, 3]).unwrap();
        assert_eq!(&l[..], &[1, 2, 3]);
        assert_eq!(format!("{l:?}"), "[1, 2, 3]");
        assert!(Lanes::from_slice(&[0; 5]).is_none());
        let mut p = Lanes::default();
        p.push(1);
        p.push(2);
        p.push(3);
        assert_eq!(p, Lanes::from_slice(&[1, 2, 3]).unwrap());
        assert_ne!(p, Lanes::from_slice(&[1, 2]).unwrap());
        assert!(Lanes::default().is_empty());
    }
}
