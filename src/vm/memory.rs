//! Raw, structured and typed (R32) buffers and UAVs (SRV `t#`, UAV `u#`)
//! and the instructions that read, write and atomically update them.
//! D3D11's rules, as the emulator applies them:
//!
//! * Memory is 32-bit words. A raw address is a byte offset; its low two
//!   bits are dropped (D3D requires multiples of 4 and leaves others
//!   undefined, so cases must not rely on this choice).
//! * A structured address is (element index, byte offset in the element).
//! * Each 32-bit component is bounds-checked on its own: a read past the
//!   end (or past the element's stride) gives 0, a write there is dropped.
//! * Helper lanes (and discarded ones) never write, and atomics in them
//!   do nothing and return 0.
//! * Lanes run in quad order (0..4) within an instruction; the harness
//!   runs quads in row-major order. Only order-free results (sums, counts,
//!   min/max) make cases that any GPU would agree with.
//!
//! Every word a store or atomic writes (and every counter change) goes
//! through [`put`]/[`count`], which hand the machine a [`MemoryWrite`]:
//! its undo log keeps them, so stepping back restores a UAV exactly, and
//! the debugger shows which element the step wrote.

use super::VmError;
use super::machine::Machine;
use super::sampling::swizzle;
use super::state::LANES;
use crate::dxbc::ir::{Instruction, Operand, OperandType, Selection};
use crate::dxbc::opcodes::{AtomicOp, Class, NumType, Op};
use crate::vm::texture::{Format, ResInfoReturn, resinfo_encode};

/// How a buffer's words are addressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Byte addresses (`ByteAddressBuffer`).
    Raw,
    /// Elements of `stride` bytes (a multiple of 4).
    Structured { stride: u32 },
    /// A typed UAV of a single 32-bit channel format (`R32_UINT`,
    /// `R32_SINT`, `R32_FLOAT`: the formats D3D11 loads from a typed UAV
    /// without its optional extended formats): one word per element. `row`
    /// is None for a buffer (addressed by `.x`), a 2D texture's width for
    /// `RWTexture2D` (texel (x, y) is element y * width + x; `.y` past the
    /// rows, or `.x` past the width, is out of bounds).
    Typed { format: Format, row: Option<u32> },
}

/// A buffer view's contents: its words, layout and (UAVs) the hidden
/// counter `imm_atomic_alloc`/`imm_atomic_consume` use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    pub layout: Layout,
    pub words: Vec<u32>,
    pub counter: u32,
}

/// Which part of a UAV a step wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Word `word` of the buffer (an index into [`Buffer::words`]), part
    /// of element `element` (a structured element spans several words;
    /// raw and typed elements are one word each).
    Word { element: u32, word: u32 },
    /// The hidden counter `imm_atomic_alloc`/`imm_atomic_consume` move.
    Counter,
}

/// One write a step made to a UAV (`u#` slot `slot`) on behalf of `lane`:
/// a store's component or an atomic's result. Writes of an unchanged value
/// are recorded too: the instruction still wrote there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryWrite {
    pub slot: u32,
    pub lane: usize,
    pub cell: Cell,
    pub old: u32,
    pub new: u32,
}

impl Layout {
    /// 32-bit words per element (a raw buffer's elements are words).
    pub fn words_per_element(self) -> u32 {
        match self {
            Layout::Raw | Layout::Typed { .. } => 1,
            Layout::Structured { stride } => stride / 4,
        }
    }
}

impl Buffer {
    pub fn new(layout: Layout, words: Vec<u32>) -> Buffer {
        Buffer {
            layout,
            words,
            counter: 0,
        }
    }

    /// The word index of component `c` at an address, None when out of
    /// bounds (past the buffer, or past the element for structured).
    fn word(&self, address: [u32; 2], c: u32) -> Option<usize> {
        let byte = match self.layout {
            Layout::Raw => u64::from(address[0] & !3) + 4 * u64::from(c),
            Layout::Structured { stride } => {
                let within = u64::from(address[1] & !3) + 4 * u64::from(c);
                if within >= u64::from(stride) {
                    return None;
                }
                u64::from(address[0]) * u64::from(stride) + within
            }
            Layout::Typed { row: None, .. } if c == 0 => u64::from(address[0]) * 4,
            Layout::Typed { row: Some(w), .. } if c == 0 && address[0] < w => {
                (u64::from(address[1]) * u64::from(w) + u64::from(address[0])) * 4
            }
            Layout::Typed { .. } => return None,
        };
        let w = usize::try_from(byte / 4).ok()?;
        (w < self.words.len()).then_some(w)
    }

