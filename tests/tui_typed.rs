//! The step debugger's typed values and the lane it names: registers shown
//! by the type their writer gave them (a loop counter as integers, a
//! comparison as a mask) with `v` overriding it, the pane title and status
//! line naming the shown lane's own pixel, and `f` moving to the lane that
//! made the NaN/Inf. Values are worked by hand in each test's comments.

mod common;

use common::screen::{case_app, inner, row_text, screen, text};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::tui::app::Action;
use dxbc_dbg::tui::{App, Inputs};
use ratatui::buffer::Buffer;

/// `tests/cases/flow/loop_negative_counter.case`: 0-1 declarations, 2
/// `mov r0.x, l(-5)`, 3 `mov r0.y, l(0)`, 4 `loop`, 5 `ige r0.z, r0.x,
/// l(8)`, 6 `breakc_nz`, 7 `iadd r0.y`, 8 `iadd r0.x, r0.x, l(3)`, 9
/// `endloop`, 10 `itof`, 11 `mov`, 12 `ret`.
fn counter() -> App {
    case_app("tests/cases/flow/loop_negative_counter.case", (0, 0))
}

fn assembled(text: &str) -> Shader {
    let bytes = asm::assemble(text).expect("assembles");
    Shader::parse(&bytes, ParseOptions::default()).expect("parses")
}

/// The values of register `name`'s row (`  r0  x: 7 y: -2 …`).
fn row(app: &App, buf: &Buffer, name: &str) -> Vec<String> {
    let r = inner(app.areas.registers);
    let t = (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .find(|t| t.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no register row {name}"));
    t.split_whitespace()
        // The row's name (and semantic, `o0 SV_Target`) come before the
        // first component label.
        .skip_while(|w| !w.ends_with(':'))
        .filter(|w| !w.ends_with(':'))
        .map(str::to_string)
        .collect()
}

/// The register pane's title (its top border).
fn title(app: &App, buf: &Buffer) -> String {
    let r = app.areas.registers;
    row_text(buf, r.y, r.x, r.right())
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.apply(Action::Step);
    }
}

#[test]
fn a_loop_counter_shows_as_the_integers_it_holds() {
    let mut app = counter();
    // [2] mov r0.x, l(-5): the listing prints the immediate 0xfffffffb as
    // the integer -5, so the move carries an int. r0.yzw are unwritten:
    // 0 read as float.
    steps(&mut app, 1);
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0"), ["-5", "0.0", "0.0", "0.0"]);
    // Then [3] mov, [4] loop, and four iterations of [5]-[9] ([5] ige,
    // [6] breakc, [7] sum += i, [8] i += 3, [9] endloop) up to the
    // fourth's [8]: 2 + 3 * 5 + 4 = 21 more steps. The [7]s add i = -5,
    // -2, 1, 4: sum = -2; the [8]s take i from -5 to -2, 1, 4, 7.
    steps(&mut app, 21);
    assert_eq!(app.machine.last_index(), Some(8));
    let buf = screen(&mut app);
    insta::assert_snapshot!("typed_loop_counter", text(&buf));
    // i = 7 and sum = -2 (iadds: ints); r0.z the fourth [5]'s ige 4, 8:
    // false (a comparison: a mask); r0.w never written.
    assert_eq!(row(&app, &buf, "r0"), ["7", "-2", "false", "0.0"]);
    assert!(
        title(&app, &buf).contains("· typed ·"),
        "{}",
        title(&app, &buf)
    );
    // The float view overrides the types: 7 is the denormal 7 * 2^-149
    // = 9.8e-45, whose shortest form is 1e-44; -2 is 0xfffffffe, a NaN;
    // the mask's zero bits are 0.0.
    app.key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0"), ["1e-44", "NaN", "0.0", "0.0"]);
    assert!(title(&app, &buf).contains("· float ·"));
    // hex, int, uint, then typed again.
    for _ in 0..4 {
        app.key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE));
    }
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0"), ["7", "-2", "false", "0.0"]);
    // Back to the start, i = -5 again; in the float view its bits
    // 0xfffffffb are a NaN, which the typed view does not show.
    app.apply(Action::Restart);
    steps(&mut app, 1);
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0")[0], "-5");
    app.key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE));
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0")[0], "NaN");
}

