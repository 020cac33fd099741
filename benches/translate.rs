//! GLSL translation throughput (shaders/s, es300) over the corpus's vertex
//! and pixel shaders, parsed beforehand; refused shaders count too, since
//! refusing is part of translating. Run with `cargo bench --bench
//! translate`; needs ../shared/corpus.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::ir::ShaderKind;
use dxbc_dbg::dxbc::{ParseOptions, Shader};
use dxbc_dbg::glsl::{self, Dialect, Options};

fn corpus_shaders() -> Vec<Shader> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(manifest) = std::fs::read_to_string(root.join("manifest.tsv")) else {
        eprintln!("../shared/corpus is absent: nothing to benchmark");
        return Vec::new();
    };
    manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let file = l.split('\t').next()?;
            let bytes = std::fs::read(root.join(file)).ok()?;
            Shader::parse(
                &bytes,
                ParseOptions {
                    verify_checksum: false,
                },
            )
            .ok()
        })
        .filter(|s| matches!(s.program.kind, ShaderKind::Vertex | ShaderKind::Pixel))
        .collect()
}

fn bench(c: &mut Criterion) {
    let shaders = corpus_shaders();
    if shaders.is_empty() {
        return;
    }
    let options = Options::new(Dialect::Es300);
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Elements(shaders.len() as u64));
    g.bench_function("translate es300 (VS/PS)", |b| {
        b.iter(|| {
            for s in &shaders {
                let _ = std::hint::black_box(glsl::translate(s, &options));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
