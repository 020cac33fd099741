//! The emulator's texture unit: a CPU reference for Direct3D 11 texture
//! reads, written from the D3D11.3 functional spec's rules. It is the
//! project's definition of correct, so it favours exact arithmetic (f64,
//! exactly rounded steps) over speed; nothing on the sampling path
//! allocates.
//!
//! Every operation takes a [`Texture`] (texels stored decoded as the four
//! 32-bit lanes a register receives; see [`Format`]), returns one shader
//! lane's result as four raw 32-bit lanes, and never panics: invalid combinations
//! (sampling a buffer, gathering a 3D texture, …) return zeros, the value
//! of an unbound slot. Swizzles (the resource operand's swizzle and the
//! sampler operand's component select) are the caller's: gather takes the
//! selected channel as a number, everything else returns the texel's own
//! component order.
//!
//! | DXBC | function |
//! |------|----------|
//! | `sample` / `sample_b` / `sample_d` | [`sample`] with [`Lod::FromGradients`] |
//! | `sample_l` | [`sample`] with [`Lod::Explicit`] |
//! | `sample_c` / `sample_c_lz` | [`sample_c`] with [`Lod::FromGradients`] / [`Lod::Zero`] |
//! | `sample_cl_s`, `sample_b_cl_s`, `sample_d_cl_s` / `sample_c_cl_s` | [`sample_cl`] / [`sample_c_cl`] with the per-sample minimum-LOD clamp |
//! | `gather4`, `gather4_c` | [`gather4`], [`gather4_c`] |
//! | `gather4_po`, `gather4_po_c` | [`gather4_po`], [`gather4_po_c`] |
//! | `ld`, `ld2dms` | [`ld`], [`ldms`] |
//! | `resinfo`, `sampleinfo`, `bufinfo` | [`resinfo`], [`sampleinfo`], [`bufinfo`] |
//! | `lod` | [`calc_lod`] |
//!
//! Coordinates are the address register's lanes: floats for the sampling
//! operations (1D `u`; 1D array `u, layer`; 2D `u, v`; 2D array
//! `u, v, layer`; 3D `u, v, w`; cube `x, y, z`; cube array `x, y, z, cube`),
//! unsigned integers for the loads (mip in `.w`). Derivatives for LOD are in
//! the coordinate's own normalized units (see [`Lod`]).
//!
//! Rules applied throughout (each module documents its part):
//! * texel-space positions are `u·size` (point: floor) or `u·size − 0.5`
//!   (linear, gather), snapped to 8 fractional bits, ties to even;
//! * address modes apply to each integer tap index per axis; array layers
//!   round to nearest even and clamp; cubes select faces by the major axis
//!   and filter seamlessly across edges, synthesizing a corner texel as the
//!   mean of the three that meet there;
//! * LOD = log2 of the longer scaled gradient + biases, clamped to
//!   [MinLOD, MaxLOD], raised to a `_cl` instruction's per-sample clamp,
//!   then held to the mip chain; the mip blend weight keeps 8 fractional
//!   bits;
//! * comparison operations compare every tap (`reference <func> texel`),
//!   then filter the 0/1 results;
//! * filtered results and comparison inputs flush denormals; `ld` and
//!   `gather4` return stored bits unchanged.
//!
//! Where the spec leaves a choice open, this unit chooses (and tests):
//! * cube face ties go to Z, then Y, then X; the corner texel of a
//!   comparison footprint is the mean of the other three *results*;
//! * a NaN coordinate reads as 0, ±∞ as the far edge (clamp-like modes) or
//!   0 (wrap, mirror); a NaN LOD takes MinLOD (D3D `max` semantics);
//! * the `lod` query's unclamped value includes the sampler's MipLODBias;
//! * `sample` on an integer format returns the nearest texel of the nearest
//!   mip, raw; comparisons on integer formats return zeros;
//! * the comparison reference is clamped to [0, 1] for unorm formats (D16,
//!   R24_UNORM_X8)
//!   only, not for float formats (D32F);
//! * border colours are returned as given, in all four components, whatever
//!   the format;
//! * a per-sample minimum-LOD clamp past the last level (the spec's empty
//!   set) makes `sample_c_cl` return 0;
//! * `resinfo` on an out-of-range mip zeroes the array size too; on a buffer
//!   it reports (elements, 0, 0, 1); `sampleinfo` on a single-sampled
//!   texture returns zeros.

mod address;
mod bc;
mod cube;
mod desc;
mod explain;
mod filter;
mod format;
mod format_names;
mod gather;
mod load;
mod lod;
mod numeric;
mod query;
mod sample;
mod sampler;
#[allow(clippy::module_inception)]
mod texture;
mod view;

pub use bc::{BLOCK, blocks_across, decode_block};
pub use desc::{Dimension, TextureDesc, TextureError};
pub use explain::{
    FetchDetail, FetchKind, FetchTap, LodDetail, TapSource, explain_gather, explain_ld,
    explain_sample,
};
pub use format::{Field, Format, NumericKind, f16_to_f32, f32_to_f16};
pub use gather::{gather4, gather4_c, gather4_po, gather4_po_c};
pub use load::{ld, ldms};
pub use lod::Lod;
pub use lod::NO_LOD_CLAMP;
pub use query::{
    ResInfoReturn, SampleInfoReturn, bufinfo, resinfo, resinfo_encode, sample_count_info,
    sample_position, sampleinfo, samplepos, standard_pattern,
};
pub use sample::{calc_lod, sample, sample_c, sample_c_cl, sample_cl};
pub use sampler::{AddressMode, ComparisonFunc, Filter, Reduction, Sampler};
pub use texture::Texture;
pub use view::{View, ViewError};

