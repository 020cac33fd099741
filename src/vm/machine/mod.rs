//! The stepping machine: executes the IR one instruction at a time for all
//! four lanes of a quad in lockstep, with per-lane execution state for
//! divergent control flow, and an undo log so stepping back costs what
//! stepping forward did.

mod fast;
mod flow;
mod plan;

use std::rc::Rc;

use super::alu::{Exec, compute, exec_of};
use super::float;
use super::memory::Buffer;
use super::state::{LANES, Layout, Loc, Reg, Setup, State};
use super::{Resources, VmError};
use crate::dxbc::analysis::{Analysis, Blocks, Linkage};
use crate::dxbc::ir::*;
use crate::dxbc::opcodes::NumType;

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

struct Undo {
    pc: usize,
    control: Control,
    writes: Vec<Change>,
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
    /// from quad to quad (`set_uavs`, `take_uavs`). Stepping back does not
    /// undo their writes.
    uavs: Vec<Option<Buffer>>,
    pub state: State,
    pc: usize,
    control: Control,
    history: Vec<Undo>,
    writes: Vec<Change>,
    budget: usize,
    /// Instructions executed so far (for the budget).
    executed: usize,
    /// Keep the undo log (stepping back). Off for rendering whole frames.
    recording: bool,
    /// Take the fast paths (`fast.rs`); off only to check them against
    /// the general path.
    fast: bool,
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
        let program = &prepared.program;
        let state = State::with_layout(&prepared.layout, &setup);
        let mut lanes = [LaneState::Active; LANES];
        for (l, lane) in lanes.iter_mut().enumerate() {
            if program.kind != ProgramType::Pixel && l >= setup.lanes_used.max(1) {
                *lane = LaneState::Retired;
            }
        }
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
            budget: DEFAULT_BUDGET,
            executed: 0,
            recording: true,
            fast: true,
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

    /// Components the last step changed.
    pub fn changes(&self) -> &[Change] {
        self.history
            .last()
            .map(|u| u.writes.as_slice())
            .unwrap_or(&[])
    }

