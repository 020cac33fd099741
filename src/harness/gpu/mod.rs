//! The GPU path: a case drawn through the vk450 translation with wgpu on
//! Vulkan (Mesa's lavapipe where there is no GPU). See docs/harness.md,
//! "GPU path", for the conventions.
//!
//! * `device`: instance, adapter, device and the optional features;
//! * `shaders`: translation with shared varying locations, the generated
//!   pass-through vertex shader, the vertex buffer for a case's own one;
//! * `textures`: uploads (colour by copy, depth by rendering), zero
//!   textures for unbound slots;
//! * `bindings`: the bind group from the manifests, samplers and the two
//!   emulation blocks;
//! * `targets`: one target per `SV_TargetN`, read-back into images;
//! * `msaa`: multisampled textures filled, and multisampled targets read,
//!   by drawing (wgpu copies neither);
//! * `storage`: buffer views and UAVs bound as storage buffers and images,
//!   and the UAVs read back after the draw; shaders with storage are
//!   compiled by glslangValidator through `harness::spirv`;
//! * `passthrough`: those with image atomics handed to the driver as
//!   SPIR-V without naga, their bindings renumbered for wgpu's layout;
//! * `isolated`: the same draws in a worker process, so a driver that
//!   aborts or faults fails one case instead of the whole run.

mod bindings;
mod capture;
mod device;
mod fullscreen;
pub mod isolated;
mod msaa;
mod passthrough;
mod shaders;
mod storage;
mod targets;
mod textures;

use std::cell::RefCell;
use std::time::{Duration, Instant};

use super::case::{Case, CaseShaders};
use super::image::Image;
use super::suite::{self, Backend, Rendered, elapsed_ms};
use crate::glsl;
use crate::vm::memory::Buffer;
use crate::vm::output_merger::DepthFormat;

use device::Device as Renderer;

#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter could be created (no driver, no lavapipe).
    #[error("no GPU adapter: {0}")]
    NoAdapter(String),
    /// The draw did not finish in time (the driver still compiling or
    /// running the shader).
    #[error(
        "the draw did not finish within {} s: the driver is still compiling or running the shader",
        .0.as_secs()
    )]
    Timeout(Duration),
    /// The worker process drawing for [`isolated::Isolated`] died: killed
    /// by a signal or exited mid-draw (a driver abort or segfault).
    /// `status` says how (`signal 11, SIGSEGV`, `exit status 134`);
    /// `last_words` is the last line it wrote to standard error, if any
    /// (glibc's `*** stack smashing detected ***` and the like).
    #[error(
        "the Vulkan driver crashed ({status}){}",
        .last_words.as_ref().map(|w| format!("; it said: {w}")).unwrap_or_default()
    )]
    Crashed {
        status: String,
        last_words: Option<String>,
    },
    /// The worker process could not be started or spoke out of turn.
    #[error("the Vulkan worker process: {0}")]
    Worker(String),
    /// Anything else, with the case file and what failed.
    #[error("{0}")]
    Other(String),
}

