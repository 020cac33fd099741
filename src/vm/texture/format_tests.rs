//! Unit tests of the format table: decode and encode of every format
//! with hand-worked texels, range checks, DXGI numbers.

use super::*;

fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

#[test]
fn decode_every_format() {
    let cases: [(Format, &[u8], [u32; 4]); 11] = [
        (Format::R8Unorm, &[255], bits([1.0, 0.0, 0.0, 1.0])),
        (Format::Rg8Unorm, &[0, 51], bits([0.0, 0.2, 0.0, 1.0])),
        (
            Format::Rgba8Unorm,
            &[255, 0, 102, 51],
            bits([1.0, 0.0, 0.4, 0.2]),
        ),
        (
            Format::R32Float,
            &1.5f32.to_le_bytes(),
            bits([1.5, 0.0, 0.0, 1.0]),
        ),
        (
            Format::Rg32Float,
            &[(-2.0f32).to_le_bytes(), 0.25f32.to_le_bytes()].concat(),
            bits([-2.0, 0.25, 0.0, 1.0]),
        ),
        (
            // 1.0, -2.0, 0.5, 65504 as halves
            Format::Rgba16Float,
            &[0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B],
            bits([1.0, -2.0, 0.5, 65504.0]),
        ),
        (
            Format::Rgba32Float,
            &[1.0f32, 2.0, 3.0, 4.0]
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect::<Vec<u8>>(),
            bits([1.0, 2.0, 3.0, 4.0]),
        ),
        (Format::R32Uint, &[7, 0, 0, 0x80], [0x8000_0007, 0, 0, 1]),
        (
            Format::R32Sint,
            &(-5i32).to_le_bytes(),
            [-5i32 as u32, 0, 0, 1],
        ),
        (
            Format::D32Float,
            &0.75f32.to_le_bytes(),
            bits([0.75, 0.0, 0.0, 1.0]),
        ),
        (Format::D16Unorm, &[0xFF, 0xFF], bits([1.0, 0.0, 0.0, 1.0])),
    ];
    for (format, bytes, want) in cases {
        assert_eq!(bytes.len(), format.bytes_per_texel(), "{format:?}");
        assert_eq!(format.decode(bytes), want, "{format:?}");
    }
}

#[test]
fn unorm_values_are_correctly_rounded() {
    // Expected bits are the nearest float32 to c / (2^n - 1), computed
    // independently (Python's struct packing of the double quotient).
    assert_eq!(Format::R8Unorm.decode(&[1])[0], 0x3B80_8081);
    assert_eq!(Format::R8Unorm.decode(&[128])[0], 0x3F00_8081);
    assert_eq!(Format::D16Unorm.decode(&[0x00, 0x80])[0], 0x3F00_0080);
    assert_eq!(Format::D16Unorm.decode(&[0x01, 0x00])[0], 0x3780_0080);
}

#[test]
fn float_bits_survive_decoding() {
    // A float32 denormal and a NaN with payload are stored as given.
    for raw in [1u32, 0x8000_0001, 0x7FC0_1234, 0xFF80_0000] {
        assert_eq!(Format::R32Float.decode(&raw.to_le_bytes())[0], raw);
    }
    // A half denormal (2^-24) becomes the exact float32 normal.
    assert_eq!(
        Format::Rgba16Float.decode(&[1, 0, 0, 0, 0, 0, 0, 0])[0],
        2f32.powi(-24).to_bits()
    );
}

#[test]
fn short_input_reads_zero_instead_of_panicking() {
    assert_eq!(Format::Rgba32Float.decode(&[]), [0, 0, 0, 0]);
    assert_eq!(Format::R32Uint.decode(&[1]), [1, 0, 0, 1]);
}

