//! Level of detail: from gradients or an explicit value, through the biases
//! and the sampler's clamps, to the mip level(s) a filter reads.
//!
//! Order (D3D11 functional spec, and the `sample_b`/`sample_l` reference
//! pages): LOD = log2(max(|ddx·size|, |ddy·size|)) (isotropic) or the
//! explicit value; add the instruction bias and the sampler's MipLODBias;
//! clamp to [MinLOD, MaxLOD]. That LOD decides magnification (≤ 0) versus
//! minification. It is then held to 8 fractional bits
//! (`D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT`) and clamped to the texture's mip
//! range; point mip filtering takes the nearest level (floor(lod + 0.5)),
//! linear mip filtering blends floor(lod) and the next level by the
//! fraction.

use super::filter::Geom;
use super::sampler::{Filter, Sampler};
use super::texture::Texture;

/// How a sampling operation gets its LOD.
///
/// Gradients are derivatives of the coordinate in the same normalized units
/// as the coordinate itself (what `deriv_rtx`/`deriv_rty` of the address
/// register give): components in coordinate order — u, v, w for 1D/2D/3D
/// (array layers excluded), the direction x, y, z for cubes. The unit
/// scales them by the level-0 size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lod {
    /// `sample` (bias 0), `sample_b` (the instruction's bias), `sample_d`
    /// and `sample_c`: LOD from the quad's derivatives.
    FromGradients {
        ddx: [f32; 3],
        ddy: [f32; 3],
        bias: f32,
    },
    /// `sample_l`: the given LOD (the sampler's bias and clamps still apply).
    Explicit(f32),
    /// `sample_c_lz`: LOD 0 (the sampler's bias and clamps still apply).
    Zero,
}

/// D3D's range for `MipLODBias` and `sample_b`'s bias.
const BIAS_MIN: f64 = -16.0;
const BIAS_MAX: f64 = 15.99;
/// LOD fractional precision (`D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT`).
const LOD_SCALE: f64 = 256.0;

/// A bias held to D3D's range; NaN reads as no bias.
pub(crate) fn clamp_bias(b: f32) -> f64 {
    if b.is_nan() {
        0.0
    } else {
        f64::from(b).clamp(BIAS_MIN, BIAS_MAX)
    }
}

/// log2 of the longer gradient in texels of level 0, before any bias.
/// Zero gradients give −∞.
pub(crate) fn gradient_lod(tex: &Texture, geom: &Geom, ddx: [f32; 3], ddy: [f32; 3]) -> f64 {
    let size = tex.level_size(0).unwrap_or([1, 1, 1]).map(f64::from);
    let len2 = |d: [f32; 3]| -> f64 {
        match &geom.cube {
            Some(c) => {
                let g = c.face_gradient(d);
                (g[0] * size[0]).powi(2) + (g[1] * size[0]).powi(2)
            }
            None => (0..geom.axes)
                .map(|a| (f64::from(d[a]) * size[a]).powi(2))
                .sum(),
        }
    };
    0.5 * len2(ddx).max(len2(ddy)).log2()
}

/// The LOD after the instruction's and the sampler's biases, clamped to
/// [MinLOD, MaxLOD]: what decides magnification. A NaN LOD takes MinLOD,
/// as D3D's `max` returns its non-NaN operand; a NaN MinLOD or MaxLOD is
/// no limit, as the GPU backends are given it. MaxLOD is applied first and
/// MinLOD last, so a sampler with MinLOD above MaxLOD (which D3D11's
/// runtime accepts) samples at MinLOD, as D3D11 implementations do; the
/// GPU backends get the same through `runtime::hardware_sampler`, which
/// raises MaxLOD to MinLOD.
pub(crate) fn sampler_lod(tex: &Texture, smp: &Sampler, geom: &Geom, lod: &Lod) -> f64 {
    let base = match *lod {
        Lod::FromGradients { ddx, ddy, bias } => {
            gradient_lod(tex, geom, ddx, ddy) + clamp_bias(bias)
        }
        Lod::Explicit(l) => f64::from(l),
        Lod::Zero => 0.0,
    };
    let l = base + clamp_bias(smp.mip_lod_bias);
    // A NaN bound is no limit (`f64::min`/`max` return the other operand).
    let (min, max) = (f64::from(smp.min_lod), f64::from(smp.max_lod));
    if l.is_nan() {
        if min.is_nan() {
            f64::from(-f32::MAX)
        } else {
            min
        }
    } else {
        l.min(max).max(min)
    }
}

