//! DDS files as case textures (`fill image FILE.dds`): the headers are
//! parsed by `ddsfile`; what they describe (dimension, format, sizes,
//! mips, array layers, cube faces) and the data's layout are checked here,
//! so a malformed file gives an error that says what is wrong (and at
//! which byte offset), never a panic or a texture that silently differs.
//!
//! Supported: the DX10 header's DXGI format (any format the texture unit
//! has), 1D/2D/3D textures, arrays, cubes and cube arrays, mip chains; the
//! legacy header's FourCCs `DXT1` (BC1), `DXT2`/`DXT3` (BC2), `DXT4`/`DXT5`
//! (BC3), `ATI1`/`BC4U` (BC4 unorm), `BC4S`, `ATI2`/`BC5U` (BC5 unorm),
//! `BC5S`, the D3DFMT numbers 113 (rgba16_float), 114 (r32_float) and 116
//! (rgba32_float), and 32-bit RGBA with the R8G8B8A8 masks; legacy cubes
//! must have all six faces. Data is D3D subresource order, tightly packed
//! (what DDS writers produce): layer by layer, each with its mip chain.

use crate::vm::texture::{Dimension, Format, Texture, TextureDesc, TextureError};

/// Bytes of the magic, the header and the DX10 header.
const MAGIC_LEN: usize = 4;
const HEADER_LEN: usize = 124;
const DX10_LEN: usize = 20;

/// `DDSCAPS2_CUBEMAP`, `DDSCAPS2_CUBEMAP_ALLFACES`, `DDSCAPS2_VOLUME`.
const CAPS2_CUBEMAP: u32 = 0x200;
const CAPS2_ALLFACES: u32 = 0xFC00;
const CAPS2_VOLUME: u32 = 0x20_0000;
/// `DDS_RESOURCE_MISC_TEXTURECUBE`.
const MISC_TEXTURECUBE: u32 = 0x4;

fn fourcc(s: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*s)
}

/// A DDS file decoded into a texture, with what its header said (for
/// matching against a case's `[texture]` settings).
#[derive(Debug)]
pub struct Dds {
    pub texture: Texture,
}

