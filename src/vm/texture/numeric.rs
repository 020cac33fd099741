//! Number conversions between stored texel components and float32, as
//! the D3D11.3 functional spec defines them (data conversion rules):
//! UNORM, SNORM, sRGB, IEEE half, the unsigned 11- and 10-bit floats of
//! `R11G11B10_FLOAT` and the shared-exponent `R9G9B9E5_SHAREDEXP`.
//! Decoding is exact (or correctly rounded where the value has no exact
//! float32); encoding rounds to nearest, ties to even.

/// UNORM → float: `c / (2^bits - 1)`, correctly rounded. The f64 quotient
/// has a repeating binary expansion, so rounding it again to f32 cannot hit
/// a double-rounding tie.
pub(crate) fn unorm_to_f32(c: u32, bits: u32) -> f32 {
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(c) / max) as f32
}

/// Float → UNORM: NaN → 0, clamp to [0, 1], scale, round to nearest even.
pub(crate) fn f32_to_unorm(f: f32, bits: u32) -> u32 {
    if f.is_nan() {
        return 0;
    }
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(f.clamp(0.0, 1.0)) * max).round_ties_even() as u32
}

/// SNORM → float: the two's-complement `c` (low `bits` bits) over
/// `2^(bits-1) - 1`, with the most negative code clamped to -1 (D3D: both
/// -2^(bits-1) and -2^(bits-1)+1 mean -1.0). Correctly rounded.
pub(crate) fn snorm_to_f32(raw: u32, bits: u32) -> f32 {
    let c = sign_extend(raw, bits);
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    (f64::from(c) / max).max(-1.0) as f32
}

/// Float → SNORM (low `bits` bits, two's complement): NaN → 0, clamp to
/// [-1, 1], scale by `2^(bits-1) - 1`, round to nearest even. -1.0 becomes
/// `-2^(bits-1) + 1`, never the most negative code.
pub(crate) fn f32_to_snorm(f: f32, bits: u32) -> u32 {
    if f.is_nan() {
        return 0;
    }
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    let c = (f64::from(f.clamp(-1.0, 1.0)) * max).round_ties_even() as i32;
    (c as u32) & mask(bits)
}

/// The low `bits` bits of `raw` as a signed number.
pub(crate) fn sign_extend(raw: u32, bits: u32) -> i32 {
    let shift = 32 - bits;
    ((raw << shift) as i32) >> shift
}

/// A mask of the low `bits` bits (`bits` in 1..=32).
pub(crate) fn mask(bits: u32) -> u32 {
    u32::MAX >> (32 - bits)
}

/// sRGB → linear, the curve of the D3D11.3 spec (IEC 61966-2-1):
/// `c / 12.92` up to 0.04045, `((c + 0.055) / 1.055)^2.4` above; computed
/// in f64 and rounded once to float32.
pub(crate) fn srgb_to_linear(code: u32) -> f32 {
    let c = f64::from(code) / 255.0;
    let l = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    l as f32
}

/// Linear → 8-bit sRGB code: NaN → 0, clamp to [0, 1], the inverse curve
/// (`12.92 l` up to 0.0031308, `1.055 l^(1/2.4) - 0.055` above), round to
/// nearest. Every code decoded by [`srgb_to_linear`] encodes back to itself.
pub(crate) fn linear_to_srgb(f: f32) -> u32 {
    if f.is_nan() {
        return 0;
    }
    let l = f64::from(f.clamp(0.0, 1.0));
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0).round_ties_even() as u32
}

/// IEEE half → float32; exact for every input (half denormals become
/// float32 normals, NaN payloads are kept).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1F);
    let mant = u32::from(h & 0x3FF);
    match exp {
        0 => {
            // Denormal or zero: mant · 2^-24, exact in f32.
            let mag = mant as f32 * f32::from_bits(0x3380_0000);
            f32::from_bits(sign | mag.to_bits())
        }
        31 => f32::from_bits(sign | 0x7F80_0000 | (mant << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (mant << 13)),
    }
}

/// Float32 → IEEE half, rounding to nearest even (overflow → ±inf,
/// NaN → quiet NaN).
pub fn f32_to_f16(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    if f.is_nan() {
        return sign | 0x7E00;
    }
    let a = f.abs();
    if a >= 65520.0 {
        // 65520 is the midpoint between 65504 (max half) and 2^16; ties go
        // to the even mantissa, which is the overflow.
        return sign | 0x7C00;
    }
    if a < f32::from_bits(0x3880_0000) {
        // Below 2^-14: a half denormal, value = m · 2^-24. Scaling by 2^24
        // is exact; 1024 rounds up into the smallest normal, which encodes
        // as the same bits.
        let m = (a * 16_777_216.0).round_ties_even() as u16;
        return sign | m;
    }
    let exp = ((bits >> 23) & 0xFF) as i32 - 127 + 15;
    let mant = bits & 0x7F_FFFF;
    let mut h = ((exp as u32) << 10) | (mant >> 13);
    let rem = mant & 0x1FFF;
    if rem > 0x1000 || (rem == 0x1000 && h & 1 == 1) {
        h += 1; // a carry into the exponent is the correct rounding
    }
    sign | h as u16
}

