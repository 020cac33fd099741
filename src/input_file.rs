//! Reading the files the commands are given (containers, assembly, case
//! files and the shaders they name) under one size limit.
//!
//! No real container comes near the limit (the largest fxc output is a few
//! hundred kilobytes), so a bigger file is a mistake or hostile: it is
//! refused from its size before a byte is read, instead of being read whole
//! into memory first.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest input file read: 64 MiB.
pub const MAX_BYTES: u64 = 64 << 20;

#[derive(Debug)]
pub enum InputError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file is larger than [`MAX_BYTES`]; `size` is what it was found
    /// to hold (at least, when it grew while being read).
    TooLarge { size: u64 },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => write!(f, "cannot read: {e}"),
            InputError::TooLarge { size } => write!(
                f,
                "{size} bytes is over the {} MiB ({MAX_BYTES}-byte) limit on input files",
                MAX_BYTES >> 20
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// Reads `path` whole, refusing a file over [`MAX_BYTES`]. The size is
/// checked before reading, and the read itself stops one byte past the
/// limit, so a file that grows meanwhile, or a pipe whose size is not
/// known up front, cannot get past it either.
pub fn read(path: &Path) -> Result<Vec<u8>, InputError> {
    let file = std::fs::File::open(path).map_err(InputError::Io)?;
    let size = file.metadata().map_err(InputError::Io)?.len();
    if size > MAX_BYTES {
        return Err(InputError::TooLarge { size });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(InputError::Io)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// [`read`], as UTF-8 text; invalid UTF-8 is an `InvalidData` error, as
/// `std::fs::read_to_string` reports it.
pub fn read_to_string(path: &Path) -> Result<String, InputError> {
    String::from_utf8(read(path)?)
        .map_err(|e| InputError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_64_mib() {
        assert_eq!(MAX_BYTES, 64 * 1024 * 1024);
        let e = InputError::TooLarge {
            size: 65 * 1024 * 1024,
        };
        assert_eq!(
            e.to_string(),
            "68157440 bytes is over the 64 MiB (67108864-byte) limit on input files"
        );
    }
}
