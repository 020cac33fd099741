//! The container hash stored at byte offset 4 of every DXBC blob.
//!
//! fxc hashes everything after the hash field's end (bytes 20..) with MD5
//! rounds, but pads the last block its own way: the bit length goes in the
//! *first* word of the final block and `2n | 1` in its last word, instead of
//! MD5's 64-bit length at the end. Runtimes refuse blobs whose hash does not
//! match, so a mismatch usually means the file was edited after compiling.

/// Byte offset where hashed data starts: magic (4) + hash (16).
const HASHED_FROM: usize = 20;

/// Computes the container hash of `bytes` (a whole container). The result is
/// the four MD5 state words, which the container stores little-endian at
/// offset 4. Inputs shorter than 20 bytes hash as empty.
pub fn dxbc_checksum(bytes: &[u8]) -> [u32; 4] {
    let data = bytes.get(HASHED_FROM..).unwrap_or(&[]);
    let mut state = MD5_INIT;
    let mut blocks = data.chunks_exact(64);
    for block in &mut blocks {
        md5_block(&mut state, block);
    }
    let tail = blocks.remainder();
    // Lengths are stored as u32 words; containers are far below 512 MiB, and
    // wrapping matches what a 32-bit implementation would store anyway.
    let n = data.len() as u32;
    let bit_len = n.wrapping_mul(8);
    let last_word = (n << 1) | 1;

    let mut block = [0u8; 64];
    if tail.len() < 56 {
        block[..4].copy_from_slice(&bit_len.to_le_bytes());
        block[4..4 + tail.len()].copy_from_slice(tail);
        block[4 + tail.len()] = 0x80;
        block[60..].copy_from_slice(&last_word.to_le_bytes());
        md5_block(&mut state, &block);
    } else {
        block[..tail.len()].copy_from_slice(tail);
        block[tail.len()] = 0x80;
        md5_block(&mut state, &block);
        let mut block = [0u8; 64];
        block[..4].copy_from_slice(&bit_len.to_le_bytes());
        block[60..].copy_from_slice(&last_word.to_le_bytes());
        md5_block(&mut state, &block);
    }
    state
}

/// The hash stored in the container header, if the input is long enough.
pub fn stored_checksum(bytes: &[u8]) -> Option<[u32; 4]> {
    let h = bytes.get(4..HASHED_FROM)?;
    let mut out = [0u32; 4];
    for (word, c) in out.iter_mut().zip(h.chunks_exact(4)) {
        *word = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    Some(out)
}

/// True when the stored hash matches the recomputed one.
pub fn checksum_matches(bytes: &[u8]) -> bool {
    stored_checksum(bytes) == Some(dxbc_checksum(bytes))
}

/// Formats a hash the way it is laid out in the file (16 hex bytes), so it
/// can be compared with a hex dump.
pub fn format_checksum(hash: &[u32; 4]) -> String {
    hash.iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

const MD5_INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

const SHIFTS: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, //
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, //
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, //
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// floor(abs(sin(i + 1)) * 2^32), the MD5 additive constants (RFC 1321).
const K: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

/// One MD5 compression of a 64-byte block into `state`.
fn md5_block(state: &mut [u32; 4], block: &[u8]) {
    debug_assert_eq!(block.len(), 64);
    let mut m = [0u32; 16];
    for (word, c) in m.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let rotated = a
            .wrapping_add(f)
            .wrapping_add(K[i])
            .wrapping_add(m[g])
            .rotate_left(SHIFTS[i]);
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(rotated);
    }
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain RFC 1321 MD5 built from the same compression function, to check
    /// the rounds independently of fxc's padding.
    fn md5(data: &[u8]) -> [u8; 16] {
        let mut state = MD5_INIT;
        let mut padded = data.to_vec();
        padded.push(0x80);
        while padded.len() % 64 != 56 {
            padded.push(0);
        }
        padded.extend_from_slice(&((data.len() as u64) * 8).to_le_bytes());
        for block in padded.chunks_exact(64) {
            md5_block(&mut state, block);
        }
        let mut out = [0u8; 16];
        for (i, w) in state.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn md5_rounds_match_rfc_1321_vectors() {
        assert_eq!(hex(&md5(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(&md5(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            hex(&md5(
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890"
            )),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }

    #[test]
    fn short_inputs_do_not_panic() {
        for len in 0..200 {
            let v: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let _ = dxbc_checksum(&v);
            assert_eq!(stored_checksum(&v).is_some(), len >= 20);
        }
    }

    #[test]
    fn both_padding_layouts_differ_by_tail_length() {
        // 20 header bytes + 55 or 56 data bytes exercise the one-block and
        // two-block final layouts; they must differ and be deterministic.
        let a = vec![0u8; 20 + 55];
        let b = vec![0u8; 20 + 56];
        assert_eq!(dxbc_checksum(&a), dxbc_checksum(&a));
        assert_ne!(dxbc_checksum(&a), dxbc_checksum(&b));
    }

    #[test]
    fn stored_hash_round_trips() {
        let mut blob = vec![0u8; 100];
        blob[..4].copy_from_slice(b"DXBC");
        let h = dxbc_checksum(&blob);
        for (i, w) in h.iter().enumerate() {
            blob[4 + i * 4..8 + i * 4].copy_from_slice(&w.to_le_bytes());
        }
        // The hash covers bytes 20.. only, so writing it does not change it.
        assert!(checksum_matches(&blob));
        blob[60] ^= 1;
        assert!(!checksum_matches(&blob));
        assert_eq!(format_checksum(&[0x0403_0201, 0, 0, 0xffff_ffff]).len(), 32);
    }

    #[test]
    fn corpus_checksums_agree_with_manifest() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        let Ok(manifest) = std::fs::read_to_string(root.join("manifest.tsv")) else {
            println!("corpus absent at {}; skipping", root.display());
            return;
        };
        let mut header: Vec<&str> = Vec::new();
        let (mut ok, mut bad) = (0, 0);
        for line in manifest.lines() {
            let cols: Vec<&str> = line.split('\t').collect();
            if header.is_empty() {
                header = cols;
                continue;
            }
            let col = |name: &str| header.iter().position(|h| *h == name).map(|i| cols[i]);
            let file = col("file").unwrap();
            let expect = col("checksum_ok").unwrap() == "yes";
            let bytes = std::fs::read(root.join(file)).unwrap();
            assert_eq!(checksum_matches(&bytes), expect, "{file}");
            if expect { ok += 1 } else { bad += 1 }
        }
        println!("checksums: {ok} verify, {bad} do not (as the manifest says)");
        assert!(ok > 0);
    }
}
