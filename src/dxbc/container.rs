//! The DXBC container: a fixed header, a table of chunk offsets, and chunks
//! (FourCC + size + data). Only the layout is checked here; each chunk's
//! contents are parsed by its own module.

use super::checksum::{dxbc_checksum, format_checksum};
use super::error::{DxbcError, Result};
use super::reader::Reader;

/// Size of the fixed container header: magic, hash, version, size, count.
pub const HEADER_SIZE: usize = 32;

/// One chunk of a container. `data` excludes the 8-byte chunk header, and
/// `offset` is the absolute offset of `data[0]`, so parsers can report
/// container offsets by using it as their reader base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    pub fourcc: [u8; 4],
    pub offset: usize,
    pub data: &'a [u8],
}

impl<'a> Chunk<'a> {
    /// The FourCC as text; non-printable bytes are escaped so a corrupted
    /// FourCC still prints as something a user can match against a dump.
    pub fn name(&self) -> String {
        fourcc_name(&self.fourcc)
    }

    /// A reader over the chunk data whose offsets are container offsets.
    pub fn reader(&self) -> Reader<'a> {
        Reader::new(self.data, self.offset)
    }

    /// Absolute offset of this chunk's 8-byte header.
    pub fn header_offset(&self) -> usize {
        self.offset - 8
    }
}

pub fn fourcc_name(fourcc: &[u8; 4]) -> String {
    fourcc
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                (b as char).to_string()
            } else {
                format!("\\x{b:02x}")
            }
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container<'a> {
    /// The hash as stored at offset 4 (not the recomputed one).
    pub checksum: [u32; 4],
    /// (major, minor) from offset 20; fxc always writes (1, 0).
    pub version: (u16, u16),
    pub total_size: u32,
    pub chunks: Vec<Chunk<'a>>,
}