#[test]
fn encode_round_trips_through_decode() {
    let v = [0.25f32, 0.5, 0.75, 1.0];
    for format in Format::ALL {
        let mut bytes = [0u8; 16];
        format.encode_f32(v, &mut bytes);
        let lanes = format.decode(&bytes[..format.bytes_per_texel()]);
        let mut again = [0u8; 16];
        format.encode_lanes(lanes, &mut again);
        assert_eq!(bytes, again, "{format:?}");
    }
    let mut b = [0u8; 1];
    Format::R8Unorm.encode_f32([0.5, 0.0, 0.0, 0.0], &mut b);
    assert_eq!(b[0], 128); // 127.5 rounds to even
    Format::R8Unorm.encode_f32([f32::NAN, 0.0, 0.0, 0.0], &mut b);
    assert_eq!(b[0], 0);
    Format::R8Unorm.encode_f32([7.0, 0.0, 0.0, 0.0], &mut b);
    assert_eq!(b[0], 255);
}

#[test]
fn half_conversion_edges() {
    assert_eq!(f32_to_f16(65504.0), 0x7BFF);
    assert_eq!(f32_to_f16(65519.0), 0x7BFF);
    assert_eq!(f32_to_f16(65520.0), 0x7C00);
    assert_eq!(f32_to_f16(-0.0), 0x8000);
    assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
    assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000); // tie → even (0)
    assert_eq!(f32_to_f16(3.0 * 2f32.powi(-25)), 0x0002); // 1.5 → 2
    assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3C00); // tie → even
    assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3C02);
    assert_eq!(f32_to_f16(f32::INFINITY), 0x7C00);
    assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
    for h in 0..=0xFFFFu16 {
        let f = f16_to_f32(h);
        if !f.is_nan() {
            assert_eq!(f32_to_f16(f), h, "{h:#06x}");
        }
    }
}

#[test]
fn out_of_bounds_lanes_keep_missing_defaults() {
    assert_eq!(Format::Rgba8Unorm.out_of_bounds_lanes(), [0; 4]);
    assert_eq!(Format::R8Unorm.out_of_bounds_lanes(), [0, 0, 0, ONE_F32]);
    assert_eq!(Format::R32Uint.out_of_bounds_lanes(), [0, 0, 0, 1]);
    assert_eq!(Format::D16Unorm.out_of_bounds_lanes(), [0, 0, 0, ONE_F32]);
}

#[test]
fn dxgi_numbers_round_trip() {
    for f in Format::ALL {
        assert_eq!(Format::from_dxgi(f.dxgi()), Some(f));
    }
    assert_eq!(Format::from_dxgi(0), None);
}

