//! `dxbc-dbg trace` through the real binary: on a shader that never ends,
//! output stops at the line budget (`--max-lines`, default 100,000) with a
//! last line saying so, JSON stays one valid document that says it was
//! truncated, and the instruction budget's error still reaches stderr; on
//! `shaders/trace/nan_inf.asm`, values print by their types (NaN and -inf
//! as floats, integers and masks as such) in text and JSON.
//!
//! Every count below follows from `shaders/trace/endless_loop.asm`: the
//! `mov` step prints 5 lines (its instruction and o0.x..w, each the same in
//! all four lanes, so grouped), `loop` 1 line, then each iteration 3 lines
//! (`iadd` and its r0.x, then `endloop`). The run stops at the emulator's
//! instruction budget of 1,000,000 steps, at the `iadd` (instruction 4).

mod common;

use std::process::Output;

use common::cli::{dxbc_dbg, stderr, stdout};

fn trace(args: &[&str]) -> Output {
    let mut all = vec!["trace", "shaders/trace/endless_loop.asm"];
    all.extend_from_slice(args);
    dxbc_dbg(&all)
}

const BUDGET_ERROR: &str = "shaders/trace/endless_loop.asm: instruction budget of 1000000 exceeded at instruction 4: an endless loop?";

/// The end every truncated text trace shares: the error, the outputs the
/// `mov` wrote before the loop, and the note.
fn assert_text_end(text: &str, note: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    assert!(n >= 7, "{text}");
    let lane = "o0 = (0.250000, 0.500000, 0.750000, 1.000000)";
    assert_eq!(
        lines[n - 7..],
        [
            "stopped: instruction budget of 1000000 exceeded at instruction 4: an endless loop?",
            "outputs:",
            &format!("  lane 0: {lane}"),
            &format!("  lane 1: {lane}"),
            &format!("  lane 2: {lane}"),
            &format!("  lane 3: {lane}"),
            note,
        ]
    );
}

#[test]
fn a_small_line_budget_is_honoured_and_the_last_line_says_why() {
    let out = trace(&["--max-lines", "100"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(BUDGET_ERROR), "{}", stderr(&out));
    let text = stdout(&out);
    // 5 + 1 + 3k <= 100 gives k = 31 iterations (99 lines); the next `iadd`
    // (2 lines) would pass 100, so printing stops there: 2 + 62 steps.
    let steps: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("stopped:"))
        .collect();
    assert_eq!(steps.len(), 99, "{text}");
    assert_eq!(steps[98], "[   5] endloop");
    assert_eq!(steps[97], "         r0.x = 31 (0x0000001f)  [all lanes]");
    assert_text_end(
        &text,
        "output stopped at the line budget of 100 after 64 of 1000000 steps; \
         rerun with --max-lines N to print more",
    );
}

#[test]
fn the_default_budget_is_100000_lines() {
    let out = trace(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(BUDGET_ERROR), "{}", stderr(&out));
    let text = stdout(&out);
    // 6 + 3k <= 100000 gives k = 33331 (99999 lines), 2 + 66662 steps;
    // then the 7 closing lines.
    assert_eq!(text.lines().count(), 99_999 + 7);
    assert_text_end(
        &text,
        "output stopped at the line budget of 100000 after 66664 of 1000000 steps; \
         rerun with --max-lines N to print more",
    );
}