/// The mip levels a sampling operation reads and how it filters them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MipPlan {
    /// LOD ≤ 0: use the sampler's mag filter, otherwise its min filter.
    pub magnify: bool,
    /// The LOD the levels were chosen from: held to 8 fractional bits and
    /// clamped to the mip range (what the debugger shows).
    pub lod: f64,
    levels: [(u32, f64); 2],
    count: usize,
}

impl MipPlan {
    /// (level, weight) pairs; weights are positive and sum to 1.
    pub(crate) fn levels(&self) -> &[(u32, f64)] {
        &self.levels[..self.count]
    }
}

/// No per-sample minimum-LOD clamp: what the instructions without `_cl`
/// take.
pub const NO_LOD_CLAMP: f32 = f32::NEG_INFINITY;

/// Whether a `_cl` instruction's per-sample minimum-LOD clamp leaves no mip
/// level to read (D3D11.2 functional spec 5.9.4.5.4): the clamp removes the
/// levels below floor(clamp), as the per-resource clamp does ("a clamp of
/// 2.2 means that mips 0 and 1 have been clamped off"), so a clamp whose
/// floor is past the last level is the spec's empty set, read as an
/// out-of-bounds access. A NaN clamp clamps nothing (D3D's `max` returns
/// the other operand).
pub(crate) fn clamp_leaves_no_level(tex: &Texture, min_lod_clamp: f32) -> bool {
    f64::from(min_lod_clamp).floor() > f64::from(tex.mip_levels().max(1) - 1)
}

