//! `gather4`, `gather4_po`, `gather4_c`, `gather4_po_c`: the four texels a
//! bilinear filter would read, unfiltered.
//!
//! With i0 = floor(u·W − 0.5) + offset.u and j0 = floor(v·H − 0.5) +
//! offset.v (texel-space positions snapped to 8 fractional bits first), the
//! result is x = (i0, j1), y = (i1, j1), z = (i1, j0), w = (i0, j0) where
//! i1 = i0 + 1, j1 = j0 + 1 — counter-clockwise from the lower left. Each
//! tap goes through the sampler's address mode (border taps read the border
//! colour); nothing else in the sampler matters, and the most detailed mip
//! (level 0) is always read. Valid on 2D, 2D array, cube and cube array
//! textures; anything else returns zeros.

use super::desc::Dimension;
use super::filter::{self, Geom, Loc};
use super::format::flush_denorm;
use super::sample::{compare_reference, compare_value};
use super::sampler::Sampler;
use super::texture::Texture;

/// `gather4`: component `channel` (0..3, the sampler operand's component
/// select) of each texel. Values come back with their bits unaltered
/// (denormals included), except a cube corner's synthesized texel, which
/// is the average of the other three.
pub fn gather4(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 2],
    channel: u32,
) -> [u32; 4] {
    let Some(locs) = taps(tex, smp, coord, offset) else {
        return [0; 4];
    };
    let c = (channel & 3) as usize;
    let raw = locs.map(|loc| filter::lanes_at(tex, smp, loc)[c]);
    with_corner(&locs, raw, |known| {
        // Mean of the three texels that meet at the corner, in the
        // format's own arithmetic.
        let n = known.len() as u64;
        if tex.format().is_integer() {
            if tex.format().kind() == super::format::NumericKind::Sint {
                (known.iter().map(|&v| i64::from(v as i32)).sum::<i64>() / n as i64) as i32 as u32
            } else {
                (known.iter().map(|&v| u64::from(v)).sum::<u64>() / n) as u32
            }
        } else {
            let sum: f64 = known.iter().map(|&v| f64::from(f32::from_bits(v))).sum();
            flush_denorm((sum / n as f64) as f32).to_bits()
        }
    })
}

/// `gather4_po`: `gather4` with a programmable offset. Only the low 6 bits
/// of each offset count, as a signed value in [−32, 31].
pub fn gather4_po(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 2],
    channel: u32,
) -> [u32; 4] {
    gather4(tex, smp, coord, offset.map(low6), channel)
}

/// `gather4_c`: each texel's component `channel` compared as
/// `reference <smp.comparison> texel` (reference and texel handled as in
/// `sample_c`), giving 1.0 or 0.0 per lane; no filtering. A cube corner's
/// synthesized result is the mean of the other three results. Integer
/// formats return zeros.
pub fn gather4_c(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 2],
    channel: u32,
    reference: f32,
) -> [u32; 4] {
    let Some(locs) = taps(tex, smp, coord, offset) else {
        return [0; 4];
    };
    if tex.format().is_integer() {
        return [0; 4];
    }
    let reference = compare_reference(tex.format(), reference);
    let c = channel as usize;
    let raw = locs.map(|loc| (compare_value(tex, smp, loc, c, reference) as f32).to_bits());
    with_corner(&locs, raw, |known| {
        let sum: f32 = known.iter().map(|&v| f32::from_bits(v)).sum();
        (sum / known.len() as f32).to_bits()
    })
}

/// `gather4_po_c`: `gather4_c` with a programmable offset (low 6 bits).
pub fn gather4_po_c(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 2],
    channel: u32,
    reference: f32,
) -> [u32; 4] {
    gather4_c(tex, smp, coord, offset.map(low6), channel, reference)
}

/// Sign-extends the low 6 bits.
pub(super) fn low6(v: i32) -> i32 {
    (v << 26) >> 26
}

/// The four tap locations in result order.
pub(super) fn taps(
    tex: &Texture,
    smp: &Sampler,
    coord: [f32; 4],
    offset: [i32; 2],
) -> Option<[Loc; 4]> {
    let gatherable = matches!(
        tex.dimension(),
        Dimension::Tex2D | Dimension::Tex2DArray | Dimension::Cube | Dimension::CubeArray
    );
    if !gatherable {
        return None;
    }
    let geom = Geom::new(tex, coord)?;
    let size = tex.level_size(0)?;
    // Immediate offsets are not allowed on cubes; programmable ones are
    // 2D-only. Ignore them rather than read off the face.
    let offset = if geom.cube.is_some() { [0, 0] } else { offset };
    let (i0, _) = super::address::linear_index(geom.texel_pos(smp, 0, size[0]), offset[0]);
    let (j0, _) = super::address::linear_index(geom.texel_pos(smp, 1, size[1]), offset[1]);
    let at = |i: i64, j: i64| filter::locate(tex, smp, &geom, 0, [i, j, 0]);
    Some([
        at(i0, j0 + 1),
        at(i0 + 1, j0 + 1),
        at(i0 + 1, j0),
        at(i0, j0),
    ])
}

