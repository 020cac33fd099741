//! Fuzzes the case-file reader on bytes (`Case::from_bytes`, so invalid
//! UTF-8 goes the loader's way) and, for a case whose shaders are inline,
//! its assembly, quad inputs and a bounded run as `trace --case` does
//! (`bodies::case_parser`). Shader files a case names are not read. Any
//! panic is a bug.
//!
//! Run with `cargo +nightly fuzz run case_parser -- -jobs=1`; seed with the
//! project's cases (`mkdir -p fuzz/corpus/case_parser &&
//! find tests/cases -name '*.case' -exec cp -t fuzz/corpus/case_parser/ {} +`).
#![no_main]

#[path = "bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bodies::case_parser(data);
});