/// The unsigned small floats of `R11G11B10_FLOAT`: no sign bit, a 5-bit
/// exponent of bias 15 (as half) and a 6-bit (11-bit float) or 5-bit
/// (10-bit float) mantissa; exponent 31 holds infinity and NaN, exponent 0
/// the denormals `m · 2^-14 / 2^mant_bits`. Exact in float32.
pub(crate) fn ufloat_to_f32(raw: u32, mant_bits: u32) -> f32 {
    let exp = (raw >> mant_bits) & 0x1F;
    let mant = raw & mask(mant_bits);
    let m = mant << (23 - mant_bits);
    match exp {
        0 => mant as f32 * 2f32.powi(-14 - mant_bits as i32),
        31 => f32::from_bits(0x7F80_0000 | m),
        _ => f32::from_bits(((exp + 112) << 23) | m),
    }
}

/// Float32 → unsigned small float (see [`ufloat_to_f32`]): the half
/// conversion's rounding (nearest, ties to even, overflow → infinity) with
/// the mantissa cut to `mant_bits`; negative values and -∞ become 0 (the
/// format has no sign), NaN stays NaN.
pub(crate) fn f32_to_ufloat(f: f32, mant_bits: u32) -> u32 {
    let inf = 0x1F << mant_bits;
    if f.is_nan() {
        return inf | (1 << (mant_bits - 1));
    }
    if f <= 0.0 {
        return 0;
    }
    if f == f32::INFINITY {
        return inf;
    }
    // One unit in the last place at the smallest exponent: 2^-14 / 2^mant.
    let denorm_ulp = 2f64.powi(-14 - mant_bits as i32);
    let v = f64::from(f);
    if v < 2f64.powi(-14) {
        // A denormal: round the multiple of the smallest step; a carry into
        // 2^mant is the smallest normal, which encodes as the same bits.
        return (v / denorm_ulp).round_ties_even() as u32;
    }
    let exp = v.log2().floor() as i32;
    // Guard the log2 rounding at exact powers of two.
    let exp = if 2f64.powi(exp) > v { exp - 1 } else { exp };
    let ulp = 2f64.powi(exp - mant_bits as i32);
    let scaled = (v / ulp).round_ties_even() as u32; // in 2^mant..=2^(mant+1)
    let (exp, scaled) = if scaled == 1 << (mant_bits + 1) {
        (exp + 1, scaled >> 1)
    } else {
        (exp, scaled)
    };
    let biased = exp + 15;
    if biased >= 31 {
        return inf;
    }
    ((biased as u32) << mant_bits) | (scaled & mask(mant_bits))
}

/// Largest finite unsigned small float with `mant_bits` mantissa bits:
/// 2^15 · (2 - 2^-mant_bits).
pub(crate) fn ufloat_max(mant_bits: u32) -> f32 {
    32768.0 * (2.0 - 2f32.powi(-(mant_bits as i32)))
}

/// `R9G9B9E5_SHAREDEXP` → float32: each 9-bit mantissa times
/// 2^(e - 15 - 9), no implicit leading one (D3D11.3 spec). Exact.
pub(crate) fn rgb9e5_to_f32(word: u32) -> [f32; 3] {
    let e = (word >> 27) as i32;
    let scale = 2f32.powi(e - 24);
    [0, 9, 18].map(|s| ((word >> s) & 0x1FF) as f32 * scale)
}

/// Largest `R9G9B9E5_SHAREDEXP` value: 511/512 · 2^16.
pub(crate) const RGB9E5_MAX: f32 = 65408.0;

