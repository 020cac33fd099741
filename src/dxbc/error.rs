//! Typed errors for everything read from a file. Every error carries the
//! absolute byte offset in the container where reading failed, so a CLI can
//! print `file: byte offset N: ...` and a user can look at the bytes.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DxbcError {
    /// The input ended before a structure that its header promised.
    #[error("byte offset {offset}: truncated {what}: need {need} bytes, {have} remain")]
    Truncated {
        offset: usize,
        what: &'static str,
        need: usize,
        have: usize,
    },
    /// The bytes are present but do not describe a valid structure.
    #[error("byte offset {offset}: {msg}")]
    Malformed { offset: usize, msg: String },
    /// The container hash does not match its contents.
    #[error(
        "byte offset 4: container checksum mismatch: stored {stored}, computed {computed} (use --no-verify to read it anyway)"
    )]
    Checksum { stored: String, computed: String },
    /// An opcode number the SM4/SM5 table does not know.
    #[error("byte offset {offset}: unknown opcode {opcode} (token {token:#010x})")]
    UnknownOpcode {
        offset: usize,
        opcode: u32,
        token: u32,
    },
    /// An effect container (`FX10`/`fx_4_0`/`fx_5_0`) rather than a shader.
    #[error(
        "byte offset {offset}: this is a Direct3D effect (FX10) container, not a shader; extract the shaders it embeds first"
    )]
    Effect { offset: usize },
}

impl DxbcError {
    /// Absolute byte offset in the container where the problem was found.
    pub fn offset(&self) -> usize {
        match self {
            DxbcError::Truncated { offset, .. }
            | DxbcError::Malformed { offset, .. }
            | DxbcError::UnknownOpcode { offset, .. }
            | DxbcError::Effect { offset } => *offset,
            DxbcError::Checksum { .. } => 4,
        }
    }

    pub fn malformed(offset: usize, msg: impl Into<String>) -> Self {
        DxbcError::Malformed {
            offset,
            msg: msg.into(),
        }
    }
}

pub type Result<T> = std::result::Result<T, DxbcError>;
