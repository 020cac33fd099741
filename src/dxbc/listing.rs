//! The complete fxc `/Fc`-style listing: comment header (buffer
//! definitions, resource bindings, signatures), the program, and the
//! instruction-slot count fxc ends with.

use std::fmt::Write as _;

use super::asm::{EXACT_PREFIX, lossy_immediates};
use super::disasm::write_program;
use super::header::{HeaderParts, listing_header_from, write_listing_header};
use super::ir::CustomData;
use super::shader::Shader;
use super::signature::Signature;

pub fn listing(shader: &Shader) -> String {
    let signatures: Vec<_> = shader.signatures.iter().collect();
    // One buffer for the whole text, sized from typical header and line
    // lengths so that it rarely grows.
    let mut out = String::with_capacity(1024 + 40 * (shader.program.instructions.len() + 2));
    write_listing_header(&mut out, &header_parts(shader, &signatures));
    // Read once: the style comes from parsing the creator string.
    let style = shader.style();
    write_program(&mut out, &shader.program, style);
    // Floats whose text would not read back as the same bits are pinned, so
    // that assembling this listing gives back the original program.
    for (i, o, lane, bits) in lossy_immediates(&shader.program, style) {
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
    listing_header_from(&header_parts(shader, &signatures))
}

/// What the header is built from, for `shader` and its `signatures`.
fn header_parts<'a>(shader: &'a Shader, signatures: &'a [&'a Signature]) -> HeaderParts<'a> {
    let debug_layer_note = shader
        .program
        .instructions
        .iter()
        .any(|i| matches!(i.custom.as_deref(), Some(CustomData::ShaderMessage { .. })));
    HeaderParts {
        rdef: shader.rdef.as_ref(),
        signatures,
        stat: shader.stat.as_ref(),
        features: shader.features.as_ref(),
        program: Some(shader.program.kind),
        debug_layer_note,
        early_depth_stencil: shader.program.instructions.iter().any(|i| {
            i.global_flags()
                .is_some_and(|f| f.force_early_depth_stencil)
        }),
    }
}
