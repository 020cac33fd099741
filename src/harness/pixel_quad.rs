//! One pixel's 2x2 quad set up as the CPU draw sets it up, for the tools
//! that follow a single pixel on the emulator (`bisect`, the gap detector):
//! through the case's vertex shader when it has one, the triangle owning
//! the pixel, the case's constant buffers. Each caller then runs its own
//! machine over the setup, with the case's textures and UAVs.

use super::case::{Case, CaseShaders};
use super::{cpu, raster};
use crate::vm::defaults::PixelChoice;
use crate::vm::state::Setup;

/// The quad holding a pixel, ready for a machine, and the pixel's lane.
pub struct PixelQuad {
    pub setup: Setup,
    pub lane: usize,
    /// The drawn corners' clip w (after the vertex stage), which decides
    /// whether perspective-correct and screen-linear interpolation differ.
    pub corner_w: Vec<f32>,
}

/// Why a pixel's quad cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum PixelQuadError {
    #[error("pixel ({x}, {y}) is outside the {width}x{height} render target")]
    Outside {
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    },
    /// The case's vertex shader failed on the emulator (its message).
    #[error("{0}")]
    Vertex(String),
    /// No triangle covers the pixel: its lane is a helper.
    #[error("pixel ({x}, {y}) is not covered by the quad (a helper lane)")]
    Helper { x: u32, y: u32 },
}

/// The quad holding pixel `(x, y)` of `case` as the CPU draw sets it up.
pub fn pixel_quad(
    case: &Case,
    shaders: &CaseShaders,
    (x, y): (u32, u32),
) -> Result<PixelQuad, PixelQuadError> {
    if x >= case.width || y >= case.height {
        return Err(PixelQuadError::Outside {
            x,
            y,
            width: case.width,
            height: case.height,
        });
    }
    // The vertex stage changes only the corners: the textures and
    // constant buffers the callers bind stay the case's.
    let drawn;
    let case = if shaders.vertex.is_some() {
        let mut c = case.clone();
        c.quad =
            cpu::vertex_stage(case, shaders).map_err(|e| PixelQuadError::Vertex(e.to_string()))?;
        drawn = c;
        &drawn
    } else {
        case
    };
    let choice = PixelChoice {
        x,
        y,
        width: case.width,
        height: case.height,
    };
    let lane = choice.lane();
    let triangle = raster::owning_triangle(case, choice);
    let (mut setup, _) = raster::quad_raster(case, &shaders.pixel, choice, None, triangle);
    if setup.helper[lane] {
        return Err(PixelQuadError::Helper { x, y });
    }
    cpu::bind_constant_buffers(case, &mut setup);
    let corner_w = case.quad.iter().map(|v| v.position[3]).collect();
    Ok(PixelQuad {
        setup,
        lane,
        corner_w,
    })
}
