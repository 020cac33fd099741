//! The stepping machine: executes the IR one instruction at a time for all
//! four lanes of a quad in lockstep, with per-lane execution state for
//! divergent control flow, and an undo log so stepping back costs what
//! stepping forward did.

mod arith;
mod fast;
mod flow;
mod operands;
mod plan;
mod types;
mod undo;

pub use operands::SourceValue;

use std::rc::Rc;

use super::alu::{Exec, exec_of};
use super::memory::{Buffer, MemoryWrite};
use super::state::{LANES, Layout, Loc, Setup, State};
use super::{Resources, VmError};
use crate::dxbc::analysis::{Analysis, Blocks, Linkage};
use crate::dxbc::ir::*;
use undo::Undo;

/// Why a lane is not executing, and where it resumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// At the `else` (or `endif`) of the `if` frame.
    Else,
    /// At the `endif`.
    End,
    /// At the `endloop`, for the next iteration.
    Continue,
    /// After the loop or switch.
    Exit,
    /// At a matching `case`/`default` of the switch.
    Case,
    /// When the subroutine returns.
    Return,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneState {
    Active,
    /// Waiting on the frame at this depth.
    Waiting(usize, Resume),
    /// Returned from the shader.
    Retired,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Frame {
    If,
    Loop { start: usize },
    Switch { open: usize, selector: [u32; LANES] },
    Call { ret: usize },
}

#[derive(Debug, Clone, PartialEq)]
struct Control {
    frames: Vec<Frame>,
    lanes: [LaneState; LANES],
    /// Bit `l` set while lane `l` is `Active`: `lanes` summarised for the
    /// ALU, which asks on every instruction. Only control flow changes
    /// `lanes`, and it refreshes this when it is done.
    active: u8,
    discarded: [bool; LANES],
    finished: bool,
}

impl Control {
    fn new(lanes: [LaneState; LANES]) -> Control {
        let mut c = Control {
            frames: Vec::new(),
            lanes,
            active: 0,
            discarded: [false; LANES],
            finished: false,
        };
        c.refresh();
        c
    }

    fn refresh(&mut self) {
        self.active = self
            .lanes
            .iter()
            .enumerate()
            .map(|(l, s)| (matches!(s, LaneState::Active) as u8) << l)
            .sum();
    }
}

/// One component a step changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub loc: Loc,
    pub lane: usize,
    pub component: usize,
    pub old: u32,
    pub new: u32,
}

/// What a step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Instruction `index` ran (for the lanes that were active).
    Executed { index: usize },
    /// The shader has finished; nothing ran.
    Finished,
}

/// What a machine needs of a program that does not change from run to
/// run: the block structure, each instruction's table entry and fast form
/// (built from its operand plan), and the register file's sizes. A frame
/// prepares it once and shares it across its thousands of quads.
pub struct Prepared {
    program: Rc<Program>,
    structure: Blocks,
    /// Each instruction's table entry, looked up once.
    execs: Vec<Exec>,
    /// Each instruction's fast form (or `General`).
    ops: Vec<fast::Op>,
    layout: Layout,
    /// The interface tables `fcall` goes through.
    linkage: Linkage,
}

impl Prepared {
    /// Errors where the analysis pass rejects the program: a malformed
    /// block structure (an `endif` without its `if`), a register past its
    /// declared size, an undeclared resource.
    pub fn new(program: Rc<Program>) -> Result<Rc<Prepared>, VmError> {
        let analysis = Analysis::of(&program)?;
        let structure = analysis.blocks;
        let execs: Vec<Exec> = program.instructions.iter().map(|i| exec_of(i.op)).collect();
        let plans: Vec<Option<plan::Plan>> = program.instructions.iter().map(plan::plan).collect();
        let ops = program
            .instructions
            .iter()
            .zip(&execs)
            .zip(&plans)
            .map(|((i, e), p)| fast::op(i, *e, p.as_ref()))
            .collect();
        let layout = Layout::of(&program, &analysis.registers);
        let linkage = analysis.linkage;
        Ok(Rc::new(Prepared {
            program,
            structure,
            execs,
            ops,
            layout,
            linkage,
        }))
    }

