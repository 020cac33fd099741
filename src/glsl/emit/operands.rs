//! Operand reads and destination writes, which every instruction family
//! shares: where a register lives, swizzles, bitcasts between the stored
//! and the wanted type, source modifiers, relative indices, write masks
//! and `_sat`.

use super::super::types::{COMPONENTS, Ty, mask_count};
use super::super::writer::{Piece, cat};
use super::super::{Dialect, Reason, decl, interfaces};
use super::Emitter;
use crate::dxbc::ir::{Components, Index, Instruction, Modifier, Operand, OperandType, Selection};
use crate::dxbc::numfmt::push_u64;

/// Where an operand's base value lives and what type its bits are stored as.
pub struct Base {
    pub expr: String,
    pub ty: Ty,
    /// Components the base has (indexable temps may have fewer than four).
    pub width: usize,
}

/// What [`Emitter::base_into`] wrote: the stored type and width.
#[derive(Clone, Copy)]
pub struct Kind {
    pub ty: Ty,
    pub width: usize,
}

/// A `v` or `o` register's name as a line piece: `v3`, or `v[3]` when
/// the file is an indexed array. Declarations name a register in every
/// line they write, with no `String` of its own.
#[derive(Debug, Clone, Copy)]
pub struct RegName {
    file: char,
    indexed: bool,
    r: u32,
}

impl Piece for RegName {
    fn push_to(&self, out: &mut String) {
        out.push(self.file);
        if self.indexed {
            out.push('[');
            push_u64(out, self.r.into());
            out.push(']');
        } else {
            push_u64(out, self.r.into());
        }
    }
}