/// Floats that break careless arithmetic: NaN, the infinities, the
/// extremes, both zeros and a denormal. The robustness tests feed them to
/// every float input.
#[cfg(test)]
const AWKWARD_F32: [f32; 8] = [
    f32::NAN,
    f32::INFINITY,
    -f32::INFINITY,
    f32::MAX,
    -f32::MAX,
    0.0,
    -0.0,
    1e-40,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: deterministic, no crate needed.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
        }
        /// Mostly ordinary floats, often the awkward ones or a plain 1.0
        /// or 0.5.
        fn float(&mut self) -> f32 {
            match self.next() % 4 {
                0 => match (self.next() % 10) as usize {
                    i @ 0..8 => AWKWARD_F32[i],
                    8 => 1.0,
                    _ => 0.5,
                },
                1 => f32::from_bits(self.next()),
                _ => (self.next() % 4000) as f32 / 1000.0 - 2.0,
            }
        }
    }

    /// Every operation on every dimension and format with random and
    /// degenerate inputs: nothing may panic.
    #[test]
    fn every_operation_survives_arbitrary_input() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for format in Format::ALL {
            let descs = [
                TextureDesc::buffer(format, 3),
                TextureDesc::tex1d(format, 5).with_mips(0),
                TextureDesc::tex1d_array(format, 3, 2).with_mips(0),
                TextureDesc::tex2d(format, 3, 5).with_mips(0),
                TextureDesc::tex2d_array(format, 4, 1, 3).with_mips(2),
                TextureDesc::tex2d_ms(format, 2, 2, 4),
                TextureDesc::tex2d_ms_array(format, 1, 2, 2, 1),
                TextureDesc::tex3d(format, 2, 3, 4).with_mips(0),
                TextureDesc::cube(format, 3).with_mips(0),
                TextureDesc::cube_array(format, 2, 2).with_mips(0),
            ];
            for desc in descs {
                let Ok(tex) = Texture::zeroed(desc) else {
                    // D3D allows block formats on 2D, cube and 3D only.
                    assert!(format.is_block_compressed(), "{format:?} {desc:?}");
                    continue;
                };
                for _ in 0..200 {
                    let mut smp = Sampler::default();
                    let modes = [
                        AddressMode::Wrap,
                        AddressMode::Mirror,
                        AddressMode::Clamp,
                        AddressMode::Border,
                        AddressMode::MirrorOnce,
                    ];
                    smp.address = [0, 1, 2].map(|_| modes[(rng.next() % 5) as usize]);
                    let filters = [Filter::Point, Filter::Linear];
                    smp.min_filter = filters[(rng.next() % 2) as usize];
                    smp.mag_filter = filters[(rng.next() % 2) as usize];
                    smp.mip_filter = filters[(rng.next() % 2) as usize];
                    smp.comparison = ComparisonFunc::ALL[(rng.next() % 8) as usize];
                    smp.mip_lod_bias = rng.float();
                    smp.min_lod = rng.float();
                    smp.max_lod = rng.float();
                    smp.border_color = [0; 4].map(|_| rng.float());
                    let c = [0; 4].map(|_| rng.float());
                    let d = [0; 3].map(|_| rng.float());
                    let off = [0; 3].map(|_| rng.next() as i32);
                    let lods = [
                        Lod::Zero,
                        Lod::Explicit(rng.float()),
                        Lod::FromGradients {
                            ddx: d,
                            ddy: [d[2], d[0], d[1]],
                            bias: rng.float(),
                        },
                    ];
                    for lod in lods {
                        let _ = sample(&tex, &smp, c, off, lod);
                        let _ = sample_c(&tex, &smp, c, off, rng.float(), lod);
                        let _ = sample_cl(&tex, &smp, c, off, lod, rng.float());
                        let _ = sample_c_cl(&tex, &smp, c, off, rng.float(), lod, rng.float());
                    }
                    let ch = rng.next();
                    let _ = gather4(&tex, &smp, c, [off[0], off[1]], ch);
                    let _ = gather4_po(&tex, &smp, c, [off[0], off[1]], ch);
                    let _ = gather4_c(&tex, &smp, c, [off[0], off[1]], ch, rng.float());
                    let _ = gather4_po_c(&tex, &smp, c, [off[0], off[1]], ch, rng.float());
                    let _ = calc_lod(&tex, &smp, c, d, d);
                    let ic = [0; 4].map(|_| rng.next() % 8);
                    let _ = ld(&tex, ic, off);
                    let _ = ldms(&tex, ic, rng.next() % 8, off);
                    let _ = resinfo(&tex, rng.next() % 8, ResInfoReturn::RcpFloat);
                    let _ = sampleinfo(&tex, SampleInfoReturn::Float);
                    let _ = bufinfo(&tex);
                }
            }
        }
    }
}
