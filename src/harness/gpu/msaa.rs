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
//!   resolved on the CPU exactly as the emulator resolves
//!   (`TargetPlan::resolve`: the average of a pixel's samples, in linear
//!   space for sRGB targets), so both paths compare the same arithmetic.
//!
//! Both draws are `fullscreen::Pass`es, as the depth fill is.
//!
//! A sample count wgpu does not offer for a format on this adapter is
//! refused, naming the count and the format (docs/cases.md).

use crate::harness::image::TargetKind as Kind;
use crate::vm::texture::Texture;

use super::fullscreen::{Output, Pass, value_texture};
use super::{GpuError, Renderer};

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
    let pass = Pass::new(
        r,
        "msaa fill",
        &fs,
        texture_binding(unfilterable(p), false),
        Output::Colour(format),
        samples,
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
        let bytes: Vec<u8> = lanes
            .iter()
            .flat_map(|t| t.iter().flat_map(|l| l.to_le_bytes()))
            .collect();
        let values = value_texture(r, "sample values", value_format, [w * samples, h], &bytes);
        let view = values.create_view(&Default::default());
        let dst = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("multisampled layer"),
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        pass.draw(r, &mut encoder, &view, &dst);
    }
    r.queue.submit([encoder.finish()]);
    Ok(texture)
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
    Pass::new(
        r,
        "msaa unpack",
        &fs,
        texture_binding(unfilterable(p), true),
        Output::Colour(format),
        1,
    )
    .draw(r, encoder, &src, &dst);
    out
}
