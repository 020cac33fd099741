//! `sample`, `sample_l`, `sample_b`, `sample_d` (one entry point, the LOD
//! source chosen by [`Lod`]), the comparison samples `sample_c` /
//! `sample_c_lz`, and the `lod` query.

use super::filter::{self, Footprint, Geom, Loc};
use super::format::{Format, NumericKind, flush_denorm};
use super::lod::{self, Lod, MipPlan};
use super::sampler::{Filter, Reduction, Sampler};
use super::texture::Texture;

/// Filtered sample. Returns the four result lanes as float bits (integer
/// formats, which cannot be filtered, return the nearest texel's raw lanes
/// from the nearest mip). Buffers and multisampled textures return zeros.
///
/// `coord` is laid out as the DXBC address register: 1D `u`; 1D array
/// `u, layer`; 2D `u, v`; 2D array `u, v, layer`; 3D `u, v, w`; cube
/// `x, y, z`; cube array `x, y, z, cube`. `offset` is the `_aoffimmi` texel
/// offset (ignored for cubes).
/// Results flush denormals to zero.
pub fn sample(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 3],
    lod: Lod,
) -> [u32; 4] {
    sample_cl(tex, smp, coord, offset, lod, lod::NO_LOD_CLAMP)
}

/// [`sample`] with a `_cl` instruction's per-sample minimum-LOD clamp
/// (`sample_cl_s`, `sample_b_cl_s`, `sample_d_cl_s`): the LOD is at least
/// `min_lod_clamp` after the sampler's clamps; a clamp past the last level
/// reads as an out-of-bounds access (0 in the format's components, the
/// defaults in the missing ones). A clamp of 0 changes nothing.
pub fn sample_cl(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 3],
    lod: Lod,
    min_lod_clamp: f32,
) -> [u32; 4] {
    let Some(geom) = Geom::new(tex, coord) else {
        return [0; 4];
    };
    if lod::clamp_leaves_no_level(tex, min_lod_clamp) {
        return tex.format().out_of_bounds_lanes();
    }
    if tex.format().is_integer() {
        let plan = lod::plan(tex, smp, &geom, &lod, min_lod_clamp, true);
        let level = plan.levels()[0].0;
        let fp = filter::footprint(tex, smp, &geom, level, Filter::Point, offset);
        return filter::lanes_at(tex, smp, fp.taps()[0].loc);
    }
    let sum = anisotropic(tex, smp, &geom, coord, offset, &lod, min_lod_clamp)
        .unwrap_or_else(|| trilinear(tex, smp, &geom, offset, &lod, min_lod_clamp));
    sum.map(|v| flush_denorm(v as f32).to_bits())
}

/// The point/linear filter at one position: the planned levels, each
/// footprint reduced as the sampler says.
fn trilinear(
    tex: &Texture,
    smp: &Sampler,
    geom: &Geom,
    offset: [i32; 3],
    lod: &Lod,
    min_lod_clamp: f32,
) -> [f64; 4] {
    let plan = lod::plan(tex, smp, geom, lod, min_lod_clamp, false);
    blend_levels(tex, smp, geom, &plan, offset, smp.reduction, |fp| {
        fp.reduced(smp.reduction, |loc| filter::filter_value(tex, smp, loc))
    })
}

