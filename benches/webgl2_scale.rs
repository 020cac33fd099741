//! The WebGL2 backend's cost as a suite grows: one `dxbc-dbg diff
//! --backend webgl2` run over 10, 100 and 400 generated 640x480 RGBA32F
//! cases (the families of `common/webgl2_cases.rs`), each measured for
//! wall time, the peak resident memory of `dxbc-dbg` and of the browser
//! (every process the run started, summed), and the time per case. With
//! cases streamed one at a time the per-case figures should stay flat and
//! the memory should not grow with the count.
//!
//! `cargo bench --bench webgl2_scale` (needs headless Chromium); `--
//! 10 50` runs other counts. Memory is sampled from /proc every 20 ms, so
//! a peak shorter than that can be missed; shared pages of the browser's
//! processes count once per process.

#[path = "common/webgl2_cases.rs"]
mod webgl2_cases;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A /proc status field in KiB.
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Every process below `root` (its descendants, not itself).
fn descendants(root: u32) -> Vec<u32> {
    let mut parent: HashMap<u32, u32> = HashMap::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // The parent is field 4, after the command name's parenthesis.
        if let Some(ppid) = stat
            .rfind(')')
            .and_then(|at| stat[at + 1..].split_whitespace().nth(1))
            .and_then(|p| p.parse().ok())
        {
            parent.insert(pid, ppid);
        }
    }
    parent
        .keys()
        .copied()
        .filter(|&p| {
            let mut at = p;
            for _ in 0..64 {
                match parent.get(&at) {
                    Some(&up) if up == root => return true,
                    Some(&up) if up > 1 => at = up,
                    _ => return false,
                }
            }
            false
        })
        .collect()
}

struct Figures {
    wall: Duration,
    own_peak_mib: f64,
    browser_peak_mib: f64,
    passed: bool,
}

fn run(cases: &Path, json: &Path) -> Figures {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(cases)
        .args(["--backend", "webgl2", "--no-bisect", "--json"])
        .arg(json)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("dxbc-dbg runs");
    let pid = child.id();
    let (mut own, mut browser) = (0u64, 0u64);
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting") {
            break s;
        }
        // VmHWM is the kernel's own peak for dxbc-dbg; the browser's
        // processes come and go, so theirs is the largest sum seen.
        own = own.max(status_kib(pid, "VmHWM:").unwrap_or(0));
        let sum: u64 = descendants(pid)
            .into_iter()
            .filter_map(|p| status_kib(p, "VmRSS:"))
            .sum();
        browser = browser.max(sum);
        std::thread::sleep(Duration::from_millis(20));
    };
    Figures {
        wall: start.elapsed(),
        own_peak_mib: own as f64 / 1024.0,
        browser_peak_mib: browser as f64 / 1024.0,
        passed: status.success(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; counts are the other arguments.
    let mut counts: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if counts.is_empty() {
        counts = vec![10, 100, 400];
    }
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!(
        "{:>6} {:>9} {:>11} {:>14} {:>17}  result",
        "cases", "wall s", "ms / case", "dxbc-dbg MiB", "browser MiB (sum)"
    );
    for n in counts {
        let dir =
            std::env::temp_dir().join(format!("dxbc-dbg-bench-webgl2-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cases = dir.join("cases");
        webgl2_cases::write_cases(&cases, n, 0, project);
        let f = run(&cases, &dir.join("results.json"));
        println!(
            "{n:>6} {:>9.1} {:>11.0} {:>14.0} {:>17.0}  {}",
            f.wall.as_secs_f64(),
            f.wall.as_secs_f64() * 1000.0 / n as f64,
            f.own_peak_mib,
            f.browser_peak_mib,
            if f.passed { "all passed" } else { "FAILURES" }
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