#[test]
fn json_stops_at_the_budget_and_stays_valid() {
    let out = trace(&["--json", "--max-lines", "50"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(BUDGET_ERROR), "{}", stderr(&out));
    let text = stdout(&out);
    let doc: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    // One record a line: `mov`, `loop`, then 24 iterations of two steps.
    let steps = doc["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 50);
    assert_eq!(steps[0]["index"], 2);
    assert_eq!(steps[0]["changes"].as_array().map(Vec::len), Some(16));
    assert_eq!(steps[1]["index"], 3);
    assert_eq!(steps[48]["index"], 4);
    assert_eq!(steps[48]["changes"][0]["new"], 24);
    assert_eq!(steps[49]["index"], 5);
    assert_eq!(doc["truncated"], true);
    assert_eq!(
        doc["truncation"],
        "output stopped at the line budget of 50 after 50 of 1000000 steps; \
         rerun with --max-lines N to print more"
    );
    assert_eq!(doc["steps_run"], 1_000_000);
    assert_eq!(
        doc["error"],
        "instruction budget of 1000000 exceeded at instruction 4: an endless loop?"
    );
    // 0.25 is 0x3e800000 = 1048576000, the bits o0.x holds.
    assert_eq!(doc["outputs"][3]["registers"][0][0], 1_048_576_000u32);
    // `{"steps":[`, 50 records, and the line closing the document.
    assert_eq!(text.lines().count(), 52);
}

#[test]
fn json_of_a_run_that_ends_is_not_truncated() {
    let out = dxbc_dbg(&["trace", "shaders/debugger/small.asm", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    // Eight instructions after the declarations, `ret` included.
    assert_eq!(doc["steps"].as_array().map(Vec::len), Some(8));
    assert_eq!(doc["steps_run"], 8);
    assert_eq!(doc["truncated"], false);
    assert_eq!(doc["truncation"], serde_json::Value::Null);
    assert_eq!(doc["error"], serde_json::Value::Null);
}

#[test]
fn a_zero_line_budget_is_refused() {
    let out = trace(&["--max-lines", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--max-lines"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

/// `shaders/trace/nan_inf.asm`: each component is printed by the type its
/// writer gives it, so -inf and NaN read as floats (not as the integers
/// their bits would be: 0xff800000 is -8388608) and integers and masks as
/// such. Values by the D3D11 functional spec, worked in the shader's
/// comments.
#[test]
fn non_finite_floats_print_as_floats_and_integers_as_integers() {
    let out = dxbc_dbg(&["trace", "shaders/trace/nan_inf.asm"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = |reg: &str| -> String {
        text.lines()
            .map(str::trim)
            .find(|l| l.starts_with(&format!("{reg} = ")))
            .unwrap_or_else(|| panic!("no {reg} in:\n{text}"))
            .to_string()
    };
    // log(+0) = -inf.
    assert_eq!(line("r0.x"), "r0.x = -inf (0xff800000)  [all lanes]");
    // sqrt(-1) is a NaN: the spec does not fix its sign or payload, so
    // the view is either NaN word and the bits any NaN.
    let nan = line("r0.y");
    let (view, rest) = nan["r0.y = ".len()..]
        .split_once(" (0x")
        .expect("view and bits");
    assert!(view == "nan" || view == "-nan", "{nan}");
    let bits = u32::from_str_radix(&rest[..8], 16).expect("hex bits");
    assert!(f32::from_bits(bits).is_nan(), "{nan}");
    // -8 + 3 = -5, an integer; -5 == -5, a mask.
    assert_eq!(line("r0.z"), "r0.z = -5 (0xfffffffb)  [all lanes]");
    assert_eq!(line("r0.w"), "r0.w = true (0xffffffff)  [all lanes]");
    // A move carries the type of what it moved: r1.y is r0.x.
    assert_eq!(line("r1.y"), "r1.y = -inf (0xff800000)  [all lanes]");
    let lane0 = text
        .lines()
        .find(|l| l.trim_start().starts_with("lane 0"))
        .expect("lane 0's outputs");
    assert_eq!(lane0, format!("  lane 0: o0 = (-inf, {view}, -5, true)"));
}

#[test]
fn json_gives_each_change_and_output_its_type() {
    let out = dxbc_dbg(&["trace", "shaders/trace/nan_inf.asm", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let steps = doc["steps"].as_array().expect("steps");
    // Steps: [2] log, [3] sqrt, [4] iadd, [5] ieq, [6] mov r1, [7] mov o0.
    let first_type = |step: usize| steps[step]["changes"][0]["type"].clone();
    assert_eq!(first_type(0), "float");
    assert_eq!(first_type(1), "float");
    assert_eq!(first_type(2), "int");
    assert_eq!(first_type(3), "mask");
    assert_eq!(steps[0]["changes"][0]["new"], 0xff80_0000u32);
    assert_eq!(
        doc["outputs"][0]["types"][0],
        serde_json::json!(["float", "float", "int", "mask"])
    );
}
