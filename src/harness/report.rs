//! What a run tells people and CI: a text summary table (one line per case
//! and backend — per translator where an external translator's text was
//! drawn too, `webgl2/hlslcc`), an HTML report in a directory (summary
//! table; per case and render target one picture row per backend and
//! translator — backend | CPU | heat map, labelled with the dialect drawn
//! —, error statistics, failure reasons and, for a failing case, the
//! `dxbc-dbg step` command for its worst pixel) and JUnit XML (one test per
//! case, backend and translator, `junit.rs`). What external translators
//! add — each failure's own step command and cause, the table by case
//! family — is in `translators.rs`.
//!
//! All three are written from the results document alone
//! ([`super::results::Results`]), so a merged set of slices reports as one
//! run does; only the pictures need the images, and [`write_pictures`]
//! writes those from a run's results and names them in the document.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::diff::{heat_map, preview, side_by_side, write_png};
use super::results::tally::Counts;
use super::results::{BackendRecord, CaseRecord, DiffFigures, Results};
use super::suite::{CaseResult, step_command};

mod bisection;
mod junit;
mod translators;

pub use junit::junit;

/// Escapes text for HTML and XML (element text and attribute values).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no way to carry other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

fn ms(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.1}"))
}

/// The largest error over a backend's render targets: (max abs, max ulp).
fn max_error(b: &BackendRecord) -> (f64, u64) {
    b.targets.iter().fold((0.0, 0), |(a, u), t| {
        (a.max(t.diff.max_abs), u.max(t.diff.max_ulp))
    })
}

/// `pass`, `FAIL` or `n/a` for one backend's run of a case (a case whose
/// own checks failed fails on every backend).
fn verdict(r: &CaseRecord, b: &BackendRecord) -> &'static str {
    if b.not_applicable.is_some() {
        "n/a"
    } else if b.passed() && r.case_failures.is_empty() {
        "pass"
    } else {
        "FAIL"
    }
}

/// A backend's label in reports: its name and the dialect it draws.
fn label(b: &BackendRecord) -> String {
    b.label()
}

fn fmt_ulp(u: u64) -> String {
    if u == u64::MAX {
        "inf".into()
    } else {
        u.to_string()
    }
}

