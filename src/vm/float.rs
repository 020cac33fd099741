//! D3D11 arithmetic rules that differ from IEEE defaults: denormal
//! flushing, NaN-ignoring `min`/`max`, saturation, the transcendental
//! special cases and the integer edge cases, all on raw 32-bit lanes.

/// Flushes a denormal to a zero of the same sign. D3D11 float arithmetic,
/// comparisons and sampling do this on input and output; moves and bit
/// operations do not.
#[inline]
pub fn flush(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// A source read for float arithmetic.
#[inline]
pub fn f(bits: u32) -> f32 {
    f32::from_bits(flush(bits))
}

/// A float arithmetic result.
#[inline]
pub fn out(v: f32) -> u32 {
    flush(v.to_bits())
}

/// `_sat`: clamp to [0, 1], NaN becomes 0.
#[inline]
pub fn saturate(bits: u32) -> u32 {
    let v = f32::from_bits(bits);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 1.0 {
        1.0f32.to_bits()
    } else {
        bits
    }
}

/// `min`: the non-NaN operand when one is NaN (D3D11 and IEEE 754-2008
/// minNum); -0 is treated as less than +0.
pub fn min(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        if a.is_sign_negative() { a } else { b }
    } else if a < b {
        a
    } else {
        b
    }
}

pub fn max(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        if a.is_sign_negative() { b } else { a }
    } else if a > b {
        a
    } else {
        b
    }
}

/// `rcp`: 1/x with rcp(±0) = ±inf and rcp(±inf) = ±0.
pub fn rcp(x: f32) -> f32 {
    1.0 / x
}

/// `rsq`: 1/sqrt(x); rsq(-0) = -inf, rsq(+0) = +inf, negative → NaN.
pub fn rsq(x: f32) -> f32 {
    if x == 0.0 {
        if x.is_sign_negative() {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        }
    } else {
        1.0 / x.sqrt()
    }
}

/// `log`: log2 with log(±0) = -inf, negative → NaN.
pub fn log(x: f32) -> f32 {
    if x == 0.0 {
        f32::NEG_INFINITY
    } else {
        x.log2()
    }
}

pub fn exp(x: f32) -> f32 {
    x.exp2()
}

/// `frc`: x - floor(x), in [0, 1).
pub fn frc(x: f32) -> f32 {
    let r = x - x.floor();
    // Tiny negative inputs round up to exactly 1.0; keep the result below 1.
    if r >= 1.0 {
        f32::from_bits(0x3f7f_ffff)
    } else {
        r
    }
}

/// `round_ne`: to nearest, ties to even.
pub fn round_ne(x: f32) -> f32 {
    x.round_ties_even()
}

/// `ftoi`: truncate; NaN → 0; out of range saturates.
pub fn ftoi(x: f32) -> u32 {
    if x.is_nan() {
        0
    } else {
        // `as` saturates at the i32 range, which is D3D's rule.
        (x as i32) as u32
    }
}

/// `ftou`: truncate; NaN and negatives → 0; out of range saturates.
pub fn ftou(x: f32) -> u32 {
    if x.is_nan() { 0 } else { x as u32 }
}

/// Float → half bits (round to nearest even), as `f32tof16` stores them in
/// the low 16 bits.
pub fn f32_to_f16(x: f32) -> u32 {
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        // Inf or NaN (keep a quiet NaN payload bit).
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Denormal half (or zero): D3D flushes float denormal inputs, but
        // half denormals are representable outputs.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let rounded = if rem > mid || (rem == mid && half & 1 != 0) {
            half + 1
        } else {
            half
        };
        return sign | rounded;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let rounded = if rem > 0x1000 || (rem == 0x1000 && half & 1 != 0) {
        half + 1
    } else {
        half
    };
    sign | rounded
}

/// Half bits (low 16 bits) → float.
pub fn f16_to_f32(h: u32) -> u32 {
    let h = h & 0xffff;
    let sign = (h & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    if exp == 0 {
        if man == 0 {
            return sign;
        }
        // Half denormal → normal float.
        let v = (man as f32) * f32::powi(2.0, -24);
        return sign | v.to_bits();
    }
    if exp == 0x1f {
        return sign | 0x7f80_0000 | (man << 13);
    }
    sign | ((exp + 127 - 15) << 23) | (man << 13)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denormals_flush_to_signed_zero() {
        assert_eq!(flush(0x0000_0001), 0);
        assert_eq!(flush(0x8000_0001), 0x8000_0000);
        assert_eq!(flush(0x3f80_0000), 0x3f80_0000);
    }

    #[test]
    fn min_max_ignore_nan() {
        assert_eq!(min(f32::NAN, 2.0), 2.0);
        assert_eq!(max(1.0, f32::NAN), 1.0);
        assert!(min(-0.0, 0.0).is_sign_negative());
        assert!(max(-0.0, 0.0).is_sign_positive());
    }

    #[test]
    fn transcendental_specials() {
        assert_eq!(rcp(0.0), f32::INFINITY);
        assert_eq!(rcp(-0.0), f32::NEG_INFINITY);
        assert_eq!(rsq(-0.0), f32::NEG_INFINITY);
        assert!(rsq(-1.0).is_nan());
        assert_eq!(log(0.0), f32::NEG_INFINITY);
        assert!(log(-1.0).is_nan());
        assert_eq!(exp(3.0), 8.0);
    }

    #[test]
    fn saturate_rules() {
        assert_eq!(saturate(f32::NAN.to_bits()), 0);
        assert_eq!(saturate(2.0f32.to_bits()), 1.0f32.to_bits());
        assert_eq!(saturate((-0.5f32).to_bits()), 0);
        assert_eq!(saturate(0.25f32.to_bits()), 0.25f32.to_bits());
    }

    #[test]
    fn conversions_saturate() {
        assert_eq!(ftoi(f32::NAN), 0);
        assert_eq!(ftoi(3e9), i32::MAX as u32);
        assert_eq!(ftoi(-2.7), (-2i32) as u32);
        assert_eq!(ftou(-1.0), 0);
        assert_eq!(ftou(5e9), u32::MAX);
        assert_eq!(round_ne(2.5), 2.0);
        assert_eq!(round_ne(3.5), 4.0);
        assert_eq!(round_ne(-2.5), -2.0);
        assert_eq!(frc(-0.25), 0.75);
    }

    #[test]
    fn half_round_trip() {
        for v in [0.0f32, 1.0, -2.5, 65504.0, 0.000_061_035_156, 1.0e-7] {
            let h = f32_to_f16(v);
            let back = f32::from_bits(f16_to_f32(h));
            assert!(
                (back - v).abs() <= v.abs() * 1e-3 + 6e-8,
                "{v} -> {h:#x} -> {back}"
            );
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16(1.0e6), 0x7c00);
        assert_eq!(f16_to_f32(0xc000), (-2.0f32).to_bits());
    }
}
