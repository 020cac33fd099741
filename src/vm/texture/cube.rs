//! Cube maps: face selection, face coordinates, gradient projection for
//! LOD, and the seamless neighbour mapping for filter footprints that cross
//! a face edge (D3D11 cube sampling is always seamless; address modes do
//! not apply).
//!
//! Face order is D3D's: +X, −X, +Y, −Y, +Z, −Z (layer = 6·cube + face). On a
//! face with major axis value `ma`, the face coordinates are
//! `s = (sc/|ma| + 1)/2`, `t = (tc/|ma| + 1)/2` with
//!
//! | face | sc | tc |
//! |------|----|----|
//! | +X   | −z | −y |
//! | −X   | +z | −y |
//! | +Y   | +x | +z |
//! | −Y   | +x | −z |
//! | +Z   | +x | −y |
//! | −Z   | −x | −y |
//!
//! and t = 0 is the face's first (top) row.

/// Axis index and sign of a face's major axis and its s and t directions.
#[derive(Clone, Copy)]
struct FaceAxes {
    ma: (usize, i64),
    s: (usize, i64),
    t: (usize, i64),
}

/// One row per face, in D3D order, as in the table above.
const FACES: [FaceAxes; 6] = [
    FaceAxes::new((0, 1), (2, -1), (1, -1)), // +X: sc = −z, tc = −y
    FaceAxes::new((0, -1), (2, 1), (1, -1)), // −X: sc = +z, tc = −y
    FaceAxes::new((1, 1), (0, 1), (2, 1)),   // +Y: sc = +x, tc = +z
    FaceAxes::new((1, -1), (0, 1), (2, -1)), // −Y: sc = +x, tc = −z
    FaceAxes::new((2, 1), (0, 1), (1, -1)),  // +Z: sc = +x, tc = −y
    FaceAxes::new((2, -1), (0, -1), (1, -1)), // −Z: sc = −x, tc = −y
];

impl FaceAxes {
    const fn new(ma: (usize, i64), s: (usize, i64), t: (usize, i64)) -> FaceAxes {
        FaceAxes { ma, s, t }
    }
}

fn face_of(axis: usize, positive: bool) -> u8 {
    (axis * 2) as u8 + u8::from(!positive)
}

/// A direction projected onto its cube face.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CubeCoord {
    pub face: u8,
    /// Face coordinates in [0, 1].
    pub s: f64,
    pub t: f64,
    dir: [f64; 3],
}

/// Picks the face with the largest-magnitude component. Ties go to Z over
/// Y over X (the functional spec names no tie rule; this is the order
/// common hardware cube instructions use). NaN components read as 0; the
/// zero vector lands on the centre of +Z.
pub(crate) fn project(dir: [f32; 3]) -> CubeCoord {
    let d = dir.map(|c| if c.is_nan() { 0.0 } else { f64::from(c) });
    let a = d.map(f64::abs);
    let axis = if a[2] >= a[0] && a[2] >= a[1] {
        2
    } else if a[1] >= a[0] {
        1
    } else {
        0
    };
    let face = face_of(axis, d[axis] >= 0.0);
    let f = FACES[face as usize];
    let ma = a[axis];
    let coord = |(ax, sign): (usize, i64)| {
        let q = sign as f64 * d[ax] / ma;
        // 0/0 and inf/inf (degenerate directions) read as the face centre.
        let q = if q.is_nan() { 0.0 } else { q.clamp(-1.0, 1.0) };
        0.5 * q + 0.5
    };
    CubeCoord {
        face,
        s: coord(f.s),
        t: coord(f.t),
        dir: d,
    }
}

impl CubeCoord {
    /// Derivatives of (s, t) for a derivative `dd` of the direction, by the
    /// quotient rule on `s = sc/(2|ma|) + 1/2`.
    pub(crate) fn face_gradient(&self, dd: [f32; 3]) -> [f64; 2] {
        let f = FACES[self.face as usize];
        let (max, msign) = f.ma;
        let ma = self.dir[max] * msign as f64;
        let dma = f64::from(dd[max]) * msign as f64;
        let g = |(ax, sign): (usize, i64)| {
            let sc = self.dir[ax] * sign as f64;
            let dsc = f64::from(dd[ax]) * sign as f64;
            0.5 * (dsc * ma - sc * dma) / (ma * ma)
        };
        [g(f.s), g(f.t)]
    }
}

