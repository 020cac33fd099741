//! The step debugger: screens drawn into a test backend (snapshots, plus
//! checks of which listing row and GLSL lines are highlighted and of
//! register values computed by hand for `shaders/debugger/small.asm`), and
//! the real binary in a terminal (tmux) to see it leave the terminal as it
//! found it.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::tui::app::{Action, Overlay};
use dxbc_dbg::tui::{App, Inputs, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shader(rel: &str) -> Shader {
    let path = root().join(rel);
    let bytes = if rel.ends_with(".asm") {
        let text = std::fs::read_to_string(&path).expect("read shader");
        asm::assemble(&text).unwrap_or_else(|e| panic!("{}", e.in_file(rel)))
    } else {
        std::fs::read(&path).expect("read shader")
    };
    Shader::parse(&bytes, ParseOptions::default()).expect("shader parses")
}

fn app(rel: &str) -> App {
    let s = shader(rel);
    App::new(&s, Inputs::defaults(&s), (0, 0), None).expect("machine starts")
}

fn small() -> App {
    app("shaders/debugger/small.asm")
}

fn draw(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| view::draw(f, app))
        .expect("draw into the test backend");
    terminal.backend().buffer().clone()
}

fn screen(app: &mut App) -> Buffer {
    draw(app, 140, 45)
}

fn row_text(buf: &Buffer, y: u16, from: u16, to: u16) -> String {
    (from..to).map(|x| buf[(x, y)].symbol()).collect()
}

fn text(buf: &Buffer) -> String {
    let a = buf.area;
    (0..a.height)
        .map(|y| row_text(buf, y, 0, a.width).trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x + 1,
        y: r.y + 1,
        width: r.width - 2,
        height: r.height - 2,
    }
}

/// The instruction indices of listing rows drawn in the next-instruction style.
fn highlighted_listing(app: &App, buf: &Buffer) -> Vec<usize> {
    let r = inner(app.areas.listing);
    (r.y..r.bottom())
        .filter(|&y| buf[(r.x + 4, y)].bg == view::PC.bg.unwrap())
        .map(|y| {
            let t = row_text(buf, y, r.x, r.right());
            let i = t.find('[').expect("index column");
            let j = t.find(']').expect("index column");
            t[i + 1..j].trim().parse().expect("instruction index")
        })
        .collect()
}

/// The GLSL line numbers drawn highlighted, as (first, last).
fn highlighted_glsl(app: &App, buf: &Buffer) -> Option<(u32, u32)> {
    let r = inner(app.areas.glsl);
    let lines: Vec<u32> = (r.y..r.bottom())
        .filter(|&y| buf[(r.x + 1, y)].bg == view::GLSL_LINES.bg.unwrap())
        .map(|y| {
            let t = row_text(buf, y, r.x, r.right());
            t.split('│')
                .next()
                .unwrap()
                .trim()
                .parse()
                .expect("line number")
        })
        .collect();
    for w in lines.windows(2) {
        assert_eq!(w[1], w[0] + 1, "highlighted GLSL lines are contiguous");
    }
    Some((*lines.first()?, *lines.last()?))
}

/// The register rows of the pane with the components drawn as changed:
/// `("r0", "z")` etc.
fn changed_components(app: &App, buf: &Buffer) -> Vec<(String, char)> {
    let r = inner(app.areas.registers);
    let mut out = Vec::new();
    for y in r.y..r.bottom() {
        let t = row_text(buf, y, r.x, r.right());
        let name = t.split_whitespace().next().unwrap_or("").to_string();
        let mut comp = ' ';
        for x in r.x..r.right() {
            let s = buf[(x, y)].symbol();
            if s.len() == 1 && "xyzw".contains(s) && buf[(x + 1, y)].symbol() == ":" {
                comp = s.chars().next().unwrap();
            }
            if buf[(x, y)].bg == view::CHANGED.bg.unwrap()
                && out.last() != Some(&(name.clone(), comp))
            {
                out.push((name.clone(), comp));
            }
        }
    }
    out
}

