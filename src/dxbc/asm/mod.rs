//! The assembler: fxc-syntax assembly text (what `disasm` prints and fxc's
//! `/Fc` listings) to a DXBC container. It parses into the same IR the
//! decoder produces and encodes through `encode`, so there is no second
//! description of the opcodes.

pub mod error;
pub mod header;

pub use error::{AsmError, AsmResult};
