//! Resource queries: `resinfo`, `sampleinfo`, `samplepos`, `bufinfo`, and
//! D3D's standard sample patterns they and the rasterizer share.

use super::desc::Dimension;
use super::texture::Texture;

// The return-type modifiers are D3D's enums, described in `dxbc`.
pub use crate::dxbc::enums::{ResInfoReturn, SampleInfoReturn};
// The sample patterns are D3D's, described once in `dxbc`.
pub use crate::dxbc::sample_pattern::standard_pattern;

/// `resinfo`: (width, height, depth or array size, mip count) of the level
/// `mip`, laid out per dimension — 1D `(w, 0, 0)`, 1D array `(w, layers,
/// 0)`, 2D / 2D MS / cube `(w, h, 0)`, 2D array / 2D MS array `(w, h,
/// layers)`, cube array `(w, h, cubes)`, 3D `(w, h, d)` — and the total
/// mip count in `.w`. For an out-of-range `mip` the first three are 0 (the
/// array size too) while `.w` still holds the mip count. Buffers (which
/// `bufinfo` is for) report `(elements, 0, 0, 1)`.
pub fn resinfo(tex: &Texture, mip: u32, ret: ResInfoReturn) -> [u32; 4] {
    let size = tex.level_size(mip);
    let [w, h, d] = size.unwrap_or([0; 3]);
    let layers = if size.is_some() {
        tex.desc().array_size
    } else {
        0
    };
    // (value, is_a_size): only sizes take the reciprocal.
    let xyz: [(u32, bool); 3] = match tex.dimension() {
        Dimension::Buffer | Dimension::Tex1D => [(w, true), (0, false), (0, false)],
        Dimension::Tex1DArray => [(w, true), (layers, false), (0, false)],
        Dimension::Tex2D | Dimension::Tex2DMS | Dimension::Cube => {
            [(w, true), (h, true), (0, false)]
        }
        Dimension::Tex2DArray | Dimension::Tex2DMSArray | Dimension::CubeArray => {
            [(w, true), (h, true), (layers, false)]
        }
        Dimension::Tex3D => [(w, true), (h, true), (d, true)],
    };
    resinfo_encode(xyz, tex.mip_levels(), ret)
}

/// `resinfo`'s result from its three values (each with whether it is a
/// size, which alone takes `_rcpFloat`'s reciprocal: 1/0 is +inf) and the
/// mip count, in the form `ret` asks for. A UAV's `resinfo`
/// (`vm::memory`) encodes through it too.
pub fn resinfo_encode(xyz: [(u32, bool); 3], mips: u32, ret: ResInfoReturn) -> [u32; 4] {
    let encode = |(v, is_size): (u32, bool)| match ret {
        ResInfoReturn::Uint => v,
        // Reserved values (the decoder keeps them) read as the default.
        ResInfoReturn::Float | ResInfoReturn::Other(_) => (v as f32).to_bits(),
        ResInfoReturn::RcpFloat if is_size => (1.0 / v as f32).to_bits(),
        ResInfoReturn::RcpFloat => (v as f32).to_bits(),
    };
    [
        encode(xyz[0]),
        encode(xyz[1]),
        encode(xyz[2]),
        encode((mips, false)),
    ]
}

/// `sampleinfo`: (sample count, 0, 0, 0). Only multisampled textures have
/// a sample count to report; anything else gives zeros, like an unbound
/// slot.
pub fn sampleinfo(tex: &Texture, ret: SampleInfoReturn) -> [u32; 4] {
    if !tex.dimension().is_multisampled() {
        return [0; 4];
    }
    sample_count_info(tex.sample_count(), ret)
}

/// `sampleinfo` of a count `n` (a texture's, or the rasterizer's: the
/// render target's, 1 when it is single-sampled): `n` in `.x` as the
/// return type says, zeros elsewhere.
pub fn sample_count_info(n: u32, ret: SampleInfoReturn) -> [u32; 4] {
    let n = match ret {
        SampleInfoReturn::Uint => n,
        SampleInfoReturn::Float | SampleInfoReturn::Other(_) => (n as f32).to_bits(),
    };
    [n, 0, 0, 0]
}

/// `samplepos` for a count: sample `index`'s offset from the pixel centre
/// in pixels as floats `(x, y, 0, 0)`. An index past the count (or a count
/// without a standard pattern) gives zeros, as D3D specifies for an
/// out-of-range index.
pub fn sample_position(count: u32, index: u32) -> [u32; 4] {
    let Some(&[x, y]) = standard_pattern(count).and_then(|p| p.get(index as usize)) else {
        return [0; 4];
    };
    [x as f32 / 16.0, y as f32 / 16.0, 0.0, 0.0].map(f32::to_bits)
}

/// `samplepos` of a texture: its standard pattern; a texture that is not
/// multisampled has no samples to place and gives zeros.
pub fn samplepos(tex: &Texture, index: u32) -> [u32; 4] {
    if !tex.dimension().is_multisampled() {
        return [0; 4];
    }
    sample_position(tex.sample_count(), index)
}

