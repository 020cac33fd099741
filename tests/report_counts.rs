//! One truth in every output: a run's terminal summary, JSON document,
//! HTML report and JUnit XML give the same counts, read here from each
//! output's own text and checked against counts worked out independently
//! from the JSON document's cases; and every `dxbc-dbg step` command any
//! of them prints names a case file that exists.
//!
//! Two `diff --auto` runs over a mix of blobs (a pixel shader that agrees,
//! one that differs, a vertex shader, a compute shader, a blob that does
//! not parse): in process with a stand-in GPU that changes one pixel of
//! the differing shader, and through the binary with the emulator alone.
//! Two `diff` runs over case files with a failure: in process with a
//! backend the case is not applicable to, and through the binary.

mod common;

use std::path::{Path, PathBuf};

use common::cli::stdout;
use dxbc_dbg::dxbc;
use dxbc_dbg::glsl;
use dxbc_dbg::harness::case::{Case, CaseShaders};
use dxbc_dbg::harness::results::{Results, verdict};
use dxbc_dbg::harness::suite::{self, Backend, Rendered, Renderer, RunOptions};
use dxbc_dbg::harness::{auto, cpu, report};
use serde_json::Value;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-counts-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Assembles a shipped `.asm` shader into a container at `out`.
fn assemble(asm: &str, out: &Path) {
    let text = std::fs::read_to_string(root().join(asm)).expect("shader source");
    let bytes = dxbc::asm::assemble(&text).expect("assembles");
    std::fs::write(out, bytes).expect("write blob");
}

/// The mixed set of blobs, in `dir`.
fn blobs(dir: &Path) -> Vec<PathBuf> {
    assemble("shaders/debugger/small.asm", &dir.join("agrees.dxbc"));
    assemble("shaders/debugger/small.asm", &dir.join("differs.dxbc"));
    assemble("shaders/control_flow_vs.asm", &dir.join("vertex.dxbc"));
    assemble("shaders/debugger/refused_cs.asm", &dir.join("compute.dxbc"));
    std::fs::write(dir.join("garbage.dxbc"), b"not a container at all").expect("write");
    ["agrees", "differs", "vertex", "compute", "garbage"]
        .iter()
        .map(|n| dir.join(format!("{n}.dxbc")))
        .collect()
}

/// A stand-in GPU: the emulator's image, with pixel (1, 1) changed for
/// cases whose file name holds `differs`, and not applicable to those
/// whose name holds `na`.
struct Poking;

impl Renderer for Poking {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }
    fn name(&self) -> String {
        "poking".into()
    }
    fn refuses(&self, case: &Case, _: &CaseShaders, _: &glsl::Options) -> Option<String> {
        let name = case.path.file_name()?.to_string_lossy().into_owned();
        name.starts_with("na")
            .then(|| "needs a device feature this one lacks".into())
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        jobs.iter()
            .map(|(case, shaders)| {
                let mut images = cpu::render(case, shaders).map_err(|e| e.to_string())?;
                if case.path.display().to_string().contains("differs") {
                    images[0].set(1, 1, [9.0, -9.0, 9.0, 9.0]);
                }
                Ok(Rendered {
                    images,
                    ms: 0.5,
                    notes: Vec::new(),
                    uavs: Vec::new(),
                })
            })
            .collect()
    }
}

/// Tests, passed, failed and skipped.
type Counts = [usize; 4];

/// The counts worked out from the JSON document's cases alone: a
/// generated-case run by each shader's verdict, a case-file run per case
/// and backend.
fn counts_from_cases(doc: &Value) -> Counts {
    let mut c = [0; 4];
    for case in doc["cases"].as_array().expect("cases") {
        if let Some(v) = case.get("verdict") {
            c[0] += 1;
            match v["kind"].as_str().expect("kind") {
                "agree" => c[1] += 1,
                "differ" | "emulator_error" | "backend_error" => c[2] += 1,
                "refused" | "does_not_end" | "skipped" => c[3] += 1,
                k => panic!("unknown verdict {k}"),
            }
            continue;
        }
        let backends = case["backends"].as_array().expect("backends");
        let case_failed = !case["case_failures"].as_array().expect("list").is_empty();
        if backends.is_empty() {
            c[0] += 1;
            if case["passed"].as_bool() == Some(true) {
                c[1] += 1;
            } else {
                c[2] += 1;
            }
        }
        for b in backends {
            c[0] += 1;
            if !b["not_applicable"].is_null() {
                c[3] += 1;
            } else if case_failed || !b["failures"].as_array().expect("list").is_empty() {
                c[2] += 1;
            } else {
                c[1] += 1;
            }
        }
    }
    c
}

