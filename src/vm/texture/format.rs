//! Texel formats. A texture stores every texel already decoded into the four
//! 32-bit lanes a shader register receives (float bits for float, unorm,
//! snorm, sRGB and depth formats; integer bits for uint/sint formats), with
//! the components a format lacks filled with D3D's defaults (0, 0, 0, 1).
//! Decoding once at construction means `ld` can return stored lanes
//! bit-exactly and the filtering code never needs to know the memory
//! layout. sRGB formats decode to linear values, so filtering happens after
//! the sRGB → linear conversion, as D3D requires.
//!
//! Every format is a set of little-endian bit fields (see
//! [`Format::fields`]); the number conversions live in `numeric.rs`.

use super::numeric::{
    RGB9E5_MAX, f32_to_rgb9e5, f32_to_snorm, f32_to_ufloat, f32_to_unorm, linear_to_srgb, mask,
    rgb9e5_to_f32, sign_extend, snorm_to_f32, srgb_to_linear, ufloat_max, ufloat_to_f32,
    unorm_to_f32,
};
pub use super::numeric::{f16_to_f32, f32_to_f16};

/// The formats the reference texture unit understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `DXGI_FORMAT_R8_UNORM`
    R8Unorm,
    /// `DXGI_FORMAT_R8G8_UNORM`
    Rg8Unorm,
    /// `DXGI_FORMAT_R8G8B8A8_UNORM`
    Rgba8Unorm,
    /// `DXGI_FORMAT_R32_FLOAT`
    R32Float,
    /// `DXGI_FORMAT_R32G32_FLOAT`
    Rg32Float,
    /// `DXGI_FORMAT_R16G16B16A16_FLOAT`
    Rgba16Float,
    /// `DXGI_FORMAT_R32G32B32A32_FLOAT`
    Rgba32Float,
    /// `DXGI_FORMAT_R32_UINT`
    R32Uint,
    /// `DXGI_FORMAT_R32_SINT`
    R32Sint,
    /// `DXGI_FORMAT_D32_FLOAT`, read through an `R32_FLOAT` view.
    D32Float,
    /// `DXGI_FORMAT_D16_UNORM`, read through an `R16_UNORM` view.
    D16Unorm,
    // Colour formats: sRGB, BGRA, SNORM, 8/16-bit integer and norm, packed.
    /// `DXGI_FORMAT_R8G8B8A8_UNORM_SRGB`: RGB decode through the sRGB
    /// curve, alpha is plain UNORM.
    Rgba8UnormSrgb,
    /// `DXGI_FORMAT_B8G8R8A8_UNORM`: memory order B, G, R, A; the shader
    /// sees R, G, B, A.
    Bgra8Unorm,
    /// `DXGI_FORMAT_B8G8R8A8_UNORM_SRGB`
    Bgra8UnormSrgb,
    /// `DXGI_FORMAT_R8G8B8A8_SNORM`
    Rgba8Snorm,
    /// `DXGI_FORMAT_R8G8B8A8_UINT`
    Rgba8Uint,
    /// `DXGI_FORMAT_R8G8B8A8_SINT`
    Rgba8Sint,
    /// `DXGI_FORMAT_R8G8_SNORM`
    Rg8Snorm,
    /// `DXGI_FORMAT_R16G16B16A16_UNORM`
    Rgba16Unorm,
    /// `DXGI_FORMAT_R16G16B16A16_SNORM`
    Rgba16Snorm,
    /// `DXGI_FORMAT_R16G16B16A16_UINT`
    Rgba16Uint,
    /// `DXGI_FORMAT_R16G16B16A16_SINT`
    Rgba16Sint,
    /// `DXGI_FORMAT_R16_UNORM`
    R16Unorm,
    /// `DXGI_FORMAT_R16_SNORM`
    R16Snorm,
    /// `DXGI_FORMAT_R16_UINT`
    R16Uint,
    /// `DXGI_FORMAT_R16_SINT`
    R16Sint,
    /// `DXGI_FORMAT_R16_FLOAT`
    R16Float,
    /// `DXGI_FORMAT_R16G16_UNORM`
    Rg16Unorm,
    /// `DXGI_FORMAT_R16G16_SNORM`
    Rg16Snorm,
    /// `DXGI_FORMAT_R16G16_UINT`
    Rg16Uint,
    /// `DXGI_FORMAT_R16G16_SINT`
    Rg16Sint,
    /// `DXGI_FORMAT_R16G16_FLOAT`
    Rg16Float,
    /// `DXGI_FORMAT_R10G10B10A2_UNORM`: R in bits 0-9, G 10-19, B 20-29,
    /// A 30-31.
    Rgb10a2Unorm,
    /// `DXGI_FORMAT_R11G11B10_FLOAT`: unsigned floats, R in bits 0-10,
    /// G 11-21, B 22-31.
    Rg11b10Float,
    /// `DXGI_FORMAT_R9G9B9E5_SHAREDEXP`: 9-bit mantissas R, G, B in bits
    /// 0-26 and a shared 5-bit exponent in 27-31.
    Rgb9e5,
    /// `DXGI_FORMAT_A8_UNORM`: alpha only; the shader sees (0, 0, 0, a).
    A8Unorm,
    /// `DXGI_FORMAT_R8_UINT`
    R8Uint,
    // Depth-stencil resources and the SRV formats that read them (see
    // `Format::field_kind`: depth and stencil are fields of different
    // kinds in one texel).
    /// `DXGI_FORMAT_D24_UNORM_S8_UINT`: depth UNORM in bits 0-23, stencil
    /// UINT in 24-31. Not an SRV format: a shader reads it through
    /// [`Format::R24UnormX8Typeless`] or [`Format::X24TypelessG8Uint`].
    D24UnormS8Uint,
    /// `DXGI_FORMAT_R24_UNORM_X8_TYPELESS`: the depth of a D24S8 texel as
    /// UNORM in `.x`; filterable and comparable like any depth format.
    R24UnormX8Typeless,
    /// `DXGI_FORMAT_X24_TYPELESS_G8_UINT`: the stencil of a D24S8 texel as
    /// UINT in `.y`. The X bits are no component: `.x` reads 0 here.
    X24TypelessG8Uint,
    /// `DXGI_FORMAT_D32_FLOAT_S8X24_UINT`: depth float in bits 0-31,
    /// stencil UINT in 32-39, bits 40-63 unused. Not an SRV format.
    D32FloatS8X24Uint,
    /// `DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS`: the depth of a D32S8X24
    /// texel as float in `.x`.
    R32FloatX8X24Typeless,
    /// `DXGI_FORMAT_X32_TYPELESS_G8X24_UINT`: the stencil of a D32S8X24
    /// texel as UINT in `.y`.
    X32TypelessG8X24Uint,
    // Block-compressed formats (see `bc.rs`): memory holds 4x4 blocks,
    // the store holds every texel decoded as four 32-bit lanes (floats).
    /// `DXGI_FORMAT_BC1_UNORM`
    Bc1Unorm,
    /// `DXGI_FORMAT_BC1_UNORM_SRGB`
    Bc1UnormSrgb,
    /// `DXGI_FORMAT_BC2_UNORM`
    Bc2Unorm,
    /// `DXGI_FORMAT_BC2_UNORM_SRGB`
    Bc2UnormSrgb,
    /// `DXGI_FORMAT_BC3_UNORM`
    Bc3Unorm,
    /// `DXGI_FORMAT_BC3_UNORM_SRGB`
    Bc3UnormSrgb,
    /// `DXGI_FORMAT_BC4_UNORM`
    Bc4Unorm,
    /// `DXGI_FORMAT_BC4_SNORM`
    Bc4Snorm,
    /// `DXGI_FORMAT_BC5_UNORM`
    Bc5Unorm,
    /// `DXGI_FORMAT_BC5_SNORM`
    Bc5Snorm,
    /// `DXGI_FORMAT_BC6H_UF16`
    Bc6hUf16,
    /// `DXGI_FORMAT_BC6H_SF16`
    Bc6hSf16,
    /// `DXGI_FORMAT_BC7_UNORM`
    Bc7Unorm,
    /// `DXGI_FORMAT_BC7_UNORM_SRGB`
    Bc7UnormSrgb,
}

