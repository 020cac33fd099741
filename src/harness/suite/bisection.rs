//! Bisecting a run's failures: each backend whose image differs from the
//! emulator's is bisected at its worst pixel (`harness::bisect`,
//! docs/bisect.md), so the report names the first instruction at which
//! the GPU went another way, with both values.
//!
//! Only dxbc-dbg's own translations are bisected: an external
//! translator's text carries no register capture, and its failure is
//! recorded as not run, saying so ([`not_bisected`]).
//!
//! A capture costs a pipeline compile of the instrumented translation
//! (about 6 s cold on lavapipe for 200 instructions), so a run makes at
//! most [`RunOptions::bisect_limit`] of them, in the cases' order, and
//! records the ones past it as [`Bisected::OverLimit`] for the report to
//! name.

use std::path::Path;

use super::{Backend, CaseResult, Renderer, RunOptions, shell_quote, tidy};
use crate::harness::bisect::Bisection;
use crate::harness::case::{Case, CaseShaders};

/// How many bisections `diff` makes by default: a cold capture of a
/// long shader takes seconds on lavapipe, so ten keep a run with many
/// failures within about a minute more (docs/harness.md).
pub const DEFAULT_BISECT_LIMIT: usize = 10;

/// What bisecting one backend's worst pixel gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Bisected {
    /// The paths were compared (with the divergence, if any).
    Ran(Bisection),
    /// The bisection could not run, and why (a multisampled target, a
    /// helper pixel, a case the capture refuses, a backend that cannot
    /// capture registers).
    NotRun(String),
    /// The run had made its [`RunOptions::bisect_limit`] bisections
    /// (the limit).
    OverLimit(usize),
}

/// One backend's bisection of a case, at its worst pixel.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendBisect {
    pub pixel: (u32, u32),
    pub outcome: Bisected,
}

/// `dxbc-dbg bisect CASE --pixel X,Y --backend B`, as the step command
/// names the case.
pub fn bisect_command(case: &Path, x: u32, y: u32, backend: &str) -> String {
    format!(
        "dxbc-dbg bisect {} --pixel {x},{y} --backend {}",
        shell_quote(&tidy(case).display().to_string()),
        shell_quote(backend)
    )
}

/// Bisects every backend result that failed against the emulator's image
/// (a pixel beyond tolerance: not a draw error, which has no image, nor a
/// golden, probe or UAV failure alone, which names no pixel the emulator
/// disagrees with), up to the run's limit. `inputs[i]` is the case of
/// `results[i]`, when it loaded.
pub(super) fn bisect_failures(
    results: &mut [CaseResult],
    inputs: &[Option<(Case, CaseShaders)>],
    renderers: &[&dyn Renderer],
    options: &RunOptions,
    progress: &dyn crate::harness::progress::Progress,
) {
    let limit = options.bisect_limit;
    if limit == 0 {
        return;
    }
    // In the cases' order, each failure gets a place in its renderer's
    // batch while the limit lasts; a renderer is asked once for its whole
    // batch (WebGL2 starts one browser for all of them).
    let mut made = 0;
    let mut batches: Vec<Vec<Slot>> = vec![Vec::new(); renderers.len()];
    for (ri, (r, input)) in results.iter_mut().zip(inputs).enumerate() {
        if input.is_none() {
            continue;
        }
        for (bi, b) in r.backends.iter_mut().enumerate() {
            let Some(pixel) = b.failing_pixel() else {
                continue;
            };
            let Some(k) = renderers
                .iter()
                .position(|x| x.backend() == b.backend && x.translator() == b.translator)
            else {
                continue;
            };
            let outcome = if !b.built_in() {
                // Not counted against the limit: nothing is drawn.
                Bisected::NotRun(not_bisected(&b.translator))
            } else if !renderers[k].captures_registers() {
                Bisected::NotRun(cannot_capture(b.backend))
            } else if made >= limit {
                Bisected::OverLimit(limit)
            } else {
                made += 1;
                batches[k].push((ri, bi, pixel));
                continue;
            };
            b.bisect = Some(BackendBisect { pixel, outcome });
        }
    }
    for (renderer, batch) in renderers.iter().zip(&batches) {
        if batch.is_empty() {
            continue;
        }
        let jobs: Vec<super::BisectJob> = batch
            .iter()
            .filter_map(|&(ri, _, pixel)| {
                let (case, shaders) = inputs[ri].as_ref()?;
                Some((case, shaders, pixel))
            })
            .collect();
        progress.stage(
            &format!(
                "bisecting on {}",
                super::result_key(renderer.backend().name(), renderer.translator())
            ),
            jobs.len(),
        );
        let found = renderer.bisect_all(&jobs, &options.glsl);
        progress.advance(jobs.len(), "");
        for (&(ri, bi, pixel), done) in batch.iter().zip(found) {
            let outcome = match done {
                Ok(found) => Bisected::Ran(found),
                Err(why) => Bisected::NotRun(why),
            };
            results[ri].backends[bi].bisect = Some(BackendBisect { pixel, outcome });
        }
    }
}

/// A failure in a renderer's batch: the case's and the backend's place
/// in the results, and the pixel.
type Slot = (usize, usize, (u32, u32));

/// Why an external translator's failure is not bisected: the register
/// capture is instrumentation dxbc-dbg writes into its own translation;
/// another translator's text has none to read back.
pub fn not_bisected(translator: &str) -> String {
    format!(
        "{translator}'s text has no register capture (only dxbc-dbg's own translation carries one)"
    )
}

fn cannot_capture(backend: Backend) -> String {
    format!("the {} backend cannot capture registers", backend.name())
}
