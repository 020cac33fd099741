//! Case files: one readable text file per test case (format in
//! `docs/cases.md`, modelled on vkd3d's `.shader_test` sections). A case
//! gives the shader, the quad, textures, samplers, constant buffers, the
//! render target, tolerances and probes. Every error names the file and
//! line.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::vm::texture::{
    AddressMode, ComparisonFunc, Dimension, Filter, Format, Sampler, Texture, TextureDesc,
};

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
}

impl Feature {
    pub const ALL: [Feature; 1] = [Feature::FineDerivatives];

    pub fn name(self) -> &'static str {
        match self {
            Feature::FineDerivatives => "fine_derivatives",
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

struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, line: usize, message: impl Into<String>) -> CaseError {
        CaseError {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    fn f32(&self, line: usize, t: &str) -> Result<f32, CaseError> {
        t.parse()
            .map_err(|_| self.err(line, format!("expected a number, found `{t}`")))
    }

    /// A probe value: a float, or `0x…` for exact bits (NaN payloads,
    /// infinities, negative zero).
    fn probe_value(&self, line: usize, t: &str) -> Result<f32, CaseError> {
        if let Some(h) = t.strip_prefix("0x") {
            return u32::from_str_radix(h, 16)
                .map(f32::from_bits)
                .map_err(|_| self.err(line, format!("bad hex value `{t}`")));
        }
        self.f32(line, t)
    }

    fn u32(&self, line: usize, t: &str) -> Result<u32, CaseError> {
        t.parse().map_err(|_| {
            self.err(
                line,
                format!("expected a non-negative integer, found `{t}`"),
            )
        })
    }

    /// A lane given as a float (`0.5`), hex bits (`0x3f800000`), or an
    /// integer with a `u`/`i` suffix (`7u`, `-1i`).
    fn lane(&self, line: usize, t: &str) -> Result<u32, CaseError> {
        if let Some(h) = t.strip_prefix("0x") {
            return u32::from_str_radix(h, 16)
                .map_err(|_| self.err(line, format!("bad hex value `{t}`")));
        }
        if let Some(i) = t.strip_suffix('i') {
            return i
                .parse::<i32>()
                .map(|v| v as u32)
                .map_err(|_| self.err(line, format!("bad integer `{t}`")));
        }
        if let Some(u) = t.strip_suffix('u') {
            return u
                .parse::<u32>()
                .map_err(|_| self.err(line, format!("bad integer `{t}`")));
        }
        Ok(self.f32(line, t)?.to_bits())
    }

    fn lanes4(&self, line: usize, toks: &[&str]) -> Result<[u32; 4], CaseError> {
        if toks.len() != 4 {
            return Err(self.err(line, format!("expected four values, found {}", toks.len())));
        }
        let mut v = [0; 4];
        for (i, t) in toks.iter().enumerate() {
            v[i] = self.lane(line, t)?;
        }
        Ok(v)
    }
}

fn format_named(name: &str) -> Option<Format> {
    Some(match name {
        "r8_unorm" => Format::R8Unorm,
        "rg8_unorm" => Format::Rg8Unorm,
        "rgba8_unorm" => Format::Rgba8Unorm,
        "r32_float" => Format::R32Float,
        "rg32_float" => Format::Rg32Float,
        "rgba16_float" => Format::Rgba16Float,
        "rgba32_float" => Format::Rgba32Float,
        "r32_uint" => Format::R32Uint,
        "r32_sint" => Format::R32Sint,
        "d32_float" => Format::D32Float,
        "d16_unorm" => Format::D16Unorm,
        _ => return None,
    })
}

fn address_named(name: &str) -> Option<AddressMode> {
    Some(match name {
        "wrap" => AddressMode::Wrap,
        "mirror" => AddressMode::Mirror,
        "clamp" => AddressMode::Clamp,
        "border" => AddressMode::Border,
        "mirror_once" => AddressMode::MirrorOnce,
        _ => return None,
    })
}

fn compare_named(name: &str) -> Option<ComparisonFunc> {
    Some(match name {
        "never" => ComparisonFunc::Never,
        "less" => ComparisonFunc::Less,
        "equal" => ComparisonFunc::Equal,
        "less_equal" => ComparisonFunc::LessEqual,
        "greater" => ComparisonFunc::Greater,
        "not_equal" => ComparisonFunc::NotEqual,
        "greater_equal" => ComparisonFunc::GreaterEqual,
        "always" => ComparisonFunc::Always,
        _ => return None,
    })
}

fn filter_named(name: &str) -> Option<Filter> {
    match name {
        "point" => Some(Filter::Point),
        "linear" => Some(Filter::Linear),
        _ => None,
    }
}

/// A section's lines: (line number, text without comment).
type Lines<'a> = Vec<(usize, &'a str)>;

fn strip(line: &str) -> &str {
    match line.find('#') {
        Some(p) => line[..p].trim(),
        None => line.trim(),
    }
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
                    for (l, t) in &stripped {
                        let toks: Vec<&str> = t.split_whitespace().collect();
                        match toks.as_slice() {
                            ["size", w, h] => {
                                case.width = ctx.u32(*l, w)?;
                                case.height = ctx.u32(*l, h)?;
                                if !(1..=4096).contains(&case.width)
                                    || !(1..=4096).contains(&case.height)
                                {
                                    return Err(ctx.err(
                                        *l,
                                        format!("render target size {w}x{h} is outside 1..=4096"),
                                    ));
                                }
                            }
                            ["format", _] => {}
                            _ => return Err(ctx.err(*l, "expected `size W H` or `format F`")),
                        }
                    }
                }
                ["quad"] => case.quad = parse_quad(&ctx, &stripped)?,
                ["texture", slot] => {
                    let slot = ctx.u32(n, slot)?;
                    case.textures
                        .push((slot, parse_texture(&ctx, n, &stripped)?));
                }
                ["sampler", slot] => {
                    let slot = ctx.u32(n, slot)?;
                    case.samplers.push((slot, parse_sampler(&ctx, &stripped)?));
                }
                ["constant", "buffer", slot] => {
                    let slot = ctx.u32(n, slot)?;
                    case.constant_buffers
                        .push((slot, parse_rows(&ctx, &stripped)?));
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
                    for (l, t) in &stripped {
                        let toks: Vec<&str> = t.split_whitespace().collect();
                        let probe = match toks.as_slice() {
                            ["golden"] => {
                                case.golden = true;
                                continue;
                            }
                            ["probe", "rect", x, y, w, h, r, g, b, a] => Probe {
                                line: *l,
                                rect: [
                                    ctx.u32(*l, x)?,
                                    ctx.u32(*l, y)?,
                                    ctx.u32(*l, w)?,
                                    ctx.u32(*l, h)?,
                                ],
                                expected: [
                                    ctx.probe_value(*l, r)?,
                                    ctx.probe_value(*l, g)?,
                                    ctx.probe_value(*l, b)?,
                                    ctx.probe_value(*l, a)?,
                                ],
                            },
                            ["probe", x, y, r, g, b, a] => Probe {
                                line: *l,
                                rect: [ctx.u32(*l, x)?, ctx.u32(*l, y)?, 1, 1],
                                expected: [
                                    ctx.probe_value(*l, r)?,
                                    ctx.probe_value(*l, g)?,
                                    ctx.probe_value(*l, b)?,
                                    ctx.probe_value(*l, a)?,
                                ],
                            },
                            _ => {
                                return Err(ctx.err(
                                    *l,
                                    "expected `probe X Y r g b a`, `probe rect X Y W H r g b a` or `golden`",
                                ));
                            }
                        };
                        case.probes.push(probe);
                    }
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

/// A full-screen quad at w = 1 with no attributes.
pub fn default_quad() -> Vec<Vertex> {
    [(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .map(|&(x, y)| Vertex {
            position: [x, y, 0.5, 1.0],
            attributes: Vec::new(),
        })
        .collect()
}

/// Input registers a vertex may give values for (D3D11's vertex and pixel
/// shader input register count).
pub const INPUT_REGISTERS: u32 = 32;

/// `vertex X Y Z W [vN a b c d]...`, four lines.
fn parse_quad(ctx: &Ctx, lines: &Lines) -> Result<Vec<Vertex>, CaseError> {
    let mut quad = Vec::new();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if toks.first() != Some(&"vertex") || toks.len() < 5 {
            return Err(ctx.err(*l, "expected `vertex X Y Z W [vN a b c d]...`"));
        }
        let mut position = [0.0; 4];
        for i in 0..4 {
            position[i] = ctx.f32(*l, toks[1 + i])?;
        }
        let mut attributes = Vec::new();
        let mut rest = &toks[5..];
        while let Some(reg) = rest.first() {
            let r = reg.strip_prefix('v').ok_or_else(|| {
                ctx.err(
                    *l,
                    format!("expected an input register like v1, found `{reg}`"),
                )
            })?;
            let r = ctx.u32(*l, r)?;
            // D3D11 shaders have 32 input registers; a larger number could
            // never be read, and silently dropping it would hide the typo.
            if r >= INPUT_REGISTERS {
                return Err(ctx.err(*l, format!("{reg} is outside v0..v{}", INPUT_REGISTERS - 1)));
            }
            if attributes.iter().any(|(a, _)| *a == r) {
                return Err(ctx.err(*l, format!("{reg} is given twice")));
            }
            if rest.len() < 5 {
                return Err(ctx.err(*l, format!("{reg} needs four values")));
            }
            attributes.push((r, ctx.lanes4(*l, &rest[1..5])?));
            rest = &rest[5..];
        }
        quad.push(Vertex {
            position,
            attributes,
        });
    }
    if quad.len() != 4 {
        let line = lines.first().map(|(l, _)| *l).unwrap_or(0);
        return Err(ctx.err(
            line,
            format!("a quad has four vertices, found {}", quad.len()),
        ));
    }
    Ok(quad)
}

/// `row N float|uint|int|hex a b c d` lines.
fn parse_rows(ctx: &Ctx, lines: &Lines) -> Result<Vec<[u32; 4]>, CaseError> {
    let mut rows: Vec<[u32; 4]> = Vec::new();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        let (idx, kind, vals) = match toks.as_slice() {
            ["row", i, kind, rest @ ..] => (ctx.u32(*l, i)?, *kind, rest),
            _ => return Err(ctx.err(*l, "expected `row N float|uint|int|hex a b c d`")),
        };
        if vals.len() != 4 {
            return Err(ctx.err(*l, "a row has four values"));
        }
        let mut v = [0u32; 4];
        for (i, t) in vals.iter().enumerate() {
            v[i] = match kind {
                "float" => ctx.f32(*l, t)?.to_bits(),
                "uint" => ctx.u32(*l, t)?,
                "int" => t
                    .parse::<i32>()
                    .map_err(|_| ctx.err(*l, format!("bad integer `{t}`")))?
                    as u32,
                "hex" => ctx.lane(*l, t)?,
                k => return Err(ctx.err(*l, format!("unknown row type `{k}`"))),
            };
        }
        // D3D11 buffers hold at most 4096 16-byte constants; a row past
        // that is a mistake in the case, not something to move to the end.
        if idx > 4095 {
            return Err(ctx.err(*l, format!("row {idx} is outside 0..=4095")));
        }
        let idx = idx as usize;
        if rows.len() <= idx {
            rows.resize(idx + 1, [0; 4]);
        }
        rows[idx] = v;
    }
    Ok(rows)
}

fn parse_sampler(ctx: &Ctx, lines: &Lines) -> Result<Sampler, CaseError> {
    let mut s = Sampler::default();
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        let bad = |what: &str| ctx.err(*l, format!("unknown {what} in `{t}`"));
        match toks.as_slice() {
            ["filter", f] => {
                let f = filter_named(f).ok_or_else(|| bad("filter"))?;
                s.min_filter = f;
                s.mag_filter = f;
                s.mip_filter = f;
            }
            ["filter", "min", a, "mag", b, "mip", c] => {
                s.min_filter = filter_named(a).ok_or_else(|| bad("filter"))?;
                s.mag_filter = filter_named(b).ok_or_else(|| bad("filter"))?;
                s.mip_filter = filter_named(c).ok_or_else(|| bad("filter"))?;
            }
            ["address", modes @ ..] if !modes.is_empty() && modes.len() <= 3 => {
                let m: Vec<AddressMode> = modes
                    .iter()
                    .map(|m| address_named(m).ok_or_else(|| bad("address mode")))
                    .collect::<Result<_, _>>()?;
                for i in 0..3 {
                    s.address[i] = m[i.min(m.len() - 1)];
                }
            }
            ["border", r, g, b, a] => {
                s.border_color = [
                    ctx.f32(*l, r)?,
                    ctx.f32(*l, g)?,
                    ctx.f32(*l, b)?,
                    ctx.f32(*l, a)?,
                ]
            }
            ["compare", f] => s.comparison = compare_named(f).ok_or_else(|| bad("comparison"))?,
            ["lod_bias", v] => s.mip_lod_bias = ctx.f32(*l, v)?,
            ["min_lod", v] => s.min_lod = ctx.f32(*l, v)?,
            ["max_lod", v] => s.max_lod = ctx.f32(*l, v)?,
            _ => return Err(ctx.err(*l, format!("unknown sampler setting `{t}`"))),
        }
    }
    Ok(s)
}

fn parse_texture(ctx: &Ctx, at: usize, lines: &Lines) -> Result<Texture, CaseError> {
    let mut format = Format::Rgba8Unorm;
    let mut dimension = Dimension::Tex2D;
    let mut size = [1u32, 1, 1];
    let mut mips = 1u32;
    let mut fill: Option<(usize, Vec<String>)> = None;
    let mut values: Vec<[u32; 4]> = Vec::new();
    let mut in_values = false;
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if in_values {
            if !toks.len().is_multiple_of(4) {
                return Err(ctx.err(*l, "texel values come four to a texel"));
            }
            for c in toks.chunks(4) {
                values.push(ctx.lanes4(*l, c)?);
            }
            continue;
        }
        match toks.as_slice() {
            ["format", f] => {
                format =
                    format_named(f).ok_or_else(|| ctx.err(*l, format!("unknown format `{f}`")))?
            }
            ["dimension", d] => {
                dimension = match *d {
                    "1d" => Dimension::Tex1D,
                    "1darray" => Dimension::Tex1DArray,
                    "2d" => Dimension::Tex2D,
                    "2darray" => Dimension::Tex2DArray,
                    "3d" => Dimension::Tex3D,
                    "cube" => Dimension::Cube,
                    "cubearray" => Dimension::CubeArray,
                    _ => return Err(ctx.err(*l, format!("unknown dimension `{d}`"))),
                }
            }
            ["size", dims @ ..] if !dims.is_empty() && dims.len() <= 3 => {
                for (i, d) in dims.iter().enumerate() {
                    size[i] = ctx.u32(*l, d)?;
                    if !(1..=4096).contains(&size[i]) {
                        return Err(ctx.err(*l, format!("texture size {d} is outside 1..=4096")));
                    }
                }
            }
            ["mips", "full"] => mips = 0,
            ["mips", n] => {
                mips = ctx.u32(*l, n)?;
                if !(1..=16).contains(&mips) {
                    return Err(ctx.err(*l, format!("mip count {n} is outside 1..=16")));
                }
            }
            ["fill", rest @ ..] => fill = Some((*l, rest.iter().map(|s| s.to_string()).collect())),
            ["values"] => in_values = true,
            _ => return Err(ctx.err(*l, format!("unknown texture setting `{t}`"))),
        }
    }
    let [w, h, d] = size;
    let desc = match dimension {
        Dimension::Tex1D => TextureDesc::tex1d(format, w),
        Dimension::Tex1DArray => TextureDesc::tex1d_array(format, w, h),
        Dimension::Tex2DArray => TextureDesc::tex2d_array(format, w, h, d),
        Dimension::Tex3D => TextureDesc::tex3d(format, w, h, d),
        Dimension::Cube => TextureDesc::cube(format, w),
        Dimension::CubeArray => TextureDesc::cube_array(format, w, d),
        _ => TextureDesc::tex2d(format, w, h),
    }
    .with_mips(mips);
    let count = Texture::zeroed(desc)
        .map_err(|e| ctx.err(at, format!("texture: {e}")))?
        .texel_count();
    let texels: Vec<[u32; 4]> = match fill {
        Some((l, f)) => generate(ctx, l, &f, count, [w, h])?,
        None if !values.is_empty() => {
            if values.len() != count {
                return Err(ctx.err(
                    at,
                    format!("texture needs {count} texel values, found {}", values.len()),
                ));
            }
            values
        }
        None => vec![[0, 0, 0, 1.0f32.to_bits()]; count],
    };
    let floats: Vec<[f32; 4]> = texels.iter().map(|t| t.map(f32::from_bits)).collect();
    let integer = matches!(format, Format::R32Uint | Format::R32Sint);
    let tex = if integer {
        Texture::from_lanes(desc, &texels)
    } else {
        Texture::from_f32(desc, &floats)
    };
    tex.map_err(|e| ctx.err(at, format!("texture: {e}")))
}

