//! The filter core shared by sampling and gather: how a coordinate vector
//! splits into addressed axes and an array layer, which texels (taps) a
//! point or linear filter reads at one mip level and with what weights, and
//! the weighted sum over them.

use super::address;
use super::cube::{self, CubeCoord, CubeTexel};
use super::desc::Dimension;
use super::format::flush_denorm;
use super::sampler::{AddressMode, Filter, Reduction, Sampler};
use super::texture::Texture;

/// A sampling coordinate taken apart for one texture.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geom {
    /// Addressed axes: 1 (1D), 2 (2D, cube faces) or 3 (3D).
    pub axes: usize,
    /// Normalized coordinate per axis (cubes: the face's s, t).
    pub coord: [f64; 3],
    /// Array layer; for cubes the layer of the cube's +X face.
    pub layer: u32,
    pub cube: Option<CubeCoord>,
}

impl Geom {
    /// Coordinate layout per dimension (as in the DXBC address register):
    /// 1D `u`; 1D array `u, layer`; 2D `u, v`; 2D array `u, v, layer`; 3D
    /// `u, v, w`; cube `x, y, z`; cube array `x, y, z, cube`. Buffers and
    /// multisampled textures cannot be sampled: `None`.
    pub(crate) fn new(tex: &Texture, c: [f32; 4]) -> Option<Geom> {
        let plain = |axes: usize, layer: u32| Geom {
            axes,
            coord: [c[0], c[1], c[2]].map(f64::from),
            layer,
            cube: None,
        };
        let layers = tex.layers();
        Some(match tex.dimension() {
            Dimension::Tex1D => plain(1, 0),
            Dimension::Tex1DArray => plain(1, address::array_layer(c[1], layers)),
            Dimension::Tex2D => plain(2, 0),
            Dimension::Tex2DArray => plain(2, address::array_layer(c[2], layers)),
            Dimension::Tex3D => plain(3, 0),
            Dimension::Cube | Dimension::CubeArray => {
                let cube = cube::project([c[0], c[1], c[2]]);
                let first = if tex.dimension() == Dimension::CubeArray {
                    address::array_layer(c[3], layers / 6) * 6
                } else {
                    0
                };
                Geom {
                    axes: 2,
                    coord: [cube.s, cube.t, 0.0],
                    layer: first,
                    cube: Some(cube),
                }
            }
            Dimension::Buffer | Dimension::Tex2DMS | Dimension::Tex2DMSArray => return None,
        })
    }

    /// Address mode of an axis; cube faces are never wrapped or bordered.
    fn mode(&self, smp: &Sampler, axis: usize) -> AddressMode {
        if self.cube.is_some() {
            AddressMode::Clamp
        } else {
            smp.address[axis]
        }
    }

    /// Snapped texel-space position on `axis` at a level of `size` texels.
    pub(crate) fn texel_pos(&self, smp: &Sampler, axis: usize, size: u32) -> f64 {
        address::texel_pos(self.coord[axis], size, self.mode(smp, axis))
    }
}

/// Where one tap reads from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Loc {
    Texel {
        layer: u32,
        level: u32,
        xyz: [u32; 3],
    },
    /// Outside the texture under the border address mode.
    Border,
    /// The missing fourth texel at a cube corner.
    Corner,
}