impl Emitter<'_> {
    /// Input register `r`'s name, as a piece.
    pub fn input_reg(&self, r: u32) -> RegName {
        RegName {
            file: 'v',
            indexed: self.inputs_indexed,
            r,
        }
    }

    /// Output register `r`'s name, as a piece.
    pub fn output_reg(&self, r: u32) -> RegName {
        RegName {
            file: 'o',
            indexed: self.outputs_indexed,
            r,
        }
    }

    /// The name of input register `r` (array element when indexed).
    pub fn input_name(&self, r: u32) -> String {
        let mut s = String::with_capacity(24);
        self.push_register(&mut s, 'v', self.inputs_indexed, r);
        s
    }

    /// `v3`, or `v[3]` when the file is an indexed array.
    fn push_register(&self, out: &mut String, file: char, indexed: bool, r: u32) {
        RegName { file, indexed, r }.push_to(out);
    }

    /// An index expression (`int`), relative parts read as integers.
    pub fn index_expr(&mut self, inst: &Instruction, idx: &Index) -> String {
        let mut s = String::with_capacity(20);
        self.index_into(&mut s, inst, idx);
        s
    }

    /// [`Emitter::index_expr`] appended to `out`: every constant-buffer
    /// read has one, so its digits go straight into the operand's text.
    pub fn index_into(&mut self, out: &mut String, inst: &Instruction, idx: &Index) {
        match idx {
            Index::Imm32(v) => push_u64(out, (*v).into()),
            Index::Imm64(v) => push_u64(out, *v),
            Index::Relative(r) => self.read_into(out, inst, r, &[0], Ty::Int),
            Index::Imm32Relative(v, r) => {
                self.read_into(out, inst, r, &[0], Ty::Int);
                if *v != 0 {
                    out.push_str(" + ");
                    push_u64(out, (*v).into());
                }
            }
            Index::Imm64Relative(v, r) => {
                self.read_into(out, inst, r, &[0], Ty::Int);
                out.push_str(" + ");
                push_u64(out, *v);
            }
        }
    }

    /// [`Emitter::index_into`] for an index the operand may lack: a
    /// missing one reads element 0, as a register file with no index
    /// names its first row.
    fn index_or_zero_into(&mut self, out: &mut String, inst: &Instruction, idx: Option<&Index>) {
        match idx {
            Some(i) => self.index_into(out, inst, i),
            None => out.push('0'),
        }
    }

    /// Where the register named by `op` lives. None for immediates and for
    /// register files that cannot be lowered (recorded as refusals).
    pub fn base(&mut self, inst: &Instruction, op: &Operand) -> Option<Base> {
        let mut expr = String::with_capacity(24);
        let k = self.base_into(&mut expr, inst, op)?;
        Some(Base {
            expr,
            ty: k.ty,
            width: k.width,
        })
    }

    /// [`Emitter::base`] with the expression appended to `out` (every
    /// operand of every instruction comes through here, and a `String`
    /// of its own was most of an operand's cost). Nothing is written when
    /// it gives None.
    pub fn base_into(
        &mut self,
        out: &mut String,
        inst: &Instruction,
        op: &Operand,
    ) -> Option<Kind> {
        const VEC4: Option<Kind> = Some(Kind {
            ty: Ty::Float,
            width: 4,
        });
        let first = op.indices.first();
        match op.ty {
            OperandType::TEMP => {
                out.push('r');
                push_u64(out, op.reg().unwrap_or(0).into());
                VEC4
            }
            OperandType::INPUT | OperandType::OUTPUT => {
                let input = op.ty == OperandType::INPUT;
                let file = if input { 'v' } else { 'o' };
                match first {
                    Some(Index::Imm32(r)) => {
                        let indexed = if input {
                            self.inputs_indexed
                        } else {
                            self.outputs_indexed
                        };
                        self.push_register(out, file, indexed, *r);
                    }
                    // A relative index reads the register file array.
                    Some(i) => {
                        out.push(file);
                        out.push('[');
                        self.index_into(out, inst, i);
                        out.push(']');
                    }
                    None => {
                        out.push(file);
                        out.push('0');
                    }
                }
                VEC4
            }
            OperandType::INDEXABLE_TEMP => {
                let reg = op.reg().unwrap_or(0);
                out.push('x');
                push_u64(out, reg.into());
                out.push('[');
                self.index_or_zero_into(out, inst, op.indices.get(1));
                out.push(']');
                let width = self.indexable_widths.get(&reg).copied().unwrap_or(4);
                Some(Kind {
                    ty: Ty::Float,
                    width,
                })
            }
            OperandType::CONSTANT_BUFFER => {
                // SM5.0: cb#[index]; SM5.1: cb#[range id][index].
                let (slot, idx) = (
                    op.indices.first(),
                    op.indices.get(self.program.constant_buffer_row_index()),
                );
                match slot {
                    // `cb[r1.x + 0][…]`: fxc picks a class instance's buffer
                    // by `this[].x` so; GLSL has no array of blocks to
                    // index, so the declared buffers are chosen between
                    // (any other reads zeros, as D3D's unbound buffer).
                    Some(i) if !self.program.is_sm51() && i.relative().is_some() => {
                        let mut e = String::with_capacity(20);
                        self.index_or_zero_into(&mut e, inst, idx);
                        let s = self.index_expr(inst, i);
                        let mut slots: Vec<u32> = self
                            .manifest
                            .constant_buffers
                            .iter()
                            .map(|c| c.slot)
                            .collect();
                        slots.sort_unstable();
                        slots.dedup();
                        // `(s) == 0 ? cb0.data[e] : (s) == 2 ? … : vec4(0.0)`,
                        // lowest slot first, pushed in order. Nested
                        // conditionals associate to the right, so the
                        // chain needs no inner parentheses.
                        out.push('(');
                        for &n in &slots {
                            cat!(out; '(', &s, ") == ", n, " ? cb", n, ".data[", &e, "] : ");
                        }
                        out.push_str("vec4(0.0))");
                    }
                    _ => {
                        let slot = slot.and_then(|i| i.imm()).unwrap_or(0);
                        out.push_str("cb");
                        push_u64(out, slot);
                        out.push_str(".data[");
                        self.index_or_zero_into(out, inst, idx);
                        out.push(']');
                    }
                }
                VEC4
            }
            OperandType::IMMEDIATE_CONSTANT_BUFFER => {
                out.push_str("ImmCB_0[");
                self.index_or_zero_into(out, inst, first);
                out.push(']');
                Some(Kind {
                    ty: Ty::Uint,
                    width: 4,
                })
            }
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => {
                self.uses_depth_output = true;
                out.push_str("oDepth");
                Some(Kind {
                    ty: Ty::Float,
                    width: 1,
                })
            }
            OperandType::OUTPUT_COVERAGE_MASK if self.dialect == Dialect::Vk450 => {
                self.uses_coverage_output = true;
                out.push_str("oMask");
                Some(Kind {
                    ty: Ty::Uint,
                    width: 1,
                })
            }
            // Declared only at sample frequency (decl/input.rs refuses the rest):
            // a sample's invocation covers its own sample.
            OperandType::INPUT_COVERAGE_MASK
                if self.dialect == Dialect::Vk450 && decl::runs_per_sample(self) =>
            {
                out.push_str("(1u << uint(gl_SampleID))");
                Some(Kind {
                    ty: Ty::Uint,
                    width: 1,
                })
            }
            OperandType::THIS_POINTER => {
                let b = interfaces::this_base(self, inst, op);
                out.push_str(&b.expr);
                Some(Kind {
                    ty: b.ty,
                    width: b.width,
                })
            }
            other => {
                let reason = match other {
                    // vk450 lowers vCoverage at sample frequency only.
                    OperandType::INPUT_COVERAGE_MASK if self.dialect == Dialect::Vk450 => {
                        Reason::CoverageInput
                    }
                    // vk450 has UAVs, but not as values.
                    OperandType::UNORDERED_ACCESS_VIEW if self.dialect == Dialect::Vk450 => {
                        Reason::ViewMismatch
                    }
                    _ => operand_refusal(other),
                };
                self.refuse(inst, reason);
                None
            }
        }
    }

    /// Source component index for each destination position in `positions`
    /// (0..4), after the operand's swizzle.
    pub fn source_components(op: &Operand, positions: &[u8]) -> Vec<u8> {
        positions.iter().map(|&p| source_component(op, p)).collect()
    }

    /// The source component read for destination position `p`, after
    /// the operand's swizzle.
    pub fn source_component(op: &Operand, p: u8) -> u8 {
        source_component(op, p)
    }

    /// Reads `op` as `ty` for the destination positions `positions`: a
    /// scalar for one position, otherwise a vector of that many components.
    /// Modifiers are applied in `ty`'s arithmetic.
    pub fn read(&mut self, inst: &Instruction, op: &Operand, positions: &[u8], ty: Ty) -> String {
        let mut s = String::with_capacity(32);
        self.read_into(&mut s, inst, op, positions, ty);
        s
    }

    /// [`Emitter::read`] appended to `out`. Every operand of every
    /// instruction comes through here: the base is written in place and
    /// the conversions and modifiers wrapped around it there (a short
    /// insert), so a read allocates nothing.
    pub fn read_into(
        &mut self,
        out: &mut String,
        inst: &Instruction,
        op: &Operand,
        positions: &[u8],
        ty: Ty,
    ) {
        let n = positions.len().max(1);
        let start = out.len();
        if op.is_immediate() {
            let value = op.immediate_lanes().unwrap_or([0; 4]);
            let mut lanes = [0u32; 4];
            for (l, &p) in lanes.iter_mut().zip(positions) {
                *l = value[p as usize & 3];
            }
            ty.push_literal_vec(out, &lanes[..positions.len().min(4)]);
            modify_at(out, start, op.modifier, ty, n);
            return;
        }
        let Some(base) = self.base_into(out, inst, op) else {
            out.truncate(start);
            ty.push_literal_vec(out, &[0; 4][..n.min(4)]);
            return;
        };
        if base.width == 1 && n > 1 {
            // Widen a scalar register to the destination's width.
            convert_at(out, start, base.ty, ty, 1);
            wrap(out, start, ty.vec(n));
        } else {
            if base.width != 1 {
                let mut comps = [0u8; 4];
                let mut len = 0;
                for (c, &p) in comps.iter_mut().zip(positions) {
                    *c = source_component(op, p).min(base.width as u8 - 1);
                    len += 1;
                }
                let comps = &comps[..len];
                if !(base.width == 4 && comps == [0, 1, 2, 3]) {
                    push_swizzle(out, comps);
                }
            }
            convert_at(out, start, base.ty, ty, n);
        }
        modify_at(out, start, op.modifier, ty, n);
    }

    /// Reads a scalar (a one-component selection, or the first component).
    pub fn read_scalar(&mut self, inst: &Instruction, op: &Operand, ty: Ty) -> String {
        self.read(inst, op, &[0], ty)
    }

    /// Reads the first `n` components of `op` (coordinates, offsets).
    pub fn read_n(&mut self, inst: &Instruction, op: &Operand, n: usize, ty: Ty) -> String {
        const FIRST: [u8; 4] = [0, 1, 2, 3];
        if n > 4 {
            // Never asked for (coordinates and offsets are at most four),
            // but kept as the general form gives it.
            let positions: Vec<u8> = (0..n as u8).collect();
            return self.read(inst, op, &positions, ty);
        }
        self.read(inst, op, &FIRST[..n], ty)
    }

    /// Reads `op` as `ty` for the components `mask` writes, appended to
    /// `out`.
    pub fn read_masked_into(
        &mut self,
        out: &mut String,
        inst: &Instruction,
        op: &Operand,
        mask: u8,
        ty: Ty,
    ) {
        let mut positions = [0u8; 4];
        let mut len = 0;
        for c in 0..4u8 {
            if mask & (1 << c) != 0 {
                positions[len] = c;
                len += 1;
            }
        }
        self.read_into(out, inst, op, &positions[..len], ty)
    }

    /// The destination's write mask (a full mask for one-component
    /// destinations).
    pub fn dst_mask(op: &Operand) -> u8 {
        match op.selection {
            Selection::Mask(m) => m & 0xf,
            _ => {
                if op.components == Components::One {
                    1
                } else {
                    0xf
                }
            }
        }
    }

    /// Writes `expr`, a `ty` value with one component per bit of the
    /// destination's mask, to `dst`: bitcast to float bits, clamped when
    /// `sat`. A null destination writes nothing.
    pub fn assign(&mut self, inst: &Instruction, dst: &Operand, expr: &str, ty: Ty, sat: bool) {
        if dst.ty == OperandType::NULL {
            return;
        }
        let mask = Self::dst_mask(dst);
        let n = mask_count(mask);
        let mut target = self.take_buf();
        let Some(base) = self.base_into(&mut target, inst, dst) else {
            self.give_buf(target);
            return;
        };
        if dst.ty == OperandType::OUTPUT
            && let Some(Index::Imm32(r)) = dst.indices.first()
        {
            self.outputs_written.insert(*r);
        }
        if base.width != 1 {
            let mut comps = [0u8; 4];
            let mut len = 0;
            for c in 0..4u8 {
                if mask & (1 << c) != 0 && (c as usize) < base.width {
                    comps[len] = c;
                    len += 1;
                }
            }
            if !(len == base.width && base.width == 4) {
                push_swizzle(&mut target, &comps[..len]);
            }
        }
        // `target = value;`, the value converted to the register's type
        // and clamped when `sat`, written straight into the body.
        self.body.open(self.cur);
        let buf = self.body.buf();
        buf.push_str(&target);
        buf.push_str(" = ");
        if sat {
            buf.push_str("clamp(");
        }
        push_converted(buf, expr, ty, base.ty, n);
        if sat {
            if n == 1 {
                buf.push_str(", 0.0, 1.0)");
            } else {
                let v = Ty::Float.vec(n);
                for bound in ["0.0", "1.0"] {
                    buf.push_str(", ");
                    buf.push_str(v);
                    buf.push('(');
                    buf.push_str(bound);
                    buf.push(')');
                }
                buf.push(')');
            }
        }
        buf.push_str(";\n");
        self.give_buf(target);
    }

    /// An empty buffer for an expression being built, from the ones
    /// given back: statements are built in reused buffers, not a fresh
    /// `String` per operand.
    pub fn take_buf(&mut self) -> String {
        self.bufs.take()
    }

    /// Gives a buffer from [`Emitter::take_buf`] back, emptied.
    pub fn give_buf(&mut self, s: String) {
        self.bufs.give(s);
    }
}

