//! One full redraw of the debugger into a 160x50 test backend with the
//! texture-read section shown (after a bilinear `sample`), once with the
//! explanation cached and once right after a step, when it is worked out
//! again (step back, explain, step forward). A redraw must stay well under
//! a 60 Hz frame (16 ms). Run with `cargo bench --bench fetch_view`.

use criterion::{Criterion, criterion_group, criterion_main};
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::tui::{Action, App, Inputs, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SOURCE: &str = "ps_5_0\n\
    dcl_sampler s0, mode_default\n\
    dcl_resource_texture2d (float,float,float,float) t0\n\
    dcl_input_ps linear v0.xy\n\
    dcl_output o0.xyzw\n\
    dcl_temps 1\n\
    mul r0.xy, v0.xyxx, l(0.750000, 0.750000, 0.000000, 0.000000)\n\
    sample_indexable(texture2d)(float,float,float,float) r0.xyzw, r0.xyxx, t0.xyzw, s0\n\
    mov o0.xyzw, r0.xyzw\n\
    ret\n";

fn bench(c: &mut Criterion) {
    let bytes = asm::assemble(SOURCE).expect("the shader assembles");
    let shader = Shader::parse(&bytes, ParseOptions::default()).expect("it reads back");
    let mut app = App::new(&shader, Inputs::defaults(&shader), (10, 10), None).expect("starts");
    // Past the `mul` and the `sample`: the section shows the sample.
    app.apply(Action::Step);
    app.apply(Action::Step);
    let mut terminal = Terminal::new(TestBackend::new(160, 50)).expect("test terminal");
    terminal.draw(|f| view::draw(f, &mut app)).expect("draw");
    assert!(
        app.fetch_rows().iter().any(|r| r.starts_with("texel (")),
        "the section lists the sample's texels"
    );

    let mut g = c.benchmark_group("fetch_view");
    g.sample_size(30);
    g.bench_function("redraw 160x50, texture read cached", |b| {
        b.iter(|| {
            terminal.draw(|f| view::draw(f, &mut app)).expect("draw");
        })
    });
    g.bench_function(
        "step back and forward, redraw 160x50 (explained anew)",
        |b| {
            b.iter(|| {
                app.apply(Action::StepBack);
                app.apply(Action::Step);
                terminal.draw(|f| view::draw(f, &mut app)).expect("draw");
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
