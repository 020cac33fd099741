//! Differential-harness frame times: one case drawn on the GPU (wgpu;
//! lavapipe where there is no GPU) and on the reference emulator, per case.
//! The GPU figure includes building the pipeline and bindings and reading
//! the image back, as the suite does for every case.
//! Run with `cargo bench --bench harness`.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use dxbc_dbg::glsl;
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::{cpu, gpu::Gpu};

const CASES: [&str; 4] = [
    "shadow_pcf_edge",
    "gather4/red_wrap_centres",
    "pcf/linear_between_texels",
    "fragcoord/w_horizontal",
];

fn frames(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let gpu = match Gpu::new() {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("{e}: GPU frame times skipped");
            None
        }
    };
    let options = glsl::Options::new(glsl::Dialect::Vk450);
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    for name in CASES {
        let case = Case::load(&root.join(format!("{name}.case"))).expect("case");
        let shaders = case.shaders().expect("shaders");
        group.bench_function(format!("cpu {name}"), |b| {
            b.iter(|| cpu::render(&case, &shaders).expect("cpu"))
        });
        if let Some(gpu) = &gpu {
            group.bench_function(format!("gpu {name}"), |b| {
                b.iter(|| gpu.render(&case, &shaders, &options).expect("gpu"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