/// How a format's stored components turn into shader values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumericKind {
    /// Unsigned normalized: `c / (2^n - 1)` as float.
    Unorm,
    /// Signed normalized: `max(c / (2^(n-1) - 1), -1)` as float.
    Snorm,
    /// 8-bit UNORM codes through the sRGB curve to linear (alpha linear).
    Srgb,
    /// IEEE float (32, 16 bit), the unsigned 11/10-bit floats, or a shared
    /// exponent format, returned as float32.
    Float,
    /// Unsigned integer, returned as integer bits.
    Uint,
    /// Signed integer, returned as integer bits.
    Sint,
}

/// One stored component: the register lane it lands in and its bits in
/// the texel read as a little-endian number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub lane: usize,
    pub shift: u32,
    pub bits: u32,
}

const fn at(lane: usize, shift: u32, bits: u32) -> Field {
    Field { lane, shift, bits }
}

const R8: &[Field] = &[at(0, 0, 8)];
const RG8: &[Field] = &[at(0, 0, 8), at(1, 8, 8)];
const RGBA8: &[Field] = &[at(0, 0, 8), at(1, 8, 8), at(2, 16, 8), at(3, 24, 8)];
const BGRA8: &[Field] = &[at(2, 0, 8), at(1, 8, 8), at(0, 16, 8), at(3, 24, 8)];
const A8: &[Field] = &[at(3, 0, 8)];
const R16: &[Field] = &[at(0, 0, 16)];
const RG16: &[Field] = &[at(0, 0, 16), at(1, 16, 16)];
const RGBA16: &[Field] = &[at(0, 0, 16), at(1, 16, 16), at(2, 32, 16), at(3, 48, 16)];
const R32: &[Field] = &[at(0, 0, 32)];
const RG32: &[Field] = &[at(0, 0, 32), at(1, 32, 32)];
const RGBA32: &[Field] = &[at(0, 0, 32), at(1, 32, 32), at(2, 64, 32), at(3, 96, 32)];
const RGB10A2: &[Field] = &[at(0, 0, 10), at(1, 10, 10), at(2, 20, 10), at(3, 30, 2)];
const RG11B10: &[Field] = &[at(0, 0, 11), at(1, 11, 11), at(2, 22, 10)];
const RGB9E5: &[Field] = &[at(0, 0, 9), at(1, 9, 9), at(2, 18, 9)];
const D24S8: &[Field] = &[at(0, 0, 24), at(1, 24, 8)];
const R24X8: &[Field] = &[at(0, 0, 24)];
const X24G8: &[Field] = &[at(1, 24, 8)];
const D32S8: &[Field] = &[at(0, 0, 32), at(1, 32, 8)];
const X32G8: &[Field] = &[at(1, 32, 8)];

