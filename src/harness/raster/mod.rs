//! The CPU side of drawing a case's quad: D3D pixel centres (x + 0.5,
//! y + 0.5, y down from the top), two triangles (corners 0-1-2 and 1-3-2),
//! perspective-correct attribute interpolation, `SV_Position` with xy the
//! pixel centre, z the interpolated depth and w the clip-space w. This
//! module produces the emulator inputs for one 2x2 quad.
//!
//! Clip space reaches the target through D3D's viewport transform
//! (`x = X + (1 + x/w)·W/2`, `y = Y + (1 − y/w)·H/2`,
//! `z = MinZ + z/w·(MaxZ − MinZ)`). D3D clips the triangles to the clip
//! volume, so a pixel centre outside the viewport's rectangle, or whose
//! interpolated `z/w` lies outside [0, 1], is not covered (its lane, if
//! its quad runs, is a helper).
//!
//! Coverage is decided per sample at D3D's standard sample positions (the
//! pixel centre for a single-sampled target): a lane whose samples are all
//! outside both triangles is a helper. A pixel-frequency run sees the
//! covered samples' mask in `vCoverage`; a sample-frequency run (one per
//! sample, see [`runs_per_sample`]) sees its own sample's bit, `sample`
//! inputs (and `SV_Position` declared `sample`) evaluated at that sample's
//! position and `SV_SampleIndex` set to the sample's number.

mod triangle;

use super::case::{Case, Viewport};
use crate::dxbc::Shader;
use crate::dxbc::enums::{Interpolation, SystemValue};
use crate::vm::defaults::PixelChoice;
use crate::vm::state::{LANES, Setup};

/// How an input register is interpolated (from `dcl_input_ps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interp {
    Constant,
    Perspective,
    Linear,
}

const TRIANGLES: [[usize; 3]; 2] = [[0, 1, 2], [1, 3, 2]];

use triangle::{ON_EDGE, Triangle, Weights};

/// The case's two triangles, set up for the case's viewport.
fn triangles(case: &Case, vp: &Viewport) -> Vec<Triangle> {
    let clip: Vec<[f32; 4]> = case.quad.iter().map(|v| v.position).collect();
    TRIANGLES
        .iter()
        .map(|&t| Triangle::new(&clip, t, vp))
        .collect()
}

/// Everything a run of the quad holding `pixel` reads from a case: the
/// interpolated inputs ([`quad_setup`]) with the case's constant buffers,
/// and its textures and samplers bound to their slots.
pub fn case_inputs(
    case: &Case,
    shader: &Shader,
    pixel: PixelChoice,
) -> (Setup, crate::vm::Resources) {
    let mut setup = quad_setup(case, shader, pixel);
    super::cpu::bind_constant_buffers(case, &mut setup);
    (setup, super::cpu::resources(case))
}

/// Whether D3D runs the pixel shader once per sample: it reads
/// `SV_SampleIndex` or interpolates an input at sample positions.
pub fn runs_per_sample(shader: &Shader) -> bool {
    let inputs = shader.input_layout();
    inputs.declared_with(SystemValue::SampleIndex).is_some()
        || inputs
            .registers
            .iter()
            .any(|r| r.interpolation.is_some_and(|i| i.is_sample()))
}

/// Which samples of pixel `(px, py)` triangle `tri` covers (bit `i` for
/// sample `i` of the target's standard pattern). D3D clips to the view
/// volume: a sample outside the viewport's rectangle, whose z/w leaves
/// [0, 1], or (for a triangle reaching behind the eye) whose ray meets the
/// triangle behind the eye is not covered.
fn covered_samples(tri: &Triangle, vp: &Viewport, samples: u32, px: u32, py: u32) -> u32 {
    let pattern = crate::vm::texture::standard_pattern(samples).unwrap_or(&[[0, 0]]);
    let mut mask = 0;
    for (i, [dx, dy]) in pattern.iter().enumerate() {
        let p = [
            px as f64 + 0.5 + *dx as f64 / 16.0,
            py as f64 + 0.5 + *dy as f64 / 16.0,
        ];
        let in_viewport = p[0] >= vp.x as f64
            && p[0] < vp.x as f64 + vp.width as f64
            && p[1] >= vp.y as f64
            && p[1] < vp.y as f64 + vp.height as f64;
        // The same allowance the edge test has for rounding in the
        // barycentrics (a constant z = 1 may sum to 1 + 1e-16).
        let inside = in_viewport
            && tri
                .weights(p)
                .is_some_and(|b| tri.owns(&b) && (-ON_EDGE..=1.0 + ON_EDGE).contains(&b.z_ndc));
        if inside {
            mask |= 1 << i;
        }
    }
    mask
}

