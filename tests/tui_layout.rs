//! The step debugger's layout: the instruction detail line, the listing vs
//! GLSL split and the bottom pane's height, registers side by side on a
//! wide pane, and the focus with the keys that scroll each pane; drawn
//! into a test backend, and in a 100x30 tmux terminal where the inputs and
//! outputs of `shaders/debugger/many_temps.asm` show only by scrolling.
//!
//! `many_temps.asm` (see its header): declarations 0-7, then [8] the
//! `sample_l_aoffimmi_indexable` fetch, [9] `mov r15`, [10] `add r14`,
//! [11] `add r13`, [12] `mov o0`, [13] `mov o1`, [14] `ret`.

mod common;

use common::screen::{draw, inner, root, row_text, shader, text};
use common::tmux::Tmux;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::tui::app::{Action, Pane};
use dxbc_dbg::tui::{App, Inputs};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// The fetch's listing text, as fxc writes it.
const FETCH: &str = "sample_l_aoffimmi_indexable(0,-1,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)";

fn many_temps() -> App {
    let s = shader("shaders/debugger/many_temps.asm");
    App::new(&s, Inputs::defaults(&s), (0, 0), None).expect("machine starts")
}

fn press(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()).trim_end().to_string())
        .collect()
}

/// The detail line's rows, right under the code panes.
fn detail_rows(app: &App, buf: &Buffer) -> Vec<String> {
    assert_eq!(app.areas.detail.y, app.areas.listing.bottom());
    rows(buf, app.areas.detail)
}

