//! Running the real `dxbc-dbg` binary from a test, and its output as text.

use std::path::Path;
use std::process::{Command, Output};

/// `dxbc-dbg ARGS…`, run from the checkout's root (so `shaders/…` paths
/// resolve).
pub fn dxbc_dbg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .args(args)
        .output()
        .expect("run dxbc-dbg")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
