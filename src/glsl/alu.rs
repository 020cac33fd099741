//! Arithmetic, comparison, conversion, bit and move instructions, as one
//! table from opcode to how its sources are read, what its result type is
//! and the GLSL form that computes it.

use std::borrow::Cow;

use super::Dialect;
use super::emit::Emitter;
use super::helpers::{self, Scalar};
use super::types::{Swizzle, Ty, mask_count};
use super::writer::cat;
use crate::dxbc::ir::{Instruction, OperandType};
use crate::dxbc::opcodes::Op;

/// How the result is computed from the sources (already read and typed).
#[derive(Clone, Copy)]
enum Form {
    /// `a OP b`.
    Infix(&'static str),
    /// `OPa`.
    Prefix(&'static str),
    /// `f(a, b, …)`, a GLSL built-in.
    Call(&'static str),
    /// `a * b + c` (no `fma` in ES 3.00, and D3D's `mad` may be fused or not).
    Mad,
    /// `1.0 / a`.
    Rcp,
    /// `dot()` over the first N components, replicated to the destination.
    Dot(usize),
    /// A comparison giving 0xFFFFFFFF / 0: the scalar operator and the
    /// vector built-in.
    Cmp(&'static str, &'static str),
    /// A shift: the count's low five bits only (GLSL leaves counts ≥ 32
    /// undefined; D3D masks them).
    Shift(&'static str),
    /// A type conversion (`vec(ivec)`, `vec(uvec)`).
    Convert,
    /// A component-wise helper from [`helpers`].
    Helper(&'static Scalar),
    /// `deriv_rty*`: `dFdy`, or the fine helper. es300 takes D3D's y
    /// direction from `hlslcc_YFlip` (GL's window y may run upwards).
    DerivY {
        fine: bool,
    },
    /// `check_access_fully_mapped`: true for the status every access
    /// writes here, 0 (nothing is tiled; see `texture::feedback`).
    FullyMapped,
    /// Typeless copy.
    Mov,
    Movc,
    /// Instructions with two destinations.
    Swapc,
    Sincos,
    Udiv,
    /// `imul`/`umul`: high and low halves.
    MulWide(Ty),
    /// `uaddc`/`usubb`: result and carry/borrow.
    Carry(bool),
}

struct AluOp {
    op: Op,
    form: Form,
}

impl AluOp {
    /// The GLSL type sources are read as: the opcode description's source
    /// type (typeless moves carry float registers).
    fn src(&self) -> Ty {
        Ty::of(self.op.info().source_type())
    }

    /// The GLSL type of the result, from the opcode description.
    fn dst(&self) -> Ty {
        Ty::of(self.op.info().result_type())
    }
}

use Form::*;
use Ty::{Float as F, Int as I, Uint as U};

macro_rules! ops {
    ($( $op:ident $form:expr ;)*) => {
        static OPS: &[AluOp] = &[ $( AluOp { op: Op::$op, form: $form }, )* ];
    };
}

// Columns: opcode, form. Source and result types come from the opcode
// description (`dxbc::opcodes`).
ops! {
    Add Infix("+");
    And Infix("&");
    DerivRtx Call("dFdx");
    DerivRty DerivY { fine: false };
    Div Infix("/");
    Dp2 Dot(2);
    Dp3 Dot(3);
    Dp4 Dot(4);
    Eq Cmp("==", "equal");
    Exp Call("exp2");
    Frc Call("fract");
    Ftoi Helper(&helpers::FTOI);
    Ftou Helper(&helpers::FTOU);
    Ge Cmp(">=", "greaterThanEqual");
    Iadd Infix("+");
    Ieq Cmp("==", "equal");
    Ige Cmp(">=", "greaterThanEqual");
    Ilt Cmp("<", "lessThan");
    Imad Mad;
    Imax Call("max");
    Imin Call("min");
    Imul MulWide(Ty::Int);
    Ine Cmp("!=", "notEqual");
    Ineg Prefix("-");
    Ishl Shift("<<");
    Ishr Shift(">>");
    Itof Convert;
    Log Call("log2");
    Lt Cmp("<", "lessThan");
    Mad Mad;
    Min Helper(&helpers::MIN);
    Max Helper(&helpers::MAX);
    Mov Mov;
    Movc Movc;
    Mul Infix("*");
    Ne Cmp("!=", "notEqual");
    Not Prefix("~");
    Or Infix("|");
    RoundNe Call("roundEven");
    RoundNi Call("floor");
    RoundPi Call("ceil");
    RoundZ Call("trunc");
    Rsq Call("inversesqrt");
    Sqrt Call("sqrt");
    Sincos Sincos;
    Udiv Udiv;
    Ult Cmp("<", "lessThan");
    Uge Cmp(">=", "greaterThanEqual");
    Umul MulWide(Ty::Uint);
    Umad Mad;
    Umax Call("max");
    Umin Call("min");
    Ushr Shift(">>");
    Utof Convert;
    Xor Infix("^");
    DerivRtxCoarse Call("dFdx");
    DerivRtxFine Helper(&helpers::DFDX_FINE);
    DerivRtyCoarse DerivY { fine: false };
    DerivRtyFine DerivY { fine: true };
    Rcp Rcp;
    F32tof16 Helper(&helpers::F32TOF16);
    F16tof32 Helper(&helpers::F16TOF32);
    Uaddc Carry(false);
    Usubb Carry(true);
    Countbits Helper(&helpers::COUNTBITS);
    FirstbitHi Helper(&helpers::FIRSTBIT_HI);
    FirstbitLo Helper(&helpers::FIRSTBIT_LO);
    FirstbitShi Helper(&helpers::FIRSTBIT_SHI);
    Ubfe Helper(&helpers::UBFE);
    Ibfe Helper(&helpers::IBFE);
    Bfi Helper(&helpers::BFI);
    Bfrev Helper(&helpers::BFREV);
    Swapc Swapc;
    Msad Helper(&helpers::MSAD);
    CheckAccessFullyMapped FullyMapped;
}

/// Whether the table has `op` (for [`super::support::has_lowering`]).
pub(super) fn lowers(op: Op) -> bool {
    op_of(op).is_some()
}

fn op_of(op: Op) -> Option<&'static AluOp> {
    OPS.iter().find(|o| o.op == op)
}

pub fn emit(e: &mut Emitter, inst: &Instruction) {
    let Some(op) = op_of(inst.op) else {
        // eval_snapped, eval_sample_index, eval_centroid: pull-model
        // interpolation, which ES 3.00 lacks (no interpolateAt*).
        let reason = if matches!(
            inst.op,
            Op::EvalSnapped | Op::EvalSampleIndex | Op::EvalCentroid
        ) {
            super::Reason::Interpolation
        } else {
            // Every other ALU opcode the reader decodes is in the table;
            // anything else in these classes is refused rather than
            // emitted wrongly.
            super::Reason::Operand
        };
        e.refuse(inst, reason);
        return;
    };
    let dsts = inst.dsts();
    let srcs = inst.srcs();
    let sat = inst.saturate();
    match op.form {
        Swapc | Sincos | Udiv | MulWide(_) | Carry(_) => two_results(e, inst, op),
        _ => {
            let Some(dst) = dsts.first() else { return };
            let mask = Emitter::dst_mask(dst);
            let n = mask_count(mask);
            if n == 0 || dst.ty == OperandType::NULL {
                return;
            }
            // The expression is built in a reused buffer, each source
            // read straight into it.
            let mut expr = e.take_buf();
            single(e, inst, op, srcs, mask, &mut expr);
            let float_result = op.dst() == Ty::Float;
            e.assign(inst, dst, &expr, op.dst(), sat && float_result);
            e.give_buf(expr);
        }
    }
}

/// The expression for a one-destination instruction, `mask` components
/// wide, appended to `out`. Sources are read in operand order (a read may
/// record a refusal, and the refusals' order is part of the output).
fn single(
    e: &mut Emitter,
    inst: &Instruction,
    op: &AluOp,
    srcs: &[crate::dxbc::ir::Operand],
    mask: u8,
    out: &mut String,
) {
    let n = mask_count(mask);
    let arg = |e: &mut Emitter, out: &mut String, k: usize, ty: Ty| match srcs.get(k) {
        Some(s) => e.read_masked_into(out, inst, s, mask, ty),
        None => ty.push_literal_vec(out, &[0; 4][..n.min(4)]),
    };
    // A source read into `out`, parenthesized unless simple.
    let arg_paren = |e: &mut Emitter, out: &mut String, k: usize, ty: Ty| {
        let start = out.len();
        arg(e, out, k, ty);
        paren_at(out, start);
    };
    match op.form {
        // The commonest forms (mov/add/mul/mad/dp*/compares) read their
        // sources straight into the statement's buffer.
        Infix(o) => {
            arg(e, out, 0, op.src());
            out.push(' ');
            out.push_str(o);
            out.push(' ');
            arg(e, out, 1, op.src());
        }
        Prefix(o) => {
            out.push_str(o);
            arg_paren(e, out, 0, op.src());
        }
        Call(f) => {
            out.push_str(f);
            out.push('(');
            for k in 0..srcs.len() {
                if k > 0 {
                    out.push_str(", ");
                }
                arg(e, out, k, op.src());
            }
            out.push(')');
        }
        Mad => {
            arg_paren(e, out, 0, op.src());
            out.push_str(" * ");
            arg_paren(e, out, 1, op.src());
            out.push_str(" + ");
            arg_paren(e, out, 2, op.src());
        }
        Rcp => {
            if n == 1 {
                out.push_str("1.0 / ");
            } else {
                out.push_str(F.vec(n));
                out.push_str("(1.0) / ");
            }
            arg_paren(e, out, 0, F);
        }
        Dot(k) => {
            // dp2/dp3/dp4: at most four components.
            const FIRST: [u8; 4] = [0, 1, 2, 3];
            let comps = &FIRST[..k.min(4)];
            if n == 1 {
                out.push_str("dot(");
            } else {
                out.push_str(F.vec(n));
                out.push_str("(dot(");
            }
            for j in 0..2 {
                if j > 0 {
                    out.push_str(", ");
                }
                match srcs.get(j) {
                    Some(s) => e.read_into(out, inst, s, comps, F),
                    None => out.push_str("0.0"),
                }
            }
            out.push_str(if n == 1 { ")" } else { "))" });
        }
        Cmp(scalar, vector) => {
            if n == 1 {
                out.push('(');
                arg_paren(e, out, 0, op.src());
                out.push(' ');
                out.push_str(scalar);
                out.push(' ');
                arg_paren(e, out, 1, op.src());
                out.push_str(") ? 0xffffffffu : 0u");
            } else {
                for p in [U.vec(n), "(", vector, "("] {
                    out.push_str(p);
                }
                arg(e, out, 0, op.src());
                out.push_str(", ");
                arg(e, out, 1, op.src());
                out.push_str(")) * 0xffffffffu");
            }
        }
        Shift(o) => {
            arg_paren(e, out, 0, op.src());
            out.push(' ');
            out.push_str(o);
            out.push_str(" (");
            arg_paren(e, out, 1, U);
            out.push_str(" & ");
            if n == 1 {
                out.push_str("31u");
            } else {
                out.push_str(U.vec(n));
                out.push_str("(31u)");
            }
            out.push(')');
        }
        Convert => {
            out.push_str(op.dst().vec(n));
            out.push('(');
            arg(e, out, 0, op.src());
            out.push(')');
        }
        FullyMapped => {
            e.line("// no tiled resources here (no sparse residency): status 0 is every access's");
            let mut a = String::new();
            arg(e, &mut a, 0, U);
            if n == 1 {
                cat!(out; '(', &*paren(&a), " == 0u) ? 0xffffffffu : 0u");
            } else {
                cat!(out; U.vec(n), "(equal(", &a, ", ", U.vec(n), "(0u))) * 0xffffffffu");
            }
        }
        DerivY { fine } => {
            let mut a = String::new();
            arg(e, &mut a, 0, F);
            let d = if fine {
                let name = e.helper(&helpers::DFDY_FINE, n);
                cat!(name, '(', &a, ')')
            } else {
                cat!("dFdy(", &a, ')')
            };
            match e.dialect {
                // hlslcc_YFlip.x is -1 when GL's window y runs as D3D's
                // (drawing into a texture) and 1 when it runs upwards (the
                // canvas), where D3D's d/dy is GL's negated.
                Dialect::Es300 => {
                    e.y_flip = true;
                    out.push_str("-hlslcc_YFlip.x * ");
                    out.push_str(&d);
                }
                Dialect::Vk450 => out.push_str(&d),
            }
        }
        Helper(h) => {
            let name = e.helper(h, n);
            out.push_str(name);
            out.push('(');
            for (k, &t) in h.params.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                arg(e, out, k, t);
            }
            out.push(')');
        }
        Mov => arg(e, out, 0, F),
        Movc if n == 1 => {
            out.push('(');
            arg_paren(e, out, 0, U);
            out.push_str(" != 0u) ? ");
            arg_paren(e, out, 1, F);
            out.push_str(" : ");
            arg_paren(e, out, 2, F);
        }
        Movc => {
            // `mix(b, a, …c…)` writes the sources out of their order, so
            // they are read (in order) into buffers of their own first.
            let mut c = e.take_buf();
            let mut a = e.take_buf();
            let mut b = e.take_buf();
            arg(e, &mut c, 0, U);
            arg(e, &mut a, 1, F);
            arg(e, &mut b, 2, F);
            out.push_str(&select(&c, &a, &b, n));
            for buf in [c, a, b] {
                e.give_buf(buf);
            }
        }
        Swapc | Sincos | Udiv | MulWide(_) | Carry(_) => unreachable!("two-result forms"),
    }
}

/// `cond != 0 ? a : b`, per component.
fn select(c: &str, a: &str, b: &str, n: usize) -> String {
    if n == 1 {
        let mut s = String::with_capacity(c.len() + a.len() + b.len() + 20);
        s.push('(');
        push_paren(&mut s, c);
        s.push_str(" != 0u) ? ");
        push_paren(&mut s, a);
        s.push_str(" : ");
        push_paren(&mut s, b);
        s
    } else {
        cat(&[
            "mix(",
            b,
            ", ",
            a,
            ", notEqual(",
            c,
            ", ",
            U.vec(n),
            "(0u)))",
        ])
    }
}

/// Instructions with two destinations. Sources are copied into locals
/// first, so writing the first destination cannot change what the second
/// reads.
fn two_results(e: &mut Emitter, inst: &Instruction, op: &AluOp) {
    let dsts = inst.dsts();
    let srcs = inst.srcs();
    let live: Vec<usize> = (0..dsts.len())
        .filter(|&k| dsts[k].ty != OperandType::NULL && Emitter::dst_mask(&dsts[k]) != 0)
        .collect();
    if live.is_empty() {
        return;
    }
    let src_ty = |k: usize| match op.form {
        Swapc if k == 0 => U,
        Swapc => F,
        MulWide(t) => t,
        _ => op.src(),
    };
    e.line("{");
    e.indent();
    let mut locals = Vec::new();
    for (k, s) in srcs.iter().enumerate() {
        let t = src_ty(k);
        let v = e.read(inst, s, &[0, 1, 2, 3], t);
        let name = e.tmp();
        e.line((t.vec(4), ' ', &name, " = ", &v, ';'));
        locals.push(name);
    }
    for &k in &live {
        let dst = &dsts[k];
        let mask = Emitter::dst_mask(dst);
        let n = mask_count(mask);
        let comps = Swizzle::of_mask(mask);
        let a = |i: usize| cat!(locals.get(i).map_or("", String::as_str), comps);
        let (expr, ty) = match op.form {
            Swapc => {
                // dst0 = cond ? src2 : src1; dst1 = cond ? src1 : src2.
                if k == 0 {
                    (select(&a(0), &a(2), &a(1), n), F)
                } else {
                    (select(&a(0), &a(1), &a(2), n), F)
                }
            }
            Sincos => {
                let f = if k == 0 { "sin" } else { "cos" };
                (cat!(f, '(', a(0), ')'), F)
            }
            Udiv => {
                let h = if k == 0 {
                    &helpers::UDIV
                } else {
                    &helpers::UREM
                };
                let name = e.helper(h, n);
                (cat!(name, '(', a(0), ", ", a(1), ')'), U)
            }
            MulWide(t) => {
                if k == 0 {
                    let h = if t == I {
                        &helpers::IMUL_HI
                    } else {
                        &helpers::UMUL_HI
                    };
                    let name = e.helper(h, n);
                    (cat!(name, '(', a(0), ", ", a(1), ')'), t)
                } else {
                    (cat!(a(0), " * ", a(1)), t)
                }
            }
            Carry(sub) => {
                if k == 0 {
                    let o = if sub { "-" } else { "+" };
                    (cat!(a(0), ' ', o, ' ', a(1)), U)
                } else {
                    let h = if sub {
                        &helpers::USUB_BORROW
                    } else {
                        &helpers::UADD_CARRY
                    };
                    let name = e.helper(h, n);
                    (cat!(name, '(', a(0), ", ", a(1), ')'), U)
                }
            }
            _ => unreachable!(),
        };
        let sat = inst.saturate() && ty == F;
        e.assign(inst, dst, &expr, ty, sat);
    }
    e.dedent();
    e.line("}");
}

/// Wraps an expression in parentheses unless it is a plain name, literal
/// or call.
pub fn paren(s: &str) -> Cow<'_, str> {
    // Borrowed when it needs none: every operand of a `mad` or a
    // comparison comes through here, and is only written into a format.
    if is_simple(s) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(cat(&["(", s, ")"]))
    }
}

/// [`paren`] appended to `out`, with no String of its own.
fn push_paren(out: &mut String, s: &str) {
    if is_simple(s) {
        out.push_str(s);
    } else {
        out.push('(');
        out.push_str(s);
        out.push(')');
    }
}

/// Parenthesizes what `out` holds from `start` on unless it is simple, in
/// place (as [`push_paren`] would have written it).
fn paren_at(out: &mut String, start: usize) {
    if !is_simple(&out[start..]) {
        out.insert(start, '(');
        out.push(')');
    }
}

/// A plain name, literal or call: needs no parentheses as an operand.
fn is_simple(s: &str) -> bool {
    s.bytes()
        .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'[' || c == b']')
        || (s.ends_with(')') && is_single_call(s))
}

/// The pieces joined in one allocation of the exact size.
fn cat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

/// `f(…)` where the outer parentheses belong to one call.
fn is_single_call(s: &str) -> bool {
    let Some(open) = s.find('(') else {
        return false;
    };
    if !s[..open]
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        || open == 0
    {
        return false;
    }
    let mut depth = 0i32;
    for (i, c) in s.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == s.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}
