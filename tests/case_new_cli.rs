//! `dxbc-dbg case new` through the real binary: a generated case for
//! `shaders/shadow_pcf.dxbc` (a comparison sampler, a depth texture, a
//! constant buffer without RDEF) is written, is the same for the same
//! seed, and `trace --case` runs the shader with it on the emulator. A
//! missing shader is an error naming the file. `--texture` fills a slot
//! from a picture and is refused, naming the slot, where it cannot.

mod common;

use std::path::PathBuf;

use common::cli::{dxbc_dbg, stderr, stdout};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-case-new-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_generated_case_is_written_and_drives_trace() {
    let dir = temp_dir("trace");
    let case = dir.join("pcf.case");
    let case_s = case.to_str().expect("UTF-8 temp path");
    let out = dxbc_dbg(&[
        "case",
        "new",
        "shaders/shadow_pcf.dxbc",
        "-o",
        case_s,
        "--seed",
        "7",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&case).expect("the case was written");
    // The shader is named relative to the case; the comparison sampler's
    // texture holds depths; the render target has the default size.
    assert!(text.contains("[pixel shader file]\n"), "{text}");
    assert!(text.contains("shaders/shadow_pcf.dxbc\n"), "{text}");
    assert!(text.contains("format d32_float"), "{text}");
    assert!(text.contains("compare less_equal"), "{text}");
    assert!(text.contains("size 32 32"), "{text}");
    // The same seed, the same case (to standard output this time: only
    // the shader's path differs, relative to the current directory).
    let again = dxbc_dbg(&["case", "new", "shaders/shadow_pcf.dxbc", "--seed", "7"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let strip = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("shadow_pcf.dxbc"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&stdout(&again)), strip(&text));
    let trace = dxbc_dbg(&[
        "trace",
        "shaders/shadow_pcf.dxbc",
        "--case",
        case_s,
        "--pixel",
        "16,16",
    ]);
    assert!(trace.status.success(), "{}", stderr(&trace));
    assert!(stdout(&trace).contains("outputs:"), "{}", stdout(&trace));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_shader_is_named() {
    let out = dxbc_dbg(&["case", "new", "shaders/no_such_shader.dxbc"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("shaders/no_such_shader.dxbc"), "{err}");
    assert!(
        stdout(&out).is_empty(),
        "nothing is written: {}",
        stdout(&out)
    );
}

#[test]
fn a_texture_slot_the_shader_does_not_declare_is_refused() {
    let out = dxbc_dbg(&[
        "case",
        "new",
        "shaders/shadow_pcf.dxbc",
        "--texture",
        "t9=assets/ref_8x8.png",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("t9"), "{err}");
}

#[test]
fn a_picture_fills_the_slot_it_names() {
    let dir = temp_dir("texture");
    let case = dir.join("ld.case");
    let case_s = case.to_str().expect("UTF-8 temp path");
    let out = dxbc_dbg(&[
        "case",
        "new",
        "shaders/cases/ld_rows_float.asm",
        "--texture",
        "t1=assets/ref_8x8.png",
        "--size",
        "8",
        "6",
        "-o",
        case_s,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&case).expect("the case was written");
    // t1 is the picture at its size; the other slots keep the pattern.
    let t1 = text.split("[texture 1]").nth(1).expect("t1's section");
    let t1 = t1.split("\n[").next().unwrap_or(t1);
    assert!(
        t1.contains("format rgba8_unorm\nsize 8 8\nfill image "),
        "{t1}"
    );
    assert!(t1.contains("assets/ref_8x8.png"), "{t1}");
    assert!(
        text.contains("[texture 0]") && text.contains("fill pattern"),
        "{text}"
    );
    assert!(text.contains("size 8 6"), "{text}");
    let trace = dxbc_dbg(&["trace", "shaders/cases/ld_rows_float.asm", "--case", case_s]);
    assert!(trace.status.success(), "{}", stderr(&trace));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_picture_for_a_comparison_slot_is_refused() {
    let out = dxbc_dbg(&[
        "case",
        "new",
        "shaders/shadow_pcf.dxbc",
        "--texture",
        "t0=assets/ref_8x8.png",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("t0 is read with a comparison"), "{err}");
}

/// A pixel shader that copies a filtered texel: the translation is right,
/// so the generated case passes on every backend as written. It carries
/// the `[tolerance]` `diff --auto` derives for `sample` (8-bit filter
/// weights): without it lavapipe's weights put the image 3.6e-3 off the
/// emulator's and the case fails. Where no backend can draw (no adapter or
/// browser: exit 3 or 4) only the emulator's run is checked.
#[test]
fn a_generated_texture_copy_case_passes_unedited() {
    let dir = temp_dir("copy");
    let shader = dir.join("copy.asm");
    std::fs::write(
        &shader,
        "ps_4_0\ndcl_sampler s0, mode_default\n\
         dcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_input_ps linear v1.xy\ndcl_output o0.xyzw\n.semantic v1 TEXCOORD 0\n\
         sample o0.xyzw, v1.xyxx, t0.xyzw, s0\nret\n",
    )
    .expect("write");
    let case = dir.join("copy.case");
    let (shader_s, case_s) = (
        shader.to_str().expect("UTF-8 temp path"),
        case.to_str().expect("UTF-8 temp path"),
    );
    let out = dxbc_dbg(&["case", "new", shader_s, "-o", case_s]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&case).expect("written");
    assert!(
        text.contains("[tolerance]") && text.contains("abs 0.0078125"),
        "{text}"
    );
    let out = dxbc_dbg(&["diff", case_s, "--backend", "all"]);
    let out = match out.status.code() {
        Some(3 | 4) => {
            eprintln!("no GPU backend here: {}", stderr(&out));
            dxbc_dbg(&["diff", case_s, "--backend", "none"])
        }
        _ => out,
    };
    let summary = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{summary}{}", stderr(&out));
    assert!(summary.contains("1 passed, 0 failed"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}
