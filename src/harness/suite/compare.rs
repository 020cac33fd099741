//! Comparing one case's pictures once every renderer has drawn it: each
//! backend's images against the emulator's and the goldens, the probes on
//! every image, and the UAVs a backend read back against the emulator's
//! (`probe uav` lines, then the whole view in place or as a multiset).

use super::{Backend, BackendResult, CaseResult, Rendered, RunOptions, TargetResult};
use crate::harness::case::{Case, ProbeTarget};
use crate::harness::cpu::CpuError;
use crate::harness::diff::{diff, texel_within};
use crate::harness::golden;
use crate::harness::image::Image;

/// What one backend did with one case before comparing: not applicable
/// (with the reason), or drawn (or failed to).
pub(super) struct Drawn {
    pub(super) backend: Backend,
    pub(super) translator: String,
    pub(super) not_applicable: Option<String>,
    pub(super) result: Option<Result<Rendered, String>>,
}

impl Drawn {
    /// The backend's result before any comparison (its draw failure, or
    /// its time), and what it drew, for the caller to compare.
    pub(super) fn begin(self) -> (BackendResult, Option<Rendered>) {
        let built_in = self.translator == crate::harness::translator::BUILT_IN;
        let mut b = BackendResult {
            backend: self.backend,
            translator: self.translator,
            cause: None,
            not_applicable: self.not_applicable,
            ms: None,
            targets: Vec::new(),
            failures: Vec::new(),
            notes: Vec::new(),
            bisect: None,
        };
        let drawn = match self.result {
            None => None,
            Some(Err(e)) => {
                // An external translator's text that WebGL2 does not
                // compile or link: the browser's log is the cause.
                if !built_in {
                    b.cause = compile_cause(&e);
                }
                b.failures.push(e);
                None
            }
            Some(Ok(r)) => {
                b.ms = Some(r.ms);
                b.notes = r.notes.clone();
                Some(r)
            }
        };
        (b, drawn)
    }
}

/// The cause in an external translation's draw error: its compile or link
/// failure, from where the page names it (`fragment shader does not
/// compile: LOG`, `the program does not link: LOG`), or the translator's
/// own failure (`cannot bind …`, `the pixel shader's translation died of
/// SIGSEGV …`, `translator::TranslatorError`), to the end; `None` for any
/// other error.
pub(super) fn compile_cause(error: &str) -> Option<String> {
    const COMPILE: &str = " shader does not compile: ";
    const LINK: &str = "the program does not link: ";
    const BIND: &str = "cannot bind ";
    const COMMAND: &str = " shader's translation ";
    let start = if let Some(i) = error.find(COMPILE).or_else(|| error.find(COMMAND)) {
        // Back to the word before it (`vertex`, `fragment`, `the`).
        let stage = error[..i].rfind(char::is_whitespace).map_or(0, |k| k + 1);
        if error[i..].starts_with(COMMAND) {
            error[..stage.saturating_sub(1)]
                .rfind(char::is_whitespace)
                .map_or(0, |k| k + 1)
        } else {
            stage
        }
    } else if let Some(i) = error.find(LINK) {
        i
    } else {
        error.find(BIND)?
    };
    Some(error[start..].trim_end().to_string())
}

/// The emulator's images of one case, and how long they took.
pub(super) struct CpuRun {
    pub(super) ms: f64,
    pub(super) images: Result<Vec<Image>, CpuError>,
    /// `probe uav` lines the emulator's UAVs fail.
    pub(super) uav_failures: Vec<String>,
    /// The emulator's UAVs after the draw, by slot, for the backends'
    /// read-back UAVs to be diffed against.
    pub(super) uavs: Vec<Option<crate::vm::memory::Buffer>>,
    /// The `N` of the `SV_TargetN` each colour image is, in order; the
    /// depth buffer's image, when read back, follows them.
    pub(super) indices: Vec<u32>,
}

impl CpuRun {
    pub(super) fn does_not_end(&self) -> bool {
        self.images.as_ref().is_err_and(CpuError::does_not_end)
    }
}

