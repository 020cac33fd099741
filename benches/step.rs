//! The debugger's costs on a 2,000-instruction straight-line shader
//! (generated here): stepping forward over all of it with the undo log on
//! (and with register types kept too, as the debugger does), stepping back from the last instruction to the first, and one redraw of
//! the whole screen into a 160x50 test backend.
//! Run with `cargo bench --bench step`.

use std::rc::Rc;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::tui::{Action, App, Inputs, view};
use dxbc_dbg::vm::Machine;
use dxbc_dbg::vm::defaults::{DefaultTextures, PixelChoice, default_resources, default_setup};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const BODY: usize = 2_000;

/// `mad`/`add` pairs feeding each other, so every step changes registers.
fn source() -> String {
    let mut s = String::from(
        "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 2\n\
         mov r0.xyzw, l(1.000000, 0.500000, 0.250000, 2.000000)\n\
         mov r1.xyzw, l(0.125000, 0.250000, 0.500000, 1.000000)\n",
    );
    for i in 0..BODY {
        if i % 2 == 0 {
            s.push_str(
                "mad r0.xyzw, r0.xyzw, l(0.999000, 0.998000, 0.997000, 0.996000), r1.xyzw\n",
            );
        } else {
            s.push_str("add r1.xyzw, r1.xyzw, r0.yzwx\n");
        }
    }
    s.push_str("mov o0.xyzw, r0.xyzw\nret\n");
    s
}

fn bench(c: &mut Criterion) {
    let bytes = asm::assemble(&source()).expect("the generated shader assembles");
    let shader = Shader::parse(&bytes, ParseOptions::default()).expect("it reads back");
    let program = Rc::new(shader.program.clone());
    let machine = || {
        Machine::new(
            Rc::clone(&program),
            default_setup(&shader, PixelChoice::default()),
            default_resources(&shader.program, DefaultTextures::Checker),
        )
        .expect("machine")
    };
    let steps = {
        let mut m = machine();
        m.run_to_end().expect("runs") as u64
    };

    let mut g = c.benchmark_group("step");
    g.sample_size(20);
    g.throughput(Throughput::Elements(steps));
    g.bench_function("forward over 2000 instructions", |b| {
        b.iter_batched(
            machine,
            |mut m| {
                while m.step().expect("step") != dxbc_dbg::vm::Event::Finished {}
                m
            },
            BatchSize::LargeInput,
        )
    });
    // What the debugger steps: register types kept beside the values.
    let typing = Rc::new(dxbc_dbg::dxbc::value_type::Typing::of(&shader));
    g.bench_function("forward over 2000 instructions, typed", |b| {
        b.iter_batched(
            || {
                let mut m = machine();
                m.set_typing(Rc::clone(&typing));
                m
            },
            |mut m| {
                while m.step().expect("step") != dxbc_dbg::vm::Event::Finished {}
                m
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("back from the last to the first", |b| {
        b.iter_batched(
            || {
                let mut m = machine();
                m.run_to_end().expect("runs");
                m
            },
            |mut m| {
                while m.step_back() {}
                m
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();

    let mut app =
        App::new(&shader, Inputs::defaults(&shader), (0, 0), None).expect("debugger starts");
    for _ in 0..1_000 {
        app.apply(Action::Step);
    }
    let mut terminal = Terminal::new(TestBackend::new(160, 50)).expect("test terminal");
    c.bench_function("redraw 160x50", |b| {
        b.iter(|| {
            // Alternate the value view so every redraw changes cells.
            app.apply(Action::CycleView);
            terminal.draw(|f| view::draw(f, &mut app)).expect("draw");
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
