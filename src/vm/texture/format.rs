//! Texel formats. A texture stores every texel already decoded into the four
//! 32-bit lanes a shader register receives (float bits for float, unorm and
//! depth formats; integer bits for uint/sint formats), with the components a
//! format lacks filled with D3D's defaults (0, 0, 0, 1). Decoding once at
//! construction means `ld` can return stored lanes bit-exactly and the
//! filtering code never needs to know the memory layout.

/// The formats the reference texture unit understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `DXGI_FORMAT_R8_UNORM`
    R8Unorm,
    /// `DXGI_FORMAT_R8G8_UNORM`
    Rg8Unorm,
    /// `DXGI_FORMAT_R8G8B8A8_UNORM`
    Rgba8Unorm,
    /// `DXGI_FORMAT_R32_FLOAT`
    R32Float,
    /// `DXGI_FORMAT_R32G32_FLOAT`
    Rg32Float,
    /// `DXGI_FORMAT_R16G16B16A16_FLOAT`
    Rgba16Float,
    /// `DXGI_FORMAT_R32G32B32A32_FLOAT`
    Rgba32Float,
    /// `DXGI_FORMAT_R32_UINT`
    R32Uint,
    /// `DXGI_FORMAT_R32_SINT`
    R32Sint,
    /// `DXGI_FORMAT_D32_FLOAT`, read through an `R32_FLOAT` view.
    D32Float,
    /// `DXGI_FORMAT_D16_UNORM`, read through an `R16_UNORM` view.
    D16Unorm,
    // Block-compressed formats (see `bc.rs`): memory holds 4x4 blocks,
    // the store holds every texel decoded as four float lanes.
    /// `DXGI_FORMAT_BC1_UNORM`
    Bc1Unorm,
    /// `DXGI_FORMAT_BC1_UNORM_SRGB`
    Bc1UnormSrgb,
    /// `DXGI_FORMAT_BC2_UNORM`
    Bc2Unorm,
    /// `DXGI_FORMAT_BC2_UNORM_SRGB`
    Bc2UnormSrgb,
    /// `DXGI_FORMAT_BC3_UNORM`
    Bc3Unorm,
    /// `DXGI_FORMAT_BC3_UNORM_SRGB`
    Bc3UnormSrgb,
    /// `DXGI_FORMAT_BC4_UNORM`
    Bc4Unorm,
    /// `DXGI_FORMAT_BC4_SNORM`
    Bc4Snorm,
    /// `DXGI_FORMAT_BC5_UNORM`
    Bc5Unorm,
    /// `DXGI_FORMAT_BC5_SNORM`
    Bc5Snorm,
    /// `DXGI_FORMAT_BC6H_UF16`
    Bc6hUf16,
    /// `DXGI_FORMAT_BC6H_SF16`
    Bc6hSf16,
    /// `DXGI_FORMAT_BC7_UNORM`
    Bc7Unorm,
    /// `DXGI_FORMAT_BC7_UNORM_SRGB`
    Bc7UnormSrgb,
}

/// How a format's stored components turn into shader values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumericKind {
    /// Unsigned normalized: `c / (2^n - 1)` as float.
    Unorm,
    /// IEEE float (16 or 32 bit), returned as float32.
    Float,
    /// Unsigned integer, returned as integer bits.
    Uint,
    /// Signed integer, returned as integer bits.
    Sint,
}

/// Bits of `1.0f32`, the default alpha of float-returning formats.
pub(crate) const ONE_F32: u32 = 0x3F80_0000;

impl Format {
    /// Every supported format, for tests and tools that iterate them.
    pub const ALL: [Format; 25] = [
        Format::R8Unorm,
        Format::Rg8Unorm,
        Format::Rgba8Unorm,
        Format::R32Float,
        Format::Rg32Float,
        Format::Rgba16Float,
        Format::Rgba32Float,
        Format::R32Uint,
        Format::R32Sint,
        Format::D32Float,
        Format::D16Unorm,
        // Block-compressed.
        Format::Bc1Unorm,
        Format::Bc1UnormSrgb,
        Format::Bc2Unorm,
        Format::Bc2UnormSrgb,
        Format::Bc3Unorm,
        Format::Bc3UnormSrgb,
        Format::Bc4Unorm,
        Format::Bc4Snorm,
        Format::Bc5Unorm,
        Format::Bc5Snorm,
        Format::Bc6hUf16,
        Format::Bc6hSf16,
        Format::Bc7Unorm,
        Format::Bc7UnormSrgb,
    ];

