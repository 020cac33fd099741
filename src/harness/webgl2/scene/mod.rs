//! A case as the page draws it: the es300 texts, the textures in GL's
//! upload order, one texture unit per sampler uniform with the hardware
//! sampler state of the runtime contract, the uniform blocks' members by
//! name (the page finds their offsets), the documented uniforms, the quad's
//! vertices and the render targets.
//!
//! This module holds the scene's shape, which `runner.js` reads, and
//! builds it; textures and units are made in `textures.rs`, the vertex
//! stage in `vertex.rs`, and `gl_names.rs` holds WebGL2's names for the
//! case's formats, shapes and comparison functions.

use serde::Serialize;

use crate::glsl::{self, Manifest};
use crate::harness::case::{Case, CaseShaders};
use crate::harness::image::TargetKind;
use crate::harness::render_targets;
use crate::harness::runtime::{self, Stages};
use crate::harness::translator::bind::NamedConstant;
use crate::vm::output_merger::DepthFormat;
use crate::vm::texture::Format;

use super::WebGl2Error;
use super::base64;

use crate::harness::quad::INDICES_LAST_PROVOKING;

mod gl_names;
mod textures;
mod vertex;

use gl_names::{gl_compare, gl_target_format};
use textures::textures_and_units;
use vertex::{pass_through, vertex_inputs};

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
    /// A register capture (`webgl2::capture`): drawn once per window of
    /// records instead of once, its outputs read at one pixel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<CaptureJob>,
    /// Uploads decided here rather than in the page (see
    /// `compressed_images`), for the report; not sent to the page.
    #[serde(skip)]
    pub notes: Vec<String>,
    /// Drawn without the y flip (an external translator's own vertex
    /// shader with no flip uniform): GL's rows are read back bottom-up,
    /// so the harness reverses them into D3D's order.
    #[serde(skip)]
    pub flip_rows: bool,
}

/// One stage's text and the manifest binding it.
pub(super) struct StageText<'a> {
    pub source: &'a str,
    pub manifest: &'a Manifest,
}

/// What an external translation adds to a scene: its constants bound by
/// name (both stages').
pub(super) struct External<'a> {
    pub constants: &'a [NamedConstant],
}

/// What the page needs to draw a register capture: the pixel (GL's row,
/// which the y-flipped draw makes D3D's), the window uniform, the outputs
/// and the records each draw keeps.
#[derive(Serialize)]
pub(super) struct CaptureJob {
    pub x: u32,
    pub y: u32,
    pub uniform: String,
    pub outputs: u32,
    pub per_draw: u32,
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

/// A plain uniform: its words as D3D lays them out (each array element
/// and matrix column in a 16-byte register), which the page sets by the
/// type GL reports for it.
#[derive(Serialize)]
pub(super) struct Uniform {
    pub name: String,
    pub words: Vec<u32>,
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
    build_stages(
        case,
        StageText {
            source: &stages.pixel.source,
            manifest: &stages.pixel.manifest,
        },
        stages.vertex.as_ref().map(|v| StageText {
            source: &v.source,
            manifest: &v.manifest,
        }),
        None,
    )
}

/// A constant's words from its buffer: from its offset, a whole number of
/// 16-byte registers covering its size (zeros past the case's rows).
fn constant_words(case: &Case, c: &NamedConstant) -> Vec<u32> {
    let first = (c.offset / 4) as usize;
    let words = (c.size.div_ceil(16).max(1) * 4) as usize;
    let rows = (first + words).div_ceil(4) as u32;
    let all: Vec<u32> = runtime::constant_buffer_rows(case, c.slot, rows).concat();
    (first..first + words)
        .map(|i| all.get(i).copied().unwrap_or(0))
        .collect()
}

/// A scene from each stage's text and manifest: dxbc-dbg's own (`external`
/// `None`) or an external translator's, bound by its profile. With no
/// vertex stage the harness's pass-through feeds the pixel shader.
pub(super) fn build_stages(
    case: &Case,
    pixel: StageText,
    vertex: Option<StageText>,
    external: Option<&External>,
) -> Result<Scene, WebGl2Error> {
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
    let mut manifests = vec![pixel.manifest];
    if let Some(v) = &vertex {
        manifests.push(v.manifest);
    }
    if let Some(why) = runtime::refused(case, &manifests) {
        return Err(fail(why));
    }
    let mut notes = Vec::new();
    let (textures, units) = textures_and_units(case, &manifests, &mut notes).map_err(fail)?;
    let (vs, attributes, stride, vertices) = match &vertex {
        Some(v) => {
            let (attrs, stride, bytes) = vertex_inputs(case, v.manifest);
            (v.source.to_string(), attrs, stride, bytes)
        }
        None => (
            pass_through(case, pixel.manifest),
            Vec::new(),
            4,
            Vec::new(),
        ),
    };
    let mut blocks = blocks(case, &manifests);
    let mut uniforms = Vec::new();
    let flip = |v: [f32; 2]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    // dxbc-dbg's text and the pass-through flip y in the vertex stage; an
    // external vertex shader flips only where its profile names the
    // uniform, and is otherwise drawn as GL's origin has it.
    let vertex_flips = match (&vertex, external) {
        (Some(v), Some(_)) => v
            .manifest
            .uniforms
            .iter()
            .any(|u| u.role == glsl::UniformRole::YFlip),
        _ => true,
    };
    let flip_value = if vertex_flips {
        Y_FLIP_TEXTURE
    } else {
        [1.0, case.height as f32]
    };
    if external.is_none() || vertex.is_none() {
        uniforms.push(Uniform {
            name: "hlslcc_YFlip".into(),
            words: flip(Y_FLIP_TEXTURE),
        });
    }
    if let Some(ext) = external {
        for m in &manifests {
            for u in &m.uniforms {
                if u.role == glsl::UniformRole::YFlip
                    && u.block.is_empty()
                    && !uniforms.iter().any(|x| x.name == u.name)
                {
                    uniforms.push(Uniform {
                        name: u.name.clone(),
                        words: flip(flip_value),
                    });
                }
            }
        }
        for c in ext.constants {
            let words = constant_words(case, c);
            match &c.block {
                None => {
                    if !uniforms.iter().any(|x| x.name == c.name) {
                        uniforms.push(Uniform {
                            name: c.name.clone(),
                            words,
                        });
                    }
                }
                Some(b) => {
                    let i = match blocks.iter().position(|x| &x.name == b) {
                        Some(i) => i,
                        None => {
                            blocks.push(Block {
                                name: b.clone(),
                                members: Vec::new(),
                            });
                            blocks.len() - 1
                        }
                    };
                    if !blocks[i].members.iter().any(|m| m.name == c.name) {
                        blocks[i].members.push(Member {
                            name: c.name.clone(),
                            words,
                        });
                    }
                }
            }
        }
    }
    let mut viewport = viewport(case).map_err(fail)?;
    if !vertex_flips {
        // GL's rows count from the bottom.
        viewport[1] = case.height as i32 - viewport[1] - viewport[3];
    }
    Ok(Scene {
        width: case.width,
        height: case.height,
        vs,
        fs: pixel.source.to_string(),
        textures,
        units,
        blocks,
        uniforms,
        attributes,
        stride,
        vertices: base64(&vertices),
        indices: INDICES_LAST_PROVOKING,
        targets: targets(case, pixel.manifest)?,
        viewport,
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
        capture: None,
        notes,
        flip_rows: !vertex_flips,
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
