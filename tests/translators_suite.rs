//! The whole of `tests/cases` drawn through other translators' text, as CI
//! runs it (docs/translators.md): `dxbc-dbg diff --backend webgl2` with
//! HLSLcc (`--flags 1`, bound by the shipped `hlslcc` profile) and with
//! dxbc-dbg's own es300 text fed back as an external command (the shipped
//! `dxbc-dbg` profile), in one run, read back from its `--json` document:
//!
//! * every case has a verdict for HLSLcc;
//! * dxbc-dbg's text fed back passes wherever the built-in path passes and
//!   is not applicable exactly where it is not (the profile mechanism is
//!   general enough for a contract with emulation blocks);
//! * each HLSLcc gap docs/translators.md names is shown by a case that
//!   fails for HLSLcc with that gap as its cause and passes for dxbc-dbg,
//!   and cases where HLSLcc is right stay green for it;
//! * docs/translators.md's table by family is the run's.
//!
//! Needs the browser and HLSLcc (`DXBC_DBG_HLSLCC`, or
//! `target/peers/hlslcc/hlslcc_batch`, built by `.ci/hlslcc.sh`); passes
//! with a printed reason only where `../shared`, which holds HLSLcc's
//! sources, is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn hlslcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_DBG_HLSLCC") {
        return Some(PathBuf::from(p));
    }
    if !root().join("../shared").exists() {
        println!("skipped: ../shared is absent, so HLSLcc cannot be built");
        return None;
    }
    let out = Command::new("bash")
        .arg(".ci/hlslcc.sh")
        .current_dir(root())
        .output()
        .expect("the HLSLcc build script runs");
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(
        out.status.success() && Path::new(&path).is_file(),
        "building HLSLcc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(PathBuf::from(path))
}

/// A test's verdict: `pass`, `fail` or `n/a`.
fn verdict(b: &Value) -> &'static str {
    if !b["not_applicable"].is_null() {
        "n/a"
    } else if b["failures"].as_array().is_some_and(|f| f.is_empty()) {
        "pass"
    } else {
        "fail"
    }
}

/// Each case's backend records by translator (`dxbc-dbg` for the
/// built-in one, whose records leave the field out).
fn by_translator(doc: &Value) -> BTreeMap<String, BTreeMap<String, Value>> {
    let mut out: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for c in doc["cases"].as_array().expect("cases") {
        let name = c["name"].as_str().expect("a name").to_string();
        let mut m = BTreeMap::new();
        for b in c["backends"].as_array().expect("backends") {
            let t = b["translator"].as_str().unwrap_or("dxbc-dbg").to_string();
            m.insert(t, b.clone());
        }
        out.insert(name, m);
    }
    out
}

/// The rows of docs/translators.md's "Results by family" table: family →
/// (dxbc-dbg's cell, HLSLcc's cell), each `passed/failed/n/a`.
fn documented_table() -> BTreeMap<String, (String, String)> {
    let doc = std::fs::read_to_string(root().join("docs/translators.md")).expect("the doc");
    let section = doc
        .split("\n## Results by family")
        .nth(1)
        .expect("a \"Results by family\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut rows = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "", family, dxbc-dbg, HLSLcc, notes, ""
        rows.insert(
            cells[1].trim_matches('`').to_string(),
            (cells[2].to_string(), cells[3].to_string()),
        );
    }
    rows
}

