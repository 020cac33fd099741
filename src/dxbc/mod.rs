//! The `dxbc` layer: container, chunks, the SM4/SM5 decoder into the IR, the
//! opcode table and the fxc-style disassembler. Nothing above this layer reads
//! raw tokens.

pub mod checksum;
pub mod container;
pub mod error;
pub mod header;
pub mod limits;
pub mod rdef;
pub mod reader;
pub mod signature;
pub mod stat;
pub mod write;

pub use error::{DxbcError, Result};
pub mod decode;
pub mod disasm;
pub mod encode;
pub mod enums;
pub mod indices;
pub mod ir;
pub mod lanes;
pub mod numfmt;
pub mod opcodes;
pub mod operands;
pub mod sample_pattern;
pub mod shader;
pub mod shown;
pub mod value_type;
pub use shader::{ParseOptions, Shader};
pub mod analysis;
pub mod asm;
pub mod info;
pub mod listing;
pub mod names;
