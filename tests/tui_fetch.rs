//! The step debugger's texture-read section (`e`): after a sample, a
//! comparison sample and a comparison gather, drawn into a test backend.
//! Every tap, weight, comparison result and result is worked by hand from
//! the D3D11 functional spec (and matches the case files' own comments):
//! the texel-space position is u·size − 0.5 (snapped to 8 fractional bits,
//! exact here), i0 = floor of it, f its fraction; bilinear weights are
//! (1 − fx)(1 − fy), fx(1 − fy), (1 − fx)fy, fx·fy for the texels (i0,j0),
//! (i1,j0), (i0,j1), (i1,j1); the LOD is log2 of the longer gradient in
//! texels, ≤ 0 meaning magnification, held to mip 0 on a one-level texture.

mod common;

use common::screen::{draw, root, text};
use dxbc_dbg::tui::app::Action;
use dxbc_dbg::tui::{App, Inputs};

/// The app on a case (and its own pixel shader) at `pixel`, stepped until
/// the first instruction whose mnemonic starts with `op` has run.
fn after(case_rel: &str, pixel: (u32, u32), op: &str) -> App {
    let case = dxbc_dbg::harness::case::Case::load(&root().join(case_rel)).expect("case loads");
    let s = case.shaders().expect("shaders assemble").pixel;
    case.check_bindings(&[&s]).expect("bindings match");
    let mut app = App::new(&s, Inputs::case(case, &s, case_rel), pixel, None).expect("starts");
    for _ in 0..20 {
        app.apply(Action::Step);
        let last = app.machine.last_index().expect("a step ran");
        if app.program.instructions[last].name().starts_with(op) {
            return app;
        }
    }
    panic!("no {op} ran");
}

/// The screen's rows, trimmed, for finding the section's lines.
fn rows(app: &mut App) -> Vec<String> {
    let buf = draw(app, 160, 50);
    text(&buf)
        .lines()
        .map(|l| l.trim_matches(|c| c == ' ' || c == '│').trim().to_string())
        .collect()
}

/// The section's rows as drawn: from its title to its result.
fn section(rows: &[String]) -> String {
    let start = (rows.iter().position(|l| l.contains("texture read [")))
        .unwrap_or_else(|| panic!("no texture-read section:\n{}", rows.join("\n")));
    let end = start
        + (rows[start..].iter().position(|l| l.starts_with("result (")))
            .expect("the section ends with the result");
    rows[start..=end].join("\n")
}

fn has(rows: &[String], want: &str) {
    assert!(
        rows.iter().any(|r| r == want),
        "no row `{want}` on screen:\n{}",
        rows.join("\n")
    );
}

#[test]
fn bilinear_sample_shows_four_weighted_texels() {
    // tests/cases/sample/linear_weights.case: 2x2 rgba16_float, red
    // (0,0)=1 (1,0)=2 (0,1)=4 (1,1)=8, linear clamp; u = (x + 0.5)/4.
    // Pixel (1,1) is lane 3 of the quad at (0,0): uv (0.375, 0.375); the
    // quad's neighbours are a quarter away: ddx (0.25, 0), ddy (0, 0.25),
    // LOD log2(0.25·2) = −1 → held to 0, magnification, mip 0.
    // 0.375·2 − 0.5 = 0.25: i0 = j0 = 0, fx = fy = 0.25, weights 0.5625,
    // 0.1875, 0.1875, 0.0625; result 1·0.5625 + 2·0.1875 + 4·0.1875 +
    // 8·0.0625 = 2.1875 (alpha 1 everywhere).
    let mut app = after("tests/cases/sample/linear_weights.case", (1, 1), "sample");
    let r = rows(&mut app);
    assert!(
        r.iter()
            .any(|l| l.contains("texture read [") && l.contains("lane 3"))
    );
    has(&r, "t0 (2D 2x2 R16G16B16A16_FLOAT) · s0 linear clamp");
    has(
        &r,
        "uv (0.375, 0.375) · ddx (0.25, 0.0) ddy (0.0, 0.25) · LOD -1.0 → 0.0 (mag, mip 0)",
    );
    has(&r, "texel (0,0) mip 0 = (1.0, 0.0, 0.0, 1.0) × 0.5625");
    has(&r, "texel (1,0) mip 0 = (2.0, 0.0, 0.0, 1.0) × 0.1875");
    has(&r, "texel (0,1) mip 0 = (4.0, 0.0, 0.0, 1.0) × 0.1875");
    has(&r, "texel (1,1) mip 0 = (8.0, 0.0, 0.0, 1.0) × 0.0625");
    has(&r, "result (2.1875, 0.0, 0.0, 1.0)");
    insta::assert_snapshot!("fetch_sample", section(&r));
    // `e` hides the section.
    app.apply(Action::ToggleFetch);
    let r = rows(&mut app);
    assert!(!r.iter().any(|l| l.starts_with("texel (")));
}

