//! The differential suite: every case in `tests/cases` drawn on the GPU
//! (lavapipe where there is no GPU; never skipped) and on the reference
//! emulator, diffed, compared with its golden and its probes. And the suite
//! must notice a broken translation: with gather4's texel order flipped in
//! the emitter, the gather cases fail and nothing else does.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use dxbc_dbg::glsl;
use dxbc_dbg::harness::gpu::Gpu;
use dxbc_dbg::harness::suite::{self, RunOptions};

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-suite-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn every_case_passes_on_gpu_and_cpu() {
    let dir = out_dir("all");
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(["diff", "tests/cases", "--report"])
        .arg(dir.join("report"))
        .arg("--junit")
        .arg(dir.join("junit.xml"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    println!("whole suite: {:.1} s", start.elapsed().as_secs_f64());
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let junit = std::fs::read_to_string(dir.join("junit.xml")).expect("junit");
    assert!(junit.contains("failures=\"0\""), "{junit}");
    let html = std::fs::read_to_string(dir.join("report/index.html")).expect("report");
    assert!(html.contains("<img"), "the report shows images");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flipping_the_gather_order_fails_exactly_the_gather_cases() {
    let gpu = Gpu::new()
        .expect("no GPU adapter: install a Vulkan driver or Mesa's lavapipe (mesa-vulkan-drivers)");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let cases = suite::collect(&[root], None).expect("cases");
    let options = RunOptions {
        glsl: glsl::Options {
            flip_gather_order: true,
            ..glsl::Options::new(glsl::Dialect::Vk450)
        },
        goldens: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("goldens"),
        ..RunOptions::default()
    };
    let results = suite::run_all(&cases, &gpu, &options, |_| {});
    let failed: Vec<&str> = results
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.name.as_str())
        .collect();
    println!("with gather4's texel order flipped, failing: {failed:?}");
    // Everything that fails is a gather case...
    for name in &failed {
        assert!(
            name.contains("gather"),
            "{name} failed although it does not gather"
        );
    }
    // ...and every gather case whose four texels differ fails. `c_always`
    // and `c_never` compare every tap to the same result, so their order
    // cannot show.
    let symmetric = ["gather4/c_always", "gather4/c_never"];
    for r in results.iter().filter(|r| r.name.starts_with("gather4/")) {
        if !symmetric.contains(&r.name.as_str()) {
            assert!(
                !r.passed(),
                "{} passed with the texel order flipped",
                r.name
            );
        }
    }
    assert!(failed.len() >= 12, "{failed:?}");
}
