//! The emulator's side of a bisection: the pixel's quad run as the CPU
//! draw runs it (vertex stage, the triangle owning the pixel, the case's
//! constant buffers, textures and UAVs), recording the pixel's lane only.

use std::rc::Rc;

use super::{BisectError, Path, Step};
use crate::glsl::capture;
use crate::harness::case::{Case, CaseShaders};
use crate::harness::cpu;
use crate::harness::pixel_quad::{PixelQuad, PixelQuadError, pixel_quad};
use crate::vm::Machine;
use crate::vm::machine::Event;
use crate::vm::state::{Loc, Reg};

/// The emulator's [`Path`] for pixel `(x, y)` of `case`. Records stop
/// where the GPU's capture would overflow, so both sides hold as much.
pub fn emulator_path(
    case: &Case,
    shaders: &CaseShaders,
    (x, y): (u32, u32),
) -> Result<Path, BisectError> {
    if case.samples > 1 {
        return Err(BisectError::Multisample(case.samples));
    }
    let file = case.path.display().to_string();
    let ps = &shaders.pixel;
    let PixelQuad { setup, lane, .. } = pixel_quad(case, shaders, (x, y)).map_err(|e| match e {
        PixelQuadError::Outside {
            x,
            y,
            width,
            height,
        } => BisectError::Outside {
            x,
            y,
            width,
            height,
        },
        PixelQuadError::Helper { x, y } => BisectError::Helper { x, y },
        PixelQuadError::Vertex(m) => BisectError::Other(m),
    })?;
    let inputs: Vec<(u32, Reg)> = ps
        .input_layout()
        .registers
        .iter()
        .filter(|r| r.mask != 0)
        .map(|r| {
            let v = setup.inputs[lane]
                .get(r.register as usize)
                .copied()
                .unwrap_or_default();
            (r.register, v)
        })
        .collect();
    let fail = |e: crate::vm::VmError| BisectError::Other(format!("{file}: {e}"));
    let mut m =
        Machine::new(Rc::new(ps.program.clone()), setup, cpu::resources(case)).map_err(fail)?;
    m.set_recording(false);
    m.set_uavs(cpu::uavs(case));
    let mut path = Path {
        inputs,
        ..Path::default()
    };
    let mut records = path.inputs.len();
    loop {
        let running = m.execution_mask()[lane];
        let index = match m.step().map_err(fail)? {
            Event::Finished => break,
            Event::Executed { index } => index,
        };
        let inst = &m.program().instructions[index];
        if !running || !inst.op.is_path_step() {
            continue;
        }
        let dsts = capture::recorded_destinations(inst);
        records += dsts.len().max(1);
        if records > capture::CAPACITY as usize {
            path.overflowed = true;
            break;
        }
        let mut step = Step {
            index,
            writes: Vec::new(),
        };
        for op in dsts {
            let Some(loc) = m.destination(op, lane).map_err(fail)? else {
                continue;
            };
            let regs = &m.state.lanes[lane];
            let value = match loc {
                Loc::Depth => [regs.depth, 0, 0, 0],
                Loc::Coverage => [regs.coverage, 0, 0, 0],
                Loc::StencilRef => [regs.stencil_ref, 0, 0, 0],
                _ => regs.get(loc).copied().unwrap_or_default(),
            };
            step.writes.push((loc, value));
        }
        path.steps.push(step);
        if path.discarded_at.is_none() && m.discarded()[lane] {
            path.discarded_at = Some(path.steps.len() - 1);
        }
    }
    Ok(path)
}
