//! The step debugger's HLSL pane: `H` shows the shader's source in the
//! GLSL's place (`shaders/debugger/names.hlsl` beside `names.asm`), its
//! title says the container has no debug info, the scroll keys move it,
//! a source beside the shader is found, `--hlsl` naming a missing file is
//! an error, and without a source `H` says how to give one. Rows are
//! worked by hand from the file in the comments.

mod common;

use std::path::{Path, PathBuf};

use common::cli::{dxbc_dbg, stderr};
use common::screen::{draw, inner, root, row_text, shader, text};
use common::tmux::Tmux;
use dxbc_dbg::dxbc::{ParseOptions, Shader};
use dxbc_dbg::tui::app::{Action, Pane, Tone};
use dxbc_dbg::tui::hlsl::{self, MAX_BYTES};
use dxbc_dbg::tui::layout::Adjust;
use dxbc_dbg::tui::{App, Inputs};
use ratatui::buffer::Buffer;

const ASM: &str = "shaders/debugger/names.asm";

/// `names.asm` on the documented defaults, with the source the command
/// line would find beside it.
fn app() -> App {
    let shader = shader(ASM);
    let mut app = App::new(&shader, Inputs::defaults(&shader), (0, 0), None).expect("machine");
    app.hlsl
        .attach(hlsl::locate(&root().join(ASM), None).expect("names.hlsl is found"));
    app
}

/// The right code pane's rows (inside its border) as text.
fn pane_rows(app: &App, buf: &Buffer) -> Vec<String> {
    let r = inner(app.areas.glsl);
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()).trim_end().to_string())
        .collect()
}

