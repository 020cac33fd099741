//! Multisampled textures and targets on the GPU. wgpu copies neither into
//! nor out of a multisampled texture, so both directions are draws:
//!
//! * a case's multisampled texture is filled by rendering into it, one
//!   layer at a time: the values go up as a single-sampled 32-bit texture
//!   `samples` times as wide (texel `(x, y)`'s sample `s` at
//!   `(x * samples + s, y)`), and a full-screen triangle whose shader runs
//!   per sample (it reads `gl_SampleID`) writes each sample its own value;
//! * a multisampled render target is unpacked the other way, into a
//!   single-sampled texture laid out the same, which is read back and
//!   resolved on the CPU exactly as the emulator resolves (the average of
//!   a pixel's samples), so both paths compare the same arithmetic.
//!
//! A sample count wgpu does not offer for a format on this adapter is
//! refused, naming the count and the format (docs/cases.md).

use crate::harness::image::TargetKind as Kind;
use crate::vm::texture::Texture;

use super::{GpuError, Renderer};

const VS: &str = "#version 450
void main() {
    int i = int(gl_VertexIndex);
    gl_Position = vec4(i == 1 ? 3.0 : -1.0, i == 2 ? -3.0 : 1.0, 0.0, 1.0);
}
";

/// How a texture's lanes travel: the 32-bit format holding them and the
/// GLSL prefix of the values (`` float, `u`, `i`).
fn kind_of(format: wgpu::TextureFormat) -> (wgpu::TextureFormat, &'static str) {
    use wgpu::TextureSampleType as S;
    match format.sample_type(None, None) {
        Some(S::Uint) => (wgpu::TextureFormat::Rgba32Uint, "u"),
        Some(S::Sint) => (wgpu::TextureFormat::Rgba32Sint, "i"),
        _ => (wgpu::TextureFormat::Rgba32Float, ""),
    }
}

/// Refuses a sample count the adapter does not offer for `format`.
pub(super) fn check_count(
    r: &Renderer,
    format: wgpu::TextureFormat,
    samples: u32,
    what: &str,
) -> Result<(), GpuError> {
    let flags = r.adapter.get_texture_format_features(format).flags;
    if samples > 1 && !flags.sample_count_supported(samples) {
        return Err(GpuError::Other(format!(
            "{what}: wgpu offers no {samples}-sample {format:?} textures on this adapter \
             (it offers {:?})",
            flags.supported_sample_counts()
        )));
    }
    Ok(())
}

/// A single-sampled texture `width * samples` wide holding `lanes` (four
/// 32-bit lanes a texel) in `format`.
fn value_texture(
    r: &Renderer,
    format: wgpu::TextureFormat,
    width: u32,
    height: u32,
    lanes: &[[u32; 4]],
) -> wgpu::Texture {
    let tex = r.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("sample values"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let bytes: Vec<u8> = lanes
        .iter()
        .flat_map(|t| t.iter().flat_map(|l| l.to_le_bytes()))
        .collect();
    r.queue.write_texture(
        tex.as_image_copy(),
        &bytes,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * 16),
            rows_per_image: Some(height),
        },
        tex.size(),
    );
    tex
}

fn texture_binding(sample_type: wgpu::TextureSampleType, multisampled: bool) -> wgpu::BindingType {
    wgpu::BindingType::Texture {
        sample_type,
        view_dimension: wgpu::TextureViewDimension::D2,
        multisampled,
    }
}

fn unfilterable(prefix: &str) -> wgpu::TextureSampleType {
    match prefix {
        "u" => wgpu::TextureSampleType::Uint,
        "i" => wgpu::TextureSampleType::Sint,
        _ => wgpu::TextureSampleType::Float { filterable: false },
    }
}

