//! A backend's bisection in the results document: the typed
//! [`crate::harness::bisect::Bisection`] as plain data (registers by name,
//! values as their exact bits), and the one line the summary, JUnit and
//! the command's output give it.

use serde::{Deserialize, Serialize};

use crate::harness::bisect::{Bisection, Divergence, Kind};
use crate::harness::suite::{BackendBisect, Bisected};
use crate::vm::state::Loc;

/// One backend's bisection of a case at its worst pixel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BisectRecord {
    pub pixel: [u32; 2],
    pub outcome: BisectOutcome,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum BisectOutcome {
    /// The two paths were compared.
    Compared {
        /// Steps in common before the divergence (all of the shorter path
        /// when there is none).
        compared: usize,
        emulator_steps: usize,
        gpu_steps: usize,
        /// A run outgrew the capture: only its beginning was compared.
        truncated: bool,
        /// `None`: the GPU's registers agreed at every step.
        divergence: Option<DivergenceRecord>,
    },
    /// The bisection could not run, and why.
    NotRun { reason: String },
    /// Not made: the run had made `limit` bisections.
    OverLimit { limit: usize },
}

/// The first place the GPU's registers differ from the emulator's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DivergenceRecord {
    /// The instruction named (its index in the program).
    pub index: usize,
    /// Its place on the path (`None`: the inputs at entry).
    pub step: Option<usize>,
    /// As the disassembler prints it.
    pub text: String,
    /// Its lines in the translation `glsl` prints in the backend's
    /// dialect (vk450 for Vulkan, es300 for WebGL2).
    pub glsl_lines: Option<[u32; 2]>,
    #[serde(flatten)]
    pub found: Found,
    /// The instruction's register sources before it ran.
    pub sources: Vec<SourceRecord>,
}

/// What differs there; values are exact bits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Found {
    /// An input register at entry (`register` is `v0`).
    Input {
        register: String,
        component: String,
        emulator: u32,
        gpu: u32,
    },
    /// A component the instruction wrote (`r0`, `o1`, `x1[2]`, `oDepth`).
    Value {
        register: String,
        component: String,
        emulator: u32,
        gpu: u32,
    },
    /// The instruction wrote other registers on each side.
    Register {
        emulator: Vec<String>,
        gpu: Vec<String>,
    },
    /// After the branch named the sides ran different instructions
    /// (`None`: that side had ended).
    Path {
        emulator_next: Option<usize>,
        gpu_next: Option<usize>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceRecord {
    pub operand: String,
    pub register: String,
    /// `None`: not written yet on that side.
    pub emulator: Option<[u32; 4]>,
    pub gpu: Option<[u32; 4]>,
}

const XYZW: [&str; 4] = ["x", "y", "z", "w"];

impl From<&BackendBisect> for BisectRecord {
    fn from(b: &BackendBisect) -> Self {
        let outcome = match &b.outcome {
            Bisected::Ran(found) => compared(found),
            Bisected::NotRun(reason) => BisectOutcome::NotRun {
                reason: reason.clone(),
            },
            Bisected::OverLimit(limit) => BisectOutcome::OverLimit { limit: *limit },
        };
        BisectRecord {
            pixel: [b.pixel.0, b.pixel.1],
            outcome,
        }
    }
}

fn compared(b: &Bisection) -> BisectOutcome {
    BisectOutcome::Compared {
        compared: b.compared,
        emulator_steps: b.emulator_steps,
        gpu_steps: b.gpu_steps,
        truncated: b.truncated,
        divergence: b.divergence.as_ref().map(divergence),
    }
}

fn divergence(d: &Divergence) -> DivergenceRecord {
    let names = |l: &[Loc]| l.iter().map(ToString::to_string).collect();
    let found = match &d.kind {
        Kind::Input {
            register,
            component,
            emulator,
            gpu,
        } => Found::Input {
            register: format!("v{register}"),
            component: XYZW[*component & 3].into(),
            emulator: *emulator,
            gpu: *gpu,
        },
        Kind::Value {
            register,
            component,
            emulator,
            gpu,
        } => Found::Value {
            register: register.to_string(),
            component: XYZW[*component & 3].into(),
            emulator: *emulator,
            gpu: *gpu,
        },
        Kind::Register { emulator, gpu } => Found::Register {
            emulator: names(emulator),
            gpu: names(gpu),
        },
        Kind::Path {
            emulator_next,
            gpu_next,
        } => Found::Path {
            emulator_next: *emulator_next,
            gpu_next: *gpu_next,
        },
    };
    DivergenceRecord {
        index: d.index,
        step: d.step,
        text: d.text.clone(),
        glsl_lines: d.glsl_lines.map(|(a, b)| [a, b]),
        found,
        sources: d
            .sources
            .iter()
            .map(|s| SourceRecord {
                operand: s.operand.clone(),
                register: s.register.clone(),
                emulator: s.emulator,
                gpu: s.gpu,
            })
            .collect(),
    }
}

/// A component as `bisect` prints it: the float (or, for bits that are
/// not one, the integer) and the hex bits; NaN and the infinities as
/// floats. The one formatter of `bisect`'s text, the HTML report's
/// bisection and the summary lines ([`crate::vm::trace::value`]).
pub fn value(bits: u32) -> String {
    crate::vm::trace::value(bits)
}

/// Registers by name, or "nothing".
fn names(l: &[String]) -> String {
    if l.is_empty() {
        "nothing".into()
    } else {
        l.join(", ")
    }
}

fn next(i: Option<usize>) -> String {
    i.map_or("nothing (it had ended)".into(), |i| {
        format!("instruction {i}")
    })
}

impl DivergenceRecord {
    /// What differs, in words: `r0.x: emulator 2.5 (0x40200000), GPU
    /// 1.5 (0x3fc00000)`.
    pub fn difference(&self) -> String {
        match &self.found {
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
            } => format!(
                "{register}.{component}: emulator {}, GPU {}",
                value(*emulator),
                value(*gpu)
            ),
            Found::Register { emulator, gpu } => format!(
                "wrote {} on the emulator, {} on the GPU",
                names(emulator),
                names(gpu)
            ),
            Found::Path {
                emulator_next,
                gpu_next,
            } => format!(
                "the paths part: next the emulator runs {}, the GPU {}",
                next(*emulator_next),
                next(*gpu_next)
            ),
        }
    }
}

