//! Running cases: load, assemble, draw on the GPU and the CPU, diff the
//! two, check goldens and probes, and say why a case failed.
//!
//! A case passes when both renderers draw it, the GPU image is within the
//! case's tolerance of the CPU image at every pixel of every render
//! target, every probe matches both images (render target 0), and, for a
//! case with `golden`, both images are within tolerance of the golden.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::case::{Case, CaseShaders, ProbeTarget, ShaderSource};
use super::cpu::{self, CpuError};
use super::diff::{Diff, diff, texel_within};
use super::golden;
use super::image::Image;
use super::webgl2::WebGl2;
use crate::glsl;

/// The GPU backends a case is drawn on, each through the dialect a real
/// runtime of its kind consumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// wgpu on Vulkan (lavapipe without a GPU), the vk450 text.
    Vulkan,
    /// WebGL2 in headless Chromium, the es300 text users ship.
    WebGl2,
}

impl Backend {
    pub const ALL: [Backend; 2] = [Backend::Vulkan, Backend::WebGl2];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Vulkan => "vulkan",
            Backend::WebGl2 => "webgl2",
        }
    }

    pub fn parse(s: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == s)
    }

    pub fn dialect(self) -> glsl::Dialect {
        match self {
            Backend::Vulkan => glsl::Dialect::Vk450,
            Backend::WebGl2 => glsl::Dialect::Es300,
        }
    }

    /// Whether the backend can express a `[require]` feature
    /// (docs/cases.md lists them).
    pub fn supports(self, feature: Feature) -> bool {
        match (self, feature) {
            (Backend::Vulkan, Feature::FineDerivatives) => true,
            // GLSL ES 3.00 has one dFdx/dFdy, coarse or fine as the
            // implementation pleases.
            (Backend::WebGl2, Feature::FineDerivatives) => false,
            // Vulkan copies the depth aspect of d32_float, d16_unorm and
            // d32_float_s8x24_uint out; wgpu's 24-bit depth
            // (`Depth24PlusStencil8`) has no copyable depth aspect.
            (Backend::Vulkan, Feature::DepthReadback) => true,
            (Backend::Vulkan, Feature::Depth24Readback) => false,
            // readPixels reads colour only: the page draws the depth
            // texture into a float target with texelFetch.
            (Backend::WebGl2, Feature::DepthReadback | Feature::Depth24Readback) => true,
            // wgpu 30 allows R16Unorm (TEXTURE_FORMAT_16BIT_NORM) for
            // sampling and copies, not as a render attachment.
            (Backend::Vulkan, Feature::Norm16Target) => false,
            // R16 is renderable only with EXT_texture_norm16, not core
            // WebGL2.
            (Backend::WebGl2, Feature::Norm16Target) => false,
            (Backend::Vulkan, Feature::FractionalViewport) => true,
            // gl.viewport takes whole pixels.
            (Backend::WebGl2, Feature::FractionalViewport) => false,
            // Vulkan leaves the rounding of a colour write to a half
            // target to the implementation; lavapipe truncates, as D3D
            // does. WebGL2 leaves it open too, and SwiftShader rounds to
            // nearest even.
            (Backend::Vulkan, Feature::HalfTowardZero) => true,
            (Backend::WebGl2, Feature::HalfTowardZero) => false,
            (Backend::Vulkan, Feature::CubeMapArrays) => true,
            // ES 3.00 has cube arrays only through
            // OES_texture_cube_map_array, which WebGL2 does not offer.
            (Backend::WebGl2, Feature::CubeMapArrays) => false,
            (Backend::Vulkan, Feature::Multisample) => true,
            // GLSL ES 3.00 has no sampler2DMS, gl_SampleID, gl_SampleMask
            // or gl_NumSamples, so es300 refuses every multisampled read.
            (Backend::WebGl2, Feature::Multisample) => false,
            // naga's GLSL front end has no gl_SampleMaskIn (vk450 lowers
            // vCoverage only at sample frequency); ES 3.00 has none.
            (_, Feature::CoverageInput) => false,
            // wgpu binds multisampled textures through 2D views only.
            (_, Feature::MultisampleArray) => false,
            // lavapipe's anisotropic filter weights its probes itself:
            // over an isotropic footprint, and under magnification, it
            // gives neither the trilinear nor the linear result D3D
            // requires (measured: 19.66 where trilinear is 17.5).
            (Backend::Vulkan, Feature::AnisotropicFilter) => false,
            // EXT_texture_filter_anisotropic (SwiftShader offers it; the
            // runner fails the draw where it is missing).
            (Backend::WebGl2, Feature::AnisotropicFilter) => true,
            // vk450 lowers doubles; the device asks for SHADER_F64
            // (lavapipe has shaderFloat64) and names it when missing.
            (Backend::Vulkan, Feature::Float64) => true,
            // GLSL ES 3.00 has no double type (es300 refuses doubles).
            (Backend::WebGl2, Feature::Float64) => false,
            // Neither dialect has a per-sample minimum-LOD clamp (GLSL ES
            // 3.00 has none, naga's GLSL front end no textureClampARB): the
            // translation applies one on its emulated sampling path, which
            // cubes do not have, and refuses it there (`Reason::LodClamp`).
            (_, Feature::LodClamp) => false,
            // vk450 lowers buffer views and UAVs to storage buffers and
            // images; the Vulkan path binds them and reads the UAVs back.
            (Backend::Vulkan, Feature::Buffers) => true,
            // GLSL ES 3.00 has no storage buffers or image stores, so
            // WebGL2 cannot express a UAV (es300 refuses them by name).
            (Backend::WebGl2, Feature::Buffers) => false,
        }
    }
}

