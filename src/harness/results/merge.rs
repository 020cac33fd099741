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