/// Creates a case's multisampled texture and fills every sample of every
/// layer with the texture unit's values.
pub(super) fn upload(
    r: &Renderer,
    tex: &Texture,
    format: wgpu::TextureFormat,
) -> Result<wgpu::Texture, GpuError> {
    let samples = tex.sample_count();
    if samples == 1 {
        // D3D allows a Texture2DMS of one sample; wgpu's multisampled
        // bindings need a multisampled texture.
        return Err(GpuError::Other(
            "a Texture2DMS with 1 sample: wgpu binds only textures of more than one sample \
             as multisampled"
                .into(),
        ));
    }
    check_count(r, format, samples, "multisampled texture")?;
    if tex.layers() > 1
        && !r
            .device
            .features()
            .contains(wgpu::Features::MULTISAMPLE_ARRAY)
    {
        return Err(GpuError::Other(
            "multisampled texture arrays need wgpu's MULTISAMPLE_ARRAY, which this adapter lacks"
                .into(),
        ));
    }
    let [w, h, _] = tex.level_size(0).unwrap_or([1, 1, 1]);
    let texture = r.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("case texture (multisampled)"),
        size: wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: tex.layers(),
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    // Normalized formats store what the decoded float values convert
    // back to: the same bytes the texture unit decoded them from.
    let (value_format, p) = kind_of(format);
    let fs = format!(
        "#version 450
layout(set = 0, binding = 0) uniform {p}texture2D values;
layout(set = 0, binding = 1) uniform sampler hlslcc_none;
layout(location = 0) out {p}vec4 colour;
void main() {{
    ivec2 at = ivec2(gl_FragCoord.xy);
    colour = texelFetch({p}sampler2D(values, hlslcc_none), ivec2(at.x * {samples} + int(gl_SampleID), at.y), 0);
}}
"
    );
    let mut encoder = r.device.create_command_encoder(&Default::default());
    for layer in 0..tex.layers() {
        let mut lanes = Vec::with_capacity((w * h * samples) as usize);
        for y in 0..h {
            for x in 0..w {
                for s in 0..samples {
                    lanes.push(tex.texel(layer, 0, [x, y, 0], s).unwrap_or([0; 4]));
                }
            }
        }
        let values = value_texture(r, value_format, w * samples, h, &lanes);
        let view = values.create_view(&Default::default());
        let dst = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("multisampled layer"),
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        draw(
            r,
            &mut encoder,
            &fs,
            &view,
            texture_binding(unfilterable(p), false),
            &dst,
            format,
            samples,
        );
    }
    r.queue.submit([encoder.finish()]);
    Ok(texture)
}

/// One full-screen draw of `fs_source` into `target` (a view of `format`
/// with `samples` samples), reading `source` as binding 0 through the
/// non-filtering sampler at binding 1 (naga's GLSL front end fetches only
/// through a combined sampler).
#[allow(clippy::too_many_arguments)]
fn draw(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    fs_source: &str,
    source: &wgpu::TextureView,
    source_binding: wgpu::BindingType,
    target: &wgpu::TextureView,
    format: wgpu::TextureFormat,
    samples: u32,
) {
    let device = &r.device;
    let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("msaa copy"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: source_binding,
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                count: None,
            },
        ],
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("msaa copy"),
        bind_group_layouts: &[Some(&bgl)],
        immediate_size: 0,
    });
    let vs = super::shaders::module(r, "msaa copy vs", VS, naga::ShaderStage::Vertex);
    let fs = super::shaders::module(r, "msaa copy fs", fs_source, naga::ShaderStage::Fragment);
    let color = [Some(wgpu::ColorTargetState {
        format,
        blend: None,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("msaa copy"),
        layout: Some(&layout),
        vertex: super::shaders::vertex_state(&vs, &[]),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState {
            count: samples,
            mask: !0,
            alpha_to_coverage_enabled: false,
        },
        fragment: Some(super::shaders::fragment_state(&fs, &color)),
        multiview_mask: None,
        cache: None,
    });
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("msaa copy"),
        layout: &bgl,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(source),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&sampler),
            },
        ],
    });
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("msaa copy"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    });
    pass.set_pipeline(&pipeline);
    pass.set_bind_group(0, &bind, &[]);
    pass.draw(0..3, 0..1);
}

/// Unpacks a multisampled render target into a single-sampled texture of
/// the same format `samples` times as wide (sample `s` of pixel `(x, y)`
/// at `(x * samples + s, y)`), for the read-back.
pub(super) fn unpack(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    target: &wgpu::Texture,
    kind: Kind,
    channels: u32,
) -> wgpu::Texture {
    let samples = target.sample_count();
    let size = target.size();
    let format = target.format();
    let out = super::targets::attachment(
        r,
        "unpacked samples",
        [size.width * samples, size.height],
        1,
        format,
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
    );
    let p = match kind {
        Kind::Float => "",
        Kind::Uint => "u",
        Kind::Sint => "i",
    };
    let out_ty = match channels {
        1 => match kind {
            Kind::Float => "float",
            Kind::Uint => "uint",
            Kind::Sint => "int",
        }
        .to_string(),
        n => format!("{p}vec{n}"),
    };
    let pick = match channels {
        1 => ".x",
        2 => ".xy",
        3 => ".xyz",
        _ => "",
    };
    let fs = format!(
        "#version 450
layout(set = 0, binding = 0) uniform {p}texture2DMS samples;
layout(set = 0, binding = 1) uniform sampler hlslcc_none;
layout(location = 0) out {out_ty} colour;
void main() {{
    ivec2 at = ivec2(gl_FragCoord.xy);
    colour = texelFetch({p}sampler2DMS(samples, hlslcc_none), ivec2(at.x / {samples}, at.y), at.x % {samples}){pick};
}}
"
    );
    let src = target.create_view(&Default::default());
    let dst = out.create_view(&Default::default());
    draw(
        r,
        encoder,
        &fs,
        &src,
        texture_binding(unfilterable(p), true),
        &dst,
        format,
        1,
    );
    out
}
