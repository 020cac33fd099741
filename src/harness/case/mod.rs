//! Case files: one readable text file per test case (format in
//! `docs/cases.md`, modelled on vkd3d's `.shader_test` sections). A case
//! gives the shader, the quad, textures, samplers, constant buffers, the
//! render target, tolerances and probes. Every error names the file and
//! line.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::vm::texture::{Sampler, Texture};

mod bindings;
mod buffer;
mod constants;
mod interfaces;
mod probes;
mod quad;
mod sampler;
mod target;
mod texture;
mod values;

pub use interfaces::InterfaceLine;
pub use probes::uav_probe_failures;
pub use quad::{INPUT_REGISTERS, default_quad};
pub use target::{DepthBuffer, MAX_TARGETS, RenderTarget, Viewport};
use values::{Ctx, Lines, strip};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}: {message}")]
pub struct CaseError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// Something D3D accepts that is likely not what the case meant (a slot
/// bound that no shader declares): the case is drawn and the warning shown
/// with the run's results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseWarning {
    pub file: String,
    pub line: usize,
    pub message: String,
    /// The section bound to no declared slot.
    pub section: Section,
}

impl std::fmt::Display for CaseWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: warning: {}", self.file, self.line, self.message)
    }
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
    pub target: ProbeTarget,
    pub rect: [u32; 4],
    pub expected: [f32; 4],
}

/// What a probe reads: `SV_TargetN`'s image, or the depth buffer's
/// (depth in `.x`, the rest 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeTarget {
    Color(u32),
    Depth,
}

/// A `probe uav` line: words of UAV `slot` after the draw. `first..=last`
/// are elements (words for a raw UAV); each must start with `words`.
/// `Counter` checks the hidden counter instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UavProbe {
    pub line: usize,
    pub slot: u32,
    pub check: UavCheck,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UavCheck {
    Elements {
        first: u32,
        last: u32,
        words: Vec<u32>,
    },
    Counter(u32),
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
    /// The render target's sample count (`samples N`; 1 when not
    /// multisampled).
    pub samples: u32,
    /// Four corners: top-left, top-right, bottom-left, bottom-right.
    pub quad: Vec<Vertex>,
    /// Per-target formats and clear colours (`[render target]`), by index.
    pub render_targets: Vec<RenderTarget>,
    /// `viewport …`; `None`: the whole target (see [`Case::viewport`]).
    pub viewport: Option<Viewport>,
    /// `[depth]`: the draw's depth buffer and test.
    pub depth: Option<DepthBuffer>,
    pub textures: Vec<(u32, Texture)>,
    pub samplers: Vec<(u32, Sampler)>,
    pub constant_buffers: Vec<(u32, Vec<[u32; 4]>)>,
    /// `[buffer N]`: raw and structured SRVs (`tN`).
    pub buffers: Vec<(u32, crate::vm::memory::Buffer)>,
    /// `[uav N]`: raw and structured UAVs (`uN`), as they start.
    pub uavs: Vec<(u32, crate::vm::memory::Buffer)>,
    /// `[uav N]` with `unordered`: after the draw, a backend's elements
    /// are compared with the emulator's as a multiset (an append buffer
    /// filled in pixel order), not element by element.
    pub unordered_uavs: Vec<u32>,
    /// `probe uav` lines, checked after the draw.
    pub uav_probes: Vec<UavProbe>,
    /// `[interfaces]`: the class bound to each interface slot and its
    /// instance data; slots it does not name keep the defaults.
    pub interfaces: crate::vm::interfaces::Bindings,
    /// The `[interfaces]` lines, checked against the shaders' declarations.
    pub interface_lines: Vec<InterfaceLine>,
    pub tolerance: Tolerance,
    pub probes: Vec<Probe>,
    /// Whether the rendered image is compared with a golden.
    pub golden: bool,
    /// What a backend must express to draw the case (`[require]`); a
    /// backend that cannot is reported as not applicable, with the reason.
    pub requires: Vec<Requirement>,
    /// Every section and the line its title is on, in file order; the
    /// checks that name a section (a slot the shader does not declare, a
    /// texture that does not match its declaration) read the line here.
    pub sections: Vec<(Section, usize)>,
    /// Sampler slots whose section sets `compare`: D3D's comparison
    /// samplers, the only ones a `_c` instruction may use.
    pub comparison_samplers: Vec<u32>,
    /// The text this case was parsed from. A case is never changed after
    /// parsing, so its text and `path` are the whole case: the Vulkan
    /// worker process (`harness::gpu::isolated`) receives these and parses
    /// the same case again rather than a serialised copy of every field.
    pub source: std::sync::Arc<str>,
}

