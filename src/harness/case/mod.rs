//! Case files: one readable text file per test case (format in
//! `docs/cases.md`, modelled on vkd3d's `.shader_test` sections). A case
//! gives the shader, the quad, textures, samplers, constant buffers, the
//! render target, tolerances and probes. Every error names the file and
//! line.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::vm::texture::{Sampler, Texture};

mod constants;
mod probes;
mod quad;
mod sampler;
mod target;
mod texture;
mod values;

pub use quad::{INPUT_REGISTERS, default_quad};
use values::{Ctx, Lines, strip};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}: {message}")]
pub struct CaseError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// A shader given inline or by path (relative to the case file).
#[derive(Debug, Clone, PartialEq)]
pub enum ShaderSource {
    Inline { text: String, line: usize },
    File(PathBuf),
}

/// One corner of the quad: clip-space position and per-register attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    pub position: [f32; 4],
    /// (input register, four raw lanes).
    pub attributes: Vec<(u32, [u32; 4])>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub line: usize,
    pub rect: [u32; 4],
    pub expected: [f32; 4],
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tolerance {
    pub abs: f32,
    pub ulp: u32,
}

#[derive(Debug, Clone)]
pub struct Case {
    pub path: PathBuf,
    pub pixel_shader: Option<ShaderSource>,
    pub vertex_shader: Option<ShaderSource>,
    pub width: u32,
    pub height: u32,
    /// Four corners: top-left, top-right, bottom-left, bottom-right.
    pub quad: Vec<Vertex>,
    pub textures: Vec<(u32, Texture)>,
    pub samplers: Vec<(u32, Sampler)>,
    pub constant_buffers: Vec<(u32, Vec<[u32; 4]>)>,
    pub tolerance: Tolerance,
    pub probes: Vec<Probe>,
    /// Whether the rendered image is compared with a golden.
    pub golden: bool,
    /// What a backend must express to draw the case (`[require]`); a
    /// backend that cannot is reported as not applicable, with the reason.
    pub requires: Vec<Requirement>,
}

/// Something a case needs that not every backend can express.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Fine derivatives distinct from coarse ones (`deriv_rtx_fine`
    /// against `deriv_rtx_coarse`).
    FineDerivatives,
    /// D3D's anisotropic filter: trilinear over an isotropic footprint,
    /// linear under magnification.
    AnisotropicFilter,
}

impl Feature {
    pub const ALL: [Feature; 2] = [Feature::FineDerivatives, Feature::AnisotropicFilter];

    pub fn name(self) -> &'static str {
        match self {
            Feature::FineDerivatives => "fine_derivatives",
            Feature::AnisotropicFilter => "anisotropic_filter",
        }
    }
}

/// A `[require]` line: the feature and the case's reason for needing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub line: usize,
    pub feature: Feature,
    pub reason: String,
}

/// A case's shaders, assembled and parsed.
#[derive(Debug, Clone)]
pub struct CaseShaders {
    pub pixel: crate::dxbc::Shader,
    pub vertex: Option<crate::dxbc::Shader>,
}

impl Case {
    /// Assembles (or reads) the case's shaders; errors name the case file
    /// and line, or the shader file and its line.
    pub fn shaders(&self) -> Result<CaseShaders, CaseError> {
        let load = |src: &ShaderSource| -> Result<crate::dxbc::Shader, CaseError> {
            let case_file = self.path.display().to_string();
            let (bytes, file, base_line) = match src {
                ShaderSource::Inline { text, line } => {
                    let bytes = crate::dxbc::asm::assemble(text).map_err(|e| CaseError {
                        file: case_file.clone(),
                        line: line + e.line.saturating_sub(1),
                        message: e.to_string(),
                    })?;
                    (bytes, case_file.clone(), *line)
                }
                ShaderSource::File(path) => {
                    let full = self
                        .path
                        .parent()
                        .map(|d| d.join(path))
                        .unwrap_or_else(|| path.clone());
                    let name = full.display().to_string();
                    let data = crate::input_file::read(&full).map_err(|e| CaseError {
                        file: name.clone(),
                        line: 0,
                        message: e.to_string(),
                    })?;
                    let bytes = if full.extension().is_some_and(|x| x == "asm") {
                        let text = String::from_utf8_lossy(&data).into_owned();
                        crate::dxbc::asm::assemble(&text).map_err(|e| CaseError {
                            file: name.clone(),
                            line: e.line,
                            message: e.to_string(),
                        })?
                    } else {
                        data
                    };
                    (bytes, name, 0)
                }
            };
            crate::dxbc::Shader::parse(&bytes, crate::dxbc::ParseOptions::default()).map_err(|e| {
                CaseError {
                    file,
                    line: base_line,
                    message: e.to_string(),
                }
            })
        };
        let pixel = match &self.pixel_shader {
            Some(src) => load(src)?,
            None => {
                return Err(CaseError {
                    file: self.path.display().to_string(),
                    line: 0,
                    message: "no [pixel shader]".into(),
                });
            }
        };
        let vertex = self.vertex_shader.as_ref().map(load).transpose()?;
        Ok(CaseShaders { pixel, vertex })
    }

    /// Reads and parses the case file at `path` (reading and parsing are
    /// [`Case::from_bytes`]'s and [`Case::parse`]'s, so they can be tested
    /// apart from the file system).
    pub fn load(path: &Path) -> Result<Case, CaseError> {
        let bytes = crate::input_file::read(path).map_err(|e| CaseError {
            file: path.display().to_string(),
            line: 0,
            message: e.to_string(),
        })?;
        Case::from_bytes(&bytes, path)
    }

