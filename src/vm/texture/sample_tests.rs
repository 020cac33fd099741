//! Unit tests of sampling: filtering, LOD, comparison (PCF) and the
//! per-sample LOD clamp, against texels worked by hand.

use super::*;
use crate::vm::texture::{AddressMode, ComparisonFunc, TextureDesc};

fn f(bits: [u32; 4]) -> [f32; 4] {
    bits.map(f32::from_bits)
}

fn r(bits: [u32; 4]) -> f32 {
    f32::from_bits(bits[0])
}

const L0: Lod = Lod::Zero;

/// 2x2 depth texture, row-major: (0,0)=0.2, (1,0)=0.4, (0,1)=0.6, (1,1)=0.8.
fn depth(format: Format) -> Texture {
    let t = [0.2, 0.4, 0.6, 0.8].map(|d| [d, 0.0, 0.0, 0.0]);
    Texture::from_f32(TextureDesc::tex2d(format, 2, 2), &t).unwrap()
}

/// A `w` x `h` 2D texture with `levels` mips (0: the full chain) whose
/// texels, level 0 first, hold `reds` in their red channel.
fn mip_chain(format: Format, w: u32, h: u32, levels: u32, reds: &[f32]) -> Texture {
    let texels: Vec<[f32; 4]> = reds.iter().map(|&v| [v, 0.0, 0.0, 0.0]).collect();
    Texture::from_f32(TextureDesc::tex2d(format, w, h).with_mips(levels), &texels).unwrap()
}

fn cmp_sampler(func: ComparisonFunc, filter: Filter) -> Sampler {
    Sampler {
        comparison: func,
        min_filter: filter,
        mag_filter: filter,
        ..Sampler::point()
    }
}

