//! The step debugger's GPU values (`G`, `D`): a real lavapipe capture
//! drawn into a test backend beside the emulator's registers, and the
//! real binary in tmux pressing the keys. Like `tests/bisect_gpu.rs`,
//! these fail without a Vulkan adapter.

mod common;

use std::time::Duration;

use common::screen::{draw, inner, root, row_text, screen, text};
use common::tmux::Tmux;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::tui::app::Action;
use dxbc_dbg::tui::gpu::{Backend, GpuCase};
use dxbc_dbg::tui::{App, Inputs, view};
use ratatui::buffer::Buffer;

fn key(app: &mut App, c: char) {
    app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::SHIFT));
}

/// `tests/cases/pcf/point_less.case` (shader `shaders/cases/pcf_2d.asm`:
/// 0-5 declarations, 6 `add r0.xy, v0.xyxx, cb0[0].zwzz`, 7 `mul`, 8
/// `sample_c`, 9 `sample_c_lz`, 10 `mov`, 11 `ret`) at pixel (2,1), with
/// the translation's swizzle of [6]'s first source moved on by one.
fn faulted() -> App {
    let case = Case::load(&root().join("tests/cases/pcf/point_less.case")).expect("case");
    let shaders = case.shaders().expect("shaders");
    let inputs = Inputs::case(case.clone(), &shaders.pixel, "point_less");
    let mut app = App::new(&shaders.pixel, inputs, (2, 1), None).expect("machine starts");
    let mut source = GpuCase::new(case, shaders);
    source.options.wrong_swizzle_at = Some(6);
    app.gpu.source = Some(source);
    app
}

/// The register components whose GPU value is drawn as differing:
/// `("r0", 'x')` etc. (the name is the row's first word; under the narrow
/// layout a GPU line's name is the backend's).
fn differing(app: &App, buf: &Buffer) -> Vec<(String, char)> {
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
            if buf[(x, y)].bg == view::DIFFERS.bg.unwrap()
                && out.last() != Some(&(name.clone(), comp))
            {
                out.push((name.clone(), comp));
            }
        }
    }
    out
}

