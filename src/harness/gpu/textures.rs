//! Case textures on the GPU: colour formats uploaded with `write_texture`
//! from the texture unit's own bytes (so both renderers read identical
//! texels; A8, which wgpu lacks, as RGBA8 holding (0, 0, 0, a)), depth formats rendered with `gl_FragDepth` one layer and mip at
//! a time (wgpu cannot copy into depth textures), and 1x1 zero textures for
//! slots the shader declares but the case leaves unbound.

use crate::vm::texture::{Dimension, Format, Texture, TextureDesc};

use super::{GpuError, Renderer};

/// The texture-unit format whose bytes are uploaded for `format`: itself,
/// except A8_UNORM, which wgpu does not have; RGBA8_UNORM holding
/// (0, 0, 0, a) gives the shader the same values in every lane, filtered
/// or not. A stencil view goes up the same way, as RGBA8_UINT holding
/// (0, s, 0, 1): Vulkan's stencil aspect would put the stencil in `.x`,
/// where D3D's view has it in `.y`, and WebGL2 cannot sample stencil at
/// all, so the translated shader is bound a colour texture with the
/// stencil in green.
pub(super) fn upload_format(format: Format) -> Format {
    match format {
        Format::A8Unorm => Format::Rgba8Unorm,
        Format::X24TypelessG8Uint | Format::X32TypelessG8X24Uint => Format::Rgba8Uint,
        f => f,
    }
}

/// The wgpu format holding a texture-unit format's bytes as
/// [`upload_format`] encodes them, bit for bit.
pub(super) fn wgpu_format(format: Format) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as T;
    match format {
        Format::R8Unorm => T::R8Unorm,
        Format::Rg8Unorm => T::Rg8Unorm,
        Format::Rgba8Unorm => T::Rgba8Unorm,
        Format::R32Float => T::R32Float,
        Format::Rg32Float => T::Rg32Float,
        Format::Rgba16Float => T::Rgba16Float,
        Format::Rgba32Float => T::Rgba32Float,
        Format::R32Uint => T::R32Uint,
        Format::R32Sint => T::R32Sint,
        Format::D32Float => T::Depth32Float,
        Format::D16Unorm => T::Depth16Unorm,
        // Colour formats: sRGB, BGRA, SNORM, 8/16-bit, packed.
        Format::Rgba8UnormSrgb => T::Rgba8UnormSrgb,
        Format::Bgra8Unorm => T::Bgra8Unorm,
        Format::Bgra8UnormSrgb => T::Bgra8UnormSrgb,
        Format::Rgba8Snorm => T::Rgba8Snorm,
        Format::Rgba8Uint => T::Rgba8Uint,
        Format::Rgba8Sint => T::Rgba8Sint,
        Format::Rg8Snorm => T::Rg8Snorm,
        Format::Rgba16Unorm => T::Rgba16Unorm,
        Format::Rgba16Snorm => T::Rgba16Snorm,
        Format::Rgba16Uint => T::Rgba16Uint,
        Format::Rgba16Sint => T::Rgba16Sint,
        Format::R16Unorm => T::R16Unorm,
        Format::R16Snorm => T::R16Snorm,
        Format::R16Uint => T::R16Uint,
        Format::R16Sint => T::R16Sint,
        Format::R16Float => T::R16Float,
        Format::Rg16Unorm => T::Rg16Unorm,
        Format::Rg16Snorm => T::Rg16Snorm,
        Format::Rg16Uint => T::Rg16Uint,
        Format::Rg16Sint => T::Rg16Sint,
        Format::Rg16Float => T::Rg16Float,
        Format::Rgb10a2Unorm => T::Rgb10a2Unorm,
        Format::Rg11b10Float => T::Rg11b10Ufloat,
        Format::Rgb9e5 => T::Rgb9e5Ufloat,
        Format::R8Uint => T::R8Uint,
        Format::A8Unorm => T::Rgba8Unorm,
        // A depth view's depths (24-bit UNORM ones are exact in f32) go up
        // through the depth fill, so comparison samplers read them; a
        // stencil view as `upload_format` says. The resource formats are
        // refused by `upload` before this is asked.
        Format::R24UnormX8Typeless
        | Format::R32FloatX8X24Typeless
        | Format::D24UnormS8Uint
        | Format::D32FloatS8X24Uint => T::Depth32Float,
        Format::X24TypelessG8Uint | Format::X32TypelessG8X24Uint => T::Rgba8Uint,
        // Block-compressed: the device's own format where it has them.
        Format::Bc1Unorm => T::Bc1RgbaUnorm,
        Format::Bc1UnormSrgb => T::Bc1RgbaUnormSrgb,
        Format::Bc2Unorm => T::Bc2RgbaUnorm,
        Format::Bc2UnormSrgb => T::Bc2RgbaUnormSrgb,
        Format::Bc3Unorm => T::Bc3RgbaUnorm,
        Format::Bc3UnormSrgb => T::Bc3RgbaUnormSrgb,
        Format::Bc4Unorm => T::Bc4RUnorm,
        Format::Bc4Snorm => T::Bc4RSnorm,
        Format::Bc5Unorm => T::Bc5RgUnorm,
        Format::Bc5Snorm => T::Bc5RgSnorm,
        Format::Bc6hUf16 => T::Bc6hRgbUfloat,
        Format::Bc6hSf16 => T::Bc6hRgbFloat,
        Format::Bc7Unorm => T::Bc7RgbaUnorm,
        Format::Bc7UnormSrgb => T::Bc7RgbaUnormSrgb,
    }
}

