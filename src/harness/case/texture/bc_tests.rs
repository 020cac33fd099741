//! Block-compressed textures from `blocks` and from DDS files, and the
//! errors that name the line (and the file) a mismatch or a malformed
//! file belongs to.

use super::super::{Case, CaseError};
use crate::harness::dds::tests::file;
use crate::vm::texture::Format;
use std::path::{Path, PathBuf};

const SHADER: &str = "[pixel shader]\nps_5_0\nret\n";

fn parse(text: &str, at: &Path) -> Result<Case, CaseError> {
    Case::parse(&format!("{SHADER}{text}"), &at.join("t.case"))
}

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-bc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The section's line numbers start after the 3-line shader.
fn err(text: &str, at: &Path) -> (usize, String) {
    let e = parse(text, at).unwrap_err();
    (e.line, e.to_string())
}

const RED: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0];

#[test]
fn blocks_give_a_block_compressed_texture() {
    let d = dir("blocks");
    let c = parse(
        "[texture 0]\nformat bc1_unorm\nsize 4 4\nblocks\n00f81f00 0x00000000\n",
        &d,
    )
    .unwrap();
    let tex = &c.textures[0].1;
    assert_eq!(tex.format(), Format::Bc1Unorm);
    assert_eq!(
        tex.texel(0, 0, [3, 3, 0], 0),
        Some([1.0f32, 0.0, 0.0, 1.0].map(f32::to_bits))
    );
    // 6x6 is 2x2 blocks.
    let e = err(
        "[texture 0]\nformat bc1_unorm\nsize 6 6\nblocks\n00f81f00 00000000\n",
        &d,
    );
    assert_eq!(e.0, 7, "{}", e.1);
    assert!(
        e.1.contains("needs 32 bytes of blocks (4 blocks of 8), found 8"),
        "{}",
        e.1
    );
    // Bad tokens, each naming its line.
    for bad in ["0f8", "0x1234", "zz", "0xgggggggg"] {
        let e = err(
            &format!("[texture 0]\nformat bc4_unorm\nsize 4 4\nblocks\n0000\n{bad}\n"),
            &d,
        );
        assert_eq!(e.0, 9, "{bad}: {}", e.1);
        assert!(e.1.contains("bad block bytes"), "{}", e.1);
    }
    // Texel values, generated fills and blocks on the wrong format.
    let e = err(
        "[texture 0]\nformat bc7_unorm\nsize 4 4\nvalues\n0 0 0 1\n",
        &d,
    );
    assert!(e.1.contains("not texel `values`"), "{}", e.1);
    let e = err(
        "[texture 0]\nformat bc7_unorm\nsize 4 4\nfill checker\n",
        &d,
    );
    assert_eq!(e.0, 7, "{}", e.1);
    let e = err("[texture 0]\nformat r8_unorm\nsize 4 4\nblocks\n00\n", &d);
    assert!(e.1.contains("not R8_UNORM"), "{}", e.1);
    // A block format where D3D has none.
    let e = err("[texture 0]\nformat bc1_unorm\ndimension 1d\nsize 4\n", &d);
    assert!(e.1.contains("block-compressed"), "{}", e.1);
}

#[test]
fn dds_files_fill_textures_and_must_match_the_section() {
    let d = dir("dds");
    std::fs::write(d.join("ok.dds"), file(4, 4, 1, b"DXT1", 0, None, &RED)).unwrap();
    let c = parse("[texture 0]\nfill image ok.dds\n", &d).unwrap();
    assert_eq!(c.textures[0].1.format(), Format::Bc1Unorm);
    let c = parse(
        "[texture 0]\nformat bc1_unorm\ndimension 2d\nsize 4 4\nmips 1\nfill image ok.dds\n",
        &d,
    )
    .unwrap();
    assert_eq!(c.textures[0].1.mip_levels(), 1);
    // Each stated setting that differs names its own line and the file.
    let cases = [
        ("format bc3_unorm", "format BC3_UNORM does not match"),
        ("dimension 2darray", "dimension Tex2DArray does not match"),
        ("size 8 4", "size 8 4 1 does not match"),
        ("mips 2", "mip count 2 does not match"),
    ];
    for (setting, want) in cases {
        let e = err(&format!("[texture 0]\n{setting}\nfill image ok.dds\n"), &d);
        assert_eq!(e.0, 5, "{setting}: {}", e.1);
        assert!(e.1.contains(want) && e.1.contains("ok.dds"), "{}", e.1);
    }
    // Nothing may follow the file.
    let e = err("[texture 0]\nfill image ok.dds\nsize 4 4\n", &d);
    assert_eq!(e.0, 6, "{}", e.1);
    // Malformed files: the fill line, the file's name and what is wrong.
    let mut bad_magic = file(4, 4, 1, b"DXT1", 0, None, &RED);
    bad_magic[..4].copy_from_slice(b"PNG ");
    let truncated_header = file(4, 4, 1, b"DXT1", 0, None, &RED)[..60].to_vec();
    let truncated_data = file(8, 8, 1, b"DXT1", 0, None, &RED);
    let files: [(&str, Vec<u8>, &str); 3] = [
        ("magic.dds", bad_magic, "not a DDS file"),
        ("header.dds", truncated_header, "truncated header"),
        ("data.dds", truncated_data, "truncated data"),
    ];
    for (name, bytes, want) in files {
        std::fs::write(d.join(name), bytes).unwrap();
        let e = err(&format!("[texture 0]\nfill image {name}\n"), &d);
        assert_eq!(e.0, 5, "{name}: {}", e.1);
        assert!(e.1.contains(name) && e.1.contains(want), "{}", e.1);
    }
    // Larger than a section may describe (D3D allows it; cases do not).
    std::fs::write(
        d.join("big.dds"),
        file(8192, 4, 1, b"DXT1", 0, None, &[0; 8 * 2048]),
    )
    .unwrap();
    let e = err("[texture 0]\nfill image big.dds\n", &d);
    assert!(e.1.contains("width 8192 is outside"), "{}", e.1);
    let e = err("[texture 0]\nfill image missing.dds\n", &d);
    assert!(e.1.contains("missing.dds"), "{}", e.1);
}
