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
#[path = "sample_tests.rs"]
mod tests;
