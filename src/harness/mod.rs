//! The `harness` layer: case files and the CPU side of drawing them. (The
//! GPU path, image diffs, goldens and reports build on these.)

pub mod case;
pub mod gpu;
pub mod image;
pub mod raster;
