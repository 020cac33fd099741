//! GLSL translation throughput (shaders/s, es300) over the corpus's vertex
//! and pixel shaders, parsed beforehand; refused shaders count too, since
//! refusing is part of translating; and the same over the small ones
//! (at most 8 instructions, declarations counted, as the corpus manifest's
//! `n_instructions` counts them), where fixed per-shader costs dominate.
//! Run with `cargo bench --bench translate`; needs ../shared/corpus.

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
    let small: Vec<_> = shaders
        .iter()
        .filter(|s| s.program.instructions.len() <= SMALL)
        .collect();
    g.throughput(Throughput::Elements(small.len() as u64));
    g.bench_function("translate es300 (VS/PS, <= 8 instructions)", |b| {
        b.iter(|| {
            for s in &small {
                let _ = std::hint::black_box(glsl::translate(s, &options));
            }
        })
    });
    g.finish();
}

/// The smallest size bucket: 1 to 8 instructions.
const SMALL: usize = 8;

criterion_group!(benches, bench);
criterion_main!(benches);
