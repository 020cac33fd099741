//! A run's results as data: what `diff --json` writes, what `report merge`
//! reads and joins, and what the summary table, the HTML report and the
//! JUnit XML are all written from (`harness::report`), so that a merged
//! set of slices reports exactly as one run would.
//!
//! The document holds no images: the pictures a report shows are files in
//! the report directory, named here by their path relative to it. Floats
//! that may be infinite or NaN are written as strings ([`float`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::diff::Diff;
use super::shard::Shard;
use super::suite::{BackendResult, CaseResult};

pub mod bisect;
pub mod family;
pub mod float;
mod merge;
pub(crate) mod paths;
pub mod tally;
pub mod verdict;

pub use merge::merge;
pub use paths::relative;

/// The document's format; a reader refuses any other (a change to what a
/// field means, or a field taken away, raises it).
pub const FORMAT_VERSION: u32 = 1;

/// One run's (or one merged set of slices') results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub version: u32,
    pub options: RunInfo,
    /// Each backend drawn with and its adapter or browser.
    pub renderers: Vec<RendererInfo>,
    /// How many cases the case paths and filter gave before slicing; each
    /// case's [`CaseRecord::index`] is its place among them.
    pub collected: usize,
    /// Where the report's pictures are, relative to the directory of the
    /// JSON file (set when both a report and a JSON file are written);
    /// each picture path is relative to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
    pub cases: Vec<CaseRecord>,
}

/// The options of a run that decide what its results mean: slices of one
/// run share all of them but the shard's index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The case files and directories, as given.
    pub inputs: Vec<String>,
    /// The backends drawn with, by name (empty: the emulator alone), each
    /// external translator's as `backend/translator` (`webgl2/hlslcc`)
    /// after them.
    pub backends: Vec<String>,
    pub filter: Option<String>,
    pub shard: Option<Shard>,
    /// Goldens were written rather than compared.
    pub bless: bool,
    /// Set for `diff --auto` (generated cases for shader blobs): its
    /// options, and that each case carries a [`CaseRecord::verdict`].
    /// Absent in documents of case-file runs, which read as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto: Option<verdict::AutoInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RendererInfo {
    /// The backend, and for an external translator's renderer its name
    /// after a `/` (`webgl2/hlslcc`): the key its results go by.
    pub backend: String,
    pub name: String,
}

impl RendererInfo {
    /// How a run's document records `r`.
    pub fn of(r: &dyn crate::harness::suite::Renderer) -> RendererInfo {
        RendererInfo {
            backend: crate::harness::suite::result_key(r.backend().name(), r.translator()),
            name: r.name(),
        }
    }
}

/// One case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseRecord {
    /// Its place in the collected list (before slicing); runs and merges
    /// list cases in this order.
    pub index: usize,
    pub name: String,
    pub path: String,
    /// The shader `dxbc-dbg step` takes for it.
    pub shader: String,
    pub passed: bool,
    /// Failures that belong to no backend (loading, the emulator, goldens).
    pub case_failures: Vec<String>,
    /// Every failure, a backend's prefixed with its name.
    pub failures: Vec<String>,
    /// The emulator's time, in milliseconds.
    pub cpu_ms: Option<f64>,
    /// How many render targets the emulator drew.
    pub cpu_targets: usize,
    /// The emulator's image against the golden, per render target.
    pub cpu_golden: Vec<Option<DiffFigures>>,
    pub backends: Vec<BackendRecord>,
    /// The command that steps the worst pixel, when there is one.
    pub step: Option<String>,
    /// That pixel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst_pixel: Option<[u32; 2]>,
    /// Goldens written by `--bless`.
    pub blessed: Vec<String>,
    /// The shader's verdict in a `diff --auto` run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<verdict::Verdict>,
    /// Warnings from loading the case, each naming its file and line
    /// (absent from documents without any, which read as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// What one backend did with a case, through one translator's GLSL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackendRecord {
    pub backend: String,
    /// Whose GLSL it drew: absent for dxbc-dbg's own (so documents of
    /// runs without external translators read and write as before), an
    /// external translator's name otherwise.
    #[serde(default = "built_in", skip_serializing_if = "is_built_in")]
    pub translator: String,
    /// Why an external translation failed, where known without a
    /// register capture (its compile or link log, the gap detector).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// For an external translation's failure: the command stepping its
    /// worst pixel on the emulator (the case's when it drew no image).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// The GLSL dialect it draws.
    pub dialect: String,
    pub not_applicable: Option<String>,
    /// Milliseconds to draw one frame.
    pub ms: Option<f64>,
    pub failures: Vec<String>,
    pub notes: Vec<String>,
    pub targets: Vec<TargetRecord>,
    /// The first divergent instruction at this backend's worst pixel,
    /// when the run bisected it (absent from documents of runs that did
    /// not, which read as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisect: Option<bisect::BisectRecord>,
}