    /// Bytes one texel occupies in memory. Block-compressed formats have
    /// no per-texel size; for them this is the size of one decoded texel
    /// (four float lanes, as `decode`/`encode_lanes` handle them), and
    /// [`Format::block_bytes`] gives the memory layout.
    pub fn bytes_per_texel(self) -> usize {
        match self {
            Format::R8Unorm => 1,
            Format::Rg8Unorm | Format::D16Unorm => 2,
            Format::Rgba8Unorm
            | Format::R32Float
            | Format::R32Uint
            | Format::R32Sint
            | Format::D32Float => 4,
            Format::Rg32Float | Format::Rgba16Float => 8,
            Format::Rgba32Float => 16,
            Format::Bc1Unorm
            | Format::Bc1UnormSrgb
            | Format::Bc2Unorm
            | Format::Bc2UnormSrgb
            | Format::Bc3Unorm
            | Format::Bc3UnormSrgb
            | Format::Bc4Unorm
            | Format::Bc4Snorm
            | Format::Bc5Unorm
            | Format::Bc5Snorm
            | Format::Bc6hUf16
            | Format::Bc6hSf16
            | Format::Bc7Unorm
            | Format::Bc7UnormSrgb => 16,
        }
    }

    /// Bytes in one 4x4 block of a block-compressed format, `None` for the
    /// others.
    pub fn block_bytes(self) -> Option<usize> {
        match self {
            Format::Bc1Unorm | Format::Bc1UnormSrgb | Format::Bc4Unorm | Format::Bc4Snorm => {
                Some(8)
            }
            Format::Bc2Unorm
            | Format::Bc2UnormSrgb
            | Format::Bc3Unorm
            | Format::Bc3UnormSrgb
            | Format::Bc5Unorm
            | Format::Bc5Snorm
            | Format::Bc6hUf16
            | Format::Bc6hSf16
            | Format::Bc7Unorm
            | Format::Bc7UnormSrgb => Some(16),
            _ => None,
        }
    }

    pub fn is_block_compressed(self) -> bool {
        self.block_bytes().is_some()
    }

    /// Whether reads convert the stored colour from sRGB to linear.
    pub fn is_srgb(self) -> bool {
        matches!(
            self,
            Format::Bc1UnormSrgb
                | Format::Bc2UnormSrgb
                | Format::Bc3UnormSrgb
                | Format::Bc7UnormSrgb
        )
    }

    /// Number of components stored (the rest read as defaults).
    pub fn channels(self) -> usize {
        match self {
            Format::R8Unorm
            | Format::R32Float
            | Format::R32Uint
            | Format::R32Sint
            | Format::D32Float
            | Format::D16Unorm => 1,
            Format::Rg8Unorm | Format::Rg32Float => 2,
            Format::Rgba8Unorm | Format::Rgba16Float | Format::Rgba32Float => 4,
            Format::Bc4Unorm | Format::Bc4Snorm => 1,
            Format::Bc5Unorm | Format::Bc5Snorm => 2,
            // BC6H stores no alpha: it reads as the default 1.
            Format::Bc6hUf16 | Format::Bc6hSf16 => 3,
            Format::Bc1Unorm
            | Format::Bc1UnormSrgb
            | Format::Bc2Unorm
            | Format::Bc2UnormSrgb
            | Format::Bc3Unorm
            | Format::Bc3UnormSrgb
            | Format::Bc7Unorm
            | Format::Bc7UnormSrgb => 4,
        }
    }

    pub fn kind(self) -> NumericKind {
        match self {
            Format::R8Unorm | Format::Rg8Unorm | Format::Rgba8Unorm | Format::D16Unorm => {
                NumericKind::Unorm
            }
            Format::R32Float
            | Format::Rg32Float
            | Format::Rgba16Float
            | Format::Rgba32Float
            | Format::D32Float => NumericKind::Float,
            Format::R32Uint => NumericKind::Uint,
            Format::R32Sint => NumericKind::Sint,
            Format::Bc1Unorm
            | Format::Bc1UnormSrgb
            | Format::Bc2Unorm
            | Format::Bc2UnormSrgb
            | Format::Bc3Unorm
            | Format::Bc3UnormSrgb
            | Format::Bc4Unorm
            | Format::Bc5Unorm
            | Format::Bc7Unorm
            | Format::Bc7UnormSrgb => NumericKind::Unorm,
            // Signed-normalized and half-float blocks decode to floats the
            // shader reads as they are.
            Format::Bc4Snorm | Format::Bc5Snorm | Format::Bc6hUf16 | Format::Bc6hSf16 => {
                NumericKind::Float
            }
        }
    }