/// What draws a case on Vulkan: [`Gpu`] in this process, or
/// [`isolated::Isolated`] through a worker process. The bisection's
/// Vulkan entry points and the suite's renderer take either.
pub trait Draw {
    /// The adapter's name, for reports.
    fn adapter_name(&self) -> String;
    /// [`Gpu::render_with_uavs`].
    fn draw(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Drawing, GpuError>;
    /// [`suite::Renderer::refuses`]: a device limit or capability the
    /// case's storage exceeds.
    fn refusal(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Option<String>;
}

/// How long one case's draw may take by default. lavapipe compiles a
/// pipeline when it first draws with it, and LLVM can take minutes over a
/// long shader with the texture emulation inlined many times; a draw that
/// never ends (a shader looping on the GPU alone) must not stall the run.
pub const DEFAULT_DRAW_TIMEOUT: Duration = Duration::from_secs(300);

/// A device and queue, created once and reused for every case.
pub struct Gpu {
    r: RefCell<Renderer>,
    timeout: Duration,
}

impl Gpu {
    /// Opens the first Vulkan adapter; `GpuError::NoAdapter` (saying how to
    /// install lavapipe) when there is none.
    pub fn new() -> Result<Gpu, GpuError> {
        Ok(Gpu {
            r: RefCell::new(device::open()?),
            timeout: DEFAULT_DRAW_TIMEOUT,
        })
    }

    /// The same, with another limit on each draw.
    pub fn with_timeout(mut self, timeout: Duration) -> Gpu {
        self.timeout = timeout;
        self
    }

    /// The adapter's name, for reports.
    pub fn adapter_name(&self) -> String {
        self.r.borrow().adapter_name.clone()
    }

    /// Draws the case's quad; one image per render target (`SV_TargetN`
    /// in index order), cleared to zero where the quad does not reach.
    pub fn render(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Vec<Image>, GpuError> {
        self.render_with_uavs(case, shaders, options)
            .map(|d| d.images)
    }

    /// [`Gpu::render`], with every UAV read back after the draw.
    pub fn render_with_uavs(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Drawing, GpuError> {
        let r = self.r.borrow();
        r.notes.borrow_mut().clear();
        let scope = r.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let result = self.draw_on(&r, case, shaders, options);
        if let Err(GpuError::Timeout(_)) = result {
            // The device is still busy with this draw, and would be for
            // every later one: it is left to finish on its own (dropping
            // it would wait for it), and later cases get a new one.
            drop(r);
            let fresh = device::open()?;
            std::mem::forget(self.r.replace(fresh));
            return result.map_err(|e| GpuError::Other(format!("{}: {e}", case.path.display())));
        }
        let error = pollster::block_on(scope.pop());
        match (result, error) {
            (Err(e), _) => Err(e),
            (Ok(_), Some(e)) => Err(GpuError::Other(format!(
                "{}: wgpu rejected the draw: {}",
                case.path.display(),
                describe(&e)
            ))),
            (Ok(mut drawing), None) => {
                drawing.notes = std::mem::take(&mut *r.notes.borrow_mut());
                Ok(drawing)
            }
        }
    }

    fn draw_on(
        &self,
        r: &Renderer,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Drawing, GpuError> {
        let device = &r.device;
        if case.quad.len() != 4 {
            return Err(GpuError::Other(format!(
                "{}: a quad has four corners",
                case.path.display()
            )));
        }
        if !r.f64 && shaders::uses_doubles(shaders) {
            return Err(GpuError::Other(format!(
                "{}: the shader uses doubles, which need wgpu's SHADER_F64 (Vulkan \
                 shaderFloat64); the adapter {} lacks it",
                case.path.display(),
                r.adapter_name
            )));
        }
        let stages = shaders::translate(case, shaders, options)?;
        let mut manifests = vec![&stages.pixel.manifest];
        if let Some(vs) = &stages.vertex {
            manifests.push(&vs.manifest);
        }
        let mut bindings = bindings::build(r, case, &manifests)?;
        // Errors from the targets' plan name the case file and line.
        let targets = targets::create(
            r,
            case,
            &stages.pixel.manifest,
            case.width,
            case.height,
            case.samples.max(1),
        )?;
        let depth_buffer = targets::depth_buffer(case, shaders);
        let depth = targets::create_depth(r, case, depth_buffer)?;

        let fail = |e: GpuError| match e {
            GpuError::Other(m) => GpuError::Other(format!("{}: {m}", case.path.display())),
            e => e,
        };
        let vs = shaders::module(
            r,
            "vertex",
            &stages.vertex_source,
            naga::ShaderStage::Vertex,
            stages
                .vertex
                .as_ref()
                .map_or(shaders::Route::Glsl, |t| shaders::Route::of(&t.manifest)),
            &bindings.numbers,
        )
        .map_err(fail)?;
        let fs = shaders::module(
            r,
            "pixel",
            &stages.pixel.source,
            naga::ShaderStage::Fragment,
            shaders::Route::of(&stages.pixel.manifest),
            &bindings.numbers,
        )
        .map_err(fail)?;
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("case"),
            bind_group_layouts: &[Some(&bindings.layout)],
            immediate_size: 0,
        });
        let (vertex_bytes, stride, attributes) = match &stages.vertex {
            Some(t) => shaders::vertex_inputs(case, &t.manifest),
            None => (Vec::new(), 0, Vec::new()),
        };
        let vertex_layouts = [Some(wgpu::VertexBufferLayout {
            array_stride: stride,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        })];
        let locations = targets.iter().map(|t| t.location + 1).max().unwrap_or(0);
        let mut color: Vec<Option<wgpu::ColorTargetState>> = vec![None; locations as usize];
        for t in &targets {
            color[t.location as usize] = Some(wgpu::ColorTargetState {
                format: t.format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            });
        }
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("case"),
            layout: Some(&layout),
            vertex: shaders::vertex_state(
                &vs,
                if stages.vertex.is_some() {
                    &vertex_layouts
                } else {
                    &[]
                },
            ),
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull_mode: None,
                // D3D's default front face: clockwise in framebuffer
                // coordinates (y down), as the CPU rasterizer decides it.
                front_face: wgpu::FrontFace::Cw,
                ..Default::default()
            },
            depth_stencil: depth_buffer.map(|d| wgpu::DepthStencilState {
                format: targets::depth_format(d.state.format),
                // D3D's DepthEnable off turns off the write as well.
                depth_write_enabled: Some(d.state.test && d.state.write),
                depth_compare: Some(if d.state.test {
                    bindings::wgpu_compare(d.state.func)
                } else {
                    wgpu::CompareFunction::Always
                }),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: case.samples.max(1),
                mask: !0,
                alpha_to_coverage_enabled: false,
            },
            fragment: Some(shaders::fragment_state(&fs, &color)),
            multiview_mask: None,
            cache: None,
        });

        let index_bytes: Vec<u8> = shaders::INDICES
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let index = buffer(r, &index_bytes, wgpu::BufferUsages::INDEX);
        let vertex = (!vertex_bytes.is_empty())
            .then(|| buffer(r, &vertex_bytes, wgpu::BufferUsages::VERTEX));

        let views: Vec<wgpu::TextureView> = targets
            .iter()
            .map(|t| t.texture.create_view(&Default::default()))
            .collect();
        let mut attachments: Vec<Option<wgpu::RenderPassColorAttachment>> =
            vec![None; locations as usize];
        for (t, view) in targets.iter().zip(&views) {
            attachments[t.location as usize] = Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    // wgpu converts the colour to the format (integers for
                    // integer targets), as ClearRenderTargetView does.
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: t.plan.clear[0] as f64,
                        g: t.plan.clear[1] as f64,
                        b: t.plan.clear[2] as f64,
                        a: t.plan.clear[3] as f64,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            });
        }
        let depth_view = depth
            .as_ref()
            .map(|d| d.texture.create_view(&Default::default()));
        let depth_attachment = depth_view.as_ref().zip(depth_buffer).map(|(view, d)| {
            let stencil =
                d.state.format != DepthFormat::D32Float && d.state.format != DepthFormat::D16Unorm;
            wgpu::RenderPassDepthStencilAttachment {
                view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(d.clear),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: stencil.then_some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(0),
                    store: wgpu::StoreOp::Store,
                }),
            }
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("case"),
                color_attachments: &attachments,
                depth_stencil_attachment: depth_attachment,
                ..Default::default()
            });
            let vp = case.viewport();
            pass.set_viewport(vp.x, vp.y, vp.width, vp.height, vp.min_depth, vp.max_depth);
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bindings.group, &[]);
            pass.set_index_buffer(index.slice(..), wgpu::IndexFormat::Uint16);
            if let Some(v) = &vertex {
                pass.set_vertex_buffer(0, v.slice(..));
            }
            pass.draw_indexed(0..shaders::INDICES.len() as u32, 0, 0..1);
        }
        let buffers = targets::read_back(r, &mut encoder, &targets, case.width);
        let depth_buffer = match &depth {
            Some(d) if case.reads_depth() => Some((
                d.format,
                targets::read_back_depth(r, &mut encoder, d, case.width)
                    .map_err(|e| GpuError::Other(format!("{}: {e}", case.path.display())))?,
            )),
            _ => None,
        };
        let staged = storage::copy_out(r, &mut encoder, std::mem::take(&mut bindings.uavs));
        let capture = (bindings.capture.as_ref()).map(|b| capture::copy_out(r, &mut encoder, b));
        r.queue.submit([encoder.finish()]);
        let depth_read = depth_buffer.as_ref().map(|(f, b)| (*f, b));
        let images = targets::to_images(
            r,
            &targets,
            &buffers,
            depth_read,
            case.width,
            case.height,
            self.timeout,
        )
        .map_err(|e| match e {
            GpuError::Timeout(_) => e,
            e => GpuError::Other(format!("{}: {e}", case.path.display())),
        })?;
        let uavs = storage::read_back(r, &staged, self.timeout).map_err(|e| match e {
            GpuError::Timeout(_) => e,
            e => GpuError::Other(format!("{}: {e}", case.path.display())),
        })?;
        let capture = match &capture {
            Some(b) => Some(capture::read_back(r, b, self.timeout).map_err(|e| match e {
                GpuError::Timeout(_) => e,
                e => GpuError::Other(format!("{}: {e}", case.path.display())),
            })?),
            None => None,
        };
        Ok(Drawing {
            images,
            uavs,
            capture,
            notes: Vec::new(),
        })
    }
}

