//! What one texture read did, for the debugger: the LOD chosen, the texels
//! read with their weights (or comparison results) and the result.
//!
//! This is a separate entry point, not a mode of the sampling path, so the
//! normal path pays nothing for it. It does not re-derive anything: the
//! footprint, the mip plan, the gather taps, the load address and the
//! comparisons come from the very functions the sampling path calls, and
//! the result is the sampling path's own return value.

use super::filter::{self, Geom, Loc};
use super::gather;
use super::load;
use super::lod::{self, Lod};
use super::sample::{self, compare_reference, compare_value};
use super::sampler::{Filter, Sampler};
use super::texture::Texture;

/// Which family of texture instruction a detail describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchKind {
    /// `sample`, `sample_l`, `sample_b`, `sample_d` (and `_cl` forms).
    Sample,
    /// `sample_c`, `sample_c_lz`: percentage-closer filtering.
    SampleCompare,
    /// `gather4`, `gather4_po`.
    Gather,
    /// `gather4_c`, `gather4_po_c`.
    GatherCompare,
    /// `ld`: one unfiltered texel.
    Load,
}

/// Where a tap read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TapSource {
    /// A texel of the texture (cube faces are layers). `in_bounds` is
    /// false for an `ld` address outside the texture, which reads the
    /// out-of-bounds value.
    Texel {
        layer: u32,
        level: u32,
        xyz: [u32; 3],
        in_bounds: bool,
    },
    /// Outside the texture under the border address mode: the border colour.
    Border,
    /// The missing fourth texel at a cube corner, the mean of the other three.
    CubeCorner,
}

impl TapSource {
    fn of(loc: Loc) -> TapSource {
        match loc {
            Loc::Texel { layer, level, xyz } => TapSource::Texel {
                layer,
                level,
                xyz,
                in_bounds: true,
            },
            Loc::Border => TapSource::Border,
            Loc::Corner => TapSource::CubeCorner,
        }
    }
}

/// One texel the read took into account.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FetchTap {
    pub source: TapSource,
    /// The stored value as the four decoded lanes a register would receive
    /// (a border tap: the border colour's bits; a cube corner: zeros, its
    /// value being the mean of the others).
    pub value: [u32; 4],
    /// The filter weight: the footprint's weight times its mip level's
    /// weight. `None` for gather taps, which are not filtered.
    pub weight: Option<f64>,
    /// Comparison operations: 1.0 when `reference <func> texel` passed,
    /// else 0.0; `None` for a cube corner (the mean of the others' results)
    /// and for the other operations.
    pub compared: Option<f64>,
}

/// How the LOD was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct LodDetail {
    /// The instruction's LOD source (its gradients, explicit LOD or zero).
    pub source: Lod,
    /// After the instruction's bias, MipLODBias and [MinLOD, MaxLOD]: what
    /// decides magnification (a `_cl` clamp is applied on top).
    pub clamped: f64,
    /// A `_cl` instruction's per-sample minimum-LOD clamp.
    pub min_lod_clamp: Option<f32>,
    /// Held to 8 fractional bits and to the mip range: the LOD the levels
    /// come from.
    pub lod: f64,
    pub magnify: bool,
    /// The levels read and their weights.
    pub levels: Vec<(u32, f64)>,
}

/// One lane's texture read.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchDetail {
    pub kind: FetchKind,
    /// The address register's lanes as read: floats (bits) for sampling
    /// and gather, unsigned integers for `ld`.
    pub coord: [u32; 4],
    /// Texel offsets applied (`aoffimmi`, or a `_po` operand's low 6 bits).
    pub offset: [i32; 3],
    pub lod: Option<LodDetail>,
    /// The comparison reference as compared (denormals flushed, saturated
    /// for unorm formats).
    pub reference: Option<f32>,
    /// The component a gather reads.
    pub channel: Option<u32>,
    pub taps: Vec<FetchTap>,
    /// The texture unit's result, before the resource swizzle.
    pub result: [u32; 4],
    /// Why the taps are missing or incomplete, when they are.
    pub note: Option<&'static str>,
}

impl FetchDetail {
    fn new(kind: FetchKind, coord: [u32; 4], offset: [i32; 3], result: [u32; 4]) -> FetchDetail {
        FetchDetail {
            kind,
            coord,
            offset,
            lod: None,
            reference: None,
            channel: None,
            taps: Vec::new(),
            result,
            note: None,
        }
    }
}

