//! Running the browser: one headless Chromium per batch, loading a page
//! from a private temporary folder and printing its DOM once the page has
//! loaded (`--dump-dom`). The browser runs in its own process group, which
//! is always killed afterwards — on success, on error and on time-out — so
//! no browser, GPU or renderer process outlives a run.
//!
//! The page announces each scene on the console before drawing it, and
//! the browser prints its console to stderr as it comes: that is how a run
//! knows which case it is on when a draw never ends or the browser dies
//! ([`Failure::scene`]).

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::WebGl2Error;

/// ANGLE's back end, `--angle` on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Angle {
    /// The CPU rasterizer: WebGL2 without a GPU (CI).
    SwiftShader,
    Vulkan,
    Gl,
}

impl Angle {
    pub fn parse(s: &str) -> Option<Angle> {
        match s {
            "swiftshader" => Some(Angle::SwiftShader),
            "vulkan" => Some(Angle::Vulkan),
            "gl" => Some(Angle::Gl),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Angle::SwiftShader => "swiftshader",
            Angle::Vulkan => "vulkan",
            Angle::Gl => "gl",
        }
    }

    fn flags(self) -> &'static [&'static str] {
        match self {
            // SwiftShader for WebGL must be allowed explicitly since
            // Chromium 137.
            Angle::SwiftShader => &["--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
            Angle::Vulkan => &["--use-angle=vulkan", "--enable-features=Vulkan"],
            Angle::Gl => &["--use-angle=gl"],
        }
    }
}

/// Executables tried on `PATH`, in order, when none is given.
const CANDIDATES: [&str; 5] = [
    "chromium-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "chrome-headless-shell",
];

