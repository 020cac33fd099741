//! `ld` and `ld2dms`: unfiltered integer-addressed fetches that return the
//! stored lanes bit for bit (no denormal flush).
//!
//! Addresses are the raw lanes of the DXBC address register, read as
//! unsigned integers: `x` (buffer, 1D), `x, layer` (1D array), `x, y` (2D),
//! `x, y, layer` (2D array, 2D MS array), `x, y, z` (3D), with the mip level
//! in `.w` for every mipped dimension. Immediate offsets (`_aoffimmi`) are
//! added with 32-bit wraparound — an offset taking an address below zero
//! wraps to a huge one — and do not apply to array indices or buffers. Any
//! index out of range (coordinate, layer, mip, sample) gives the
//! out-of-bounds value: zero in the format's stored components and the
//! defaults (0, 0, 0, 1) in the missing ones.

use super::desc::Dimension;
use super::texture::Texture;

fn add(c: u32, offset: i32) -> u32 {
    c.wrapping_add(offset as u32)
}

/// `ld`. Cubes and multisampled textures (which `ld` cannot address)
/// return zeros.
pub fn ld(tex: &Texture, coord: [u32; 4], offset: [i32; 3]) -> [u32; 4] {
    let Some((layer, level, xyz)) = ld_texel(tex, coord, offset) else {
        return [0; 4];
    };
    tex.texel(layer, level, xyz, 0)
        .unwrap_or_else(|| tex.format().out_of_bounds_lanes())
}

/// The (layer, level, texel) `ld` addresses, before the bounds check;
/// `None` for the dimensions `ld` cannot read. Shared with the debugger's
/// explanation so it names the texel the load really read.
pub(crate) fn ld_texel(
    tex: &Texture,
    coord: [u32; 4],
    offset: [i32; 3],
) -> Option<(u32, u32, [u32; 3])> {
    let [x, y, z, mip] = coord;
    let (ox, oy, oz) = (add(x, offset[0]), add(y, offset[1]), add(z, offset[2]));
    let (layer, level, xyz) = match tex.dimension() {
        Dimension::Buffer => (0, 0, [x, 0, 0]),
        Dimension::Tex1D => (0, mip, [ox, 0, 0]),
        Dimension::Tex1DArray => (y, mip, [ox, 0, 0]),
        Dimension::Tex2D => (0, mip, [ox, oy, 0]),
        Dimension::Tex2DArray => (z, mip, [ox, oy, 0]),
        Dimension::Tex3D => (0, mip, [ox, oy, oz]),
        Dimension::Cube | Dimension::CubeArray | Dimension::Tex2DMS | Dimension::Tex2DMSArray => {
            return None;
        }
    };
    Some((layer, level, xyz))
}

