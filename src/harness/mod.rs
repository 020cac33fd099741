//! The `harness` layer: case files, drawing them on the CPU (emulator) and
//! the GPU (wgpu on Vulkan, or WebGL2 in a browser), image diffs, goldens,
//! running suites and reports. `gpu` is built only with the `gpu` cargo
//! feature; without it the CPU and WebGL2 backends are all there is.

pub mod auto;
pub mod bisect;
pub mod case;
pub mod cpu;
pub mod dds;
pub mod diff;
mod draw;
pub mod gaps;
pub mod generate;
pub mod golden;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod image;
pub mod pixel_quad;
pub mod progress;
pub mod quad;
pub mod raster;
pub mod render_targets;
pub mod report;
pub mod results;
pub mod runtime;
pub mod shard;
pub mod spirv;
pub mod suite;
pub mod translator;
pub mod webgl2;
