//! The corpus as the benchmarks read it: every blob in
//! `../shared/corpus/manifest.tsv` that parses (checksums not verified),
//! in manifest order. Empty, after saying so, when the corpus is absent.
// Each benchmark uses part of a blob (bytes, shader or name).
#![allow(dead_code)]

use std::path::Path;

use dxbc_dbg::dxbc::{ParseOptions, Shader};

pub struct Blob {
    /// The file's path in the corpus, as the manifest names it.
    pub file: String,
    pub bytes: Vec<u8>,
    pub shader: Shader,
}

pub fn corpus() -> Vec<Blob> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(manifest) = std::fs::read_to_string(root.join("manifest.tsv")) else {
        eprintln!("../shared/corpus is absent: nothing to benchmark");
        return Vec::new();
    };
    let options = ParseOptions {
        verify_checksum: false,
    };
    manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let file = line.split('\t').next()?;
            let bytes = std::fs::read(root.join(file)).ok()?;
            let shader = Shader::parse(&bytes, options).ok()?;
            Some(Blob {
                file: file.to_string(),
                bytes,
                shader,
            })
        })
        .collect()
}
