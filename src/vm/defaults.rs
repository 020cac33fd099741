//! Inputs for running any shader at once, without a case file: the
//! documented defaults (`docs/emulator.md`). A pixel shader runs for the 2x2
//! quad holding the chosen pixel of a `width`x`height` target; each input
//! gets values that vary across the target so stepping shows something.

use super::Resources;
use super::state::{LANES, Reg, Setup};
use crate::dxbc::Shader;
use crate::dxbc::analysis::Registers;
use crate::dxbc::enums::{ComponentType, SamplerMode, SystemValue};
use crate::dxbc::ir::DeclKind;
use crate::dxbc::ir::{Program, ProgramType};
use crate::dxbc::opcodes::Op;

/// The pixel (and its quad) a pixel shader is run for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelChoice {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl Default for PixelChoice {
    fn default() -> Self {
        PixelChoice {
            x: 0,
            y: 0,
            width: 64,
            height: 64,
        }
    }
}

impl PixelChoice {
    /// The lane of the quad that holds the chosen pixel.
    pub fn lane(&self) -> usize {
        (self.x & 1) as usize + 2 * (self.y & 1) as usize
    }

    /// Pixel coordinates of each lane of the quad.
    pub fn lane_pixels(&self) -> [(u32, u32); LANES] {
        let (qx, qy) = (self.x & !1, self.y & !1);
        [(qx, qy), (qx + 1, qy), (qx, qy + 1), (qx + 1, qy + 1)]
    }
}

const F1: u32 = 0x3f80_0000;

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// Inputs for `shader`, one per register of its input layout (signature
/// and declarations merged by the analysis pass).
pub fn default_setup(shader: &Shader, pixel: PixelChoice) -> Setup {
    let program = &shader.program;
    let mut setup = Setup::empty();
    let (inputs, registers) = (shader.input_layout(), shader.register_sizes());
    let count = inputs.count().min(64) as usize;
    let lane_pixels = pixel.lane_pixels();
    for (lane, &lane_pixel) in lane_pixels.iter().enumerate() {
        let mut v: Vec<Reg> = vec![[0; 4]; count];
        for r in &inputs.registers {
            let Some(slot) = v.get_mut(r.register as usize) else {
                continue;
            };
            let (sv, ty) = (r.system_value, r.component_type);
            *slot = match program.kind {
                ProgramType::Pixel => pixel_input(sv, ty, lane_pixel, pixel),
                _ => vertex_input(sv, ty, r.register, lane),
            };
        }
        setup.inputs[lane] = v;
    }
    setup.constant_buffers = constant_buffers(&registers);
    setup
}

fn pixel_input(sv: SystemValue, ty: ComponentType, (px, py): (u32, u32), p: PixelChoice) -> Reg {
    let (cx, cy) = (px as f32 + 0.5, py as f32 + 0.5);
    match sv {
        SystemValue::Position => [f(cx), f(cy), f(0.5), F1],
        SystemValue::IsFrontFace => [u32::MAX; 4],
        SystemValue::PrimitiveId => [0; 4],
        _ if ty.is_integer() => [px, py, 0, 1],
        _ => [
            f(cx / p.width.max(1) as f32),
            f(cy / p.height.max(1) as f32),
            0,
            F1,
        ],
    }
}

/// A vertex shader's four lanes are the corners of a full-screen quad.
fn vertex_input(sv: SystemValue, ty: ComponentType, register: u32, lane: usize) -> Reg {
    let (u, v) = ((lane & 1) as f32, (lane >> 1) as f32);
    match sv {
        SystemValue::VertexId => [lane as u32; 4],
        SystemValue::InstanceId => [0; 4],
        _ if ty.is_integer() => [lane as u32, 0, 0, 1],
        _ if register == 0 => [f(u * 2.0 - 1.0), f(1.0 - v * 2.0), f(0.5), F1],
        _ => [f(u), f(v), 0, F1],
    }
}

/// Every declared constant buffer, zero-filled at its declared size.
fn constant_buffers(registers: &Registers) -> Vec<Vec<Reg>> {
    let mut cbs: Vec<Vec<Reg>> = Vec::new();
    for (&slot, &rows) in &registers.constant_buffers {
        let slot = slot.min(15) as usize;
        if cbs.len() <= slot {
            cbs.resize(slot + 1, Vec::new());
        }
        cbs[slot] = vec![[0; 4]; rows.min(4096) as usize];
    }
    cbs
}

/// What the default textures hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultTextures {
    /// 1x1 (per dimension) black, alpha 1: the neutral input.
    Black,
    /// 8x8 (per dimension) black-and-white checker with a full mip chain, so
    /// stepping through a sample shows filtering.
    Checker,
}