    pub fn is_depth(self) -> bool {
        matches!(self, Format::D32Float | Format::D16Unorm)
    }

    /// Integer formats return raw integer bits and cannot be filtered.
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), NumericKind::Uint | NumericKind::Sint)
    }

    /// The `DXGI_FORMAT` number, so case files can name formats the way
    /// D3D code does.
    pub fn dxgi(self) -> u32 {
        match self {
            Format::Rgba32Float => 2,
            Format::Rgba16Float => 10,
            Format::Rg32Float => 16,
            Format::Rgba8Unorm => 28,
            Format::D32Float => 40,
            Format::R32Float => 41,
            Format::R32Uint => 42,
            Format::R32Sint => 43,
            Format::Rg8Unorm => 49,
            Format::D16Unorm => 55,
            Format::R8Unorm => 61,
            Format::Bc1Unorm => 71,
            Format::Bc1UnormSrgb => 72,
            Format::Bc2Unorm => 74,
            Format::Bc2UnormSrgb => 75,
            Format::Bc3Unorm => 77,
            Format::Bc3UnormSrgb => 78,
            Format::Bc4Unorm => 80,
            Format::Bc4Snorm => 81,
            Format::Bc5Unorm => 83,
            Format::Bc5Snorm => 84,
            Format::Bc6hUf16 => 95,
            Format::Bc6hSf16 => 96,
            Format::Bc7Unorm => 98,
            Format::Bc7UnormSrgb => 99,
        }
    }

    pub fn from_dxgi(n: u32) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.dxgi() == n)
    }

    /// The DXGI name without the `DXGI_FORMAT_` prefix.
    pub fn name(self) -> &'static str {
        match self {
            Format::R8Unorm => "R8_UNORM",
            Format::Rg8Unorm => "R8G8_UNORM",
            Format::Rgba8Unorm => "R8G8B8A8_UNORM",
            Format::R32Float => "R32_FLOAT",
            Format::Rg32Float => "R32G32_FLOAT",
            Format::Rgba16Float => "R16G16B16A16_FLOAT",
            Format::Rgba32Float => "R32G32B32A32_FLOAT",
            Format::R32Uint => "R32_UINT",
            Format::R32Sint => "R32_SINT",
            Format::D32Float => "D32_FLOAT",
            Format::D16Unorm => "D16_UNORM",
            Format::Bc1Unorm => "BC1_UNORM",
            Format::Bc1UnormSrgb => "BC1_UNORM_SRGB",
            Format::Bc2Unorm => "BC2_UNORM",
            Format::Bc2UnormSrgb => "BC2_UNORM_SRGB",
            Format::Bc3Unorm => "BC3_UNORM",
            Format::Bc3UnormSrgb => "BC3_UNORM_SRGB",
            Format::Bc4Unorm => "BC4_UNORM",
            Format::Bc4Snorm => "BC4_SNORM",
            Format::Bc5Unorm => "BC5_UNORM",
            Format::Bc5Snorm => "BC5_SNORM",
            Format::Bc6hUf16 => "BC6H_UF16",
            Format::Bc6hSf16 => "BC6H_SF16",
            Format::Bc7Unorm => "BC7_UNORM",
            Format::Bc7UnormSrgb => "BC7_UNORM_SRGB",
        }
    }

    /// The value of a missing component: 1 for alpha (float 1.0 or integer
    /// 1 by format kind), 0 otherwise.
    fn default_lane(self, lane: usize) -> u32 {
        match (lane, self.is_integer()) {
            (3, false) => ONE_F32,
            (3, true) => 1,
            _ => 0,
        }
    }

    /// What `ld` returns out of bounds: zero in every stored component and
    /// the default in every missing one (so an R8 texture gives (0,0,0,1)).
    pub fn out_of_bounds_lanes(self) -> [u32; 4] {
        let mut lanes = [0; 4];
        for (i, lane) in lanes.iter_mut().enumerate().skip(self.channels()) {
            *lane = self.default_lane(i);
        }
        lanes
    }

    /// Decodes one texel. `bytes` should hold `bytes_per_texel()` bytes;
    /// missing bytes read as zero rather than panicking.
    pub fn decode(self, bytes: &[u8]) -> [u32; 4] {
        let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let u16_at = |i: usize| u16::from_le_bytes([b(i), b(i + 1)]);
        let u32_at = |i: usize| u32::from_le_bytes([b(i), b(i + 1), b(i + 2), b(i + 3)]);
        let mut lanes = [0u32; 4];
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = if i < self.channels() {
                match self {
                    Format::R8Unorm | Format::Rg8Unorm | Format::Rgba8Unorm => {
                        unorm_to_f32(u32::from(b(i)), 8).to_bits()
                    }
                    Format::D16Unorm => unorm_to_f32(u32::from(u16_at(0)), 16).to_bits(),
                    Format::Rgba16Float => f16_to_f32(u16_at(2 * i)).to_bits(),
                    Format::R32Float
                    | Format::Rg32Float
                    | Format::Rgba32Float
                    | Format::D32Float
                    | Format::R32Uint
                    | Format::R32Sint => u32_at(4 * i),
                    // A decoded block texel: four float lanes.
                    Format::Bc1Unorm
                    | Format::Bc1UnormSrgb
                    | Format::Bc2Unorm
                    | Format::Bc2UnormSrgb
                    | Format::Bc3Unorm
                    | Format::Bc3UnormSrgb
                    | Format::Bc4Unorm
                    | Format::Bc4Snorm
                    | Format::Bc5Unorm
                    | Format::Bc5Snorm
                    | Format::Bc6hUf16
                    | Format::Bc6hSf16
                    | Format::Bc7Unorm
                    | Format::Bc7UnormSrgb => u32_at(4 * i),
                }
            } else {
                self.default_lane(i)
            };
        }
        lanes
    }

    /// Encodes one texel from lanes in the decoded representation (float
    /// bits for float/unorm/depth, integer bits for uint/sint). `out` gets
    /// `bytes_per_texel()` bytes; a shorter slice is filled as far as it goes.
    pub fn encode_lanes(self, lanes: [u32; 4], out: &mut [u8]) {
        let mut buf = [0u8; 16];
        for (i, &lane) in lanes.iter().enumerate().take(self.channels()) {
            let f = f32::from_bits(lane);
            match self {
                Format::R8Unorm | Format::Rg8Unorm | Format::Rgba8Unorm => {
                    buf[i] = f32_to_unorm(f, 8) as u8;
                }
                Format::D16Unorm => {
                    buf[..2].copy_from_slice(&(f32_to_unorm(f, 16) as u16).to_le_bytes());
                }
                Format::Rgba16Float => {
                    buf[2 * i..2 * i + 2].copy_from_slice(&f32_to_f16(f).to_le_bytes());
                }
                _ => buf[4 * i..4 * i + 4].copy_from_slice(&lane.to_le_bytes()),
            }
        }
        let n = self.bytes_per_texel().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
    }

    /// Encodes one texel from float values: unorm formats clamp to [0, 1]
    /// and round to nearest, half floats round to nearest even, integer
    /// formats convert with Rust's saturating `as` (NaN → 0).
    pub fn encode_f32(self, v: [f32; 4], out: &mut [u8]) {
        let lanes = match self.kind() {
            NumericKind::Uint => v.map(|x| x as u32),
            NumericKind::Sint => v.map(|x| (x as i32) as u32),
            NumericKind::Unorm | NumericKind::Float => v.map(f32::to_bits),
        };
        self.encode_lanes(lanes, out);
    }
}

/// UNORM → float: `c / (2^bits - 1)`, correctly rounded. The f64 quotient
/// has a repeating binary expansion, so rounding it again to f32 cannot hit
/// a double-rounding tie.
fn unorm_to_f32(c: u32, bits: u32) -> f32 {
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(c) / max) as f32
}

/// Float → UNORM: NaN → 0, clamp to [0, 1], scale, round to nearest even.
fn f32_to_unorm(f: f32, bits: u32) -> u32 {
    if f.is_nan() {
        return 0;
    }
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(f.clamp(0.0, 1.0)) * max).round_ties_even() as u32
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

/// D3D float rules: denormal inputs and outputs of float arithmetic become
/// zero of the same sign.
pub(crate) fn flush_denorm(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

#[cfg(test)]
mod tests {
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
}
