//! Block-compressed formats (BC1–BC7): one 4x4 block of texels decoded
//! into the four lanes the texture store keeps.
//!
//! The bit-level decoding is `bcdec_rs`'s (a port of the widely used
//! `bcdec`, decoding every BC format including BC6H signed and unsigned).
//! What this module adds is D3D's reading of the result:
//! * BC1–BC3 and BC7 decode to 8-bit unorm channels, returned as `c / 255`.
//!   The D3D11 functional spec leaves BC1–BC3's interpolation precision to
//!   the implementation (colour 2 = (2·c0 + c1) / 3 within a bound);
//!   `bcdec` expands 5:6:5 to 8 bits and rounds each interpolant to the
//!   nearest 8-bit value, so a decoded channel is within 1/255 of the exact
//!   third;
//! * `_SRGB` formats convert R, G and B from sRGB to linear *after*
//!   decompression (interpolation happens on the stored, gamma-encoded
//!   values), alpha stays linear;
//! * BC4/BC5 decode to floats: unorm `c / 255`, snorm `max(c, -127) / 127`,
//!   interpolated in float (8-value or 6-value mode by endpoint order);
//! * BC6H decodes to half floats, returned exactly as float32; alpha is the
//!   default 1.

use super::format::{Format, ONE_F32};
use super::numeric::srgb_to_linear;

/// Texels along each side of a block.
pub const BLOCK: u32 = 4;

/// Blocks covering a level of `w`×`h` texels: D3D rounds each side up, so
/// a level smaller than a block (the 2x2 and 1x1 mips) still occupies one
/// whole block, of which only the top-left texels are read.
pub fn blocks_across(w: u32, h: u32) -> (u32, u32) {
    (w.div_ceil(BLOCK), h.div_ceil(BLOCK))
}