/// Explains [`sample::sample_cl`] (`reference: None`) or
/// [`sample::sample_c_cl`] (`Some`) with the same arguments.
pub fn explain_sample(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 3],
    lod: Lod,
    min_lod_clamp: f32,
    reference: Option<f32>,
) -> FetchDetail {
    let (kind, result) = match reference {
        None => (
            FetchKind::Sample,
            sample::sample_cl(tex, smp, coord, offset, lod, min_lod_clamp),
        ),
        Some(r) => (
            FetchKind::SampleCompare,
            sample::sample_c_cl(tex, smp, coord, offset, r, lod, min_lod_clamp),
        ),
    };
    let mut d = FetchDetail::new(kind, coord.map(f32::to_bits), offset, result);
    let compared_ref = reference.map(|r| compare_reference(tex.format(), r));
    d.reference = compared_ref;
    let Some(geom) = Geom::new(tex, coord) else {
        d.note = Some("this texture cannot be sampled: zeros");
        return d;
    };
    if lod::clamp_leaves_no_level(tex, min_lod_clamp) {
        d.note = Some("the minimum-LOD clamp is past the last level: out of bounds");
        return d;
    }
    let integer = tex.format().is_integer();
    if integer && reference.is_some() {
        d.note = Some("comparisons on integer formats return zeros");
        return d;
    }
    let plan = lod::plan(tex, smp, &geom, &lod, min_lod_clamp, integer);
    d.lod = Some(LodDetail {
        source: lod,
        clamped: lod::sampler_lod(tex, smp, &geom, &lod),
        min_lod_clamp: (min_lod_clamp != lod::NO_LOD_CLAMP).then_some(min_lod_clamp),
        lod: plan.lod,
        magnify: plan.magnify,
        levels: plan.levels().to_vec(),
    });
    if smp.max_anisotropy.is_some()
        && matches!(lod, Lod::FromGradients { .. })
        && geom.cube.is_none()
        && !integer
    {
        d.note = Some("anisotropic filter: its samples along the gradient are not listed");
        return d;
    }
    // The levels and footprints the filter sums (`sample::blend_levels`).
    let filter = if integer {
        Filter::Point
    } else if plan.magnify {
        smp.mag_filter
    } else {
        smp.min_filter
    };
    let levels: &[(u32, f64)] = if integer {
        &plan.levels()[..1]
    } else {
        plan.levels()
    };
    for &(level, level_weight) in levels {
        let fp = filter::footprint(tex, smp, &geom, level, filter, offset);
        for tap in fp.taps() {
            d.taps.push(FetchTap {
                source: TapSource::of(tap.loc),
                value: filter::lanes_at(tex, smp, tap.loc),
                weight: Some(level_weight * tap.weight),
                compared: match compared_ref {
                    Some(r) if tap.loc != Loc::Corner => {
                        Some(compare_value(tex, smp, tap.loc, 0, r))
                    }
                    _ => None,
                },
            });
        }
        if integer {
            // Unfilterable: the nearest texel alone.
            d.taps.truncate(1);
            d.note = Some("integer format: the nearest texel of the nearest mip, raw");
        }
    }
    d
}

/// Explains [`gather::gather4`] / [`gather::gather4_c`] (`reference`) and,
/// with `programmable`, their `_po` forms, with the same arguments. The
/// taps are in result order (x, y, z, w).
pub fn explain_gather(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 2],
    programmable: bool,
    channel: u32,
    reference: Option<f32>,
) -> FetchDetail {
    let result = match (programmable, reference) {
        (false, None) => gather::gather4(tex, smp, coord, offset, channel),
        (true, None) => gather::gather4_po(tex, smp, coord, offset, channel),
        (false, Some(r)) => gather::gather4_c(tex, smp, coord, offset, channel, r),
        (true, Some(r)) => gather::gather4_po_c(tex, smp, coord, offset, channel, r),
    };
    let kind = if reference.is_some() {
        FetchKind::GatherCompare
    } else {
        FetchKind::Gather
    };
    let offset = if programmable {
        offset.map(gather::low6)
    } else {
        offset
    };
    let mut d = FetchDetail::new(
        kind,
        coord.map(f32::to_bits),
        [offset[0], offset[1], 0],
        result,
    );
    d.channel = Some(channel & 3);
    let compared_ref = reference.map(|r| compare_reference(tex.format(), r));
    d.reference = compared_ref;
    let Some(locs) = gather::taps(tex, smp, coord, offset) else {
        d.note = Some("gather reads 2D, 2D array and cube textures only: zeros");
        return d;
    };
    if reference.is_some() && tex.format().is_integer() {
        d.note = Some("comparisons on integer formats return zeros");
        return d;
    }
    let c = (channel & 3) as usize;
    d.taps = locs
        .iter()
        .map(|&loc| FetchTap {
            source: TapSource::of(loc),
            value: filter::lanes_at(tex, smp, loc),
            weight: None,
            compared: match compared_ref {
                Some(r) if loc != Loc::Corner => Some(compare_value(tex, smp, loc, c, r)),
                _ => None,
            },
        })
        .collect();
    d
}

/// Explains [`load::ld`] with the same arguments.
pub fn explain_ld(tex: &Texture, coord: [u32; 4], offset: [i32; 3]) -> FetchDetail {
    let result = load::ld(tex, coord, offset);
    let mut d = FetchDetail::new(FetchKind::Load, coord, offset, result);
    match load::ld_texel(tex, coord, offset) {
        Some((layer, level, xyz)) => d.taps.push(FetchTap {
            source: TapSource::Texel {
                layer,
                level,
                xyz,
                in_bounds: tex.texel(layer, level, xyz, 0).is_some(),
            },
            value: result,
            weight: None,
            compared: None,
        }),
        None => d.note = Some("ld cannot read this dimension: zeros"),
    }
    d
}

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
