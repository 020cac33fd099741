//! The WebGL2 backend: cases drawn through the **es300** translation — the
//! text users ship — in a real WebGL2 context of a headless Chromium
//! (ANGLE on SwiftShader where there is no GPU). See docs/harness.md,
//! "WebGL2 backend".
//!
//! * `scene`: a case as the page draws it (textures, sampler objects,
//!   uniform blocks by member name, the documented uniforms, targets);
//! * `browser`: finding and running the browser, always ending every
//!   process it started;
//! * `server`: the loopback HTTP server the page talks to;
//! * `session`: one browser serving a run, case by case, and what happens
//!   when a case stalls, loses the context or takes the renderer down;
//! * `runner.js`: the page's script, which does what an application using
//!   the translation does.
//!
//! One browser serves a whole run: the page asks for one scene at a time
//! and posts each case's pixels back as soon as they are drawn, so memory
//! does not grow with the suite. A case that loses the context, stalls or
//! kills the renderer fails alone, with the reason: the cases after it go
//! to a fresh browser.

mod browser;
mod capture;
mod scene;
mod server;
mod session;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::case::{Case, CaseShaders};
use super::image::Image;
use super::translator::{Translator, TranslatorError};
use crate::glsl;
use crate::vm::texture::Format;

pub use browser::Angle;
pub use capture::{CaptureRequest, DRAW_BUFFERS};
pub use session::KILL_RENDERER_AT;
use session::{SceneResult, Session};

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
    /// before the browser is ended; the run's other cases go on in a fresh
    /// one.
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

/// A found browser, ready to draw. It is started on the first case and
/// serves every later one; dropping this ends it.
pub struct WebGl2 {
    exe: PathBuf,
    config: Config,
    /// The running browser and its server, once a case has asked for
    /// them (locked by the one caller drawing at a time).
    session: Mutex<Option<Session>>,
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

#[derive(Deserialize, Debug, Clone)]
pub struct PageInfo {
    pub version: String,
    pub renderer: String,
    pub color_buffer_float: bool,
    pub float_linear: bool,
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
        Ok(WebGl2 {
            exe,
            config,
            session: Mutex::new(None),
        })
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

    /// Draws each case through its es300 translation, one at a time in
    /// the run's browser (started on the first). A case that cannot be
    /// drawn gets its own error naming it; one that stalls, loses the
    /// context or takes the renderer down fails with the reason and the
    /// rest are drawn in a fresh browser.
    pub fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Drawn, WebGl2Error>> {
        jobs.iter()
            .map(|(case, shaders)| {
                let sc = scene::translate(case, shaders, options)
                    .and_then(|st| scene::build(case, &st))?;
                let r = self.draw(&sc, &case.path)?;
                to_drawn(case, &r, &sc.targets, sc.flip_rows).map(|mut d| {
                    d.notes.splice(0..0, sc.notes.iter().cloned());
                    d
                })
            })
            .collect()
    }

    /// Draws each case through an external translator's text (its
    /// command run on the case's shaders, the text bound by its profile;
    /// docs/translators.md), one at a time in the run's browser. Each case
    /// that cannot be translated, bound or drawn gets its own error naming
    /// the case file.
    pub fn render_external(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        translator: &Translator,
    ) -> Vec<Result<Drawn, WebGl2Error>> {
        jobs.iter()
            .map(|(case, shaders)| {
                let named =
                    |e: TranslatorError| WebGl2Error::Case(format!("{}: {e}", case.path.display()));
                let t = translator
                    .translate(shaders, self.config.timeout)
                    .map_err(named)?;
                let mut constants = t.pixel.binding.constants.clone();
                if let Some(v) = &t.vertex {
                    constants.extend(v.binding.constants.iter().cloned());
                }
                let sc = scene::build_stages(
                    case,
                    scene::StageText {
                        source: &t.pixel.text,
                        manifest: &t.pixel.binding.manifest,
                    },
                    t.vertex.as_ref().map(|v| scene::StageText {
                        source: &v.text,
                        manifest: &v.binding.manifest,
                    }),
                    Some(&scene::External {
                        constants: &constants,
                    }),
                )?;
                let r = self.draw(&sc, &case.path)?;
                to_drawn(case, &r, &sc.targets, sc.flip_rows).map(|mut d| {
                    d.notes.splice(0..0, sc.notes.iter().cloned());
                    d
                })
            })
            .collect()
    }

