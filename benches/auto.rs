//! Shaders per second through `diff --auto` on the emulator alone
//! (reading each blob, generating and parsing its case with the derived
//! tolerance, drawing it on the CPU, the verdict), with one and two
//! threads (`--jobs N`). A fixed set: the corpus' `wine` directory (its
//! pixel shaders drawn, the other stages skipped as in a real run).
//! Skipped, with a message, when the corpus is absent.
//! Run with `cargo bench --bench auto`.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::harness::auto;
use dxbc_dbg::harness::results::RunInfo;
use dxbc_dbg::harness::results::verdict::Kind;
use dxbc_dbg::harness::suite::RunOptions;

fn shaders_per_second(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("../shared/corpus/wine");
    if !corpus.is_dir() {
        println!(
            "no corpus at {}: the auto bench is skipped",
            corpus.display()
        );
        return;
    }
    let blobs = auto::collect(&[corpus], None).expect("blobs");
    let list = auto::slice(&blobs, None);
    let mut group = c.benchmark_group("auto");
    group.sample_size(10);
    group.throughput(Throughput::Elements(list.len() as u64));
    for jobs in [1, 2] {
        let opts = auto::Options {
            seed: 0,
            write_cases: None,
            failing_cases: None,
            run: RunOptions {
                jobs,
                ..RunOptions::default()
            },
        };
        let info = RunInfo {
            inputs: Vec::new(),
            backends: Vec::new(),
            filter: None,
            shard: None,
            bless: false,
            auto: None,
        };
        group.bench_function(format!("emulator jobs {jobs}"), |b| {
            b.iter(|| {
                let run = auto::run(&list, blobs.len(), &[], &opts, info.clone(), &())
                    .expect("no --write-cases, nothing to check");
                assert!(run.doc.cases.iter().all(|c| {
                    c.verdict
                        .as_ref()
                        .is_some_and(|v| !v.bug && v.kind != Kind::Differ)
                }));
                run.doc
            })
        });
    }
    group.finish();
}

criterion_group!(benches, shaders_per_second);
criterion_main!(benches);
