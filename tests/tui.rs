//! The step debugger: screens drawn into a test backend (snapshots, plus
//! checks of which listing row and GLSL lines are highlighted and of
//! register values computed by hand for `shaders/debugger/small.asm`), and
//! the real binary in a terminal (tmux) to see it leave the terminal as it
//! found it.

mod common;

use std::process::Command;

use common::screen::{draw, inner, root, row_text, screen, shader, text};
use common::tmux::Tmux;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::tui::app::{Action, Overlay};
use dxbc_dbg::tui::{App, Inputs, view};
use ratatui::buffer::Buffer;

fn app(rel: &str) -> App {
    let s = shader(rel);
    App::new(&s, Inputs::defaults(&s), (0, 0), None).expect("machine starts")
}

fn small() -> App {
    app("shaders/debugger/small.asm")
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
        // The row's name (and semantic, `o0 SV_Target`) come before the
        // first component label.
        .skip_while(|w| !w.ends_with(':'))
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
    // Typed (the default), then float, then hex.
    app.key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE));
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
    // int and uint follow, then typed again (a mul: float).
    app.apply(Action::CycleView);
    let buf = screen(&mut app);
    assert_eq!(values(&register_row(&app, &buf, "r0"))[3], "1073741824");
    app.apply(Action::CycleView);
    app.apply(Action::CycleView);
    let buf = screen(&mut app);
    assert_eq!(values(&register_row(&app, &buf, "r0"))[3], "2.0");
    assert!(text(&buf).contains("· typed ·"));
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
    // Lane 3 of the quad at (0,0) is pixel (1,1).
    assert!(text(&buf).contains("lane 3 at pixel (1,1)"));
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
    // The table is 44 bindings, a blank line and two notes: 47 rows and
    // the border, so a 50-row screen shows it whole.
    let t = text(&draw(&mut app, 140, 50));
    for b in dxbc_dbg::tui::keys::BINDINGS {
        assert!(t.contains(b.help), "help lacks `{}`", b.help);
        assert!(t.contains(&dxbc_dbg::tui::keys::keys_text(b)));
    }
    assert!(t.contains(" inputs: documented defaults"), "{t}");
    // On 45 rows, 43 inside the border: the title says which rows are
    // shown and the border how many are below; End scrolls to the last.
    let t = text(&screen(&mut app));
    assert!(t.contains("keys: rows 1-43 of 47"), "{t}");
    assert!(t.contains("↓ 4 more"), "{t}");
    assert!(
        t.contains("close a prompt or help") && !t.contains("q / Ctrl-c"),
        "{t}"
    );
    app.key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    let t = text(&screen(&mut app));
    assert!(t.contains("keys: rows 5-47 of 47"), "{t}");
    assert!(t.contains("↑ 4 more"), "{t}");
    assert!(t.contains("q / Ctrl-c"), "{t}");
    assert!(!t.contains("step back one instruction"), "{t}");
    // The scroll keys move the help, not the listing cursor.
    let cursor = app.cursor;
    app.key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
    let t = text(&screen(&mut app));
    assert!(t.contains("keys: rows 4-46 of 47"), "{t}");
    assert_eq!(app.cursor, cursor);
    app.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn gpu_values_need_a_case() {
    // The documented defaults are the debugger's own inputs: there is no
    // case a GPU could draw, so G says how to make one, and D has nothing
    // to jump to.
    let mut app = small();
    app.key(KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT));
    assert!(!app.gpu_busy());
    assert!(
        app.event.starts_with("no case to draw on the GPU")
            && app.event.contains("`dxbc-dbg case new SHADER -o X.case`"),
        "{}",
        app.event
    );
    app.key(KeyEvent::new(KeyCode::Char('D'), KeyModifiers::SHIFT));
    assert_eq!(app.event, "no GPU values loaded: G loads them");
    let t = text(&screen(&mut app));
    assert!(!t.contains("emulator│"), "{t}");
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

// ---- the real binary in a real terminal -----------------------------------

#[test]
fn real_terminal_steps_and_is_restored() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux::new("steps");
    let script =
        format!("'{bin}' step shaders/shadow_pcf.dxbc; echo \"exit=$?\"; stty -a; sleep 60");
    tmux.start(&root(), &script);
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

#[test]
fn without_a_terminal_step_says_so() {
    // `output()` pipes standard output: no terminal to draw on.
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(["step", "shaders/debugger/small.asm"])
        .current_dir(root())
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "dxbc-dbg: step needs a terminal: standard output is not one; use `trace` for text output"
    );
    assert!(out.stdout.is_empty(), "nothing drawn: {:?}", out.stdout);
}