/// A plain-text table: one line per case and backend (one line for a
/// case that never reached a backend).
pub fn summary_table(doc: &Results) -> String {
    let results = &doc.cases;
    let width = results
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    // As wide as `webgl2/hlslcc` where an external translator ran.
    let bw = results
        .iter()
        .flat_map(|r| r.backends.iter().map(|b| b.key().len()))
        .max()
        .unwrap_or(0)
        .max(7);
    let mut s = format!(
        "{:<width$}  {:<bw$}  {:<6}  {:>9}  {:>9}  {:>11}  {:>10}  worst\n",
        "case", "backend", "result", "draw ms", "cpu ms", "max abs", "max ulp"
    );
    for r in results {
        if r.backends.is_empty() {
            let _ = writeln!(
                s,
                "{:<width$}  {:<bw$}  {:<6}  {:>9}  {:>9}  {:>11}  {:>10}  -",
                r.name,
                "-",
                if r.passed { "pass" } else { "FAIL" },
                "-",
                ms(r.cpu_ms),
                "-",
                "-"
            );
        }
        for b in &r.backends {
            let (abs, ulp) = max_error(b);
            let worst = b
                .targets
                .iter()
                .find_map(|t| t.diff.worst.as_ref().filter(|w| !w.passes))
                .map_or("-".to_string(), |w| format!("{},{}", w.x, w.y));
            let _ = writeln!(
                s,
                "{:<width$}  {:<bw$}  {:<6}  {:>9}  {:>9}  {:>11.3e}  {:>10}  {worst}",
                r.name,
                b.key(),
                verdict(r, b),
                ms(b.ms),
                ms(r.cpu_ms),
                abs,
                fmt_ulp(ulp),
            );
        }
    }
    let failed = results.iter().filter(|r| !r.passed).count();
    let na: Vec<String> = results
        .iter()
        .flat_map(|r| {
            r.backends.iter().filter_map(move |b| {
                let why = b.not_applicable.as_ref()?;
                Some(format!("not applicable: {} on {} ({why})", r.name, b.key()))
            })
        })
        .collect();
    for line in &na {
        let _ = writeln!(s, "{line}");
    }
    // The failures a run left unbisected, for a second run to take.
    let over: Vec<String> = results
        .iter()
        .flat_map(|r| {
            r.backends
                .iter()
                .filter_map(move |b| match b.bisect.as_ref()?.outcome {
                    super::results::bisect::BisectOutcome::OverLimit { limit } => {
                        Some((limit, format!("{} on {}", r.name, b.key())))
                    }
                    _ => None,
                })
        })
        .map(|(limit, what)| format!("not bisected (over the limit of {limit}): {what}"))
        .collect();
    for line in &over {
        let _ = writeln!(s, "{line}");
    }
    // Warnings from loading the cases (bound slots no shader declares):
    // the case drew, but the file may not say what its author meant.
    for r in results {
        for w in &r.warnings {
            let _ = writeln!(s, "{}: {w}", r.name);
        }
    }
    // How textures went up where a backend had a choice (compressed or
    // decoded blocks), so a pass says what it exercised.
    for r in results {
        for b in r.backends.iter().filter(|b| !b.notes.is_empty()) {
            let _ = writeln!(s, "{} on {}: {}", r.name, b.key(), b.notes.join("; "));
        }
    }
    // External translators: each failure's step command and cause, and
    // the table by family (absent from runs of dxbc-dbg's text alone).
    s.push_str(&translators::summary_lines(doc));
    let _ = writeln!(s, "{} passed, {} failed", results.len() - failed, failed);
    let _ = writeln!(s, "{}", Counts::of(doc).line(doc));
    s
}

/// A file-name-safe form of a case name.
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn stats_rows(label: &str, d: &DiffFigures) -> String {
    let worst = d.worst.as_ref().map_or("-".to_string(), |w| {
        format!("({}, {}): {:?} vs {:?}", w.x, w.y, w.a, w.b)
    });
    format!(
        "<tr><td>{}</td><td>{}</td><td>{} / {}</td><td>{:.3e}</td><td>{}</td><td>{:.3e}</td><td>{}</td><td>{}</td></tr>\n",
        escape(label),
        if d.passed() { "pass" } else { "<b>FAIL</b>" },
        d.failing,
        d.pixels,
        d.max_abs,
        fmt_ulp(d.max_ulp),
        d.mean_abs,
        d.nonfinite,
        escape(&worst)
    )
}

/// The pictures of one backend's render target: `(picture, heat map)`
/// file names. `key` is the result's key: the backend, or
/// `backend/translator` (written `backend_translator`).
fn picture_names(case: &str, key: &str, i: usize) -> (String, String) {
    let id = slug(case);
    let key = slug(key);
    (
        format!("{id}.{key}.t{i}.png"),
        format!("{id}.{key}.t{i}.heat.png"),
    )
}

/// Writes each backend's pictures of each render target into `dir/img`
/// (backend | CPU | heat map, and the heat map alone) and names them, by
/// paths relative to `dir`, in `doc`, whose cases are `results`' in order.
pub fn write_pictures(dir: &Path, results: &[CaseResult], doc: &mut Results) -> Result<(), String> {
    for r in results {
        write_case_pictures(dir, r)?;
    }
    link_pictures(results, doc);
    Ok(())
}