#[test]
fn flush_keeps_sign() {
    assert_eq!(flush_denorm(f32::from_bits(1)).to_bits(), 0);
    assert_eq!(
        flush_denorm(f32::from_bits(0x8000_0001)).to_bits(),
        0x8000_0000
    );
    assert_eq!(flush_denorm(1e-30), 1e-30);
}
/// Every colour format added with the texture model, one texel each,
/// expected values worked from the DXGI format definitions.
#[test]
fn decode_colour_formats() {
    let third = (1.0f64 / 3.0) as f32;
    let two_thirds = (2.0f64 / 3.0) as f32;
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    let cases: Vec<(Format, Vec<u8>, [u32; 4])> = vec![
        // sRGB: 0 → 0, 255 → 1, 10 is on the linear segment (10/255/12.92);
        // alpha 51 is plain UNORM, 51/255 = 0.2.
        (
            Format::Rgba8UnormSrgb,
            vec![0, 255, 10, 51],
            bits([0.0, 1.0, (10.0f64 / 255.0 / 12.92) as f32, 0.2]),
        ),
        // Memory B, G, R, A = 51, 102, 255, 0.
        (
            Format::Bgra8Unorm,
            vec![51, 102, 255, 0],
            bits([1.0, 0.4, 0.2, 0.0]),
        ),
        (
            Format::Bgra8UnormSrgb,
            vec![255, 0, 0, 255],
            bits([0.0, 0.0, 1.0, 1.0]),
        ),
        // 0x7F = 127/127, 0x81 = -127/127, 0x80 = -128/127 clamped to -1.
        (
            Format::Rgba8Snorm,
            vec![0x7F, 0x81, 0x80, 0x00],
            bits([1.0, -1.0, -1.0, 0.0]),
        ),
        (Format::Rgba8Uint, vec![1, 2, 255, 0], [1, 2, 255, 0]),
        (
            Format::Rgba8Sint,
            vec![0xFF, 0x80, 0x7F, 0x01],
            i([-1, -128, 127, 1]),
        ),
        // 0x40 = 64/127, 0xC0 = -64/127.
        (
            Format::Rg8Snorm,
            vec![0x40, 0xC0],
            bits([
                (64.0f64 / 127.0) as f32,
                (-64.0f64 / 127.0) as f32,
                0.0,
                1.0,
            ]),
        ),
        // 0xFFFF, 0, 0x8000 = 32768/65535, 1 = 1/65535 (correctly
        // rounded bits from unorm_values_are_correctly_rounded).
        (
            Format::Rgba16Unorm,
            vec![0xFF, 0xFF, 0, 0, 0x00, 0x80, 0x01, 0x00],
            [ONE_F32, 0, 0x3F00_0080, 0x3780_0080],
        ),
        (
            Format::Rgba16Snorm,
            vec![0xFF, 0x7F, 0x00, 0x80, 0x01, 0x80, 0x00, 0x40],
            bits([1.0, -1.0, -1.0, (16384.0f64 / 32767.0) as f32]),
        ),
        (
            Format::Rgba16Uint,
            vec![1, 0, 0xFF, 0xFF, 0, 1, 0, 0],
            [1, 65535, 256, 0],
        ),
        (
            Format::Rgba16Sint,
            vec![0xFF, 0xFF, 0x00, 0x80, 0xFF, 0x7F, 2, 0],
            i([-1, -32768, 32767, 2]),
        ),
        (
            Format::R16Unorm,
            vec![0xFF, 0xFF],
            bits([1.0, 0.0, 0.0, 1.0]),
        ),
        (
            Format::R16Snorm,
            vec![0x00, 0x80],
            bits([-1.0, 0.0, 0.0, 1.0]),
        ),
        (Format::R16Uint, vec![0x34, 0x12], [0x1234, 0, 0, 1]),
        (Format::R16Sint, vec![0xFE, 0xFF], i([-2, 0, 0, 1])),
        // Half 0x3C00 = 1.0.
        (
            Format::R16Float,
            vec![0x00, 0x3C],
            bits([1.0, 0.0, 0.0, 1.0]),
        ),
        (
            Format::Rg16Unorm,
            vec![0, 0, 0xFF, 0xFF],
            bits([0.0, 1.0, 0.0, 1.0]),
        ),
        (
            Format::Rg16Snorm,
            vec![0xFF, 0x7F, 0x01, 0x80],
            bits([1.0, -1.0, 0.0, 1.0]),
        ),
        (Format::Rg16Uint, vec![5, 0, 6, 0], [5, 6, 0, 1]),
        (Format::Rg16Sint, vec![0xFB, 0xFF, 7, 0], i([-5, 7, 0, 1])),
        // Halves 0xC000 = -2, 0x3800 = 0.5.
        (
            Format::Rg16Float,
            vec![0x00, 0xC0, 0x00, 0x38],
            bits([-2.0, 0.5, 0.0, 1.0]),
        ),
        // R = 1023, G = 0, B = 341 (341/1023 = 1/3), A = 2 (2/3):
        // 0x3FF | 341 << 20 | 2 << 30 = 0x955003FF.
        (
            Format::Rgb10a2Unorm,
            0x9550_03FFu32.to_le_bytes().to_vec(),
            bits([1.0, 0.0, third, two_thirds]),
        ),
        // R 11-bit e15 m0 = 1.0 (0x3C0); G e16 m32 = 2·1.5 = 3.0
        // (0x420 << 11); B 10-bit e14 m16 = 0.5·1.5 = 0.75 (0x1D0 << 22).
        (
            Format::Rg11b10Float,
            0x7421_03C0u32.to_le_bytes().to_vec(),
            bits([1.0, 3.0, 0.75, 1.0]),
        ),
        // e = 15 (scale 2^(15-24)), mantissas 256, 128, 64:
        // 15 << 27 | 64 << 18 | 128 << 9 | 256 = 0x79010100.
        (
            Format::Rgb9e5,
            0x7901_0100u32.to_le_bytes().to_vec(),
            bits([0.5, 0.25, 0.125, 1.0]),
        ),
        (Format::A8Unorm, vec![51], bits([0.0, 0.0, 0.0, 0.2])),
        (Format::R8Uint, vec![200], [200, 0, 0, 1]),
    ];
    let mut seen = std::collections::HashSet::new();
    for (format, bytes, want) in cases {
        assert_eq!(bytes.len(), format.bytes_per_texel(), "{format:?}");
        assert_eq!(format.decode(&bytes), want, "{format:?}");
        // Encoding the decoded texel gives the bytes back, except the
        // second -1.0 of SNORM (0x80), which encodes as 0x81.
        let mut again = vec![0u8; bytes.len()];
        format.encode_lanes(want, &mut again);
        let expected = match format {
            Format::Rgba8Snorm => vec![0x7F, 0x81, 0x81, 0x00],
            Format::Rgba16Snorm => vec![0xFF, 0x7F, 0x01, 0x80, 0x01, 0x80, 0x00, 0x40],
            Format::R16Snorm => vec![0x01, 0x80],
            _ => bytes.clone(),
        };
        assert_eq!(again, expected, "{format:?}");
        seen.insert(format);
    }
    // Every per-texel format after D16_UNORM in ALL is covered above
    // (block formats have no per-texel memory; see the test below).
    // Depth-stencil formats have their own test below.
    let per_texel = Format::ALL
        .iter()
        .filter(|f| !f.is_block_compressed() && !is_depth_stencil_group(**f))
        .count();
    assert_eq!(seen.len(), per_texel - 11);
}

