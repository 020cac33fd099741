//! Double-precision instructions. es300 refuses them by name (GLSL ES 3.00
//! has no `double`); vk450 lowers them.
//!
//! Registers stay float vectors of bits; a double is two of their
//! components, low word first, after the source swizzle `.xy` the first
//! and `.zw` the second (see `vm::double` for which destination components
//! receive which result). Each instruction reads its sources as `uvec4`
//! words into locals, rebuilds the doubles from the words, computes, and
//! writes words back.
//!
//! GLSL 4.50's `packDouble2x32`/`unpackDouble2x32` would move between words
//! and doubles, but naga's GLSL front end has neither (nor 64-bit integers
//! to bit-cast through), so `dx_u2d`/`dx_d2u` do it with exact arithmetic:
//! `ldexp` of the integer significand, and for the way back a binary search
//! for the exponent. Double literals are avoided too: naga reads every
//! float literal as a 32-bit float, so constants are built from integers
//! (`double(2147483647)`) or `ldexp`.
//!
//! Source modifiers act on the sign bit of the high words, in integers,
//! exactly as D3D defines them; `dmov` and `dmovc` copy words.
//!
//! `dfma` must round once. GLSL's `fma` may round twice under Vulkan's
//! precision rules (lavapipe does), so `dx_dfma` computes the product
//! exactly as `p + e` (Dekker's split at 2^27 + 1), adds `c` to `p` with an
//! error-free sum `s + t`, and rounds `s + (t + e)`: one rounding of the
//! exact result except where the tail `t + e` itself rounds (rare ties),
//! or where splitting would overflow (|a|, |b| above 2^995) or a value is
//! not finite, where it falls back to `a * b + c`.

use super::Reason;
use super::emit::Emitter;
use super::types::{Ty, mask_count};
use crate::dxbc::ir::{Instruction, Modifier, Operand, OperandType};
use crate::dxbc::opcodes::{Class, Op};

