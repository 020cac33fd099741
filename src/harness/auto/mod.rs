//! `diff --auto`: verdicts for real shaders with generated cases
//! (docs/harness.md, "Generated-case runs"). Each pixel shader blob gets a
//! case from [`generate::case_text`] with a `[tolerance]` derived from its
//! instructions ([`tolerance::derive`]); the text is parsed by the ordinary
//! case parser and drawn through [`suite::run_parsed`], the path `diff`
//! draws case files through. Each shader then gets a verdict, and each
//! backend one inside it ([`results::verdict`]).

use super::generate::tolerance;
use std::path::{Path, PathBuf};

use super::case::Case;
use super::cpu::CpuError;
use super::generate::{self, ShaderInput, paths};
use super::progress::Progress;
use super::results::verdict::{AUTO_VERSION, AutoInfo, BackendVerdict, Kind, Verdict};
use super::results::{self, CaseRecord, RendererInfo, Results, RunInfo, WorstPixel};
use super::shard::Shard;
use super::suite::{self, BackendResult, CaseResult, Renderer, RunOptions};
use crate::dxbc::ir::ProgramType;
use crate::dxbc::{ParseOptions, Shader};
use crate::glsl;
use crate::vm::VmError;

pub mod inputs;

pub use inputs::{Blob, collect};

/// What a `diff --auto` run is told besides the backends.
#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    /// Write each generated case here (named after its blob) and draw it
    /// from there; `None`: the case is drawn as text, beside its blob.
    pub write_cases: Option<PathBuf>,
    /// Without `write_cases`: write here the case of each drawn shader
    /// that does not agree (the report folder's `cases/`), so the step
    /// commands the outputs print name a file that exists. `None`: those
    /// shaders get a command that regenerates their case instead.
    pub failing_cases: Option<PathBuf>,
    pub run: RunOptions,
}

/// A finished run: the document, and the drawn cases' full results (with
/// their images, for a report's pictures) by their place in it.
pub struct Run {
    pub doc: Results,
    pub drawn: Vec<(usize, CaseResult)>,
}

/// A blob made ready: a case to draw, or why none is drawn.
enum Prepared {
    Case {
        case: Box<Case>,
        shader: Box<Shader>,
        derived: tolerance::Derived,
    },
    /// No case: the verdict is settled without drawing.
    Settled(Verdict),
}

fn settled(blob: &Blob, kind: Kind, reason: String, bug: bool) -> Prepared {
    Prepared::Settled(Verdict {
        kind,
        reasons: vec![reason],
        bug,
        backends: Vec::new(),
        blob: blob.path.display().to_string(),
        open: Vec::new(),
        tolerance_abs: 0.0,
        tolerance_ulp: 0,
        recreate: None,
    })
}

/// Where a blob's case is written (or, not written, where it is taken to
/// be: beside the blob, so it names the blob by its file name).
/// With `--write-cases`, [`run`] has checked first that every blob's path
/// here lies inside DIR (`inputs::case_files`).
pub fn case_path(blob: &Blob, write_cases: Option<&Path>) -> PathBuf {
    match write_cases {
        Some(dir) => dir.join(format!("{}.case", blob.name)),
        None => blob.path.with_extension("auto.case"),
    }
}

