//! What a run tells people and CI: a text summary table, an HTML report in
//! a directory (summary table; per case the GPU | CPU | heat-map picture,
//! error statistics, failure reasons and, for a failing case, the
//! `dxbc-dbg step` command for its worst pixel) and JUnit XML.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::diff::{Diff, heat_map, preview, side_by_side, write_png};
use super::suite::CaseResult;

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

/// The largest error over a case's render targets: (max abs, max ulp).
fn max_error(r: &CaseResult) -> (f64, u64) {
    r.targets.iter().fold((0.0, 0), |(a, u), t| {
        (a.max(t.diff.max_abs), u.max(t.diff.max_ulp))
    })
}

fn fmt_ulp(u: u64) -> String {
    if u == u64::MAX {
        "inf".into()
    } else {
        u.to_string()
    }
}

/// A plain-text table: one line per case.
pub fn summary_table(results: &[CaseResult]) -> String {
    let width = results
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut s = format!(
        "{:<width$}  {:<6}  {:>9}  {:>9}  {:>11}  {:>10}  worst\n",
        "case", "result", "gpu ms", "cpu ms", "max abs", "max ulp"
    );
    for r in results {
        let (abs, ulp) = max_error(r);
        let worst = r
            .worst_pixel()
            .map_or("-".to_string(), |(x, y)| format!("{x},{y}"));
        let _ = writeln!(
            s,
            "{:<width$}  {:<6}  {:>9}  {:>9}  {:>11.3e}  {:>10}  {worst}",
            r.name,
            if r.passed() { "pass" } else { "FAIL" },
            ms(r.gpu_ms),
            ms(r.cpu_ms),
            abs,
            fmt_ulp(ulp),
        );
    }
    let failed = results.iter().filter(|r| !r.passed()).count();
    let _ = writeln!(s, "{} passed, {} failed", results.len() - failed, failed);
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

fn stats_rows(label: &str, d: &Diff) -> String {
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

/// Writes `index.html` and its pictures into `dir`; returns the page's path.
pub fn write_html(dir: &Path, results: &[CaseResult], adapter: &str) -> Result<PathBuf, String> {
    let img_dir = dir.join("img");
    std::fs::create_dir_all(&img_dir)
        .map_err(|e| format!("{}: cannot create: {e}", img_dir.display()))?;
    let failed = results.iter().filter(|r| !r.passed()).count();
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>dxbc-dbg diff report</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em}\ntable{border-collapse:collapse;margin:.5em 0}\ntd,th{border:1px solid #bbb;padding:.2em .5em;text-align:left}\n.pass{color:#060}.fail{color:#b00;font-weight:bold}\nimg{image-rendering:pixelated;border:1px solid #888}\ncode{background:#eee;padding:.1em .3em}\n</style>\n</head>\n<body>\n");
    let _ = writeln!(
        h,
        "<h1>dxbc-dbg diff report</h1>\n<p>{} cases: {} passed, {} failed. GPU adapter: {}.</p>",
        results.len(),
        results.len() - failed,
        failed,
        escape(adapter)
    );
    h.push_str("<h2>Summary</h2>\n<table>\n<tr><th>case</th><th>result</th><th>GPU ms</th><th>CPU ms</th><th>max abs</th><th>max ulp</th><th>worst pixel</th></tr>\n");
    for r in results {
        let (abs, ulp) = max_error(r);
        let worst = r
            .worst_pixel()
            .map_or("-".to_string(), |(x, y)| format!("{x}, {y}"));
        let _ = writeln!(
            h,
            "<tr><td><a href=\"#{}\">{}</a></td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{:.3e}</td><td>{}</td><td>{}</td></tr>",
            slug(&r.name),
            escape(&r.name),
            if r.passed() { "pass" } else { "fail" },
            if r.passed() { "pass" } else { "FAIL" },
            ms(r.gpu_ms),
            ms(r.cpu_ms),
            abs,
            fmt_ulp(ulp),
            worst
        );
    }
    h.push_str("</table>\n");
    for r in results {
        let id = slug(&r.name);
        let _ = writeln!(
            h,
            "<h2 id=\"{id}\">{} <span class=\"{}\">{}</span></h2>\n<p>{}</p>",
            escape(&r.name),
            if r.passed() { "pass" } else { "fail" },
            if r.passed() { "pass" } else { "FAIL" },
            escape(&r.path.display().to_string())
        );
        if !r.failures.is_empty() {
            h.push_str("<ul>\n");
            for f in &r.failures {
                let _ = writeln!(h, "<li><pre>{}</pre></li>", escape(f));
            }
            h.push_str("</ul>\n");
            if let Some(cmd) = r.step_command() {
                let _ = writeln!(
                    h,
                    "<p>Step the worst pixel: <code>{}</code></p>",
                    escape(&cmd)
                );
            }
        }
        for t in &r.targets {
            let sbs_name = format!("{id}.t{}.png", t.index);
            let heat_name = format!("{id}.t{}.heat.png", t.index);
            let heat = heat_map(&t.diff);
            let sbs = side_by_side(&[&preview(&t.gpu), &preview(&t.cpu), &heat]);
            write_png(&sbs, &img_dir.join(&sbs_name))?;
            write_png(&side_by_side(&[&heat]), &img_dir.join(&heat_name))?;
            let _ = writeln!(
                h,
                "<h3>SV_Target{}</h3>\n<p>GPU | CPU | heat map (black: identical; blue: within tolerance; red to yellow: beyond it)</p>\n<p><img src=\"img/{}\" alt=\"GPU, CPU and heat map of {} target {}\"></p>\n<p><a href=\"img/{}\">heat map alone</a></p>",
                t.index,
                escape(&sbs_name),
                escape(&r.name),
                t.index,
                escape(&heat_name)
            );
            h.push_str("<table>\n<tr><th>compared</th><th>result</th><th>failing pixels</th><th>max abs</th><th>max ulp</th><th>mean abs</th><th>non-finite</th><th>worst pixel</th></tr>\n");
            h.push_str(&stats_rows("GPU vs CPU", &t.diff));
            if let Some(d) = &t.golden_gpu {
                h.push_str(&stats_rows("GPU vs golden", d));
            }
            if let Some(d) = &t.golden_cpu {
                h.push_str(&stats_rows("CPU vs golden", d));
            }
            h.push_str("</table>\n");
            let _ = writeln!(
                h,
                "<p>Tolerance: abs {}, ulp {}. Frame time: GPU {} ms, CPU {} ms.</p>",
                t.diff.tolerance.abs,
                t.diff.tolerance.ulp,
                ms(r.gpu_ms),
                ms(r.cpu_ms)
            );
        }
    }
    h.push_str("</body>\n</html>\n");
    let page = dir.join("index.html");
    std::fs::write(&page, h).map_err(|e| format!("{}: cannot write: {e}", page.display()))?;
    Ok(page)
}

/// JUnit XML: one `testcase` per case; a failing case carries its reasons
/// and the step command in a `failure` element.
pub fn junit(results: &[CaseResult]) -> String {
    let failed = results.iter().filter(|r| !r.passed()).count();
    let secs = |r: &CaseResult| (r.gpu_ms.unwrap_or(0.0) + r.cpu_ms.unwrap_or(0.0)) / 1000.0;
    let total: f64 = results.iter().map(secs).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites tests=\"{}\" failures=\"{failed}\" time=\"{total:.3}\">\n  <testsuite name=\"dxbc-dbg diff\" tests=\"{}\" failures=\"{failed}\" errors=\"0\" time=\"{total:.3}\">",
        results.len(),
        results.len()
    );
    for r in results {
        let _ = write!(
            x,
            "    <testcase classname=\"dxbc-dbg.diff\" name=\"{}\" file=\"{}\" time=\"{:.3}\"",
            escape(&r.name),
            escape(&r.path.display().to_string()),
            secs(r)
        );
        if r.passed() {
            x.push_str("/>\n");
            continue;
        }
        x.push_str(">\n");
        let mut body = r.failures.join("\n");
        if let Some(cmd) = r.step_command() {
            body.push_str("\nstep the worst pixel: ");
            body.push_str(&cmd);
        }
        let _ = writeln!(
            x,
            "      <failure message=\"{}\">{}</failure>\n    </testcase>",
            escape(r.failures.first().map(String::as_str).unwrap_or("failed")),
            escape(&body)
        );
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::case::Tolerance;
    use crate::harness::diff::diff;
    use crate::harness::image::Image;
    use crate::harness::suite::TargetResult;

    fn results() -> Vec<CaseResult> {
        let a = Image::new(2, 2);
        let mut b = a.clone();
        b.set(1, 0, [0.5, 0.0, 0.0, 0.0]);
        let target = |g: &Image, c: &Image| TargetResult {
            index: 0,
            gpu: g.clone(),
            cpu: c.clone(),
            diff: diff(g, c, &Tolerance::default()),
            golden_gpu: None,
            golden_cpu: None,
        };
        vec![
            CaseResult {
                path: PathBuf::from("tests/cases/ok.case"),
                name: "ok".into(),
                shader: PathBuf::from("tests/cases/ok.case"),
                failures: vec![],
                gpu_ms: Some(1.0),
                cpu_ms: Some(2.0),
                targets: vec![target(&a, &a)],
                blessed: vec![],
            },
            CaseResult {
                path: PathBuf::from("tests/cases/gather <&> \"x\".case"),
                name: "gather <&> \"x\"".into(),
                shader: PathBuf::from("shaders/g.asm"),
                failures: vec!["SV_Target0: 1 of 4 pixels differ <here>".into()],
                gpu_ms: Some(1.5),
                cpu_ms: Some(3.0),
                targets: vec![target(&b, &a)],
                blessed: vec![],
            },
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
        let x = junit(&results());
        assert!(balanced(&x), "{x}");
        assert!(x.contains("tests=\"2\" failures=\"1\""));
        assert!(x.contains("<testcase classname=\"dxbc-dbg.diff\" name=\"ok\""));
        assert!(x.contains("name=\"gather &lt;&amp;&gt; &quot;x&quot;\""));
        assert!(x.contains(
            "dxbc-dbg step shaders/g.asm --case &apos;tests/cases/gather &lt;&amp;&gt; &quot;x&quot;.case&apos; --pixel 1,0"
        ), "{x}");
        assert_eq!(x.matches("<failure").count(), 1);
    }

    #[test]
    fn html_report_has_the_table_pictures_and_step_command() {
        let dir = std::env::temp_dir().join(format!("dxbc-dbg-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let page = write_html(&dir, &results(), "lavapipe").expect("writes");
        let html = std::fs::read_to_string(&page).expect("reads");
        assert!(balanced(&html), "{html}");
        assert!(html.contains("2 cases: 1 passed, 1 failed"));
        assert!(html.contains("--pixel 1,0"));
        assert!(html.contains("differ &lt;here&gt;"));
        for f in ["ok.t0.png", "ok.t0.heat.png", "gather______x_.t0.png"] {
            assert!(dir.join("img").join(f).exists(), "{f}");
            assert!(html.contains(&format!("img/{f}")), "{f}");
        }
        // Passing cases get no step command.
        assert_eq!(html.matches("dxbc-dbg step").count(), 1);
        let table = summary_table(&results());
        assert!(table.contains("1 passed, 1 failed"));
        assert!(table.lines().nth(2).unwrap_or("").contains("FAIL"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