/// The values after register `name` wherever it stands on a row of the
/// bottom pane (registers may share a row): `r0 x: 1.0 y: …` → ["1.0", …];
/// a semantic after the name (`v0 SV_Position x: …`) is passed over.
fn cell(app: &App, buf: &Buffer, name: &str) -> Option<Vec<String>> {
    rows(buf, inner(app.areas.registers))
        .iter()
        .find_map(|row| {
            let words: Vec<&str> = row.split_whitespace().collect();
            let at = words.iter().position(|w| *w == name)?;
            let x = at + words[at..].iter().position(|w| *w == "x:")?;
            Some(
                words[x..]
                    .chunks(2)
                    .take(4)
                    .map(|pair| pair[1].to_string())
                    .collect(),
            )
        })
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_detail_line_shows_a_long_texture_instruction_in_full() {
    let mut app = many_temps();
    assert_eq!(app.machine.pc(), 8);
    let buf = draw(&mut app, 160, 50);
    // The listing's half (78 columns inside its border, 2 of them the
    // breakpoint and cursor marks, 9 "▶ [   8] ") keeps 66 of the fetch's
    // 117 characters and a `…` saying the row is cut ...
    let listing = rows(&buf, inner(app.areas.listing));
    let row = listing
        .iter()
        .find(|r| r.contains("[   8]"))
        .expect("row 8");
    assert!(row.ends_with("(texture2d)(float,float,float,f…"), "{row}");
    // ... the detail line, the full 160 columns, shows it whole, with
    // the input's semantic (the shader's signature names v1 TEXCOORD1).
    assert_eq!(
        detail_rows(&app, &buf),
        [format!("▶ [   8] {FETCH}  · v1.xyxx = TEXCOORD1")]
    );
    insta::assert_snapshot!("detail_wide", detail_rows(&app, &buf).join("\n"));

    // At 100 columns it wraps, at the last space that fits in 98 columns
    // after "▶ ", continuing under the instruction.
    let buf = draw(&mut app, 100, 30);
    assert_eq!(
        detail_rows(&app, &buf),
        [
            "▶ [   8] sample_l_aoffimmi_indexable(0,-1,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx,",
            "         t0.xyzw, s0, l(0.000000)  · v1.xyxx = TEXCOORD1",
        ]
    );

    // The next instruction's, after a step; the text the function gives
    // is what is drawn.
    app.apply(Action::Step);
    let buf = draw(&mut app, 160, 50);
    assert_eq!(
        app.instruction_detail(),
        "[   9] mov r15.xyzw, l(1.000000,2.000000,3.000000,4.000000)"
    );
    assert_eq!(
        detail_rows(&app, &buf),
        [format!("▶ {}", app.instruction_detail())]
    );
    app.apply(Action::RunToEnd);
    let buf = draw(&mut app, 160, 50);
    assert_eq!(detail_rows(&app, &buf), ["▶ the shader has returned"]);
}

#[test]
fn registers_side_by_side_at_160x50_show_the_inputs_and_outputs() {
    let mut app = many_temps();
    // At 140 columns a register takes a row (75 columns: two need 153):
    // the 16 temps fill the pane's 15 rows and hide the inputs.
    let buf = draw(&mut app, 140, 45);
    assert!(cell(&app, &buf, "r13").is_some());
    assert!(cell(&app, &buf, "v0").is_none());

    app.apply(Action::RunToEnd);
    let buf = draw(&mut app, 160, 50);
    let t = rows(&buf, inner(app.areas.registers));
    insta::assert_snapshot!("registers_160x50", t.join("\n"));
    // Two registers a row in 158 columns: r0 beside r1.
    assert!(t[1].trim_start().starts_with("r0"), "{}", t[1]);
    assert_eq!(t[1].split_whitespace().nth(9), Some("r1"), "{}", t[1]);
    // Lane 0 is pixel (0,0): by hand (the shader's header) v0 = (0.5,
    // 0.5, 0.5, 1), v1 = v2 = (0.5/64, 0.5/64, 0, 1), o0 = 2 * v1, o1 =
    // v0 + v2, r15 the literal.
    let v1 = strings(&["0.0078125", "0.0078125", "0.0", "1.0"]);
    assert_eq!(
        cell(&app, &buf, "v0"),
        Some(strings(&["0.5", "0.5", "0.5", "1.0"]))
    );
    assert_eq!(cell(&app, &buf, "v1"), Some(v1.clone()));
    assert_eq!(cell(&app, &buf, "v2"), Some(v1));
    assert_eq!(
        cell(&app, &buf, "o0"),
        Some(strings(&["0.015625", "0.015625", "0.0", "2.0"]))
    );
    assert_eq!(
        cell(&app, &buf, "o1"),
        Some(strings(&["0.5078125", "0.5078125", "0.5", "2.0"]))
    );
    assert_eq!(
        cell(&app, &buf, "r15"),
        Some(strings(&["1.0", "2.0", "3.0", "4.0"]))
    );
}

#[test]
fn keys_change_the_split_and_the_bottom_pane_s_height() {
    let mut app = many_temps();
    draw(&mut app, 160, 50);
    assert_eq!((app.areas.listing.width, app.areas.glsl.width), (80, 80));
    // Three `>`: 50% + 3 * 5% = 65% of 160 = 104 columns.
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('>'));
    }
    let buf = draw(&mut app, 160, 50);
    assert_eq!((app.areas.listing.width, app.areas.glsl.width), (104, 56));
    assert_eq!(app.event, "listing 65% of the width");
    insta::assert_snapshot!("split_65", text(&buf));
    // 102 columns inside: 102 - 2 - 9 = 91, 90 of the fetch's characters
    // (through its second source operand and the space after it) and the
    // `…` that says the row is cut.
    let listing = rows(&buf, inner(app.areas.listing));
    let row = listing.iter().find(|r| r.contains("[   8]")).unwrap();
    assert!(row.ends_with("r0.xyzw, v1.xyxx, …"), "{row}");
    // Down to the limit: 20% of 160 = 32; one more `<` says so.
    for _ in 0..9 {
        press(&mut app, KeyCode::Char('<'));
    }
    draw(&mut app, 160, 50);
    assert_eq!(app.areas.listing.width, 32);
    press(&mut app, KeyCode::Char('<'));
    assert_eq!(
        app.event,
        "the listing stays at 20% of the width (limits 20%-80%)"
    );
    draw(&mut app, 160, 50);
    assert_eq!(app.areas.listing.width, 32);
    // The bottom pane: 19 rows (two fifths of 49), two `+` make 21, a `-`
    // 20; the code panes give the rows up.
    let code = app.areas.listing.height;
    press(&mut app, KeyCode::Char('+'));
    press(&mut app, KeyCode::Char('+'));
    press(&mut app, KeyCode::Char('-'));
    draw(&mut app, 160, 50);
    assert_eq!(app.areas.registers.height, 20);
    assert_eq!(app.areas.listing.height, code - 1);
}

