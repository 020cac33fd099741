//! Fuzzes the whole reader: container, every chunk parser, the decoder, and
//! the printers and encoder on whatever parses (`bodies::reader`). Any panic
//! is a bug.
//!
//! Run from `fuzz/`'s parent with `cargo +nightly fuzz run reader`; seed the
//! corpus with real blobs first
//! (`mkdir -p fuzz/corpus/reader && find ../shared/corpus -name '*.dxbc' -exec cp -t fuzz/corpus/reader/ {} +`).
#![no_main]

#[path = "bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bodies::reader(data);
});