/// One section of a case file. A case has at most one of each (one per
/// slot for textures, samplers and constant buffers): a second would
/// silently replace or shadow the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    PixelShader,
    VertexShader,
    RenderTarget,
    Depth,
    Quad,
    Texture(u32),
    Sampler(u32),
    ConstantBuffer(u32),
    Buffer(u32),
    Uav(u32),
    Interfaces,
    Tolerance,
    Test,
    Require,
}

impl Section {
    /// How the section is written in a case file, for messages.
    pub fn title(self) -> String {
        match self {
            Section::PixelShader => "[pixel shader]".into(),
            Section::VertexShader => "[vertex shader]".into(),
            Section::RenderTarget => "[render target]".into(),
            Section::Depth => "[depth]".into(),
            Section::Quad => "[quad]".into(),
            Section::Texture(n) => format!("[texture {n}]"),
            Section::Sampler(n) => format!("[sampler {n}]"),
            Section::ConstantBuffer(n) => format!("[constant buffer {n}]"),
            Section::Buffer(n) => format!("[buffer {n}]"),
            Section::Uav(n) => format!("[uav {n}]"),
            Section::Interfaces => "[interfaces]".into(),
            Section::Tolerance => "[tolerance]".into(),
            Section::Test => "[test]".into(),
            Section::Require => "[require]".into(),
        }
    }
}

/// Something a case needs that not every backend can express.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Fine derivatives distinct from coarse ones (`deriv_rtx_fine`
    /// against `deriv_rtx_coarse`).
    FineDerivatives,
    /// Reading the depth buffer back (`probe depth`); implied by it.
    DepthReadback,
    /// Reading back a 24-bit depth buffer (`d24_unorm_s8_uint`); implied.
    Depth24Readback,
    /// Rendering to a 16-bit UNORM target (`r16_unorm`); implied.
    Norm16Target,
    /// A viewport with a fractional corner or size; implied.
    FractionalViewport,
    /// Floats written to half-float targets round toward zero, as D3D
    /// rounds conversions to a narrower float format.
    HalfTowardZero,
    /// Cube-map arrays (`dimension cubearray`, `samplerCubeArray`).
    CubeMapArrays,
    /// Multisampled textures (`ld2dms`, `sampleinfo`, `samplepos`) or a
    /// multisampled target with what reads it (`SV_SampleIndex`,
    /// `SV_Coverage`, the rasterizer's `sampleinfo`/`samplepos`).
    Multisample,
    /// `SV_Coverage` read by a shader running at pixel frequency: the
    /// covered samples' mask (`gl_SampleMaskIn`).
    CoverageInput,
    /// A multisampled texture array (`Texture2DMSArray`).
    MultisampleArray,
    /// D3D's anisotropic filter: trilinear over an isotropic footprint,
    /// linear under magnification.
    AnisotropicFilter,
    /// Double-precision arithmetic (`dadd`, `dtof`, ...).
    Float64,
    /// A `_cl` instruction's per-sample minimum-LOD clamp other than the
    /// literal 0 (which means no clamp) on a cube.
    LodClamp,
    /// Buffer views and UAVs (`[buffer]`, raw, structured or typed, and
    /// `[uav]`); implied.
    Buffers,
}