#[test]
fn block_formats_describe_their_decoded_texels() {
    use super::NumericKind as K;
    let blocks: Vec<Format> = Format::ALL
        .into_iter()
        .filter(|f| f.is_block_compressed())
        .collect();
    assert_eq!(blocks.len(), 14);
    for f in &blocks {
        // No per-texel fields: the store holds four decoded 32-bit lanes.
        assert!(f.fields().is_empty(), "{f:?}");
        assert_eq!(f.bytes_per_texel(), 16, "{f:?}");
        assert_eq!(Format::from_dxgi(f.dxgi()), Some(*f));
        assert!(f.typeless_family().starts_with("BC"), "{f:?}");
    }
    // BC1 and BC4 blocks are 8 bytes, the rest 16.
    assert_eq!(Format::Bc1UnormSrgb.block_bytes(), Some(8));
    assert_eq!(Format::Bc4Snorm.block_bytes(), Some(8));
    assert_eq!(Format::Bc6hSf16.block_bytes(), Some(16));
    assert_eq!(Format::Rgba8Unorm.block_bytes(), None);
    // Kinds and sRGB-ness of what the blocks decode to.
    assert_eq!(Format::Bc4Snorm.kind(), K::Snorm);
    assert_eq!(Format::Bc5Snorm.kind(), K::Snorm);
    assert_eq!(Format::Bc6hUf16.kind(), K::Float);
    assert_eq!(Format::Bc6hSf16.kind(), K::Float);
    assert_eq!(Format::Bc7Unorm.kind(), K::Unorm);
    for f in [
        Format::Bc1UnormSrgb,
        Format::Bc2UnormSrgb,
        Format::Bc3UnormSrgb,
        Format::Bc7UnormSrgb,
    ] {
        assert!(f.is_srgb(), "{f:?}");
        assert!(!f.without_srgb().is_srgb(), "{f:?}");
    }
    assert!(!Format::Bc1Unorm.is_srgb());
    // Decoded lanes round-trip bit for bit; a BC4 texel keeps its one
    // channel and reads the defaults (0, 0, 1) for the rest.
    let lanes = [(-0.5f32).to_bits(), 7, 8, 9];
    let mut bytes = [0u8; 16];
    Format::Bc4Snorm.encode_lanes(lanes, &mut bytes);
    assert_eq!(
        Format::Bc4Snorm.decode(&bytes),
        [lanes[0], 0, 0, 1.0f32.to_bits()]
    );
    assert_eq!(Format::Bc4Snorm.channels(), 1);
    assert_eq!(Format::Bc6hUf16.channels(), 3);
}

