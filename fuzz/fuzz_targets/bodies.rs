//! What each fuzz target does with one input, in plain Rust with no
//! libFuzzer in sight: each target in this folder is a one-line wrapper
//! around a function here, and `tests/fuzz_bodies.rs` includes this same
//! file to replay every function over seeds and their mutations in the
//! normal test suite (the fuzz crate itself needs a nightly toolchain and
//! is not built there).
//!
//! The contract of every body: whatever the bytes, it returns. A panic,
//! an abort, an allocation out of proportion to the input or a run that
//! does not end is a bug in the library, never in the input.

// Each fuzz target uses one body; the test uses them all.
#![allow(dead_code)]

use std::path::Path;

use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm, encode, info, listing};
use dxbc_dbg::glsl;
use dxbc_dbg::harness::case::{Case, ShaderSource};
use dxbc_dbg::vm;

/// Instructions one input may execute. The trace command allows
/// [`vm::DEFAULT_BUDGET`] (a million); a tenth of that reaches the same
/// budget error on an endless loop while keeping one input to a few
/// milliseconds, so the fuzzer spends its time on new inputs.
pub const VM_BUDGET: usize = 100_000;

/// Step lines printed per run: enough to format every step of a straight
/// program, few enough that a loop does not spend its time printing.
const TRACE_LINES: usize = 2_000;

/// How far one input got, for the replaying test to count (the fuzz
/// targets ignore it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reached {
    /// The first stage (reader, case parser, assembler) refused it.
    Refused,
    /// Read, then refused or stopped by a later stage (a translation
    /// refused in every dialect, a machine refusing the program, a run
    /// hitting its budget, a case naming a shader file).
    Read,
    /// Through every stage.
    Done,
}

/// How the commands read a container given `--no-verify`.
fn parse_unverified(data: &[u8]) -> Option<Shader> {
    let opts = ParseOptions {
        verify_checksum: false,
    };
    let mut shader = Shader::parse(data, opts).ok()?;
    shader.check_checksum(data);
    Some(shader)
}

/// The whole reader: container, every chunk parser, the decoder, and the
/// printers (`info`, `disasm`) and the encoder on whatever parses.
pub fn reader(data: &[u8]) -> Reached {
    let Some(shader) = parse_unverified(data) else {
        return Reached::Refused;
    };
    let _ = listing::listing(&shader);
    let _ = info::report("fuzz", &shader);
    let _ = encode::encode_program(&shader.program);
    Reached::Done
}

/// The assembler on text; whatever assembles must read back.
pub fn assembler(data: &[u8]) -> Reached {
    let Ok(text) = std::str::from_utf8(data) else {
        return Reached::Refused;
    };
    match asm::assemble(text) {
        Ok(bytes) => {
            let parsed = Shader::parse(&bytes, ParseOptions::default());
            assert!(parsed.is_ok(), "assembled output must parse: {parsed:?}");
            Reached::Done
        }
        Err(e) => {
            let _ = e.to_string();
            Reached::Refused
        }
    }
}

/// `glsl` on a whole container (names from RDEF and the signatures
/// included, not just the program): both dialects, then what the command
/// prints besides the source (the source map and the manifest JSON), or
/// the refusal's message.
pub fn container_glsl(data: &[u8]) -> Reached {
    let Some(shader) = parse_unverified(data) else {
        return Reached::Refused;
    };
    let mut reached = Reached::Read;
    let mut runs = vec![
        glsl::Options::new(glsl::Dialect::Es300),
        glsl::Options::new(glsl::Dialect::Vk450),
    ];
    // `--link` reads a pixel shader's input signature; a container's own
    // input signature stands in for one here, so its names reach the
    // linked path as well.
    if shader.program.kind == ProgramType::Vertex {
        let mut linked = glsl::Options::new(glsl::Dialect::Vk450);
        linked.link = Some(glsl::Link::from_pixel_shader(&shader));
        runs.push(linked);
    }
    for options in &runs {
        match glsl::translate(&shader, options) {
            Ok(t) => {
                let _ = t.map.to_text();
                let _ = t.manifest.to_json();
                reached = Reached::Done;
            }
            Err(refused) => {
                let _ = refused.to_string();
            }
        }
    }
    reached
}

/// Runs `shader` as `trace` does, on `setup` and `resources`, printing into
/// nothing; the machine's refusal or the run's error is rendered as the
/// command would.
fn trace(shader: Shader, setup: vm::Setup, resources: vm::Resources) -> Reached {
    let style = shader.style();
    let mut machine = match vm::Machine::new(std::rc::Rc::new(shader.program), setup, resources) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.to_string();
            return Reached::Read;
        }
    };
    machine.set_budget(VM_BUDGET);
    let summary = vm::trace::write(
        &mut machine,
        style,
        vm::trace::Format::Text,
        TRACE_LINES,
        &mut std::io::sink(),
    )
    .expect("a sink does not fail");
    match summary.outcome {
        Ok(()) => Reached::Done,
        Err(e) => {
            let _ = e.to_string();
            Reached::Read
        }
    }
}

/// `trace` on a whole container with the documented default inputs,
/// textures and samplers: whatever kind of program it holds, the machine
/// runs it to the end, stops at the budget, or refuses it with an error.
pub fn container_vm(data: &[u8]) -> Reached {
    let Some(shader) = parse_unverified(data) else {
        return Reached::Refused;
    };
    let choice = vm::defaults::PixelChoice::default();
    let setup = vm::defaults::default_setup(&shader, choice);
    let resources =
        vm::defaults::default_resources(&shader.program, vm::defaults::DefaultTextures::Checker);
    trace(shader, setup, resources)
}

/// The case-file reader on bytes, as `Case::load` sees a file's contents
/// (so invalid UTF-8 takes the loader's path); a case that parses and
/// whose shaders are all inline is assembled and its quad's inputs built
/// and run as `trace --case` does. Shader files a case names are never
/// read here: the input decides only the text.
pub fn case_parser(data: &[u8]) -> Reached {
    case_parser_at(data, Path::new("fuzz-input.case"))
}

/// [`case_parser`] for contents read from `origin`, which image fills
/// (read while parsing, like the loader) are relative to.
pub fn case_parser_at(data: &[u8], origin: &Path) -> Reached {
    let case = match Case::from_bytes(data, origin) {
        Ok(case) => case,
        Err(e) => {
            let _ = e.to_string();
            return Reached::Refused;
        }
    };
    let inline = |s: &Option<ShaderSource>| !matches!(s, Some(ShaderSource::File(_)));
    if !inline(&case.pixel_shader) || !inline(&case.vertex_shader) {
        return Reached::Read;
    }
    let shaders = match case.shaders() {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            return Reached::Read;
        }
    };
    let choice = vm::defaults::PixelChoice {
        width: case.width,
        height: case.height,
        ..Default::default()
    };
    let (setup, resources) = dxbc_dbg::harness::raster::case_inputs(&case, &shaders.pixel, choice);
    trace(shaders.pixel, setup, resources)
}
