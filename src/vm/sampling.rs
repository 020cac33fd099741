//! Texture instructions: reading coordinates, offsets and LODs from the
//! operands, calling the texture unit per lane, applying the resource
//! operand's swizzle and the destination mask.

use super::VmError;
use super::machine::Machine;
use crate::dxbc::ir::Instruction;

pub fn execute(_m: &mut Machine, index: usize, inst: &Instruction) -> Result<(), VmError> {
    Err(VmError::Unsupported {
        index,
        mnemonic: inst.name().to_string(),
        reason: "texture access is not emulated yet".to_string(),
    })
}