#[test]
fn dxgi_names_of_colour_formats() {
    assert_eq!(Format::from_dxgi(29), Some(Format::Rgba8UnormSrgb));
    assert_eq!(Format::from_dxgi(87), Some(Format::Bgra8Unorm));
    assert_eq!(Format::from_dxgi(67), Some(Format::Rgb9e5));
    assert_eq!(Format::Rg11b10Float.name(), "R11G11B10_FLOAT");
    assert_eq!(Format::A8Unorm.channels(), 4);
    assert_eq!(Format::Rg11b10Float.channels(), 3);
    assert_eq!(Format::Rgb9e5.bytes_per_texel(), 4);
    assert_eq!(Format::Rgba16Sint.bytes_per_texel(), 8);
}

#[test]
fn out_of_range_colour_values_are_refused() {
    let f = f32::to_bits;
    let ok = |fmt: Format, l: [u32; 4]| fmt.check_lanes(l).is_ok();
    assert!(ok(Format::Rgba8Snorm, [f(-1.0), f(1.0), 0, 0]));
    assert!(!ok(Format::Rgba8Snorm, [f(-1.5), 0, 0, 0]));
    assert!(!ok(Format::Rgba8UnormSrgb, [0, 0, 0, f(1.01)]));
    assert!(!ok(Format::Bgra8Unorm, [f(f32::NAN), 0, 0, 0]));
    assert!(ok(Format::R8Uint, [255, 0, 0, 0]));
    assert!(!ok(Format::R8Uint, [256, 0, 0, 0]));
    // Lanes a format does not store are not looked at.
    assert!(ok(Format::R8Uint, [1, 999, 999, 999]));
    assert!(ok(Format::Rgba8Sint, i32_lanes([-128, 127, 0, 0])));
    assert!(!ok(Format::Rgba8Sint, i32_lanes([-129, 0, 0, 0])));
    assert!(!ok(Format::Rgba16Uint, [0, 65536, 0, 0]));
    assert!(!ok(Format::R16Float, [f(70000.0), 0, 0, 0]));
    assert!(ok(Format::R16Float, [f(f32::INFINITY), 0, 0, 0]));
    assert!(!ok(Format::Rg11b10Float, [f(-1.0), 0, 0, 0]));
    assert!(!ok(Format::Rg11b10Float, [0, 0, f(65000.0), 0]));
    assert!(ok(Format::Rg11b10Float, [f(65024.0), 0, 0, 0]));
    assert!(!ok(Format::Rgb9e5, [f(65409.0), 0, 0, 0]));
    assert!(!ok(Format::Rgb9e5, [0, f(-0.5), 0, 0]));
    assert!(ok(Format::Rgb10a2Unorm, [0, 0, 0, f(1.0)]));
    assert!(!ok(Format::A8Unorm, [0, 0, 0, f(2.0)]));
    let e = Format::R8Uint.check_lanes([300, 0, 0, 0]).unwrap_err();
    assert!(e.contains("R8_UINT") && e.contains("300"), "{e}");
}

