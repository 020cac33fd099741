//! The undo log: what each step wrote (register components and UAV
//! words, old and new) and the control state before it, so stepping back
//! costs what the step did and restores registers and memory exactly.

use super::{Change, Control, Machine};
use crate::vm::memory::MemoryWrite;

/// One step's entry in the log.
pub(super) struct Undo {
    pub(super) pc: usize,
    pub(super) control: Control,
    pub(super) writes: Vec<Change>,
    pub(super) memory: Vec<MemoryWrite>,
    /// The register types the step replaced (when types are kept).
    pub(super) types: Vec<super::types::TypeUndo>,
}

impl Machine {
    /// Components the last step changed.
    pub fn changes(&self) -> &[Change] {
        self.history
            .last()
            .map(|u| u.writes.as_slice())
            .unwrap_or(&[])
    }

    /// UAV words (and counters) the last step wrote, in the order written.
    pub fn memory_writes(&self) -> &[MemoryWrite] {
        self.history
            .last()
            .map(|u| u.memory.as_slice())
            .unwrap_or(&[])
    }

    /// Index of the instruction the last step ran.
    pub fn last_index(&self) -> Option<usize> {
        self.history.last().map(|u| u.pc)
    }

    /// The instruction each step so far ran, oldest first: the path the
    /// quad took, as far as the undo log reaches (the debugger keeps all of
    /// it; `trace` forgets it as it goes).
    pub fn executed(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.history.iter().map(|u| u.pc)
    }

    /// Puts back what the failed step in progress wrote.
    pub(super) fn undo_writes(&mut self) {
        for w in self.writes.drain(..).rev() {
            if let Some(c) = self.state.lanes[w.lane].component_mut(w.loc, w.component) {
                *c = w.old;
            }
        }
        let memory = std::mem::take(&mut self.memory);
        self.undo_memory(&memory);
    }

    /// Puts back what `writes` replaced, last write first (a word written
    /// twice in one step ends with its value from before the step).
    fn undo_memory(&mut self, writes: &[MemoryWrite]) {
        for w in writes.iter().rev() {
            if let Some(buf) = self.uav_mut(w.slot) {
                buf.set(w.cell, w.old);
            }
        }
    }

    /// Records a UAV write of the step in progress (`memory.rs`).
    pub(in crate::vm) fn log_memory(&mut self, write: MemoryWrite) {
        if self.recording {
            self.memory.push(write);
        }
    }

    /// Undoes the last step; false at the start.
    pub fn step_back(&mut self) -> bool {
        let Some(undo) = self.history.pop() else {
            return false;
        };
        for w in undo.writes.iter().rev() {
            if let Some(c) = self.state.lanes[w.lane].component_mut(w.loc, w.component) {
                *c = w.old;
            }
        }
        self.undo_memory(&undo.memory);
        self.undo_types(&undo.types);
        self.pc = undo.pc;
        self.control = undo.control;
        self.executed -= 1;
        true
    }

    /// Forgets the undo log kept so far: stepping back stops here.
    /// A caller that streams each step as it runs (`trace`) and never steps
    /// back calls it after every step, so a run of a million steps holds
    /// one step's log instead of all of them; [`Machine::changes`] still
    /// reports the next step.
    pub fn forget_history(&mut self) {
        self.history.clear();
    }

    /// Steps back to `position` steps from the start.
    pub fn restore(&mut self, position: usize) {
        while self.history.len() > position && self.step_back() {}
    }
}
