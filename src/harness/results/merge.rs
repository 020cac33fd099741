//! `report merge`: slices' documents joined into the one a single run over
//! the same cases would have written.
//!
//! Refused, naming the files: documents whose options differ (beyond the
//! shard's index) or that counted a different case set, a case found in
//! two documents, a slice given twice, and a set of slices that leaves
//! cases out (a slice missing, or cases missing from one).

use std::path::{Path, PathBuf};

use super::paths::{join, relative};
use super::{CaseRecord, RendererInfo, Results, RunInfo};

/// What differs between two runs' options, one phrase a field.
fn differences(a: &RunInfo, b: &RunInfo) -> Vec<String> {
    let mut out = Vec::new();
    if a.inputs != b.inputs {
        out.push(format!("case paths {:?} vs {:?}", a.inputs, b.inputs));
    }
    if a.backends != b.backends {
        out.push(format!("backends {:?} vs {:?}", a.backends, b.backends));
    }
    if a.filter != b.filter {
        out.push(format!("filter {:?} vs {:?}", a.filter, b.filter));
    }
    if a.shard.map(|s| s.count) != b.shard.map(|s| s.count) {
        let n =
            |s: Option<super::Shard>| s.map_or("none".to_string(), |s| format!("N = {}", s.count));
        out.push(format!("shards {} vs {}", n(a.shard), n(b.shard)));
    }
    if a.bless != b.bless {
        out.push(format!("bless {} vs {}", a.bless, b.bless));
    }
    if a.auto != b.auto {
        out.push(format!("generated-case runs {:?} vs {:?}", a.auto, b.auto));
    }
    out
}

