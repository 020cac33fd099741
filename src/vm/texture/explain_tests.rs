//! The explanation lists what the D3D11 functional spec says the filter
//! reads; every expected value below is worked by hand from its rules
//! (texel-space position u·size − 0.5 for linear filters and gathers,
//! snapped to 8 fractional bits; bilinear weights (1 − f) and f per axis).

use super::*;
use crate::vm::texture::{AddressMode, ComparisonFunc, Format, TextureDesc};

fn texel(x: u32, y: u32, level: u32) -> TapSource {
    TapSource::Texel {
        layer: 0,
        level,
        xyz: [x, y, 0],
        in_bounds: true,
    }
}

/// 2x2 R32_FLOAT, red (0,0)=1 (1,0)=2 (0,1)=4 (1,1)=8.
fn ramp() -> Texture {
    let t = [1.0, 2.0, 4.0, 8.0].map(|v| [v, 0.0, 0.0, 0.0]);
    Texture::from_f32(TextureDesc::tex2d(Format::R32Float, 2, 2), &t).unwrap()
}

/// 2x2 D32_FLOAT depths (0,0)=0.25 (1,0)=0.5 (0,1)=0.75 (1,1)=1.
fn depths() -> Texture {
    let t = [0.25, 0.5, 0.75, 1.0].map(|v| [v, 0.0, 0.0, 0.0]);
    Texture::from_f32(TextureDesc::tex2d(Format::D32Float, 2, 2), &t).unwrap()
}

fn taps(d: &FetchDetail) -> Vec<(TapSource, Option<f64>, Option<f64>)> {
    d.taps
        .iter()
        .map(|t| (t.source, t.weight, t.compared))
        .collect()
}

#[test]
fn bilinear_sample_lists_four_weighted_texels() {
    // u = v = 0.375: 0.375·2 − 0.5 = 0.25 → i0 = j0 = 0, f = 0.25.
    // Weights (1−fx)(1−fy) = 0.5625, fx(1−fy) = 0.1875, (1−fx)fy = 0.1875,
    // fx·fy = 0.0625; result 0.5625·1 + 0.1875·2 + 0.1875·4 + 0.0625·8
    // = 2.1875. LOD 0 (sample_l 0) is magnification: one level, weight 1.
    let d = explain_sample(
        &ramp(),
        &Sampler::linear(),
        [0.375, 0.375, 0.0, 0.0],
        [0; 3],
        Lod::Explicit(0.0),
        lod::NO_LOD_CLAMP,
        None,
    );
    assert_eq!(d.kind, FetchKind::Sample);
    assert_eq!(
        taps(&d),
        vec![
            (texel(0, 0, 0), Some(0.5625), None),
            (texel(1, 0, 0), Some(0.1875), None),
            (texel(0, 1, 0), Some(0.1875), None),
            (texel(1, 1, 0), Some(0.0625), None),
        ]
    );
    assert_eq!(d.taps[3].value[0], 8.0f32.to_bits());
    assert_eq!(f32::from_bits(d.result[0]), 2.1875);
    let lod = d.lod.unwrap();
    assert_eq!(
        (lod.lod, lod.magnify, lod.levels),
        (0.0, true, vec![(0, 1.0)])
    );
}

#[test]
fn mip_blend_multiplies_level_and_footprint_weights() {
    // 2x2 level 0 (all 1) and 1x1 level 1 (5); point min/mag, linear mip;
    // sample_l 0.5: levels 0 and 1 at 0.5 each. Point at u = v = 0.25
    // reads floor(0.25·2) = texel (0,0) at level 0 and (0,0) at level 1.
    // Result 0.5·1 + 0.5·5 = 3.
    let mut t = vec![[1.0, 0.0, 0.0, 0.0]; 4];
    t.push([5.0, 0.0, 0.0, 0.0]);
    let tex =
        Texture::from_f32(TextureDesc::tex2d(Format::R32Float, 2, 2).with_mips(2), &t).unwrap();
    let smp = Sampler {
        mip_filter: Filter::Linear,
        ..Sampler::point()
    };
    let d = explain_sample(
        &tex,
        &smp,
        [0.25, 0.25, 0.0, 0.0],
        [0; 3],
        Lod::Explicit(0.5),
        lod::NO_LOD_CLAMP,
        None,
    );
    assert_eq!(
        taps(&d),
        vec![
            (texel(0, 0, 0), Some(0.5), None),
            (texel(0, 0, 1), Some(0.5), None)
        ]
    );
    let lod = d.lod.unwrap();
    assert_eq!((lod.lod, lod.magnify), (0.5, false));
    assert_eq!(f32::from_bits(d.result[0]), 3.0);
}