impl Feature {
    pub const ALL: [Feature; 14] = [
        Feature::FineDerivatives,
        Feature::DepthReadback,
        Feature::Depth24Readback,
        Feature::Norm16Target,
        Feature::FractionalViewport,
        Feature::HalfTowardZero,
        Feature::CubeMapArrays,
        Feature::Multisample,
        Feature::CoverageInput,
        Feature::MultisampleArray,
        Feature::AnisotropicFilter,
        Feature::Float64,
        Feature::LodClamp,
        Feature::Buffers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Feature::FineDerivatives => "fine_derivatives",
            Feature::DepthReadback => "depth_readback",
            Feature::Depth24Readback => "depth24_readback",
            Feature::Norm16Target => "norm16_target",
            Feature::FractionalViewport => "fractional_viewport",
            Feature::HalfTowardZero => "half_toward_zero",
            Feature::CubeMapArrays => "cube_map_arrays",
            Feature::Multisample => "multisample",
            Feature::CoverageInput => "coverage_input",
            Feature::MultisampleArray => "multisample_array",
            Feature::AnisotropicFilter => "anisotropic_filter",
            Feature::Float64 => "float64",
            Feature::LodClamp => "lod_clamp",
            Feature::Buffers => "buffers",
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
    /// Drops the buffer and UAV sections `warnings` found no shader
    /// declares. D3D leaves such a view unused, so nothing the shaders see
    /// changes; dropping them keeps a backend from comparing a UAV it never
    /// bound, and a case whose only buffers are unused needs no `buffers`.
    pub fn unbind_unused_buffers(&mut self, warnings: &[CaseWarning]) {
        for w in warnings {
            match w.section {
                Section::Buffer(slot) => {
                    self.buffers.retain(|(s, _)| *s != slot);
                    // A typed buffer SRV is held as a texture.
                    self.textures.retain(|(s, t)| {
                        *s != slot || t.dimension() != crate::vm::texture::Dimension::Buffer
                    });
                }
                Section::Uav(slot) => self.uavs.retain(|(s, _)| *s != slot),
                _ => {}
            }
        }
        let bound = |s: &Section| match *s {
            Section::Buffer(slot) => {
                self.buffers.iter().any(|(b, _)| *b == slot)
                    || self.textures.iter().any(|(t, _)| *t == slot)
            }
            Section::Uav(slot) => self.uavs.iter().any(|(u, _)| *u == slot),
            _ => false,
        };
        if !self.sections.iter().any(|(s, _)| bound(s)) {
            self.requires.retain(|r| r.feature != Feature::Buffers);
        }
    }

    /// The viewport the quad is drawn through: the `viewport` line's, or
    /// the whole target with depth 0 to 1.
    pub fn viewport(&self) -> Viewport {
        self.viewport
            .unwrap_or_else(|| Viewport::full(self.width, self.height))
    }

    /// The settings of `SV_Target{index}`, if the case gives any.
    pub fn render_target(&self, index: u32) -> Option<&RenderTarget> {
        self.render_targets.iter().find(|t| t.index == index)
    }

    /// Whether the depth buffer is read back (some probe reads it); its
    /// image then follows the colour targets'.
    pub fn reads_depth(&self) -> bool {
        self.probes.iter().any(|p| p.target == ProbeTarget::Depth)
    }

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
            samples: 1,
            quad: Vec::new(),
            render_targets: Vec::new(),
            viewport: None,
            depth: None,
            textures: Vec::new(),
            samplers: Vec::new(),
            constant_buffers: Vec::new(),
            buffers: Vec::new(),
            uavs: Vec::new(),
            unordered_uavs: Vec::new(),
            uav_probes: Vec::new(),
            interfaces: Default::default(),
            interface_lines: Vec::new(),
            tolerance: Tolerance::default(),
            probes: Vec::new(),
            golden: false,
            requires: Vec::new(),
            sections: Vec::new(),
            comparison_samplers: Vec::new(),
            source: std::sync::Arc::from(text),
        };
        let mut budget = texture::Budget::default();
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
            let section = section_of(&ctx, n, &title, &words)?;
            if let Some((_, first)) = case.sections.iter().find(|(s, _)| *s == section) {
                return Err(ctx.err(
                    n,
                    format!(
                        "a second {} section (the first is at line {first}): a case has one",
                        section.title()
                    ),
                ));
            }
            case.sections.push((section, n));
            match section {
                Section::PixelShader | Section::VertexShader => {
                    let src = if words.last() == Some(&"file") {
                        // Kept relative to the case file; `shaders()` resolves it.
                        match stripped.as_slice() {
                            [(_, p)] => ShaderSource::File(PathBuf::from(p)),
                            [] => return Err(ctx.err(n, "expected a shader path")),
                            [_, (l, _), ..] => {
                                return Err(ctx.err(*l, "a shader file section has one path"));
                            }
                        }
                    } else {
                        let text: String = body.iter().map(|(_, t)| format!("{t}\n")).collect();
                        ShaderSource::Inline { text, line: n + 1 }
                    };
                    if section == Section::PixelShader {
                        case.pixel_shader = Some(src);
                    } else {
                        case.vertex_shader = Some(src);
                    }
                }
                Section::RenderTarget => {
                    let t = target::parse_target(&ctx, &stripped)?;
                    if let Some([w, h]) = t.size {
                        [case.width, case.height] = [w, h];
                    }
                    case.render_targets = t.targets;
                    if let Some((l, v)) = t.viewport
                        && [v.x, v.y, v.width, v.height]
                            .iter()
                            .any(|c| c.fract() != 0.0)
                    {
                        case.requires.push(Requirement {
                            line: l,
                            feature: Feature::FractionalViewport,
                            reason: format!("line {l} gives a viewport in fractions of a pixel"),
                        });
                    }
                    case.viewport = t.viewport.map(|(_, v)| v);
                    case.samples = t.samples.map_or(1, |(_, n)| n);
                }
                Section::Depth => {
                    case.depth = Some(target::parse_depth(&ctx, n, &stripped)?);
                }
                Section::Quad => case.quad = quad::parse_quad(&ctx, &stripped)?,
                Section::Texture(slot) => {
                    case.textures.push((
                        slot,
                        texture::parse_texture(&ctx, n, &stripped, &mut budget)?,
                    ));
                }
                Section::Sampler(slot) => {
                    let (smp, comparison) = sampler::parse_sampler(&ctx, &stripped)?;
                    if comparison {
                        case.comparison_samplers.push(slot);
                    }
                    case.samplers.push((slot, smp));
                }
                Section::ConstantBuffer(slot) => {
                    case.constant_buffers
                        .push((slot, constants::parse_rows(&ctx, &stripped)?));
                }
                // A typed buffer SRV is the texture model's buffer
                // dimension (`ld`, `bufinfo`); raw and structured ones are
                // memory buffers.
                Section::Buffer(slot) if texture::is_typed(&stripped) => {
                    case.textures.push((
                        slot,
                        texture::parse_typed_buffer(&ctx, n, &stripped, &mut budget)?,
                    ));
                }
                Section::Buffer(slot) => {
                    let (b, _) = buffer::parse_buffer(&ctx, n, &stripped, false)?;
                    case.buffers.push((slot, b));
                }
                Section::Uav(slot) => {
                    let (b, unordered) = buffer::parse_buffer(&ctx, n, &stripped, true)?;
                    if unordered {
                        case.unordered_uavs.push(slot);
                    }
                    case.uavs.push((slot, b));
                }
                Section::Interfaces => {
                    (case.interfaces, case.interface_lines) =
                        interfaces::parse_interfaces(&ctx, &stripped)?;
                }
                Section::Tolerance => {
                    let mut once = values::Once::default();
                    for (l, t) in &stripped {
                        let toks: Vec<&str> = t.split_whitespace().collect();
                        if let Some(key) = toks.first() {
                            once.check(&ctx, *l, key)?;
                        }
                        match toks.as_slice() {
                            ["abs", v] => {
                                case.tolerance.abs = ctx.f32(*l, v)?;
                                // NaN would pass every comparison unnoticed.
                                if !(case.tolerance.abs >= 0.0 && case.tolerance.abs.is_finite()) {
                                    return Err(ctx.err(
                                        *l,
                                        format!("abs {v} is not a finite tolerance >= 0"),
                                    ));
                                }
                            }
                            ["ulp", v] => case.tolerance.ulp = ctx.u32(*l, v)?,
                            _ => return Err(ctx.err(*l, "expected `abs X` or `ulp N`")),
                        }
                    }
                }
                Section::Test => probes::parse_test(
                    &ctx,
                    &stripped,
                    &mut case.probes,
                    &mut case.uav_probes,
                    &mut case.golden,
                )?,
                Section::Require => {
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
            }
        }
        if case.pixel_shader.is_none() {
            return Err(ctx.err(
                1,
                "a case needs a [pixel shader] or [pixel shader file] section",
            ));
        }
        probes::check_inside(&ctx, &case.probes, [case.width, case.height])?;
        probes::check_uav_probes(&ctx, &case.uav_probes, &case.uavs)?;
        // A t# slot holds one view: a texture or a buffer.
        for (section, line) in &case.sections {
            let Section::Buffer(slot) = section else {
                continue;
            };
            if case
                .sections
                .iter()
                .any(|(s, _)| *s == Section::Texture(*slot))
            {
                let line = *line;
                return Err(ctx.err(
                    line,
                    format!("t{slot} is bound twice: by [texture {slot}] and [buffer {slot}]"),
                ));
            }
        }
        if let Some(line) = case
            .sections
            .iter()
            .find(|(s, _)| matches!(s, Section::Buffer(_) | Section::Uav(_)))
            .map(|(_, l)| *l)
        {
            case.requires.push(Requirement {
                line,
                feature: Feature::Buffers,
                reason: format!("line {line} binds a buffer"),
            });
        }
        // The depth buffer is single-sampled on every path (the emulator
        // tests one depth per pixel; wgpu needs a depth attachment with the
        // colour targets' sample count), so a multisampled draw with a
        // depth test would be compared against something neither draws.
        if let Some(d) = &case.depth
            && case.samples > 1
        {
            return Err(ctx.err(
                d.line,
                format!(
                    "[depth] with a {}-sample render target: the depth buffer is single-sampled; drop `samples` or the [depth] section",
                    case.samples
                ),
            ));
        }
        if case.quad.is_empty() {
            case.quad = default_quad();
        }
        target::implied_requirements(&ctx, &mut case)?;
        Ok(case)
    }
}