#[test]
fn pcf_every_function_at_and_between_texel_depths() {
    use ComparisonFunc::*;
    let t = depth(Format::D32Float);
    // u·2 − 0.5 = 0.25, v·2 − 0.5 = 0.75: weights (0,0) 3/16,
    // (1,0) 1/16, (0,1) 9/16, (1,1) 3/16.
    let at = [0.375, 0.625, 0.0, 0.0];
    let cases: [(f32, [f32; 8]); 4] = [
        // Never, Less, Equal, LessEqual, Greater, NotEqual, GreaterEqual, Always
        (0.5, [0.0, 0.75, 0.0, 0.75, 0.25, 1.0, 0.25, 1.0]),
        (0.4, [0.0, 0.75, 0.0625, 0.8125, 0.1875, 0.9375, 0.25, 1.0]),
        (0.8, [0.0, 0.0, 0.1875, 0.1875, 0.8125, 0.8125, 1.0, 1.0]),
        (0.1, [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
    ];
    for (reference, want) in cases {
        for (func, want) in ComparisonFunc::ALL.into_iter().zip(want) {
            let smp = cmp_sampler(func, Filter::Linear);
            let got = sample_c(&t, &smp, at, [0; 3], reference, L0);
            assert_eq!(f(got), [want; 4], "ref {reference} {func:?}");
        }
    }
    // Filtering the depths first would give 0.55 and compare 0.5 < 0.55
    // as 1.0; comparing each texel first gives 0.75.
    let smp = cmp_sampler(Less, Filter::Linear);
    assert_eq!(r(sample_c(&t, &smp, at, [0; 3], 0.5, L0)), 0.75);
}

#[test]
fn pcf_point_filter_and_texel_boundaries() {
    use ComparisonFunc::*;
    let t = depth(Format::D32Float);
    // Point: texel (floor(0.75), floor(1.25)) = (0, 1), depth 0.6.
    let smp = cmp_sampler(Less, Filter::Point);
    assert_eq!(
        r(sample_c(
            &t,
            &smp,
            [0.375, 0.625, 0.0, 0.0],
            [0; 3],
            0.5,
            L0
        )),
        1.0
    );
    assert_eq!(
        r(sample_c(
            &t,
            &smp,
            [0.375, 0.625, 0.0, 0.0],
            [0; 3],
            0.6,
            L0
        )),
        0.0
    );
    // Point picks floor(u·W): u = 0.5 is texel 1's left edge.
    let smp = cmp_sampler(Equal, Filter::Point);
    assert_eq!(
        r(sample_c(&t, &smp, [0.5, 0.0, 0.0, 0.0], [0; 3], 0.4, L0)),
        1.0
    );
    assert_eq!(
        r(sample_c(&t, &smp, [0.4999, 0.0, 0.0, 0.0], [0; 3], 0.4, L0)),
        1.0
    ); // snaps up
    assert_eq!(
        r(sample_c(&t, &smp, [0.498, 0.0, 0.0, 0.0], [0; 3], 0.2, L0)),
        1.0
    );
    // Linear exactly on texel centres (u·2 − 0.5 = 0): one texel only.
    let smp = cmp_sampler(GreaterEqual, Filter::Linear);
    assert_eq!(
        r(sample_c(&t, &smp, [0.25, 0.25, 0.0, 0.0], [0; 3], 0.2, L0)),
        1.0
    );
    // 1/1024 texel past the centre snaps back onto it …
    let u = 0.25 + 1.0 / 2048.0;
    assert_eq!(
        r(sample_c(&t, &smp, [u, 0.25, 0.0, 0.0], [0; 3], 0.2, L0)),
        1.0
    );
    // … 1/256 texel past gives the neighbour (0.4, fails) weight 1/256.
    let u = 0.25 + 1.0 / 512.0;
    assert_eq!(
        r(sample_c(&t, &smp, [u, 0.25, 0.0, 0.0], [0; 3], 0.2, L0)),
        255.0 / 256.0
    );
    // Offsets move the footprint: one texel right reads 0.4.
    assert_eq!(
        r(sample_c(
            &t,
            &smp,
            [0.25, 0.25, 0.0, 0.0],
            [1, 0, 0],
            0.2,
            L0
        )),
        0.0
    );
}

#[test]
fn pcf_reference_clamp_depends_on_format() {
    use ComparisonFunc::*;
    let one = [[1.0f32, 0.0, 0.0, 0.0]];
    let zero = [[0.0f32, 0.0, 0.0, 0.0]];
    let d16 = |t| Texture::from_f32(TextureDesc::tex2d(Format::D16Unorm, 1, 1), t).unwrap();
    let d32 = |t| Texture::from_f32(TextureDesc::tex2d(Format::D32Float, 1, 1), t).unwrap();
    let le = cmp_sampler(LessEqual, Filter::Linear);
    let ge = cmp_sampler(GreaterEqual, Filter::Linear);
    let c = [0.5; 4];
    assert_eq!(r(sample_c(&d16(&one), &le, c, [0; 3], 1.5, L0)), 1.0);
    assert_eq!(r(sample_c(&d32(&one), &le, c, [0; 3], 1.5, L0)), 0.0);
    assert_eq!(r(sample_c(&d16(&zero), &ge, c, [0; 3], -0.5, L0)), 1.0);
    assert_eq!(r(sample_c(&d32(&zero), &ge, c, [0; 3], -0.5, L0)), 0.0);
    // A denormal reference is 0 and equals a 0 texel.
    let eq = cmp_sampler(Equal, Filter::Point);
    assert_eq!(
        r(sample_c(&d32(&zero), &eq, c, [0; 3], f32::from_bits(5), L0)),
        1.0
    );
    // NaN: only NotEqual passes on a float format.
    let ne = cmp_sampler(NotEqual, Filter::Point);
    assert_eq!(r(sample_c(&d32(&zero), &ne, c, [0; 3], f32::NAN, L0)), 1.0);
    assert_eq!(r(sample_c(&d32(&zero), &ge, c, [0; 3], f32::NAN, L0)), 0.0);
}

#[test]
fn pcf_border_and_mips() {
    use ComparisonFunc::*;
    let t = depth(Format::D32Float);
    let mut smp = cmp_sampler(Less, Filter::Linear).with_address(AddressMode::Border);
    smp.border_color = [0.9, 0.0, 0.0, 0.0];
    // u·2 − 0.5 = −0.5: half border (0.9 > 0.5 passes), half texel 0
    // column (0.2 and 0.6 rows, v on row 0 centre → 0.2 fails).
    assert_eq!(
        r(sample_c(&t, &smp, [0.0, 0.25, 0.0, 0.0], [0; 3], 0.5, L0)),
        0.5
    );
    // Two levels: level 0 all 0.2, level 1 0.8; LOD 0.25 blends the
    // compare results 3:1.
    let t = mip_chain(Format::D32Float, 2, 2, 2, &[0.2, 0.2, 0.2, 0.2, 0.8]);
    let smp = Sampler {
        mip_filter: Filter::Linear,
        ..cmp_sampler(Less, Filter::Linear)
    };
    let got = sample_c(&t, &smp, [0.5; 4], [0; 3], 0.5, Lod::Explicit(0.25));
    assert_eq!(r(got), 0.25);
    // Point mip filtering takes level 0 only.
    let smp = Sampler {
        mip_filter: Filter::Point,
        ..smp
    };
    assert_eq!(
        r(sample_c(
            &t,
            &smp,
            [0.5; 4],
            [0; 3],
            0.5,
            Lod::Explicit(0.25)
        )),
        0.0
    );
    // sample_c_lz honours MinLOD.
    let smp = Sampler {
        min_lod: 1.0,
        ..smp
    };
    assert_eq!(r(sample_c(&t, &smp, [0.5; 4], [0; 3], 0.5, L0)), 1.0);
}

fn ramp(w: u32, mode: AddressMode) -> (Texture, Sampler) {
    let t: Vec<[f32; 4]> = (0..w).map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
    let tex = Texture::from_f32(TextureDesc::tex1d(Format::R32Float, w), &t).unwrap();
    let mut smp = Sampler::point().with_address(mode);
    smp.border_color = [-1.0, -2.0, -3.0, -4.0];
    (tex, smp)
}

#[test]
fn point_sampling_and_address_modes() {
    use AddressMode::*;
    let s =
        |tex: &Texture, smp: &Sampler, u: f32| r(sample(tex, smp, [u, 0.0, 0.0, 0.0], [0; 3], L0));
    let (t, smp) = ramp(3, Clamp);
    // floor(u·3): non-power-of-two; 0.3333 snaps to texel 1's edge.
    assert_eq!(s(&t, &smp, 1.0 / 3.0), 1.0);
    assert_eq!(s(&t, &smp, 0.3333), 1.0);
    assert_eq!(s(&t, &smp, 0.332), 0.0);
    assert_eq!(s(&t, &smp, 0.999), 2.0);
    let want = [
        (Wrap, [2.0, 0.0, 1.0]),
        (Mirror, [0.0, 2.0, 1.0]),
        (Clamp, [0.0, 2.0, 2.0]),
    ];
    for (mode, w) in want {
        let (t, smp) = ramp(3, mode);
        // u = −0.2 → texel −1; u = 1.1 → texel 3; u = 1.5 → texel 4.
        assert_eq!(
            [s(&t, &smp, -0.2), s(&t, &smp, 1.1), s(&t, &smp, 1.5)],
            w,
            "{mode:?}"
        );
    }
    let (t, smp) = ramp(3, MirrorOnce);
    assert_eq!(
        [s(&t, &smp, -0.2), s(&t, &smp, -0.5), s(&t, &smp, -5.0)],
        [0.0, 1.0, 2.0]
    );
    let (t, smp) = ramp(3, Border);
    assert_eq!(
        f(sample(&t, &smp, [-0.2; 4], [0; 3], L0)),
        [-1.0, -2.0, -3.0, -4.0]
    );
    // Offsets are applied before addressing.
    let (t, smp) = ramp(3, Wrap);
    assert_eq!(
        r(sample(&t, &smp, [0.5, 0.0, 0.0, 0.0], [2, 0, 0], L0)),
        0.0
    );
}

#[test]
fn bilinear_rgba8() {
    // 2x1: black, white-ish; half way between texel centres.
    let t = [[0.0, 0.0, 0.0, 0.0], [1.0, 0.2, 0.4, 1.0]];
    let tex = Texture::from_f32(TextureDesc::tex2d(Format::Rgba8Unorm, 2, 1), &t).unwrap();
    let smp = Sampler::linear();
    let got = sample(&tex, &smp, [0.5, 0.5, 0.0, 0.0], [0; 3], L0);
    // 0.2 and 0.4 are stored as 51/255 and 102/255.
    let want = [0.5, 51.0 / 255.0 / 2.0, 102.0 / 255.0 / 2.0, 0.5];
    assert_eq!(f(got), want.map(|v: f64| v as f32));
    // R8: missing channels read (0, 0, 1) whatever the filter.
    let tex = Texture::from_f32(TextureDesc::tex2d(Format::R8Unorm, 2, 1), &t).unwrap();
    let got = sample(&tex, &smp, [0.5, 0.5, 0.0, 0.0], [0; 3], L0);
    assert_eq!(f(got), [0.5, 0.0, 0.0, 1.0]);
}

#[test]
fn mip_selection_from_gradients() {
    // 4x4 level 0 = 10, 2x2 level 1 = 20, 1x1 level 2 = 30.
    let reds: Vec<f32> = std::iter::repeat_n(10.0, 16)
        .chain(std::iter::repeat_n(20.0, 4))
        .chain([30.0])
        .collect();
    let t = mip_chain(Format::R32Float, 4, 4, 0, &reds);
    let grad = |texels: f32, bias: f32| Lod::FromGradients {
        ddx: [texels / 4.0, 0.0, 0.0],
        ddy: [0.0, 0.0, 0.0],
        bias,
    };
    let at = [0.5; 4];
    let lin = Sampler::linear();
    let pt = Sampler {
        mip_filter: Filter::Point,
        ..lin
    };
    let s = |smp: &Sampler, lod| r(sample(&t, smp, at, [0; 3], lod));
    // 2^1.25 texels per pixel: LOD 1.25 (8-bit fraction exact).
    assert_eq!(s(&lin, grad(2f32.powf(1.25), 0.0)), 22.5);
    assert_eq!(s(&pt, grad(2f32.powf(1.25), 0.0)), 20.0);
    assert_eq!(s(&pt, grad(2f32.powf(1.5), 0.0)), 30.0);
    // sample_b: bias −1 → LOD 0.25.
    assert_eq!(s(&lin, grad(2f32.powf(1.25), -1.0)), 12.5);
    // Sampler bias adds to it; MaxLOD and MinLOD clamp.
    assert_eq!(
        s(
            &Sampler {
                mip_lod_bias: 0.5,
                ..lin
            },
            grad(2.0, 0.0)
        ),
        25.0
    );
    assert_eq!(
        s(
            &Sampler {
                max_lod: 0.5,
                ..lin
            },
            grad(8.0, 0.0)
        ),
        15.0
    );
    assert_eq!(
        s(
            &Sampler {
                min_lod: 2.0,
                ..lin
            },
            grad(1.0, 0.0)
        ),
        30.0
    );
    // sample_l and huge LODs clamp to the chain.
    assert_eq!(s(&lin, Lod::Explicit(1.75)), 27.5);
    assert_eq!(s(&lin, Lod::Explicit(100.0)), 30.0);
    assert_eq!(s(&lin, Lod::Explicit(-5.0)), 10.0);
}

#[test]
fn mag_and_min_filters_follow_the_lod() {
    // 2x1 level 0 (0, 1), 1x1 level 1 (5): magnified → mag filter.
    let t = mip_chain(Format::R32Float, 2, 1, 2, &[0.0, 1.0, 5.0]);
    let smp = Sampler {
        mag_filter: Filter::Linear,
        min_filter: Filter::Point,
        mip_filter: Filter::Point,
        ..Sampler::default()
    };
    let at = [0.5, 0.5, 0.0, 0.0];
    assert_eq!(r(sample(&t, &smp, at, [0; 3], Lod::Explicit(0.0))), 0.5);
    // LOD 0.25 minifies at level 0 with the point min filter.
    assert_eq!(r(sample(&t, &smp, at, [0; 3], Lod::Explicit(0.25))), 1.0);
}

#[test]
fn trilinear_3d_and_1d_array() {
    let texels: Vec<[f32; 4]> = (0..8).map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
    let t = Texture::from_f32(TextureDesc::tex3d(Format::R32Float, 2, 2, 2), &texels).unwrap();
    let smp = Sampler::linear();
    assert_eq!(r(sample(&t, &smp, [0.5, 0.5, 0.5, 0.0], [0; 3], L0)), 3.5);
    // w at the first slice's centre: the average of slice 0 (0..3).
    assert_eq!(r(sample(&t, &smp, [0.5, 0.5, 0.25, 0.0], [0; 3], L0)), 1.5);
    let arr = Texture::from_f32(TextureDesc::tex1d_array(Format::R32Float, 2, 4), &texels).unwrap();
    // Layer 2.5 rounds to 2 (even): texels 4, 5.
    assert_eq!(r(sample(&arr, &smp, [0.5, 2.5, 0.0, 0.0], [0; 3], L0)), 4.5);
}

/// 2x2 faces, every texel of face f holding f.
fn cube() -> Texture {
    let texels: Vec<[f32; 4]> = (0..24).map(|i| [(i / 4) as f32, 0.0, 0.0, 0.0]).collect();
    Texture::from_f32(TextureDesc::cube(Format::R32Float, 2), &texels).unwrap()
}

#[test]
fn cube_sampling_selects_faces_and_crosses_edges() {
    let t = cube();
    let pt = Sampler::point();
    let dirs = [
        [1.0, 0.1, 0.2],
        [-1.0, 0.1, 0.2],
        [0.1, 1.0, 0.2],
        [0.1, -1.0, 0.2],
        [0.1, 0.2, 1.0],
        [0.1, 0.2, -1.0],
    ];
    for (face, d) in dirs.into_iter().enumerate() {
        let got = r(sample(&t, &pt, [d[0], d[1], d[2], 0.0], [0; 3], L0));
        assert_eq!(got, face as f32);
    }
    // On +Z at its right edge centre row: s·2 − 0.5 = 1.5 → texel 1 and
    // the texel across the edge on +X (face 0), half each.
    let lin = Sampler::linear();
    let got = r(sample(&t, &lin, [1.0, 0.0, 1.0 + 1e-7, 0.0], [0; 3], L0));
    assert!((got - 2.0).abs() < 1e-6, "{got}");
    // At the cube corner (1, 1, 1): face +Z (tie), taps on +Z (4), +Y (2),
    // +X (0) and the synthesized corner (their mean, 2): 0.25·8.
    assert_eq!(r(sample(&t, &lin, [1.0, 1.0, 1.0, 0.0], [0; 3], L0)), 2.0);
    // A point tap exactly at s = t = 1 reads the face's corner texel.
    assert_eq!(r(sample(&t, &pt, [1.0, -1.0, 1.0, 0.0], [0; 3], L0)), 4.0);
    // Offsets and address modes do not apply to cubes.
    let wrap = lin.with_address(AddressMode::Border);
    assert_eq!(
        r(sample(&t, &wrap, [0.0, 0.0, 1.0, 0.0], [5, 5, 0], L0)),
        4.0
    );
}

#[test]
fn denormals_flush_on_sampling_only() {
    let t = [[f32::from_bits(0x8000_0001), 1e-30, 0.0, 0.0]];
    let tex = Texture::from_f32(TextureDesc::tex2d(Format::Rgba32Float, 1, 1), &t).unwrap();
    let got = sample(&tex, &Sampler::point(), [0.5; 4], [0; 3], L0);
    assert_eq!(got, [0x8000_0000, 1e-30f32.to_bits(), 0, 0]);
    // Blending two normals can give a denormal (1.2e-38 / 2): flushed,
    // keeping the sign.
    for (v, want) in [(1.2e-38f32, 0u32), (-1.2e-38, 0x8000_0000)] {
        let t = [[v, 0.0, 0.0, 0.0], [-0.0, 0.0, 0.0, 0.0]];
        let tex = Texture::from_f32(TextureDesc::tex1d(Format::R32Float, 2), &t).unwrap();
        let got = sample(&tex, &Sampler::linear(), [0.5; 4], [0; 3], L0);
        assert_eq!(got[0], want, "{v}");
    }
}

#[test]
fn integer_formats_read_the_nearest_texel_raw() {
    let t = [[7u32, 0, 0, 0], [0xFFFF_FFFF, 0, 0, 0]];
    let tex = Texture::from_lanes(TextureDesc::tex1d(Format::R32Uint, 2), &t).unwrap();
    let got = sample(&tex, &Sampler::linear(), [0.75; 4], [0; 3], L0);
    assert_eq!(got, [0xFFFF_FFFF, 0, 0, 1]);
    let smp = cmp_sampler(ComparisonFunc::Always, Filter::Linear);
    assert_eq!(sample_c(&tex, &smp, [0.75; 4], [0; 3], 0.0, L0), [0; 4]);
}

#[test]
fn lod_query_returns_clamped_and_unclamped() {
    let t = Texture::from_bytes(
        TextureDesc::tex2d(Format::R8Unorm, 8, 8).with_mips(0),
        &[0; 85],
    )
    .unwrap();
    let smp = Sampler {
        mip_lod_bias: 0.5,
        max_lod: 2.0,
        ..Sampler::linear()
    };
    // 16 texels per pixel on u: log2 16 = 4, + 0.5 bias.
    let got = f(calc_lod(&t, &smp, [0.5; 4], [2.0, 0.0, 0.0], [0.0; 3]));
    assert_eq!(got, [2.0, 4.5, 0.0, 0.0]);
    // Magnified: negative unclamped, clamped to level 0; −∞ for zero
    // gradients.
    let got = f(calc_lod(
        &t,
        &Sampler::linear(),
        [0.5; 4],
        [1.0 / 32.0, 0.0, 0.0],
        [0.0; 3],
    ));
    assert_eq!(got, [0.0, -2.0, 0.0, 0.0]);
    let got = f(calc_lod(
        &t,
        &Sampler::linear(),
        [0.5; 4],
        [0.0; 3],
        [0.0; 3],
    ));
    assert_eq!(got, [0.0, f32::NEG_INFINITY, 0.0, 0.0]);
    // Past the chain: clamped to the last level (3).
    let got = f(calc_lod(
        &t,
        &Sampler::linear(),
        [0.5; 4],
        [0.0; 3],
        [0.0, 64.0, 0.0],
    ));
    assert_eq!(got, [3.0, 9.0, 0.0, 0.0]);
    // Cubes measure gradients on the face: at the +Z centre of an 8x8
    // cube, dx = 0.5 moves s by 0.25, i.e. 2 texels: LOD 1.
    let cube = Texture::zeroed(TextureDesc::cube(Format::R8Unorm, 8).with_mips(0)).unwrap();
    let got = f(calc_lod(
        &cube,
        &Sampler::linear(),
        [0.0, 0.0, 1.0, 0.0],
        [0.5, 0.0, 0.0],
        [0.0; 3],
    ));
    assert_eq!(got, [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn invalid_inputs_never_panic() {
    let weird = crate::vm::texture::AWKWARD_F32;
    let textures = [
        depth(Format::D16Unorm),
        cube(),
        Texture::from_f32(
            TextureDesc::cube_array(Format::Rgba16Float, 1, 1),
            &[[1.0; 4]; 6],
        )
        .unwrap(),
        Texture::from_f32(TextureDesc::tex3d(Format::Rg8Unorm, 1, 1, 1), &[[1.0; 4]]).unwrap(),
        Texture::from_f32(TextureDesc::buffer(Format::R32Float, 1), &[[1.0; 4]]).unwrap(),
    ];
    let mut smp = Sampler::linear();
    for (i, &a) in weird.iter().enumerate() {
        let b = weird[(i + 3) % weird.len()];
        smp.min_lod = b;
        smp.max_lod = a;
        smp.mip_lod_bias = b;
        for mode in [
            AddressMode::Wrap,
            AddressMode::Mirror,
            AddressMode::Border,
            AddressMode::MirrorOnce,
        ] {
            let smp = smp.with_address(mode);
            for t in &textures {
                let c = [a, b, a, b];
                let off = [i32::MAX, i32::MIN, 7];
                let grad = Lod::FromGradients {
                    ddx: [a; 3],
                    ddy: [b; 3],
                    bias: a,
                };
                let _ = sample(t, &smp, c, off, grad);
                let _ = sample(t, &smp, c, off, Lod::Explicit(b));
                let _ = sample_c(t, &smp, c, off, a, Lod::Zero);
                let _ = calc_lod(t, &smp, c, [a; 3], [b; 3]);
            }
        }
    }
}

/// 8x8 r32_float, full chain: level 0 texel (x, y) = x, the smaller
/// levels 100 (so reading them shows).
fn columns() -> Texture {
    let mut reds: Vec<f32> = (0..64).map(|i| (i % 8) as f32).collect();
    reds.extend(std::iter::repeat_n(100.0, 16 + 4 + 1));
    mip_chain(Format::R32Float, 8, 8, 0, &reds)
}

#[test]
fn anisotropic_footprint_averages_probes_along_the_major_axis() {
    let t = columns();
    // ddx 4 texels along u, ddy 1 texel along v: ratio 4.
    let lod = Lod::FromGradients {
        ddx: [0.5, 0.0, 0.0],
        ddy: [0.0, 0.125, 0.0],
        bias: 0.0,
    };
    let c = [0.5, 0.5625, 0.0, 0.0];
    let aniso = |n: u32, reduction: Reduction| Sampler {
        max_anisotropy: Some(n),
        reduction,
        ..Sampler::linear()
    };
    // Trilinear: LOD log2(4) = 2, level 2 (all 100).
    assert_eq!(r(sample(&t, &Sampler::linear(), c, [0; 3], lod)), 100.0);
    // N = 4 probes at 4 + (-1.5, -0.5, 0.5, 1.5) texels, each at LOD
    // log2(4 / 4) = 0 on a texel centre: columns 2..5, mean 3.5.
    let four = aniso(16, Reduction::Standard);
    assert_eq!(r(sample(&t, &four, c, [0; 3], lod)), 3.5);
    assert_eq!(
        r(sample(&t, &aniso(16, Reduction::Minimum), c, [0; 3], lod)),
        2.0
    );
    assert_eq!(
        r(sample(&t, &aniso(16, Reduction::Maximum), c, [0; 3], lod)),
        5.0
    );
    // MaxAnisotropy 1: the trilinear result.
    assert_eq!(
        r(sample(&t, &aniso(1, Reduction::Standard), c, [0; 3], lod)),
        100.0
    );
    // An isotropic footprint: trilinear whatever MaxAnisotropy.
    let iso = Lod::FromGradients {
        ddx: [0.5, 0.0, 0.0],
        ddy: [0.0, 0.5, 0.0],
        bias: 0.0,
    };
    assert_eq!(r(sample(&t, &four, c, [0; 3], iso)), 100.0);
}

#[test]
fn min_max_reduction_leaves_out_zero_weights() {
    let t = columns();
    // u·8 − 0.5 = 2.25: columns 2 (.75) and 3 (.25); v on a row centre.
    let c = [0.34375, 0.0625, 0.0, 0.0];
    let red = |reduction| Sampler {
        reduction,
        ..Sampler::linear()
    };
    assert_eq!(r(sample(&t, &red(Reduction::Minimum), c, [0; 3], L0)), 2.0);
    assert_eq!(r(sample(&t, &red(Reduction::Maximum), c, [0; 3], L0)), 3.0);
    assert_eq!(
        r(sample(&t, &red(Reduction::Standard), c, [0; 3], L0)),
        2.25
    );
    // LOD 0.5 blends level 1 (100): min keeps 2, max takes 100.
    let half = Lod::Explicit(0.5);
    assert_eq!(
        r(sample(&t, &red(Reduction::Minimum), c, [0; 3], half)),
        2.0
    );
    assert_eq!(
        r(sample(&t, &red(Reduction::Maximum), c, [0; 3], half)),
        100.0
    );
}
