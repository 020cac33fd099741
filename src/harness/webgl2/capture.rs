//! The register capture on WebGL2 (docs/bisect.md): a case drawn through
//! its es300 translation instrumented for one pixel
//! (`glsl::Options::capture`), whose records come out a window at a time
//! in integer render targets. The page compiles the program once and
//! draws it again and again with the window uniform at 0, R, 2R, …,
//! reading the capture outputs at the pixel after each draw, until the
//! header's record count is covered; the words come back in the layout
//! of the Vulkan capture buffer (header, then records), so
//! `harness::bisect::gpu_path` reads either.
//!
//! How many draw buffers the context has is known only in the page: the
//! translation first assumes [`DRAW_BUFFERS`], and a context with fewer
//! says how many it has, so that case is translated again for them and
//! drawn again.

use super::scene::{self, CaptureJob, Target};
use super::{SceneResult, WebGl2, WebGl2Error};
use crate::glsl::{self, capture};
use crate::harness::case::{Case, CaseShaders};
use crate::harness::image::TargetKind;

/// The draw buffers assumed first: WebGL2 guarantees 4, and the
/// contexts this backend meets (SwiftShader, desktop GPUs) give 8, which
/// keeps three records a draw.
pub const DRAW_BUFFERS: u32 = 8;

/// One capture to take: a case, its shaders, the pixel (D3D's window
/// position, rows from the top).
pub type CaptureRequest<'a> = (&'a Case, &'a CaseShaders, (u32, u32));

impl WebGl2 {
    /// The capture words (header and records) of each request, drawn one
    /// after another in the run's browser (see `render_all`), the
    /// translation made with `options` (fault injections included;
    /// `capture` and `capture_outputs` are set here).
    pub fn capture_all(
        &self,
        jobs: &[CaptureRequest],
        options: &glsl::Options,
    ) -> Vec<Result<Vec<u32>, WebGl2Error>> {
        jobs.iter()
            .map(|job| self.capture_one(job, options))
            .collect()
    }

    fn capture_one(
        &self,
        job: &CaptureRequest,
        options: &glsl::Options,
    ) -> Result<Vec<u32>, WebGl2Error> {
        let case = job.0;
        let mut buffers = DRAW_BUFFERS;
        // At most two rounds: the second for contexts with fewer buffers.
        for _ in 0..2 {
            let sc = capture_scene(job, options, buffers)?;
            let r = self.draw(&sc, &case.path)?;
            match r.max_draw_buffers {
                Some(max) if max < buffers && capture::es300_records_per_draw(max) > 0 => {
                    buffers = max;
                }
                _ => return words(case, &r),
            }
        }
        Err(WebGl2Error::Case(format!(
            "{}: the capture was not drawn",
            case.path.display()
        )))
    }

    /// One capture (see [`WebGl2::capture_all`]).
    pub fn capture(
        &self,
        job: CaptureRequest,
        options: &glsl::Options,
    ) -> Result<Vec<u32>, WebGl2Error> {
        self.capture_all(&[job], options)
            .pop()
            .unwrap_or_else(|| Err(WebGl2Error::Browser("no capture result".into())))
    }
}

/// The case's scene for a capture with `draw_buffers` outputs: its
/// textures, blocks and quad as `render_all` draws them, the capture
/// outputs as the targets (`RGBA32UI`), and no depth buffer: a depth test
/// would drop the pixel's fragment, whose run the emulator records
/// whatever the test says.
fn capture_scene(
    (case, shaders, (x, y)): &CaptureRequest,
    options: &glsl::Options,
    draw_buffers: u32,
) -> Result<scene::Scene, WebGl2Error> {
    let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.path.display()));
    if *x >= case.width || *y >= case.height {
        return Err(fail(format!(
            "pixel ({x},{y}) is outside the {}x{} target",
            case.width, case.height
        )));
    }
    let mut options = options.clone();
    options.capture = Some(glsl::CapturePixel { x: *x, y: *y });
    options.capture_outputs = draw_buffers;
    let stages = scene::translate(case, shaders, &options)?;
    let entry = stages
        .pixel
        .manifest
        .capture_outputs
        .clone()
        .ok_or_else(|| fail("the capture translation declares no capture outputs".into()))?;
    let mut sc = scene::build(case, &stages)?;
    sc.targets = (0..entry.outputs)
        .map(|location| Target {
            location,
            kind: "uint",
            internal: "RGBA32UI",
            read_format: "RGBA_INTEGER",
            read_type: "UNSIGNED_INT",
            clear: [0.0; 4],
            texel: TargetKind::Uint,
            channels: 4,
            format: None,
        })
        .collect();
    sc.depth = None;
    sc.capture = Some(CaptureJob {
        x: *x,
        y: *y,
        uniform: entry.window_uniform,
        outputs: entry.outputs,
        per_draw: entry.records_per_draw,
    });
    Ok(sc)
}

/// The words the page read back, checked against the header's count.
fn words(case: &Case, r: &SceneResult) -> Result<Vec<u32>, WebGl2Error> {
    let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.path.display()));
    if !r.ok {
        return Err(fail(r.error.clone().unwrap_or_else(|| "failed".into())));
    }
    let bytes = r
        .capture
        .as_deref()
        .ok_or_else(|| fail("the page gave no capture words back".into()))?;
    if bytes.len() % 4 != 0 || bytes.len() < 4 * capture::HEADER_WORDS {
        return Err(fail(format!(
            "the capture read back {} bytes, not whole words after a header",
            bytes.len()
        )));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let want = capture::HEADER_WORDS + capture::RECORD_WORDS * words[0] as usize;
    if words.len() != want {
        return Err(fail(format!(
            "the capture holds {} words where its header's {} records need {want}",
            words.len(),
            words[0]
        )));
    }
    Ok(words)
}