/// The text of the register pane's row for `name` (`  r0  x: …`).
fn register_row(app: &App, buf: &Buffer, name: &str) -> String {
    let r = inner(app.areas.registers);
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .find(|t| t.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no register row {name}"))
}

fn values(row: &str) -> Vec<String> {
    row.split_whitespace()
        .skip(1)
        .filter(|w| !w.ends_with(':'))
        .map(str::to_string)
        .collect()
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

fn check_glsl_matches_map(app: &App, buf: &Buffer) {
    let map = app.glsl().map.as_ref().expect("translated");
    assert_eq!(
        highlighted_glsl(app, buf),
        map.lines(app.machine.pc()),
        "highlighted GLSL lines are the next instruction's source-map range"
    );
}

#[test]
fn start_screen() {
    let mut app = small();
    let buf = screen(&mut app);
    insta::assert_snapshot!("start", text(&buf));
    // Declarations 0-2 are skipped: the first instruction to run is [3].
    assert_eq!(app.machine.pc(), 3);
    assert_eq!(highlighted_listing(&app, &buf), vec![3]);
    check_glsl_matches_map(&app, &buf);
    assert!(highlighted_glsl(&app, &buf).is_some());
    assert_eq!(values(&register_row(&app, &buf, "r0")), ["0.0"; 4]);
    assert_eq!(
        values(&register_row(&app, &buf, "v0")),
        ["0.5", "0.5", "0.5", "1.0"]
    );
    assert!(changed_components(&app, &buf).is_empty());
    assert!(text(&buf).contains("instr 3/11"));
}

#[test]
fn three_steps_forward_one_back() {
    let mut app = small();
    for _ in 0..3 {
        app.apply(Action::Step);
    }
    assert_eq!(app.machine.pc(), 6);
    assert_eq!(app.component("r0.w"), Some(f(2.0)));
    app.apply(Action::StepBack);
    let buf = screen(&mut app);
    insta::assert_snapshot!("three_forward_one_back", text(&buf));
    assert_eq!(app.machine.pc(), 5);
    assert_eq!(highlighted_listing(&app, &buf), vec![5]);
    check_glsl_matches_map(&app, &buf);
    // mul r0.w was undone; add r0.z (the last step that stands) is shown
    // as the change.
    assert_eq!(
        values(&register_row(&app, &buf, "r0")),
        ["0.5", "0.5", "1.0", "0.0"]
    );
    assert_eq!(app.component("r0.w"), Some(0));
    assert_eq!(changed_components(&app, &buf), [("r0".to_string(), 'z')]);
    assert!(text(&buf).contains("instr 5/11  step 2"));
}

#[test]
fn breakpoint_hit_after_continue() {
    let mut app = small();
    // The cursor starts on the next instruction, [3]; put it on `mad` ([7]).
    for _ in 0..4 {
        app.key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE));
    }
    app.key(KeyEvent::new(KeyCode::F(9), KeyModifiers::NONE));
    assert!(app.breakpoints.contains(&7));
    app.key(KeyEvent::new(KeyCode::F(5), KeyModifiers::NONE));
    let buf = screen(&mut app);
    insta::assert_snapshot!("breakpoint", text(&buf));
    assert_eq!(app.machine.pc(), 7);
    assert_eq!(app.event, "breakpoint at [7]");
    assert_eq!(highlighted_listing(&app, &buf), vec![7]);
    check_glsl_matches_map(&app, &buf);
    assert_eq!(
        values(&register_row(&app, &buf, "r1")),
        ["1.0", "2.0", "3.0", "4.0"]
    );
    assert_eq!(
        changed_components(&app, &buf),
        ["x", "y", "z", "w"].map(|c| ("r1".to_string(), c.chars().next().unwrap()))
    );
    // The mark is drawn on the breakpoint's row.
    let r = inner(app.areas.listing);
    let row = (r.y..r.bottom())
        .map(|y| row_text(&buf, y, r.x, r.right()))
        .find(|t| t.contains("[   7]"))
        .unwrap();
    assert!(row.starts_with('●'), "{row}");
    // Continuing again runs past it to the end.
    app.apply(Action::Continue);
    assert!(app.machine.is_finished());
    assert_eq!(app.component("o0.x"), Some(f(7.5)));
}

#[test]
fn hex_view() {
    let mut app = small();
    for _ in 0..3 {
        app.apply(Action::Step);
    }
    app.key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    insta::assert_snapshot!("hex", text(&buf));
    assert_eq!(highlighted_listing(&app, &buf), vec![6]);
    check_glsl_matches_map(&app, &buf);
    assert_eq!(
        values(&register_row(&app, &buf, "r0")),
        ["0x3f000000", "0x3f000000", "0x3f800000", "0x40000000"]
    );
    assert_eq!(changed_components(&app, &buf), [("r0".to_string(), 'w')]);
    // int and uint follow, then float again.
    app.apply(Action::CycleView);
    let buf = screen(&mut app);
    assert_eq!(values(&register_row(&app, &buf, "r0"))[3], "1073741824");
    app.apply(Action::CycleView);
    app.apply(Action::CycleView);
    let buf = screen(&mut app);
    assert_eq!(values(&register_row(&app, &buf, "r0"))[3], "2.0");
}