/// What one draw gives: the render targets' images and each UAV after it.
pub struct Drawing {
    pub images: Vec<Image>,
    /// By slot, in slot order: the case's layout with the words and
    /// counter read back.
    pub uavs: Vec<(u32, Buffer)>,
    /// With `glsl::Options::capture`: the capture buffer's header and
    /// records (`glsl::capture` gives the layout).
    pub capture: Option<Vec<u32>>,
    /// How the draw went where it could go more than one way (a
    /// block-compressed texture uploaded compressed or decoded), for the
    /// report ([`suite::Rendered::notes`]).
    pub notes: Vec<String>,
}

/// Waits for everything submitted (the draw and the copies mapped for
/// read-back) up to `timeout`: a draw that never finishes is reported as
/// such instead of hanging the run (software GPUs have no watchdog).
fn wait_for_gpu(r: &Renderer, timeout: Duration) -> Result<(), GpuError> {
    r.device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: Some(timeout),
        })
        .map(|_| ())
        .map_err(|e| match e {
            wgpu::PollError::Timeout => GpuError::Timeout(timeout),
            e => GpuError::Other(format!("waiting for the GPU: {e}")),
        })
}

/// A wgpu error on one line, its innermost cause first: wgpu's own text
/// is a "Validation Error" heading over an indented chain of causes, and a
/// report that keeps only the first line (the verdicts of `diff --auto`)
/// would keep only the heading. The outer causes (the call and what it
/// was checking) follow in parentheses, outermost first.
fn describe(e: &wgpu::Error) -> String {
    let mut chain: Vec<String> = Vec::new();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let text = c.to_string();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() && chain.last() != Some(&text) {
            chain.push(text);
        }
        cause = c.source();
    }
    let Some(innermost) = chain.pop() else {
        // No chain to walk: wgpu's text, its lines joined.
        let text = e.to_string();
        return text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
    };
    if chain.is_empty() {
        innermost
    } else {
        format!("{innermost} ({})", chain.join("; "))
    }
}