#[test]
fn hlslcc_and_dxbc_dbg_fed_back_over_every_case() {
    let Some(h) = hlslcc() else { return };
    let b = env!("CARGO_BIN_EXE_dxbc-dbg");
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-translators-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("run.json");
    let out = Command::new(b)
        .current_dir(root())
        .args(["diff", "tests/cases", "--backend", "webgl2", "--no-bisect"])
        .arg("--translator")
        .arg(format!("hlslcc={} --flags 1 --print", h.display()))
        .arg("--translator")
        .arg(format!(
            "self={b} glsl {{ps}} ${{DXBC_DBG_VS:+--link \"$DXBC_DBG_VS\"}}"
        ))
        .arg("--translator")
        .arg(format!("self={b} glsl {{vs}} --link {{ps}}"))
        .args(["--translator-profile", "self=@dxbc-dbg", "--json"])
        .arg(&json)
        .output()
        .expect("dxbc-dbg runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // HLSLcc fails cases, so the run exits 1; anything else is the run's
    // own failure.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value =
        serde_json::from_slice(&std::fs::read(&json).expect("the document")).expect("JSON");
    let _ = std::fs::remove_dir_all(&dir);
    let cases = by_translator(&doc);
    assert!(cases.len() > 200, "only {} cases", cases.len());

    // Every case has a verdict for each translator; dxbc-dbg fed back
    // agrees with the built-in path case by case.
    let mut bad = Vec::new();
    for (name, m) in &cases {
        let (Some(own), Some(hl), Some(me)) = (m.get("dxbc-dbg"), m.get("hlslcc"), m.get("self"))
        else {
            bad.push(format!("{name}: missing a translator: {:?}", m.keys()));
            continue;
        };
        let _ = verdict(hl);
        if verdict(own) != verdict(me) {
            bad.push(format!(
                "{name}: built in {}, fed back {}: {}",
                verdict(own),
                verdict(me),
                me["failures"]
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");

    // Each gap of docs/translators.md, "HLSLcc's gaps": a case failing for
    // HLSLcc with the gap as its cause, passing for dxbc-dbg.
    let gaps = [
        ("gather4/c_less", "textureGather"),
        ("alu/ftoi_nan_range", "float_to_int_nan"),
        ("alu/shift_counts_literal", "shift_count"),
        ("alu/udiv_by_zero", "divide_by_zero"),
        ("alu/minmax_nan_second", "min_max_nan"),
        ("border/sample", "border_colour"),
        ("lod_bias/one_sampler_bias", "mip_lod_bias"),
    ];
    for (case, needle) in gaps {
        let m = &cases[case];
        assert_eq!(verdict(&m["dxbc-dbg"]), "pass", "{case} for dxbc-dbg");
        let hl = &m["hlslcc"];
        assert_eq!(verdict(hl), "fail", "{case} for HLSLcc");
        let cause = hl["cause"].as_str().unwrap_or("");
        assert!(cause.contains(needle), "{case}: cause {cause:?}");
        assert!(
            hl["step"]
                .as_str()
                .is_some_and(|s| s.contains("dxbc-dbg step")),
            "{case}: no step command"
        );
    }
    // Where HLSLcc is right it passes: the binding is no blanket failure.
    for case in [
        "alu/int_wrap_minmax",
        "alu/shift_counts",
        "sample/linear_weights",
        "pcf/point_less",
        "fragcoord/divide_by_w",
    ] {
        if let Some(m) = cases.get(case) {
            assert_eq!(verdict(&m["hlslcc"]), "pass", "{case} for HLSLcc");
        } else {
            panic!("no case {case}");
        }
    }

    // The documented table by family is this run's.
    let mut table: BTreeMap<String, (String, String)> = BTreeMap::new();
    for f in doc["families"].as_array().expect("families") {
        let cell = format!("{}/{}/{}", f["passed"], f["failed"], f["not_applicable"]);
        let family = f["family"].as_str().unwrap().to_string();
        let e = table.entry(family).or_default();
        match f["translator"].as_str() {
            Some("dxbc-dbg") => e.0 = cell,
            Some("hlslcc") => e.1 = cell,
            _ => {}
        }
    }
    let documented = documented_table();
    if documented != table {
        let rows: Vec<String> = table
            .iter()
            .map(|(f, (a, b))| format!("| `{f}` | {a} | {b} |"))
            .collect();
        panic!(
            "docs/translators.md's table by family differs from the run's:\n{}",
            rows.join("\n")
        );
    }
}
