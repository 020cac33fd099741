//! The one count of a results document that every output prints: the
//! terminal summary, the HTML report's headline, the JUnit XML's
//! attributes and the JSON document's `counts` are all written from
//! [`tests`] and [`Counts`], so no output can call passed what another
//! calls skipped.
//!
//! A case-file run (`diff`) has a test per case, backend and translator
//! (named `case [webgl2]` for dxbc-dbg's own translation, `case
//! [webgl2/hlslcc]` for an external one; a case that
//! reached no backend is one test): a backend the case is not applicable
//! to is skipped, a failure of the case's own checks fails it on every
//! backend. A generated-case run (`diff --auto`) has a test per shader,
//! judged by its verdict: agreeing shaders pass, the failing verdicts
//! fail, and shaders that were not compared — skipped (not a pixel
//! shader), refused, or not ending — are skipped.

use serde::{Deserialize, Serialize};

use super::verdict::Kind;
use super::{BackendRecord, CaseRecord, Results};

/// How one test ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// With every reason.
    Failed(Vec<String>),
    /// With why it was not compared.
    Skipped(String),
}

/// One test: a case on a backend, or a shader.
#[derive(Debug, Clone)]
pub struct Test<'a> {
    pub name: String,
    pub case: &'a CaseRecord,
    /// The backend, for a case-file run's test of a case on one.
    pub backend: Option<&'a BackendRecord>,
    pub outcome: Outcome,
}

/// Every test of the document, in its cases' order.
pub fn tests(doc: &Results) -> Vec<Test<'_>> {
    let mut out = Vec::new();
    for r in &doc.cases {
        if let Some(v) = &r.verdict {
            let outcome = if v.kind == Kind::Agree {
                Outcome::Passed
            } else if v.kind.fails() {
                let mut why = v.reasons.clone();
                for b in v.backends.iter().filter(|b| b.kind.fails()) {
                    why.push(format!("{}: {}", b.key(), b.kind.name()));
                    why.extend(b.reasons.iter().map(|x| format!("{}: {x}", b.key())));
                }
                Outcome::Failed(why)
            } else {
                let mut why = vec![v.kind.name().to_string()];
                why.extend(v.reasons.iter().cloned());
                for b in &v.backends {
                    why.extend(b.reasons.iter().map(|x| format!("{}: {x}", b.key())));
                }
                Outcome::Skipped(why.join("; "))
            };
            out.push(Test {
                name: r.name.clone(),
                case: r,
                backend: None,
                outcome,
            });
            continue;
        }
        if r.backends.is_empty() {
            out.push(Test {
                name: r.name.clone(),
                case: r,
                backend: None,
                outcome: if r.passed {
                    Outcome::Passed
                } else {
                    Outcome::Failed(r.failures.clone())
                },
            });
        }
        for b in &r.backends {
            let outcome = if let Some(why) = &b.not_applicable {
                Outcome::Skipped(why.clone())
            } else {
                let mut failures = r.case_failures.clone();
                failures.extend(b.failures.iter().cloned());
                if failures.is_empty() {
                    Outcome::Passed
                } else {
                    Outcome::Failed(failures)
                }
            };
            out.push(Test {
                name: format!("{} [{}]", r.name, b.key()),
                case: r,
                backend: Some(b),
                outcome,
            });
        }
    }
    out
}

/// The counts every output prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Cases (shaders, in a generated-case run) in the document.
    pub cases: usize,
    /// Tests: a case on a backend, or a shader.
    pub tests: usize,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Counts {
    pub fn of(doc: &Results) -> Counts {
        let tests = tests(doc);
        let count = |f: fn(&Outcome) -> bool| tests.iter().filter(|t| f(&t.outcome)).count();
        Counts {
            cases: doc.cases.len(),
            tests: tests.len(),
            passed: count(|o| matches!(o, Outcome::Passed)),
            failed: count(|o| matches!(o, Outcome::Failed(_))),
            skipped: count(|o| matches!(o, Outcome::Skipped(_))),
        }
    }

    /// The line the terminal summary and the HTML report both print:
    /// `4 tests (a case on a backend): 2 passed, 1 failed, 1 skipped`.
    pub fn line(&self, doc: &Results) -> String {
        let unit = if doc.options.auto.is_some() {
            "shaders"
        } else {
            "tests (a case on a backend)"
        };
        format!(
            "{} {unit}: {} passed, {} failed, {} skipped",
            self.tests, self.passed, self.failed, self.skipped
        )
    }
}