/// Parses a whole DDS file. Errors say what is wrong without the file's
/// name; the caller adds it.
pub fn parse(bytes: &[u8]) -> Result<Dds, String> {
    if bytes.len() < MAGIC_LEN || &bytes[..MAGIC_LEN] != b"DDS " {
        let head: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
        return Err(format!(
            "not a DDS file: it starts with [{}], not the magic `DDS ` (44 44 53 20)",
            head.join(" ")
        ));
    }
    if bytes.len() < MAGIC_LEN + HEADER_LEN {
        return Err(format!(
            "truncated header: the file is {} bytes, a DDS header ends at byte {}",
            bytes.len(),
            MAGIC_LEN + HEADER_LEN
        ));
    }
    let dds = ddsfile::Dds::read(bytes).map_err(|e| match e {
        ddsfile::Error::Io(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => format!(
            "truncated header: the file is {} bytes, a DDS header with the DX10 extension ends at byte {}",
            bytes.len(),
            MAGIC_LEN + HEADER_LEN + DX10_LEN
        ),
        ddsfile::Error::InvalidField(f) => format!("malformed header: invalid {f}"),
        e => format!("malformed header: {e}"),
    })?;
    let h = &dds.header;
    let data_at = MAGIC_LEN + HEADER_LEN + if dds.header10.is_some() { DX10_LEN } else { 0 };
    let width = h.width;
    let height = h.height;
    let mips = match h.mip_map_count {
        Some(0) | None => 1,
        Some(n) => n,
    };
    let caps2 = h.caps2.bits();
    let (format, desc) = match &dds.header10 {
        Some(h10) => {
            let dxgi = h10.dxgi_format as u32;
            let format = Format::from_dxgi(dxgi).ok_or_else(|| {
                format!(
                    "DXGI format {dxgi} ({:?}) is not one the texture unit has",
                    h10.dxgi_format
                )
            })?;
            let layers = h10.array_size;
            if layers == 0 {
                return Err("the DX10 header's array size is 0 (at byte 140)".into());
            }
            let cube = h10.misc_flag.bits() & MISC_TEXTURECUBE != 0;
            let dim = h10.resource_dimension as u32;
            let desc = match (dim, cube, layers) {
                (2, false, 1) => TextureDesc::tex1d(format, width),
                (2, false, n) => TextureDesc::tex1d_array(format, width, n),
                (3, false, 1) => TextureDesc::tex2d(format, width, height),
                (3, false, n) => TextureDesc::tex2d_array(format, width, height, n),
                (3, true, 1) => TextureDesc::cube(format, width),
                (3, true, n) => TextureDesc::cube_array(format, width, n),
                (4, false, 1) => TextureDesc::tex3d(format, width, height, h.depth.unwrap_or(1)),
                (4, _, _) => {
                    return Err("a 3D texture cannot be an array or a cube".into());
                }
                (2, true, _) => return Err("a 1D texture cannot be a cube".into()),
                (d, _, _) => {
                    return Err(format!(
                        "resource dimension {d} (at byte 132) is not a 1D, 2D or 3D texture"
                    ));
                }
            };
            (format, desc)
        }
        None => {
            let format = legacy_format(&h.spf)?;
            let desc = if caps2 & CAPS2_CUBEMAP != 0 {
                if caps2 & CAPS2_ALLFACES != CAPS2_ALLFACES {
                    return Err(
                        "a cube map without all six faces (DDSCAPS2_CUBEMAP_ALLFACES)".into(),
                    );
                }
                TextureDesc::cube(format, width)
            } else if caps2 & CAPS2_VOLUME != 0 {
                TextureDesc::tex3d(format, width, height, h.depth.unwrap_or(1))
            } else {
                TextureDesc::tex2d(format, width, height)
            };
            (format, desc)
        }
    };
    let desc = desc.with_mips(mips);
    let data = &bytes[data_at..];
    let texture = Texture::from_bytes(desc, data).map_err(|e| match e {
        TextureError::ByteLength { expected, got, .. } if got < expected => format!(
            "truncated data: {} {} needs {expected} bytes from byte {data_at} (to byte {}), the file ends at byte {}",
            describe(&desc),
            format.name(),
            data_at + expected,
            bytes.len()
        ),
        TextureError::ByteLength { expected, got, .. } => format!(
            "{} bytes after the data ({} {} ends at byte {})",
            got - expected,
            describe(&desc),
            format.name(),
            data_at + expected
        ),
        e => format!("the header describes no valid texture: {e}"),
    })?;
    Ok(Dds { texture })
}

/// "2D 8x8, 4 mips, 2 layers" for messages.
pub fn describe(d: &TextureDesc) -> String {
    let size = match d.dimension {
        Dimension::Tex1D | Dimension::Tex1DArray => format!("{}", d.width),
        Dimension::Tex3D => format!("{}x{}x{}", d.width, d.height, d.depth),
        _ => format!("{}x{}", d.width, d.height),
    };
    let mut s = format!("{:?} {size}", d.dimension);
    if d.mip_levels != 1 {
        s += &format!(", {} mips", d.mip_levels);
    }
    if d.dimension.is_array() {
        s += &format!(", {} elements", d.array_size);
    }
    s
}

/// The legacy (pre-DX10) pixel format: FourCC codes, the D3DFMT numbers
/// float formats are written with, or RGBA8 masks.
fn legacy_format(pf: &ddsfile::PixelFormat) -> Result<Format, String> {
    if let Some(cc) = &pf.fourcc {
        let c = cc.0;
        let f = match c {
            _ if c == fourcc(b"DXT1") => Format::Bc1Unorm,
            _ if c == fourcc(b"DXT2") || c == fourcc(b"DXT3") => Format::Bc2Unorm,
            _ if c == fourcc(b"DXT4") || c == fourcc(b"DXT5") => Format::Bc3Unorm,
            _ if c == fourcc(b"ATI1") || c == fourcc(b"BC4U") => Format::Bc4Unorm,
            _ if c == fourcc(b"BC4S") => Format::Bc4Snorm,
            _ if c == fourcc(b"ATI2") || c == fourcc(b"BC5U") => Format::Bc5Unorm,
            _ if c == fourcc(b"BC5S") => Format::Bc5Snorm,
            113 => Format::Rgba16Float,
            114 => Format::R32Float,
            116 => Format::Rgba32Float,
            _ => {
                let text: String = c
                    .to_le_bytes()
                    .iter()
                    .map(|&b| if b.is_ascii_graphic() { b as char } else { '?' })
                    .collect();
                return Err(format!(
                    "legacy FourCC `{text}` ({c:#010x}, at byte 84) is not supported; \
                     write the file with a DX10 header"
                ));
            }
        };
        return Ok(f);
    }
    let masks = (
        pf.rgb_bit_count,
        pf.r_bit_mask,
        pf.g_bit_mask,
        pf.b_bit_mask,
        pf.a_bit_mask,
    );
    if masks
        == (
            Some(32),
            Some(0xFF),
            Some(0xFF00),
            Some(0xFF_0000),
            Some(0xFF00_0000),
        )
    {
        return Ok(Format::Rgba8Unorm);
    }
    Err(format!(
        "legacy pixel format (bits {:?}, masks r {:x?} g {:x?} b {:x?} a {:x?}) is not supported; \
         write the file with a DX10 header",
        masks.0, masks.1, masks.2, masks.3, masks.4
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A DDS file: magic, header (flags CAPS|HEIGHT|WIDTH|PIXELFORMAT|
    /// MIPMAPCOUNT), a FourCC pixel format, caps2, an optional DX10 header,
    /// then `data`.
    pub(crate) fn file(
        w: u32,
        h: u32,
        mips: u32,
        cc: &[u8; 4],
        caps2: u32,
        dx10: Option<[u32; 5]>,
        data: &[u8],
    ) -> Vec<u8> {
        let mut v = b"DDS ".to_vec();
        let mut put = |x: u32| v.extend_from_slice(&x.to_le_bytes());
        put(124);
        put(0x1 | 0x2 | 0x4 | 0x1000 | 0x2_0000);
        put(h);
        put(w);
        put(0);
        put(0);
        put(mips);
        for _ in 0..11 {
            put(0);
        }
        put(32); // pixel format size
        put(0x4); // DDPF_FOURCC
        put(u32::from_le_bytes(*cc));
        for _ in 0..5 {
            put(0);
        }
        put(0x1000); // DDSCAPS_TEXTURE
        put(caps2);
        put(0);
        put(0);
        put(0);
        if let Some(d) = dx10 {
            for x in d {
                put(x);
            }
        }
        v.extend_from_slice(data);
        v
    }

    /// One BC1 block: red (0xF800) over blue, every index 0.
    const RED_BLOCK: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0];

    #[test]
    fn legacy_dxt1_with_mips() {
        // 8x8 with 4 mips: 4 + 1 + 1 + 1 blocks (the 2x2 and 1x1 levels
        // each take a whole block).
        let data = RED_BLOCK.repeat(7);
        let d = parse(&file(8, 8, 4, b"DXT1", 0, None, &data)).unwrap();
        assert_eq!(d.texture.format(), Format::Bc1Unorm);
        assert_eq!(d.texture.mip_levels(), 4);
        assert_eq!(
            d.texture.texel(0, 3, [0, 0, 0], 0),
            Some([1.0f32, 0.0, 0.0, 1.0].map(f32::to_bits))
        );
    }

    #[test]
    fn dx10_cube_array_of_bc7() {
        // 4x4 cube array of 2 cubes, one mip: 12 faces of one 16-byte block.
        let dx10 = [98, 3, MISC_TEXTURECUBE, 2, 0];
        let d = parse(&file(4, 4, 1, b"DX10", 0, Some(dx10), &[0u8; 16 * 12])).unwrap();
        assert_eq!(d.texture.dimension(), Dimension::CubeArray);
        assert_eq!(d.texture.layers(), 12);
    }

    /// `assets/bc1_array_mips.dds`, which `tests/cases/formats/
    /// dds_bc1_array_mips.case` reads, is exactly this file: a DX10 header
    /// for BC1_UNORM (DXGI 71), a 2D texture (dimension 3), 8x8, 4 mips,
    /// 2 array layers, then each layer's chain of solid-colour blocks
    /// (colour0 = colour1, every index 0): level 0 has 2x2 blocks, levels
    /// 1-3 (4x4, 2x2, 1x1) one block each.
    #[test]
    fn committed_asset_is_the_described_file() {
        let solid = |c: u16| {
            let [lo, hi] = c.to_le_bytes();
            [lo, hi, lo, hi, 0, 0, 0, 0]
        };
        let (red, green, blue, white) = (0xF800, 0x07E0, 0x001F, 0xFFFF);
        let (yellow, cyan, magenta, black) = (0xFFE0, 0x07FF, 0xF81F, 0x0000);
        let layers = [
            [red, green, blue, white, yellow, cyan, magenta],
            [black, black, black, blue, white, red, green],
        ];
        let data: Vec<u8> = layers.iter().flatten().flat_map(|&c| solid(c)).collect();
        let want = file(8, 8, 4, b"DX10", 0, Some([71, 3, 0, 2, 0]), &data);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/bc1_array_mips.dds");
        assert_eq!(std::fs::read(path).unwrap(), want);
        let tex = parse(&want).unwrap().texture;
        assert_eq!(tex.dimension(), Dimension::Tex2DArray);
        assert_eq!((tex.layers(), tex.mip_levels()), (2, 4));
    }

    fn err(bytes: &[u8]) -> String {
        parse(bytes).unwrap_err()
    }

    #[test]
    fn malformed_files_give_clear_errors() {
        let good = file(4, 4, 1, b"DXT1", 0, None, &RED_BLOCK);
        assert!(parse(&good).is_ok());
        // Empty file and wrong magic.
        assert!(err(&[]).contains("not a DDS file"), "{}", err(&[]));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(err(&bad).contains("magic"), "{}", err(&bad));
        // Truncated header, at every length short of the header's end.
        for n in 4..128 {
            let e = err(&good[..n]);
            assert!(e.contains("truncated header"), "{n}: {e}");
        }
        // A DX10 header cut short.
        let dx = file(4, 4, 1, b"DX10", 0, Some([71, 3, 0, 1, 0]), &RED_BLOCK);
        for n in 128..148 {
            let e = err(&dx[..n]);
            assert!(e.contains("truncated header"), "{n}: {e}");
        }
        // Header size field wrong.
        let mut bad = good.clone();
        bad[4] = 100;
        assert!(err(&bad).contains("malformed header"), "{}", err(&bad));
        // Truncated data: 8x8 needs 4 blocks.
        let e = err(&file(8, 8, 1, b"DXT1", 0, None, &RED_BLOCK));
        assert!(
            e.contains("truncated data")
                && e.contains("from byte 128")
                && e.contains("ends at byte 136"),
            "{e}"
        );
        // Data left over.
        let e = err(&file(4, 4, 1, b"DXT1", 0, None, &RED_BLOCK.repeat(2)));
        assert!(e.contains("8 bytes after the data"), "{e}");
        // Unknown FourCC, unknown DXGI format, format the unit lacks.
        assert!(err(&file(4, 4, 1, b"ABCD", 0, None, &[])).contains("FourCC `ABCD`"));
        assert!(
            err(&file(4, 4, 1, b"DX10", 0, Some([9999, 3, 0, 1, 0]), &[]))
                .contains("malformed header")
        );
        let e = err(&file(4, 4, 1, b"DX10", 0, Some([85, 3, 0, 1, 0]), &[0; 32]));
        assert!(e.contains("not one the texture unit has"), "{e}");
        // Zero size, too many mips, zero array size, a partial cube.
        assert!(err(&file(0, 4, 1, b"DXT1", 0, None, &[])).contains("no valid texture"));
        assert!(err(&file(4, 4, 9, b"DXT1", 0, None, &[])).contains("mip levels"));
        let e = err(&file(4, 4, 1, b"DX10", 0, Some([71, 3, 0, 0, 0]), &[]));
        assert!(e.contains("array size is 0"), "{e}");
        let e = err(&file(
            4,
            4,
            1,
            b"DXT1",
            CAPS2_CUBEMAP | 0x400,
            None,
            &RED_BLOCK,
        ));
        assert!(e.contains("six faces"), "{e}");
        // A block format on a 1D texture.
        let e = err(&file(
            4,
            1,
            1,
            b"DX10",
            0,
            Some([71, 2, 0, 1, 0]),
            &RED_BLOCK,
        ));
        assert!(e.contains("block-compressed"), "{e}");
    }

    /// Every prefix and every single-byte corruption of a valid file
    /// parses or fails, never panics.
    #[test]
    fn no_input_panics() {
        let dx = file(
            8,
            8,
            2,
            b"DX10",
            0,
            Some([71, 3, 0, 1, 0]),
            &RED_BLOCK.repeat(5),
        );
        for n in 0..dx.len() {
            let _ = parse(&dx[..n]);
        }
        for i in 0..dx.len().min(200) {
            for v in [0u8, 1, 0x7F, 0xFF] {
                let mut b = dx.clone();
                b[i] = v;
                let _ = parse(&b);
            }
        }
    }
}
