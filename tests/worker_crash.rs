//! A Vulkan worker that dies mid-draw fails that case alone: the test-only
//! switch (`DXBC_DBG_TEST_WORKER_CRASH`, docs/harness.md "Crash
//! isolation") kills the worker with SIGSEGV or SIGABRT as it draws a
//! named case, as a crashing driver would, and the run goes on with a
//! fresh worker. These need a Vulkan adapter (lavapipe), as every test
//! drawing on Vulkan does.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::cli::{stderr, stdout};
use serde_json::Value;

const SWITCH: &str = "DXBC_DBG_TEST_WORKER_CRASH";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-crash-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `dxbc-dbg ARGS…` from the checkout's root with the crash switch set.
fn dxbc_dbg_crashing(crashes: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env(SWITCH, crashes)
        .args(args)
        .output()
        .expect("run dxbc-dbg")
}

/// The record of case `name` in a results document.
fn record<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {doc}"))
}

/// The failures of case `name` on Vulkan.
fn vulkan_failures(doc: &Value, name: &str) -> Vec<String> {
    let rec = record(doc, name);
    let backend = rec["backends"]
        .as_array()
        .expect("backends")
        .iter()
        .find(|b| b["backend"] == "vulkan")
        .unwrap_or_else(|| panic!("{name} was not drawn on vulkan: {rec}"));
    backend["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|f| f.as_str().expect("text").to_string())
        .collect()
}

#[test]
fn a_segfault_and_an_abort_fail_their_cases_and_the_run_goes_on() {
    let dir = temp_dir("diff");
    let (json, junit, html) = (dir.join("r.json"), dir.join("j.xml"), dir.join("html"));
    // Four comparison-sampler cases; the first and third crash the worker.
    // A crash on the first case proves a fresh worker draws the second,
    // and one after a passing case that the crash does not undo it.
    let cases = ["point_less", "point_equal", "point_greater", "point_never"];
    let paths: Vec<String> = cases
        .iter()
        .map(|c| format!("tests/cases/pcf/{c}.case"))
        .collect();
    let mut args = vec!["diff", "--backend", "vulkan", "--no-bisect"];
    args.extend(paths.iter().map(String::as_str));
    args.extend([
        "--json",
        json.to_str().expect("UTF-8"),
        "--junit",
        junit.to_str().expect("UTF-8"),
        "--report",
        html.to_str().expect("UTF-8"),
    ]);
    let out = dxbc_dbg_crashing("segv:point_less,abort:point_greater", &args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let segv = "the Vulkan driver crashed (signal 11, SIGSEGV)";
    let abrt = "the Vulkan driver crashed (signal 6, SIGABRT)";
    assert!(text.contains(&format!("vulkan: {segv}")), "{text}");
    assert!(text.contains(&format!("vulkan: {abrt}")), "{text}");
    assert!(text.contains("2 passed, 2 failed"), "{text}");

    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("JSON written")).unwrap();
    assert_eq!(vulkan_failures(&doc, "point_less"), [segv]);
    assert_eq!(vulkan_failures(&doc, "point_greater"), [abrt]);
    for passing in ["point_equal", "point_never"] {
        assert_eq!(record(&doc, passing)["passed"], true, "{passing}");
        assert!(vulkan_failures(&doc, passing).is_empty(), "{passing}");
    }
    assert_eq!(record(&doc, "point_less")["passed"], false);
    assert_eq!(record(&doc, "point_greater")["passed"], false);

    let junit = std::fs::read_to_string(&junit).expect("JUnit written");
    for (case, why) in [("point_less", segv), ("point_greater", abrt)] {
        let at = junit
            .find(&format!("name=\"{case}"))
            .unwrap_or_else(|| panic!("{case} in {junit}"));
        let test = &junit[at..junit[at..]
            .find("</testcase>")
            .map_or(junit.len(), |e| at + e)];
        assert!(test.contains(why), "{case}: {test}");
    }
    let index = std::fs::read_to_string(html.join("index.html")).expect("report written");
    assert!(index.contains(segv) && index.contains(abrt), "{index}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pixel shader of adds and multiplies, assembled under `name`.
fn blob(dir: &Path, name: &str) {
    let asm = dir.join(format!("{name}.asm"));
    std::fs::write(
        &asm,
        ".semantic v1 TEXCOORD 0 float\nps_5_0\ndcl_input_ps linear v1.xy\ndcl_output o0.xyzw\n\
         dcl_temps 1\nadd r0.xy, v1.xyxx, l(0.25, 0.5, 0, 0)\nmul r0.x, r0.x, r0.y\n\
         mov o0.xy, r0.xyxx\nmov o0.zw, l(0,0,0,1.0)\nret\n",
    )
    .expect("asm");
    let dxbc = dir.join(format!("{name}.dxbc"));
    let out = dxbc_dbg_crashing(
        "",
        &[
            "asm",
            asm.to_str().expect("UTF-8"),
            "-o",
            dxbc.to_str().expect("UTF-8"),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(&asm).expect("asm removed");
}

#[test]
fn auto_over_a_folder_gives_the_others_their_verdicts_when_one_crashes() {
    let dir = temp_dir("auto");
    for name in ["ps_a", "ps_b", "ps_c"] {
        blob(&dir, name);
    }
    let json = dir.join("run.json");
    let out = dxbc_dbg_crashing(
        "segv:ps_b",
        &[
            "diff",
            "--auto",
            dir.to_str().expect("UTF-8"),
            "--backend",
            "vulkan",
            "--json",
            json.to_str().expect("UTF-8"),
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains(
            "ps_b: backend error (vulkan: the Vulkan driver crashed (signal 11, SIGSEGV))"
        ),
        "{text}"
    );
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("JSON written")).unwrap();
    for name in ["ps_a", "ps_c"] {
        assert_eq!(record(&doc, name)["verdict"]["kind"], "agree", "{name}");
    }
    let crashed = &record(&doc, "ps_b")["verdict"];
    assert_eq!(crashed["kind"], "backend_error");
    assert_eq!(
        crashed["backends"][0]["reasons"][0],
        "the Vulkan driver crashed (signal 11, SIGSEGV)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bisect_reports_a_crash_as_unable_to_run() {
    let out = dxbc_dbg_crashing(
        "abort:point_less",
        &[
            "bisect",
            "tests/cases/pcf/point_less.case",
            "--pixel",
            "2,1",
        ],
    );
    // 2: the bisection could not run (1 would be a divergence found).
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the Vulkan driver crashed (signal 6, SIGABRT)"),
        "{}",
        stderr(&out)
    );
}

/// The library's two ways of drawing agree bit for bit: a worker's
/// pictures, UAVs (words and counter) and depth come back through the pipe
/// as the in-process `Gpu` draws them, and after a crash the next draw
/// goes to a fresh worker.
#[test]
fn a_worker_draws_what_the_in_process_gpu_draws_and_recovers_from_a_crash() {
    use dxbc_dbg::glsl;
    use dxbc_dbg::harness::case::Case;
    use dxbc_dbg::harness::gpu::isolated::{Isolated, WorkerCommand};
    use dxbc_dbg::harness::gpu::{DEFAULT_DRAW_TIMEOUT, Draw, Gpu, GpuError};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The switch goes into the worker's environment alone (through
    // env(1)): this process's other tests run beside this one.
    let command = WorkerCommand {
        program: "env".into(),
        args: vec![
            format!("{SWITCH}=abort:point_less").into(),
            env!("CARGO_BIN_EXE_dxbc-dbg").into(),
            WorkerCommand::SUBCOMMAND.into(),
        ],
    };
    let isolated = Isolated::open(command, DEFAULT_DRAW_TIMEOUT).expect("a worker opens");
    let gpu = Gpu::new().expect("a Vulkan adapter");
    assert_eq!(isolated.adapter_name(), gpu.adapter_name());
    let options = glsl::Options::new(glsl::Dialect::Vk450);
    let bits = |images: &[dxbc_dbg::harness::image::Image]| -> Vec<(u32, u32, Vec<u32>)> {
        images
            .iter()
            .map(|i| {
                let words = i.pixels.iter().flatten().map(|f| f.to_bits()).collect();
                (i.width, i.height, words)
            })
            .collect()
    };
    for case in [
        "tests/cases/pcf/point_less.case",
        "tests/cases/buffers/structured_store.case",
        "tests/cases/depth/less_d32.case",
        "tests/cases/pcf/point_equal.case",
    ] {
        let case = Case::load(&root.join(case)).expect("case");
        let shaders = case.shaders().expect("shaders");
        let crashes = case.path.file_name() == Some("point_less.case".as_ref());
        let ours = isolated.draw(&case, &shaders, &options);
        if crashes {
            match ours {
                Err(GpuError::Crashed { status, .. }) => assert_eq!(status, "signal 6, SIGABRT"),
                Err(e) => panic!("{}: {e}", case.path.display()),
                Ok(_) => panic!(
                    "{}: the switch did not crash the worker",
                    case.path.display()
                ),
            }
            continue;
        }
        let ours = ours.unwrap_or_else(|e| panic!("{}: {e}", case.path.display()));
        let theirs = gpu
            .draw(&case, &shaders, &options)
            .expect("in-process draw");
        assert!(!ours.images.is_empty(), "{}", case.path.display());
        assert_eq!(
            bits(&ours.images),
            bits(&theirs.images),
            "{}",
            case.path.display()
        );
        assert_eq!(ours.uavs.len(), case.uavs.len(), "{}", case.path.display());
        assert_eq!(ours.uavs, theirs.uavs, "{}", case.path.display());
        assert_eq!(ours.notes, theirs.notes, "{}", case.path.display());
    }
    // A refusal names the instruction by its byte offset in the shader as
    // given, on either side, though the worker parses a rebuilt container:
    // here one whose private chunk before the program it does not carry.
    let bytes = dxbc_dbg::dxbc::asm::assemble(
        "ps_5_0\ndcl_input_ps linear v1.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
         eval_centroid r0.xy, v1.xyxx\nmov o0.xy, r0.xyxx\nmov o0.zw, l(0, 0, 0, 1.0)\nret\n",
    )
    .expect("assembles");
    let parsed = dxbc_dbg::dxbc::container::Container::parse(&bytes, true).expect("container");
    let private = [0u8; 64];
    let mut chunks: Vec<(&[u8; 4], &[u8])> = vec![(b"PRIV", &private)];
    chunks.extend(parsed.chunks.iter().map(|c| (&c.fourcc, c.data)));
    let dir = temp_dir("offsets");
    std::fs::write(
        dir.join("refused.dxbc"),
        dxbc_dbg::dxbc::container::build_container(&chunks),
    )
    .expect("shader written");
    let case = Case::parse(
        "[pixel shader file]\nrefused.dxbc\n\n[render target]\nsize 4 4\n",
        &dir.join("refused.case"),
    )
    .expect("case");
    let shaders = case.shaders().expect("shaders");
    let message = |r: Result<_, GpuError>| match r {
        Ok(_) => panic!("eval_centroid was drawn"),
        Err(e) => e.to_string(),
    };
    let ours = message(isolated.draw(&case, &shaders, &options));
    let theirs = message(gpu.draw(&case, &shaders, &options));
    assert!(ours.contains("(offset 0x"), "{ours}");
    assert_eq!(ours, theirs);
    let _ = std::fs::remove_dir_all(&dir);
}
