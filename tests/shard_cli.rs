//! Sharded runs: `diff --shard K/N` slices are disjoint and cover the
//! case set, `report merge` joins their JSON into the document, JUnit and
//! summary one run writes, refuses overlapping slices, and `--jobs 2` finds
//! what `--jobs 1` finds. The emulator alone (`--backend none`) keeps these
//! fast and independent of GPUs and browsers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dxbc_dbg::harness::report;
use dxbc_dbg::harness::results::Results;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-shard-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn cases() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases/alu")
}

fn dxbc_dbg(args: &[&str], extra: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(args)
        .args(extra)
        .output()
        .expect("runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `diff` on the alu group with the emulator alone, writing the JSON
/// and JUnit under `dir` as `tag.json` and `tag.xml`.
fn run(dir: &Path, tag: &str, args: &[&str]) -> Results {
    let (json, junit) = (
        dir.join(format!("{tag}.json")),
        dir.join(format!("{tag}.xml")),
    );
    let mut all = vec!["diff", "--backend", "none"];
    all.extend_from_slice(args);
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(&all)
        .arg(cases())
        .arg("--json")
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .output()
        .expect("runs");
    // The alu cases pass on the emulator: a failure is this test's to see.
    assert!(out.status.success(), "{tag}: {}", text(&out));
    Results::read(&json).expect("reads")
}

/// The document without what differs from run to run: times.
fn normalised(mut d: Results) -> Results {
    for c in &mut d.cases {
        c.cpu_ms = c.cpu_ms.map(|_| 0.0);
        for b in &mut c.backends {
            b.ms = b.ms.map(|_| 0.0);
        }
    }
    d
}

/// JUnit XML with every `time="…"` attribute set to 0.
fn untimed(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(i) = rest.find(" time=\"") {
        out.push_str(&rest[..i]);
        out.push_str(" time=\"0\"");
        let after = &rest[i + 7..];
        rest = &after[after.find('"').map_or(after.len(), |j| j + 1)..];
    }
    out.push_str(rest);
    out
}

#[test]
fn shards_cover_the_set_and_merge_into_one_run() {
    let dir = temp_dir("merge");
    let whole = run(&dir, "whole", &["--jobs", "1"]);
    assert!(whole.cases.len() >= 10, "{}", whole.cases.len());
    assert_eq!(whole.collected, whole.cases.len());
    let slices: Vec<Results> = (1..=3)
        .map(|k| run(&dir, &format!("s{k}"), &["--shard", &format!("{k}/3")]))
        .collect();
    // Disjoint and covering: every case of the whole run in exactly one
    // slice, and no slice holds a case the whole run lacks.
    for c in &whole.cases {
        let holders = slices
            .iter()
            .filter(|s| s.cases.iter().any(|x| x.name == c.name))
            .count();
        assert_eq!(holders, 1, "{}", c.name);
    }
    let total: usize = slices.iter().map(|s| s.cases.len()).sum();
    assert_eq!(total, whole.cases.len());
    // Three slices of eleven cases: at least two hold some.
    assert!(slices.iter().filter(|s| !s.cases.is_empty()).count() >= 2);

    let docs: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}.json"))).collect();
    let docs: Vec<&Path> = docs.iter().map(PathBuf::as_path).collect();
    let merged_json = dir.join("merged.json");
    let merged_xml = dir.join("merged.xml");
    let out = dxbc_dbg(
        &["report", "merge"],
        &[
            &docs[..],
            &[
                Path::new("--json"),
                &merged_json,
                Path::new("--junit"),
                &merged_xml,
            ],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let merged = Results::read(&merged_json).expect("reads");
    let (mut merged, whole) = (normalised(merged), normalised(whole));
    // The merged document names no report directory of its own (it wrote
    // none); the whole run's did not either.
    merged.report = None;
    assert_eq!(merged, whole);
    assert_eq!(
        report::summary_table(&merged),
        report::summary_table(&whole)
    );
    let read = |p: PathBuf| std::fs::read_to_string(p).expect("junit");
    assert_eq!(
        untimed(&read(merged_xml)),
        untimed(&read(dir.join("whole.xml")))
    );
    // The merge prints the summary as the run does.
    assert!(
        text(&out).contains(&format!("{} passed, 0 failed", whole.cases.len())),
        "{}",
        text(&out)
    );

    // Overlapping slices are refused, naming both files.
    let out = dxbc_dbg(&["report", "merge"], &[docs[0], docs[1], docs[2], docs[0]]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("both slice 1/3") || said.contains("is in both"),
        "{said}"
    );
    assert!(said.contains("s1.json"), "{said}");
    // So is a slice of another run (the whole run has no shard).
    let out = dxbc_dbg(&["report", "merge"], &[docs[0], &dir.join("whole.json")]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("are not slices of one run"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_jobs_find_what_one_finds() {
    let dir = temp_dir("jobs");
    let one = normalised(run(&dir, "one", &["--jobs", "1"]));
    let two = normalised(run(&dir, "two", &["--jobs", "2"]));
    assert_eq!(one, two);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_outside_one_to_n_is_refused() {
    for bad in ["0/3", "4/3", "1/0", "x"] {
        let out = dxbc_dbg(&["diff", "--backend", "none", "--shard", bad], &[&cases()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out).contains(&format!("`{bad}` is not a shard")),
            "{}",
            text(&out)
        );
    }
}