impl BisectRecord {
    /// One line: the instruction and what differs there, or why there is
    /// none.
    pub fn summary(&self) -> String {
        match &self.outcome {
            BisectOutcome::Compared {
                divergence: Some(d),
                ..
            } => {
                let at = match d.found {
                    Found::Input { .. } => " (the input's declaration)",
                    _ => "",
                };
                format!(
                    "instruction {} `{}`{at}: {}",
                    d.index,
                    d.text,
                    d.difference()
                )
            }
            BisectOutcome::Compared {
                compared,
                truncated,
                ..
            } => format!(
                "no divergence found at this pixel ({compared} steps compared{})",
                if *truncated {
                    ", the run's beginning only"
                } else {
                    ""
                }
            ),
            BisectOutcome::NotRun { reason } => format!("could not bisect: {reason}"),
            BisectOutcome::OverLimit { limit } => {
                format!("not bisected: the run had made its {limit} bisections (--bisect-limit)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::bisect::Source;

    /// NaN and the infinities read as floats in every text output (the
    /// bits of -inf are also the integer -8388608), and a divergence's
    /// line and the HTML row both say so.
    #[test]
    fn non_finite_components_print_as_floats() {
        assert_eq!(value(0xff80_0000), "-inf (0xff800000)");
        assert_eq!(value(0x7f80_0000), "inf (0x7f800000)");
        assert_eq!(value(0x7fc0_0000), "NaN (0x7fc00000)");
        assert_eq!(value(0xffc0_0001), "NaN (0xffc00001)");
        assert_eq!(value(0x3f00_0000), "0.500000 (0x3f000000)");
        assert_eq!(value(5), "5 (0x00000005)");
        let record = DivergenceRecord {
            index: 3,
            step: Some(2),
            text: "log r0.x, r1.x".into(),
            glsl_lines: None,
            found: Found::Value {
                register: "r0".into(),
                component: "x".into(),
                emulator: 0xff80_0000,
                gpu: 0x7f80_0000,
            },
            sources: vec![],
        };
        assert_eq!(
            record.difference(),
            "r0.x: emulator -inf (0xff800000), GPU inf (0x7f800000)"
        );
    }

    /// Every kind survives the document's JSON, and the typed result maps
    /// registers to their names and components to letters.
    #[test]
    fn records_round_trip_and_name_registers() {
        let d = |kind: Kind| Divergence {
            step: Some(4),
            index: 9,
            text: "mul o0.y, r1.x, l(2)".into(),
            glsl_lines: Some((20, 21)),
            kind,
            sources: vec![Source {
                operand: "r1.x".into(),
                register: "r1".into(),
                emulator: Some([1, 2, 3, 4]),
                gpu: None,
            }],
        };
        let kinds = [
            Kind::Input {
                register: 2,
                component: 1,
                emulator: 5,
                gpu: 6,
            },
            Kind::Value {
                register: Loc::Output(0),
                component: 1,
                emulator: 0x4000_0000,
                gpu: 0x3f80_0000,
            },
            Kind::Register {
                emulator: vec![Loc::Indexable(0, 1)],
                gpu: vec![],
            },
            Kind::Path {
                emulator_next: Some(12),
                gpu_next: None,
            },
        ];
        for kind in kinds {
            let b = BackendBisect {
                pixel: (1, 2),
                outcome: Bisected::Ran(Bisection {
                    pixel: (1, 2),
                    compared: 4,
                    emulator_steps: 7,
                    gpu_steps: 7,
                    truncated: false,
                    divergence: Some(d(kind)),
                }),
            };
            let rec = BisectRecord::from(&b);
            let json = serde_json::to_string(&rec).expect("serialises");
            let back: BisectRecord = serde_json::from_str(&json).expect("reads");
            assert_eq!(back, rec, "{json}");
        }
        let value = BisectRecord::from(&BackendBisect {
            pixel: (1, 2),
            outcome: Bisected::Ran(Bisection {
                pixel: (1, 2),
                compared: 4,
                emulator_steps: 7,
                gpu_steps: 7,
                truncated: false,
                divergence: Some(d(Kind::Value {
                    register: Loc::Output(0),
                    component: 1,
                    emulator: 0x4000_0000,
                    gpu: 0x3f80_0000,
                })),
            }),
        });
        // 2.0 is 0x40000000, 1.0 0x3f800000.
        assert_eq!(
            value.summary(),
            "instruction 9 `mul o0.y, r1.x, l(2)`: o0.y: emulator 2.000000 (0x40000000), \
             GPU 1.000000 (0x3f800000)"
        );
        let none = BisectRecord::from(&BackendBisect {
            pixel: (0, 0),
            outcome: Bisected::NotRun("a helper lane".into()),
        });
        assert_eq!(none.summary(), "could not bisect: a helper lane");
    }
}
