//! Fuzzes the whole reader: container, every chunk parser, the decoder, and
//! the printers on whatever parses. Any panic is a bug.
//!
//! Run with `cargo fuzz run reader` from the repository root; seed the
//! corpus with real blobs (`cp ../shared/corpus/*/*.dxbc fuzz/corpus/reader/`).
#![no_main]

use dxbc_dbg::dxbc::{ParseOptions, Shader, encode, info, listing};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = ParseOptions {
        verify_checksum: false,
    };
    if let Ok(shader) = Shader::parse(data, opts) {
        let _ = listing::listing(&shader);
        let _ = info::report("fuzz", &shader);
        let _ = encode::encode_program(&shader.program);
    }
});