/// The anisotropic filter (`max_anisotropy` = MaxAnisotropy). D3D leaves
/// the footprint to the implementation; this unit's, written so that an
/// isotropic footprint gives exactly the trilinear result, as the spec
/// requires:
/// * the two gradients' lengths in level-0 texels (addressed axes) are the
///   footprint's major and minor axes;
/// * magnification (the trilinear LOD ≤ 0) reads the one linear sample;
/// * otherwise N = min(ceil(major / minor), MaxAnisotropy) (minor 0: the
///   maximum); N = 1 is the trilinear sample;
/// * for N > 1, N trilinear samples at c + g·((i + ½)/N − ½), g the major
///   gradient, each with that gradient divided by N for its LOD, averaged
///   (min/max reduction: their minimum or maximum).
///
/// Cubes, and LODs not from gradients, filter isotropically. `None` means
/// the trilinear path (also when the sampler is not anisotropic).
fn anisotropic(
    tex: &Texture,
    smp: &Sampler,
    geom: &Geom,
    coord: [f32; 4],
    offset: [i32; 3],
    lod: &Lod,
    min_lod_clamp: f32,
) -> Option<[f64; 4]> {
    let max = smp.max_anisotropy?;
    let Lod::FromGradients { ddx, ddy, bias } = *lod else {
        return None;
    };
    if geom.cube.is_some() || lod::plan(tex, smp, geom, lod, min_lod_clamp, false).magnify {
        return None;
    }
    let size = tex.level_size(0)?.map(f64::from);
    let len = |d: [f32; 3]| {
        (0..geom.axes)
            .map(|a| (f64::from(d[a]) * size[a]).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let (lx, ly) = (len(ddx), len(ddy));
    let (major, minor, g, other) = if lx >= ly {
        (lx, ly, ddx, ddy)
    } else {
        (ly, lx, ddy, ddx)
    };
    if !(major.is_finite() && major > 0.0) {
        return None;
    }
    let ratio = if minor > 0.0 {
        (major / minor).ceil()
    } else {
        f64::INFINITY
    };
    let n = ratio.min(f64::from(max.clamp(1, 16)));
    if n <= 1.0 {
        return None;
    }
    let sub = Lod::FromGradients {
        ddx: g.map(|v| (f64::from(v) / n) as f32),
        ddy: other,
        bias,
    };
    let mut acc: Option<[f64; 4]> = None;
    for i in 0..n as u32 {
        let t = (f64::from(i) + 0.5) / n - 0.5;
        let mut c = coord;
        for a in 0..geom.axes {
            c[a] = (f64::from(coord[a]) + f64::from(g[a]) * t) as f32;
        }
        let at = Geom::new(tex, c)?;
        let v = trilinear(tex, smp, &at, offset, &sub, min_lod_clamp);
        let v = match smp.reduction {
            Reduction::Standard => v.map(|x| x / n),
            _ => v,
        };
        acc = Some(match acc {
            None => v,
            Some(a) => [0, 1, 2, 3].map(|k| match smp.reduction {
                Reduction::Standard => a[k] + v[k],
                Reduction::Minimum => a[k].min(v[k]),
                Reduction::Maximum => a[k].max(v[k]),
            }),
        });
    }
    acc
}

/// Comparison sample (percentage-closer filtering): every texel the filter
/// reads is compared as `reference <smp.comparison> texel.r`, giving 1 or 0,
/// and those results are filtered with the ordinary weights (bilinear and
/// across mips). The result is replicated to all four lanes. For unorm
/// formats (D16) the reference is first clamped to [0, 1] (NaN → 0); for
/// float formats it is not. Denormal references and texels compare as 0.
/// `sample_c_lz` is `lod = Lod::Zero`. Integer formats return zeros.
pub fn sample_c(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 3],
    reference: f32,
    lod: Lod,
) -> [u32; 4] {
    sample_c_cl(tex, smp, coord, offset, reference, lod, lod::NO_LOD_CLAMP)
}

/// [`sample_c`] with a `_cl` instruction's per-sample minimum-LOD clamp
/// (`sample_c_cl_s`), as [`sample_cl`] applies it. A clamp past the last
/// level compares nothing: the result is 0 (the spec defines the empty
/// set's result for the format's components, which a comparison does not
/// return; this unit chooses the out-of-bounds value of the red component
/// it compares).
pub fn sample_c_cl(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 3],
    reference: f32,
    lod: Lod,
    min_lod_clamp: f32,
) -> [u32; 4] {
    let Some(geom) = Geom::new(tex, coord) else {
        return [0; 4];
    };
    if tex.format().is_integer() || lod::clamp_leaves_no_level(tex, min_lod_clamp) {
        return [0; 4];
    }
    let reference = compare_reference(tex.format(), reference);
    let plan = lod::plan(tex, smp, &geom, &lod, min_lod_clamp, false);
    let sum = blend_levels(tex, smp, &geom, &plan, offset, Reduction::Standard, |fp| {
        fp.weighted(|loc| [compare_value(tex, smp, loc, 0, reference), 0.0, 0.0, 0.0])
    });
    [flush_denorm(sum[0] as f32).to_bits(); 4]
}

/// The `lod` instruction: (clamped LOD, unclamped LOD, 0, 0) as float bits.
/// Unclamped is the gradient LOD plus the sampler's MipLODBias (−∞ for zero
/// gradients); clamped additionally goes through [MinLOD, MaxLOD] and the
/// texture's mip range — the continuous value `sample` uses, before the
/// 8-bit fraction hold. Gradients as in [`Lod::FromGradients`].
pub fn calc_lod(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    ddx: [f32; 3],
    ddy: [f32; 3],
) -> [u32; 4] {
    let Some(geom) = Geom::new(tex, coord) else {
        return [0; 4];
    };
    let unclamped = lod::gradient_lod(tex, &geom, ddx, ddy) + lod::clamp_bias(smp.mip_lod_bias);
    let grad = Lod::FromGradients {
        ddx,
        ddy,
        bias: 0.0,
    };
    let clamped = lod::sampler_lod(tex, smp, &geom, &grad);
    let last = f64::from(tex.mip_levels().max(1) - 1);
    let clamped = if clamped.is_nan() {
        0.0
    } else {
        clamped.clamp(0.0, last)
    };
    [
        (clamped as f32).to_bits(),
        (unclamped as f32).to_bits(),
        0,
        0,
    ]
}

