//! The report's "first divergent instruction" section: per backend that
//! was bisected, the instruction, its GLSL lines, the register component
//! with both values (float and hex) or the parting of the paths, the
//! instruction's sources on both sides, and the `dxbc-dbg bisect` command
//! that makes it again; or why there is none. Every string is escaped:
//! instruction text and case names are the user's.

use std::fmt::Write as _;
use std::path::Path;

use super::escape;
use crate::harness::results::BackendRecord;
use crate::harness::results::bisect::{BisectOutcome, BisectRecord, DivergenceRecord, value};
use crate::harness::suite::bisect_command;

/// The section for a case's backends (empty when none was bisected);
/// `case` is the case's path from the report's folder.
pub(super) fn section(case: &Path, backends: &[BackendRecord]) -> String {
    let bisected: Vec<(&BackendRecord, &BisectRecord)> = backends
        .iter()
        .filter_map(|b| Some((b, b.bisect.as_ref()?)))
        .collect();
    if bisected.is_empty() {
        return String::new();
    }
    let mut h = String::from("<h3>First divergent instruction</h3>\n");
    for (b, rec) in bisected {
        h.push_str(&backend(case, b, rec));
    }
    h
}

fn backend(case: &Path, b: &BackendRecord, rec: &BisectRecord) -> String {
    let [x, y] = rec.pixel;
    let mut h = format!("<p>On {} at its worst pixel ({x}, {y})", escape(&b.label()));
    let command = match &rec.outcome {
        BisectOutcome::Compared {
            divergence: Some(d),
            emulator_steps,
            gpu_steps,
            ..
        } => {
            h.push_str(":</p>\n");
            h.push_str(&divergence(d, &b.dialect, *emulator_steps, *gpu_steps));
            true
        }
        BisectOutcome::Compared { .. } | BisectOutcome::OverLimit { .. } => {
            let _ = writeln!(h, ": {}</p>", escape(&rec.summary()));
            true
        }
        // Running it again would say the same.
        BisectOutcome::NotRun { .. } => {
            let _ = writeln!(h, ": {}</p>", escape(&rec.summary()));
            false
        }
    };
    if command {
        let _ = writeln!(
            h,
            "<p>Bisect it (from this report's folder): <code>{}</code></p>",
            escape(&bisect_command(case, x, y, &b.backend))
        );
    }
    h
}

/// `dialect` is the backend's: the lines named are of the translation
/// `glsl` prints in it.
fn divergence(
    d: &DivergenceRecord,
    dialect: &str,
    emulator_steps: usize,
    gpu_steps: usize,
) -> String {
    use crate::harness::results::bisect::Found;
    let mut h = String::from("<table>\n");
    let row = |h: &mut String, th: &str, td: String| {
        let _ = writeln!(h, "<tr><th>{th}</th><td>{td}</td></tr>");
    };
    let declaration = if matches!(d.found, Found::Input { .. }) {
        " (the input's declaration: it differs at entry)"
    } else {
        ""
    };
    row(
        &mut h,
        "instruction",
        format!("{}: <code>{}</code>{declaration}", d.index, escape(&d.text)),
    );
    row(
        &mut h,
        "step",
        d.step.map_or("at entry".into(), |k| {
            format!(
                "{k} of the pixel's path (the emulator ran {emulator_steps} steps, the GPU {gpu_steps})"
            )
        }),
    );
    row(
        &mut h,
        "GLSL lines",
        d.glsl_lines.map_or("none".into(), |[a, b]| {
            format!(
                "{a}–{b} of <code>dxbc-dbg glsl --dialect {}</code>",
                escape(dialect)
            )
        }),
    );
    match &d.found {
        Found::Input {
            register,
            component,
            emulator,
            gpu,
        }
        | Found::Value {
            register,
            component,
            emulator,
            gpu,
        } => {
            row(
                &mut h,
                "register",
                escape(&format!("{register}.{component}")),
            );
            row(&mut h, "emulator", escape(&value(*emulator)));
            row(&mut h, "GPU", escape(&value(*gpu)));
        }
        Found::Register { .. } | Found::Path { .. } => {
            row(&mut h, "difference", escape(&d.difference()));
        }
    }
    h.push_str("</table>\n");
    if !d.sources.is_empty() {
        h.push_str(
            "<table>\n<tr><th>source</th><th>register</th><th>emulator</th><th>GPU</th></tr>\n",
        );
        for s in &d.sources {
            let _ = writeln!(
                h,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&s.operand),
                escape(&s.register),
                escape(&register(s.emulator)),
                escape(&register(s.gpu))
            );
        }
        h.push_str("</table>\n");
    }
    h
}

