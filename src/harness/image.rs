//! A rendered image: RGBA float texels, row-major from the top-left, the
//! layout both renderers write and the diff, goldens and reports read.

use crate::glsl::{Scalar, ValueType};

#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    /// `width * height` texels, row by row from the top.
    pub pixels: Vec<[f32; 4]>,
}

impl Image {
    /// A black (all-zero) image.
    pub fn new(width: u32, height: u32) -> Image {
        Image {
            width,
            height,
            pixels: vec![[0.0; 4]; width as usize * height as usize],
        }
    }

    pub fn get(&self, x: u32, y: u32) -> [f32; 4] {
        self.pixels[(y * self.width + x) as usize]
    }

    pub fn set(&mut self, x: u32, y: u32, v: [f32; 4]) {
        let i = (y * self.width + x) as usize;
        self.pixels[i] = v;
    }
}

/// The largest side of any image a case or golden can describe: render
/// targets and textures are at most 4096 texels on a side (docs/cases.md).
pub const MAX_SIDE: u32 = 4096;

/// Reads and decodes a PNG or EXR file (a case's `fill image`, a golden)
/// under the input size limit and with the decoder's limits set to the
/// largest image a case can use, so a small compressed file that claims a
/// huge size is refused from its header instead of being decoded into
/// gigabytes. The error does not name the file; callers do.
pub fn read_picture(path: &std::path::Path) -> Result<image::DynamicImage, String> {
    let bytes = crate::input_file::read(path).map_err(|e| e.to_string())?;
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("cannot read: {e}"))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // The largest such image as RGBA 32-bit float, plus the decoder's own
    // buffers.
    limits.max_alloc = Some(u64::from(MAX_SIDE) * u64::from(MAX_SIDE) * 16 * 2);
    reader.limits(limits);
    reader
        .decode()
        .map_err(|e| format!("not a readable image: {e}"))
}

/// What a render target holds, from the pixel-shader output's GLSL type in
/// the manifest: float texels, or integers the image reports by value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    Float,
    Sint,
    Uint,
}

impl TargetKind {
    /// `vec3` → (Float, 3), `uint` → (Uint, 1), `ivec2` → (Sint, 2).
    pub fn of_output(ty: ValueType) -> (TargetKind, u32) {
        let kind = match ty.scalar {
            Scalar::Int => TargetKind::Sint,
            Scalar::Uint => TargetKind::Uint,
            // `bool` is never a colour output's type (only gl_FrontFacing's).
            Scalar::Float | Scalar::Bool => TargetKind::Float,
        };
        (kind, u32::from(ty.components.max(1)))
    }

    /// One read-back channel as the image holds it: float bits as they
    /// are, integers as their value in f32 (`7u` → 7.0, `-1i` → -1.0;
    /// exact up to 2^24), as the emulator's images report them.
    pub fn value(self, bits: u32) -> f32 {
        match self {
            TargetKind::Float => f32::from_bits(bits),
            TargetKind::Sint => bits as i32 as f32,
            TargetKind::Uint => bits as f32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glsl::Ty;

    #[test]
    fn target_kinds_read_the_type_and_report_integers_by_value() {
        assert_eq!(
            TargetKind::of_output(ValueType::vec(Ty::Float, 3)),
            (TargetKind::Float, 3)
        );
        assert_eq!(
            TargetKind::of_output(ValueType::vec(Ty::Uint, 1)),
            (TargetKind::Uint, 1)
        );
        assert_eq!(
            TargetKind::of_output(ValueType::vec(Ty::Int, 2)),
            (TargetKind::Sint, 2)
        );
        assert_eq!(TargetKind::Sint.value(u32::MAX), -1.0);
        assert_eq!(TargetKind::Uint.value(7), 7.0);
        assert_eq!(TargetKind::Float.value(0x7fc0_0001).to_bits(), 0x7fc0_0001);
    }
}
