//! Input files over the 64 MiB limit are refused from their size, before
//! being read, wherever a command reads a container, an `.asm` source or a
//! case file; the one-line error names the file, its size and the limit.
//! The files are sparse, so making them costs no disk.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use dxbc_dbg::harness::case::Case;

const MIB: u64 = 1024 * 1024;

/// A scratch directory for this test binary's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-input-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A sparse file of `len` zero bytes.
fn sparse(name: &str, len: u64) -> PathBuf {
    let path = scratch(name);
    File::create(&path)
        .and_then(|f| f.set_len(len))
        .expect("sparse file");
    path
}

/// Runs the binary, checking it answers within a few seconds: a refusal
/// from the size costs nothing, whatever the file holds.
fn dxbc_dbg(args: &[&str]) -> Output {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(args)
        .output()
        .expect("run dxbc-dbg");
    assert!(start.elapsed() < Duration::from_secs(10));
    out
}

/// What a 65 MiB file is told: 65 MiB = 68157440 bytes, 64 MiB = 67108864.
const TOO_LARGE: &str = "68157440 bytes is over the 64 MiB (67108864-byte) limit on input files";

fn too_large(path: &Path) -> String {
    format!("{}: {TOO_LARGE}", path.display())
}

fn assert_refused(out: &Output, path: &Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end(), format!("dxbc-dbg: {}", too_large(path)));
}

#[test]
fn every_command_refuses_a_container_over_the_limit() {
    let big = sparse("big.dxbc", 65 * MIB);
    let name = big.to_string_lossy().into_owned();
    for args in [
        vec!["info", &name],
        vec!["disasm", &name],
        vec!["glsl", &name],
        vec!["trace", &name],
        vec!["step", &name],
    ] {
        assert_refused(&dxbc_dbg(&args), &big);
    }
}

#[test]
fn assembly_over_the_limit_is_refused() {
    let big = sparse("big.asm", 65 * MIB);
    let name = big.to_string_lossy().into_owned();
    let out_path = scratch("never.dxbc").to_string_lossy().into_owned();
    assert_refused(&dxbc_dbg(&["asm", &name, "-o", &out_path]), &big);
    assert!(!Path::new(&out_path).exists());
    assert_refused(&dxbc_dbg(&["trace", &name]), &big);
}