/// The CPU image, goldens, and each backend's images against both.
pub(super) fn compare(
    result: &mut CaseResult,
    case: &Case,
    cpu: CpuRun,
    backends: Vec<Drawn>,
    options: &RunOptions,
) {
    result.cpu_ms = Some(cpu.ms);
    result.case_failures.extend(cpu.uav_failures);
    let cpu_uavs = cpu.uavs;
    let indices = cpu.indices;
    let cpu = match cpu.images {
        Ok(c) => c,
        Err(e) => {
            result.cpu_ms = None;
            result.case_failures.push(format!("CPU: {e}"));
            result.cpu_error = Some(e);
            // Nothing to compare with, but what each backend did (or why
            // it did not draw) is still part of the result.
            result
                .backends
                .extend(backends.into_iter().map(|d| d.begin().0));
            return;
        }
    };
    let tol = &case.tolerance;
    let (golden_dir, name) = golden::locate(options.goldens.as_deref(), &result.path, &result.name);
    let goldens = if case.golden && !options.bless {
        match golden::load(&golden_dir, &name, cpu.len()) {
            Ok(g) => Some(g),
            Err(e) => {
                result.case_failures.push(format!("golden: {e}"));
                None
            }
        }
    } else {
        None
    };
    if case.golden && options.bless {
        match golden::bless(&golden_dir, &name, &cpu) {
            Ok(written) => result.blessed = written,
            Err(e) => result.case_failures.push(format!("bless: {e}")),
        }
    }
    for (i, c) in cpu.iter().enumerate() {
        let gd = goldens
            .as_ref()
            .and_then(|gs| gs.get(i))
            .map(|g| diff(c, g, tol));
        if let Some(d) = gd.as_ref().filter(|d| !d.passed()) {
            result.case_failures.push(format!(
                "{}: CPU image differs from the golden at {} pixels (max abs {}, max ulp {})",
                image_name(i, &indices),
                d.failing,
                d.max_abs,
                d.max_ulp
            ));
        }
        result.cpu_golden.push(gd);
    }
    if cpu.is_empty() && !case.probes.is_empty() {
        result
            .case_failures
            .push("probes given but the shader writes no render target".into());
    }
    if !cpu.is_empty() {
        let all: Vec<&Image> = cpu.iter().collect();
        for (text, pixel) in probe_checks(case, "CPU", &all, &indices) {
            result.probe_pixel = result.probe_pixel.or(pixel);
            result.case_failures.push(text);
        }
    }
    for d in backends {
        let (mut b, drawn) = d.begin();
        if let Some(r) = drawn {
            // A backend that draws a case with UAVs reads them back (one
            // that cannot bind them reports the case n/a instead).
            // (run_all puts the backend's name before its failures.)
            b.failures.extend(uav_failures(case, "", |s| {
                r.uavs.iter().find(|(k, _)| *k == s).map(|(_, u)| u)
            }));
            b.failures.extend(uav_diff(case, &cpu_uavs, &r.uavs));
            if r.images.len() != cpu.len() {
                b.failures.push(format!(
                    "drew {} render targets, the CPU {}",
                    r.images.len(),
                    cpu.len()
                ));
            }
            for (i, (g, c)) in r.images.into_iter().zip(&cpu).enumerate() {
                let d = diff(&g, c, tol);
                if d.size_mismatch {
                    b.failures.push(format!(
                        "{}: image is {}x{}, the CPU's {}x{}",
                        image_name(i, &indices),
                        g.width,
                        g.height,
                        c.width,
                        c.height
                    ));
                } else if d.failing > 0 {
                    let w = d.worst.as_ref().map(|w| (w.x, w.y)).unwrap_or_default();
                    b.failures.push(format!(
                            "{}: {} of {} pixels differ from the CPU's beyond tolerance (abs {}, ulp {}); max abs {}, max ulp {}, worst pixel ({}, {})",
                            image_name(i, &indices),
                            d.failing, d.pixels, tol.abs, tol.ulp, d.max_abs, d.max_ulp, w.0, w.1
                        ));
                }
                let golden = goldens.as_ref().and_then(|gs| gs.get(i)).map(|gold| {
                        let gd = diff(&g, gold, tol);
                        if !gd.passed() {
                            b.failures.push(format!(
                                "{}: image differs from the golden at {} pixels (max abs {}, max ulp {})",
                                image_name(i, &indices),
                                gd.failing, gd.max_abs, gd.max_ulp
                            ));
                        }
                        gd
                    });
                b.targets.push(TargetResult {
                    index: i,
                    image: g,
                    diff: d,
                    golden,
                });
            }
            if let (Some(t), Some(c)) = (b.targets.first(), cpu.first())
                && t.image.width == c.width
                && t.image.height == c.height
            {
                let all: Vec<&Image> = b.targets.iter().map(|t| &t.image).collect();
                for (text, pixel) in probe_checks(case, &b.key(), &all, &indices) {
                    result.probe_pixel = result.probe_pixel.or(pixel);
                    b.failures.push(text);
                }
            }
        }
        result.backends.push(b);
    }
    result.cpu = cpu;
}

/// `probe uav` lines checked against one renderer's UAVs after a draw
/// (`uav` finds one by slot; `label`, when not empty, names the renderer).
pub(super) fn uav_failures<'a>(
    case: &Case,
    label: &str,
    uav: impl Fn(u32) -> Option<&'a crate::vm::memory::Buffer>,
) -> Vec<String> {
    let file = case.path.display().to_string();
    let label = if label.is_empty() {
        String::new()
    } else {
        format!("{label}: ")
    };
    let mut out = Vec::new();
    for p in &case.uav_probes {
        match uav(p.slot) {
            Some(b) => out.extend(
                crate::harness::case::uav_probe_failures(p, b)
                    .into_iter()
                    .map(|m| format!("{file}:{}: {label}u{}: {m}", p.line, p.slot)),
            ),
            None => out.push(format!(
                "{file}:{}: {label}u{} was not bound",
                p.line, p.slot
            )),
        }
    }
    out
}

