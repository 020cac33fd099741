//! The disassembly of every corpus blob that has an fxc listing beside it
//! must equal fxc's instruction and declaration lines (whitespace normalised).

use dxbc_dbg::dxbc::{decode, disasm};
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    p.join("manifest.tsv").exists().then_some(p)
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}

fn chunk<'a>(b: &'a [u8], name: &[u8]) -> Option<(usize, &'a [u8])> {
    let n = u32_at(b, 28) as usize;
    (0..n).find_map(|i| {
        let off = u32_at(b, 32 + 4 * i) as usize;
        let size = u32_at(b, off + 4) as usize;
        (&b[off..off + 4] == name).then(|| (off + 8, &b[off + 8..off + 8 + size]))
    })
}

fn normalise(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn listing_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut started = false;
    for line in text.lines() {
        let t = line.trim();
        if !started {
            let is_profile = t.len() >= 6
                && ["ps_", "vs_", "gs_", "hs_", "ds_", "cs_"].iter().any(|p| t.starts_with(p));
            if !is_profile {
                continue;
            }
            started = true;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        out.push(normalise(t));
    }
    out
}

#[test]
fn fxc_listings_match() {
    let Some(root) = corpus() else {
        println!("../shared/corpus is absent: fxc listing comparison skipped");
        return;
    };
    let mut total = 0;
    let mut same = 0;
    let mut report = String::new();
    let mut paths: Vec<_> = ["3dmigoto", "dxdecompiler", "slimshader", "wine"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).into_iter().flatten())
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "asm") && !p.to_string_lossy().ends_with(".src.asm"))
        .collect();
    paths.sort();
    for asm in paths {
        let blob = asm.with_extension("dxbc");
        let Ok(bytes) = std::fs::read(&blob) else { continue };
        total += 1;
        let (off, data, shex) = match chunk(&bytes, b"SHEX") {
            Some((o, d)) => (o, d, true),
            None => {
                let (o, d) = chunk(&bytes, b"SHDR").unwrap();
                (o, d, false)
            }
        };
        let floats = chunk(&bytes, b"RDEF")
            .map(|(_, r)| {
                let co = u32_at(r, 24) as usize;
                let end = r[co..].iter().position(|&c| c == 0).unwrap();
                disasm::Style::from_creator(&String::from_utf8_lossy(&r[co..co + end]))
            })
            .unwrap_or_default();
        let prog = decode::decode_program(data, off, shex).expect("decodes");
        let mine: Vec<String> = disasm::program_lines(&prog, floats)
            .iter()
            .flat_map(|l| l.lines().map(normalise).collect::<Vec<_>>())
            .collect();
        let theirs = listing_lines(&std::fs::read_to_string(&asm).unwrap());
        if mine == theirs {
            same += 1;
        } else {
            let n = mine.len().max(theirs.len());
            let mut shown = 0;
            report.push_str(&format!("== {}\n", asm.display()));
            for i in 0..n {
                let a = mine.get(i).map(String::as_str).unwrap_or("<none>");
                let b = theirs.get(i).map(String::as_str).unwrap_or("<none>");
                if a != b && shown < 3 {
                    report.push_str(&format!("  mine: {a}\n  fxc:  {b}\n"));
                    shown += 1;
                }
            }
        }
    }
    println!("fxc listings: {same}/{total} identical");
    assert_eq!(same, total, "disassembly differs from fxc; see the report above");
    if same != total {
        std::fs::write(std::env::temp_dir().join("fxc_listing_diffs.txt"), &report).ok();
        print!("{report}");
    }
}