/// One render target a backend drew.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetRecord {
    pub index: usize,
    /// Against the emulator's image.
    pub diff: DiffFigures,
    /// Against the golden, when the case has one.
    pub golden: Option<DiffFigures>,
    /// Backend | CPU | heat map, relative to the report directory.
    pub picture: Option<String>,
    /// The heat map alone, relative to the report directory.
    pub heat: Option<String>,
}

/// A diff's figures, without its per-pixel data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiffFigures {
    pub width: u32,
    pub height: u32,
    pub size_mismatch: bool,
    /// Pixels outside tolerance.
    pub failing: usize,
    pub pixels: usize,
    #[serde(with = "float::f64")]
    pub max_abs: f64,
    pub max_ulp: u64,
    #[serde(with = "float::f64")]
    pub mean_abs: f64,
    pub nonfinite: usize,
    pub worst: Option<WorstPixel>,
    pub tolerance_abs: f32,
    pub tolerance_ulp: u32,
    /// The pixels outside tolerance, row by row, the first
    /// [`FAILING_PIXELS_LISTED`] of them (`failing` counts them all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_pixels: Vec<[u32; 2]>,
}

/// How many failing pixels a target's record lists: every one of a 64x64
/// target, so a report can give each its step command.
pub const FAILING_PIXELS_LISTED: usize = 4096;

impl DiffFigures {
    pub fn passed(&self) -> bool {
        !self.size_mismatch && self.failing == 0
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorstPixel {
    pub x: u32,
    pub y: u32,
    /// The backend's texel (or the emulator's, against a golden).
    #[serde(with = "float::f32x4")]
    pub a: [f32; 4],
    #[serde(with = "float::f32x4")]
    pub b: [f32; 4],
    pub passes: bool,
}

impl From<&Diff> for DiffFigures {
    fn from(d: &Diff) -> Self {
        DiffFigures {
            width: d.width,
            height: d.height,
            size_mismatch: d.size_mismatch,
            failing: d.failing,
            pixels: d.pixels,
            max_abs: d.max_abs,
            max_ulp: d.max_ulp,
            mean_abs: d.mean_abs,
            nonfinite: d.nonfinite,
            worst: d.worst.as_ref().map(|w| WorstPixel {
                x: w.x,
                y: w.y,
                a: w.a,
                b: w.b,
                passes: w.passes,
            }),
            tolerance_abs: d.tolerance.abs,
            tolerance_ulp: d.tolerance.ulp,
            failing_pixels: if d.size_mismatch {
                Vec::new()
            } else {
                d.pass
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| !**p)
                    .take(FAILING_PIXELS_LISTED)
                    .map(|(i, _)| [i as u32 % d.width.max(1), i as u32 / d.width.max(1)])
                    .collect()
            },
        }
    }
}

fn built_in() -> String {
    crate::harness::translator::BUILT_IN.to_string()
}

fn is_built_in(t: &str) -> bool {
    t == crate::harness::translator::BUILT_IN
}

impl BackendRecord {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Whether it drew dxbc-dbg's own translation.
    pub fn built_in(&self) -> bool {
        is_built_in(&self.translator)
    }

    /// How tests, failures and pictures name it: `webgl2` for dxbc-dbg's
    /// own translation, `webgl2/hlslcc` for an external one.
    pub fn key(&self) -> String {
        crate::harness::suite::result_key(&self.backend, &self.translator)
    }