fn register(r: Option<[u32; 4]>) -> String {
    r.map_or("not written yet".into(), |r| {
        r.iter().map(|b| value(*b)).collect::<Vec<_>>().join(", ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::results::bisect::{Found, SourceRecord};

    fn record(outcome: BisectOutcome) -> BisectRecord {
        BisectRecord {
            pixel: [2, 1],
            outcome,
        }
    }

    fn compared(divergence: Option<DivergenceRecord>) -> BisectOutcome {
        BisectOutcome::Compared {
            compared: 3,
            emulator_steps: 5,
            gpu_steps: 5,
            truncated: false,
            divergence,
        }
    }

    fn at(index: usize, text: &str, found: Found) -> DivergenceRecord {
        DivergenceRecord {
            index,
            step: Some(0),
            text: text.into(),
            glsl_lines: Some([12, 13]),
            found,
            sources: vec![SourceRecord {
                operand: "v0.xyxx".into(),
                register: "v0".into(),
                emulator: Some([0x4020_0000, 0x3fc0_0000, 0, 0]),
                gpu: None,
            }],
        }
    }

    fn vulkan(rec: BisectRecord) -> BackendRecord {
        BackendRecord {
            backend: "vulkan".into(),
            translator: "dxbc-dbg".into(),
            cause: None,
            step: None,
            dialect: "vk450".into(),
            not_applicable: None,
            ms: None,
            failures: vec!["differs".into()],
            notes: vec![],
            targets: vec![],
            bisect: Some(rec),
        }
    }

    fn html(rec: BisectRecord) -> String {
        section(Path::new("../cases/a b.case"), &[vulkan(rec)])
    }

    /// The command names the case from the report's folder, quoted.
    const COMMAND: &str =
        "<code>dxbc-dbg bisect &apos;../cases/a b.case&apos; --pixel 2,1 --backend vulkan</code>";

    #[test]
    fn a_value_shows_the_register_component_and_both_values() {
        // 2.5 is 0x40200000, 1.5 0x3fc00000 (sign 0, exponents 128 and
        // 127, mantissas .25 and .5).
        let h = html(record(compared(Some(at(
            6,
            "add r0.xy, v0.xyxx, cb0[0].zwzz",
            Found::Value {
                register: "r0".into(),
                component: "x".into(),
                emulator: 0x4020_0000,
                gpu: 0x3fc0_0000,
            },
        )))));
        assert!(
            h.contains("On vulkan (vk450) at its worst pixel (2, 1):</p>"),
            "{h}"
        );
        assert!(
            h.contains("<td>0 of the pixel's path (the emulator ran 5 steps, the GPU 5)</td>"),
            "{h}"
        );
        assert!(
            h.contains("<td>12–13 of <code>dxbc-dbg glsl --dialect vk450</code></td>"),
            "{h}"
        );
        assert!(
            h.contains("<td>6: <code>add r0.xy, v0.xyxx, cb0[0].zwzz</code></td>"),
            "{h}"
        );
        assert!(h.contains("12–13 of"), "{h}");
        assert!(h.contains("<tr><th>register</th><td>r0.x</td></tr>"), "{h}");
        assert!(h.contains("<th>emulator</th><td>2.5"), "{h}");
        assert!(h.contains("(0x40200000)</td>"), "{h}");
        assert!(h.contains("<th>GPU</th><td>1.5"), "{h}");
        assert!(h.contains("(0x3fc00000)</td>"), "{h}");
        // The source, unwritten on the GPU's side.
        assert!(
            h.contains("<td><code>v0.xyxx</code></td><td>v0</td>"),
            "{h}"
        );
        assert!(h.contains("<td>not written yet</td>"), "{h}");
        assert!(h.contains(COMMAND), "{h}");
    }

    #[test]
    fn an_input_is_named_at_its_declaration() {
        let mut d = at(
            0,
            "dcl_input_ps_siv linear noperspective v0.xyzw, position",
            Found::Input {
                register: "v0".into(),
                component: "w".into(),
                emulator: 1.28f32.to_bits(),
                gpu: 0.78125f32.to_bits(),
            },
        );
        d.step = None;
        let h = html(record(compared(Some(d))));
        assert!(
            h.contains("(the input's declaration: it differs at entry)"),
            "{h}"
        );
        assert!(h.contains("<tr><th>step</th><td>at entry</td></tr>"), "{h}");
        assert!(h.contains("<td>v0.w</td>"), "{h}");
        // 0.78125 = 25/32: 0x3f480000.
        assert!(h.contains("(0x3f480000)"), "{h}");
    }

    #[test]
    fn registers_and_paths_are_said_in_words_and_escaped() {
        let h = html(record(compared(Some(at(
            4,
            "mov x0[r1.x + 0<1>].x, l(1)",
            Found::Register {
                emulator: vec!["x0[1]".into()],
                gpu: vec!["x0[2]".into()],
            },
        )))));
        assert!(
            h.contains("<code>mov x0[r1.x + 0&lt;1&gt;].x, l(1)</code>"),
            "{h}"
        );
        assert!(
            h.contains("wrote x0[1] on the emulator, x0[2] on the GPU"),
            "{h}"
        );
        let h = html(record(compared(Some(at(
            7,
            "if_nz r0.x",
            Found::Path {
                emulator_next: Some(8),
                gpu_next: None,
            },
        )))));
        assert!(
            h.contains(
                "the paths part: next the emulator runs instruction 8, the GPU nothing (it had ended)"
            ),
            "{h}"
        );
    }

    #[test]
    fn no_divergence_not_run_and_over_limit_say_so() {
        let h = html(record(compared(None)));
        assert!(
            h.contains("no divergence found at this pixel (3 steps compared)"),
            "{h}"
        );
        assert!(h.contains(COMMAND), "{h}");
        let h = html(record(BisectOutcome::NotRun {
            reason: "the case draws into a 4-sample target <msaa>".into(),
        }));
        assert!(
            h.contains("could not bisect: the case draws into a 4-sample target &lt;msaa&gt;"),
            "{h}"
        );
        assert!(!h.contains("dxbc-dbg bisect"), "{h}");
        let h = html(record(BisectOutcome::OverLimit { limit: 10 }));
        assert!(h.contains("not bisected: the run had made its 10"), "{h}");
        assert!(h.contains(COMMAND), "{h}");
        // A backend without a record gets no section.
        let mut b = vulkan(record(compared(None)));
        b.bisect = None;
        assert_eq!(section(Path::new("a.case"), &[b]), "");
    }

    /// A WebGL2 bisection names the lines of the es300 text, the one
    /// WebGL2 draws.
    #[test]
    fn the_glsl_lines_are_of_the_backend_s_dialect() {
        let rec = record(compared(Some(at(
            6,
            "add r0.xy, v0.xyxx, cb0[0].zwzz",
            Found::Value {
                register: "r0".into(),
                component: "x".into(),
                emulator: 0x4020_0000,
                gpu: 0x3fc0_0000,
            },
        ))));
        let webgl2 = BackendRecord {
            backend: "webgl2".into(),
            dialect: "es300".into(),
            ..vulkan(rec)
        };
        let h = section(Path::new("a.case"), &[webgl2]);
        assert!(
            h.contains("<td>12–13 of <code>dxbc-dbg glsl --dialect es300</code></td>"),
            "{h}"
        );
    }
}
