//! One pixel shader on one quad in the emulator, for the tests that check
//! instructions one at a time (`vm_alu`, `vm_double`): the shader is `body`
//! between a fixed prologue (a constant input `v0`, outputs `o0` and `o1`,
//! four temps) and `ret`.

use std::rc::Rc;

use dxbc_dbg::dxbc::asm;
use dxbc_dbg::vm::{Machine, Resources, Setup, VmError};

/// Assembles `body` and runs it to the end for a quad whose lane `l` has
/// `v0 = inputs[l]`. An assembler error panics with the text (the test's
/// own shader is wrong); the emulator's errors are returned.
pub fn run(body: &str, inputs: [[u32; 4]; 4]) -> Result<Machine, VmError> {
    let text = format!(
        "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_output o1.xyzw\ndcl_temps 4\n{body}\nret\n"
    );
    let program = asm::parse(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .program;
    let mut setup = Setup::empty();
    for (l, v) in inputs.iter().enumerate() {
        setup.inputs[l] = vec![*v];
    }
    let mut m = Machine::new(Rc::new(program), setup, Resources::default())?;
    m.run_to_end()?;
    Ok(m)
}
