//! The common operand written in one copy. Nearly every operand of a
//! listing (and of each translated instruction's comment) is a register
//! with immediate indices and no precision or `nonuniform` tag: `r0.xyzw`,
//! `-|v1.x|`, `cb0[12].xyxx`, `t3.xyzw`. Deciding once that the operand
//! is of that kind lets it be written straight through (its selection from
//! a table, the room for it reserved once) instead of through the general
//! path's per-part matches. Anything else takes the general path in
//! `mod.rs`, which this must match byte for byte.

use super::super::ir::{Index, MinPrecision, Modifier, Operand, OperandType, Selection};
use super::super::numfmt::push_u64;

/// The text after the dot of each write mask, indexed by its four bits.
const MASKS: [&str; 16] = [
    "", ".x", ".y", ".xy", ".z", ".xz", ".yz", ".xyz", ".w", ".xw", ".yw", ".xyw", ".zw", ".xzw",
    ".yzw", ".xyzw",
];

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// Room for the longest operand [`write_plain_operand`] writes.
const LONGEST: usize = 69;

/// Writes `op` and returns true when it is a register with at most three
/// indices, all plain 32-bit immediates, and no precision or `nonuniform`
/// tag; returns false, writing nothing, for every other operand.
///
/// The longest accepted text is two modifier bytes, a 25-byte register
/// prefix (`vThreadIDInGroupFlattened`), three bracketed ten-digit
/// indices, a five-byte selection and the closing `|`: [`LONGEST`].
pub(super) fn write_plain_operand(out: &mut String, op: &Operand) -> bool {
    if op.min_precision != MinPrecision::Default || op.nonuniform || op.is_immediate() {
        return false;
    }
    let ty = op.ty;
    let Some(prefix) = ty.prefix() else {
        return false;
    };
    if op.indices.len() > 3
        || prefix.len() > 25
        || !op.indices.iter().all(|i| matches!(i, Index::Imm32(_)))
    {
        return false;
    }
    out.reserve(LONGEST);
    let abs = matches!(op.modifier, Modifier::Abs | Modifier::AbsNeg);
    if matches!(op.modifier, Modifier::Neg | Modifier::AbsNeg) {
        out.push('-');
    }
    if abs {
        out.push('|');
    }
    out.push_str(prefix);
    if !ty.is_named_register() && ty != OperandType::NULL {
        // The same placement as `write_register_name`.
        let bracket_first = super::brackets_first_index(op);
        for (i, idx) in op.indices.iter().enumerate() {
            let v = match *idx {
                Index::Imm32(v) => v as u64,
                // Ruled out above.
                _ => 0,
            };
            if i == 0 && !bracket_first {
                push_u64(out, v);
            } else {
                out.push('[');
                push_u64(out, v);
                out.push(']');
            }
        }
    }
    match op.selection {
        Selection::None => {}
        Selection::Mask(m) => match MASKS[m as usize & 0xf] {
            // Only bits past w: the general path prints the bare dot.
            "" if m != 0 => out.push('.'),
            text => out.push_str(text),
        },
        Selection::Swizzle(s) => {
            out.push('.');
            for c in s {
                out.push(COMPONENTS[c as usize & 3]);
            }
        }
        Selection::Select1(c) => {
            out.push('.');
            out.push(COMPONENTS[c as usize & 3]);
        }
    }
    if abs {
        out.push('|');
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::super::ir::{
        Index, Lanes, MinPrecision, Modifier, Operand, OperandType, Selection,
    };
    use super::super::super::opcodes::NumType;
    use super::super::{Style, write_any_operand};
    use super::write_plain_operand;
    use proptest::prelude::*;

    /// An index: mostly plain immediates (the digits' edges included),
    /// sometimes the 64-bit or relative forms the fast path must refuse.
    fn index() -> impl Strategy<Value = Index> {
        prop_oneof![
            6 => prop_oneof![0u32..=12, 9u32..=11, 99u32..=101, Just(u32::MAX), any::<u32>()]
                .prop_map(Index::Imm32),
            1 => any::<u64>().prop_map(Index::Imm64),
            1 => (0u32..20).prop_map(|r| Index::Relative(Box::new(Operand {
                ty: OperandType::TEMP,
                selection: Selection::Select1((r % 4) as u8),
                indices: [Index::Imm32(r)].into_iter().collect(),
                ..Operand::default()
            }))),
        ]
    }

    fn selection() -> impl Strategy<Value = Selection> {
        prop_oneof![
            Just(Selection::None),
            any::<u8>().prop_map(Selection::Mask),
            (0u8..16).prop_map(Selection::Mask),
            any::<[u8; 4]>().prop_map(Selection::Swizzle),
            any::<u8>().prop_map(Selection::Select1),
        ]
    }

    fn operand() -> impl Strategy<Value = Operand> {
        (
            // Every file the listing names, and a few past them.
            0u8..48,
            prop::collection::vec(index(), 0..5),
            selection(),
            prop_oneof![
                Just(Modifier::None),
                Just(Modifier::Neg),
                Just(Modifier::Abs),
                Just(Modifier::AbsNeg)
            ],
            prop_oneof![
                8 => Just(MinPrecision::Default),
                1 => Just(MinPrecision::Float16),
                1 => any::<u8>().prop_map(MinPrecision::Other),
            ],
            prop::bool::weighted(0.1),
            prop::collection::vec(any::<u32>(), 0..5),
        )
            .prop_map(
                |(ty, indices, selection, modifier, min_precision, nonuniform, imm)| Operand {
                    ty: OperandType(ty),
                    selection,
                    indices: indices.into_iter().collect(),
                    modifier,
                    min_precision,
                    nonuniform,
                    imm: Lanes::from_slice(&imm).unwrap_or_default(),
                    ..Operand::default()
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Whatever the fast path accepts it writes exactly as the general
        /// path does, after text already in the buffer; what it refuses it
        /// leaves untouched.
        #[test]
        fn plain_equals_general(op in operand()) {
            let mut general = String::from("mov ");
            write_any_operand(&mut general, &op, NumType::Float, Style::default());
            let mut fast = String::from("mov ");
            if write_plain_operand(&mut fast, &op) {
                prop_assert_eq!(fast, general);
            } else {
                prop_assert_eq!(fast, "mov ");
            }
        }
    }

    /// The common operands do take the fast path (it would otherwise pass
    /// the test above by refusing everything), written as fxc writes them.
    #[test]
    fn common_operands_take_the_fast_path() {
        let reg = |ty, indices: &[u32], selection, modifier| Operand {
            ty,
            selection,
            indices: indices.iter().map(|&i| Index::Imm32(i)).collect(),
            modifier,
            ..Operand::default()
        };
        let cases = [
            (
                reg(
                    OperandType::TEMP,
                    &[0],
                    Selection::Mask(0xf),
                    Modifier::None,
                ),
                "r0.xyzw",
            ),
            (
                reg(
                    OperandType::INPUT,
                    &[12],
                    Selection::Select1(0),
                    Modifier::AbsNeg,
                ),
                "-|v12.x|",
            ),
            (
                reg(
                    OperandType::CONSTANT_BUFFER,
                    &[0, 105],
                    Selection::Swizzle([0, 1, 0, 0]),
                    Modifier::Neg,
                ),
                "-cb0[105].xyxx",
            ),
            // A two-index input is a per-vertex array: both bracketed.
            (
                reg(
                    OperandType::INPUT,
                    &[2, 3],
                    Selection::Mask(0b0101),
                    Modifier::None,
                ),
                "v[2][3].xz",
            ),
            (
                reg(
                    OperandType::OUTPUT_DEPTH,
                    &[],
                    Selection::None,
                    Modifier::None,
                ),
                "oDepth",
            ),
        ];
        for (op, want) in cases {
            let mut out = String::new();
            assert!(write_plain_operand(&mut out, &op), "{want}");
            assert_eq!(out, want);
        }
    }
}
