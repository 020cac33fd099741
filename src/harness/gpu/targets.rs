//! Render targets, the depth buffer and read-back. Each `SV_TargetN`
//! output gets the case's format (`format N F`, written by the hardware's
//! conversion and decoded by `vm::output_merger`, as the emulator decodes
//! its own), else a 32-bit target with exactly as many channels as the
//! output declares (wgpu requires the format's channels to be a subset of
//! the output's): float outputs render to `R32Float`/`Rg32Float`/
//! `Rgba32Float`, `int`/`uint` outputs to the matching `…32Sint`/`…32Uint`.
//! Read back, integer values become the f32 *value* (`7u` → 7.0; exact up
//! to 2^24), missing channels 0. The depth buffer's depth aspect is copied
//! out when the case probes it. A multisampled target (`samples N`) is
//! unpacked sample by sample (`msaa::unpack`), read back and resolved as
//! the emulator resolves.

use crate::glsl::Manifest;
use crate::harness::case::{Case, CaseShaders, DepthBuffer};
use crate::harness::cpu::writes_odepth;
use crate::harness::image::{Image, TargetKind as Kind};
use crate::harness::render_targets::{self, TargetPlan};
use crate::vm::output_merger::{self, DepthFormat, DepthState};
use crate::vm::texture::ComparisonFunc;

use super::{GpuError, Renderer};

pub(super) struct Target {
    /// The `N` of `SV_TargetN`.
    pub index: u32,
    pub location: u32,
    pub kind: Kind,
    pub channels: u32,
    pub format: wgpu::TextureFormat,
    pub texture: wgpu::Texture,
    pub plan: TargetPlan,
}

/// The draw's depth buffer.
pub(super) struct Depth {
    pub format: DepthFormat,
    pub texture: wgpu::Texture,
}

/// wgpu's format for a depth buffer; D3D's 24-bit depth is wgpu's
/// `Depth24PlusStencil8` (at least 24 bits: the driver may keep more).
pub(super) fn depth_format(f: DepthFormat) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as T;
    match f {
        DepthFormat::D32Float => T::Depth32Float,
        DepthFormat::D24UnormS8Uint => T::Depth24PlusStencil8,
        DepthFormat::D16Unorm => T::Depth16Unorm,
        DepthFormat::D32FloatS8X24Uint => T::Depth32FloatStencil8,
    }
}

/// The depth buffer the draw binds: the case's `[depth]`, or, when the
/// case has none but the pixel shader writes `oDepth` (or a conservative
/// variant), a `d32_float` one with the test and the write off. D3D draws
/// such a case with no depth-stencil view, where the shader's depth
/// reaches nothing; wgpu refuses a pipeline whose fragment shader writes
/// depth without a depth attachment, and one the draw neither tests nor
/// writes leaves every pixel as no attachment would.
pub(super) fn depth_buffer(case: &Case, shaders: &CaseShaders) -> Option<DepthBuffer> {
    case.depth.or_else(|| {
        writes_odepth(&shaders.pixel).then_some(DepthBuffer {
            line: 0,
            state: DepthState {
                format: DepthFormat::D32Float,
                test: false,
                write: false,
                func: ComparisonFunc::Always,
            },
            clear: 0.0,
        })
    })
}

/// The depth texture for `depth_buffer`'s buffer, if any.
pub(super) fn create_depth(
    r: &Renderer,
    case: &Case,
    depth: Option<DepthBuffer>,
) -> Result<Option<Depth>, GpuError> {
    let Some(d) = depth else {
        return Ok(None);
    };
    let format = depth_format(d.state.format);
    if format == wgpu::TextureFormat::Depth32FloatStencil8
        && !r
            .device
            .features()
            .contains(wgpu::Features::DEPTH32FLOAT_STENCIL8)
    {
        return Err(GpuError::Other(format!(
            "{}:{}: the adapter lacks DEPTH32FLOAT_STENCIL8 for d32_float_s8x24_uint",
            case.path.display(),
            d.line
        )));
    }
    let texture = attachment(
        r,
        "depth",
        [case.width, case.height],
        // 1 for a case's `[depth]` (the case parser refuses it with
        // `samples`); a scratch buffer matches the targets' count.
        case.samples.max(1),
        format,
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
    );
    Ok(Some(Depth {
        format: d.state.format,
        texture,
    }))
}

