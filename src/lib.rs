//! dxbc-dbg: a debugger and differential tester for DXBC → GLSL ES 3.00 translation.
//!
//! Layers (see `docs/ARCHITECTURE.md`): `dxbc` reads bytecode into one IR that
//! every other layer consumes.

pub mod dxbc;
pub mod glsl;
pub mod harness;
pub mod tui;
pub mod vm;
