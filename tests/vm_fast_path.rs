//! The emulator's fast paths (pre-built ALU and control-flow dispatch) must
//! give exactly what the general path gives: every shader here runs on the
//! default quad with checker textures three ways — fast without the undo
//! log (rendering), fast with it (the debugger), and general — and the
//! register files, discards, step counts and errors must match bit for bit.
//! Shaders: every `.asm` under `shaders/` and, when present, every corpus
//! vertex and pixel shader.

mod common;

use std::path::Path;
use std::rc::Rc;

use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::vm::defaults::{DefaultTextures, PixelChoice, default_resources, default_setup};
use dxbc_dbg::vm::{Machine, Prepared, VmError};

#[derive(Debug, PartialEq)]
struct Outcome {
    result: Result<usize, VmError>,
    state: dxbc_dbg::vm::State,
    discarded: [bool; 4],
}

fn run(shader: &Shader, prepared: &Rc<Prepared>, fast: bool, recording: bool) -> Outcome {
    // Two quads: the top-left one and one further in, so inputs differ.
    let choice = PixelChoice {
        x: 6,
        y: 2,
        width: 16,
        height: 16,
    };
    let setup = default_setup(shader, choice);
    let resources = default_resources(&shader.program, DefaultTextures::Checker);
    let mut m = Machine::prepared(Rc::clone(prepared), setup, resources);
    m.set_fast_paths(fast);
    m.set_recording(recording);
    let result = m.run_to_end();
    Outcome {
        result,
        discarded: m.discarded(),
        state: m.state,
    }
}

/// The project's own shaders, assembled, with their paths.
fn asm_shaders(dir: &Path) -> Vec<(String, Shader)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    common::files_under(dir, "asm")
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("read");
            let bytes = asm::assemble(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let shader = Shader::parse(&bytes, ParseOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path.strip_prefix(root).unwrap_or(&path);
            (name.display().to_string(), shader)
        })
        .collect()
}

#[test]
fn fast_paths_match_the_general_path() {
    let mut shaders = asm_shaders(&Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders"));
    let shipped = shaders.len();
    if let Some(root) = common::corpus() {
        shaders.extend(common::vertex_and_pixel_shaders(&root));
    }
    let (mut compared, mut steps) = (0, 0);
    for (name, shader) in &shaders {
        let Ok(prepared) = Prepared::new(Rc::new(shader.program.clone())) else {
            continue;
        };
        let general = run(shader, &prepared, false, true);
        for (fast, recording) in [(true, false), (true, true)] {
            let other = run(shader, &prepared, fast, recording);
            assert_eq!(
                other, general,
                "{name}: fast={fast} recording={recording} differs from the general path"
            );
        }
        if let Ok(n) = general.result {
            steps += n;
        }
        compared += 1;
    }
    println!(
        "fast paths: {compared} shaders ({shipped} shipped) agree with the general path over {steps} steps"
    );
    assert!(compared >= shipped && shipped > 50);
}
