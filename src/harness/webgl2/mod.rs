//! The WebGL2 backend: cases drawn through the **es300** translation — the
//! text users ship — in a real WebGL2 context of a headless Chromium
//! (ANGLE on SwiftShader where there is no GPU). See docs/harness.md,
//! "WebGL2 backend".
//!
//! * `scene`: a case as the page draws it (textures, sampler objects,
//!   uniform blocks by member name, the documented uniforms, targets);
//! * `browser`: finding and running the browser, always ending every
//!   process it started;
//! * `runner.js`: the page's script, which does what an application using
//!   the translation does.
//!
//! One browser start serves a whole batch: every case's scene goes into one
//! page, drawn in order while it loads; the results come back through the
//! dumped DOM. A case that loses the context, stalls or kills the browser
//! fails alone: the cases after it go to a new browser run.

mod browser;
mod capture;
mod scene;

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::case::{Case, CaseShaders};
use super::image::Image;
use crate::glsl;
use crate::vm::texture::Format;

pub use browser::Angle;
pub use capture::{CaptureRequest, DRAW_BUFFERS};

#[derive(Debug, thiserror::Error)]
pub enum WebGl2Error {
    /// No browser to run WebGL2 in.
    #[error("no browser: {0}")]
    NoBrowser(String),
    /// The browser ran but gave no WebGL2 context, crashed or timed out.
    #[error("{0}")]
    Browser(String),
    /// One case could not be drawn (translation refused, compile or link
    /// error, GL error), with the case file named.
    #[error("{0}")]
    Case(String),
}

/// How the backend starts the browser.
#[derive(Debug, Clone)]
pub struct Config {
    /// The browser's executable; found on `PATH` when `None`
    /// (`chromium-headless-shell`, `chromium`, `google-chrome`, …).
    pub browser: Option<PathBuf>,
    /// ANGLE's back end.
    pub angle: Angle,
    /// The longest one case's draw (or the browser's start) may take
    /// before the browser is ended; the batch's other cases go on in a new
    /// run.
    pub timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            browser: None,
            angle: Angle::SwiftShader,
            timeout: Duration::from_secs(300),
        }
    }
}

/// A found browser, ready to run batches.
pub struct WebGl2 {
    exe: PathBuf,
    config: Config,
}

/// One case's pictures and draw time.
#[derive(Debug, Clone)]
pub struct Drawn {
    pub images: Vec<Image>,
    /// Milliseconds from compiling the shaders to the end of the
    /// read-back (uploads included), measured in the page.
    pub ms: f64,
    /// How textures went up where there was a choice (see
    /// `suite::Rendered::notes`).
    pub notes: Vec<String>,
}

/// A shader to compile, or a pair to link, in [`WebGl2::check`].
#[derive(Debug, Clone, Serialize)]
pub struct Compile {
    /// `vertex` or `fragment`.
    pub stage: &'static str,
    pub source: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub vs: String,
    pub fs: String,
}

/// What [`WebGl2::check`] found: per shader and per pair, `Ok` or the
/// browser's compile or link log.
#[derive(Debug, Clone)]
pub struct Checked {
    pub compiled: Vec<Result<(), String>>,
    pub linked: Vec<Result<(), String>>,
}

#[derive(Deserialize)]
struct PageResult {
    error: Option<String>,
    info: Option<PageInfo>,
    scenes: Option<Vec<SceneResult>>,
    check: Option<CheckResult>,
}

#[derive(Deserialize, Debug, Clone)]
pub struct PageInfo {
    pub version: String,
    pub renderer: String,
    pub color_buffer_float: bool,
    pub float_linear: bool,
}

#[derive(Deserialize)]
struct SceneResult {
    ok: bool,
    /// The context was lost while drawing this scene; the page drew no
    /// more.
    #[serde(default)]
    lost: bool,
    /// How block-compressed textures went up (compressed or decoded).
    notes: Option<Vec<String>>,
    error: Option<String>,
    ms: Option<f64>,
    targets: Option<Vec<TargetResult>>,
    /// The depth buffer, drawn into an `R32F` target: 16 bytes a texel.
    depth: Option<String>,
    /// A register capture's words (header and records), base64.
    capture: Option<String>,
    /// A capture that needed more draw buffers than the context has: how
    /// many it has.
    max_draw_buffers: Option<u32>,
}

