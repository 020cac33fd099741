//! The GPU path: a case drawn through the vk450 translation with wgpu
//! (Vulkan; Mesa's lavapipe where there is no GPU).
//!
//! Interface placeholder: the renderer itself is being built.

use super::case::{Case, CaseShaders};
use super::image::Image;
use crate::glsl;

#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter could be created (no driver, no lavapipe).
    #[error("no GPU adapter: {0}")]
    NoAdapter(String),
    /// Anything else, with the case file and what failed.
    #[error("{0}")]
    Other(String),
}

/// A device and queue, created once and reused for every case.
pub struct Gpu {
    _device: (),
}

impl Gpu {
    pub fn new() -> Result<Gpu, GpuError> {
        Err(GpuError::NoAdapter("the GPU path is not built yet".into()))
    }

    /// The adapter's name, for reports.
    pub fn adapter_name(&self) -> String {
        String::new()
    }

    /// Draws the case's quad; one image per render target (`SV_TargetN`
    /// in index order), cleared to zero where the quad does not reach.
    pub fn render(
        &self,
        case: &Case,
        _shaders: &CaseShaders,
        _options: &glsl::Options,
    ) -> Result<Vec<Image>, GpuError> {
        Err(GpuError::Other(format!(
            "{}: the GPU path is not built yet",
            case.path.display()
        )))
    }
}
