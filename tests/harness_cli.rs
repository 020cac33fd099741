//! The `diff` command's backends and exit statuses: 3 exactly when no GPU
//! adapter can be created for the Vulkan backend, 4 when the WebGL2 backend
//! has no browser (each with a message saying so), a backend missing from
//! the default set named and left out, otherwise 0 or 1 with a summary.
//! A binary built without the `gpu` feature has no Vulkan backend and says
//! so the same way (exit 3, "not built"); these tests hold in both builds.
//! A run without `XDG_RUNTIME_DIR` prints no window-system noise.
//! `--translator` without the WebGL2 backend exits 4 too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What the binary says when the Vulkan backend cannot draw.
const NO_VULKAN: &str = if cfg!(feature = "gpu") {
    "no GPU adapter"
} else {
    "not built"
};

/// Whether the Vulkan backend cannot draw on this machine.
#[cfg(feature = "gpu")]
fn vulkan_absent() -> bool {
    use dxbc_dbg::harness::gpu::{Gpu, GpuError};
    matches!(Gpu::new(), Err(GpuError::NoAdapter(_)))
}

#[cfg(not(feature = "gpu"))]
fn vulkan_absent() -> bool {
    true
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

const CASE: &str = "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.25, 0.5, 0.75, 1.0)\nret\n[render target]\nsize 4 4\n[test]\nprobe 1 1 0.25 0.5 0.75 1\n";

fn diff(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"));
    cmd.arg("diff").arg(dir).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("runs")
}

/// External translators draw on the WebGL2 backend: asking for them with
/// a `--backend` that leaves it out, or with no browser to run it in,
/// exits 4 as a missing browser does, naming why, before anything draws;
/// a profile without a translator is a usage error.
#[test]
fn translators_without_the_webgl2_backend_exit_4() {
    let dir = temp_dir("translators");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    for backend in ["vulkan", "none"] {
        let out = diff(
            &dir,
            &["--backend", backend, "--translator", "other=cat"],
            &[],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{backend}: {stderr}");
        assert!(
            stderr.contains(&format!("which --backend {backend} leaves out")),
            "{stderr}"
        );
        assert!(out.stdout.is_empty(), "nothing ran");
    }
    // The default set, with no browser: the translator needs one.
    let out = diff(
        &dir,
        &["--translator", "other=cat"],
        &[("DXBC_DBG_BROWSER", "none"), ("DXBC_DBG_GPU", "none")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("no browser"), "{stderr}");
    let out = diff(
        &dir,
        &["--auto", "--backend", "vulkan", "--translator", "other=cat"],
        &[],
    );
    assert_eq!(out.status.code(), Some(4));
    let out = diff(&dir, &["--translator-profile", "other=x.profile"], &[]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_exits_3_exactly_when_there_is_no_adapter() {
    let dir = temp_dir("adapter");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(&dir)
        .args(["--backend", "vulkan"])
        .arg("--junit")
        .arg(dir.join("junit.xml"))
        .arg("--report")
        .arg(dir.join("report"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let code = out.status.code();
    if vulkan_absent() {
        assert_eq!(code, Some(3), "stdout: {stdout}\nstderr: {stderr}");
        assert!(stderr.contains(NO_VULKAN), "{stderr}");
    } else {
        // The case is right, so it passes.
        assert_eq!(code, Some(0), "stdout: {stdout}\nstderr: {stderr}");
        assert!(stdout.contains("flat"), "{stdout}");
        assert!(dir.join("junit.xml").exists());
        assert!(dir.join("report/index.html").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_exits_3_without_a_gpu_when_vulkan_is_asked_for() {
    let dir = temp_dir("nogpu");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    let out = diff(&dir, &["--backend", "vulkan"], &[("DXBC_DBG_GPU", "none")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains(NO_VULKAN), "{stderr}");
    // `all` needs every backend.
    let out = diff(&dir, &["--backend", "all"], &[("DXBC_DBG_GPU", "none")]);
    assert_eq!(out.status.code(), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_exits_4_without_a_browser_when_webgl2_is_asked_for() {
    let dir = temp_dir("nobrowser");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    let out = diff(
        &dir,
        &["--backend", "webgl2"],
        &[("DXBC_DBG_BROWSER", "none")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("no browser"), "{stderr}");
    let out = diff(&dir, &["--backend", "webgl2", "--browser"], &[]);
    // `--browser` without a path is a usage error, not a run.
    assert_eq!(out.status.code(), Some(2));
    let missing = dir.join("no-such-browser");
    let out = diff(
        &dir,
        &[
            "--backend",
            "webgl2",
            "--browser",
            &missing.display().to_string(),
        ],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("no-such-browser"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_default_runs_what_is_present_and_names_what_is_not() {
    let dir = temp_dir("default");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    // No GPU: the WebGL2 backend alone runs, and the output says why the
    // Vulkan one did not.
    let out = diff(&dir, &[], &[("DXBC_DBG_GPU", "none")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!("skipping the vulkan backend: {NO_VULKAN}")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.split_whitespace().take(3).eq(["flat", "webgl2", "pass"])),
        "{stdout}"
    );
    // Neither: nothing can run, the first missing backend's status.
    let out = diff(
        &dir,
        &[],
        &[("DXBC_DBG_GPU", "none"), ("DXBC_DBG_BROWSER", "none")],
    );
    assert_eq!(out.status.code(), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_with_nothing_to_run_is_an_error() {
    let dir = temp_dir("empty");
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(dir.join("absent"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("absent"));
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no cases"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A backend this machine can draw with: Vulkan where it is present, else
/// WebGL2 (golden lookup does not depend on which).
fn a_backend() -> &'static str {
    if vulkan_absent() { "webgl2" } else { "vulkan" }
}

#[test]
fn one_group_finds_the_goldens_of_the_whole_tree() {
    // Run from elsewhere on the project's own pcf group: the goldens are
    // found beside its `tests/cases`, not in `./goldens` and not by the
    // name relative to the group (`point_less_equal`).
    let cwd = temp_dir("group");
    let group = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/pcf");
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(&cwd)
        .arg("diff")
        .arg(&group)
        .args(["--filter", "point_less_equal", "--backend", a_backend()])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("point_less_equal"), "{stdout}");
    let _ = std::fs::remove_dir_all(&cwd);
}

#[test]
fn a_missing_golden_names_the_path_it_looked_for() {
    let dir = temp_dir("missing-golden");
    let group = dir.join("tests/cases/grp");
    std::fs::create_dir_all(&group).expect("group dir");
    std::fs::write(group.join("flat.case"), format!("{CASE}golden\n")).expect("write");
    let backend = ["--backend", a_backend()];
    let want = dir.join("goldens/grp/flat.exr");
    let out = diff(&group, &backend, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("{}: no golden", want.display())),
        "{stdout}"
    );
    // Blessed from the whole tree, the group run finds it.
    let out = diff(
        &dir.join("tests/cases"),
        &[&backend[..], &["--bless"]].concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(want.exists());
    let out = diff(&group, &backend, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // `--goldens DIR` still means DIR/<name relative to what was given>.
    let out = diff(
        &group,
        &[
            &backend[..],
            &["--goldens", dir.join("goldens").to_str().expect("UTF-8")],
        ]
        .concat(),
        &[],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{}: no golden",
            dir.join("goldens/flat.exr").display()
        )),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Creating the Vulkan instance makes Mesa's device-selection layer probe
/// Wayland, and libwayland prints `error: XDG_RUNTIME_DIR is invalid or
/// not set in the environment.` when the variable is missing; the binary
/// gives itself a private runtime directory first, so a headless run says
/// only what the tool has to say, and its own errors still come through.
/// A build without `gpu` makes no Vulkan instance, so nothing there to
/// check (and it refuses `--backend vulkan` before reading the case).
#[cfg(feature = "gpu")]
#[test]
fn a_run_without_a_runtime_dir_prints_no_window_system_noise() {
    let dir = temp_dir("xdg");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    let run = |target: &Path| {
        Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
            .arg("diff")
            .arg(target)
            .args(["--backend", "vulkan"])
            .env_remove("XDG_RUNTIME_DIR")
            .output()
            .expect("runs")
    };
    let out = run(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("XDG_RUNTIME_DIR"), "{stderr}");
    if !vulkan_absent() {
        assert_eq!(out.status.code(), Some(0), "{stderr}");
    }
    let out = run(&dir.join("missing.case"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.case"), "{stderr}");
    assert!(!stderr.contains("XDG_RUNTIME_DIR"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A case that binds slots its shader does not declare is legal D3D: it
/// draws and passes, and the summary and the HTML report carry one
/// warning per unused slot, naming the case file and the section's line.
#[test]
fn unused_bindings_draw_and_are_warned_of_in_the_summary_and_report() {
    let dir = temp_dir("unused-bindings");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/io/unused_bindings.case");
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(&case)
        .args(["--backend", "none", "--report"])
        .arg(dir.join("report"))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
    for (line, what) in [
        (57, "[texture 3]: the pixel shader declares no t3"),
        (61, "[sampler 5]: the pixel shader declares no s5"),
        (64, "[constant buffer 2]: the pixel shader declares no cb2"),
        (67, "[buffer 4]: the pixel shader declares no buffer t4"),
        (71, "[uav 1]: the pixel shader declares no buffer u1"),
    ] {
        let want = format!("unused_bindings.case:{line}: warning: {what}");
        assert!(stdout.contains(&want), "`{want}` missing from\n{stdout}");
    }
    let html = std::fs::read_to_string(dir.join("report/index.html")).expect("report");
    assert!(
        html.contains("unused_bindings.case:61: warning: [sampler 5]"),
        "{html}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