/// Replaces a cube-corner lane by `mean` of the other three.
fn with_corner(locs: &[Loc; 4], mut lanes: [u32; 4], mean: impl Fn(&[u32]) -> u32) -> [u32; 4] {
    if let Some(k) = locs.iter().position(|&l| l == Loc::Corner) {
        let mut known = [0u32; 3];
        let mut n = 0;
        for (i, &v) in lanes.iter().enumerate() {
            if i != k && n < 3 {
                known[n] = v;
                n += 1;
            }
        }
        lanes[k] = mean(&known[..n]);
    }
    lanes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{AddressMode, ComparisonFunc, Format, TextureDesc};

    /// W x H R32_UINT texture whose texel (x, y) holds 10·y + x, so a
    /// result names the texels it came from.
    fn grid(w: u32, h: u32) -> Texture {
        let t: Vec<[u32; 4]> = (0..h)
            .flat_map(|y| (0..w).map(move |x| [10 * y + x, 100 + x, 0, 0]))
            .collect();
        Texture::from_lanes(TextureDesc::tex2d(Format::R32Uint, w, h), &t).unwrap()
    }

    fn smp(mode: AddressMode) -> Sampler {
        let mut s = Sampler::point().with_address(mode);
        s.border_color = [f32::from_bits(999), f32::from_bits(998), 0.0, 0.0];
        s
    }

    /// u, v for a texel-space position (x, y) on a W x H texture.
    fn at(x: f32, y: f32, w: f32, h: f32) -> [f32; 4] {
        [x / w, y / h, 0.0, 0.0]
    }

    #[test]
    fn texel_order_is_counter_clockwise_from_lower_left() {
        let t = grid(4, 4);
        // Position (2, 2): u·W − 0.5 = 1.5 → i0 = 1, j0 = 1.
        let got = gather4(
            &t,
            &smp(AddressMode::Clamp),
            at(2.0, 2.0, 4.0, 4.0),
            [0, 0],
            0,
        );
        assert_eq!(got, [21, 22, 12, 11]);
        // Missing components read their defaults (0, and 1 for the alpha
        // of an integer format).
        let got = gather4(
            &t,
            &smp(AddressMode::Clamp),
            at(2.0, 2.0, 4.0, 4.0),
            [0, 0],
            1,
        );
        assert_eq!(got, [0; 4]);
        let got = gather4(
            &t,
            &smp(AddressMode::Clamp),
            at(2.0, 2.0, 4.0, 4.0),
            [0, 0],
            3,
        );
        assert_eq!(got, [1; 4]);
        // Component select reads another stored channel of the same texels.
        let t: Vec<[f32; 4]> = (0..4)
            .map(|i| [i as f32, 10.0 + i as f32, 0.0, 0.0])
            .collect();
        let t = Texture::from_f32(TextureDesc::tex2d(Format::Rg32Float, 2, 2), &t).unwrap();
        let got = gather4(&t, &Sampler::default(), [0.5; 4], [0, 0], 1);
        assert_eq!(got, [12.0f32, 13.0, 11.0, 10.0].map(f32::to_bits));
    }

    #[test]
    fn texel_boundaries_and_snapping() {
        let t = grid(4, 4);
        let s = smp(AddressMode::Clamp);
        // Exactly on a texel centre (x = 1.5): i0 = 1, not 0.
        assert_eq!(
            gather4(&t, &s, at(1.5, 1.5, 4.0, 4.0), [0, 0], 0),
            [21, 22, 12, 11]
        );
        // 1/1024 texel before the centre snaps onto it …
        let e = 1.0 / 1024.0;
        assert_eq!(
            gather4(&t, &s, at(1.5 - e, 1.5 - e, 4.0, 4.0), [0, 0], 0),
            [21, 22, 12, 11]
        );
        // … 1/256 before it is the previous quad.
        let e = 1.0 / 256.0;
        assert_eq!(
            gather4(&t, &s, at(1.5 - e, 1.5, 4.0, 4.0), [0, 0], 0),
            [20, 21, 11, 10]
        );
    }

    #[test]
    fn immediate_offsets_shift_the_quad() {
        let t = grid(4, 4);
        let s = smp(AddressMode::Clamp);
        let c = at(1.5, 1.5, 4.0, 4.0); // quad (1..2, 1..2)
        assert_eq!(gather4(&t, &s, c, [1, -1], 0), [12, 13, 3, 2]);
        assert_eq!(gather4(&t, &s, c, [-8, 7], 0), [30, 30, 30, 30]);
    }

    #[test]
    fn address_modes_at_the_edges() {
        let t = grid(3, 2); // non-power-of-two
        // Position (0.25, 0.25): i0 = −1, j0 = −1.
        let near = at(0.25, 0.25, 3.0, 2.0);
        // Far edge of a 3-wide texture: (2.75, 1.75) → i0 = 2, j0 = 1.
        let far = at(2.75, 1.75, 3.0, 2.0);
        let cases = [
            (near, AddressMode::Clamp, 0, [0, 0, 0, 0]),
            (near, AddressMode::Wrap, 0, [2, 0, 10, 12]),
            (near, AddressMode::Mirror, 0, [0, 0, 0, 0]),
            (near, AddressMode::Border, 0, [999, 0, 999, 999]),
            (near, AddressMode::Border, 1, [998, 0, 998, 998]),
            (far, AddressMode::Wrap, 0, [2, 0, 10, 12]),
            (far, AddressMode::Clamp, 0, [12, 12, 12, 12]),
            (far, AddressMode::MirrorOnce, 0, [12, 12, 12, 12]),
        ];
        for (coord, mode, channel, want) in cases {
            assert_eq!(
                gather4(&t, &smp(mode), coord, [0, 0], channel),
                want,
                "{coord:?} {mode:?} channel {channel}"
            );
        }
        // Per-axis modes: wrap in u, border in v.
        let mut s = smp(AddressMode::Wrap);
        s.address[1] = AddressMode::Border;
        assert_eq!(gather4(&t, &s, far, [0, 0], 0), [999, 999, 10, 12]);
    }

    #[test]
    fn programmable_offsets_use_six_bits() {
        let t = grid(4, 4);
        let s = smp(AddressMode::Wrap);
        let c = at(1.5, 1.5, 4.0, 4.0);
        // 9 is beyond the immediate range but fine here: 1 + 9 = 10 ≡ 2.
        assert_eq!(gather4_po(&t, &s, c, [9, 0], 0), [22, 23, 13, 12]);
        assert_eq!(gather4_po(&t, &s, c, [31, 0], 0), [20, 21, 11, 10]);
        assert_eq!(gather4(&t, &s, c, [9, 0], 0), [22, 23, 13, 12]);
        // Under clamp the wrap of the offset itself shows: 32 is −32 (left
        // edge), −33 is 31 (right edge), 64 is 0.
        let s = smp(AddressMode::Clamp);
        assert_eq!(gather4_po(&t, &s, c, [32, 0], 0), [20, 20, 10, 10]);
        assert_eq!(gather4_po(&t, &s, c, [-33, 0], 0), [23, 23, 13, 13]);
        assert_eq!(gather4_po(&t, &s, c, [0, 64], 0), [21, 22, 12, 11]);
    }

    #[test]
    fn gather_compare_per_texel() {
        // 2x2 depths: (0,0)=0.2, (1,0)=0.4, (0,1)=0.6, (1,1)=0.8.
        let t = [0.2, 0.4, 0.6, 0.8].map(|d| [d, 0.0, 0.0, 0.0]);
        let t = Texture::from_f32(TextureDesc::tex2d(Format::D32Float, 2, 2), &t).unwrap();
        let c = at(1.0, 1.0, 2.0, 2.0); // quad of all four texels
        let one = 1.0f32.to_bits();
        let want = [
            (ComparisonFunc::Less, [one, one, 0, 0]),
            (ComparisonFunc::GreaterEqual, [0, 0, one, one]),
            (ComparisonFunc::Equal, [0, 0, 0, 0]),
            (ComparisonFunc::NotEqual, [one; 4]),
        ];
        for (func, w) in want {
            let s = Sampler {
                comparison: func,
                ..smp(AddressMode::Clamp)
            };
            assert_eq!(gather4_c(&t, &s, c, [0, 0], 0, 0.5), w, "{func:?}");
        }
        let s = Sampler {
            comparison: ComparisonFunc::Equal,
            ..smp(AddressMode::Clamp)
        };
        // At a texel depth; then with an offset (po) that wraps the quad.
        assert_eq!(gather4_c(&t, &s, c, [0, 0], 0, 0.4), [0, 0, one, 0]);
        let s = Sampler {
            address: [AddressMode::Wrap; 3],
            ..s
        };
        assert_eq!(gather4_po_c(&t, &s, c, [65, 0], 0, 0.4), [0, 0, 0, one]);
        let s = Sampler {
            address: [AddressMode::Clamp; 3],
            ..s
        };
        // 63 is −1: the quad moves left onto the clamped column 0.
        assert_eq!(gather4_po_c(&t, &s, c, [63, 0], 0, 0.2), [0, 0, one, one]);
        // Border taps compare the border colour: 0.5 < 1.0 (default).
        let s = Sampler {
            comparison: ComparisonFunc::Less,
            ..Sampler::default().with_address(AddressMode::Border)
        };
        assert_eq!(
            gather4_c(&t, &s, at(0.0, 0.0, 2.0, 2.0), [0, 0], 0, 0.5),
            [one, 0, one, one]
        );
    }

    #[test]
    fn gather_reads_level_zero_and_keeps_bits() {
        // Two levels; MinLOD would push sampling to level 1, gather ignores it.
        let denorm = f32::from_bits(3);
        let t = [[denorm, 0.0, 0.0, 0.0], [5.0, 0.0, 0.0, 0.0]];
        let tex = Texture::from_f32(
            TextureDesc::tex2d(Format::R32Float, 1, 1).with_mips(1),
            &t[..1],
        )
        .unwrap();
        let s = Sampler {
            min_lod: 5.0,
            ..Sampler::default()
        };
        assert_eq!(gather4(&tex, &s, [0.5; 4], [0, 0], 0), [3; 4]);
        let desc = TextureDesc::tex2d(Format::R32Float, 2, 1).with_mips(2);
        let t = [
            [1.0, 0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0, 0.0],
            [9.0, 0.0, 0.0, 0.0],
        ];
        let tex = Texture::from_f32(desc, &t).unwrap();
        let got = gather4(&tex, &s, [0.5; 4], [0, 0], 0);
        assert_eq!(got, [1.0f32, 2.0, 2.0, 1.0].map(f32::to_bits));
    }

    #[test]
    fn cube_gather_crosses_faces_and_synthesizes_corners() {
        // 2x2 faces; texel value = 10·face + (2·y + x).
        let t: Vec<[f32; 4]> = (0..24)
            .map(|i| [(10 * (i / 4) + i % 4) as f32, 0.0, 0.0, 0.0])
            .collect();
        let tex = Texture::from_f32(TextureDesc::cube(Format::R32Float, 2), &t).unwrap();
        let s = Sampler::default();
        let g =
            |d: [f32; 3]| gather4(&tex, &s, [d[0], d[1], d[2], 0.0], [0, 0], 0).map(f32::from_bits);
        // +Z centre: the face's own 2x2 quad.
        assert_eq!(g([0.0, 0.0, 1.0]), [42.0, 43.0, 41.0, 40.0]);
        // +Z right edge, centre row (s = 1, t = 0.5): i0 = 1, j0 = 0;
        // i1 = 2 lies on +X column 0 (rows kept).
        assert_eq!(g([1.0, 0.0, 1.0 + 1e-7]), [43.0, 2.0, 0.0, 41.0]);
        // Corner (1, 1, 1) on +Z (s = 1, t = 0): i0 = 1, j0 = −1. x = +Z's
        // (1, 0); y crosses to +X's (0, 0); w crosses the top edge to +Y's
        // (1, 1); z is off both edges: the mean of the other three.
        let got = g([1.0, 1.0, 1.0]);
        assert_eq!([got[0], got[1], got[3]], [41.0, 0.0, 23.0]);
        assert_eq!(got[2], (41.0 + 0.0 + 23.0) / 3.0);
        // gather4_c: the corner's result is the mean of the other three
        // results: 10 < 41 and 10 < 23 pass, 10 < 0 fails.
        let s = Sampler {
            comparison: crate::vm::texture::ComparisonFunc::Less,
            ..s
        };
        let got = gather4_c(&tex, &s, [1.0, 1.0, 1.0, 0.0], [0, 0], 0, 10.0);
        assert_eq!(got.map(f32::from_bits), [1.0, 0.0, 2.0 / 3.0, 1.0]);
    }

    #[test]
    fn non_gatherable_dimensions_return_zero() {
        let t = Texture::from_f32(TextureDesc::tex1d(Format::R32Float, 2), &[[1.0; 4]; 2]).unwrap();
        assert_eq!(
            gather4(&t, &Sampler::default(), [0.5; 4], [0, 0], 0),
            [0; 4]
        );
        let t =
            Texture::from_f32(TextureDesc::tex3d(Format::R32Float, 1, 1, 1), &[[1.0; 4]]).unwrap();
        assert_eq!(
            gather4_c(&t, &Sampler::default(), [0.5; 4], [0, 0], 0, 0.0),
            [0; 4]
        );
        for v in [f32::NAN, f32::INFINITY, -f32::MAX] {
            let _ = gather4_po(
                &grid(3, 3),
                &smp(AddressMode::Mirror),
                [v; 4],
                [i32::MIN, i32::MAX],
                7,
            );
        }
    }
}
