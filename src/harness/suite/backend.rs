//! The GPU backends a case is drawn on, and what each can express of
//! what a case may `[require]`.

use super::Feature;
use crate::glsl;

/// The GPU backends a case is drawn on, each through the dialect a real
/// runtime of its kind consumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// wgpu on Vulkan (lavapipe without a GPU), the vk450 text.
    Vulkan,
    /// WebGL2 in headless Chromium, the es300 text users ship.
    WebGl2,
}

impl Backend {
    pub const ALL: [Backend; 2] = [Backend::Vulkan, Backend::WebGl2];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Vulkan => "vulkan",
            Backend::WebGl2 => "webgl2",
        }
    }

    pub fn parse(s: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == s)
    }

    pub fn dialect(self) -> glsl::Dialect {
        match self {
            Backend::Vulkan => glsl::Dialect::Vk450,
            Backend::WebGl2 => glsl::Dialect::Es300,
        }
    }

    /// Whether the backend can express a `[require]` feature
    /// (docs/cases.md lists them).
    pub fn supports(self, feature: Feature) -> bool {
        match (self, feature) {
            (Backend::Vulkan, Feature::FineDerivatives) => true,
            // GLSL ES 3.00 has one dFdx/dFdy, coarse or fine as the
            // implementation pleases.
            (Backend::WebGl2, Feature::FineDerivatives) => false,
            // Vulkan copies the depth aspect of d32_float, d16_unorm and
            // d32_float_s8x24_uint out; wgpu's 24-bit depth
            // (`Depth24PlusStencil8`) has no copyable depth aspect.
            (Backend::Vulkan, Feature::DepthReadback) => true,
            (Backend::Vulkan, Feature::Depth24Readback) => false,
            // readPixels reads colour only: the page draws the depth
            // texture into a float target with texelFetch.
            (Backend::WebGl2, Feature::DepthReadback | Feature::Depth24Readback) => true,
            // wgpu 30 allows R16Unorm (TEXTURE_FORMAT_16BIT_NORM) for
            // sampling and copies, not as a render attachment.
            (Backend::Vulkan, Feature::Norm16Target) => false,
            // R16 is renderable only with EXT_texture_norm16, not core
            // WebGL2.
            (Backend::WebGl2, Feature::Norm16Target) => false,
            (Backend::Vulkan, Feature::FractionalViewport) => true,
            // gl.viewport takes whole pixels.
            (Backend::WebGl2, Feature::FractionalViewport) => false,
            // Vulkan leaves the rounding of a colour write to a half
            // target to the implementation; lavapipe truncates, as D3D
            // does. WebGL2 leaves it open too, and SwiftShader rounds to
            // nearest even.
            (Backend::Vulkan, Feature::HalfTowardZero) => true,
            (Backend::WebGl2, Feature::HalfTowardZero) => false,
            (Backend::Vulkan, Feature::CubeMapArrays) => true,
            // ES 3.00 has cube arrays only through
            // OES_texture_cube_map_array, which WebGL2 does not offer.
            (Backend::WebGl2, Feature::CubeMapArrays) => false,
            (Backend::Vulkan, Feature::Multisample) => true,
            // GLSL ES 3.00 has no sampler2DMS, gl_SampleID, gl_SampleMask
            // or gl_NumSamples, so es300 refuses every multisampled read.
            (Backend::WebGl2, Feature::Multisample) => false,
            // naga's GLSL front end has no gl_SampleMaskIn (vk450 lowers
            // vCoverage only at sample frequency); ES 3.00 has none.
            (_, Feature::CoverageInput) => false,
            // wgpu binds multisampled textures through 2D views only.
            (_, Feature::MultisampleArray) => false,
            // lavapipe's anisotropic filter weights its probes itself:
            // over an isotropic footprint, and under magnification, it
            // gives neither the trilinear nor the linear result D3D
            // requires (measured: 19.66 where trilinear is 17.5).
            (Backend::Vulkan, Feature::AnisotropicFilter) => false,
            // EXT_texture_filter_anisotropic (SwiftShader offers it; the
            // runner fails the draw where it is missing).
            (Backend::WebGl2, Feature::AnisotropicFilter) => true,
            // vk450 lowers doubles; the device asks for SHADER_F64
            // (lavapipe has shaderFloat64) and names it when missing.
            (Backend::Vulkan, Feature::Float64) => true,
            // GLSL ES 3.00 has no double type (es300 refuses doubles).
            (Backend::WebGl2, Feature::Float64) => false,
            // Neither dialect has a per-sample minimum-LOD clamp (GLSL ES
            // 3.00 has none, naga's GLSL front end no textureClampARB): the
            // translation applies one on its emulated sampling path, which
            // cubes do not have, and refuses it there (`Reason::LodClamp`).
            (_, Feature::LodClamp) => false,
            // vk450 lowers buffer views (typed buffer SRVs included, whose
            // elements the shader decodes by the view's format) and UAVs
            // to storage buffers and images; the Vulkan path binds them and
            // reads the UAVs back.
            (Backend::Vulkan, Feature::Buffers) => true,
            // GLSL ES 3.00 has no storage buffers, image stores or
            // samplerBuffer, so WebGL2 cannot express a buffer view or a
            // UAV (es300 refuses them by name).
            (Backend::WebGl2, Feature::Buffers) => false,
        }
    }
}
