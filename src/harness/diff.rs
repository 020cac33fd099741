//! Image diffs: per-channel absolute and ULP error, tolerance, statistics,
//! and the heat-map and side-by-side pictures a report shows.
//!
//! * ULP error is the distance between the two values' bit patterns in
//!   ordered integer space (negative floats mirrored below zero, so +0 and
//!   -0 are 0 apart and the smallest denormals of either sign are 1 from
//!   zero). A NaN equals a NaN of any payload; a NaN against a number is
//!   infinitely far (`u64::MAX` ULP, infinite absolute error).
//! * Absolute error is `|a - b|` in f64; equal infinities are 0 apart, an
//!   infinity against anything else is infinitely far.
//! * A channel passes when it is within `abs` **or** within `ulp`; a pixel
//!   passes when all four channels pass. The default tolerance (0, 0) asks
//!   for identical bits up to the sign of zero and NaN payloads.

use std::path::Path;

use super::case::Tolerance;
use super::image::Image;

/// Both errors of one channel.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChannelError {
    pub abs: f64,
    pub ulp: u64,
}

impl ChannelError {
    pub fn within(&self, tol: &Tolerance) -> bool {
        self.abs <= tol.abs as f64 || self.ulp <= tol.ulp as u64
    }
}

/// A float's position in ordered integer space: adjacent floats are one
/// apart, and -0 and +0 coincide.
fn ordered(v: f32) -> i64 {
    let b = v.to_bits();
    if b & 0x8000_0000 != 0 {
        -((b & 0x7fff_ffff) as i64)
    } else {
        b as i64
    }
}

/// ULP distance (see the module notes for NaN).
pub fn ulp_distance(a: f32, b: f32) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (true, false) | (false, true) => u64::MAX,
        _ => (ordered(a) - ordered(b)).unsigned_abs(),
    }
}

/// Absolute error (see the module notes for NaN and infinities).
pub fn abs_error(a: f32, b: f32) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0.0,
        (true, false) | (false, true) => f64::INFINITY,
        _ if a == b => 0.0,
        _ => (a as f64 - b as f64).abs(),
    }
}

pub fn channel_error(a: f32, b: f32) -> ChannelError {
    ChannelError {
        abs: abs_error(a, b),
        ulp: ulp_distance(a, b),
    }
}

/// Whether two texels are within tolerance, channel by channel.
pub fn texel_within(a: [f32; 4], b: [f32; 4], tol: &Tolerance) -> bool {
    (0..4).all(|c| channel_error(a[c], b[c]).within(tol))
}

/// The pixel with the largest error.
#[derive(Debug, Clone, PartialEq)]
pub struct Worst {
    pub x: u32,
    pub y: u32,
    /// The two images' texels there (`a` is the first image given).
    pub a: [f32; 4],
    pub b: [f32; 4],
    pub error: [ChannelError; 4],
    pub passes: bool,
}

/// What a diff found.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    pub width: u32,
    pub height: u32,
    /// The images differ in size: nothing else is compared, every pixel
    /// counts as failing.
    pub size_mismatch: bool,
    /// Pixels with a channel outside tolerance.
    pub failing: usize,
    pub pixels: usize,
    pub max_abs: f64,
    pub max_ulp: u64,
    /// Mean absolute error over every channel whose error is finite.
    pub mean_abs: f64,
    /// Channels infinitely wrong (NaN against a number, an infinity
    /// against anything else).
    pub nonfinite: usize,
    pub worst: Option<Worst>,
    /// Per pixel: the largest channel error, row-major (for the heat map).
    pub errors: Vec<ChannelError>,
    /// Per pixel: whether it passes.
    pub pass: Vec<bool>,
    pub tolerance: Tolerance,
}

impl Diff {
    pub fn passed(&self) -> bool {
        !self.size_mismatch && self.failing == 0
    }
}

/// The larger error: by absolute error, then ULP.
fn worse(a: &ChannelError, b: &ChannelError) -> bool {
    a.abs > b.abs || (a.abs == b.abs && a.ulp > b.ulp)
}

