//! The shape of a `[texture N]`: how dimensions are spelled, how many
//! extents `size` takes for each, sample counts, and the memory every
//! texture of a case may take together. One table names the dimensions, so
//! the `dimension` key and every message about a dimension agree.

use super::super::CaseError;
use super::super::values::Ctx;
use crate::vm::texture::{Dimension, Format, TextureDesc};

/// How a case file spells a dimension (`dimension` in `[texture N]`).
const DIMENSIONS: [(&str, Dimension); 7] = [
    ("1d", Dimension::Tex1D),
    ("1darray", Dimension::Tex1DArray),
    ("2d", Dimension::Tex2D),
    ("2darray", Dimension::Tex2DArray),
    ("3d", Dimension::Tex3D),
    ("cube", Dimension::Cube),
    ("cubearray", Dimension::CubeArray),
];

pub(super) fn dimension_named(name: &str) -> Option<Dimension> {
    DIMENSIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, dim)| *dim)
}

/// How many extents `size` takes for a dimension (fewest, most) and how
/// it is spelled: width, then height, then depth or the array size.
pub(super) fn size_extents(d: Dimension) -> (usize, usize, &'static str) {
    match d {
        Dimension::Tex1D => (1, 1, "W"),
        Dimension::Tex1DArray => (2, 2, "W LAYERS"),
        Dimension::Tex2DArray => (3, 3, "W H LAYERS"),
        Dimension::Tex3D => (3, 3, "W H D"),
        Dimension::Cube => (1, 2, "S or S S"),
        Dimension::CubeArray => (3, 3, "S S CUBES"),
        _ => (2, 2, "W H"),
    }
}

/// How a message names a texture's dimension: its `dimension` word, and
/// for the multisampled shapes `samples N` turns a 2D one into, that word
/// and "multisampled".
pub(in crate::harness::case) fn dimension_name(d: Dimension) -> &'static str {
    match d {
        Dimension::Tex2DMS => "2d multisampled",
        Dimension::Tex2DMSArray => "2darray multisampled",
        Dimension::Buffer => "buffer",
        _ => DIMENSIONS
            .iter()
            .find(|(_, x)| *x == d)
            .map_or("unnamed", |(n, _)| n),
    }
}

/// The shape `size w h d` gives for a dimension: 1D arrays take their
/// layers from the second number, 2D arrays, 3D textures and cube arrays
/// from the third.
pub(super) fn desc_for(dimension: Dimension, format: Format, [w, h, d]: [u32; 3]) -> TextureDesc {
    match dimension {
        Dimension::Tex1D => TextureDesc::tex1d(format, w),
        Dimension::Tex1DArray => TextureDesc::tex1d_array(format, w, h),
        Dimension::Tex2DArray => TextureDesc::tex2d_array(format, w, h, d),
        Dimension::Tex3D => TextureDesc::tex3d(format, w, h, d),
        Dimension::Cube => TextureDesc::cube(format, w),
        Dimension::CubeArray => TextureDesc::cube_array(format, w, d),
        _ => TextureDesc::tex2d(format, w, h),
    }
}

/// A `samples N` count: D3D11's sample counts that have a standard sample
/// pattern (1, 2, 4, 8, 16). D3D11 also allows 32 where a device offers
/// it, but defines no positions for it, so `samplepos` and coverage would
/// be the driver's: refused rather than guessed.
pub(in crate::harness::case) fn sample_count(
    ctx: &Ctx,
    l: usize,
    n: &str,
) -> Result<u32, CaseError> {
    let count = ctx.u32(l, n)?;
    if crate::vm::texture::standard_pattern(count).is_none() {
        return Err(ctx.err(
            l,
            format!(
                "sample count {n} is not one of 1, 2, 4, 8, 16 (the counts with a D3D11 standard sample pattern)"
            ),
        ));
    }
    Ok(count)
}

/// Memory one case's textures may take, decoded (16 bytes a texel, as the
/// emulator holds them; the GPU copies are no larger). Direct3D 11 allows a
/// single 16384x16384 RGBA32 texture of 4 GiB; a test case that large is a
/// mistake or an attack, and refusing it by name beats running out of memory.
pub const TEXTURE_BUDGET_BYTES: usize = 512 << 20;

/// The texture memory a case has used so far.
#[derive(Default)]
pub(in crate::harness::case) struct Budget {
    used: usize,
}

impl Budget {
    pub(super) fn take(&mut self, ctx: &Ctx, line: usize, texels: usize) -> Result<(), CaseError> {
        let bytes = texels.saturating_mul(16);
        self.used = self.used.saturating_add(bytes);
        if self.used > TEXTURE_BUDGET_BYTES {
            return Err(ctx.err(
                line,
                format!(
                    "the case's textures would take {} MiB decoded; a case may use at most {} MiB",
                    self.used.div_ceil(1 << 20),
                    TEXTURE_BUDGET_BYTES >> 20
                ),
            ));
        }
        Ok(())
    }
}