/// Writes one case's pictures (see [`write_pictures`]) into `dir/img`:
/// what a run that drops each case's pixels once compared
/// (`suite::run_all_shedding`) does case by case; [`link_pictures`] names
/// them in the document afterwards. A case whose pixels were already
/// dropped gets none.
pub fn write_case_pictures(dir: &Path, r: &CaseResult) -> Result<(), String> {
    if !r.has_pixels() {
        return Ok(());
    }
    let img_dir = dir.join("img");
    std::fs::create_dir_all(&img_dir)
        .map_err(|e| format!("{}: cannot create: {e}", img_dir.display()))?;
    for b in &r.backends {
        for (i, (c, t)) in r.cpu.iter().zip(&b.targets).enumerate() {
            let (name, heat_name) = picture_names(&r.name, &b.key(), i);
            let heat = heat_map(&t.diff);
            write_png(
                &side_by_side(&[&preview(&t.image), &preview(c), &heat]),
                &img_dir.join(&name),
            )?;
            write_png(&side_by_side(&[&heat]), &img_dir.join(&heat_name))?;
        }
    }
    Ok(())
}

/// Names in `doc` the pictures [`write_case_pictures`] wrote for
/// `results` (the document's cases, in order), by paths relative to the
/// report's folder.
pub fn link_pictures(results: &[CaseResult], doc: &mut Results) {
    for (r, rec) in results.iter().zip(&mut doc.cases) {
        for (b, brec) in r.backends.iter().zip(&mut rec.backends) {
            for ((i, _), (_, trec)) in r
                .cpu
                .iter()
                .enumerate()
                .zip(b.targets.iter().zip(&mut brec.targets))
            {
                let (name, heat_name) = picture_names(&r.name, &b.key(), i);
                trec.picture = Some(format!("img/{name}"));
                trec.heat = Some(format!("img/{heat_name}"));
            }
        }
    }
}