    /// Draws one scene of the case at `path` in the run's browser. A
    /// browser that cannot start fails the case naming it.
    fn draw(&self, sc: &scene::Scene, path: &std::path::Path) -> Result<SceneResult, WebGl2Error> {
        self.with_session(|s| s.draw(sc, path))
            .map_err(|e| match e {
                WebGl2Error::Browser(m) => WebGl2Error::Browser(format!("{}: {m}", path.display())),
                e => e,
            })
    }

    /// `f` on the run's session, made on first use.
    fn with_session<T>(
        &self,
        f: impl FnOnce(&mut Session) -> Result<T, WebGl2Error>,
    ) -> Result<T, WebGl2Error> {
        let mut guard = self.session.lock().unwrap_or_else(|e| e.into_inner());
        let session = match guard.as_mut() {
            Some(s) => s,
            None => guard.insert(Session::new(
                &self.exe,
                self.config.angle,
                self.config.timeout,
            )?),
        };
        f(session)
    }

    /// Compiles each shader and links each pair in WebGL2, in the run's
    /// browser.
    pub fn check(&self, shaders: &[Compile], pairs: &[Pair]) -> Result<Checked, WebGl2Error> {
        let job = serde_json::json!({ "shaders": shaders, "pairs": pairs });
        let body = self.with_session(|s| s.check(job))?;
        let c: CheckResult = serde_json::from_slice(&body)
            .map_err(|e| WebGl2Error::Browser(format!("the page's check: {e}")))?;
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
        self.with_session(Session::info)
    }
}

/// One scene's read-back as images in `SV_TargetN` order: float targets
/// bit for bit, integer targets as their value in f32 (as the Vulkan path
/// and the emulator report them), channels the output lacks 0. Rows come
/// back in D3D's order because the translation flips y when drawing into a
/// texture, which is the contract under test.
fn to_drawn(
    case: &Case,
    r: &SceneResult,
    targets: &[scene::Target],
    flip_rows: bool,
) -> Result<Drawn, WebGl2Error> {
    let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.path.display()));
    if !r.ok {
        return Err(fail(r.error.clone().unwrap_or_else(|| "failed".into())));
    }
    let got = &r.targets;
    let mut sorted: Vec<&scene::Target> = targets.iter().collect();
    sorted.sort_by_key(|t| t.location);
    let mut images = Vec::new();
    for t in sorted {
        let data = got
            .iter()
            .find(|g| g.0 == t.location)
            .map(|g| &g.1)
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
                img.set(x, if flip_rows { h - 1 - y } else { y }, px);
            }
        }
        images.push(img);
    }
    if case.reads_depth() {
        let (w, h) = (case.width, case.height);
        let data = r
            .depth
            .as_deref()
            .filter(|d| d.len() == (w * h * 16) as usize)
            .ok_or_else(|| fail("no read-back of the depth buffer".into()))?;
        let mut img = Image::new(w, h);
        for (i, t) in data.chunks_exact(16).enumerate() {
            let (x, y) = (i as u32 % w, i as u32 / w);
            let y = if flip_rows { h - 1 - y } else { y };
            img.set(
                x,
                y,
                [f32::from_le_bytes([t[0], t[1], t[2], t[3]]), 0.0, 0.0, 0.0],
            );
        }
        images.push(img);
    }
    Ok(Drawn {
        images,
        ms: r.ms.unwrap_or(0.0),
        notes: r.notes.clone(),
    })
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding: how a scene's bytes (textures,
/// vertices) travel into the page inside its JSON (`atob` there). Results
/// come back as binary.
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
    }
}
