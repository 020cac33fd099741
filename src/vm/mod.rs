//! The `vm` layer: the reference emulator. It executes the IR directly
//! (never the GLSL) with D3D11's arithmetic rules, pixel shaders as 2x2
//! quads in lockstep, and a CPU texture unit. The debugger steps it and the
//! harness compares the GPU against it, so it defines "correct".

pub mod alu;
pub mod defaults;
pub mod double;
pub mod fetch;
pub mod float;
pub mod interfaces;
pub mod machine;
pub mod memory;
pub mod output_merger;
pub mod sampling;
pub mod state;
pub mod texture;
pub mod trace;

pub use fetch::LaneFetch;
pub use machine::{Change, DEFAULT_BUDGET, Event, LaneState, Machine, Prepared, SourceValue};
pub use state::{LANES, Layout, Loc, Reg, Setup, State};

use thiserror::Error;

/// Why a run stopped with an error. `index` is the instruction's position
/// in the program (as listed by `disasm`, counting declarations).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VmError {
    #[error("instruction {index} (`{mnemonic}`): {reason}")]
    Unsupported {
        index: usize,
        mnemonic: String,
        reason: String,
    },
    #[error("instruction budget of {limit} exceeded at instruction {index}: an endless loop?")]
    Budget { limit: usize, index: usize },
    #[error("instruction {index}: {message}")]
    Malformed { index: usize, message: String },
    #[error("instruction {index}: {message}")]
    Operand { index: usize, message: String },
}

/// A program the analysis pass rejects (unbalanced blocks, `break`
/// outside a loop) cannot run; the message is the analysis' own.
impl From<crate::dxbc::analysis::AnalysisError> for VmError {
    fn from(e: crate::dxbc::analysis::AnalysisError) -> Self {
        VmError::Malformed {
            index: e.index,
            message: e.message,
        }
    }
}

pub use sampling::Resources;

#[cfg(test)]
mod tests {
    use super::{Machine, Resources, Setup, VmError};
    use crate::dxbc::asm::test_shader;
    use std::rc::Rc;

    #[test]
    fn analysis_errors_stop_the_machine_as_malformed() {
        let s = test_shader("ps_4_0\ndcl_temps 1\nendloop\nret\n");
        let e = Machine::new(Rc::new(s.program), Setup::empty(), Resources::default())
            .err()
            .expect("refused");
        // 0 dcl_temps, 1 the `endloop` that closes nothing.
        assert_eq!(
            e,
            VmError::Malformed {
                index: 1,
                message: "`endloop` without `loop`".into()
            }
        );
    }

    #[test]
    fn registers_past_their_declarations_stop_the_machine() {
        let run = |text: &str| {
            let s = test_shader(text);
            Machine::new(Rc::new(s.program), Setup::empty(), Resources::default())
                .err()
                .expect("refused")
        };
        // 0 dcl_output, 1 dcl_temps 1, 2 the write to r3: only r0 exists,
        // so there is no register for it to land in.
        assert_eq!(
            run("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov r3.x, l(1.0)\nret\n"),
            VmError::Malformed {
                index: 2,
                message: "r3 used, but `dcl_temps` declares 1".into()
            }
        );
        // A constant-buffer read of a buffer nothing declares.
        assert_eq!(
            run("ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, cb1[0].xyzw\nret\n"),
            VmError::Malformed {
                index: 1,
                message: "cb1 used, but never declared".into()
            }
        );
    }
}