/// `ld2dms`: one sample of a multisampled texture. Other dimensions return
/// zeros.
pub fn ldms(tex: &Texture, coord: [u32; 4], sample: u32, offset: [i32; 3]) -> [u32; 4] {
    let [x, y, z, _] = coord;
    let layer = match tex.dimension() {
        Dimension::Tex2DMS => 0,
        Dimension::Tex2DMSArray => z,
        _ => return [0; 4],
    };
    let xyz = [add(x, offset[0]), add(y, offset[1]), 0];
    tex.texel(layer, 0, xyz, sample)
        .unwrap_or_else(|| tex.format().out_of_bounds_lanes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{Format, TextureDesc};

    const ONE: u32 = 0x3F80_0000;

    /// 3x2 R32_UINT level 0 holding 10·y + x, 1x1 level 1 holding 77.
    fn tex() -> Texture {
        let mut t: Vec<[u32; 4]> = (0..6).map(|i| [10 * (i / 3) + i % 3, 0, 0, 0]).collect();
        t.push([77, 0, 0, 0]);
        Texture::from_lanes(TextureDesc::tex2d(Format::R32Uint, 3, 2).with_mips(2), &t).unwrap()
    }

    #[test]
    fn fetches_texels_and_mips() {
        let t = tex();
        assert_eq!(ld(&t, [2, 1, 0, 0], [0; 3]), [12, 0, 0, 1]);
        assert_eq!(ld(&t, [0, 0, 9, 1], [0; 3]), [77, 0, 0, 1]); // z ignored on 2D
    }

    #[test]
    fn out_of_range_gives_zero_and_missing_defaults() {
        let t = tex();
        let oob = [0, 0, 0, 1];
        assert_eq!(ld(&t, [3, 0, 0, 0], [0; 3]), oob);
        assert_eq!(ld(&t, [0, 2, 0, 0], [0; 3]), oob);
        assert_eq!(ld(&t, [1, 0, 0, 1], [0; 3]), oob); // level 1 is 1x1
        assert_eq!(ld(&t, [0, 0, 0, 2], [0; 3]), oob); // no level 2
        assert_eq!(ld(&t, [u32::MAX, 0, 0, 0], [0; 3]), oob);
        // Stored components read 0, missing ones their defaults.
        let rgba =
            Texture::from_f32(TextureDesc::tex1d(Format::Rgba8Unorm, 1), &[[1.0; 4]]).unwrap();
        assert_eq!(ld(&rgba, [1, 0, 0, 0], [0; 3]), [0; 4]);
        let r8 = Texture::from_f32(TextureDesc::tex1d(Format::R8Unorm, 1), &[[1.0; 4]]).unwrap();
        assert_eq!(ld(&r8, [0, 0, 0, 0], [0; 3]), [ONE, 0, 0, ONE]);
        assert_eq!(ld(&r8, [5, 0, 0, 0], [0; 3]), [0, 0, 0, ONE]);
    }

    #[test]
    fn offsets_wrap_as_unsigned() {
        let t = tex();
        assert_eq!(ld(&t, [0, 0, 0, 0], [2, 1, 0]), [12, 0, 0, 1]);
        assert_eq!(ld(&t, [2, 1, 0, 0], [-2, -1, 0]), [0, 0, 0, 1]);
        // 0 − 1 wraps to 0xFFFFFFFF: out of bounds, not clamped.
        assert_eq!(ld(&t, [0, 0, 0, 0], [-1, 0, 0]), [0, 0, 0, 1]);
        // 0xFFFFFFFF + 1 wraps back to 0: in bounds.
        assert_eq!(ld(&t, [u32::MAX, 1, 0, 0], [1, 0, 0]), [10, 0, 0, 1]);
        // Offsets apply at the level read.
        assert_eq!(ld(&t, [1, 0, 0, 1], [-1, 0, 0]), [77, 0, 0, 1]);
    }

    #[test]
    fn arrays_3d_and_buffers() {
        let t: Vec<[u32; 4]> = (0..8).map(|i| [i, 0, 0, 0]).collect();
        let arr =
            Texture::from_lanes(TextureDesc::tex2d_array(Format::R32Uint, 2, 2, 2), &t).unwrap();
        assert_eq!(ld(&arr, [1, 0, 1, 0], [0; 3])[0], 5);
        // Array index out of range is out of bounds (no clamp), and the
        // offset's third component does not move along the array.
        assert_eq!(ld(&arr, [1, 0, 2, 0], [0; 3]), [0, 0, 0, 1]);
        assert_eq!(ld(&arr, [0, 0, 0, 0], [1, 1, 1]), [3, 0, 0, 1]);
        let a1 = Texture::from_lanes(TextureDesc::tex1d_array(Format::R32Uint, 4, 2), &t).unwrap();
        assert_eq!(ld(&a1, [3, 1, 0, 0], [0; 3])[0], 7);
        let t3 = Texture::from_lanes(TextureDesc::tex3d(Format::R32Uint, 2, 2, 2), &t).unwrap();
        assert_eq!(ld(&t3, [1, 1, 0, 0], [0, 0, 1])[0], 7);
        let buf = Texture::from_lanes(TextureDesc::buffer(Format::R32Uint, 8), &t).unwrap();
        assert_eq!(ld(&buf, [6, 9, 9, 9], [1, 1, 1])[0], 6);
        assert_eq!(ld(&buf, [8, 0, 0, 0], [0; 3]), [0, 0, 0, 1]);
        let cube = Texture::from_lanes(TextureDesc::cube(Format::R32Uint, 1), &t[..6]).unwrap();
        assert_eq!(ld(&cube, [0; 4], [0; 3]), [0; 4]);
    }

    #[test]
    fn typed_buffer_elements_decode_and_end_in_zeros() {
        // Two rgba16_float elements as D3D lays them out: four little-endian
        // halves each. 0x3800 = 0.5, 0xC080 = -(1 + 8/64) * 2 = -2.25,
        // 0x6400 = 2^10 = 1024, 0x3C00 = 1, 0x7BFF = 65504 (largest half).
        let halves: [u16; 8] = [0x3800, 0xC080, 0x6400, 0x3C00, 0x7BFF, 0, 0, 0x3C00];
        let bytes: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
        let buf = Texture::from_bytes(TextureDesc::buffer(Format::Rgba16Float, 2), &bytes).unwrap();
        let f = |v: [f32; 4]| v.map(f32::to_bits);
        assert_eq!(ld(&buf, [0; 4], [0; 3]), f([0.5, -2.25, 1024.0, 1.0]));
        // A buffer has no mips or offsets: the other address parts are
        // ignored (ld's y, z and mip; the aoffimmi).
        assert_eq!(
            ld(&buf, [1, 5, 5, 5], [3, 0, 0]),
            f([65504.0, 0.0, 0.0, 1.0])
        );
        // Element 2 of 2 and a huge index are past the end: all zeros
        // (a four-channel format has no missing channel to default).
        assert_eq!(ld(&buf, [2, 0, 0, 0], [0; 3]), [0; 4]);
        assert_eq!(ld(&buf, [u32::MAX, 0, 0, 0], [0; 3]), [0; 4]);
        // bufinfo counts elements, not bytes (16) or words (8).
        assert_eq!(super::super::query::bufinfo(&buf), [2; 4]);
    }

    #[test]
    fn float_bits_are_preserved() {
        let raw = [0x0000_0001, 0x8000_0000, 0x7FC0_0001, 0xFF80_0000];
        let t = Texture::from_lanes(TextureDesc::tex2d(Format::Rgba32Float, 1, 1), &[raw]).unwrap();
        assert_eq!(ld(&t, [0; 4], [0; 3]), raw);
    }

    #[test]
    fn multisample_loads() {
        let t: Vec<[u32; 4]> = (0..8).map(|i| [i, 0, 0, 0]).collect();
        let ms = Texture::from_lanes(TextureDesc::tex2d_ms(Format::R32Uint, 2, 2, 2), &t).unwrap();
        assert_eq!(ldms(&ms, [1, 1, 0, 5], 1, [0; 3])[0], 7);
        assert_eq!(ldms(&ms, [0, 0, 0, 0], 1, [1, 0, 0])[0], 3);
        assert_eq!(ldms(&ms, [0, 0, 0, 0], 2, [0; 3]), [0, 0, 0, 1]);
        assert_eq!(ldms(&ms, [2, 0, 0, 0], 0, [0; 3]), [0, 0, 0, 1]);
        let one = Texture::from_f32(
            TextureDesc::tex2d_ms(Format::R32Float, 1, 1, 1),
            &[[0.5; 4]],
        )
        .unwrap();
        assert_eq!(ldms(&one, [0; 4], 0, [0; 3]), [0.5f32.to_bits(), 0, 0, ONE]);
        let arr = Texture::from_lanes(TextureDesc::tex2d_ms_array(Format::R32Uint, 1, 1, 2, 4), &t)
            .unwrap();
        assert_eq!(ldms(&arr, [0, 0, 1, 0], 3, [0; 3])[0], 7);
        // ld cannot read MS textures, ldms cannot read others.
        assert_eq!(ld(&ms, [0; 4], [0; 3]), [0; 4]);
        assert_eq!(ldms(&tex(), [0; 4], 0, [0; 3]), [0; 4]);
    }
}