fn format_for(kind: Kind, channels: u32) -> Option<wgpu::TextureFormat> {
    use wgpu::TextureFormat as T;
    Some(match (kind, channels) {
        (Kind::Float, 1) => T::R32Float,
        (Kind::Float, 2) => T::Rg32Float,
        (Kind::Float, 4) => T::Rgba32Float,
        (Kind::Sint, 1) => T::R32Sint,
        (Kind::Sint, 2) => T::Rg32Sint,
        (Kind::Sint, 4) => T::Rgba32Sint,
        (Kind::Uint, 1) => T::R32Uint,
        (Kind::Uint, 2) => T::Rg32Uint,
        (Kind::Uint, 4) => T::Rgba32Uint,
        _ => return None,
    })
}

pub(super) fn create(
    r: &Renderer,
    case: &Case,
    ps: &Manifest,
    width: u32,
    height: u32,
    samples: u32,
) -> Result<Vec<Target>, GpuError> {
    let outputs: Vec<_> = ps
        .outputs
        .iter()
        .filter(|o| o.semantic.eq_ignore_ascii_case("SV_Target") && o.location.is_some())
        .collect();
    let described: Vec<(u32, Kind, u32)> = outputs
        .iter()
        .map(|o| {
            let (kind, channels) = Kind::of_output(o.glsl_type);
            (o.register, kind, channels)
        })
        .collect();
    let plans = render_targets::plan(case, &described).map_err(GpuError::Other)?;
    let mut out = Vec::new();
    for (o, plan) in outputs.into_iter().zip(plans) {
        let Some(location) = o.location else { continue };
        let (kind, channels) = Kind::of_output(o.glsl_type);
        let format = match plan.format {
            Some(f) => Some(super::textures::wgpu_format(f)),
            None => format_for(kind, channels),
        };
        let format = format.ok_or_else(|| {
            GpuError::Other(format!(
                "SV_Target{} is declared `{}`: no 3-channel render format exists and wgpu \
                 rejects a 4-channel target for a 3-component output",
                o.register, o.glsl_type
            ))
        })?;
        super::msaa::check_count(r, format, samples, &format!("SV_Target{}", o.register))?;
        let usage = if samples > 1 {
            // Read back through a draw: wgpu copies no multisampled texture.
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING
        } else {
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC
        };
        let texture = attachment(r, &o.glsl_name, [width, height], samples, format, usage);
        out.push(Target {
            index: o.register,
            location,
            kind,
            channels,
            format,
            texture,
            plan,
        });
    }
    out.sort_by_key(|t| t.index);
    Ok(out)
}

/// Copies every target into a mappable buffer (rows padded to wgpu's
/// 256-byte copy alignment), waits, and converts to images. A
/// multisampled target is first unpacked into a single-sampled texture
/// `samples` times as wide.
pub(super) fn read_back(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    targets: &[Target],
    width: u32,
) -> Vec<(wgpu::Buffer, u32)> {
    let mut buffers = Vec::new();
    for t in targets {
        let samples = t.texture.sample_count();
        let texture = if samples > 1 {
            super::msaa::unpack(r, encoder, &t.texture, t.kind, t.channels)
        } else {
            t.texture.clone()
        };
        let width = width * samples;
        let bpp = t.format.block_copy_size(None).unwrap_or(4);
        let (buffer, row) = copy_out(
            r,
            encoder,
            texture.as_image_copy(),
            texture.size(),
            width * bpp,
            "read-back",
        );
        buffers.push((buffer, row));
    }
    buffers
}

/// Copies the depth buffer's depth aspect into a mappable buffer. wgpu
/// copies it out of `Depth32Float`, `Depth16Unorm` and
/// `Depth32FloatStencil8`; `Depth24PlusStencil8` has no copyable depth
/// (a case probing it requires `depth24_readback`, which Vulkan lacks).
pub(super) fn read_back_depth(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    depth: &Depth,
    width: u32,
) -> Result<(wgpu::Buffer, u32), GpuError> {
    let bpp = match depth.format {
        DepthFormat::D16Unorm => 2,
        DepthFormat::D32Float | DepthFormat::D32FloatS8X24Uint => 4,
        DepthFormat::D24UnormS8Uint => {
            return Err(GpuError::Other(
                "wgpu cannot copy the depth aspect of Depth24PlusStencil8".into(),
            ));
        }
    };
    Ok(copy_out(
        r,
        encoder,
        wgpu::TexelCopyTextureInfo {
            texture: &depth.texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::DepthOnly,
        },
        depth.texture.size(),
        width * bpp,
        "depth read-back",
    ))
}

