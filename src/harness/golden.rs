//! Goldens: blessed images kept in `goldens/` as 32-bit float OpenEXR
//! (exact: every bit pattern, NaN payloads, infinities and denormals
//! included, reads back unchanged; a unit test checks it) with a PNG
//! preview beside each for people.
//!
//! A case's goldens are named after its path relative to the cases tree
//! it lives in, without `.case`: `tests/cases/pcf/edge.case` is
//! `goldens/pcf/edge.exr` whether the run was given `tests/cases`,
//! `tests/cases/pcf` or the file itself ([`locate`]); a second render
//! target is `edge.1.exr`, and so on.

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

/// Where a case's goldens live: the directory and the name inside it.
///
/// `explicit` is `--goldens DIR`: then every case is `DIR/<name>`, `name`
/// being its path relative to the directory it was found under (so the
/// layout under DIR follows what the run was given). Without it the
/// goldens follow the case file: a case under a `tests/cases` directory is
/// named by its path relative to that directory, in the `goldens`
/// directory beside `tests`, so one group, the whole tree or a single file
/// all find the same golden. A case outside any `tests/cases` tree keeps
/// `goldens/<name>`.
pub fn locate(explicit: Option<&Path>, case: &Path, name: &str) -> (PathBuf, String) {
    if let Some(dir) = explicit {
        return (dir.to_path_buf(), name.to_string());
    }
    // The path as given first, so that a relative run prints relative
    // golden paths; the canonical one for a run started inside the tree.
    let found = cases_root(case).or_else(|| {
        std::fs::canonicalize(case)
            .ok()
            .and_then(|c| cases_root(&c))
    });
    match found {
        Some((dir, name)) => (dir, name),
        None => (PathBuf::from("goldens"), name.to_string()),
    }
}

/// The `goldens` directory beside the `tests/cases` tree holding `case`,
/// and the case's name in that tree (`/`-separated, without `.case`).
fn cases_root(case: &Path) -> Option<(PathBuf, String)> {
    let root = case.ancestors().skip(1).find(|a| {
        a.file_name().is_some_and(|n| n == "cases")
            && a.parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == "tests")
    })?;
    let rel = case.strip_prefix(root).ok()?.with_extension("");
    let name = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let project = root.parent()?.parent()?;
    Some((project.join("goldens"), name))
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

    #[test]
    fn goldens_follow_the_case_file_unless_a_directory_is_given() {
        let p = |s: &str| PathBuf::from(s);
        // One group, or the whole tree: the same golden.
        assert_eq!(
            locate(None, &p("tests/cases/pcf/edge.case"), "edge"),
            (p("goldens"), "pcf/edge".into())
        );
        assert_eq!(
            locate(None, &p("tests/cases/pcf/edge.case"), "pcf/edge"),
            (p("goldens"), "pcf/edge".into())
        );
        assert_eq!(
            locate(None, &p("/x/proj/tests/cases/a/b/c.case"), "c"),
            (p("/x/proj/goldens"), "a/b/c".into())
        );
        // A `cases` directory not under `tests` is no cases tree.
        assert_eq!(
            locate(None, &p("cases/pcf/edge.case"), "pcf/edge"),
            (p("goldens"), "pcf/edge".into())
        );
        // `--goldens DIR` keeps the name the run gave the case.
        assert_eq!(
            locate(Some(&p("g")), &p("tests/cases/pcf/edge.case"), "edge"),
            (p("g"), "edge".into())
        );
    }
}
