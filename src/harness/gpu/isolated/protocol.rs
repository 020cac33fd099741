//! What the parent and the Vulkan worker say to each other over the
//! worker's standard input and output.
//!
//! A frame is a little-endian `u32` length, that many bytes of JSON (the
//! typed message), a `u32` count of payloads, and each payload as a `u64`
//! length and its bytes. Bulk data travels in the payloads as raw bytes,
//! never as JSON numbers: pictures as `f32` words (NaN payloads and the
//! sign of zero kept), UAV and capture words as `u32`s, the case's path as
//! the bytes of its name (which need not be UTF-8).

use std::io::{self, Read, Write};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::glsl;
use crate::harness::image::Image;

/// The largest message header read: messages are short (notes, a refusal,
/// an error's text); a larger length is a broken pipe's garbage.
const MAX_HEADER: u32 = 1 << 24;
/// The largest payload read: eight 4096x4096 RGBA32F targets' worth is
/// far below it; anything larger is not a frame this protocol wrote.
const MAX_PAYLOAD: u64 = 1 << 32;
/// UAV slots, targets and the capture buffer are far fewer.
const MAX_PAYLOADS: u32 = 1024;

/// From the parent. `Refuses` and `Draw` carry the case as payloads:
/// its path, its text, then for the pixel shader and, when the case has
/// one, the vertex shader its container (`dxbc::write::shader_container`)
/// and its instructions' byte offsets in the original as `u32`s.
#[derive(Debug, Serialize, Deserialize)]
pub enum Request {
    /// Opens the device; the first request a worker gets.
    Open { timeout_ms: u64 },
    /// [`super::super::Draw::refusal`] on the case.
    Refuses { options: Options },
    /// Draws the case.
    Draw { options: Options },
}

/// From the worker, one per request.
#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    Opened {
        adapter: String,
    },
    Refusal(Option<String>),
    /// Payloads: each image's texels as `f32`s (RGBA, row by row), each
    /// UAV's words, then the capture buffer's words when `capture`.
    Drawn {
        /// Width and height of each image, in target order.
        images: Vec<(u32, u32)>,
        /// Slot and hidden counter of each UAV read back; its layout is the
        /// case's.
        uavs: Vec<(u32, u32)>,
        capture: bool,
        notes: Vec<String>,
    },
    Failed(Failure),
}

/// A [`super::super::GpuError`] the worker met, as it crosses the pipe.
#[derive(Debug, Serialize, Deserialize)]
pub enum Failure {
    NoAdapter(String),
    Timeout { ms: u64 },
    Other(String),
}

/// The translation options a draw reads. `dialect` is vk450 for every
/// Vulkan draw, and `varying_locations` and `link` are derived from the
/// shaders by the draw itself (`runtime::translate`), so none of the
/// three crosses.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Options {
    flip_gather_order: bool,
    skip_border_emulation: bool,
    capture: Option<(u32, u32)>,
    capture_outputs: u32,
    wrong_swizzle_at: Option<usize>,
    drop_frag_coord_reciprocal: bool,
    reverse_pcf_compare: bool,
}

impl Options {
    pub fn of(o: &glsl::Options) -> Options {
        // Named field by field, so a new option fails to compile here
        // until it is carried or said to be derived.
        let glsl::Options {
            dialect: _,
            varying_locations: _,
            link: _,
            flip_gather_order,
            skip_border_emulation,
            capture,
            capture_outputs,
            wrong_swizzle_at,
            drop_frag_coord_reciprocal,
            reverse_pcf_compare,
        } = o;
        Options {
            flip_gather_order: *flip_gather_order,
            skip_border_emulation: *skip_border_emulation,
            capture: capture.as_ref().map(|c| (c.x, c.y)),
            capture_outputs: *capture_outputs,
            wrong_swizzle_at: *wrong_swizzle_at,
            drop_frag_coord_reciprocal: *drop_frag_coord_reciprocal,
            reverse_pcf_compare: *reverse_pcf_compare,
        }
    }

    pub fn to_glsl(&self) -> glsl::Options {
        let mut o = glsl::Options::new(glsl::Dialect::Vk450);
        o.flip_gather_order = self.flip_gather_order;
        o.skip_border_emulation = self.skip_border_emulation;
        o.capture = self.capture.map(|(x, y)| glsl::CapturePixel { x, y });
        o.capture_outputs = self.capture_outputs;
        o.wrong_swizzle_at = self.wrong_swizzle_at;
        o.drop_frag_coord_reciprocal = self.drop_frag_coord_reciprocal;
        o.reverse_pcf_compare = self.reverse_pcf_compare;
        o
    }
}