    pub fn program(&self) -> &Program {
        &self.program
    }
}

impl Machine {
    /// The rasterizer's sample count (`sampleinfo`/`samplepos` of the
    /// `rasterizer` operand): the render target's, at least 1.
    pub fn rasterizer_samples(&self) -> u32 {
        self.setup.sample_count.max(1)
    }
}

pub struct Machine {
    prepared: Rc<Prepared>,
    setup: Setup,
    /// Shared: a frame runs thousands of quads over the same textures.
    resources: Rc<Resources>,
    /// UAVs (`u#`), owned: the shader writes them. The harness moves them
    /// from quad to quad (`set_uavs`, `take_uavs`). Their writes go in the
    /// undo log beside the registers' (`memory`), so stepping back
    /// restores them.
    uavs: Vec<Option<Buffer>>,
    pub state: State,
    pc: usize,
    control: Control,
    history: Vec<Undo>,
    writes: Vec<Change>,
    /// The UAV writes of the step in progress (when recording).
    memory: Vec<MemoryWrite>,
    budget: usize,
    /// Instructions executed so far (for the budget).
    executed: usize,
    /// Keep the undo log (stepping back). Off for rendering whole frames.
    recording: bool,
    /// Take the fast paths (`fast.rs`); off only to check them against
    /// the general path.
    fast: bool,
    /// Register types, when a tool asked for them (`types.rs`).
    types: Option<Box<types::TypeFile>>,
}

/// The lanes' states before the first instruction: every pixel lane runs
/// (helpers too, for derivatives); other stages run the lanes they use.
fn initial_lanes(program: &Program, setup: &Setup) -> [LaneState; LANES] {
    let mut lanes = [LaneState::Active; LANES];
    for (l, lane) in lanes.iter_mut().enumerate() {
        if program.kind != ProgramType::Pixel && l >= setup.lanes_used.max(1) {
            *lane = LaneState::Retired;
        }
    }
    lanes
}

/// Default limit on executed instructions before a run is called endless.
pub const DEFAULT_BUDGET: usize = 1_000_000;

impl Machine {
    pub fn new(
        program: Rc<Program>,
        setup: Setup,
        resources: impl Into<Rc<Resources>>,
    ) -> Result<Machine, VmError> {
        Ok(Machine::prepared(Prepared::new(program)?, setup, resources))
    }

    /// A machine for a program prepared once (see [`Prepared`]).
    pub fn prepared(
        prepared: Rc<Prepared>,
        setup: Setup,
        resources: impl Into<Rc<Resources>>,
    ) -> Machine {
        let state = State::with_layout(&prepared.layout, &setup);
        let lanes = initial_lanes(&prepared.program, &setup);
        Machine {
            pc: prepared.structure.entry,
            prepared,
            setup,
            resources: resources.into(),
            uavs: Vec::new(),
            state,
            control: Control::new(lanes),
            history: Vec::new(),
            writes: Vec::new(),
            memory: Vec::new(),
            budget: DEFAULT_BUDGET,
            executed: 0,
            recording: true,
            fast: true,
            types: None,
        }
    }

    /// Starts the program again from its entry on another quad of the same
    /// draw, as a machine made with `quad` as its setup would start: `quad`
    /// gives the per-quad fields (the lanes' inputs, helper lanes and
    /// coverage), while the constant buffers, interfaces, sample count and
    /// primitive this machine was made with stay bound, as they do across
    /// one draw. Settings (recording, budget, typing, fast paths) and the
    /// bound UAVs are kept. A frame runs thousands of quads: reusing the
    /// register file's allocations, instead of building a machine per quad,
    /// is most of what a six-instruction shader costs.
    pub fn restart(&mut self, quad: &Setup) {
        self.setup.helper = quad.helper;
        self.setup.coverage = quad.coverage;
        self.state
            .restart(&self.prepared.layout, &quad.inputs, &self.setup);
        let lanes = initial_lanes(&self.prepared.program, &self.setup);
        self.control.frames.clear();
        self.control.lanes = lanes;
        self.control.discarded = [false; LANES];
        self.control.finished = false;
        self.control.refresh();
        self.pc = self.prepared.structure.entry;
        self.history.clear();
        self.writes.clear();
        self.memory.clear();
        self.executed = 0;
        if let Some(types) = &mut self.types {
            types.forget();
        }
    }