    /// Its name and the dialect it draws, as reports label it.
    pub fn label(&self) -> String {
        format!("{} ({})", self.key(), self.dialect)
    }

    /// The worst pixel of the first render target with pixels beyond
    /// tolerance of the emulator's (`BackendResult::failing_pixel`).
    pub fn failing_pixel(&self) -> Option<[u32; 2]> {
        self.targets.iter().find_map(|t| {
            let w = t.diff.worst.as_ref()?;
            (!t.diff.size_mismatch && !w.passes).then_some([w.x, w.y])
        })
    }

    fn from_result(b: &BackendResult, case: &CaseResult) -> Self {
        // An external translation's failure steps its own worst pixel;
        // one that drew no image, the case's.
        let step = (!b.built_in() && !b.passed() && b.not_applicable.is_none())
            .then(|| {
                let (x, y) = b.failing_pixel().or(case.worst_pixel())?;
                Some(crate::harness::suite::step_command(&case.path, x, y))
            })
            .flatten();
        BackendRecord {
            backend: b.backend.name().to_string(),
            translator: b.translator.clone(),
            cause: b.cause.clone(),
            step,
            dialect: b.backend.dialect().name().to_string(),
            not_applicable: b.not_applicable.clone(),
            ms: b.ms,
            failures: b.failures.clone(),
            notes: b.notes.clone(),
            targets: b
                .targets
                .iter()
                .map(|t| TargetRecord {
                    index: t.index,
                    diff: DiffFigures::from(&t.diff),
                    golden: t.golden.as_ref().map(DiffFigures::from),
                    picture: None,
                    heat: None,
                })
                .collect(),
            bisect: b.bisect.as_ref().map(bisect::BisectRecord::from),
        }
    }
}

impl CaseRecord {
    /// `index` is the case's place in the collected list.
    pub fn from_result(index: usize, r: &CaseResult) -> Self {
        CaseRecord {
            index,
            name: r.name.clone(),
            path: r.path.display().to_string(),
            shader: r.shader.display().to_string(),
            passed: r.passed(),
            case_failures: r.case_failures.clone(),
            failures: r.failures.clone(),
            cpu_ms: r.cpu_ms,
            cpu_targets: r.cpu.len(),
            cpu_golden: r
                .cpu_golden
                .iter()
                .map(|d| d.as_ref().map(DiffFigures::from))
                .collect(),
            backends: r
                .backends
                .iter()
                .map(|b| BackendRecord::from_result(b, r))
                .collect(),
            step: r.step_command(),
            worst_pixel: r.worst_pixel().map(|(x, y)| [x, y]),
            blessed: r.blessed.iter().map(|p| p.display().to_string()).collect(),
            verdict: None,
            warnings: r.warnings.clone(),
        }
    }
}

impl Results {
    /// The document of a run: `results[i]` is the case at `indices[i]` of
    /// the `collected` cases.
    pub fn from_run(
        options: RunInfo,
        renderers: Vec<RendererInfo>,
        collected: usize,
        indices: &[usize],
        results: &[CaseResult],
    ) -> Self {
        Results {
            version: FORMAT_VERSION,
            options,
            renderers,
            collected,
            report: None,
            cases: indices
                .iter()
                .zip(results)
                .map(|(&i, r)| CaseRecord::from_result(i, r))
                .collect(),
        }
    }

    pub fn passed(&self) -> bool {
        self.cases.iter().all(|c| c.passed)
    }

    pub fn to_json(&self) -> String {
        /// The document with the counts every other output prints
        /// ([`tally`]), so a reader of the JSON sees the same figures;
        /// they are worked out again from the cases when read.
        ///
        /// A run that drew an external translator's text also gets the
        /// table by family ([`family`]), worked out likewise.
        #[derive(Serialize)]
        struct WithCounts<'a> {
            #[serde(flatten)]
            doc: &'a Results,
            counts: tally::Counts,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            families: Vec<family::FamilyCount>,
        }
        let out = WithCounts {
            doc: self,
            counts: tally::Counts::of(self),
            families: if family::has_external(self) {
                family::counts(self)
            } else {
                Vec::new()
            },
        };
        // Every field is plain data (floats that JSON cannot carry are
        // written as strings), so this cannot fail.
        serde_json::to_string_pretty(&out).expect("results serialise") + "\n"
    }

