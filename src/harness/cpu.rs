//! The CPU path: a case drawn with the reference emulator, producing the
//! same images the GPU path draws (one per `SV_TargetN`, index order).
//!
//! Every 2x2 quad of the render target runs once for each of the quad's two
//! triangles that covers one of its samples (`raster::quad_raster` gives its
//! inputs, every lane in that triangle's plane, as a GPU rasterises each
//! triangle on its own), and once per sample when the shader runs at
//! sample frequency; a
//! lane's outputs are written to the samples it covers (ANDed with `oMask`
//! where the shader writes one) when it is not a helper, did not discard
//! and passed the depth test (`[depth]`: the rasterizer's depth or
//! `oDepth`, clamped to the viewport's range, in the buffer's format; see
//! `vm::output_merger`). Everything else keeps the target's clear colour.
//! A multisampled target is then resolved for comparison
//! (`TargetPlan::resolve`): each pixel is the average of its samples, an
//! sRGB target's taken in linear space (D3D's resolve of float, unorm and
//! sRGB formats; integer targets are averaged as their values, which D3D
//! cannot resolve but a comparison can).
//!
//! Each target stores through its format (`render_targets`): the case's
//! `format N F` with D3D's conversion on write, else 32-bit channels where
//! integer targets (`uint`/`sint` in the output signature) hold the
//! integer value converted to `f32` (`7u` → `7.0`, `-1i` → `-1.0`): what a
//! GPU reading back an integer target and converting it to floats gives.
//! Channels outside a target's mask are 0. A case that probes the depth
//! buffer gets its image (depth in `.x`) after the targets'.
//!
//! With a `[vertex shader]`, the four corners run through the emulator
//! first (one lane per corner); see [`vertex_stage`] for how its inputs
//! are fed and how its outputs reach the pixel shader.

use std::rc::Rc;

use thiserror::Error;

use super::case::{Case, CaseShaders, Vertex};
use super::draw::Pass;
use super::image::Image;
use super::raster::runs_per_sample;
use super::render_targets::{self, TargetPlan};
use crate::dxbc::Shader;
use crate::dxbc::enums::{ComponentType, SystemValue};
use crate::dxbc::ir::{OperandType, ProgramType};
use crate::dxbc::opcodes::Op;
use crate::dxbc::signature::SignatureKind;
use crate::vm::state::{LANES, Reg, Setup};
use crate::vm::{Machine, Resources, VmError};

/// A CPU render failure; the message starts with the case file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CpuError {
    #[error("{file}: pixel ({x}, {y}): {source}")]
    Pixel {
        file: String,
        x: u32,
        y: u32,
        source: VmError,
    },
    #[error("{file}: vertex shader: {source}")]
    Vertex { file: String, source: VmError },
    /// The pixel shader cannot run at all (a malformed block structure).
    #[error("{file}: pixel shader: {source}")]
    Program { file: String, source: VmError },
    #[error("{file}: {message}")]
    Setup { file: String, message: String },
    /// The case's render targets do not fit the shader's outputs (the
    /// message names the case file and line).
    #[error("{0}")]
    Targets(String),
}

impl CpuError {
    /// The shader ran past the emulator's instruction budget: it does not
    /// end (on this case's inputs), and a GPU drawing it would not either.
    pub fn does_not_end(&self) -> bool {
        matches!(
            self,
            CpuError::Pixel {
                source: VmError::Budget { .. },
                ..
            } | CpuError::Vertex {
                source: VmError::Budget { .. },
                ..
            }
        )
    }
}

/// How a render target's values are read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    Float,
    Uint,
    Sint,
}

/// One render target the pixel shader writes: `SV_Target{index}` from
/// output register `register`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub index: u32,
    pub register: u32,
    pub mask: u8,
    pub kind: TargetKind,
}

