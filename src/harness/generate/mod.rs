//! `case new`: a readable case file generated from a shader's bytecode
//! alone (docs/cases.md, "Generated cases"). Inputs are named by semantic
//! and given the values a real mesh would give (`inputs`), every declared
//! texture, sampler, buffer and UAV gets a deterministic resource
//! (`resources`), constant buffers are sized from their declarations and
//! typed from RDEF (`constants`). The result is text: it is read back by
//! the ordinary case parser, so what is drawn is exactly what a person
//! editing the file would see.
//!
//! Strings from the file (semantic names, RDEF names) are untrusted: they
//! only ever appear in comments, through [`text::shown`], which keeps them
//! on one line.

use std::fmt::Write as _;

use thiserror::Error;

use crate::dxbc::Shader;
use crate::dxbc::ir::ProgramType;

mod constants;
mod inputs;
pub mod paths;
mod resources;
mod rng;
mod text;
pub mod tolerance;

#[cfg(test)]
mod tests;

pub use rng::Rng;
pub use text::shown;

/// The render target's side when none is asked for: small enough to draw
/// on a software GPU in moments, large enough for a texture's minification
/// and magnification to show.
pub const DEFAULT_SIZE: [u32; 2] = [32, 32];

/// A shader the case names, with the path the case file uses for it
/// (relative to where the case is written).
#[derive(Debug, Clone, Copy)]
pub struct ShaderInput<'a> {
    pub shader: &'a Shader,
    pub path: &'a str,
}

/// An image for one texture slot (`--texture tN=PATH`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageTexture {
    pub slot: u32,
    /// As the case file names it (relative to the case).
    pub path: String,
    /// A picture's width and height; `None` for a DDS file, which gives
    /// its whole texture itself.
    pub size: Option<[u32; 2]>,
}

/// What a generated case may be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub seed: u64,
    /// The render target's width and height.
    pub size: [u32; 2],
    pub images: Vec<ImageTexture>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            size: DEFAULT_SIZE,
            images: Vec::new(),
        }
    }
}

/// Why no case was generated. `reason` is a short category (for counts);
/// the message says what and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct Refusal {
    pub reason: &'static str,
    pub message: String,
}

impl Refusal {
    pub(crate) fn new(reason: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            reason,
            message: message.into(),
        }
    }
}

/// The shaders of a case sorted by stage.
struct Stages<'a> {
    pixel: Option<ShaderInput<'a>>,
    vertex: Option<ShaderInput<'a>>,
}

fn stages<'a>(shaders: &[ShaderInput<'a>]) -> Result<Stages<'a>, Refusal> {
    let mut s = Stages {
        pixel: None,
        vertex: None,
    };
    for input in shaders {
        let (slot, what) = match input.shader.program.kind {
            ProgramType::Pixel => (&mut s.pixel, "pixel"),
            ProgramType::Vertex => (&mut s.vertex, "vertex"),
            other => {
                return Err(Refusal::new(
                    "not a vertex or pixel shader",
                    format!(
                        "{} is a {} shader: a case draws a pixel shader, or a vertex and a pixel shader",
                        text::shown(input.path),
                        other.stage_name()
                    ),
                ));
            }
        };
        if let Some(first) = slot {
            return Err(Refusal::new(
                "two shaders of one stage",
                format!(
                    "{} and {} are both {what} shaders: a case has one of each",
                    text::shown(first.path),
                    text::shown(input.path)
                ),
            ));
        }
        *slot = Some(*input);
    }
    if s.pixel.is_none() && s.vertex.is_none() {
        return Err(Refusal::new("no shader", "no shader given"));
    }
    Ok(s)
}

/// The case file's text for `shaders` (a pixel shader, a vertex shader, or
/// one of each). A vertex shader alone is drawn through a generated
/// pass-through pixel shader (`inputs::pass_through`). The text parses
/// with [`crate::harness::case::Case::parse`]; everything it says is
/// derived from the shaders' declarations, signatures and RDEF, the seed
/// and the options.
pub fn case_text(shaders: &[ShaderInput], opts: &Options) -> Result<String, Refusal> {
    let st = stages(shaders)?;
    let [w, h] = opts.size;
    if !(1..=4096).contains(&w) || !(1..=4096).contains(&h) {
        return Err(Refusal::new(
            "bad option",
            format!("size {w}x{h}: each side is 1..=4096"),
        ));
    }
    // Paths are written as they are: each must be one a case line holds.
    for p in shaders
        .iter()
        .map(|s| s.path)
        .chain(opts.images.iter().map(|i| i.path.as_str()))
    {
        if paths::case_line(std::path::Path::new(p))? != p {
            return Err(Refusal::new(
                "path a case cannot name",
                format!("{}: write it with `/`", text::shown(p)),
            ));
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Generated by `dxbc-dbg case new` (seed {}) from the shader files below.",
        opts.seed
    );
    out.push_str(
        "# The values are plausible inputs, not known answers: edit them, then add\n\
         # probes once the right output is known (docs/cases.md, \"Generated cases\").\n\n",
    );
    let mut requires: Vec<(String, String)> = Vec::new();
    if let Some(vs) = st.vertex {
        let _ = writeln!(out, "[vertex shader file]\n{}\n", vs.path);
    }
    match st.pixel {
        Some(ps) => {
            let _ = writeln!(out, "[pixel shader file]\n{}\n", ps.path);
        }
        None => {
            let vs = st.vertex.expect("stages() has one");
            out.push_str(&inputs::pass_through(vs.shader)?);
        }
    }
    let bound: Vec<&Shader> = [st.vertex, st.pixel]
        .iter()
        .flatten()
        .map(|s| s.shader)
        .collect();
    let _ = writeln!(out, "[render target]\nsize {w} {h}");
    if let Some(ps) = st.pixel {
        out.push_str(&inputs::target_comments(ps.shader));
    }
    out.push('\n');
    // A pixel shader without a render target (one that writes only a
    // depth, or only UAVs) still needs an attachment to be drawn: a depth
    // buffer that takes every pixel's depth.
    if let Some(ps) = st.pixel
        && crate::harness::cpu::targets(ps.shader).is_empty()
    {
        out.push_str(
            "[depth]
             # The shader writes no render target: this depth buffer is what the draw
             # writes (every pixel passes; add `probe depth X Y D` to check it).
             format d32_float
func always

",
        );
    }
    // The quad feeds the first stage: the vertex shader when there is one.
    let first = st.vertex.or(st.pixel).expect("stages() has one");
    out.push_str(&inputs::quad(first.shader, opts.seed));
    out.push('\n');
    out.push_str(&resources::sections(&bound, opts, &mut requires)?);
    out.push_str(&constants::sections(&bound, opts.seed)?);
    out.push_str(&resources::interfaces(&bound));
    if !requires.is_empty() {
        out.push_str("[require]\n");
        for (feature, reason) in &requires {
            let _ = writeln!(out, "{feature} {reason}");
        }
        out.push('\n');
    }
    // What D3D11 leaves open for these instructions, so that a correct
    // translation passes the case as written (`diff --auto` draws with
    // the same section).
    out.push_str(&tolerance::for_generated(&bound, &out).section());
    out.push('\n');
    out.push_str(
        "[test]\n\
         # No probes: nothing is known about the right output yet. `dxbc-dbg diff`\n\
         # still draws the case on every backend and compares each image with the\n\
         # emulator's; add `probe X Y r g b a` lines (or `golden`) once known.\n",
    );
    Ok(out)
}
