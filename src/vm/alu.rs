//! What each opcode computes, as one table from opcode number to an
//! [`Exec`] entry, and the evaluation of an entry on sources already read
//! (shared by the machine's fast and general paths). The machine reads
//! sources, applies modifiers of the entry's number kind, evaluates the
//! entry and writes the masked destination; control flow and texture access
//! have their own modules.

use super::float::{self, f, out};
use super::state::Reg;
use crate::dxbc::opcodes::{Class, NumType, Op};

/// The semantics of one opcode.
#[derive(Clone, Copy)]
pub enum Exec {
    /// Nothing to compute (declarations, `nop`, `label`, customdata).
    Nop,
    F1(fn(f32) -> f32),
    F2(fn(f32, f32) -> f32),
    F3(fn(f32, f32, f32) -> f32),
    /// Float comparison producing 0xFFFFFFFF / 0.
    FCmp(fn(f32, f32) -> bool),
    /// Dot product over the first N components, replicated.
    Dot(usize),
    I1(fn(u32) -> u32),
    I2(fn(u32, u32) -> u32),
    I3(fn(u32, u32, u32) -> u32),
    /// Integer comparison producing 0xFFFFFFFF / 0.
    ICmp(fn(u32, u32) -> bool),
    /// A conversion (its source type is the opcode description's).
    Conv(fn(u32) -> u32),
    Mov,
    Movc,
    Swapc,
    Sincos,
    /// `imul`/`umul`: high and low halves of the 64-bit product.
    MulWide {
        signed: bool,
    },
    /// `udiv`: quotient and remainder.
    Udiv,
    /// `uaddc`/`usubb`: result and carry/borrow.
    Carry {
        sub: bool,
    },
    /// `bfi` (four sources).
    Bfi,
    Deriv {
        x: bool,
        fine: bool,
    },
    /// Handled by the control-flow code.
    Flow,
    /// Handled by the texture glue.
    Texture,
    /// Raw/structured buffers, UAVs and atomics (`super::memory`).
    Memory,
    /// Interpolation at a sample or the centroid (pixel shaders).
    Eval,
    /// A double-precision instruction (`super::double`), run on the
    /// general path: its sources pair up components.
    Double(super::double::DOp),
    /// Not emulated; the reason is shown to the user.
    Unsupported(&'static str),
}

impl Exec {
    /// The number type this entry's function assumes its sources are, when
    /// it assumes one. The machine reads sources as the opcode
    /// description's source type (`OpInfo::source_type`); the coverage test
    /// checks the two agree, so an entry cannot silently compute on bits
    /// read the wrong way.
    pub fn reads_as(&self) -> Option<NumType> {
        match self {
            Exec::F1(_) | Exec::F2(_) | Exec::F3(_) | Exec::FCmp(_) | Exec::Dot(_) => {
                Some(NumType::Float)
            }
            Exec::Sincos | Exec::Deriv { .. } | Exec::Eval => Some(NumType::Float),
            Exec::I1(_) | Exec::I2(_) | Exec::I3(_) | Exec::ICmp(_) => Some(NumType::Int),
            Exec::MulWide { .. } | Exec::Udiv | Exec::Carry { .. } | Exec::Bfi => {
                Some(NumType::Int)
            }
            Exec::Mov | Exec::Movc | Exec::Swapc => Some(NumType::Untyped),
            _ => None,
        }
    }
}

/// The number type an instruction's sources are read as: the opcode
/// description's, typeless when it has none.
pub fn source_type(op: Op) -> NumType {
    op.info().source_type().unwrap_or(NumType::Untyped)
}

// ---- evaluation: an entry applied to sources already read ----------------

fn mask(b: bool) -> u32 {
    if b { u32::MAX } else { 0 }
}

/// Sources a single-result entry (component-wise, or a dot product) reads;
/// None for the other entries.
pub(crate) fn single_result_arity(exec: Exec) -> Option<usize> {
    Some(match exec {
        Exec::F1(_) | Exec::I1(_) | Exec::Conv(..) | Exec::Mov => 1,
        Exec::F2(_) | Exec::I2(_) | Exec::FCmp(_) | Exec::ICmp(_) | Exec::Dot(_) => 2,
        Exec::F3(_) | Exec::I3(_) | Exec::Movc => 3,
        _ => return None,
    })
}

/// A single-result entry on (already read) sources of `N` lanes: the
/// components in `m` (others 0) for component-wise entries, all four for a
/// dot product; None for the other entries. The entry is matched once and
/// the per-component work runs in a loop per arm. Float sources arrive
/// flushed (float reads flush), so only results are flushed here.
#[inline(always)]
pub(crate) fn single_result<const N: usize>(
    exec: Exec,
    [a, b, c]: &[[Reg; N]; 3],
    m: u8,
) -> Option<[Reg; N]> {
    let mut r = [[0u32; 4]; N];
    let f = f32::from_bits;
    macro_rules! each {
        ($e:expr) => {
            for k in 0..4 {
                if m & (1 << k) != 0 {
                    for l in 0..N {
                        r[l][k] = $e(l, k);
                    }
                }
            }
        };
    }
    match exec {
        Exec::F1(g) => each!(|l: usize, k: usize| float::out(g(f(a[l][k])))),
        Exec::F2(g) => each!(|l: usize, k: usize| float::out(g(f(a[l][k]), f(b[l][k])))),
        Exec::F3(g) => {
            each!(|l: usize, k: usize| float::out(g(f(a[l][k]), f(b[l][k]), f(c[l][k]))))
        }
        Exec::FCmp(g) => each!(|l: usize, k: usize| mask(g(f(a[l][k]), f(b[l][k])))),
        Exec::I1(g) | Exec::Conv(g) => each!(|l: usize, k: usize| g(a[l][k])),
        Exec::I2(g) => each!(|l: usize, k: usize| g(a[l][k], b[l][k])),
        Exec::I3(g) => each!(|l: usize, k: usize| g(a[l][k], b[l][k], c[l][k])),
        Exec::ICmp(g) => each!(|l: usize, k: usize| mask(g(a[l][k], b[l][k]))),
        Exec::Mov => r = *a,
        // Products summed in order, each partial sum flushed, replicated.
        Exec::Dot(n) => {
            for l in 0..N {
                let mut sum = 0.0f32;
                for k in 0..n.min(4) {
                    sum = f(float::out(sum + f(a[l][k]) * f(b[l][k])));
                }
                r[l] = [float::out(sum); 4];
            }
        }
        Exec::Movc => each!(|l: usize, k: usize| if a[l][k] != 0 { b[l][k] } else { c[l][k] }),
        _ => return None,
    }
    Some(r)
}

/// What an ALU entry computes for one lane from its (already read) sources:
/// one result per destination. None when sources are missing.
pub(crate) fn compute(exec: Exec, s: &[Reg]) -> Option<smallvec::SmallVec<[Reg; 2]>> {
    if let Some(arity) = single_result_arity(exec) {
        if s.len() < arity {
            return None;
        }
        let mut srcs = [[[0u32; 4]; 1]; 3];
        for (slot, v) in srcs.iter_mut().zip(&s[..arity]) {
            slot[0] = *v;
        }
        return single_result(exec, &srcs, 0xf).map(|[r]| smallvec::smallvec![r]);
    }
    let arg = |i: usize| -> Option<Reg> { s.get(i).copied() };
    fn per(g: impl Fn(usize) -> u32) -> Reg {
        [g(0), g(1), g(2), g(3)]
    }
    Some(match exec {
        Exec::Swapc => {
            let (cond, a, b) = (arg(0)?, arg(1)?, arg(2)?);
            smallvec::smallvec![
                per(|c| if cond[c] != 0 { b[c] } else { a[c] }),
                per(|c| if cond[c] != 0 { a[c] } else { b[c] }),
            ]
        }
        Exec::Sincos => {
            let a = arg(0)?;
            smallvec::smallvec![
                per(|c| float::out(f32::from_bits(a[c]).sin())),
                per(|c| float::out(f32::from_bits(a[c]).cos())),
            ]
        }
        Exec::MulWide { signed } => {
            let (a, b) = (arg(0)?, arg(1)?);
            let wide = |c: usize| -> u64 {
                if signed {
                    ((a[c] as i32 as i64) * (b[c] as i32 as i64)) as u64
                } else {
                    a[c] as u64 * b[c] as u64
                }
            };
            smallvec::smallvec![per(|c| (wide(c) >> 32) as u32), per(|c| wide(c) as u32)]
        }
        Exec::Udiv => {
            let (a, b) = (arg(0)?, arg(1)?);
            smallvec::smallvec![
                per(|c| a[c].checked_div(b[c]).unwrap_or(u32::MAX)),
                // Microsoft's `udiv` reference: 0xFFFFFFFF for both results.
                per(|c| a[c].checked_rem(b[c]).unwrap_or(u32::MAX)),
            ]
        }
        Exec::Carry { sub } => {
            let (a, b) = (arg(0)?, arg(1)?);
            if sub {
                smallvec::smallvec![
                    per(|c| a[c].wrapping_sub(b[c])),
                    per(|c| (a[c] < b[c]) as u32),
                ]
            } else {
                smallvec::smallvec![
                    per(|c| a[c].wrapping_add(b[c])),
                    per(|c| a[c].overflowing_add(b[c]).1 as u32),
                ]
            }
        }
        Exec::Bfi => {
            let (w, o, i, b) = (arg(0)?, arg(1)?, arg(2)?, arg(3)?);
            smallvec::smallvec![per(|c| bfi(w[c], o[c], i[c], b[c]))]
        }
        // Interpolation at a sample or the centroid: the quad's
        // inputs are already the pixel-centre values.
        Exec::Eval => smallvec::smallvec![arg(0)?],
        _ => return None,
    })
}

fn ishl(a: u32, b: u32) -> u32 {
    a.wrapping_shl(b & 31)
}
fn ishr(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}
fn ushr(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}
fn imax(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}
fn imin(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}
fn imad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// `ubfe width, offset, value`: width and offset use their low 5 bits; a
/// zero width gives 0 and width + offset past 32 takes the bits up to 31.
fn ubfe(width: u32, offset: u32, v: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (v << (32 - w - o)) >> (32 - w)
    } else {
        v >> o
    }
}