    /// Index of the instruction the last step ran.
    pub fn last_index(&self) -> Option<usize> {
        self.history.last().map(|u| u.pc)
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
        // The control state is small (a few frames); it is saved whole so a
        // failed step and stepping back can restore it.
        let saved = self.recording.then(|| self.control.clone());
        self.writes.clear();
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
        if let Some(control) = saved {
            self.history.push(Undo {
                pc: index,
                control,
                writes: std::mem::take(&mut self.writes),
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

    fn undo_writes(&mut self) {
        for w in self.writes.drain(..).rev() {
            if let Some(c) = self.state.lanes[w.lane].component_mut(w.loc, w.component) {
                *c = w.old;
            }
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

    // ---- operands -------------------------------------------------------

    fn index_value(&self, idx: &Index, lane: usize) -> Result<u32, VmError> {
        Ok(match idx {
            Index::Imm32(v) => *v,
            Index::Imm64(v) => *v as u32,
            Index::Relative(r) => self.read(r, lane, NumType::Untyped)?[0],
            Index::Imm32Relative(v, r) => v.wrapping_add(self.read(r, lane, NumType::Untyped)?[0]),
            Index::Imm64Relative(v, r) => {
                (*v as u32).wrapping_add(self.read(r, lane, NumType::Untyped)?[0])
            }
        })
    }

    /// The slot a resource or sampler operand names. fxc indexes them
    /// dynamically (`t[r0.w + 0]`) with a class instance's base slots
    /// from `this[]`; the value is read for every active lane, and lanes
    /// that disagree stop the run (a quad samples through one slot; D3D
    /// leaves a divergent index undefined).
    pub(super) fn slot(&self, index: usize, op: &Operand) -> Result<u32, VmError> {
        let Some(first) = op.indices.first() else {
            return Ok(u32::MAX);
        };
        if let Index::Imm32(v) = first {
            return Ok(*v);
        }
        let mut slot = None;
        for l in self.active_lanes() {
            let v = self.index_value(first, l)?;
            match slot {
                Some(s) if s != v => {
                    return Err(VmError::Operand {
                        index,
                        message: format!(
                            "the {} index differs across the quad ({s} and {v}): \
                             undefined in D3D11",
                            op.ty.prefix().unwrap_or("resource")
                        ),
                    });
                }
                _ => slot = Some(v),
            }
        }
        Ok(slot.unwrap_or(u32::MAX))
    }

    #[inline]
    fn indices(&self, op: &Operand, lane: usize) -> Result<[u32; 3], VmError> {
        // Most operands are `r3`, `cb0[4]`: plain immediates.
        match op.indices.as_slice() {
            [] => return Ok([0; 3]),
            [Index::Imm32(a)] => return Ok([*a, 0, 0]),
            [Index::Imm32(a), Index::Imm32(b)] => return Ok([*a, *b, 0]),
            _ => {}
        }
        let mut out = [0; 3];
        for (i, idx) in op.indices.iter().take(3).enumerate() {
            out[i] = self.index_value(idx, lane)?;
        }
        Ok(out)
    }

    /// The register's four components before swizzle and modifiers.
    fn fetch(&self, op: &Operand, lane: usize) -> Result<Reg, VmError> {
        let zero = [0u32; 4];
        let i = self.indices(op, lane)?;
        let row = |v: Option<&Reg>| *v.unwrap_or(&zero);
        let l = &self.state.lanes[lane];
        Ok(match op.ty {
            OperandType::IMMEDIATE32 | OperandType::IMMEDIATE64 => {
                op.immediate_lanes().unwrap_or(zero)
            }
            OperandType::TEMP => row(l.temps.get(i[0] as usize)),
            OperandType::INPUT => row(self.state.inputs[lane].get(i[0] as usize)),
            OperandType::OUTPUT => row(l.outputs.get(i[0] as usize)),
            OperandType::INDEXABLE_TEMP => row(l
                .indexable
                .get(i[0] as usize)
                .and_then(|x| x.get(i[1] as usize))),
            OperandType::CONSTANT_BUFFER => row(self
                .state
                .constant_buffers
                .get(i[0] as usize)
                .and_then(|cb| cb.get(i[1] as usize))),
            OperandType::IMMEDIATE_CONSTANT_BUFFER => row(self.state.icb.get(i[0] as usize)),
            OperandType::INPUT_PRIMITIVEID => [self.setup.primitive_id; 4],
            // The instance data bound to interface slot i[0].
            OperandType::THIS_POINTER => self.setup.interfaces.get(i[0]).this,
            OperandType::INPUT_COVERAGE_MASK => [self.setup.coverage[lane]; 4],
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => [l.depth; 4],
            OperandType::OUTPUT_COVERAGE_MASK => [l.coverage; 4],
            OperandType::NULL => zero,
            other => return Err(self.not_emulated("reading", other)),
        })
    }

    /// A source operand: swizzled, with modifiers applied as `kind` reads them.
    pub(super) fn read(&self, op: &Operand, lane: usize, kind: NumType) -> Result<Reg, VmError> {
        let raw = self.fetch(op, lane)?;
        let v = match op.selection {
            Selection::Swizzle(s) => s.map(|c| raw[c as usize & 3]),
            Selection::Select1(c) => [raw[c as usize & 3]; 4],
            _ => raw,
        };
        Ok(Self::modify(v, kind, op.modifier))
    }

    /// Denormal flushing (float reads) and the source modifier, decided once
    /// per operand rather than per component.
    #[inline(always)]
    pub(super) fn modify(v: Reg, kind: NumType, modifier: Modifier) -> Reg {
        // The common case first: no modifier.
        if modifier == Modifier::None {
            return if kind == NumType::Float {
                v.map(float::flush)
            } else {
                v
            };
        }
        Self::modify_slow(v, kind, modifier)
    }

    #[cold]
    fn modify_slow(v: Reg, kind: NumType, modifier: Modifier) -> Reg {
        // A double's sign is in its high word; its denormals are kept.
        if kind == NumType::Double {
            let (neg, abs) = match modifier {
                Modifier::None => (false, false),
                Modifier::Neg => (true, false),
                Modifier::Abs => (false, true),
                Modifier::AbsNeg => (true, true),
            };
            return crate::vm::double::modify(v, neg, abs);
        }
        let flush = kind == NumType::Float;
        let m = |b: u32| if flush { float::flush(b) } else { b };
        match (kind, modifier) {
            (_, Modifier::None) => v.map(m),
            (k, Modifier::Neg) if k.is_integer() => v.map(|b| b.wrapping_neg()),
            (k, Modifier::Abs) if k.is_integer() => v.map(|b| (b as i32).wrapping_abs() as u32),
            (k, Modifier::AbsNeg) if k.is_integer() => {
                v.map(|b| (b as i32).wrapping_abs().wrapping_neg() as u32)
            }
            (_, Modifier::Neg) => v.map(|b| m(b) ^ 0x8000_0000),
            (_, Modifier::Abs) => v.map(|b| m(b) & 0x7fff_ffff),
            (_, Modifier::AbsNeg) => v.map(|b| m(b) | 0x8000_0000),
        }
    }

    /// Where a destination operand writes, and its write mask.
    fn target(&self, op: &Operand, lane: usize) -> Result<Option<(Loc, u8)>, VmError> {
        let mask = match op.selection {
            Selection::Mask(m) => m,
            _ if op.components == Components::One => 1,
            _ => 0xf,
        };
        let i = self.indices(op, lane)?;
        Ok(match op.ty {
            OperandType::TEMP => Some((Loc::Temp(i[0]), mask)),
            OperandType::OUTPUT => Some((Loc::Output(i[0]), mask)),
            OperandType::INDEXABLE_TEMP => Some((Loc::Indexable(i[0], i[1]), mask)),
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => Some((Loc::Depth, 1)),
            OperandType::OUTPUT_COVERAGE_MASK => Some((Loc::Coverage, 1)),
            OperandType::OUTPUT_STENCIL_REF => Some((Loc::StencilRef, 1)),
            OperandType::NULL => None,
            other => return Err(self.not_emulated("writing", other)),
        })
    }

    /// Writes `value` through destination `op` for `lane`, recording changes.
    pub(super) fn write(
        &mut self,
        op: &Operand,
        lane: usize,
        value: Reg,
        saturate: bool,
    ) -> Result<(), VmError> {
        let Some((loc, mask)) = self.target(op, lane)? else {
            return Ok(());
        };
        let scalar = matches!(loc, Loc::Depth | Loc::Coverage | Loc::StencilRef);
        for (c, &written) in value.iter().enumerate() {
            if mask & (1 << c) == 0 {
                continue;
            }
            let mut v = written;
            if saturate {
                v = float::saturate(v);
            }
            let comp = if scalar { 0 } else { c };
            if let Some(slot) = self.state.lanes[lane].component_mut(loc, comp) {
                if *slot != v && self.recording {
                    self.writes.push(Change {
                        loc,
                        lane,
                        component: comp,
                        old: *slot,
                        new: v,
                    });
                }
                *slot = v;
            }
        }
        Ok(())
    }

    pub(super) fn active_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..LANES).filter(|&l| matches!(self.control.lanes[l], LaneState::Active))
    }

    // ---- arithmetic -----------------------------------------------------

    fn alu(&mut self, inst: &Instruction, exec: Exec) -> Result<(), VmError> {
        let info = inst.info();
        let ndst = (info.dst as usize).min(inst.operands.len());
        let (dsts, srcs) = inst.operands.split_at(ndst);
        let kind = super::alu::source_type(inst.op);
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