    /// Component `c` at `address`; 0 out of bounds.
    pub fn load(&self, address: [u32; 2], c: u32) -> u32 {
        self.word(address, c).map_or(0, |w| self.words[w])
    }

    /// Stores component `c`; dropped out of bounds.
    pub fn store(&mut self, address: [u32; 2], c: u32, v: u32) {
        if let Some(w) = self.word(address, c) {
            self.words[w] = v;
        }
    }

    /// The element word `word` belongs to.
    pub fn element_of(&self, word: usize) -> u32 {
        (word as u32) / self.layout.words_per_element().max(1)
    }

    /// Puts a recorded write's `value` (its old or new one) back in place;
    /// a write to a word the buffer no longer has is ignored.
    pub fn set(&mut self, cell: Cell, value: u32) {
        match cell {
            Cell::Word { word, .. } => {
                if let Some(w) = self.words.get_mut(word as usize) {
                    *w = value;
                }
            }
            Cell::Counter => self.counter = value,
        }
    }

    /// What `bufinfo` reports: the byte size for raw, the element count
    /// for structured.
    pub fn info(&self) -> u32 {
        let bytes = self.words.len() as u64 * 4;
        match self.layout {
            Layout::Raw => bytes as u32,
            Layout::Typed { .. } => self.words.len() as u32,
            Layout::Structured { stride } => (bytes / u64::from(stride.max(1))) as u32,
        }
    }
}

impl Buffer {
    /// What `resinfo` reports for this UAV. D3D11 gives a UAV view one mip
    /// level, so `.w` is 1 and only mip 0 has a size (any other mip reads
    /// sizes of 0). A typed 2D UAV reports `(width, height, 0, 1)`. A typed
    /// buffer reports `(elements, 0, 0, 1)`, as a typed buffer texture
    /// does here (D3D11 sizes buffers with `bufinfo`, which is what fxc
    /// emits, and the translator refuses `resinfo` on one); a raw or
    /// structured view, which `resinfo` cannot name, all zeros.
    pub fn resinfo(&self, mip: u32, ret: ResInfoReturn) -> [u32; 4] {
        let n = self.words.len() as u32;
        let (w, h) = match self.layout {
            Layout::Typed { row: Some(w), .. } => (w, n.checked_div(w).unwrap_or(0)),
            Layout::Typed { row: None, .. } => (n, 0),
            Layout::Raw | Layout::Structured { .. } => return [0; 4],
        };
        let (w, h) = if mip == 0 { (w, h) } else { (0, 0) };
        let is_2d = matches!(self.layout, Layout::Typed { row: Some(_), .. });
        resinfo_encode([(w, true), (h, is_2d), (0, false)], 1, ret)
    }
}

/// An atomic operation: the new memory value from the old one and the
/// operands (`cmp` only for the compare forms).
fn atomic(op: AtomicOp, old: u32, value: u32, cmp: u32) -> u32 {
    match op {
        AtomicOp::And => old & value,
        AtomicOp::Or => old | value,
        AtomicOp::Xor => old ^ value,
        AtomicOp::Add => old.wrapping_add(value),
        AtomicOp::Imax => (old as i32).max(value as i32) as u32,
        AtomicOp::Imin => (old as i32).min(value as i32) as u32,
        AtomicOp::Umax => old.max(value),
        AtomicOp::Umin => old.min(value),
        AtomicOp::Exchange => value,
        AtomicOp::CompareExchange => {
            if old == cmp {
                value
            } else {
                old
            }
        }
    }
}

/// Whether the emulator runs `op` here (the `_s` forms are not yet
/// emulated; see `alu::exec_of`).
pub fn emulated(op: Op) -> bool {
    // Every memory instruction but the tiled-resource `_s` loads: loads,
    // stores, the atomics, the counter instructions and `sync`.
    op.info().class == Class::Memory && op.feedback_form().is_none()
}

fn malformed(index: usize, message: String) -> VmError {
    VmError::Malformed { index, message }
}

/// A store's write mask (the UAV operand's).
fn mask(op: &Operand) -> u8 {
    match op.selection {
        Selection::Mask(m) => m,
        _ => 0xF,
    }
}