fn prepare(blob: &Blob, opts: &Options) -> Prepared {
    let bytes = match crate::input_file::read(&blob.path) {
        Ok(b) => b,
        Err(e) => return settled(blob, Kind::EmulatorError, format!("unreadable: {e}"), true),
    };
    let shader = match Shader::parse(
        &bytes,
        ParseOptions {
            verify_checksum: true,
        },
    ) {
        Ok(s) => s,
        Err(e) => {
            // The parser's documented refusals (an effect container, a
            // checksum that does not match): no shader to draw. The byte
            // offset and advice are left out so that reasons count alike.
            let full = e.to_string();
            let msg = full.split_once(": ").map_or(full.as_str(), |(_, m)| m);
            let msg = msg.split("; ").next().unwrap_or(msg);
            let msg = msg.split(" (use ").next().unwrap_or(msg);
            let msg = msg.split(": stored ").next().unwrap_or(msg).trim();
            return settled(
                blob,
                Kind::Refused,
                format!("the blob does not parse: {msg}"),
                false,
            );
        }
    };
    if shader.program.kind != ProgramType::Pixel {
        return settled(
            blob,
            Kind::Skipped,
            format!(
                "{} shader (only pixel shaders are drawn alone)",
                shader.program.kind.stage_name()
            ),
            false,
        );
    }
    let at = case_path(blob, opts.write_cases.as_deref());
    let dir = at.parent().unwrap_or(Path::new("")).to_path_buf();
    if opts.write_cases.is_some()
        && let Err(e) = std::fs::create_dir_all(&dir)
    {
        return settled(
            blob,
            Kind::EmulatorError,
            format!("{}: cannot create: {e}", dir.display()),
            true,
        );
    }
    let canonical = |p: &Path| {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        p.canonicalize()
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    let shader_line = canonical(&dir).and_then(|d| {
        let b = canonical(&blob.path)?;
        paths::case_line(&paths::relative(&d, &b)).map_err(|e| e.to_string())
    });
    let shader_line = match shader_line {
        Ok(l) => l,
        Err(e) => return settled(blob, Kind::Refused, format!("generation: {e}"), false),
    };
    let gen_opts = generate::Options {
        seed: opts.seed,
        ..generate::Options::default()
    };
    let input = ShaderInput {
        shader: &shader,
        path: &shader_line,
    };
    let text = match generate::case_text(&[input], &gen_opts) {
        Ok(t) => t,
        Err(r) => {
            return settled(
                blob,
                Kind::Refused,
                format!("generation: {}", r.reason),
                false,
            );
        }
    };
    // The text holds the `[tolerance]` `case new` writes; the same
    // derivation gives its figures (and causes) for the verdict.
    let derived = tolerance::for_generated(&[&shader], &text);
    let case = match Case::parse(&text, &at) {
        Ok(c) => c,
        Err(e) => {
            return settled(
                blob,
                Kind::EmulatorError,
                format!("the generated case does not parse: {e}"),
                true,
            );
        }
    };
    if opts.write_cases.is_some()
        && let Err(e) = std::fs::write(&at, &text)
    {
        return settled(
            blob,
            Kind::EmulatorError,
            format!("{}: cannot write: {e}", at.display()),
            true,
        );
    }
    Prepared::Case {
        case: Box::new(case),
        shader: Box::new(shader),
        derived,
    }
}

/// The blobs of one slice (all without a shard), each with its place.
pub fn slice(blobs: &[Blob], shard: Option<Shard>) -> Vec<(usize, Blob)> {
    blobs
        .iter()
        .enumerate()
        .filter(|(_, b)| shard.is_none_or(|s| s.contains(&b.name)))
        .map(|(i, b)| (i, b.clone()))
        .collect()
}

/// Runs `blobs` (the slice, with their places among `collected`) on the
/// renderers. `info` is the run's options as the document records them
/// (its `auto` is set here).
pub fn run(
    blobs: &[(usize, Blob)],
    collected: usize,
    renderers: &[&dyn Renderer],
    opts: &Options,
    mut info: RunInfo,
    progress: &dyn Progress,
) -> Result<Run, String> {
    info.auto = Some(AutoInfo {
        version: AUTO_VERSION,
        seed: opts.seed,
    });
    // Every case file stays under --write-cases DIR, one blob a file:
    // checked for the whole slice before anything is written.
    if let Some(dir) = &opts.write_cases {
        let listed: Vec<Blob> = blobs.iter().map(|(_, b)| b.clone()).collect();
        inputs::case_files(&listed, dir)?;
    }
    progress.stage("generating cases", blobs.len());
    let prepared: Vec<Prepared> = blobs
        .iter()
        .map(|(_, b)| {
            let p = prepare(b, opts);
            progress.advance(1, &b.name);
            p
        })
        .collect();
    let mut to_draw = Vec::new();
    for (p, (_, b)) in prepared.iter().zip(blobs) {
        if let Prepared::Case { case, .. } = p {
            to_draw.push(((**case).clone(), b.name.clone()));
        }
    }
    let mut drawn_results = suite::run_parsed(to_draw, renderers, &opts.run, progress).into_iter();
    let mut cases = Vec::new();
    let mut drawn = Vec::new();
    for (p, (index, blob)) in prepared.into_iter().zip(blobs) {
        match p {
            Prepared::Settled(v) => cases.push(settled_record(*index, blob, v)),
            Prepared::Case {
                shader, derived, ..
            } => {
                let r = drawn_results
                    .next()
                    .expect("run_parsed gives one result per case");
                let v = verdict(blob, &r, &shader, &derived);
                let mut rec = CaseRecord::from_result(*index, &r);
                rec.passed = !v.kind.fails();
                rec.verdict = Some(v);
                name_an_existing_case(&mut rec, blob, opts);
                drawn.push((cases.len(), r));
                cases.push(rec);
            }
        }
    }
    let renderers = renderers.iter().map(|r| RendererInfo::of(*r)).collect();
    Ok(Run {
        doc: Results {
            version: results::FORMAT_VERSION,
            options: info,
            renderers,
            collected,
            report: None,
            cases,
        },
        drawn,
    })
}

fn settled_record(index: usize, blob: &Blob, v: Verdict) -> CaseRecord {
    CaseRecord {
        index,
        name: blob.name.clone(),
        path: blob.path.display().to_string(),
        shader: blob.path.display().to_string(),
        passed: !v.kind.fails(),
        case_failures: if v.kind.fails() {
            v.reasons.clone()
        } else {
            Vec::new()
        },
        failures: if v.kind.fails() {
            v.reasons.clone()
        } else {
            Vec::new()
        },
        cpu_ms: None,
        cpu_targets: 0,
        cpu_golden: Vec::new(),
        backends: Vec::new(),
        step: None,
        worst_pixel: None,
        blessed: Vec::new(),
        verdict: Some(v),
        warnings: Vec::new(),
    }
}

/// The emulator's error as a reason, and whether it is a bug (anything
/// but an instruction the emulator documents it does not run).
fn emulator_reason(e: &CpuError) -> (String, bool) {
    let vm = match e {
        CpuError::Pixel { source, .. }
        | CpuError::Vertex { source, .. }
        | CpuError::Program { source, .. } => Some(source),
        _ => None,
    };
    match vm {
        Some(VmError::Unsupported { mnemonic, .. }) => {
            (format!("the emulator does not run `{mnemonic}`"), false)
        }
        Some(VmError::Malformed { .. }) => ("malformed program".into(), true),
        Some(VmError::Operand { .. }) => ("bad operand".into(), true),
        Some(VmError::Budget { .. }) => ("does not end".into(), false),
        None => match e {
            CpuError::Targets(_) => ("render targets".into(), true),
            _ => ("setup".into(), true),
        },
    }
}

fn backend_verdict(b: &BackendResult, shader: &Shader) -> BackendVerdict {
    let mut v = BackendVerdict {
        backend: b.backend.name().to_string(),
        translator: b.translator.clone(),
        kind: Kind::Agree,
        reasons: Vec::new(),
        failing: 0,
        max_abs: 0.0,
        max_ulp: 0,
        worst: None,
    };
    let mut worst_abs = -1.0f64;
    for t in &b.targets {
        v.failing += t.diff.failing;
        v.max_abs = v.max_abs.max(t.diff.max_abs);
        v.max_ulp = v.max_ulp.max(t.diff.max_ulp);
        if let Some(w) = &t.diff.worst {
            let m = w.error.iter().map(|e| e.abs).fold(0.0f64, f64::max);
            let better = v.worst.as_ref().is_none_or(|old: &WorstPixel| {
                (old.passes && !w.passes) || (old.passes == w.passes && m > worst_abs)
            });
            if better {
                worst_abs = m;
                v.worst = Some(WorstPixel {
                    x: w.x,
                    y: w.y,
                    a: w.a,
                    b: w.b,
                    passes: w.passes,
                });
            }
        }
    }
    if let Some(na) = &b.not_applicable {
        v.kind = Kind::Refused;
        v.reasons
            .push(na.split(':').next().unwrap_or(na).trim().to_string());
        return v;
    }
    if b.failures.is_empty() {
        return v;
    }
    // dxbc-dbg's own refusals are counted by reason; an external
    // translator's failure to translate is a backend error with its text.
    if b.built_in()
        && b.failures
            .iter()
            .any(|f| f.contains("cannot be translated"))
    {
        v.kind = Kind::Refused;
        let mut o = glsl::Options::new(b.backend.dialect());
        o.dialect = b.backend.dialect();
        match glsl::translate(shader, &o) {
            Err(refused) => {
                for d in refused.diagnostics {
                    let name = format!("translation: {}", d.reason.name());
                    if !v.reasons.contains(&name) {
                        v.reasons.push(name);
                    }
                }
            }
            Ok(_) => v.reasons.push("translation (of the case's shaders)".into()),
        }
        return v;
    }
    if b.failures.iter().any(|f| f.contains("does not end")) {
        v.kind = Kind::DoesNotEnd;
        return v;
    }
    if b.targets
        .iter()
        .any(|t| t.diff.failing > 0 || t.diff.size_mismatch)
    {
        v.kind = Kind::Differ;
        return v;
    }
    v.kind = Kind::BackendError;
    // The first line, without the case's path (the reason is counted).
    let first = b.failures[0].lines().next().unwrap_or("").to_string();
    let short = first
        .split_once(".case: ")
        .map_or(first.as_str(), |(_, rest)| rest);
    v.reasons.push(short.chars().take(100).collect());
    v
}

fn verdict(blob: &Blob, r: &CaseResult, shader: &Shader, derived: &tolerance::Derived) -> Verdict {
    let mut v = Verdict {
        kind: Kind::Agree,
        reasons: Vec::new(),
        bug: false,
        backends: r
            .backends
            .iter()
            .map(|b| backend_verdict(b, shader))
            .collect(),
        blob: blob.path.display().to_string(),
        open: derived.open.clone(),
        tolerance_abs: derived.abs,
        tolerance_ulp: derived.ulp,
        recreate: None,
    };
    if let Some(e) = &r.cpu_error {
        let (reason, bug) = emulator_reason(e);
        v.kind = if e.does_not_end() {
            Kind::DoesNotEnd
        } else {
            Kind::EmulatorError
        };
        v.reasons.push(reason);
        v.bug = bug;
        return v;
    }
    if !r.case_failures.is_empty() {
        // The case did not load or check: the generator wrote a case the
        // ordinary checks refuse.
        v.kind = Kind::EmulatorError;
        v.bug = true;
        let first = r.case_failures[0].lines().next().unwrap_or("");
        let short = first.split_once(".case").map_or(first, |(_, rest)| rest);
        v.reasons
            .push(format!("the generated case does not load{short}"));
        return v;
    }
    let has = |k: Kind| v.backends.iter().any(|b| b.kind == k);
    v.kind = if has(Kind::Differ) {
        Kind::Differ
    } else if has(Kind::BackendError) {
        Kind::BackendError
    } else if has(Kind::DoesNotEnd) {
        Kind::DoesNotEnd
    } else if !v.backends.is_empty() && v.backends.iter().all(|b| b.kind == Kind::Refused) {
        Kind::Refused
    } else {
        Kind::Agree
    };
    v
}

/// Leaves `rec`'s commands naming a case that exists. A case written by
/// `--write-cases` is where its record says. Otherwise the case of a
/// shader that does not agree is written into `failing_cases` (and the
/// record pointed at it) when there is such a place; failing that, its
/// step command is dropped and `recreate` says how to write the case and
/// step it. An agreeing shader's unwritten case is named by no command.
fn name_an_existing_case(rec: &mut CaseRecord, blob: &Blob, opts: &Options) {
    if opts.write_cases.is_some() {
        return;
    }
    let Some(v) = rec.verdict.as_mut() else {
        return;
    };
    let worst = v
        .backends
        .iter()
        .filter(|b| b.kind != Kind::Agree)
        .find_map(|b| b.worst.as_ref())
        .map(|w| (w.x, w.y))
        .or(rec.worst_pixel.map(|[x, y]| (x, y)));
    if v.kind != Kind::Agree
        && let Some(dir) = &opts.failing_cases
    {
        let again = Options {
            write_cases: Some(dir.clone()),
            failing_cases: None,
            ..opts.clone()
        };
        // The same seed gives the same case: only its shader line, now
        // relative to `dir`, differs from the one drawn.
        if let Prepared::Case { .. } = prepare(blob, &again) {
            let at = case_path(blob, Some(dir));
            rec.path = at.display().to_string();
            rec.step = worst.map(|(x, y)| suite::step_command(&at, x, y));
            // An external translator's step names the same case, at its
            // own pixel.
            for b in &mut rec.backends {
                b.step = b.step.take().and_then(|_| {
                    let [x, y] = b.failing_pixel().or(worst.map(|(x, y)| [x, y]))?;
                    Some(suite::step_command(&at, x, y))
                });
            }
            v.recreate = None;
            return;
        }
    }
    rec.step = None;
    for b in &mut rec.backends {
        b.step = None;
    }
    v.recreate = (v.kind != Kind::Agree).then(|| {
        let stem = blob
            .path
            .file_stem()
            .map_or_else(|| "shader".into(), |s| s.to_string_lossy().into_owned());
        let case = Path::new("auto-cases").join(format!("{stem}.case"));
        let (x, y) = worst.unwrap_or((0, 0));
        format!(
            "recreate the case and step it: dxbc-dbg diff --auto {} --seed {} --backend none \
             --write-cases auto-cases; {}",
            suite::shell_quote(&blob.path.display().to_string()),
            opts.seed,
            suite::step_command(&case, x, y)
        )
    });
}
