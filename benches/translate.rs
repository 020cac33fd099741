//! GLSL translation throughput (shaders/s, es300) over the corpus's vertex
//! and pixel shaders, parsed beforehand; refused shaders count too, since
//! refusing is part of translating. Run with `cargo bench --bench
//! translate`; needs ../shared/corpus.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::glsl::{self, Dialect, Options};

fn bench(c: &mut Criterion) {
    let shaders: Vec<_> = common::corpus()
        .into_iter()
        .map(|b| b.shader)
        .filter(|s| matches!(s.program.kind, ProgramType::Vertex | ProgramType::Pixel))
        .collect();
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
