//! External translators' text drawn under the same test (docs/translators.md):
//! HLSLcc's ES 3.00 text bound by the shipped `hlslcc` profile, and
//! dxbc-dbg's own es300 text fed back as an external command under the
//! shipped `dxbc-dbg` profile, each drawn on WebGL2 (headless Chromium)
//! and diffed against the emulator. Needs the browser; the HLSLcc tests
//! need HLSLcc (`DXBC_DBG_HLSLCC`, or `target/peers/hlslcc/hlslcc_batch`,
//! built from `../shared` when absent) and pass with a printed reason only
//! where `../shared` is absent.

use std::path::PathBuf;
use std::process::Command;

use dxbc_dbg::harness::suite::{self, Backend, CaseResult, Renderer, RunOptions};
use dxbc_dbg::harness::translator::{ExternalRenderer, Translator};
use dxbc_dbg::harness::webgl2::{Config, WebGl2};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// HLSLcc's batch tool, or why there is none (`None` only without
/// `../shared`, which holds its sources).
fn hlslcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_DBG_HLSLCC") {
        return Some(PathBuf::from(p));
    }
    let built = root().join("target/peers/hlslcc/hlslcc_batch");
    if built.is_file() {
        return Some(built);
    }
    let script = root().join("../shared/perf/peers/hlslcc/build_from_snapshot.sh");
    if !root().join("../shared").exists() {
        println!(
            "skipped: ../shared is absent, so HLSLcc cannot be built (set DXBC_DBG_HLSLCC to a built hlslcc_batch)"
        );
        return None;
    }
    let out = Command::new("bash")
        .arg(&script)
        .arg("target/peers/hlslcc")
        .current_dir(root())
        .output()
        .expect("the HLSLcc build script runs");
    assert!(
        out.status.success() && built.is_file(),
        "building HLSLcc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(built)
}

fn dxbc_dbg() -> String {
    env!("CARGO_BIN_EXE_dxbc-dbg").to_string()
}

/// Cases by name: under `tests/cases`, or `translators/…` under `tests`.
fn run(renderer: &dyn Renderer, cases: &[&str]) -> Vec<CaseResult> {
    let cases: Vec<(PathBuf, String)> = cases
        .iter()
        .map(|c| {
            let dir = if c.starts_with("translators/") {
                root().join("tests")
            } else {
                root().join("tests/cases")
            };
            (dir.join(format!("{c}.case")), c.to_string())
        })
        .collect();
    suite::run_all(&cases, &[renderer], &RunOptions::default(), &())
}

fn assert_all_pass(results: &[CaseResult]) {
    let mut bad = Vec::new();
    for r in results {
        // Each run here draws one renderer: its result is the only one.
        let b = r.backends.first().expect("a WebGL2 result");
        println!(
            "{}: {}",
            r.name,
            if b.passed() {
                "passed".to_string()
            } else {
                b.failures.join("; ")
            }
        );
        if !b.passed() || !r.case_failures.is_empty() || b.not_applicable.is_some() {
            bad.push(format!(
                "{}: {:?} {:?}",
                r.name, r.failures, b.not_applicable
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

fn browser() -> WebGl2 {
    WebGl2::new(Config::default()).expect("no browser: install Debian's chromium-headless-shell")
}

/// HLSLcc's text for a constant-buffer ALU case, a texture-and-sampler
/// case and a case with a vertex shader (both stages HLSLcc's), bound by
/// the shipped profile, passes against the emulator: the binding is not a
/// blanket failure.
#[test]
fn hlslcc_text_binds_and_draws_where_hlslcc_is_right() {
    let Some(h) = hlslcc() else { return };
    // With uniform buffers (flag 1), as Unity's WebGL builds translate:
    // without them HLSLcc reads a cbuffer's variables through an
    // undeclared structure (`GlobalsPS.cb0`), which no binding can mend.
    let spec = format!("hlslcc={} --flags 1 --print", h.display());
    let t = Translator::from_specs(&[spec], &[]).expect("the spec");
    let web = browser();
    let r = ExternalRenderer::new(&web, t.into_iter().next().unwrap());
    assert!(r.name().starts_with("hlslcc on "), "{}", r.name());
    let results = run(
        &r,
        &[
            "alu/int_wrap_minmax",
            "sample/linear_weights",
            "sample/sample_l_mip_lerp",
            "translators/vs_constant_buffer",
        ],
    );
    assert_all_pass(&results);
    // Where HLSLcc is wrong the case fails with the browser's reason: its
    // vertex shader cannot know the pixel shader's `constant`
    // interpolation, and ES 3.00 links only matching qualifiers.
    let results = run(&r, &["io/linked_cb_sizes"]);
    let b = results[0]
        .result(Backend::WebGl2, "hlslcc")
        .expect("HLSLcc's WebGL2 result");
    let text = b.failures.join("; ");
    assert!(
        text.contains("does not link") && text.contains("vs_TEXCOORD0"),
        "{text}"
    );
}

/// dxbc-dbg's own es300 text, fed back as an external command under the
/// shipped `dxbc-dbg` profile, passes where the built-in path passes:
/// constant buffers as `ConstantBufferN.data`, combined samplers, the
/// sampler-state block (border addressing emulated) and a linked vertex
/// shader (the pixel shader translated for it, as the built-in path does).
#[test]
fn dxbc_dbg_text_fed_back_passes_under_its_profile() {
    let b = dxbc_dbg();
    let specs = vec![
        // The pixel shader linked to the case's vertex shader when there
        // is one, as the built-in path translates it.
        format!("self={b} glsl {{ps}} ${{DXBC_DBG_VS:+--link \"$DXBC_DBG_VS\"}}"),
        format!("self={b} glsl {{vs}} --link {{ps}}"),
    ];
    let t = Translator::from_specs(&specs, &["self=@dxbc-dbg".to_string()]).expect("the specs");
    let web = browser();
    let r = ExternalRenderer::new(&web, t.into_iter().next().unwrap());
    let results = run(
        &r,
        &[
            "alu/int_wrap_minmax",
            "alu/udiv_by_zero",
            "border/sample",
            "border/sample_c",
            "sample/linear_weights",
            "sample/ld_mip_levels",
            "sample/resinfo_uint_mips",
            "io/linked_cb_sizes",
            "io/linked_interpolation",
            "translators/vs_constant_buffer",
            "io/interpolation_no_vs",
            "io/mrt_three_targets",
        ],
    );
    assert_all_pass(&results);
}

/// A command that fails gets the named error per case, and the case fails
/// with it rather than drawing anything.
#[test]
fn failing_commands_fail_their_cases_with_the_reason() {
    let web = browser();
    let cases = ["alu/int_wrap_minmax"];
    for (cmd, want) in [
        ("sh -c 'kill -SEGV $$' --", "died of SIGSEGV"),
        (
            "sh -c 'echo broken >&2; exit 1' --",
            "exited with status 1: broken",
        ),
        ("true", "printed nothing"),
    ] {
        let t = Translator::from_specs(&[format!("x={cmd}")], &["x=@hlslcc".to_string()])
            .expect("the spec");
        let r = ExternalRenderer::new(&web, t.into_iter().next().unwrap());
        let results = run(&r, &cases);
        let b = results[0]
            .result(Backend::WebGl2, "x")
            .expect("x's WebGL2 result");
        assert!(!b.passed(), "{cmd}");
        let text = b.failures.join("; ");
        assert!(text.contains(want), "{cmd}: {text}");
        assert!(text.contains("int_wrap_minmax.case"), "{cmd}: {text}");
    }
}
