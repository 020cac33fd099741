//! Double-precision instructions (SM5 `d*`, `ftod`, `itod`, `utod`).
//!
//! A double lives in two 32-bit components, low word in the lower one:
//! after the source swizzle, `.xy` is the first double and `.zw` the
//! second. What differs between instructions is which components the
//! results land in:
//!
//! * a double result (`dadd`, `dmovc`, `ftod`, ...) takes a destination
//!   mask of `.xy`, `.zw` or `.xyzw`: `.xy` receives the first result and
//!   `.zw` the second. A 32-bit source of such an instruction (`ftod`'s
//!   float, `dmovc`'s condition) gives the first result its post-swizzle
//!   `.x` and the second its `.y`;
//! * a 32-bit result (`dtof`, `dtoi`, `dtou`, the comparisons) takes a mask
//!   of one or two components: the first enabled component receives the
//!   first double's result, the second the second's.
//!
//! Any other mask is malformed and stops the machine rather than writing a
//! guess.
//!
//! Arithmetic follows D3D11's double rules: IEEE 754 results rounded to
//! nearest even, denormals kept (unlike 32-bit floats, nothing is flushed
//! on read or write), `dfma` fused, `dmin`/`dmax` returning the non-NaN
//! operand, comparisons false on NaN except `dne`, `dtof` rounding to
//! nearest even, `dtoi`/`dtou` truncating with NaN giving 0 and
//! out-of-range values saturating (as `ftoi`/`ftou` do). `drcp` only has to
//! be within 1 ULP; the emulator gives the correctly rounded 1/x.

use super::float;
use super::state::Reg;
use crate::dxbc::opcodes::{NumType, Op};

/// What one double instruction computes, by result shape.
#[derive(Clone, Copy, Debug)]
pub enum DOp {
    /// Double result from double sources.
    Arith1(fn(f64) -> f64),
    Arith2(fn(f64, f64) -> f64),
    Arith3(fn(f64, f64, f64) -> f64),
    /// `dmov`: the words copied (a NaN's payload survives), unless `_sat`.
    Move,
    /// `dmovc`: a 32-bit condition per result, two double sources; moves
    /// words like `dmov`.
    Movc,
    /// Double result from a 32-bit source (`ftod`, `itod`, `utod`).
    From32(fn(u32) -> f64),
    /// 32-bit result from a double source (`dtof`, `dtoi`, `dtou`).
    To32(fn(f64) -> u32),
    /// Comparison of two doubles giving 0xFFFFFFFF / 0.
    Cmp(fn(f64, f64) -> bool),
}

impl DOp {
    /// The instruction's semantics; None for opcodes outside the class.
    pub fn of(op: Op) -> Option<DOp> {
        use DOp::*;
        Some(match op {
            Op::Dadd => Arith2(|a, b| a + b),
            Op::Dmul => Arith2(|a, b| a * b),
            Op::Ddiv => Arith2(|a, b| a / b),
            Op::Dmin => Arith2(min),
            Op::Dmax => Arith2(max),
            Op::Dfma => Arith3(f64::mul_add),
            Op::Dmov => Move,
            Op::Drcp => Arith1(|a| 1.0 / a),
            Op::Dmovc => Movc,
            Op::Ftod => From32(|b| f64::from(f32::from_bits(b))),
            Op::Itod => From32(|b| f64::from(b as i32)),
            Op::Utod => From32(f64::from),
            // `as f32` rounds to nearest even; a float denormal result is
            // flushed like every 32-bit float result (the spec lets
            // float32<->double conversions flush or keep them).
            Op::Dtof => To32(|d| float::out(d as f32)),
            // `as` truncates, saturates out of range and gives 0 for NaN.
            Op::Dtoi => To32(|d| (d as i32) as u32),
            Op::Dtou => To32(|d| d as u32),
            Op::Deq => Cmp(|a, b| a == b),
            Op::Dge => Cmp(|a, b| a >= b),
            Op::Dlt => Cmp(|a, b| a < b),
            // The one comparison that is true for NaN.
            Op::Dne => Cmp(|a, b| a != b),
            _ => return None,
        })
    }

    /// Whether results are doubles (two components each).
    fn double_result(self) -> bool {
        !matches!(self, DOp::To32(_) | DOp::Cmp(_))
    }

    /// How many sources the entry reads.
    pub fn arity(self) -> usize {
        match self {
            DOp::Arith1(_) | DOp::Move | DOp::From32(_) | DOp::To32(_) => 1,
            DOp::Arith2(_) | DOp::Cmp(_) => 2,
            DOp::Arith3(_) | DOp::Movc => 3,
        }
    }