/// The pane's row for register `name`, split into (emulator, GPU) pairs
/// per component: `x:   2.5│   1.5` → ("2.5", "1.5").
fn pairs(app: &App, buf: &Buffer, name: &str) -> Vec<(String, String)> {
    let r = inner(app.areas.registers);
    let row = (r.y..r.bottom())
        .map(|y| row_text(buf, y, r.x, r.right()))
        .find(|t| t.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no register row {name}"));
    row.split(':')
        .skip(1)
        .map(|cell| {
            let (emu, gpu) = cell.split_once('│').expect("a GPU value beside");
            let gpu = gpu.split_whitespace().next().unwrap_or("");
            (emu.trim().to_string(), gpu.to_string())
        })
        .collect()
}

fn pair(emu: &str, gpu: &str) -> (String, String) {
    (emu.to_string(), gpu.to_string())
}

#[test]
fn gpu_values_beside_the_emulator_and_the_jump_to_the_divergence() {
    let mut app = faulted();
    // The lane shown is the pixel's own: (2,1) is lane 2 of the quad at
    // (2,0). The first instruction to run is [6].
    assert_eq!(app.lane, 2);
    assert_eq!(app.machine.pc(), 6);
    key(&mut app, 'D');
    assert_eq!(app.event, "no GPU values loaded: G loads them");
    key(&mut app, 'G');
    // The capture runs in the background; until it is taken in, the
    // status bar says it is running.
    let t = text(&screen(&mut app));
    assert!(t.contains("capturing pixel (2,1) on vulkan: "), "{t}");
    app.wait_for_gpu();
    assert!(
        app.event.contains(
            "vulkan values of pixel (2,1) loaded: 0 step(s) compared, first divergence at [6]"
        ),
        "{}",
        app.event
    );
    key(&mut app, 'D');
    // Just after [6]: the emulator's add gives r0.xy = v0.xy + cb0[0].zw
    // = (2.5, 1.5) + (0, 0) at the pixel centre (2.5, 1.5). The faulted
    // read takes v0.yzyy: r0.x = v0.y + 0 = 1.5; r0.y = v0.z + 0, where
    // v0.z is a component the translation never sets (the shader
    // declares v0.xy only) and lavapipe starts at 0.
    assert_eq!(app.machine.position(), 1);
    assert_eq!(app.machine.pc(), 7);
    assert_eq!(
        app.event,
        "divergence: r0.x emulator 2.5, vulkan 1.5, after [6] add r0.xy, v0.xyxx, cb0[0].zwzz"
    );
    let buf = screen(&mut app);
    insta::assert_snapshot!("gpu_divergence", text(&buf));
    assert!(text(&buf).contains("· emulator│vulkan ·"));
    // r0.zw: neither side wrote them; the GPU's path has not, so "–".
    assert_eq!(
        pairs(&app, &buf, "r0"),
        [
            pair("2.5", "1.5"),
            pair("1.5", "0.0"),
            pair("0.0", "–"),
            pair("0.0", "–")
        ]
    );
    // v0: the pixel centre on both sides on the declared xy; zw are not
    // declared, so not compared.
    assert_eq!(
        pairs(&app, &buf, "v0"),
        [
            pair("2.5", "2.5"),
            pair("1.5", "1.5"),
            pair("0.5", "–"),
            pair("1.0", "–")
        ]
    );
    assert_eq!(
        differing(&app, &buf),
        [("r0".to_string(), 'x'), ("r0".to_string(), 'y')]
    );
    // Back at the start the GPU has written nothing yet: no r0 values.
    app.apply(Action::Restart);
    let buf = screen(&mut app);
    assert_eq!(pairs(&app, &buf, "r0")[0], pair("0.0", "–"));
    assert!(differing(&app, &buf).is_empty());
    // On an 80-column terminal the GPU's values go on a line of their own
    // under the emulator's.
    app.apply(Action::Step);
    let buf = draw(&mut app, 80, 40);
    let r = inner(app.areas.registers);
    let rows: Vec<String> = (r.y..r.bottom())
        .map(|y| row_text(&buf, y, r.x, r.right()))
        .collect();
    let at = rows
        .iter()
        .position(|t| t.trim_start().starts_with("r0 "))
        .expect("r0 row");
    let gpu: Vec<&str> = rows[at + 1].split_whitespace().collect();
    assert_eq!(
        gpu,
        ["vulkan", "x:", "1.5", "y:", "0.0", "z:", "–", "w:", "–"]
    );
    assert_eq!(
        differing(&app, &buf),
        [("vulkan".to_string(), 'x'), ("vulkan".to_string(), 'y')]
    );
    // Another lane: the values were for lane 2's pixel; they are dropped.
    key(&mut app, 'l');
    assert_eq!(app.lane, 3);
    assert_eq!(
        app.event,
        "the GPU values were for pixel (2,1) lane 2: G loads this lane's"
    );
    assert!(app.gpu_loaded().is_none());
    let t = text(&screen(&mut app));
    assert!(!t.contains("emulator│vulkan"), "{t}");
}

#[test]
fn gpu_values_of_another_lane_pick_its_pixel() {
    // Lane 3 of the quad at (2,0) is pixel (3,1): G on it captures that
    // pixel, re-running the emulator for it, and the unfaulted
    // translation agrees with the emulator.
    let case = Case::load(&root().join("tests/cases/pcf/point_less.case")).expect("case");
    let shaders = case.shaders().expect("shaders");
    let inputs = Inputs::case(case.clone(), &shaders.pixel, "point_less");
    let mut app = App::new(&shaders.pixel, inputs, (2, 1), Some(3)).expect("machine starts");
    app.gpu.source = Some(GpuCase::new(case, shaders));
    app.apply(Action::Step);
    app.apply(Action::LoadGpu(Backend::Vulkan));
    assert_eq!(app.pixel, (3, 1));
    assert_eq!(app.lane, 3);
    assert_eq!(app.machine.position(), 1, "re-run to the same step");
    app.wait_for_gpu();
    let loaded = app.gpu_loaded().expect("loaded");
    assert_eq!(loaded.pixel, (3, 1));
    assert!(loaded.paths.bisection.divergence.is_none());
    // add, mul, sample_c, sample_c_lz, mov, ret: six path steps, the
    // quad's run holding one per instruction (every lane runs them all).
    assert_eq!(loaded.paths.bisection.compared, 6);
    assert_eq!(loaded.path_steps, [0, 1, 2, 3, 4, 5, 6]);
    key(&mut app, 'D');
    assert_eq!(
        app.event,
        "no divergence: vulkan agrees with the emulator over 6 step(s)"
    );
    // r0 after the add at pixel (3,1): centre (3.5, 1.5) on both sides.
    let buf = screen(&mut app);
    assert_eq!(
        pairs(&app, &buf, "r0")[..2],
        [pair("3.5", "3.5"), pair("1.5", "1.5")]
    );
    assert!(differing(&app, &buf).is_empty());
}

#[test]
fn the_jump_counts_the_lane_s_own_steps_past_other_lanes_branch() {
    // tests/cases/flow/if_else_parity.case: 0-2 declarations, 3 ftou,
    // 4 and, 5 if_nz, 6 mov o0, 7 mov o0.y, v0.x, 8 else, 9 mov o0,
    // 10 mov o0.z, v0.y, 11 endif, 12 ret. Pixel (0,0) is lane 0, even x:
    // it skips [6] and [7], which the quad runs for its odd lanes. The
    // fault reads v0.z at [10] (never set: the shader declares v0.xy),
    // where D3D reads v0.y = 0.5.
    let case = Case::load(&root().join("tests/cases/flow/if_else_parity.case")).expect("case");
    let shaders = case.shaders().expect("shaders");
    let inputs = Inputs::case(case.clone(), &shaders.pixel, "if_else_parity");
    let mut app = App::new(&shaders.pixel, inputs, (0, 0), None).expect("machine starts");
    let mut source = GpuCase::new(case, shaders);
    source.options.wrong_swizzle_at = Some(10);
    app.gpu.source = Some(source);
    key(&mut app, 'G');
    app.wait_for_gpu();
    let loaded = app.gpu_loaded().expect("loaded");
    // The quad runs [3] to [12] once each, ten steps; lane 0's path is
    // ftou, and, if_nz, [9], [10], ret.
    assert_eq!(loaded.path_steps, [0, 1, 2, 3, 3, 3, 3, 4, 5, 5, 6]);
    key(&mut app, 'D');
    // Path step 4 is [10]: the debugger stops after the quad's eighth
    // step, with endif next.
    assert_eq!(app.machine.position(), 8);
    assert_eq!(app.machine.last_index(), Some(10));
    assert_eq!(
        app.event,
        "divergence: o0.z emulator 0.5, vulkan 0.0, after [10] mov o0.z, v0.y"
    );
    let buf = screen(&mut app);
    assert_eq!(
        pairs(&app, &buf, "o0"),
        [
            pair("0.0", "0.0"),
            pair("0.0", "0.0"),
            pair("0.5", "0.0"),
            pair("1.0", "1.0")
        ]
    );
    assert_eq!(differing(&app, &buf), [("o0".to_string(), 'z')]);
}

// ---- the real binary in a real terminal -----------------------------------

#[test]
fn real_terminal_loads_gpu_values_and_jumps() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux::new("gpu");
    let script = format!(
        "'{bin}' step tests/cases/pcf/point_less.case --pixel 2,1; echo \"exit=$?\"; sleep 60"
    );
    tmux.start(&root(), &script);
    // pcf_2d's six declarations come first.
    tmux.wait_for("instr 6/12");
    tmux.cmd(&["send-keys", "-t", "dbg", "n", "n", "G"]);
    // A cold lavapipe compiles the capture's pipeline in seconds.
    let s = tmux.wait_for_within("values of pixel (2,1) loaded", Duration::from_secs(120));
    assert!(s.contains("emulator│vulkan"), "{s}");
    // After add and mul: r0.xy = ((2.5, 1.5) + 0) · 0.25 on both sides.
    assert!(s.contains("x:       0.625│       0.625"), "{s}");
    assert!(s.contains("y:       0.375│       0.375"), "{s}");
    assert!(s.contains("no divergence"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "D"]);
    tmux.wait_for("no divergence: vulkan agrees with the emulator over 6 step(s)");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
}

