//! One triangle of the quad set up for rasterising, and the weights its
//! plane gives a point of the target.
//!
//! D3D clips every triangle to the view volume (−w ≤ x ≤ w, −w ≤ y ≤ w,
//! 0 ≤ z ≤ w) before the divide by w. A triangle with every corner in
//! front of the eye (w > 0) projects to a triangle on screen, and clipping
//! it to the volume keeps exactly the pixel centres inside that projection
//! which lie in the viewport with 0 ≤ z/w ≤ 1: that is the fast path
//! ([`Plane::Window`]), screen barycentrics of the projected corners.
//!
//! A corner at or behind the eye (w ≤ 0) has no place on screen, so such a
//! triangle is taken through the eye instead ([`Plane::Clip`]): the ray
//! through a pixel centre, (X, Y, 1) in normalised device coordinates,
//! meets the triangle's plane in (x, y, w) space at the clip-space point
//! P = Σ λₖ·Cₖ with λ = M⁻¹·(X, Y, 1) / Σ(M⁻¹·(X, Y, 1)), M's columns the
//! corners' (x, y, w). The pixel lies on the clipped triangle exactly when
//! every λₖ ≥ 0 and P.w > 0 (in front of the eye), plus the viewport and
//! 0 ≤ z/w ≤ 1 tests both paths make, so this covers the same pixels as
//! clipping the triangle to the volume and rasterising the pieces, without
//! building them. λ is what D3D interpolates `linear` attributes with (the
//! clip-space barycentrics, which clipping preserves); `e = M⁻¹·(X, Y, 1)`
//! is linear on screen (it is 1/w times λ), and so are `z/w = Σ eₖ·zₖ` and
//! the `noperspective` weights `wₖ·eₖ`: the values a clipper gives the new
//! corners it makes when it interpolates those attributes linearly on
//! screen along each clipped edge, and what both paths agree on for a
//! triangle wholly in front.

use super::super::case::Viewport;

/// Rounding allowance for a barycentric that is zero in exact arithmetic.
pub(super) const ON_EDGE: f64 = 1e-9;

#[derive(Clone, Copy)]
struct Window {
    /// Window x and y; z still `z/w` (the viewport maps it after
    /// interpolation, once clipping has used it).
    pos: [f64; 3],
    inv_w: f64,
}

fn to_window(clip: [f32; 4], vp: &Viewport) -> Window {
    let w = clip[3] as f64;
    let inv_w = if w == 0.0 { 0.0 } else { 1.0 / w };
    let (x, y, z) = (
        clip[0] as f64 * inv_w,
        clip[1] as f64 * inv_w,
        clip[2] as f64 * inv_w,
    );
    Window {
        pos: [
            vp.x as f64 + (x + 1.0) * 0.5 * vp.width as f64,
            vp.y as f64 + (1.0 - y) * 0.5 * vp.height as f64,
            z,
        ],
        inv_w,
    }
}

/// Screen-space barycentrics of `p` in triangle `t` (None if degenerate).
#[inline(always)]
fn barycentric(t: &[Window; 3], p: [f64; 2]) -> Option<[f64; 3]> {
    let [a, b, c] = t.map(|w| w.pos);
    let area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if area.abs() < 1e-12 {
        return None;
    }
    let w0 = ((b[0] - p[0]) * (c[1] - p[1]) - (b[1] - p[1]) * (c[0] - p[0])) / area;
    let w1 = ((c[0] - p[0]) * (a[1] - p[1]) - (c[1] - p[1]) * (a[0] - p[0])) / area;
    Some([w0, w1, 1.0 - w0 - w1])
}

/// How a triangle's plane is evaluated (see the module's comment).
enum Plane {
    /// Every corner in front of the eye: the projected corners.
    Window([Window; 3]),
    /// A corner at or behind the eye: the inverse of the matrix whose
    /// columns are the corners' clip-space (x, y, w), and the corners' w
    /// and z.
    Clip {
        inv: [[f64; 3]; 3],
        w: [f64; 3],
        z: [f64; 3],
        vp: Viewport,
    },
}

/// What a triangle's plane gives one point of the target.
#[derive(Clone, Copy)]
pub(super) struct Weights {
    /// Screen-linear weights of the three corners (sum 1): what
    /// `noperspective` attributes are interpolated with.
    pub screen: [f64; 3],
    /// The perspective weights before normalising: corner k's weight is
    /// `persp[k] / Σ persp` and `Σ persp` is 1/w at the point (not above
    /// zero where the point's ray meets the plane behind the eye).
    pub persp: [f64; 3],
    /// The interpolated `z/w`, before the viewport maps it.
    pub z_ndc: f64,
}

impl Weights {
    pub fn persp_den(&self) -> f64 {
        self.persp.iter().sum()
    }
}

/// One triangle of the quad: which corners, and its plane.
pub(super) struct Triangle {
    pub corners: [usize; 3],
    plane: Plane,
    /// Whether D3D's default state calls it front-facing.
    pub front: bool,
}

