//! Assembler throughput over the fxc listings in the corpus (lines/s).
//! Run with `cargo bench --bench assemble`; needs ../shared/corpus.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::asm;

fn listings() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/listings");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("../shared/corpus is absent: nothing to benchmark");
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    paths.sort();
    paths
        .iter()
        .step_by(4)
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|t| asm::assemble(t).is_ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let texts = listings();
    if texts.is_empty() {
        return;
    }
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    let mut g = c.benchmark_group("listings");
    g.throughput(Throughput::Elements(lines as u64));
    g.bench_function("assemble (lines)", |b| {
        b.iter(|| {
            for t in &texts {
                std::hint::black_box(asm::assemble(t).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
