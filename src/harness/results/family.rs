//! The table by case family: per family (the first component of a case's
//! name: `gather4`, `pcf`, `alu`, `border`, …) and per backend and
//! translator, how many tests passed, failed and did not apply. It answers
//! "where does this translator go wrong" at a glance, so it is printed,
//! put in the HTML report and the JSON document of every run that drew an
//! external translator's text (a run of dxbc-dbg's own translation alone
//! writes what it wrote before).
//!
//! The figures are worked out from [`super::tally::tests`], the one count
//! every output prints, so the table cannot disagree with the totals.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::Results;
use super::tally::{self, Outcome};
use super::verdict::Kind;

/// One family's tests on one backend through one translator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyCount {
    pub family: String,
    pub backend: String,
    pub translator: String,
    pub passed: usize,
    pub failed: usize,
    /// Not applicable, or (in a `diff --auto` run) not compared.
    pub not_applicable: usize,
}

/// A case's family: its name up to the first `/` (the whole name of a
/// case found at the top of its directory).
pub fn family(name: &str) -> &str {
    name.split('/').next().unwrap_or(name)
}

/// Whether the document holds a result of an external translator's text.
pub fn has_external(doc: &Results) -> bool {
    doc.cases.iter().any(|c| {
        c.backends.iter().any(|b| !b.built_in())
            || c.verdict.as_ref().is_some_and(|v| {
                v.backends
                    .iter()
                    .any(|b| !super::is_built_in(&b.translator))
            })
    })
}

/// The (backend, translator) columns of the document, in its renderers'
/// order, then as the cases name them.
fn columns(doc: &Results) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |b: &str, t: &str| {
        if !out.iter().any(|(x, y)| x == b && y == t) {
            out.push((b.to_string(), t.to_string()));
        }
    };
    for r in &doc.renderers {
        // A renderer is named by its result key (`webgl2/hlslcc`).
        let (b, t) = r
            .backend
            .split_once('/')
            .unwrap_or((r.backend.as_str(), crate::harness::translator::BUILT_IN));
        add(b, t);
    }
    for c in &doc.cases {
        for b in &c.backends {
            add(&b.backend, &b.translator);
        }
        for b in c.verdict.iter().flat_map(|v| &v.backends) {
            add(&b.backend, &b.translator);
        }
    }
    out
}

/// Every family × column with a test, families sorted by name, columns in
/// [`columns`]' order.
pub fn counts(doc: &Results) -> Vec<FamilyCount> {
    let columns = columns(doc);
    // (family, column) → [passed, failed, n/a]
    let mut cells: BTreeMap<(String, usize), [usize; 3]> = BTreeMap::new();
    let mut count = |case: &str, col: usize, what: usize| {
        cells.entry((family(case).to_string(), col)).or_default()[what] += 1;
    };
    let slot = |o: &Outcome| match o {
        Outcome::Passed => 0,
        Outcome::Failed(_) => 1,
        Outcome::Skipped(_) => 2,
    };
    let column = |b: &str, t: &str| columns.iter().position(|(x, y)| x == b && y == t);
    for t in tally::tests(doc) {
        if let Some(v) = &t.case.verdict {
            // A generated-case run: each backend's own verdict on the
            // shader (a shader settled before drawing has none).
            for b in &v.backends {
                let what = match b.kind {
                    Kind::Agree => 0,
                    k if k.fails() => 1,
                    _ => 2,
                };
                if let Some(col) = column(&b.backend, &b.translator) {
                    count(&t.case.name, col, what);
                }
            }
            if v.backends.is_empty() {
                for col in 0..columns.len() {
                    count(&t.case.name, col, slot(&t.outcome));
                }
            }
            continue;
        }
        match t.backend {
            Some(b) => {
                if let Some(col) = column(&b.backend, &b.translator) {
                    count(&t.case.name, col, slot(&t.outcome));
                }
            }
            // A case that reached no backend (it did not load) fails on
            // every one.
            None => {
                for col in 0..columns.len() {
                    count(&t.case.name, col, slot(&t.outcome));
                }
            }
        }
    }
    cells
        .into_iter()
        .map(|((family, col), [passed, failed, na])| FamilyCount {
            family,
            backend: columns[col].0.clone(),
            translator: columns[col].1.clone(),
            passed,
            failed,
            not_applicable: na,
        })
        .collect()
}

/// The table as text: a row per family, a column per backend and
/// translator, each cell `passed/failed/n/a`.
pub fn table(doc: &Results) -> String {
    let counts = counts(doc);
    let mut keys: Vec<String> = Vec::new();
    for c in &counts {
        let k = crate::harness::suite::result_key(&c.backend, &c.translator);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut families: Vec<&str> = counts.iter().map(|c| c.family.as_str()).collect();
    families.dedup();
    let cell = |f: &str, k: &str| {
        counts
            .iter()
            .find(|c| {
                c.family == f && crate::harness::suite::result_key(&c.backend, &c.translator) == k
            })
            .map_or("-".to_string(), |c| {
                format!("{}/{}/{}", c.passed, c.failed, c.not_applicable)
            })
    };
    let fw = families
        .iter()
        .map(|f| f.len())
        .max()
        .unwrap_or(0)
        .max("family".len());
    let widths: Vec<usize> = keys
        .iter()
        .map(|k| {
            families
                .iter()
                .map(|f| cell(f, k).len())
                .max()
                .unwrap_or(0)
                .max(k.len())
        })
        .collect();
    let mut s = String::from("by family (passed/failed/n/a):\n");
    let _ = write!(s, "{:<fw$}", "family");
    for (k, w) in keys.iter().zip(&widths) {
        let _ = write!(s, "  {k:>w$}");
    }
    s.push('\n');
    for f in &families {
        let _ = write!(s, "{f:<fw$}");
        for (k, w) in keys.iter().zip(&widths) {
            let _ = write!(s, "  {:>w$}", cell(f, k));
        }
        s.push('\n');
    }
    s
}