/// What a case can require of a backend (`[require]` in a case file).
pub use super::case::Feature;

/// One case's pictures from a backend, and the time it took to draw them.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub images: Vec<Image>,
    pub ms: f64,
    /// How the backend drew what it could draw more than one way (a
    /// block-compressed texture uploaded compressed or decoded), for the
    /// report.
    pub notes: Vec<String>,
    /// Each UAV after the draw, by slot (the case's layout, the words and
    /// counter the backend read back); empty for a backend without UAVs.
    pub uavs: Vec<(u32, crate::vm::memory::Buffer)>,
}

/// What draws cases through the translated GLSL: the wgpu renderer (its
/// impl lives in `gpu`, which only the `gpu` cargo feature builds), the
/// WebGL2 page, or a stand-in in tests.
pub trait Renderer {
    fn backend(&self) -> Backend;
    /// The adapter or browser, for reports.
    fn name(&self) -> String;
    /// Draws every case, in order. `options.dialect` is ignored: each
    /// backend translates to its own.
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>>;
}

impl Renderer for WebGl2 {
    fn backend(&self) -> Backend {
        Backend::WebGl2
    }

    fn name(&self) -> String {
        WebGl2::name(self)
    }

    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        WebGl2::render_all(self, jobs, options)
            .into_iter()
            .map(|r| {
                r.map(|d| Rendered {
                    images: d.images,
                    ms: d.ms,
                    notes: d.notes,
                    uavs: Vec::new(),
                })
                .map_err(|e| e.to_string())
            })
            .collect()
    }
}

/// How cases are run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Translation options for the backends (tests set fault injections
    /// such as `flip_gather_order`); each backend sets its own dialect.
    pub glsl: glsl::Options,
    /// Where goldens live: `Some(DIR)` puts every case's under DIR by its
    /// name; `None` finds them from each case file's place in its
    /// `tests/cases` tree ([`golden::locate`]).
    pub goldens: Option<PathBuf>,
    /// Write goldens from the CPU image instead of comparing with them.
    pub bless: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            glsl: glsl::Options::new(glsl::Dialect::Vk450),
            goldens: None,
            bless: false,
        }
    }
}

/// One render target of one backend: its image and diffs.
#[derive(Debug, Clone)]
pub struct TargetResult {
    pub index: usize,
    pub image: Image,
    /// The backend's image against the CPU's (`a` is the backend's).
    pub diff: Diff,
    /// The backend's image against the golden, when the case has one.
    pub golden: Option<Diff>,
}

/// What one backend did with a case.
#[derive(Debug, Clone)]
pub struct BackendResult {
    pub backend: Backend,
    /// Why the case does not apply to this backend (`[require]`), if so.
    pub not_applicable: Option<String>,
    /// Milliseconds to draw one frame.
    pub ms: Option<f64>,
    pub targets: Vec<TargetResult>,
    /// Why it failed on this backend (empty: it passed or does not apply).
    pub failures: Vec<String>,
    /// How it drew the case where there was a choice (see
    /// [`Rendered::notes`]).
    pub notes: Vec<String>,
}

