//! Render targets and read-back. Each `SV_TargetN` output gets a 32-bit
//! target with exactly as many channels as the output declares (wgpu
//! requires the format's channels to be a subset of the output's): float
//! outputs render to `R32Float`/`Rg32Float`/`Rgba32Float`, `int`/`uint`
//! outputs to the matching `…32Sint`/`…32Uint`. Read back, integer values
//! become the f32 *value* (`7u` → 7.0; exact up to 2^24), missing channels 0.
//! A multisampled target (`samples N`) is unpacked sample by sample
//! (`msaa::unpack`), read back and resolved as the emulator resolves.

use crate::glsl::Manifest;
use crate::harness::image::{Image, TargetKind as Kind};

use super::{GpuError, Renderer};

pub(super) struct Target {
    /// The `N` of `SV_TargetN`.
    pub index: u32,
    pub location: u32,
    pub kind: Kind,
    pub channels: u32,
    pub format: wgpu::TextureFormat,
    pub texture: wgpu::Texture,
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
    ps: &Manifest,
    width: u32,
    height: u32,
    samples: u32,
) -> Result<Vec<Target>, GpuError> {
    let mut out = Vec::new();
    for o in &ps.outputs {
        if !o.semantic.eq_ignore_ascii_case("SV_Target") {
            continue;
        }
        let Some(location) = o.location else { continue };
        let (kind, channels) = Kind::of_output(o.glsl_type);
        let format = format_for(kind, channels).ok_or_else(|| {
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
        let texture = r.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(&o.glsl_name),
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
        });
        out.push(Target {
            index: o.register,
            location,
            kind,
            channels,
            format,
            texture,
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
    height: u32,
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
        let row = (width * 4 * t.channels).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = r.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back"),
            size: row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(height),
                },
            },
            texture.size(),
        );
        buffers.push((buffer, row));
    }
    buffers
}

pub(super) fn to_images(
    r: &Renderer,
    targets: &[Target],
    buffers: &[(wgpu::Buffer, u32)],
    width: u32,
    height: u32,
    timeout: std::time::Duration,
) -> Result<Vec<Image>, GpuError> {
    for (b, _) in buffers {
        b.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    }
    r.device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: Some(timeout),
        })
        .map_err(|e| match e {
            wgpu::PollError::Timeout => GpuError::Timeout(timeout),
            e => GpuError::Other(format!("waiting for the GPU: {e}")),
        })?;
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
                        let mut px = [0f32; 4];
                        for (c, v) in px.iter_mut().enumerate().take(t.channels as usize) {
                            let at = (y * row + ((x * samples + s) * t.channels + c as u32) * 4)
                                as usize;
                            let bits = u32::from_le_bytes([
                                data[at],
                                data[at + 1],
                                data[at + 2],
                                data[at + 3],
                            ]);
                            *v = t.kind.value(bits);
                        }
                        px
                    })
                    .collect();
                img.set(x, y, crate::harness::cpu::resolve(&px));
            }
        }
        drop(data);
        buffer.unmap();
        images.push(img);
    }
    Ok(images)
}
