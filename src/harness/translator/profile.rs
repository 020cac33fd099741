//! A translator's conventions, as a profile file names them
//! (docs/translators.md, "Profiles"): one rule a line, `KEY PATTERN`
//! (`uniform PATTERN ROLE` for the runtime values), `#` comments. A
//! pattern is literal text with placeholders (`{semantic}`, `{index}`,
//! `{name}`, `{cbuffer}`, `{slot}`, `{texture}`, `{t}`, `{sampler}`,
//! `{s}`); a declared name is bound by rendering each rule's pattern for
//! every candidate the shader's reflection offers and comparing, so no
//! pattern is ever parsed backwards and two readings of a name cannot
//! arise. Errors name the file and line.

use std::path::Path;

use super::TranslatorError;

/// A placeholder of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hole {
    /// A signature element's semantic name, as an identifier (compared
    /// without regard to case, as D3D matches semantics).
    Semantic,
    /// Its semantic index.
    Index,
    /// An RDEF constant-buffer variable's name.
    Name,
    /// An RDEF constant buffer's name.
    Cbuffer,
    /// A constant buffer's slot (`cbN`).
    Slot,
    /// An RDEF texture binding's name.
    Texture,
    /// A texture slot (`tN`).
    T,
    /// An RDEF sampler binding's name.
    Sampler,
    /// A sampler slot (`sN`).
    S,
}

impl Hole {
    fn parse(word: &str) -> Option<Hole> {
        Some(match word {
            "semantic" => Hole::Semantic,
            "index" => Hole::Index,
            "name" => Hole::Name,
            "cbuffer" => Hole::Cbuffer,
            "slot" => Hole::Slot,
            "texture" => Hole::Texture,
            "t" => Hole::T,
            "sampler" => Hole::Sampler,
            "s" => Hole::S,
            _ => return None,
        })
    }

    fn word(self) -> &'static str {
        match self {
            Hole::Semantic => "semantic",
            Hole::Index => "index",
            Hole::Name => "name",
            Hole::Cbuffer => "cbuffer",
            Hole::Slot => "slot",
            Hole::Texture => "texture",
            Hole::T => "t",
            Hole::Sampler => "sampler",
            Hole::S => "s",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Hole(Hole),
}

/// A name pattern: text and placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    parts: Vec<Part>,
    /// As written, for messages.
    pub text: String,
}

impl Pattern {
    /// Reads `text`, allowing only the placeholders in `allowed`.
    pub fn parse(text: &str, allowed: &[Hole]) -> Result<Pattern, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            match rest.find('{') {
                Some(0) => {
                    let end = rest
                        .find('}')
                        .ok_or_else(|| format!("`{text}`: `{{` without `}}`"))?;
                    let word = &rest[1..end];
                    let hole = Hole::parse(word)
                        .ok_or_else(|| format!("`{text}`: unknown placeholder {{{word}}}"))?;
                    if !allowed.contains(&hole) {
                        let names: Vec<String> = allowed
                            .iter()
                            .map(|h| format!("{{{}}}", h.word()))
                            .collect();
                        return Err(format!(
                            "`{text}`: {{{word}}} has no meaning here (this rule takes {})",
                            if names.is_empty() {
                                "no placeholder".to_string()
                            } else {
                                names.join(", ")
                            }
                        ));
                    }
                    if matches!(parts.last(), Some(Part::Hole(_))) {
                        // `{t}{s}` would read `t12` two ways; the harness
                        // never reads names backwards, but a profile that
                        // needs text between them is clearer to people.
                        if !matches!(
                            (parts.last(), hole),
                            (Some(Part::Hole(Hole::Semantic)), Hole::Index)
                        ) {
                            return Err(format!(
                                "`{text}`: two placeholders with nothing between them"
                            ));
                        }
                    }
                    parts.push(Part::Hole(hole));
                    rest = &rest[end + 1..];
                }
                Some(at) => {
                    parts.push(Part::Text(rest[..at].to_string()));
                    rest = &rest[at..];
                }
                None => {
                    if rest.contains('}') {
                        return Err(format!("`{text}`: `}}` without `{{`"));
                    }
                    parts.push(Part::Text(rest.to_string()));
                    rest = "";
                }
            }
        }
        if parts.is_empty() {
            return Err("an empty pattern".into());
        }
        Ok(Pattern {
            parts,
            text: text.to_string(),
        })
    }

    /// Whether the pattern uses `hole`.
    pub fn uses(&self, hole: Hole) -> bool {
        self.parts.contains(&Part::Hole(hole))
    }

    /// The pattern with each placeholder's value, `None` when `value` has
    /// none for one of them.
    pub fn render(&self, value: &dyn Fn(Hole) -> Option<String>) -> Option<String> {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Text(t) => s.push_str(t),
                Part::Hole(h) => s.push_str(&value(*h)?),
            }
        }
        Some(s)
    }
}

