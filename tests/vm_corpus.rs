//! Every pixel and vertex shader in the corpus runs to completion on a quad
//! with zeroed inputs and 1x1 black textures on every declared slot, or
//! stops for a reason zeroed inputs give a real shader: a loop that never
//! ends (`docs/emulator.md` names the corpus shader that does). Counts by
//! reason, and each shader that stopped, are printed. A feature the
//! emulator does not cover (`Unsupported`, an unread register kind) fails
//! the test, as does `Malformed`: the corpus is real fxc output, so such a
//! refusal is the emulator misreading a well-formed shader. No panic.

mod common;

use std::collections::BTreeMap;
use std::rc::Rc;

use dxbc_dbg::vm::defaults::{DefaultTextures, default_resources};
use dxbc_dbg::vm::{Machine, Setup, VmError};

#[test]
fn corpus_shaders_run_on_a_zeroed_quad() {
    let Some(root) = common::corpus() else { return };
    let (mut total, mut completed) = (0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut misread = Vec::new();
    let mut not_emulated = Vec::new();
    for (file, shader) in common::vertex_and_pixel_shaders(&root) {
        total += 1;
        let resources = default_resources(&shader.program, DefaultTextures::Black);
        let result = Machine::new(Rc::new(shader.program), Setup::empty(), resources)
            .and_then(|mut m| m.run_to_end());
        let e = match result {
            Ok(_) => {
                completed += 1;
                continue;
            }
            Err(e) => e,
        };
        assert!(!e.to_string().is_empty());
        // No wildcard: a new kind of refusal has to be sorted into
        // "not covered yet" or "cannot happen on fxc output" here.
        let reason = match &e {
            VmError::Unsupported { reason, .. } => {
                not_emulated.push(format!("{file}: {e}"));
                reason.clone()
            }
            // A register kind the emulator does not read or write yet.
            VmError::Operand { message, .. } => {
                not_emulated.push(format!("{file}: {e}"));
                message.clone()
            }
            // Zeroed inputs can legitimately keep a loop from ending.
            VmError::Budget { .. } => "instruction budget exceeded".to_string(),
            VmError::Malformed { .. } => {
                misread.push(format!("{file}: {e}"));
                continue;
            }
        };
        println!("  stopped: {file}: {e}");
        *reasons.entry(reason).or_insert(0) += 1;
    }
    println!("vm corpus: {completed}/{total} pixel and vertex shaders ran to completion");
    for (r, n) in &reasons {
        println!("  {n:4}  {r}");
    }
    assert!(total > 0);
    assert!(
        not_emulated.is_empty(),
        "{} corpus shaders stop at something the emulator does not cover:\n{}",
        not_emulated.len(),
        not_emulated.join("\n")
    );
    assert!(
        misread.is_empty(),
        "{} well-formed corpus shaders refused as malformed:\n{}",
        misread.len(),
        misread.join("\n")
    );
}