/// The depth read-back as an image: depth in `.x`, the rest 0.
fn depth_image(data: &[u8], row: u32, format: DepthFormat, width: u32, height: u32) -> Image {
    let mut img = Image::new(width, height);
    for y in 0..height {
        for x in 0..width {
            let d = match format {
                DepthFormat::D16Unorm => {
                    let at = (y * row + x * 2) as usize;
                    let v = u16::from_le_bytes([data[at], data[at + 1]]);
                    (f64::from(v) / 65535.0) as f32
                }
                _ => {
                    let at = (y * row + x * 4) as usize;
                    f32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
                }
            };
            img.set(x, y, [d, 0.0, 0.0, 0.0]);
        }
    }
    img
}

pub(super) fn to_images(
    r: &Renderer,
    targets: &[Target],
    buffers: &[(wgpu::Buffer, u32)],
    depth: Option<(DepthFormat, &(wgpu::Buffer, u32))>,
    width: u32,
    height: u32,
    timeout: std::time::Duration,
) -> Result<Vec<Image>, GpuError> {
    for (b, _) in buffers.iter().chain(depth.map(|d| d.1)) {
        b.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    }
    super::wait_for_gpu(r, timeout)?;
    let mut images = Vec::new();
    for (t, (buffer, row)) in targets.iter().zip(buffers) {
        let samples = t.texture.sample_count();
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| GpuError::Other(format!("reading back SV_Target{}: {e}", t.index)))?;
        let mut img = Image::new(width, height);
        for y in 0..height {
            for x in 0..width {
                // Pixel (x, y)'s samples sit side by side in the row.
                let px: Vec<[f32; 4]> = (0..samples)
                    .map(|s| {
                        let xs = x * samples + s;
                        match t.plan.format {
                            Some(f) => {
                                let n = f.bytes_per_texel() as u32;
                                let at = (y * row + xs * n) as usize;
                                output_merger::read_back(f, &data[at..at + n as usize])
                            }
                            None => {
                                let mut px = [0f32; 4];
                                for (c, v) in px.iter_mut().enumerate().take(t.channels as usize) {
                                    let at = (y * row + (xs * t.channels + c as u32) * 4) as usize;
                                    let bits = u32::from_le_bytes([
                                        data[at],
                                        data[at + 1],
                                        data[at + 2],
                                        data[at + 3],
                                    ]);
                                    *v = t.kind.value(bits);
                                }
                                px
                            }
                        }
                    })
                    .collect();
                img.set(x, y, t.plan.resolve(&px));
            }
        }
        drop(data);
        buffer.unmap();
        images.push(img);
    }
    if let Some((format, (buffer, row))) = depth {
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| GpuError::Other(format!("reading back the depth buffer: {e}")))?;
        images.push(depth_image(&data, *row, format, width, height));
        drop(data);
        buffer.unmap();
    }
    Ok(images)
}

/// A single-level 2D texture a draw renders into or reads: a colour
/// target, the depth buffer, the single-sampled texture a multisampled
/// target is unpacked into, or the values a helper pass reads.
pub(super) fn attachment(
    r: &Renderer,
    label: &str,
    [width, height]: [u32; 2],
    samples: u32,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    r.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// Copies one texture (or aspect) into a new mappable buffer, each row of
/// `row_bytes` padded to wgpu's 256-byte copy alignment; returns the
/// buffer and the padded row size.
fn copy_out(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    source: wgpu::TexelCopyTextureInfo,
    size: wgpu::Extent3d,
    row_bytes: u32,
    label: &str,
) -> (wgpu::Buffer, u32) {
    let row = row_bytes.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let buffer = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: u64::from(row) * u64::from(size.height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        source,
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(size.height),
            },
        },
        size,
    );
    (buffer, row)
}