/// The source component read for destination position `p`, after the
/// operand's swizzle.
fn source_component(op: &Operand, p: u8) -> u8 {
    match op.selection {
        Selection::Swizzle(s) => s[p as usize & 3],
        Selection::Select1(c) => c,
        Selection::Mask(_) | Selection::None => {
            if op.components == Components::One {
                0
            } else {
                p
            }
        }
    }
}

/// Appends `.xyz` for component indices, as `types::swizzle` spells it.
fn push_swizzle(s: &mut String, comps: &[u8]) {
    s.push('.');
    for &c in comps {
        s.push(COMPONENTS[(c & 3) as usize]);
    }
}

/// Converts a value of `from` bits to `to`: bitcasts between float and the
/// integer types, `int()`/`uint()` (bit-preserving) between the two.
pub fn convert(expr: &str, from: Ty, to: Ty, n: usize) -> String {
    let mut s = String::with_capacity(expr.len() + 18);
    push_converted(&mut s, expr, from, to, n);
    s
}

/// [`convert`] appended to `out`.
pub fn push_converted(out: &mut String, expr: &str, from: Ty, to: Ty, n: usize) {
    match conversion(from, to, n) {
        None => out.push_str(expr),
        Some(f) => {
            out.push_str(f);
            out.push('(');
            out.push_str(expr);
            out.push(')');
        }
    }
}