fn ibfe(width: u32, offset: u32, v: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (((v << (32 - w - o)) as i32) >> (32 - w)) as u32
    } else {
        ((v as i32) >> o) as u32
    }
}

/// `bfi width, offset, insert, base`.
pub fn bfi(width: u32, offset: u32, insert: u32, base: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    let mask = (((1u64 << w) - 1) as u32).wrapping_shl(o);
    ((insert << o) & mask) | (base & !mask)
}

/// `firstbit_hi`: index of the highest set bit counted from the MSB; none → -1.
fn firstbit_hi(v: u32) -> u32 {
    if v == 0 { u32::MAX } else { v.leading_zeros() }
}

fn firstbit_lo(v: u32) -> u32 {
    if v == 0 { u32::MAX } else { v.trailing_zeros() }
}

/// `firstbit_shi`: like `firstbit_hi` on the bits that differ from the sign.
fn firstbit_shi(v: u32) -> u32 {
    let x = if (v as i32) < 0 { !v } else { v };
    firstbit_hi(x)
}

fn msad(reference: u32, source: u32, accum: u32) -> u32 {
    let mut sum = accum;
    for i in 0..4 {
        let r = (reference >> (8 * i)) & 0xff;
        let s = (source >> (8 * i)) & 0xff;
        if r != 0 {
            sum = sum.wrapping_add(r.abs_diff(s));
        }
    }
    sum
}

