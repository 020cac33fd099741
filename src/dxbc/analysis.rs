//! One validation and analysis pass over a decoded program, whose result
//! the emitter, the emulator and the harness all read instead of each
//! scanning the instructions themselves:
//!
//! * [`Blocks`]: the block structure (which `else`/`endif` belongs to which
//!   `if`, loop bounds, switch cases, subroutine labels, where `break` and
//!   `continue` may stand). Unbalanced blocks are an [`AnalysisError`], so
//!   no consumer has to guess how to close them.
//! * [`IoLayout`]: the shader's input and output registers, with the masks
//!   the declarations name, the system value, the component type from the
//!   signature and, for pixel-shader inputs, the interpolation mode.

pub mod blocks;
pub mod layout;

pub use blocks::Blocks;
pub use layout::{IoLayout, IoRegister};

use super::ir::Program;
use super::shader::Shader;
use thiserror::Error;

/// Why a program fails analysis: which instruction, where it lies in the
/// container, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("instruction {index} (byte offset {offset}): {message}")]
pub struct AnalysisError {
    /// Position in the program, counting declarations (as `disasm` lists).
    pub index: usize,
    /// Absolute byte offset of the instruction's opcode token.
    pub offset: usize,
    pub message: String,
}

/// Everything the analysis pass works out about one program.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub blocks: Blocks,
    pub inputs: IoLayout,
    pub outputs: IoLayout,
}

impl Analysis {
    /// Analyses a bare program: the layouts then come from the
    /// declarations alone (no component types, which only signatures hold).
    pub fn of(program: &Program) -> Result<Analysis, AnalysisError> {
        Ok(Analysis {
            blocks: Blocks::of(program)?,
            inputs: IoLayout::inputs(program, None),
            outputs: IoLayout::outputs(program, None),
        })
    }

    /// Analyses a shader, reading its input and output signatures too.
    pub fn of_shader(shader: &Shader) -> Result<Analysis, AnalysisError> {
        Ok(Analysis {
            blocks: Blocks::of(&shader.program)?,
            inputs: IoLayout::of_inputs(shader),
            outputs: IoLayout::of_outputs(shader),
        })
    }
}

#[cfg(test)]
mod tests;