impl Triangle {
    pub fn new(clip: &[[f32; 4]], corners: [usize; 3], vp: &Viewport) -> Triangle {
        let c = corners.map(|k| clip[k].map(|v| v as f64));
        if c.iter().all(|v| v[3] > 0.0) {
            let win = corners.map(|k| to_window(clip[k], vp));
            // D3D's default front face winds clockwise on screen (y
            // down): a positive signed area here.
            let [a, b, d] = win.map(|w| w.pos);
            let area = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
            return Triangle {
                corners,
                plane: Plane::Window(win),
                front: area > 0.0,
            };
        }
        // Columns (x, y, w) of the corners. Every piece clipping keeps of
        // the triangle winds as the triangle does in λ, and each piece's
        // corners have w > 0, so its screen winding is the sign of this
        // determinant (negative for clockwise on a y-down screen).
        let m = [
            [c[0][0], c[1][0], c[2][0]],
            [c[0][1], c[1][1], c[2][1]],
            [c[0][3], c[1][3], c[2][3]],
        ];
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        let inv = if det.abs() < 1e-300 {
            // Seen edge-on from the eye: it covers nothing.
            [[0.0; 3]; 3]
        } else {
            let cof = |r: usize, col: usize| {
                let (r0, r1) = ((r + 1) % 3, (r + 2) % 3);
                let (c0, c1) = ((col + 1) % 3, (col + 2) % 3);
                m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
            };
            // The inverse is the transposed cofactor matrix over det.
            let mut inv = [[0.0; 3]; 3];
            for (i, row) in inv.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = cof(j, i) / det;
                }
            }
            inv
        };
        Triangle {
            corners,
            plane: Plane::Clip {
                inv,
                w: c.map(|v| v[3]),
                z: c.map(|v| v[2]),
                vp: *vp,
            },
            front: det < 0.0,
        }
    }

    /// The triangle's plane at window point `p`, extrapolated past its
    /// edges (helper lanes read it there); `None` where the triangle is
    /// degenerate and has no plane.
    #[inline(always)]
    pub fn weights(&self, p: [f64; 2]) -> Option<Weights> {
        match &self.plane {
            Plane::Window(win) => {
                let b = barycentric(win, p)?;
                Some(Weights {
                    screen: b,
                    persp: [0, 1, 2].map(|k| b[k] * win[k].inv_w),
                    z_ndc: (0..3).map(|k| b[k] * win[k].pos[2]).sum(),
                })
            }
            Plane::Clip { inv, w, z, vp } => {
                if inv.iter().flatten().all(|v| *v == 0.0) {
                    return None;
                }
                let x = (p[0] - vp.x as f64) * 2.0 / vp.width as f64 - 1.0;
                let y = 1.0 - (p[1] - vp.y as f64) * 2.0 / vp.height as f64;
                let e = inv.map(|r| r[0] * x + r[1] * y + r[2]);
                Some(Weights {
                    screen: [0, 1, 2].map(|k| w[k] * e[k]),
                    persp: e,
                    z_ndc: (0..3).map(|k| e[k] * z[k]).sum(),
                })
            }
        }
    }

    /// Whether the triangle owns the point with weights `b`: inside it
    /// (and, for a triangle reaching behind the eye, in front of the eye),
    /// or on one of its edges that D3D's top-left rule gives it. A point
    /// on an edge two triangles share (a quad's diagonal) belongs to one
    /// of them only, the one for which the edge is a top edge (exactly
    /// horizontal, the third corner below it) or a left edge (not
    /// horizontal, the third corner to its right); it matters for
    /// `constant` inputs, which take the owning triangle's first corner.
    #[inline(always)]
    pub fn owns(&self, b: &Weights) -> bool {
        match &self.plane {
            Plane::Window(win) => (0..3).all(|k| {
                let b = b.screen;
                if b[k] > ON_EDGE {
                    return true;
                }
                if b[k] < -ON_EDGE {
                    return false;
                }
                // On the edge opposite corner k, from corner i to corner j.
                let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                let (a, e, c) = (win[i].pos, win[j].pos, win[k].pos);
                let dy = e[1] - a[1];
                if dy == 0.0 {
                    // y grows downwards: a top edge has the triangle below it.
                    c[1] > a[1]
                } else {
                    let x_at = a[0] + (c[1] - a[1]) * (e[0] - a[0]) / dy;
                    x_at < c[0]
                }
            }),
            Plane::Clip { inv, .. } => {
                let den = b.persp_den();
                if den <= 0.0 {
                    // The ray meets the plane at or behind the eye.
                    return false;
                }
                (0..3).all(|k| {
                    let l = b.persp[k] / den;
                    if l > ON_EDGE {
                        return true;
                    }
                    if l < -ON_EDGE {
                        return false;
                    }
                    // eₖ grows into the triangle (in front of the eye).
                    // Window x grows with X and window y against Y, so
                    // eₖ's window gradient is (inv[k][0], −inv[k][1]) up to
                    // positive factors: a top edge is horizontal with eₖ
                    // growing downwards, a left edge has it growing to the
                    // right.
                    let (gx, gy) = (inv[k][0], -inv[k][1]);
                    if gx == 0.0 { gy > 0.0 } else { gx > 0.0 }
                })
            }
        }
    }
}