impl<'a> Container<'a> {
    /// Parses the container layout. With `verify_checksum`, a hash mismatch
    /// is an error (`DxbcError::Checksum`); otherwise it is ignored so that
    /// edited blobs can still be inspected.
    pub fn parse(bytes: &'a [u8], verify_checksum: bool) -> Result<Container<'a>> {
        let mut r = Reader::new(bytes, 0);
        let magic = r.fourcc("container magic")?;
        if &magic != b"DXBC" {
            return Err(DxbcError::malformed(
                0,
                format!(
                    "not a DXBC container: magic is \"{}\", expected \"DXBC\"",
                    fourcc_name(&magic)
                ),
            ));
        }
        let mut checksum = [0u32; 4];
        for word in &mut checksum {
            *word = r.u32("container checksum")?;
        }
        let major = r.u16("container version")?;
        let minor = r.u16("container version")?;
        if major != 1 {
            return Err(DxbcError::malformed(
                20,
                format!("unsupported container version {major}.{minor} (expected 1.0)"),
            ));
        }
        let total_size = r.u32("container size")?;
        if total_size as usize != bytes.len() {
            return Err(DxbcError::malformed(
                24,
                format!(
                    "container size field says {total_size} bytes but the input is {} bytes",
                    bytes.len()
                ),
            ));
        }
        let count = r.u32("chunk count")? as usize;
        r.need_items(count, 4, "chunk offset table")?;

        if verify_checksum {
            let computed = dxbc_checksum(bytes);
            if computed != checksum {
                return Err(DxbcError::Checksum {
                    stored: format_checksum(&checksum),
                    computed: format_checksum(&computed),
                });
            }
        }

        let table_end = HEADER_SIZE + count * 4;
        let mut chunks = Vec::with_capacity(count);
        for i in 0..count {
            let entry_at = r.offset();
            let start = r.u32("chunk offset")? as usize;
            if start < table_end {
                return Err(DxbcError::malformed(
                    entry_at,
                    format!(
                        "chunk {i} offset {start} points into the container header (which ends at {table_end})"
                    ),
                ));
            }
            let mut c = Reader::new(bytes, 0);
            c.seek(start, "chunk header")?;
            let fourcc = c.fourcc("chunk header")?;
            let size = c.u32("chunk header")? as usize;
            let data_at = c.offset();
            let data = c.bytes(size, "chunk data").map_err(|e| match e {
                DxbcError::Truncated { have, .. } => DxbcError::Truncated {
                    offset: data_at,
                    what: "chunk data",
                    need: size,
                    have,
                },
                other => other,
            })?;
            chunks.push(Chunk {
                fourcc,
                offset: data_at,
                data,
            });
        }
        Ok(Container {
            checksum,
            version: (major, minor),
            total_size,
            chunks,
        })
    }

    /// The first chunk with this FourCC.
    pub fn find(&self, fourcc: &[u8; 4]) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| &c.fourcc == fourcc)
    }

    /// The shader program: SHEX (SM5) or SHDR (SM4).
    pub fn program_chunk(&self) -> Option<&Chunk<'a>> {
        self.chunks
            .iter()
            .find(|c| &c.fourcc == b"SHEX" || &c.fourcc == b"SHDR")
    }

    /// True for Direct3D effect containers (an `FX10` chunk) and for the
    /// effect expression blobs fxc embeds in them (`FXLC`/`CLI4` without a
    /// program). Those are not shaders; callers should report
    /// [`Container::effect_error`] rather than "no program chunk".
    pub fn is_effect(&self) -> bool {
        self.effect_chunk().is_some()
    }

    fn effect_chunk(&self) -> Option<&Chunk<'a>> {
        if let Some(fx) = self.find(b"FX10") {
            return Some(fx);
        }
        if self.program_chunk().is_none() {
            return self
                .chunks
                .iter()
                .find(|c| &c.fourcc == b"FXLC" || &c.fourcc == b"CLI4");
        }
        None
    }

    /// `DxbcError::Effect` naming the chunk that marks this as an effect.
    pub fn effect_error(&self) -> Option<DxbcError> {
        self.effect_chunk().map(|c| DxbcError::Effect {
            offset: c.header_offset(),
        })
    }

    /// The program chunk, or the error a shader tool should report: an
    /// effect container, or a container with no program at all.
    pub fn require_program(&self) -> Result<&Chunk<'a>> {
        if let Some(e) = self.effect_error() {
            return Err(e);
        }
        self.program_chunk().ok_or_else(|| {
            DxbcError::malformed(
                28,
                format!(
                    "container has no SHEX or SHDR program chunk (chunks: {})",
                    self.chunk_names().join(",")
                ),
            )
        })
    }

    pub fn chunk_names(&self) -> Vec<String> {
        self.chunks.iter().map(Chunk::name).collect()
    }
}