/// A buffer holding `bytes` (padded to 4 bytes, as copies require).
fn buffer(r: &Renderer, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    let size = (bytes.len() as u64).next_multiple_of(4).max(4);
    let b = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut padded = bytes.to_vec();
    padded.resize(size as usize, 0);
    r.queue.write_buffer(&b, 0, &padded);
    b
}

impl Draw for Gpu {
    fn adapter_name(&self) -> String {
        Gpu::adapter_name(self)
    }

    fn draw(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Drawing, GpuError> {
        self.render_with_uavs(case, shaders, options)
    }

    fn refusal(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Option<String> {
        // A shader that does not translate is left to the draw, which
        // reports it as the translation's refusal.
        let stages = shaders::translate(case, shaders, options).ok()?;
        let mut manifests = vec![&stages.pixel.manifest];
        if let Some(vs) = &stages.vertex {
            manifests.push(&vs.manifest);
        }
        if !manifests.iter().any(|m| m.has_storage()) {
            return None;
        }
        storage::refusal(&self.r.borrow(), &storage::with_stages(&manifests))
    }
}

/// Both kinds of [`Draw`] are the suite's Vulkan renderer alike: one draw
/// after another, bisections through the register capture.
impl<D: Draw> suite::Renderer for D {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }

    fn name(&self) -> String {
        self.adapter_name()
    }

    fn refuses(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Option<String> {
        self.refusal(case, shaders, options)
    }

    fn captures_registers(&self) -> bool {
        true
    }

    fn bisect_all(
        &self,
        jobs: &[super::suite::BisectJob],
        options: &glsl::Options,
    ) -> Vec<Result<super::bisect::Bisection, String>> {
        bisect_all(self, jobs, options)
    }

    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        render_all(self, jobs, options)
    }
}

/// [`suite::Renderer::render_all`] for either kind of [`Draw`]: one draw
/// after another, each failure that case's alone.
fn render_all(
    d: &impl Draw,
    jobs: &[(&Case, &CaseShaders)],
    options: &glsl::Options,
) -> Vec<Result<Rendered, String>> {
    jobs.iter()
        .map(|(case, shaders)| {
            let start = Instant::now();
            let drawing = d.draw(case, shaders, options).map_err(|e| e.to_string())?;
            Ok(Rendered {
                images: drawing.images,
                uavs: drawing.uavs,
                ms: elapsed_ms(start),
                notes: drawing.notes,
            })
        })
        .collect()
}

/// [`suite::Renderer::bisect_all`] for either kind of [`Draw`].
fn bisect_all(
    d: &impl Draw,
    jobs: &[super::suite::BisectJob],
    options: &glsl::Options,
) -> Vec<Result<super::bisect::Bisection, String>> {
    jobs.iter()
        .map(|(case, shaders, pixel)| {
            super::bisect::vulkan(d, case, shaders, *pixel, options).map_err(|e| e.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::describe;

    /// An error with an optional cause, as wgpu's are chained.
    #[derive(Debug)]
    struct Cause(&'static str, Option<Box<Cause>>);

    impl std::fmt::Display for Cause {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Cause {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|c| c as _)
        }
    }

    #[test]
    fn a_validation_error_reads_innermost_cause_first_on_one_line() {
        // wgpu 30's own text for a depth-writing shader without a depth
        // attachment: the heading, then the chain indented.
        let chain = Cause(
            "In Device::create_render_pipeline, label = 'case'",
            Some(Box::new(Cause(
                "Error matching ShaderStages(FRAGMENT) shader requirements against the pipeline",
                Some(Box::new(Cause(
                    "Fragment shader writes depth, but pipeline does not have a depth attachment",
                    None,
                ))),
            ))),
        );
        let e = wgpu::Error::Validation {
            source: Box::new(chain),
            description: "Validation Error\n\nCaused by:\n  In Device::create_render_pipeline"
                .into(),
        };
        assert_eq!(
            describe(&e),
            "Fragment shader writes depth, but pipeline does not have a depth attachment \
             (In Device::create_render_pipeline, label = 'case'; Error matching \
             ShaderStages(FRAGMENT) shader requirements against the pipeline)"
        );
    }

    #[test]
    fn an_error_without_causes_keeps_its_text_on_one_line() {
        let e = wgpu::Error::Validation {
            source: Box::new(Cause("", None)),
            description: String::new(),
        };
        // The source's text is empty, so wgpu's own text, its lines joined.
        assert!(!describe(&e).contains('\n'));
        let e = wgpu::Error::OutOfMemory {
            source: Box::new(Cause("out of device memory", None)),
        };
        assert_eq!(describe(&e), "out of device memory");
    }
}