/// Joins `slices` (each read from its path). Picture paths are rewritten
/// to be relative to `pictures_base` (the merged report's directory), from
/// where each slice's report lies beside its document.
pub fn merge(slices: Vec<(PathBuf, Results)>, pictures_base: &Path) -> Result<Results, String> {
    let Some((first_path, first)) = slices.first() else {
        return Err("no results documents to merge".into());
    };
    let show = |p: &Path| p.display().to_string();
    for (path, doc) in &slices[1..] {
        let d = differences(&first.options, &doc.options);
        if !d.is_empty() {
            return Err(format!(
                "{} and {} are not slices of one run: {}",
                show(first_path),
                show(path),
                d.join("; ")
            ));
        }
        if doc.collected != first.collected {
            return Err(format!(
                "{} and {} are not slices of one run: {} cases collected vs {}",
                show(first_path),
                show(path),
                first.collected,
                doc.collected
            ));
        }
    }
    // A slice given twice, by its shard.
    let mut seen_shards: Vec<(u32, &Path)> = Vec::new();
    for (path, doc) in &slices {
        if let Some(s) = doc.options.shard {
            if let Some((_, other)) = seen_shards.iter().find(|(k, _)| *k == s.index) {
                return Err(format!(
                    "{} and {} are both slice {s}",
                    show(other),
                    show(path)
                ));
            }
            seen_shards.push((s.index, path));
        }
    }
    // Each case in one document only.
    let mut owner: Vec<Option<&Path>> = vec![None; first.collected];
    for (path, doc) in &slices {
        for c in &doc.cases {
            let slot = owner.get_mut(c.index).ok_or_else(|| {
                format!(
                    "{}: case `{}` is number {} of {} collected",
                    show(path),
                    c.name,
                    c.index,
                    first.collected
                )
            })?;
            if let Some(other) = slot {
                return Err(format!(
                    "case `{}` is in both {} and {}: slices must not overlap",
                    c.name,
                    show(other),
                    show(path)
                ));
            }
            *slot = Some(path);
        }
    }
    if let Some(shard) = first.options.shard {
        let missing: Vec<String> = (1..=shard.count)
            .filter(|k| !seen_shards.iter().any(|(i, _)| i == k))
            .map(|k| format!("{k}/{}", shard.count))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "slice {} missing: no document given for it",
                missing.join(", ")
            ));
        }
    }
    let absent = owner.iter().filter(|o| o.is_none()).count();
    if absent > 0 {
        return Err(format!(
            "{absent} of {} cases are in no document: a slice's run did not finish",
            first.collected
        ));
    }
    let mut renderers: Vec<RendererInfo> = Vec::new();
    let mut cases: Vec<CaseRecord> = Vec::new();
    for (path, doc) in &slices {
        for r in &doc.renderers {
            // `backend` is the result key (`webgl2/hlslcc` for an
            // external translator's renderer), so each translator keeps
            // its own line.
            match renderers.iter_mut().find(|m| m.backend == r.backend) {
                // Slices drawn on different machines may name different
                // adapters; the report names them all.
                Some(m) if !m.name.split(" | ").any(|n| n == r.name) => {
                    m.name = format!("{} | {}", m.name, r.name);
                }
                Some(_) => {}
                None => renderers.push(r.clone()),
            }
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        let pictures = join(dir, doc.report.as_deref().unwrap_or("."));
        for c in &doc.cases {
            let mut c = c.clone();
            for t in c.backends.iter_mut().flat_map(|b| &mut b.targets) {
                for p in [&mut t.picture, &mut t.heat].into_iter().flatten() {
                    *p = relative(&join(&pictures, p), pictures_base)?;
                }
            }
            cases.push(c);
        }
    }
    cases.sort_by_key(|c| c.index);
    let mut options = first.options.clone();
    options.shard = None;
    Ok(Results {
        version: first.version,
        options,
        renderers,
        collected: first.collected,
        report: None,
        cases,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::results::{BackendRecord, DiffFigures, FORMAT_VERSION, TargetRecord};
    use crate::harness::shard::Shard;

    fn case(index: usize, name: &str, picture: Option<&str>) -> CaseRecord {
        let figures = DiffFigures {
            width: 1,
            height: 1,
            size_mismatch: false,
            failing: 0,
            pixels: 1,
            max_abs: 0.0,
            max_ulp: 0,
            mean_abs: 0.0,
            nonfinite: 0,
            worst: None,
            tolerance_abs: 0.0,
            tolerance_ulp: 0,
            failing_pixels: Vec::new(),
        };
        CaseRecord {
            index,
            name: name.into(),
            path: format!("tests/cases/{name}.case"),
            shader: format!("tests/cases/{name}.case"),
            passed: true,
            case_failures: vec![],
            failures: vec![],
            cpu_ms: Some(1.0),
            cpu_targets: 1,
            cpu_golden: vec![None],
            backends: vec![BackendRecord {
                backend: "vulkan".into(),
                translator: "dxbc-dbg".into(),
                cause: None,
                step: None,
                dialect: "vk450".into(),
                not_applicable: None,
                ms: Some(1.0),
                failures: vec![],
                notes: vec![],
                targets: vec![TargetRecord {
                    index: 0,
                    diff: figures,
                    golden: None,
                    picture: picture.map(str::to_string),
                    heat: None,
                }],
                bisect: None,
            }],
            step: None,
            worst_pixel: None,
            blessed: vec![],
            verdict: None,
            warnings: vec![],
        }
    }

    /// Slice `k` of 2 over four cases: `a` and `c` in 1, `b` and `d` in 2
    /// (as given here; the hash does not matter to the merge).
    fn slice(k: u32, cases: Vec<CaseRecord>) -> Results {
        Results {
            version: FORMAT_VERSION,
            options: RunInfo {
                inputs: vec!["tests/cases".into()],
                backends: vec!["vulkan".into()],
                filter: None,
                shard: Some(Shard { index: k, count: 2 }),
                bless: false,
                auto: None,
            },
            renderers: vec![RendererInfo {
                backend: "vulkan".into(),
                name: format!("adapter {k}"),
            }],
            collected: 4,
            report: Some(format!("report{k}")),
            cases,
        }
    }

    fn two() -> Vec<(PathBuf, Results)> {
        vec![
            (
                PathBuf::from("out/s1.json"),
                slice(1, vec![case(0, "a", Some("img/a.png")), case(2, "c", None)]),
            ),
            (
                PathBuf::from("out/s2.json"),
                slice(2, vec![case(1, "b", None), case(3, "d", Some("img/d.png"))]),
            ),
        ]
    }

    #[test]
    fn merging_sorts_as_one_run_and_relinks_pictures() {
        let root = std::env::temp_dir().join(format!("dxbc-dbg-merge-{}", std::process::id()));
        let slices: Vec<(PathBuf, Results)> =
            two().into_iter().map(|(p, d)| (root.join(p), d)).collect();
        let merged = merge(slices, &root.join("merged")).expect("merges");
        let names: Vec<&str> = merged.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        assert_eq!(merged.options.shard, None);
        assert_eq!(merged.report, None);
        let picture = |i: usize| merged.cases[i].backends[0].targets[0].picture.clone();
        assert_eq!(picture(0).as_deref(), Some("../out/report1/img/a.png"));
        assert_eq!(picture(3).as_deref(), Some("../out/report2/img/d.png"));
        assert_eq!(picture(1), None);
        assert_eq!(merged.renderers[0].name, "adapter 1 | adapter 2");
    }

    /// A slice's bisection reaches the merged document as written, and
    /// a document from before bisections (no `bisect` field) still reads
    /// and merges.
    #[test]
    fn bisections_survive_the_merge_and_old_documents_load() {
        use crate::harness::results::bisect::{BisectOutcome, BisectRecord};
        let mut s = two();
        let record = BisectRecord {
            pixel: [3, 1],
            outcome: BisectOutcome::OverLimit { limit: 2 },
        };
        s[1].1.cases[0].backends[0].bisect = Some(record.clone());
        // Through JSON, as `report merge` reads slices.
        let s: Vec<(PathBuf, Results)> = s
            .into_iter()
            .map(|(p, d)| (p, Results::from_json(&d.to_json()).expect("reads back")))
            .collect();
        let old = s[0].1.to_json();
        assert!(!old.contains("\"bisect\""), "{old}");
        let merged = merge(s, Path::new("merged")).expect("merges");
        let b = |i: usize| merged.cases[i].backends[0].bisect.clone();
        assert_eq!(b(1), Some(record));
        assert_eq!((b(0), b(2), b(3)), (None, None, None));
        assert!(merged.to_json().contains("\"status\": \"over_limit\""));
    }

    fn refusal(slices: Vec<(PathBuf, Results)>) -> String {
        merge(slices, Path::new("merged")).expect_err("refused")
    }

    #[test]
    fn a_case_in_two_slices_is_refused() {
        let mut s = two();
        s[1].1.cases.push(case(2, "c", None));
        let e = refusal(s);
        assert!(
            e.contains("case `c` is in both out/s1.json and out/s2.json"),
            "{e}"
        );
    }

    #[test]
    fn a_slice_given_twice_is_refused() {
        let mut s = two();
        s.push(s[0].clone());
        s[2].0 = PathBuf::from("out/again.json");
        let e = refusal(s);
        assert!(
            e.contains("out/s1.json and out/again.json are both slice 1/2"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_slice_is_refused() {
        let mut s = two();
        s.pop();
        let e = refusal(s);
        assert!(e.contains("slice 2/2 missing"), "{e}");
    }

    #[test]
    fn cases_missing_from_a_slice_are_refused() {
        let mut s = two();
        s[1].1.cases.pop();
        let e = refusal(s);
        assert!(e.contains("1 of 4 cases are in no document"), "{e}");
    }

    #[test]
    fn slices_of_other_runs_are_refused() {
        /// What the refusal names, and the change to the second slice.
        type Change = (&'static str, fn(&mut Results));
        let cases: [Change; 6] = [
            ("backends", |d| d.options.backends.push("webgl2".into())),
            ("filter", |d| d.options.filter = Some("alu".into())),
            ("case paths", |d| d.options.inputs = vec!["other".into()]),
            ("shards", |d| {
                d.options.shard = Some(Shard { index: 2, count: 3 })
            }),
            ("bless", |d| d.options.bless = true),
            ("cases collected", |d| d.collected = 5),
        ];
        for (what, change) in cases {
            let mut s = two();
            change(&mut s[1].1);
            let e = refusal(s);
            assert!(
                e.contains("out/s1.json and out/s2.json are not slices of one run")
                    && e.contains(what),
                "{what}: {e}"
            );
        }
        assert_eq!(refusal(Vec::new()), "no results documents to merge");
    }
}