#[test]
fn tab_moves_the_focus_and_the_keys_scroll_the_focused_pane() {
    let mut app = many_temps();
    let buf = draw(&mut app, 100, 30);
    // The bottom pane has the focus at first: its border is thick.
    let corner = |app: &App, buf: &Buffer, pane: Rect| {
        let _ = app;
        buf[(pane.x, pane.y)].symbol().to_string()
    };
    assert_eq!(corner(&app, &buf, app.areas.registers), "┏");
    assert_eq!(corner(&app, &buf, app.areas.listing), "┌");
    // 100x30: the bottom pane has 11 rows, 9 inside: the temps heading
    // and r0-r7. `]` scrolls a page (8 rows): r7-r15; again: the last 9
    // of the 24 rows (heading, 16 temps, heading, 3 inputs, heading, 2
    // outputs), r14 to o1.
    assert!(cell(&app, &buf, "r7").is_some());
    assert!(cell(&app, &buf, "v0").is_none());
    press(&mut app, KeyCode::Char(']'));
    let buf = draw(&mut app, 100, 30);
    assert!(cell(&app, &buf, "r7").is_some() && cell(&app, &buf, "r15").is_some());
    assert!(cell(&app, &buf, "v0").is_none());
    press(&mut app, KeyCode::Char(']'));
    let buf = draw(&mut app, 100, 30);
    assert!(cell(&app, &buf, "r13").is_none());
    for name in ["r14", "v0", "v1", "v2", "o0", "o1"] {
        assert!(cell(&app, &buf, name).is_some(), "{name}");
    }
    press(&mut app, KeyCode::Home);
    let buf = draw(&mut app, 100, 30);
    assert!(cell(&app, &buf, "r0").is_some() && cell(&app, &buf, "o1").is_none());

    // Tab: the listing. End shows its last rows (of 15 instructions);
    // Home the first.
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.layout.focus, Pane::Listing);
    let buf = draw(&mut app, 100, 30);
    assert_eq!(corner(&app, &buf, app.areas.listing), "┏");
    assert_eq!(corner(&app, &buf, app.areas.registers), "┌");
    let listing_rows = inner(app.areas.listing).height as usize;
    press(&mut app, KeyCode::End);
    draw(&mut app, 100, 30);
    assert_eq!(app.listing_top, 15 - listing_rows);
    press(&mut app, KeyCode::Home);
    draw(&mut app, 100, 30);
    assert_eq!(app.listing_top, 0);
    // Tab: the GLSL; `]` scrolls it a page (its inner height less one).
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.layout.focus, Pane::Glsl);
    app.glsl_top = 0;
    draw(&mut app, 100, 30);
    let page = inner(app.areas.glsl).height as usize - 1;
    press(&mut app, KeyCode::Char(']'));
    draw(&mut app, 100, 30);
    assert_eq!(app.glsl_top, page);
    // Tab again: back to the bottom pane.
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.layout.focus, Pane::Registers);
}

// ---- the real binary in a real terminal -----------------------------------

/// Whether the screen shows register `name`'s row (the bottom pane's
/// border, thick while it has the focus, then the name).
fn shows(screen: &str, name: &str) -> bool {
    let row = format!("  {name} ");
    screen
        .lines()
        .any(|l| (l.starts_with("┃") || l.starts_with("│")) && l[3..].starts_with(&row))
}

#[test]
fn real_terminal_100x30_scrolls_to_the_inputs_and_outputs_with_keys() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux::new("layout");
    let script =
        format!("'{bin}' step shaders/debugger/many_temps.asm; echo \"exit=$?\"; sleep 60");
    tmux.start_sized(&root(), &script, 100, 30);
    let s = tmux.wait_for("instr 8/15");
    // The fetch in full on the detail line, wrapped.
    assert!(s.contains("▶ [   8] sample_l_aoffimmi_indexable"), "{s}");
    assert!(s.contains("         t0.xyzw, s0, l(0.000000)"), "{s}");
    assert!(shows(&s, "r0") && shows(&s, "r7"), "{s}");
    for name in ["v0", "v1", "v2", "o0", "o1"] {
        assert!(!shows(&s, name), "{name} before scrolling:\n{s}");
    }
    tmux.cmd(&["send-keys", "-t", "dbg", "]", "]"]);
    let s = tmux.wait_for("outputs");
    for name in ["v0", "v1", "v2", "o0", "o1"] {
        assert!(shows(&s, name), "{name} after scrolling:\n{s}");
    }
    // Home brings the temps back; Tab gives the listing the focus (its
    // border thick).
    tmux.cmd(&["send-keys", "-t", "dbg", "Home", "Tab"]);
    let s = tmux.wait_for("focus: listing");
    assert!(shows(&s, "r0") && !shows(&s, "o1"), "{s}");
    assert!(s.lines().next().unwrap_or("").starts_with("┏"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
}

/// The values after register `name` on a screen's rows (registers may
/// share a row; a semantic after the name is passed over).
fn screen_cell(screen: &str, name: &str) -> Option<Vec<String>> {
    screen.lines().find_map(|row| {
        let words: Vec<&str> = row
            .split(|c: char| c.is_whitespace() || c == '│' || c == '┃')
            .filter(|w| !w.is_empty())
            .collect();
        let at = words.iter().position(|w| *w == name)?;
        let x = at + words[at..].iter().position(|w| *w == "x:")?;
        Some(
            words[x..]
                .chunks(2)
                .take(4)
                .map(|pair| pair.get(1).unwrap_or(&"").to_string())
                .collect(),
        )
    })
}

/// The screen's text with runs of spaces and line breaks as one space
/// and the borders left out, so a message wrapped over rows reads as one.
fn flowing(screen: &str) -> String {
    screen
        .lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || "│┃".contains(c)))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `G` on a shader without a case says what to do in a message longer
