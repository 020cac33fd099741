//! A case as the page draws it: the es300 texts, the textures in GL's
//! upload order, one texture unit per sampler uniform with the hardware
//! sampler state of the runtime contract, the uniform blocks' members by
//! name (the page finds their offsets), the documented uniforms, the quad's
//! vertices and the render targets.

use std::fmt::Write as _;

use serde::Serialize;

use crate::glsl::{self, Manifest, OpaqueType, TextureShape, Ty};
use crate::harness::case::{Case, CaseShaders};
use crate::harness::image::TargetKind;
use crate::harness::render_targets;
use crate::harness::runtime::{self, HardwareAddress, HardwareSampler, Stages};
use crate::vm::output_merger::DepthFormat;
use crate::vm::texture::{ComparisonFunc, Dimension, Filter, Format, Sampler, Texture, View};

use super::WebGl2Error;
use super::base64;

use crate::harness::quad::{self, INDICES_LAST_PROVOKING};

/// What the application sets in `hlslcc_YFlip` when drawing into a
/// texture (docs/glsl.md, "Runtime contract").
const Y_FLIP_TEXTURE: [f32; 2] = [-1.0, 0.0];

#[derive(Serialize)]
pub(super) struct Scene {
    pub width: u32,
    pub height: u32,
    pub vs: String,
    pub fs: String,
    pub textures: Vec<GlTexture>,
    pub units: Vec<Unit>,
    pub blocks: Vec<Block>,
    pub uniforms: Vec<Uniform>,
    pub attributes: Vec<Attribute>,
    pub stride: u32,
    /// Base64 of the interleaved vertex attributes (raw lanes, four corners).
    pub vertices: String,
    pub indices: [u16; 6],
    pub targets: Vec<Target>,
    /// D3D's viewport in whole pixels: x, y (rows from the top, which the
    /// y-flipped draw puts first in memory, as GL's rows from 0), w, h.
    pub viewport: [i32; 4],
    pub depth_range: [f32; 2],
    pub depth: Option<GlDepth>,
    /// Uploads decided here rather than in the page (see
    /// `compressed_images`), for the report; not sent to the page.
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// The depth buffer: GL internal format, test, write, function, clear.
#[derive(Serialize)]
pub(super) struct GlDepth {
    pub internal: &'static str,
    /// Whether the format has stencil (cleared with `clearBufferfi`).
    pub stencil: bool,
    pub test: bool,
    pub write: bool,
    pub func: &'static str,
    pub clear: f32,
    /// Whether the page reads the buffer back (the case probes it).
    pub read: bool,
}

#[derive(Serialize)]
pub(super) struct GlTexture {
    pub target: &'static str,
    pub internal: &'static str,
    pub format: &'static str,
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub levels: u32,
    /// TEXTURE_BASE_LEVEL: a view's most-detailed mip (TEXTURE_MAX_LEVEL
    /// is `base_level + levels - 1`).
    pub base_level: u32,
    pub images: Vec<GlImage>,
    /// Block-compressed textures: the blocks, which the page uploads
    /// instead of `images` when it has the extensions.
    pub compressed: Option<GlCompressed>,
}

#[derive(Serialize)]
pub(super) struct GlCompressed {
    /// `tN: FORMAT`, for the page's note on what it uploaded.
    pub label: String,
    /// Every WebGL extension the format needs.
    pub extensions: Vec<&'static str>,
    /// The extension's internal format enum.
    pub internal: u32,
    pub images: Vec<GlImage>,
}

/// The WebGL extensions and internal format that take a block format's
/// blocks as they are.
fn gl_compressed(f: Format) -> Option<(Vec<&'static str>, u32)> {
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

/// The blocks of a block-compressed texture in GL's upload order, with
/// each level's own (virtual) size, as `compressedTexImage*` takes them.
/// `None` for 3D textures (the S3TC extension allows none; one rule for
/// every block format keeps the page simple), and
/// for a top level that is not whole 4x4 blocks, which the extensions
/// reject: those go up decoded (the page then says nothing, so the note
/// is made here).
fn compressed_images(
    tex: &Texture,
    slot: u32,
    target: &'static str,
    notes: &mut Vec<String>,
) -> Option<GlCompressed> {
    let (extensions, internal) = gl_compressed(tex.format())?;
    if tex.view().is_some() {
        // The view's mips and layers are a part of the resource's blocks;
        // `upload` already cut the decoded view out for the page.
        notes.push(format!(
            "t{slot}: {} uploaded decoded (RGBA32F): a view of a block texture goes up decoded on this path",
            tex.format().name()
        ));
        return None;
    }
    let [w, h, _] = tex.level_size(0)?;
    if target == "TEXTURE_3D" || !(w.is_multiple_of(4) && h.is_multiple_of(4)) {
        notes.push(format!(
            "t{slot}: {} uploaded decoded (RGBA32F): {}",
            tex.format().name(),
            if target == "TEXTURE_3D" {
                "3D block textures go up decoded on this path".to_string()
            } else {
                format!("{w}x{h} is not whole 4x4 blocks")
            }
        ));
        return None;
    }
    let blocks = tex.to_bytes();
    let levels = tex.mip_levels();
    let mut per: Vec<Vec<&[u8]>> = vec![Vec::new(); levels as usize];
    let mut at = 0usize;
    for _layer in 0..tex.layers() {
        for level in 0..levels {
            let n = tex.level_data_len(level);
            per[level as usize].push(blocks.get(at..at + n)?);
            at += n;
        }
    }
    let mut images = Vec::new();
    for (level, chunks) in per.iter().enumerate() {
        let [w, h, _] = tex.level_size(level as u32)?;
        let level = level as u32;
        if target == "TEXTURE_CUBE_MAP" {
            for (face, c) in chunks.iter().enumerate() {
                images.push(GlImage {
                    level,
                    face: face as u32,
                    width: w,
                    height: h,
                    depth: 1,
                    data: base64(c),
                });
            }
        } else {
            images.push(GlImage {
                level,
                face: 0,
                width: w,
                height: h,
                depth: if target == "TEXTURE_2D_ARRAY" {
                    tex.layers()
                } else {
                    1
                },
                data: base64(&chunks.concat()),
            });
        }
    }
    Some(GlCompressed {
        label: format!("t{slot}: {}", tex.format().name()),
        extensions,
        internal,
        images,
    })
}

#[derive(Serialize)]
pub(super) struct GlImage {
    pub level: u32,
    pub face: u32,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub data: String,
}

#[derive(Serialize)]
pub(super) struct Unit {
    pub name: String,
    pub texture: usize,
    pub sampler: GlSampler,
}

#[derive(Serialize, Clone)]
pub(super) struct GlSampler {
    pub wrap: [&'static str; 3],
    pub min_filter: &'static str,
    pub mag_filter: &'static str,
    pub min_lod: f32,
    pub max_lod: f32,
    pub compare: Option<&'static str>,
    /// TEXTURE_MAX_ANISOTROPY_EXT (EXT_texture_filter_anisotropic) when
    /// above 1; the runner fails the draw if the extension is missing.
    pub max_anisotropy: u32,
}

#[derive(Serialize)]
pub(super) struct Block {
    pub name: String,
    pub members: Vec<Member>,
}

#[derive(Serialize)]
pub(super) struct Member {
    pub name: String,
    /// Four lanes per row.
    pub words: Vec<u32>,
}

#[derive(Serialize)]
pub(super) struct Uniform {
    pub name: String,
    pub value: Vec<f32>,
}

#[derive(Serialize)]
pub(super) struct Attribute {
    pub name: String,
    pub components: u32,
    pub offset: u32,
}

#[derive(Serialize, Clone, Debug)]
pub(super) struct Target {
    pub location: u32,
    /// `float`, `int` or `uint`: which `clearBuffer` the page calls.
    pub kind: &'static str,
    /// GL internal format of the target's texture.
    pub internal: &'static str,
    /// `readPixels`' format and type: 4 bytes a texel for `UNSIGNED_BYTE`,
    /// 16 for the rest.
    pub read_format: &'static str,
    pub read_type: &'static str,
    pub clear: [f32; 4],
    #[serde(skip)]
    pub texel: TargetKind,
    /// Channels the output declares; the rest read back as 0.
    #[serde(skip)]
    pub channels: usize,
    /// The case's format, read back through `vm::output_merger`.
    #[serde(skip)]
    pub format: Option<Format>,
}

/// The es300 translations of a case's stages, as an application would
/// make them: the pixel shader alone, the vertex shader linked to it.
pub(super) fn translate(
    case: &Case,
    shaders: &CaseShaders,
    options: &glsl::Options,
) -> Result<Stages, WebGl2Error> {
    runtime::translate(case, shaders, options, glsl::Dialect::Es300).map_err(WebGl2Error::Case)
}

pub(super) fn build(case: &Case, stages: &Stages) -> Result<Scene, WebGl2Error> {
    let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.path.display()));
    if case.quad.len() != 4 {
        return Err(fail("a quad has four corners".into()));
    }
    if case.samples > 1 {
        // Drawn single-sampled it would silently compare something else.
        return Err(fail(format!(
            "the render target has {} samples: WebGL2 reads back no sample of a multisampled \
             target (readPixels needs a single-sampled framebuffer and blitFramebuffer's \
             resolve is the implementation's); mark the case `[require] multisample`",
            case.samples
        )));
    }
    let mut manifests = vec![&stages.pixel.manifest];
    if let Some(v) = &stages.vertex {
        manifests.push(&v.manifest);
    }
    if let Some(why) = runtime::refused(case, &manifests) {
        return Err(fail(why));
    }
    let mut notes = Vec::new();
    let (textures, units) = textures_and_units(case, &manifests, &mut notes).map_err(fail)?;
    let (vs, attributes, stride, vertices) = match &stages.vertex {
        Some(v) => {
            let (attrs, stride, bytes) = vertex_inputs(case, &v.manifest);
            (v.source.clone(), attrs, stride, bytes)
        }
        None => (
            pass_through(case, &stages.pixel.manifest),
            Vec::new(),
            4,
            Vec::new(),
        ),
    };
    Ok(Scene {
        width: case.width,
        height: case.height,
        vs,
        fs: stages.pixel.source.clone(),
        textures,
        units,
        blocks: blocks(case, &manifests),
        uniforms: vec![Uniform {
            name: "hlslcc_YFlip".into(),
            value: Y_FLIP_TEXTURE.to_vec(),
        }],
        attributes,
        stride,
        vertices: base64(&vertices),
        indices: INDICES_LAST_PROVOKING,
        targets: targets(case, &stages.pixel.manifest)?,
        viewport: viewport(case).map_err(fail)?,
        depth_range: {
            let vp = case.viewport();
            [vp.min_depth, vp.max_depth]
        },
        depth: case.depth.map(|d| GlDepth {
            internal: match d.state.format {
                DepthFormat::D32Float => "DEPTH_COMPONENT32F",
                DepthFormat::D24UnormS8Uint => "DEPTH24_STENCIL8",
                DepthFormat::D16Unorm => "DEPTH_COMPONENT16",
                DepthFormat::D32FloatS8X24Uint => "DEPTH32F_STENCIL8",
            },
            stencil: matches!(
                d.state.format,
                DepthFormat::D24UnormS8Uint | DepthFormat::D32FloatS8X24Uint
            ),
            test: d.state.test,
            write: d.state.write,
            func: gl_compare(d.state.func),
            clear: d.clear,
            read: case.reads_depth(),
        }),
        notes,
    })
}

/// `gl.viewport` takes whole pixels: a fractional D3D viewport cannot be
/// drawn (the case requires `fractional_viewport`, which WebGL2 lacks).
fn viewport(case: &Case) -> Result<[i32; 4], String> {
    let vp = case.viewport();
    let v = [vp.x, vp.y, vp.width, vp.height];
    if v.iter().any(|c| c.fract() != 0.0) {
        return Err(format!(
            "the viewport {v:?} is not whole pixels, as gl.viewport needs"
        ));
    }
    Ok(v.map(|c| c as i32))
}

fn gl_compare(f: ComparisonFunc) -> &'static str {
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

/// The runtime contract's hardware sampler as a WebGL2 sampler object.
fn gl_sampler(h: &HardwareSampler) -> GlSampler {
    let wrap = |a: HardwareAddress| match a {
        HardwareAddress::Repeat => "REPEAT",
        HardwareAddress::MirroredRepeat => "MIRRORED_REPEAT",
        HardwareAddress::ClampToEdge => "CLAMP_TO_EDGE",
    };
    let min_filter = match (h.min_filter, h.mip_filter) {
        (Filter::Point, Filter::Point) => "NEAREST_MIPMAP_NEAREST",
        (Filter::Point, Filter::Linear) => "NEAREST_MIPMAP_LINEAR",
        (Filter::Linear, Filter::Point) => "LINEAR_MIPMAP_NEAREST",
        (Filter::Linear, Filter::Linear) => "LINEAR_MIPMAP_LINEAR",
    };
    GlSampler {
        wrap: h.address.map(wrap),
        min_filter,
        mag_filter: match h.mag_filter {
            Filter::Point => "NEAREST",
            Filter::Linear => "LINEAR",
        },
        min_lod: h.min_lod,
        max_lod: h.max_lod,
        compare: h.compare.map(gl_compare),
        max_anisotropy: h.max_anisotropy,
    }
}

/// The sampler a bare texture uniform (`tN`, read by `texelFetch` and
/// `textureSize`) is bound with: nearest, no comparison, which every
/// format (integer and depth included) is complete with.
fn fetch_sampler() -> GlSampler {
    gl_sampler(&runtime::hardware_sampler(&Sampler::point(), false))
}

/// How a texture-unit format goes up in WebGL2: (internal format,
/// format, type) and the format whose encoding the uploaded bytes use (the
/// texture's own, or an equivalent that gives the shader the same values
/// where WebGL2 lacks the layout).
struct GlFormat {
    internal: &'static str,
    format: &'static str,
    ty: &'static str,
    bytes_as: Format,
}

/// WebGL2's counterpart of a texture-unit format. WebGL2 has no BGRA
/// upload, no A8 that reads (0, 0, 0, a) through every path and no 16-bit
/// normalized formats in core (`EXT_texture_norm16` is optional, and
/// SwiftShader lacks it): BGRA goes up swizzled to RGBA (sRGB ones as
/// `SRGB8_ALPHA8`), A8 as RGBA8 holding (0, 0, 0, a), and 16-bit
/// UNORM/SNORM as 32-bit float textures holding the decoded values, which
/// `texelFetch` returns unchanged and which filter linearly through
/// `OES_texture_float_linear`.
fn gl_format(f: Format) -> GlFormat {
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
fn gl_target(shape: TextureShape) -> &'static str {
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

/// A case texture in GL's upload order: level by level, each level with
/// all its array layers (or slices) at once; cube faces one at a time.
/// 1D textures are 2D textures of height 1 (1D arrays: 2D arrays), as the
/// emitter declares them. The bytes are the texture unit's own, so both
/// renderers read identical texels.
///
/// A case texture's view: WebGL2 has no texture views, so the view's
/// layers are uploaded alone, in the view's format (a typeless resource
/// read as another format of its group: the same bytes), with the
/// resource's whole mip chain; TEXTURE_BASE_LEVEL / MAX_LEVEL select the
/// view's mips, to which `textureSize`, `texelFetch` and the LOD clamp are
/// relative in GLSL ES 3.00, as the view's are in D3D.
///
/// `shadow`: the texture is read through a comparison sampler. A depth
/// texture read without one goes up as `R32F` holding its decoded depths
/// (exact for 16- and 24-bit codes): D3D filters depth formats read
/// without comparison, and GLSL ES 3.00 makes a depth texture with a
/// linear filter and no compare mode incomplete.
fn upload(view: &Texture, target: &'static str, shadow: bool) -> Result<GlTexture, String> {
    let (tex, base_level, view_levels) = match view.view() {
        None => (view.clone(), 0, view.mip_levels()),
        Some(v) => {
            let res = view.resource();
            let all_mips = View {
                first_mip: 0,
                mip_count: res.mip_levels(),
                ..v
            };
            let layers = res.with_view(all_mips).map_err(|e| e.to_string())?;
            (layers.materialize(), v.first_mip, v.mip_count)
        }
    };
    let tex = &tex;
    let desc = tex.desc();
    if matches!(
        desc.dimension,
        Dimension::Buffer | Dimension::Tex2DMS | Dimension::Tex2DMSArray | Dimension::CubeArray
    ) {
        return Err(format!(
            "{:?} resources cannot be drawn in WebGL2",
            desc.dimension
        ));
    }
    let gl = if !shadow && tex.format().is_depth() {
        gl_format(Format::R32Float)
    } else {
        gl_format(tex.format())
    };
    let bytes = tex.to_bytes_as(gl.bytes_as);
    let bpp = gl.bytes_as.bytes_per_texel();
    let levels = tex.mip_levels();
    let layers = tex.layers();
    // `to_bytes` is D3D subresource order: layer by layer, each layer's
    // mip chain from level 0.
    let mut per: Vec<Vec<&[u8]>> = vec![Vec::new(); levels as usize];
    let mut at = 0usize;
    for _layer in 0..layers {
        for level in 0..levels {
            let [w, h, d] = tex.level_size(level).unwrap_or([1, 1, 1]);
            let n = (w * h * d) as usize * bpp;
            let chunk = bytes
                .get(at..at + n)
                .ok_or_else(|| "texture data shorter than its description".to_string())?;
            per[level as usize].push(chunk);
            at += n;
        }
    }
    let mut images = Vec::new();
    for (level, chunks) in per.iter().enumerate() {
        let [w, h, d] = tex.level_size(level as u32).unwrap_or([1, 1, 1]);
        if target == "TEXTURE_CUBE_MAP" {
            for (face, c) in chunks.iter().enumerate() {
                images.push(GlImage {
                    level: level as u32,
                    face: face as u32,
                    width: w,
                    height: h,
                    depth: 1,
                    data: base64(c),
                });
            }
            continue;
        }
        let all: Vec<u8> = chunks.concat();
        let depth = match target {
            "TEXTURE_3D" => d,
            "TEXTURE_2D_ARRAY" => layers,
            _ => 1,
        };
        images.push(GlImage {
            level: level as u32,
            face: 0,
            width: w,
            height: h,
            depth,
            data: base64(&all),
        });
    }
    Ok(GlTexture {
        target,
        internal: gl.internal,
        format: gl.format,
        ty: gl.ty,
        levels: view_levels,
        base_level,
        images,
        compressed: None,
    })
}

/// A 1x1 (six faces for cubes) zero texture for a slot the shader declares
/// and the case leaves unbound, of the kind the uniform's type reads.
fn dummy(glsl_type: OpaqueType, target: &'static str) -> GlTexture {
    let (internal, format, ty, bytes) = match (glsl_type.shadow, glsl_type.ty) {
        (true, _) => ("DEPTH_COMPONENT32F", "DEPTH_COMPONENT", "FLOAT", 4),
        (false, Ty::Int) => ("RGBA32I", "RGBA_INTEGER", "INT", 16),
        (false, Ty::Uint) => ("RGBA32UI", "RGBA_INTEGER", "UNSIGNED_INT", 16),
        (false, Ty::Float) => ("RGBA32F", "RGBA", "FLOAT", 16),
    };
    let faces = if target == "TEXTURE_CUBE_MAP" { 6 } else { 1 };
    GlTexture {
        target,
        internal,
        format,
        ty,
        levels: 1,
        base_level: 0,
        images: (0..faces)
            .map(|face| GlImage {
                level: 0,
                face,
                width: 1,
                height: 1,
                depth: 1,
                data: base64(&vec![0u8; bytes]),
            })
            .collect(),
        compressed: None,
    }
}

/// One GL texture per (slot, target) and one unit per sampler uniform the
/// manifests list: combined pairs with the case's sampler through the
/// runtime contract (comparison state for `Shadow` pairs), bare `tN` with
/// the fetch sampler.
fn textures_and_units(
    case: &Case,
    manifests: &[&Manifest],
    notes: &mut Vec<String>,
) -> Result<(Vec<GlTexture>, Vec<Unit>), String> {
    let mut textures: Vec<GlTexture> = Vec::new();
    // A depth texture goes up once for comparison and once as a colour
    // texture (see `upload`), so the shadow flag is part of the key.
    let mut made: Vec<(u32, &'static str, bool)> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut texture_for = |slot: u32,
                           glsl_type: OpaqueType,
                           textures: &mut Vec<GlTexture>|
     -> Result<usize, String> {
        let target = gl_target(glsl_type.shape);
        let key = (slot, target, glsl_type.shadow);
        if let Some(i) = made.iter().position(|m| *m == key) {
            return Ok(i);
        }
        let t = match case.textures.iter().find(|(s, _)| *s == slot) {
            Some((_, tex)) => {
                let mut t =
                    upload(tex, target, glsl_type.shadow).map_err(|e| format!("t{slot}: {e}"))?;
                t.compressed = compressed_images(tex, slot, target, notes);
                t
            }
            None => dummy(glsl_type, target),
        };
        textures.push(t);
        made.push(key);
        Ok(textures.len() - 1)
    };
    for m in manifests {
        for c in &m.combined_samplers {
            if units.iter().any(|u| u.name == c.name) {
                continue;
            }
            let texture = texture_for(c.texture, c.glsl_type, &mut textures)?;
            let state = runtime::sampler(case, c.sampler);
            units.push(Unit {
                name: c.name.clone(),
                texture,
                sampler: gl_sampler(&runtime::hardware_sampler(&state, c.shadow)),
            });
        }
        for t in &m.textures {
            if units.iter().any(|u| u.name == t.glsl_name) {
                continue;
            }
            let texture = texture_for(t.slot, t.glsl_type, &mut textures)?;
            units.push(Unit {
                name: t.glsl_name.clone(),
                texture,
                sampler: fetch_sampler(),
            });
        }
    }
    Ok((textures, units))
}

/// Every uniform block the manifests declare, members by name: constant
/// buffers (`data`, the case's rows padded to the declared count) and the
/// emulation blocks (values from `runtime`).
fn blocks(case: &Case, manifests: &[&Manifest]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut member = |block: &str, name: &str, words: Vec<u32>| {
        let i = match out.iter().position(|b| b.name == block) {
            Some(i) => i,
            None => {
                out.push(Block {
                    name: block.to_string(),
                    members: Vec::new(),
                });
                out.len() - 1
            }
        };
        let b = &mut out[i];
        match b.members.iter_mut().find(|m| m.name == name) {
            // Both stages may declare a block; the longer declaration wins.
            Some(m) if m.words.len() < words.len() => m.words = words,
            Some(_) => {}
            None => b.members.push(Member {
                name: name.to_string(),
                words,
            }),
        }
    };
    for m in manifests {
        for cb in &m.constant_buffers {
            let rows = runtime::constant_buffer_rows(case, cb.slot, cb.vec4_count);
            member(&cb.block, "data", rows.concat());
        }
        for u in &m.uniforms {
            if u.block.is_empty() {
                continue;
            }
            if let Some(rows) = runtime::block_rows(case, u) {
                member(&u.block, &u.name, rows.concat());
            }
        }
    }
    out
}

impl Target {
    /// Bytes `readPixels` gives per texel.
    pub(super) fn read_bytes_per_texel(&self) -> u32 {
        if self.read_type == "UNSIGNED_BYTE" {
            4
        } else {
            16
        }
    }
}

/// The GL internal format a render-target format renders to, and how
/// `readPixels` reads it back (`RGBA` bytes for the 8-bit normalized ones,
/// their stored bytes for sRGB too; 32-bit lanes for float and integer).
fn gl_target_format(f: Format) -> Result<(&'static str, &'static str, &'static str), String> {
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

fn targets(case: &Case, ps: &Manifest) -> Result<Vec<Target>, WebGl2Error> {
    let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.path.display()));
    let outputs: Vec<_> = ps
        .outputs
        .iter()
        .filter(|o| o.semantic.eq_ignore_ascii_case("SV_Target"))
        .collect();
    let described: Vec<(u32, TargetKind, u32)> = outputs
        .iter()
        .map(|o| {
            let (kind, channels) = TargetKind::of_output(o.glsl_type);
            (o.register, kind, channels)
        })
        .collect();
    // Errors from the plan name the case file and line already.
    let plans = render_targets::plan(case, &described).map_err(WebGl2Error::Case)?;
    let mut out = Vec::new();
    for (o, plan) in outputs.into_iter().zip(plans) {
        let (texel, channels) = TargetKind::of_output(o.glsl_type);
        let kind = match texel {
            TargetKind::Float => "float",
            TargetKind::Sint => "int",
            TargetKind::Uint => "uint",
        };
        let location = o.location.ok_or_else(|| {
            fail(format!(
                "{} has no location in the translation",
                o.glsl_name
            ))
        })?;
        let (internal, read_format, read_type) = match plan.format {
            Some(f) => gl_target_format(f).map_err(fail)?,
            None => match texel {
                TargetKind::Float => ("RGBA32F", "RGBA", "FLOAT"),
                TargetKind::Sint => ("RGBA32I", "RGBA_INTEGER", "INT"),
                TargetKind::Uint => ("RGBA32UI", "RGBA_INTEGER", "UNSIGNED_INT"),
            },
        };
        out.push(Target {
            location,
            kind,
            internal,
            read_format,
            read_type,
            clear: plan.clear,
            texel,
            channels: channels as usize,
            format: plan.format,
        });
    }
    Ok(out)
}

/// The vertex shader standing in for a translated D3D vertex shader when
/// the case has none: per corner (`gl_VertexID` of the indexed draw) it
/// writes the case's clip position and each pixel-shader varying from the
/// case's raw lanes (by the input's mask; integers bit-cast), and it keeps
/// the same runtime contract a translated, linked vertex shader keeps: the
/// pixel shader's interpolation qualifiers, noperspective values
/// multiplied by clip w, and the `hlslcc_YFlip` clip-space fix-up.
pub(super) fn pass_through(case: &Case, ps: &Manifest) -> String {
    let mut s = String::from(
        "#version 300 es\n// pass-through vertex shader generated by the harness\nprecision highp float;\nprecision highp int;\nuniform highp vec2 hlslcc_YFlip;\n",
    );
    // Built-ins (`hlslcc_FragCoord`, `gl_FrontFacing`) are the pipeline's.
    let inputs: Vec<_> = ps.inputs.iter().filter(|i| !i.builtin).collect();
    for i in &inputs {
        // ES 3.00 has `flat` and `centroid` as qualifiers; noperspective
        // is emulated below.
        let qual = match i.interpolation {
            Some(q) if q.is_flat() => "flat ",
            Some(q) if q.is_centroid() => "centroid ",
            _ => "",
        };
        let _ = writeln!(
            s,
            "{qual}out {} {}; // v{}.{}",
            i.glsl_type, i.glsl_name, i.register, i.mask
        );
    }
    let regs: Vec<u32> = inputs.iter().map(|i| i.register).collect();
    s.push_str(&quad::corner_functions(case, &regs));
    s.push_str("\nvoid main() {\n    int c = gl_VertexID;\n");
    s.push_str("    vec4 position = uintBitsToFloat(hcornerPosition(c));\n");
    for i in &inputs {
        let mut value = quad::varying_value(i);
        if i.interpolation.is_some_and(|q| q.is_noperspective()) {
            value.push_str(" * position.w");
        }
        let _ = writeln!(s, "    {} = {value};", i.glsl_name);
    }
    s.push_str(
        "    gl_Position = position;\n    gl_Position.y *= hlslcc_YFlip.x;\n    gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;\n}\n",
    );
    s
}

/// The vertex attributes of a translated vertex shader (its inputs but
/// the built-ins), by name: the page looks their locations up.
fn vertex_inputs(case: &Case, vs: &Manifest) -> (Vec<Attribute>, u32, Vec<u8>) {
    // Built-ins (`gl_VertexID`, `gl_InstanceID`) are the draw's.
    let inputs: Vec<_> = vs.inputs.iter().filter(|i| !i.builtin).collect();
    let (layout, stride, bytes) = quad::vertex_buffer(case, &inputs);
    let attrs = layout
        .into_iter()
        .map(|a| Attribute {
            name: a.input.glsl_name.clone(),
            components: a.components,
            offset: a.offset,
        })
        .collect();
    (attrs, stride, bytes)
}
