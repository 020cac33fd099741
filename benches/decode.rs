//! Decode + disassemble throughput over the corpus (MB/s of bytecode and
//! shaders/s). Run with `cargo bench --bench decode`; needs ../shared/corpus.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::{ParseOptions, Shader, listing};

const OPTS: ParseOptions = ParseOptions {
    verify_checksum: false,
};

fn bench(c: &mut Criterion) {
    let blobs: Vec<Vec<u8>> = common::corpus().into_iter().map(|b| b.bytes).collect();
    if blobs.is_empty() {
        return;
    }
    let bytes: usize = blobs.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            for blob in &blobs {
                std::hint::black_box(Shader::parse(blob, OPTS).ok());
            }
        })
    });
    g.bench_function("decode+disassemble", |b| {
        b.iter(|| {
            for blob in &blobs {
                if let Ok(s) = Shader::parse(blob, OPTS) {
                    std::hint::black_box(listing::listing(&s));
                }
            }
        })
    });
    g.throughput(Throughput::Elements(blobs.len() as u64));
    g.bench_function("decode+disassemble (shaders)", |b| {
        b.iter(|| {
            for blob in &blobs {
                if let Ok(s) = Shader::parse(blob, OPTS) {
                    std::hint::black_box(listing::listing(&s));
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