/// The pixel shader's render targets in index order: from the output
/// signature's `SV_Target` elements, else from its `dcl_output o#`
/// declarations (float, register = target index).
pub fn targets(pixel: &Shader) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    if let Some(els) = pixel.elements(SignatureKind::Output) {
        for el in els {
            if el.system_value() == SystemValue::Target
                || el.semantic_name.eq_ignore_ascii_case("SV_Target")
            {
                let kind = match el.component_type() {
                    ComponentType::Uint32 => TargetKind::Uint,
                    ComponentType::Sint32 => TargetKind::Sint,
                    _ => TargetKind::Float,
                };
                out.push(Target {
                    index: el.semantic_index,
                    register: el.register,
                    mask: el.mask & 0xf,
                    kind,
                });
            }
        }
    }
    if out.is_empty() {
        for inst in &pixel.program.instructions {
            if inst.op != Op::DclOutput {
                continue;
            }
            let Some(op) = inst.operands.first() else {
                continue;
            };
            if op.ty != OperandType::OUTPUT {
                continue;
            }
            if let Some(r) = op.reg()
                && !out.iter().any(|t| t.register == r)
            {
                let mask = op.selection.mask();
                out.push(Target {
                    index: r,
                    register: r,
                    mask: if mask == 0 { 0xf } else { mask },
                    kind: TargetKind::Float,
                });
            }
        }
    }
    out.sort_by_key(|t| t.index);
    out.dedup_by_key(|t| t.index);
    out
}

/// The texel a target receives from an output register's raw lanes.
pub fn target_texel(t: &Target, raw: Reg) -> [f32; 4] {
    std::array::from_fn(|c| {
        if t.mask & (1 << c) == 0 {
            return 0.0;
        }
        match t.kind {
            TargetKind::Float => f32::from_bits(raw[c]),
            TargetKind::Uint => raw[c] as f32,
            TargetKind::Sint => raw[c] as i32 as f32,
        }
    })
}

/// Textures and samplers bound as the case says.
pub fn resources(case: &Case) -> Resources {
    let mut resources = Resources::default();
    for (slot, tex) in &case.textures {
        let slot = *slot as usize;
        if resources.textures.len() <= slot {
            resources.textures.resize(slot + 1, None);
        }
        resources.textures[slot] = Some(tex.clone());
    }
    for (slot, smp) in &case.samplers {
        let slot = *slot as usize;
        if resources.samplers.len() <= slot {
            resources.samplers.resize(slot + 1, None);
        }
        resources.samplers[slot] = Some(*smp);
    }
    for (slot, b) in &case.buffers {
        let slot = *slot as usize;
        if resources.buffers.len() <= slot {
            resources.buffers.resize(slot + 1, None);
        }
        resources.buffers[slot] = Some(b.clone());
    }
    resources
}

/// The case's UAVs by slot, as they start.
pub fn uavs(case: &Case) -> Vec<Option<crate::vm::memory::Buffer>> {
    let mut out: Vec<Option<crate::vm::memory::Buffer>> = Vec::new();
    for (slot, b) in &case.uavs {
        let slot = *slot as usize;
        if out.len() <= slot {
            out.resize(slot + 1, None);
        }
        out[slot] = Some(b.clone());
    }
    out
}

/// Puts the case's constant buffers, and the classes bound to its
/// interface slots, into a setup.
pub fn bind_constant_buffers(case: &Case, setup: &mut Setup) {
    setup.interfaces = case.interfaces.clone();
    for (slot, rows) in &case.constant_buffers {
        let slot = *slot as usize;
        if setup.constant_buffers.len() <= slot {
            setup.constant_buffers.resize(slot + 1, Vec::new());
        }
        setup.constant_buffers[slot] = rows.clone();
    }
}

