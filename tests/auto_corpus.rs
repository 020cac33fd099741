//! `diff --auto` over the real-shader corpus (`../shared/corpus`; when it
//! is absent the test says so and passes) on the emulator and Vulkan (the
//! emulator alone where no Vulkan adapter can be created, said so), then on
//! the emulator and WebGL2 (said so and left out where no browser is
//! installed) with a per-case draw limit of 60 s. Each run prints the
//! counts per verdict and reason and every differ and backend error with
//! its first reason, and fails on a panic, on an emulator error that is a
//! bug (not one of the emulator's documented refusals) and on a document
//! whose verdicts it cannot read. Shaders that differ do not fail it: they
//! are listed for triage. The WebGL2 run also fails when most of its drawn
//! shaders fail to draw: what a page losing its context and failing every
//! later case looked like (docs/harness.md, "The corpus run").

mod common;

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
            // A software GPU compiles the corpus' longest shaders in tens
            // of seconds; a draw past a minute does not end (one such).
            "--draw-timeout",
            "60",
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
    check(&out, &json);
    let out = run("webgl2");
    if out.status.code() == Some(4) {
        println!("no browser: WebGL2 left out ({})", stderr(&out).trim());
    } else {
        let doc = check(&out, &json);
        let (mut drawn, mut failed) = (0, 0);
        for c in &doc.cases {
            let v = c.verdict.as_ref().expect("every shader has a verdict");
            drawn += matches!(v.kind, Kind::Agree | Kind::Differ | Kind::BackendError) as usize;
            failed += (v.kind == Kind::BackendError) as usize;
        }
        assert!(
            failed * 2 < drawn,
            "{failed} of {drawn} drawn shaders failed to draw on WebGL2"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
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
