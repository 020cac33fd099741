//! Fuzzes the assembler on arbitrary text; whatever assembles must also read
//! back through the reader (`bodies::assembler`). Any panic is a bug.
//!
//! Run with `cargo +nightly fuzz run assembler`; seed with listings
//! (`mkdir -p fuzz/corpus/assembler && cp ../shared/corpus/listings/*.asm fuzz/corpus/assembler/`).
#![no_main]

#[path = "bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bodies::assembler(data);
});
