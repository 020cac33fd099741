//! Running the browser: one headless Chromium, its profile in a private
//! temporary folder, opening the page the loopback server serves
//! (`server`). The browser runs in its own process group, which is always
//! killed when the [`Browser`] is dropped — on success, on error, on
//! time-out and on panic — so no browser, GPU or renderer process outlives
//! a run.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

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

/// How many of the browser's last log lines are kept for an error
/// message: its log grows with the run, the tail is what explains a
/// failure.
const LOG_TAIL: usize = 8;

/// A running browser with the page open. Dropping it ends every process
/// it started.
pub(super) struct Browser {
    child: Child,
    exe: PathBuf,
    log: Arc<Mutex<VecDeque<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
    // Dropped after the processes are ended (fields drop after `drop`).
    _dir: TempDir,
}

impl Browser {
    /// Starts the browser on `url`.
    pub fn start(exe: &Path, angle: Angle, url: &str) -> Result<Browser, WebGl2Error> {
        let err = |m: String| WebGl2Error::Browser(m);
        let dir = TempDir::new().map_err(|e| err(format!("creating a temporary folder: {e}")))?;
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
            // The page waits on the harness between cases: a page in the
            // background must not be slowed down for it.
            "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding",
            // Loopback only, and never through a proxy.
            "--no-proxy-server",
        ])
        .args(angle.flags())
        .arg(format!(
            "--user-data-dir={}",
            dir.0.join("profile").display()
        ))
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(|e| WebGl2Error::NoBrowser(format!("{}: cannot start: {e}", exe.display())))?;
        // The log is read on a thread so that a full pipe never stalls the
        // browser; only its tail is kept.
        let log = Arc::new(Mutex::new(VecDeque::new()));
        let reader = child.stderr.take().map(|e| {
            let log = log.clone();
            std::thread::spawn(move || {
                let mut lines = BufReader::new(e);
                let mut line = Vec::new();
                while matches!(lines.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                    let mut l = log.lock().unwrap_or_else(|e| e.into_inner());
                    if l.len() == LOG_TAIL {
                        l.pop_front();
                    }
                    l.push_back(String::from_utf8_lossy(&line).trim_end().to_string());
                    line.clear();
                }
            })
        });
        Ok(Browser {
            child,
            exe: exe.to_path_buf(),
            log,
            reader,
            _dir: dir,
        })
    }

    /// Why the browser is gone, if it has exited: its status and the
    /// tail of its log.
    pub fn exited(&mut self) -> Option<String> {
        let status = match self.child.try_wait() {
            Ok(None) => return None,
            Ok(Some(s)) => s.to_string(),
            Err(e) => format!("(cannot wait for it: {e})"),
        };
        // What it printed last, once the pipe has drained.
        kill_group(self.child.id());
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        let tail: Vec<String> = self
            .log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .rev()
            .take(5)
            .rev()
            .cloned()
            .collect();
        Some(format!(
            "{} exited with {status}: {}",
            self.exe.display(),
            tail.join(" | ")
        ))
    }

    /// Kills the page's renderer processes (the browser's children of
    /// `--type=renderer`), leaving the browser: the fault a test injects
    /// to see a crashed renderer fail its case alone. Returns how many.
    pub fn kill_renderers(&self) -> usize {
        let group = self.child.id() as i64;
        let mut killed = 0;
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return 0;
        };
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|p| p.parse::<i32>().ok())
            else {
                continue;
            };
            // The group is field 5 of `stat`, counted after the command
            // name's closing parenthesis (the name may hold spaces).
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            let in_group = stat
                .rfind(')')
                .and_then(|at| stat[at + 1..].split_whitespace().nth(2))
                .and_then(|g| g.parse::<i64>().ok())
                == Some(group);
            let renderer = std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("--type=renderer"));
            if in_group && renderer {
                // SAFETY: kill(2) on a process of our browser's group.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
                killed += 1;
            }
        }
        killed
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The browser's helpers (GPU, renderer, zygote) share its group:
        // end them whether or not the browser itself has exited.
        kill_group(self.child.id());
        let _ = self.child.wait();
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}