#[derive(Deserialize)]
struct TargetResult {
    location: u32,
    data: String,
}

#[derive(Deserialize)]
struct CheckResult {
    compiled: Vec<Outcome>,
    linked: Vec<Outcome>,
}

#[derive(Deserialize)]
struct Outcome {
    ok: bool,
    error: Option<String>,
}

impl WebGl2 {
    /// Finds the browser; `WebGl2Error::NoBrowser` (saying what to
    /// install) when there is none.
    pub fn new(config: Config) -> Result<WebGl2, WebGl2Error> {
        let exe = browser::find(config.browser.as_deref())?;
        Ok(WebGl2 { exe, config })
    }

    /// The browser and ANGLE back end, for reports.
    pub fn name(&self) -> String {
        format!(
            "{} (ANGLE {})",
            self.exe.file_name().map_or_else(
                || self.exe.display().to_string(),
                |f| f.to_string_lossy().into_owned()
            ),
            self.config.angle.name()
        )
    }

    /// Draws each case through its es300 translation, all in one browser
    /// run while none loses the context, stalls or ends the browser (then
    /// that case fails and a new run takes the rest). A case that cannot be
    /// drawn gets its own error; a browser that fails before drawing any
    /// case fails every case left with the same message.
    pub fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Drawn, WebGl2Error>> {
        let mut out: Vec<Option<Result<Drawn, WebGl2Error>>> = Vec::new();
        let mut scenes = Vec::new();
        let mut which = Vec::new();
        let mut targets = Vec::new();
        for (k, (case, shaders)) in jobs.iter().enumerate() {
            let built =
                scene::translate(case, shaders, options).and_then(|st| scene::build(case, &st));
            match built {
                Ok(sc) => {
                    targets.push((sc.targets.clone(), sc.notes.clone()));
                    scenes.push(sc);
                    which.push(k);
                    out.push(None);
                }
                Err(e) => out.push(Some(Err(e))),
            }
        }
        let paths: Vec<&std::path::Path> =
            which.iter().map(|&k| jobs[k].0.path.as_path()).collect();
        let results = self.run_scenes(&scenes, &paths);
        for (n, r) in results.into_iter().enumerate() {
            let k = which[n];
            let case = jobs[k].0;
            out[k] = Some(match r {
                Ok(r) => to_drawn(case, &r, &targets[n].0).map(|mut d| {
                    d.notes.splice(0..0, targets[n].1.iter().cloned());
                    d
                }),
                Err(e) => Err(e),
            });
        }
        out.into_iter()
            .map(|r| r.unwrap_or_else(|| Err(WebGl2Error::Browser("not drawn".into()))))
            .collect()
    }

    /// Draws the scenes (of the cases at `paths`) in as few browser runs
    /// as the page allows: each run takes them in order and ends after
    /// the last, or early at a scene that lost the context (the page stops
    /// there) or that stalled or killed the browser (ended by `browser`).
    /// That scene gets the failure and the rest go to a new run, so every
    /// run settles one scene at least and the loop ends. A browser that
    /// fails before drawing any scene fails every scene left alike.
    fn run_scenes(
        &self,
        scenes: &[scene::Scene],
        paths: &[&std::path::Path],
    ) -> Vec<Result<SceneResult, WebGl2Error>> {
        let mut pending: Vec<usize> = (0..scenes.len()).collect();
        let mut results: Vec<Option<Result<SceneResult, WebGl2Error>>> =
            scenes.iter().map(|_| None).collect();
        while !pending.is_empty() {
            let batch: Vec<&scene::Scene> = pending.iter().map(|&n| &scenes[n]).collect();
            let job = serde_json::json!({ "scenes": batch });
            match self.run(&job) {
                Ok(r) => {
                    let got = r.scenes.unwrap_or_default();
                    let lost = got.last().is_some_and(|r| r.lost);
                    let drawn = got.len().min(pending.len());
                    for (n, r) in pending.iter().zip(got) {
                        results[*n] = Some(Ok(r));
                    }
                    pending.drain(..drawn);
                    if !lost {
                        break;
                    }
                }
                Err(browser::Failure {
                    error,
                    scene: Some(k),
                }) if k < pending.len() => {
                    let n = pending.remove(k);
                    results[n] = Some(Err(WebGl2Error::Case(format!(
                        "{}: {error}{}",
                        paths[n].display(),
                        if pending.is_empty() {
                            ""
                        } else {
                            " (the batch's other cases were drawn in a new one)"
                        }
                    ))));
                }
                Err(f) => {
                    let msg = f.error.to_string();
                    for n in pending.drain(..) {
                        results[n] = Some(Err(WebGl2Error::Browser(msg.clone())));
                    }
                }
            }
        }
        results
            .into_iter()
            .zip(paths)
            .map(|(r, p)| {
                r.unwrap_or_else(|| {
                    Err(WebGl2Error::Browser(format!(
                        "{}: the page returned no result for this case",
                        p.display()
                    )))
                })
            })
            .collect()
    }

