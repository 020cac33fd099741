//! A private tmux server for the tests that run the debugger in a real
//! terminal (`tests/tui.rs`, `tests/tui_gpu.rs`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A private tmux server, killed when the test ends however it ends.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// A server of its own for test `name` of this process.
    pub fn new(name: &str) -> Tmux {
        Tmux {
            socket: format!("dxbc-dbg-test-{name}-{}", std::process::id()),
        }
    }

    /// Runs `script` with `sh` in a 140x45 window named `dbg`, in `dir`.
    pub fn start(&self, dir: &Path, script: &str) {
        self.start_sized(dir, script, 140, 45);
    }

    /// As `start`, in a `width`x`height` window.
    pub fn start_sized(&self, dir: &Path, script: &str, width: u16, height: u16) {
        let (width, height) = (width.to_string(), height.to_string());
        self.cmd(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "dbg",
            "-x",
            &width,
            "-y",
            &height,
            "-c",
            dir.to_str().expect("a UTF-8 path"),
            "sh",
            "-c",
            script,
        ]);
    }

    pub fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs (install it: apt-get install tmux)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p", "-t", "dbg"])
    }

    /// Waits until the screen shows `what`.
    pub fn wait_for(&self, what: &str) -> String {
        self.wait_for_within(what, Duration::from_secs(20))
    }

    /// Waits until the screen satisfies `ready`, described by `what` in
    /// the failure: for a redraw that removes text, or changes text that
    /// another pane also shows, which `wait_for` would find at once.
    pub fn wait_until(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let (start, limit) = (Instant::now(), Duration::from_secs(20));
        loop {
            let s = self.screen();
            if ready(&s) {
                return s;
            }
            assert!(
                start.elapsed() < limit,
                "timed out waiting for {what}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits up to `limit` until the screen shows `what`.
    pub fn wait_for_within(&self, what: &str, limit: Duration) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            assert!(
                start.elapsed() < limit,
                "timed out waiting for `{what}`; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}