/// Resolves integer texel indices at a level through the address modes
/// (or the cube's seamless edges).
pub(crate) fn locate(tex: &Texture, smp: &Sampler, geom: &Geom, level: u32, idx: [i64; 3]) -> Loc {
    let size = tex.level_size(level).unwrap_or([1, 1, 1]);
    if let Some(c) = &geom.cube {
        return match cube::resolve(c.face, idx[0], idx[1], size[0]) {
            CubeTexel::Texel { face, x, y } => Loc::Texel {
                layer: geom.layer + u32::from(face),
                level,
                xyz: [x, y, 0],
            },
            CubeTexel::Corner => Loc::Corner,
        };
    }
    let mut xyz = [0u32; 3];
    for a in 0..geom.axes {
        match address::apply(smp.address[a], idx[a], size[a]) {
            Some(v) => xyz[a] = v,
            None => return Loc::Border,
        }
    }
    Loc::Texel {
        layer: geom.layer,
        level,
        xyz,
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tap {
    pub loc: Loc,
    pub weight: f64,
}

/// Up to 8 taps (trilinear footprint of a 3D texture).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Footprint {
    taps: [Tap; 8],
    len: usize,
}

impl Footprint {
    pub(crate) fn taps(&self) -> &[Tap] {
        &self.taps[..self.len]
    }

    /// Σ weight·value over taps with a non-zero weight (so an infinite or
    /// NaN texel outside the footprint cannot poison the result). A cube
    /// corner tap takes the mean of the other taps, which are the three
    /// texels meeting at that corner.
    pub(crate) fn weighted(&self, mut value: impl FnMut(Loc) -> [f64; 4]) -> [f64; 4] {
        let mut vals = [[0.0f64; 4]; 8];
        let (mut sum, mut n) = ([0.0f64; 4], 0.0);
        for (tap, v) in self.taps().iter().zip(vals.iter_mut()) {
            if tap.loc != Loc::Corner {
                *v = value(tap.loc);
                for c in 0..4 {
                    sum[c] += v[c];
                }
                n += 1.0;
            }
        }
        // −0 is the identity of addition, so a single tap of −0 stays −0.
        let mut acc = [-0.0f64; 4];
        for (tap, v) in self.taps().iter().zip(vals.iter()) {
            if tap.weight == 0.0 {
                continue;
            }
            let v = if tap.loc == Loc::Corner {
                sum.map(|s| s / n)
            } else {
                *v
            };
            for c in 0..4 {
                acc[c] += tap.weight * v[c];
            }
        }
        acc
    }

    /// The component-wise minimum or maximum (`reduction`) of the taps
    /// with a non-zero weight (D3D11.1 min/max filtering: the texels a
    /// filter would weight, without the weights); the weighted sum for
    /// [`Reduction::Standard`]. A cube corner tap is the mean of the other
    /// three, as in [`Footprint::weighted`]. NaN components lose to numbers
    /// (D3D's `min`/`max`).
    pub(crate) fn reduced(
        &self,
        reduction: Reduction,
        mut value: impl FnMut(Loc) -> [f64; 4],
    ) -> [f64; 4] {
        let pick = match reduction {
            Reduction::Standard => return self.weighted(value),
            Reduction::Minimum => f64::min,
            Reduction::Maximum => f64::max,
        };
        // The mean of the non-corner taps, should a corner tap count.
        let (mut sum, mut n) = ([0.0f64; 4], 0.0);
        let needs_corner = self
            .taps()
            .iter()
            .any(|t| t.loc == Loc::Corner && t.weight != 0.0);
        if needs_corner {
            for t in self.taps().iter().filter(|t| t.loc != Loc::Corner) {
                let v = value(t.loc);
                for c in 0..4 {
                    sum[c] += v[c];
                }
                n += 1.0;
            }
        }
        let corner = needs_corner.then(|| sum.map(|s| s / f64::max(n, 1.0)));
        let mut acc: Option<[f64; 4]> = None;
        for tap in self.taps() {
            if tap.weight == 0.0 {
                continue;
            }
            let v = match (tap.loc, corner) {
                (Loc::Corner, Some(mean)) => mean,
                (loc, _) => value(loc),
            };
            acc = Some(match acc {
                None => v,
                Some(a) => [0, 1, 2, 3].map(|c| pick(a[c], v[c])),
            });
        }
        acc.unwrap_or([0.0; 4])
    }
}

/// The taps a point or linear filter reads at one level. Offsets are in
/// texels of that level and do not apply to cubes.
pub(crate) fn footprint(
    tex: &Texture,
    smp: &Sampler,
    geom: &Geom,
    level: u32,
    filter: Filter,
    offset: [i32; 3],
) -> Footprint {
    let size = tex.level_size(level).unwrap_or([1, 1, 1]);
    let offset = if geom.cube.is_some() { [0; 3] } else { offset };
    // Per axis: one (index, weight) for point, two for linear.
    let mut axis = [[(0i64, 1.0f64); 2]; 3];
    let mut count = [1usize; 3];
    for a in 0..geom.axes {
        let pos = geom.texel_pos(smp, a, size[a]);
        match filter {
            Filter::Point => axis[a][0] = (address::point_index(pos, offset[a]), 1.0),
            Filter::Linear => {
                let (i, f) = address::linear_index(pos, offset[a]);
                axis[a] = [(i, 1.0 - f), (i + 1, f)];
                count[a] = 2;
            }
        }
    }
    let blank = Tap {
        loc: Loc::Border,
        weight: 0.0,
    };
    let mut fp = Footprint {
        taps: [blank; 8],
        len: 0,
    };
    for k2 in 0..count[2] {
        for k1 in 0..count[1] {
            for k0 in 0..count[0] {
                let (i, wi) = axis[0][k0];
                let (j, wj) = axis[1][k1];
                let (k, wk) = axis[2][k2];
                let mut loc = locate(tex, smp, geom, level, [i, j, k]);
                if loc == Loc::Corner && filter == Filter::Point {
                    // A point tap at s = t = 1 exactly: no neighbours to
                    // average, so read the face's own corner texel.
                    let last = i64::from(size[0]) - 1;
                    loc = locate(
                        tex,
                        smp,
                        geom,
                        level,
                        [i.clamp(0, last), j.clamp(0, last), 0],
                    );
                }
                fp.taps[fp.len] = Tap {
                    loc,
                    weight: wi * wj * wk,
                };
                fp.len += 1;
            }
        }
    }
    fp
}

/// The decoded lanes at a location (border: the border colour's bits).
pub(crate) fn lanes_at(tex: &Texture, smp: &Sampler, loc: Loc) -> [u32; 4] {
    match loc {
        Loc::Texel { layer, level, xyz } => tex.texel(layer, level, xyz, 0).unwrap_or([0; 4]),
        Loc::Border => smp.border_color.map(f32::to_bits),
        Loc::Corner => [0; 4],
    }
}

/// A tap's value for filtering: float lanes with denormals flushed.
pub(crate) fn filter_value(tex: &Texture, smp: &Sampler, loc: Loc) -> [f64; 4] {
    lanes_at(tex, smp, loc).map(|l| f64::from(flush_denorm(f32::from_bits(l))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{Format, TextureDesc};

    fn tex2d(w: u32, h: u32) -> Texture {
        let texels: Vec<[f32; 4]> = (0..w * h).map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
        Texture::from_f32(TextureDesc::tex2d(Format::R32Float, w, h), &texels).unwrap()
    }

    fn xy(loc: Loc) -> (u32, u32) {
        match loc {
            Loc::Texel { xyz, .. } => (xyz[0], xyz[1]),
            other => panic!("expected a texel, got {other:?}"),
        }
    }

    #[test]
    fn bilinear_footprint_weights_and_order() {
        let t = tex2d(4, 4);
        let smp = Sampler::linear();
        // u·4 − 0.5 = 1.25, v·4 − 0.5 = 2.75.
        let g = Geom::new(&t, [0.4375, 0.8125, 0.0, 0.0]).unwrap();
        let fp = footprint(&t, &smp, &g, 0, Filter::Linear, [0; 3]);
        let got: Vec<((u32, u32), f64)> = fp.taps().iter().map(|t| (xy(t.loc), t.weight)).collect();
        assert_eq!(
            got,
            vec![
                ((1, 2), 0.75 * 0.25),
                ((2, 2), 0.25 * 0.25),
                ((1, 3), 0.75 * 0.75),
                ((2, 3), 0.25 * 0.75),
            ]
        );
        // Offsets move whole texels at the level read.
        let fp = footprint(&t, &smp, &g, 0, Filter::Point, [-1, 1, 0]);
        assert_eq!(xy(fp.taps()[0].loc), (0, 3)); // floor(1.75) − 1, clamp(3 + 1)
    }

    #[test]
    fn weighted_sum_skips_zero_weights() {
        let fp = Footprint {
            taps: [Tap {
                loc: Loc::Border,
                weight: 0.0,
            }; 8],
            len: 2,
        };
        let mut fp = fp;
        fp.taps[1].weight = 1.0;
        fp.taps[1].loc = Loc::Texel {
            layer: 0,
            level: 0,
            xyz: [0; 3],
        };
        let v = fp.weighted(|loc| match loc {
            Loc::Border => [f64::INFINITY; 4],
            _ => [-0.0, 2.0, 3.0, 4.0],
        });
        assert_eq!(
            v.map(f64::to_bits),
            [-0.0f64, 2.0, 3.0, 4.0].map(f64::to_bits)
        );
    }

    #[test]
    fn geometry_per_dimension() {
        let arr = Texture::from_f32(
            TextureDesc::tex2d_array(Format::R32Float, 1, 1, 3),
            &[[0.0; 4]; 3],
        )
        .unwrap();
        assert_eq!(Geom::new(&arr, [0.0, 0.0, 1.5, 0.0]).unwrap().layer, 2);
        assert_eq!(Geom::new(&arr, [0.0, 0.0, 7.0, 0.0]).unwrap().layer, 2);
        let cubes = Texture::from_f32(
            TextureDesc::cube_array(Format::R32Float, 1, 2),
            &[[0.0; 4]; 12],
        )
        .unwrap();
        let g = Geom::new(&cubes, [0.0, -1.0, 0.0, 1.0]).unwrap();
        assert_eq!((g.layer, g.cube.unwrap().face), (6, 3));
        // The cube index clamps to the cubes, not to the 12 face layers.
        assert_eq!(Geom::new(&cubes, [0.0, 0.0, 1.0, 5.0]).unwrap().layer, 6);
        let ms = Texture::from_f32(
            TextureDesc::tex2d_ms(Format::R32Float, 1, 1, 1),
            &[[0.0; 4]],
        )
        .unwrap();
        assert!(Geom::new(&ms, [0.0; 4]).is_none());
    }
}