impl BackendResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// What running one case found.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub path: PathBuf,
    /// Its name: the path relative to where it was found, without `.case`.
    pub name: String,
    /// The shader to hand to `dxbc-dbg step`: the pixel shader's file, or
    /// the case file itself when the shader is written inline.
    pub shader: PathBuf,
    /// Failures that belong to no backend: loading, the CPU path, the CPU
    /// image against the golden.
    pub case_failures: Vec<String>,
    /// Every failure, the backends' prefixed with the backend's name.
    pub failures: Vec<String>,
    pub cpu_ms: Option<f64>,
    /// The emulator's images, one per render target.
    pub cpu: Vec<Image>,
    /// The CPU image against the golden, per render target.
    pub cpu_golden: Vec<Option<Diff>>,
    pub backends: Vec<BackendResult>,
    /// Goldens written by `--bless`.
    pub blessed: Vec<PathBuf>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The backend's result, if the case ran on it.
    pub fn backend(&self, b: Backend) -> Option<&BackendResult> {
        self.backends.iter().find(|r| r.backend == b)
    }

    /// The pixel with the largest backend↔CPU error over every backend and
    /// render target (failing pixels first).
    pub fn worst_pixel(&self) -> Option<(u32, u32)> {
        let mut best: Option<&super::diff::Worst> = None;
        let m = |w: &super::diff::Worst| w.error.iter().map(|e| e.abs).fold(0.0f64, f64::max);
        for t in self.backends.iter().flat_map(|b| &b.targets) {
            if let Some(w) = &t.diff.worst {
                let better = match best {
                    None => true,
                    Some(b) => (b.passes && !w.passes) || (b.passes == w.passes && m(w) > m(b)),
                };
                if better {
                    best = Some(w);
                }
            }
        }
        best.map(|w| (w.x, w.y))
    }

    /// The command that steps the worst pixel in the debugger.
    pub fn step_command(&self) -> Option<String> {
        let (x, y) = self.worst_pixel()?;
        Some(format!(
            "dxbc-dbg step {} --case {} --pixel {x},{y}",
            shell_quote(&self.shader.display().to_string()),
            shell_quote(&self.path.display().to_string())
        ))
    }
}

/// Quotes a path for a POSIX shell when it needs it.
fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

pub(super) fn elapsed_ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// A case loaded, or why it could not be.
struct Loaded {
    result: CaseResult,
    input: Option<(Case, CaseShaders)>,
}

fn load(path: &Path, name: &str) -> Loaded {
    let mut result = CaseResult {
        path: path.to_path_buf(),
        name: name.to_string(),
        shader: path.to_path_buf(),
        case_failures: Vec::new(),
        failures: Vec::new(),
        cpu_ms: None,
        cpu: Vec::new(),
        cpu_golden: Vec::new(),
        backends: Vec::new(),
        blessed: Vec::new(),
    };
    let case = match Case::load(path) {
        Ok(c) => c,
        Err(e) => {
            result.case_failures.push(e.to_string());
            return Loaded {
                result,
                input: None,
            };
        }
    };
    if let Some(ShaderSource::File(f)) = &case.pixel_shader {
        result.shader = path.parent().map_or_else(|| f.clone(), |d| d.join(f));
    }
    let checked = case.shaders().and_then(|s| {
        let stages: Vec<&crate::dxbc::Shader> =
            std::iter::once(&s.pixel).chain(s.vertex.as_ref()).collect();
        case.check_bindings(&stages)?;
        Ok(s)
    });
    // The render targets' formats and clears against the shader's outputs,
    // before any renderer sees the case (each would refuse it alike, after
    // the others had drawn). The message names the case file and line.
    let checked = checked.map_err(|e| e.to_string()).and_then(|s| {
        cpu::plan_targets(&case, &cpu::targets(&s.pixel))?;
        Ok(s)
    });
    match checked {
        Ok(s) => Loaded {
            result,
            input: Some((case, s)),
        },
        Err(e) => {
            result.case_failures.push(e);
            Loaded {
                result,
                input: None,
            }
        }
    }
}

/// Runs one case on the given backends.
pub fn run_case(
    path: &Path,
    name: &str,
    renderers: &[&dyn Renderer],
    options: &RunOptions,
) -> CaseResult {
    let cases = [(path.to_path_buf(), name.to_string())];
    run_all(&cases, renderers, options, |_| {})
        .pop()
        .unwrap_or_else(|| load(path, name).result)
}