/// The function [`convert`] wraps a value in, None when the types agree:
/// for a caller that pushes the value in pieces between `f(` and `)`.
pub fn conversion(from: Ty, to: Ty, n: usize) -> Option<&'static str> {
    if from == to {
        return None;
    }
    Some(match (from, to) {
        (Ty::Float, _) => to.from_float_bits().unwrap_or(""),
        (_, Ty::Float) => from.to_float_bits().unwrap_or(""),
        _ => to.vec(n),
    })
}

/// Wraps what `out` holds from `start` on in `f(…)`: the call's name is
/// inserted before it (moving only the operand's few bytes).
fn wrap(out: &mut String, start: usize, f: &str) {
    out.insert(start, '(');
    out.insert_str(start, f);
    out.push(')');
}

/// [`convert`] of what `out` holds from `start` on, in place.
fn convert_at(out: &mut String, start: usize, from: Ty, to: Ty, n: usize) {
    if from == to {
        return;
    }
    let f = match (from, to) {
        (Ty::Float, _) => to.from_float_bits().unwrap_or(""),
        (_, Ty::Float) => from.to_float_bits().unwrap_or(""),
        _ => to.vec(n),
    };
    wrap(out, start, f);
}

/// `-x`, `abs(x)`, `-abs(x)` in `ty`'s arithmetic, of what `out` holds
/// from `start` on. GLSL has no unary minus or `abs` on unsigned values,
/// so those go through `int` (two's complement, as D3D's integer
/// modifiers are).
fn modify_at(out: &mut String, start: usize, m: Modifier, ty: Ty, n: usize) {
    if ty == Ty::Uint && m != Modifier::None {
        wrap(out, start, Ty::Int.vec(n));
        modify_at(out, start, m, Ty::Int, n);
        wrap(out, start, Ty::Uint.vec(n));
        return;
    }
    match m {
        Modifier::None => {}
        Modifier::Neg => wrap(out, start, "-"),
        Modifier::Abs => wrap(out, start, "abs"),
        Modifier::AbsNeg => wrap(out, start, "-abs"),
    }
}

/// Why a register file with no ES 3.00 value is refused.
fn operand_refusal(ty: OperandType) -> Reason {
    match ty {
        OperandType::UNORDERED_ACCESS_VIEW => Reason::Uav,
        OperandType::THREAD_GROUP_SHARED_MEMORY
        | OperandType::INPUT_THREAD_ID
        | OperandType::INPUT_THREAD_GROUP_ID
        | OperandType::INPUT_THREAD_ID_IN_GROUP
        | OperandType::INPUT_THREAD_ID_IN_GROUP_FLATTENED => Reason::Compute,
        OperandType::INPUT_PRIMITIVEID
        | OperandType::INPUT_COVERAGE_MASK
        | OperandType::OUTPUT_COVERAGE_MASK
        | OperandType::OUTPUT_STENCIL_REF
        | OperandType::INNER_COVERAGE => Reason::SystemValue,
        OperandType::RASTERIZER => Reason::Multisample,
        // Function bodies, tables and interfaces are not values.
        OperandType::FUNCTION_BODY | OperandType::FUNCTION_TABLE | OperandType::INTERFACE => {
            Reason::Malformed
        }
        _ => Reason::Operand,
    }
}