    /// Turns the undo log off (or on): rendering a frame needs no stepping
    /// back, and skipping the log is several times faster.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// Turns the fast paths off (or on). Results are the same either way;
    /// tests compare the two.
    #[doc(hidden)]
    pub fn set_fast_paths(&mut self, on: bool) {
        self.fast = on;
    }

    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
    }

    pub fn program(&self) -> &Program {
        &self.prepared.program
    }

    /// Index of the next instruction to run.
    pub fn pc(&self) -> usize {
        self.pc
    }

    pub fn is_finished(&self) -> bool {
        self.control.finished || self.pc >= self.prepared.program.instructions.len()
    }

    /// Steps taken so far (the length of the undo history).
    pub fn position(&self) -> usize {
        self.history.len()
    }

    /// Lanes that run the next instruction.
    pub fn execution_mask(&self) -> [bool; LANES] {
        self.control.lanes.map(|l| matches!(l, LaneState::Active))
    }

    pub fn lane_states(&self) -> [LaneState; LANES] {
        self.control.lanes
    }

    pub fn discarded(&self) -> [bool; LANES] {
        self.control.discarded
    }

    pub fn helper(&self) -> [bool; LANES] {
        self.setup.helper
    }

    /// The register destination `op` writes for `lane` (`None` for
    /// `null`), its relative indices read from the registers as they are
    /// now: what a tool reading a step's result looks at (`bisect`).
    pub fn destination(
        &self,
        op: &crate::dxbc::ir::Operand,
        lane: usize,
    ) -> Result<Option<Loc>, VmError> {
        self.target(op, lane).map(|t| t.map(|(loc, _)| loc))
    }

    /// Runs one instruction for all active lanes.
    pub fn step(&mut self) -> Result<Event, VmError> {
        if self.is_finished() {
            self.control.finished = true;
            return Ok(Event::Finished);
        }
        if self.executed >= self.budget {
            return Err(VmError::Budget {
                limit: self.budget,
                index: self.pc,
            });
        }
        let index = self.pc;
        // Worked out from the registers before the step (`types.rs`).
        let types = self.pending_types(index);
        // The control state is small (a few frames); it is saved whole so a
        // failed step and stepping back can restore it.
        let saved = self.recording.then(|| self.control.clone());
        self.writes.clear();
        self.memory.clear();
        let result = match (self.fast, &self.prepared.ops[index]) {
            (true, fast::Op::Alu(a)) => {
                let log = self.recording.then_some(&mut self.writes);
                fast::run_alu(&mut self.state, a, self.control.active, log);
                self.pc += 1;
                Ok(())
            }
            _ => self.execute(index),
        };
        if let Err(e) = result {
            // Leave the machine where it was (when it keeps a log to do so).
            if let Some(saved) = saved {
                self.undo_writes();
                self.control = saved;
                self.pc = index;
            }
            return Err(e);
        }
        // Only control flow retires lanes.
        if matches!(self.prepared.execs[index], Exec::Flow) {
            self.retire_if_done();
        }
        self.executed += 1;
        let types = self.apply_types(types);
        if let Some(control) = saved {
            self.history.push(Undo {
                pc: index,
                control,
                writes: std::mem::take(&mut self.writes),
                memory: std::mem::take(&mut self.memory),
                types,
            });
        }
        Ok(Event::Executed { index })
    }

    /// Runs instruction `index` by its table entry (everything but the fast
    /// ALU path), advancing `pc`.
    fn execute(&mut self, index: usize) -> Result<(), VmError> {
        let prepared = Rc::clone(&self.prepared);
        let inst = &prepared.program.instructions[index];
        match prepared.execs[index] {
            Exec::Nop => {
                self.pc += 1;
                Ok(())
            }
            Exec::Flow => self.flow(index, inst),
            Exec::Texture => self.texture(index, inst).map(|_| self.pc += 1),
            Exec::Memory => super::memory::execute(self, index, inst).map(|_| self.pc += 1),
            Exec::Unsupported(reason) => Err(VmError::Unsupported {
                index,
                mnemonic: inst.name().to_string(),
                reason: reason.to_string(),
            }),
            exec => self.alu(inst, exec).map(|_| self.pc += 1),
        }
    }

    /// Finishes the run once every lane has returned.
    #[inline]
    fn retire_if_done(&mut self) {
        if self
            .control
            .lanes
            .iter()
            .all(|l| matches!(l, LaneState::Retired))
        {
            self.control.finished = true;
        }
    }

    /// Runs until the shader finishes; returns the number of steps taken.
    pub fn run_to_end(&mut self) -> Result<usize, VmError> {
        let start = self.executed;
        if !self.recording && self.fast {
            // Rendering runs whole shaders: the fast instructions go
            // straight through here, without a step's bookkeeping.
            let prepared = Rc::clone(&self.prepared);
            let ops = &prepared.ops;
            loop {
                let index = self.pc;
                if self.executed < self.budget && !self.control.finished {
                    match ops.get(index) {
                        Some(fast::Op::Alu(a)) => {
                            fast::run_alu(&mut self.state, a, self.control.active, None);
                            self.pc += 1;
                            self.executed += 1;
                            continue;
                        }
                        Some(fast::Op::Flow(_)) => {
                            self.flow(index, &prepared.program.instructions[index])?;
                            self.executed += 1;
                            self.retire_if_done();
                            continue;
                        }
                        // Texture reads are most of a sampling shader's
                        // steps; without typing a step adds nothing to them.
                        Some(fast::Op::General)
                            if self.types.is_none()
                                && matches!(prepared.execs[index], Exec::Texture) =>
                        {
                            self.texture(index, &prepared.program.instructions[index])?;
                            self.pc += 1;
                            self.executed += 1;
                            continue;
                        }
                        _ => {}
                    }
                }
                if self.step()? == Event::Finished {
                    break;
                }
            }
        } else {
            while self.step()? != Event::Finished {}
        }
        Ok(self.executed - start)
    }

    /// Runs until instruction `index` is next (or the shader finishes).
    pub fn run_to(&mut self, index: usize) -> Result<(), VmError> {
        loop {
            if self.step()? == Event::Finished || self.pc == index {
                return Ok(());
            }
        }
    }

    pub(super) fn active_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..LANES).filter(|&l| matches!(self.control.lanes[l], LaneState::Active))
    }

    /// A register file the machine does not model (UAVs, GS streams, ...),
    /// `verb` saying whether it was read or written.
    fn not_emulated(&self, verb: &str, ty: OperandType) -> VmError {
        VmError::Operand {
            index: self.pc,
            message: format!(
                "{verb} {} registers is not emulated",
                ty.prefix().unwrap_or("unknown")
            ),
        }
    }

    fn missing(&self, inst: &Instruction) -> VmError {
        VmError::Malformed {
            index: self.pc,
            message: format!("`{}` is missing operands", inst.name()),
        }
    }

    fn texture(&mut self, index: usize, inst: &Instruction) -> Result<(), VmError> {
        super::sampling::execute(self, index, inst)
    }

    pub(super) fn resources(&self) -> &Resources {
        &self.resources
    }

    /// Binds the UAVs (`u#` by slot) the shader reads and writes.
    pub fn set_uavs(&mut self, uavs: Vec<Option<Buffer>>) {
        self.uavs = uavs;
    }

    /// The UAVs as the run left them (the machine keeps none).
    pub fn take_uavs(&mut self) -> Vec<Option<Buffer>> {
        std::mem::take(&mut self.uavs)
    }

    pub fn uav(&self, slot: u32) -> Option<&Buffer> {
        self.uavs.get(slot as usize)?.as_ref()
    }

    pub(super) fn uav_mut(&mut self, slot: u32) -> Option<&mut Buffer> {
        self.uavs.get_mut(slot as usize)?.as_mut()
    }
}
