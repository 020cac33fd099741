//! How D3D names the texture unit's formats: the `DXGI_FORMAT` number and
//! name of each, and the `*_TYPELESS` group a view may reinterpret it
//! within. Kept apart from the conversions in `format.rs`, which never
//! need them.

use super::format::Format;

impl Format {
    /// The `DXGI_FORMAT` number, so case files can name formats the way
    /// D3D code does.
    pub fn dxgi(self) -> u32 {
        use Format::*;
        match self {
            Rgba32Float => 2,
            Rgba16Float => 10,
            Rg32Float => 16,
            Rgba8Unorm => 28,
            D32Float => 40,
            R32Float => 41,
            R32Uint => 42,
            R32Sint => 43,
            Rg8Unorm => 49,
            D16Unorm => 55,
            R8Unorm => 61,
            // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
            Rgba16Unorm => 11,
            Rgba16Uint => 12,
            Rgba16Snorm => 13,
            Rgba16Sint => 14,
            Rgb10a2Unorm => 24,
            Rg11b10Float => 26,
            Rgba8UnormSrgb => 29,
            Rgba8Uint => 30,
            Rgba8Snorm => 31,
            Rgba8Sint => 32,
            Rg16Float => 34,
            Rg16Unorm => 35,
            Rg16Uint => 36,
            Rg16Snorm => 37,
            Rg16Sint => 38,
            Rg8Snorm => 51,
            R16Float => 54,
            R16Unorm => 56,
            R16Uint => 57,
            R16Snorm => 58,
            R16Sint => 59,
            R8Uint => 62,
            A8Unorm => 65,
            Rgb9e5 => 67,
            Bgra8Unorm => 87,
            D32FloatS8X24Uint => 20,
            R32FloatX8X24Typeless => 21,
            X32TypelessG8X24Uint => 22,
            D24UnormS8Uint => 45,
            R24UnormX8Typeless => 46,
            X24TypelessG8Uint => 47,
            Bgra8UnormSrgb => 91,
            Bc1Unorm => 71,
            Bc1UnormSrgb => 72,
            Bc2Unorm => 74,
            Bc2UnormSrgb => 75,
            Bc3Unorm => 77,
            Bc3UnormSrgb => 78,
            Bc4Unorm => 80,
            Bc4Snorm => 81,
            Bc5Unorm => 83,
            Bc5Snorm => 84,
            Bc6hUf16 => 95,
            Bc6hSf16 => 96,
            Bc7Unorm => 98,
            Bc7UnormSrgb => 99,
        }
    }

