//! Operand reads and destination writes, which every instruction family
//! shares: where a register lives, swizzles, bitcasts between the stored
//! and the wanted type, source modifiers, relative indices, write masks
//! and `_sat`.

use super::super::types::{COMPONENTS, Ty, mask_count};
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

impl Emitter<'_> {
    /// The name of input register `r` (array element when indexed).
    pub fn input_name(&self, r: u32) -> String {
        if self.inputs_indexed {
            format!("v[{r}]")
        } else {
            register_name('v', r)
        }
    }

    pub fn output_name(&self, r: u32) -> String {
        if self.outputs_indexed {
            format!("o[{r}]")
        } else {
            register_name('o', r)
        }
    }

    /// An index expression (`int`), relative parts read as integers.
    pub fn index_expr(&mut self, inst: &Instruction, idx: &Index) -> String {
        // Every constant-buffer read has one: digits pushed, not
        // formatted.
        let number = |v: u64| {
            let mut s = String::with_capacity(20);
            push_u64(&mut s, v);
            s
        };
        let plus = |mut rel: String, v: u64| {
            rel.push_str(" + ");
            push_u64(&mut rel, v);
            rel
        };
        match idx {
            Index::Imm32(v) => number((*v).into()),
            Index::Imm64(v) => number(*v),
            Index::Relative(r) => self.read_scalar(inst, r, Ty::Int),
            Index::Imm32Relative(v, r) => {
                let rel = self.read_scalar(inst, r, Ty::Int);
                if *v == 0 { rel } else { plus(rel, (*v).into()) }
            }
            Index::Imm64Relative(v, r) => {
                let rel = self.read_scalar(inst, r, Ty::Int);
                plus(rel, *v)
            }
        }
    }

    /// Where the register named by `op` lives. None for immediates and for
    /// register files that cannot be lowered (recorded as refusals).
    pub fn base(&mut self, inst: &Instruction, op: &Operand) -> Option<Base> {
        let vec4 = |expr: String| {
            Some(Base {
                expr,
                ty: Ty::Float,
                width: 4,
            })
        };
        let first = op.indices.first();
        match op.ty {
            OperandType::TEMP => vec4(register_name('r', op.reg().unwrap_or(0))),
            OperandType::INPUT | OperandType::OUTPUT => {
                let input = op.ty == OperandType::INPUT;
                let file = if input { "v" } else { "o" };
                match first {
                    Some(Index::Imm32(r)) if input => vec4(self.input_name(*r)),
                    Some(Index::Imm32(r)) => vec4(self.output_name(*r)),
                    // A relative index reads the register file array.
                    Some(i) => {
                        let i = i.clone();
                        let e = self.index_expr(inst, &i);
                        vec4(format!("{file}[{e}]"))
                    }
                    None => vec4(format!("{file}0")),
                }
            }
            OperandType::INDEXABLE_TEMP => {
                let reg = op.reg().unwrap_or(0);
                let idx = op.indices.get(1).cloned().unwrap_or(Index::Imm32(0));
                let e = self.index_expr(inst, &idx);
                let width = self.indexable_widths.get(&reg).copied().unwrap_or(4);
                Some(Base {
                    expr: format!("x{reg}[{e}]"),
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
                let idx = idx.cloned().unwrap_or(Index::Imm32(0));
                let e = self.index_expr(inst, &idx);
                match slot {
                    // `cb[r1.x + 0][…]`: fxc picks a class instance's buffer
                    // by `this[].x` so; GLSL has no array of blocks to
                    // index, so the declared buffers are chosen between
                    // (any other reads zeros, as D3D's unbound buffer).
                    Some(i) if !self.program.is_sm51() && i.relative().is_some() => {
                        let i = i.clone();
                        let s = self.index_expr(inst, &i);
                        let mut slots: Vec<u32> = self
                            .manifest
                            .constant_buffers
                            .iter()
                            .map(|c| c.slot)
                            .collect();
                        slots.sort_unstable();
                        slots.dedup();
                        let mut expr = "vec4(0.0)".to_string();
                        for n in slots.iter().rev() {
                            expr = format!("({s}) == {n} ? cb{n}.data[{e}] : {expr}");
                        }
                        // Nested conditionals associate to the right, so the
                        // chain needs no inner parentheses.
                        vec4(format!("({expr})"))
                    }
                    _ => {
                        let slot = slot.and_then(|i| i.imm()).unwrap_or(0);
                        let mut s = String::with_capacity(e.len() + 24);
                        s.push_str("cb");
                        push_u64(&mut s, slot);
                        s.push_str(".data[");
                        s.push_str(&e);
                        s.push(']');
                        vec4(s)
                    }
                }
            }
            OperandType::IMMEDIATE_CONSTANT_BUFFER => {
                let idx = op.indices.first().cloned().unwrap_or(Index::Imm32(0));
                let e = self.index_expr(inst, &idx);
                Some(Base {
                    expr: format!("ImmCB_0[{e}]"),
                    ty: Ty::Uint,
                    width: 4,
                })
            }
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => {
                self.uses_depth_output = true;
                Some(Base {
                    expr: "oDepth".into(),
                    ty: Ty::Float,
                    width: 1,
                })
            }
            OperandType::OUTPUT_COVERAGE_MASK if self.dialect == Dialect::Vk450 => {
                self.uses_coverage_output = true;
                Some(Base {
                    expr: "oMask".into(),
                    ty: Ty::Uint,
                    width: 1,
                })
            }
            // Declared only at sample frequency (decl/input.rs refuses the rest):
            // a sample's invocation covers its own sample.
            OperandType::INPUT_COVERAGE_MASK
                if self.dialect == Dialect::Vk450 && decl::runs_per_sample(self) =>
            {
                Some(Base {
                    expr: "(1u << uint(gl_SampleID))".into(),
                    ty: Ty::Uint,
                    width: 1,
                })
            }
            OperandType::THIS_POINTER => Some(interfaces::this_base(self, inst, op)),
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

    /// Reads `op` as `ty` for the destination positions `positions`: a
    /// scalar for one position, otherwise a vector of that many components.
    /// Modifiers are applied in `ty`'s arithmetic.
    pub fn read(&mut self, inst: &Instruction, op: &Operand, positions: &[u8], ty: Ty) -> String {
        let n = positions.len().max(1);
        // Every operand of every instruction comes through here: the
        // components go in fixed arrays and the swizzle onto the base's
        // own string, so a plain register read allocates once.
        let raw = if op.is_immediate() {
            let value = op.immediate_lanes().unwrap_or([0; 4]);
            let mut lanes = [0u32; 4];
            for (l, &p) in lanes.iter_mut().zip(positions) {
                *l = value[p as usize & 3];
            }
            let lanes = &lanes[..positions.len().min(4)];
            return apply_modifier(op.modifier, ty.literal_vec(lanes), ty, n);
        } else {
            let Some(base) = self.base(inst, op) else {
                return ty.literal_vec(&[0; 4][..n.min(4)]);
            };
            if base.width == 1 && n > 1 {
                // Widen a scalar register to the destination's width.
                return apply_modifier(
                    op.modifier,
                    format!("{}({})", ty.vec(n), convert(&base.expr, base.ty, ty, 1)),
                    ty,
                    n,
                );
            }
            let mut expr = base.expr;
            if base.width != 1 {
                let mut comps = [0u8; 4];
                let mut len = 0;
                for (c, &p) in comps.iter_mut().zip(positions) {
                    *c = source_component(op, p).min(base.width as u8 - 1);
                    len += 1;
                }
                let comps = &comps[..len];
                if !(base.width == 4 && comps == [0, 1, 2, 3]) {
                    push_swizzle(&mut expr, comps);
                }
            }
            convert_owned(expr, base.ty, ty, n)
        };
        apply_modifier(op.modifier, raw, ty, n)
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

    /// Reads `op` as `ty` for the components `mask` writes.
    pub fn read_masked(&mut self, inst: &Instruction, op: &Operand, mask: u8, ty: Ty) -> String {
        let mut positions = [0u8; 4];
        let mut len = 0;
        for c in 0..4u8 {
            if mask & (1 << c) != 0 {
                positions[len] = c;
                len += 1;
            }
        }
        self.read(inst, op, &positions[..len], ty)
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
        let Some(base) = self.base(inst, dst) else {
            return;
        };
        if dst.ty == OperandType::OUTPUT
            && let Some(Index::Imm32(r)) = dst.indices.first()
        {
            self.outputs_written.insert(*r);
        }
        let mut target = base.expr;
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
    }
}

/// `r12`: a register file's letter and number, built in one allocation
/// with room for the swizzle and conversion a read adds (the commonest
/// operand of all).
fn register_name(file: char, n: u32) -> String {
    let mut s = String::with_capacity(24);
    s.push(file);
    push_u64(&mut s, n.into());
    s
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

/// [`convert`] of an owned expression: returned as it is when no
/// conversion is needed, with no copy.
fn convert_owned(expr: String, from: Ty, to: Ty, n: usize) -> String {
    if from == to {
        expr
    } else {
        convert(&expr, from, to, n)
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
fn push_converted(out: &mut String, expr: &str, from: Ty, to: Ty, n: usize) {
    if from == to {
        out.push_str(expr);
        return;
    }
    let f = match (from, to) {
        (Ty::Float, _) => to.from_float_bits().unwrap_or(""),
        (_, Ty::Float) => from.to_float_bits().unwrap_or(""),
        _ => to.vec(n),
    };
    out.push_str(f);
    out.push('(');
    out.push_str(expr);
    out.push(')');
}

/// `f(expr)`, built in one allocation (every operand read may wrap one).
fn call(f: &str, expr: &str) -> String {
    let mut s = String::with_capacity(f.len() + expr.len() + 2);
    s.push_str(f);
    s.push('(');
    s.push_str(expr);
    s.push(')');
    s
}

/// `-x`, `abs(x)`, `-abs(x)` in `ty`'s arithmetic. GLSL has no unary minus
/// or `abs` on unsigned values, so those go through `int` (two's
/// complement, as D3D's integer modifiers are).
fn apply_modifier(m: Modifier, expr: String, ty: Ty, n: usize) -> String {
    if ty == Ty::Uint && m != Modifier::None {
        let signed = call(Ty::Int.vec(n), &expr);
        let inner = apply_modifier(m, signed, Ty::Int, n);
        return call(Ty::Uint.vec(n), &inner);
    }
    match m {
        Modifier::None => expr,
        Modifier::Neg => call("-", &expr),
        Modifier::Abs => call("abs", &expr),
        Modifier::AbsNeg => call("-abs", &expr),
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