fn backends_line(renderers: &[(&str, &str)]) -> String {
    if renderers.is_empty() {
        return "none (the emulator alone)".into();
    }
    renderers
        .iter()
        .map(|(b, n)| format!("{b}: {n}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Writes `index.html` into `dir` from the document (its pictures are
/// where the document's paths, relative to `dir`, say); returns the
/// page's path.
pub fn write_html(dir: &Path, doc: &Results) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let results = &doc.cases;
    let renderers: Vec<(&str, &str)> = doc
        .renderers
        .iter()
        .map(|r| (r.backend.as_str(), r.name.as_str()))
        .collect();
    let failed = results.iter().filter(|r| !r.passed).count();
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>dxbc-dbg diff report</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em}\ntable{border-collapse:collapse;margin:.5em 0}\ntd,th{border:1px solid #bbb;padding:.2em .5em;text-align:left}\n.pass{color:#060}.fail{color:#b00;font-weight:bold}\nimg{image-rendering:pixelated;border:1px solid #888}\ncode{background:#eee;padding:.1em .3em}\n</style>\n</head>\n<body>\n");
    let counts = Counts::of(doc);
    if doc.options.auto.is_some() {
        // A generated-case run counts by verdict, as its terminal summary
        // does: the same table, from the same document.
        let _ = writeln!(
            h,
            "<h1>dxbc-dbg diff report</h1>\n<p>{}. Backends: {}.</p>\n<pre>{}</pre>",
            escape(&counts.line(doc)),
            escape(&backends_line(&renderers)),
            escape(&super::results::verdict::summary(doc))
        );
    } else {
        let _ = writeln!(
            h,
            "<h1>dxbc-dbg diff report</h1>\n<p>{} cases: {} passed, {} failed; {}. Backends: {}.</p>",
            results.len(),
            results.len() - failed,
            failed,
            escape(&counts.line(doc)),
            escape(&backends_line(&renderers))
        );
    }
    h.push_str("<h2>Summary</h2>\n<table>\n<tr><th>case</th><th>backend</th><th>result</th><th>draw ms</th><th>CPU ms</th><th>max abs</th><th>max ulp</th></tr>\n");
    for r in results {
        // (backend, verdict, draw ms, (max abs, max ulp))
        type Row<'a> = (String, &'a str, Option<f64>, (f64, u64));
        let rows: Vec<Row> = if r.backends.is_empty() {
            vec![(
                "-".into(),
                if r.passed { "pass" } else { "FAIL" },
                None,
                (0.0, 0),
            )]
        } else {
            r.backends
                .iter()
                .map(|b| (label(b), verdict(r, b), b.ms, max_error(b)))
                .collect()
        };
        for (backend, v, t, (abs, ulp)) in rows {
            let _ = writeln!(
                h,
                "<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{:.3e}</td><td>{}</td></tr>",
                slug(&r.name),
                escape(&r.name),
                escape(&backend),
                if v == "FAIL" { "fail" } else { "pass" },
                v,
                ms(t),
                ms(r.cpu_ms),
                abs,
                fmt_ulp(ulp),
            );
        }
    }
    h.push_str("</table>\n");
    h.push_str(&translators::family_html(doc));
    for r in results {
        let id = slug(&r.name);
        // Commands in the page are run from its folder, wherever the run
        // that wrote it stood.
        let case_from_report = super::results::paths::relative(Path::new(&r.path), dir)
            .map_or_else(|_| PathBuf::from(&r.path), PathBuf::from);
        let _ = writeln!(
            h,
            "<h2 id=\"{id}\">{} <span class=\"{}\">{}</span></h2>\n<p>{}</p>",
            escape(&r.name),
            if r.passed { "pass" } else { "fail" },
            if r.passed { "pass" } else { "FAIL" },
            escape(&r.path)
        );
        // Commands name the case only where it exists: a generated case
        // that was not written has no step command, only `recreate`.
        let has_case = r.verdict.is_none() || r.step.is_some();
        if !r.failures.is_empty() {
            h.push_str("<ul>\n");
            for f in &r.failures {
                let _ = writeln!(h, "<li><pre>{}</pre></li>", escape(f));
            }
            h.push_str("</ul>\n");
            if let Some([x, y]) = r.worst_pixel.filter(|_| has_case) {
                let _ = writeln!(
                    h,
                    "<p>Step the worst pixel (from this report's folder): <code>{}</code></p>",
                    escape(&step_command(&case_from_report, x, y))
                );
            }
            if has_case {
                h.push_str(&translators::external_html(
                    &case_from_report,
                    r.worst_pixel,
                    &r.backends,
                ));
                h.push_str(&bisection::section(&case_from_report, &r.backends));
            }
        }
        if let Some(cmd) = r.verdict.as_ref().and_then(|v| v.recreate.as_ref()) {
            let _ = writeln!(h, "<p><code>{}</code></p>", escape(cmd));
        }
        for w in &r.warnings {
            let _ = writeln!(h, "<p class=\"warning\">{}</p>", escape(w));
        }
        for b in r.backends.iter().filter(|b| !b.notes.is_empty()) {
            let _ = writeln!(
                h,
                "<p>On {}: {}</p>",
                escape(&label(b)),
                escape(&b.notes.join("; "))
            );
        }
        for b in r.backends.iter().filter(|b| b.not_applicable.is_some()) {
            let _ = writeln!(
                h,
                "<p>Not applicable on {}: {}</p>",
                escape(&label(b)),
                escape(b.not_applicable.as_deref().unwrap_or(""))
            );
        }
        for i in 0..r.cpu_targets {
            let _ = writeln!(
                h,
                "<h3>SV_Target{i}</h3>\n<p>backend | CPU | heat map (black: identical; blue: within tolerance; red to yellow: beyond it)</p>"
            );
            // One row per backend, so the pictures stay side by side with
            // the CPU's and the heat map whatever the number of backends.
            let drawn: Vec<&BackendRecord> =
                r.backends.iter().filter(|b| b.targets.len() > i).collect();
            h.push_str("<table>\n");
            for b in &drawn {
                let t = &b.targets[i];
                let (Some(picture), Some(heat)) = (&t.picture, &t.heat) else {
                    // A document written without a report has no pictures.
                    let _ = writeln!(
                        h,
                        "<tr><th>{}</th><td>(no picture: the run wrote no report)</td></tr>",
                        escape(&label(b))
                    );
                    continue;
                };
                let _ = writeln!(
                    h,
                    "<tr><th>{}</th><td><img src=\"{}\" alt=\"{}, CPU and heat map of {} target {i}\"><br><a href=\"{}\">heat map alone</a></td></tr>",
                    escape(&label(b)),
                    escape(picture),
                    escape(&label(b)),
                    escape(&r.name),
                    escape(heat)
                );
            }
            h.push_str("</table>\n");
            h.push_str("<table>\n<tr><th>compared</th><th>result</th><th>failing pixels</th><th>max abs</th><th>max ulp</th><th>mean abs</th><th>non-finite</th><th>worst pixel</th></tr>\n");
            for b in &drawn {
                let t = &b.targets[i];
                h.push_str(&stats_rows(&format!("{} vs CPU", label(b)), &t.diff));
                if let Some(d) = &t.golden {
                    h.push_str(&stats_rows(&format!("{} vs golden", label(b)), d));
                }
            }
            if let Some(Some(d)) = r.cpu_golden.get(i) {
                h.push_str(&stats_rows("CPU vs golden", d));
            }
            h.push_str("</table>\n");
            // Every pixel the heat map shows beyond tolerance, each with
            // the command that steps it.
            for b in drawn.iter().filter(|_| has_case) {
                let d = &b.targets[i].diff;
                if d.failing_pixels.is_empty() {
                    continue;
                }
                let listed = if d.failing_pixels.len() < d.failing {
                    format!(" (the first {})", d.failing_pixels.len())
                } else {
                    String::new()
                };
                let _ = writeln!(
                    h,
                    "<details><summary>{} pixels beyond tolerance on {}{listed}: step commands, run from this report's folder</summary>\n<pre>",
                    d.failing,
                    escape(&label(b))
                );
                for [x, y] in &d.failing_pixels {
                    let _ = writeln!(h, "{}", escape(&step_command(&case_from_report, *x, *y)));
                }
                h.push_str("</pre></details>\n");
            }
            let times: Vec<String> = drawn
                .iter()
                .map(|b| format!("{} {} ms", b.key(), ms(b.ms)))
                .collect();
            let _ = writeln!(
                h,
                "<p>Tolerance: abs {}, ulp {}. Frame time: {}, CPU {} ms.</p>",
                r.backends
                    .first()
                    .and_then(|b| b.targets.first())
                    .map_or(0.0, |t| t.diff.tolerance_abs),
                r.backends
                    .first()
                    .and_then(|b| b.targets.first())
                    .map_or(0, |t| t.diff.tolerance_ulp),
                times.join(", "),
                ms(r.cpu_ms)
            );
        }
    }
    h.push_str("</body>\n</html>\n");
    let page = dir.join("index.html");
    std::fs::write(&page, h).map_err(|e| format!("{}: cannot write: {e}", page.display()))?;
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::case::Tolerance;
    use crate::harness::diff::diff;
    use crate::harness::image::Image;
    use crate::harness::results::{RendererInfo, RunInfo};
    use crate::harness::suite::{Backend, BackendResult, TargetResult};

    /// The document of `rs` as one run over them.
    fn doc(rs: &[CaseResult], renderers: &[(String, String)]) -> Results {
        let options = RunInfo {
            inputs: vec!["tests/cases".into()],
            backends: vec!["vulkan".into(), "webgl2".into()],
            filter: None,
            shard: None,
            bless: false,
            auto: None,
        };
        let renderers = renderers
            .iter()
            .map(|(b, n)| RendererInfo {
                backend: b.clone(),
                name: n.clone(),
            })
            .collect();
        let indices: Vec<usize> = (0..rs.len()).collect();
        Results::from_run(options, renderers, rs.len(), &indices, rs)
    }

    fn results() -> Vec<CaseResult> {
        let a = Image::new(2, 2);
        let mut b = a.clone();
        b.set(1, 0, [0.5, 0.0, 0.0, 0.0]);
        let target = |g: &Image, c: &Image| TargetResult {
            index: 0,
            image: g.clone(),
            diff: diff(g, c, &Tolerance::default()),
            golden: None,
        };
        let backend = |backend, t: TargetResult, failures: Vec<String>| BackendResult {
            backend,
            translator: crate::harness::translator::BUILT_IN.into(),
            cause: None,
            not_applicable: None,
            ms: Some(1.0),
            targets: vec![t],
            failures,
            notes: Vec::new(),
            bisect: None,
        };
        let case = |name: &str, path: &str, shader: &str, backends: Vec<BackendResult>| {
            let failures = backends
                .iter()
                .flat_map(|b| {
                    b.failures
                        .iter()
                        .map(move |f| format!("{}: {f}", b.backend.name()))
                })
                .collect();
            CaseResult {
                path: PathBuf::from(path),
                name: name.into(),
                shader: PathBuf::from(shader),
                case_failures: vec![],
                failures,
                cpu_ms: Some(2.0),
                cpu: vec![a.clone()],
                cpu_golden: vec![None],
                cpu_error: None,
                backends,
                probe_pixel: None,
                blessed: vec![],
                warnings: vec![],
            }
        };
        let mut na = backend(Backend::WebGl2, target(&a, &a), vec![]);
        na.not_applicable = Some("requires fine_derivatives: one dFdx".into());
        na.targets.clear();
        na.ms = None;
        vec![
            case(
                "ok",
                "tests/cases/ok.case",
                "tests/cases/ok.case",
                vec![backend(Backend::Vulkan, target(&a, &a), vec![]), na],
            ),
            case(
                "gather <&> \"x\"",
                "tests/cases/gather <&> \"x\".case",
                "shaders/g.asm",
                vec![
                    backend(Backend::Vulkan, target(&a, &a), vec![]),
                    backend(
                        Backend::WebGl2,
                        target(&b, &a),
                        vec!["SV_Target0: 1 of 4 pixels differ <here>".into()],
                    ),
                ],
            ),
        ]
    }

    /// A small well-formedness check: tags balance and entities are known.
    fn balanced(xml: &str) -> bool {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = xml;
        while let Some(i) = rest.find('<') {
            let after = &rest[i + 1..];
            let Some(j) = after.find('>') else {
                return false;
            };
            let tag = &after[..j];
            rest = &after[j + 1..];
            if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
                continue;
            }
            let name = tag
                .trim_start_matches('/')
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string();
            if ["meta", "img", "br"].contains(&name.as_str()) {
                continue;
            }
            if tag.starts_with('/') {
                if stack.pop().as_deref() != Some(name.as_str()) {
                    return false;
                }
            } else {
                stack.push(name);
            }
        }
        let entities_ok = xml.match_indices('&').all(|(i, _)| {
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                .iter()
                .any(|e| xml[i..].starts_with(e))
        });
        stack.is_empty() && entities_ok
    }

    #[test]
    fn junit_lists_the_failing_case_with_its_step_command() {
        let x = junit(&doc(&results(), &[]));
        assert!(balanced(&x), "{x}");
        // One test per case and backend; the not-applicable one skipped.
        assert!(x.contains("tests=\"4\" failures=\"1\""), "{x}");
        assert!(x.contains("skipped=\"1\""), "{x}");
        assert!(x.contains("<testcase classname=\"dxbc-dbg.diff\" name=\"ok [vulkan]\""));
        assert!(x.contains("<skipped message=\"requires fine_derivatives: one dFdx\"/>"));
        assert!(x.contains("name=\"gather &lt;&amp;&gt; &quot;x&quot; [webgl2]\""));
        // The case failed on WebGL2 only: its Vulkan test passes.
        let vulkan = x
            .lines()
            .find(|l| l.contains("name=\"gather &lt;&amp;&gt; &quot;x&quot; [vulkan]\""))
            .unwrap_or("");
        assert!(vulkan.ends_with("/>"), "{x}");
        assert!(x.contains(
            "dxbc-dbg step &apos;tests/cases/gather &lt;&amp;&gt; &quot;x&quot;.case&apos; --pixel 1,0"
        ), "{x}");
        assert_eq!(x.matches("<failure").count(), 1);
    }

    #[test]
    fn html_report_has_the_table_pictures_and_step_command() {
        let dir = std::env::temp_dir().join(format!("dxbc-dbg-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let renderers = [
            ("vulkan".to_string(), "lavapipe".to_string()),
            ("webgl2".to_string(), "chromium".to_string()),
        ];
        let rs = results();
        let mut d = doc(&rs, &renderers);
        write_pictures(&dir, &rs, &mut d).expect("writes pictures");
        let page = write_html(&dir, &d).expect("writes");
        let html = std::fs::read_to_string(&page).expect("reads");
        assert!(balanced(&html), "{html}");
        assert!(html.contains("2 cases: 1 passed, 1 failed"));
        assert!(html.contains("--pixel 1,0"));
        assert!(html.contains("differ &lt;here&gt;"));
        // One picture row per backend, labelled with its dialect.
        assert!(
            html.contains("<tr><th>vulkan (vk450)</th><td><img"),
            "{html}"
        );
        assert!(
            html.contains("<tr><th>webgl2 (es300)</th><td><img"),
            "{html}"
        );
        assert!(html.contains("Not applicable on webgl2 (es300): requires fine_derivatives"));
        for f in [
            "ok.vulkan.t0.png",
            "ok.vulkan.t0.heat.png",
            "gather______x_.webgl2.t0.png",
            "gather______x_.vulkan.t0.png",
        ] {
            assert!(dir.join("img").join(f).exists(), "{f}");
            assert!(html.contains(&format!("img/{f}")), "{f}");
        }
        // Passing cases get no step command; the failing one gets one for
        // its worst pixel and one for each pixel beyond tolerance (here
        // the same one pixel).
        assert_eq!(html.matches("dxbc-dbg step").count(), 2, "{html}");
        assert!(
            html.contains("1 pixels beyond tolerance on webgl2 (es300): step commands"),
            "{html}"
        );
        assert!(
            html.contains("x&quot;.case&apos; --pixel 1,0\n</pre>"),
            "{html}"
        );
        let table = summary_table(&d);
        assert!(table.contains("1 passed, 1 failed"));
        // ok/vulkan, ok/webgl2 (n/a), gather/vulkan, gather/webgl2.
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[2].contains("n/a"), "{table}");
        assert!(
            lines[4].contains("webgl2") && lines[4].contains("FAIL"),
            "{table}"
        );
        assert!(table.contains("not applicable: ok on webgl2"), "{table}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// How a backend uploaded a block-compressed texture reaches both the
    /// summary table and the HTML report, under the case and backend.
    #[test]
    fn upload_notes_are_reported() {
        let mut rs = results();
        rs[0].backends[0].notes = vec!["BC1_UNORM uploaded compressed".into()];
        let table = summary_table(&doc(&rs, &[]));
        assert!(
            table.contains("ok on vulkan: BC1_UNORM uploaded compressed"),
            "{table}"
        );
        assert!(!table.contains("on webgl2: BC1"), "{table}");
        let dir = std::env::temp_dir().join(format!("dxbc-dbg-notes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let page = write_html(&dir, &doc(&rs, &[])).expect("writes");
        let html = std::fs::read_to_string(&page).expect("reads");
        assert!(
            html.contains("<p>On vulkan (vk450): BC1_UNORM uploaded compressed</p>"),
            "{html}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