    /// Compiles each shader and links each pair in WebGL2, in one
    /// browser run.
    pub fn check(&self, shaders: &[Compile], pairs: &[Pair]) -> Result<Checked, WebGl2Error> {
        let job = serde_json::json!({ "compile": { "shaders": shaders, "pairs": pairs } });
        let r = self.run(&job).map_err(|f| f.error)?;
        let c = r
            .check
            .ok_or_else(|| WebGl2Error::Browser("the page checked nothing".into()))?;
        let conv = |v: Vec<Outcome>| {
            v.into_iter()
                .map(|o| {
                    if o.ok {
                        Ok(())
                    } else {
                        Err(o.error.unwrap_or_default())
                    }
                })
                .collect()
        };
        Ok(Checked {
            compiled: conv(c.compiled),
            linked: conv(c.linked),
        })
    }

    /// The WebGL2 implementation the browser gives (version, renderer,
    /// extensions this backend uses).
    pub fn info(&self) -> Result<PageInfo, WebGl2Error> {
        let job = serde_json::json!({ "scenes": [] });
        self.run(&job)
            .map_err(|f| f.error)?
            .info
            .ok_or_else(|| WebGl2Error::Browser("the page reported no WebGL2 context".into()))
    }

    fn run(&self, job: &serde_json::Value) -> Result<PageResult, browser::Failure> {
        let text = serde_json::to_string(job)
            .map_err(|e| WebGl2Error::Browser(format!("encoding the page: {e}")))?;
        let page = page(&text);
        let dom = browser::dump_dom(&self.exe, self.config.angle, &page, self.config.timeout)?;
        Ok(Self::read_results(&dom)?)
    }

    /// The results the page left in the dumped DOM.
    fn read_results(dom: &str) -> Result<PageResult, WebGl2Error> {
        let encoded = between(dom, "<pre id=\"results\">", "</pre>").ok_or_else(|| {
            WebGl2Error::Browser(format!(
                "the page left no results (the browser printed {} bytes{})",
                dom.len(),
                if dom.is_empty() {
                    "; it may have crashed"
                } else {
                    ""
                }
            ))
        })?;
        if encoded.trim().is_empty() {
            return Err(WebGl2Error::Browser(
                "the page's script did not finish (no results)".into(),
            ));
        }
        let bytes = unbase64(encoded.trim())
            .ok_or_else(|| WebGl2Error::Browser("the page's results are not base64".into()))?;
        let r: PageResult = serde_json::from_slice(&bytes)
            .map_err(|e| WebGl2Error::Browser(format!("the page's results: {e}")))?;
        if let Some(e) = &r.error {
            return Err(WebGl2Error::Browser(format!("WebGL2: {e}")));
        }
        Ok(r)
    }
}

/// The page: the job as JSON (with `<` escaped so no string in it can end
/// the element early), an empty results element, the runner.
fn page(job_json: &str) -> String {
    let job = job_json.replace('<', "\\u003c");
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"></head><body>\n<script id=\"job\" type=\"application/json\">{job}</script>\n<pre id=\"results\"></pre>\n<script>\n{}\n</script>\n</body></html>\n",
        include_str!("runner.js")
    )
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let a = s.find(start)? + start.len();
    let b = s[a..].find(end)? + a;
    Some(&s[a..b])
}