/// Plans the levels. `nearest` forces point mip selection (integer
/// formats, which cannot be blended). `min_lod_clamp` is a `_cl`
/// instruction's per-sample clamp ([`NO_LOD_CLAMP`] for the others): the
/// hardware takes max(clamp, LOD) where the per-resource MinLOD clamp
/// applies, after the sampler's [MinLOD, MaxLOD] (spec 5.9.4.5.4), so here
/// before the magnification decision, as the sampler's clamps are.
pub(crate) fn plan(
    tex: &Texture,
    smp: &Sampler,
    geom: &Geom,
    lod: &Lod,
    min_lod_clamp: f32,
    nearest: bool,
) -> MipPlan {
    let l = sampler_lod(tex, smp, geom, lod).max(f64::from(min_lod_clamp));
    let l = (l * LOD_SCALE).round_ties_even() / LOD_SCALE;
    let magnify = l.is_nan() || l <= 0.0;
    let last = f64::from(tex.mip_levels().max(1) - 1);
    let l = if l.is_nan() { 0.0 } else { l.clamp(0.0, last) };
    let one = |level: f64| MipPlan {
        magnify,
        lod: l,
        levels: [(level as u32, 1.0), (0, 0.0)],
        count: 1,
    };
    if nearest || smp.mip_filter == Filter::Point {
        return one((l + 0.5).floor().min(last));
    }
    let l0 = l.floor();
    let frac = l - l0;
    if frac == 0.0 {
        return one(l0);
    }
    MipPlan {
        magnify,
        lod: l,
        levels: [(l0 as u32, 1.0 - frac), (l0 as u32 + 1, frac)],
        count: 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{Format, TextureDesc};

    /// 16x8 texture with the full chain (5 levels: 16, 8, 4, 2, 1 wide).
    fn tex() -> Texture {
        let desc = TextureDesc::tex2d(Format::R8Unorm, 16, 8).with_mips(0);
        let n = 16 * 8 + 8 * 4 + 4 * 2 + 2 + 1;
        Texture::from_bytes(desc, &vec![0; n]).unwrap()
    }

    fn grad(dx: f32, dy: f32) -> Lod {
        Lod::FromGradients {
            ddx: [dx, 0.0, 0.0],
            ddy: [0.0, dy, 0.0],
            bias: 0.0,
        }
    }

    fn levels(smp: &Sampler, lod: Lod) -> (bool, Vec<(u32, f64)>) {
        let t = tex();
        let g = Geom::new(&t, [0.5; 4]).unwrap();
        let p = plan(&t, smp, &g, &lod, NO_LOD_CLAMP, false);
        (p.magnify, p.levels().to_vec())
    }

    #[test]
    fn lod_from_gradients_uses_the_longer_axis_in_texels() {
        let t = tex();
        let g = Geom::new(&t, [0.5; 4]).unwrap();
        // ddx.u = 4/16 → 4 texels; ddy.v = 1/8 → 1 texel: log2(4) = 2.
        assert_eq!(
            gradient_lod(&t, &g, [0.25, 0.0, 0.0], [0.0, 0.125, 0.0]),
            2.0
        );
        // ddy.v = 2/8 → 2 texels, ddx.u = 1/16 → 1: log2(2) = 1.
        assert_eq!(
            gradient_lod(&t, &g, [1.0 / 16.0, 0.0, 0.0], [0.0, 0.25, 0.0]),
            1.0
        );
        // Length, not sum: ddx = (3, 4) texels → 5 → log2(5).
        let l = gradient_lod(&t, &g, [3.0 / 16.0, 0.5, 0.0], [0.0; 3]);
        assert_eq!(l, 5f64.log2());
        assert_eq!(gradient_lod(&t, &g, [0.0; 3], [0.0; 3]), f64::NEG_INFINITY);
    }

    #[test]
    fn point_mip_takes_the_nearest_level() {
        let smp = Sampler::point();
        // 2^1.49 texels → LOD 1.49 → level 1; 2^1.5 → level 2 (round up).
        let l = |lod: f32| levels(&smp, Lod::Explicit(lod)).1;
        assert_eq!(l(1.49), vec![(1, 1.0)]);
        assert_eq!(l(1.5), vec![(2, 1.0)]);
        assert_eq!(l(0.3), vec![(0, 1.0)]);
        assert_eq!(l(9.0), vec![(4, 1.0)]); // clamped to the last level
        let (mag, lv) = levels(&smp, grad(2f32.powf(1.2) / 16.0, 0.0));
        assert!(!mag);
        assert_eq!(lv, vec![(1, 1.0)]);
    }

    #[test]
    fn linear_mip_blends_two_levels() {
        let smp = Sampler::linear();
        assert_eq!(
            levels(&smp, Lod::Explicit(1.25)).1,
            vec![(1, 0.75), (2, 0.25)]
        );
        assert_eq!(levels(&smp, Lod::Explicit(2.0)).1, vec![(2, 1.0)]);
        assert_eq!(levels(&smp, Lod::Explicit(4.5)).1, vec![(4, 1.0)]);
        // The fraction is held to 8 bits: 1.3 → 1 + 77/256.
        assert_eq!(
            levels(&smp, Lod::Explicit(1.3)).1,
            vec![(1, 1.0 - 77.0 / 256.0), (2, 77.0 / 256.0)]
        );
        // Gradient of 8 texels on u → LOD 3.
        assert_eq!(levels(&smp, grad(0.5, 0.0)).1, vec![(3, 1.0)]);
    }

    #[test]
    fn biases_add_before_the_sampler_clamp() {
        let mut smp = Sampler::linear();
        smp.mip_lod_bias = 0.5;
        let bias = |b: f32| Lod::FromGradients {
            ddx: [0.125, 0.0, 0.0], // 2 texels → LOD 1
            ddy: [0.0; 3],
            bias: b,
        };
        assert_eq!(levels(&smp, bias(1.0)).1, vec![(2, 0.5), (3, 0.5)]);
        // The instruction bias is held to [-16, 15.99]: from a gradient
        // LOD of −20, +100 would minify to the last level; 15.99 still
        // magnifies.
        let tiny = Lod::FromGradients {
            ddx: [2f32.powi(-24), 0.0, 0.0],
            ddy: [0.0; 3],
            bias: 100.0,
        };
        assert_eq!(levels(&smp, tiny), (true, vec![(0, 1.0)]));
        let t = tex();
        let g = Geom::new(&t, [0.5; 4]).unwrap();
        let big = Sampler {
            mip_lod_bias: 100.0,
            min_lod: -1000.0,
            ..Sampler::linear()
        };
        assert_eq!(
            sampler_lod(&t, &big, &g, &Lod::Explicit(-20.0)),
            -20.0 + 15.99
        );
        smp.max_lod = 2.25;
        assert_eq!(levels(&smp, bias(1.0)).1, vec![(2, 0.75), (3, 0.25)]);
        smp.min_lod = 3.0;
        smp.max_lod = 10.0;
        // MinLOD lifts even an explicit LOD 0 (sample_c_lz) and a NaN LOD.
        assert_eq!(levels(&smp, Lod::Zero), (false, vec![(3, 1.0)]));
        assert_eq!(levels(&smp, Lod::Explicit(f32::NAN)).1, vec![(3, 1.0)]);
        // MinLOD above MaxLOD: MinLOD, whatever the LOD.
        smp.min_lod = 2.0;
        smp.max_lod = 0.0;
        assert_eq!(levels(&smp, Lod::Zero), (false, vec![(2, 1.0)]));
        assert_eq!(levels(&smp, Lod::Explicit(5.0)).1, vec![(2, 1.0)]);
        assert_eq!(levels(&smp, Lod::Explicit(f32::NAN)).1, vec![(2, 1.0)]);
    }

    #[test]
    fn per_sample_clamp_raises_the_lod_after_the_sampler_clamps() {
        let t = tex();
        let g = Geom::new(&t, [0.5; 4]).unwrap();
        let smp = Sampler {
            max_lod: 1.0,
            ..Sampler::point()
        };
        let at = |lod: f32, clamp: f32| {
            let p = plan(&t, &smp, &g, &Lod::Explicit(lod), clamp, false);
            (p.magnify, p.levels().to_vec())
        };
        // LOD 0 raised to 0.75: the nearest level is 1, minified.
        assert_eq!(at(0.0, 0.75), (false, vec![(1, 1.0)]));
        // A clamp past MaxLOD 1 still wins (max after the sampler's min).
        assert_eq!(at(0.0, 2.5), (false, vec![(3, 1.0)]));
        // 0, a negative clamp and NaN change nothing.
        assert_eq!(at(-2.0, 0.0), (true, vec![(0, 1.0)]));
        assert_eq!(at(0.5, -3.0), at(0.5, NO_LOD_CLAMP));
        assert_eq!(at(0.5, f32::NAN), at(0.5, NO_LOD_CLAMP));
        // The levels below floor(clamp) go: past the last (4) none is left.
        assert!(!clamp_leaves_no_level(&t, 4.99));
        assert!(clamp_leaves_no_level(&t, 5.0));
        assert!(clamp_leaves_no_level(&t, f32::INFINITY));
        assert!(!clamp_leaves_no_level(&t, f32::NAN));
    }

    #[test]
    fn magnification_is_lod_at_most_zero() {
        let smp = Sampler::linear();
        assert!(levels(&smp, Lod::Explicit(0.0)).0);
        assert!(levels(&smp, Lod::Explicit(-3.0)).0);
        assert!(!levels(&smp, Lod::Explicit(0.01)).0);
        // 0.001 holds to 0 at 8 fractional bits.
        assert!(levels(&smp, Lod::Explicit(0.001)).0);
        // Zero gradients: LOD −∞, magnified, level 0.
        assert_eq!(levels(&smp, grad(0.0, 0.0)), (true, vec![(0, 1.0)]));
        // A one-level texture minified still minifies (the mip clamp comes
        // after the mag/min decision).
        let one = Texture::from_bytes(TextureDesc::tex2d(Format::R8Unorm, 2, 2), &[0; 4]).unwrap();
        let g = Geom::new(&one, [0.5; 4]).unwrap();
        let p = plan(&one, &smp, &g, &Lod::Explicit(3.0), NO_LOD_CLAMP, false);
        assert_eq!((p.magnify, p.levels()), (false, &[(0, 1.0)][..]));
    }
}
