//! The differential suite: every case in `tests/cases` drawn on every
//! backend — Vulkan (lavapipe where there is no GPU) and WebGL2 (headless
//! Chromium); never skipped — and on the reference emulator, diffed,
//! compared with its golden and its probes. And the suite must notice a
//! broken translation: with gather4's texel order flipped in the emitter,
//! the gather cases fail on both backends and nothing else does; with the
//! border emulation left out, WebGL2 fails exactly the border cases.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use dxbc_dbg::glsl;
use dxbc_dbg::harness::gpu::Gpu;
use dxbc_dbg::harness::suite::{self, Backend, CaseResult, Renderer, RunOptions};
use dxbc_dbg::harness::webgl2::{Config, WebGl2};

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-suite-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn diff(args: &[&str], dir: &std::path::Path) -> (Option<i32>, String, f64) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .arg("diff")
        .arg("tests/cases")
        .args(args)
        .arg("--report")
        .arg(dir.join("report"))
        .arg("--junit")
        .arg(dir.join("junit.xml"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text, start.elapsed().as_secs_f64())
}

#[test]
fn every_case_passes_on_every_backend() {
    let dir = out_dir("all");
    for backend in ["vulkan", "webgl2"] {
        let (code, text, secs) = diff(&["--backend", backend], &dir);
        println!("{text}");
        println!("whole suite on {backend}: {secs:.1} s");
        assert_eq!(code, Some(0), "{text}");
    }
    let (code, text, secs) = diff(&["--backend", "all"], &dir);
    println!("whole suite on both backends: {secs:.1} s");
    assert_eq!(code, Some(0), "{text}");
    let junit = std::fs::read_to_string(dir.join("junit.xml")).expect("junit");
    assert!(junit.contains("failures=\"0\""), "{junit}");
    // One test per case and backend: a WebGL2 row for a case it can draw,
    // a skipped one (with the reason) for a case it cannot.
    assert!(
        junit.contains("name=\"shadow_pcf_edge [webgl2]\""),
        "{junit}"
    );
    assert!(
        junit.contains("name=\"shadow_pcf_edge [vulkan]\""),
        "{junit}"
    );
    assert!(
        junit.contains("name=\"alu/deriv_coarse_fine [webgl2]\"")
            && junit.contains("<skipped message=\"requires fine_derivatives"),
        "{junit}"
    );
    let html = std::fs::read_to_string(dir.join("report/index.html")).expect("report");
    assert!(
        html.contains("<th>webgl2 (es300)</th>"),
        "the report has a WebGL2 column"
    );
    assert!(
        html.contains("<th>vulkan (vk450)</th>"),
        "the report has a Vulkan column"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn renderers() -> (Gpu, WebGl2) {
    let gpu = Gpu::new()
        .expect("no GPU adapter: install a Vulkan driver or Mesa's lavapipe (mesa-vulkan-drivers)");
    let web = WebGl2::new(Config::default())
        .expect("no browser: install Debian's chromium-headless-shell");
    (gpu, web)
}

fn run(renderers: &[&dyn Renderer], glsl: glsl::Options) -> Vec<CaseResult> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let cases = suite::collect(&[root], None).expect("cases");
    let options = RunOptions {
        glsl,
        goldens: Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("goldens")),
        ..RunOptions::default()
    };
    suite::run_all(&cases, renderers, &options, &())
}

/// The cases that fail on `backend`.
fn failing(results: &[CaseResult], backend: Backend) -> Vec<&str> {
    results
        .iter()
        .filter(|r| r.backend(backend).is_some_and(|b| !b.passed()))
        .map(|r| r.name.as_str())
        .collect()
}

#[test]
fn flipping_the_gather_order_fails_exactly_the_gather_cases() {
    let (gpu, web) = renderers();
    let results = run(
        &[&gpu, &web],
        glsl::Options {
            flip_gather_order: true,
            ..glsl::Options::new(glsl::Dialect::Vk450)
        },
    );
    for backend in Backend::ALL {
        let failed = failing(&results, backend);
        println!(
            "{}: with gather4's texel order flipped, failing: {failed:?}",
            backend.name()
        );
        // Everything that fails is a gather case...
        for name in &failed {
            assert!(
                name.contains("gather"),
                "{name} failed on {} although it does not gather",
                backend.name()
            );
        }
        // ...and every gather case whose four texels differ fails.
        // `c_always` and `c_never` compare every tap to the same result,
        // so their order cannot show.
        let symmetric = ["gather4/c_always", "gather4/c_never"];
        for r in results.iter().filter(|r| r.name.starts_with("gather4/")) {
            if !symmetric.contains(&r.name.as_str()) {
                assert!(
                    failed.contains(&r.name.as_str()),
                    "{} passed on {} with the texel order flipped",
                    r.name,
                    backend.name()
                );
            }
        }
        assert!(failed.len() >= 12, "{failed:?}");
    }
}

/// A case whose sampling depends on the shader's emulated sampling path:
/// the `border/` cases (one per non-gather sampling instruction), the PCF
/// case with a border sampler, and the `reduction/` cases (min/max
/// reduction exists only on that path: no wgpu or WebGL2 sampler reduces).
/// Gathers address texels themselves and do not go through it.
fn is_border_case(name: &str) -> bool {
    name.starts_with("border/") || name.starts_with("reduction/") || name == "pcf/offset_border"
}

#[test]
fn leaving_out_the_border_emulation_fails_exactly_the_border_cases() {
    let (_, web) = renderers();
    let results = run(
        &[&web],
        glsl::Options {
            skip_border_emulation: true,
            ..glsl::Options::new(glsl::Dialect::Es300)
        },
    );
    let failed = failing(&results, Backend::WebGl2);
    println!("webgl2 without the border emulation, failing: {failed:?}");
    for name in &failed {
        assert!(
            is_border_case(name),
            "{name} failed without the border emulation"
        );
    }
    let border: Vec<&str> = results
        .iter()
        .map(|r| r.name.as_str())
        .filter(|n| is_border_case(n))
        .collect();
    assert!(border.len() >= 7, "{border:?}");
    for name in border {
        assert!(
            failed.contains(&name),
            "{name} passed on webgl2 without the border emulation"
        );
    }
}
