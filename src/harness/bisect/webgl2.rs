//! `bisect` on WebGL2: the emulator's path beside the capture of the es300
//! translation, drawn window by window in headless Chromium
//! (`harness::webgl2`, "The capture" in docs/bisect.md). Many bisections
//! share the backend's one browser ([`webgl2_all`]), which is what makes
//! a sweep over the cases affordable: a browser start costs more than
//! most captures.

use super::{BisectError, Bisection, Path, Paths, compare, emulator_path, gpu_path};
use crate::glsl::{self, Dialect};
use crate::harness::case::{Case, CaseShaders};
use crate::harness::runtime;
use crate::harness::suite::Backend;
use crate::harness::webgl2::{CaptureRequest, WebGl2};

/// Bisects `case` at pixel `(x, y)` on WebGL2: the emulator's path beside
/// the capture of the es300 translation made with `options` (its fault
/// injections included; `dialect` and the capture are set here). The
/// GLSL lines named are those of the plain es300 text `glsl` prints.
pub fn webgl2(
    webgl2: &WebGl2,
    case: &Case,
    shaders: &CaseShaders,
    pixel: (u32, u32),
    options: &glsl::Options,
) -> Result<Bisection, BisectError> {
    webgl2_all(webgl2, &[(case, shaders, pixel)], options)
        .pop()
        .unwrap_or_else(|| Err(BisectError::Other("no bisection came back".into())))
}

/// [`webgl2`] for many (case, pixel) pairs, every capture in the
/// backend's one browser unless one of them stalls or ends it (then the
/// others go on in a fresh one, as `WebGl2::render_all` does).
pub fn webgl2_all(
    webgl2: &WebGl2,
    jobs: &[CaptureRequest],
    options: &glsl::Options,
) -> Vec<Result<Bisection, BisectError>> {
    webgl2_paths_all(webgl2, jobs, options)
        .into_iter()
        .map(|r| r.map(|p| p.bisection))
        .collect()
}

/// [`webgl2_all`] keeping both sides' [`Path`]s beside each bisection,
/// for the debugger (as `vulkan_paths` does on Vulkan).
pub fn webgl2_paths_all(
    webgl2: &WebGl2,
    jobs: &[CaptureRequest],
    options: &glsl::Options,
) -> Vec<Result<Paths, BisectError>> {
    webgl2_reporting(webgl2, jobs, options, &())
}

/// [`webgl2_paths_all`], telling `progress` of each stage: the emulator's
/// paths, the captures' draws in the browser.
pub fn webgl2_reporting(
    webgl2: &WebGl2,
    jobs: &[CaptureRequest],
    options: &glsl::Options,
    progress: &dyn crate::harness::progress::Progress,
) -> Vec<Result<Paths, BisectError>> {
    let mut options = options.clone();
    options.dialect = Dialect::Es300;
    options.capture = None;
    // The emulator's side and the plain text's line map first: a case
    // that cannot be bisected is not drawn.
    let mut out: Vec<Option<Result<Paths, BisectError>>> = Vec::new();
    let mut ready: Vec<(usize, Path, glsl::SourceMap)> = Vec::new();
    progress.stage("emulator path", jobs.len());
    for (k, (case, shaders, pixel)) in jobs.iter().enumerate() {
        let _done = crate::harness::progress::Done(progress, "");
        match prepare(case, shaders, *pixel, &options) {
            Ok((path, map)) => {
                ready.push((k, path, map));
                out.push(None);
            }
            Err(e) => out.push(Some(Err(e))),
        }
    }
    let requests: Vec<CaptureRequest> = ready.iter().map(|(k, _, _)| jobs[*k]).collect();
    progress.stage("capture in the browser", requests.len());
    let captured = webgl2.capture_all(&requests, &options);
    progress.advance(requests.len(), "");
    for ((k, emulator, map), words) in ready.into_iter().zip(captured) {
        let (case, shaders, pixel) = jobs[k];
        out[k] = Some(
            words
                .map_err(|e| BisectError::Other(e.to_string()))
                .and_then(|words| {
                    gpu_path(&shaders.pixel.program, &words)
                        .map_err(|e| BisectError::Other(format!("{}: {e}", case.path.display())))
                })
                .map(|gpu| {
                    let bisection = compare(
                        &shaders.pixel,
                        &map,
                        &case.tolerance,
                        pixel,
                        &emulator,
                        &gpu,
                    );
                    Paths {
                        emulator,
                        gpu,
                        bisection,
                    }
                }),
        );
    }
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| Err(BisectError::Other("not bisected".into()))))
        .collect()
}

/// What a bisection needs before the draw: the case applicable on WebGL2,
/// the emulator's path, the plain es300 translation's line map.
fn prepare(
    case: &Case,
    shaders: &CaseShaders,
    pixel: (u32, u32),
    options: &glsl::Options,
) -> Result<(Path, glsl::SourceMap), BisectError> {
    let backend = Backend::WebGl2;
    if let Some(req) = case.requires.iter().find(|q| !backend.supports(q.feature)) {
        return Err(BisectError::Other(format!(
            "not applicable on webgl2: the case requires {}: {}",
            req.feature.name(),
            req.reason
        )));
    }
    let emulator = emulator_path(case, shaders, pixel)?;
    let plain =
        runtime::translate(case, shaders, options, Dialect::Es300).map_err(BisectError::Other)?;
    Ok((emulator, plain.pixel.map))
}