/// Runs the vertex shader for the four corners and returns the quad the
/// pixel shader sees.
///
/// Inputs: vertex-shader input register `vN` takes the corner's `vN`
/// values from the `[quad]` line; a declared input the corner does not
/// list takes the corner's clip position `X Y Z W` (so a shader whose
/// `v0` is its `POSITION` needs no extra values).
///
/// Outputs: the `SV_Position` output becomes the corner's clip position
/// (the line's `X Y Z W` when there is none). Every other pixel-shader
/// input element is matched with the vertex-shader output of the same
/// semantic name (case-insensitive) and index; the k-th component of the
/// pixel shader's mask takes the k-th component of the vertex shader's.
/// Without signatures on either side, `oN` feeds `vN`.
pub fn vertex_stage(case: &Case, shaders: &CaseShaders) -> Result<Vec<Vertex>, CpuError> {
    let Some(vs) = &shaders.vertex else {
        return Ok(case.quad.clone());
    };
    let file = case.path.display().to_string();
    if vs.program.kind != ProgramType::Vertex {
        return Err(CpuError::Setup {
            file,
            message: "the [vertex shader] is not a vertex shader".into(),
        });
    }
    let mut setup = Setup::empty();
    setup.lanes_used = LANES;
    bind_constant_buffers(case, &mut setup);
    let declared: Vec<u32> = vs
        .program
        .instructions
        .iter()
        .filter(|i| i.op == Op::DclInput)
        .filter_map(|i| i.operands.first())
        .filter(|o| o.ty == OperandType::INPUT)
        .filter_map(|o| o.reg())
        .collect();
    for (lane, corner) in case.quad.iter().enumerate().take(LANES) {
        let count = declared
            .iter()
            .copied()
            .chain(corner.attributes.iter().map(|(r, _)| *r))
            .map(|r| r as usize + 1)
            .max()
            .unwrap_or(0)
            .min(64);
        let mut regs = vec![[0u32; 4]; count];
        for &r in &declared {
            if let Some(slot) = regs.get_mut(r as usize) {
                *slot = corner.position.map(f32::to_bits);
            }
        }
        for (r, v) in &corner.attributes {
            if let Some(slot) = regs.get_mut(*r as usize) {
                *slot = *v;
            }
        }
        setup.inputs[lane] = regs;
    }
    let mut machine =
        Machine::new(Rc::new(vs.program.clone()), setup, resources(case)).map_err(|source| {
            CpuError::Vertex {
                file: file.clone(),
                source,
            }
        })?;
    machine.set_recording(false);
    machine
        .run_to_end()
        .map_err(|source| CpuError::Vertex { file, source })?;
    let outputs: Vec<Vec<Reg>> = (0..LANES)
        .map(|l| machine.state.lanes[l].outputs.clone())
        .collect();

    let vs_out = vs.elements(SignatureKind::Output);
    let ps_in = shaders.pixel.elements(SignatureKind::Input);
    let position_reg = vs_out.and_then(|els| {
        els.iter()
            .find(|e| {
                e.system_value() == SystemValue::Position
                    || e.semantic_name.eq_ignore_ascii_case("SV_Position")
            })
            .map(|e| e.register)
    });
    let mut quad = Vec::new();
    for (lane, corner) in case.quad.iter().enumerate().take(LANES) {
        let out = &outputs[lane];
        let reg = |r: u32| out.get(r as usize).copied().unwrap_or([0; 4]);
        let position = match position_reg {
            Some(r) => reg(r).map(f32::from_bits),
            None => corner.position,
        };
        let mut attributes: Vec<(u32, [u32; 4])> = Vec::new();
        match (vs_out, ps_in) {
            (Some(vs_els), Some(ps_els)) => {
                for pe in ps_els {
                    if pe.is_system_value() {
                        continue;
                    }
                    let Some(ve) = vs_els.iter().find(|v| {
                        v.semantic_name.eq_ignore_ascii_case(&pe.semantic_name)
                            && v.semantic_index == pe.semantic_index
                    }) else {
                        continue;
                    };
                    let src = reg(ve.register);
                    let from: Vec<usize> = (0..4).filter(|c| ve.mask & (1 << c) != 0).collect();
                    let to: Vec<usize> = (0..4).filter(|c| pe.mask & (1 << c) != 0).collect();
                    let idx = match attributes.iter().position(|(r, _)| *r == pe.register) {
                        Some(i) => i,
                        None => {
                            attributes.push((pe.register, [0; 4]));
                            attributes.len() - 1
                        }
                    };
                    for (f, t) in from.iter().zip(&to) {
                        attributes[idx].1[*t] = src[*f];
                    }
                }
            }
            _ => {
                for (r, v) in out.iter().enumerate() {
                    if Some(r as u32) != position_reg {
                        attributes.push((r as u32, *v));
                    }
                }
            }
        }
        quad.push(Vertex {
            position,
            attributes,
        });
    }
    Ok(quad)
}

/// Draws the case with the emulator: one image per render target, in
/// `SV_TargetN` index order.
pub fn render(case: &Case, shaders: &CaseShaders) -> Result<Vec<Image>, CpuError> {
    render_with_uavs(case, shaders).map(|d| d.images)
}

