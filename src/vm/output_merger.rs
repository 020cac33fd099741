//! The output merger, as far as a case's draw goes: a pixel shader's output
//! converted to its render target's format on write, the value a copy of
//! the target reads back, and the depth test (D3D11.3 functional spec,
//! "Data Conversion" and "Output Merger Stage"). Both renderers of the
//! harness read their values through here, so the emulator's image and a
//! GPU's read-back are decoded the same way.

use crate::vm::texture::{ComparisonFunc, Format, NumericKind};

/// The bytes a render target of `format` stores for an output register's
/// raw lanes (float bits for float, UNORM and sRGB formats; integer bits
/// for integer formats), by D3D's data conversion rules: float → UNORM
/// clamps to [0, 1] with NaN → 0, scales by 2^n − 1 and rounds to nearest
/// (`+ 0.5`, truncate); float → sRGB encodes the colour channels with the
/// sRGB curve first (alpha stays linear); float → half rounds toward zero,
/// as every conversion to a narrower float format does; integers narrower
/// than 32 bits saturate (the integer conversion rules; Vulkan leaves those
/// undefined, so cases keep to the range). Channels the format lacks are
/// dropped.
pub fn store(format: Format, raw: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    let f = |c: usize| f32::from_bits(raw[c]);
    let channels = format.channels();
    match format {
        Format::R8Unorm | Format::Rg8Unorm | Format::Rgba8Unorm => {
            for (c, byte) in out.iter_mut().enumerate().take(channels) {
                *byte = unorm(f(c), 8) as u8;
            }
        }
        Format::Rgba8UnormSrgb => {
            for (c, byte) in out.iter_mut().enumerate().take(3) {
                *byte = unorm(srgb_encode(f(c)), 8) as u8;
            }
            out[3] = unorm(f(3), 8) as u8;
        }
        Format::R16Unorm | Format::D16Unorm => {
            out[..2].copy_from_slice(&(unorm(f(0), 16) as u16).to_le_bytes());
        }
        Format::Rg16Float | Format::Rgba16Float => {
            for c in 0..channels {
                out[2 * c..2 * c + 2].copy_from_slice(&f32_to_f16_toward_zero(f(c)).to_le_bytes());
            }
        }
        _ => format.encode_lanes(raw, &mut out),
    }
    out
}

/// FLOAT → UNORM: NaN → 0, clamp to [0, 1], `c·(2^n − 1) + 0.5` with the
/// fraction dropped (exact in f64).
fn unorm(c: f32, bits: u32) -> u32 {
    if c.is_nan() {
        return 0;
    }
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(c.clamp(0.0, 1.0)) * max + 0.5).floor() as u32
}

/// Linear → sRGB (IEC 61966-2-1): `12.92·c` up to 0.0031308, else
/// `1.055·c^(1/2.4) − 0.055`; NaN stays NaN (and stores 0).
fn srgb_encode(c: f32) -> f32 {
    if c.is_nan() {
        return c;
    }
    let v = f64::from(c.clamp(0.0, 1.0));
    (if v <= 0.0031308 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }) as f32
}

/// Float32 → half, rounding toward zero: the mantissa's extra bits are
/// dropped; finite values past the largest half become it (65504), NaN
/// stays NaN and infinities stay infinite.
fn f32_to_f16_toward_zero(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    if f.is_nan() {
        return sign | 0x7E00;
    }
    if f.is_infinite() {
        return sign | 0x7C00;
    }
    let a = f.abs();
    if a >= 65536.0 {
        return sign | 0x7BFF;
    }
    if a < f32::from_bits(0x3880_0000) {
        // Below 2^-14: a half denormal m · 2^-24 (scaling by 2^24 is exact).
        return sign | (a * 16_777_216.0).floor() as u16;
    }
    let exp = ((bits >> 23) & 0xFF) - 127 + 15;
    sign | ((exp << 10) | ((bits & 0x7F_FFFF) >> 13)) as u16
}

/// What reading a render target's texel back gives, as the harness's images
/// hold it: floats for float and UNORM formats, integers by value
/// (`7u` → 7.0), the format's missing channels as D3D's defaults (0, 0, 0,
/// 1). An sRGB target reads back its stored encoding (a copy moves bytes;
/// only sampling linearises), so 0.5 written reads back 188/255.
pub fn read_back(format: Format, bytes: &[u8]) -> [f32; 4] {
    let format = format.without_srgb();
    format.decode(bytes).map(|l| match format.kind() {
        NumericKind::Uint => l as f32,
        NumericKind::Sint => l as i32 as f32,
        NumericKind::Unorm | NumericKind::Snorm | NumericKind::Srgb | NumericKind::Float => {
            f32::from_bits(l)
        }
    })
}

/// A depth buffer's format (`DXGI_FORMAT_D…`). The stencil parts are
/// cleared to 0 and never tested: the draw uses depth only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthFormat {
    D32Float,
    D24UnormS8Uint,
    D16Unorm,
    D32FloatS8X24Uint,
}

impl DepthFormat {
    pub const ALL: [DepthFormat; 4] = [
        DepthFormat::D32Float,
        DepthFormat::D24UnormS8Uint,
        DepthFormat::D16Unorm,
        DepthFormat::D32FloatS8X24Uint,
    ];

