//! `diff --auto` over the real-shader corpus (`../shared/corpus`; when it
//! is absent the test says so and passes) on the emulator and Vulkan (the
//! emulator alone where no Vulkan adapter can be created, said so), then on
//! the emulator and WebGL2 (said so and left out where no browser is
//! installed), each with a per-case draw limit (Vulkan 240 s, WebGL2 60 s;
//! see `draw_limit`). Each run prints the
//! counts per verdict and reason and every differ and backend error with
//! its first reason. The test fails on a panic, on an emulator error that
//! is a bug (not one of the emulator's documented refusals), on a document
//! whose verdicts it cannot read, and on a shader that differs from the
//! emulator, or fails to draw, on a backend without a line in
//! `tests/auto_corpus_known.tsv` (the triaged results, each naming the
//! instruction or limit behind it) — and on a line there whose shader no
//! longer does so, so the list stays true (docs/harness.md, "The corpus
//! run" and "Triaged differences").

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::cli::{dxbc_dbg, stderr, stdout};
use dxbc_dbg::harness::results::Results;
use dxbc_dbg::harness::results::verdict::Kind;

/// `(backend, shader, verdict)`: a differ or a backend error.
type Outcome = (String, String, String);

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
        let limit = draw_limit(backend).to_string();
        let start = std::time::Instant::now();
        let out = dxbc_dbg(&[
            "diff",
            "--auto",
            corpus.to_str().expect("UTF-8"),
            "--backend",
            backend,
            "--json",
            json.to_str().expect("UTF-8"),
            "--draw-timeout",
            &limit,
        ]);
        println!(
            "diff --auto --backend {backend}: {:.1} s",
            start.elapsed().as_secs_f64()
        );
        out
    };
    let mut docs = Vec::new();
    let mut out = run("vulkan");
    if out.status.code() == Some(3) {
        println!(
            "no Vulkan adapter: the emulator alone ({})",
            stdout(&out).trim()
        );
        out = run("none");
    }
    docs.push(check(&out, &json));
    let out = run("webgl2");
    if out.status.code() == Some(4) {
        println!("no browser: WebGL2 left out ({})", stderr(&out).trim());
    } else {
        docs.push(check(&out, &json));
    }
    let _ = std::fs::remove_dir_all(&dir);

    let known = known_outcomes();
    let ran: BTreeSet<String> = docs
        .iter()
        .flat_map(|d| &d.cases)
        .filter_map(|c| c.verdict.as_ref())
        .flat_map(|v| v.backends.iter().map(|b| b.backend.clone()))
        .collect();
    let seen: BTreeSet<Outcome> = docs
        .iter()
        .flat_map(|d| &d.cases)
        .filter_map(|c| Some((c, c.verdict.as_ref()?)))
        .flat_map(|(c, v)| {
            v.backends
                .iter()
                .filter(|b| matches!(b.kind, Kind::Differ | Kind::BackendError))
                .map(|b| (b.backend.clone(), c.name.clone(), b.kind.name().to_string()))
        })
        .collect();
    let line = |(b, n, k): &Outcome| format!("{b}\t{n}\t{k}");
    let untriaged: Vec<String> = seen
        .iter()
        .filter(|o| !known.contains(*o))
        .map(line)
        .collect();
    let stale: Vec<String> = known
        .iter()
        .filter(|k| ran.contains(&k.0) && !seen.contains(*k))
        .map(line)
        .collect();
    println!(
        "{} differences and backend errors, all triaged in tests/auto_corpus_known.tsv",
        seen.len() - untriaged.len()
    );
    assert!(
        untriaged.is_empty(),
        "differ or backend error with no triage line in tests/auto_corpus_known.tsv:\n{}",
        untriaged.join("\n")
    );
    assert!(
        stale.is_empty(),
        "tests/auto_corpus_known.tsv lists results that no longer occur (remove the lines):\n{}",
        stale.join("\n")
    );
}

/// A backend's per-case draw limit in seconds. A software GPU compiles the
/// corpus' longest translations in tens of seconds: lavapipe takes about
/// 72 s for ContactHardeningShadows11PS on two shared cores (its unrolled
/// 11x11 PCF loops inline the sampling helpers 121 times), so Vulkan's
/// limit leaves it room on a slower machine; on WebGL2 a draw past a
/// minute does not end (HDAO, triaged), so its limit stays at 60 s.
fn draw_limit(backend: &str) -> u32 {
    if backend == "webgl2" { 60 } else { 240 }
}

/// Prints a run's summary and checks its exit status and document.
fn check(out: &std::process::Output, json: &Path) -> Results {
    let text = stdout(out);
    println!("{text}");
    // 0: every shader agrees or is refused/skipped; 1: some differ or
    // error. Anything else (a panic's 101) fails.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "status {:?}\n{}",
        out.status,
        stderr(out)
    );
    assert!(!stderr(out).contains("panicked"), "{}", stderr(out));
    let doc = Results::read(json).expect("the document reads, every verdict known");
    assert!(doc.options.auto.is_some());
    let mut bugs = Vec::new();
    for c in &doc.cases {
        let v = c.verdict.as_ref().expect("every shader has a verdict");
        assert!(Kind::ALL.contains(&v.kind));
        if v.bug {
            bugs.push(format!("{}: {}", c.name, v.reasons.join("; ")));
        }
    }
    assert!(doc.cases.len() >= 100, "{} shaders", doc.cases.len());
    assert!(
        bugs.is_empty(),
        "emulator errors that are bugs:\n{}",
        bugs.join("\n")
    );
    doc
}

/// Every line of `tests/auto_corpus_known.tsv`:
/// `backend<TAB>shader<TAB>verdict<TAB>instruction<TAB>why`, the verdict
/// `differ` or `backend error`; `#` comments and blank lines skipped. A
/// line without all five fields fails, naming its number.
fn known_outcomes() -> BTreeSet<Outcome> {
    let path = Path::new("tests/auto_corpus_known.tsv");
    let text = std::fs::read_to_string(path).expect("the triage list reads");
    let mut out = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(
            fields.len() == 5
                && fields.iter().all(|f| !f.trim().is_empty())
                && [Kind::Differ.name(), Kind::BackendError.name()].contains(&fields[2]),
            "{}:{}: want backend, shader, verdict (differ or backend error), instruction and why, tab-separated",
            path.display(),
            n + 1
        );
        assert!(
            out.insert((
                fields[0].to_string(),
                fields[1].to_string(),
                fields[2].to_string()
            )),
            "{}:{}: listed twice",
            path.display(),
            n + 1
        );
    }
    out
}
