//! Running cases: load, assemble, draw on the GPU and the CPU, diff the
//! two, check goldens and probes, and say why a case failed.
//!
//! A case passes when both renderers draw it, the GPU image is within the
//! case's tolerance of the CPU image at every pixel of every render
//! target, every probe matches both images (render target 0), and, for a
//! case with `golden`, both images are within tolerance of the golden.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::case::{Case, CaseShaders, ShaderSource};
use super::cpu;
use super::diff::Diff;
use super::image::Image;
use super::progress::Progress;
use super::translator;
use super::webgl2::WebGl2;
use crate::glsl;

mod backend;
mod bisection;
mod compare;
mod run;
mod split;

pub use backend::Backend;
pub use bisection::{BackendBisect, Bisected, DEFAULT_BISECT_LIMIT, bisect_command, not_bisected};
pub use run::SLICE_TEXELS;
pub use split::Split;

use compare::{CpuRun, Drawn, compare, uav_failures};
use run::{map_jobs, run_loaded};

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

/// A WebGL2 draw's pictures as a backend's: WebGL2 binds no UAVs.
impl From<super::webgl2::Drawn> for Rendered {
    fn from(d: super::webgl2::Drawn) -> Rendered {
        Rendered {
            images: d.images,
            ms: d.ms,
            notes: d.notes,
            uavs: Vec::new(),
        }
    }
}

/// What draws cases through the translated GLSL: the wgpu renderer (its
/// impl lives in `gpu`, which only the `gpu` cargo feature builds), the
/// WebGL2 page, or a stand-in in tests.
pub trait Renderer {
    fn backend(&self) -> Backend;
    /// Whose GLSL it draws: dxbc-dbg's own translation
    /// ([`translator::BUILT_IN`]), or an external translator's by its
    /// name (docs/translators.md). Results are keyed on the backend and
    /// this together, so several renderers may share a backend.
    fn translator(&self) -> &str {
        translator::BUILT_IN
    }
    /// The adapter or browser, for reports.
    fn name(&self) -> String;
    /// Draws every case, in order. `options.dialect` is ignored: each
    /// backend translates to its own.
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>>;
    /// Why this backend cannot draw the case at all where it runs (a
    /// device limit the shader exceeds, a capability the device lacks),
    /// asked before drawing: the case is then not applicable to it, as
    /// with a `[require]` it lacks, instead of a failed draw. The text
    /// before its first colon names the limit or capability.
    fn refuses(
        &self,
        _case: &Case,
        _shaders: &CaseShaders,
        _options: &glsl::Options,
    ) -> Option<String> {
        None
    }
    /// Whether [`Renderer::bisect_all`] can capture registers on this
    /// backend (`harness::bisect`); a run asks before counting a
    /// bisection against its limit.
    fn captures_registers(&self) -> bool {
        false
    }
    /// Bisects each (case, pixel) of `jobs` (`harness::bisect`,
    /// docs/bisect.md) with the run's translation `options`: where along
    /// the pixel's path this backend's registers first differ from the
    /// emulator's, or why it could not tell. All in one go, because a
    /// backend may pay once for many (WebGL2 starts one browser).
    fn bisect_all(
        &self,
        jobs: &[BisectJob],
        _options: &glsl::Options,
    ) -> Vec<Result<super::bisect::Bisection, String>> {
        let why = format!(
            "the {} backend cannot capture registers",
            self.backend().name()
        );
        jobs.iter().map(|_| Err(why.clone())).collect()
    }
}

/// One bisection a run asks of a backend: the case and the pixel.
pub type BisectJob<'a> = (&'a Case, &'a CaseShaders, (u32, u32));

impl Renderer for WebGl2 {
    fn backend(&self) -> Backend {
        Backend::WebGl2
    }

    fn captures_registers(&self) -> bool {
        true
    }

