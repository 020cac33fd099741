//! Emulator throughput in lane-instructions per second, where a
//! lane-instruction is one instruction executed by one *active* lane: a
//! step that runs one lane of a diverged quad counts once, not four times.
//!
//! * `coherent`: the corpus pixel shader with the most lane-instructions
//!   on the default quad among those whose quads stay (at least 90 %)
//!   converged — the interpreter's cost per lane.
//! * `divergent`: the corpus pixel shader that takes the most steps; its
//!   loops diverge, so most steps run one lane and per-step costs show.
//! * `corpus`: every corpus pixel shader that runs, once each.
//! * `frame`: the shipped shadow-PCF example over a 256x256 target
//!   (16,384 quads, two texture reads per pixel), run quad by quad; and
//!   `tests/cases/shadow_pcf_edge.case` drawn by `harness::cpu::render` at
//!   256x256 and 1024x1024 (the frame figures compared with lavapipe).
//!
//! Run with `cargo bench --bench emulate`; needs ../shared/corpus.

mod common;

use std::path::Path;
use std::rc::Rc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::dxbc::{ParseOptions, Shader};
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::cpu;
use dxbc_dbg::vm::defaults::{DefaultTextures, PixelChoice, default_resources, default_setup};
use dxbc_dbg::vm::{Event, Machine, Prepared, Resources, Setup};

struct Run {
    name: String,
    prepared: Rc<Prepared>,
    setup: Setup,
    steps: usize,
    /// Active lanes summed over the steps.
    lane_instructions: usize,
}

/// One quad run with the default inputs, counted step by step.
fn count(name: &str, shader: &Shader) -> Option<Run> {
    let prepared = Prepared::new(Rc::new(shader.program.clone())).ok()?;
    let setup = default_setup(shader, PixelChoice::default());
    let mut m = Machine::prepared(Rc::clone(&prepared), setup.clone(), Resources::default());
    m.set_recording(false);
    let (mut steps, mut lanes) = (0, 0);
    loop {
        let active = m.execution_mask().iter().filter(|a| **a).count();
        match m.step() {
            Ok(Event::Finished) => break,
            Ok(Event::Executed { .. }) => {
                steps += 1;
                lanes += active;
            }
            Err(_) => return None,
        }
    }
    Some(Run {
        name: name.to_string(),
        prepared,
        setup,
        steps,
        lane_instructions: lanes,
    })
}

/// Every corpus pixel shader that runs on the default quad.
fn pixel_runs() -> Vec<Run> {
    common::corpus()
        .iter()
        .filter(|b| b.shader.program.kind == ProgramType::Pixel)
        .filter_map(|b| count(&b.file, &b.shader))
        .collect()
}

fn run(r: &Run) -> usize {
    let mut m = Machine::prepared(
        Rc::clone(&r.prepared),
        r.setup.clone(),
        Resources::default(),
    );
    m.set_recording(false);
    m.run_to_end().expect("runs")
}

fn bench(c: &mut Criterion) {
    let runs = pixel_runs();
    if runs.is_empty() {
        return;
    }
    let coherent = runs
        .iter()
        .filter(|r| r.lane_instructions * 10 >= r.steps * 4 * 9)
        .max_by_key(|r| r.lane_instructions);
    let divergent = runs.iter().max_by_key(|r| r.steps);
    let mut g = c.benchmark_group("emulate");
    for (label, r) in [("coherent", coherent), ("divergent", divergent)] {
        let Some(r) = r else { continue };
        eprintln!(
            "{label}: {}: {} steps, {} lane-instructions ({:.2} active lanes per step)",
            r.name,
            r.steps,
            r.lane_instructions,
            r.lane_instructions as f64 / r.steps as f64
        );
        g.throughput(Throughput::Elements(r.lane_instructions as u64));
        g.bench_function(format!("{label} (lane-instructions)"), |b| {
            b.iter(|| run(r))
        });
    }
    let total: usize = runs.iter().map(|r| r.lane_instructions).sum();
    eprintln!(
        "corpus: {} pixel shaders, {total} lane-instructions",
        runs.len()
    );
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function("corpus (lane-instructions)", |b| {
        b.iter(|| runs.iter().map(run).sum::<usize>())
    });
    g.finish();

    // A frame: the shipped shadow-PCF example (two texture reads per pixel)
    // over a 256x256 target with the default checker textures, prepared
    // once as the harness does.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/shadow_pcf.asm"),
    )
    .expect("shaders/shadow_pcf.asm");
    let bytes = dxbc_dbg::dxbc::asm::assemble(&text).expect("assembles");
    let example = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
    let resources = Rc::new(default_resources(
        &example.program,
        DefaultTextures::Checker,
    ));
    let prepared = Prepared::new(Rc::new(example.program.clone())).expect("prepares");
    let mut g = c.benchmark_group("frame");
    g.sample_size(10);
    g.throughput(Throughput::Elements(256 * 256));
    g.bench_function("256x256 shadow_pcf (pixels)", |b| {
        b.iter(|| {
            for qy in 0..128u32 {
                for qx in 0..128u32 {
                    let choice = PixelChoice {
                        x: qx * 2,
                        y: qy * 2,
                        width: 256,
                        height: 256,
                    };
                    let setup = default_setup(&example, choice);
                    let mut m =
                        Machine::prepared(Rc::clone(&prepared), setup, Rc::clone(&resources));
                    m.set_recording(false);
                    m.run_to_end().expect("runs");
                }
            }
        })
    });
    // The figures issue 18 sets against lavapipe: the shipped
    // `shadow_pcf_edge.case` drawn whole by the harness (rasterizer,
    // emulator, output merger, rows of quads in parallel) at 256x256 and
    // 1024x1024, as `dxbc_dbg_bench frame --size` draws it.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/shadow_pcf_edge.case");
    let mut case = Case::load(&path).expect("tests/cases/shadow_pcf_edge.case");
    let shaders = case.shaders().expect("shaders");
    for size in [256u32, 1024] {
        case.width = size;
        case.height = size;
        g.throughput(Throughput::Elements(u64::from(size * size)));
        g.bench_function(
            format!("{size}x{size} shadow_pcf_edge.case (pixels)"),
            |b| b.iter(|| cpu::render(&case, &shaders).expect("renders")),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