/// A backend's UAVs diffed against the emulator's, like render targets but
/// exactly (they hold bits): every word in place, or, for a `[uav]` marked
/// `unordered`, the elements as a multiset; and the counter.
pub(super) fn uav_diff(
    case: &Case,
    cpu: &[Option<crate::vm::memory::Buffer>],
    backend: &[(u32, crate::vm::memory::Buffer)],
) -> Vec<String> {
    let mut out = Vec::new();
    for (slot, _) in &case.uavs {
        let Some(c) = cpu.get(*slot as usize).and_then(Option::as_ref) else {
            continue;
        };
        let Some((_, g)) = backend.iter().find(|(k, _)| k == slot) else {
            out.push(format!("u{slot} was not read back"));
            continue;
        };
        if g.words.len() != c.words.len() {
            out.push(format!(
                "u{slot} has {} words, the CPU's {}",
                g.words.len(),
                c.words.len()
            ));
            continue;
        }
        if case.unordered_uavs.contains(slot) {
            let per = c.layout.words_per_element().max(1) as usize;
            fn sorted(b: &crate::vm::memory::Buffer, per: usize) -> Vec<&[u32]> {
                let mut e: Vec<&[u32]> = b.words.chunks(per).collect();
                e.sort_unstable();
                e
            }
            let (ge, ce) = (sorted(g, per), sorted(c, per));
            let differ = ge.iter().zip(&ce).filter(|(a, b)| a != b).count();
            if differ > 0 {
                out.push(format!(
                    "u{slot} (unordered): its elements, sorted, differ from the CPU's sorted \
                     elements at {differ} of {} places",
                    ce.len()
                ));
            }
        } else {
            let differ: Vec<usize> = (0..c.words.len())
                .filter(|&i| g.words[i] != c.words[i])
                .collect();
            if let Some(&i) = differ.first() {
                out.push(format!(
                    "u{slot}: {} of {} words differ from the CPU's; first word {i}: {:#x}, the CPU's {:#x}",
                    differ.len(),
                    c.words.len(),
                    g.words[i],
                    c.words[i]
                ));
            }
        }
        if g.counter != c.counter {
            out.push(format!(
                "u{slot}: counter {}, the CPU's {}",
                g.counter, c.counter
            ));
        }
    }
    out
}

/// What the `i`-th image of a draw is: `SV_TargetN` for the colour
/// targets (`indices`), then the depth buffer.
pub(super) fn image_name(i: usize, indices: &[u32]) -> String {
    match indices.get(i) {
        Some(n) => format!("SV_Target{n}"),
        None => "depth buffer".into(),
    }
}

/// Probes checked against one renderer's images (`label` names it in the
/// message): `images` are the colour targets in the order of `indices`
/// (their `SV_TargetN`), then the depth buffer's when the case reads it.
/// Each failure comes with the pixel found wrong when the probe could be
/// read (where `dxbc-dbg step` should look).
pub(super) fn probe_checks(
    case: &Case,
    label: &str,
    images: &[&Image],
    indices: &[u32],
) -> Vec<(String, Option<(u32, u32)>)> {
    let mut out = Vec::new();
    let file = case.path.display().to_string();
    for p in &case.probes {
        let at = match p.target {
            ProbeTarget::Color(n) => indices.iter().position(|i| *i == n),
            ProbeTarget::Depth => Some(indices.len()),
        };
        let Some(img) = at.and_then(|i| images.get(i)) else {
            out.push((
                format!(
                    "{file}:{}: the probe's image ({}) was not drawn",
                    p.line,
                    match p.target {
                        ProbeTarget::Color(n) => format!("SV_Target{n}"),
                        ProbeTarget::Depth => "the depth buffer".into(),
                    }
                ),
                None,
            ));
            continue;
        };
        let [x0, y0, w, h] = p.rect;
        if w == 0 || h == 0 || x0.saturating_add(w) > img.width || y0.saturating_add(h) > img.height
        {
            out.push((
                format!(
                    "{file}:{}: probe rect ({x0}, {y0}, {w}x{h}) lies outside the {}x{} target",
                    p.line, img.width, img.height
                ),
                None,
            ));
            continue;
        }
        let bad = (y0..y0 + h)
            .flat_map(|y| (x0..x0 + w).map(move |x| (x, y)))
            .find(|&(x, y)| !texel_within(img.get(x, y), p.expected, &case.tolerance));
        if let Some((x, y)) = bad {
            out.push((
                format!(
                    "{file}:{}: probe at ({x}, {y}): {label} has {:?}, expected {:?}",
                    p.line,
                    img.get(x, y),
                    p.expected
                ),
                Some((x, y)),
            ));
        }
    }
    out
}
