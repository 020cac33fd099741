//! The shape of a texture resource: its dimension, sizes, mip levels,
//! layers and samples as a description ([`TextureDesc`]), checked against
//! Direct3D 11's limits and normalized before any texel is stored, and why
//! one is refused ([`TextureError`]).

use thiserror::Error;

use super::format::Format;
use crate::dxbc::ir::ResourceDimension;

/// Resource dimension, as a shader declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dimension {
    Buffer,
    Tex1D,
    Tex1DArray,
    Tex2D,
    Tex2DArray,
    Tex2DMS,
    Tex2DMSArray,
    Tex3D,
    Cube,
    CubeArray,
}

impl Dimension {
    /// Maps a `dcl_resource` dimension; raw and structured buffers are not
    /// typed textures and give `None`.
    pub fn from_resource_dim(dim: ResourceDimension) -> Option<Dimension> {
        Some(match dim {
            ResourceDimension::Buffer => Dimension::Buffer,
            ResourceDimension::Texture1D => Dimension::Tex1D,
            ResourceDimension::Texture2D => Dimension::Tex2D,
            ResourceDimension::Texture2DMs => Dimension::Tex2DMS,
            ResourceDimension::Texture3D => Dimension::Tex3D,
            ResourceDimension::TextureCube => Dimension::Cube,
            ResourceDimension::Texture1DArray => Dimension::Tex1DArray,
            ResourceDimension::Texture2DArray => Dimension::Tex2DArray,
            ResourceDimension::Texture2DMsArray => Dimension::Tex2DMSArray,
            ResourceDimension::TextureCubeArray => Dimension::CubeArray,
            ResourceDimension::Unknown
            | ResourceDimension::RawBuffer
            | ResourceDimension::StructuredBuffer
            | ResourceDimension::Other(_) => return None,
        })
    }

    pub fn is_array(self) -> bool {
        matches!(
            self,
            Dimension::Tex1DArray
                | Dimension::Tex2DArray
                | Dimension::Tex2DMSArray
                | Dimension::CubeArray
        )
    }

    pub fn is_cube(self) -> bool {
        matches!(self, Dimension::Cube | Dimension::CubeArray)
    }

    pub fn is_multisampled(self) -> bool {
        matches!(self, Dimension::Tex2DMS | Dimension::Tex2DMSArray)
    }

    /// How many of width/height/depth the dimension uses.
    pub(crate) fn size_axes(self) -> usize {
        match self {
            Dimension::Buffer | Dimension::Tex1D | Dimension::Tex1DArray => 1,
            Dimension::Tex3D => 3,
            _ => 2,
        }
    }
}

/// The shape of a texture. Fields a dimension does not use are normalized
/// to 1 when the texture is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureDesc {
    pub dimension: Dimension,
    pub format: Format,
    /// Texels (buffer: elements).
    pub width: u32,
    pub height: u32,
    /// 3D textures only.
    pub depth: u32,
    /// Array elements: layers for 1D/2D arrays, whole cubes for cube arrays.
    pub array_size: u32,
    /// 0 means the full chain, as in `D3D11_TEXTURE2D_DESC`.
    pub mip_levels: u32,
    /// Multisampled textures only.
    pub sample_count: u32,
}

impl TextureDesc {
    fn new(dimension: Dimension, format: Format, size: [u32; 3], array_size: u32) -> Self {
        TextureDesc {
            dimension,
            format,
            width: size[0],
            height: size[1],
            depth: size[2],
            array_size,
            mip_levels: 1,
            sample_count: 1,
        }
    }
    pub fn buffer(format: Format, elements: u32) -> Self {
        Self::new(Dimension::Buffer, format, [elements, 1, 1], 1)
    }
    pub fn tex1d(format: Format, width: u32) -> Self {
        Self::new(Dimension::Tex1D, format, [width, 1, 1], 1)
    }
    pub fn tex1d_array(format: Format, width: u32, layers: u32) -> Self {
        Self::new(Dimension::Tex1DArray, format, [width, 1, 1], layers)
    }
    pub fn tex2d(format: Format, width: u32, height: u32) -> Self {
        Self::new(Dimension::Tex2D, format, [width, height, 1], 1)
    }
    pub fn tex2d_array(format: Format, width: u32, height: u32, layers: u32) -> Self {
        Self::new(Dimension::Tex2DArray, format, [width, height, 1], layers)
    }
    pub fn tex2d_ms(format: Format, width: u32, height: u32, samples: u32) -> Self {
        let mut d = Self::new(Dimension::Tex2DMS, format, [width, height, 1], 1);
        d.sample_count = samples;
        d
    }
    pub fn tex2d_ms_array(
        format: Format,
        width: u32,
        height: u32,
        layers: u32,
        samples: u32,
    ) -> Self {
        let mut d = Self::new(Dimension::Tex2DMSArray, format, [width, height, 1], layers);
        d.sample_count = samples;
        d
    }
    pub fn tex3d(format: Format, width: u32, height: u32, depth: u32) -> Self {
        Self::new(Dimension::Tex3D, format, [width, height, depth], 1)
    }
    pub fn cube(format: Format, size: u32) -> Self {
        Self::new(Dimension::Cube, format, [size, size, 1], 1)
    }
    pub fn cube_array(format: Format, size: u32, cubes: u32) -> Self {
        Self::new(Dimension::CubeArray, format, [size, size, 1], cubes)
    }
    /// Sets the mip count (0 = full chain).
    pub fn with_mips(mut self, mip_levels: u32) -> Self {
        self.mip_levels = mip_levels;
        self
    }
}