/// Writes one frame (not flushed).
pub fn write_frame(
    w: &mut impl Write,
    message: &impl Serialize,
    payloads: &[&[u8]],
) -> io::Result<()> {
    let header = serde_json::to_vec(message).map_err(io::Error::other)?;
    let len = u32::try_from(header.len())
        .ok()
        .filter(|&n| n <= MAX_HEADER)
        .ok_or_else(|| io::Error::other("message header too large"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(&header)?;
    let count = u32::try_from(payloads.len())
        .ok()
        .filter(|&n| n <= MAX_PAYLOADS)
        .ok_or_else(|| io::Error::other("too many payloads"))?;
    w.write_all(&count.to_le_bytes())?;
    for p in payloads {
        w.write_all(&(p.len() as u64).to_le_bytes())?;
        w.write_all(p)?;
    }
    Ok(())
}

/// Reads one frame; `None` at a clean end of input (the other side closed
/// the pipe between frames). A frame cut short is `UnexpectedEof`; one
/// that is not this protocol's is `InvalidData`.
pub fn read_frame<T: DeserializeOwned>(r: &mut impl Read) -> io::Result<Option<(T, Vec<Vec<u8>>)>> {
    let mut word = [0u8; 4];
    // A clean end comes before any byte of a frame.
    let mut got = 0;
    while got < 4 {
        match r.read(&mut word[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = u32::from_le_bytes(word);
    if len > MAX_HEADER {
        return Err(invalid(format!("a message header of {len} bytes")));
    }
    let header = read_exactly(r, len as usize)?;
    let message: T = serde_json::from_slice(&header).map_err(|e| invalid(e.to_string()))?;
    r.read_exact(&mut word)?;
    let count = u32::from_le_bytes(word);
    if count > MAX_PAYLOADS {
        return Err(invalid(format!("{count} payloads")));
    }
    let mut payloads = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let mut len = [0u8; 8];
        r.read_exact(&mut len)?;
        let len = u64::from_le_bytes(len);
        if len > MAX_PAYLOAD {
            return Err(invalid(format!("a payload of {len} bytes")));
        }
        payloads.push(read_exactly(r, len as usize)?);
    }
    Ok(Some((message, payloads)))
}

fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// `n` bytes, read without trusting `n` for the allocation up front: a
/// pipe that ends early has not made us reserve what it claimed.
fn read_exactly(r: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    r.take(n as u64).read_to_end(&mut out)?;
    if out.len() != n {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(out)
}

/// An image's texels as the bytes of their `f32` words.
pub fn image_bytes(image: &Image) -> Vec<u8> {
    image
        .pixels
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect()
}

/// The image [`image_bytes`] wrote, checked against its size.
pub fn image_from(width: u32, height: u32, bytes: &[u8]) -> Result<Image, String> {
    let texels = width as usize * height as usize;
    if bytes.len() != texels * 16 {
        return Err(format!(
            "a {width}x{height} image came as {} bytes, not {}",
            bytes.len(),
            texels * 16
        ));
    }
    let pixels = bytes
        .chunks_exact(16)
        .map(|t| {
            std::array::from_fn(|i| f32::from_le_bytes(t[4 * i..4 * i + 4].try_into().unwrap()))
        })
        .collect();
    Ok(Image {
        width,
        height,
        pixels,
    })
}

pub fn words_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn words_from(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if !bytes.len().is_multiple_of(4) {
        return Err(format!("{} bytes are not whole words", bytes.len()));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_round_trips_with_its_payloads_byte_for_byte() {
        // A signalling NaN with a payload, negative zero and a denormal:
        // what JSON numbers would lose.
        let texels = [f32::from_bits(0x7f80_0001), -0.0, f32::from_bits(1), 1.5];
        let image = Image {
            width: 1,
            height: 1,
            pixels: vec![texels],
        };
        let reply = Reply::Drawn {
            images: vec![(1, 1)],
            uavs: vec![(3, 7)],
            capture: false,
            notes: vec!["bc1 uploaded compressed".into()],
        };
        let pixels = image_bytes(&image);
        let words = words_bytes(&[0xdead_beef, 0]);
        let mut pipe = Vec::new();
        write_frame(&mut pipe, &reply, &[&pixels, &words]).unwrap();
        write_frame(&mut pipe, &Request::Open { timeout_ms: 5 }, &[]).unwrap();
        let mut r = pipe.as_slice();
        let (got, payloads) = read_frame::<Reply>(&mut r).unwrap().expect("a frame");
        let Reply::Drawn {
            images,
            uavs,
            notes,
            ..
        } = got
        else {
            panic!("{got:?}")
        };
        assert_eq!((images, uavs), (vec![(1, 1)], vec![(3, 7)]));
        assert_eq!(notes, ["bc1 uploaded compressed"]);
        let back = image_from(1, 1, &payloads[0]).unwrap();
        let bits = |p: &[f32; 4]| p.map(f32::to_bits);
        assert_eq!(bits(&back.pixels[0]), bits(&texels));
        assert_eq!(words_from(&payloads[1]).unwrap(), [0xdead_beef, 0]);
        assert!(matches!(
            read_frame::<Request>(&mut r).unwrap(),
            Some((Request::Open { timeout_ms: 5 }, p)) if p.is_empty()
        ));
        // Then the clean end.
        assert!(read_frame::<Request>(&mut r).unwrap().is_none());
    }

    #[test]
    fn a_frame_cut_short_or_oversized_is_an_error_not_an_end() {
        let mut pipe = Vec::new();
        write_frame(&mut pipe, &Reply::Refusal(None), &[b"abc"]).unwrap();
        for cut in 1..pipe.len() {
            let e = read_frame::<Reply>(&mut &pipe[..cut]).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof, "cut at {cut}");
        }
        let huge = (MAX_HEADER + 1).to_le_bytes();
        let e = read_frame::<Reply>(&mut &huge[..]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(image_from(2, 2, &[0; 16]).is_err());
        assert!(words_from(&[0; 5]).is_err());
    }
}