    /// The case-file name.
    pub fn name(self) -> &'static str {
        match self {
            DepthFormat::D32Float => "d32_float",
            DepthFormat::D24UnormS8Uint => "d24_unorm_s8_uint",
            DepthFormat::D16Unorm => "d16_unorm",
            DepthFormat::D32FloatS8X24Uint => "d32_float_s8x24_uint",
        }
    }

    /// Bits of the UNORM depth; `None` for a float depth.
    fn unorm_bits(self) -> Option<u32> {
        match self {
            DepthFormat::D24UnormS8Uint => Some(24),
            DepthFormat::D16Unorm => Some(16),
            DepthFormat::D32Float | DepthFormat::D32FloatS8X24Uint => None,
        }
    }

    /// The depth the buffer stores for `z` (already clamped to the
    /// viewport's range, so within [0, 1]): float formats keep it, UNORM
    /// formats convert as float → UNORM does (`z·(2^n − 1) + 0.5`,
    /// truncated; NaN → 0) and hold the value that integer stands for.
    pub fn quantize(self, z: f32) -> f32 {
        match self.unorm_bits() {
            None => z,
            Some(bits) => {
                if z.is_nan() {
                    return 0.0;
                }
                let max = ((1u64 << bits) - 1) as f64;
                let k = (f64::from(z.clamp(0.0, 1.0)) * max + 0.5).floor();
                (k / max) as f32
            }
        }
    }
}

/// The draw's depth state (`D3D11_DEPTH_STENCIL_DESC`'s depth part).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthState {
    pub format: DepthFormat,
    /// `DepthEnable`: off means no test and no write.
    pub test: bool,
    /// `DepthWriteMask`: ALL (true) or ZERO.
    pub write: bool,
    pub func: ComparisonFunc,
}

impl DepthState {
    /// Tests a pixel's depth `z` (interpolated, or the shader's `oDepth`)
    /// against the stored depth: `z` is clamped to the viewport's
    /// [min, max] depth and converted to the buffer's format, then compared
    /// (`incoming FUNC stored`). Returns whether the pixel survives and the
    /// depth to store, if any.
    pub fn test(&self, z: f32, range: [f32; 2], stored: f32) -> (bool, Option<f32>) {
        if !self.test {
            return (true, None);
        }
        // NaN fails `clamp`'s ordering: D3D clamps it like 0 would be.
        let z = if z.is_nan() {
            range[0]
        } else {
            z.clamp(range[0], range[1])
        };
        let z = self.format.quantize(z);
        let pass = self.func.passes(z, stored);
        (pass, (pass && self.write).then_some(z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_targets_clamp_round_and_zero_nan() {
        let f = |v: f32| store(Format::Rgba8Unorm, [v.to_bits(); 4])[0];
        // 0.5 · 255 = 127.5, + 0.5 truncates to 128.
        assert_eq!(f(0.5), 128);
        assert_eq!(f(1.5), 255);
        assert_eq!(f(-1.0), 0);
        assert_eq!(f(f32::NAN), 0);
        // 0.2 · 255 = 51.000001: 51.
        assert_eq!(f(0.2), 51);
        assert_eq!(
            read_back(Format::Rgba8Unorm, &[128, 255, 0, 51])[0],
            128.0 / 255.0
        );
    }

    #[test]
    fn srgb_targets_encode_and_read_back_the_encoding() {
        // 1.055 · 0.5^(1/2.4) − 0.055 = 0.735357; · 255 = 187.52 → 188.
        let b = store(Format::Rgba8UnormSrgb, [0.5f32.to_bits(); 4]);
        assert_eq!(&b[..4], &[188, 188, 188, 128]);
        // Below 0.0031308 the curve is linear: 0.002 · 12.92 · 255 = 6.59 → 7.
        assert_eq!(store(Format::Rgba8UnormSrgb, [0.002f32.to_bits(); 4])[0], 7);
        assert_eq!(
            read_back(Format::Rgba8UnormSrgb, &b),
            [188.0 / 255.0, 188.0 / 255.0, 188.0 / 255.0, 128.0 / 255.0]
        );
    }

    #[test]
    fn half_and_integer_targets() {
        // 1 + 2^-11 lies halfway between halves 1.0 and 1 + 2^-10: even.
        let b = store(
            Format::Rg16Float,
            [(1.0f32 + 2f32.powi(-11)).to_bits(), 0, 0, 0],
        );
        assert_eq!(&b[..2], &[0x00, 0x3C]);
        let b = store(Format::Rgba8Uint, [7, 300, 0, 1]);
        assert_eq!(&b[..4], &[7, 255, 0, 1]);
        assert_eq!(read_back(Format::Rgba8Uint, &b), [7.0, 255.0, 0.0, 1.0]);
        assert_eq!(
            read_back(Format::R32Sint, &(-3i32).to_le_bytes()),
            [-3.0, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn depth_quantizes_clamps_and_compares() {
        // 0.5 · 65535 = 32767.5, + 0.5 → 32768 → 32768 / 65535.
        assert_eq!(
            DepthFormat::D16Unorm.quantize(0.5),
            (32768.0 / 65535.0) as f32
        );
        assert_eq!(DepthFormat::D32Float.quantize(0.3), 0.3);
        let s = DepthState {
            format: DepthFormat::D32Float,
            test: true,
            write: true,
            func: ComparisonFunc::Less,
        };
        assert_eq!(s.test(0.25, [0.0, 1.0], 0.5), (true, Some(0.25)));
        assert_eq!(s.test(0.75, [0.0, 1.0], 0.5), (false, None));
        // Clamped to the viewport's range [0.6, 0.8] before the test.
        assert_eq!(s.test(0.25, [0.6, 0.8], 0.7), (true, Some(0.6)));
        let no_write = DepthState { write: false, ..s };
        assert_eq!(no_write.test(0.25, [0.0, 1.0], 0.5), (true, None));
        let off = DepthState { test: false, ..s };
        assert_eq!(off.test(0.75, [0.0, 1.0], 0.5), (true, None));
    }
}
