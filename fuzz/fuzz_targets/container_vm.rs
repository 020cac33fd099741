//! Fuzzes the emulator on whole containers, as `trace` runs them: the
//! documented default inputs, textures and samplers, the machine run to the
//! end under an instruction budget (`bodies::VM_BUDGET`), every step
//! formatted (`bodies::container_vm`). Refused programs must be errors; any
//! panic is a bug.
//!
//! Run with `cargo +nightly fuzz run container_vm -- -jobs=1`; seed as for
//! `container_glsl` (`fuzz/corpus/container_vm/`).
#![no_main]

#[path = "bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bodies::container_vm(data);
});
