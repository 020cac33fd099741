//! WebGL2's names for what a case describes in D3D's terms: texture and
//! render-target formats (with the stand-ins where WebGL2 lacks a
//! layout), the block-compression extensions, texture targets by shape
//! and comparison functions. Tables only.

use crate::glsl::TextureShape;
use crate::vm::texture::{ComparisonFunc, Format};

/// The WebGL extensions and internal format that take a block format's
/// blocks as they are.
pub(super) fn gl_compressed(f: Format) -> Option<(Vec<&'static str>, u32)> {
    const S3TC: &str = "WEBGL_compressed_texture_s3tc";
    const S3TC_SRGB: &str = "WEBGL_compressed_texture_s3tc_srgb";
    const RGTC: &str = "EXT_texture_compression_rgtc";
    const BPTC: &str = "EXT_texture_compression_bptc";
    Some(match f {
        Format::Bc1Unorm => (vec![S3TC], 0x83F1),
        Format::Bc2Unorm => (vec![S3TC], 0x83F2),
        Format::Bc3Unorm => (vec![S3TC], 0x83F3),
        Format::Bc1UnormSrgb => (vec![S3TC_SRGB], 0x8C4D),
        Format::Bc2UnormSrgb => (vec![S3TC_SRGB], 0x8C4E),
        Format::Bc3UnormSrgb => (vec![S3TC_SRGB], 0x8C4F),
        Format::Bc4Unorm => (vec![RGTC], 0x8DBB),
        Format::Bc4Snorm => (vec![RGTC], 0x8DBC),
        Format::Bc5Unorm => (vec![RGTC], 0x8DBD),
        Format::Bc5Snorm => (vec![RGTC], 0x8DBE),
        Format::Bc7Unorm => (vec![BPTC], 0x8E8C),
        Format::Bc7UnormSrgb => (vec![BPTC], 0x8E8D),
        Format::Bc6hSf16 => (vec![BPTC], 0x8E8E),
        Format::Bc6hUf16 => (vec![BPTC], 0x8E8F),
        _ => return None,
    })
}

pub(super) fn gl_compare(f: ComparisonFunc) -> &'static str {
    match f {
        ComparisonFunc::Never => "NEVER",
        ComparisonFunc::Less => "LESS",
        ComparisonFunc::Equal => "EQUAL",
        ComparisonFunc::LessEqual => "LEQUAL",
        ComparisonFunc::Greater => "GREATER",
        ComparisonFunc::NotEqual => "NOTEQUAL",
        ComparisonFunc::GreaterEqual => "GEQUAL",
        ComparisonFunc::Always => "ALWAYS",
    }
}

/// How a texture-unit format goes up in WebGL2: (internal format,
/// format, type) and the format whose encoding the uploaded bytes use (the
/// texture's own, or an equivalent that gives the shader the same values
/// where WebGL2 lacks the layout).
pub(super) struct GlFormat {
    pub(super) internal: &'static str,
    pub(super) format: &'static str,
    pub(super) ty: &'static str,
    pub(super) bytes_as: Format,
}

