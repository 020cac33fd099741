//! `trace` (and `step`, which shares the same loading) take a case file
//! as the shader: its own pixel shader, inline or a file beside it, with
//! its inputs, a vertex shader run first when it has one; so the command a
//! report prints for a failing case works for every case. A pixel outside
//! the target is refused, as `step` refuses it.

mod common;

use common::cli::{dxbc_dbg, stderr, stdout};

/// The emulator's `o0` of `lane` from a text trace's outputs.
fn lane_output(text: &str, lane: usize) -> String {
    text.lines()
        .find(|l| l.trim_start().starts_with(&format!("lane {lane}")))
        .unwrap_or_else(|| panic!("no lane {lane} in:\n{text}"))
        .to_string()
}

#[test]
fn an_inline_shader_case_traces_alone() {
    // fill_rule_diagonal.case: pixel (3,0) lies on the diagonal, which
    // belongs to TR-BR-BL, whose first corner's constant is 0.5; the quad
    // runs for that triangle, so every lane sees 0.5.
    let out = dxbc_dbg(&[
        "trace",
        "tests/cases/io/fill_rule_diagonal.case",
        "--pixel",
        "3,0",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("o0.x = 0.500000 (0x3f000000)  [all lanes]"),
        "{text}"
    );
    assert!(lane_output(&text, 1).contains("o0 = (0.500000, 0.000000, 0.000000, 1.000000)"));
}

#[test]
fn a_case_with_a_vertex_shader_feeds_the_pixel_shader_its_outputs() {
    // linked_interpolation.case works (1,1) by hand: (c, p, n) =
    // (0.25, 29/17, 0.875), the vertex shader's outputs interpolated. Its
    // [quad] holds the vertex shader's inputs, which the pixel shader must
    // not see raw. Pixel (1,1) is lane 3 of quad (0,0).
    let out = dxbc_dbg(&[
        "trace",
        "tests/cases/io/linked_interpolation.case",
        "--pixel",
        "1,1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lane = lane_output(&stdout(&out), 3);
    let values: Vec<f64> = lane
        .split(['(', ')'])
        .nth(1)
        .expect("a tuple")
        .split(", ")
        .map(|v| v.parse().expect("a float"))
        .collect();
    let want = [0.25, 29.0 / 17.0, 0.875, 1.0];
    for (got, want) in values.iter().zip(want) {
        assert!((got - want).abs() < 1e-5, "{lane}");
    }
}

#[test]
fn a_pixel_outside_the_target_is_refused() {
    let out = dxbc_dbg(&[
        "trace",
        "tests/cases/io/fill_rule_diagonal.case",
        "--pixel",
        "1000000,5",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("pixel (1000000,5) is outside the 4x4 target"),
        "{}",
        stderr(&out)
    );
    // Without a case, the default 64x64 target bounds it alike.
    let out = dxbc_dbg(&["trace", "shaders/shadow_pcf.dxbc", "--pixel", "64,0"]);
    assert!(
        stderr(&out).contains("outside the 64x64 target"),
        "{}",
        stderr(&out)
    );
}
