//! Emulator throughput: lane-instructions per second on the longest-running
//! texture-free corpus pixel shader, and the time to emulate a 256x256 frame
//! (16,384 quads) of the shipped shadow-PCF example.
//! Run with `cargo bench --bench emulate`; needs ../shared/corpus.

use std::path::Path;
use std::rc::Rc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::ir::ShaderKind;
use dxbc_dbg::dxbc::{ParseOptions, Shader};
use dxbc_dbg::vm::defaults::{DefaultTextures, PixelChoice, default_resources, default_setup};
use dxbc_dbg::vm::{Machine, Resources};

/// The corpus pixel shader that runs longest on the default quad without
/// needing textures: the most instructions per launch measure the
/// interpreter rather than set-up.
fn shader() -> Option<(Shader, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(manifest) = std::fs::read_to_string(root.join("manifest.tsv")) else {
        eprintln!("../shared/corpus is absent: nothing to benchmark");
        return None;
    };
    let mut best: Option<(usize, Shader, String)> = None;
    for line in manifest.lines().skip(1) {
        let file = line.split('\t').next().unwrap_or("");
        let Ok(bytes) = std::fs::read(root.join(file)) else {
            continue;
        };
        let Ok(s) = Shader::parse(
            &bytes,
            ParseOptions {
                verify_checksum: false,
            },
        ) else {
            continue;
        };
        if s.program.kind != ShaderKind::Pixel {
            continue;
        }
        let setup = default_setup(&s, PixelChoice::default());
        let Ok(mut m) = Machine::new(Rc::new(s.program.clone()), setup, Resources::default())
        else {
            continue;
        };
        m.set_recording(false);
        if let Ok(steps) = m.run_to_end()
            && best.as_ref().is_none_or(|b| steps > b.0)
        {
            best = Some((steps, s, file.to_string()));
        }
    }
    best.map(|(_, s, f)| (s, f))
}

fn bench(c: &mut Criterion) {
    let Some((shader, name)) = shader() else {
        return;
    };
    let program = Rc::new(shader.program.clone());
    let setup = default_setup(&shader, PixelChoice::default());
    // Lane-instructions per quad run.
    let mut m =
        Machine::new(Rc::clone(&program), setup.clone(), Resources::default()).expect("machine");
    let steps = m.run_to_end().expect("runs");
    let lane_instructions = (steps * 4) as u64;
    eprintln!("{name}: {steps} steps per quad");

    let mut g = c.benchmark_group("emulate");
    g.throughput(Throughput::Elements(lane_instructions));
    g.bench_function("one quad (lane-instructions)", |b| {
        b.iter(|| {
            let mut m = Machine::new(Rc::clone(&program), setup.clone(), Resources::default())
                .expect("machine");
            m.set_recording(false);
            m.run_to_end().expect("runs")
        })
    });
    g.finish();

    // A frame: the shipped shadow-PCF example (two texture reads per pixel)
    // over a 256x256 target with the default checker textures.
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
    let program = Rc::new(example.program.clone());
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
                    let mut m = Machine::new(Rc::clone(&program), setup, Rc::clone(&resources))
                        .expect("machine");
                    m.set_recording(false);
                    m.run_to_end().expect("runs");
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