/// What a draw leaves: the target images and the UAVs (`u#` by slot).
#[derive(Debug, Clone)]
pub struct Drawn {
    pub images: Vec<Image>,
    pub uavs: Vec<Option<crate::vm::memory::Buffer>>,
}

/// Draws the case and keeps the UAVs as the draw left them. A shader that
/// uses UAVs runs its quads in row-major order, lanes in quad order (see
/// `draw`); a case must not depend on it.
pub fn render_with_uavs(case: &Case, shaders: &CaseShaders) -> Result<Drawn, CpuError> {
    let file = case.path.display().to_string();
    let pixel = &shaders.pixel;
    if pixel.program.kind != ProgramType::Pixel {
        return Err(CpuError::Setup {
            file,
            message: "the [pixel shader] is not a pixel shader".into(),
        });
    }
    let targets = targets(pixel);
    let plans = plan_targets(case, &targets).map_err(CpuError::Targets)?;
    let mut images: Vec<Image> = plans
        .iter()
        .map(|_| Image::new(case.width, case.height))
        .collect();
    // The depth buffer holds stored depths (already in its format).
    let mut depth: Option<Vec<f32>> = case
        .depth
        .map(|d| vec![d.state.format.quantize(d.clear); (case.width * case.height) as usize]);
    let range = {
        let vp = case.viewport();
        [vp.min_depth, vp.max_depth]
    };
    let writes_depth = writes_odepth(pixel);
    let drawn;
    let case = if shaders.vertex.is_some() {
        let mut c = case.clone();
        c.quad = vertex_stage(case, shaders)?;
        drawn = c;
        &drawn
    } else {
        case
    };
    let resources = resources(case);
    let n = case.samples.max(1);
    // Every target's samples, each starting at the target's clear colour:
    // pixel (x, y)'s sample s at (y * w + x) * n + s.
    let mut samples: Vec<Vec<[f32; 4]>> = plans
        .iter()
        .map(|p| vec![p.cleared(); (case.width * case.height * n) as usize])
        .collect();
    let runs: Vec<Option<u32>> = if runs_per_sample(pixel) {
        (0..n).map(Some).collect()
    } else {
        vec![None]
    };
    let pass = Pass {
        case,
        pixel,
        file: &file,
        targets: &targets,
        plans: &plans,
        resources: &resources,
        runs: &runs,
        writes_depth,
        range,
    };
    let uavs = pass.draw(&mut samples, depth.as_mut(), uavs(case))?;
    for ((buf, image), plan) in samples.iter().zip(images.iter_mut()).zip(&plans) {
        for y in 0..case.height {
            for x in 0..case.width {
                let at = ((y * case.width + x) * n) as usize;
                image.set(x, y, plan.resolve(&buf[at..at + n as usize]));
            }
        }
    }
    if case.reads_depth()
        && let Some(buf) = depth
    {
        let mut img = Image::new(case.width, case.height);
        for (p, d) in img.pixels.iter_mut().zip(buf) {
            *p = [d, 0.0, 0.0, 0.0];
        }
        images.push(img);
    }
    Ok(Drawn { images, uavs })
}

/// The case's render-target plans for the shader's targets.
pub fn plan_targets(case: &Case, targets: &[Target]) -> Result<Vec<TargetPlan>, String> {
    use super::image::TargetKind as Kind;
    let outputs: Vec<(u32, Kind, u32)> = targets
        .iter()
        .map(|t| {
            let kind = match t.kind {
                TargetKind::Float => Kind::Float,
                TargetKind::Uint => Kind::Uint,
                TargetKind::Sint => Kind::Sint,
            };
            // Components up to the highest one the mask names, as the
            // translation declares the output.
            (t.index, kind, 8 - (t.mask & 0xf).leading_zeros())
        })
        .collect();
    render_targets::plan(case, &outputs)
}