/// The browser to run: `given` (which must exist), else `DXBC_DBG_BROWSER`,
/// else the first candidate on `PATH`.
pub(super) fn find(given: Option<&Path>) -> Result<PathBuf, WebGl2Error> {
    if let Some(p) = given {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(WebGl2Error::NoBrowser(format!(
                "{}: no such browser executable",
                p.display()
            )))
        };
    }
    if let Some(p) = std::env::var_os("DXBC_DBG_BROWSER") {
        let p = PathBuf::from(p);
        // `none` lets tests and users check the no-browser path.
        if p.as_os_str() == "none" {
            return Err(WebGl2Error::NoBrowser("DXBC_DBG_BROWSER=none".into()));
        }
        return find(Some(&p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in CANDIDATES {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err(WebGl2Error::NoBrowser(format!(
        "none of {} is on PATH (install Debian's chromium-headless-shell, or pass --browser PATH)",
        CANDIDATES.join(", ")
    )))
}

/// A private folder for one run, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let d = std::env::temp_dir().join(format!("dxbc-dbg-webgl2-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d)?;
        Ok(TempDir(d))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Kills the process group led by `pid`.
fn kill_group(pid: u32) {
    // SAFETY: kill(2) with a negative pid signals the process group; it
    // touches no memory of ours.
    unsafe {
        libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
    }
}

/// A browser run that gave no DOM, and the scene it was on.
#[derive(Debug)]
pub(super) struct Failure {
    pub error: WebGl2Error,
    /// The page's index of the scene announced last, when the page had
    /// started one and not announced the end: the case the browser was
    /// drawing when it stalled or died.
    pub scene: Option<usize>,
}

impl From<WebGl2Error> for Failure {
    fn from(error: WebGl2Error) -> Failure {
        Failure { error, scene: None }
    }
}

/// The page's progress lines in the browser's log:
/// `… "dxbc-dbg-webgl2: scene N" …` and `… "dxbc-dbg-webgl2: done" …`.
const PROGRESS: &str = "dxbc-dbg-webgl2: ";

/// What a progress line says: `Some(Some(N))` scene N started,
/// `Some(None)` the page is done, `None` not a progress line.
fn progress(line: &str) -> Option<Option<usize>> {
    let rest = &line[line.find(PROGRESS)? + PROGRESS.len()..];
    if rest.starts_with("done") {
        return Some(None);
    }
    let digits: String = rest
        .strip_prefix("scene ")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().map(Some)
}

/// Loads `page` in the browser and returns the DOM it dumps. `timeout`
/// bounds each step separately: starting up to the first scene, each
/// scene, and the end: a batch of many cases may take long, but no one
/// case may stall it.
pub(super) fn dump_dom(
    exe: &Path,
    angle: Angle,
    page: &str,
    timeout: Duration,
) -> Result<String, Failure> {
    let err = |m: String| WebGl2Error::Browser(m);
    let dir = TempDir::new().map_err(|e| err(format!("creating a temporary folder: {e}")))?;
    let file = dir.0.join("page.html");
    std::fs::write(&file, page).map_err(|e| err(format!("{}: {e}", file.display())))?;
    // To look at a failing draw by hand: the page is kept where asked.
    if let Some(keep) = std::env::var_os("DXBC_DBG_KEEP_PAGE") {
        let _ = std::fs::write(&keep, page);
    }
    let mut cmd = Command::new(exe);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--ignore-gpu-blocklist",
        "--disable-gpu-watchdog",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--mute-audio",
    ])
    .args(angle.flags())
    .arg(format!(
        "--user-data-dir={}",
        dir.0.join("profile").display()
    ))
    .arg("--dump-dom")
    .arg(format!("file://{}", file.display()))
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| WebGl2Error::NoBrowser(format!("{}: cannot start: {e}", exe.display())))?;
    let pid = child.id();
    // Read both pipes on threads so a full pipe never stalls the browser.
    let mut out = child.stdout.take();
    let mut errp = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_end(&mut s);
        }
        s
    });
    // The scene the page is on, and since when (the run's start before
    // the first).
    let at: std::sync::Arc<Mutex<(Option<usize>, Instant)>> =
        std::sync::Arc::new(Mutex::new((None, Instant::now())));
    let at_reader = at.clone();
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(o) = errp.take() {
            let mut lines = BufReader::new(o);
            let mut line = Vec::new();
            while matches!(lines.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                if let Some(p) = progress(&String::from_utf8_lossy(&line)) {
                    *at_reader.lock().unwrap_or_else(|e| e.into_inner()) = (p, Instant::now());
                }
                s.append(&mut line);
            }
        }
        s
    });
    let since = || *at.lock().unwrap_or_else(|e| e.into_inner());
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if since().1.elapsed() > timeout => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => {
                kill_group(pid);
                let _ = child.wait();
                return Err(err(format!("{}: waiting for the browser: {e}", exe.display())).into());
            }
        }
    };
    // The browser's helpers (GPU, renderer, zygote) share its group: end
    // them whether or not the browser itself has exited.
    kill_group(pid);
    let _ = child.wait();
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let scene = since().0;
    let Some(status) = status else {
        let what = if scene.is_some() {
            "this case's draw"
        } else {
            "the browser"
        };
        return Err(Failure {
            error: err(format!(
                "{what} did not finish within {} s; the browser was ended",
                timeout.as_secs()
            )),
            scene,
        });
    };
    if !status.success() && stdout.is_empty() {
        let tail: String = String::from_utf8_lossy(&stderr)
            .lines()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" | ");
        return Err(Failure {
            error: err(format!("{} exited with {status}: {tail}", exe.display())),
            scene,
        });
    }
    Ok(String::from_utf8_lossy(&stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_are_read_from_the_browser_log() {
        let line = r#"[1202/105229.031657:INFO:CONSOLE:2] "dxbc-dbg-webgl2: scene 12", source: file:///x/page.html (2)"#;
        assert_eq!(progress(line), Some(Some(12)));
        assert_eq!(
            progress(r#"[…:INFO:CONSOLE:9] "dxbc-dbg-webgl2: done", source: …"#),
            Some(None)
        );
        assert_eq!(
            progress("[…:ERROR:gpu_process_host.cc] GPU process exited"),
            None
        );
        assert_eq!(progress("dxbc-dbg-webgl2: scene x"), None);
    }
}
