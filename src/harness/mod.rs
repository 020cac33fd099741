//! The `harness` layer: case files, drawing them on the CPU (emulator) and
//! the GPU (wgpu), image diffs, goldens, running suites and reports.

pub mod case;
pub mod cpu;
pub mod diff;
pub mod golden;
pub mod gpu;
pub mod image;
pub mod quad;
pub mod raster;
pub mod report;
pub mod runtime;
pub mod suite;
pub mod webgl2;