/// How pixel-shader outputs are found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputRule {
    /// By `layout(location = N)`: `SV_TargetN`.
    Location,
    /// By name, `{index}` the target's number.
    Name(Pattern),
}

/// What the runtime puts in a uniform the translation declares for it
/// (`glsl::UniformRole`, by slot where it has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleKind {
    YFlip,
    TextureLevels,
    RasterizerSamples,
    SamplerMode,
    SamplerBorder,
    SamplerLod,
    SamplerFilter,
    InterfaceTable,
    InterfaceThis,
}

impl RoleKind {
    const ALL: [(&'static str, RoleKind); 9] = [
        ("y-flip", RoleKind::YFlip),
        ("texture-levels", RoleKind::TextureLevels),
        ("rasterizer-samples", RoleKind::RasterizerSamples),
        ("sampler-mode", RoleKind::SamplerMode),
        ("sampler-border", RoleKind::SamplerBorder),
        ("sampler-lod", RoleKind::SamplerLod),
        ("sampler-filter", RoleKind::SamplerFilter),
        ("interface-table", RoleKind::InterfaceTable),
        ("interface-this", RoleKind::InterfaceThis),
    ];

    /// The placeholders a role's pattern may use.
    fn holes(self) -> &'static [Hole] {
        match self {
            RoleKind::TextureLevels => &[Hole::T, Hole::Texture],
            RoleKind::SamplerMode
            | RoleKind::SamplerBorder
            | RoleKind::SamplerLod
            | RoleKind::SamplerFilter => &[Hole::S, Hole::Sampler],
            _ => &[],
        }
    }
}

/// How one translator names what it declares.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// The profile's name (its file stem, or the shipped profile's name).
    pub name: String,
    pub pixel_inputs: Vec<Pattern>,
    pub vertex_inputs: Vec<Pattern>,
    pub vertex_outputs: Vec<Pattern>,
    pub pixel_outputs: Vec<OutputRule>,
    /// One RDEF variable each: a plain uniform (`{name}`) or, with a dot,
    /// a block member (`{cbuffer}.{name}`).
    pub constants: Vec<Pattern>,
    /// A whole constant buffer as a `vec4` array member: `BLOCK.MEMBER`.
    pub constant_buffers: Vec<Pattern>,
    /// Combined samplers read without comparison.
    pub samplers: Vec<Pattern>,
    /// Combined samplers read with comparison.
    pub compare_samplers: Vec<Pattern>,
    /// Bare textures (`texelFetch`, `textureSize`): bound with a point
    /// sampler.
    pub textures: Vec<Pattern>,
    pub uniforms: Vec<(Pattern, RoleKind)>,
    /// The translation emulates `noperspective` (ES 3.00 lacks it) by
    /// dividing by clip w, which the vertex stage multiplies in.
    pub noperspective_emulation: bool,
}

/// The shipped profiles, by the translator name that picks them.
pub const SHIPPED: [(&str, &str); 2] = [
    (
        "hlslcc",
        include_str!("../../../assets/translators/hlslcc.profile"),
    ),
    (
        "dxbc-dbg",
        include_str!("../../../assets/translators/dxbc-dbg.profile"),
    ),
];