/// Where a filter tap at integer texel (i, j) of `face` lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CubeTexel {
    Texel {
        face: u8,
        x: u32,
        y: u32,
    },
    /// Off the face diagonally: no texel exists there. D3D synthesizes it
    /// as the average of the three texels meeting at the cube corner.
    Corner,
}

/// Maps a tap at most one texel off the face (bilinear taps and the
/// point tap at s = 1 never reach further) to the texel across the edge:
/// the texel centre is extended as a direction vector in integer units
/// where the face spans [−n, n], the out-of-range component picks the new
/// face, the old major axis becomes the coordinate at the shared edge and
/// the position along the edge is kept.
pub(crate) fn resolve(face: u8, i: i64, j: i64, n: u32) -> CubeTexel {
    let n = i64::from(n.max(1));
    let (i, j) = (i.clamp(-1, n), j.clamp(-1, n));
    let face = face % 6;
    match ((0..n).contains(&i), (0..n).contains(&j)) {
        (true, true) => CubeTexel::Texel {
            face,
            x: i as u32,
            y: j as u32,
        },
        (false, false) => CubeTexel::Corner,
        _ => {
            let f = FACES[face as usize];
            let mut d = [0i64; 3];
            d[f.ma.0] += f.ma.1 * n;
            d[f.s.0] += f.s.1 * (2 * i + 1 - n);
            d[f.t.0] += f.t.1 * (2 * j + 1 - n);
            // Exactly one component has magnitude n + 1.
            let axis = (0..3).find(|&a| d[a].abs() > n).unwrap_or(f.ma.0);
            let nf = face_of(axis, d[axis] > 0);
            let g = FACES[nf as usize];
            let index = |(ax, sign): (usize, i64)| (sign * d[ax] + n).div_euclid(2).clamp(0, n - 1);
            CubeTexel::Texel {
                face: nf,
                x: index(g.s) as u32,
                y: index(g.t) as u32,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(dir: [f32; 3]) -> (u8, f64, f64) {
        let c = project(dir);
        (c.face, c.s, c.t)
    }

    #[test]
    fn face_selection_and_face_coordinates() {
        // Each face centre, and a point up-and-right of centre: the table in
        // the module documentation evaluated by hand.
        assert_eq!(st([1.0, 0.0, 0.0]), (0, 0.5, 0.5));
        assert_eq!(st([-2.0, 0.0, 0.0]), (1, 0.5, 0.5));
        assert_eq!(st([0.0, 3.0, 0.0]), (2, 0.5, 0.5));
        assert_eq!(st([0.0, -1.0, 0.0]), (3, 0.5, 0.5));
        assert_eq!(st([0.0, 0.0, 1.0]), (4, 0.5, 0.5));
        assert_eq!(st([0.0, 0.0, -1.0]), (5, 0.5, 0.5));
        // +X: s = (−z/x + 1)/2, t = (−y/x + 1)/2
        assert_eq!(st([2.0, 1.0, -1.0]), (0, 0.75, 0.25));
        // −X: s = (z/|x| + 1)/2
        assert_eq!(st([-2.0, 1.0, -1.0]), (1, 0.25, 0.25));
        // +Y: s = (x/y + 1)/2, t = (z/y + 1)/2
        assert_eq!(st([1.0, 2.0, -1.0]), (2, 0.75, 0.25));
        // −Y: t = (−z/|y| + 1)/2
        assert_eq!(st([1.0, -2.0, -1.0]), (3, 0.75, 0.75));
        // +Z: s = (x/z + 1)/2, t = (−y/z + 1)/2
        assert_eq!(st([1.0, 1.0, 2.0]), (4, 0.75, 0.25));
        // −Z: s = (−x/|z| + 1)/2
        assert_eq!(st([1.0, 1.0, -2.0]), (5, 0.25, 0.25));
    }

    #[test]
    fn ties_prefer_z_then_y() {
        assert_eq!(project([1.0, 1.0, 1.0]).face, 4);
        assert_eq!(project([1.0, -1.0, 0.5]).face, 3);
        assert_eq!(project([-1.0, 0.0, -1.0]).face, 5);
        assert_eq!(project([0.0, 0.0, 0.0]).face, 4);
        assert_eq!(st([f32::NAN, f32::NAN, f32::NAN]), (4, 0.5, 0.5));
        let inf = project([f32::INFINITY, f32::INFINITY, 1.0]);
        assert_eq!((inf.face, inf.s, inf.t), (2, 0.5, 0.5));
    }

    #[test]
    fn edges_map_to_the_adjacent_face() {
        let n = 4;
        // +Z right edge (x = +1) continues on +X's left column, same row.
        assert_eq!(
            resolve(4, 4, 1, n),
            CubeTexel::Texel {
                face: 0,
                x: 0,
                y: 1
            }
        );
        // +X right edge (z = −1) continues on −Z's left column.
        assert_eq!(
            resolve(0, 4, 2, n),
            CubeTexel::Texel {
                face: 5,
                x: 0,
                y: 2
            }
        );
        // +Z top row (y = +1) continues on +Y's bottom row, same column.
        assert_eq!(
            resolve(4, 1, -1, n),
            CubeTexel::Texel {
                face: 2,
                x: 1,
                y: 3
            }
        );
        // −Z left edge (x = +1) is +X's right column.
        assert_eq!(
            resolve(5, -1, 3, n),
            CubeTexel::Texel {
                face: 0,
                x: 3,
                y: 3
            }
        );
        // +Y top row (z = −1) is −Z's top row, mirrored in x.
        assert_eq!(
            resolve(2, 0, -1, n),
            CubeTexel::Texel {
                face: 5,
                x: 3,
                y: 0
            }
        );
        // −Y bottom row (z = −1) is −Z's bottom row, mirrored in x.
        assert_eq!(
            resolve(3, 3, 4, n),
            CubeTexel::Texel {
                face: 5,
                x: 0,
                y: 3
            }
        );
        assert_eq!(resolve(4, -1, -1, n), CubeTexel::Corner);
        assert_eq!(
            resolve(4, 2, 3, n),
            CubeTexel::Texel {
                face: 4,
                x: 2,
                y: 3
            }
        );
    }

    #[test]
    fn every_edge_crossing_is_symmetric() {
        // Stepping across an edge and back returns to the start texel.
        let n = 3i64;
        for face in 0..6u8 {
            for k in 0..n {
                for (i, j, back) in [(-1, k, 1), (n, k, -1), (k, -1, 1), (k, n, -1)] {
                    let CubeTexel::Texel { face: f2, x, y } = resolve(face, i, j, n as u32) else {
                        panic!("edge tap became a corner");
                    };
                    assert_ne!(f2, face);
                    // Step one texel further off the edge we crossed, i.e.
                    // back towards the original face: whichever of x/y lies
                    // on the shared edge moves outward.
                    let (x, y) = (i64::from(x), i64::from(y));
                    let candidates = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)];
                    let home = candidates
                        .iter()
                        .filter(|(a, b)| !(0..n).contains(a) || !(0..n).contains(b))
                        .filter_map(|&(a, b)| match resolve(f2, a, b, n as u32) {
                            CubeTexel::Texel { face, x, y } => Some((face, x, y)),
                            CubeTexel::Corner => None,
                        })
                        .any(|t| {
                            let (hi, hj) = if i < 0 || i >= n {
                                (i + back, j)
                            } else {
                                (i, j + back)
                            };
                            t == (face, hi as u32, hj as u32)
                        });
                    assert!(home, "face {face} tap ({i},{j})");
                }
            }
        }
    }

    #[test]
    fn gradient_projection() {
        // On +Z at (0, 0, 1), moving x by dx moves s by dx/2.
        let c = project([0.0, 0.0, 1.0]);
        assert_eq!(c.face_gradient([0.5, 0.0, 0.0]), [0.25, 0.0]);
        assert_eq!(c.face_gradient([0.0, 0.5, 0.0]), [0.0, -0.25]);
        // Moving along the direction itself changes nothing.
        let c = project([1.0, 0.5, 2.0]);
        assert_eq!(c.face_gradient([1.0, 0.5, 2.0]), [0.0, 0.0]);
        // Quotient rule: s = (x/z + 1)/2 at (1, 0, 2); ds/dz = −x/(2z²).
        assert_eq!(c.face_gradient([0.0, 0.0, 1.0])[0], -0.125);
    }
}
