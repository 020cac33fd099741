//! The step debugger's names from RDEF and the signatures
//! (`shaders/debugger/names.asm`): constant buffer rows labelled and typed
//! by their variables, inputs by their semantics (two packed in one
//! register), names accepted by the component lookup and the watch
//! prompt, search by name, and the names of an instruction's operands.
//! Values are worked by hand in the comments.

mod common;

use common::screen::{inner, root, row_text, screen, text};
use dxbc_dbg::dxbc::value_type::ValueType;
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::tui::app::{Action, Tone};
use dxbc_dbg::tui::names::Named;
use dxbc_dbg::tui::{App, Inputs};
use ratatui::buffer::Buffer;

/// v1 = (0.5, 0.25, 0.125, 0.75) at every corner, interpolated `constant`:
/// TEXCOORD0 = (0.5, 0.25), TEXCOORD1 = (0.125, 0.75). cb1 row 0 packs
/// rcpFrame = (0.25, 0.125) (0x3e800000, 0x3e000000), count = -3
/// (0xfffffffd, a NaN if read as a float) and flags = 7 (0x7, a denormal
/// as a float). Rows 1 and 2 hold the column-major float4x2 `world`: row 1
/// its column 0 (_m00.._m30 = 1, 2, 3, 4), row 2 its column 1 (5..8).
const CASE: &str = "\
[pixel shader file]
shaders/debugger/names.asm

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
row 0 hex 0x3e800000 0x3e000000 0xfffffffd 0x00000007
row 1 float 1 2 3 4
row 2 float 5 6 7 8

[render target]
size 4 4
";

fn app() -> App {
    let case = Case::parse(CASE, &root().join("names.case")).expect("case parses");
    let shader = case.shaders().expect("shaders").pixel;
    let inputs = Inputs::case(case, &shader, "names");
    App::new(&shader, inputs, (0, 0), None).expect("machine starts")
}

/// The register pane's row whose first word is `name`, as text.
fn row(app: &App, buf: &Buffer, name: &str) -> String {
    let r = inner(app.areas.registers);
    (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .find(|t| t.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no register row {name} in\n{}", text(buf)))
}

fn words(t: &str) -> Vec<&str> {
    t.split_whitespace().collect()
}

/// The instructions: [0]-[7] declarations, [8] mul, [9] add, [10] sample,
/// [11] ret.
const MUL: usize = 8;
const ADD: usize = 9;
const SAMPLE: usize = 10;

#[test]
fn cbuffer_fields_and_semantics_label_the_register_pane() {
    let mut app = app();
    app.apply(Action::ToggleExtra);
    app.apply(Action::Step);
    let buf = screen(&mut app);
    insta::assert_snapshot!("names_cbuffer_and_inputs", text(&buf));
    // Two semantics share v1: each component by its semantic's own one.
    assert_eq!(
        words(&row(&app, &buf, "v1")),
        [
            "v1",
            "TEXCOORD0.x:",
            "0.5",
            "TEXCOORD0.y:",
            "0.25",
            "TEXCOORD1.x:",
            "0.125",
            "TEXCOORD1.y:",
            "0.75"
        ]
    );
    // One semantic over o0: the row says it.
    assert_eq!(words(&row(&app, &buf, "o0"))[..2], ["o0", "SV_Target"]);
    // The heading names the buffer; row 0 by variable, typed by RDEF:
    // -3 as an int and 7 as a uint, not NaN and 1e-44.
    let all = text(&buf);
    assert!(all.contains("constant buffer cb1 cbFxaa"), "{all}");
    assert_eq!(
        words(&row(&app, &buf, "cb1[0]")),
        [
            "cb1[0]",
            "rcpFrame.x:",
            "0.25",
            "rcpFrame.y:",
            "0.125",
            "count:",
            "-3",
            "flags:",
            "7"
        ]
    );
    // Column-major: row 2 is column 1, its components rows 0..3.
    assert_eq!(
        words(&row(&app, &buf, "cb1[2]")),
        [
            "cb1[2]",
            "world._m01:",
            "5.0",
            "world._m11:",
            "6.0",
            "world._m21:",
            "7.0",
            "world._m31:",
            "8.0"
        ]
    );
    // [8] mul r0.xy = TEXCOORD0 * rcpFrame = (0.5 * 0.25, 0.25 * 0.125).
    assert_eq!(
        words(&row(&app, &buf, "r0"))[1..5],
        ["x:", "0.125", "y:", "0.03125"]
    );
}

#[test]
fn names_resolve_to_components_with_their_types() {
    let app = app();
    let f = |v: f32| Some(v.to_bits());
    assert_eq!(app.component("TEXCOORD1.y"), f(0.75));
    // Semantics ignore case, and index 0 may be left out.
    assert_eq!(app.component("texcoord0.x"), f(0.5));
    assert_eq!(app.component("TEXCOORD.y"), f(0.25));
    assert_eq!(app.component("v1.z"), f(0.125));
    assert_eq!(app.resolve("rcpFrame.y"), Some(Named::Constant(1, 0, 1)));
    assert_eq!(app.component("cbFxaa.rcpFrame.x"), f(0.25));
    assert_eq!(app.component("world._m21"), f(7.0));
    assert_eq!(app.component("cb1[1].w"), f(4.0));
    assert_eq!(
        app.value_of(app.resolve("count").unwrap()),
        Some((-3i32 as u32, ValueType::Int))
    );
    assert_eq!(
        app.value_of(app.resolve("flags").unwrap()),
        Some((7, ValueType::Uint))
    );
    // Not a suffix on a dot boundary, not a name at all, a component
    // past the semantic.
    assert_eq!(app.resolve("Frame.x"), None);
    assert_eq!(app.resolve("nope.x"), None);
    assert_eq!(app.resolve("TEXCOORD1.z"), None);
}

#[test]
fn operands_are_named() {
    let app = app();
    let pairs = |i| app.operand_names(i);
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        pairs(MUL),
        [
            s("v1.xyxx", "TEXCOORD0"),
            s("cb1[0].xyxx", "cbFxaa.rcpFrame")
        ]
    );
    assert_eq!(pairs(ADD), [s("v1.zwzz", "TEXCOORD1")]);
    assert_eq!(
        pairs(SAMPLE),
        [
            s("o0.xyzw", "SV_Target"),
            s("t0.xyzw", "g_Texture"),
            s("s0", "g_Sampler")
        ]
    );
}

#[test]
fn search_finds_a_name_at_its_register() {
    let mut app = app();
    app.search_next("rcpFrame");
    assert_eq!(app.cursor, MUL);
    app.search_next("g_texture");
    assert_eq!(app.cursor, SAMPLE);
    // TEXCOORD1 is v1.zw: its declaration [5] comes first (the search
    // wraps past [11]), then the add reading it.
    app.search_next("TEXCOORD1");
    assert_eq!(app.cursor, 5);
    app.search_next("TEXCOORD1");
    assert_eq!(app.cursor, ADD);
}

#[test]
fn watching_a_name_that_never_changes_says_so() {
    let mut app = app();
    app.apply(Action::Watch);
    for c in "rcpFrame.y".chars() {
        app.key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Char(c),
        ));
    }
    app.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Enter,
    ));
    assert_eq!(app.tone, Tone::Warn);
    assert_eq!(
        app.event,
        "`rcpFrame.y` is cb1[0].y, a constant: it does not change while the shader runs (now 0.125)"
    );
    // Nothing ran.
    assert_eq!(app.machine.position(), 0);
}
