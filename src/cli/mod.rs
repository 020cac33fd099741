//! The commands' work beyond argument parsing: shared pieces here, `diff`
//! and `report merge` in [`diff`], `case new` in [`case_new`]. `main.rs`
//! holds the argument definitions and dispatch.

use std::path::Path;

use anyhow::{Context, Result};
use dxbc_dbg::dxbc::{self, ParseOptions, Shader};
use dxbc_dbg::input_file;

pub mod auto;
pub mod bisect;
pub mod case_new;
pub mod diff;
pub mod progress;
pub mod runtime_dir;
pub mod translators;

/// Reads a shader from a container, or assembles it when the file is text.
pub fn load(path: &Path, no_verify: bool) -> Result<Shader> {
    let mut bytes = input_file::read(path).with_context(|| path.display().to_string())?;
    if path.extension().is_some_and(|e| e == "asm") {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bytes = dxbc::asm::assemble(&text)
            .map_err(|e| anyhow::anyhow!(e.in_file(&path.display().to_string())))?;
    }
    let mut shader = Shader::parse(
        &bytes,
        ParseOptions {
            verify_checksum: !no_verify,
        },
    )
    .with_context(|| path.display().to_string())?;
    if no_verify {
        shader.check_checksum(&bytes);
    }
    Ok(shader)
}

/// What `trace` and `step` run: a shader, and the case whose inputs it
/// takes (`None`: the documented defaults).
pub struct DebugTarget {
    pub shader: Shader,
    pub case: Option<(dxbc_dbg::harness::case::Case, String)>,
    /// What a GPU draws of the case: the case as written (its vertex
    /// shader not yet run, the GPU runs it) and the shaders.
    pub drawn: Option<(
        dxbc_dbg::harness::case::Case,
        dxbc_dbg::harness::case::CaseShaders,
    )>,
    /// The file the pixel shader was read from, which an HLSL source
    /// beside it is named after: `file`, or a case's `[pixel shader
    /// file]` (an inline shader: the case file).
    pub shader_file: std::path::PathBuf,
}

/// The shader of `file` with the inputs of `case`. A case file given as
/// `file` (`*.case`) brings its own pixel shader — inline or a
/// `[pixel shader file]` — and, without `--case`, its own inputs. A case
/// with a `[vertex shader]` is run through it first, so the pixel shader
/// sees the quad the vertex shader makes, as `diff` draws it.
pub fn debug_target(file: &Path, case: Option<&Path>, no_verify: bool) -> Result<DebugTarget> {
    use dxbc_dbg::harness::{case::Case, cpu};
    let is_case = |p: &Path| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("case"))
    };
    let from_case = is_case(file).then(|| Case::load(file)).transpose()?;
    // The shader is read before a separate case: it is the file the user
    // named first, so its refusal is the one reported.
    let shader = match &from_case {
        Some(c) => c.shaders()?.pixel,
        None => load(file, no_verify)?,
    };
    let case_path = case.or(from_case.is_some().then_some(file));
    let case = match (case, from_case.as_ref()) {
        (Some(p), _) => Some(Case::load(p)?),
        (None, Some(c)) => Some(c.clone()),
        (None, None) => None,
    };
    let shader_file = match from_case.as_ref().and_then(|c| c.pixel_shader.as_ref()) {
        Some(dxbc_dbg::harness::case::ShaderSource::File(p)) => {
            file.parent().map_or_else(|| p.clone(), |d| d.join(p))
        }
        _ => file.to_path_buf(),
    };
    let mut drawn = None;
    let case = match (case, case_path) {
        (Some(mut c), Some(path)) => {
            c.check_bindings(&[&shader])?;
            let vertex = match c.vertex_shader {
                Some(_) => c.shaders()?.vertex,
                None => None,
            };
            let shaders = dxbc_dbg::harness::case::CaseShaders {
                pixel: shader.clone(),
                vertex,
            };
            let original = c.clone();
            if shaders.vertex.is_some() {
                c.quad = cpu::vertex_stage(&c, &shaders)?;
            }
            drawn = Some((original, shaders));
            Some((c, path.display().to_string()))
        }
        _ => None,
    };
    Ok(DebugTarget {
        shader,
        case,
        drawn,
        shader_file,
    })
}

/// The case `step` takes for a shader given without `--case`: the file
/// of the same name with the `.case` extension beside it
/// (`shaders/shadow_pcf.dxbc` → `shaders/shadow_pcf.case`), when there is
/// one. A case file given as the shader brings its own inputs, so it has
/// none.
pub fn case_beside(file: &Path) -> Option<std::path::PathBuf> {
    if file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("case"))
    {
        return None;
    }
    let beside = file.with_extension("case");
    beside.is_file().then_some(beside)
}

/// How a command ended, when it did not end in an error (exit 1).
pub enum Outcome {
    Done,
    Failed,
    /// The Vulkan backend cannot draw: no adapter, or a binary built
    /// without the `gpu` feature (both exit 3). `why` follows "skipping the
    /// vulkan backend: "; `fix` says what would make it draw.
    NoVulkan {
        why: String,
        fix: &'static str,
    },
    NoBrowser(String),
    /// External translators were asked for without the WebGL2 backend
    /// they draw on (exit 4, as for no browser).
    NoWebGl2(String),
    /// The command could not do its work (a bad case, no adapter, a
    /// helper pixel): for commands whose exit 1 means a finding (`bisect`),
    /// exit 2 with this message.
    Unusable(String),
}
