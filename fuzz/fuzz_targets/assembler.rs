//! Fuzzes the assembler on arbitrary text; whatever assembles must also read
//! back through the reader. Any panic is a bug.
//!
//! Run with `cargo fuzz run assembler`; seed with listings
//! (`cp ../shared/corpus/listings/*.asm fuzz/corpus/assembler/`).
#![no_main]

use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(bytes) = asm::assemble(text) {
        let parsed = Shader::parse(&bytes, ParseOptions::default());
        assert!(parsed.is_ok(), "assembled output must parse: {parsed:?}");
    }
});
