//! From a normalized coordinate to integer texel indices: scaling into
//! texel space, D3D's fixed-point snap, and the address modes.
//!
//! D3D converts the scaled coordinate `u·size` to fixed point with 8
//! fractional bits (`D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`) before picking
//! texels; float → fixed conversion rounds to nearest even. The reference
//! keeps exactly 8 bits, so linear weights are multiples of 1/256 and
//! gather/point picks move at the same places hardware's do.
//!
//! The arithmetic is f64: a float32 times a size ≤ 2^15 is exact, the snap is
//! a power-of-two scale and an exact rounding, so every step below is exact.

use super::sampler::AddressMode;

/// Fractional bits of the texel-space fixed-point coordinate.
pub(crate) const SUBTEXEL_SCALE: f64 = 256.0;

/// Beyond this many texels from the origin every clamp-like mode gives the
/// same texel (edge or border) for any tap, even after an offset of ±2^31.
const FAR: f64 = (1u64 << 40) as f64;

/// Snaps a texel-space value to 8 fractional bits, ties to even.
pub(crate) fn snap(x: f64) -> f64 {
    (x * SUBTEXEL_SCALE).round_ties_even() / SUBTEXEL_SCALE
}

/// The snapped texel-space position `u·size` on one axis.
///
/// For wrap and mirror the coordinate is first reduced by a multiple of 2
/// (exactly, since |u| ≥ 2 there); that shifts the texel index by a
/// multiple of 2·size, which both modes ignore, and keeps huge coordinates
/// in range. A float32 of magnitude ≥ 2^24 is an even integer, so it reduces
/// to 0, which is also what ±infinity becomes. For the clamp-like modes the
/// coordinate is limited to ±2^40 texels, which changes no result. NaN
/// reads as 0.
pub(crate) fn texel_pos(u: f64, size: u32, mode: AddressMode) -> f64 {
    let u = if u.is_nan() { 0.0 } else { u };
    let size = f64::from(size);
    let x = match mode {
        AddressMode::Wrap | AddressMode::Mirror => {
            let r = if u.abs() >= 16_777_216.0 || u.is_infinite() {
                0.0
            } else if u.abs() >= 2.0 {
                u - 2.0 * (u / 2.0).trunc()
            } else {
                u
            };
            r * size
        }
        AddressMode::Clamp | AddressMode::Border | AddressMode::MirrorOnce => {
            (u * size).clamp(-FAR, FAR)
        }
    };
    snap(x)
}

/// Point sampling: the texel containing the snapped position.
pub(crate) fn point_index(pos: f64, offset: i32) -> i64 {
    pos.floor() as i64 + i64::from(offset)
}

/// Linear filtering: the lower of the two texels around `pos − 0.5` and the
/// weight of the upper one (a multiple of 1/256, because `pos` is snapped).
pub(crate) fn linear_index(pos: f64, offset: i32) -> (i64, f64) {
    let x = pos - 0.5;
    let i = x.floor();
    (i as i64 + i64::from(offset), x - i)
}

/// Applies an address mode to an integer texel index on an axis of `size`
/// texels. `None` means the border colour.
pub(crate) fn apply(mode: AddressMode, i: i64, size: u32) -> Option<u32> {
    let n = i64::from(size.max(1));
    let j = match mode {
        AddressMode::Wrap => i.rem_euclid(n),
        AddressMode::Mirror => {
            // Period 2n: 0..n-1 forward, then n-1..0 backward.
            let m = i.rem_euclid(2 * n);
            if m < n { m } else { 2 * n - 1 - m }
        }
        AddressMode::Clamp => i.clamp(0, n - 1),
        AddressMode::Border => {
            if (0..n).contains(&i) {
                i
            } else {
                return None;
            }
        }
        // Mirror once about the origin (−1 ↔ 0), then clamp.
        AddressMode::MirrorOnce => (if i < 0 { -1 - i } else { i }).clamp(0, n - 1),
    };
    Some(j as u32)
}