/// The right code pane's top border row (its title).
fn title(app: &App, buf: &Buffer) -> String {
    let r = app.areas.glsl;
    row_text(buf, r.y, r.x, r.right())
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-hlsl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `names.asm` assembled into a container file in `dir`.
fn container_in(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(root().join(ASM)).expect("read names.asm");
    let bytes = dxbc_dbg::dxbc::asm::assemble(&text).expect("assembles");
    let path = dir.join("names.dxbc");
    std::fs::write(&path, bytes).expect("write container");
    path
}

#[test]
fn h_shows_the_source_numbered_with_its_title() {
    let mut app = app();
    app.apply(Action::ToggleHlsl);
    assert!(app.hlsl.shown);
    assert_eq!(app.tone, Tone::Info);
    let buf = draw(&mut app, 140, 45);
    insta::assert_snapshot!("hlsl_pane", text(&buf));
    // 140 columns split in half: the pane is 70 wide, 68 inside. The
    // title: the file's name, then that names.asm's container has no
    // SDBG or SPDB chunk.
    assert!(
        title(&app, &buf).starts_with("┌ HLSL names.hlsl · no debug info: lines not mapped ─"),
        "{}",
        title(&app, &buf)
    );
    let rows = pane_rows(&app, &buf);
    // 45 rows less the status line: 44; the bottom pane two fifths (17),
    // the detail line one (the first to run, [8] mul, with its operands'
    // names is 93 columns), the code panes
    // 26, 24 inside their borders: lines 1-24 of the 29. Numbers take
    // three columns (29 has two, three at the least), then " │ ".
    assert_eq!(rows.len(), 24);
    // Line 1 is 70 characters: cut to the 68 - 6 = 62 columns after
    // the number, inside "constant", the last of them an ellipsis.
    assert_eq!(
        rows[0],
        "  1 │ // The source shaders/debugger/names.asm stands for: a consta…"
    );
    assert_eq!(rows[6], "  7 │");
    assert_eq!(rows[7], "  8 │ cbuffer cbFxaa : register(b1)");
    // Line 10 starts with a tab: four spaces.
    assert_eq!(rows[9], " 10 │     float2 rcpFrame;");
    assert_eq!(rows[18], " 19 │ float4 main(float4 pos : SV_Position,");
    assert_eq!(rows[23], " 24 │     float2 uv = tc0 * rcpFrame;");
    // No line is mapped, so none is highlighted as the current one: the
    // GLSL's highlight (light green) appears nowhere in the pane.
    let r = inner(app.areas.glsl);
    for y in r.y..r.bottom() {
        for x in r.x..r.right() {
            assert_eq!(buf[(x, y)].bg, ratatui::style::Color::Reset, "({x},{y})");
        }
    }
    // H again: the GLSL is back.
    app.apply(Action::ToggleHlsl);
    let buf = draw(&mut app, 140, 45);
    assert!(title(&app, &buf).starts_with("┌ GLSL es300"));
}

#[test]
fn scroll_keys_move_the_first_shown_line() {
    let mut app = app();
    app.apply(Action::ToggleHlsl);
    let first = |app: &mut App| {
        let buf = draw(app, 100, 30);
        pane_rows(app, &buf)[0].clone()
    };
    // 100x30: body 29, bottom pane 11 (29 * 2 / 5), detail 1 ([8]'s 93
    // columns fit), code panes
    // 17, 15 lines inside: at most line 29 - 15 + 1 = 15 comes first.
    // The pane is 50 wide, 48 inside: 42 columns after "  1 │ ", the
    // last an ellipsis where the line goes on.
    assert_eq!(
        first(&mut app),
        "  1 │ // The source shaders/debugger/names.asm …"
    );
    // Tab twice from the bottom pane: listing, then the right code pane.
    app.apply(Action::Layout(Adjust::NextFocus));
    app.apply(Action::Layout(Adjust::NextFocus));
    assert_eq!(app.layout.focus, Pane::Glsl);
    assert!(app.event.contains("focus: HLSL"), "{}", app.event);
    // That message is wider than 100 columns, so the status area would
    // take a second row and the code panes one less: cleared, the pages
    // below are all of the same 17-row pane.
    app.event.clear();
    // `]`: a page of the pane's height less three (17 - 3 = 14): line
    // 15, the blank line after the cbuffer's `};`.
    app.apply(Action::PaneDown);
    assert_eq!(first(&mut app), " 15 │");
    // `[`: back to line 1.
    app.apply(Action::PaneUp);
    assert_eq!(
        first(&mut app),
        "  1 │ // The source shaders/debugger/names.asm …"
    );
    // End: the last page, lines 15-29; Home: the top.
    app.apply(Action::Layout(Adjust::End));
    let buf = draw(&mut app, 100, 30);
    let rows = pane_rows(&app, &buf);
    assert_eq!(rows[0], " 15 │");
    assert_eq!(rows[14], " 29 │ }");
    app.apply(Action::Layout(Adjust::Home));
    assert_eq!(
        first(&mut app),
        "  1 │ // The source shaders/debugger/names.asm …"
    );
    // The wheel over the pane: three lines.
    let r = app.areas.glsl;
    app.scroll_at(r.x + 2, r.y + 2, 3);
    assert_eq!(
        first(&mut app),
        "  4 │ // semantics packed into one input regist…"
    );
    // The GLSL keeps its own position: still at the top.
    assert_eq!(app.glsl_top, 0);
}

#[test]
fn without_a_source_h_says_how_to_give_one() {
    let dir = temp_dir("none");
    let blob = container_in(&dir);
    let bytes = std::fs::read(&blob).expect("read");
    let shader = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
    let mut app = App::new(&shader, Inputs::defaults(&shader), (0, 0), None).expect("machine");
    app.hlsl
        .attach(hlsl::locate(&blob, None).expect("no sidecar is no error"));
    app.apply(Action::ToggleHlsl);
    assert!(!app.hlsl.shown);
    assert_eq!(app.tone, Tone::Warn);
    let msg = "no HLSL source: pass --hlsl FILE or put names.hlsl beside the blob";
    assert_eq!(app.event, msg);
    let buf = draw(&mut app, 140, 45);
    assert!(title(&app, &buf).starts_with("┌ GLSL es300"));
    let status = row_text(&buf, 44, 0, 140);
    assert!(status.contains(msg), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_source_beside_the_blob_is_picked_up() {
    let dir = temp_dir("beside");
    let blob = container_in(&dir);
    // A control character and a byte that is not UTF-8 in the source.
    std::fs::write(dir.join("names.hlsl"), b"float4 a;\n// \x1b[31mred \xff\n").expect("write");
    let found = hlsl::locate(&blob, None).expect("found");
    let source = found.source.expect("names.hlsl beside names.dxbc");
    assert_eq!(source.name, "names.hlsl");
    assert_eq!(source.len(), 2);
    assert_eq!(source.line(0), "float4 a;");
    // ESC escaped, 0xff decoded as U+FFFD.
    assert_eq!(source.line(1), "// \\x1b[31mred \u{fffd}");
    // --hlsl wins over the file beside the blob.
    let other = hlsl::locate(&blob, Some(&root().join("shaders/debugger/names.hlsl")))
        .expect("explicit")
        .source
        .expect("source");
    assert_eq!(other.len(), 29);
    // A file beside the blob over the limit is not read: `H` says why.
    let big = std::fs::File::create(dir.join("names.hlsl")).expect("create");
    big.set_len(MAX_BYTES + 1).expect("grow");
    let found = hlsl::locate(&blob, None).expect("not fatal beside the blob");
    assert!(found.source.is_none());
    assert!(
        found
            .missing
            .contains("4194305 bytes is over the 4 MiB limit"),
        "{}",
        found.missing
    );
    // The same file given with --hlsl is an error.
    let err = hlsl::locate(&blob, Some(&dir.join("names.hlsl")))
        .err()
        .expect("too large");
    assert!(err.contains("names.hlsl: 4194305 bytes is over"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A case drawing `names.dxbc` beside it (the quad and bindings of
/// `tests/tui_names.rs`, constants left zero).
const CASE: &str = "\
[pixel shader file]
names.dxbc

[quad]
vertex -1 1 0 1  v1 0.5 0.25 0.125 0.75
vertex 1 1 0 1  v1 0.5 0.25 0.125 0.75
vertex -1 -1 0 1  v1 0.5 0.25 0.125 0.75
vertex 1 -1 0 1  v1 0.5 0.25 0.125 0.75

[texture 0]
size 4 4
fill constant 0.5 0.5 0.5 1

[sampler 0]
filter point

[constant buffer 1]
row 0 float 0 0 0 0

[render target]
size 4 4
";

#[test]
fn the_command_finds_the_source_beside_the_shader() {
    // The real binary in a terminal: a container with names.hlsl beside
    // it, then a case file (named otherwise) whose `[pixel shader file]`
    // is that container: both find the source by the shader's file.
    let dir = temp_dir("cli");
    container_in(&dir);
    std::fs::copy(
        root().join("shaders/debugger/names.hlsl"),
        dir.join("names.hlsl"),
    )
    .expect("copy names.hlsl");
    std::fs::write(dir.join("drawn.case"), CASE).expect("write case");
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux::new("hlsl");
    let script = format!(
        "'{bin}' step names.dxbc; '{bin}' step drawn.case --pixel 1,1; echo \"exit=$?\"; sleep 60"
    );
    tmux.start(&dir, &script);
    // names.asm starts at [8], after its eight declarations.
    tmux.wait_for("instr 8/12");
    tmux.cmd(&["send-keys", "-t", "dbg", "H"]);
    let s = tmux.wait_for("HLSL names.hlsl · no debug info");
    assert!(s.contains(" 10 │     float2 rcpFrame;"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    // The case's run: pixel (1,1) is lane 3 of the quad at (0,0).
    tmux.wait_for("pixel (1,1)");
    tmux.cmd(&["send-keys", "-t", "dbg", "H"]);
    let s = tmux.wait_for("HLSL names.hlsl · no debug info");
    assert!(s.contains("  8 │ cbuffer cbFxaa : register(b1)"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
    drop(tmux);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_hlsl_file_is_an_error_naming_it() {
    let out = dxbc_dbg(&["step", ASM, "--hlsl", "shaders/debugger/nowhere.hlsl"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.starts_with("dxbc-dbg: --hlsl shaders/debugger/nowhere.hlsl: cannot read:"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn debug_chunks_are_named_in_the_title_note() {
    // names.asm's container: RDEF, signatures, SHEX, STAT; no debug info.
    assert_eq!(
        hlsl::debug_note(&shader(ASM)),
        "no debug info: lines not mapped"
    );
    let Some(corpus) = common::corpus() else {
        return;
    };
    // The one corpus blob with fxc /Zi's SDBG chunk (a hull shader, so
    // step does not run it; the note is the container's).
    let path = corpus.join("wine/wine-d3dcompiler_43-blob__test_blob_part2.dxbc");
    let bytes = std::fs::read(&path).expect("read the SDBG blob");
    let sdbg = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
    assert_eq!(
        hlsl::debug_note(&sdbg),
        "debug info SDBG: line table not read"
    );
}

#[test]
fn a_corpus_blob_finds_its_hlsl_sidecar() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let blob =
        corpus.join("3dmigoto/3dmigoto__BinaryDecompiler_ps5_ContactHardeningShadows11PS.dxbc");
    let found = hlsl::locate(&blob, None).expect("located");
    let source = found.source.expect("the .hlsl beside it");
    assert_eq!(
        source.name,
        "3dmigoto__BinaryDecompiler_ps5_ContactHardeningShadows11PS.hlsl"
    );
    // The file's first line is its banner of dashes; line 2 names it.
    assert_eq!(source.line(1), "// File: ContactHardeningShadows11.hlsl");
    // 368 lines, each ended by a line feed.
    assert_eq!(source.len(), 368);
}
