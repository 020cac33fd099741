//! Textures and samplers: declarations (the combined-sampler ABI), the
//! sample/gather/load/query instructions and their helpers.

use super::emit::Emitter;
use crate::dxbc::ir::Instruction;

/// What the program does with its textures and samplers, gathered before
/// the walk so declarations know which combinations instructions use.
#[derive(Debug, Default)]
pub struct Textures {}

/// Collects texture/sampler pairs and the uniforms instructions will need.
pub fn scan(_e: &mut Emitter) {}

/// `dcl_resource` and `dcl_sampler`.
pub fn declare(_e: &mut Emitter, _inst: &Instruction) {}

/// A texture-class instruction.
pub fn emit(_e: &mut Emitter, _inst: &Instruction) {}