/// Texels for `fill checker | gradient | ramp | constant r g b a`. Texels
/// are laid out level by level, layer by layer, row-major; patterns are
/// computed from the index within the top level's rows.
fn generate(
    ctx: &Ctx,
    l: usize,
    what: &[String],
    count: usize,
    [w, h]: [u32; 2],
) -> Result<Vec<[u32; 4]>, CaseError> {
    let one = 1.0f32.to_bits();
    let per_image = (w * h).max(1) as usize;
    Ok(match what.first().map(String::as_str) {
        Some("checker") => (0..count)
            .map(|i| {
                let j = i % per_image;
                let (x, y) = (j % w as usize, j / w as usize);
                let v = if (x + y) % 2 == 1 { one } else { 0 };
                [v, v, v, one]
            })
            .collect(),
        Some("gradient") => (0..count)
            .map(|i| {
                let j = i % per_image;
                let (x, y) = ((j % w as usize) as f32, (j / w as usize) as f32);
                [
                    ((x + 0.5) / w as f32).to_bits(),
                    ((y + 0.5) / h as f32).to_bits(),
                    0,
                    one,
                ]
            })
            .collect(),
        Some("ramp") => (0..count)
            .map(|i| {
                let j = (i % per_image) as f32;
                let v = (j + 0.5) / per_image as f32;
                [v.to_bits(), 0, 0, one]
            })
            .collect(),
        Some("image") if what.len() == 2 => {
            let path = Path::new(ctx.file)
                .parent()
                .unwrap_or(Path::new(""))
                .join(&what[1]);
            let img = super::image::read_picture(&path)
                .map_err(|e| ctx.err(l, format!("{}: {e}", path.display())))?
                .to_rgba8();
            if img.width() != w || img.height() != h {
                return Err(ctx.err(
                    l,
                    format!(
                        "{} is {}x{}, the texture {w}x{h}",
                        path.display(),
                        img.width(),
                        img.height()
                    ),
                ));
            }
            (0..count)
                .map(|i| {
                    let j = i % per_image;
                    let p = img.get_pixel((j % w as usize) as u32, (j / w as usize) as u32);
                    p.0.map(|c| (c as f32 / 255.0).to_bits())
                })
                .collect()
        }
        Some("constant") if what.len() == 5 => {
            let toks: Vec<&str> = what[1..].iter().map(String::as_str).collect();
            vec![ctx.lanes4(l, &toks)?; count]
        }
        _ => {
            return Err(ctx.err(
                l,
                "expected `fill checker`, `fill gradient`, `fill ramp`, `fill constant r g b a` or `fill image PATH`",
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Case, CaseError> {
        Case::parse(text, Path::new("t.case"))
    }

    #[test]
    fn a_complete_case_parses() {
        let c = parse(
            "[pixel shader]\nps_5_0\nret\n[render target]\nsize 8 4\n[quad]\nvertex -1 1 0 1 v1 0 0 0 1\nvertex 1 1 0 2 v1 1 0 0 1\nvertex -1 -1 0 1 v1 0 1 0 1\nvertex 1 -1 0 2 v1 1 1 0 1\n[texture 0]\nformat r32_float\nsize 2 2\nvalues\n0 0 0 1  1 0 0 1\n0.5 0 0 1  0.25 0 0 1\n[sampler 0]\nfilter point\naddress border clamp\ncompare less_equal\n[constant buffer 1]\nrow 2 uint 1 2 3 4\n[tolerance]\nabs 0.001\n[test]\nprobe 1 2 0 0 0 1\nprobe rect 0 0 4 4 1 1 1 1\n",
        )
        .expect("parses");
        assert_eq!((c.width, c.height), (8, 4));
        assert_eq!(c.quad[1].position[3], 2.0);
        assert_eq!(c.quad[3].attributes[0].0, 1);
        assert_eq!(c.constant_buffers[0].1[2], [1, 2, 3, 4]);
        assert_eq!(c.samplers[0].1.address[1], AddressMode::Clamp);
        assert_eq!(c.probes.len(), 2);
        assert_eq!(c.tolerance.abs, 0.001);
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = parse("[pixel shader]\nps_5_0\n[quad]\nvertex 1 2 3\n").unwrap_err();
        assert_eq!(e.line, 4);
        assert_eq!(e.to_string().split(':').next(), Some("t.case"));
        let e =
            parse("[pixel shader]\nps_5_0\n[texture 0]\nsize 2 2\nvalues\n1 2 3\n").unwrap_err();
        assert_eq!(e.line, 6);
        let e = parse("[sampler 0]\nfilter blurry\n[pixel shader]\nps_5_0\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            parse("[render target]\nsize 4 4\n")
                .unwrap_err()
                .message
                .contains("pixel shader")
        );
    }

    #[test]
    fn quad_attributes_name_a_real_input_register_once() {
        let quad = |first: &str| {
            format!(
                "[pixel shader]\nps_5_0\n[quad]\nvertex -1 1 0 1 {first}\nvertex 1 1 0 1\nvertex -1 -1 0 1\nvertex 1 -1 0 1\n"
            )
        };
        // v31 is the last of D3D11's 32 input registers.
        let c = parse(&quad("v31 1 2 3 4")).expect("v31 exists");
        assert_eq!(
            c.quad[0].attributes,
            vec![(31, [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits))]
        );
        let e = parse(&quad("v32 1 2 3 4")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (4, "v32 is outside v0..v31"));
        // u32::MAX once overflowed the register count built from it.
        let e = parse(&quad("v4294967295 0 0 0 1")).unwrap_err();
        assert_eq!(e.message, "v4294967295 is outside v0..v31");
        let e = parse(&quad("v1 0 0 0 1 v1 1 1 1 1")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (4, "v1 is given twice"));
    }

    #[test]
    fn invalid_utf8_is_refused_at_its_line_and_offset() {
        // "[pixel shader]\n" is 15 bytes and "ps_5_0\n" 7, so the 0xff
        // after "mov " on line 3 is byte 15 + 7 + 4 = 26.
        let e = Case::from_bytes(
            b"[pixel shader]\nps_5_0\nmov \xff\nret\n",
            Path::new("t.case"),
        )
        .unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.to_string(), "t.case:3: not UTF-8: byte offset 26 (0xff)");
        // A sequence cut off by the end of the file is refused the same way:
        // 0xc3 starts a two-byte character at offset 0 of line 1.
        let e = Case::from_bytes(b"\xc3", Path::new("t.case")).unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "not UTF-8: byte offset 0 (0xc3)")
        );
    }

    #[test]
    fn out_of_range_sizes_are_errors_not_clamps() {
        let e = parse("[pixel shader]\nps_5_0\n[render target]\nsize 0 4\n").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("outside"), "{e}");
        let e = parse("[pixel shader]\nps_5_0\n[texture 0]\nsize 5000 2\n").unwrap_err();
        assert_eq!(e.line, 4);
        // A constant buffer holds 4096 rows, 0 to 4095; 4096 is one past.
        let e = parse("[pixel shader]\nps_5_0\n[constant buffer 0]\nrow 4096 uint 1 2 3 4\n")
            .unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("row 4096 is outside 0..=4095"), "{e}");
        let c = parse("[pixel shader]\nps_5_0\n[constant buffer 0]\nrow 4095 uint 1 2 3 4\n")
            .expect("the last row is allowed");
        assert_eq!(c.constant_buffers[0].1.len(), 4096);
        let e = parse("[pixel shader]\nps_5_0\n[texture 0]\nsize 2 2\nmips 17\n").unwrap_err();
        assert_eq!(e.line, 5);
        assert!(e.message.contains("mip count 17"), "{e}");
    }

    #[test]
    fn requirements_name_a_known_feature_and_a_reason() {
        let c = parse("[pixel shader]\nps_5_0\n[require]\nfine_derivatives one dFdx in ES\n")
            .expect("parses");
        assert_eq!(c.requires.len(), 1);
        assert_eq!(c.requires[0].feature, Feature::FineDerivatives);
        assert_eq!(c.requires[0].reason, "one dFdx in ES");
        let e = parse("[pixel shader]\nps_5_0\n[require]\nteleportation why not\n").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("fine_derivatives"), "{e}");
        let e = parse("[pixel shader]\nps_5_0\n[require]\nfine_derivatives\n").unwrap_err();
        assert!(e.message.contains("REASON"), "{e}");
    }
}
