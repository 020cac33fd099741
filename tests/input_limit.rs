//! Input files over the 64 MiB limit are refused from their size, before
//! being read, wherever a command reads a container, an `.asm` source or a
//! case file; the one-line error names the file, its size and the limit.
//! The files are sparse, so making them costs no disk.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use dxbc_dbg::harness::case::Case;

const MIB: u64 = 1024 * 1024;

/// A scratch directory for this test binary's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-input-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A sparse file of `len` zero bytes.
fn sparse(name: &str, len: u64) -> PathBuf {
    let path = scratch(name);
    File::create(&path)
        .and_then(|f| f.set_len(len))
        .expect("sparse file");
    path
}

/// Runs the binary, checking it answers within a few seconds: a refusal
/// from the size costs nothing, whatever the file holds.
fn dxbc_dbg(args: &[&str]) -> Output {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(args)
        .output()
        .expect("run dxbc-dbg");
    assert!(start.elapsed() < Duration::from_secs(10));
    out
}

/// What a 65 MiB file is told: 65 MiB = 68157440 bytes, 64 MiB = 67108864.
const TOO_LARGE: &str = "68157440 bytes is over the 64 MiB (67108864-byte) limit on input files";

fn too_large(path: &Path) -> String {
    format!("{}: {TOO_LARGE}", path.display())
}

fn assert_refused(out: &Output, path: &Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end(), format!("dxbc-dbg: {}", too_large(path)));
}

#[test]
fn every_command_refuses_a_container_over_the_limit() {
    let big = sparse("big.dxbc", 65 * MIB);
    let name = big.to_string_lossy().into_owned();
    for args in [
        vec!["info", &name],
        vec!["disasm", &name],
        vec!["glsl", &name],
        vec!["trace", &name],
        vec!["step", &name],
    ] {
        assert_refused(&dxbc_dbg(&args), &big);
    }
}

#[test]
fn assembly_over_the_limit_is_refused() {
    let big = sparse("big.asm", 65 * MIB);
    let name = big.to_string_lossy().into_owned();
    let out_path = scratch("never.dxbc").to_string_lossy().into_owned();
    assert_refused(&dxbc_dbg(&["asm", &name, "-o", &out_path]), &big);
    assert!(!Path::new(&out_path).exists());
    assert_refused(&dxbc_dbg(&["trace", &name]), &big);
}

#[test]
fn a_case_file_over_the_limit_is_refused() {
    let big = sparse("big.case", 65 * MIB);
    let shader = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/debugger/small.asm");
    let out = dxbc_dbg(&[
        "trace",
        &shader.to_string_lossy(),
        "--case",
        &big.to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Case errors name a line; a file refused whole has none (0).
    assert_eq!(
        err.trim_end(),
        format!("dxbc-dbg: {}:0: {TOO_LARGE}", big.display())
    );
}

#[test]
fn a_shader_file_a_case_names_is_held_to_the_limit() {
    let big = sparse("named_by_case.dxbc", 65 * MIB);
    let case_path = scratch("names_big.case");
    let case =
        Case::parse("[pixel shader file]\nnamed_by_case.dxbc\n", &case_path).expect("parses");
    let err = case.shaders().expect_err("refused");
    assert_eq!(err.to_string(), format!("{}:0: {TOO_LARGE}", big.display()));
}

#[test]
fn a_file_of_exactly_the_limit_is_read() {
    // 64 MiB of zeros passes the size check and fails as what it is: not
    // a container.
    let edge = sparse("edge.dxbc", 64 * MIB);
    let out = dxbc_dbg(&["info", &edge.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!("dxbc-dbg: {}:", edge.display())),
        "{err}"
    );
    assert!(!err.contains("limit on input files"), "{err}");
}
