//! Cases per second through the suite on the emulator alone (loading,
//! assembling, drawing on the CPU, probes, goldens), with one and two
//! threads (`diff --backend none --jobs N`). Every case under tests/cases.
//! Run with `cargo bench --bench suite`.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::harness::suite::{self, RunOptions};

fn cases_per_second(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cases = suite::collect(&[root.join("tests/cases")], None).expect("cases");
    let mut group = c.benchmark_group("suite");
    group.sample_size(10);
    group.throughput(Throughput::Elements(cases.len() as u64));
    for jobs in [1, 2] {
        let options = RunOptions {
            goldens: Some(root.join("goldens")),
            jobs,
            ..RunOptions::default()
        };
        group.bench_function(format!("emulator jobs {jobs}"), |b| {
            b.iter(|| {
                let results = suite::run_all(&cases, &[], &options, &());
                assert!(results.iter().all(|r| r.passed()));
                results
            })
        });
    }
    group.finish();
}

criterion_group!(benches, cases_per_second);
criterion_main!(benches);
