//! One browser serving a whole run, case by case (docs/harness.md,
//! "WebGL2 transport"). The page asks the loopback server for work and
//! the server answers with one instruction at a time: a scene to draw or
//! shaders to check. Before drawing, the page opens a *watch* request
//! that the server leaves unanswered; it then draws, and posts the
//! case's results as one binary body, which the server answers with the
//! next instruction once the harness has one. So neither side ever holds
//! more than one case's pictures.
//!
//! While a case is drawn the server watches three things: its result
//! arriving, the watch connection closing (the renderer is gone: crashed
//! or killed), the browser exiting; and the case's time limit. Anything
//! but the result fails that case with the reason and ends the browser;
//! the next case starts a fresh one. A context lost while drawing is
//! reported by the page and ends the browser the same way.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::browser::{Angle, Browser};
use super::server::{self, Request, Server};
use super::{PageInfo, WebGl2Error};

/// The environment variable naming a case (its file name) at which the
/// run kills the page's renderer once the page has started drawing it:
/// the fault the scale tests inject to see a crashed renderer fail that
/// case alone.
pub const KILL_RENDERER_AT: &str = "DXBC_DBG_WEBGL2_KILL_RENDERER_AT";

pub(super) struct Session {
    server: Server,
    exe: PathBuf,
    angle: Angle,
    timeout: Duration,
    browser: Option<Browser>,
    /// The page's request that waits for its next instruction.
    waiting: Option<TcpStream>,
    /// The page's watch on the case being drawn.
    watch: Option<TcpStream>,
    info: Option<PageInfo>,
    /// Numbers the instructions, so that an answer is matched to its
    /// question.
    serial: u64,
    /// Why the browser could not be started: every later case fails with
    /// it rather than waiting out another start.
    broken: Option<WebGl2Error>,
}

/// What the page drew for one scene: the fields of its JSON, the pixels
/// from the body's binary parts.
#[derive(Debug, Default)]
pub(super) struct SceneResult {
    pub ok: bool,
    /// The context was lost while drawing this scene.
    pub lost: bool,
    /// How block-compressed textures went up (compressed or decoded).
    pub notes: Vec<String>,
    pub error: Option<String>,
    pub ms: Option<f64>,
    /// Each target's `readPixels` bytes, by location.
    pub targets: Vec<(u32, Vec<u8>)>,
    /// The depth buffer, drawn into an `R32F` target: 16 bytes a texel.
    pub depth: Option<Vec<u8>>,
    /// A register capture's words (header and records).
    pub capture: Option<Vec<u8>>,
    /// A capture that needed more draw buffers than the context has: how
    /// many it has.
    pub max_draw_buffers: Option<u32>,
}

#[derive(Deserialize)]
struct SceneMeta {
    ok: bool,
    #[serde(default)]
    lost: bool,
    notes: Option<Vec<String>>,
    error: Option<String>,
    ms: Option<f64>,
    max_draw_buffers: Option<u32>,
    #[serde(default)]
    blobs: Vec<Blob>,
}

/// One binary part of a result's body, in order.
#[derive(Deserialize)]
struct Blob {
    kind: String,
    location: Option<u32>,
    bytes: usize,
}

#[derive(Deserialize)]
struct Hello {
    info: Option<PageInfo>,
    error: Option<String>,
}

/// Seconds as a person reads them: whole where whole.
fn secs(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.3} s", d.as_secs_f64())
    }
}

impl Session {
    pub fn new(exe: &Path, angle: Angle, timeout: Duration) -> Result<Session, WebGl2Error> {
        let server = Server::bind().map_err(|e| {
            WebGl2Error::Browser(format!("listening on the loopback for the page: {e}"))
        })?;
        Ok(Session {
            server,
            exe: exe.to_path_buf(),
            angle,
            timeout,
            browser: None,
            waiting: None,
            watch: None,
            info: None,
            serial: 0,
            broken: None,
        })
    }

    /// Ends the browser; the next case starts a fresh one.
    fn reset(&mut self) {
        self.waiting = None;
        self.watch = None;
        self.browser = None;
    }