    pub fn from_dxgi(n: u32) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.dxgi() == n)
    }

    /// The `DXGI_FORMAT_*_TYPELESS` group the format belongs to: a view may
    /// read a resource as any format of its group (same bytes, another
    /// interpretation). Depth formats belong to the group of the colour
    /// format their SRV reads them as.
    pub fn typeless_family(self) -> &'static str {
        use Format::*;
        match self {
            R8Unorm | R8Uint => "R8_TYPELESS",
            Rg8Unorm | Rg8Snorm => "R8G8_TYPELESS",
            Rgba8Unorm | Rgba8UnormSrgb | Rgba8Snorm | Rgba8Uint | Rgba8Sint => "R8G8B8A8_TYPELESS",
            Bgra8Unorm | Bgra8UnormSrgb => "B8G8R8A8_TYPELESS",
            R16Unorm | R16Snorm | R16Uint | R16Sint | R16Float | D16Unorm => "R16_TYPELESS",
            Rg16Unorm | Rg16Snorm | Rg16Uint | Rg16Sint | Rg16Float => "R16G16_TYPELESS",
            Rgba16Float | Rgba16Unorm | Rgba16Snorm | Rgba16Uint | Rgba16Sint => {
                "R16G16B16A16_TYPELESS"
            }
            R32Float | R32Uint | R32Sint | D32Float => "R32_TYPELESS",
            Rg32Float => "R32G32_TYPELESS",
            Rgba32Float => "R32G32B32A32_TYPELESS",
            Rgb10a2Unorm => "R10G10B10A2_TYPELESS",
            // DXGI gives these no typeless twin: each is its own group.
            Rg11b10Float => "R11G11B10_FLOAT",
            Rgb9e5 => "R9G9B9E5_SHAREDEXP",
            A8Unorm => "A8_UNORM",
            D24UnormS8Uint | R24UnormX8Typeless | X24TypelessG8Uint => "R24G8_TYPELESS",
            D32FloatS8X24Uint | R32FloatX8X24Typeless | X32TypelessG8X24Uint => "R32G8X24_TYPELESS",
            Bc1Unorm | Bc1UnormSrgb => "BC1_TYPELESS",
            Bc2Unorm | Bc2UnormSrgb => "BC2_TYPELESS",
            Bc3Unorm | Bc3UnormSrgb => "BC3_TYPELESS",
            Bc4Unorm | Bc4Snorm => "BC4_TYPELESS",
            Bc5Unorm | Bc5Snorm => "BC5_TYPELESS",
            Bc6hUf16 | Bc6hSf16 => "BC6H_TYPELESS",
            Bc7Unorm | Bc7UnormSrgb => "BC7_TYPELESS",
        }
    }

    /// The DXGI name without the `DXGI_FORMAT_` prefix.
    pub fn name(self) -> &'static str {
        use Format::*;
        match self {
            R8Unorm => "R8_UNORM",
            Rg8Unorm => "R8G8_UNORM",
            Rgba8Unorm => "R8G8B8A8_UNORM",
            R32Float => "R32_FLOAT",
            Rg32Float => "R32G32_FLOAT",
            Rgba16Float => "R16G16B16A16_FLOAT",
            Rgba32Float => "R32G32B32A32_FLOAT",
            R32Uint => "R32_UINT",
            R32Sint => "R32_SINT",
            D32Float => "D32_FLOAT",
            D16Unorm => "D16_UNORM",
            // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
            Rgba8UnormSrgb => "R8G8B8A8_UNORM_SRGB",
            Bgra8Unorm => "B8G8R8A8_UNORM",
            Bgra8UnormSrgb => "B8G8R8A8_UNORM_SRGB",
            Rgba8Snorm => "R8G8B8A8_SNORM",
            Rgba8Uint => "R8G8B8A8_UINT",
            Rgba8Sint => "R8G8B8A8_SINT",
            Rg8Snorm => "R8G8_SNORM",
            Rgba16Unorm => "R16G16B16A16_UNORM",
            Rgba16Snorm => "R16G16B16A16_SNORM",
            Rgba16Uint => "R16G16B16A16_UINT",
            Rgba16Sint => "R16G16B16A16_SINT",
            R16Unorm => "R16_UNORM",
            R16Snorm => "R16_SNORM",
            R16Uint => "R16_UINT",
            R16Sint => "R16_SINT",
            R16Float => "R16_FLOAT",
            Rg16Unorm => "R16G16_UNORM",
            Rg16Snorm => "R16G16_SNORM",
            Rg16Uint => "R16G16_UINT",
            Rg16Sint => "R16G16_SINT",
            Rg16Float => "R16G16_FLOAT",
            Rgb10a2Unorm => "R10G10B10A2_UNORM",
            Rg11b10Float => "R11G11B10_FLOAT",
            Rgb9e5 => "R9G9B9E5_SHAREDEXP",
            A8Unorm => "A8_UNORM",
            R8Uint => "R8_UINT",
            D24UnormS8Uint => "D24_UNORM_S8_UINT",
            R24UnormX8Typeless => "R24_UNORM_X8_TYPELESS",
            X24TypelessG8Uint => "X24_TYPELESS_G8_UINT",
            D32FloatS8X24Uint => "D32_FLOAT_S8X24_UINT",
            R32FloatX8X24Typeless => "R32_FLOAT_X8X24_TYPELESS",
            X32TypelessG8X24Uint => "X32_TYPELESS_G8X24_UINT",
            Bc1Unorm => "BC1_UNORM",
            Bc1UnormSrgb => "BC1_UNORM_SRGB",
            Bc2Unorm => "BC2_UNORM",
            Bc2UnormSrgb => "BC2_UNORM_SRGB",
            Bc3Unorm => "BC3_UNORM",
            Bc3UnormSrgb => "BC3_UNORM_SRGB",
            Bc4Unorm => "BC4_UNORM",
            Bc4Snorm => "BC4_SNORM",
            Bc5Unorm => "BC5_UNORM",
            Bc5Snorm => "BC5_SNORM",
            Bc6hUf16 => "BC6H_UF16",
            Bc6hSf16 => "BC6H_SF16",
            Bc7Unorm => "BC7_UNORM",
            Bc7UnormSrgb => "BC7_UNORM_SRGB",
        }
    }
}