#[test]
fn switching_lanes() {
    let mut app = small();
    // Run to just after `add o0` ([8]).
    app.cursor = 9;
    app.apply(Action::RunToCursor);
    assert_eq!(app.machine.pc(), 9);
    assert_eq!(app.lane, 0);
    let buf = screen(&mut app);
    assert_eq!(
        values(&register_row(&app, &buf, "o0")),
        ["7.5", "2.5", "4.0", "6.0"]
    );
    app.key(KeyEvent::new(KeyCode::Char('l'), KeyModifiers::NONE));
    assert_eq!(app.lane, 1);
    let buf = screen(&mut app);
    assert_eq!(
        values(&register_row(&app, &buf, "o0")),
        ["12.5", "2.5", "5.0", "8.0"]
    );
    app.key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    insta::assert_snapshot!("lane_3", text(&buf));
    assert_eq!(app.lane, 3);
    assert_eq!(highlighted_listing(&app, &buf), vec![9]);
    check_glsl_matches_map(&app, &buf);
    assert_eq!(
        values(&register_row(&app, &buf, "o0")),
        ["16.5", "3.5", "6.0", "10.0"]
    );
    assert_eq!(
        values(&register_row(&app, &buf, "v0")),
        ["1.5", "1.5", "0.5", "1.0"]
    );
    assert_eq!(
        changed_components(&app, &buf),
        ["x", "y", "z", "w"].map(|c| ("o0".to_string(), c.chars().next().unwrap()))
    );
    assert!(text(&buf).contains("lane 3 of the quad at pixel (0,0)"));
}

fn type_prompt(app: &mut App, text: &str) {
    for c in text.chars() {
        app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    app.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
}

#[test]
fn run_to_first_nan_or_inf() {
    let mut app = small();
    app.apply(Action::RunToNan);
    // The division by zero ([9]) made +Inf in r1.y.
    assert_eq!(app.machine.last_index(), Some(9));
    assert_eq!(app.component("r1.y"), Some(f32::INFINITY.to_bits()));
    assert!(
        app.event.contains("NaN/Inf produced: r1.y = inf"),
        "{}",
        app.event
    );
}

#[test]
fn watch_a_component() {
    let mut app = small();
    app.key(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE));
    assert!(matches!(app.overlay, Overlay::Prompt(..)));
    type_prompt(&mut app, "r1.x");
    assert_eq!(app.overlay, Overlay::None);
    // `mov r1` ([6]) sets r1.x to 1 first.
    assert_eq!(app.machine.last_index(), Some(6));
    app.key(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE));
    type_prompt(&mut app, "r1.x");
    assert_eq!(app.machine.last_index(), Some(7));
    assert_eq!(app.component("r1.x"), Some(f(7.0)));
    app.key(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE));
    type_prompt(&mut app, "nonsense");
    assert!(app.event.contains("not a register component"));
}

#[test]
fn pick_a_pixel_reruns_at_the_same_step() {
    let mut app = small();
    for _ in 0..2 {
        app.apply(Action::Step);
    }
    app.key(KeyEvent::new(KeyCode::Char('P'), KeyModifiers::SHIFT));
    type_prompt(&mut app, "3,2");
    assert_eq!(app.pixel, (3, 2));
    // Pixel (3,2) is the top-right lane of the quad at (2,2).
    assert_eq!(app.lane, 1);
    assert_eq!(app.machine.position(), 2);
    assert_eq!(app.component("r0.x"), Some(f(3.5)));
    assert_eq!(app.component("r0.z"), Some(f(6.0)));
    app.key(KeyEvent::new(KeyCode::Char('P'), KeyModifiers::SHIFT));
    type_prompt(&mut app, "64,0");
    assert!(app.event.contains("outside the 64x64 target"));
    assert_eq!(app.pixel, (3, 2));
}