/// Builds a container from chunks, with a correct size and hash. Used by
/// tests here and elsewhere to make small well-formed (or deliberately
/// broken) inputs.
pub fn build_container(chunks: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let table_end = HEADER_SIZE + 4 * chunks.len();
    let mut out = vec![0u8; table_end];
    out[..4].copy_from_slice(b"DXBC");
    out[20..24].copy_from_slice(&1u32.to_le_bytes());
    out[28..32].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
    for (i, (fourcc, data)) in chunks.iter().enumerate() {
        let at = out.len() as u32;
        out[32 + 4 * i..36 + 4 * i].copy_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&fourcc[..]);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    let hash = dxbc_checksum(&out);
    for (i, w) in hash.iter().enumerate() {
        out[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        build_container(&[
            (b"RDEF", &[1, 2, 3, 4]),
            (b"SHEX", &[0x50, 0, 5, 0, 2, 0, 0, 0]),
        ])
    }

    #[test]
    fn parses_a_built_container() {
        let bytes = sample();
        let c = Container::parse(&bytes, true).unwrap();
        assert_eq!(c.version, (1, 0));
        assert_eq!(c.total_size as usize, bytes.len());
        assert_eq!(c.chunk_names(), vec!["RDEF", "SHEX"]);
        let rdef = c.find(b"RDEF").unwrap();
        assert_eq!(rdef.data, &[1, 2, 3, 4]);
        assert_eq!(rdef.offset, 40 + 8);
        assert_eq!(&bytes[rdef.offset..rdef.offset + 4], rdef.data);
        assert_eq!(c.program_chunk().unwrap().name(), "SHEX");
        assert!(!c.is_effect());
        assert!(c.require_program().is_ok());
    }

    #[test]
    fn bad_magic_names_offset_zero() {
        let mut bytes = sample();
        bytes[0] = b'X';
        let e = Container::parse(&bytes, false).unwrap_err();
        assert_eq!(e.offset(), 0);
    }

    #[test]
    fn size_mismatch_names_offset_24() {
        let mut bytes = sample();
        bytes.push(0);
        let e = Container::parse(&bytes, false).unwrap_err();
        assert_eq!(e.offset(), 24);
        assert!(e.to_string().contains("size"), "{e}");
    }

    #[test]
    fn checksum_mismatch_only_when_verifying() {
        let mut bytes = sample();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        assert!(matches!(
            Container::parse(&bytes, true),
            Err(DxbcError::Checksum { .. })
        ));
        assert!(Container::parse(&bytes, false).is_ok());
    }

    #[test]
    fn huge_chunk_count_is_rejected_before_allocating() {
        let mut bytes = sample();
        bytes[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = Container::parse(&bytes, false).unwrap_err();
        assert!(
            matches!(e, DxbcError::Truncated { offset: 32, .. }),
            "{e:?}"
        );
    }

    #[test]
    fn chunk_running_past_the_end_is_truncated() {
        let mut bytes = sample();
        // Second chunk's size field: make it claim more than remains.
        let second = u32::from_le_bytes(bytes[36..40].try_into().unwrap()) as usize;
        bytes[second + 4..second + 8].copy_from_slice(&1000u32.to_le_bytes());
        let e = Container::parse(&bytes, false).unwrap_err();
        assert!(
            matches!(e, DxbcError::Truncated { offset, .. } if offset == second + 8),
            "{e:?}"
        );
    }

    #[test]
    fn chunk_offset_into_header_is_malformed() {
        let mut bytes = sample();
        bytes[32..36].copy_from_slice(&4u32.to_le_bytes());
        let e = Container::parse(&bytes, false).unwrap_err();
        assert_eq!(e.offset(), 32);
        bytes[32..36].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Container::parse(&bytes, false).is_err());
    }

    #[test]
    fn effects_are_recognised() {
        let fx = build_container(&[(b"FX10", &[0u8; 16])]);
        let c = Container::parse(&fx, true).unwrap();
        assert!(c.is_effect());
        let e = c.require_program().unwrap_err();
        assert!(matches!(e, DxbcError::Effect { offset: 36 }), "{e:?}");
        let expr = build_container(&[
            (b"CTAB", &[0u8; 4]),
            (b"CLI4", &[0u8; 4]),
            (b"FXLC", &[0u8; 4]),
        ]);
        assert!(Container::parse(&expr, true).unwrap().is_effect());
        let none = build_container(&[(b"RDEF", &[0u8; 4])]);
        let c = Container::parse(&none, true).unwrap();
        assert!(!c.is_effect());
        assert!(matches!(
            c.require_program(),
            Err(DxbcError::Malformed { .. })
        ));
    }

    #[test]
    fn every_truncation_fails_cleanly() {
        let bytes = sample();
        for len in 0..bytes.len() {
            assert!(Container::parse(&bytes[..len], false).is_err(), "len {len}");
        }
    }

    #[test]
    fn fourcc_names_escape_binary() {
        assert_eq!(fourcc_name(b"SHEX"), "SHEX");
        assert_eq!(fourcc_name(&[0, b'A', 0xff, b'B']), "\\x00A\\xffB");
    }
}