/// Writes word `w` of UAV `slot` for `lane` and tells the machine.
fn put(m: &mut Machine, slot: u32, lane: usize, w: usize, new: u32) {
    let Some(buf) = m.uav_mut(slot) else {
        return;
    };
    let Some(word) = buf.words.get_mut(w) else {
        return;
    };
    let old = std::mem::replace(word, new);
    let element = buf.element_of(w);
    let cell = Cell::Word {
        element,
        word: w as u32,
    };
    m.log_memory(MemoryWrite {
        slot,
        lane,
        cell,
        old,
        new,
    });
}

/// Moves UAV `slot`'s counter for `lane` (`alloc`: up, returning the old
/// value; otherwise down, returning the new one) and tells the machine.
fn count(m: &mut Machine, slot: u32, lane: usize, alloc: bool) -> u32 {
    let Some(buf) = m.uav_mut(slot) else {
        return 0;
    };
    let old = buf.counter;
    let new = if alloc {
        old.wrapping_add(1)
    } else {
        old.wrapping_sub(1)
    };
    buf.counter = new;
    m.log_memory(MemoryWrite {
        slot,
        lane,
        cell: Cell::Counter,
        old,
        new,
    });
    if alloc { old } else { new }
}

/// Runs a buffer or UAV instruction for the lanes that execute it.
pub fn execute(m: &mut Machine, index: usize, inst: &Instruction) -> Result<(), VmError> {
    if inst.op == Op::Sync {
        // One pixel shader invocation's accesses are already in order; a
        // barrier across invocations has nothing to wait for here.
        return Ok(());
    }
    let ops = &inst.operands;
    let op = |i: usize| -> Result<&Operand, VmError> {
        ops.get(i)
            .ok_or_else(|| malformed(index, format!("`{}` is missing operands", inst.name())))
    };
    let running = m.execution_mask();
    let helper = m.helper();
    let lanes: Vec<usize> = (0..LANES).filter(|&l| running[l]).collect();
    // Lanes that may change memory: helper lanes never do.
    let writers: Vec<usize> = lanes.iter().copied().filter(|&l| !helper[l]).collect();
    let u32s = |m: &Machine, o: &Operand, l: usize| m.read(o, l, NumType::Untyped);
    // What a store or atomic writes must be a UAV: thread-group shared
    // memory (`g#`) belongs to compute shaders, which are not emulated.
    let uav_operand = |o: &Operand| -> Result<(), VmError> {
        if o.ty == OperandType::UNORDERED_ACCESS_VIEW {
            Ok(())
        } else {
            Err(VmError::Unsupported {
                index,
                mnemonic: inst.name().to_string(),
                reason: "only UAVs (u#) are emulated as writable memory; \
                         thread-group shared memory (g#) is not"
                    .to_string(),
            })
        }
    };
    match inst.op {
        Op::LdRaw | Op::LdStructured => {
            let structured = inst.op == Op::LdStructured;
            let res = op(if structured { 3 } else { 2 })?;
            let slot = m.slot(index, res)?;
            let dst = op(0)?;
            for &l in &lanes {
                let a = u32s(m, op(1)?, l)?[0];
                let b = if structured {
                    u32s(m, op(2)?, l)?[0]
                } else {
                    0
                };
                let buf = view(m, index, inst, res, slot)?;
                let v = buf.map_or([0; 4], |b2| {
                    std::array::from_fn(|c| b2.load([a, b], c as u32))
                });
                m.write(dst, l, swizzle(res, v), false)?;
            }
        }
        Op::LdUavTyped => {
            // ld_uav_typed dst, address, u#: a single-channel format reads
            // (v, 0, 0, 1), 1 in the format's type; out of bounds all 0.
            let (dst, res) = (op(0)?, op(2)?);
            uav_operand(res)?;
            let slot = m.slot(index, res)?;
            for &l in &lanes {
                let a = u32s(m, op(1)?, l)?;
                let v = match m.uav(slot) {
                    Some(b) => match (b.layout, b.word([a[0], a[1]], 0)) {
                        (Layout::Typed { format, .. }, Some(w)) => {
                            let one = if format == Format::R32Float {
                                1.0f32.to_bits()
                            } else {
                                1
                            };
                            [b.words[w], 0, 0, one]
                        }
                        _ => [0; 4],
                    },
                    None => [0; 4],
                };
                m.write(dst, l, swizzle(res, v), false)?;
            }
        }
        Op::StoreUavTyped => {
            // store_uav_typed u#.xyzw, address, value: the single channel
            // takes value.x, bits unchanged.
            uav_operand(op(0)?)?;
            let slot = m.slot(index, op(0)?)?;
            for &l in &writers {
                let a = u32s(m, op(1)?, l)?;
                let v = u32s(m, op(2)?, l)?[0];
                let w = m
                    .uav(slot)
                    .filter(|b| matches!(b.layout, Layout::Typed { .. }))
                    .and_then(|b| b.word([a[0], a[1]], 0));
                if let Some(w) = w {
                    put(m, slot, l, w, v);
                }
            }
        }
        Op::StoreRaw | Op::StoreStructured => {
            let structured = inst.op == Op::StoreStructured;
            let uav = op(0)?;
            uav_operand(uav)?;
            let slot = m.slot(index, uav)?;
            let wmask = mask(uav);
            for &l in &writers {
                let a = u32s(m, op(1)?, l)?[0];
                let (b, value) = if structured {
                    (u32s(m, op(2)?, l)?[0], u32s(m, op(3)?, l)?)
                } else {
                    (0, u32s(m, op(2)?, l)?)
                };
                // Mask component c writes word c of the window (D3D only
                // allows .x, .xy, .xyz, .xyzw here).
                for c in (0..4).filter(|c| wmask & (1 << c) != 0) {
                    if let Some(w) = m.uav(slot).and_then(|buf| buf.word([a, b], c)) {
                        put(m, slot, l, w, value[c as usize]);
                    }
                }
            }
        }
        Op::ImmAtomicAlloc | Op::ImmAtomicConsume => {
            let dst = op(0)?;
            uav_operand(op(1)?)?;
            let slot = m.slot(index, op(1)?)?;
            for &l in &lanes {
                let got = if helper[l] {
                    0
                } else {
                    count(m, slot, l, inst.op == Op::ImmAtomicAlloc)
                };
                m.write(dst, l, [got; 4], false)?;
            }
        }
        _ => {
            // The atomics: `atomic_* u, addr, v[, v2]` and
            // `imm_atomic_* dst, u, addr, v[, v2]`.
            let Some(atomic_of) = inst.op.atomic() else {
                return Err(VmError::Unsupported {
                    index,
                    mnemonic: inst.name().to_string(),
                    reason: "not a buffer or UAV instruction the emulator runs".to_string(),
                });
            };
            let imm = atomic_of.returns_old;
            let base = atomic_of.uav();
            let uav = op(base)?;
            uav_operand(uav)?;
            let slot = m.slot(index, uav)?;
            let compare = atomic_of.compares();
            for &l in &lanes {
                let addr = u32s(m, op(base + 1)?, l)?;
                let first = u32s(m, op(base + 2)?, l)?[0];
                let (cmp, value) = if compare {
                    (first, u32s(m, op(base + 3)?, l)?[0])
                } else {
                    (0, first)
                };
                let mut old = 0;
                let a = [addr[0], addr[1]];
                let w = m.uav(slot).and_then(|b| Some((b.word(a, 0)?, b)));
                if !helper[l]
                    && let Some((w, buf)) = w
                {
                    old = buf.words[w];
                    put(m, slot, l, w, atomic(atomic_of.op, old, value, cmp));
                }
                if imm {
                    m.write(op(0)?, l, [old; 4], false)?;
                }
            }
        }
    }
    Ok(())
}

/// The buffer a load reads: an SRV (`t#`) from the resources or a UAV
/// (`u#`) from the machine. None when nothing is bound (reads give 0).
fn view<'m>(
    m: &'m Machine,
    index: usize,
    inst: &Instruction,
    res: &Operand,
    slot: u32,
) -> Result<Option<&'m Buffer>, VmError> {
    match res.ty {
        OperandType::RESOURCE => Ok(m.resources().buffer(slot)),
        OperandType::UNORDERED_ACCESS_VIEW => Ok(m.uav(slot)),
        _ => Err(VmError::Unsupported {
            index,
            mnemonic: inst.name().to_string(),
            reason: "only t# and u# buffers are emulated; thread-group shared memory (g#) is not"
                .to_string(),
        }),
    }
}

#[cfg(test)]
mod tests;