    /// Parses a case file's contents; `path` is where they came from (errors
    /// name it, shader and image paths are relative to it). Case files are
    /// UTF-8: anything else is refused at the line and byte offset of the
    /// first bad byte rather than guessed at.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Case, CaseError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let at = e.valid_up_to();
            CaseError {
                file: path.display().to_string(),
                line: 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count(),
                message: format!("not UTF-8: byte offset {at} (0x{:02x})", bytes[at]),
            }
        })?;
        Case::parse(text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Case, CaseError> {
        let name = path.display().to_string();
        let ctx = Ctx { file: &name };
        let mut case = Case {
            path: path.to_path_buf(),
            pixel_shader: None,
            vertex_shader: None,
            width: 64,
            height: 64,
            quad: Vec::new(),
            textures: Vec::new(),
            samplers: Vec::new(),
            constant_buffers: Vec::new(),
            tolerance: Tolerance::default(),
            probes: Vec::new(),
            golden: false,
            requires: Vec::new(),
        };
        // Split into sections; shader sections keep their raw lines.
        let mut sections: Vec<(usize, String, Lines)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let t = raw.trim();
            if t.starts_with('[') && t.ends_with(']') {
                sections.push((n, t[1..t.len() - 1].trim().to_string(), Vec::new()));
            } else if let Some(s) = sections.last_mut() {
                s.2.push((n, raw));
            } else if !strip(raw).is_empty() {
                return Err(ctx.err(n, "text before the first [section]"));
            }
        }
        for (n, title, body) in sections {
            let words: Vec<&str> = title.split_whitespace().collect();
            let stripped: Lines = body
                .iter()
                .map(|(l, t)| (*l, strip(t)))
                .filter(|(_, t)| !t.is_empty())
                .collect();
            match words.as_slice() {
                ["pixel", "shader"] | ["vertex", "shader"] => {
                    let text: String = body.iter().map(|(_, t)| format!("{t}\n")).collect();
                    let src = ShaderSource::Inline { text, line: n + 1 };
                    if words[0] == "pixel" {
                        case.pixel_shader = Some(src);
                    } else {
                        case.vertex_shader = Some(src);
                    }
                }
                ["pixel", "shader", "file"] | ["vertex", "shader", "file"] => {
                    let (l, p) = stripped
                        .first()
                        .ok_or_else(|| ctx.err(n, "expected a shader path"))?;
                    let _ = l;
                    // Kept relative to the case file; `shaders()` resolves it.
                    let src = ShaderSource::File(PathBuf::from(p));
                    if words[0] == "pixel" {
                        case.pixel_shader = Some(src);
                    } else {
                        case.vertex_shader = Some(src);
                    }
                }
                ["render", "target"] => {
                    let mut size = [case.width, case.height];
                    target::parse_target(&ctx, &stripped, &mut size)?;
                    [case.width, case.height] = size;
                }
                ["quad"] => case.quad = quad::parse_quad(&ctx, &stripped)?,
                ["texture", slot] => {
                    let slot = ctx.u32(n, slot)?;
                    case.textures
                        .push((slot, texture::parse_texture(&ctx, n, &stripped)?));
                }
                ["sampler", slot] => {
                    let slot = ctx.u32(n, slot)?;
                    case.samplers
                        .push((slot, sampler::parse_sampler(&ctx, &stripped)?));
                }
                ["constant", "buffer", slot] => {
                    let slot = ctx.u32(n, slot)?;
                    case.constant_buffers
                        .push((slot, constants::parse_rows(&ctx, &stripped)?));
                }
                ["tolerance"] => {
                    for (l, t) in &stripped {
                        let toks: Vec<&str> = t.split_whitespace().collect();
                        match toks.as_slice() {
                            ["abs", v] => case.tolerance.abs = ctx.f32(*l, v)?,
                            ["ulp", v] => case.tolerance.ulp = ctx.u32(*l, v)?,
                            _ => return Err(ctx.err(*l, "expected `abs X` or `ulp N`")),
                        }
                    }
                }
                ["test"] => {
                    probes::parse_test(&ctx, &stripped, &mut case.probes, &mut case.golden)?
                }
                ["require"] => {
                    for (l, t) in &stripped {
                        let (word, reason) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
                        let feature = Feature::ALL
                            .into_iter()
                            .find(|f| f.name() == word)
                            .ok_or_else(|| {
                                let known: Vec<&str> =
                                    Feature::ALL.iter().map(|f| f.name()).collect();
                                ctx.err(
                                    *l,
                                    format!(
                                        "unknown feature `{word}` (known: {})",
                                        known.join(", ")
                                    ),
                                )
                            })?;
                        let reason = reason.trim();
                        if reason.is_empty() {
                            return Err(
                                ctx.err(*l, "expected `FEATURE REASON`: say why the case needs it")
                            );
                        }
                        case.requires.push(Requirement {
                            line: *l,
                            feature,
                            reason: reason.to_string(),
                        });
                    }
                }
                _ => return Err(ctx.err(n, format!("unknown section [{title}]"))),
            }
        }
        if case.pixel_shader.is_none() {
            return Err(ctx.err(
                1,
                "a case needs a [pixel shader] or [pixel shader file] section",
            ));
        }
        if case.quad.is_empty() {
            case.quad = default_quad();
        }
        Ok(case)
    }
}

#[cfg(test)]
mod tests;
