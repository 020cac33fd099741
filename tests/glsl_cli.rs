//! The `glsl` command end to end through the real binary: GLSL on standard
//! output or in a file, `--dialect`, `--map`, `--manifest`, and a refused
//! shader exiting 1 with a diagnostic that names the instruction index, its
//! byte offset and the reason.

mod common;

use std::path::{Path, PathBuf};

use common::cli::{dxbc_dbg, stderr, stdout};
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};

/// The project's vertex shader source (assembled by the command itself).
fn vertex_shader() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("shaders/control_flow_vs.asm")
        .to_string_lossy()
        .into_owned()
}

/// A scratch directory for this test binary's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-glsl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A pixel shader that writes a UAV: what ES 3.00 cannot express.
const UAV_SHADER: &str = "\
ps_5_0
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, l(1.000000,1.000000,1.000000,1.000000)
store_uav_typed u1.xyzw, l(0,0,0,0), r0.xyzw
mov o0.xyzw, r0.xyzw
ret
";

#[test]
fn glsl_prints_es300_by_default() {
    let out = dxbc_dbg(&["glsl", &vertex_shader()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("#version 300 es\n"), "{text}");
    assert!(text.contains("void main()"));
    assert!(!text.contains("source map"), "no map unless asked");
}

#[test]
fn glsl_dialect_vk450() {
    let out = dxbc_dbg(&["glsl", &vertex_shader(), "--dialect", "vk450"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("#version 450\n"));

    let bad = dxbc_dbg(&["glsl", &vertex_shader(), "--dialect", "gles2"]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("not a dialect"), "{}", stderr(&bad));
}

#[test]
fn glsl_map_prints_a_range_per_instruction() {
    let out = dxbc_dbg(&["glsl", &vertex_shader(), "--map"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (source, map) = text
        .split_once("// source map (instruction: lines)\n")
        .expect("a source map after the GLSL");
    let source_lines = source.lines().count() as u32;
    let bytes = asm::assemble(&std::fs::read_to_string(vertex_shader()).unwrap()).unwrap();
    let shader = Shader::parse(&bytes, ParseOptions::default()).unwrap();
    let ranges: Vec<(usize, u32, u32)> = map
        .lines()
        .map(|l| {
            let (i, r) = l.split_once(": ").expect("`index: first-last`");
            let (a, b) = r.split_once('-').expect("`first-last`");
            (i.parse().unwrap(), a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    assert_eq!(ranges.len(), shader.program.instructions.len());
    for (k, &(i, a, b)) in ranges.iter().enumerate() {
        assert_eq!(i, k);
        assert!(1 <= a && a <= b && b <= source_lines, "{i}: {a}-{b}");
        let first = source.lines().nth(a as usize - 1).unwrap();
        assert!(first.trim_start().starts_with("// "), "{i}: `{first}`");
    }
}

#[test]
fn glsl_writes_output_and_manifest_files() {
    let glsl = scratch("vs.glsl");
    let manifest = scratch("vs.json");
    let out = dxbc_dbg(&[
        "glsl",
        &vertex_shader(),
        "-o",
        glsl.to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "GLSL went to the file");
    let source = std::fs::read_to_string(&glsl).unwrap();
    assert!(source.starts_with("#version 300 es\n"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).expect("JSON");
    assert_eq!(json["stage"], "vertex");
    assert_eq!(json["dialect"], "es300");
    assert_eq!(json["constant_buffers"][0]["slot"], 2);
    assert!(json["inputs"].is_array() && json["outputs"].is_array());
}

#[test]
fn glsl_refuses_a_uav_with_index_offset_and_reason() {
    let path = scratch("uav.asm");
    std::fs::write(&path, UAV_SHADER).unwrap();
    let out = dxbc_dbg(&["glsl", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty(), "no GLSL for a refused shader");
    let err = stderr(&out);
    let shader = Shader::parse(&asm::assemble(UAV_SHADER).unwrap(), ParseOptions::default())
        .expect("parses");
    let (index, store) = shader
        .program
        .instructions
        .iter()
        .enumerate()
        .find(|(_, i)| i.name() == "store_uav_typed")
        .expect("store_uav_typed");
    let expected = format!("instruction {index} (offset {:#x})", store.offset);
    assert!(err.contains(&expected), "{expected} in {err}");
    assert!(err.contains("store_uav_typed u1.xyzw"), "{err}");
    assert!(err.contains("(uav)") && err.contains("UAV"), "{err}");
}

#[test]
fn glsl_refuses_corpus_uav_shaders() {
    let Some(root) = common::corpus() else { return };
    let mut seen = 0;
    for blob in common::manifest(&root).iter().filter(|b| b.is_shader()) {
        if blob.shader_type != "ps" && blob.shader_type != "vs" {
            continue;
        }
        let path = root.join(&blob.file);
        let bytes = std::fs::read(&path).unwrap();
        let Ok(shader) = Shader::parse(
            &bytes,
            ParseOptions {
                verify_checksum: false,
            },
        ) else {
            continue;
        };
        if !shader
            .program
            .instructions
            .iter()
            .any(|i| i.name().contains("uav"))
        {
            continue;
        }
        let out = dxbc_dbg(&["glsl", "--no-verify", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", blob.file);
        let err = stderr(&out);
        assert!(
            err.contains("instruction ") && err.contains("(offset 0x") && err.contains("(uav)"),
            "{}: {err}",
            blob.file
        );
        seen += 1;
        if seen == 3 {
            break;
        }
    }
    assert!(seen > 0, "the corpus has UAV pixel shaders");
}

fn rule_shader(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("shaders/glsl")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn glsl_link_gives_vertex_outputs_the_pixel_shaders_qualifiers() {
    let vs = rule_shader("linked_pair_vs.asm");
    let ps = rule_shader("linked_pair_ps.asm");
    let alone = dxbc_dbg(&["glsl", &vs]);
    assert!(alone.status.success(), "{}", stderr(&alone));
    // The pixel shader declares TEXCOORD1 `constant`: flat only when linked.
    assert!(stdout(&alone).contains("\nout vec4 vs_TEXCOORD1;"));
    let linked = dxbc_dbg(&["glsl", &vs, "--link", &ps]);
    assert!(linked.status.success(), "{}", stderr(&linked));
    let text = stdout(&linked);
    assert!(text.contains("\nflat out vec4 vs_TEXCOORD1;"), "{text}");
    assert!(
        text.contains("vs_TEXCOORD3 = o4.xy * gl_Position.w;"),
        "{text}"
    );
    let vk = dxbc_dbg(&["glsl", &vs, "--link", &ps, "--dialect", "vk450"]);
    let text = stdout(&vk);
    assert!(
        text.contains("layout(location = 2) noperspective out vec2 vs_TEXCOORD3;"),
        "{text}"
    );
}

#[test]
fn glsl_link_refuses_the_wrong_stages_naming_the_file() {
    let vs = rule_shader("linked_pair_vs.asm");
    let ps = rule_shader("linked_pair_ps.asm");
    // --link of a vertex shader: the option's file is named.
    let out = dxbc_dbg(&["glsl", &vs, "--link", &vs]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{vs}: --link takes the pixel shader")) && err.contains("vs_5_0"),
        "{err}"
    );
    // A pixel shader linked to a pixel shader.
    let out = dxbc_dbg(&["glsl", &ps, "--link", &ps]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{ps}: --link takes the vertex shader feeding"))
            && err.contains("ps_5_0"),
        "{err}"
    );
    assert!(stdout(&out).is_empty(), "nothing translated");
    // A missing pixel shader file is named too.
    let missing = scratch("missing_ps.dxbc");
    let out = dxbc_dbg(&["glsl", &vs, "--link", &missing.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing_ps.dxbc"), "{}", stderr(&out));
}

const DOUBLE_SHADER: &str = "ps_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps
dcl_output o0.xyzw
dcl_temps 1
itod r0.xyzw, l(1, 3, 0, 0)
ddiv r0.xy, r0.xyxy, r0.zwzw
dtof o0.x, r0.xyxy
ret
";

/// es300 refuses each double instruction (and the flag) by name; vk450
/// lowers them through the word/double helpers.
#[test]
fn glsl_doubles_are_refused_in_es300_and_lowered_in_vk450() {
    let path = scratch("double.asm");
    std::fs::write(&path, DOUBLE_SHADER).unwrap();
    let es = dxbc_dbg(&["glsl", path.to_str().unwrap()]);
    assert_eq!(es.status.code(), Some(1));
    let err = stderr(&es);
    for inst in ["itod r0.xyzw", "ddiv r0.xy", "dtof o0.x", "dcl_globalFlags"] {
        assert!(err.contains(inst), "{inst} refused in {err}");
    }
    assert!(err.contains("(double)"), "{err}");
    let vk = dxbc_dbg(&["glsl", path.to_str().unwrap(), "--dialect", "vk450"]);
    assert_eq!(vk.status.code(), Some(0), "{}", stderr(&vk));
    let text = stdout(&vk);
    assert!(
        text.contains("double dx_u2d(uvec2 w)") && text.contains("uvec2 dx_d2u(double d)"),
        "{text}"
    );
    assert!(
        text.contains("float(dx_u2d("),
        "dtof lowers to a conversion: {text}"
    );
}
