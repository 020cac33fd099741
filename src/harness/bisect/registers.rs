//! One side's register file as it stands after the first steps of its
//! [`Path`], each component with the instruction that last wrote it: what
//! the debugger shows beside the emulator's registers. Components are
//! judged by the rule [`compare`](super::compare) uses, so the debugger
//! highlights what `bisect` would report.

use std::collections::BTreeMap;

use super::Path;
use super::compare::{within, written_mask};
use crate::dxbc::Shader;
use crate::harness::case::Tolerance;
use crate::vm::state::Loc;

/// A component's bits and where they came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub bits: u32,
    /// The instruction that wrote it; `None` for an input at entry.
    pub writer: Option<usize>,
}

/// Per component: `None` where the path has not written it (yet).
pub type Components = [Option<Written>; 4];

/// A path's registers after its first `steps` steps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registers {
    /// Input registers (`v#`) on their declared components.
    pub inputs: BTreeMap<u32, Components>,
    /// Temps, indexable temps and outputs, on the components written.
    pub written: BTreeMap<Loc, Components>,
    /// Steps replayed (fewer than asked when the path is shorter).
    pub steps: usize,
}

impl Registers {
    /// Replays `path`'s inputs and its first `steps` steps. Only the
    /// components an instruction's destination writes count: a record
    /// holds all four, but the others are whatever the register held,
    /// which `compare` does not judge either.
    pub fn replay(shader: &Shader, path: &Path, steps: usize) -> Registers {
        let layout = shader.input_layout();
        let mut regs = Registers::default();
        for (reg, value) in &path.inputs {
            let mask = layout
                .registers
                .iter()
                .find(|r| r.register == *reg)
                .map_or(0xf, |r| r.mask);
            let mut c = [None; 4];
            for (k, slot) in c.iter_mut().enumerate() {
                if mask & (1 << k) != 0 {
                    *slot = Some(Written {
                        bits: value[k],
                        writer: None,
                    });
                }
            }
            regs.inputs.insert(*reg, c);
        }
        for step in path.steps.iter().take(steps) {
            let Some(inst) = shader.program.instructions.get(step.index) else {
                continue;
            };
            let dsts = crate::glsl::capture::recorded_destinations(inst);
            for (k, (loc, value)) in step.writes.iter().enumerate() {
                let mask = dsts.get(k).map_or(0xf, |op| written_mask(shader, op, *loc));
                let slot = regs.written.entry(*loc).or_default();
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    slot[c] = Some(Written {
                        bits: value[c],
                        writer: Some(step.index),
                    });
                }
            }
            regs.steps += 1;
        }
        regs
    }
}

/// Whether the emulator's bits and the GPU's for one component agree as
/// `compare` judges the result of instruction `writer` (`None`: an input,
/// judged by whether its bits look like floats): exactly for integer,
/// double and untyped non-float results, within `tolerance` for floats.
pub fn agree(
    shader: &Shader,
    writer: Option<usize>,
    emulator: u32,
    gpu: u32,
    tolerance: &Tolerance,
) -> bool {
    let ty = writer
        .and_then(|i| shader.program.instructions.get(i))
        .and_then(|i| i.info().result_type());
    within(emulator, gpu, ty, tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::bisect::Step;

    fn shader() -> Shader {
        let text = "ps_5_0\n\
            dcl_input_ps_siv linear noperspective v0.xy, position\n\
            dcl_output o0.xyzw\n\
            dcl_temps 1\n\
            add r0.yz, v0.xxyx, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
            ftoi r0.x, r0.y\n\
            mov o0.xyzw, r0.xyzw\n\
            ret\n";
        let bytes = crate::dxbc::asm::assemble(text).expect("assembles");
        Shader::parse(&bytes, Default::default()).expect("parses")
    }

    fn f(v: f32) -> u32 {
        v.to_bits()
    }

    /// v0 = (2.5, 1.5) at entry; [3] writes r0.yz = (3.5, 2.5) (the
    /// record's x and w are whatever r0 held); [4] r0.x = 3.
    fn path() -> Path {
        Path {
            inputs: vec![(0, [f(2.5), f(1.5), 7, 7])],
            steps: vec![
                Step {
                    index: 3,
                    writes: vec![(Loc::Temp(0), [9, f(3.5), f(2.5), 9])],
                },
                Step {
                    index: 4,
                    writes: vec![(Loc::Temp(0), [3, f(3.5), f(2.5), 9])],
                },
            ],
            overflowed: false,
            discarded_at: None,
        }
    }

    #[test]
    fn replay_keeps_the_components_written_and_their_writers() {
        let s = shader();
        let at = |n| Registers::replay(&s, &path(), n);
        let w = |bits, writer| Some(Written { bits, writer });
        let r = at(0);
        assert_eq!(r.steps, 0);
        assert!(r.written.is_empty());
        // Declared v0.xy only.
        assert_eq!(r.inputs[&0], [w(f(2.5), None), w(f(1.5), None), None, None]);
        let r = at(1);
        assert_eq!(
            r.written[&Loc::Temp(0)],
            [None, w(f(3.5), Some(3)), w(f(2.5), Some(3)), None]
        );
        let r = at(5);
        assert_eq!(r.steps, 2, "a shorter path replays whole");
        assert_eq!(
            r.written[&Loc::Temp(0)],
            [w(3, Some(4)), w(f(3.5), Some(3)), w(f(2.5), Some(3)), None]
        );
    }

    #[test]
    fn agreement_follows_the_writer_s_result_type() {
        let s = shader();
        let exact = Tolerance::default();
        let loose = Tolerance { abs: 0.01, ulp: 0 };
        // [3] add: floats, within the tolerance.
        assert!(!agree(&s, Some(3), f(1.0), f(1.005), &exact));
        assert!(agree(&s, Some(3), f(1.0), f(1.005), &loose));
        // [4] ftoi: an integer, exact, even for bits one float ulp apart
        // that the same tolerance lets through for [3]'s floats.
        let ulps = Tolerance { abs: 0.0, ulp: 4 };
        assert!(agree(&s, Some(3), f(1.0), f(1.0) + 1, &ulps));
        assert!(!agree(&s, Some(4), f(1.0), f(1.0) + 1, &ulps));
        // An input: by whether the bits look like floats.
        assert!(agree(&s, None, f(2.5), f(2.505), &loose));
    }
}
