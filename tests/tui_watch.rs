//! The step debugger's watch list, loop iteration counts and the jump from
//! a GLSL line to its instruction, drawn into a test backend. Values are
//! worked by hand in each test's comments.

mod common;

use common::screen::{case_app, inner, row_text, screen, shader, text};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::tui::app::{Action, Overlay, Tone};
use dxbc_dbg::tui::view::CHANGED;
use dxbc_dbg::tui::{App, Inputs};
use ratatui::buffer::Buffer;

/// `tests/cases/flow/loop_negative_counter.case`: 0-1 declarations, 2
/// `mov r0.x, l(-5)`, 3 `mov r0.y, l(0)`, 4 `loop`, 5 `ige r0.z, r0.x,
/// l(8)`, 6 `breakc_nz`, 7 `iadd r0.y, r0.y, r0.x`, 8 `iadd r0.x, r0.x,
/// l(3)`, 9 `endloop`, 10 `itof`, 11 `mov`, 12 `ret`.
fn counter() -> App {
    case_app("tests/cases/flow/loop_negative_counter.case", (0, 0))
}

fn key(app: &mut App, c: char) {
    app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
}

fn prompt(app: &mut App, c: char, text: &str) {
    key(app, c);
    assert!(
        matches!(app.overlay, Overlay::Prompt(..)),
        "{c} opens a prompt"
    );
    for ch in text.chars() {
        key(app, ch);
    }
    app.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(app.overlay, Overlay::None);
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.apply(Action::Step);
    }
}

/// The register pane's rows (inside the border), as text.
fn pane_rows(app: &App, buf: &Buffer) -> Vec<String> {
    let r = inner(app.areas.registers);
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .collect()
}

/// The watch row numbered `n`: its values and which of them are drawn
/// highlighted as changed. A row is ` N EXPR      ` (13 columns), then per
/// component ` c:` and the value right-aligned in 13 columns.
fn watch_row(app: &App, buf: &Buffer, n: usize) -> (Vec<String>, Vec<bool>) {
    let r = inner(app.areas.registers);
    let y = (r.y..r.bottom())
        .find(|&y| {
            let t = row_text(buf, y, r.x, r.right());
            t.split_whitespace().next() == Some(&n.to_string())
        })
        .unwrap_or_else(|| panic!("no watch row {n}:\n{}", text(buf)));
    let mut values = Vec::new();
    let mut changed = Vec::new();
    let mut x = r.x + 13;
    while x + 16 <= r.right() {
        let value = row_text(buf, y, x + 3, x + 16);
        if value.trim().is_empty() {
            break;
        }
        values.push(value.trim().to_string());
        changed.push(buf[(x + 15, y)].style().bg == CHANGED.bg);
        x += 16;
    }
    (values, changed)
}

