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
    // The detail line names [9]'s input operand: v1.zw is TEXCOORD1.
    assert_eq!(
        app.instruction_detail(),
        "[   9] add r0.xy, r0.xyxx, v1.zwzz  · v1.zwzz = TEXCOORD1"
    );
    assert!(
        row_text(&buf, app.areas.detail.y, 0, buf.area.width).contains("· v1.zwzz = TEXCOORD1"),
        "drawn on the detail line"
    );
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

/// A real fxc shader with RDEF (`../shared/corpus`, passing with a note
/// when absent): Tutorial06's LambertLit pixel shader. Its `.hlsl` sidecar
/// declares `cbuffer SharedConsts { matrix World, View, Projection; float4
/// vLightDir[2]; float4 vLightColor[2]; float4 vOutputColor; }`: three
/// 4-row matrices fill rows 0..11, so vLightDir[0..1] are rows 12, 13 and
/// vLightColor[0..1] rows 14, 15 (each array element on its own row). Its
/// listing: [0]-[3] declarations, [4] `dp3 r0.x, cb0[12].xyzx, v1.xyzx`,
/// [5] `mul_sat r0.xyz, r0.xxxx, cb0[14].xyzx`, [6] `dp3 r0.w,
/// cb0[13].xyzx, v1.xyzx`; the input `float3 Norm : TEXCOORD0` is v1.xyz.
#[test]
fn a_corpus_shader_shows_its_cbuffer_variables() {
    let path = root().join(
        "../shared/corpus/3dmigoto/3dmigoto__BinaryDecompiler_apps_shaders_LambertLitPS.dxbc",
    );
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("note: {} is absent; skipping", path.display());
        return;
    };
    let shader = dxbc_dbg::dxbc::Shader::parse(&bytes, Default::default()).expect("parses");
    let mut app = App::new(&shader, Inputs::defaults(&shader), (0, 0), None).expect("starts");
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        app.operand_names(6),
        [
            s("cb0[13].xyzx", "SharedConsts.vLightDir[1]"),
            s("v1.xyzx", "TEXCOORD0")
        ]
    );
    assert_eq!(
        app.resolve("vLightColor[0].y"),
        Some(Named::Constant(0, 14, 1))
    );
    // World is column-major: row 0 holds its column 0, so .w is _m30.
    assert_eq!(
        app.resolve("SharedConsts.World._m30"),
        Some(Named::Constant(0, 0, 3))
    );
    app.search_next("vLightColor");
    assert_eq!(app.cursor, 5);
    // The pane, scrolled to the buffer: its heading and row 13 labelled.
    app.apply(Action::ToggleExtra);
    let rows = app.register_rows();
    let heading = dxbc_dbg::tui::app::RegRow::Heading("constant buffer cb0 SharedConsts".into());
    assert!(rows.contains(&heading), "{rows:?}");
    let labels = rows.iter().find_map(|r| match r {
        dxbc_dbg::tui::app::RegRow::Reg { name, labels, .. } if name == "cb0[13]" => {
            Some(labels.clone())
        }
        _ => None,
    });
    let want = ["x", "y", "z", "w"].map(|c| Some(format!("vLightDir[1].{c}")));
    assert_eq!(labels.as_deref(), Some(&want[..]));
    // The input row by its semantic.
    assert!(rows.iter().any(|r| matches!(r,
        dxbc_dbg::tui::app::RegRow::Reg { name, .. } if name == "v1 TEXCOORD0")));
}

/// The watch list takes names too: a field with or without a component,
/// a semantic packed in `.zw`, each shown by its RDEF type. Values from
/// the case above: rcpFrame = (0.25, 0.125), count = -3 (int),
/// TEXCOORD1 = v1.zw = (0.125, 0.75).
#[test]
fn the_watch_list_takes_names_typed_by_rdef() {
    use dxbc_dbg::tui::watch::Place;
    let mut app = app();
    let watch = |app: &App, text: &str| app.watch_of(text);
    let w = watch(&app, "cbFxaa.rcpFrame").expect("a vector field");
    assert_eq!((w.place, w.components), (Place::Constant(1, 0), vec![0, 1]));
    let w = watch(&app, "TEXCOORD1").expect("a packed semantic");
    assert_eq!((w.place, w.components), (Place::Input(1), vec![2, 3]));
    let w = watch(&app, "count").expect("a scalar field");
    assert_eq!((w.place, w.components), (Place::Constant(1, 0), vec![2]));
    // A matrix is watched by element: `_m21` (row 2, column 1 of the
    // column-major float4x2) lives in column 1's register, cb1[2], at
    // the row's component, z.
    let w = watch(&app, "world._m21").expect("a matrix element");
    assert_eq!((w.place, w.components), (Place::Constant(1, 2), vec![2]));
    let e = watch(&app, "nope").expect_err("no such name");
    assert!(e.contains("nor a name"), "{e}");

    app.add_watch("rcpFrame");
    app.add_watch("count");
    app.add_watch("TEXCOORD1.y");
    let cells: Vec<Vec<(u32, ValueType)>> = (app.watches.iter())
        .map(|w| {
            (app.watch_cells(w).expect("values").iter())
                .map(|c| (c.bits, c.ty))
                .collect()
        })
        .collect();
    assert_eq!(
        cells,
        [
            vec![
                (0.25f32.to_bits(), ValueType::Float),
                (0.125f32.to_bits(), ValueType::Float)
            ],
            vec![(-3i32 as u32, ValueType::Int)],
            vec![(0.75f32.to_bits(), ValueType::Float)],
        ]
    );
}
