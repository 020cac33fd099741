//! Bisecting a run's failures: each backend whose image differs from the
//! emulator's is bisected at its worst pixel (`harness::bisect`,
//! docs/bisect.md), so the report names the first instruction at which
//! the GPU went another way, with both values.
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
) {
    let limit = options.bisect_limit;
    if limit == 0 {
        return;
    }
    let mut made = 0;
    for (r, input) in results.iter_mut().zip(inputs) {
        let Some((case, shaders)) = input else {
            continue;
        };
        for b in &mut r.backends {
            let Some(pixel) = b.failing_pixel() else {
                continue;
            };
            let Some(renderer) = renderers.iter().find(|x| x.backend() == b.backend) else {
                continue;
            };
            let outcome = if made >= limit {
                Bisected::OverLimit(limit)
            } else {
                match renderer.bisect(case, shaders, pixel, &options.glsl) {
                    None => Bisected::NotRun(cannot_capture(b.backend)),
                    Some(done) => {
                        made += 1;
                        match done {
                            Ok(found) => Bisected::Ran(found),
                            Err(why) => Bisected::NotRun(why),
                        }
                    }
                }
            };
            b.bisect = Some(BackendBisect { pixel, outcome });
        }
    }
}

fn cannot_capture(backend: Backend) -> String {
    format!("the {} backend cannot capture registers", backend.name())
}
