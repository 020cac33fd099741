//! The step debugger's memory pane (`m`): the buffers and UAVs a case
//! binds, stepped over stores and back, drawn into a test backend. Values
//! are worked by hand from the case's comments.

mod common;

use common::screen::{inner, root, row_text, screen, shader, text};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::tui::app::Action;
use dxbc_dbg::tui::{App, Inputs, view};
use dxbc_dbg::vm::defaults;
use dxbc_dbg::vm::memory::{Buffer as Words, Layout};
use dxbc_dbg::vm::texture::Format;
use ratatui::buffer::Buffer;

/// `shaders/debugger/particles.asm` on its case
/// (`tests/cases/buffers/structured_store.case`) at pixel (1,0): lane 1 of
/// the quad at (0,0), whose lanes 2 and 3 lie below the 4x1 target
/// (helpers, which never write).
fn particles() -> App {
    let s = shader("shaders/debugger/particles.asm");
    let rel = "tests/cases/buffers/structured_store.case";
    let case = dxbc_dbg::harness::case::Case::load(&root().join(rel)).expect("case loads");
    case.check_bindings(&[&s]).expect("bindings match");
    App::new(&s, Inputs::case(case, &s, rel), (1, 0), None).expect("machine starts")
}

/// The bottom pane's rows as text.
fn bottom_rows(app: &App, buf: &Buffer) -> Vec<String> {
    let r = inner(app.areas.registers);
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .collect()
}

/// The bottom pane (its title and rows) and the status line: what the
/// memory snapshots keep. The GLSL pane is left out: how the emitter
/// treats UAVs is not this pane's business.
fn bottom_text(app: &App, buf: &Buffer) -> String {
    let r = app.areas.registers;
    let a = buf.area;
    (r.y..a.height)
        .map(|y| row_text(buf, y, 0, a.width).trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The memory row labelled `label` (`[1]`).
fn memory_row(app: &App, buf: &Buffer, label: &str) -> String {
    bottom_rows(app, buf)
        .into_iter()
        .find(|t| {
            t.chars()
                .skip(1)
                .collect::<String>()
                .split_whitespace()
                .next()
                == Some(label)
        })
        .unwrap_or_else(|| panic!("no memory row {label}"))
}

/// The values on a memory row (the words after each `name:`).
fn memory_values(row: &str) -> Vec<String> {
    row.split_whitespace()
        .skip_while(|w| !w.ends_with(':'))
        .filter(|w| !w.ends_with(':'))
        .map(str::to_string)
        .collect()
}

/// (row label, value) of every memory word drawn with background `bg`.
fn memory_cells_with(app: &App, buf: &Buffer, bg: ratatui::style::Color) -> Vec<(String, String)> {
    let r = inner(app.areas.registers);
    let mut out = Vec::new();
    for y in r.y..r.bottom() {
        let t = row_text(buf, y, r.x, r.right());
        let label: String = t.chars().skip(1).collect::<String>();
        let label = label.split_whitespace().next().unwrap_or("").to_string();
        let mut run = String::new();
        for x in r.x..=r.right() {
            if x < r.right() && buf[(x, y)].bg == bg {
                run.push_str(buf[(x, y)].symbol());
            } else if !run.trim().is_empty() {
                out.push((label.clone(), run.trim().to_string()));
                run.clear();
            } else {
                run.clear();
            }
        }
    }
    out
}

fn marked_rows(app: &App, buf: &Buffer) -> Vec<String> {
    bottom_rows(app, buf)
        .into_iter()
        .filter(|t| t.starts_with('▶'))
        .map(|t| {
            t.chars()
                .skip(1)
                .collect::<String>()
                .split_whitespace()
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn memory_pane_shows_the_element_a_structured_store_wrote() {
    let mut app = particles();
    assert_eq!(app.lane, 1);
    app.key(KeyEvent::new(KeyCode::Char('m'), KeyModifiers::NONE));
    assert!(app.memory);
    // 0-4 declarations, 5 ftou, 6-9 build the element in r1, 10 the store.
    app.cursor = 10;
    app.apply(Action::RunToCursor);
    assert_eq!(app.machine.pc(), 10);
    let buf = screen(&mut app);
    let rows = bottom_rows(&app, &buf).join("\n");
    assert!(
        rows.contains(
            "u1 \"particles\" · structured, stride 16 (struct Particle) · 5 elements (80 bytes) · counter 0"
        ),
        "{rows}"
    );
    // Before the store: the case's words, by member type.
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[1]")),
        ["-1.0", "-1.0", "101", "7"]
    );
    assert!(marked_rows(&app, &buf).is_empty());
    app.apply(Action::Step);
    let buf = screen(&mut app);
    insta::assert_snapshot!("memory_after_store", bottom_text(&app, &buf));
    assert_eq!(app.machine.pc(), 11);
    // Lane 0 (pixel 0) wrote element 0, lane 1 (pixel 1) element 1:
    // (x + 0.5, 0.25, 100 + x, -x).
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[0]")),
        ["0.5", "0.25", "100", "0"]
    );
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[1]")),
        ["1.5", "0.25", "101", "-1"]
    );
    // Helper lanes 2 and 3 wrote nothing: elements 2-4 are as they were.
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[2]")),
        ["-1.0", "-1.0", "0", "7"]
    );
    assert_eq!(marked_rows(&app, &buf), ["[0]", "[1]"]);
    // Every written word is highlighted; element 1's id was written with
    // the value it had, so it is drawn written but not changed.
    let changed = memory_cells_with(&app, &buf, view::CHANGED.bg.unwrap());
    let cell = |l: &str, v: &str| (l.to_string(), v.to_string());
    assert_eq!(
        changed,
        [
            cell("[0]", "0.5"),
            cell("[0]", "0.25"),
            cell("[0]", "100"),
            cell("[0]", "0"),
            cell("[1]", "1.5"),
            cell("[1]", "0.25"),
            cell("[1]", "-1"),
        ]
    );
    assert_eq!(
        memory_cells_with(&app, &buf, view::WRITTEN.bg.unwrap()),
        [cell("[1]", "101")]
    );
    assert!(text(&buf).contains("last step wrote u1 elements 0,1 (lanes 0,1)"));
    // The hex view shows the bits: 1.5 is 0x3fc00000, -1 is 0xffffffff.
    app.apply(Action::CycleView);
    let buf = screen(&mut app);
    assert!(text(&buf).contains("buffers and UAVs · hex"));
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[1]")),
        ["0x3fc00000", "0x3e800000", "0x00000065", "0xffffffff"]
    );
    // The register view is left as it was.
    assert_eq!(app.view, None, "the registers stay typed");
}

