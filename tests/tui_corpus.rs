//! The step debugger on a real shader from the corpus (`../shared/corpus`;
//! when it is absent the tests say so and pass): the FXAA pixel shader
//! (`3dmigoto/3dmigoto__BinaryDecompiler_ps4_fxaa.dxbc`), which has RDEF
//! names (`cbFxaa` with `float4 rcpFrame` at cb1, `inputTexture` at t0,
//! `anisotropicSampler` at s3), eight temps, and starts with five
//! `sample_l_aoffimmi` fetches. Run as a user runs it, in tmux.
//!
//! The shader's inputs are the defaults `step` gives a blob (docs/debugger.md,
//! "Inputs"): a 64x64 target, TEXCOORD0 the pixel centre over the target
//! (u = (x + 0.5) / 64), t0 an 8x8 R8G8B8A8_UNORM checkerboard of single
//! texels, black at (0,0) and white at (1,0), and on every sampler D3D's
//! default state (linear filtering, clamp addressing).

mod common;

use common::screen::root;
use common::tmux::Tmux;

const FXAA: &str = "../shared/corpus/3dmigoto/3dmigoto__BinaryDecompiler_ps4_fxaa.dxbc";

fn corpus() -> bool {
    let there = root().join(FXAA).is_file();
    if !there {
        println!("no corpus at ../shared/corpus: nothing to run");
    }
    there
}

fn start(tmux: &Tmux, width: u16, height: u16) {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let script = format!("'{bin}' step {FXAA} --pixel 5,3; echo \"exit=$?\"; sleep 60");
    tmux.start_sized(&root(), &script, width, height);
    // The seven declarations come first.
    tmux.wait_for("instr 7/167");
}

fn keys(tmux: &Tmux, keys: &[&str]) {
    for k in keys {
        tmux.cmd(&["send-keys", "-t", "dbg", k]);
    }
}

#[test]
fn a_fetch_shows_its_names_texels_and_weights_and_cbuffer_rows_their_variables() {
    if !corpus() {
        return;
    }
    let tmux = Tmux::new("corpus-fetch");
    start(&tmux, 160, 50);
    keys(&tmux, &["n"]);
    let s = tmux.wait_for("texture read [7] sample_l");
    // The resource and sampler by their RDEF names.
    assert!(
        s.contains(
            "t0 \"inputTexture\" (2D 8x8 R8G8B8A8_UNORM) · s3 \"anisotropicSampler\" linear clamp"
        ),
        "{s}"
    );
    // Pixel (5,3) is lane 3 of the quad at (4,2). uv = (5.5/64, 3.5/64)
    // = (0.0859375, 0.0546875); in texels u·8 - 0.5 = 0.1875 (texel 0,
    // weight 0.8125 / 0.1875 to texel 1) and v·8 - 0.5 = -0.0625, i.e.
    // row -1 + 0.9375 (weights 0.0625 / 0.9375), the offset (0,-1) moving
    // both rows up one. Clamp reads row 0 for rows -2 and -1, so the four
    // taps are (0,0) 0.8125·0.0625, (1,0) 0.1875·0.0625, (0,0)
    // 0.8125·0.9375, (1,0) 0.1875·0.9375; only (1,0) is white, so the
    // result is 0.01171875 + 0.17578125 = 0.1875.
    assert!(
        s.contains("uv (0.0859375, 0.0546875) · offset (0, -1, 0)"),
        "{s}"
    );
    for tap in [
        "texel (0,0) mip 0 = (0.0, 0.0, 0.0, 1.0) × 0.05078125",
        "texel (1,0) mip 0 = (1.0, 1.0, 1.0, 1.0) × 0.01171875",
        "texel (0,0) mip 0 = (0.0, 0.0, 0.0, 1.0) × 0.76171875",
        "texel (1,0) mip 0 = (1.0, 1.0, 1.0, 1.0) × 0.17578125",
        "result (0.1875, 0.1875, 0.1875, 1.0)",
    ] {
        assert!(s.contains(tap), "{tap}\n{s}");
    }
    // The detail line: the next fetch in full, its operands named.
    assert!(
        s.contains("▶ [   8] sample_l_aoffimmi_indexable(-1,0,0)(texture2d)"),
        "{s}"
    );
    assert!(s.contains("· v1.xyxx = TEXCOORD0"), "{s}");
    assert!(s.contains("inputTexture  · s3 = anisotropicSampler"), "{s}");
    // `e` hides the section, `x` shows the constant buffer by its RDEF
    // name and its row by variable.
    keys(&tmux, &["e", "x"]);
    let s = tmux.wait_for("constant buffer cb1 cbFxaa");
    assert!(s.contains("rcpFrame.x:"), "{s}");
    assert!(s.contains("rcpFrame.w:"), "{s}");
    keys(&tmux, &["q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
}

#[test]
fn a_100x30_terminal_reaches_the_inputs_and_outputs_with_keys() {
    if !corpus() {
        return;
    }
    let tmux = Tmux::new("corpus-scroll");
    start(&tmux, 100, 30);
    // The eight temps fill the register pane: the inputs are below it.
    let s = tmux.screen();
    assert!(s.contains("r0 "), "{s}");
    assert!(!s.contains("v1 TEXCOORD0"), "{s}");
    assert!(!s.contains("o0 SV_TARGET"), "{s}");
    // `]` scrolls the focused pane (the register pane, at start) a page.
    keys(&tmux, &["]"]);
    let s = tmux.wait_for("inputs");
    assert!(s.contains("v1 TEXCOORD0"), "{s}");
    assert!(s.contains("o0 SV_TARGET"), "{s}");
    // Home scrolls back to the temps. The DXBC pane shows `dcl_temps`
    // all along, so the wait is for the register pane's redraw: the
    // outputs gone and r0 back.
    keys(&tmux, &["Home"]);
    let s = tmux.wait_until("the register pane back at the temps", |s| {
        !s.contains("o0 SV_TARGET") && s.contains("r0 ")
    });
    assert!(s.contains("temps"), "{s}");
    keys(&tmux, &["q"]);
    tmux.wait_for("exit=0");
}