/// Sums `per_level` over the planned mip levels, each with its weight and
/// the mag or min filter the plan calls for; min/max `reduction` takes the
/// minimum or maximum of the levels instead (every planned level has a
/// non-zero weight, so its texels are in the footprint).
fn blend_levels(
    tex: &Texture,
    smp: &Sampler,
    geom: &Geom,
    plan: &MipPlan,
    offset: [i32; 3],
    reduction: Reduction,
    per_level: impl Fn(&Footprint) -> [f64; 4],
) -> [f64; 4] {
    let filter = if plan.magnify {
        smp.mag_filter
    } else {
        smp.min_filter
    };
    let mut acc = [-0.0f64; 4];
    for (k, &(level, weight)) in plan.levels().iter().enumerate() {
        let fp = filter::footprint(tex, smp, geom, level, filter, offset);
        let v = per_level(&fp);
        for c in 0..4 {
            acc[c] = match reduction {
                Reduction::Standard => acc[c] + weight * v[c],
                _ if k == 0 => v[c],
                Reduction::Minimum => acc[c].min(v[c]),
                Reduction::Maximum => acc[c].max(v[c]),
            };
        }
    }
    acc
}

/// The reference as compared: denormals flushed, and saturated for unorm
/// formats (whose texels cannot leave [0, 1]).
pub(crate) fn compare_reference(format: Format, reference: f32) -> f32 {
    let r = flush_denorm(reference);
    if format.kind() == NumericKind::Unorm {
        if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) }
    } else {
        r
    }
}