    fn bisect_all(
        &self,
        jobs: &[BisectJob],
        options: &glsl::Options,
    ) -> Vec<Result<super::bisect::Bisection, String>> {
        super::bisect::webgl2_all(self, jobs, options)
            .into_iter()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
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
            .map(|r| r.map(Rendered::from).map_err(|e| e.to_string()))
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
    /// Threads for the emulator's side of the run (loading, drawing on
    /// the CPU, diffing): 1 runs it on the calling thread. Results come in
    /// the cases' order whatever the scheduling. The backends draw their
    /// batches as before (see docs/harness.md, "Parallel runs").
    pub jobs: usize,
    /// How many bisections (`Renderer::bisect_all`, at a failing backend's
    /// worst pixel) a run may make; 0 makes none. Each costs a pipeline
    /// compile, so the library's default is 0 and `diff` sets its own
    /// ([`DEFAULT_BISECT_LIMIT`]).
    pub bisect_limit: usize,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            glsl: glsl::Options::new(glsl::Dialect::Vk450),
            goldens: None,
            bless: false,
            jobs: 1,
            bisect_limit: 0,
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

/// What one backend did with a case, through one translator's GLSL.
#[derive(Debug, Clone)]
pub struct BackendResult {
    pub backend: Backend,
    /// Whose GLSL was drawn ([`Renderer::translator`]).
    pub translator: String,
    /// Why an external translator's text failed, where that is known
    /// without a register capture: the browser's compile or link log of
    /// its text, or what the gap detector finds at the worst pixel.
    pub cause: Option<String>,
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
    /// The first divergent instruction at [`BackendResult::failing_pixel`],
    /// when the run bisected (or meant to bisect) it.
    pub bisect: Option<BackendBisect>,
}

impl BackendResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Whether it drew dxbc-dbg's own translation.
    pub fn built_in(&self) -> bool {
        self.translator == translator::BUILT_IN
    }

    /// How failures and reports name it: the backend (`webgl2`) for
    /// dxbc-dbg's own translation, `backend/translator` (`webgl2/hlslcc`)
    /// for an external one.
    pub fn key(&self) -> String {
        result_key(self.backend.name(), &self.translator)
    }

    /// The worst pixel of the first render target with pixels beyond
    /// tolerance of the emulator's: the one the summary table names.
    pub fn failing_pixel(&self) -> Option<(u32, u32)> {
        self.targets.iter().find_map(|t| {
            let w = t.diff.worst.as_ref()?;
            (!t.diff.size_mismatch && !w.passes).then_some((w.x, w.y))
        })
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
    /// Why the emulator could not draw the case, when it could not (also
    /// in `case_failures`, as text); `diff --auto` sorts verdicts by it.
    pub cpu_error: Option<cpu::CpuError>,
    pub backends: Vec<BackendResult>,
    /// The first pixel a probe found wrong (the emulator's images checked
    /// first, then each backend's): where to step when the images agree.
    pub probe_pixel: Option<(u32, u32)>,
    /// Goldens written by `--bless`.
    pub blessed: Vec<PathBuf>,
    /// What loading the case warned of (a bound slot no shader declares),
    /// each naming the case file and line.
    pub warnings: Vec<String>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Drops the pictures (the emulator's and each backend's images, the
    /// diffs' per-pixel errors), keeping their sizes, every statistic,
    /// worst pixel, failing pixel and probe. [`CaseResult::has_pixels`]
    /// says which.
    pub fn shed_pixels(&mut self) {
        // A failing diff keeps which pixels fail (a byte a pixel), which
        // the results document lists.
        let diff = |d: &mut Diff| {
            d.errors = Vec::new();
            if d.failing == 0 {
                d.pass = Vec::new();
            }
        };
        for img in &mut self.cpu {
            img.pixels = Vec::new();
        }
        self.cpu_golden.iter_mut().flatten().for_each(diff);
        for b in &mut self.backends {
            for t in &mut b.targets {
                t.image.pixels = Vec::new();
                diff(&mut t.diff);
                t.golden.iter_mut().for_each(diff);
            }
        }
    }

    /// Whether the pictures are still here (not shed).
    pub fn has_pixels(&self) -> bool {
        let whole = |i: &Image| i.pixels.len() == i.width as usize * i.height as usize;
        self.cpu.iter().all(whole)
            && self
                .backends
                .iter()
                .all(|b| b.targets.iter().all(|t| whole(&t.image)))
    }

    /// The backend's result through dxbc-dbg's own translation, if the
    /// case ran on it.
    pub fn backend(&self, b: Backend) -> Option<&BackendResult> {
        self.result(b, translator::BUILT_IN)
    }

    /// The result of the backend drawing `translator`'s GLSL, if the case
    /// ran on it.
    pub fn result(&self, b: Backend, translator: &str) -> Option<&BackendResult> {
        self.backends
            .iter()
            .find(|r| r.backend == b && r.translator == translator)
    }

    /// The pixel to step: the one with the largest backend↔CPU error over
    /// every backend and render target when some pixel fails that diff;
    /// else the first pixel a probe found wrong (a case whose expected
    /// values no renderer meets, or one run on the emulator alone); else
    /// the pixel with the largest error within tolerance.
    ///
    /// dxbc-dbg's own translations are looked at first: an external
    /// translator's failure (which has its own step command,
    /// [`BackendResult::failing_pixel`]) names the case's pixel only when
    /// no built-in one fails.
    pub fn worst_pixel(&self) -> Option<(u32, u32)> {
        let m = |w: &super::diff::Worst| w.error.iter().map(|e| e.abs).fold(0.0f64, f64::max);
        let worst = |built_in: bool| {
            let mut best: Option<&super::diff::Worst> = None;
            let targets = self
                .backends
                .iter()
                .filter(|b| b.built_in() == built_in)
                .flat_map(|b| &b.targets);
            for t in targets {
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
            best
        };
        let best = worst(true);
        match best {
            Some(w) if !w.passes => Some((w.x, w.y)),
            _ => match worst(false) {
                Some(w) if !w.passes => Some((w.x, w.y)),
                _ => self.probe_pixel.or(best.map(|w| (w.x, w.y))),
            },
        }
    }

    /// The command that steps the worst pixel in the debugger.
    pub fn step_command(&self) -> Option<String> {
        let (x, y) = self.worst_pixel()?;
        Some(step_command(&self.path, x, y))
    }
}

/// How results name a backend drawing a translator's GLSL: the backend
/// alone for dxbc-dbg's own translation (as every run before external
/// translators named it), `backend/translator` for an external one.
pub fn result_key(backend: &str, translator: &str) -> String {
    if translator == translator::BUILT_IN {
        backend.to_string()
    } else {
        format!("{backend}/{translator}")
    }
}

/// `dxbc-dbg step CASE --pixel X,Y`: a case file brings its own shaders
/// (inline or a file beside it, and a vertex shader when it has one) and
/// inputs, so the command is the same for every case.
pub fn step_command(case: &Path, x: u32, y: u32) -> String {
    format!(
        "dxbc-dbg step {} --pixel {x},{y}",
        shell_quote(&tidy(case).display().to_string())
    )
}

/// `path` with `.` components dropped and each `..` cancelling the named
/// component before it (`out/../../corpus/x.dxbc` → `../corpus/x.dxbc`):
/// the shader a case names is joined to the case's folder, which a
/// printed command should not make the reader untangle. Lexical only, as
/// the case's own relative path is.
pub(super) fn tidy(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let named = matches!(out.components().next_back(), Some(Component::Normal(_)));
                if named {
                    out.pop();
                } else if !matches!(out.components().next_back(), Some(Component::RootDir)) {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Quotes a path for a POSIX shell when it needs it.
pub(crate) fn shell_quote(s: &str) -> String {
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
    match Case::load(path) {
        Ok(c) => check(c, name),
        Err(e) => {
            let mut result = empty_result(path, name);
            result.case_failures.push(e.to_string());
            Loaded {
                result,
                input: None,
            }
        }
    }
}

fn empty_result(path: &Path, name: &str) -> CaseResult {
    CaseResult {
        path: path.to_path_buf(),
        name: name.to_string(),
        shader: path.to_path_buf(),
        case_failures: Vec::new(),
        failures: Vec::new(),
        cpu_ms: None,
        cpu: Vec::new(),
        cpu_golden: Vec::new(),
        cpu_error: None,
        backends: Vec::new(),
        probe_pixel: None,
        blessed: Vec::new(),
        warnings: Vec::new(),
    }
}

/// A parsed case checked the way every run checks it: its shaders load,
/// its bindings match them, its render targets fit the outputs.
fn check(mut case: Case, name: &str) -> Loaded {
    let path = case.path.clone();
    let mut result = empty_result(&path, name);
    if let Some(ShaderSource::File(f)) = &case.pixel_shader {
        result.shader = path.parent().map_or_else(|| f.clone(), |d| d.join(f));
    }
    let checked = case.shaders().and_then(|s| {
        let stages: Vec<&crate::dxbc::Shader> =
            std::iter::once(&s.pixel).chain(s.vertex.as_ref()).collect();
        let warnings = case.check_bindings(&stages)?;
        Ok((s, warnings))
    });
    if let Ok((_, warnings)) = &checked {
        case.unbind_unused_buffers(warnings);
    }
    // The render targets' formats and clears against the shader's outputs,
    // before any renderer sees the case (each would refuse it alike, after
    // the others had drawn). The message names the case file and line.
    let checked = checked
        .map_err(|e| e.to_string())
        .and_then(|(s, warnings)| {
            cpu::plan_targets(&case, &cpu::targets(&s.pixel))?;
            result.warnings = warnings.iter().map(|w| w.to_string()).collect();
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
    run_all(&cases, renderers, options, &())
        .pop()
        .unwrap_or_else(|| load(path, name).result)
}

/// Runs cases on the emulator and every renderer, a slice of cases at a
/// time (see [`SLICE_TEXELS`]), then diffs, goldens and probes case by
/// case, and last bisects the failures, telling `progress` of each stage
/// (loading, then per slice the emulator, each backend's draws and the
/// comparisons, then bisecting) and of the items as they finish. Every
/// case's pictures are kept in the results; a run over many or large
/// cases that needs only their numbers uses [`run_all_shedding`].
pub fn run_all(
    cases: &[(PathBuf, String)],
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn Progress,
) -> Vec<CaseResult> {
    run_files(cases, renderers, options, progress, &mut |_| {}, false)
}

/// [`run_all`], each case's pictures dropped once `each` has seen it
/// (it writes them where they are wanted): what the run holds is then
/// one slice's pictures, not the suite's. The results keep every
/// statistic, worst pixel and probe ([`CaseResult::shed_pixels`]).
pub fn run_all_shedding(
    cases: &[(PathBuf, String)],
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn Progress,
    mut each: impl FnMut(&CaseResult),
) -> Vec<CaseResult> {
    run_files(cases, renderers, options, progress, &mut each, true)
}

/// Case files loaded (in parallel when the run has a pool), then run.
fn run_files(
    cases: &[(PathBuf, String)],
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn Progress,
    each: &mut dyn FnMut(&CaseResult),
    shed: bool,
) -> Vec<CaseResult> {
    let pool = pool(options);
    progress.stage("loading cases", cases.len());
    let loaded: Vec<Loaded> = map_jobs(pool.as_ref(), cases.iter().collect(), |(p, n)| {
        let l = load(p, n);
        progress.advance(1, n);
        l
    });
    run_loaded(
        loaded,
        pool.as_ref(),
        renderers,
        options,
        progress,
        each,
        shed,
    )
}

/// Runs cases already parsed (each with its name), as [`run_all`] runs
/// case files: `diff --auto` parses the text it generates, so what it
/// draws is exactly what it would write. Each case's `path` is where it
/// is (or would be) written: its shader paths are relative to it.
pub fn run_parsed(
    cases: Vec<(Case, String)>,
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn Progress,
) -> Vec<CaseResult> {
    let pool = pool(options);
    progress.stage("checking cases", cases.len());
    let loaded: Vec<Loaded> = map_jobs(pool.as_ref(), cases, |(c, n)| {
        let l = check(c, &n);
        progress.advance(1, &n);
        l
    });
    run_loaded(
        loaded,
        pool.as_ref(),
        renderers,
        options,
        progress,
        &mut |_| {},
        false,
    )
}

fn pool(options: &RunOptions) -> Option<rayon::ThreadPool> {
    // No pool for one job: the run stays on the caller's thread. A pool
    // that cannot be built (no threads to be had) leaves it there too.
    (options.jobs > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(options.jobs)
                .build()
                .ok()
        })
        .flatten()
}

/// The cases of one slice (all of them without a shard), each with its
/// place in `cases`, which the results document records.
pub fn slice(
    cases: &[(PathBuf, String)],
    shard: Option<super::shard::Shard>,
) -> (Vec<usize>, Vec<(PathBuf, String)>) {
    cases
        .iter()
        .enumerate()
        .filter(|(_, (_, name))| shard.is_none_or(|s| s.contains(name)))
        .map(|(i, c)| (i, c.clone()))
        .unzip()
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
            walk(root, "case", &mut found)?;
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

/// Every file under `dir` (recursively) whose extension is `extension`,
/// appended to `out` unsorted; an unreadable directory is an error naming
/// it.
pub(crate) fn walk(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        let p = entry.path();
        if p.is_dir() {
            walk(&p, extension, out)?;
        } else if p.extension().is_some_and(|e| e == extension) {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