/// Compares `a` with `b` pixel by pixel.
pub fn diff(a: &Image, b: &Image, tol: &Tolerance) -> Diff {
    let pixels = a.width as usize * a.height as usize;
    if a.width != b.width || a.height != b.height {
        return Diff {
            width: a.width,
            height: a.height,
            size_mismatch: true,
            failing: pixels,
            pixels,
            max_abs: f64::INFINITY,
            max_ulp: u64::MAX,
            mean_abs: 0.0,
            nonfinite: 0,
            worst: None,
            errors: vec![
                ChannelError {
                    abs: f64::INFINITY,
                    ulp: u64::MAX
                };
                pixels
            ],
            pass: vec![false; pixels],
            tolerance: tol.clone(),
        };
    }
    let mut d = Diff {
        width: a.width,
        height: a.height,
        size_mismatch: false,
        failing: 0,
        pixels,
        max_abs: 0.0,
        max_ulp: 0,
        mean_abs: 0.0,
        nonfinite: 0,
        worst: None,
        errors: Vec::with_capacity(pixels),
        pass: Vec::with_capacity(pixels),
        tolerance: tol.clone(),
    };
    let (mut sum, mut finite) = (0.0f64, 0usize);
    for y in 0..a.height {
        for x in 0..a.width {
            let (pa, pb) = (a.get(x, y), b.get(x, y));
            let e: [ChannelError; 4] = std::array::from_fn(|c| channel_error(pa[c], pb[c]));
            let passes = e.iter().all(|c| c.within(tol));
            let mut largest = ChannelError::default();
            for c in &e {
                if c.abs.is_finite() {
                    sum += c.abs;
                    finite += 1;
                } else {
                    d.nonfinite += 1;
                }
                d.max_abs = d.max_abs.max(c.abs);
                d.max_ulp = d.max_ulp.max(c.ulp);
                if worse(c, &largest) {
                    largest = *c;
                }
            }
            if !passes {
                d.failing += 1;
            }
            let replace = match &d.worst {
                None => true,
                Some(w) => {
                    let wl = w.error.iter().fold(ChannelError::default(), |m, c| {
                        if worse(c, &m) { *c } else { m }
                    });
                    (w.passes && !passes) || (w.passes == passes && worse(&largest, &wl))
                }
            };
            if replace {
                d.worst = Some(Worst {
                    x,
                    y,
                    a: pa,
                    b: pb,
                    error: e,
                    passes,
                });
            }
            d.errors.push(largest);
            d.pass.push(passes);
        }
    }
    d.mean_abs = if finite == 0 {
        0.0
    } else {
        sum / finite as f64
    };
    d
}

/// An 8-bit RGBA picture.
pub type Picture = image::RgbaImage;

/// A float image for viewing: RGB clamped to [0, 1], NaN shown magenta,
/// alpha ignored (opaque).
pub fn preview(img: &Image) -> Picture {
    let mut out = Picture::new(img.width.max(1), img.height.max(1));
    for y in 0..img.height {
        for x in 0..img.width {
            let p = img.get(x, y);
            let px = if p[..3].iter().any(|v| v.is_nan()) {
                [255, 0, 255, 255]
            } else {
                let c = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
                [c(p[0]), c(p[1]), c(p[2]), 255]
            };
            out.put_pixel(x, y, image::Rgba(px));
        }
    }
    out
}

/// The heat map: black where the images agree exactly; passing
/// differences in blue, brighter with the error; failing pixels from red
/// (just over tolerance) to yellow (the largest error), on a log scale of
/// the ULP error; size mismatches all magenta.
pub fn heat_map(d: &Diff) -> Picture {
    let mut out = Picture::new(d.width.max(1), d.height.max(1));
    let scale = ((d.max_ulp.min(1 << 32)) as f64 + 1.0).ln().max(1e-9);
    for (i, (e, pass)) in d.errors.iter().zip(&d.pass).enumerate() {
        let (x, y) = (i as u32 % d.width.max(1), i as u32 / d.width.max(1));
        let t = ((e.ulp.min(1 << 32) as f64 + 1.0).ln() / scale).clamp(0.0, 1.0);
        let px = if d.size_mismatch {
            [255, 0, 255, 255]
        } else if e.ulp == 0 && e.abs == 0.0 {
            [0, 0, 0, 255]
        } else if *pass {
            [0, 0, (80.0 + 175.0 * t) as u8, 255]
        } else {
            [255, (255.0 * t) as u8, 0, 255]
        };
        out.put_pixel(x, y, image::Rgba(px));
    }
    out
}

/// Pictures side by side, each scaled up by the same whole factor so the
/// larger side reaches about 256 pixels, with a grey gap between them.
pub fn side_by_side(parts: &[&Picture]) -> Picture {
    let h = parts.iter().map(|p| p.height()).max().unwrap_or(1).max(1);
    let w = parts.iter().map(|p| p.width()).max().unwrap_or(1).max(1);
    let scale = (256 / w.max(h)).max(1);
    const GAP: u32 = 4;
    let total_w: u32 = parts.iter().map(|p| p.width() * scale).sum::<u32>()
        + GAP * parts.len().saturating_sub(1) as u32;
    let mut out = Picture::from_pixel(total_w.max(1), h * scale, image::Rgba([96, 96, 96, 255]));
    let mut x0 = 0;
    for p in parts {
        for y in 0..p.height() * scale {
            for x in 0..p.width() * scale {
                out.put_pixel(x0 + x, y, *p.get_pixel(x / scale, y / scale));
            }
        }
        x0 += p.width() * scale + GAP;
    }
    out
}

