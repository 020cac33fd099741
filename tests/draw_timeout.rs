//! `diff --draw-timeout`: a Vulkan draw that does not finish in time is
//! reported as such, the cases after it are drawn on a new device, and the
//! run ends without waiting for the stuck one.
//!
//! The slow draw is a real shader: the corpus's HDAO pixel shader, whose
//! translation lavapipe compiles for about three minutes (two loops around
//! several emulated samples; measured 185 s on one idle core) when its
//! shader cache is off. Without the corpus the test says so and passes.
#![cfg(feature = "gpu")]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn a_draw_past_the_timeout_is_reported_and_the_run_goes_on() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-draw-timeout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(
        corpus.join("3dmigoto/3dmigoto__BinaryDecompiler_ps4_HDAO.dxbc"),
        dir.join("hdao.dxbc"),
    )
    .expect("copy the corpus shader");
    // Case names sort "a_hdao" first, so "b_flat" is drawn after the
    // stuck draw, on the new device.
    std::fs::write(
        dir.join("a_hdao.case"),
        "[pixel shader file]\nhdao.dxbc\n[render target]\nsize 2 2\n",
    )
    .expect("write case");
    std::fs::write(
        dir.join("b_flat.case"),
        "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.25, 0.5, 0.75, 1.0)\nret\n\
         [render target]\nsize 2 2\n[test]\nprobe 1 1 0.25 0.5 0.75 1\n",
    )
    .expect("write case");
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args([
            "diff",
            "--backend",
            "vulkan",
            "--draw-timeout",
            "2",
            "--goldens",
        ])
        .arg(dir.join("goldens"))
        .arg(&dir)
        // Nothing compiled before may shorten the draw.
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .output()
        .expect("run dxbc-dbg");
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!(
            "vulkan: {}: the draw did not finish within 2 s: the driver is still compiling or running the shader",
            dir.join("a_hdao.case").display()
        )),
        "{stdout}"
    );
    // The second case passes on the new device, so only the first failed.
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
    // Two seconds of waiting, a second device and a small draw: well under
    // the minutes the stuck compile goes on for.
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
