//! dxbc-dbg: a debugger and differential tester for DXBC → GLSL ES 3.00 translation.
//!
//! Layers (see `docs/ARCHITECTURE.md`): `dxbc` reads bytecode into one IR that
//! every other layer consumes.
//!
//! The Vulkan harness backend (`harness::gpu`, feature `gpu`) and the step
//! debugger's terminal interface (`tui`, feature `tui`) are optional, so a
//! program that only reads, emulates or translates builds without wgpu or
//! ratatui (docs/ARCHITECTURE.md, "Cargo features").

pub mod dxbc;
pub mod glsl;
pub mod harness;
pub mod input_file;
#[cfg(feature = "tui")]
pub mod tui;
pub mod vm;