fn i32_lanes(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

fn is_depth_stencil_group(f: Format) -> bool {
    matches!(f.typeless_family(), "R24G8_TYPELESS" | "R32G8X24_TYPELESS")
}

/// D24_UNORM_S8_UINT: depth in bits 0-23, stencil in 24-31. The texel
/// 0x05800000 has depth code 0x800000 = 8388608 and stencil 5. As a
/// fraction 8388608/16777215 = 0.5 + 0.5/16777215, a hair above the
/// midpoint 0.5 + 2^-25 between the floats 0.5 and 0.5 + 2^-24, so the
/// correctly rounded f32 is 0.5 + 2^-24 (bits 0x3F000001).
/// D32_FLOAT_S8X24_UINT: depth f32 in bits 0-31, stencil in 32-39, the
/// rest unused: 0.75 (0x3F400000) and stencil 200 (0xC8), with junk in
/// the X bits that no view reads.
#[test]
fn depth_stencil_layouts() {
    let d24 = [0x00, 0x00, 0x80, 0x05];
    let half_up = f32::from_bits(0x3F00_0001);
    assert_eq!((8388608.0f64 / 16777215.0) as f32, half_up);
    let one = ONE_F32;
    let cases: [(Format, &[u8], [u32; 4]); 6] = [
        (Format::D24UnormS8Uint, &d24, [half_up.to_bits(), 5, 0, one]),
        (
            Format::R24UnormX8Typeless,
            &d24,
            [half_up.to_bits(), 0, 0, one],
        ),
        // Integer view: its missing alpha is the integer 1.
        (Format::X24TypelessG8Uint, &d24, [0, 5, 0, 1]),
        (
            Format::D32FloatS8X24Uint,
            &[0x00, 0x00, 0x40, 0x3F, 0xC8, 0xAA, 0xBB, 0xCC],
            [0x3F40_0000, 200, 0, one],
        ),
        (
            Format::R32FloatX8X24Typeless,
            &[0x00, 0x00, 0x40, 0x3F, 0xC8, 0xAA, 0xBB, 0xCC],
            [0x3F40_0000, 0, 0, one],
        ),
        (
            Format::X32TypelessG8X24Uint,
            &[0x00, 0x00, 0x40, 0x3F, 0xC8, 0xAA, 0xBB, 0xCC],
            [0, 200, 0, 1],
        ),
    ];
    for (format, bytes, want) in cases {
        assert_eq!(bytes.len(), format.bytes_per_texel(), "{format:?}");
        assert_eq!(format.decode(bytes), want, "{format:?}");
        assert!(is_depth_stencil_group(format));
    }
    // Encoding writes each field with its own kind: the depth as UNORM
    // (or float), the stencil as an integer; X bits are zero.
    let mut out = [0u8; 4];
    Format::D24UnormS8Uint.encode_lanes([half_up.to_bits(), 5, 0, one], &mut out);
    assert_eq!(out, d24);
    let mut out = [0xFFu8; 8];
    Format::D32FloatS8X24Uint.encode_lanes([0x3F40_0000, 200, 0, one], &mut out);
    assert_eq!(out, [0x00, 0x00, 0x40, 0x3F, 0xC8, 0, 0, 0]);
    // Every 24-bit depth code survives decode and encode (k/16777215 is
    // exact enough in f32), the extremes included.
    for code in [0u32, 1, 0x7F_FFFF, 0x80_0000, 0xFF_FFFE, 0xFF_FFFF] {
        let lanes = Format::R24UnormX8Typeless.decode(&code.to_le_bytes());
        let mut back = [0u8; 4];
        Format::R24UnormX8Typeless.encode_lanes(lanes, &mut back);
        assert_eq!(u32::from_le_bytes(back), code, "{code:#x}");
    }
    // Kinds: depth views compare like D32_FLOAT, stencil views are
    // integer; the resource formats name their two views.
    assert!(Format::R24UnormX8Typeless.is_depth() && !Format::R24UnormX8Typeless.is_integer());
    assert!(Format::R32FloatX8X24Typeless.is_depth());
    assert!(Format::X24TypelessG8Uint.is_integer() && !Format::X24TypelessG8Uint.is_depth());
    assert_eq!(Format::X32TypelessG8X24Uint.channels(), 2);
    assert_eq!(Format::D24UnormS8Uint.field_kind(0), NumericKind::Unorm);
    assert_eq!(Format::D24UnormS8Uint.field_kind(1), NumericKind::Uint);
    assert_eq!(
        Format::D32FloatS8X24Uint.depth_stencil_views(),
        Some([Format::R32FloatX8X24Typeless, Format::X32TypelessG8X24Uint])
    );
    assert_eq!(Format::R24UnormX8Typeless.depth_stencil_views(), None);
    for (n, f) in [
        (19, None),
        (20, Some(Format::D32FloatS8X24Uint)),
        (21, Some(Format::R32FloatX8X24Typeless)),
        (22, Some(Format::X32TypelessG8X24Uint)),
        (44, None),
        (45, Some(Format::D24UnormS8Uint)),
        (46, Some(Format::R24UnormX8Typeless)),
        (47, Some(Format::X24TypelessG8Uint)),
    ] {
        assert_eq!(Format::from_dxgi(n), f, "{n}");
    }
    assert_eq!(Format::X24TypelessG8Uint.name(), "X24_TYPELESS_G8_UINT");
}

#[test]
fn a_d32_float_depth_is_range_checked_like_a_depth_beside_a_stencil() {
    let f = f32::to_bits;
    let e = Format::D32Float
        .check_lanes([f(1.25), 0, 0, 0])
        .unwrap_err();
    assert!(e.starts_with("depth 1.25 is outside 0..=1"), "{e}");
    let e = Format::D32Float
        .check_lanes([f(-0.5), 0, 0, 0])
        .unwrap_err();
    assert!(e.starts_with("depth -0.5 is outside 0..=1"), "{e}");
    assert!(Format::D32Float.check_lanes([f(1.0), 0, 0, 0]).is_ok());
    assert!(Format::D32Float.check_lanes([f(0.0), 0, 0, 0]).is_ok());
}

#[test]
fn depth_stencil_values_are_range_checked_per_field() {
    let f = f32::to_bits;
    let e = Format::D24UnormS8Uint
        .check_lanes([f(0.5), 300, 0, 0])
        .unwrap_err();
    assert!(e.contains("stencil 300 is above 255"), "{e}");
    let e = Format::D24UnormS8Uint
        .check_lanes([f(1.5), 0, 0, 0])
        .unwrap_err();
    assert!(e.starts_with("depth 1.5 is outside 0..=1"), "{e}");
    assert!(
        Format::D24UnormS8Uint
            .check_lanes([f(1.0), 255, 0, 0])
            .is_ok()
    );
    let e = Format::D32FloatS8X24Uint
        .check_lanes([f(-0.25), 0, 0, 0])
        .unwrap_err();
    assert!(e.contains("depth -0.25"), "{e}");
    assert!(
        Format::D32FloatS8X24Uint
            .check_lanes([f(f32::NAN), 0, 0, 0])
            .is_err()
    );
    assert!(
        Format::D32FloatS8X24Uint
            .check_lanes([0, 256, 0, 0])
            .is_err()
    );
    assert!(
        Format::D32FloatS8X24Uint
            .check_lanes([f(0.0), 255, 0, 0])
            .is_ok()
    );
}

/// A D24S8 resource read through its two views: the same bytes, depth in
/// `.x` of one, stencil in `.y` of the other.
#[test]
fn depth_stencil_resource_through_its_views() {
    use crate::vm::texture::{Texture, TextureDesc, View, ld};
    let depth = 0x40_0000 as f32 / 16777215.0; // code 4194304
    let res = Texture::from_lanes(
        TextureDesc::tex2d(Format::D24UnormS8Uint, 2, 1),
        &[[depth.to_bits(), 7, 0, 0], [0, 255, 0, 0]],
    )
    .unwrap();
    let view = |format| {
        res.with_view(View {
            format,
            ..View::whole(&res)
        })
        .unwrap()
    };
    let d = view(Format::R24UnormX8Typeless);
    let s = view(Format::X24TypelessG8Uint);
    assert_eq!(
        ld(&d, [0, 0, 0, 0], [0; 3]),
        [depth.to_bits(), 0, 0, ONE_F32]
    );
    assert_eq!(ld(&s, [0, 0, 0, 0], [0; 3]), [0, 7, 0, 1]);
    assert_eq!(ld(&s, [1, 0, 0, 0], [0; 3]), [0, 255, 0, 1]);
    // A colour format is not in R24G8_TYPELESS.
    assert!(
        res.with_view(View {
            format: Format::R32Float,
            ..View::whole(&res)
        })
        .is_err()
    );
}
