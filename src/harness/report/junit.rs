//! JUnit XML, written from the results document alone.

use std::fmt::Write as _;

use super::escape;
use crate::harness::results::Results;
use crate::harness::results::tally::{self, Counts, Outcome};

/// JUnit XML: one `testcase` per test of [`tally::tests`] (a case on a
/// backend through a translator, `name [backend]` or `name
/// [backend/translator]`, or a generated-case run's shader); a failing
/// one carries its reasons and the step command in a `failure` element
/// (an external translator's: the step command of its own worst pixel,
/// and its cause when known), a skipped one (not applicable, or a shader
/// not compared) is `skipped` with the reason. The attributes are
/// [`Counts`], as every output counts.
pub fn junit(doc: &Results) -> String {
    let tests = tally::tests(doc);
    let counts = Counts::of(doc);
    let secs = |t: &tally::Test| {
        let cpu = t.case.cpu_ms.unwrap_or(0.0);
        (t.backend.and_then(|b| b.ms).unwrap_or(0.0) + cpu) / 1000.0
    };
    let total: f64 = tests.iter().map(secs).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{total:.3}\">\n  <testsuite name=\"dxbc-dbg diff\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{total:.3}\">",
        counts.tests, counts.failed, counts.skipped, counts.tests, counts.failed, counts.skipped
    );
    for t in &tests {
        let _ = write!(
            x,
            "    <testcase classname=\"dxbc-dbg.diff\" name=\"{}\" file=\"{}\" time=\"{:.3}\"",
            escape(&t.name),
            escape(&t.case.path),
            secs(t)
        );
        let failures = match &t.outcome {
            Outcome::Passed => {
                x.push_str("/>\n");
                continue;
            }
            Outcome::Skipped(why) => {
                let _ = writeln!(
                    x,
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                    escape(why)
                );
                continue;
            }
            Outcome::Failed(f) => f,
        };
        x.push_str(">\n");
        let mut body = failures.join("\n");
        let step = t
            .backend
            .and_then(|b| b.step.as_ref())
            .or(t.case.step.as_ref());
        if let Some(cmd) = step {
            body.push_str("\nstep the worst pixel: ");
            body.push_str(cmd);
        }
        if let Some(cause) = t.backend.and_then(|b| b.cause.as_ref()) {
            body.push_str("\ncause: ");
            body.push_str(cause);
        }
        if let Some(r) = t.case.verdict.as_ref().and_then(|v| v.recreate.as_ref()) {
            body.push('\n');
            body.push_str(r);
        }
        if let Some(b) = t.backend.and_then(|b| b.bisect.as_ref()) {
            let [px, py] = b.pixel;
            let _ = write!(
                body,
                "\nfirst divergent instruction at pixel ({px}, {py}): {}",
                b.summary()
            );
        }
        let _ = writeln!(
            x,
            "      <failure message=\"{}\">{}</failure>\n    </testcase>",
            escape(failures.first().map(String::as_str).unwrap_or("failed")),
            escape(&body)
        );
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}
