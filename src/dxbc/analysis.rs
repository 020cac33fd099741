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
//! * [`Registers`]: the declared sizes of the register files (temps,
//!   indexable temps, constant buffers, the immediate constant buffer); a
//!   register used past them is an [`AnalysisError`].
//! * [`ResourceUse`]: the textures, samplers, constant buffers and UAVs
//!   declared and used; a use of an undeclared slot is an [`AnalysisError`].
//! * [`Linkage`]: the class-interface declarations (function bodies and
//!   their labels, function tables, interfaces and their slots); one naming
//!   what is not declared, or declared twice, is an [`AnalysisError`].
//!
//! fxc never writes a program that fails these checks, so a failure means
//! hand-made or damaged bytecode, and every consumer refuses it the same
//! way instead of each deciding what an unbalanced block or an undeclared
//! register would mean.

pub mod blocks;
pub mod layout;
pub mod linkage;
pub mod registers;
pub mod resources;

pub use blocks::Blocks;
pub use layout::{IoLayout, IoRegister};
pub use linkage::{Interface, Linkage};
pub use registers::{IndexableTemp, Registers};
pub use resources::{ResourceUse, Slots};

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
    /// Which rule the instruction breaks.
    pub check: Check,
    pub message: String,
}

/// The rules the analysis pass checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Block nesting ([`Blocks`]).
    Structure,
    /// A register past its declared file or size ([`Registers`]).
    Range,
    /// A resource slot used but never declared ([`ResourceUse`]).
    Undeclared,
    /// A class-interface declaration or call naming what is not declared
    /// ([`Linkage`]).
    Linkage,
}

/// Everything the analysis pass works out about one program.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub blocks: Blocks,
    pub inputs: IoLayout,
    pub outputs: IoLayout,
    pub registers: Registers,
    pub resources: ResourceUse,
    pub linkage: Linkage,
}

impl Analysis {
    /// Analyses a bare program: the layouts then come from the
    /// declarations alone (no component types, which only signatures hold).
    pub fn of(program: &Program) -> Result<Analysis, AnalysisError> {
        Analysis::with_layouts(
            program,
            IoLayout::inputs(program, None),
            IoLayout::outputs(program, None),
        )
    }

    /// Analyses a shader, reading its input and output signatures too.
    /// [`Shader::analysis`] keeps the result, so callers holding a shader
    /// read that instead of calling this again.
    pub fn of_shader(shader: &Shader) -> Result<Analysis, AnalysisError> {
        Analysis::with_layouts(
            &shader.program,
            IoLayout::of_inputs(shader),
            IoLayout::of_outputs(shader),
        )
    }

    /// The checks run in the order a reader would fix them: blocks first
    /// (the structure everything else hangs on), then registers, then
    /// resources, then class linkage; the first failure is reported.
    fn with_layouts(
        program: &Program,
        inputs: IoLayout,
        outputs: IoLayout,
    ) -> Result<Analysis, AnalysisError> {
        let blocks = Blocks::of(program)?;
        let registers = Registers::of(program);
        let resources = registers::check_with_uses(program, &registers, &inputs, &outputs)?;
        resources.check(program)?;
        let linkage = Linkage::of(program)?;
        Ok(Analysis {
            blocks,
            inputs,
            outputs,
            registers,
            resources,
            linkage,
        })
    }
}

#[cfg(test)]
mod tests;