/// The status an `_s` instruction writes. The emulator has no tiled
/// resources, and the spec (D3D11.2 5.9.4.5.5) has every access to a
/// resource that is not tiled appear fully mapped, so every access reports
/// this value. The encoding is the emulator's choice (the spec keeps it
/// opaque to shaders): no bit set means no unmapped tile was touched,
/// which keeps fxc's OR of the statuses of an access split over several
/// instructions meaningful.
pub const FULLY_MAPPED_STATUS: u32 = 0;

/// `check_access_fully_mapped`: true (0xFFFFFFFF) for a status that
/// recorded no unmapped access, false (0) otherwise. Every status the
/// emulator writes is [`FULLY_MAPPED_STATUS`]; any other value was made by
/// the shader's own arithmetic, which the spec forbids, and reads as not
/// mapped.
fn fully_mapped(status: u32) -> u32 {
    if status == FULLY_MAPPED_STATUS {
        u32::MAX
    } else {
        0
    }
}

/// A derivative along x (else y), fine (else coarse): `deriv_rtx`/`_rty`
/// are the coarse ones.
fn deriv(x: bool, fine: bool) -> Exec {
    Exec::Deriv { x, fine }
}

/// The table: what each opcode computes. Arithmetic is listed by name;
/// everything else follows from the opcode description (class and flags),
/// so a new declaration or texture opcode needs no entry here.
pub fn exec_of(op: Op) -> Exec {
    use Exec::*;
    let info = op.info();
    // The tiled-resource `_s` forms follow their class: the texture ones
    // run with the texture glue (which writes the status); the memory ones
    // (`ld_raw_s`, ...) are refused for now.
    match info.class {
        // Declarations are read when a program is prepared.
        Class::Decl => return Nop,
        // `label` only marks where a subroutine starts.
        Class::Flow if op == Op::Label => return Nop,
        Class::Flow => return Flow,
        Class::Texture => return Texture,
        Class::Stream => return Unsupported("stream output (geometry shaders) is not emulated"),
        Class::Memory if super::memory::emulated(op) => return Memory,
        Class::Memory => {
            return Unsupported(
                "the tiled-resource `_s` loads (their residency status) are not emulated",
            );
        }
        Class::Double => {
            return super::double::DOp::of(op)
                .map_or(Unsupported("this instruction is not emulated"), Double);
        }
        Class::Other if matches!(op, Op::Abort | Op::DebugBreak) => {
            return Unsupported("debug instructions are not emulated");
        }
        // `nop`, `customdata` (read when prepared) and the reserved opcodes.
        Class::Other => return Nop,
        Class::Float | Class::Int | Class::Uint | Class::Convert | Class::Move => {}
    }
    match op {
        Op::Add => F2(|a, b| a + b),
        Op::And => I2(|a, b| a & b),
        Op::Div => F2(|a, b| a / b),
        Op::Dp2 => Dot(2),
        Op::Dp3 => Dot(3),
        Op::Dp4 => Dot(4),
        Op::Eq => FCmp(|a, b| a == b),
        Op::Exp => F1(float::exp),
        Op::Frc => F1(float::frc),
        Op::Ftoi => Conv(|b| float::ftoi(f(b))),
        Op::Ftou => Conv(|b| float::ftou(f(b))),
        Op::Ge => FCmp(|a, b| a >= b),
        Op::Iadd => I2(|a, b| a.wrapping_add(b)),
        Op::Ieq => ICmp(|a, b| a == b),
        Op::Ige => ICmp(|a, b| a as i32 >= b as i32),
        Op::Ilt => ICmp(|a, b| (a as i32) < (b as i32)),
        Op::Imad => I3(imad),
        Op::Imax => I2(imax),
        Op::Imin => I2(imin),
        Op::Imul => MulWide { signed: true },
        Op::Ine => ICmp(|a, b| a != b),
        Op::Ineg => I1(|a| a.wrapping_neg()),
        Op::Ishl => I2(ishl),
        Op::Ishr => I2(ishr),
        Op::Itof => Conv(|b| out(b as i32 as f32)),
        Op::Log => F1(float::log),
        Op::Lt => FCmp(|a, b| a < b),
        Op::Mad => F3(|a, b, c| a * b + c),
        Op::Min => F2(float::min),
        Op::Max => F2(float::max),
        Op::Mov => Mov,
        Op::Movc => Movc,
        Op::Mul => F2(|a, b| a * b),
        // `ne` is the one comparison that is true for NaN.
        Op::Ne => FCmp(|a, b| a != b),
        Op::Not => I1(|a| !a),
        Op::Or => I2(|a, b| a | b),
        Op::RoundNe => F1(float::round_ne),
        Op::RoundNi => F1(f32::floor),
        Op::RoundPi => F1(f32::ceil),
        Op::RoundZ => F1(f32::trunc),
        Op::Rsq => F1(float::rsq),
        Op::Sqrt => F1(f32::sqrt),
        Op::Sincos => Sincos,
        Op::Udiv => Udiv,
        Op::Ult => ICmp(|a, b| a < b),
        Op::Uge => ICmp(|a, b| a >= b),
        Op::Umul => MulWide { signed: false },
        Op::Umad => I3(imad),
        Op::Umax => I2(u32::max),
        Op::Umin => I2(u32::min),
        Op::Ushr => I2(ushr),
        Op::Utof => Conv(|b| out(b as f32)),
        Op::Xor => I2(|a, b| a ^ b),
        Op::DerivRtx | Op::DerivRtxCoarse => deriv(true, false),
        Op::DerivRtxFine => deriv(true, true),
        Op::DerivRty | Op::DerivRtyCoarse => deriv(false, false),
        Op::DerivRtyFine => deriv(false, true),
        Op::Rcp => F1(float::rcp),
        Op::F32tof16 => Conv(|b| float::f32_to_f16(f(b))),
        Op::F16tof32 => Conv(float::f16_to_f32),
        Op::Uaddc => Carry { sub: false },
        Op::Usubb => Carry { sub: true },
        Op::Countbits => I1(|a| a.count_ones()),
        Op::FirstbitHi => I1(firstbit_hi),
        Op::FirstbitLo => I1(firstbit_lo),
        Op::FirstbitShi => I1(firstbit_shi),
        Op::Ubfe => I3(ubfe),
        Op::Ibfe => I3(ibfe),
        Op::Bfi => Bfi,
        Op::Bfrev => I1(u32::reverse_bits),
        Op::Swapc => Swapc,
        Op::Msad => I3(msad),
        Op::EvalSnapped | Op::EvalSampleIndex | Op::EvalCentroid => Eval,
        Op::CheckAccessFullyMapped => I1(fully_mapped),
        _ => Unsupported("this instruction is not emulated"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i2(op: Op, a: u32, b: u32) -> u32 {
        match exec_of(op) {
            Exec::I2(g) => g(a, b),
            _ => panic!("not I2"),
        }
    }

    #[test]
    fn shifts_use_the_low_five_bits() {
        assert_eq!(i2(Op::Ishl, 1, 33), 2);
        assert_eq!(i2(Op::Ushr, 0x8000_0000, 63), 1);
        assert_eq!(i2(Op::Ishr, 0x8000_0000, 31), u32::MAX);
    }

    #[test]
    fn bitfields() {
        assert_eq!(ubfe(8, 8, 0x1234_5678), 0x56);
        assert_eq!(ibfe(4, 4, 0x0000_00f0), u32::MAX);
        assert_eq!(ubfe(0, 3, 0xffff_ffff), 0);
        assert_eq!(ubfe(16, 24, 0xab00_0000), 0xab);
        assert_eq!(bfi(8, 8, 0xff, 0x1234_5678), 0x1234_ff78);
        assert_eq!(firstbit_hi(1), 31);
        assert_eq!(firstbit_lo(8), 3);
        assert_eq!(firstbit_hi(0), u32::MAX);
        assert_eq!(firstbit_shi(u32::MAX), u32::MAX);
        assert_eq!(firstbit_shi(0xffff_fff0), 28);
    }

    #[test]
    fn comparisons_and_nan() {
        let cmp = |op: Op, a: f32, b: f32| match exec_of(op) {
            Exec::FCmp(g) => g(a, b),
            _ => panic!(),
        };
        assert!(!cmp(Op::Eq, f32::NAN, f32::NAN));
        assert!(!cmp(Op::Lt, f32::NAN, 1.0));
        assert!(!cmp(Op::Ge, f32::NAN, 1.0));
        assert!(cmp(Op::Ne, f32::NAN, 1.0));
        assert!(cmp(Op::Eq, -0.0, 0.0));
    }

    #[test]
    fn only_the_fully_mapped_status_passes_the_residency_check() {
        let Exec::I1(check) = exec_of(Op::CheckAccessFullyMapped) else {
            panic!("not I1");
        };
        assert_eq!(check(FULLY_MAPPED_STATUS), u32::MAX);
        assert_eq!(check(1), 0);
        assert_eq!(check(u32::MAX), 0);
        // The `_s` forms run with their plain forms' class.
        assert!(matches!(exec_of(Op::SampleClS), Exec::Texture));
        assert!(matches!(exec_of(Op::LdRawS), Exec::Unsupported(_)));
    }

    #[test]
    fn msad_skips_zero_reference_bytes() {
        assert_eq!(msad(0x0000_0010, 0x0000_0005, 1), 12);
        assert_eq!(msad(0x0100_0000, 0x0500_00ff, 0), 4);
    }
}
