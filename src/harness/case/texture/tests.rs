//! `[texture N]` contents read in the form each format takes: raw
//! little-endian texels, sRGB codes, integer values, and the line each
//! bad texel is reported at.

use crate::harness::case::{Case, CaseError};
use std::path::Path;

fn texture(body: &str) -> Result<crate::vm::texture::Texture, CaseError> {
    let text = format!("[pixel shader]\nps_5_0\nret\n[texture 0]\n{body}");
    Case::parse(&text, Path::new("t.case")).map(|c| c.textures[0].1.clone())
}

fn err(body: &str) -> (usize, String) {
    let e = texture(body).unwrap_err();
    (e.line, e.message)
}

#[test]
fn raw_texels_are_little_endian_words() {
    // B8G8R8A8: byte 0 (the low digits) is blue.
    let t = texture("format bgra8_unorm\nsize 1 1\nraw\n0x000000FF\n").unwrap();
    assert_eq!(t.texel(0, 0, [0, 0, 0], 0), Some([0, 0, 0x3F80_0000, 0]));
    // SNORM 0x80 and 0x81 are both -1.
    let t = texture("format rg8_snorm\nsize 1 1\nraw\n0x8081\n").unwrap();
    let r = t.texel(0, 0, [0, 0, 0], 0).unwrap();
    assert_eq!([r[0], r[1]], [(-1.0f32).to_bits(); 2]);
}

#[test]
fn srgb_values_are_the_stored_codes() {
    // 0.2 stores code 51, which reads back linearised:
    // ((0.2 + 0.055) / 1.055)^2.4 = 0.0331; alpha stays 0.2.
    let t = texture("format rgba8_unorm_srgb\nsize 1 1\nvalues\n0.2 0 1 0.2\n").unwrap();
    let v = t.texel(0, 0, [0, 0, 0], 0).unwrap().map(f32::from_bits);
    assert!((v[0] - 0.033_104_76).abs() < 1e-6, "{v:?}");
    assert_eq!([v[1], v[2], v[3]], [0.0, 1.0, 0.2]);
}

#[test]
fn integer_formats_take_integers() {
    let t = texture("format r16_sint\nsize 2 1\nvalues\n-5 0 0 0  7i 0 0 0\n").unwrap();
    assert_eq!(t.texel(0, 0, [0, 0, 0], 0).unwrap()[0], -5i32 as u32);
    assert_eq!(t.texel(0, 0, [1, 0, 0], 0).unwrap()[0], 7);
}

#[test]
fn bad_texels_name_their_line() {
    let (line, m) = err("format r8_uint\nsize 2 1\nvalues\n1 0 0 0\n256 0 0 0\n");
    assert_eq!(line, 9);
    assert!(m.contains("256") && m.contains("R8_UINT"), "{m}");
    let (line, m) = err("format rgba8_snorm\nsize 1 1\nvalues\n-1.5 0 0 0\n");
    assert_eq!(line, 8);
    assert!(m.contains("-1.5"), "{m}");
    let (line, m) = err("format rgba8_uint\nsize 1 1\nvalues\n1.5 0 0 0\n");
    assert_eq!(line, 8);
    assert!(m.contains("integer"), "{m}");
    let (line, m) = err("format r16_float\nsize 1 1\nvalues\n3u 0 0 0\n");
    assert_eq!(line, 8);
    assert!(m.contains("float"), "{m}");
    let (line, m) = err("format r16_uint\nsize 1 1\nvalues\n-1 0 0 0\n");
    assert_eq!(line, 8);
    assert!(m.contains("above") || m.contains("outside"), "{m}");
    let (line, m) = err("format rgb9e5\nsize 1 1\nraw\n0x1234\n");
    assert_eq!(line, 8);
    assert!(m.contains("8 hex digits"), "{m}");
    let (line, _) = err("format rgb9e5\nsize 1 1\nfill constant -1 0 0 1\n");
    assert_eq!(line, 7);
    // The count is the list's fault: the `raw` line is named.
    let (line, m) = err("format rgba8_unorm\nsize 2 1\nraw\n0x00000000\n");
    assert_eq!(line, 7);
    assert!(m.contains("2 raw texels"), "{m}");
    let (_, m) = err("format rgba8_unorm\nsize 1 1\nfill constant 0 0 0 1\nraw\n0x00000000\n");
    assert!(m.contains("one of"), "{m}");
    let (line, m) = err("format r8_uint\nsize 2 1\nfill checker\n");
    assert_eq!(line, 7);
    assert!(m.contains("fill constant"), "{m}");
    let (line, m) = err("format bgr8\n");
    assert_eq!(line, 5);
    assert!(m.contains("unknown format"), "{m}");
}
