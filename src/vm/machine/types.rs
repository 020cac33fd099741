//! Register types beside the values: per lane, the type each component's
//! last writer gave it, by the rule `dxbc::value_type` describes. Kept
//! only when a tool asks ([`Machine::set_typing`]: the debugger, `trace`);
//! rendering pays nothing for it.
//!
//! A step's types are worked out before it runs, from the registers as
//! they are then: a move carries its source's type, a select the type of
//! the source its condition picks, and relative indices name the
//! registers the step reads and writes. Every written component counts,
//! also one written with the value it had (an `itof` of 0 makes a float
//! 0), so this does not follow [`Machine::changes`], which lists only
//! changed values. The undo log keeps the types a step replaced.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::Machine;
use crate::dxbc::ir::Instruction;
use crate::dxbc::opcodes::NumType;
use crate::dxbc::value_type::{Carried, Given, Typing, ValueType, and_type, bits_type, selected};
use crate::vm::state::{LANES, Loc};

/// The types of one machine's registers.
#[derive(Clone)]
pub(super) struct TypeFile {
    typing: Rc<Typing>,
    /// Per lane, the components written so far; `None` where the writer
    /// gave no type (a raw load, a move of a constant buffer word).
    lanes: [BTreeMap<Loc, [Option<ValueType>; 4]>; LANES],
}

/// A component's type before a step set it.
#[derive(Debug, Clone, Copy)]
pub(super) struct TypeUndo {
    lane: usize,
    loc: Loc,
    component: usize,
    /// `None` for a component never written or written untyped: the two
    /// read alike.
    old: Option<ValueType>,
}

/// A type a step is about to give a component.
pub(super) struct Pending {
    lane: usize,
    loc: Loc,
    component: usize,
    ty: Option<ValueType>,
}

fn scalar(loc: Loc) -> bool {
    matches!(loc, Loc::Depth | Loc::Coverage | Loc::StencilRef)
}

impl TypeFile {
    /// Every component back to never written, as a new machine starts.
    pub(super) fn forget(&mut self) {
        for lane in &mut self.lanes {
            lane.clear();
        }
    }

    fn get(&self, lane: usize, loc: Loc, c: usize) -> Option<ValueType> {
        self.lanes[lane].get(&loc).and_then(|t| t[c & 3])
    }
}

impl Machine {
    /// Keeps register types from here on, with what the program declares
    /// (`typing`: input, texture and UAV types). Registers written before
    /// count as untyped.
    pub fn set_typing(&mut self, typing: Rc<Typing>) {
        self.types = Some(Box::new(TypeFile {
            typing,
            lanes: Default::default(),
        }));
    }

    /// The type of `lane`'s register component: its last writer's;
    /// float where nothing says otherwise (never written, an untyped
    /// writer, or no typing kept).
    pub fn value_type(&self, lane: usize, loc: Loc, component: usize) -> ValueType {
        self.types
            .as_ref()
            .and_then(|f| f.get(lane, loc, component))
            .unwrap_or(ValueType::Float)
    }

    /// The type of input `v{reg}`'s component (its signature's).
    pub fn input_type(&self, reg: u32, component: usize) -> ValueType {
        self.types
            .as_ref()
            .map_or(ValueType::Float, |f| f.typing.input(reg, component))
    }

    /// The types instruction `index` gives the components it writes for
    /// the lanes about to run it (empty when no typing is kept).
    pub(super) fn pending_types(&self, index: usize) -> Vec<Pending> {
        let Some(file) = self.types.as_deref() else {
            return Vec::new();
        };
        let inst = &self.prepared.program.instructions[index];
        let info = inst.info();
        if info.is_decl() || info.dst == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (k, op) in inst.dsts().iter().enumerate() {
            if !op.ty.is_lane_register() {
                continue;
            }
            let given = file.typing.given(inst, k);
            for lane in self.active_lanes() {
                // A destination the step cannot write fails the step
                // itself; nothing to type.
                let Ok(Some((loc, mask))) = self.target(op, lane) else {
                    continue;
                };
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    out.push(Pending {
                        lane,
                        loc,
                        component: if scalar(loc) { 0 } else { c },
                        ty: self.resolve(file, inst, given, lane, c),
                    });
                }
            }
        }
        out
    }

    /// The type `given` works out to for `lane`'s component `c`.
    fn resolve(
        &self,
        file: &TypeFile,
        inst: &Instruction,
        given: Given,
        lane: usize,
        c: usize,
    ) -> Option<ValueType> {
        let carried = |operand: usize| -> Option<ValueType> {
            let op = inst.operands.get(operand)?;
            let from = selected(op, c);
            let bits = self
                .read(op, lane, NumType::Untyped)
                .map_or(0, |v| v[c & 3]);
            match file.typing.source(op, from, bits) {
                Carried::Type(t) => Some(t),
                Carried::Unknown => None,
                Carried::Register => {
                    let (loc, _) = self.target(op, lane).ok()??;
                    file.get(lane, loc, if scalar(loc) { 0 } else { from })
                }
            }
        };
        match given {
            Given::Type(t) => Some(t),
            Given::Unknown => None,
            Given::Moved { operand } => carried(operand),
            Given::Chosen {
                condition,
                if_set,
                if_clear,
            } => {
                let cond = self.read(inst.operands.get(condition)?, lane, NumType::Untyped);
                let set = cond.ok()?[c & 3] != 0;
                carried(if set { if_set } else { if_clear })
            }
            Given::And { a, b } => and_type(carried(a), carried(b)),
            Given::Bits { first, count } => Some(bits_type((first..first + count).map(carried))),
        }
    }

    /// Gives the components their new types; returns what they replaced.
    pub(super) fn apply_types(&mut self, pending: Vec<Pending>) -> Vec<TypeUndo> {
        let Some(file) = self.types.as_deref_mut() else {
            return Vec::new();
        };
        let mut undo = Vec::with_capacity(pending.len());
        for p in pending {
            let slot = file.lanes[p.lane].entry(p.loc).or_default();
            undo.push(TypeUndo {
                lane: p.lane,
                loc: p.loc,
                component: p.component,
                old: slot[p.component],
            });
            slot[p.component] = p.ty;
        }
        undo
    }

    /// Puts back the types a step replaced, last first.
    pub(super) fn undo_types(&mut self, undo: &[TypeUndo]) {
        let Some(file) = self.types.as_deref_mut() else {
            return;
        };
        for u in undo.iter().rev() {
            if let Some(slot) = file.lanes[u.lane].get_mut(&u.loc) {
                slot[u.component] = u.old;
            }
        }
    }
}