/// Writes a picture as PNG.
pub fn write_png(picture: &Picture, path: &Path) -> Result<(), String> {
    picture
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(abs: f32, ulp: u32) -> Tolerance {
        Tolerance { abs, ulp }
    }

    #[test]
    fn ulp_is_the_distance_in_ordered_bit_space() {
        assert_eq!(ulp_distance(1.0, 1.0), 0);
        assert_eq!(ulp_distance(1.0, f32::from_bits(1.0f32.to_bits() + 1)), 1);
        assert_eq!(ulp_distance(0.0, -0.0), 0);
        // The smallest denormals on either side of zero are two apart.
        assert_eq!(
            ulp_distance(f32::from_bits(1), f32::from_bits(0x8000_0001)),
            2
        );
        assert_eq!(ulp_distance(f32::MAX, f32::INFINITY), 1);
        assert_eq!(ulp_distance(-1.0, 1.0), 2 * 1.0f32.to_bits() as u64);
    }

    #[test]
    fn nan_equals_nan_of_any_payload() {
        let (a, b) = (f32::from_bits(0x7fc0_0000), f32::from_bits(0xffc1_2345));
        assert_eq!(ulp_distance(a, b), 0);
        assert_eq!(abs_error(a, b), 0.0);
        assert_eq!(ulp_distance(a, 0.0), u64::MAX);
        assert!(abs_error(a, 0.0).is_infinite());
        assert_eq!(abs_error(f32::INFINITY, f32::INFINITY), 0.0);
        assert!(abs_error(f32::INFINITY, f32::MAX).is_infinite());
    }

    #[test]
    fn a_channel_passes_within_abs_or_within_ulp() {
        let e = channel_error(1.0, 1.001);
        assert!(!e.within(&tol(0.0, 0)));
        assert!(e.within(&tol(0.01, 0)));
        assert!(!e.within(&tol(0.0001, 2)));
        assert!(e.within(&tol(0.0001, 10_000)));
        // Tiny values: abs passes where ULP would not.
        let e = channel_error(1e-30, 2e-30);
        assert!(e.ulp > 1_000_000);
        assert!(e.within(&tol(1e-6, 0)));
        // NaN against a number never passes.
        assert!(!channel_error(f32::NAN, 0.0).within(&tol(f32::MAX, u32::MAX)));
    }

    #[test]
    fn statistics_and_the_worst_pixel() {
        let mut a = Image::new(3, 2);
        let mut b = Image::new(3, 2);
        a.set(0, 0, [0.5, 0.0, 0.0, 1.0]);
        b.set(0, 0, [0.5, 0.0, 0.0, 1.0]);
        a.set(1, 0, [0.25, 0.0, 0.0, 0.0]);
        b.set(1, 0, [0.2505, 0.0, 0.0, 0.0]); // within abs 0.001
        a.set(2, 1, [0.0, 0.0, 1.0, 0.0]);
        b.set(2, 1, [0.0, 0.0, 1.5, 0.0]); // fails
        let d = diff(&a, &b, &tol(0.001, 0));
        assert_eq!(d.failing, 1);
        assert!(!d.passed());
        assert!((d.max_abs - 0.5).abs() < 1e-12);
        let w = d.worst.as_ref().expect("worst");
        assert_eq!((w.x, w.y, w.passes), (2, 1, false));
        assert!((d.mean_abs - (0.0005 + 0.5) / 24.0).abs() < 1e-6);
        assert!(d.pass[1] && !d.pass[5]);
        let same = diff(&a, &a, &Tolerance::default());
        assert!(same.passed());
        assert_eq!(same.max_ulp, 0);
        let other = diff(&a, &Image::new(2, 2), &Tolerance::default());
        assert!(other.size_mismatch && !other.passed());
    }

    #[test]
    fn pictures_have_the_expected_shape() {
        let mut a = Image::new(4, 2);
        a.set(1, 1, [2.0, f32::NAN, 0.5, 1.0]);
        let p = preview(&a);
        assert_eq!(p.get_pixel(1, 1).0, [255, 0, 255, 255]);
        let mut b = a.clone();
        b.set(0, 0, [1.0, 0.0, 0.0, 0.0]);
        let d = diff(&a, &b, &Tolerance::default());
        let h = heat_map(&d);
        assert_eq!(h.get_pixel(0, 0).0[0], 255);
        assert_eq!(h.get_pixel(3, 1).0, [0, 0, 0, 255]);
        let s = side_by_side(&[&p, &preview(&b), &h]);
        // 4 wide scaled by 64, three of them and two gaps.
        assert_eq!((s.width(), s.height()), (3 * 256 + 8, 128));
    }
}