/// 1.0 when `reference <func> texel[channel]` passes, else 0.0 (border taps
/// compare the border colour's component).
pub(crate) fn compare_value(
    tex: &Texture,
    smp: &Sampler,
    loc: Loc,
    channel: usize,
    reference: f32,
) -> f64 {
    let texel = flush_denorm(f32::from_bits(filter::lanes_at(tex, smp, loc)[channel & 3]));
    if smp.comparison.passes(reference, texel) {
        1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{AddressMode, ComparisonFunc, TextureDesc};

    fn f(bits: [u32; 4]) -> [f32; 4] {
        bits.map(f32::from_bits)
    }

    fn r(bits: [u32; 4]) -> f32 {
        f32::from_bits(bits[0])
    }

    const L0: Lod = Lod::Zero;

    /// 2x2 depth texture, row-major: (0,0)=0.2, (1,0)=0.4, (0,1)=0.6, (1,1)=0.8.
    fn depth(format: Format) -> Texture {
        let t = [0.2, 0.4, 0.6, 0.8].map(|d| [d, 0.0, 0.0, 0.0]);
        Texture::from_f32(TextureDesc::tex2d(format, 2, 2), &t).unwrap()
    }

    /// A `w` x `h` 2D texture with `levels` mips (0: the full chain) whose
    /// texels, level 0 first, hold `reds` in their red channel.
    fn mip_chain(format: Format, w: u32, h: u32, levels: u32, reds: &[f32]) -> Texture {
        let texels: Vec<[f32; 4]> = reds.iter().map(|&v| [v, 0.0, 0.0, 0.0]).collect();
        Texture::from_f32(TextureDesc::tex2d(format, w, h).with_mips(levels), &texels).unwrap()
    }

    fn cmp_sampler(func: ComparisonFunc, filter: Filter) -> Sampler {
        Sampler {
            comparison: func,
            min_filter: filter,
            mag_filter: filter,
            ..Sampler::point()
        }
    }

    #[test]
    fn pcf_every_function_at_and_between_texel_depths() {
        use ComparisonFunc::*;
        let t = depth(Format::D32Float);
        // u·2 − 0.5 = 0.25, v·2 − 0.5 = 0.75: weights (0,0) 3/16,
        // (1,0) 1/16, (0,1) 9/16, (1,1) 3/16.
        let at = [0.375, 0.625, 0.0, 0.0];
        let cases: [(f32, [f32; 8]); 4] = [
            // Never, Less, Equal, LessEqual, Greater, NotEqual, GreaterEqual, Always
            (0.5, [0.0, 0.75, 0.0, 0.75, 0.25, 1.0, 0.25, 1.0]),
            (0.4, [0.0, 0.75, 0.0625, 0.8125, 0.1875, 0.9375, 0.25, 1.0]),
            (0.8, [0.0, 0.0, 0.1875, 0.1875, 0.8125, 0.8125, 1.0, 1.0]),
            (0.1, [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
        ];
        for (reference, want) in cases {
            for (func, want) in ComparisonFunc::ALL.into_iter().zip(want) {
                let smp = cmp_sampler(func, Filter::Linear);
                let got = sample_c(&t, &smp, at, [0; 3], reference, L0);
                assert_eq!(f(got), [want; 4], "ref {reference} {func:?}");
            }
        }
        // Filtering the depths first would give 0.55 and compare 0.5 < 0.55
        // as 1.0; comparing each texel first gives 0.75.
        let smp = cmp_sampler(Less, Filter::Linear);
        assert_eq!(r(sample_c(&t, &smp, at, [0; 3], 0.5, L0)), 0.75);
    }

    #[test]
    fn pcf_point_filter_and_texel_boundaries() {
        use ComparisonFunc::*;
        let t = depth(Format::D32Float);
        // Point: texel (floor(0.75), floor(1.25)) = (0, 1), depth 0.6.
        let smp = cmp_sampler(Less, Filter::Point);
        assert_eq!(
            r(sample_c(
                &t,
                &smp,
                [0.375, 0.625, 0.0, 0.0],
                [0; 3],
                0.5,
                L0
            )),
            1.0
        );
        assert_eq!(
            r(sample_c(
                &t,
                &smp,
                [0.375, 0.625, 0.0, 0.0],
                [0; 3],
                0.6,
                L0
            )),
            0.0
        );
        // Point picks floor(u·W): u = 0.5 is texel 1's left edge.
        let smp = cmp_sampler(Equal, Filter::Point);
        assert_eq!(
            r(sample_c(&t, &smp, [0.5, 0.0, 0.0, 0.0], [0; 3], 0.4, L0)),
            1.0
        );
        assert_eq!(
            r(sample_c(&t, &smp, [0.4999, 0.0, 0.0, 0.0], [0; 3], 0.4, L0)),
            1.0
        ); // snaps up
        assert_eq!(
            r(sample_c(&t, &smp, [0.498, 0.0, 0.0, 0.0], [0; 3], 0.2, L0)),
            1.0
        );
        // Linear exactly on texel centres (u·2 − 0.5 = 0): one texel only.
        let smp = cmp_sampler(GreaterEqual, Filter::Linear);
        assert_eq!(
            r(sample_c(&t, &smp, [0.25, 0.25, 0.0, 0.0], [0; 3], 0.2, L0)),
            1.0
        );
        // 1/1024 texel past the centre snaps back onto it …
        let u = 0.25 + 1.0 / 2048.0;
        assert_eq!(
            r(sample_c(&t, &smp, [u, 0.25, 0.0, 0.0], [0; 3], 0.2, L0)),
            1.0
        );
        // … 1/256 texel past gives the neighbour (0.4, fails) weight 1/256.
        let u = 0.25 + 1.0 / 512.0;
        assert_eq!(
            r(sample_c(&t, &smp, [u, 0.25, 0.0, 0.0], [0; 3], 0.2, L0)),
            255.0 / 256.0
        );
        // Offsets move the footprint: one texel right reads 0.4.
        assert_eq!(
            r(sample_c(
                &t,
                &smp,
                [0.25, 0.25, 0.0, 0.0],
                [1, 0, 0],
                0.2,
                L0
            )),
            0.0
        );
    }

    #[test]
    fn pcf_reference_clamp_depends_on_format() {
        use ComparisonFunc::*;
        let one = [[1.0f32, 0.0, 0.0, 0.0]];
        let zero = [[0.0f32, 0.0, 0.0, 0.0]];
        let d16 = |t| Texture::from_f32(TextureDesc::tex2d(Format::D16Unorm, 1, 1), t).unwrap();
        let d32 = |t| Texture::from_f32(TextureDesc::tex2d(Format::D32Float, 1, 1), t).unwrap();
        let le = cmp_sampler(LessEqual, Filter::Linear);
        let ge = cmp_sampler(GreaterEqual, Filter::Linear);
        let c = [0.5; 4];
        assert_eq!(r(sample_c(&d16(&one), &le, c, [0; 3], 1.5, L0)), 1.0);
        assert_eq!(r(sample_c(&d32(&one), &le, c, [0; 3], 1.5, L0)), 0.0);
        assert_eq!(r(sample_c(&d16(&zero), &ge, c, [0; 3], -0.5, L0)), 1.0);
        assert_eq!(r(sample_c(&d32(&zero), &ge, c, [0; 3], -0.5, L0)), 0.0);
        // A denormal reference is 0 and equals a 0 texel.
        let eq = cmp_sampler(Equal, Filter::Point);
        assert_eq!(
            r(sample_c(&d32(&zero), &eq, c, [0; 3], f32::from_bits(5), L0)),
            1.0
        );
        // NaN: only NotEqual passes on a float format.
        let ne = cmp_sampler(NotEqual, Filter::Point);
        assert_eq!(r(sample_c(&d32(&zero), &ne, c, [0; 3], f32::NAN, L0)), 1.0);
        assert_eq!(r(sample_c(&d32(&zero), &ge, c, [0; 3], f32::NAN, L0)), 0.0);
    }

    #[test]
    fn pcf_border_and_mips() {
        use ComparisonFunc::*;
        let t = depth(Format::D32Float);
        let mut smp = cmp_sampler(Less, Filter::Linear).with_address(AddressMode::Border);
        smp.border_color = [0.9, 0.0, 0.0, 0.0];
        // u·2 − 0.5 = −0.5: half border (0.9 > 0.5 passes), half texel 0
        // column (0.2 and 0.6 rows, v on row 0 centre → 0.2 fails).
        assert_eq!(
            r(sample_c(&t, &smp, [0.0, 0.25, 0.0, 0.0], [0; 3], 0.5, L0)),
            0.5
        );
        // Two levels: level 0 all 0.2, level 1 0.8; LOD 0.25 blends the
        // compare results 3:1.
        let t = mip_chain(Format::D32Float, 2, 2, 2, &[0.2, 0.2, 0.2, 0.2, 0.8]);
        let smp = Sampler {
            mip_filter: Filter::Linear,
            ..cmp_sampler(Less, Filter::Linear)
        };
        let got = sample_c(&t, &smp, [0.5; 4], [0; 3], 0.5, Lod::Explicit(0.25));
        assert_eq!(r(got), 0.25);
        // Point mip filtering takes level 0 only.
        let smp = Sampler {
            mip_filter: Filter::Point,
            ..smp
        };
        assert_eq!(
            r(sample_c(
                &t,
                &smp,
                [0.5; 4],
                [0; 3],
                0.5,
                Lod::Explicit(0.25)
            )),
            0.0
        );
        // sample_c_lz honours MinLOD.
        let smp = Sampler {
            min_lod: 1.0,
            ..smp
        };
        assert_eq!(r(sample_c(&t, &smp, [0.5; 4], [0; 3], 0.5, L0)), 1.0);
    }

    fn ramp(w: u32, mode: AddressMode) -> (Texture, Sampler) {
        let t: Vec<[f32; 4]> = (0..w).map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
        let tex = Texture::from_f32(TextureDesc::tex1d(Format::R32Float, w), &t).unwrap();
        let mut smp = Sampler::point().with_address(mode);
        smp.border_color = [-1.0, -2.0, -3.0, -4.0];
        (tex, smp)
    }

    #[test]
    fn point_sampling_and_address_modes() {
        use AddressMode::*;
        let s = |tex: &Texture, smp: &Sampler, u: f32| {
            r(sample(tex, smp, [u, 0.0, 0.0, 0.0], [0; 3], L0))
        };
        let (t, smp) = ramp(3, Clamp);
        // floor(u·3): non-power-of-two; 0.3333 snaps to texel 1's edge.
        assert_eq!(s(&t, &smp, 1.0 / 3.0), 1.0);
        assert_eq!(s(&t, &smp, 0.3333), 1.0);
        assert_eq!(s(&t, &smp, 0.332), 0.0);
        assert_eq!(s(&t, &smp, 0.999), 2.0);
        let want = [
            (Wrap, [2.0, 0.0, 1.0]),
            (Mirror, [0.0, 2.0, 1.0]),
            (Clamp, [0.0, 2.0, 2.0]),
        ];
        for (mode, w) in want {
            let (t, smp) = ramp(3, mode);
            // u = −0.2 → texel −1; u = 1.1 → texel 3; u = 1.5 → texel 4.
            assert_eq!(
                [s(&t, &smp, -0.2), s(&t, &smp, 1.1), s(&t, &smp, 1.5)],
                w,
                "{mode:?}"
            );
        }
        let (t, smp) = ramp(3, MirrorOnce);
        assert_eq!(
            [s(&t, &smp, -0.2), s(&t, &smp, -0.5), s(&t, &smp, -5.0)],
            [0.0, 1.0, 2.0]
        );
        let (t, smp) = ramp(3, Border);
        assert_eq!(
            f(sample(&t, &smp, [-0.2; 4], [0; 3], L0)),
            [-1.0, -2.0, -3.0, -4.0]
        );
        // Offsets are applied before addressing.
        let (t, smp) = ramp(3, Wrap);
        assert_eq!(
            r(sample(&t, &smp, [0.5, 0.0, 0.0, 0.0], [2, 0, 0], L0)),
            0.0
        );
    }

    #[test]
    fn bilinear_rgba8() {
        // 2x1: black, white-ish; half way between texel centres.
        let t = [[0.0, 0.0, 0.0, 0.0], [1.0, 0.2, 0.4, 1.0]];
        let tex = Texture::from_f32(TextureDesc::tex2d(Format::Rgba8Unorm, 2, 1), &t).unwrap();
        let smp = Sampler::linear();
        let got = sample(&tex, &smp, [0.5, 0.5, 0.0, 0.0], [0; 3], L0);
        // 0.2 and 0.4 are stored as 51/255 and 102/255.
        let want = [0.5, 51.0 / 255.0 / 2.0, 102.0 / 255.0 / 2.0, 0.5];
        assert_eq!(f(got), want.map(|v: f64| v as f32));
        // R8: missing channels read (0, 0, 1) whatever the filter.
        let tex = Texture::from_f32(TextureDesc::tex2d(Format::R8Unorm, 2, 1), &t).unwrap();
        let got = sample(&tex, &smp, [0.5, 0.5, 0.0, 0.0], [0; 3], L0);
        assert_eq!(f(got), [0.5, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn mip_selection_from_gradients() {
        // 4x4 level 0 = 10, 2x2 level 1 = 20, 1x1 level 2 = 30.
        let reds: Vec<f32> = std::iter::repeat_n(10.0, 16)
            .chain(std::iter::repeat_n(20.0, 4))
            .chain([30.0])
            .collect();
        let t = mip_chain(Format::R32Float, 4, 4, 0, &reds);
        let grad = |texels: f32, bias: f32| Lod::FromGradients {
            ddx: [texels / 4.0, 0.0, 0.0],
            ddy: [0.0, 0.0, 0.0],
            bias,
        };
        let at = [0.5; 4];
        let lin = Sampler::linear();
        let pt = Sampler {
            mip_filter: Filter::Point,
            ..lin
        };
        let s = |smp: &Sampler, lod| r(sample(&t, smp, at, [0; 3], lod));
        // 2^1.25 texels per pixel: LOD 1.25 (8-bit fraction exact).
        assert_eq!(s(&lin, grad(2f32.powf(1.25), 0.0)), 22.5);
        assert_eq!(s(&pt, grad(2f32.powf(1.25), 0.0)), 20.0);
        assert_eq!(s(&pt, grad(2f32.powf(1.5), 0.0)), 30.0);
        // sample_b: bias −1 → LOD 0.25.
        assert_eq!(s(&lin, grad(2f32.powf(1.25), -1.0)), 12.5);
        // Sampler bias adds to it; MaxLOD and MinLOD clamp.
        assert_eq!(
            s(
                &Sampler {
                    mip_lod_bias: 0.5,
                    ..lin
                },
                grad(2.0, 0.0)
            ),
            25.0
        );
        assert_eq!(
            s(
                &Sampler {
                    max_lod: 0.5,
                    ..lin
                },
                grad(8.0, 0.0)
            ),
            15.0
        );
        assert_eq!(
            s(
                &Sampler {
                    min_lod: 2.0,
                    ..lin
                },
                grad(1.0, 0.0)
            ),
            30.0
        );
        // sample_l and huge LODs clamp to the chain.
        assert_eq!(s(&lin, Lod::Explicit(1.75)), 27.5);
        assert_eq!(s(&lin, Lod::Explicit(100.0)), 30.0);
        assert_eq!(s(&lin, Lod::Explicit(-5.0)), 10.0);
    }

    #[test]
    fn mag_and_min_filters_follow_the_lod() {
        // 2x1 level 0 (0, 1), 1x1 level 1 (5): magnified → mag filter.
        let t = mip_chain(Format::R32Float, 2, 1, 2, &[0.0, 1.0, 5.0]);
        let smp = Sampler {
            mag_filter: Filter::Linear,
            min_filter: Filter::Point,
            mip_filter: Filter::Point,
            ..Sampler::default()
        };
        let at = [0.5, 0.5, 0.0, 0.0];
        assert_eq!(r(sample(&t, &smp, at, [0; 3], Lod::Explicit(0.0))), 0.5);
        // LOD 0.25 minifies at level 0 with the point min filter.
        assert_eq!(r(sample(&t, &smp, at, [0; 3], Lod::Explicit(0.25))), 1.0);
    }

    #[test]
    fn trilinear_3d_and_1d_array() {
        let texels: Vec<[f32; 4]> = (0..8).map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
        let t = Texture::from_f32(TextureDesc::tex3d(Format::R32Float, 2, 2, 2), &texels).unwrap();
        let smp = Sampler::linear();
        assert_eq!(r(sample(&t, &smp, [0.5, 0.5, 0.5, 0.0], [0; 3], L0)), 3.5);
        // w at the first slice's centre: the average of slice 0 (0..3).
        assert_eq!(r(sample(&t, &smp, [0.5, 0.5, 0.25, 0.0], [0; 3], L0)), 1.5);
        let arr =
            Texture::from_f32(TextureDesc::tex1d_array(Format::R32Float, 2, 4), &texels).unwrap();
        // Layer 2.5 rounds to 2 (even): texels 4, 5.
        assert_eq!(r(sample(&arr, &smp, [0.5, 2.5, 0.0, 0.0], [0; 3], L0)), 4.5);
    }

    /// 2x2 faces, every texel of face f holding f.
    fn cube() -> Texture {
        let texels: Vec<[f32; 4]> = (0..24).map(|i| [(i / 4) as f32, 0.0, 0.0, 0.0]).collect();
        Texture::from_f32(TextureDesc::cube(Format::R32Float, 2), &texels).unwrap()
    }

    #[test]
    fn cube_sampling_selects_faces_and_crosses_edges() {
        let t = cube();
        let pt = Sampler::point();
        let dirs = [
            [1.0, 0.1, 0.2],
            [-1.0, 0.1, 0.2],
            [0.1, 1.0, 0.2],
            [0.1, -1.0, 0.2],
            [0.1, 0.2, 1.0],
            [0.1, 0.2, -1.0],
        ];
        for (face, d) in dirs.into_iter().enumerate() {
            let got = r(sample(&t, &pt, [d[0], d[1], d[2], 0.0], [0; 3], L0));
            assert_eq!(got, face as f32);
        }
        // On +Z at its right edge centre row: s·2 − 0.5 = 1.5 → texel 1 and
        // the texel across the edge on +X (face 0), half each.
        let lin = Sampler::linear();
        let got = r(sample(&t, &lin, [1.0, 0.0, 1.0 + 1e-7, 0.0], [0; 3], L0));
        assert!((got - 2.0).abs() < 1e-6, "{got}");
        // At the cube corner (1, 1, 1): face +Z (tie), taps on +Z (4), +Y (2),
        // +X (0) and the synthesized corner (their mean, 2): 0.25·8.
        assert_eq!(r(sample(&t, &lin, [1.0, 1.0, 1.0, 0.0], [0; 3], L0)), 2.0);
        // A point tap exactly at s = t = 1 reads the face's corner texel.
        assert_eq!(r(sample(&t, &pt, [1.0, -1.0, 1.0, 0.0], [0; 3], L0)), 4.0);
        // Offsets and address modes do not apply to cubes.
        let wrap = lin.with_address(AddressMode::Border);
        assert_eq!(
            r(sample(&t, &wrap, [0.0, 0.0, 1.0, 0.0], [5, 5, 0], L0)),
            4.0
        );
    }

    #[test]
    fn denormals_flush_on_sampling_only() {
        let t = [[f32::from_bits(0x8000_0001), 1e-30, 0.0, 0.0]];
        let tex = Texture::from_f32(TextureDesc::tex2d(Format::Rgba32Float, 1, 1), &t).unwrap();
        let got = sample(&tex, &Sampler::point(), [0.5; 4], [0; 3], L0);
        assert_eq!(got, [0x8000_0000, 1e-30f32.to_bits(), 0, 0]);
        // Blending two normals can give a denormal (1.2e-38 / 2): flushed,
        // keeping the sign.
        for (v, want) in [(1.2e-38f32, 0u32), (-1.2e-38, 0x8000_0000)] {
            let t = [[v, 0.0, 0.0, 0.0], [-0.0, 0.0, 0.0, 0.0]];
            let tex = Texture::from_f32(TextureDesc::tex1d(Format::R32Float, 2), &t).unwrap();
            let got = sample(&tex, &Sampler::linear(), [0.5; 4], [0; 3], L0);
            assert_eq!(got[0], want, "{v}");
        }
    }

    #[test]
    fn integer_formats_read_the_nearest_texel_raw() {
        let t = [[7u32, 0, 0, 0], [0xFFFF_FFFF, 0, 0, 0]];
        let tex = Texture::from_lanes(TextureDesc::tex1d(Format::R32Uint, 2), &t).unwrap();
        let got = sample(&tex, &Sampler::linear(), [0.75; 4], [0; 3], L0);
        assert_eq!(got, [0xFFFF_FFFF, 0, 0, 1]);
        let smp = cmp_sampler(ComparisonFunc::Always, Filter::Linear);
        assert_eq!(sample_c(&tex, &smp, [0.75; 4], [0; 3], 0.0, L0), [0; 4]);
    }

    #[test]
    fn lod_query_returns_clamped_and_unclamped() {
        let t = Texture::from_bytes(
            TextureDesc::tex2d(Format::R8Unorm, 8, 8).with_mips(0),
            &[0; 85],
        )
        .unwrap();
        let smp = Sampler {
            mip_lod_bias: 0.5,
            max_lod: 2.0,
            ..Sampler::linear()
        };
        // 16 texels per pixel on u: log2 16 = 4, + 0.5 bias.
        let got = f(calc_lod(&t, &smp, [0.5; 4], [2.0, 0.0, 0.0], [0.0; 3]));
        assert_eq!(got, [2.0, 4.5, 0.0, 0.0]);
        // Magnified: negative unclamped, clamped to level 0; −∞ for zero
        // gradients.
        let got = f(calc_lod(
            &t,
            &Sampler::linear(),
            [0.5; 4],
            [1.0 / 32.0, 0.0, 0.0],
            [0.0; 3],
        ));
        assert_eq!(got, [0.0, -2.0, 0.0, 0.0]);
        let got = f(calc_lod(
            &t,
            &Sampler::linear(),
            [0.5; 4],
            [0.0; 3],
            [0.0; 3],
        ));
        assert_eq!(got, [0.0, f32::NEG_INFINITY, 0.0, 0.0]);
        // Past the chain: clamped to the last level (3).
        let got = f(calc_lod(
            &t,
            &Sampler::linear(),
            [0.5; 4],
            [0.0; 3],
            [0.0, 64.0, 0.0],
        ));
        assert_eq!(got, [3.0, 9.0, 0.0, 0.0]);
        // Cubes measure gradients on the face: at the +Z centre of an 8x8
        // cube, dx = 0.5 moves s by 0.25, i.e. 2 texels: LOD 1.
        let cube = Texture::zeroed(TextureDesc::cube(Format::R8Unorm, 8).with_mips(0)).unwrap();
        let got = f(calc_lod(
            &cube,
            &Sampler::linear(),
            [0.0, 0.0, 1.0, 0.0],
            [0.5, 0.0, 0.0],
            [0.0; 3],
        ));
        assert_eq!(got, [1.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn invalid_inputs_never_panic() {
        let weird = crate::vm::texture::AWKWARD_F32;
        let textures = [
            depth(Format::D16Unorm),
            cube(),
            Texture::from_f32(
                TextureDesc::cube_array(Format::Rgba16Float, 1, 1),
                &[[1.0; 4]; 6],
            )
            .unwrap(),
            Texture::from_f32(TextureDesc::tex3d(Format::Rg8Unorm, 1, 1, 1), &[[1.0; 4]]).unwrap(),
            Texture::from_f32(TextureDesc::buffer(Format::R32Float, 1), &[[1.0; 4]]).unwrap(),
        ];
        let mut smp = Sampler::linear();
        for (i, &a) in weird.iter().enumerate() {
            let b = weird[(i + 3) % weird.len()];
            smp.min_lod = b;
            smp.max_lod = a;
            smp.mip_lod_bias = b;
            for mode in [
                AddressMode::Wrap,
                AddressMode::Mirror,
                AddressMode::Border,
                AddressMode::MirrorOnce,
            ] {
                let smp = smp.with_address(mode);
                for t in &textures {
                    let c = [a, b, a, b];
                    let off = [i32::MAX, i32::MIN, 7];
                    let grad = Lod::FromGradients {
                        ddx: [a; 3],
                        ddy: [b; 3],
                        bias: a,
                    };
                    let _ = sample(t, &smp, c, off, grad);
                    let _ = sample(t, &smp, c, off, Lod::Explicit(b));
                    let _ = sample_c(t, &smp, c, off, a, Lod::Zero);
                    let _ = calc_lod(t, &smp, c, [a; 3], [b; 3]);
                }
            }
        }
    }

    /// 8x8 r32_float, full chain: level 0 texel (x, y) = x, the smaller
    /// levels 100 (so reading them shows).
    fn columns() -> Texture {
        let mut reds: Vec<f32> = (0..64).map(|i| (i % 8) as f32).collect();
        reds.extend(std::iter::repeat_n(100.0, 16 + 4 + 1));
        mip_chain(Format::R32Float, 8, 8, 0, &reds)
    }

    #[test]
    fn anisotropic_footprint_averages_probes_along_the_major_axis() {
        let t = columns();
        // ddx 4 texels along u, ddy 1 texel along v: ratio 4.
        let lod = Lod::FromGradients {
            ddx: [0.5, 0.0, 0.0],
            ddy: [0.0, 0.125, 0.0],
            bias: 0.0,
        };
        let c = [0.5, 0.5625, 0.0, 0.0];
        let aniso = |n: u32, reduction: Reduction| Sampler {
            max_anisotropy: Some(n),
            reduction,
            ..Sampler::linear()
        };
        // Trilinear: LOD log2(4) = 2, level 2 (all 100).
        assert_eq!(r(sample(&t, &Sampler::linear(), c, [0; 3], lod)), 100.0);
        // N = 4 probes at 4 + (-1.5, -0.5, 0.5, 1.5) texels, each at LOD
        // log2(4 / 4) = 0 on a texel centre: columns 2..5, mean 3.5.
        let four = aniso(16, Reduction::Standard);
        assert_eq!(r(sample(&t, &four, c, [0; 3], lod)), 3.5);
        assert_eq!(
            r(sample(&t, &aniso(16, Reduction::Minimum), c, [0; 3], lod)),
            2.0
        );
        assert_eq!(
            r(sample(&t, &aniso(16, Reduction::Maximum), c, [0; 3], lod)),
            5.0
        );
        // MaxAnisotropy 1: the trilinear result.
        assert_eq!(
            r(sample(&t, &aniso(1, Reduction::Standard), c, [0; 3], lod)),
            100.0
        );
        // An isotropic footprint: trilinear whatever MaxAnisotropy.
        let iso = Lod::FromGradients {
            ddx: [0.5, 0.0, 0.0],
            ddy: [0.0, 0.5, 0.0],
            bias: 0.0,
        };
        assert_eq!(r(sample(&t, &four, c, [0; 3], iso)), 100.0);
    }

    #[test]
    fn min_max_reduction_leaves_out_zero_weights() {
        let t = columns();
        // u·8 − 0.5 = 2.25: columns 2 (.75) and 3 (.25); v on a row centre.
        let c = [0.34375, 0.0625, 0.0, 0.0];
        let red = |reduction| Sampler {
            reduction,
            ..Sampler::linear()
        };
        assert_eq!(r(sample(&t, &red(Reduction::Minimum), c, [0; 3], L0)), 2.0);
        assert_eq!(r(sample(&t, &red(Reduction::Maximum), c, [0; 3], L0)), 3.0);
        assert_eq!(
            r(sample(&t, &red(Reduction::Standard), c, [0; 3], L0)),
            2.25
        );
        // LOD 0.5 blends level 1 (100): min keeps 2, max takes 100.
        let half = Lod::Explicit(0.5);
        assert_eq!(
            r(sample(&t, &red(Reduction::Minimum), c, [0; 3], half)),
            2.0
        );
        assert_eq!(
            r(sample(&t, &red(Reduction::Maximum), c, [0; 3], half)),
            100.0
        );
    }
}