    /// The page as the server gives it: the runner script and nothing
    /// else (its work comes by request).
    fn page() -> String {
        format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"></head><body>\n<script>\n{}\n</script>\n</body></html>\n",
            include_str!("runner.js")
        )
    }

    /// A browser with the page loaded and waiting for work, started if
    /// there is none.
    fn start(&mut self) -> Result<(), WebGl2Error> {
        if let Some(e) = &self.broken {
            return Err(match e {
                WebGl2Error::NoBrowser(m) => WebGl2Error::NoBrowser(m.clone()),
                other => WebGl2Error::Browser(other.to_string()),
            });
        }
        if self.browser.is_some() && self.waiting.is_some() {
            return Ok(());
        }
        self.reset();
        let r = self.start_browser();
        if let Err(e) = &r {
            self.reset();
            self.broken = Some(match e {
                WebGl2Error::NoBrowser(m) => WebGl2Error::NoBrowser(m.clone()),
                other => WebGl2Error::Browser(other.to_string()),
            });
        }
        r
    }

    fn start_browser(&mut self) -> Result<(), WebGl2Error> {
        let browser = Browser::start(&self.exe, self.angle, &self.server.page_url())?;
        let browser = self.browser.insert(browser);
        let since = Instant::now();
        loop {
            if let Some(mut req) = self
                .server
                .accept(self.timeout)
                .map_err(|e| WebGl2Error::Browser(format!("taking the page's request: {e}")))?
            {
                match (req.method.as_str(), req.path.as_deref()) {
                    ("GET", Some("/page")) => {
                        let _ = server::respond(
                            &mut req.stream,
                            "200 OK",
                            "text/html; charset=utf-8",
                            Self::page().as_bytes(),
                        );
                    }
                    ("POST", Some("/hello")) => {
                        let hello: Hello = serde_json::from_slice(&req.body).map_err(|e| {
                            WebGl2Error::Browser(format!("the page's greeting: {e}"))
                        })?;
                        if let Some(e) = hello.error {
                            return Err(WebGl2Error::Browser(format!("WebGL2: {e}")));
                        }
                        self.info = Some(hello.info.ok_or_else(|| {
                            WebGl2Error::Browser("the page reported no WebGL2 context".into())
                        })?);
                        self.waiting = Some(req.stream);
                        return Ok(());
                    }
                    _ => not_found(req),
                }
                continue;
            }
            if let Some(why) = browser.exited() {
                return Err(WebGl2Error::Browser(why));
            }
            if since.elapsed() > self.timeout {
                return Err(WebGl2Error::Browser(format!(
                    "the browser's start did not finish within {}; the browser was ended",
                    secs(self.timeout)
                )));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The WebGL2 implementation the page found.
    pub fn info(&mut self) -> Result<PageInfo, WebGl2Error> {
        self.start()?;
        self.info
            .clone()
            .ok_or_else(|| WebGl2Error::Browser("the page reported no WebGL2 context".into()))
    }

    /// Sends one instruction (`{"serial", …rest}`) and waits for the answer
    /// posted to `/{answer}/{serial}`; `kill` kills the renderer once the
    /// page has opened its watch. An error ends the browser.
    fn exchange(
        &mut self,
        rest: serde_json::Value,
        answer: &str,
        kill: bool,
    ) -> Result<Vec<u8>, String> {
        let r = self.exchange_inner(rest, answer, kill);
        if r.is_err() {
            self.reset();
        }
        r
    }

    fn exchange_inner(
        &mut self,
        mut rest: serde_json::Value,
        answer: &str,
        kill: bool,
    ) -> Result<Vec<u8>, String> {
        self.serial += 1;
        let serial = self.serial;
        rest["serial"] = serial.into();
        let text =
            serde_json::to_vec(&rest).map_err(|e| format!("encoding the page's work: {e}"))?;
        let mut waiting = self
            .waiting
            .take()
            .ok_or("the page is not waiting for work")?;
        server::respond(&mut waiting, "200 OK", "application/json", &text)
            .map_err(|e| format!("the page went away before taking its work: {e}"))?;
        drop(text);
        let want = format!("/{answer}/{serial}");
        let watch = format!("/watch/{serial}");
        let since = Instant::now();
        loop {
            match self.server.accept(self.timeout) {
                Ok(Some(mut req)) => match (req.method.as_str(), req.path.as_deref()) {
                    ("GET", Some(p)) if p == watch => {
                        server::open_watch(&mut req.stream)
                            .map_err(|e| format!("answering the page's watch: {e}"))?;
                        self.watch = Some(req.stream);
                        if kill && let Some(b) = &self.browser {
                            b.kill_renderers();
                        }
                    }
                    ("POST", Some(p)) if p == want => {
                        self.watch = None;
                        self.waiting = Some(req.stream);
                        return Ok(req.body);
                    }
                    _ => not_found(req),
                },
                Ok(None) => {}
                Err(e) => return Err(format!("taking the page's request: {e}")),
            }
            if self.watch.as_mut().is_some_and(server::watch_closed) {
                return Err(
                    "the page's renderer ended while drawing this case (it crashed or was \
                     killed); the run went on in a fresh browser"
                        .into(),
                );
            }
            if let Some(why) = self.browser.as_mut().and_then(Browser::exited) {
                return Err(format!(
                    "the browser ended while drawing this case ({why}); the run went on in a \
                     fresh browser"
                ));
            }
            if since.elapsed() > self.timeout {
                return Err(format!(
                    "this case's draw did not finish within {}; the browser was ended and the \
                     run went on in a fresh one",
                    secs(self.timeout)
                ));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Draws one scene of the case at `case`.
    pub fn draw(
        &mut self,
        scene: &super::scene::Scene,
        case: &Path,
    ) -> Result<SceneResult, WebGl2Error> {
        self.start()?;
        let fail = |m: String| WebGl2Error::Case(format!("{}: {m}", case.display()));
        let kill = std::env::var_os(KILL_RENDERER_AT)
            .is_some_and(|name| case.file_name() == Some(name.as_os_str()));
        let job = serde_json::json!({ "scene": scene });
        let body = self.exchange(job, "result", kill).map_err(fail)?;
        let r = read_result(&body).map_err(|m| fail(format!("the page's result: {m}")))?;
        if r.lost {
            // The scenes after it need a new context.
            self.reset();
        }
        Ok(r)
    }

    /// Compiles and links in the page (`WebGl2::check`).
    pub fn check(&mut self, job: serde_json::Value) -> Result<Vec<u8>, WebGl2Error> {
        self.start()?;
        self.exchange(serde_json::json!({ "compile": job }), "checked", false)
            .map_err(WebGl2Error::Browser)
    }
}

fn not_found(mut req: Request) {
    let _ = server::respond(&mut req.stream, "404 Not Found", "text/plain", b"not found");
}

/// A result's body: the length of its JSON (4 bytes, little-endian), the
/// JSON, then the binary parts its `blobs` list, in order.
fn read_result(body: &[u8]) -> Result<SceneResult, String> {
    let len = body
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .ok_or("shorter than its header")?;
    let json = body
        .get(4..4 + len)
        .ok_or_else(|| format!("{} bytes cannot hold {len} bytes of JSON", body.len()))?;
    let meta: SceneMeta = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    let mut at = 4 + len;
    let mut r = SceneResult {
        ok: meta.ok,
        lost: meta.lost,
        notes: meta.notes.unwrap_or_default(),
        error: meta.error,
        ms: meta.ms,
        max_draw_buffers: meta.max_draw_buffers,
        ..SceneResult::default()
    };
    for b in meta.blobs {
        let data = body
            .get(at..at + b.bytes)
            .ok_or_else(|| format!("the {} part runs past the body's end", b.kind))?
            .to_vec();
        at += b.bytes;
        match (b.kind.as_str(), b.location) {
            ("target", Some(l)) => r.targets.push((l, data)),
            ("depth", _) => r.depth = Some(data),
            ("capture", _) => r.capture = Some(data),
            (k, _) => return Err(format!("an unknown part {k:?}")),
        }
    }
    if at != body.len() {
        return Err(format!(
            "{} bytes after the last part",
            body.len().saturating_sub(at)
        ));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(meta: &str, parts: &[&[u8]]) -> Vec<u8> {
        let mut b = (meta.len() as u32).to_le_bytes().to_vec();
        b.extend_from_slice(meta.as_bytes());
        for p in parts {
            b.extend_from_slice(p);
        }
        b
    }

    #[test]
    fn a_result_body_is_split_into_its_parts() {
        let meta = r#"{"ok":true,"ms":2.5,"blobs":[{"kind":"target","location":1,"bytes":3},{"kind":"depth","bytes":2}]}"#;
        let r = read_result(&body(meta, &[b"abc", b"de"])).expect("parts");
        assert!(r.ok);
        assert_eq!(r.targets, vec![(1, b"abc".to_vec())]);
        assert_eq!(r.depth.as_deref(), Some(&b"de"[..]));
        assert_eq!(r.ms, Some(2.5));
    }

    #[test]
    fn a_result_body_that_does_not_add_up_is_refused() {
        let meta = r#"{"ok":true,"blobs":[{"kind":"target","location":0,"bytes":4}]}"#;
        let short = read_result(&body(meta, &[b"abc"])).unwrap_err();
        assert!(short.contains("past the body's end"), "{short}");
        let long = read_result(&body(meta, &[b"abcdef"])).unwrap_err();
        assert!(long.contains("2 bytes after"), "{long}");
        assert!(read_result(&[1, 0]).is_err());
    }
}
