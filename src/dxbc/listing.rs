//! The complete fxc `/Fc`-style listing: comment header (buffer
//! definitions, resource bindings, signatures), the program, and the
//! instruction-slot count fxc ends with.

use std::fmt::Write as _;

use super::asm::{EXACT_PREFIX, lossy_immediates};
use super::disasm::write_program;
use super::header::{HeaderParts, listing_header_from};
use super::ir::CustomData;
use super::shader::Shader;

pub fn listing(shader: &Shader) -> String {
    let header = header_lines(shader);
    // One buffer for the whole text, sized from a typical line length so
    // that it rarely grows.
    let mut out = String::with_capacity(
        header.iter().map(|l| l.len() + 1).sum::<usize>()
            + 40 * (shader.program.instructions.len() + 2),
    );
    for line in &header {
        out.push_str(line);
        out.push('\n');
    }
    write_program(&mut out, &shader.program, shader.style());
    // Floats whose text would not read back as the same bits are pinned, so
    // that assembling this listing gives back the original program.
    for (i, o, lane, bits) in lossy_immediates(&shader.program, shader.style()) {
        let _ = writeln!(out, "{EXACT_PREFIX}{i}.{o}.{lane} 0x{bits:08x}");
    }
    // fxc takes the count from STAT and prints 0 when there is none.
    let slots = shader.stat.as_ref().map_or(0, |s| s.instruction_count());
    let _ = writeln!(out, "// Approximately {slots} instruction slots used");
    out
}

/// The comment block fxc prints before the program.
pub fn header_lines(shader: &Shader) -> Vec<String> {
    let signatures: Vec<_> = shader.signatures.iter().collect();
    let debug_layer_note = shader
        .program
        .instructions
        .iter()
        .any(|i| matches!(i.custom.as_deref(), Some(CustomData::ShaderMessage { .. })));
    listing_header_from(&HeaderParts {
        rdef: shader.rdef.as_ref(),
        signatures: &signatures,
        stat: shader.stat.as_ref(),
        features: shader.features.as_ref(),
        program: Some(shader.program.kind),
        debug_layer_note,
        early_depth_stencil: shader.program.instructions.iter().any(|i| {
            i.global_flags()
                .is_some_and(|f| f.force_early_depth_stencil)
        }),
    })
}
