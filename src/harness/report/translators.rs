//! What the reports add for external translators' text (docs/harness.md,
//! "External translators"): each failure's command stepping its worst
//! pixel on the emulator and its cause where known, the reminder that
//! such text is not bisected, and the table by case family. A document
//! without an external translator's results gets none of it, so its
//! outputs read as before.

use std::fmt::Write as _;
use std::path::Path;

use super::escape;
use crate::harness::results::family;
use crate::harness::results::{BackendRecord, Results};
use crate::harness::suite::step_command;

/// An external translator's failed result of a case.
fn failed_external(b: &BackendRecord) -> bool {
    !b.built_in() && b.not_applicable.is_none() && !b.passed()
}

/// A cause on one line: a compile log's lines joined.
fn one_line(cause: &str) -> String {
    cause
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why no external failure names a first divergent instruction.
const NOT_BISECTED: &str = "external translators' failures are not bisected: \
     their text has no register capture (the emulator's step commands above show the pixel)";

/// The summary table's lines for external translators: per failure its
/// step command and cause, the note on bisection, the table by family.
pub(super) fn summary_lines(doc: &Results) -> String {
    let mut s = String::new();
    let mut any = false;
    for r in &doc.cases {
        for b in r.backends.iter().filter(|b| failed_external(b)) {
            any = true;
            if let Some(step) = &b.step {
                let _ = writeln!(
                    s,
                    "{} on {}: step the worst pixel on the emulator: {step}",
                    r.name,
                    b.key()
                );
            }
            if let Some(cause) = &b.cause {
                let _ = writeln!(s, "{} on {}: cause: {}", r.name, b.key(), one_line(cause));
            }
        }
    }
    if any {
        let _ = writeln!(s, "{NOT_BISECTED}");
    }
    if family::has_external(doc) {
        s.push_str(&family::table(doc));
    }
    s
}

/// The HTML report's table by family (empty without external
/// translators): a row per family, a column per backend and translator.
pub(super) fn family_html(doc: &Results) -> String {
    if !family::has_external(doc) {
        return String::new();
    }
    let counts = family::counts(doc);
    let key =
        |c: &family::FamilyCount| crate::harness::suite::result_key(&c.backend, &c.translator);
    let mut keys: Vec<String> = Vec::new();
    for c in &counts {
        if !keys.contains(&key(c)) {
            keys.push(key(c));
        }
    }
    let mut families: Vec<&str> = counts.iter().map(|c| c.family.as_str()).collect();
    families.dedup();
    let mut h = String::from(
        "<h2>By family</h2>\n<p>Tests per case family (the first part of a case's name): passed / failed / n/a.</p>\n<table>\n<tr><th>family</th>",
    );
    for k in &keys {
        let _ = write!(h, "<th>{}</th>", escape(k));
    }
    h.push_str("</tr>\n");
    for f in families {
        let _ = write!(h, "<tr><td>{}</td>", escape(f));
        for k in &keys {
            match counts.iter().find(|c| c.family == f && key(c) == *k) {
                Some(c) => {
                    let _ = write!(
                        h,
                        "<td>{} / {} / {}</td>",
                        c.passed, c.failed, c.not_applicable
                    );
                }
                None => h.push_str("<td>-</td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    h
}

/// A failing case's section for its external translators' failures:
/// each one's cause and the command stepping its worst pixel (the case's
/// `worst` when it drew no image), run from the report's folder (`case`
/// is the case's path from there).
pub(super) fn external_html(
    case: &Path,
    worst: Option<[u32; 2]>,
    backends: &[BackendRecord],
) -> String {
    let failed: Vec<&BackendRecord> = backends.iter().filter(|b| failed_external(b)).collect();
    if failed.is_empty() {
        return String::new();
    }
    let mut h = String::from("<h3>External translators</h3>\n");
    for b in failed {
        let _ = writeln!(h, "<p>On {}:</p>\n<ul>", escape(&b.label()));
        if let Some(cause) = &b.cause {
            let _ = writeln!(h, "<li>cause: <pre>{}</pre></li>", escape(cause));
        }
        if let Some([x, y]) = b.failing_pixel().or(worst) {
            let _ = writeln!(
                h,
                "<li>step its worst pixel on the emulator (from this report's folder): <code>{}</code></li>",
                escape(&step_command(case, x, y))
            );
        }
        h.push_str("</ul>\n");
    }
    let _ = writeln!(h, "<p>{}.</p>", escape(NOT_BISECTED));
    h
}