impl Profile {
    /// The shipped profile called `name`, if there is one.
    pub fn shipped(name: &str) -> Option<Profile> {
        let (n, text) = SHIPPED.iter().find(|(n, _)| *n == name)?;
        // The shipped files are tested to parse (a unit test below).
        Profile::parse(text, &format!("assets/translators/{n}.profile"), n).ok()
    }

    /// Reads a profile file.
    pub fn load(path: &Path) -> Result<Profile, TranslatorError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            TranslatorError::Profile(format!("{}: cannot read the profile: {e}", path.display()))
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Profile::parse(&text, &path.display().to_string(), &name)
    }

    /// Reads a profile's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str, name: &str) -> Result<Profile, TranslatorError> {
        let mut p = Profile {
            name: name.to_string(),
            ..Profile::default()
        };
        for (n, raw) in text.lines().enumerate() {
            let err = |why: String| TranslatorError::Profile(format!("{file}:{}: {why}", n + 1));
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let key = words[0];
            let arg = |k: usize| -> Result<&str, TranslatorError> {
                words
                    .get(k)
                    .copied()
                    .ok_or_else(|| err(format!("`{key}` needs a pattern")))
            };
            let expect = |count: usize| -> Result<(), TranslatorError> {
                if words.len() > count {
                    Err(err(format!(
                        "`{key}` takes {} word{} after it, found `{}`",
                        count - 1,
                        if count == 2 { "" } else { "s" },
                        words[count..].join(" ")
                    )))
                } else {
                    Ok(())
                }
            };
            let pattern = |text: &str, holes: &[Hole]| Pattern::parse(text, holes).map_err(&err);
            const SIG: &[Hole] = &[Hole::Semantic, Hole::Index];
            match key {
                "pixel-input" | "vertex-input" | "vertex-output" => {
                    let pat = pattern(arg(1)?, SIG)?;
                    expect(2)?;
                    match key {
                        "pixel-input" => p.pixel_inputs.push(pat),
                        "vertex-input" => p.vertex_inputs.push(pat),
                        _ => p.vertex_outputs.push(pat),
                    }
                }
                "pixel-output" => {
                    let a = arg(1)?;
                    expect(2)?;
                    p.pixel_outputs.push(if a == "location" {
                        OutputRule::Location
                    } else {
                        OutputRule::Name(pattern(a, &[Hole::Index])?)
                    });
                }
                "constant" => {
                    let a = arg(1)?;
                    expect(2)?;
                    let pat = pattern(a, &[Hole::Name, Hole::Cbuffer, Hole::Slot])?;
                    if !pat.uses(Hole::Name) {
                        return Err(err(format!(
                            "`constant {a}` names no {{name}}: each constant is one RDEF variable (a whole buffer is `constant-buffer`)"
                        )));
                    }
                    if a.matches('.').count() > 1 {
                        return Err(err(format!("`{a}`: at most one `.` (BLOCK.MEMBER)")));
                    }
                    p.constants.push(pat);
                }
                "constant-buffer" => {
                    let a = arg(1)?;
                    expect(2)?;
                    if a.matches('.').count() != 1 {
                        return Err(err(format!(
                            "`constant-buffer {a}`: a whole buffer is a block member, BLOCK.MEMBER"
                        )));
                    }
                    p.constant_buffers
                        .push(pattern(a, &[Hole::Slot, Hole::Cbuffer])?);
                }
                "sampler" | "sampler-compare" => {
                    let pat = pattern(arg(1)?, &[Hole::Texture, Hole::T, Hole::Sampler, Hole::S])?;
                    expect(2)?;
                    if !(pat.uses(Hole::Texture) || pat.uses(Hole::T)) {
                        return Err(err(format!(
                            "`{}` names no texture ({{texture}} or {{t}})",
                            pat.text
                        )));
                    }
                    if key == "sampler" {
                        p.samplers.push(pat);
                    } else {
                        p.compare_samplers.push(pat);
                    }
                }
                "texture" => {
                    let pat = pattern(arg(1)?, &[Hole::Texture, Hole::T])?;
                    expect(2)?;
                    p.textures.push(pat);
                }
                "uniform" => {
                    let text = arg(1)?;
                    let role_word = words.get(2).copied().ok_or_else(|| {
                        err(format!(
                            "`uniform {text}` needs a role: one of {}",
                            RoleKind::ALL.map(|(w, _)| w).join(", ")
                        ))
                    })?;
                    expect(3)?;
                    let role = RoleKind::ALL
                        .iter()
                        .find(|(w, _)| *w == role_word)
                        .map(|(_, r)| *r)
                        .ok_or_else(|| {
                            err(format!(
                                "unknown role `{role_word}`: one of {}",
                                RoleKind::ALL.map(|(w, _)| w).join(", ")
                            ))
                        })?;
                    let pat = pattern(text, role.holes())?;
                    if !role.holes().is_empty() && !role.holes().iter().any(|h| pat.uses(*h)) {
                        return Err(err(format!(
                            "`uniform {text} {role_word}` is one uniform per slot: it needs {}",
                            role.holes()
                                .iter()
                                .map(|h| format!("{{{}}}", h.word()))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        )));
                    }
                    p.uniforms.push((pat, role));
                }
                "noperspective" => {
                    let a = arg(1)?;
                    expect(2)?;
                    p.noperspective_emulation = match a {
                        "emulated" => true,
                        "ignored" => false,
                        other => {
                            return Err(err(format!(
                                "`noperspective {other}`: `emulated` or `ignored`"
                            )));
                        }
                    };
                }
                other => {
                    return Err(err(format!(
                        "unknown rule `{other}` (pixel-input, vertex-input, vertex-output, pixel-output, constant, constant-buffer, sampler, sampler-compare, texture, uniform, noperspective)"
                    )));
                }
            }
        }
        if p.pixel_outputs.is_empty() {
            p.pixel_outputs.push(OutputRule::Location);
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_profiles_parse() {
        for (name, text) in SHIPPED {
            let p = Profile::parse(text, name, name).unwrap_or_else(|e| panic!("{e}"));
            assert!(!p.pixel_inputs.is_empty(), "{name}");
            assert!(Profile::shipped(name).is_some());
        }
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let cases = [
            (
                "pixel-input vs_{semantic}{index}\nconstnat {name}\n",
                ":2: unknown rule `constnat`",
            ),
            (
                "\n\n# c\nsampler {texture}{s}\n",
                ":4: `{texture}{s}`: two placeholders",
            ),
            (
                "pixel-input vs_{name}\n",
                ":1: `vs_{name}`: {name} has no meaning here",
            ),
            (
                "uniform hlslcc_samplerMode sampler-mode\n",
                ":1: `uniform hlslcc_samplerMode sampler-mode` is one uniform per slot",
            ),
            ("uniform x y-flop\n", ":1: unknown role `y-flop`"),
            (
                "constant cb{slot}\n",
                ":1: `constant cb{slot}` names no {name}",
            ),
            ("texture t{t\n", ":1: `t{t`: `{` without `}`"),
            (
                "pixel-input a b\n",
                ":1: `pixel-input` takes 1 word after it, found `b`",
            ),
            (
                "constant-buffer cb{slot}\n",
                ":1: `constant-buffer cb{slot}`: a whole buffer",
            ),
        ];
        for (text, want) in cases {
            let e = Profile::parse(text, "x.profile", "x")
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("x.profile:"), "{e}");
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn patterns_render_each_placeholder() {
        let p = Pattern::parse("t{t}TEX_with_SMPs{s}", &[Hole::T, Hole::S]).unwrap();
        let v = |h: Hole| match h {
            Hole::T => Some("3".to_string()),
            Hole::S => Some("1".to_string()),
            _ => None,
        };
        assert_eq!(p.render(&v).as_deref(), Some("t3TEX_with_SMPs1"));
        let q = Pattern::parse("{texture}", &[Hole::Texture]).unwrap();
        assert_eq!(q.render(&v), None);
    }
}