#[test]
fn comparison_sample_shows_each_taps_result() {
    // tests/cases/pcf/linear_between_texels.case: 4x4 d32_float, depth of
    // (i, j) = (4j + i + 1)/16; linear clamp, compare greater, reference
    // 0.40625. u = (x + 0.75)/4, v = (y + 0.25)/4: pixel (1,2) (lane 1 of
    // the quad at (0,2)) has uv (0.4375, 0.5625); ddx (0.25, 0), ddy
    // (0, 0.25): LOD log2(0.25·4) = 0, magnification, mip 0.
    // 0.4375·4 − 0.5 = 1.25 → i0 = 1, fx = 0.25; 0.5625·4 − 0.5 = 1.75 →
    // j0 = 1, fy = 0.75. Weights: (1,1) 0.75·0.25 = 0.1875, (2,1) 0.0625,
    // (1,2) 0.5625, (2,2) 0.1875. Depths 6/16 = 0.375, 7/16 = 0.4375,
    // 10/16 = 0.625, 11/16 = 0.6875: only 0.40625 > 0.375 passes, so the
    // result is 0.1875 (t0.xxxx replicates it).
    let mut app = after(
        "tests/cases/pcf/linear_between_texels.case",
        (1, 2),
        "sample_c",
    );
    let r = rows(&mut app);
    has(&r, "t0 (2D 4x4 D32_FLOAT) · s0 linear clamp");
    has(
        &r,
        "uv (0.4375, 0.5625) · ddx (0.25, 0.0) ddy (0.0, 0.25) · LOD 0.0 → 0.0 (mag, mip 0) · ref 0.40625 Greater",
    );
    has(&r, "texel (1,1) mip 0 = 0.375 → pass × 0.1875");
    has(&r, "texel (2,1) mip 0 = 0.4375 → fail × 0.0625");
    has(&r, "texel (1,2) mip 0 = 0.625 → fail × 0.5625");
    has(&r, "texel (2,2) mip 0 = 0.6875 → fail × 0.1875");
    has(&r, "result (0.1875, 0.1875, 0.1875, 0.1875)");
    insta::assert_snapshot!("fetch_sample_c", section(&r));
}

#[test]
fn comparison_gather_shows_the_four_taps() {
    // tests/cases/gather4/c_less.case: the same depths, point clamp,
    // compare less, reference 0.5. Pixel (1,1): u = v = 1.5/4 = 0.375,
    // 0.375·4 − 0.5 = 1.0 → i0 = j0 = 1. Taps in result order x = (i0,j1)
    // = (1,2) 10/16, y = (i1,j1) = (2,2) 11/16, z = (i1,j0) = (2,1) 7/16,
    // w = (i0,j0) = (1,1) 6/16; 0.5 < texel passes for x and y only.
    let mut app = after("tests/cases/gather4/c_less.case", (1, 1), "gather4_c");
    let r = rows(&mut app);
    has(&r, "t0 (2D 4x4 D32_FLOAT) · s0 point clamp");
    has(&r, "uv (0.375, 0.375) · ref 0.5 Less · channel r");
    has(&r, "x: texel (1,2) mip 0 = 0.625 → pass");
    has(&r, "y: texel (2,2) mip 0 = 0.6875 → pass");
    has(&r, "z: texel (2,1) mip 0 = 0.4375 → fail");
    has(&r, "w: texel (1,1) mip 0 = 0.375 → fail");
    has(&r, "result (1.0, 1.0, 0.0, 0.0)");
    insta::assert_snapshot!("fetch_gather4_c", section(&r));
}
