//! Loop iteration counts for the listing: how many iterations of each
//! `loop` the quad has begun at the current step, read from the path the
//! machine's undo log holds, so stepping back shows the count of the step
//! it returns to without counting anything on the way.

use crate::dxbc::opcodes::Op;

use super::app::App;

impl App {
    /// For each instruction index, the iterations its `loop` has begun
    /// (None for other instructions and loops not entered yet).
    ///
    /// An iteration begins each time control arrives at the instruction
    /// after the `loop`: from the `loop` itself, and from its `endloop`
    /// jumping back (lanes that `continue` wait for that `endloop`, so
    /// every iteration passes it). So the count is the runs of that first
    /// body instruction since the latest run of the `loop`, plus one when
    /// the machine stands on it now (arrived, not yet run). Stopping at
    /// the latest run of the `loop` makes a loop nested in another start
    /// again from 1 on each outer iteration. One pass back over the path
    /// settles every loop; it stops once each has met its `loop`.
    pub fn loop_counts(&self) -> Vec<Option<u32>> {
        let program = &self.program.instructions;
        let mut counts: Vec<Option<u32>> = vec![None; program.len()];
        // Loops still looking for their latest `loop` run on the path.
        let mut open: Vec<usize> = (0..program.len())
            .filter(|&i| program[i].op == Op::Loop)
            .collect();
        if open.is_empty() {
            return counts;
        }
        let pc = self.machine.pc();
        let mut begun = vec![0u32; program.len()];
        for &l in &open {
            begun[l] = u32::from(pc == l + 1);
        }
        for ran in self.machine.executed().rev() {
            if ran > 0 && open.contains(&(ran - 1)) {
                begun[ran - 1] += 1;
            }
            if let Some(at) = open.iter().position(|&l| l == ran) {
                counts[ran] = Some(begun[ran]);
                open.swap_remove(at);
                if open.is_empty() {
                    break;
                }
            }
        }
        counts
    }
}