#[test]
fn a_case_file_over_the_limit_is_refused() {
    let big = sparse("big.case", 65 * MIB);
    let shader = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/debugger/small.asm");
    let out = dxbc_dbg(&[
        "trace",
        &shader.to_string_lossy(),
        "--case",
        &big.to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Case errors name a line; a file refused whole has none (0).
    assert_eq!(
        err.trim_end(),
        format!("dxbc-dbg: {}:0: {TOO_LARGE}", big.display())
    );
}

#[test]
fn a_shader_file_a_case_names_is_held_to_the_limit() {
    let big = sparse("named_by_case.dxbc", 65 * MIB);
    let case_path = scratch("names_big.case");
    let case =
        Case::parse("[pixel shader file]\nnamed_by_case.dxbc\n", &case_path).expect("parses");
    let err = case.shaders().expect_err("refused");
    assert_eq!(err.to_string(), format!("{}:0: {TOO_LARGE}", big.display()));
}

#[test]
fn a_file_of_exactly_the_limit_is_read() {
    // 64 MiB of zeros passes the size check and fails as what it is: not
    // a container.
    let edge = sparse("edge.dxbc", 64 * MIB);
    let out = dxbc_dbg(&["info", &edge.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!("dxbc-dbg: {}:", edge.display())),
        "{err}"
    );
    assert!(!err.contains("limit on input files"), "{err}");
}

/// CRC-32 (ISO-HDLC, as PNG chunks use), bit by bit: a test needs only a
/// few bytes of it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A valid 1x1 PNG whose header then claims `side` x `side`: a few dozen
/// bytes that would decode into `side² × 4` bytes if the decoder believed it.
fn png_claiming(name: &str, side: u32) -> PathBuf {
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(1, 1, image::Rgba([1, 2, 3, 4]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("encode a 1x1 PNG");
    // Signature (8), then IHDR: length (4), type (4), width, height, ...
    // 13 bytes of data in all, then the CRC over type and data.
    assert_eq!(&png[12..16], b"IHDR");
    png[16..20].copy_from_slice(&side.to_be_bytes());
    png[20..24].copy_from_slice(&side.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let path = scratch(name);
    std::fs::write(&path, png).expect("write png");
    path
}

fn case_with_image(case_name: &str, image: &str, side: u32) -> Case {
    let text = format!(
        "[pixel shader]\nps_4_0\nret\n[texture 0]\nsize {side} {side}\nfill image {image}\n"
    );
    Case::parse(&text, &scratch(case_name)).expect("case text parses up to the image")
}

#[test]
fn a_png_claiming_a_huge_size_is_refused_from_its_header() {
    // 8192² RGBA8 would be 256 MiB, under the decoder's own default
    // allocation limit; the limit of 4096 on a side refuses it first.
    let bomb = png_claiming("bomb.png", 8192);
    let start = Instant::now();
    let text = "[pixel shader]\nps_4_0\nret\n[texture 0]\nsize 4 4\nfill image bomb.png\n";
    let err = Case::parse(text, &scratch("bomb.case")).expect_err("refused");
    assert!(start.elapsed() < Duration::from_secs(5));
    let msg = err.to_string();
    // Line 6 is `fill image`; the file is named, and the decoder's words
    // say why.
    assert!(
        msg.starts_with(&format!(
            "{}:6: {}: not a readable image:",
            scratch("bomb.case").display(),
            bomb.display()
        )),
        "{msg}"
    );
    assert!(decoder_words(&msg).contains("limit"), "{msg}");
}

/// What the decoder said, after the file's name (the scratch directory's
/// own name holds "limit").
fn decoder_words(msg: &str) -> &str {
    msg.split_once("not a readable image:")
        .map(|(_, why)| why)
        .unwrap_or_else(|| panic!("not a decoder error: {msg}"))
}

#[test]
fn a_png_at_the_side_limit_still_reads() {
    // The header's claim of 4096 is within the limit, so the decoder goes
    // on to the pixel data and finds only one pixel's worth: an error of
    // the data, not of the limit. A real 2x2 file reads.
    let edge = png_claiming("edge.png", 4096);
    let text = "[pixel shader]\nps_4_0\nret\n[texture 0]\nsize 4096 4096\nfill image edge.png\n";
    let msg = Case::parse(text, &scratch("edge.case"))
        .expect_err("truncated data")
        .to_string();
    assert!(msg.contains(&edge.display().to_string()), "{msg}");
    assert!(!decoder_words(&msg).contains("limit"), "{msg}");
    let small = scratch("small.png");
    image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 0, 0, 255]))
        .save(&small)
        .expect("write png");
    let case = case_with_image("small.case", "small.png", 2);
    assert_eq!(case.textures.len(), 1);
}

#[test]
fn an_image_over_the_input_limit_is_refused_from_its_size() {
    let big = sparse("big.png", 65 * MIB);
    let text = "[pixel shader]\nps_4_0\nret\n[texture 0]\nsize 4 4\nfill image big.png\n";
    let err = Case::parse(text, &scratch("bigimage.case")).expect_err("refused");
    assert_eq!(
        err.to_string(),
        format!(
            "{}:6: {}: {TOO_LARGE}",
            scratch("bigimage.case").display(),
            big.display()
        )
    );
}

#[test]
fn a_golden_over_the_input_limit_is_refused_from_its_size() {
    let dir = scratch("goldens");
    std::fs::create_dir_all(&dir).expect("goldens dir");
    let exr = dxbc_dbg::harness::golden::path(&dir, "big", 0);
    File::create(&exr)
        .and_then(|f| f.set_len(65 * MIB))
        .expect("sparse golden");
    let err = dxbc_dbg::harness::golden::read_exr(&exr).expect_err("refused");
    assert_eq!(err.to_string(), format!("{}: {TOO_LARGE}", exr.display()));
}
