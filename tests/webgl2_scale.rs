//! The WebGL2 backend at suite size: hundreds of full-size RGBA32F cases in
//! one `dxbc-dbg diff` run, drawn by one browser with each case's pixels
//! streamed back as it is drawn (docs/harness.md, "WebGL2 transport"); and
//! a renderer killed in the middle of a run failing that case alone, with
//! the reason, in every document the run writes. Needs headless Chromium
//! (Debian's chromium-headless-shell); fails without it.

#[path = "../benches/common/webgl2_cases.rs"]
mod webgl2_cases;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use dxbc_dbg::harness::webgl2::KILL_RENDERER_AT;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-scale-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `dxbc-dbg diff` over `cases` on WebGL2 alone, writing the JSON
/// document and JUnit XML beside them; returns the output, the documents'
/// paths, the run's wall time and its process id.
fn diff(
    out: &Path,
    cases: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Output, PathBuf, PathBuf, Duration, u32) {
    let (json, junit) = (out.join("results.json"), out.join("junit.xml"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"));
    cmd.arg("diff")
        .arg(cases)
        .args(["--backend", "webgl2", "--no-bisect", "--json"])
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let pid = child.id();
    let output = child.wait_with_output().expect("runs to the end");
    (output, json, junit, start.elapsed(), pid)
}

/// Processes started for the run whose process id is `pid`: their
/// command lines name its private folders (`dxbc-dbg-webgl2-PID-N`).
fn left_behind(pid: u32) -> Vec<String> {
    let tag = format!("dxbc-dbg-webgl2-{pid}-");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&tag) {
                found.push(cmd);
            }
        }
    }
    found
}

fn assert_none_left(pid: u32) {
    // Killed processes can take a moment to be reaped on a loaded machine.
    for _ in 0..500 {
        if left_behind(pid).is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("browser processes left behind: {:?}", left_behind(pid));
}

/// The results document's cases: (name, passed, the webgl2 backend's
/// failures).
fn cases_of(json: &Path) -> Vec<(String, bool, Vec<String>)> {
    let text = std::fs::read_to_string(json).expect("the results document");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let web = c["backends"]
                .as_array()
                .and_then(|b| b.iter().find(|b| b["backend"] == "webgl2"))
                .unwrap_or_else(|| panic!("{}: not drawn on webgl2", c["name"]));
            assert!(
                web["not_applicable"].is_null(),
                "{}: not applicable on webgl2: {}",
                c["name"],
                web["not_applicable"]
            );
            let failures = web["failures"]
                .as_array()
                .map(|f| {
                    f.iter()
                        .map(|s| s.as_str().unwrap_or("").to_string())
                        .collect()
                })
                .unwrap_or_default();
            (
                c["name"].as_str().unwrap_or("").to_string(),
                c["passed"].as_bool().unwrap_or(false),
                failures,
            )
        })
        .collect()
}

#[test]
fn four_hundred_full_size_cases_pass_in_one_run() {
    let dir = temp_dir("suite");
    let cases = dir.join("cases");
    let written = webgl2_cases::write_cases(&cases, 400, 4, project());
    assert_eq!(written.len(), 404);
    let (out, json, _, wall, pid) = diff(&dir, &cases, &[], &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!(
        "404 cases (400 at 640x480, 4 at 1920x1080) in one run: {:.1} s wall",
        wall.as_secs_f64()
    );
    let results = cases_of(&json);
    let failed: Vec<_> = results.iter().filter(|c| !c.1).collect();
    assert!(
        out.status.success() && failed.is_empty(),
        "{} of {} failed, e.g. {:?}\n{}\n{stderr}",
        failed.len(),
        results.len(),
        failed.iter().take(5).collect::<Vec<_>>(),
        stdout.lines().rev().take(20).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(results.len(), 404);
    assert!(stdout.contains("404 passed, 0 failed"), "{stdout}");
    assert_none_left(pid);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_renderer_killed_mid_run_fails_that_case_alone_in_every_document() {
    let dir = temp_dir("crash");
    let cases = dir.join("cases");
    webgl2_cases::write_cases(&cases, 24, 0, project());
    let crashed = "case_0011";
    let report = dir.join("report");
    let (out, json, junit, wall, pid) = diff(
        &dir,
        &cases,
        // A time limit far above the run's length: the crash must be seen
        // when it happens, not when the case's time runs out.
        &[
            "--draw-timeout",
            "600",
            "--report",
            report.to_str().expect("a UTF-8 path"),
        ],
        &[(KILL_RENDERER_AT, &format!("{crashed}.case"))],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!(
        "24 cases, the renderer killed at {crashed}: {:.1} s wall",
        wall.as_secs_f64()
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let results = cases_of(&json);
    assert_eq!(results.len(), 24);
    for (name, passed, failures) in &results {
        if name == crashed {
            assert!(!passed, "{name} passed though its renderer was killed");
            assert!(
                failures
                    .iter()
                    .any(|f| f.contains(crashed)
                        && f.contains("renderer ended while drawing this case")),
                "{name}: {failures:?}"
            );
        } else {
            assert!(
                passed,
                "{name} failed beside the crashed case: {failures:?}"
            );
        }
    }
    assert!(stdout.contains("23 passed, 1 failed"), "{stdout}");
    let junit = std::fs::read_to_string(&junit).expect("JUnit written");
    let at = junit
        .find(&format!("name=\"{crashed} [webgl2]\""))
        .expect("the crashed case in the JUnit XML");
    let testcase = &junit[at..junit[at..]
        .find("</testcase>")
        .map_or(junit.len(), |e| at + e)];
    assert!(
        testcase.contains("<failure") && testcase.contains("renderer ended"),
        "{testcase}"
    );
    let html = std::fs::read_to_string(report.join("index.html")).expect("report written");
    assert!(
        html.contains(crashed) && html.contains("renderer ended while drawing this case"),
        "the report does not name the crash"
    );
    // Seen at once: far inside the time limit of one case.
    assert!(wall < Duration::from_secs(300), "{wall:?}");
    assert_none_left(pid);
    let _ = std::fs::remove_dir_all(&dir);
}
