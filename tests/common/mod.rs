//! Helpers shared by the integration tests: where the corpus is and what its
//! manifest says. The corpus lives beside the checkout, never inside it.
#![allow(dead_code)]

pub mod bisect_faults;
pub mod cli;
pub mod quad;
pub mod screen;
pub mod tmux;
pub mod validate;

use std::path::{Path, PathBuf};

/// `../shared/corpus`, or None (after saying so) when it is absent.
pub fn corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if root.join("manifest.tsv").is_file() {
        Some(root)
    } else {
        println!("../shared/corpus is absent: corpus checks skipped");
        None
    }
}

pub struct Blob {
    pub file: String,
    pub shader_type: String,
    pub checksum_ok: bool,
    pub has_listing: bool,
}

impl Blob {
    pub fn is_effect(&self) -> bool {
        self.shader_type == "fx"
    }
    pub fn is_shader(&self) -> bool {
        !self.is_effect() && self.shader_type != "none"
    }
}

pub fn manifest(root: &Path) -> Vec<Blob> {
    let text = std::fs::read_to_string(root.join("manifest.tsv")).expect("manifest.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("manifest has no {name} column"))
    };
    let (f, t, k, l) = (
        col("file"),
        col("shader_type"),
        col("checksum_ok"),
        col("has_listing"),
    );
    lines
        .map(|line| {
            let c: Vec<&str> = line.split('\t').collect();
            Blob {
                file: c[f].to_string(),
                shader_type: c[t].to_string(),
                checksum_ok: c[k] == "yes",
                has_listing: c[l] == "yes",
            }
        })
        .collect()
}

pub fn normalise(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Deterministic xorshift64* so a failing mutation reproduces, without a
/// crate for it.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Every file under `dir` (recursively) whose name ends in `.ext`, in
/// path order.
pub fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    let mut out = Vec::new();
    for p in entries {
        if p.is_dir() {
            out.extend(files_under(&p, ext));
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
    out
}

/// Rewrites a container's stored hash to match its bytes, so a patched
/// container reads without `--no-verify`. Too short to hold a hash: left
/// as it is.
pub fn fix_checksum(bytes: &mut [u8]) {
    if bytes.len() < 20 {
        return;
    }
    let hash = dxbc_dbg::dxbc::checksum::dxbc_checksum(bytes);
    for (i, w) in hash.iter().enumerate() {
        bytes[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
}

/// The corpus's vertex and pixel shaders, parsed (checksums not verified:
/// one blob's is bad on purpose), with their file names.
pub fn vertex_and_pixel_shaders(root: &Path) -> Vec<(String, dxbc_dbg::dxbc::Shader)> {
    use dxbc_dbg::dxbc::ir::ProgramType;
    use dxbc_dbg::dxbc::{ParseOptions, Shader};
    manifest(root)
        .iter()
        .filter(|b| b.is_shader())
        .filter_map(|blob| {
            let bytes = std::fs::read(root.join(&blob.file)).expect("read blob");
            let shader = Shader::parse(
                &bytes,
                ParseOptions {
                    verify_checksum: false,
                },
            )
            .expect("parses");
            matches!(
                shader.program.kind,
                ProgramType::Pixel | ProgramType::Vertex
            )
            .then(|| (blob.file.clone(), shader))
        })
        .collect()
}

/// The manifest's source of each blob: (repo, path).
pub fn groups(root: &std::path::Path) -> std::collections::BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(root.join("manifest.tsv")).expect("manifest.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect("column");
    let (f, r, p) = (col("file"), col("source_repo"), col("source_path"));
    lines
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[f].to_string(), (c[r].to_string(), c[p].to_string()))
        })
        .collect()
}

/// Whether every non-system-value pixel-shader input is written by the
/// vertex shader.
pub fn feeds(vs: &dxbc_dbg::dxbc::Shader, ps: &dxbc_dbg::dxbc::Shader) -> bool {
    let elements = |s: &dxbc_dbg::dxbc::Shader,
                    kind: dxbc_dbg::dxbc::signature::SignatureKind|
     -> Vec<(String, u32, u8)> {
        s.signatures
            .iter()
            .filter(|g| g.kind == kind)
            .flat_map(|g| g.elements.iter())
            .filter(|e| !e.is_system_value())
            .map(|e| {
                (
                    e.semantic_name.to_ascii_uppercase(),
                    e.semantic_index,
                    e.mask,
                )
            })
            .collect()
    };
    let outs = elements(vs, dxbc_dbg::dxbc::signature::SignatureKind::Output);
    let ins = elements(ps, dxbc_dbg::dxbc::signature::SignatureKind::Input);
    !ins.is_empty()
        && ins.iter().all(|(n, i, m)| {
            outs.iter()
                .any(|(on, oi, om)| on == n && oi == i && m & !om == 0)
        })
}
