use dxbc_dbg::dxbc::{decode, disasm, encode};
fn u32_at(b: &[u8], o: usize) -> u32 { u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) }
#[test]
fn walk() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let m = std::fs::read_to_string(root.join("manifest.tsv")).unwrap();
    let mut ok = 0; let mut n = 0;
    let mut trailing = std::collections::BTreeMap::new();
    for line in m.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[10] != "SHDR" && f[10] != "SHEX" { continue; }
        n += 1;
        let b = std::fs::read(root.join(f[0])).unwrap();
        let cnt = u32_at(&b, 28) as usize;
        for i in 0..cnt {
            let off = u32_at(&b, 32 + 4 * i) as usize;
            let name = &b[off..off + 4];
            if name == b"SHDR" || name == b"SHEX" {
                let size = u32_at(&b, off + 4) as usize;
                match decode::decode_program(&b[off + 8..off + 8 + size], off + 8, name == b"SHEX") {
                    Ok(p) => { ok += 1;
                        for inst in &p.instructions { if !inst.trailing.is_empty() { *trailing.entry(format!("{} {}", inst.name(), p.profile())).or_insert(0) += 1; } }
                        let _ = disasm::program_lines(&p, Default::default());
                        let words: Vec<u32> = b[off+8..off+8+size].chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
                        let enc = encode::encode_program(&p);
                        if enc[..] != words[..enc.len().min(words.len())] || enc.len() != words[1] as usize { let i = enc.iter().zip(&words).position(|(a,b)| a!=b).unwrap_or(0); println!("MISMATCH {} at dword {i}: {:x?} vs {:x?}", f[0], &enc[i.saturating_sub(1)..(i+3).min(enc.len())], &words[i.saturating_sub(1)..(i+3).min(words.len())]); }
                    }
                    Err(e) => println!("{}: {e}", f[0]),
                }
            }
        }
    }
    println!("{ok}/{n} decoded; trailing: {trailing:?}");
}
