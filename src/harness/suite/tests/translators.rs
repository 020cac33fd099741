//! Several translators on one backend: stand-in WebGL2 renderers, one
//! drawing "dxbc-dbg's own text" and one an external translator
//! `fake-tl`'s, both from the emulator's image. The external one is made
//! wrong where a case file's name says so (`bad`: one pixel changed;
//! `nocompile`: the page's compile failure), so every figure below is
//! known from the cases alone.

use super::super::*;
use super::temp_dir;
use crate::harness::results::{RendererInfo, Results, RunInfo, family, tally};
use crate::harness::translator::BUILT_IN;

/// The pixel the external stand-in changes in a `bad` case.
const POKED: (u32, u32) = (2, 1);

/// The compile log the external stand-in fails `nocompile` cases with.
const LOG: &str = "ERROR: 0:3: 'subroutine' : Illegal use of reserved word\nERROR: 0:3: '' : compilation terminated";

struct WebGl2Fake {
    translator: &'static str,
}

impl Renderer for WebGl2Fake {
    fn backend(&self) -> Backend {
        Backend::WebGl2
    }
    fn translator(&self) -> &str {
        self.translator
    }
    fn name(&self) -> String {
        format!("{} on a stand-in browser", self.translator)
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        let external = self.translator != BUILT_IN;
        jobs.iter()
            .map(|(case, shaders)| {
                let file = case.path.display().to_string();
                if external && file.contains("nocompile") {
                    return Err(format!("{file}: fragment shader does not compile: {LOG}\n"));
                }
                let mut images = cpu::render(case, shaders).map_err(|e| e.to_string())?;
                if external && (file.contains("bad") || file.contains("differs")) {
                    images[0].set(POKED.0, POKED.1, [7.0; 4]);
                }
                Ok(Rendered {
                    images,
                    ms: 1.0,
                    notes: Vec::new(),
                    uavs: Vec::new(),
                })
            })
            .collect()
    }
    fn captures_registers(&self) -> bool {
        true
    }
    fn bisect_all(
        &self,
        jobs: &[BisectJob],
        _: &glsl::Options,
    ) -> Vec<Result<crate::harness::bisect::Bisection, String>> {
        // Only dxbc-dbg's own text carries a capture.
        assert!(
            self.translator == BUILT_IN || jobs.is_empty(),
            "an external translator's failure was sent to bisect"
        );
        jobs.iter()
            .map(|_| Err("the stand-in does not bisect".to_string()))
            .collect()
    }
}

const SHADER: &str = "[pixel shader]\nps_4_0\ndcl_input_ps linear v1.x\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xxxx\nret\n[render target]\nsize 4 4\n[quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 1 1 0 1 v1 1 0 0 0\nvertex -1 -1 0 1 v1 0 0 0 0\nvertex 1 -1 0 1 v1 1 0 0 0\n";

/// Five cases in three families: `alu` (one the external translator gets
/// wrong), `gather` (one it cannot compile), `req` (one WebGL2 cannot
/// draw at all: n/a for both translators).
fn cases(dir: &Path) -> Vec<(PathBuf, String)> {
    for (name, extra) in [
        ("alu/ok", ""),
        ("alu/bad", ""),
        ("gather/fine", ""),
        ("gather/nocompile", ""),
        (
            "req/derivs",
            "[require]\nfine_derivatives one dFdx is coarse or fine\n",
        ),
    ] {
        let p = dir.join(format!("{name}.case"));
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(&p, format!("{SHADER}{extra}")).expect("write");
    }
    collect(&[dir.to_path_buf()], None).expect("collect")
}

fn renderers() -> (WebGl2Fake, WebGl2Fake) {
    (
        WebGl2Fake {
            translator: BUILT_IN,
        },
        WebGl2Fake {
            translator: "fake-tl",
        },
    )
}

fn info(backends: &[&str], shard: Option<crate::harness::shard::Shard>) -> RunInfo {
    RunInfo {
        inputs: vec!["cases".into()],
        backends: backends.iter().map(|b| b.to_string()).collect(),
        filter: None,
        shard,
        bless: false,
        auto: None,
    }
}

fn document(rs: &[CaseResult], renderers: &[&dyn Renderer]) -> Results {
    let keys: Vec<&str> = vec!["webgl2", "webgl2/fake-tl"];
    let names = renderers.iter().map(|r| RendererInfo::of(*r)).collect();
    let indices: Vec<usize> = (0..rs.len()).collect();
    Results::from_run(info(&keys, None), names, rs.len(), &indices, rs)
}