/// A texture of the declared dimension on every `dcl_resource` slot, and a
/// sampler on every `dcl_sampler` slot (D3D's default state; comparison
/// samplers compare with `less_equal`, the usual shadow-map test).
pub fn default_resources(program: &Program, kind: DefaultTextures) -> Resources {
    use super::texture::{ComparisonFunc, Dimension, Format, Texture, TextureDesc};
    let mut res = Resources::default();
    for inst in &program.instructions {
        let Some(slot) = inst.operands.first().and_then(|o| o.reg()) else {
            continue;
        };
        let slot = slot.min(127) as usize;
        match inst.op {
            Op::DclResource => {
                let Some(dimension) = inst
                    .resource_dimension()
                    .and_then(Dimension::from_resource_dim)
                else {
                    continue;
                };
                let integer = match &inst.decl {
                    DeclKind::ReturnTypes(t) => t[0].is_integer(),
                    _ => false,
                };
                let format = if integer {
                    Format::R32Uint
                } else {
                    Format::Rgba8Unorm
                };
                let n = if kind == DefaultTextures::Checker {
                    8
                } else {
                    1
                };
                let desc = match dimension {
                    Dimension::Buffer => TextureDesc::buffer(format, n),
                    Dimension::Tex1D => TextureDesc::tex1d(format, n),
                    Dimension::Tex1DArray => TextureDesc::tex1d_array(format, n, 2),
                    Dimension::Tex2D => TextureDesc::tex2d(format, n, n),
                    Dimension::Tex2DArray => TextureDesc::tex2d_array(format, n, n, 2),
                    Dimension::Tex2DMS => TextureDesc::tex2d_ms(format, n, n, 1),
                    Dimension::Tex2DMSArray => TextureDesc::tex2d_ms_array(format, n, n, 2, 1),
                    Dimension::Tex3D => TextureDesc::tex3d(format, n, n, n),
                    Dimension::Cube => TextureDesc::cube(format, n),
                    Dimension::CubeArray => TextureDesc::cube_array(format, n, 1),
                };
                let desc = if kind == DefaultTextures::Checker
                    && !dimension.is_multisampled()
                    && dimension != Dimension::Buffer
                {
                    desc.with_mips(0)
                } else {
                    desc
                };
                let texels = desc_texels(&desc, kind, integer);
                if let Ok(t) = Texture::from_lanes(desc, &texels) {
                    if res.textures.len() <= slot {
                        res.textures.resize(slot + 1, None);
                    }
                    res.textures[slot] = Some(t);
                }
            }
            Op::DclSampler => {
                let mut s = super::texture::Sampler::default();
                if inst.sampler_mode() == Some(SamplerMode::Comparison) {
                    s.comparison = ComparisonFunc::LessEqual;
                }
                if res.samplers.len() <= slot {
                    res.samplers.resize(slot + 1, None);
                }
                res.samplers[slot] = Some(s);
            }
            _ => {}
        }
    }
    res
}

/// Texel lanes for a default texture: black (alpha 1), or a checker of
/// 0/1 per texel parity across every level and layer.
fn desc_texels(
    desc: &super::texture::TextureDesc,
    kind: DefaultTextures,
    integer: bool,
) -> Vec<[u32; 4]> {
    let count = super::texture::Texture::zeroed(*desc)
        .map(|t| t.texel_count())
        .unwrap_or(0);
    let one = if integer { 1 } else { F1 };
    (0..count)
        .map(|i| {
            let on = kind == DefaultTextures::Checker && (i + i / 8) % 2 == 1;
            let v = if on { one } else { 0 };
            [v, v, v, one]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::asm::test_shader as shader;

    #[test]
    fn pixel_inputs_follow_the_layout() {
        // v0 position, v1 a float attribute, v2 front face (declared
        // `_sgv`, so a uint in the derived signature).
        let s = shader(
            "ps_4_0\n\
             dcl_input_ps_siv linear noperspective v0.xy, position\n\
             dcl_input_ps linear v1.xy\n\
             dcl_input_ps_sgv v2.x, is_front_face\n\
             dcl_output o0.xyzw\n\
             mov o0.xyzw, v1.xyxx\n\
             ret\n",
        );
        let choice = PixelChoice {
            x: 3,
            y: 2,
            width: 8,
            height: 4,
        };
        let setup = default_setup(&s, choice);
        // Lane 1 of the quad at (2, 2) is pixel (3, 2): centre (3.5, 2.5).
        let lane = &setup.inputs[choice.lane()];
        assert_eq!(lane.len(), 3);
        assert_eq!(lane[0], [f(3.5), f(2.5), f(0.5), F1]);
        // The attribute is the centre over the target size.
        assert_eq!(lane[1], [f(3.5 / 8.0), f(2.5 / 4.0), 0, F1]);
        assert_eq!(lane[2], [u32::MAX; 4]);
    }

    #[test]
    fn constant_buffers_take_their_declared_rows() {
        // cb2 with 3 rows; slots 0 and 1 are not declared and stay empty.
        let s = shader(
            "ps_4_0\n\
             dcl_constantbuffer cb2[3], immediateIndexed\n\
             dcl_output o0.xyzw\n\
             mov o0.xyzw, cb2[2].xyzw\n\
             ret\n",
        );
        let setup = default_setup(&s, PixelChoice::default());
        let rows: Vec<usize> = setup.constant_buffers.iter().map(Vec::len).collect();
        assert_eq!(rows, vec![0, 0, 3]);
    }
}