#[test]
fn the_exit_mask_reads_true_and_the_outputs_as_floats() {
    let mut app = counter();
    app.apply(Action::RunToEnd);
    let buf = screen(&mut app);
    // The fifth iteration adds 7 (sum 5) and makes i 10; the sixth [5]
    // compares 10 with 8: true, and the loop ends; the itof makes floats
    // 10.0 and 5.0; o0.zw come from l(0, 0, 0, 1.0): zero is untyped
    // (read as float), 1.0 reads as a float.
    assert_eq!(row(&app, &buf, "r0"), ["10", "5", "true", "0.0"]);
    assert_eq!(row(&app, &buf, "o0"), ["10.0", "5.0", "0.0", "1.0"]);
}

#[test]
fn stepping_back_restores_a_component_s_type() {
    let mut app = counter();
    // [2], [3], [4], then [5] ige -5, 8: false, zero bits as r0.z had
    // before; only the type tells the step wrote it.
    steps(&mut app, 4);
    assert_eq!(app.machine.last_index(), Some(5));
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0")[2], "false");
    app.apply(Action::StepBack);
    let buf = screen(&mut app);
    assert_eq!(row(&app, &buf, "r0")[2], "0.0");
}

#[test]
fn the_title_and_status_name_the_shown_lane_s_own_pixel() {
    let s = assembled(
        "ps_4_0\n\
         dcl_output o0.xyzw\n\
         mov o0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         ret\n",
    );
    // The quad holding pixel (10,10) is (10..11, 10..11): lane 1, top
    // right, is pixel (11,10); lane 2 (10,11); lane 3 (11,11).
    let mut app = App::new(&s, Inputs::defaults(&s), (10, 10), Some(1)).expect("starts");
    let buf = screen(&mut app);
    let t = text(&buf);
    assert!(t.contains("registers: lane 1 at pixel (11,10) ·"), "{t}");
    assert!(t.contains("pixel (11,10) · lane 1 ·"), "{t}");
    app.apply(Action::Lane(2));
    let t = text(&screen(&mut app));
    assert!(t.contains("registers: lane 2 at pixel (10,11) ·"), "{t}");
    assert!(t.contains("pixel (10,11) · lane 2 ·"), "{t}");
    app.apply(Action::Lane(0));
    let t = text(&screen(&mut app));
    assert!(t.contains("registers: lane 0 at pixel (10,10) ·"), "{t}");
}

#[test]
fn run_to_nan_shows_the_lane_that_made_it() {
    // With the documented defaults, SV_Position is (x + 0.5, y + 0.5): in
    // the quad at (0,0), x + y is 1, 2, 2, 3 for lanes 0-3, so r0.x =
    // x + y - 3 is -2, -1, -1, 0 and 1 / r0.x is -0.5, -1, -1 and +inf:
    // only lane 3 makes an Inf.
    let s = assembled(
        "ps_4_0\n\
         dcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         add r0.x, v0.x, v0.y\n\
         add r0.x, r0.x, l(-3.000000)\n\
         div r0.y, l(1.000000), r0.x\n\
         mov o0.xyzw, r0.xyxy\n\
         ret\n",
    );
    let mut app = App::new(&s, Inputs::defaults(&s), (0, 0), None).expect("starts");
    assert_eq!(app.lane, 0);
    app.key(KeyEvent::new(KeyCode::Char('f'), KeyModifiers::NONE));
    // Stopped after [5] div, on lane 3.
    assert_eq!(app.machine.last_index(), Some(5));
    assert!(
        app.event.contains("NaN/Inf produced: r0.y = inf (lane 3)"),
        "{}",
        app.event
    );
    assert_eq!(app.lane, 3);
    let buf = screen(&mut app);
    assert!(text(&buf).contains("registers: lane 3 at pixel (1,1)"));
    assert_eq!(row(&app, &buf, "r0"), ["0.0", "inf", "0.0", "0.0"]);
}