/// Whether the shader declares `oDepth` (or a conservative variant): its
/// value, not the rasterizer's, is then tested and stored.
pub fn writes_odepth(pixel: &Shader) -> bool {
    pixel.program.instructions.iter().any(|i| {
        i.op == Op::DclOutput
            && i.operands.first().is_some_and(|o| {
                matches!(
                    o.ty,
                    OperandType::OUTPUT_DEPTH
                        | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
                        | OperandType::OUTPUT_DEPTH_LESS_EQUAL
                )
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn draw(text: &str) -> Vec<Image> {
        let case = Case::parse(text, Path::new("inline.case")).expect("case parses");
        let shaders = case.shaders().expect("shaders assemble");
        render(&case, &shaders).expect("renders")
    }

    #[test]
    fn a_gradient_interpolates_across_the_target() {
        // v1.x runs 0 → 1 from the left edge to the right edge of a 4x2
        // target at w = 1: pixel centre x + 0.5 gives (x + 0.5) / 4.
        let img = draw(
            "[pixel shader]\nps_4_0\ndcl_input_ps linear v1.xy\ndcl_output o0.xyzw\nmov o0.xy, v1.xyxx\nmov o0.zw, l(0.0,0.0,0.0,1.0)\nret\n\
             [render target]\nsize 4 2\n\
             [quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 1 1 0 1 v1 1 0 0 0\nvertex -1 -1 0 1 v1 0 1 0 0\nvertex 1 -1 0 1 v1 1 1 0 0\n",
        );
        assert_eq!(img.len(), 1);
        for y in 0..2 {
            for x in 0..4 {
                let p = img[0].get(x, y);
                assert_eq!(p[0], (x as f32 + 0.5) / 4.0, "x at ({x},{y})");
                assert_eq!(p[1], (y as f32 + 0.5) / 2.0, "y at ({x},{y})");
                assert_eq!(p[3], 1.0);
            }
        }
    }

    #[test]
    fn a_malformed_block_structure_is_an_error_naming_the_case() {
        let case = Case::parse(
            "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nendif\nret\n\
             [render target]\nsize 2 2\n",
            Path::new("broken.case"),
        )
        .expect("case parses");
        let shaders = case.shaders().expect("shaders assemble");
        let err = render(&case, &shaders).expect_err("an endif without if cannot run");
        assert!(matches!(err, CpuError::Program { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.starts_with("broken.case: pixel shader:"), "{text}");
        assert!(text.contains("endif"), "{text}");
    }

    #[test]
    fn sv_position_gives_pixel_centres_and_clip_w() {
        let img = draw(
            "[pixel shader]\nps_4_0\ndcl_input_ps_siv linear noperspective v0.xyzw, position\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n\
             [render target]\nsize 4 4\n\
             [quad]\nvertex -2 2 1 2\nvertex 2 2 1 2\nvertex -2 -2 1 2\nvertex 2 -2 1 2\n",
        );
        for y in 0..4 {
            for x in 0..4 {
                assert_eq!(
                    img[0].get(x, y),
                    [x as f32 + 0.5, y as f32 + 0.5, 0.5, 2.0],
                    "({x},{y})"
                );
            }
        }
    }

    #[test]
    fn discard_leaves_zero_and_uncovered_pixels_stay_zero() {
        // Discard where v1.x < 0.5 (the left half); the quad covers only
        // the top half of the target (y from 1 to 0 in clip space).
        let img = draw(
            "[pixel shader]\nps_4_0\ndcl_input_ps linear v1.x\ndcl_output o0.xyzw\ndcl_temps 1\nlt r0.x, v1.x, l(0.5)\ndiscard_nz r0.x\nmov o0.xyzw, l(1.0,2.0,3.0,4.0)\nret\n\
             [render target]\nsize 4 4\n\
             [quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 1 1 0 1 v1 1 0 0 0\nvertex -1 0 0 1 v1 0 0 0 0\nvertex 1 0 0 1 v1 1 0 0 0\n",
        );
        for y in 0..4 {
            for x in 0..4 {
                let expected = if y < 2 && x >= 2 {
                    [1.0, 2.0, 3.0, 4.0]
                } else {
                    [0.0; 4]
                };
                assert_eq!(img[0].get(x, y), expected, "({x},{y})");
            }
        }
    }

    #[test]
    fn integer_targets_read_back_as_integer_values() {
        let t = Target {
            index: 0,
            register: 0,
            mask: 0b0111,
            kind: TargetKind::Sint,
        };
        assert_eq!(
            target_texel(&t, [7, (-1i32) as u32, 0x3f80_0000, 5]),
            [7.0, -1.0, 1_065_353_216.0, 0.0]
        );
        let t = Target {
            kind: TargetKind::Uint,
            ..t
        };
        assert_eq!(target_texel(&t, [u32::MAX, 1, 2, 3])[0], 4_294_967_296.0);
    }

    #[test]
    fn two_targets_come_in_index_order() {
        let img = draw(
            "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\ndcl_output o1.xyzw\nmov o1.xyzw, l(1.0,1.0,1.0,1.0)\nmov o0.xyzw, l(2.0,2.0,2.0,2.0)\nret\n[render target]\nsize 2 2\n",
        );
        assert_eq!(img.len(), 2);
        assert_eq!(img[0].get(1, 1), [2.0; 4]);
        assert_eq!(img[1].get(0, 0), [1.0; 4]);
    }

    #[test]
    fn a_vertex_shader_feeds_the_pixel_shader() {
        // The VS scales the corner positions by 0.5 (covering the middle
        // 2x2 of a 4x4 target) and passes v1 through as TEXCOORD0.
        let img = draw(
            "[vertex shader]\nvs_4_0\ndcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n.semantic v0 POSITION 0\n.semantic v1 TEXCOORD 0\n.semantic o1 TEXCOORD 0\nmul o0.xy, v0.xyxx, l(0.5, 0.5, 0, 0)\nmov o0.zw, v0.zzzw\nmov o1.xyzw, v1.xyzw\nret\n\
             [pixel shader]\nps_4_0\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\n.semantic v1 TEXCOORD 0\nmov o0.xyzw, v1.xyzw\nret\n\
             [render target]\nsize 4 4\n\
             [quad]\nvertex -1 1 0 1 v1 3 3 3 3\nvertex 1 1 0 1 v1 3 3 3 3\nvertex -1 -1 0 1 v1 3 3 3 3\nvertex 1 -1 0 1 v1 3 3 3 3\n",
        );
        for y in 0..4 {
            for x in 0..4 {
                let inside = (1..3).contains(&x) && (1..3).contains(&y);
                let expected = if inside { [3.0; 4] } else { [0.0; 4] };
                assert_eq!(img[0].get(x, y), expected, "({x},{y})");
            }
        }
    }

    #[test]
    fn a_float_output_into_a_uint_target_is_an_error_before_anything_is_drawn() {
        let case = Case::parse(
            "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0,1.0,1.0,1.0)\nret\n\
             [render target]\nsize 2 2\nformat 0 r32_uint\n",
            Path::new("mismatch.case"),
        )
        .expect("case parses");
        let shaders = case.shaders().expect("shaders assemble");
        let err = render(&case, &shaders).expect_err("float into uint");
        assert!(matches!(err, CpuError::Targets(_)), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("mismatch.case:8: SV_Target0 is a `float` output"),
            "{err}"
        );
    }

    #[test]
    fn clip_space_past_the_far_plane_or_outside_the_viewport_is_not_drawn() {
        // The quad's z runs 0.5 -> 1.5 left to right at w = 1: at column x
        // of 4, z/w = 0.5 + (x + 0.5) / 4 = 0.625, 0.875, 1.125, 1.375.
        // D3D clips past 1: the right half keeps the clear colour.
        let img = draw(
            "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0,1.0,1.0,1.0)\nret\n\
             [render target]\nsize 4 1\nclear 0 0.5 0.5 0.5 0.5\n\
             [quad]\nvertex -1 1 0.5 1\nvertex 1 1 1.5 1\nvertex -1 -1 0.5 1\nvertex 1 -1 1.5 1\n",
        );
        let row: Vec<[f32; 4]> = (0..4).map(|x| img[0].get(x, 0)).collect();
        assert_eq!(row, [[1.0; 4], [1.0; 4], [0.5; 4], [0.5; 4]]);
        // A viewport over columns 1..3: the same quad at z 0 covers it only.
        let img = draw(
            "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0,1.0,1.0,1.0)\nret\n\
             [render target]\nsize 4 1\nviewport 1 0 2 1\n",
        );
        let row: Vec<[f32; 4]> = (0..4).map(|x| img[0].get(x, 0)).collect();
        assert_eq!(row, [[0.0; 4], [1.0; 4], [1.0; 4], [0.0; 4]]);
    }
}