/// Bits of `1.0f32`, the default alpha of float-returning formats.
pub(crate) const ONE_F32: u32 = 0x3F80_0000;

impl Format {
    /// Every supported format, for tests and tools that iterate them.
    pub const ALL: [Format; 57] = [
        Format::R8Unorm,
        Format::Rg8Unorm,
        Format::Rgba8Unorm,
        Format::R32Float,
        Format::Rg32Float,
        Format::Rgba16Float,
        Format::Rgba32Float,
        Format::R32Uint,
        Format::R32Sint,
        Format::D32Float,
        Format::D16Unorm,
        // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
        Format::Rgba8UnormSrgb,
        Format::Bgra8Unorm,
        Format::Bgra8UnormSrgb,
        Format::Rgba8Snorm,
        Format::Rgba8Uint,
        Format::Rgba8Sint,
        Format::Rg8Snorm,
        Format::Rgba16Unorm,
        Format::Rgba16Snorm,
        Format::Rgba16Uint,
        Format::Rgba16Sint,
        Format::R16Unorm,
        Format::R16Snorm,
        Format::R16Uint,
        Format::R16Sint,
        Format::R16Float,
        Format::Rg16Unorm,
        Format::Rg16Snorm,
        Format::Rg16Uint,
        Format::Rg16Sint,
        Format::Rg16Float,
        Format::Rgb10a2Unorm,
        Format::Rg11b10Float,
        Format::Rgb9e5,
        Format::A8Unorm,
        Format::R8Uint,
        // Depth-stencil resources and their SRV formats.
        Format::D24UnormS8Uint,
        Format::R24UnormX8Typeless,
        Format::X24TypelessG8Uint,
        Format::D32FloatS8X24Uint,
        Format::R32FloatX8X24Typeless,
        Format::X32TypelessG8X24Uint,
        // Block-compressed.
        Format::Bc1Unorm,
        Format::Bc1UnormSrgb,
        Format::Bc2Unorm,
        Format::Bc2UnormSrgb,
        Format::Bc3Unorm,
        Format::Bc3UnormSrgb,
        Format::Bc4Unorm,
        Format::Bc4Snorm,
        Format::Bc5Unorm,
        Format::Bc5Snorm,
        Format::Bc6hUf16,
        Format::Bc6hSf16,
        Format::Bc7Unorm,
        Format::Bc7UnormSrgb,
    ];