/// `N shaders: P passed, F failed, S skipped` (or `N tests (…): …`) as
/// the terminal and the HTML print it; the line must be there, once.
fn counts_line(text: &str) -> Counts {
    let found: Vec<Counts> = text
        .split(['\n', '>', '<', ';'])
        .map(str::trim)
        .filter(|l| l.contains(" passed, ") && l.contains(" failed, ") && l.contains(" skipped"))
        .map(|line| {
            let numbers: Vec<usize> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter(|w| !w.is_empty())
                .map(|w| w.parse().expect("number"))
                .collect();
            assert_eq!(numbers.len(), 4, "{line}");
            [numbers[0], numbers[1], numbers[2], numbers[3]]
        })
        .collect();
    assert!(!found.is_empty(), "no counts in:\n{text}");
    assert!(
        found.iter().all(|c| *c == found[0]),
        "{found:?} in:\n{text}"
    );
    found[0]
}

/// The JUnit document's counts: its attributes, which must agree with
/// its own elements.
fn junit_counts(xml: &str) -> Counts {
    let attr = |name: &str| -> usize {
        let suite = &xml[xml.find("<testsuite ").expect("testsuite")..];
        let at = suite.find(&format!(" {name}=\"")).expect("attribute") + name.len() + 3;
        suite[at..at + suite[at..].find('"').expect("quote")]
            .parse()
            .expect("number")
    };
    let tests = xml.matches("<testcase ").count();
    let failed = xml.matches("<failure ").count();
    let skipped = xml.matches("<skipped ").count();
    assert_eq!(
        [attr("tests"), attr("failures"), attr("skipped")],
        [tests, failed, skipped],
        "{xml}"
    );
    [tests, tests - failed - skipped, failed, skipped]
}

fn json_counts(doc: &Value) -> Counts {
    let c = &doc["counts"];
    let n = |k: &str| c[k].as_u64().unwrap_or_else(|| panic!("counts.{k}: {doc}")) as usize;
    [n("tests"), n("passed"), n("failed"), n("skipped")]
}