/// Inputs for the quad holding `pixel`, rasterised for the triangle that
/// owns `pixel` ([`owning_triangle`]): interpolated attributes per lane,
/// `SV_Position` where the shader declares it, helper lanes where that
/// triangle covers no sample of the pixel.
pub fn quad_setup(case: &Case, shader: &Shader, pixel: PixelChoice) -> Setup {
    let triangle = owning_triangle(case, pixel);
    quad_raster(case, shader, pixel, None, triangle).0
}

/// How many triangles the quad is drawn as (corners 0-1-2, then 1-3-2).
pub const TRIANGLE_COUNT: usize = TRIANGLES.len();

/// The triangle a debugger run of `pixel`'s quad rasterises: the one
/// owning a sample of `pixel`, else one owning a sample of another lane
/// (the pixel itself is then a helper), else the first.
pub fn owning_triangle(case: &Case, pixel: PixelChoice) -> usize {
    let vp = case.viewport();
    let tris = triangles(case, &vp);
    let covers =
        |t: usize, (px, py): (u32, u32)| covered_samples(&tris[t], &vp, case.samples, px, py) != 0;
    let lanes = pixel.lane_pixels();
    (0..TRIANGLE_COUNT)
        .find(|&t| covers(t, (pixel.x, pixel.y)))
        .or_else(|| (0..TRIANGLE_COUNT).find(|&t| lanes.iter().any(|&l| covers(t, l))))
        .unwrap_or(0)
}

/// The quad holding `pixel` as one run of triangle `triangle` sees it — at
/// pixel frequency (`sample` None) or for sample `sample` of a
/// sample-frequency shader — with each lane's window depth (the
/// viewport-mapped interpolated `z/w`, what `SV_Position.z` holds and the
/// depth test reads). `triangle` is below [`TRIANGLE_COUNT`].
///
/// A GPU rasterises each triangle on its own: a 2x2 quad the quad's
/// diagonal crosses runs once per triangle, every lane evaluating that
/// triangle's plane equations (extrapolated past its edges for the lanes
/// it does not cover, which run as helpers), so derivatives and
/// implicit-LOD sampling see one plane per run. The lanes' values are
/// therefore all taken in `triangle`'s plane, and only the samples it owns
/// count as covered.
pub fn quad_raster(
    case: &Case,
    shader: &Shader,
    pixel: PixelChoice,
    sample: Option<u32>,
    triangle: usize,
) -> (Setup, [f32; LANES]) {
    let mut setup = Setup::empty();
    let depths = QuadRaster::new(case, shader).fill(&mut setup, pixel, sample, triangle, true);
    (setup, depths.unwrap_or([0.0; LANES]))
}

/// What [`quad_raster`] reads of a case and shader that is the same for
/// every quad of a draw (the corners in window space, each input
/// register's interpolation and corner values), worked out once: a frame
/// rasterises hundreds of thousands of quads.
pub struct QuadRaster<'a> {
    case: &'a Case,
    vp: Viewport,
    triangles: Vec<Triangle>,
    /// Per input register (up to `count`): how it is interpolated, and
    /// whether a sample-frequency run evaluates it at the sample.
    modes: Vec<Interp>,
    sampled: Vec<bool>,
    /// Per corner, per input register: the corner's value.
    corners: Vec<Vec<[u32; 4]>>,
    sample_index: Option<(u32, usize)>,
    position_reg: Option<u32>,
    front_face: Option<(u32, usize)>,
}

