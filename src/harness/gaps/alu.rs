//! The arithmetic gaps: decided from the values an instruction's sources
//! hold in the components it uses, as the emulator is about to read them.

use super::{GapKind, GapValue, Pending, operand_value};
use crate::dxbc::ir::Instruction;
use crate::dxbc::opcodes::{Class, NumType, Op};
use crate::dxbc::value_type::ValueType;
use crate::vm::SourceValue;

pub(super) fn component(c: usize) -> char {
    ['x', 'y', 'z', 'w'][c & 3]
}

/// The value type a number type's bits are shown as.
pub(super) fn value_type(t: Option<NumType>) -> ValueType {
    match t {
        Some(NumType::Float) => ValueType::Float,
        Some(NumType::Int) => ValueType::Int,
        _ => ValueType::Uint,
    }
}

/// Which source components the instruction reads: the dot products read
/// their width, component-wise instructions the components their
/// destinations write.
fn used_components(inst: &Instruction) -> u8 {
    match inst.op {
        Op::Dp2 => 0b0011,
        Op::Dp3 => 0b0111,
        Op::Dp4 => 0b1111,
        _ => {
            let dst = inst.info().dst as usize;
            inst.operands
                .iter()
                .take(dst)
                .fold(0, |m, op| m | op.selection.mask())
        }
    }
}

fn is_nan(bits: u32) -> bool {
    f32::from_bits(bits).is_nan()
}

/// Exponent zero, mantissa not: a denormal (either sign).
fn is_denormal(bits: u32) -> bool {
    bits & 0x7f80_0000 == 0 && bits & 0x007f_ffff != 0
}

/// The hits of a non-texture instruction whose sources read `sources`.
pub(super) fn hits(inst: &Instruction, sources: &[SourceValue], out: &mut Vec<Pending>) {
    let used = used_components(inst);
    let ty = value_type(inst.info().source_type());
    let comps = || (0..4).filter(move |c| used & (1 << c) != 0);
    // Every (source, component) whose value `test` picks, as GapValues.
    let pick = |sources: &[SourceValue], test: &dyn Fn(u32) -> bool, raw: bool| {
        let mut v = Vec::new();
        for c in comps() {
            for s in sources {
                let bits = if raw { s.raw[c] } else { s.read[c] };
                if !test(bits) {
                    continue;
                }
                let value = operand_value(inst, s, c, bits, ty);
                // A replicated source (`cb0[0].y` feeding x and y) is one value.
                if !v
                    .iter()
                    .any(|w: &GapValue| w.source == value.source && w.bits == bits)
                {
                    v.push(value);
                }
            }
        }
        v
    };
    let mut push = |kind, values: Vec<GapValue>| {
        if !values.is_empty() {
            out.push(Pending { kind, values });
        }
    };
    match inst.op {
        Op::Min | Op::Max => push(GapKind::MinMaxNan, pick(sources, &is_nan, false)),
        Op::Eq | Op::Ne | Op::Lt | Op::Ge => {
            push(GapKind::NanComparison, pick(sources, &is_nan, false))
        }
        Op::Ftoi | Op::Ftou => {
            push(GapKind::FloatToIntNan, pick(sources, &is_nan, false));
            let unsigned = inst.op == Op::Ftou;
            let out_of_range = move |bits: u32| {
                let f = f32::from_bits(bits);
                // The truncated value must fit: [-2^31, 2^31) for ftoi;
                // for ftou [0, 2^32), and GLSL ES leaves uint() of any
                // negative value undefined, even one truncating to 0.
                // NaN is its own gap, not a range one.
                let fits = if unsigned {
                    (0.0..4_294_967_296.0).contains(&f)
                } else {
                    (-2_147_483_648.0..2_147_483_648.0).contains(&f)
                };
                !fits && !f.is_nan()
            };
            push(
                GapKind::FloatToIntRange,
                pick(sources, &out_of_range, false),
            );
        }
        Op::Ishl | Op::Ishr | Op::Ushr => {
            let count = &sources[sources.len().min(1)..];
            push(GapKind::ShiftCount, pick(count, &|b| b >= 32, false))
        }
        Op::Udiv => {
            let divisor = &sources[sources.len().min(1)..];
            push(GapKind::DivideByZero, pick(divisor, &|b| b == 0, false))
        }
        Op::Rcp | Op::Rsq => push(
            GapKind::ReciprocalOfZero,
            pick(sources, &|b| b & 0x7fff_ffff == 0, false),
        ),
        _ => {}
    }
    // Denormals: sources read as floats by float arithmetic and
    // conversions (moves are typeless in D3D and flush nothing).
    let info = inst.info();
    if info.float_rule().flush_sources && matches!(info.class, Class::Float | Class::Convert) {
        push(GapKind::Denormal, pick(sources, &is_denormal, true));
    }
}
