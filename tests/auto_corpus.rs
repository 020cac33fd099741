//! `diff --auto` over the real-shader corpus (`../shared/corpus`; when it
//! is absent the test says so and passes) on the emulator and Vulkan (the
//! emulator alone where no Vulkan adapter can be created, said so). It
//! prints the counts per verdict and reason and every differ with its
//! worst pixel, and fails on a panic, on an emulator error that is a bug
//! (not one of the emulator's documented refusals), on a document whose
//! verdicts it cannot read, on a backend error (a translated shader the
//! backend failed to draw), and on a shader that differs on a backend
//! without a line in `tests/auto_corpus_known.tsv` (the triaged
//! differences, each naming the instruction behind it) — or a line there
//! whose shader no longer differs, so the list stays true. WebGL2 is left out: measured, one batch of the
//! corpus' pixel shaders took 434 s (twice the Vulkan run) and its page
//! lost its context after the eleventh case, so every later case reported
//! the same backend error (docs/harness.md, "Generated-case runs").

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::cli::{dxbc_dbg, stderr, stdout};
use dxbc_dbg::harness::results::Results;
use dxbc_dbg::harness::results::verdict::Kind;

#[test]
fn the_corpus_gets_a_verdict_for_every_shader() {
    let corpus = Path::new("../shared/corpus");
    if !corpus.is_dir() {
        println!("no corpus at {}: nothing to run", corpus.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-auto-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let json = dir.join("auto.json");
    let run = |backend: &str| {
        let start = std::time::Instant::now();
        let out = dxbc_dbg(&[
            "diff",
            "--auto",
            corpus.to_str().expect("UTF-8"),
            "--backend",
            backend,
            "--json",
            json.to_str().expect("UTF-8"),
        ]);
        println!(
            "diff --auto --backend {backend}: {:.1} s",
            start.elapsed().as_secs_f64()
        );
        out
    };
    let mut out = run("vulkan");
    if out.status.code() == Some(3) {
        println!(
            "no Vulkan adapter: the emulator alone ({})",
            stdout(&out).trim()
        );
        out = run("none");
    }
    let text = stdout(&out);
    println!("{text}");
    // 0: every shader agrees or is refused/skipped; 1: some differ or
    // error. Anything else (a panic's 101) fails.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "status {:?}\n{}",
        out.status,
        stderr(&out)
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    let doc = Results::read(&json).expect("the document reads, every verdict known");
    assert!(doc.options.auto.is_some());
    let mut bugs = Vec::new();
    let mut draw_failures = Vec::new();
    for c in &doc.cases {
        let v = c.verdict.as_ref().expect("every shader has a verdict");
        assert!(Kind::ALL.contains(&v.kind));
        if v.bug {
            bugs.push(format!("{}: {}", c.name, v.reasons.join("; ")));
        }
        for b in v.backends.iter().filter(|b| b.kind == Kind::BackendError) {
            draw_failures.push(format!(
                "{} on {}: {}",
                c.name,
                b.backend,
                b.reasons.join("; ")
            ));
        }
    }
    // A shader the backend translated but could not draw is a harness or
    // translation fault until shown otherwise; what a device cannot bind
    // is refused before drawing, not an error.
    assert!(
        draw_failures.is_empty(),
        "backend errors:\n{}",
        draw_failures.join("\n")
    );
    assert!(doc.cases.len() >= 100, "{} shaders", doc.cases.len());
    assert!(
        bugs.is_empty(),
        "emulator errors that are bugs:\n{}",
        bugs.join("\n")
    );
    let known = known_differences();
    let ran: BTreeSet<&str> = doc
        .cases
        .iter()
        .filter_map(|c| c.verdict.as_ref())
        .flat_map(|v| v.backends.iter().map(|b| b.backend.as_str()))
        .collect();
    let differs: BTreeSet<(String, String)> = doc
        .cases
        .iter()
        .filter_map(|c| Some((c, c.verdict.as_ref()?)))
        .flat_map(|(c, v)| {
            v.backends
                .iter()
                .filter(|b| b.kind == Kind::Differ)
                .map(|b| (b.backend.clone(), c.name.clone()))
        })
        .collect();
    let untriaged: Vec<String> = differs
        .iter()
        .filter(|d| !known.contains(*d))
        .map(|(b, n)| format!("{b}\t{n}"))
        .collect();
    let stale: Vec<String> = known
        .iter()
        .filter(|k| ran.contains(k.0.as_str()) && !differs.contains(*k))
        .map(|(b, n)| format!("{b}\t{n}"))
        .collect();
    println!(
        "{} differences, all triaged in tests/auto_corpus_known.tsv",
        differs.len() - untriaged.len()
    );
    assert!(
        untriaged.is_empty(),
        "shaders that differ with no triage line in tests/auto_corpus_known.tsv:\n{}",
        untriaged.join("\n")
    );
    assert!(
        stale.is_empty(),
        "tests/auto_corpus_known.tsv lists shaders that no longer differ (remove the lines):\n{}",
        stale.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `(backend, shader)` of every line of `tests/auto_corpus_known.tsv`:
/// `backend<TAB>shader<TAB>instruction<TAB>why`, `#` comments and blank
/// lines skipped. A line without all four fields fails, naming its number.
fn known_differences() -> BTreeSet<(String, String)> {
    let path = Path::new("tests/auto_corpus_known.tsv");
    let text = std::fs::read_to_string(path).expect("the triage list reads");
    let mut out = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(
            fields.len() == 4 && fields.iter().all(|f| !f.trim().is_empty()),
            "{}:{}: want backend, shader, instruction and why, tab-separated",
            path.display(),
            n + 1
        );
        assert!(
            out.insert((fields[0].to_string(), fields[1].to_string())),
            "{}:{}: listed twice",
            path.display(),
            n + 1
        );
    }
    out
}