    /// The number type source `k` is read as: `dmovc`'s condition is a
    /// plain 32-bit value; everything else is the opcode description's.
    pub fn source_kind(self, op: Op, k: usize) -> NumType {
        if matches!(self, DOp::Movc) && k == 0 {
            NumType::Untyped
        } else {
            super::alu::source_type(op)
        }
    }
}

/// `dmin`: the non-NaN operand when one is NaN; -0 below +0.
fn min(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

fn max(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// The double in components `2k`, `2k + 1` (low word first).
pub fn pair(v: &Reg, k: usize) -> f64 {
    f64::from_bits(u64::from(v[2 * k]) | (u64::from(v[2 * k + 1]) << 32))
}

/// Stores `d` into components `2k`, `2k + 1`.
pub fn put(r: &mut Reg, k: usize, d: f64) {
    let b = d.to_bits();
    r[2 * k] = b as u32;
    r[2 * k + 1] = (b >> 32) as u32;
}

/// `_sat` on a double: clamped to [0, 1], NaN to 0.
pub fn saturate(d: f64) -> f64 {
    if d.is_nan() || d <= 0.0 {
        0.0
    } else if d >= 1.0 {
        1.0
    } else {
        d
    }
}

/// A source modifier on a double read: the sign is bit 31 of the high
/// words (`.y`, `.w`); the low words pass untouched.
pub fn modify(v: Reg, neg: bool, abs: bool) -> Reg {
    let mut r = v;
    for hi in [1, 3] {
        if abs {
            r[hi] &= 0x7fff_ffff;
        }
        if neg {
            r[hi] ^= 0x8000_0000;
        }
    }
    r
}

/// Why a double instruction cannot run: its destination mask is not one
/// the instruction takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadMask(pub u8);

impl std::fmt::Display for BadMask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: String = (0..4)
            .filter(|c| self.0 & (1 << c) != 0)
            .map(|c| ['x', 'y', 'z', 'w'][c])
            .collect();
        write!(f, "destination mask `.{names}`")
    }
}

/// The results of `dop` for destination mask `mask` from post-swizzle,
/// post-modifier sources `s`: the value to write under `mask`.
pub fn compute(dop: DOp, s: &[Reg], mask: u8, sat: bool) -> Result<Reg, BadMask> {
    let mut r = [0u32; 4];
    let zero = [0u32; 4];
    let src = |k: usize| s.get(k).unwrap_or(&zero);
    if dop.double_result() {
        let pairs: &[usize] = match mask {
            0b0011 => &[0],
            0b1100 => &[1],
            0b1111 => &[0, 1],
            m => return Err(BadMask(m)),
        };
        for &k in pairs {
            // The moves copy words; `_sat` is the only change they make.
            let moved = match dop {
                DOp::Move => Some(src(0)),
                DOp::Movc if src(0)[k] != 0 => Some(src(1)),
                DOp::Movc => Some(src(2)),
                _ => None,
            };
            if let (Some(from), false) = (moved, sat) {
                r[2 * k] = from[2 * k];
                r[2 * k + 1] = from[2 * k + 1];
                continue;
            }
            let d = match dop {
                DOp::Arith1(g) => g(pair(src(0), k)),
                DOp::Arith2(g) => g(pair(src(0), k), pair(src(1), k)),
                DOp::Arith3(g) => g(pair(src(0), k), pair(src(1), k), pair(src(2), k)),
                DOp::Move | DOp::Movc => pair(moved.unwrap_or(&zero), k),
                DOp::From32(g) => g(src(0)[k]),
                DOp::To32(_) | DOp::Cmp(_) => unreachable!("32-bit results"),
            };
            put(&mut r, k, if sat { saturate(d) } else { d });
        }
    } else {
        if mask.count_ones() == 0 || mask.count_ones() > 2 {
            return Err(BadMask(mask));
        }
        for (n, c) in (0..4).filter(|c| mask & (1 << c) != 0).enumerate() {
            r[c] = match dop {
                DOp::To32(g) => g(pair(src(0), n)),
                DOp::Cmp(g) => {
                    if g(pair(src(0), n), pair(src(1), n)) {
                        u32::MAX
                    } else {
                        0
                    }
                }
                _ => unreachable!("double results"),
            };
        }
    }
    Ok(r)
}