/// The resource under a case texture's view, as the GPU copy holds it:
/// the whole resource (every mip and layer, the view picks its part with a
/// `TextureViewDescriptor`), its bytes in the *view's* format. wgpu views
/// may only change a format's sRGB-ness, so a typeless resource read as
/// another format of its group (r32_float read as r32_uint) is uploaded as
/// that format: the same bytes, interpreted as the shader's view does.
fn gpu_resource(tex: &Texture) -> Result<Texture, GpuError> {
    let res = tex.resource();
    if res.format() == tex.format() {
        return Ok(res);
    }
    let desc = TextureDesc {
        format: tex.format(),
        ..*res.desc()
    };
    Texture::from_bytes(desc, &res.to_bytes()).map_err(|e| GpuError::Other(e.to_string()))
}

/// How a block-compressed texture goes up: its blocks, when the device
/// reads the format and the top level is whole blocks (wgpu requires
/// that of compressed textures; D3D's own rule for BC resources too),
/// else the texture unit's decoded lanes as `Rgba32Float` (sRGB already
/// linearised, exactly the values the emulator reads). `None` for other
/// formats. The second value is the report's line.
fn block_upload(r: &Renderer, tex: &Texture) -> Option<(bool, String)> {
    let f = tex.format();
    f.block_bytes()?;
    let [w, h, _] = tex.level_size(0).unwrap_or([1, 1, 1]);
    Some(if !r.bc {
        (
            false,
            format!(
                "{} uploaded decoded (rgba32_float): the device lacks TEXTURE_COMPRESSION_BC",
                f.name()
            ),
        )
    } else if tex.dimension() == Dimension::Tex3D && !r.bc_3d {
        (
            false,
            format!(
                "{} uploaded decoded (rgba32_float): the device lacks TEXTURE_COMPRESSION_BC_SLICED_3D for 3D textures",
                f.name()
            ),
        )
    } else if !(w.is_multiple_of(4) && h.is_multiple_of(4)) {
        (
            false,
            format!(
                "{} uploaded decoded (rgba32_float): {w}x{h} is not whole 4x4 blocks, which wgpu requires of compressed textures",
                f.name()
            ),
        )
    } else {
        (true, format!("{} uploaded compressed", f.name()))
    })
}