#[test]
fn search_the_listing() {
    let mut app = small();
    app.key(KeyEvent::new(KeyCode::Char('/'), KeyModifiers::NONE));
    type_prompt(&mut app, "add");
    assert_eq!(app.cursor, 4);
    // The prompt stays open: Enter again finds the next match.
    app.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(app.cursor, 8);
    app.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn vk450_dialect_highlights_its_own_map() {
    let mut app = small();
    app.apply(Action::Step);
    app.key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    assert!(text(&buf).contains("GLSL vk450"));
    assert!(app.glsl().lines[0].contains("450"));
    check_glsl_matches_map(&app, &buf);
}

#[test]
fn extra_registers_on_demand() {
    let mut app = app("shaders/shadow_pcf.dxbc");
    let regs = |app: &App, buf: &Buffer| {
        let r = inner(app.areas.registers);
        (r.y..r.bottom())
            .map(|y| row_text(buf, y, r.x, r.right()))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let buf = screen(&mut app);
    assert!(!regs(&app, &buf).contains("cb0[0]"));
    app.apply(Action::ToggleExtra);
    let buf = screen(&mut app);
    assert!(regs(&app, &buf).contains("constant buffer cb0"));
    assert!(regs(&app, &buf).contains("cb0[0]"));
}

#[test]
fn refused_shader_is_still_steppable() {
    let mut app = app("shaders/debugger/refused_cs.asm");
    let buf = screen(&mut app);
    let t = text(&buf);
    assert!(t.contains("GLSL es300 (refused)"), "{t}");
    assert!(t.contains("the emitter refuses this shader"));
    assert!(app.glsl().lines[1].contains("only vertex and fragment shaders"));
    assert_eq!(highlighted_glsl(&app, &buf), None);
    app.apply(Action::RunToEnd);
    assert_eq!(app.component("r0.x"), Some(f(6.0)));
}

#[test]
fn help_overlay_lists_the_key_table() {
    let mut app = small();
    app.key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE));
    let t = text(&screen(&mut app));
    for b in dxbc_dbg::tui::keys::BINDINGS {
        assert!(t.contains(b.help), "help lacks `{}`", b.help);
        assert!(t.contains(&dxbc_dbg::tui::keys::keys_text(b)));
    }
    app.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn too_small_terminal_says_so() {
    let mut app = small();
    let t = text(&draw(&mut app, 60, 15));
    assert!(t.contains("terminal too small: 60x15"), "{t}");
}

#[test]
fn mouse_wheel_scrolls_the_pane_under_the_pointer() {
    let mut app = app("shaders/shadow_pcf.dxbc");
    screen(&mut app);
    let g = app.areas.glsl;
    let before = app.glsl_top;
    app.scroll_at(g.x + 3, g.y + 3, -3);
    assert_eq!(app.glsl_top, before - 3);
    let l = app.areas.listing;
    app.scroll_at(l.x + 3, l.y + 3, 3);
    screen(&mut app);
    // Thirteen instructions fit: the listing cannot scroll past its end.
    assert_eq!(app.listing_top, 0);
}

// ---- the memory pane ------------------------------------------------------

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
    assert_eq!(app.view, dxbc_dbg::tui::app::ValueView::Float);
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
    assert_eq!(
        values(&register_row(&app, &buf, "r1"))[..2],
        ["1.5", "0.25"]
    );
}

#[test]
fn memory_pane_without_buffers_says_so() {
    let mut app = small();
    app.apply(Action::ToggleMemory);
    let t = text(&screen(&mut app));
    assert!(t.contains("no buffer SRVs or UAVs are bound"), "{t}");
}

// ---- the real binary in a real terminal -----------------------------------

/// A private tmux server, killed when the test ends however it ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs (install it: apt-get install tmux)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p", "-t", "dbg"])
    }

    /// Waits until the screen shows `what`.
    fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for `{what}`; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
fn real_terminal_steps_and_is_restored() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux {
        socket: format!("dxbc-dbg-test-{}", std::process::id()),
    };
    let script =
        format!("'{bin}' step shaders/shadow_pcf.dxbc; echo \"exit=$?\"; stty -a; sleep 60");
    let dir = root();
    tmux.cmd(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "dbg",
        "-x",
        "140",
        "-y",
        "45",
        "-c",
        dir.to_str().unwrap(),
        "sh",
        "-c",
        &script,
    ]);
    // shadow_pcf starts at [7], after its seven declarations.
    tmux.wait_for("instr 7/13");
    assert_eq!(
        tmux.cmd(&["display", "-p", "-t", "dbg", "#{alternate_on}"])
            .trim(),
        "1"
    );
    for _ in 0..5 {
        tmux.cmd(&["send-keys", "-t", "dbg", "n"]);
    }
    let s = tmux.wait_for("step 5");
    assert!(s.contains("instr 12/13"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "p", "Left"]);
    let s = tmux.wait_for("step 3");
    assert!(s.contains("instr 10/13"), "{s}");
    assert!(s.contains("▶ [  10] add r0.x, r0.y, r0.x"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
    let s = tmux.wait_for("icanon");
    // Cooked mode is back: canonical input and echo on.
    let words: Vec<&str> = s.split_whitespace().collect();
    assert!(words.contains(&"icanon"), "{s}");
    assert!(words.contains(&"echo"), "{s}");
    assert!(words.contains(&"isig"), "{s}");
    // The alternate screen was left and the cursor shown again.
    assert_eq!(
        tmux.cmd(&["display", "-p", "-t", "dbg", "#{alternate_on}"])
            .trim(),
        "0"
    );
    assert_eq!(
        tmux.cmd(&["display", "-p", "-t", "dbg", "#{cursor_flag}"])
            .trim(),
        "1"
    );
    assert!(!s.contains("DXBC ["), "the debugger's screen is gone:\n{s}");
}

#[test]
fn bad_arguments_leave_the_terminal_alone() {
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(["step", "shaders/shadow_pcf.dxbc", "--pixel", "99,0"])
        .current_dir(root())
        .output()
        .expect("binary runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside the 64x64 target"), "{err}");
    assert!(out.stdout.is_empty(), "nothing drawn: {:?}", out.stdout);
}