impl<'a> QuadRaster<'a> {
    pub fn new(case: &'a Case, shader: &Shader) -> QuadRaster<'a> {
        let vp = case.viewport();
        // Declared pixel-shader inputs only: an attribute the shader never
        // declares is never read, so its interpolation does not matter.
        let inputs = shader.input_layout();
        let declared: Vec<(u32, Interp)> = inputs
            .registers
            .iter()
            .filter_map(|r| {
                let mode = match r.interpolation? {
                    Interpolation::Constant => Interp::Constant,
                    m if m.is_noperspective() => Interp::Linear,
                    _ => Interp::Perspective,
                };
                Some((r.register, mode))
            })
            .collect();
        let count = declared
            .iter()
            .map(|(r, _)| r + 1)
            .chain(
                case.quad
                    .iter()
                    .flat_map(|v| v.attributes.iter().map(|(r, _)| r + 1)),
            )
            .max()
            .unwrap_or(0)
            .min(64) as usize;
        // The first declaration of a register decides, as the first
        // attribute a corner lists for it does.
        let modes = (0..count)
            .map(|r| {
                declared
                    .iter()
                    .find(|(m, _)| *m as usize == r)
                    .map_or(Interp::Perspective, |(_, m)| *m)
            })
            .collect();
        let sampled = (0..count)
            .map(|r| {
                inputs.registers.iter().any(|d| {
                    d.register as usize == r && d.interpolation.is_some_and(|i| i.is_sample())
                })
            })
            .collect();
        let corners = case
            .quad
            .iter()
            .map(|v| {
                (0..count)
                    .map(|r| {
                        v.attributes
                            .iter()
                            .find(|(reg, _)| *reg as usize == r)
                            .map_or([0; 4], |(_, v)| *v)
                    })
                    .collect()
            })
            .collect();
        QuadRaster {
            case,
            vp,
            triangles: triangles(case, &vp),
            modes,
            sampled,
            corners,
            sample_index: inputs
                .declared_with(SystemValue::SampleIndex)
                .map(|r| (r.register, r.first_component())),
            position_reg: inputs
                .declared_with(SystemValue::Position)
                .map(|r| r.register),
            front_face: inputs
                .declared_with(SystemValue::IsFrontFace)
                .map(|r| (r.register, r.first_component())),
        }
    }

    /// [`quad_raster`] into `setup` (its inputs, helper lanes and coverage;
    /// the rest is left as it is), reusing the inputs' allocations. Unless
    /// `always`, a run in which every lane is a helper (the triangle covers
    /// none of the quad) returns `None` before interpolating anything, and
    /// `setup`'s inputs are then unspecified: such a run is not drawn.
    pub fn fill(
        &self,
        setup: &mut Setup,
        pixel: PixelChoice,
        sample: Option<u32>,
        triangle: usize,
        always: bool,
    ) -> Option<[f32; LANES]> {
        let (case, vp) = (self.case, &self.vp);
        setup.sample_count = case.samples;
        let mut depths = [0f32; LANES];
        let offset = sample.map_or([0.0; 2], |s| {
            let o = crate::vm::texture::sample_position(case.samples, s).map(f32::from_bits);
            [o[0] as f64, o[1] as f64]
        });
        let at_sample = |r: u32| sample.is_some() && self.sampled.get(r as usize) == Some(&true);
        let tri = &self.triangles[triangle];
        let lanes = pixel.lane_pixels();
        // Coverage first: a quad the triangle misses is not interpolated.
        // A degenerate triangle (no barycentrics, whatever the point)
        // covers nothing, so a lane is a helper exactly when it runs no
        // sample or lies outside the target, barycentrics or not.
        let mut runs = [0u32; LANES];
        for (lane, &(px, py)) in lanes.iter().enumerate().take(LANES) {
            let covered = covered_samples(tri, vp, case.samples, px, py);
            runs[lane] = match sample {
                Some(s) => covered & (1u32 << s),
                None => covered,
            };
            setup.helper[lane] = runs[lane] == 0 || px >= case.width || py >= case.height;
        }
        if !always && setup.helper.iter().all(|h| *h) {
            return None;
        }
        let mut chosen: [Option<Weights>; LANES] = [None; LANES];
        for (lane, &(px, py)) in lanes.iter().enumerate().take(LANES) {
            chosen[lane] = tri.weights([px as f64 + 0.5, py as f64 + 0.5]);
            setup.coverage[lane] = if chosen[lane].is_some() {
                runs[lane]
            } else {
                1
            };
        }
        let depth_of = |b: &Weights| {
            vp.min_depth as f64 + b.z_ndc * (vp.max_depth as f64 - vp.min_depth as f64)
        };
        for (lane, &(px, py)) in lanes.iter().enumerate().take(LANES) {
            let p = [px as f64 + 0.5, py as f64 + 0.5];
            let ps = [p[0] + offset[0], p[1] + offset[1]];
            let regs = &mut setup.inputs[lane];
            regs.clear();
            regs.resize(self.modes.len(), [0u32; 4]);
            let Some(b) = chosen[lane] else {
                continue;
            };
            depths[lane] = depth_of(&b) as f32;
            // Weights at the sample, in the same triangle's plane (read
            // only by a sample-frequency run).
            let bs = if sample.is_some() {
                tri.weights(ps).unwrap_or(b)
            } else {
                b
            };
            for (r, slot) in regs.iter_mut().enumerate() {
                let b = if at_sample(r as u32) { &bs } else { &b };
                let persp_den = b.persp_den();
                let mode = self.modes[r];
                // The three corners' values, looked up once per register
                // rather than per component.
                let attr = tri.corners.map(|k| self.corners[k][r]);
                *slot = match mode {
                    // The provoking vertex is the triangle's first, clipped
                    // or not.
                    Interp::Constant => attr[0],
                    _ => {
                        let mut out = [0u32; 4];
                        for (c, o) in out.iter_mut().enumerate() {
                            let v = |k: usize| f32::from_bits(attr[k][c]) as f64;
                            let value = if mode == Interp::Linear || persp_den == 0.0 {
                                (0..3).map(|k| b.screen[k] * v(k)).sum::<f64>()
                            } else {
                                (0..3).map(|k| b.persp[k] * v(k)).sum::<f64>() / persp_den
                            };
                            *o = (value as f32).to_bits();
                        }
                        out
                    }
                };
            }
            if let Some((r, c)) = self.front_face
                && let Some(slot) = regs.get_mut(r as usize)
            {
                slot[c] = if tri.front { u32::MAX } else { 0 };
            }
            if let Some((r, c)) = self.sample_index
                && let Some(slot) = regs.get_mut(r as usize)
            {
                slot[c] = sample.unwrap_or(0);
            }
            if let Some(r) = self.position_reg
                && let Some(slot) = regs.get_mut(r as usize)
            {
                let (b, p) = if at_sample(r) { (&bs, ps) } else { (&b, p) };
                let persp_den = b.persp_den();
                let z = depth_of(b);
                let w = if persp_den == 0.0 {
                    0.0
                } else {
                    1.0 / persp_den
                };
                *slot = [p[0] as f32, p[1] as f32, z as f32, w as f32].map(f32::to_bits);
            }
        }
        Some(depths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn lanes(case_text: &str, x: u32, y: u32) -> Setup {
        let case = Case::parse(case_text, Path::new("t.case")).expect("case");
        let Some(super::super::case::ShaderSource::Inline { text, .. }) = &case.pixel_shader else {
            panic!()
        };
        let shader = crate::dxbc::asm::test_shader(text);
        quad_setup(
            &case,
            &shader,
            PixelChoice {
                x,
                y,
                width: case.width,
                height: case.height,
            },
        )
    }

    const SHADER: &str = "[pixel shader]\nps_4_0\ndcl_input_ps_siv linear noperspective v0.xyzw, position\ndcl_input_ps linear v1.x\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xxxx\nret\n[render target]\nsize 4 4\n";

    #[test]
    fn sv_position_is_the_pixel_centre_and_clip_w() {
        let s = lanes(
            &format!(
                "{SHADER}[quad]\nvertex -2 2 0.25 2 v1 0 0 0 0\nvertex 2 2 0.25 2 v1 0 0 0 0\nvertex -2 -2 0.25 2 v1 0 0 0 0\nvertex 2 -2 0.25 2 v1 0 0 0 0\n"
            ),
            2,
            0,
        );
        // Every lane in the plane of the triangle owning pixel (2,0),
        // TL-TR-BL: lane 1 (3,0) lies on the diagonal, owned by TR-BR-BL,
        // so it runs as a helper here, with the same position.
        let pos = s.inputs[1][0].map(f32::from_bits);
        assert_eq!(pos, [3.5, 0.5, 0.125, 2.0]);
        assert_eq!(s.helper, [false, true, true, true]);
    }

    #[test]
    fn attributes_interpolate_with_perspective() {
        // Left edge at w = 1 with v1 = 0, right edge at w = 3 with v1 = 1.
        let s = lanes(
            &format!(
                "{SHADER}[quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 3 3 0 3 v1 1 0 0 0\nvertex -1 -1 0 1 v1 0 0 0 0\nvertex 3 -3 0 3 v1 1 0 0 0\n"
            ),
            2,
            0,
        );
        let v = f32::from_bits(s.inputs[0][1][0]);
        // Pixel centre (2.5, 0.5) of a 4x4 target lies in the triangle
        // TL (0,0) w=1, TR (4,0) w=3, BL (0,4) w=1 with screen barycentrics
        // 0.25, 0.625, 0.125; only TR has v1 = 1, so the perspective-correct
        // value is (0.625/3) / (0.25/1 + 0.625/3 + 0.125/1).
        let expected = (0.625 / 3.0) / (0.25 + 0.625 / 3.0 + 0.125);
        assert!((v as f64 - expected).abs() < 1e-6, "{v} vs {expected}");
    }
}

#[cfg(test)]
mod front_face_tests {
    use super::*;
    use std::path::Path;

    fn mask(quad: &str) -> u32 {
        let text = format!(
            "[pixel shader]\nps_5_0\ndcl_input_ps_sgv v1.x, is_front_face\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xxxx\nret\n[render target]\nsize 4 4\n[quad]\n{quad}"
        );
        let case = Case::parse(&text, Path::new("t.case")).expect("case");
        let Some(super::super::case::ShaderSource::Inline { text, .. }) = &case.pixel_shader else {
            panic!()
        };
        let shader = crate::dxbc::asm::test_shader(text);
        let choice = PixelChoice {
            x: 1,
            y: 1,
            width: 4,
            height: 4,
        };
        quad_setup(&case, &shader, choice).inputs[0][1][0]
    }

    #[test]
    fn clockwise_on_screen_is_front() {
        // TL, TR, BL, BR: triangles TL-TR-BL and TR-BR-BL wind clockwise.
        let q = "vertex -1 1 0 1\nvertex 1 1 0 1\nvertex -1 -1 0 1\nvertex 1 -1 0 1\n";
        assert_eq!(mask(q), u32::MAX);
        // Mirrored left to right: counter-clockwise, the back face.
        let m = "vertex 1 1 0 1\nvertex -1 1 0 1\nvertex 1 -1 0 1\nvertex -1 -1 0 1\n";
        assert_eq!(mask(m), 0);
    }

    #[test]
    fn a_triangle_reaching_behind_the_eye_faces_as_its_visible_part_winds() {
        // The bottom corners behind the eye (w = -1): what is drawn is the
        // top of the quad, wound as the quad's corners are on screen.
        let q = "vertex -1 1 0.5 1\nvertex 1 1 0.5 1\nvertex -1 -3 -0.5 -1\nvertex 1 -3 -0.5 -1\n";
        assert_eq!(mask(q), u32::MAX);
        let m = "vertex 1 1 0.5 1\nvertex -1 1 0.5 1\nvertex 1 -3 -0.5 -1\nvertex -1 -3 -0.5 -1\n";
        assert_eq!(mask(m), 0);
    }
}