/// than either screen's status line, ending in a command: it is read
/// whole, wrapped under the status line; and at 100x30, where the help
/// overlay is taller than the screen, every row of it is reached by
/// scrolling while the title says which rows are shown. A pane with
/// rows out of view says how many.
#[test]
fn real_terminal_messages_and_help_are_read_whole_at_100x30_and_160x50() {
    use dxbc_dbg::tui::keys::{BINDINGS, keys_text};
    const MESSAGE: &str = "no case to draw on the GPU: a shader alone runs on the debugger's \
        default inputs; make a case with `dxbc-dbg case new SHADER -o X.case` and run \
        `dxbc-dbg step X.case`";
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    for (width, height) in [(100u16, 30u16), (160, 50)] {
        let tmux = Tmux::new(&format!("fits-{width}"));
        let script =
            format!("'{bin}' step shaders/debugger/many_temps.asm; echo \"exit=$?\"; sleep 60");
        tmux.start_sized(&root(), &script, width, height);
        let s = tmux.wait_for("instr 8/15");
        if width == 100 {
            // 16 temps and the inputs and outputs do not fit: the
            // register pane says how many rows are below.
            assert!(
                s.lines()
                    .any(|l| l.contains("━ ↓ ") && l.contains(" more ")),
                "{s}"
            );
        }
        tmux.cmd(&["send-keys", "-t", "dbg", "G"]);
        let s = tmux.wait_for("no case to draw");
        assert!(flowing(&s).contains(MESSAGE), "{width}x{height}:\n{s}");
        // Every message row is inside the screen, under the status line.
        let status = s
            .lines()
            .position(|l| l.contains("instr 8/15"))
            .expect("status line");
        assert!(
            s.lines().skip(status + 1).any(|l| l.contains("X.case`")),
            "{s}"
        );

        // The help: every binding's keys and text, by scrolling.
        tmux.cmd(&["send-keys", "-t", "dbg", "?"]);
        let mut seen = tmux.wait_for("Esc closes");
        let scrolls = seen.contains("keys: rows 1-");
        assert_eq!(scrolls, width == 100, "{seen}");
        for _ in 0..BINDINGS.len() {
            if !scrolls || seen.contains("inputs: documented defaults") {
                break;
            }
            tmux.cmd(&["send-keys", "-t", "dbg", "PgDn"]);
            std::thread::sleep(std::time::Duration::from_millis(150));
            seen.push_str(&tmux.screen());
        }
        for b in BINDINGS {
            let row = format!("{:<22}{}", keys_text(b), b.help);
            let row = row.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flowing(&seen).contains(&row),
                "{width}x{height}: help row `{row}` never shown:\n{seen}"
            );
        }
        assert!(seen.contains("inputs: documented defaults"), "{seen}");
        if scrolls {
            // Home goes back to the first row.
            tmux.cmd(&["send-keys", "-t", "dbg", "Home"]);
            tmux.wait_for("keys: rows 1-");
        }
        // Esc alone (followed at once by `q` it would read as Alt-q).
        tmux.cmd(&["send-keys", "-t", "dbg", "Escape"]);
        tmux.wait_until("the help closed", |s| !s.contains("Esc closes"));
        tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
        let s = tmux.wait_for("exit=");
        assert!(s.contains("exit=0"), "{s}");
    }
}

/// The README's first command opens on the shipped case beside the
/// shader (`shaders/shadow_pcf.case`), not on zeros: v1 at pixel (0,0) is
/// (0.1875, 0.1875, 0.5, 1) and, run to the end, o0 is 1.375 * cb0[0] =
/// (1.375, 0.6875, 0.34375, 1.375) (the case's comments work each tap).
#[test]
fn real_terminal_shadow_pcf_opens_on_its_case_s_values() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux::new("pcf-case");
    let script = format!("'{bin}' step shaders/shadow_pcf.dxbc; echo \"exit=$?\"; sleep 60");
    tmux.start_sized(&root(), &script, 160, 50);
    let s = tmux.wait_for("instr 7/13");
    assert!(
        flowing(&s).contains("inputs from shaders/shadow_pcf.case"),
        "{s}"
    );
    let v1 = screen_cell(&s, "v1").expect("v1 shown");
    assert_eq!(v1, ["0.1875", "0.1875", "0.5", "1.0"], "{s}");
    // After the sample_c_lz: two of its four taps pass, weights 0.5625
    // and 0.0625.
    tmux.cmd(&["send-keys", "-t", "dbg", "n"]);
    let s = tmux.wait_for("step 1 ");
    assert_eq!(screen_cell(&s, "r0").expect("r0")[0], "0.625", "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "r"]);
    let s = tmux.wait_for("finished");
    let o0 = screen_cell(&s, "o0").expect("o0 shown");
    assert_eq!(o0, ["1.375", "0.6875", "0.34375", "1.375"], "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
}
