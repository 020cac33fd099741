//! Fuzzes the GLSL emitter on whole containers, so names from RDEF and the
//! signatures reach it as well as the program: es300, vk450 and (for a
//! vertex shader) vk450 linked, then the source map and manifest JSON the
//! `glsl` command prints (`bodies::container_glsl`). Any panic is a bug.
//!
//! Run with `cargo +nightly fuzz run container_glsl -- -jobs=1`; seed with
//! real blobs (`mkdir -p fuzz/corpus/container_glsl &&
//! find ../shared/corpus -name '*.dxbc' -exec cp -t fuzz/corpus/container_glsl/ {} +`; assembled
//! `shaders/**/*.asm` help too: `dxbc-dbg asm X.asm -o fuzz/corpus/container_glsl/X.dxbc`).
#![no_main]

#[path = "bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bodies::container_glsl(data);
});
