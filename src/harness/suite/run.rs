//! Running a suite a slice at a time: the cases cut into slices of
//! bounded pixels ([`SLICE_TEXELS`]), each slice drawn on the emulator and
//! every renderer and compared before the next, so a run's pictures are
//! held one slice at a time (and, in `run_all_shedding`, dropped once each
//! case has been seen); then the failures bisected.

use super::{
    CaseResult, CpuRun, Drawn, Loaded, Rendered, Renderer, RunOptions, bisection, compare, cpu,
    elapsed_ms, uav_failures,
};
use crate::harness::case::{Case, CaseShaders};
use crate::harness::progress::{Done, Progress};
use std::time::Instant;

/// How many texels (summed over a slice's cases and their render
/// targets) one slice of a run may draw before it is compared and, in
/// [`run_all_shedding`], its pictures dropped: 4 Mi texels is about 200 MB
/// with the emulator's image, one backend's and the diff, and thirteen
/// 640x480 cases. Cases are loaded (parsed, shaders read) all at once;
/// only their pictures are bounded.
pub const SLICE_TEXELS: u64 = 4 << 20;

/// The cases of `loaded` cut into slices of at most [`SLICE_TEXELS`]
/// (each at least `min` cases, or one case larger than that alone).
fn slices(loaded: &[Loaded], min: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut texels) = (0, 0u64);
    for (k, l) in loaded.iter().enumerate() {
        let t = l.input.as_ref().map_or(0, |(case, shaders)| {
            let targets = cpu::targets(&shaders.pixel).len().max(1) as u64;
            u64::from(case.width) * u64::from(case.height) * targets
        });
        if k > start && k - start >= min && texels + t > SLICE_TEXELS {
            out.push(start..k);
            start = k;
            texels = 0;
        }
        texels += t;
    }
    if start < loaded.len() {
        out.push(start..loaded.len());
    }
    out
}

pub(super) fn run_loaded(
    loaded: Vec<Loaded>,
    pool: Option<&rayon::ThreadPool>,
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn Progress,
    each: &mut dyn FnMut(&CaseResult),
    shed: bool,
) -> Vec<CaseResult> {
    let ranges = slices(&loaded, options.jobs.max(1));
    let (count, total) = (ranges.len(), loaded.len());
    let mut loaded = loaded.into_iter();
    let mut compared = Vec::new();
    let mut inputs = Vec::new();
    for range in ranges {
        // A run of one slice names its stages plainly; several say which
        // cases each stage is working on.
        let slice_name =
            (count > 1).then(|| format!(" (cases {}-{} of {total})", range.start + 1, range.end));
        let slice: Vec<Loaded> = loaded.by_ref().take(range.len()).collect();
        let within = Slice {
            progress,
            name: slice_name.as_deref().unwrap_or(""),
        };
        for (mut result, input) in run_slice(slice, pool, renderers, options, &within) {
            each(&result);
            if shed {
                result.shed_pixels();
            }
            compared.push(result);
            inputs.push(input);
        }
    }
    // On the calling thread, after every comparison: a bisection draws on
    // the renderer again, which is not for sharing between threads.
    bisection::bisect_failures(&mut compared, &inputs, renderers, options, progress);
    compared
}

/// A slice's stages as the run's progress sees them: each stage's name
/// followed by which cases the slice holds.
struct Slice<'a> {
    progress: &'a dyn Progress,
    name: &'a str,
}

impl Progress for Slice<'_> {
    fn stage(&self, name: &str, total: usize) {
        self.progress.stage(&format!("{name}{}", self.name), total);
    }
    fn advance(&self, n: usize, item: &str) {
        self.progress.advance(n, item);
    }
}

/// One slice of a run: the emulator, every renderer, the comparisons.
fn run_slice(
    loaded: Vec<Loaded>,
    pool: Option<&rayon::ThreadPool>,
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn Progress,
) -> Vec<(CaseResult, Option<(Case, CaseShaders)>)> {
    // The emulator first: a shader that runs past its instruction budget
    // would not end on a GPU either, and a draw that never finishes hangs
    // the renderer (lavapipe and SwiftShader have no watchdog), so such a
    // case is not sent to the backends.
    progress.stage("emulator", loaded.len());
    let cpu: Vec<Option<CpuRun>> = map_jobs(pool, loaded.iter().collect(), |l: &Loaded| {
        let _done = Done(progress, &l.result.name);
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
    });
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
            if let Some(why) = r.refuses(case, shaders, &options.glsl) {
                na[k] = Some(why);
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
        let key = super::result_key(backend.name(), r.translator());
        progress.stage(&format!("drawing on {key}"), jobs.len());
        let rendered = r.render_all(&jobs, &options.glsl);
        progress.advance(jobs.len(), "");
        for (k, res) in index.into_iter().zip(rendered) {
            per[k] = Some(res);
        }
        drawn.push(per);
        skipped.push(na);
    }
    // Each case with its CPU run and what every backend did, to compare.
    let per_case: Vec<(Loaded, Option<CpuRun>, Vec<Drawn>)> = loaded
        .into_iter()
        .zip(cpu)
        .enumerate()
        .map(|(k, (l, run))| {
            let backends: Vec<Drawn> = renderers
                .iter()
                .enumerate()
                .map(|(i, r)| Drawn {
                    backend: r.backend(),
                    translator: r.translator().to_string(),
                    not_applicable: skipped[i][k].take(),
                    result: drawn[i][k].take(),
                })
                .collect();
            (l, run, backends)
        })
        .collect();
    progress.stage("comparing", per_case.len());
    map_jobs(pool, per_case, |(l, run, backends)| {
        let name = l.result.name.clone();
        let _done = Done(progress, &name);
        let mut result = l.result;
        if let Some((case, shaders)) = &l.input {
            let run = run.expect("a loaded case has its CPU run");
            compare(&mut result, case, run, backends, options);
            explain_external(&mut result, case, shaders);
        }
        let mut all = result.case_failures.clone();
        for b in &result.backends {
            all.extend(b.failures.iter().map(|f| format!("{}: {f}", b.key())));
        }
        result.failures = all;
        (result, l.input)
    })
}

/// The cause of each external translator's wrong pixels where its text
/// compiled (a compile or link log is already the cause): the D3D11/GLSL
/// ES 3.00 gaps the emulator's run of the worst pixel hits
/// (`harness::gaps`). An external text has no register capture to bisect,
/// so the operand values the pixel really meets are what can say why
/// another translator's lowering may differ from D3D's result there.
fn explain_external(result: &mut CaseResult, case: &Case, shaders: &CaseShaders) {
    for b in &mut result.backends {
        if b.translator == crate::harness::translator::BUILT_IN || b.cause.is_some() {
            continue;
        }
        let Some(pixel) = b.failing_pixel() else {
            continue;
        };
        b.cause = match crate::harness::gaps::case_gaps(case, shaders, pixel) {
            Ok(gaps) => crate::harness::gaps::cause(&gaps),
            Err(e) => Some(format!(
                "the gaps at {},{} could not be listed: {e}",
                pixel.0, pixel.1
            )),
        };
    }
}

/// `f` over `items`, on the pool's threads when there is one, in the
/// items' order either way.
pub(super) fn map_jobs<T: Send, U: Send>(
    pool: Option<&rayon::ThreadPool>,
    items: Vec<T>,
    f: impl Fn(T) -> U + Sync + Send,
) -> Vec<U> {
    use rayon::prelude::*;
    match pool {
        Some(pool) => pool.install(|| items.into_par_iter().map(f).collect()),
        None => items.into_iter().map(f).collect(),
    }
}