/// Builds the GPU copy of a case texture's resource (see [`gpu_resource`]).
/// 1D textures become 2D textures
/// of height 1 (1D arrays: 2D arrays), as the vk450 dialect declares them;
/// cubes are six-layer 2D textures in D3D face order (the same order
/// Vulkan uses). `compared`: the shader reads the slot through a
/// comparison sampler. A depth texture it does not compare goes up as
/// `R32Float` holding the decoded depths (see [`depth_as_colour`]).
pub(super) fn upload(
    r: &Renderer,
    tex: &Texture,
    compared: bool,
) -> Result<wgpu::Texture, GpuError> {
    let tex = &gpu_resource(tex)?;
    if let Some([depth, stencil]) = tex.format().depth_stencil_views() {
        return Err(GpuError::Other(format!(
            "{} is no shader resource format: read it through {} or {}",
            tex.format().name(),
            depth.name(),
            stencil.name()
        )));
    }
    let desc = tex.desc();
    if matches!(desc.dimension, Dimension::Tex2DMS | Dimension::Tex2DMSArray) {
        return super::msaa::upload(r, tex, wgpu_format(tex.format()));
    }
    if !compared && tex.format().is_depth() {
        return upload(r, &depth_as_colour(tex)?, false);
    }
    if desc.dimension == Dimension::Buffer {
        return Err(GpuError::Other(format!(
            "{:?} resources are not drawn on the GPU path",
            desc.dimension
        )));
    }
    let three_d = desc.dimension == Dimension::Tex3D;
    let [w, h, d] = tex.level_size(0).unwrap_or([1, 1, 1]);
    let block = block_upload(r, tex);
    let compressed = block.as_ref().is_some_and(|(c, _)| *c);
    if let Some((_, note)) = block {
        r.notes.borrow_mut().push(note);
    }
    let format = match (tex.format().is_block_compressed(), compressed) {
        (true, false) => wgpu::TextureFormat::Rgba32Float,
        _ => wgpu_format(tex.format()),
    };
    let needed = format.required_features();
    if !r.device.features().contains(needed) {
        return Err(GpuError::Other(format!(
            "{} needs the wgpu feature {needed:?}, which this adapter lacks",
            tex.format().name()
        )));
    }
    let depth = tex.format().is_depth();
    let mut usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    if depth {
        usage |= wgpu::TextureUsages::RENDER_ATTACHMENT;
    }
    let texture = r.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("case texture"),
        size: wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: if three_d { d } else { tex.layers() },
        },
        mip_level_count: tex.mip_levels(),
        sample_count: 1,
        dimension: if three_d {
            wgpu::TextureDimension::D3
        } else {
            wgpu::TextureDimension::D2
        },
        format,
        usage,
        view_formats: &[],
    });
    if depth {
        fill_depth(r, tex, &texture)?;
        return Ok(texture);
    }
    // `to_bytes` is D3D subresource order: layer by layer, each layer's
    // mip chain from level 0, each level slice by slice, row by row.
    // Compressed levels are copied whole blocks at a time: a level
    // smaller than a block is one block, its physical size. Decoded
    // blocks are 16-byte texels, as `bytes_per_texel` says.
    let (bytes, block, bpp) = if compressed {
        (
            tex.to_bytes(),
            Some(tex.format().block_bytes().unwrap_or(16)),
            tex.format().bytes_per_texel(),
        )
    } else if tex.format().is_block_compressed() {
        (tex.decoded_bytes(), None, tex.format().bytes_per_texel())
    } else {
        let as_format = upload_format(tex.format());
        (
            tex.to_bytes_as(as_format),
            None,
            as_format.bytes_per_texel(),
        )
    };
    let mut at = 0usize;
    for layer in 0..tex.layers() {
        for level in 0..tex.mip_levels() {
            let [lw, lh, ld] = tex.level_size(level).unwrap_or([1, 1, 1]);
            let (lw, lh, row, len) = match block {
                Some(b) => {
                    let (bw, bh) = crate::vm::texture::blocks_across(lw, lh);
                    let row = bw as usize * b;
                    (bw * 4, bh * 4, row, row * bh as usize * ld as usize)
                }
                None => {
                    let row = lw as usize * bpp;
                    (lw, lh, row, row * lh as usize * ld as usize)
                }
            };
            let Some(data) = bytes.get(at..at + len) else {
                return Err(GpuError::Other(
                    "texture bytes shorter than its shape".into(),
                ));
            };
            r.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: level,
                    origin: wgpu::Origin3d {
                        x: 0,
                        y: 0,
                        z: if three_d { 0 } else { layer },
                    },
                    aspect: wgpu::TextureAspect::All,
                },
                data,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row as u32),
                    rows_per_image: Some(if block.is_some() { lh / 4 } else { lh }),
                },
                wgpu::Extent3d {
                    width: lw,
                    height: lh,
                    depth_or_array_layers: ld,
                },
            );
            at += len;
        }
    }
    Ok(texture)
}