/// `bufinfo`: the element count of a typed buffer in every lane (integer).
/// Textures give zeros.
pub fn bufinfo(tex: &Texture) -> [u32; 4] {
    if tex.dimension() == Dimension::Buffer {
        [tex.desc().width; 4]
    } else {
        [0; 4]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{Format, TextureDesc};

    fn fl(v: [f32; 4]) -> [u32; 4] {
        v.map(f32::to_bits)
    }

    fn make(desc: TextureDesc) -> Texture {
        Texture::zeroed(desc).unwrap()
    }

    #[test]
    fn mip_chain_all_return_types() {
        // 10x6 2D array of 3 layers, full chain: 10x6, 5x3, 2x1, 1x1.
        let t = make(TextureDesc::tex2d_array(Format::R8Unorm, 10, 6, 3).with_mips(0));
        use ResInfoReturn::*;
        assert_eq!(resinfo(&t, 0, Uint), [10, 6, 3, 4]);
        assert_eq!(resinfo(&t, 1, Uint), [5, 3, 3, 4]);
        assert_eq!(resinfo(&t, 2, Uint), [2, 1, 3, 4]);
        assert_eq!(resinfo(&t, 3, Uint), [1, 1, 3, 4]);
        assert_eq!(resinfo(&t, 1, Float), fl([5.0, 3.0, 3.0, 4.0]));
        assert_eq!(resinfo(&t, 1, RcpFloat), fl([0.2, 1.0 / 3.0, 3.0, 4.0]));
        // Out of range: sizes (and array size) 0, mip count kept.
        assert_eq!(resinfo(&t, 4, Uint), [0, 0, 0, 4]);
        assert_eq!(resinfo(&t, u32::MAX, Float), fl([0.0, 0.0, 0.0, 4.0]));
        assert_eq!(
            resinfo(&t, 4, RcpFloat),
            fl([f32::INFINITY, f32::INFINITY, 0.0, 4.0])
        );
    }

    #[test]
    fn layout_per_dimension() {
        use ResInfoReturn::*;
        let f = Format::R32Float;
        // (texture, mip, return type, result): sizes that do not apply
        // read 0, the array size sits after the sizes that do.
        let cases = [
            (TextureDesc::tex1d(f, 8).with_mips(2), 1, Uint, [4, 0, 0, 2]),
            (TextureDesc::tex1d_array(f, 8, 5), 0, Uint, [8, 5, 0, 1]),
            (
                TextureDesc::tex3d(f, 8, 4, 2).with_mips(0),
                2,
                Uint,
                [2, 1, 1, 4],
            ),
            (
                TextureDesc::tex3d(f, 8, 4, 2),
                0,
                RcpFloat,
                fl([0.125, 0.25, 0.5, 1.0]),
            ),
            (TextureDesc::cube(f, 4).with_mips(0), 1, Uint, [2, 2, 0, 3]),
            (TextureDesc::cube_array(f, 4, 2), 0, Uint, [4, 4, 2, 1]),
            (TextureDesc::tex2d_ms(f, 4, 2, 4), 0, Uint, [4, 2, 0, 1]),
            (
                TextureDesc::tex2d(f, 4, 2),
                0,
                RcpFloat,
                fl([0.25, 0.5, 0.0, 1.0]),
            ),
            (TextureDesc::buffer(f, 7), 0, Uint, [7, 0, 0, 1]),
        ];
        for (desc, mip, ret, want) in cases {
            assert_eq!(
                resinfo(&make(desc), mip, ret),
                want,
                "{desc:?} mip {mip} {ret:?}"
            );
        }
    }

    #[test]
    fn sample_and_buffer_info() {
        let f = Format::R32Float;
        let ms = make(TextureDesc::tex2d_ms(f, 2, 2, 4));
        assert_eq!(sampleinfo(&ms, SampleInfoReturn::Uint), [4, 0, 0, 0]);
        assert_eq!(
            sampleinfo(&ms, SampleInfoReturn::Float),
            fl([4.0, 0.0, 0.0, 0.0])
        );
        assert_eq!(
            sampleinfo(&make(TextureDesc::tex2d(f, 2, 2)), SampleInfoReturn::Uint),
            [0; 4]
        );
        assert_eq!(bufinfo(&make(TextureDesc::buffer(f, 9))), [9; 4]);
        // The rasterizer of a single-sampled target reports 1.
        assert_eq!(sample_count_info(1, SampleInfoReturn::Uint), [1, 0, 0, 0]);
        assert_eq!(bufinfo(&ms), [0; 4]);
    }

    #[test]
    fn standard_positions() {
        // 4x: (-2,-6), (6,-2), (-6,2), (2,6) sixteenths of a pixel.
        let ms = make(TextureDesc::tex2d_ms(Format::R32Float, 2, 2, 4));
        assert_eq!(samplepos(&ms, 0), fl([-0.125, -0.375, 0.0, 0.0]));
        assert_eq!(samplepos(&ms, 1), fl([0.375, -0.125, 0.0, 0.0]));
        assert_eq!(samplepos(&ms, 3), fl([0.125, 0.375, 0.0, 0.0]));
        // Past the count: zeros.
        assert_eq!(samplepos(&ms, 4), [0; 4]);
        assert_eq!(sample_position(2, 1), fl([-0.25, -0.25, 0.0, 0.0]));
        assert_eq!(sample_position(1, 0), [0; 4]);
        assert_eq!(sample_position(16, 15), fl([-7.0 / 16.0, -0.5, 0.0, 0.0]));
        assert_eq!(sample_position(32, 0), [0; 4]);
        // Every pattern's offsets are distinct and inside the pixel.
        for n in [1, 2, 4, 8, 16] {
            let p = standard_pattern(n).unwrap();
            assert_eq!(p.len(), n as usize);
            for (i, a) in p.iter().enumerate() {
                assert!(a.iter().all(|c| (-8..8).contains(c)), "{n}x {a:?}");
                assert!(p[..i].iter().all(|b| b != a), "{n}x repeats {a:?}");
            }
        }
    }
}