/// Decodes one block of `format` (which must be block-compressed; others
/// give zeros) into 16 texels, row by row. `block` shorter than the
/// format's block size reads as zero-padded rather than panicking.
pub fn decode_block(format: Format, block: &[u8]) -> [[u32; 4]; 16] {
    let mut raw = [0u8; 16];
    let n = format.block_bytes().unwrap_or(0).min(block.len());
    raw[..n].copy_from_slice(&block[..n]);
    let mut out = [[0u32; 4]; 16];
    let unorm8 = |c: u8| (f64::from(c) / 255.0) as f32;
    match format {
        Format::Bc1Unorm
        | Format::Bc1UnormSrgb
        | Format::Bc2Unorm
        | Format::Bc2UnormSrgb
        | Format::Bc3Unorm
        | Format::Bc3UnormSrgb
        | Format::Bc7Unorm
        | Format::Bc7UnormSrgb => {
            let mut rgba = [0u8; 64];
            match format {
                Format::Bc1Unorm | Format::Bc1UnormSrgb => bcdec_rs::bc1(&raw[..8], &mut rgba, 16),
                Format::Bc2Unorm | Format::Bc2UnormSrgb => bcdec_rs::bc2(&raw, &mut rgba, 16),
                Format::Bc3Unorm | Format::Bc3UnormSrgb => bcdec_rs::bc3(&raw, &mut rgba, 16),
                _ => bcdec_rs::bc7(&raw, &mut rgba, 16),
            }
            let srgb = format.is_srgb();
            for (texel, px) in out.iter_mut().zip(rgba.chunks_exact(4)) {
                for (i, lane) in texel.iter_mut().enumerate() {
                    let v = if srgb && i < 3 {
                        srgb_to_linear(u32::from(px[i]))
                    } else {
                        unorm8(px[i])
                    };
                    *lane = v.to_bits();
                }
            }
        }
        Format::Bc4Unorm | Format::Bc4Snorm | Format::Bc5Unorm | Format::Bc5Snorm => {
            let signed = matches!(format, Format::Bc4Snorm | Format::Bc5Snorm);
            let two = matches!(format, Format::Bc5Unorm | Format::Bc5Snorm);
            let mut v = [0f32; 32];
            if two {
                bcdec_rs::bc5_float(&raw, &mut v, 8, signed);
            } else {
                bcdec_rs::bc4_float(&raw[..8], &mut v[..16], 4, signed);
            }
            let per = if two { 2 } else { 1 };
            for (t, texel) in out.iter_mut().enumerate() {
                texel[0] = v[t * per].to_bits();
                texel[1] = if two { v[t * 2 + 1].to_bits() } else { 0 };
                texel[3] = ONE_F32;
            }
        }
        Format::Bc6hUf16 | Format::Bc6hSf16 => {
            let mut h = [0u16; 48];
            bcdec_rs::bc6h_half(&raw, &mut h, 12, format == Format::Bc6hSf16);
            for (texel, px) in out.iter_mut().zip(h.chunks_exact(3)) {
                for i in 0..3 {
                    texel[i] = super::format::f16_to_f32(px[i]).to_bits();
                }
                texel[3] = ONE_F32;
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(lanes: [u32; 4]) -> [f32; 4] {
        lanes.map(f32::from_bits)
    }

    /// BC1, color0 > color1: four opaque colours, the two interpolants at
    /// 1/3 and 2/3. Red 0xF800 (31,0,0) and blue 0x001F (0,0,31); indices
    /// 0,1,2,3 along the first row.
    #[test]
    fn bc1_four_colour_mode() {
        let block = [0x00, 0xF8, 0x1F, 0x00, 0b1110_0100, 0, 0, 0];
        let t = decode_block(Format::Bc1Unorm, &block);
        assert_eq!(f(t[0]), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(f(t[1]), [0.0, 0.0, 1.0, 1.0]);
        // 2/3 · 255 = 170, 1/3 · 255 = 85.
        assert_eq!(f(t[2]), [170.0 / 255.0, 0.0, 85.0 / 255.0, 1.0]);
        assert_eq!(f(t[3]), [85.0 / 255.0, 0.0, 170.0 / 255.0, 1.0]);
        // Index 0 everywhere else.
        assert_eq!(f(t[15]), [1.0, 0.0, 0.0, 1.0]);
    }

    /// BC1, color0 <= color1: three colours (the midpoint) and index 3 is
    /// transparent black.
    #[test]
    fn bc1_three_colour_mode() {
        let block = [0x1F, 0x00, 0x00, 0xF8, 0b1110_0100, 0, 0, 0];
        let t = decode_block(Format::Bc1Unorm, &block);
        assert_eq!(f(t[0]), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(f(t[1]), [1.0, 0.0, 0.0, 1.0]);
        // (255 + 0) / 2 = 127.5: bcdec rounds to 128 (within the bound).
        let mid = f(t[2]);
        assert!((mid[0] - 0.5).abs() <= 1.0 / 255.0 && (mid[2] - 0.5).abs() <= 1.0 / 255.0);
        assert_eq!(f(t[3]), [0.0, 0.0, 0.0, 0.0]);
    }

    /// BC4 unorm: r0 = 255 > r1 = 0 gives 8 values (i/7 steps); r0 <= r1
    /// gives 6 values plus 0 and 1.
    #[test]
    fn bc4_modes() {
        // Index 2 for texel 0 (bits 0..3 of the index field).
        let t = decode_block(Format::Bc4Unorm, &[255, 0, 2, 0, 0, 0, 0, 0]);
        assert_eq!(f(t[0]), [6.0 / 7.0, 0.0, 0.0, 1.0]);
        let t = decode_block(Format::Bc4Unorm, &[0, 255, 6, 0, 0, 0, 0, 0]);
        assert_eq!(f(t[0]), [0.0, 0.0, 0.0, 1.0]);
        let t = decode_block(Format::Bc4Unorm, &[0, 255, 7, 0, 0, 0, 0, 0]);
        assert_eq!(f(t[0]), [1.0, 0.0, 0.0, 1.0]);
        // Snorm: -128 reads as -127, i.e. -1.0.
        let t = decode_block(Format::Bc4Snorm, &[0x80, 0x7F, 0, 0, 0, 0, 0, 0]);
        assert_eq!(f(t[0]), [-1.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn srgb_is_linearised_after_decoding() {
        // White and black endpoints: index 2 is the 2/3 interpolant 170,
        // index 3 the 1/3 one, 85; each is linearised after interpolation.
        let linear = |c: f64| ((c / 255.0 + 0.055) / 1.055).powf(2.4) as f32;
        let t = decode_block(Format::Bc1UnormSrgb, &[0xFF, 0xFF, 0, 0, 0b1110, 0, 0, 0]);
        assert_eq!(f(t[0])[0], linear(170.0));
        assert_eq!(f(t[1])[1], linear(85.0));
        assert_eq!(f(t[0])[3], 1.0);
        // Below 0.04045 the curve is linear: 10/255 / 12.92.
        assert_eq!(srgb_to_linear(10u32), (10.0f64 / 255.0 / 12.92) as f32);
    }

    #[test]
    fn short_blocks_do_not_panic() {
        for format in Format::ALL {
            let _ = decode_block(format, &[1, 2, 3]);
        }
    }
}