    /// Reads a document, refusing another format version.
    pub fn from_json(text: &str) -> Result<Results, String> {
        #[derive(Deserialize)]
        struct Version {
            version: Option<u32>,
        }
        let v: Version =
            serde_json::from_str(text).map_err(|e| format!("not a results document: {e}"))?;
        match v.version {
            Some(FORMAT_VERSION) => {}
            Some(other) => {
                return Err(format!(
                    "results format version {other}; this dxbc-dbg reads version {FORMAT_VERSION}"
                ));
            }
            None => return Err("not a results document: no `version`".into()),
        }
        let doc: Results =
            serde_json::from_str(text).map_err(|e| format!("not a results document: {e}"))?;
        if let Some(a) = &doc.options.auto
            && a.version != verdict::AUTO_VERSION
        {
            return Err(format!(
                "verdict format version {}; this dxbc-dbg reads version {}",
                a.version,
                verdict::AUTO_VERSION
            ));
        }
        Ok(doc)
    }

    /// Writes the document to `path`, first pointing [`Results::report`]
    /// at `report_dir` (relative to the file's directory) when a report
    /// was written.
    pub fn write(&mut self, path: &Path, report_dir: Option<&Path>) -> Result<(), String> {
        if let Some(dir) = report_dir {
            let base = path.parent().unwrap_or(Path::new(""));
            self.report = Some(relative(dir, base)?);
        }
        std::fs::write(path, self.to_json())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))
    }

    /// Reads the document at `path`.
    pub fn read(path: &Path) -> Result<Results, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Results::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Infinite errors and NaN texels survive the round trip (JSON itself
    /// has neither), and a document of another version is refused.
    #[test]
    fn documents_round_trip_non_finite_figures_and_check_the_version() {
        let figures = DiffFigures {
            width: 2,
            height: 1,
            size_mismatch: false,
            failing: 1,
            pixels: 2,
            max_abs: f64::INFINITY,
            max_ulp: u64::MAX,
            mean_abs: 0.25,
            nonfinite: 1,
            worst: Some(WorstPixel {
                x: 1,
                y: 0,
                a: [f32::NAN, f32::NEG_INFINITY, 0.1, -0.0],
                b: [1.0, 2.0, 3.0, f32::INFINITY],
                passes: false,
            }),
            tolerance_abs: 1e-6,
            tolerance_ulp: 2,
            failing_pixels: vec![[0, 0]],
        };
        let json = serde_json::to_string(&figures).expect("serialises");
        assert!(json.contains("\"max_abs\":\"inf\""), "{json}");
        assert!(json.contains("\"a\":[\"NaN\",\"-inf\",0.1,-0.0]"), "{json}");
        let back: DiffFigures = serde_json::from_str(&json).expect("reads");
        let (w, bw) = (figures.worst.as_ref(), back.worst.as_ref());
        assert!(bw.is_some_and(|b| b.a[0].is_nan()));
        assert_eq!(
            w.map(|w| w.a[1..].iter().map(|v| v.to_bits()).collect::<Vec<_>>()),
            bw.map(|w| w.a[1..].iter().map(|v| v.to_bits()).collect::<Vec<_>>())
        );
        assert_eq!(back.max_abs, f64::INFINITY);
        assert_eq!(back.max_ulp, u64::MAX);
        assert_eq!(back.worst.map(|w| w.b), figures.worst.map(|w| w.b));

        let doc = Results {
            version: FORMAT_VERSION,
            options: RunInfo {
                inputs: vec![],
                backends: vec![],
                filter: None,
                shard: None,
                bless: false,
                auto: None,
            },
            renderers: vec![],
            collected: 0,
            report: None,
            cases: vec![],
        };
        assert_eq!(Results::from_json(&doc.to_json()), Ok(doc.clone()));
        let newer = doc
            .to_json()
            .replace(&format!("\"version\": {FORMAT_VERSION}"), "\"version\": 99");
        let e = Results::from_json(&newer).expect_err("refused");
        assert!(e.contains("results format version 99"), "{e}");
        assert!(Results::from_json("{\"cases\": []}").is_err());
    }
}