#[test]
fn stepping_back_over_a_store_restores_the_element() {
    let mut app = particles();
    app.apply(Action::ToggleMemory);
    app.cursor = 11;
    app.apply(Action::RunToCursor);
    assert_eq!(app.machine.last_index(), Some(10));
    app.apply(Action::StepBack);
    let buf = screen(&mut app);
    insta::assert_snapshot!("memory_store_stepped_back", bottom_text(&app, &buf));
    assert_eq!(app.machine.pc(), 10);
    // The store is undone: element 1 has the case's words again, and the
    // last step that stands (`ineg`) wrote no memory.
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[1]")),
        ["-1.0", "-1.0", "101", "7"]
    );
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[0]")),
        ["-1.0", "-1.0", "0", "7"]
    );
    assert!(marked_rows(&app, &buf).is_empty());
    assert!(memory_cells_with(&app, &buf, view::CHANGED.bg.unwrap()).is_empty());
    let words = &app.machine.uav(1).expect("u1 bound").words;
    assert_eq!(words[4..8], [0xbf80_0000, 0xbf80_0000, 101, 7]);
    // `m` again shows the registers: lane 1 built (1.5, 0.25, 101, -1) in
    // r1 (101 and -1 are integer bits, read as such).
    app.key(KeyEvent::new(KeyCode::Char('m'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    assert!(!app.memory);
    assert_eq!(app.component("r1.w"), Some(u32::MAX));
    assert_eq!(app.component("r1.z"), Some(101));
    assert_eq!(app.component("r1.x"), Some(1.5f32.to_bits()));
    assert!(text(&buf).contains("registers: lane 1"));
}

#[test]
fn memory_pane_without_buffers_says_so() {
    let s = shader("shaders/debugger/small.asm");
    let mut app = App::new(&s, Inputs::defaults(&s), (0, 0), None).expect("machine starts");
    app.apply(Action::ToggleMemory);
    let t = text(&screen(&mut app));
    assert!(t.contains("no buffer SRVs or UAVs are bound"), "{t}");
}

/// A 2x2 target whose four lanes all cover a pixel, with u2 a raw UAV of
/// 400 words (100 rows of four: far below the pane's first screen) and u3
/// a typed R32_FLOAT buffer of 8 elements.
fn raw_and_typed() -> App {
    let text = "ps_5_0\n\
        dcl_output o0.xyzw\n\
        dcl_uav_raw u2\n\
        dcl_uav_typed_buffer (float,float,float,float) u3\n\
        dcl_temps 1\n\
        store_raw u2.x, l(1200), l(42)\n\
        imm_atomic_alloc r0.x, u2\n\
        store_uav_typed u3.xyzw, l(6, 0, 0, 0), l(1.500000, 0, 0, 0)\n\
        mov o0.xyzw, l(0, 0, 0, 0)\n\
        ret\n";
    let bytes = dxbc_dbg::dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc_dbg::dxbc::Shader::parse(&bytes, Default::default()).expect("parses");
    let for_runs = s.clone();
    let inputs = Inputs {
        width: 2,
        height: 2,
        provider: Box::new(move |choice| {
            (
                defaults::default_setup(&for_runs, choice),
                dxbc_dbg::vm::Resources::default(),
            )
        }),
        uavs: vec![
            None,
            None,
            Some(Words::new(Layout::Raw, vec![0; 400])),
            Some(Words::new(
                Layout::Typed {
                    format: Format::R32Float,
                    row: None,
                },
                vec![0; 8],
            )),
        ],
        description: "a raw and a typed UAV".into(),
    };
    App::new(&s, inputs, (0, 0), None).expect("machine starts")
}

#[test]
fn memory_pane_follows_writes_far_down_and_counters() {
    let mut app = raw_and_typed();
    app.apply(Action::ToggleMemory);
    let buf = screen(&mut app);
    let rows = bottom_rows(&app, &buf).join("\n");
    assert!(rows.contains("u2 · raw · 1600 bytes · counter 0"), "{rows}");
    assert!(!rows.contains("@1200"), "the row is below the first screen");
    // store_raw at byte 1200: word 300, on the row starting at byte 1200.
    // All four lanes store 42 there; the first changed it.
    app.apply(Action::Step);
    let buf = screen(&mut app);
    assert_eq!(marked_rows(&app, &buf), ["@1200"]);
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "@1200")),
        ["0x0000002a", "0x00000000", "0x00000000", "0x00000000"]
    );
    let cell = |l: &str, v: &str| (l.to_string(), v.to_string());
    assert_eq!(
        memory_cells_with(&app, &buf, view::CHANGED.bg.unwrap()),
        [cell("@1200", "0x0000002a")]
    );
    assert!(text(&buf).contains("last step wrote u2 element 300 (lanes 0,1,2,3)"));
    // imm_atomic_alloc: one per lane, 0 -> 4.
    app.apply(Action::Step);
    let buf = screen(&mut app);
    assert!(text(&buf).contains("last step wrote u2 counter 0 -> 4"));
    assert_eq!(app.machine.uav(2).unwrap().counter, 4);
    // store_uav_typed element 6 of an R32_FLOAT buffer: shown as a float,
    // on the row of elements 4-7, scrolled into view.
    app.apply(Action::Step);
    let buf = screen(&mut app);
    let rows = bottom_rows(&app, &buf).join("\n");
    assert!(
        rows.contains("u3 · typed R32_FLOAT · 8 elements · counter 0"),
        "{rows}"
    );
    assert_eq!(marked_rows(&app, &buf), ["[4]"]);
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[4]")),
        ["0.0", "0.0", "1.5", "0.0"]
    );
    // Back over all three: the counter and word 300 are as they started.
    for _ in 0..3 {
        app.apply(Action::StepBack);
    }
    assert_eq!(app.machine.uav(2).unwrap().counter, 0);
    assert_eq!(app.machine.uav(2).unwrap().words[300], 0);
    assert_eq!(app.machine.uav(3).unwrap().words[6], 0);
    // The pane stayed at the typed store's rows, at the bottom; `[` and
    // `]` scroll it by a page.
    let buf = screen(&mut app);
    let first = bottom_rows(&app, &buf)[0].clone();
    app.key(KeyEvent::new(KeyCode::Char('['), KeyModifiers::NONE));
    let buf = screen(&mut app);
    assert_ne!(bottom_rows(&app, &buf)[0], first);
    app.key(KeyEvent::new(KeyCode::Char(']'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    assert_eq!(bottom_rows(&app, &buf)[0], first);
}

#[test]
fn picking_another_pixel_starts_from_the_case_uavs_again() {
    let mut app = particles();
    app.apply(Action::ToggleMemory);
    app.cursor = 11;
    app.apply(Action::RunToCursor);
    // Pixel (3,0) is lane 1 of the quad at (2,0): replayed to the same
    // step from the case's UAV, only elements 2 and 3 are written;
    // elements 0 and 1 are as the case gives them.
    app.pick_pixel(3, 0);
    assert_eq!(app.lane, 1);
    assert_eq!(app.machine.last_index(), Some(10));
    let buf = screen(&mut app);
    assert_eq!(marked_rows(&app, &buf), ["[2]", "[3]"]);
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[3]")),
        ["3.5", "0.25", "103", "-3"]
    );
    assert_eq!(
        memory_values(&memory_row(&app, &buf, "[0]")),
        ["-1.0", "-1.0", "0", "7"]
    );
    // The mouse wheel over the pane scrolls it (five elements fit, so it
    // stays at the top) without leaving the memory view.
    let r = app.areas.registers;
    app.scroll_at(r.x + 2, r.y + 2, 3);
    let buf = screen(&mut app);
    assert!(app.memory);
    assert_eq!(app.mem_top, 0);
    assert!(bottom_rows(&app, &buf)[0].starts_with("u1 \"particles\""));
}
