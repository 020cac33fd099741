//! `Machine::explain_fetch` on a tiny program: derivatives from the quad,
//! the lanes' own coordinates, and the value a step then writes. Expected
//! values are worked by hand from the D3D11 functional spec.

use std::rc::Rc;

use super::*;
use crate::dxbc::asm::test_shader;
use crate::vm::texture::{FetchKind, Format, Lod, TapSource, Texture};
use crate::vm::{Loc, Resources, Setup};

const PROGRAM: &str = "ps_5_0\n\
    dcl_sampler s0, mode_default\n\
    dcl_resource_texture2d (float,float,float,float) t0\n\
    dcl_input_ps linear v0.xy\n\
    dcl_output o0.xyzw\n\
    dcl_temps 1\n\
    sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0\n\
    ld_indexable(texture2d)(float,float,float,float) o0.xyzw, l(1, 0, 0, 0), t0.zxyw\n\
    ret\n";

/// 2x2 R32_FLOAT, red (0,0)=1 (1,0)=2 (0,1)=4 (1,1)=8; the default
/// sampler (linear, clamp).
fn machine() -> Machine {
    let s = test_shader(PROGRAM);
    let t = [1.0f32, 2.0, 4.0, 8.0].map(|v| [v, 0.0, 0.0, 0.0]);
    let tex = Texture::from_f32(TextureDesc::tex2d(Format::R32Float, 2, 2), &t).unwrap();
    let resources = Rc::new(Resources {
        textures: vec![Some(tex)],
        samplers: Vec::new(),
        buffers: Vec::new(),
    });
    // Lane 0 at (0.375, 0.375); lane 1 a quarter to the right, lane 2 a
    // quarter down, lane 3 both.
    let mut setup = Setup::empty();
    for (l, (u, v)) in [
        (0.375f32, 0.375f32),
        (0.625, 0.375),
        (0.375, 0.625),
        (0.625, 0.625),
    ]
    .into_iter()
    .enumerate()
    {
        setup.inputs[l] = vec![[u.to_bits(), v.to_bits(), 0, 0]];
    }
    let mut m = Machine::new(Rc::new(s.program), setup, resources).unwrap();
    let at = m
        .program()
        .instructions
        .iter()
        .position(|i| i.op == Op::Sample)
        .unwrap();
    // Declarations do not step: the machine may start on the sample.
    if m.pc() != at {
        m.run_to(at).unwrap();
    }
    assert_eq!(m.pc(), at);
    m
}

#[test]
fn sample_takes_the_quads_derivatives_and_each_lanes_coordinate() {
    let m = machine();
    let lanes = m.explain_fetch().unwrap().expect("a sample");
    let l0 = lanes[0].as_ref().unwrap();
    assert_eq!(l0.texture, 0);
    assert_eq!(l0.sampler.map(|(n, _)| n), Some(0));
    let d = l0.detail.as_ref().unwrap();
    assert_eq!(d.kind, FetchKind::Sample);
    // ddx = lane 1 − lane 0, ddy = lane 2 − lane 0, of the address as
    // swizzled (v0.xyxx: its z is x again, which a 2D texture ignores):
    // ddx = (0.25, 0, 0.25), ddy = (0, 0.25, 0).
    // LOD = log2(max(0.25·2, 0.25·2)) = log2(0.5) = −1: magnification,
    // held to the mip range at 0, level 0 only.
    let lod = d.lod.as_ref().unwrap();
    assert_eq!(
        lod.source,
        Lod::FromGradients {
            ddx: [0.25, 0.0, 0.25],
            ddy: [0.0, 0.25, 0.0],
            bias: 0.0
        }
    );
    assert_eq!((lod.clamped, lod.lod, lod.magnify), (-1.0, 0.0, true));
    // Lane 0: position 0.375·2 − 0.5 = 0.25 on both axes, weights
    // 0.5625, 0.1875, 0.1875, 0.0625 → 1·0.5625 + 2·0.1875 + 4·0.1875 +
    // 8·0.0625 = 2.1875.
    let w: Vec<f64> = d.taps.iter().map(|t| t.weight.unwrap()).collect();
    assert_eq!(w, vec![0.5625, 0.1875, 0.1875, 0.0625]);
    assert_eq!(f32::from_bits(l0.value[0]), 2.1875);
    // Lane 3: 0.625·2 − 0.5 = 0.75: weights 0.0625, 0.1875, 0.1875, 0.5625
    // → 0.0625 + 0.375 + 0.75 + 4.5 = 5.6875.
    let l3 = lanes[3].as_ref().unwrap();
    assert_eq!(f32::from_bits(l3.value[0]), 5.6875);
}

#[test]
fn explaining_matches_the_step_and_moves_nothing() {
    let mut m = machine();
    let (pc, position) = (m.pc(), m.position());
    let lanes = m.explain_fetch().unwrap().unwrap();
    assert_eq!((m.pc(), m.position()), (pc, position));
    m.step().unwrap();
    for (l, f) in lanes.iter().enumerate() {
        let r0 = *m.state.lanes[l].get(Loc::Temp(0)).unwrap();
        assert_eq!(f.as_ref().unwrap().value, r0, "lane {l}");
    }
    // Next: ld (1, 0) → texel (1,0) = 2, swizzled .zxyw: (0, 2, 0, 1)
    // (R32_FLOAT's missing G, B read 0 and A 1).
    let lanes = m.explain_fetch().unwrap().unwrap();
    let l0 = lanes[0].as_ref().unwrap();
    let d = l0.detail.as_ref().unwrap();
    assert_eq!(d.kind, FetchKind::Load);
    assert!(l0.sampler.is_none());
    assert_eq!(
        d.taps[0].source,
        TapSource::Texel {
            layer: 0,
            level: 0,
            xyz: [1, 0, 0],
            in_bounds: true
        }
    );
    assert_eq!(l0.value, [0, 2.0f32.to_bits(), 0, 1.0f32.to_bits()]);
    m.step().unwrap();
    // `ret` reads no texture.
    assert_eq!(m.explain_fetch().unwrap(), None);
}
