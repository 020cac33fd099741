//! Verdicts of a `diff --auto` run as data: one per shader blob, and one
//! per backend inside it (docs/harness.md, "Generated-case runs"). The
//! counts by verdict and by reason are written from these records, so a
//! merged set of slices counts exactly as one run would.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{Results, WorstPixel};

/// The version of the verdict fields; a reader refuses another.
pub const AUTO_VERSION: u32 = 1;

/// What decided a `diff --auto` run's cases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoInfo {
    pub version: u32,
    /// Seed of the generated values.
    pub seed: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Bit-exact, or within the tolerance derived for the instructions.
    Agree,
    /// Pixels outside the tolerance.
    Differ,
    /// No case (generation refused), or the backend cannot draw it (its
    /// translation refused, or a `[require]` it lacks).
    Refused,
    /// The emulator could not draw the case.
    EmulatorError,
    /// The emulator ran past its instruction budget.
    DoesNotEnd,
    /// The backend failed to draw a case it translated (a link or draw
    /// failure), or drew something other than the images asked for.
    BackendError,
    /// Not a pixel shader: not drawn alone.
    Skipped,
}

impl BackendVerdict {
    /// `webgl2`, or `webgl2/hlslcc` for an external translator's text.
    pub fn key(&self) -> String {
        crate::harness::suite::result_key(&self.backend, &self.translator)
    }
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Agree,
        Kind::Differ,
        Kind::Refused,
        Kind::EmulatorError,
        Kind::DoesNotEnd,
        Kind::BackendError,
        Kind::Skipped,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Agree => "agree",
            Kind::Differ => "differ",
            Kind::Refused => "refused",
            Kind::EmulatorError => "emulator error",
            Kind::DoesNotEnd => "does not end",
            Kind::BackendError => "backend error",
            Kind::Skipped => "skipped",
        }
    }

    /// Whether a run with this verdict fails (`diff --auto` exits 1).
    pub fn fails(self) -> bool {
        matches!(
            self,
            Kind::Differ | Kind::EmulatorError | Kind::BackendError
        )
    }
}

/// One shader's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub kind: Kind,
    /// Why, for the kinds that have a reason (counted by it): refusal
    /// reasons, the emulator's error, the skipped shader's stage.
    pub reasons: Vec<String>,
    /// An emulator error that is not one of its documented refusals (an
    /// instruction it does not run): a bug to fix.
    #[serde(default)]
    pub bug: bool,
    pub backends: Vec<BackendVerdict>,
    /// The blob the case was generated from.
    pub blob: String,
    /// What D3D11 leaves open for the shader (no tolerance covers it).
    pub open: Vec<String>,
    /// The derived tolerance.
    pub tolerance_abs: f32,
    pub tolerance_ulp: u32,
    /// Commands that recreate the case and step its worst pixel, when it
    /// differs and was not written.
    pub recreate: Option<String>,
}

/// One backend's verdict on one shader, through one translator's GLSL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackendVerdict {
    pub backend: String,
    /// Whose GLSL it drew: absent for dxbc-dbg's own, as in documents
    /// written before external translators.
    #[serde(
        default = "super::built_in",
        skip_serializing_if = "super::is_built_in"
    )]
    pub translator: String,
    pub kind: Kind,
    pub reasons: Vec<String>,
    /// Pixels outside the tolerance, over every render target.
    pub failing: usize,
    #[serde(with = "super::float::f64")]
    pub max_abs: f64,
    pub max_ulp: u64,
    pub worst: Option<WorstPixel>,
}

/// The counts of a `diff --auto` document: per verdict, per backend and
/// verdict, and per reason within each verdict.
pub fn summary(doc: &Results) -> String {
    let verdicts: Vec<&Verdict> = doc
        .cases
        .iter()
        .filter_map(|c| c.verdict.as_ref())
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "{} shaders", verdicts.len());
    // A column per backend and translator (`webgl2/hlslcc`), as wide as
    // its name.
    let mut backends: Vec<String> = Vec::new();
    for v in &verdicts {
        for b in &v.backends {
            let key = b.key();
            if !backends.contains(&key) {
                backends.push(key);
            }
        }
    }
    let _ = write!(s, "{:<16} {:>7}", "verdict", "shaders");
    for b in &backends {
        let _ = write!(s, " {b:>8}");
    }
    s.push('\n');
    for kind in Kind::ALL {
        let _ = write!(
            s,
            "{:<16} {:>7}",
            kind.name(),
            verdicts.iter().filter(|v| v.kind == kind).count()
        );
        for b in &backends {
            let n = verdicts
                .iter()
                .flat_map(|v| &v.backends)
                .filter(|x| x.key() == *b && x.kind == kind)
                .count();
            let _ = write!(s, " {n:>w$}", w = b.len().max(8));
        }
        s.push('\n');
    }
    // Reasons: the shader's own, and each backend's refusals.
    let mut reasons: BTreeMap<(Kind, String), usize> = BTreeMap::new();
    for v in &verdicts {
        for r in &v.reasons {
            *reasons.entry((v.kind, r.clone())).or_default() += 1;
        }
        for b in &v.backends {
            for r in &b.reasons {
                *reasons
                    .entry((b.kind, format!("{}: {r}", b.key())))
                    .or_default() += 1;
            }
        }
    }
    if !reasons.is_empty() {
        s.push_str("by reason:\n");
        for ((kind, reason), n) in &reasons {
            let _ = writeln!(s, "  {:<14} {n:>5}  {reason}", kind.name());
        }
    }
    // With external translators, the table by family too.
    if super::family::has_external(doc) {
        s.push_str(&super::family::table(doc));
    }
    let _ = writeln!(s, "{}", super::tally::Counts::of(doc).line(doc));
    s
}

/// Each differing shader: per backend, the pixels outside tolerance, the
/// largest errors and the worst pixel, then how to step it.
pub fn differ_list(doc: &Results) -> String {
    let mut s = String::new();
    for c in &doc.cases {
        let Some(v) = c.verdict.as_ref().filter(|v| v.kind == Kind::Differ) else {
            continue;
        };
        let _ = writeln!(
            s,
            "\n{} differs (tolerance abs {}, ulp {}):",
            c.name, v.tolerance_abs, v.tolerance_ulp
        );
        for b in v.backends.iter().filter(|b| b.kind == Kind::Differ) {
            let worst = b.worst.as_ref().map_or(String::new(), |w| {
                format!(
                    ", worst ({}, {}): {:?} vs emulator {:?}",
                    w.x, w.y, w.a, w.b
                )
            });
            let _ = writeln!(
                s,
                "  {}: {} pixels, max abs {}, max ulp {}{worst}",
                b.key(),
                b.failing,
                b.max_abs,
                b.max_ulp
            );
        }
        for o in &v.open {
            let _ = writeln!(s, "  left open by D3D11: {o}");
        }
        match (&v.recreate, &c.step) {
            (Some(r), _) => {
                let _ = writeln!(s, "  {r}");
            }
            (None, Some(step)) => {
                let _ = writeln!(s, "  step the worst pixel: {step}");
            }
            (None, None) => {}
        }
        // An external translator's failure at its own worst pixel.
        for b in c.backends.iter().filter(|b| !b.built_in()) {
            if let Some(step) = &b.step {
                let _ = writeln!(s, "  step {}'s worst pixel: {step}", b.key());
            }
            if let Some(cause) = &b.cause {
                let _ = writeln!(s, "  {} cause: {}", b.key(), cause.replace('\n', "; "));
            }
        }
    }
    s
}