#[test]
fn comparison_sample_lists_each_taps_result() {
    // Linear at the centre (0.5, 0.5): position 0.5 → i0 = j0 = 0, f = 0.5,
    // every weight 0.25. Less with reference 0.6: 0.6 < 0.25 and 0.6 < 0.5
    // fail, 0.6 < 0.75 and 0.6 < 1 pass: result 0.25 + 0.25 = 0.5.
    let smp = Sampler {
        comparison: ComparisonFunc::Less,
        ..Sampler::linear()
    };
    let d = explain_sample(
        &depths(),
        &smp,
        [0.5, 0.5, 0.0, 0.0],
        [0; 3],
        Lod::Zero,
        lod::NO_LOD_CLAMP,
        Some(0.6),
    );
    assert_eq!(d.kind, FetchKind::SampleCompare);
    assert_eq!(d.reference, Some(0.6));
    assert_eq!(
        taps(&d),
        vec![
            (texel(0, 0, 0), Some(0.25), Some(0.0)),
            (texel(1, 0, 0), Some(0.25), Some(0.0)),
            (texel(0, 1, 0), Some(0.25), Some(1.0)),
            (texel(1, 1, 0), Some(0.25), Some(1.0)),
        ]
    );
    assert_eq!(d.result, [0.5f32.to_bits(); 4]);
}

#[test]
fn gather_compare_taps_in_result_order() {
    // Centre (0.5, 0.5): i0 = j0 = 0; taps x = (0,1), y = (1,1), z = (1,0),
    // w = (0,0). Less, reference 0.6: 0.75 and 1 pass, 0.5 and 0.25 fail.
    let smp = Sampler {
        comparison: ComparisonFunc::Less,
        ..Sampler::point()
    };
    let d = explain_gather(
        &depths(),
        &smp,
        [0.5, 0.5, 0.0, 0.0],
        [0, 0],
        false,
        0,
        Some(0.6),
    );
    assert_eq!(
        taps(&d),
        vec![
            (texel(0, 1, 0), None, Some(1.0)),
            (texel(1, 1, 0), None, Some(1.0)),
            (texel(1, 0, 0), None, Some(0.0)),
            (texel(0, 0, 0), None, Some(0.0)),
        ]
    );
    assert_eq!(d.result, [1.0f32, 1.0, 0.0, 0.0].map(f32::to_bits));
}

#[test]
fn programmable_offset_shows_its_low_six_bits() {
    // 65 = 0b1000001: low 6 bits 1. Wrap on a 2-wide texture: i0 = 0 + 1
    // = 1, i1 = 2 ≡ 0. Taps x = (1,1) = 8, y = (0,1) = 4, z = (0,0) = 1,
    // w = (1,0) = 2.
    let smp = Sampler::point().with_address(AddressMode::Wrap);
    let d = explain_gather(&ramp(), &smp, [0.5, 0.5, 0.0, 0.0], [65, 0], true, 0, None);
    assert_eq!(d.offset, [1, 0, 0]);
    let got: Vec<TapSource> = d.taps.iter().map(|t| t.source).collect();
    assert_eq!(
        got,
        vec![
            texel(1, 1, 0),
            texel(0, 1, 0),
            texel(0, 0, 0),
            texel(1, 0, 0)
        ]
    );
    assert_eq!(d.result, [8.0f32, 4.0, 1.0, 2.0].map(f32::to_bits));
}

#[test]
fn load_names_the_texel_and_out_of_range() {
    // ld (0, 1) + aoffimmi (1, 0) reads texel (1, 1) = 8; (2, 0) is past
    // the 2-wide texture: out of bounds, zero in R and default alpha 1.
    let d = explain_ld(&ramp(), [0, 1, 0, 0], [1, 0, 0]);
    assert_eq!(taps(&d), vec![(texel(1, 1, 0), None, None)]);
    assert_eq!(f32::from_bits(d.result[0]), 8.0);
    let d = explain_ld(&ramp(), [2, 0, 0, 0], [0; 3]);
    assert_eq!(
        d.taps[0].source,
        TapSource::Texel {
            layer: 0,
            level: 0,
            xyz: [2, 0, 0],
            in_bounds: false
        }
    );
    assert_eq!(d.result, [0, 0, 0, 1.0f32.to_bits()]);
}