#[test]
fn the_watch_list_shows_each_step_by_type_with_changes_highlighted() {
    let mut app = counter();
    // Nothing watched: no strip, the pane starts with the temps.
    let buf = screen(&mut app);
    assert_eq!(pane_rows(&app, &buf)[0].trim(), "temps");
    prompt(&mut app, 'a', "r0.x");
    prompt(&mut app, 'a', "r0.yz");
    prompt(&mut app, 'a', "o0.xy");
    // dcl_temps 1: only r0 exists; the shader has no inputs.
    prompt(&mut app, 'a', "r1.x");
    assert_eq!(app.tone, Tone::Error);
    assert!(app.event.contains("no r1"), "{}", app.event);
    prompt(&mut app, 'a', "v0.x");
    assert!(app.event.contains("no v0"), "{}", app.event);
    prompt(&mut app, 'a', "r0.q");
    assert!(app.event.contains("not a component mask"), "{}", app.event);
    assert_eq!(app.watches.len(), 3);
    // [2] mov r0.x, l(-5): the immediate prints as the integer -5, so
    // the move carries an int; r0.yz and o0 are unwritten zeros (floats).
    steps(&mut app, 1);
    let buf = screen(&mut app);
    let rows = pane_rows(&app, &buf);
    assert!(rows[0].starts_with("watch"), "{}", text(&buf));
    assert_eq!(rows[4].trim(), "temps", "three watches, then the registers");
    assert_eq!(watch_row(&app, &buf, 1), (vec!["-5".into()], vec![true]));
    assert_eq!(
        watch_row(&app, &buf, 2),
        (vec!["0.0".into(), "0.0".into()], vec![false, false])
    );
    assert_eq!(
        watch_row(&app, &buf, 3),
        (vec!["0.0".into(), "0.0".into()], vec![false, false])
    );
    // 21 more steps end at the fourth iteration's [8] (tests/tui_typed.rs
    // works the same path): i = 7, sum = -2, r0.z the fourth ige (4 >= 8):
    // false, a mask. [8] wrote r0.x only.
    steps(&mut app, 21);
    assert_eq!(app.machine.last_index(), Some(8));
    let buf = screen(&mut app);
    assert_eq!(watch_row(&app, &buf, 1), (vec!["7".into()], vec![true]));
    assert_eq!(
        watch_row(&app, &buf, 2),
        (vec!["-2".into(), "false".into()], vec![false, false])
    );
    // The strip as drawn (the values above, o0 still unwritten).
    let strip: Vec<String> = pane_rows(&app, &buf)[..4]
        .iter()
        .map(|r| r.trim_end().to_string())
        .collect();
    insta::assert_snapshot!("watch_strip", strip.join("\n"));
    // The view overrides the types here too: 7 as hex.
    key(&mut app, 'v');
    key(&mut app, 'v');
    let buf = screen(&mut app);
    assert_eq!(watch_row(&app, &buf, 1).0, ["0x00000007"]);
    key(&mut app, 'v');
    key(&mut app, 'v');
    key(&mut app, 'v');
    // Run until a watched component changes: [9] endloop, [5] ige r0.z
    // writes false over false (no change), [6] breakc (7 >= 8 is false),
    // [7] iadd r0.y: -2 + 7 = 5.
    prompt(&mut app, 'w', "");
    assert_eq!(app.machine.last_index(), Some(7));
    assert_eq!(app.event, "watched r0.y changed: -2 -> 5 (lane 0)");
    let buf = screen(&mut app);
    assert_eq!(watch_row(&app, &buf, 1), (vec!["7".into()], vec![false]));
    assert_eq!(
        watch_row(&app, &buf, 2),
        (vec!["5".into(), "false".into()], vec![true, false])
    );
    // Stepping back shows the values before [7] again.
    app.apply(Action::StepBack);
    let buf = screen(&mut app);
    assert_eq!(watch_row(&app, &buf, 2).0, ["-2", "false"]);
    // At the end (tests/tui_typed.rs): i = 10, sum = 5, the exit mask
    // true; o0.xy = itof(10, 5).
    app.apply(Action::RunToEnd);
    let buf = screen(&mut app);
    assert_eq!(watch_row(&app, &buf, 1).0, ["10"]);
    assert_eq!(watch_row(&app, &buf, 2).0, ["5", "true"]);
    assert_eq!(watch_row(&app, &buf, 3).0, ["10.0", "5.0"]);
    // `A` by number, empty `A` the last added; a bad number says so.
    prompt(&mut app, 'A', "9");
    assert!(
        app.event.contains("not a watch number (1-3)"),
        "{}",
        app.event
    );
    prompt(&mut app, 'A', "2");
    prompt(&mut app, 'A', "");
    let left: Vec<&str> = app.watches.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(left, ["r0.x"]);
    // The old single watch is still there: `w r0.x` from the start stops
    // at [2], which makes it -5.
    app.apply(Action::Restart);
    prompt(&mut app, 'w', "r0.x");
    assert_eq!(app.machine.last_index(), Some(2));
}

/// The listing row of instruction `i`.
fn listing_row(app: &App, buf: &Buffer, i: usize) -> String {
    let r = inner(app.areas.listing);
    let tag = format!("[{i:4}]");
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .find(|t| t.contains(&tag))
        .unwrap_or_else(|| panic!("no listing row {i}"))
}