/// Runs cases on every renderer (each draws its whole batch at once, so
/// the WebGL2 backend starts one browser for the suite), then the CPU,
/// diffs, goldens and probes case by case, calling `progress` after each.
pub fn run_all(
    cases: &[(PathBuf, String)],
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    mut progress: impl FnMut(&CaseResult),
) -> Vec<CaseResult> {
    let loaded: Vec<Loaded> = cases.iter().map(|(p, n)| load(p, n)).collect();
    // The emulator first: a shader that runs past its instruction budget
    // would not end on a GPU either, and a draw that never finishes hangs
    // the renderer (lavapipe and SwiftShader have no watchdog), so such a
    // case is not sent to the backends.
    let mut cpu: Vec<Option<CpuRun>> = loaded
        .iter()
        .map(|l| {
            l.input.as_ref().map(|(case, shaders)| {
                let start = Instant::now();
                let drawn = cpu::render_with_uavs(case, shaders);
                let ms = elapsed_ms(start);
                let uav_failures = match &drawn {
                    Ok(d) => uav_failures(case, "CPU", |s| {
                        d.uavs.get(s as usize).and_then(Option::as_ref)
                    }),
                    Err(_) => Vec::new(),
                };
                let uavs = drawn.as_ref().map(|d| d.uavs.clone()).unwrap_or_default();
                CpuRun {
                    ms,
                    uavs,
                    images: drawn.map(|d| d.images),
                    uav_failures,
                    indices: cpu::targets(&shaders.pixel)
                        .iter()
                        .map(|t| t.index)
                        .collect(),
                }
            })
        })
        .collect();
    // Per renderer, per case: not applicable (with the reason), or drawn.
    let mut drawn: Vec<Vec<Option<Result<Rendered, String>>>> = Vec::new();
    let mut skipped: Vec<Vec<Option<String>>> = Vec::new();
    for r in renderers {
        let backend = r.backend();
        let mut jobs = Vec::new();
        let mut index = Vec::new();
        let mut na = vec![None; loaded.len()];
        let mut per: Vec<Option<Result<Rendered, String>>> = vec![None; loaded.len()];
        for (k, l) in loaded.iter().enumerate() {
            let Some((case, shaders)) = &l.input else {
                continue;
            };
            if let Some(req) = case.requires.iter().find(|q| !backend.supports(q.feature)) {
                na[k] = Some(format!("requires {}: {}", req.feature.name(), req.reason));
                continue;
            }
            if cpu[k].as_ref().is_some_and(CpuRun::does_not_end) {
                per[k] = Some(Err("not drawn: the shader does not end on the emulator, \
                     so a draw would not end either"
                    .into()));
                continue;
            }
            jobs.push((case, shaders));
            index.push(k);
        }
        for (k, res) in index.into_iter().zip(r.render_all(&jobs, &options.glsl)) {
            per[k] = Some(res);
        }
        drawn.push(per);
        skipped.push(na);
    }
    let mut out = Vec::new();
    for (k, l) in loaded.into_iter().enumerate() {
        let mut result = l.result;
        if let Some((case, _)) = &l.input {
            let backends: Vec<Drawn> = renderers
                .iter()
                .enumerate()
                .map(|(i, r)| Drawn {
                    backend: r.backend(),
                    not_applicable: skipped[i][k].take(),
                    result: drawn[i][k].take(),
                })
                .collect();
            let run = cpu[k].take().expect("a loaded case has its CPU run");
            compare(&mut result, case, run, backends, options);
        }
        let mut all = result.case_failures.clone();
        for b in &result.backends {
            all.extend(
                b.failures
                    .iter()
                    .map(|f| format!("{}: {f}", b.backend.name())),
            );
        }
        result.failures = all;
        progress(&result);
        out.push(result);
    }
    out
}

/// What one backend did with one case before comparing: not applicable
/// (with the reason), or drawn (or failed to).
struct Drawn {
    backend: Backend,
    not_applicable: Option<String>,
    result: Option<Result<Rendered, String>>,
}

impl Drawn {
    /// The backend's result before any comparison (its draw failure, or
    /// its time), and what it drew, for the caller to compare.
    fn begin(self) -> (BackendResult, Option<Rendered>) {
        let mut b = BackendResult {
            backend: self.backend,
            not_applicable: self.not_applicable,
            ms: None,
            targets: Vec::new(),
            failures: Vec::new(),
            notes: Vec::new(),
        };
        let drawn = match self.result {
            None => None,
            Some(Err(e)) => {
                b.failures.push(e);
                None
            }
            Some(Ok(r)) => {
                b.ms = Some(r.ms);
                b.notes = r.notes.clone();
                Some(r)
            }
        };
        (b, drawn)
    }
}

/// The emulator's images of one case, and how long they took.
struct CpuRun {
    ms: f64,
    images: Result<Vec<Image>, CpuError>,
    /// `probe uav` lines the emulator's UAVs fail.
    uav_failures: Vec<String>,
    /// The emulator's UAVs after the draw, by slot, for the backends'
    /// read-back UAVs to be diffed against.
    uavs: Vec<Option<crate::vm::memory::Buffer>>,
    /// The `N` of the `SV_TargetN` each colour image is, in order; the
    /// depth buffer's image, when read back, follows them.
    indices: Vec<u32>,
}

impl CpuRun {
    fn does_not_end(&self) -> bool {
        self.images.as_ref().is_err_and(CpuError::does_not_end)
    }
}