/// A depth texture as an `R32Float` one of the same shape holding its
/// decoded depths (exact: 16- and 24-bit UNORM codes are exact in f32).
/// D3D filters depth formats a shader reads without comparison (D16, D32,
/// R24_UNORM_X8 are all filterable) and returns the depth in `.x` with
/// (0, 0, 1) beside it, which is what an R32_FLOAT texture gives; wgpu
/// binds depth formats only unfilterable, so a linear sampler could not
/// read them.
fn depth_as_colour(tex: &Texture) -> Result<Texture, GpuError> {
    let desc = TextureDesc {
        format: Format::R32Float,
        ..*tex.desc()
    };
    Texture::from_bytes(desc, &tex.to_bytes_as(Format::R32Float))
        .map_err(|e| GpuError::Other(e.to_string()))
}

const DEPTH_FS: &str = "#version 450
layout(set = 0, binding = 0) uniform texture2D depthValues;
layout(set = 0, binding = 1) uniform sampler depthSampler;
void main() {
    gl_FragDepth = texelFetch(sampler2D(depthValues, depthSampler), ivec2(gl_FragCoord.xy), 0).x;
}
";

/// Renders every layer and mip of a depth texture: the depths go up as an
/// `R32Float` texture, and a full-screen triangle writes each texel's value
/// through `gl_FragDepth` (depth test `Always`). D16 rounds the float to
/// the nearest 16-bit unorm, as the texture unit stored it.
fn fill_depth(r: &Renderer, tex: &Texture, target: &wgpu::Texture) -> Result<(), GpuError> {
    use super::fullscreen::{Output, Pass, value_texture};
    let pass = Pass::new(
        r,
        "depth fill",
        DEPTH_FS,
        wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        Output::Depth(target.format()),
        1,
    );
    let mut encoder = r.device.create_command_encoder(&Default::default());
    for layer in 0..tex.layers() {
        for level in 0..tex.mip_levels() {
            let [w, h, _] = tex.level_size(level).unwrap_or([1, 1, 1]);
            let mut values = Vec::with_capacity((w * h) as usize * 4);
            for y in 0..h {
                for x in 0..w {
                    let d = tex.texel(layer, level, [x, y, 0], 0).unwrap_or([0; 4])[0];
                    values.extend_from_slice(&d.to_le_bytes());
                }
            }
            let src = value_texture(
                r,
                "depth values",
                wgpu::TextureFormat::R32Float,
                [w, h],
                &values,
            );
            let dst = target.create_view(&wgpu::TextureViewDescriptor {
                label: Some("depth layer"),
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_mip_level: level,
                mip_level_count: Some(1),
                base_array_layer: layer,
                array_layer_count: Some(1),
                ..Default::default()
            });
            pass.draw(r, &mut encoder, &src.create_view(&Default::default()), &dst);
        }
    }
    r.queue.submit([encoder.finish()]);
    Ok(())
}

/// The kind of zero texture an unbound slot gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Dummy {
    Float,
    Sint,
    Uint,
    Depth,
}

/// A zero texture of one texel per layer (six for cubes) for a slot the
/// shader declares and the case does not fill.
pub(super) fn dummy(
    r: &Renderer,
    kind: Dummy,
    dim: wgpu::TextureViewDimension,
    multisampled: bool,
) -> Result<wgpu::Texture, GpuError> {
    let format = match kind {
        Dummy::Float => Format::Rgba8Unorm,
        Dummy::Sint => Format::R32Sint,
        Dummy::Uint => Format::R32Uint,
        Dummy::Depth => Format::D32Float,
    };
    use crate::vm::texture::TextureDesc;
    // Multisampled slots get 4 samples, the count Vulkan requires of
    // every device; `sampleinfo` of an unbound slot still reads 0 from
    // the levels block.
    let desc = match dim {
        _ if multisampled && dim == wgpu::TextureViewDimension::D2Array => {
            TextureDesc::tex2d_ms_array(format, 1, 1, 1, 4)
        }
        _ if multisampled => TextureDesc::tex2d_ms(format, 1, 1, 4),
        wgpu::TextureViewDimension::Cube | wgpu::TextureViewDimension::CubeArray => {
            TextureDesc::cube(format, 1)
        }
        wgpu::TextureViewDimension::D3 => TextureDesc::tex3d(format, 1, 1, 1),
        wgpu::TextureViewDimension::D2Array => TextureDesc::tex2d_array(format, 1, 1, 1),
        _ => TextureDesc::tex2d(format, 1, 1),
    };
    let tex = Texture::zeroed(desc).map_err(|e| GpuError::Other(e.to_string()))?;
    upload(r, &tex, kind == Dummy::Depth)
}