/// What one double instruction computes, by result shape (mirrors
/// `vm::double::DOp`).
#[derive(Clone, Copy)]
enum Form {
    /// A double from double sources: a GLSL expression over `a`, `b`, `c`.
    Arith(&'static str, usize),
    /// `dmov`: words copied.
    Move,
    /// `dmovc`: words selected by a 32-bit condition.
    Movc,
    /// A double from one 32-bit source read as `Ty`.
    From32(Ty),
    /// A 32-bit result of `Ty` from a double `a`.
    To32(&'static str, Ty),
    /// A comparison of `a` and `b` giving 0xFFFFFFFF / 0.
    Cmp(&'static str),
}

fn form(op: Op) -> Option<Form> {
    use Form::*;
    Some(match op {
        Op::Dadd => Arith("a + b", 2),
        Op::Dmul => Arith("a * b", 2),
        Op::Ddiv => Arith("a / b", 2),
        Op::Dmin => Arith("dx_dmin(a, b)", 2),
        Op::Dmax => Arith("dx_dmax(a, b)", 2),
        Op::Dfma => Arith("dx_dfma(a, b, c)", 3),
        Op::Drcp => Arith("double(1) / a", 1),
        Op::Dmov => Move,
        Op::Dmovc => Movc,
        Op::Ftod => From32(Ty::Float),
        Op::Itod => From32(Ty::Int),
        Op::Utod => From32(Ty::Uint),
        // Round to nearest even, as Vulkan's `OpFConvert` does by default.
        Op::Dtof => To32("float(a)", Ty::Float),
        Op::Dtoi => To32("dx_dtoi(a)", Ty::Int),
        Op::Dtou => To32("dx_dtou(a)", Ty::Uint),
        Op::Deq => Cmp("=="),
        Op::Dge => Cmp(">="),
        Op::Dlt => Cmp("<"),
        // `!=` is true for NaN, like D3D's `dne`.
        Op::Dne => Cmp("!="),
        _ => return None,
    })
}

/// Whether `op` has a lowering here (for `support::has_lowering`).
pub(super) fn lowers(op: Op) -> bool {
    op.info().class == Class::Double && form(op).is_some()
}

/// Words ↔ doubles, a single-rounding `fma`, and the D3D rules GLSL
/// leaves undefined (NaN in min/max, out-of-range and NaN conversions,
/// `_sat` of NaN).
const HELPERS: &str = "\
double dx_u2d(uvec2 w) {
    uint e = (w.y >> 20u) & 0x7ffu;
    double m = double(w.y & 0xfffffu) * ldexp(double(1), 32) + double(w.x);
    double s = (w.y >> 31u) != 0u ? double(-1) : double(1);
    if (e == 0x7ffu) {
        double inf = s * ldexp(double(1), 1023) * double(2);
        return m == double(0) ? inf : inf - inf;
    }
    if (e == 0u) return s * ldexp(m, -1074);
    return s * ldexp(m + ldexp(double(1), 52), int(e) - 1075);
}

uvec2 dx_d2u(double d) {
    if (isnan(d)) return uvec2(0u, 0x7ff80000u);
    bool neg = d < double(0) || (d == double(0) && double(1) / d < double(0));
    uint s = neg ? 0x80000000u : 0u;
    double a = abs(d);
    if (isinf(d)) return uvec2(0u, s | 0x7ff00000u);
    if (a == double(0)) return uvec2(0u, s);
    uint biased = 0u;
    double m = ldexp(a, 1074);
    if (a >= ldexp(double(1), -1022)) {
        int e = -1022;
        for (int step = 1024; step > 0; step = step / 2) {
            if (e + step <= 1023 && a >= ldexp(double(1), e + step)) e += step;
        }
        biased = uint(e + 1023);
        m = ldexp(a, 52 - e) - ldexp(double(1), 52);
    }
    double hi = floor(m * ldexp(double(1), -32));
    uint lo = uint(m - hi * ldexp(double(1), 32));
    return uvec2(lo, s | (biased << 20u) | uint(hi));
}

bool dx_dneg(double a) {
    return a < double(0) || (a == double(0) && double(1) / a < double(0));
}

double dx_dmin(double a, double b) {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return dx_dneg(a) ? a : b;
    return a < b ? a : b;
}

double dx_dmax(double a, double b) {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return dx_dneg(b) ? a : b;
    return a > b ? a : b;
}

double dx_dfma(double a, double b, double c) {
    double p = a * b;
    double s = p + c;
    double big = ldexp(double(1), 995);
    if (isinf(s) || isnan(s) || isinf(p) || abs(a) > big || abs(b) > big) return s;
    double k = double(134217729);
    double ta = k * a;
    double ah = ta - (ta - a);
    double al = a - ah;
    double tb = k * b;
    double bh = tb - (tb - b);
    double bl = b - bh;
    double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    double v = s - p;
    double t = (p - (s - v)) + (c - v);
    return s + (t + e);
}

double dx_dsat(double a) {
    if (isnan(a) || a <= double(0)) return double(0);
    return a >= double(1) ? double(1) : a;
}

int dx_dtoi(double a) {
    if (isnan(a)) return 0;
    if (a >= double(2147483647)) return 2147483647;
    if (a <= double(-2147483647 - 1)) return -2147483647 - 1;
    return int(a);
}

uint dx_dtou(double a) {
    if (isnan(a) || a <= double(0)) return 0u;
    if (a >= double(4294967295u)) return 4294967295u;
    return uint(a);
}
";

pub fn emit(e: &mut Emitter, inst: &Instruction) {
    if e.dialect == super::Dialect::Es300 {
        e.refuse(inst, Reason::Double);
        return;
    }
    let Some(form) = form(inst.op) else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    let Some(dst) = inst.dsts().first() else {
        return;
    };
    let mask = Emitter::dst_mask(dst);
    if dst.ty == OperandType::NULL || mask == 0 {
        return;
    }
    let double_result = !matches!(form, Form::To32(..) | Form::Cmp(_));
    // The masks D3D allows; anything else is malformed bytecode (the
    // emulator stops on it the same way).
    let ok = if double_result {
        matches!(mask, 0b0011 | 0b1100 | 0b1111)
    } else {
        (1..=2).contains(&mask_count(mask))
    };
    if !ok {
        e.refuse(inst, Reason::Malformed);
        return;
    }
    e.helpers.use_custom_static("double", HELPERS);
    let srcs = inst.srcs();
    e.line("{");
    e.indent();
    // Every source as four words, modifiers applied to the sign bits.
    let mut words = Vec::new();
    for (k, s) in srcs.iter().enumerate() {
        let thirty_two = match form {
            Form::From32(_) => true,
            Form::Movc => k == 0,
            _ => false,
        };
        let name = e.tmp();
        let v = if thirty_two {
            // A float/int/uint source: modifiers in its own arithmetic.
            let t = match form {
                Form::From32(t) => t,
                _ => Ty::Uint,
            };
            let v = e.read(inst, s, &[0, 1, 2, 3], t);
            e.line(format_args!("{} {name} = {v};", t.vec(4)));
            name
        } else {
            let plain = Operand {
                modifier: Modifier::None,
                ..s.clone()
            };
            let v = e.read(inst, &plain, &[0, 1, 2, 3], Ty::Uint);
            let v = match s.modifier {
                Modifier::None => v,
                Modifier::Neg => sign_op(&v, "^ 0x80000000u"),
                Modifier::Abs => sign_op(&v, "& 0x7fffffffu"),
                Modifier::AbsNeg => sign_op(&v, "| 0x80000000u"),
            };
            e.line(format_args!("uvec4 {name} = {v};"));
            name
        };
        words.push(v);
    }
    let w = |k: usize| words.get(k).cloned().unwrap_or_else(|| "uvec4(0u)".into());
    let sat = inst.saturate();
    // The result for pair / result index `p`.
    let result = |p: usize| -> String {
        let half = if p == 0 { "xy" } else { "zw" };
        let d = |k: usize| format!("dx_u2d({}.{half})", w(k));
        let comp = ["x", "y"][p];
        match form {
            Form::Arith(expr, n) => {
                let args = ["a", "b", "c"];
                let mut out = expr.to_string();
                for (k, arg) in args.iter().enumerate().take(n) {
                    out = replace_var(&out, arg, &d(k));
                }
                if sat {
                    out = format!("dx_dsat({out})");
                }
                format!("dx_d2u({out})")
            }
            Form::Move if !sat => format!("{}.{half}", w(0)),
            Form::Move => format!("dx_d2u(dx_dsat({}))", d(0)),
            Form::Movc => {
                let pick = format!(
                    "({}.{comp} != 0u) ? {}.{half} : {}.{half}",
                    w(0),
                    w(1),
                    w(2)
                );
                if sat {
                    format!("dx_d2u(dx_dsat(dx_u2d({pick})))")
                } else {
                    format!("({pick})")
                }
            }
            Form::From32(_) => {
                let v = format!("double({}.{comp})", w(0));
                if sat {
                    format!("dx_d2u(dx_dsat({v}))")
                } else {
                    format!("dx_d2u({v})")
                }
            }
            Form::To32(expr, _) => replace_var(expr, "a", &d(0)),
            Form::Cmp(o) => format!("({} {o} {}) ? 0xffffffffu : 0u", d(0), d(1)),
        }
    };
    let (expr, ty) = if double_result {
        match mask {
            0b0011 => (result(0), Ty::Uint),
            0b1100 => (result(1), Ty::Uint),
            _ => (format!("uvec4({}, {})", result(0), result(1)), Ty::Uint),
        }
    } else {
        let ty = match form {
            Form::To32(_, t) => t,
            _ => Ty::Uint,
        };
        let n = mask_count(mask);
        let parts: Vec<String> = (0..n).map(result).collect();
        if n == 1 {
            (parts[0].clone(), ty)
        } else {
            (format!("{}({})", ty.vec(n), parts.join(", ")), ty)
        }
    };
    e.assign(inst, dst, &expr, ty, false);
    e.dedent();
    e.line("}");
}

/// `v` with `op` applied to the high words (`.y`, `.w`).
fn sign_op(v: &str, op: &str) -> String {
    format!("uvec4({v}.x, {v}.y {op}, {v}.z, {v}.w {op})")
}

/// Replaces the one-letter variable `var` in `expr` by `with` (variables
/// are `a`, `b`, `c`, never part of a longer identifier).
fn replace_var(expr: &str, var: &str, with: &str) -> String {
    let mut out = String::new();
    let bytes = expr.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    for (i, ch) in expr.char_indices() {
        let alone = ch.to_string() == var
            && (i == 0 || !ident(bytes[i - 1]))
            && (i + 1 >= bytes.len() || !ident(bytes[i + 1]));
        if alone {
            out.push_str(with);
        } else {
            out.push(ch);
        }
    }
    out
}