/// One scene's read-back as images in `SV_TargetN` order: float targets
/// bit for bit, integer targets as their value in f32 (as the Vulkan path
/// and the emulator report them), channels the output lacks 0. Rows come
/// back in D3D's order because the translation flips y when drawing into a
/// texture, which is the contract under test.
fn to_drawn(case: &Case, r: &SceneResult, targets: &[scene::Target]) -> Result<Drawn, WebGl2Error> {
    let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.path.display()));
    if !r.ok {
        return Err(fail(r.error.clone().unwrap_or_else(|| "failed".into())));
    }
    let got = r.targets.as_deref().unwrap_or(&[]);
    let mut sorted: Vec<&scene::Target> = targets.iter().collect();
    sorted.sort_by_key(|t| t.location);
    let mut images = Vec::new();
    for t in sorted {
        let data = got
            .iter()
            .find(|g| g.location == t.location)
            .and_then(|g| unbase64(&g.data))
            .ok_or_else(|| fail(format!("no read-back for location {}", t.location)))?;
        let (w, h) = (case.width, case.height);
        // `readPixels` gives RGBA bytes for the normalized 8-bit formats,
        // 32-bit lanes (missing channels 0, 0, 1) for the rest.
        let bytes = t.read_bytes_per_texel();
        if data.len() != (w * h * bytes) as usize {
            return Err(fail(format!(
                "read-back of location {} has {} bytes, expected {}",
                t.location,
                data.len(),
                w * h * bytes
            )));
        }
        let mut img = Image::new(w, h);
        for y in 0..h {
            for x in 0..w {
                let at = ((y * w + x) * bytes) as usize;
                let texel = &data[at..at + bytes as usize];
                let lane = |c: usize| {
                    u32::from_le_bytes([
                        texel[4 * c],
                        texel[4 * c + 1],
                        texel[4 * c + 2],
                        texel[4 * c + 3],
                    ])
                };
                let px = match t.format {
                    Some(_) if bytes == 4 => {
                        crate::vm::output_merger::read_back(Format::Rgba8Unorm, texel)
                    }
                    Some(_) => std::array::from_fn(|c| t.texel.value(lane(c))),
                    None => std::array::from_fn(|c| {
                        if c < t.channels.min(4) {
                            t.texel.value(lane(c))
                        } else {
                            0.0
                        }
                    }),
                };
                img.set(x, y, px);
            }
        }
        images.push(img);
    }
    if case.reads_depth() {
        let (w, h) = (case.width, case.height);
        let data = r
            .depth
            .as_deref()
            .and_then(unbase64)
            .filter(|d| d.len() == (w * h * 16) as usize)
            .ok_or_else(|| fail("no read-back of the depth buffer".into()))?;
        let mut img = Image::new(w, h);
        for (p, t) in img.pixels.iter_mut().zip(data.chunks_exact(16)) {
            *p = [f32::from_le_bytes([t[0], t[1], t[2], t[3]]), 0.0, 0.0, 0.0];
        }
        images.push(img);
    }
    Ok(Drawn {
        images,
        ms: r.ms.unwrap_or(0.0),
        notes: r.notes.clone().unwrap_or_default(),
    })
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding: how bytes travel into and out of the page
/// (`atob`/`btoa` there).
fn base64(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                s.push(B64[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

fn unbase64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        if c == b'=' {
            break;
        }
        let v = B64.iter().position(|&x| x == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_and_matches_the_standard_alphabet() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(&[0xff, 0xfe, 0x00, 0x3f]), "//4APw==");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(unbase64(&base64(&all)), Some(all));
        assert_eq!(unbase64("Zm9v!"), None);
    }

    #[test]
    fn the_page_cannot_be_closed_by_a_string_in_the_job() {
        let p = page(r#"{"fs":"</script><b>"}"#);
        assert_eq!(p.matches("</script>").count(), 2, "{p}");
    }
}