/// Why a texture could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextureError {
    #[error("{what} is 0; every texture dimension must be at least 1")]
    ZeroSize { what: &'static str },
    #[error("{what} is {value}, above Direct3D 11's limit of {max}")]
    TooLarge {
        what: &'static str,
        value: u64,
        max: u64,
    },
    #[error("a cube texture needs width == height, got {width}x{height}")]
    CubeNotSquare { width: u32, height: u32 },
    #[error("{mips} mip levels asked for, but a chain for this size has at most {max}")]
    TooManyMips { mips: u32, max: u32 },
    #[error("{dimension:?} resources have exactly one mip level, got {mips}")]
    MipsNotAllowed { dimension: Dimension, mips: u32 },
    #[error("sample count {count} is outside 1..=32 (multisampled) or not 1 (otherwise)")]
    BadSampleCount { count: u32 },
    #[error("expected {expected} bytes of {format} texel data, got {got}")]
    ByteLength {
        format: &'static str,
        expected: usize,
        got: usize,
    },
    #[error("expected {expected} texels, got {got}")]
    TexelCount { expected: usize, got: usize },
    #[error("could not allocate storage for {texels} texels")]
    OutOfMemory { texels: usize },
    #[error(
        "{format} is block-compressed: Direct3D 11 allows it on 2D, 2D array, cube and 3D textures, not {dimension:?}"
    )]
    BlockDimension {
        format: &'static str,
        dimension: Dimension,
    },
    #[error("{format} is block-compressed: its contents are 4x4 blocks, not texel values")]
    NotFromTexels { format: &'static str },
}

/// Direct3D 11 resource limits (D3D11_REQ_*). They also bound every index
/// computation, so the arithmetic below cannot overflow.
const MAX_1D_2D: u32 = 16384;
const MAX_3D: u32 = 2048;
const MAX_LAYERS: u32 = 2048;
const MAX_BUFFER_ELEMENTS: u32 = 1 << 27;
const MAX_SAMPLES: u32 = 32;
/// 16384 has 15 levels; one spare keeps the table a round size.
pub(crate) const MAX_MIPS: usize = 16;

fn check_size(what: &'static str, value: u32, max: u32) -> Result<(), TextureError> {
    if value == 0 {
        Err(TextureError::ZeroSize { what })
    } else if value > max {
        Err(TextureError::TooLarge {
            what,
            value: u64::from(value),
            max: u64::from(max),
        })
    } else {
        Ok(())
    }
}

/// Levels in a full chain for the largest extent: floor(log2(n)) + 1.
fn full_chain(largest: u32) -> u32 {
    32 - largest.max(1).leading_zeros()
}

impl TextureDesc {
    /// Checks limits and returns the normalized description plus the
    /// internal layer count.
    pub(super) fn normalized(mut self) -> Result<(TextureDesc, u32), TextureError> {
        use Dimension::*;
        let dim = self.dimension;
        if dim.size_axes() < 2 {
            self.height = 1;
        }
        if dim.size_axes() < 3 {
            self.depth = 1;
        }
        if !dim.is_array() {
            self.array_size = 1;
        }
        if !dim.is_multisampled() {
            if self.sample_count > 1 {
                return Err(TextureError::BadSampleCount {
                    count: self.sample_count,
                });
            }
            self.sample_count = 1;
        } else if !(1..=MAX_SAMPLES).contains(&self.sample_count) {
            return Err(TextureError::BadSampleCount {
                count: self.sample_count,
            });
        }
        let max_extent = match dim {
            Buffer => MAX_BUFFER_ELEMENTS,
            Tex3D => MAX_3D,
            _ => MAX_1D_2D,
        };
        check_size("width", self.width, max_extent)?;
        check_size("height", self.height, max_extent)?;
        check_size("depth", self.depth, max_extent)?;
        let max_elements = if dim.is_cube() {
            MAX_LAYERS / 6
        } else {
            MAX_LAYERS
        };
        check_size("array size", self.array_size, max_elements)?;
        if dim.is_cube() && self.width != self.height {
            return Err(TextureError::CubeNotSquare {
                width: self.width,
                height: self.height,
            });
        }
        if self.format.is_block_compressed()
            && !matches!(dim, Tex2D | Tex2DArray | Tex3D | Cube | CubeArray)
        {
            return Err(TextureError::BlockDimension {
                format: self.format.name(),
                dimension: dim,
            });
        }
        let full = full_chain(self.width.max(self.height).max(self.depth));
        if matches!(dim, Buffer | Tex2DMS | Tex2DMSArray) {
            if self.mip_levels > 1 {
                return Err(TextureError::MipsNotAllowed {
                    dimension: dim,
                    mips: self.mip_levels,
                });
            }
            self.mip_levels = 1;
        } else if self.mip_levels == 0 {
            self.mip_levels = full;
        } else if self.mip_levels > full {
            return Err(TextureError::TooManyMips {
                mips: self.mip_levels,
                max: full,
            });
        }
        let layers = if dim.is_cube() {
            self.array_size * 6
        } else {
            self.array_size
        };
        Ok((self, layers))
    }
}