/// WebGL2's counterpart of a texture-unit format. WebGL2 has no BGRA
/// upload, no A8 that reads (0, 0, 0, a) through every path and no 16-bit
/// normalized formats in core (`EXT_texture_norm16` is optional, and
/// SwiftShader lacks it): BGRA goes up swizzled to RGBA (sRGB ones as
/// `SRGB8_ALPHA8`), A8 as RGBA8 holding (0, 0, 0, a), and 16-bit
/// UNORM/SNORM as 32-bit float textures holding the decoded values, which
/// `texelFetch` returns unchanged and which filter linearly through
/// `OES_texture_float_linear`.
pub(super) fn gl_format(f: Format) -> GlFormat {
    let (internal, format, ty, bytes_as) = match f {
        Format::R8Unorm => ("R8", "RED", "UNSIGNED_BYTE", f),
        Format::Rg8Unorm => ("RG8", "RG", "UNSIGNED_BYTE", f),
        Format::Rgba8Unorm => ("RGBA8", "RGBA", "UNSIGNED_BYTE", f),
        Format::R32Float => ("R32F", "RED", "FLOAT", f),
        Format::Rg32Float => ("RG32F", "RG", "FLOAT", f),
        Format::Rgba16Float => ("RGBA16F", "RGBA", "HALF_FLOAT", f),
        Format::Rgba32Float => ("RGBA32F", "RGBA", "FLOAT", f),
        Format::R32Uint => ("R32UI", "RED_INTEGER", "UNSIGNED_INT", f),
        Format::R32Sint => ("R32I", "RED_INTEGER", "INT", f),
        Format::D32Float => ("DEPTH_COMPONENT32F", "DEPTH_COMPONENT", "FLOAT", f),
        Format::D16Unorm => ("DEPTH_COMPONENT16", "DEPTH_COMPONENT", "UNSIGNED_SHORT", f),
        // A depth-stencil resource's depth view: its depths as floats
        // (24-bit UNORM ones are exact), a depth texture so that
        // comparison samplers read it. The resource formats never reach
        // here (a case reads them through a view); they would read the
        // depth the same way.
        Format::R24UnormX8Typeless
        | Format::R32FloatX8X24Typeless
        | Format::D24UnormS8Uint
        | Format::D32FloatS8X24Uint => (
            "DEPTH_COMPONENT32F",
            "DEPTH_COMPONENT",
            "FLOAT",
            Format::R32Float,
        ),
        // A stencil view: WebGL2 cannot sample stencil, and D3D has it in
        // `.y`, so it goes up as RGBA8UI holding (0, s, 0, 1).
        Format::X24TypelessG8Uint | Format::X32TypelessG8X24Uint => (
            "RGBA8UI",
            "RGBA_INTEGER",
            "UNSIGNED_BYTE",
            Format::Rgba8Uint,
        ),
        // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
        Format::Rgba8UnormSrgb => ("SRGB8_ALPHA8", "RGBA", "UNSIGNED_BYTE", f),
        Format::Bgra8Unorm => ("RGBA8", "RGBA", "UNSIGNED_BYTE", Format::Rgba8Unorm),
        Format::Bgra8UnormSrgb => (
            "SRGB8_ALPHA8",
            "RGBA",
            "UNSIGNED_BYTE",
            Format::Rgba8UnormSrgb,
        ),
        Format::A8Unorm => ("RGBA8", "RGBA", "UNSIGNED_BYTE", Format::Rgba8Unorm),
        Format::Rgba8Snorm => ("RGBA8_SNORM", "RGBA", "BYTE", f),
        Format::Rg8Snorm => ("RG8_SNORM", "RG", "BYTE", f),
        Format::Rgba8Uint => ("RGBA8UI", "RGBA_INTEGER", "UNSIGNED_BYTE", f),
        Format::Rgba8Sint => ("RGBA8I", "RGBA_INTEGER", "BYTE", f),
        Format::R8Uint => ("R8UI", "RED_INTEGER", "UNSIGNED_BYTE", f),
        Format::Rgba16Uint => ("RGBA16UI", "RGBA_INTEGER", "UNSIGNED_SHORT", f),
        Format::Rgba16Sint => ("RGBA16I", "RGBA_INTEGER", "SHORT", f),
        Format::R16Uint => ("R16UI", "RED_INTEGER", "UNSIGNED_SHORT", f),
        Format::R16Sint => ("R16I", "RED_INTEGER", "SHORT", f),
        Format::Rg16Uint => ("RG16UI", "RG_INTEGER", "UNSIGNED_SHORT", f),
        Format::Rg16Sint => ("RG16I", "RG_INTEGER", "SHORT", f),
        Format::R16Float => ("R16F", "RED", "HALF_FLOAT", f),
        Format::Rg16Float => ("RG16F", "RG", "HALF_FLOAT", f),
        Format::Rgb10a2Unorm => ("RGB10_A2", "RGBA", "UNSIGNED_INT_2_10_10_10_REV", f),
        Format::Rg11b10Float => ("R11F_G11F_B10F", "RGB", "UNSIGNED_INT_10F_11F_11F_REV", f),
        Format::Rgb9e5 => ("RGB9_E5", "RGB", "UNSIGNED_INT_5_9_9_9_REV", f),
        Format::Rgba16Unorm | Format::Rgba16Snorm => {
            ("RGBA32F", "RGBA", "FLOAT", Format::Rgba32Float)
        }
        Format::R16Unorm | Format::R16Snorm => ("R32F", "RED", "FLOAT", Format::R32Float),
        Format::Rg16Unorm | Format::Rg16Snorm => ("RG32F", "RG", "FLOAT", Format::Rg32Float),
        // Block-compressed textures go up decoded unless the page uploads
        // their blocks (see `compressed_images`): the texture unit's lanes
        // as floats, sRGB already linearised, exactly what the emulator
        // reads.
        Format::Bc1Unorm
        | Format::Bc1UnormSrgb
        | Format::Bc2Unorm
        | Format::Bc2UnormSrgb
        | Format::Bc3Unorm
        | Format::Bc3UnormSrgb
        | Format::Bc4Unorm
        | Format::Bc4Snorm
        | Format::Bc5Unorm
        | Format::Bc5Snorm
        | Format::Bc6hUf16
        | Format::Bc6hSf16
        | Format::Bc7Unorm
        | Format::Bc7UnormSrgb => ("RGBA32F", "RGBA", "FLOAT", Format::Rgba32Float),
    };
    GlFormat {
        internal,
        format,
        ty,
        bytes_as,
    }
}