#[cfg(test)]
mod tests;

/// Which section a title names; slots are checked against Direct3D 11's
/// binding limits here, so every later step can trust them.
fn section_of(ctx: &Ctx, line: usize, title: &str, words: &[&str]) -> Result<Section, CaseError> {
    use crate::dxbc::limits::{CONSTANT_BUFFER_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS};
    let slot = |t: &str, register: &str, count: u32, what: &str| -> Result<u32, CaseError> {
        let n = ctx.u32(line, t)?;
        if n >= count {
            return Err(ctx.err(
                line,
                format!(
                    "{register}{n} is outside {register}0..{register}{}: Direct3D 11 has {count} {what} slots",
                    count - 1
                ),
            ));
        }
        Ok(n)
    };
    Ok(match words {
        ["pixel", "shader"] | ["pixel", "shader", "file"] => Section::PixelShader,
        ["vertex", "shader"] | ["vertex", "shader", "file"] => Section::VertexShader,
        ["render", "target"] => Section::RenderTarget,
        ["depth"] => Section::Depth,
        ["quad"] => Section::Quad,
        ["texture", n] => Section::Texture(slot(n, "t", SHADER_RESOURCE_SLOTS, "shader-resource")?),
        ["sampler", n] => Section::Sampler(slot(n, "s", SAMPLER_SLOTS, "sampler")?),
        ["constant", "buffer", n] => {
            Section::ConstantBuffer(slot(n, "cb", CONSTANT_BUFFER_SLOTS, "constant-buffer")?)
        }
        ["buffer", n] => Section::Buffer(slot(n, "t", SHADER_RESOURCE_SLOTS, "shader-resource")?),
        ["uav", n] => Section::Uav(slot(n, "u", buffer::UAV_SLOTS, "pixel-shader UAV")?),
        ["interfaces"] => Section::Interfaces,
        ["tolerance"] => Section::Tolerance,
        ["test"] => Section::Test,
        ["require"] => Section::Require,
        _ => return Err(ctx.err(line, format!("unknown section [{title}]"))),
    })
}
