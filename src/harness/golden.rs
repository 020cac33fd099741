//! Goldens: blessed images kept in `goldens/` as 32-bit float OpenEXR
//! (exact: every bit pattern, NaN payloads, infinities and denormals
//! included, reads back unchanged; a unit test checks it) with a PNG
//! preview beside each for people.
//!
//! A case's goldens are named after its path relative to the directory it
//! was found under, without `.case`: `tests/cases/pcf/edge.case` run as
//! part of `tests/cases` is `goldens/pcf/edge.exr`; a second render target
//! is `edge.1.exr`, and so on.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::diff::{Picture, preview, write_png};
use super::image::Image;

#[derive(Debug, Error)]
#[error("{path}: {message}")]
pub struct GoldenError {
    pub path: String,
    pub message: String,
}

fn err(path: &Path, message: impl Into<String>) -> GoldenError {
    GoldenError {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// The EXR path of render target `target` of the case named `name`.
pub fn path(dir: &Path, name: &str, target: usize) -> PathBuf {
    if target == 0 {
        dir.join(format!("{name}.exr"))
    } else {
        dir.join(format!("{name}.{target}.exr"))
    }
}

/// Writes an image as a 32-bit float RGBA OpenEXR file.
pub fn write_exr(img: &Image, path: &Path) -> Result<(), GoldenError> {
    let data: Vec<f32> = img.pixels.iter().flatten().copied().collect();
    let buf = image::Rgba32FImage::from_raw(img.width, img.height, data)
        .ok_or_else(|| err(path, "image size does not match its pixels"))?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| err(parent, format!("cannot create: {e}")))?;
    }
    image::DynamicImage::ImageRgba32F(buf)
        .save_with_format(path, image::ImageFormat::OpenExr)
        .map_err(|e| err(path, format!("cannot write: {e}")))
}

/// Reads a 32-bit float OpenEXR file written by [`write_exr`].
pub fn read_exr(path: &Path) -> Result<Image, GoldenError> {
    let img = super::image::read_picture(path).map_err(|m| err(path, m))?;
    let image::DynamicImage::ImageRgba32F(buf) = img else {
        return Err(err(path, "expected 32-bit float RGBA"));
    };
    let (width, height) = buf.dimensions();
    let pixels = buf
        .into_raw()
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    Ok(Image {
        width,
        height,
        pixels,
    })
}

/// Writes a case's goldens (EXR and PNG preview per render target).
pub fn bless(dir: &Path, name: &str, images: &[Image]) -> Result<Vec<PathBuf>, GoldenError> {
    let mut written = Vec::new();
    for (i, img) in images.iter().enumerate() {
        let exr = path(dir, name, i);
        write_exr(img, &exr)?;
        let png = exr.with_extension("png");
        let picture: Picture = preview(img);
        write_png(&picture, &png).map_err(|m| err(&png, m))?;
        written.push(exr);
    }
    Ok(written)
}

/// A case's goldens, one per render target; an error names the first
/// missing or unreadable file.
pub fn load(dir: &Path, name: &str, count: usize) -> Result<Vec<Image>, GoldenError> {
    (0..count)
        .map(|i| {
            let p = path(dir, name, i);
            if !p.exists() {
                return Err(err(&p, "no golden (run with --bless to write it)"));
            }
            read_exr(&p)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exr_round_trips_every_bit_pattern() {
        let specials: Vec<u32> = vec![
            0x0000_0000,
            0x8000_0000,
            0x0000_0001, // smallest denormal
            0x807f_ffff, // largest negative denormal
            0x0080_0000,
            0x3f80_0000,
            0x7f7f_ffff,
            0x7f80_0000, // +Inf
            0xff80_0000, // -Inf
            0x7fc0_0000, // quiet NaN
            0x7fa1_2345, // signalling NaN with a payload
            0xffc0_0001, // negative NaN with a payload
            0x3eaa_aaab,
            0xc2f6_e979,
        ];
        let (w, h) = (5u32, 3u32);
        let pixels: Vec<[f32; 4]> = (0..w * h)
            .map(|i| {
                std::array::from_fn(|c| {
                    let k = (i as usize * 4 + c) % specials.len();
                    f32::from_bits(specials[k] ^ if i > 7 { 1 << (i % 20) } else { 0 })
                })
            })
            .collect();
        let img = Image {
            width: w,
            height: h,
            pixels,
        };
        let dir = std::env::temp_dir().join(format!("dxbc-dbg-golden-{}", std::process::id()));
        let written = bless(&dir, "sub/case", std::slice::from_ref(&img)).expect("writes");
        assert_eq!(written[0], dir.join("sub/case.exr"));
        assert!(dir.join("sub/case.png").exists());
        let back = load(&dir, "sub/case", 1).expect("reads");
        assert_eq!((back[0].width, back[0].height), (w, h));
        for (a, b) in img.pixels.iter().zip(&back[0].pixels) {
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        }
        let missing = load(&dir, "other", 1).unwrap_err();
        assert!(missing.to_string().contains("--bless"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