/// The CPU image, goldens, and each backend's images against both.
fn compare(
    result: &mut CaseResult,
    case: &Case,
    cpu: CpuRun,
    backends: Vec<Drawn>,
    options: &RunOptions,
) {
    result.cpu_ms = Some(cpu.ms);
    result.case_failures.extend(cpu.uav_failures);
    let cpu_uavs = cpu.uavs;
    let indices = cpu.indices;
    let cpu = match cpu.images {
        Ok(c) => c,
        Err(e) => {
            result.cpu_ms = None;
            result.case_failures.push(format!("CPU: {e}"));
            // Nothing to compare with, but what each backend did (or why
            // it did not draw) is still part of the result.
            result
                .backends
                .extend(backends.into_iter().map(|d| d.begin().0));
            return;
        }
    };
    let tol = &case.tolerance;
    let (golden_dir, name) = golden::locate(options.goldens.as_deref(), &result.path, &result.name);
    let goldens = if case.golden && !options.bless {
        match golden::load(&golden_dir, &name, cpu.len()) {
            Ok(g) => Some(g),
            Err(e) => {
                result.case_failures.push(format!("golden: {e}"));
                None
            }
        }
    } else {
        None
    };
    if case.golden && options.bless {
        match golden::bless(&golden_dir, &name, &cpu) {
            Ok(written) => result.blessed = written,
            Err(e) => result.case_failures.push(format!("bless: {e}")),
        }
    }
    for (i, c) in cpu.iter().enumerate() {
        let gd = goldens
            .as_ref()
            .and_then(|gs| gs.get(i))
            .map(|g| diff(c, g, tol));
        if let Some(d) = gd.as_ref().filter(|d| !d.passed()) {
            result.case_failures.push(format!(
                "{}: CPU image differs from the golden at {} pixels (max abs {}, max ulp {})",
                image_name(i, &indices),
                d.failing,
                d.max_abs,
                d.max_ulp
            ));
        }
        result.cpu_golden.push(gd);
    }
    if cpu.is_empty() && !case.probes.is_empty() {
        result
            .case_failures
            .push("probes given but the shader writes no render target".into());
    }
    if !cpu.is_empty() {
        let all: Vec<&Image> = cpu.iter().collect();
        result
            .case_failures
            .extend(probe_failures(case, "CPU", &all, &indices));
    }
    for d in backends {
        let (mut b, drawn) = d.begin();
        if let Some(r) = drawn {
            // A backend that draws a case with UAVs reads them back (one
            // that cannot bind them reports the case n/a instead).
            // (run_all puts the backend's name before its failures.)
            b.failures.extend(uav_failures(case, "", |s| {
                r.uavs.iter().find(|(k, _)| *k == s).map(|(_, u)| u)
            }));
            b.failures.extend(uav_diff(case, &cpu_uavs, &r.uavs));
            if r.images.len() != cpu.len() {
                b.failures.push(format!(
                    "drew {} render targets, the CPU {}",
                    r.images.len(),
                    cpu.len()
                ));
            }
            for (i, (g, c)) in r.images.into_iter().zip(&cpu).enumerate() {
                let d = diff(&g, c, tol);
                if d.size_mismatch {
                    b.failures.push(format!(
                        "{}: image is {}x{}, the CPU's {}x{}",
                        image_name(i, &indices),
                        g.width,
                        g.height,
                        c.width,
                        c.height
                    ));
                } else if d.failing > 0 {
                    let w = d.worst.as_ref().map(|w| (w.x, w.y)).unwrap_or_default();
                    b.failures.push(format!(
                            "{}: {} of {} pixels differ from the CPU's beyond tolerance (abs {}, ulp {}); max abs {}, max ulp {}, worst pixel ({}, {})",
                            image_name(i, &indices),
                            d.failing, d.pixels, tol.abs, tol.ulp, d.max_abs, d.max_ulp, w.0, w.1
                        ));
                }
                let golden = goldens.as_ref().and_then(|gs| gs.get(i)).map(|gold| {
                        let gd = diff(&g, gold, tol);
                        if !gd.passed() {
                            b.failures.push(format!(
                                "{}: image differs from the golden at {} pixels (max abs {}, max ulp {})",
                                image_name(i, &indices),
                                gd.failing, gd.max_abs, gd.max_ulp
                            ));
                        }
                        gd
                    });
                b.targets.push(TargetResult {
                    index: i,
                    image: g,
                    diff: d,
                    golden,
                });
            }
            if let (Some(t), Some(c)) = (b.targets.first(), cpu.first())
                && t.image.width == c.width
                && t.image.height == c.height
            {
                let all: Vec<&Image> = b.targets.iter().map(|t| &t.image).collect();
                let f = probe_failures(case, b.backend.name(), &all, &indices);
                b.failures.extend(f);
            }
        }
        result.backends.push(b);
    }
    result.cpu = cpu;
}

/// `probe uav` lines checked against one renderer's UAVs after a draw
/// (`uav` finds one by slot; `label`, when not empty, names the renderer).
fn uav_failures<'a>(
    case: &Case,
    label: &str,
    uav: impl Fn(u32) -> Option<&'a crate::vm::memory::Buffer>,
) -> Vec<String> {
    let file = case.path.display().to_string();
    let label = if label.is_empty() {
        String::new()
    } else {
        format!("{label}: ")
    };
    let mut out = Vec::new();
    for p in &case.uav_probes {
        match uav(p.slot) {
            Some(b) => out.extend(
                super::case::uav_probe_failures(p, b)
                    .into_iter()
                    .map(|m| format!("{file}:{}: {label}u{}: {m}", p.line, p.slot)),
            ),
            None => out.push(format!(
                "{file}:{}: {label}u{} was not bound",
                p.line, p.slot
            )),
        }
    }
    out
}