/// Float32 → `R9G9B9E5_SHAREDEXP` by the spec's algorithm: clamp each
/// channel to [0, max] (NaN → 0), take the shared exponent from the
/// largest, `max(-16, floor(log2(max))) + 16`, bumped when the largest
/// mantissa rounds up to 512; mantissas round half up, as the spec's
/// `floor(x + 0.5)`.
pub(crate) fn f32_to_rgb9e5(rgb: [f32; 3]) -> u32 {
    let c = rgb.map(|x| {
        if x.is_nan() {
            0.0
        } else {
            f64::from(x.clamp(0.0, RGB9E5_MAX))
        }
    });
    let largest = c[0].max(c[1]).max(c[2]);
    let mut exp = if largest > 0.0 {
        let e = largest.log2().floor() as i32;
        let e = if 2f64.powi(e) > largest { e - 1 } else { e };
        e.max(-16) + 16
    } else {
        0
    };
    // The spec's floor(x / 2^(e - 24) + 0.5): halves round up.
    let round = |x: f64, exp: i32| (x / 2f64.powi(exp - 24) + 0.5).floor() as u32;
    if round(largest, exp) == 512 {
        exp += 1;
    }
    let [r, g, b] = c.map(|x| round(x, exp).min(511));
    ((exp as u32) << 27) | (b << 18) | (g << 9) | r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snorm_follows_d3d() {
        // 8 bit: 0x7F = 1, 0x81 = -127/127 = -1, 0x80 = -128/127 clamped
        // to -1, 0x40 = 64/127.
        assert_eq!(snorm_to_f32(0x7F, 8), 1.0);
        assert_eq!(snorm_to_f32(0x81, 8), -1.0);
        assert_eq!(snorm_to_f32(0x80, 8), -1.0);
        assert_eq!(snorm_to_f32(0x40, 8), (64.0f64 / 127.0) as f32);
        assert_eq!(snorm_to_f32(0x8000, 16), -1.0);
        assert_eq!(snorm_to_f32(0x8001, 16), -1.0);
        // -1 encodes as the symmetric code, never the most negative.
        assert_eq!(f32_to_snorm(-1.0, 8), 0x81);
        assert_eq!(f32_to_snorm(-7.0, 16), 0x8001);
        assert_eq!(f32_to_snorm(0.5, 8), 0x40); // 63.5 → 64 (even)
        assert_eq!(f32_to_snorm(f32::NAN, 8), 0);
    }

    #[test]
    fn srgb_curve_and_round_trip() {
        assert_eq!(srgb_to_linear(0), 0.0);
        assert_eq!(srgb_to_linear(255), 1.0);
        // 10/255 = 0.0392 is on the linear segment: 10 / 255 / 12.92.
        assert_eq!(srgb_to_linear(10), (10.0f64 / 255.0 / 12.92) as f32);
        // 188/255 → ((188/255 + 0.055) / 1.055)^2.4 ≈ 0.50289.
        assert!((srgb_to_linear(188) - 0.502_886).abs() < 1e-6);
        for c in 0..=255 {
            assert_eq!(linear_to_srgb(srgb_to_linear(c)), c, "{c}");
        }
        assert_eq!(linear_to_srgb(-1.0), 0);
        assert_eq!(linear_to_srgb(2.0), 255);
    }

    #[test]
    fn small_floats_by_bit() {
        // 11-bit: exponent 15, mantissa 0 = 1.0; exponent 16, mantissa
        // 0b100000 = 2 · 1.5 = 3.0; exponent 0, mantissa 1 = 2^-20.
        assert_eq!(ufloat_to_f32(15 << 6, 6), 1.0);
        assert_eq!(ufloat_to_f32((16 << 6) | 32, 6), 3.0);
        assert_eq!(ufloat_to_f32(1, 6), 2f32.powi(-20));
        assert_eq!(ufloat_to_f32(31 << 6, 6), f32::INFINITY);
        assert!(ufloat_to_f32((31 << 6) | 1, 6).is_nan());
        // 10-bit: exponent 14, mantissa 0b10000 = 0.5 · 1.5 = 0.75.
        assert_eq!(ufloat_to_f32((14 << 5) | 16, 5), 0.75);
        assert_eq!(ufloat_max(6), 65024.0);
        assert_eq!(ufloat_max(5), 64512.0);
        // Every code round-trips.
        for bits in [6, 5] {
            for raw in 0..(32u32 << bits) {
                let f = ufloat_to_f32(raw, bits);
                if !f.is_nan() {
                    assert_eq!(f32_to_ufloat(f, bits), raw, "{raw:#x}/{bits}");
                }
            }
        }
        // 1 + 2^-7 is halfway between 1 and 1 + 2^-6: ties to even (1.0).
        assert_eq!(f32_to_ufloat(1.0 + 2f32.powi(-7), 6), 15 << 6);
        assert_eq!(f32_to_ufloat(-3.0, 6), 0);
        assert_eq!(f32_to_ufloat(70000.0, 6), 31 << 6);
    }

    #[test]
    fn rgb9e5_by_bit() {
        // e = 15: scale 2^-9; mantissas 256, 128, 0 → 0.5, 0.25, 0.
        let w = (15 << 27) | (128 << 9) | 256;
        assert_eq!(rgb9e5_to_f32(w), [0.5, 0.25, 0.0]);
        assert_eq!(f32_to_rgb9e5([0.5, 0.25, 0.0]), w);
        // 1.0: floor(log2 1) = 0, e = 16, mantissa 1 / 2^-8 = 256.
        assert_eq!(f32_to_rgb9e5([1.0, 0.0, 0.0]), (16 << 27) | 256);
        // 511.9 at e = 24 (scale 1) rounds to 512, so e becomes 25 and the
        // mantissa 256 (value 512).
        assert_eq!(f32_to_rgb9e5([511.9, 0.0, 0.0]), (25 << 27) | 256);
        assert_eq!(rgb9e5_to_f32((25 << 27) | 256)[0], 512.0);
        assert_eq!(f32_to_rgb9e5([1e9, -1.0, f32::NAN]), (31 << 27) | 511);
        assert_eq!(rgb9e5_to_f32((31 << 27) | 511)[0], RGB9E5_MAX);
    }
}
