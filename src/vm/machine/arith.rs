//! Arithmetic: the ALU instructions (`vm::alu`), derivatives across the
//! quad, and the double-precision ones (`vm::double`).

use super::Machine;
use crate::dxbc::ir::*;
use crate::dxbc::opcodes::NumType;
use crate::vm::VmError;
use crate::vm::alu::{Exec, compute};
use crate::vm::float;
use crate::vm::state::LANES;

impl Machine {
    pub(super) fn alu(&mut self, inst: &Instruction, exec: Exec) -> Result<(), VmError> {
        let info = inst.info();
        let ndst = (info.dst as usize).min(inst.operands.len());
        let (dsts, srcs) = inst.operands.split_at(ndst);
        let kind = crate::vm::alu::source_type(inst.op);
        let sat = inst.saturate();
        let running = self.execution_mask();
        let lanes = (0..LANES).filter(|&l| running[l]);
        // Derivatives read every lane of the quad, active or not.
        if let Exec::Deriv { x, fine } = exec {
            let src = srcs.first().ok_or_else(|| self.missing(inst))?;
            let mut v = [[0u32; 4]; LANES];
            for (l, slot) in v.iter_mut().enumerate() {
                *slot = self.read(src, l, NumType::Float)?;
            }
            for l in lanes {
                let (a, b) = derivative_pair(l, x, fine);
                let r = std::array::from_fn(|c| float::out(float::f(v[b][c]) - float::f(v[a][c])));
                if let Some(d) = dsts.first() {
                    self.write(d, l, r, sat)?;
                }
            }
            return Ok(());
        }
        if let Exec::Double(dop) = exec {
            return self.double(inst, dop, dsts, srcs);
        }
        // The common instructions never get here when the fast paths are on
        // (`fast.rs`); this is the plain per-lane operand path, which the
        // fast paths are tested against.
        for l in lanes {
            // Up to five sources (`sample_d`-sized); ALU entries use at most four.
            let mut s = [[0u32; 4]; 5];
            let mut n = 0;
            for op in srcs.iter().take(5) {
                s[n] = self.read(op, l, kind)?;
                n += 1;
            }
            let results = compute(exec, &s[..n]).ok_or_else(|| self.missing(inst))?;
            for (d, r) in dsts.iter().zip(results) {
                self.write(d, l, r, sat)?;
            }
        }
        Ok(())
    }

    /// A double-precision instruction (`vm::double`): sources read as the
    /// entry says, the mask checked against the instruction's shape, and
    /// `_sat` applied to the doubles rather than to their words.
    fn double(
        &mut self,
        inst: &Instruction,
        dop: crate::vm::double::DOp,
        dsts: &[Operand],
        srcs: &[Operand],
    ) -> Result<(), VmError> {
        let Some(dst) = dsts.first() else {
            return Err(self.missing(inst));
        };
        if srcs.len() < dop.arity() {
            return Err(self.missing(inst));
        }
        let running = self.execution_mask();
        for l in (0..LANES).filter(|&l| running[l]) {
            let Some((_, mask)) = self.target(dst, l)? else {
                return Ok(());
            };
            let mut s = [[0u32; 4]; 3];
            for (k, op) in srcs.iter().take(3).enumerate() {
                s[k] = self.read(op, l, dop.source_kind(inst.op, k))?;
            }
            let r = crate::vm::double::compute(dop, &s[..dop.arity()], mask, inst.saturate())
                .map_err(|m| VmError::Malformed {
                    index: self.pc,
                    message: format!("`{}` cannot write {m}", inst.name()),
                })?;
            self.write(dst, l, r, false)?;
        }
        Ok(())
    }
}

/// The lanes a derivative subtracts for `lane` (b − a). Coarse derivatives
/// use the quad's top row / left column for every lane; fine ones the
/// lane's own row or column.
fn derivative_pair(lane: usize, x: bool, fine: bool) -> (usize, usize) {
    match (x, fine) {
        (true, false) => (0, 1),
        (false, false) => (0, 2),
        (true, true) => {
            let row = lane / 2 * 2;
            (row, row + 1)
        }
        (false, true) => {
            let col = lane % 2;
            (col, col + 2)
        }
    }
}