fn named<'a>(rs: &'a [CaseResult], name: &str) -> &'a CaseResult {
    rs.iter().find(|r| r.name == name).expect("the case ran")
}

/// Each case gets a verdict per translator; the built-in lookups find
/// dxbc-dbg's own; an external failure is named `webgl2/fake-tl`, has its
/// own step command and cause, and is not bisected (and uses none of the
/// limit).
#[test]
fn each_translator_gets_its_own_verdict() {
    let dir = temp_dir("translators-verdicts");
    let list = cases(&dir);
    let (own, ext) = renderers();
    let options = RunOptions {
        bisect_limit: 1,
        ..RunOptions::default()
    };
    let rs = run_all(&list, &[&own, &ext], &options, &());
    let bad = named(&rs, "alu/bad");
    assert_eq!(bad.backends.len(), 2);
    let mine = bad.backend(Backend::WebGl2).expect("dxbc-dbg's result");
    assert_eq!(mine.translator, BUILT_IN);
    assert!(mine.passed(), "{:?}", mine.failures);
    let theirs = bad
        .result(Backend::WebGl2, "fake-tl")
        .expect("fake-tl's result");
    assert!(!theirs.passed());
    assert_eq!(theirs.failing_pixel(), Some(POKED));
    assert_eq!(theirs.cause, None);
    assert!(
        bad.failures
            .iter()
            .all(|f| f.starts_with("webgl2/fake-tl: SV_Target0: 1 of 16 pixels")),
        "{:?}",
        bad.failures
    );
    // Not bisected, said so; the built-in failures would still have the
    // whole limit.
    let b = theirs.bisect.as_ref().expect("recorded");
    assert_eq!(b.pixel, POKED);
    assert_eq!(b.outcome, Bisected::NotRun(not_bisected("fake-tl")));
    // The case's own step command goes to the only failing pixel.
    assert_eq!(bad.worst_pixel(), Some(POKED));

    let nc = named(&rs, "gather/nocompile");
    let theirs = nc.result(Backend::WebGl2, "fake-tl").expect("result");
    assert_eq!(
        theirs.cause.as_deref(),
        Some(format!("fragment shader does not compile: {LOG}").as_str())
    );
    assert!(theirs.targets.is_empty() && theirs.bisect.is_none());
    assert!(nc.backend(Backend::WebGl2).is_some_and(|b| b.passed()));

    let req = named(&rs, "req/derivs");
    assert!(req.passed());
    assert!(req.backends.iter().all(|b| b.not_applicable.as_deref()
        == Some("requires fine_derivatives: one dFdx is coarse or fine")));
    for ok in ["alu/ok", "gather/fine"] {
        assert!(named(&rs, ok).passed(), "{ok}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The outputs: JUnit has a test per case, backend and translator; the
/// JSON names the external translator on its records (and only there),
/// with its step command, cause and the table by family; the terminal
/// summary gives each external failure's step and cause and the table.
#[test]
fn reports_carry_a_test_and_a_table_per_translator() {
    let dir = temp_dir("translators-reports");
    let list = cases(&dir.join("cases"));
    let (own, ext) = renderers();
    let rs = run_all(&list, &[&own, &ext], &RunOptions::default(), &());
    let doc = document(&rs, &[&own, &ext]);

    let names: Vec<(String, &str)> = tally::tests(&doc)
        .iter()
        .map(|t| {
            let o = match t.outcome {
                tally::Outcome::Passed => "pass",
                tally::Outcome::Failed(_) => "FAIL",
                tally::Outcome::Skipped(_) => "n/a",
            };
            (t.name.clone(), o)
        })
        .collect();
    let want = |n: &str, o: &'static str| (n.to_string(), o);
    assert_eq!(
        names,
        [
            want("alu/bad [webgl2]", "pass"),
            want("alu/bad [webgl2/fake-tl]", "FAIL"),
            want("alu/ok [webgl2]", "pass"),
            want("alu/ok [webgl2/fake-tl]", "pass"),
            want("gather/fine [webgl2]", "pass"),
            want("gather/fine [webgl2/fake-tl]", "pass"),
            want("gather/nocompile [webgl2]", "pass"),
            want("gather/nocompile [webgl2/fake-tl]", "FAIL"),
            want("req/derivs [webgl2]", "n/a"),
            want("req/derivs [webgl2/fake-tl]", "n/a"),
        ]
    );
    let x = crate::harness::report::junit(&doc);
    assert!(
        x.contains("tests=\"10\" failures=\"2\" skipped=\"2\""),
        "{x}"
    );
    let bad_path = dir.join("cases/alu/bad.case");
    let bad_step = step_command(&bad_path, POKED.0, POKED.1);
    assert!(
        x.contains(&format!(
            "name=\"alu/bad [webgl2/fake-tl]\" file=\"{}\"",
            bad_path.display()
        )),
        "{x}"
    );
    assert!(
        x.contains(&format!("step the worst pixel: {bad_step}")),
        "{x}"
    );
    assert!(
        x.contains("cause: fragment shader does not compile: ERROR: 0:3: &apos;subroutine&apos;"),
        "{x}"
    );

    // JSON: `translator` on the external records only.
    let json: serde_json::Value = serde_json::from_str(&doc.to_json()).expect("json");
    let case = |name: &str| {
        json["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .find(|c| c["name"] == name)
            .expect("case")
            .clone()
    };
    let bad = case("alu/bad");
    assert_eq!(bad["backends"][0].get("translator"), None);
    assert_eq!(bad["backends"][1]["translator"], "fake-tl");
    assert_eq!(bad["backends"][1]["step"], bad_step.as_str());
    assert_eq!(bad["backends"][0].get("step"), None);
    let nc = case("gather/nocompile");
    assert_eq!(
        nc["backends"][1]["cause"],
        format!("fragment shader does not compile: {LOG}").as_str()
    );
    assert_eq!(json["renderers"][1]["backend"], "webgl2/fake-tl", "{json}");
    let families = json["families"].as_array().expect("families");
    let cell = |f: &str, t: &str| {
        families
            .iter()
            .find(|c| c["family"] == f && c["translator"] == t)
            .map(|c| {
                [
                    c["passed"].as_u64().unwrap_or(99),
                    c["failed"].as_u64().unwrap_or(99),
                    c["not_applicable"].as_u64().unwrap_or(99),
                ]
            })
    };
    assert_eq!(cell("alu", BUILT_IN), Some([2, 0, 0]));
    assert_eq!(cell("alu", "fake-tl"), Some([1, 1, 0]));
    assert_eq!(cell("gather", BUILT_IN), Some([2, 0, 0]));
    assert_eq!(cell("gather", "fake-tl"), Some([1, 1, 0]));
    assert_eq!(cell("req", BUILT_IN), Some([0, 0, 1]));
    assert_eq!(cell("req", "fake-tl"), Some([0, 0, 1]));
    assert_eq!(families.len(), 6);
    assert_eq!(Results::from_json(&doc.to_json()), Ok(doc.clone()));

    let table = crate::harness::report::summary_table(&doc);
    assert!(
        table.contains(&format!(
            "alu/bad on webgl2/fake-tl: step the worst pixel on the emulator: {bad_step}"
        )),
        "{table}"
    );
    assert!(
        table.contains(
            "gather/nocompile on webgl2/fake-tl: cause: fragment shader does not compile: \
             ERROR: 0:3: 'subroutine' : Illegal use of reserved word; ERROR: 0:3: '' : compilation terminated"
        ),
        "{table}"
    );
    assert!(table.contains("not bisected: their text has no register capture"));
    let rows: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("by family"))
        .skip(1)
        .take(4)
        .collect();
    assert_eq!(
        rows,
        [
            "family  webgl2  webgl2/fake-tl",
            "alu      2/0/0           1/1/0",
            "gather   2/0/0           1/1/0",
            "req      0/0/1           0/0/1",
        ],
        "{table}"
    );
    assert!(
        table.contains("gather/nocompile  webgl2/fake-tl  FAIL"),
        "{table}"
    );

    // Without the external translator: none of it.
    let alone = run_all(&list, &[&own], &RunOptions::default(), &());
    let doc = document(&alone, &[&own]);
    assert!(!family::has_external(&doc));
    let json = doc.to_json();
    assert!(!json.contains("\"families\"") && !json.contains("\"translator\""));
    let table = crate::harness::report::summary_table(&doc);
    assert!(
        !table.contains("by family") && !table.contains("bisected"),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The HTML report: a labelled picture row per translator, the table by
/// family, and per external failure its cause and step command.
#[test]
fn the_html_report_has_a_picture_row_per_translator() {
    let dir = temp_dir("translators-html");
    let list = cases(&dir.join("cases"));
    let (own, ext) = renderers();
    let options = RunOptions {
        bisect_limit: 1,
        ..RunOptions::default()
    };
    let rs = run_all(&list, &[&own, &ext], &options, &());
    let mut doc = document(&rs, &[&own, &ext]);
    let out = dir.join("report");
    crate::harness::report::write_pictures(&out, &rs, &mut doc).expect("pictures");
    let page = crate::harness::report::write_html(&out, &doc).expect("page");
    let html = std::fs::read_to_string(page).expect("read");
    assert!(
        html.contains("<tr><th>webgl2 (es300)</th><td><img src=\"img/alu_bad.webgl2.t0.png\""),
        "{html}"
    );
    assert!(
        html.contains(
            "<tr><th>webgl2/fake-tl (es300)</th><td><img src=\"img/alu_bad.webgl2_fake-tl.t0.png\""
        ),
        "{html}"
    );
    for f in ["alu_bad.webgl2.t0.png", "alu_bad.webgl2_fake-tl.t0.png"] {
        assert!(out.join("img").join(f).exists(), "{f}");
    }
    assert!(html.contains("<h2>By family</h2>"), "{html}");
    assert!(
        html.contains("<tr><td>alu</td><td>2 / 0 / 0</td><td>1 / 1 / 0</td></tr>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<li>cause: <pre>fragment shader does not compile: ERROR: 0:3: &apos;subroutine&apos;"
        ),
        "{html}"
    );
    assert!(
        html.contains(
            "step its worst pixel on the emulator (from this report's folder): <code>dxbc-dbg step ../cases/alu/bad.case --pixel 2,1</code>"
        ),
        "{html}"
    );
    assert!(html.contains("could not bisect: fake-tl&apos;s text has no register capture"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Slices of a run with an external translator merge into that run's
/// document: the translator's results, steps and causes kept.
#[test]
fn sharded_documents_with_translators_merge_as_one_run() {
    use crate::harness::shard::Shard;
    let dir = temp_dir("translators-merge");
    let list = cases(&dir.join("cases"));
    let (own, ext) = renderers();
    let renderers: [&dyn Renderer; 2] = [&own, &ext];
    let names: Vec<RendererInfo> = renderers.iter().map(|r| RendererInfo::of(*r)).collect();
    let keys = ["webgl2", "webgl2/fake-tl"];
    let mut slices = Vec::new();
    for k in 1..=2 {
        let shard = Shard { index: k, count: 2 };
        let (indices, part) = slice(&list, Some(shard));
        let rs = run_all(&part, &renderers, &RunOptions::default(), &());
        let doc = Results::from_run(
            info(&keys, Some(shard)),
            names.clone(),
            list.len(),
            &indices,
            &rs,
        );
        let path = dir.join(format!("s{k}.json"));
        std::fs::write(&path, doc.to_json()).expect("write");
        slices.push((path.clone(), Results::read(&path).expect("reads")));
    }
    assert!(
        slices.iter().all(|(_, d)| !d.cases.is_empty()),
        "both slices hold cases"
    );
    let merged = crate::harness::results::merge(slices, &dir).expect("merges");
    let whole = run_all(&list, &renderers, &RunOptions::default(), &());
    let one = document(&whole, &renderers);
    // Timings differ from run to run; nothing else may.
    let strip = |d: &Results| {
        let mut d = d.clone();
        for c in &mut d.cases {
            c.cpu_ms = None;
            for b in &mut c.backends {
                b.ms = None;
            }
        }
        d
    };
    assert_eq!(strip(&merged), strip(&one));
    assert_eq!(merged.renderers, names);
    assert!(
        crate::harness::report::summary_table(&merged).contains("alu      2/0/0           1/1/0")
    );
    // A slice drawn without the translator is another run.
    let (indices, part) = slice(&list, Some(Shard { index: 2, count: 2 }));
    let rs = run_all(&part, &[&own], &RunOptions::default(), &());
    let other = Results::from_run(
        info(&["webgl2"], Some(Shard { index: 2, count: 2 })),
        vec![RendererInfo::of(&own)],
        list.len(),
        &indices,
        &rs,
    );
    let first = Results::read(&dir.join("s1.json")).expect("reads");
    let e = crate::harness::results::merge(
        vec![
            (dir.join("s1.json"), first),
            (dir.join("other.json"), other),
        ],
        &dir,
    )
    .expect_err("refused");
    assert!(e.contains("backends"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `diff --auto` with an external translator: a column per translator in
/// the counts by verdict, the external one's differ counted there alone.
#[test]
fn auto_counts_verdicts_per_translator() {
    use crate::harness::auto;
    use crate::harness::results::verdict::{self, Kind};
    let dir = temp_dir("translators-auto");
    let text = "ps_4_0\ndcl_input_ps linear v1.xy\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xyxy\nret\n";
    let bytes = crate::dxbc::asm::assemble(text).expect("assembles");
    for n in ["agrees", "differs", "also_agrees"] {
        std::fs::write(dir.join(format!("{n}.dxbc")), &bytes).expect("write");
    }
    let blobs = auto::collect(std::slice::from_ref(&dir), None).expect("blobs");
    let listed = auto::slice(&blobs, None);
    let (own, ext) = renderers();
    let opts = auto::Options {
        seed: 0,
        write_cases: None,
        failing_cases: Some(dir.join("report/cases")),
        run: RunOptions::default(),
    };
    let run = auto::run(
        &listed,
        blobs.len(),
        &[&own, &ext],
        &opts,
        info(&["webgl2", "webgl2/fake-tl"], None),
        &(),
    )
    .expect("runs");
    let doc = run.doc;
    let kinds: Vec<(String, Vec<(String, Kind)>)> = doc
        .cases
        .iter()
        .map(|c| {
            let v = c.verdict.as_ref().expect("verdict");
            (
                c.name.clone(),
                v.backends.iter().map(|b| (b.key(), b.kind)).collect(),
            )
        })
        .collect();
    let agree = vec![
        ("webgl2".to_string(), Kind::Agree),
        ("webgl2/fake-tl".to_string(), Kind::Agree),
    ];
    assert_eq!(
        kinds,
        [
            ("agrees".to_string(), agree.clone()),
            ("also_agrees".to_string(), agree),
            (
                "differs".to_string(),
                vec![
                    ("webgl2".to_string(), Kind::Agree),
                    ("webgl2/fake-tl".to_string(), Kind::Differ),
                ]
            ),
        ]
    );
    let s = verdict::summary(&doc);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(
        lines[1], "verdict          shaders   webgl2 webgl2/fake-tl",
        "{s}"
    );
    assert_eq!(
        lines[2], "agree                  2        3              2",
        "{s}"
    );
    assert_eq!(
        lines[3], "differ                 1        0              1",
        "{s}"
    );
    // The external differ's step names the case written for it.
    let differs = &doc.cases[2];
    let step = differs.backends[1].step.as_deref().expect("step");
    assert!(
        step.ends_with("report/cases/differs.case --pixel 2,1"),
        "{step}"
    );
    assert!(dir.join("report/cases/differs.case").exists());
    let list = verdict::differ_list(&doc);
    assert!(
        list.contains("  webgl2/fake-tl: 1 pixels")
            && list.contains("step webgl2/fake-tl's worst pixel: "),
        "{list}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cause a draw error gives: the page's compile or link failure with
/// its log, from the stage's name on, or the translator's own failure
/// (binding, command); any other error gives none.
#[test]
fn compile_and_link_failures_are_causes() {
    use super::super::compare::compile_cause;
    assert_eq!(
        compile_cause("a.case: vertex shader does not compile: ERROR: 0:1: x\n").as_deref(),
        Some("vertex shader does not compile: ERROR: 0:1: x")
    );
    assert_eq!(
        compile_cause("a.case: the program does not link: Varying vs_TEXCOORD0 not written")
            .as_deref(),
        Some("the program does not link: Varying vs_TEXCOORD0 not written")
    );
    // The translator's own failures (translator::TranslatorError's text).
    assert_eq!(
        compile_cause("a.case: h: cannot bind pixel shader uniform `t0` (line 13): why").as_deref(),
        Some("cannot bind pixel shader uniform `t0` (line 13): why")
    );
    assert_eq!(
        compile_cause("a.case: h: the pixel shader's translation died of SIGSEGV: oops").as_deref(),
        Some("the pixel shader's translation died of SIGSEGV: oops")
    );
    assert_eq!(
        compile_cause("a.case: the draw took longer than 300 s"),
        None
    );
}

/// Devices drawing a batch between them are one renderer: parts drawing
/// different translators' text are not.
#[test]
fn a_split_takes_parts_of_one_translator() {
    let (own, ext) = renderers();
    let same: Vec<Box<dyn Renderer + Send>> = vec![
        Box::new(WebGl2Fake {
            translator: "fake-tl",
        }),
        Box::new(ext),
    ];
    let split = Split::new(same).expect("one backend and translator");
    assert_eq!(split.translator(), "fake-tl");
    let mixed: Vec<Box<dyn Renderer + Send>> = vec![
        Box::new(own),
        Box::new(WebGl2Fake {
            translator: "fake-tl",
        }),
    ];
    assert!(Split::new(mixed).is_none());
}
