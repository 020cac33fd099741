//! Drawing the step debugger into a test backend and reading the screen
//! back as text (`tests/tui.rs`, `tests/tui_memory.rs`).

use std::path::PathBuf;

use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::tui::{App, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn shader(rel: &str) -> Shader {
    let path = root().join(rel);
    let bytes = if rel.ends_with(".asm") {
        let text = std::fs::read_to_string(&path).expect("read shader");
        asm::assemble(&text).unwrap_or_else(|e| panic!("{}", e.in_file(rel)))
    } else {
        std::fs::read(&path).expect("read shader")
    };
    Shader::parse(&bytes, ParseOptions::default()).expect("shader parses")
}

/// The debugger on one of the project's case files (`rel` from the
/// project root): the case's pixel shader and inputs, at `pixel`.
pub fn case_app(rel: &str, pixel: (u32, u32)) -> App {
    let case = dxbc_dbg::harness::case::Case::load(&root().join(rel)).expect("case loads");
    let shader = case.shaders().expect("shaders").pixel;
    let inputs = dxbc_dbg::tui::Inputs::case(case, &shader, rel);
    App::new(&shader, inputs, pixel, None).expect("machine starts")
}

pub fn draw(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| view::draw(f, app))
        .expect("draw into the test backend");
    terminal.backend().buffer().clone()
}

pub fn screen(app: &mut App) -> Buffer {
    draw(app, 140, 45)
}

pub fn row_text(buf: &Buffer, y: u16, from: u16, to: u16) -> String {
    (from..to).map(|x| buf[(x, y)].symbol()).collect()
}

pub fn text(buf: &Buffer) -> String {
    let a = buf.area;
    (0..a.height)
        .map(|y| row_text(buf, y, 0, a.width).trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x + 1,
        y: r.y + 1,
        width: r.width - 2,
        height: r.height - 2,
    }
}