/// A backend's UAVs diffed against the emulator's, like render targets but
/// exactly (they hold bits): every word in place, or, for a `[uav]` marked
/// `unordered`, the elements as a multiset; and the counter.
fn uav_diff(
    case: &Case,
    cpu: &[Option<crate::vm::memory::Buffer>],
    backend: &[(u32, crate::vm::memory::Buffer)],
) -> Vec<String> {
    let mut out = Vec::new();
    for (slot, _) in &case.uavs {
        let Some(c) = cpu.get(*slot as usize).and_then(Option::as_ref) else {
            continue;
        };
        let Some((_, g)) = backend.iter().find(|(k, _)| k == slot) else {
            out.push(format!("u{slot} was not read back"));
            continue;
        };
        if g.words.len() != c.words.len() {
            out.push(format!(
                "u{slot} has {} words, the CPU's {}",
                g.words.len(),
                c.words.len()
            ));
            continue;
        }
        if case.unordered_uavs.contains(slot) {
            let per = c.layout.words_per_element().max(1) as usize;
            fn sorted(b: &crate::vm::memory::Buffer, per: usize) -> Vec<&[u32]> {
                let mut e: Vec<&[u32]> = b.words.chunks(per).collect();
                e.sort_unstable();
                e
            }
            let (ge, ce) = (sorted(g, per), sorted(c, per));
            let differ = ge.iter().zip(&ce).filter(|(a, b)| a != b).count();
            if differ > 0 {
                out.push(format!(
                    "u{slot} (unordered): its elements, sorted, differ from the CPU's sorted                      elements at {differ} of {} places",
                    ce.len()
                ));
            }
        } else {
            let differ: Vec<usize> = (0..c.words.len())
                .filter(|&i| g.words[i] != c.words[i])
                .collect();
            if let Some(&i) = differ.first() {
                out.push(format!(
                    "u{slot}: {} of {} words differ from the CPU's; first word {i}: {:#x}, the CPU's {:#x}",
                    differ.len(),
                    c.words.len(),
                    g.words[i],
                    c.words[i]
                ));
            }
        }
        if g.counter != c.counter {
            out.push(format!(
                "u{slot}: counter {}, the CPU's {}",
                g.counter, c.counter
            ));
        }
    }
    out
}

/// What the `i`-th image of a draw is: `SV_TargetN` for the colour
/// targets (`indices`), then the depth buffer.
fn image_name(i: usize, indices: &[u32]) -> String {
    match indices.get(i) {
        Some(n) => format!("SV_Target{n}"),
        None => "depth buffer".into(),
    }
}

/// Probes checked against one renderer's images (`label` names it in the
/// message): `images` are the colour targets in the order of `indices`
/// (their `SV_TargetN`), then the depth buffer's when the case reads it.
fn probe_failures(case: &Case, label: &str, images: &[&Image], indices: &[u32]) -> Vec<String> {
    let mut out = Vec::new();
    let file = case.path.display().to_string();
    for p in &case.probes {
        let at = match p.target {
            ProbeTarget::Color(n) => indices.iter().position(|i| *i == n),
            ProbeTarget::Depth => Some(indices.len()),
        };
        let Some(img) = at.and_then(|i| images.get(i)) else {
            out.push(format!(
                "{file}:{}: the probe's image ({}) was not drawn",
                p.line,
                match p.target {
                    ProbeTarget::Color(n) => format!("SV_Target{n}"),
                    ProbeTarget::Depth => "the depth buffer".into(),
                }
            ));
            continue;
        };
        let [x0, y0, w, h] = p.rect;
        if w == 0 || h == 0 || x0.saturating_add(w) > img.width || y0.saturating_add(h) > img.height
        {
            out.push(format!(
                "{file}:{}: probe rect ({x0}, {y0}, {w}x{h}) lies outside the {}x{} target",
                p.line, img.width, img.height
            ));
            continue;
        }
        let bad = (y0..y0 + h)
            .flat_map(|y| (x0..x0 + w).map(move |x| (x, y)))
            .find(|&(x, y)| !texel_within(img.get(x, y), p.expected, &case.tolerance));
        if let Some((x, y)) = bad {
            out.push(format!(
                "{file}:{}: probe at ({x}, {y}): {label} has {:?}, expected {:?}",
                p.line,
                img.get(x, y),
                p.expected
            ));
        }
    }
    out
}