/// `W` loads the same pixel's values from WebGL2 (the es300 text users
/// ship, in headless Chromium): the faulted swizzle is found at the same
/// instruction, with the same hand-worked values as on Vulkan.
#[test]
fn webgl2_values_load_with_w_and_name_the_same_divergence() {
    let mut app = faulted();
    key(&mut app, 'W');
    let t = text(&screen(&mut app));
    assert!(t.contains("capturing pixel (2,1) on webgl2: "), "{t}");
    app.wait_for_gpu();
    assert!(
        app.event.contains(
            "webgl2 values of pixel (2,1) loaded: 0 step(s) compared, first divergence at [6]"
        ),
        "{}",
        app.event
    );
    key(&mut app, 'D');
    // r0.x: the emulator's v0.x + 0 = 2.5, the fault's v0.y + 0 = 1.5.
    assert_eq!(
        app.event,
        "divergence: r0.x emulator 2.5, webgl2 1.5, after [6] add r0.xy, v0.xyxx, cb0[0].zwzz"
    );
    let buf = screen(&mut app);
    assert!(text(&buf).contains("· emulator│webgl2 ·"), "{}", text(&buf));
    assert_eq!(pairs(&app, &buf, "r0")[0], pair("2.5", "1.5"));
    assert!(differing(&app, &buf).contains(&("r0".to_string(), 'x')));
}
