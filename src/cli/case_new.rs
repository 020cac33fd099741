//! `case new`: a case written from a shader's bytecode alone
//! (`harness::generate`), checked by loading it before it is written.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use dxbc_dbg::{dxbc, harness};

use super::load;

/// `case new`: the case text for `files`, checked by loading it the way
/// `diff` would (parse, shaders, bindings) before it is written.
pub fn case_new(
    files: &[PathBuf],
    output: Option<&Path>,
    seed: u64,
    size: [u32; 2],
    textures: &[String],
) -> Result<String> {
    use harness::generate::{self, ImageTexture, Options, ShaderInput, paths};
    let case_dir = match output.and_then(Path::parent) {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let case_dir = case_dir
        .canonicalize()
        .with_context(|| format!("{}: the case's directory", case_dir.display()))?;
    // A path as the case names it: relative to the case's directory.
    let in_case = |p: &Path| -> Result<String> {
        let abs = p.canonicalize().with_context(|| p.display().to_string())?;
        Ok(paths::case_line(&paths::relative(&case_dir, &abs))?)
    };
    let mut shaders = Vec::new();
    for f in files {
        shaders.push((load(f, false)?, in_case(f)?));
    }
    let mut images = Vec::new();
    for t in textures {
        let bad = || anyhow::anyhow!("--texture {t}: expected tN=PATH (N in 0..=127)");
        let (slot, path) = t.split_once('=').ok_or_else(bad)?;
        let slot: u32 = slot
            .strip_prefix('t')
            .and_then(|n| n.parse().ok())
            .filter(|n| *n < dxbc::limits::SHADER_RESOURCE_SLOTS)
            .ok_or_else(bad)?;
        let path = Path::new(path);
        let dds = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("dds"));
        let size = if dds {
            None
        } else {
            let pic = harness::image::read_picture(path)
                .map_err(|e| anyhow::anyhow!("--texture {t}: {}: {e}", path.display()))?;
            Some([pic.width(), pic.height()])
        };
        images.push(ImageTexture {
            slot,
            path: in_case(path)?,
            size,
        });
    }
    let inputs: Vec<ShaderInput> = shaders
        .iter()
        .map(|(shader, path)| ShaderInput { shader, path })
        .collect();
    let opts = Options { seed, size, images };
    let text = generate::case_text(&inputs, &opts)?;
    let at = output.map_or_else(|| case_dir.join("generated.case"), Path::to_path_buf);
    let case = harness::case::Case::parse(&text, &at)
        .map_err(|e| anyhow::anyhow!("the generated case does not load (a bug): {e}"))?;
    let loaded = case
        .shaders()
        .map_err(|e| anyhow::anyhow!("the generated case does not load: {e}"))?;
    let mut stages = vec![&loaded.pixel];
    stages.extend(loaded.vertex.as_ref());
    case.check_bindings(&stages)
        .map_err(|e| anyhow::anyhow!("the generated case does not load (a bug): {e}"))?;
    Ok(text)
}