/// Case files to run: each file given, and every `*.case` under each
/// directory (recursively, sorted), with its name (path relative to that
/// directory without `.case`; a file given directly is named by its
/// stem). `filter` keeps the cases whose name or path contains it.
pub fn collect(paths: &[PathBuf], filter: Option<&str>) -> Result<Vec<(PathBuf, String)>, String> {
    let mut out = Vec::new();
    for root in paths {
        if root.is_dir() {
            let mut found = Vec::new();
            walk(root, &mut found)?;
            found.sort();
            for f in found {
                let rel = f.strip_prefix(root).unwrap_or(&f).with_extension("");
                let name = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push((f, name));
            }
        } else if root.is_file() {
            let name = root
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((root.clone(), name));
        } else {
            return Err(format!(
                "{}: no such case file or directory",
                root.display()
            ));
        }
    }
    if let Some(pat) = filter {
        out.retain(|(p, n)| n.contains(pat) || p.display().to_string().contains(pat));
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        let p = entry.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "case") {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in GPU: the CPU image, optionally with one pixel changed.
    struct Fake {
        poke: Option<(u32, u32, [f32; 4])>,
    }

    impl Renderer for Fake {
        fn backend(&self) -> Backend {
            Backend::Vulkan
        }
        fn name(&self) -> String {
            "fake".into()
        }
        fn render_all(
            &self,
            jobs: &[(&Case, &CaseShaders)],
            _: &glsl::Options,
        ) -> Vec<Result<Rendered, String>> {
            jobs.iter()
                .map(|(case, shaders)| {
                    let mut images = cpu::render(case, shaders).map_err(|e| e.to_string())?;
                    if let Some((x, y, v)) = self.poke {
                        images[0].set(x, y, v);
                    }
                    Ok(Rendered {
                        images,
                        ms: 0.5,
                        notes: Vec::new(),
                        uavs: Vec::new(),
                    })
                })
                .collect()
        }
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dxbc-dbg-suite-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    const CASE: &str = "[pixel shader]\nps_4_0\ndcl_input_ps linear v1.x\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xxxx\nret\n[render target]\nsize 4 4\n[quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 1 1 0 1 v1 1 0 0 0\nvertex -1 -1 0 1 v1 0 0 0 0\nvertex 1 -1 0 1 v1 1 0 0 0\n[test]\nprobe 0 0 0.125 0.125 0.125 0.125\nprobe rect 3 0 1 4 0.875 0.875 0.875 0.875\ngolden\n";

    #[test]
    fn a_case_runs_blesses_and_compares() {
        let dir = temp_dir("run");
        let case = dir.join("cases/grad.case");
        std::fs::create_dir_all(case.parent().expect("parent")).expect("dir");
        std::fs::write(&case, CASE).expect("write");
        let found = collect(&[dir.join("cases")], None).expect("collect");
        assert_eq!(found, vec![(case.clone(), "grad".to_string())]);
        assert!(
            collect(&[dir.join("cases")], Some("nothing"))
                .expect("c")
                .is_empty()
        );

        let mut options = RunOptions {
            goldens: Some(dir.join("goldens")),
            ..RunOptions::default()
        };
        let fake = Fake { poke: None };
        // Without a golden the case fails and says how to make one.
        let r = run_case(&case, "grad", &[&fake], &options);
        assert!(
            r.failures.iter().any(|f| f.contains("--bless")),
            "{:?}",
            r.failures
        );
        options.bless = true;
        let r = run_case(&case, "grad", &[&fake], &options);
        assert!(r.passed(), "{:?}", r.failures);
        assert_eq!(r.blessed, vec![dir.join("goldens/grad.exr")]);
        options.bless = false;
        let r = run_case(&case, "grad", &[&fake], &options);
        assert!(r.passed(), "{:?}", r.failures);
        assert!(r.cpu_ms.is_some() && r.backends[0].ms.is_some());

        // A wrong GPU pixel fails the GPU/CPU diff, the golden and the probe.
        let bad = Fake {
            poke: Some((3, 2, [0.0; 4])),
        };
        let r = run_case(&case, "grad", &[&bad], &options);
        assert!(!r.passed());
        assert_eq!(r.worst_pixel(), Some((3, 2)));
        let text = r.failures.join("\n");
        assert!(text.contains("1 of 16 pixels"), "{text}");
        assert!(
            text.contains("vulkan: SV_Target0: image differs from the golden"),
            "{text}"
        );
        assert!(text.contains("probe at (3, 2): vulkan"), "{text}");
        assert!(!text.contains("CPU has"), "{text}");
        let cmd = r.step_command().expect("command");
        assert!(cmd.ends_with("--pixel 3,2"), "{cmd}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_shader_file_is_found_beside_the_case() {
        let dir = temp_dir("file");
        std::fs::create_dir_all(dir.join("cases")).expect("dir");
        std::fs::create_dir_all(dir.join("shaders")).expect("dir");
        std::fs::write(
            dir.join("shaders/flat.asm"),
            "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.5, 0.5, 0.5, 1.0)\nret\n",
        )
        .expect("write");
        let case = dir.join("cases/flat.case");
        std::fs::write(
            &case,
            "[pixel shader file]\n../shaders/flat.asm\n[render target]\nsize 2 2\n[test]\nprobe 1 1 0.5 0.5 0.5 1\n",
        )
        .expect("write");
        let bad = Fake {
            poke: Some((1, 0, [0.0; 4])),
        };
        let r = run_case(&case, "flat", &[&bad], &RunOptions::default());
        assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
        assert_eq!(r.shader, dir.join("cases/../shaders/flat.asm"));
        let cmd = r.step_command().expect("command");
        assert!(cmd.contains("flat.asm --case"), "{cmd}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn broken_cases_fail_with_the_file_named() {
        let dir = temp_dir("broken");
        let case = dir.join("bad.case");
        std::fs::write(&case, "[pixel shader]\nps_4_0\nfrobnicate r0\n").expect("write");
        let r = run_case(
            &case,
            "bad",
            &[&Fake { poke: None }],
            &RunOptions::default(),
        );
        assert!(!r.passed());
        assert!(r.failures[0].contains("bad.case"), "{:?}", r.failures);
        assert!(collect(&[dir.join("missing")], None).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A renderer that must not be asked to draw.
    struct NeverDraw;

    impl Renderer for NeverDraw {
        fn backend(&self) -> Backend {
            Backend::Vulkan
        }
        fn name(&self) -> String {
            "never".into()
        }
        fn render_all(
            &self,
            jobs: &[(&Case, &CaseShaders)],
            _: &glsl::Options,
        ) -> Vec<Result<Rendered, String>> {
            assert!(
                jobs.is_empty(),
                "a shader that does not end was sent to draw"
            );
            Vec::new()
        }
    }

    #[test]
    fn a_shader_that_does_not_end_is_not_sent_to_the_gpu() {
        // `loop` with no `break`: the emulator stops at its instruction
        // budget; a GPU would spin until reset.
        let dir = temp_dir("endless");
        let case = dir.join("spin.case");
        std::fs::write(
            &case,
            "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nloop\nendloop\nmov o0.xyzw, l(1,1,1,1)\nret\n\
             [render target]\nsize 2 2\n",
        )
        .expect("write");
        let r = run_case(&case, "spin", &[&NeverDraw], &RunOptions::default());
        assert!(!r.passed());
        assert!(
            r.failures
                .iter()
                .any(|f| f.starts_with("CPU: ") && f.contains("instruction budget")),
            "{:?}",
            r.failures
        );
        assert!(
            r.failures
                .iter()
                .any(|f| f.starts_with("vulkan: not drawn: the shader does not end")),
            "{:?}",
            r.failures
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A buffer case loaded, with the emulator's UAVs after its draw.
    fn drawn_uavs(name: &str) -> (Case, Vec<Option<crate::vm::memory::Buffer>>) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cases/buffers")
            .join(format!("{name}.case"));
        let (case, shaders) = load(&path, name).input.expect("the case loads");
        let uavs = cpu::render_with_uavs(&case, &shaders)
            .expect("the emulator draws it")
            .uavs;
        (case, uavs)
    }

    fn backend_uavs(
        cpu: &[Option<crate::vm::memory::Buffer>],
    ) -> Vec<(u32, crate::vm::memory::Buffer)> {
        cpu.iter()
            .enumerate()
            .filter_map(|(s, b)| b.clone().map(|b| (s as u32, b)))
            .collect()
    }

    #[test]
    fn an_unordered_uav_is_compared_as_a_multiset_of_elements() {
        let (case, cpu) = drawn_uavs("append_unordered");
        assert_eq!(case.unordered_uavs, vec![1]);
        let mut gpu = backend_uavs(&cpu);
        // The same elements in another order: equal as a multiset.
        gpu[0].1.words[..16].reverse();
        assert!(uav_diff(&case, &cpu, &gpu).is_empty());
        // One element changed: the multisets differ.
        gpu[0].1.words[3] = 999;
        let f = uav_diff(&case, &cpu, &gpu);
        assert!(f.len() == 1 && f[0].contains("u1 (unordered)"), "{f:?}");
        // The counter stays exact.
        let mut gpu = backend_uavs(&cpu);
        gpu[0].1.counter += 1;
        let f = uav_diff(&case, &cpu, &gpu);
        assert!(
            f.len() == 1 && f[0].contains("u1: counter 17, the CPU's 16"),
            "{f:?}"
        );
    }

    #[test]
    fn an_ordered_uav_is_compared_word_by_word() {
        let (case, cpu) = drawn_uavs("pixel_store");
        let mut gpu = backend_uavs(&cpu);
        assert!(uav_diff(&case, &cpu, &gpu).is_empty());
        // Two elements swapped: a multiset would not see it, the diff does.
        gpu[0].1.words.swap(2, 4);
        gpu[0].1.words.swap(3, 5);
        let f = uav_diff(&case, &cpu, &gpu);
        assert!(
            f.len() == 1 && f[0].starts_with("u1: 4 of 32 words differ"),
            "{f:?}"
        );
        // A UAV the backend did not read back is named.
        let f = uav_diff(&case, &cpu, &[]);
        assert_eq!(f, vec!["u1 was not read back".to_string()]);
    }
}
