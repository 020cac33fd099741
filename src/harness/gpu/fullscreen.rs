//! The harness's own helper draws: one full-screen triangle whose fragment
//! shader reads one texture (binding 0) through a non-filtering sampler
//! (binding 1; naga's GLSL front end fetches only through a combined
//! sampler) and writes a colour or a depth. wgpu copies neither into
//! multisampled or depth textures nor out of multisampled ones, so the
//! multisampled copies (`msaa.rs`) and the depth fill (`textures.rs`) are
//! such draws; they differ only in the parts [`Pass::new`] takes.

use super::Renderer;

const VS: &str = "#version 450
void main() {
    int i = int(gl_VertexIndex);
    gl_Position = vec4(i == 1 ? 3.0 : -1.0, i == 2 ? -3.0 : 1.0, 0.0, 1.0);
}
";

/// What a pass writes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Output {
    /// A colour attachment of this format (blending off, every channel).
    Colour(wgpu::TextureFormat),
    /// A depth attachment of this format, written through `gl_FragDepth`
    /// with the depth test `Always`.
    Depth(wgpu::TextureFormat),
}

/// A built pipeline with its bind-group layout and sampler, drawn as often
/// as the caller has targets (one layer or mip at a time).
pub(super) struct Pass {
    label: &'static str,
    output: Output,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
}

impl Pass {
    /// Compiles `fs_source` (GLSL 450) for targets of `output` with
    /// `samples` samples, reading a texture bound as `source`.
    pub(super) fn new(
        r: &Renderer,
        label: &'static str,
        fs_source: &str,
        source: wgpu::BindingType,
        output: Output,
        samples: u32,
    ) -> Pass {
        let device = &r.device;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(label),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: source,
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
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let vs = super::shaders::glsl_module(r, label, VS, naga::ShaderStage::Vertex);
        let fs = super::shaders::glsl_module(r, label, fs_source, naga::ShaderStage::Fragment);
        let (colour, depth_stencil) = match output {
            Output::Colour(format) => (
                Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                }),
                None,
            ),
            Output::Depth(format) => (
                None,
                Some(wgpu::DepthStencilState {
                    format,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
            ),
        };
        // A depth-only pass has no colour targets at all.
        let targets: Vec<Option<wgpu::ColorTargetState>> = colour.into_iter().map(Some).collect();
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&pipeline_layout),
            vertex: super::shaders::vertex_state(&vs, &[]),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil,
            multisample: wgpu::MultisampleState {
                count: samples,
                mask: !0,
                alpha_to_coverage_enabled: false,
            },
            fragment: Some(super::shaders::fragment_state(&fs, &targets)),
            multiview_mask: None,
            cache: None,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
        Pass {
            label,
            output,
            layout,
            pipeline,
            sampler,
        }
    }

    /// Records one draw reading `source` into `target` (a single-layer,
    /// single-mip view), which is cleared first.
    pub(super) fn draw(
        &self,
        r: &Renderer,
        encoder: &mut wgpu::CommandEncoder,
        source: &wgpu::TextureView,
        target: &wgpu::TextureView,
    ) {
        let bind = r.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(self.label),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(source),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        });
        let colour = [Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                store: wgpu::StoreOp::Store,
            },
        })];
        let (color_attachments, depth_stencil_attachment): (&[_], _) = match self.output {
            Output::Colour(_) => (&colour, None),
            Output::Depth(_) => (
                &[],
                Some(wgpu::RenderPassDepthStencilAttachment {
                    view: target,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
            ),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(self.label),
            color_attachments,
            depth_stencil_attachment,
            ..Default::default()
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// A single-sampled 2D texture of `format` holding `bytes` (rows packed,
/// no padding): the values a pass reads.
pub(super) fn value_texture(
    r: &Renderer,
    label: &'static str,
    format: wgpu::TextureFormat,
    [width, height]: [u32; 2],
    bytes: &[u8],
) -> wgpu::Texture {
    let tex = super::targets::attachment(
        r,
        label,
        [width, height],
        1,
        format,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
    );
    let texel = format.block_copy_size(None).unwrap_or(4);
    r.queue.write_texture(
        tex.as_image_copy(),
        bytes,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * texel),
            rows_per_image: Some(height),
        },
        tex.size(),
    );
    tex
}