#[test]
fn the_loop_shows_the_iterations_begun() {
    let mut app = counter();
    let buf = screen(&mut app);
    assert!(!listing_row(&app, &buf, 4).contains('⟳'));
    // [2], [3], [4] loop: the machine stands on [5], the first iteration
    // has begun.
    steps(&mut app, 3);
    let buf = screen(&mut app);
    assert!(listing_row(&app, &buf, 4).trim_end().ends_with("loop ⟳1"));
    // Five steps ([5]-[9]) per iteration: after 5 more the endloop has
    // jumped back to [5]: the second begun.
    steps(&mut app, 5);
    let buf = screen(&mut app);
    assert!(listing_row(&app, &buf, 4).trim_end().ends_with("loop ⟳2"));
    // Inside the fourth iteration (3 + 2*5 + 4 = 22 steps, at [8]).
    steps(&mut app, 14);
    assert_eq!(app.machine.last_index(), Some(8));
    let buf = screen(&mut app);
    assert!(listing_row(&app, &buf, 4).trim_end().ends_with("loop ⟳4"));
    // [9] endloop jumps back: the fifth begins; stepping back, the fourth.
    steps(&mut app, 1);
    let buf = screen(&mut app);
    assert!(listing_row(&app, &buf, 4).trim_end().ends_with("loop ⟳5"));
    app.apply(Action::StepBack);
    let buf = screen(&mut app);
    assert!(listing_row(&app, &buf, 4).trim_end().ends_with("loop ⟳4"));
    // At the end: i = -5, -2, 1, 4, 7 ran the body; with i = 10 a sixth
    // iteration began at [5] and broke out at [6].
    app.apply(Action::RunToEnd);
    let buf = screen(&mut app);
    assert!(listing_row(&app, &buf, 4).trim_end().ends_with("loop ⟳6"));
    // Only `loop` lines carry a count; back at the start, none.
    assert!(!listing_row(&app, &buf, 9).contains('⟳'));
    app.apply(Action::Restart);
    let buf = screen(&mut app);
    assert!(!listing_row(&app, &buf, 4).contains('⟳'));
}

/// `shaders/debugger/small.asm`: 0-2 declarations, 3 `mov r0.xy`, 4
/// `add`, 5 `mul`, 6 `mov r1`, 7 `mad r1.x, r0.w, r1.y, r1.z`, 8 `add
/// o0`, 9 `div`, 10 `ret`.
fn small() -> App {
    let s = shader("shaders/debugger/small.asm");
    App::new(&s, Inputs::defaults(&s), (0, 0), None).expect("machine starts")
}

/// The 1-based GLSL line whose text is exactly `line` (trimmed).
fn glsl_line(app: &App, line: &str) -> u32 {
    let i = app.glsl().lines.iter().position(|l| l.trim() == line);
    i.unwrap_or_else(|| panic!("no GLSL line `{line}`")) as u32 + 1
}

#[test]
fn a_glsl_line_leads_to_its_instruction() {
    let mut app = small();
    // The mad's statement and the comment above it both belong to [7].
    let stmt = glsl_line(&app, "r1.x = r0.w * r1.y + r1.z;");
    assert_eq!(app.instruction_of_glsl_line(stmt), Ok(7));
    assert_eq!(app.instruction_of_glsl_line(stmt - 1), Ok(7));
    // The `div`'s division by zero is [9].
    let div = glsl_line(&app, "r1.y = r1.x / 0.0;");
    assert_eq!(app.instruction_of_glsl_line(div), Ok(9));
    // `#version` is line 1 and no instruction's; 0 and past the end are
    // not lines.
    let e = app.instruction_of_glsl_line(1).unwrap_err();
    assert!(e.contains("belongs to no instruction"), "{e}");
    let n = app.glsl().lines.len() as u32;
    let e = app.instruction_of_glsl_line(n + 1).unwrap_err();
    assert_eq!(e, format!("the es300 text has lines 1-{n}"));
    assert!(app.instruction_of_glsl_line(0).is_err());
    // The key: `L`, the line number, Enter; the cursor moves to [7] and
    // the machine stays at the start.
    prompt(&mut app, 'L', &stmt.to_string());
    assert_eq!(app.cursor, 7);
    assert_eq!(app.machine.position(), 0);
    assert!(app.event.contains("instruction [7]"), "{}", app.event);
    prompt(&mut app, 'L', "seven");
    assert_eq!(app.tone, Tone::Error);
    assert_eq!(app.cursor, 7);
    // The vk450 text has its own numbering; its mad line leads to [7] too.
    key(&mut app, 'd');
    let stmt = glsl_line(&app, "r1.x = r0.w * r1.y + r1.z;");
    assert_eq!(app.instruction_of_glsl_line(stmt), Ok(7));
    // `t` then runs there: 4 steps ([3]-[6]) from the start.
    key(&mut app, 't');
    assert_eq!(app.machine.pc(), 7);
}