/// The GL texture target a sampler uniform of this shape reads.
pub(super) fn gl_target(shape: TextureShape) -> &'static str {
    match shape {
        TextureShape::D2 => "TEXTURE_2D",
        TextureShape::D2Array => "TEXTURE_2D_ARRAY",
        TextureShape::D3 => "TEXTURE_3D",
        TextureShape::Cube => "TEXTURE_CUBE_MAP",
        // es300 refuses cube arrays (no OES_texture_cube_map_array in
        // WebGL2), so no translation for this page declares one; a case
        // with one is n/a here (`[require] cube_map_arrays`).
        TextureShape::CubeArray => "TEXTURE_CUBE_MAP_ARRAY",
        // es300 refuses multisampled textures, so no uniform has these
        // shapes; named as GL ES 3.1 would for completeness.
        TextureShape::D2MS => "TEXTURE_2D_MULTISAMPLE",
        TextureShape::D2MSArray => "TEXTURE_2D_MULTISAMPLE_ARRAY",
    }
}

/// The GL internal format a render-target format renders to, and how
/// `readPixels` reads it back (`RGBA` bytes for the 8-bit normalized ones,
/// their stored bytes for sRGB too; 32-bit lanes for float and integer).
pub(super) fn gl_target_format(
    f: Format,
) -> Result<(&'static str, &'static str, &'static str), String> {
    let unorm = |i| Ok((i, "RGBA", "UNSIGNED_BYTE"));
    let float = |i| Ok((i, "RGBA", "FLOAT"));
    match f {
        Format::R8Unorm => unorm("R8"),
        Format::Rg8Unorm => unorm("RG8"),
        Format::Rgba8Unorm => unorm("RGBA8"),
        Format::Rgba8UnormSrgb => unorm("SRGB8_ALPHA8"),
        Format::Rgba8Uint => Ok(("RGBA8UI", "RGBA_INTEGER", "UNSIGNED_INT")),
        Format::Rg16Float => float("RG16F"),
        Format::Rgba16Float => float("RGBA16F"),
        Format::R32Float => float("R32F"),
        Format::Rg32Float => float("RG32F"),
        Format::Rgba32Float => float("RGBA32F"),
        Format::R32Uint => Ok(("R32UI", "RGBA_INTEGER", "UNSIGNED_INT")),
        Format::R32Sint => Ok(("R32I", "RGBA_INTEGER", "INT")),
        other => Err(format!(
            "{} is not a WebGL2 render-target format",
            other.name()
        )),
    }
}