fn unescape(s: &str) -> String {
    s.replace("&apos;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The case of every `dxbc-dbg step CASE` in `text`, relative to `base`.
fn step_cases(text: &str, base: &Path) -> Vec<PathBuf> {
    let text = unescape(text);
    text.match_indices("dxbc-dbg step ")
        .map(|(i, m)| {
            let rest = &text[i + m.len()..];
            let arg = match rest.strip_prefix('\'') {
                Some(q) => q[..q.find('\'').expect("closing quote")].to_string(),
                None => rest.split_whitespace().next().unwrap_or("").to_string(),
            };
            base.join(arg)
        })
        .collect()
}

fn assert_all_exist(what: &str, cases: &[PathBuf]) {
    for c in cases {
        assert!(
            c.is_file(),
            "{what} names {}, which does not exist",
            c.display()
        );
    }
}

/// The four outputs of `doc` as the binary writes them (its terminal
/// summary given), checked against each other and against the cases.
fn check_outputs(terminal: &str, json: &Path, report_dir: &Path, junit: &Path, expect: Counts) {
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(json).expect("json")).expect("parses");
    let html = std::fs::read_to_string(report_dir.join("index.html")).expect("html");
    let xml = std::fs::read_to_string(junit).expect("junit");
    assert_eq!(counts_from_cases(&doc), expect, "{doc}");
    assert_eq!(json_counts(&doc), expect, "JSON");
    assert_eq!(counts_line(terminal), expect, "terminal:\n{terminal}");
    assert_eq!(counts_line(&html), expect, "HTML:\n{html}");
    assert_eq!(junit_counts(&xml), expect, "JUnit");
}

#[test]
fn a_mixed_auto_run_counts_alike_everywhere_and_names_cases_that_exist() {
    let dir = temp("auto");
    let list: Vec<(usize, auto::Blob)> = blobs(&dir)
        .into_iter()
        .enumerate()
        .map(|(i, path)| {
            let name = path
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            (i, auto::Blob { path, name })
        })
        .collect();
    let report_dir = dir.join("report");
    let opts = auto::Options {
        seed: 0,
        write_cases: None,
        failing_cases: Some(report_dir.join("cases")),
        run: RunOptions::default(),
    };
    let info = dxbc_dbg::harness::results::RunInfo {
        inputs: vec![dir.display().to_string()],
        backends: vec!["vulkan".into()],
        filter: None,
        shard: None,
        bless: false,
        auto: None,
    };
    let run = auto::run(&list, list.len(), &[&Poking], &opts, info, &()).expect("no --write-cases");
    let mut doc = run.doc;
    let kinds: Vec<&str> = doc
        .cases
        .iter()
        .map(|c| c.verdict.as_ref().map_or("-", |v| v.kind.name()))
        .collect();
    assert_eq!(
        kinds,
        ["agree", "differ", "skipped", "skipped", "refused"],
        "{}",
        verdict::summary(&doc)
    );
    // What the binary prints and writes, from the same calls.
    let terminal = verdict::summary(&doc) + &verdict::differ_list(&doc);
    let mut drawn = Results {
        cases: run
            .drawn
            .iter()
            .map(|(i, _)| doc.cases[*i].clone())
            .collect(),
        ..doc.clone()
    };
    let results: Vec<_> = run.drawn.iter().map(|(_, r)| r.clone()).collect();
    report::write_pictures(&report_dir, &results, &mut drawn).expect("pictures");
    for ((i, _), rec) in run.drawn.iter().zip(drawn.cases) {
        doc.cases[*i] = rec;
    }
    report::write_html(&report_dir, &doc).expect("html");
    let (json, junit) = (dir.join("out.json"), dir.join("out.xml"));
    std::fs::write(&junit, report::junit(&doc)).expect("junit");
    doc.write(&json, Some(&report_dir)).expect("json");
    // One agrees, one differs; the vertex and compute shaders and the
    // blob that does not parse are skipped.
    check_outputs(&terminal, &json, &report_dir, &junit, [5, 1, 1, 3]);

    // The differing shader's case is written into the report's folder
    // and every command names it.
    let html = std::fs::read_to_string(report_dir.join("index.html")).expect("html");
    let from_terminal = step_cases(&terminal, Path::new(""));
    let from_html = step_cases(&html, &report_dir);
    let json_text = std::fs::read_to_string(&json).expect("json");
    let from_json = step_cases(&json_text, Path::new(""));
    let xml = std::fs::read_to_string(&junit).expect("junit");
    let from_junit = step_cases(&xml, Path::new(""));
    for (what, found) in [
        ("the terminal", &from_terminal),
        ("the HTML", &from_html),
        ("the JSON", &from_json),
        ("the JUnit", &from_junit),
    ] {
        assert!(!found.is_empty(), "{what} names no step command");
        assert_all_exist(what, found);
    }
    assert!(report_dir.join("cases/differs.case").is_file());
    assert!(!dir.join("differs.auto.case").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without a report folder there is nowhere to write the case: no step
/// command names it, and the command that regenerates it does, run as
/// printed.
#[test]
fn without_a_report_the_differing_shader_gets_a_command_that_writes_its_case() {
    let dir = temp("recreate");
    let blob = dir.join("differs.dxbc");
    assemble("shaders/debugger/small.asm", &blob);
    let list = vec![(
        0,
        auto::Blob {
            path: blob.clone(),
            name: "differs".into(),
        },
    )];
    let opts = auto::Options {
        seed: 3,
        write_cases: None,
        failing_cases: None,
        run: RunOptions::default(),
    };
    let info = dxbc_dbg::harness::results::RunInfo {
        inputs: vec![],
        backends: vec!["vulkan".into()],
        filter: None,
        shard: None,
        bless: false,
        auto: None,
    };
    let doc = auto::run(&list, 1, &[&Poking], &opts, info, &())
        .expect("no --write-cases")
        .doc;
    let case = &doc.cases[0];
    assert!(case.step.is_none(), "{:?}", case.step);
    let recreate = case
        .verdict
        .as_ref()
        .and_then(|v| v.recreate.clone())
        .expect("a recreate command");
    let terminal = verdict::differ_list(&doc);
    assert!(terminal.contains(&recreate), "{terminal}");
    // Run the command as printed (the binary for `dxbc-dbg`), in `dir`.
    let (write, step) = recreate
        .split_once("; ")
        .expect("a write, then a step command");
    let write = write.split_once("dxbc-dbg ").expect("a dxbc-dbg command").1;
    let words: Vec<String> = write
        .split_whitespace()
        .map(|w| w.trim_matches('\'').to_string())
        .collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(&dir)
        .args(&words)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stdout(&out));
    assert_all_exist("the recreate command", &step_cases(step, &dir));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The binary's own summary of a `diff --auto` run, with the emulator
/// alone: the same counts in all four outputs.
#[test]
fn the_binary_s_auto_outputs_agree() {
    let dir = temp("auto-cli");
    let blobs = blobs(&dir);
    let mut args: Vec<String> = vec!["diff".into(), "--auto".into()];
    args.extend(
        blobs
            .iter()
            .filter(|b| !b.ends_with("differs.dxbc"))
            .map(|b| b.display().to_string()),
    );
    let (json, junit, report_dir) = (dir.join("o.json"), dir.join("o.xml"), dir.join("rep"));
    for a in ["--backend", "none", "--json"] {
        args.push(a.into());
    }
    args.push(json.display().to_string());
    args.push("--junit".into());
    args.push(junit.display().to_string());
    args.push("--report".into());
    args.push(report_dir.display().to_string());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(&dir)
        .args(&args)
        .output()
        .expect("runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // Not a terminal: no progress on standard error.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_outputs(&text, &json, &report_dir, &junit, [4, 1, 0, 3]);
    let _ = std::fs::remove_dir_all(&dir);
}

const SHADER: &str = "[pixel shader]\nps_4_0\ndcl_input_ps linear v1.x\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xxxx\nret\n[render target]\nsize 4 4\n[quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 1 1 0 1 v1 1 0 0 0\nvertex -1 -1 0 1 v1 0 0 0 0\nvertex 1 -1 0 1 v1 1 0 0 0\n";

/// Cases in `dir`: `ok` (its probe right), `probe` (its probe wrong: the
/// pixel is 0.125), and, for a backend, `differs` and `na`.
fn cases(dir: &Path, with_backend: bool) -> Vec<(PathBuf, String)> {
    let mut names = vec![
        ("ok", "[test]\nprobe 0 0 0.125 0.125 0.125 0.125\n"),
        ("probe", "[test]\nprobe 0 0 0.5 0.5 0.5 0.5\n"),
    ];
    if with_backend {
        names.push(("differs", ""));
        names.push(("na", ""));
    }
    names
        .into_iter()
        .map(|(n, test)| {
            let p = dir.join(format!("{n}.case"));
            std::fs::write(&p, format!("{SHADER}{test}")).expect("write case");
            (p, n.to_string())
        })
        .collect()
}

#[test]
fn a_case_file_run_counts_alike_everywhere_and_names_cases_that_exist() {
    let dir = temp("diff");
    let list = cases(&dir, true);
    let results = suite::run_all(&list, &[&Poking], &RunOptions::default(), &());
    let info = dxbc_dbg::harness::results::RunInfo {
        inputs: vec![dir.display().to_string()],
        backends: vec!["vulkan".into()],
        filter: None,
        shard: None,
        bless: false,
        auto: None,
    };
    let renderers = vec![dxbc_dbg::harness::results::RendererInfo {
        backend: "vulkan".into(),
        name: "poking".into(),
    }];
    let indices: Vec<usize> = (0..list.len()).collect();
    let mut doc = Results::from_run(info, renderers, list.len(), &indices, &results);
    let report_dir = dir.join("report");
    report::write_pictures(&report_dir, &results, &mut doc).expect("pictures");
    report::write_html(&report_dir, &doc).expect("html");
    let (json, junit) = (dir.join("out.json"), dir.join("out.xml"));
    std::fs::write(&junit, report::junit(&doc)).expect("junit");
    doc.write(&json, Some(&report_dir)).expect("json");
    let terminal = report::summary_table(&doc);
    // ok passes, probe fails (its own check), differs fails, na is not
    // applicable: one test each on the one backend.
    check_outputs(&terminal, &json, &report_dir, &junit, [4, 1, 2, 1]);
    let html = std::fs::read_to_string(report_dir.join("index.html")).expect("html");
    let from_html = step_cases(&html, &report_dir);
    assert!(!from_html.is_empty(), "{html}");
    assert_all_exist("the HTML", &from_html);
    let from_json = step_cases(
        &std::fs::read_to_string(&json).expect("json"),
        Path::new(""),
    );
    assert!(!from_json.is_empty());
    assert_all_exist("the JSON", &from_json);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The binary's `diff` with the emulator alone: a case a test, the same
/// counts in its four outputs, and its printed step commands name cases
/// that exist.
#[test]
fn the_binary_s_diff_outputs_agree() {
    let dir = temp("diff-cli");
    cases(&dir, false);
    let (json, junit, report_dir) = (dir.join("o.json"), dir.join("o.xml"), dir.join("rep"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(&dir)
        .args(["diff", ".", "--backend", "none", "--json"])
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .arg("--report")
        .arg(&report_dir)
        .output()
        .expect("runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_outputs(&text, &json, &report_dir, &junit, [2, 1, 1, 0]);
    let printed = step_cases(&text, &dir);
    assert!(!printed.is_empty(), "{text}");
    assert_all_exist("the terminal", &printed);
    let _ = std::fs::remove_dir_all(&dir);
}