    /// The stored components, as bit fields of the texel.
    pub fn fields(self) -> &'static [Field] {
        use Format::*;
        match self {
            R8Unorm => R8,
            Rg8Unorm => RG8,
            Rgba8Unorm => RGBA8,
            R32Float | R32Uint | R32Sint | D32Float => R32,
            Rg32Float => RG32,
            Rgba16Float => RGBA16,
            Rgba32Float => RGBA32,
            D16Unorm => R16,
            // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
            Rgba8UnormSrgb | Rgba8Snorm | Rgba8Uint | Rgba8Sint => RGBA8,
            Bgra8Unorm | Bgra8UnormSrgb => BGRA8,
            Rg8Snorm => RG8,
            Rgba16Unorm | Rgba16Snorm | Rgba16Uint | Rgba16Sint => RGBA16,
            R16Unorm | R16Snorm | R16Uint | R16Sint | R16Float => R16,
            Rg16Unorm | Rg16Snorm | Rg16Uint | Rg16Sint | Rg16Float => RG16,
            Rgb10a2Unorm => RGB10A2,
            Rg11b10Float => RG11B10,
            Rgb9e5 => RGB9E5,
            A8Unorm => A8,
            R8Uint => R8,
            D24UnormS8Uint => D24S8,
            R24UnormX8Typeless => R24X8,
            X24TypelessG8Uint => X24G8,
            D32FloatS8X24Uint => D32S8,
            R32FloatX8X24Typeless => R32,
            X32TypelessG8X24Uint => X32G8,
            // Block formats have no per-texel fields in memory: the store
            // holds their decoded lanes (see `decode`).
            Bc1Unorm | Bc1UnormSrgb | Bc2Unorm | Bc2UnormSrgb | Bc3Unorm | Bc3UnormSrgb
            | Bc4Unorm | Bc4Snorm | Bc5Unorm | Bc5Snorm | Bc6hUf16 | Bc6hSf16 | Bc7Unorm
            | Bc7UnormSrgb => &[],
        }
    }

    /// Bytes in one 4x4 block of a block-compressed format, `None` for the
    /// others.
    pub fn block_bytes(self) -> Option<usize> {
        use Format::*;
        match self {
            Bc1Unorm | Bc1UnormSrgb | Bc4Unorm | Bc4Snorm => Some(8),
            Bc2Unorm | Bc2UnormSrgb | Bc3Unorm | Bc3UnormSrgb | Bc5Unorm | Bc5Snorm | Bc6hUf16
            | Bc6hSf16 | Bc7Unorm | Bc7UnormSrgb => Some(16),
            _ => None,
        }
    }

    pub fn is_block_compressed(self) -> bool {
        self.block_bytes().is_some()
    }

    /// Components a block format stores (the rest read as defaults).
    fn block_channels(self) -> Option<usize> {
        use Format::*;
        Some(match self {
            Bc4Unorm | Bc4Snorm => 1,
            Bc5Unorm | Bc5Snorm => 2,
            // BC6H stores no alpha: it reads as the default 1.
            Bc6hUf16 | Bc6hSf16 => 3,
            Bc1Unorm | Bc1UnormSrgb | Bc2Unorm | Bc2UnormSrgb | Bc3Unorm | Bc3UnormSrgb
            | Bc7Unorm | Bc7UnormSrgb => 4,
            _ => return None,
        })
    }

    /// Bytes one texel occupies in memory. Block-compressed formats have
    /// no per-texel size; for them this is the size of one decoded texel
    /// (four 32-bit lanes, as `decode`/`encode_lanes` handle them), and
    /// [`Format::block_bytes`] gives the memory layout.
    pub fn bytes_per_texel(self) -> usize {
        use Format::*;
        match self {
            Rgb9e5 => 4,
            // The X bits are part of the texel, though no field reads them.
            D24UnormS8Uint | R24UnormX8Typeless | X24TypelessG8Uint => 4,
            D32FloatS8X24Uint | R32FloatX8X24Typeless | X32TypelessG8X24Uint => 8,
            f if f.is_block_compressed() => 16,
            _ => {
                let bits: u32 = self.fields().iter().map(|f| f.bits).sum();
                bits.div_ceil(8) as usize
            }
        }
    }

    /// One past the highest lane the format stores (lanes below it that it
    /// does not store read as 0, as A8's red, green and blue do; the rest
    /// read as defaults).
    pub fn channels(self) -> usize {
        if let Some(n) = self.block_channels() {
            return n;
        }
        self.fields().iter().map(|f| f.lane + 1).max().unwrap_or(0)
    }

    pub fn kind(self) -> NumericKind {
        use Format::*;
        match self {
            R8Unorm | Rg8Unorm | Rgba8Unorm | D16Unorm => NumericKind::Unorm,
            R32Float | Rg32Float | Rgba16Float | Rgba32Float | D32Float => NumericKind::Float,
            R32Uint => NumericKind::Uint,
            R32Sint => NumericKind::Sint,
            // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
            Rgba8UnormSrgb | Bgra8UnormSrgb => NumericKind::Srgb,
            Bgra8Unorm | Rgba16Unorm | R16Unorm | Rg16Unorm | Rgb10a2Unorm | A8Unorm => {
                NumericKind::Unorm
            }
            Rgba8Snorm | Rg8Snorm | Rgba16Snorm | R16Snorm | Rg16Snorm => NumericKind::Snorm,
            Rgba8Uint | Rgba16Uint | R16Uint | Rg16Uint | R8Uint => NumericKind::Uint,
            Rgba8Sint | Rgba16Sint | R16Sint | Rg16Sint => NumericKind::Sint,
            R16Float | Rg16Float | Rg11b10Float | Rgb9e5 => NumericKind::Float,
            // The resource formats take their depth's kind; their stencil
            // field is UINT (`field_kind`).
            D24UnormS8Uint | R24UnormX8Typeless => NumericKind::Unorm,
            D32FloatS8X24Uint | R32FloatX8X24Typeless => NumericKind::Float,
            X24TypelessG8Uint | X32TypelessG8X24Uint => NumericKind::Uint,
            // Block formats: the kind of what their blocks decode to (the
            // store already holds the decoded, linear values).
            Bc1Unorm | Bc2Unorm | Bc3Unorm | Bc4Unorm | Bc5Unorm | Bc7Unorm => NumericKind::Unorm,
            Bc1UnormSrgb | Bc2UnormSrgb | Bc3UnormSrgb | Bc7UnormSrgb => NumericKind::Srgb,
            Bc4Snorm | Bc5Snorm => NumericKind::Snorm,
            Bc6hUf16 | Bc6hSf16 => NumericKind::Float,
        }
    }

    /// How the component in `lane` converts: the format's kind, except
    /// for the stencil of a depth-stencil resource, which is UINT beside a
    /// UNORM or float depth. Lanes the format does not store take the
    /// format's kind.
    pub fn field_kind(self, lane: usize) -> NumericKind {
        match (self, lane) {
            (Format::D24UnormS8Uint | Format::D32FloatS8X24Uint, 1) => NumericKind::Uint,
            _ => self.kind(),
        }
    }

    /// Depth formats and the SRV formats that read a depth-stencil
    /// resource's depth: comparison samplers may read them.
    pub fn is_depth(self) -> bool {
        use Format::*;
        matches!(
            self,
            D32Float
                | D16Unorm
                | D24UnormS8Uint
                | R24UnormX8Typeless
                | D32FloatS8X24Uint
                | R32FloatX8X24Typeless
        )
    }

    /// A depth-stencil resource format, which no SRV may use as it is: a
    /// shader reads its depth or its stencil through one of the two view
    /// formats this returns (depth first).
    pub fn depth_stencil_views(self) -> Option<[Format; 2]> {
        match self {
            Format::D24UnormS8Uint => Some([Format::R24UnormX8Typeless, Format::X24TypelessG8Uint]),
            Format::D32FloatS8X24Uint => {
                Some([Format::R32FloatX8X24Typeless, Format::X32TypelessG8X24Uint])
            }
            _ => None,
        }
    }

    /// The component in `lane` as errors name it: depth and stencil for
    /// depth-stencil formats, red, green, blue, alpha otherwise.
    fn channel_name(self, lane: usize) -> &'static str {
        match (self.depth_stencil_views(), lane) {
            (Some(_), 0) => "depth",
            (None, 0) if self == Format::D32Float => "depth",
            (Some(_), 1) => "stencil",
            _ => ["red", "green", "blue", "alpha"][lane.min(3)],
        }
    }

    /// Integer formats return raw integer bits and cannot be filtered.
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), NumericKind::Uint | NumericKind::Sint)
    }

    pub fn is_srgb(self) -> bool {
        self.kind() == NumericKind::Srgb
    }

    /// The UNORM format with the same memory layout as an sRGB format (the
    /// format itself otherwise): what a case's texel values for an sRGB
    /// texture are stored through, since they are the encoded values.
    pub fn without_srgb(self) -> Format {
        match self {
            Format::Rgba8UnormSrgb => Format::Rgba8Unorm,
            Format::Bgra8UnormSrgb => Format::Bgra8Unorm,
            Format::Bc1UnormSrgb => Format::Bc1Unorm,
            Format::Bc2UnormSrgb => Format::Bc2Unorm,
            Format::Bc3UnormSrgb => Format::Bc3Unorm,
            Format::Bc7UnormSrgb => Format::Bc7Unorm,
            f => f,
        }
    }

    /// The value of a missing component: 1 for alpha (float 1.0 or integer
    /// 1 by format kind), 0 otherwise.
    fn default_lane(self, lane: usize) -> u32 {
        match (lane, self.is_integer()) {
            (3, false) => ONE_F32,
            (3, true) => 1,
            _ => 0,
        }
    }

    /// What `ld` returns out of bounds: zero in every stored component and
    /// the default in every missing one (so an R8 texture gives (0,0,0,1),
    /// an A8 texture (0,0,0,0)). All-zero bits decode to exactly that.
    pub fn out_of_bounds_lanes(self) -> [u32; 4] {
        self.decode(&[])
    }

    /// Decodes one texel. `bytes` should hold `bytes_per_texel()` bytes;
    /// missing bytes read as zero rather than panicking.
    pub fn decode(self, bytes: &[u8]) -> [u32; 4] {
        let mut le = [0u8; 16];
        let n = bytes.len().min(16);
        le[..n].copy_from_slice(&bytes[..n]);
        let word = u128::from_le_bytes(le);
        let mut lanes = [0, 1, 2, 3].map(|i| self.default_lane(i));
        if self.is_block_compressed() {
            // A decoded block texel: its stored lanes as 32-bit words.
            for (i, lane) in lanes.iter_mut().enumerate().take(self.channels()) {
                *lane = (word >> (32 * i)) as u32;
            }
            return lanes;
        }
        if self == Format::Rgb9e5 {
            let rgb = rgb9e5_to_f32(word as u32);
            for (lane, v) in lanes.iter_mut().zip(rgb) {
                *lane = v.to_bits();
            }
            return lanes;
        }
        for f in self.fields() {
            let kind = self.field_kind(f.lane);
            let raw = (word >> f.shift) as u32 & mask(f.bits);
            lanes[f.lane] = match (kind, f.bits) {
                (NumericKind::Uint, _) => raw,
                (NumericKind::Sint, _) => sign_extend(raw, f.bits) as u32,
                (NumericKind::Unorm, _) => unorm_to_f32(raw, f.bits).to_bits(),
                (NumericKind::Snorm, _) => snorm_to_f32(raw, f.bits).to_bits(),
                (NumericKind::Srgb, _) if f.lane == 3 => unorm_to_f32(raw, f.bits).to_bits(),
                (NumericKind::Srgb, _) => srgb_to_linear(raw).to_bits(),
                (NumericKind::Float, 32) => raw,
                (NumericKind::Float, 16) => f16_to_f32(raw as u16).to_bits(),
                (NumericKind::Float, bits) => ufloat_to_f32(raw, bits - 5).to_bits(),
            };
        }
        lanes
    }

    /// Encodes one texel from lanes in the decoded representation (float
    /// bits for float/unorm/snorm/sRGB/depth, integer bits for uint/sint).
    /// Out-of-range values saturate (D3D's conversion rules: integers clamp
    /// to the format's range, normalized values to [0, 1] or [-1, 1]).
    /// `out` gets `bytes_per_texel()` bytes; a shorter slice is filled as
    /// far as it goes.
    pub fn encode_lanes(self, lanes: [u32; 4], out: &mut [u8]) {
        let word: u128 = if self.is_block_compressed() {
            // A decoded block texel (see `decode`).
            (0..self.channels()).fold(0u128, |w, i| w | u128::from(lanes[i]) << (32 * i))
        } else if self == Format::Rgb9e5 {
            u128::from(f32_to_rgb9e5([0, 1, 2].map(|i| f32::from_bits(lanes[i]))))
        } else {
            let mut word = 0u128;
            for f in self.fields() {
                let kind = self.field_kind(f.lane);
                let lane = lanes[f.lane];
                let x = f32::from_bits(lane);
                let raw = match (kind, f.bits) {
                    (NumericKind::Uint, _) => lane.min(mask(f.bits)),
                    (NumericKind::Sint, bits) => {
                        let half = 1i64 << (bits - 1);
                        (i64::from(lane as i32).clamp(-half, half - 1) as u32) & mask(bits)
                    }
                    (NumericKind::Unorm, _) => f32_to_unorm(x, f.bits),
                    (NumericKind::Snorm, _) => f32_to_snorm(x, f.bits),
                    (NumericKind::Srgb, _) if f.lane == 3 => f32_to_unorm(x, f.bits),
                    (NumericKind::Srgb, _) => linear_to_srgb(x),
                    (NumericKind::Float, 32) => lane,
                    (NumericKind::Float, 16) => u32::from(f32_to_f16(x)),
                    (NumericKind::Float, bits) => f32_to_ufloat(x, bits - 5),
                };
                word |= u128::from(raw & mask(f.bits)) << f.shift;
            }
            word
        };
        let n = self.bytes_per_texel().min(out.len());
        out[..n].copy_from_slice(&word.to_le_bytes()[..n]);
    }

    /// Encodes one texel from float values: normalized formats clamp and
    /// round to nearest, floats round to nearest even, integer formats
    /// convert with Rust's saturating `as` (NaN → 0) and then saturate to
    /// the format's range.
    pub fn encode_f32(self, v: [f32; 4], out: &mut [u8]) {
        let lanes = [0, 1, 2, 3].map(|i| match self.field_kind(i) {
            NumericKind::Uint => v[i] as u32,
            NumericKind::Sint => (v[i] as i32) as u32,
            _ => v[i].to_bits(),
        });
        self.encode_lanes(lanes, out);
    }

    /// Checks that lanes in the decoded representation fit the format
    /// without clamping: every stored component within its range (UNORM
    /// and sRGB [0, 1], SNORM [-1, 1], integers by bit width, small floats
    /// non-negative and finite below their maximum, halves within ±65504
    /// after rounding). Lanes the format does not store are not looked at.
    /// Values between representable ones are fine: they round.
    pub fn check_lanes(self, lanes: [u32; 4]) -> Result<(), String> {
        for f in self.fields() {
            let kind = self.field_kind(f.lane);
            let lane = lanes[f.lane];
            let x = f32::from_bits(lane);
            let channel = self.channel_name(f.lane);
            let range = |lo: f32, hi: f32| {
                if x >= lo && x <= hi {
                    Ok(())
                } else {
                    Err(format!(
                        "{channel} {x} is outside {lo}..={hi}, the range of {}",
                        self.name()
                    ))
                }
            };
            match (kind, f.bits) {
                _ if self == Format::Rgb9e5 => range(0.0, RGB9E5_MAX)?,
                (NumericKind::Uint, bits) if bits < 32 && lane > mask(bits) => {
                    return Err(format!(
                        "{channel} {lane} is above {}, the largest {} value",
                        mask(bits),
                        self.name()
                    ));
                }
                (NumericKind::Sint, bits) if bits < 32 => {
                    let half = 1i64 << (bits - 1);
                    let v = i64::from(lane as i32);
                    if v < -half || v >= half {
                        return Err(format!(
                            "{channel} {v} is outside {}..={}, the range of {}",
                            -half,
                            half - 1,
                            self.name()
                        ));
                    }
                }
                (NumericKind::Unorm | NumericKind::Srgb, _) => range(0.0, 1.0)?,
                // A float depth is a depth buffer's value, alone or beside
                // a stencil: Vulkan and GL clamp what a depth texture
                // holds to 0..1, so a case outside it would compare
                // different numbers on the GPU than on the emulator.
                (NumericKind::Float, 32)
                    if matches!(self, Format::D32Float | Format::D32FloatS8X24Uint)
                        && f.lane == 0 =>
                {
                    range(0.0, 1.0)?
                }
                (NumericKind::Snorm, _) => range(-1.0, 1.0)?,
                (NumericKind::Float, 16) if x.is_finite() && f32_to_f16(x) & 0x7C00 == 0x7C00 => {
                    range(-65504.0, 65504.0)?
                }
                (NumericKind::Float, bits @ (10 | 11)) if !x.is_nan() && x != f32::INFINITY => {
                    range(0.0, ufloat_max(bits - 5))?
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// D3D float rules: denormal inputs and outputs of float arithmetic become
/// zero of the same sign.
pub(crate) fn flush_denorm(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