/// Array layer from a float coordinate: round to nearest even, clamp to
/// [0, layers−1]; NaN selects layer 0.
pub(crate) fn array_layer(v: f32, layers: u32) -> u32 {
    if v.is_nan() {
        return 0;
    }
    let r = f64::from(v).round_ties_even();
    r.clamp(0.0, f64::from(layers.max(1) - 1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressMode::*;

    #[test]
    fn snapping_rounds_to_eighth_bit_ties_even() {
        assert_eq!(snap(0.999), 1.0); // 255.744 → 256
        assert_eq!(snap(1.0 / 512.0), 0.0); // 0.5 → 0 (even)
        assert_eq!(snap(3.0 / 512.0), 2.0 / 256.0); // 1.5 → 2
        assert_eq!(snap(-0.3), -77.0 / 256.0); // −76.8 → −77
    }

    #[test]
    fn point_and_linear_indices() {
        // 4 texels, u = 0.5: position 2.0 exactly → point texel 2; linear
        // between texels 1 and 2 with weight 0.5.
        let p = texel_pos(0.5, 4, Clamp);
        assert_eq!(point_index(p, 0), 2);
        assert_eq!(linear_index(p, 0), (1, 0.5));
        // u just below a texel centre snaps onto it: weight 0 for the upper.
        let p = texel_pos(0.3749, 4, Clamp); // 1.4996 → 1.5
        assert_eq!(linear_index(p, 0), (1, 0.0));
        assert_eq!(linear_index(p, -3), (-2, 0.0));
        // Non-power-of-two: 3 texels, u = 0.5 → position 1.5 → centre of 1.
        assert_eq!(point_index(texel_pos(0.5, 3, Clamp), 0), 1);
        assert_eq!(linear_index(texel_pos(0.5, 3, Clamp), 0), (1, 0.0));
    }

    #[test]
    fn address_modes_on_integer_indices() {
        let map = |mode, range: std::ops::RangeInclusive<i64>| -> Vec<Option<u32>> {
            range.map(|i| apply(mode, i, 3)).collect()
        };
        let s = |v: &[u32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert_eq!(map(Wrap, -4..=4), s(&[2, 0, 1, 2, 0, 1, 2, 0, 1]));
        assert_eq!(map(Mirror, -4..=6), s(&[2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0]));
        assert_eq!(map(Clamp, -2..=4), s(&[0, 0, 0, 1, 2, 2, 2]));
        assert_eq!(map(MirrorOnce, -5..=4), s(&[2, 2, 2, 1, 0, 0, 1, 2, 2, 2]));
        assert_eq!(
            map(Border, -1..=3),
            vec![None, Some(0), Some(1), Some(2), None]
        );
    }

    #[test]
    fn huge_and_invalid_coordinates_stay_in_range() {
        for mode in [Wrap, Mirror, Clamp, Border, MirrorOnce] {
            for u in [
                f32::NAN,
                f32::INFINITY,
                -f32::INFINITY,
                f32::MAX,
                -f32::MAX,
                1e20,
                -3e9,
            ] {
                let p = texel_pos(f64::from(u), 16384, mode);
                assert!(p.is_finite(), "{mode:?} {u}");
                let (i, w) = linear_index(p, i32::MIN);
                let _ = apply(mode, i, 16384);
                let _ = apply(mode, point_index(p, i32::MAX), 16384);
                assert!((0.0..1.0).contains(&w));
            }
        }
        // Wrap keeps the fraction of large coordinates exactly: 1000.25 is
        // 0.25 of the way into a period.
        assert_eq!(texel_pos(1000.25, 4, Wrap), 1.0);
        assert_eq!(texel_pos(-1000.75, 4, Wrap), -3.0);
        assert_eq!(
            apply(Wrap, point_index(texel_pos(-1000.75, 4, Wrap), 0), 4),
            Some(1)
        );
        // Mirror reduces by 2, not 1: 3.25 lies in a backward period.
        assert_eq!(
            apply(Mirror, point_index(texel_pos(3.25, 4, Mirror), 0), 4),
            Some(2)
        );
        // Clamp-like modes keep the side of huge coordinates.
        assert_eq!(
            apply(Clamp, point_index(texel_pos(-1e30, 4, Clamp), i32::MAX), 4),
            Some(0)
        );
        assert_eq!(
            apply(Border, point_index(texel_pos(1e30, 4, Border), i32::MIN), 4),
            None
        );
    }

    #[test]
    fn array_layers_round_to_nearest_even() {
        assert_eq!(array_layer(0.5, 4), 0);
        assert_eq!(array_layer(1.5, 4), 2);
        assert_eq!(array_layer(2.5, 4), 2);
        assert_eq!(array_layer(2.51, 4), 3);
        assert_eq!(array_layer(-3.0, 4), 0);
        assert_eq!(array_layer(9.0, 4), 3);
        assert_eq!(array_layer(f32::NAN, 4), 0);
        assert_eq!(array_layer(f32::INFINITY, 4), 3);
    }
}
