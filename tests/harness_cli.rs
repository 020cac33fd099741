//! The `diff` command's exit statuses: 3 exactly when no GPU adapter can be
//! created (with a message saying so), otherwise 0 or 1 with a summary.

use std::path::PathBuf;
use std::process::Command;

use dxbc_dbg::harness::gpu::{Gpu, GpuError};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

const CASE: &str = "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.25, 0.5, 0.75, 1.0)\nret\n[render target]\nsize 4 4\n[test]\nprobe 1 1 0.25 0.5 0.75 1\n";

#[test]
fn diff_exits_3_exactly_when_there_is_no_adapter() {
    let dir = temp_dir("adapter");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(&dir)
        .arg("--junit")
        .arg(dir.join("junit.xml"))
        .arg("--report")
        .arg(dir.join("report"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let no_adapter = matches!(Gpu::new(), Err(GpuError::NoAdapter(_)));
    let code = out.status.code();
    if no_adapter {
        assert_eq!(code, Some(3), "stdout: {stdout}\nstderr: {stderr}");
        assert!(stderr.contains("no GPU adapter"), "{stderr}");
    } else {
        assert_ne!(code, Some(3), "stdout: {stdout}\nstderr: {stderr}");
        assert!(
            matches!(code, Some(0 | 1)),
            "stdout: {stdout}\nstderr: {stderr}"
        );
        assert!(stdout.contains("flat"), "{stdout}");
        assert!(dir.join("junit.xml").exists());
        assert!(dir.join("report/index.html").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_exits_3_without_a_gpu() {
    let dir = temp_dir("nogpu");
    std::fs::write(dir.join("flat.case"), CASE).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg(&dir)
        .env("DXBC_DBG_GPU", "none")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("no GPU adapter"), "{stderr}");
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
