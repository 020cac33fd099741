//! Bounds-checked little-endian reading. Every read names what it was reading
//! so truncation errors say which structure ran out of bytes.

use super::error::{DxbcError, Result};

/// A cursor over a byte slice that knows the slice's absolute offset in the
/// container, so errors report container offsets rather than chunk offsets.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    base: usize,
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Reader { data, base, pos: 0 }
    }

    /// Absolute offset of the cursor.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    pub fn base(&self) -> usize {
        self.base
    }

    /// Moves to `pos` (relative to the slice start); errors if past the end.
    pub fn seek(&mut self, pos: usize, what: &'static str) -> Result<()> {
        if pos > self.data.len() {
            return Err(DxbcError::Truncated {
                offset: self.base + self.data.len(),
                what,
                need: pos - self.data.len(),
                have: 0,
            });
        }
        self.pos = pos;
        Ok(())
    }

    /// Fails unless `n` more bytes are available.
    #[inline]
    pub fn need(&self, n: usize, what: &'static str) -> Result<()> {
        if n > self.remaining() {
            Err(DxbcError::Truncated {
                offset: self.offset(),
                what,
                need: n,
                have: self.remaining(),
            })
        } else {
            Ok(())
        }
    }

    /// Checks that `count` items of `item_size` bytes fit in what remains,
    /// before anything is allocated for them.
    pub fn need_items(&self, count: usize, item_size: usize, what: &'static str) -> Result<()> {
        match count.checked_mul(item_size) {
            Some(n) => self.need(n, what),
            None => Err(DxbcError::Truncated {
                offset: self.offset(),
                what,
                need: usize::MAX,
                have: self.remaining(),
            }),
        }
    }

    #[inline]
    pub fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        self.need(n, what)?;
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    pub fn u8(&mut self, what: &'static str) -> Result<u8> {
        Ok(self.bytes(1, what)?[0])
    }

    #[inline]
    pub fn u16(&mut self, what: &'static str) -> Result<u16> {
        let b = self.bytes(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    #[inline]
    pub fn u32(&mut self, what: &'static str) -> Result<u32> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    #[inline]
    pub fn fourcc(&mut self, what: &'static str) -> Result<[u8; 4]> {
        let b = self.bytes(4, what)?;
        Ok([b[0], b[1], b[2], b[3]])
    }

    /// Reads a NUL-terminated string at `pos` (relative to the slice start)
    /// without moving the cursor. Non-UTF-8 bytes are replaced, never fatal.
    pub fn cstr_at(&self, pos: usize, what: &'static str) -> Result<String> {
        if pos >= self.data.len() {
            return Err(DxbcError::malformed(
                self.base + pos.min(self.data.len()),
                format!(
                    "{what}: string offset {pos} lies outside its chunk of {} bytes",
                    self.data.len()
                ),
            ));
        }
        let tail = &self.data[pos..];
        let end = tail.iter().position(|&b| b == 0).ok_or_else(|| {
            DxbcError::malformed(
                self.base + pos,
                format!("{what}: string is not NUL-terminated"),
            )
        })?;
        let bytes = &tail[..end];
        // Names are almost always valid UTF-8; `from_utf8_lossy` would
        // walk them chunk by chunk before copying.
        Ok(match std::str::from_utf8(bytes) {
            Ok(s) => s.to_owned(),
            Err(_) => String::from_utf8_lossy(bytes).into_owned(),
        })
    }
}

/// Reads little-endian u32 words from a byte slice into a vector. The slice
/// length must be a multiple of four.
pub fn words(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
