//! Other translators' GLSL under the same test (docs/translators.md).
//!
//! A translator is a command that turns a DXBC container into GLSL ES 3.00
//! (Unity's HLSLcc, a fork of it, dxbc-dbg itself run as a program). The
//! harness hands it each case's shaders as files, binds what it prints by
//! the names a **profile** describes (reflection names from RDEF and the
//! signatures, the translator's own conventions), and draws it on WebGL2
//! beside dxbc-dbg's own translation and the emulator.
//!
//! * `profile`: the profile file (naming patterns, runtime values);
//! * `command`: running the command on a case's shaders, bounded in time
//!   and output, with the blobs it reads (RDEF made up where a case's
//!   assembly has none, as a translator needs one);
//! * `reflect`: the declarations of a GLSL text (its `in`, `out` and
//!   `uniform` names and types), read from the text itself;
//! * `bind`: the binding contract of one translation — which texture,
//!   sampler, constant or varying each declared name is — as the typed
//!   `glsl::Manifest` the WebGL2 scene already reads, plus constants bound
//!   by name.

pub mod bind;
pub mod command;
pub mod profile;
pub mod reflect;

use std::time::Duration;

pub use bind::{Binding, NamedConstant};
pub use command::Stage;
pub use profile::Profile;

use super::case::{Case, CaseShaders};
use super::suite::{Backend, Rendered, Renderer};
use super::webgl2::WebGl2;
use crate::glsl;

/// The name dxbc-dbg's built-in translation goes by in results.
pub const BUILT_IN: &str = "dxbc-dbg";

/// One external translator: its name in results, the command for each
/// stage, and the profile binding its text.
#[derive(Debug, Clone)]
pub struct Translator {
    pub name: String,
    /// The command for pixel shaders and the one for vertex shaders
    /// (the same template unless `{ps}`/`{vs}` say otherwise).
    pub pixel: Template,
    pub vertex: Option<Template>,
    pub profile: Profile,
}

/// A command line to run on one blob: words as a shell would split them
/// (`sh -c`), with `{dxbc}`, `{ps}` or `{vs}` replaced by the blob's path
/// (quoted), or the path appended when it names none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub command: String,
}

/// Why an external translation could not be made or bound. Each names the
/// translator and, where there is one, the case file.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TranslatorError {
    /// `--translator` or `--translator-profile` is not `NAME=…`, names no
    /// command, or a name is given twice.
    #[error("--translator {spec}: {why}")]
    Spec { spec: String, why: String },
    /// The profile file is malformed (file and line named).
    #[error("{0}")]
    Profile(String),
    /// The command could not start, ended with an error status or a
    /// signal, printed nothing, or ran past the time limit.
    #[error("{translator}: {why}")]
    Command { translator: String, why: String },
    /// The text declares something the profile cannot bind (a uniform no
    /// pattern names, a varying with no matching signature element).
    #[error("{translator}: cannot bind {what}: {why}")]
    Bind {
        translator: String,
        what: String,
        why: String,
    },
}

/// One stage of an external translation: the text and its binding.
#[derive(Debug, Clone)]
pub struct StageTranslation {
    pub text: String,
    pub binding: Binding,
}

/// A case's shaders as an external translator gives them: the pixel
/// shader, and the vertex shader when the case has one and the translator
/// a vertex command (otherwise the harness's pass-through feeds the pixel
/// shader).
#[derive(Debug, Clone)]
pub struct Translated {
    pub pixel: StageTranslation,
    pub vertex: Option<StageTranslation>,
}

/// Whether a name is usable in results and file names.
fn good_name(n: &str) -> bool {
    !n.is_empty()
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl Translator {
    /// The translators the `--translator NAME=COMMAND` specs and the
    /// `--translator-profile NAME=FILE` specs describe, in the order their
    /// names first appear. A command naming `{vs}` is the vertex command,
    /// one naming `{ps}` the pixel command, and one naming neither both;
    /// two specs of one name set its two stages. Without a profile, the
    /// names `hlslcc` and `dxbc-dbg` take the shipped ones; a FILE of
    /// `@hlslcc` or `@dxbc-dbg` names a shipped profile for another name.
    pub fn from_specs(
        specs: &[String],
        profiles: &[String],
    ) -> Result<Vec<Translator>, TranslatorError> {
        let split = |spec: &str, what: &str| -> Result<(String, String), TranslatorError> {
            let bad = |why: String| TranslatorError::Spec {
                spec: spec.to_string(),
                why,
            };
            let (name, rest) = spec
                .split_once('=')
                .ok_or_else(|| bad(format!("expected NAME={what}")))?;
            let name = name.trim();
            if !good_name(name) {
                return Err(bad(format!(
                    "the name `{name}` is not letters, digits, `-`, `_` and `.`"
                )));
            }
            // Results name the built-in translation `dxbc-dbg`: an external
            // one of that name would be merged with it in every report.
            if name == BUILT_IN {
                return Err(bad(format!(
                    "`{BUILT_IN}` is the built-in translation's name in results; name the \
                     command otherwise (its profile: --translator-profile NAME=@{BUILT_IN})"
                )));
            }
            if rest.trim().is_empty() {
                return Err(bad(format!("no {what} after `{name}=`")));
            }
            Ok((name.to_string(), rest.trim().to_string()))
        };
        let mut out: Vec<Translator> = Vec::new();
        for spec in specs {
            let (name, command) = split(spec, "COMMAND")?;
            let (vs, ps) = (command.contains("{vs}"), command.contains("{ps}"));
            let bad = |why: &str| TranslatorError::Spec {
                spec: spec.clone(),
                why: why.to_string(),
            };
            let (pixel, vertex) = match (vs, ps) {
                // `{ps}` in a vertex command is the pixel shader it feeds.
                (true, _) => (false, true),
                (false, true) => (true, false),
                (false, false) => (true, true),
            };
            let template = Template { command };
            let t = match out.iter_mut().find(|t| t.name == name) {
                Some(t) => t,
                None => {
                    out.push(Translator {
                        name: name.clone(),
                        pixel: Template {
                            command: String::new(),
                        },
                        vertex: None,
                        profile: Profile::default(),
                    });
                    out.last_mut().expect("just pushed")
                }
            };
            if pixel {
                if !t.pixel.command.is_empty() {
                    return Err(bad("a second pixel-shader command for this name"));
                }
                t.pixel = template.clone();
            }
            if vertex {
                if t.vertex.is_some() {
                    return Err(bad("a second vertex-shader command for this name"));
                }
                t.vertex = Some(template);
            }
        }
        for t in &out {
            if t.pixel.command.is_empty() {
                return Err(TranslatorError::Spec {
                    spec: t.name.clone(),
                    why: "only a vertex-shader command ({vs}); a pixel-shader one is needed too"
                        .into(),
                });
            }
        }
        let mut given: Vec<String> = Vec::new();
        for spec in profiles {
            let (name, file) = split(spec, "FILE")?;
            let bad = |why: String| TranslatorError::Spec {
                spec: spec.clone(),
                why,
            };
            if given.contains(&name) {
                return Err(bad(format!("a second profile for `{name}`")));
            }
            let t = out
                .iter_mut()
                .find(|t| t.name == name)
                .ok_or_else(|| bad(format!("no --translator is called `{name}`")))?;
            t.profile = match file.strip_prefix('@') {
                Some(shipped) => Profile::shipped(shipped).ok_or_else(|| {
                    bad(format!(
                        "no shipped profile `{shipped}` (there are {})",
                        profile::SHIPPED.map(|(n, _)| n).join(", ")
                    ))
                })?,
                None => Profile::load(std::path::Path::new(&file))?,
            };
            given.push(name);
        }
        for t in &mut out {
            if given.contains(&t.name) {
                continue;
            }
            t.profile = Profile::shipped(&t.name).ok_or_else(|| TranslatorError::Spec {
                spec: t.name.clone(),
                why: format!(
                    "no profile: give --translator-profile {}=FILE (profiles are shipped for {})",
                    t.name,
                    profile::SHIPPED.map(|(n, _)| n).join(", ")
                ),
            })?;
        }
        Ok(out)
    }

    /// Runs the commands on the case's shaders (each within `limit`) and
    /// binds their texts.
    pub fn translate(
        &self,
        shaders: &CaseShaders,
        limit: Duration,
    ) -> Result<Translated, TranslatorError> {
        let blobs = command::Blobs::write(&self.name, shaders)?;
        let stage = |template: &Template, stage: Stage, shader: &crate::dxbc::Shader| {
            let text = command::run(&self.name, template, stage, &blobs, limit)?;
            let binding = bind::bind(&self.name, &text, shader, &self.profile)?;
            Ok::<_, TranslatorError>(StageTranslation { text, binding })
        };
        let pixel = stage(&self.pixel, Stage::Pixel, &shaders.pixel)?;
        let vertex = match (&shaders.vertex, &self.vertex) {
            (Some(vs), Some(t)) => Some(stage(t, Stage::Vertex, vs)?),
            _ => None,
        };
        Ok(Translated { pixel, vertex })
    }
}

/// An external translator drawn on WebGL2, as a `suite::Renderer`: every
/// case translated by its command, bound by its profile and drawn in the
/// WebGL2 backend's browser.
pub struct ExternalRenderer<'a> {
    pub webgl2: &'a WebGl2,
    pub translator: Translator,
}

impl<'a> ExternalRenderer<'a> {
    pub fn new(webgl2: &'a WebGl2, translator: Translator) -> ExternalRenderer<'a> {
        ExternalRenderer { webgl2, translator }
    }
}

impl Renderer for ExternalRenderer<'_> {
    fn backend(&self) -> Backend {
        Backend::WebGl2
    }

    fn name(&self) -> String {
        format!("{} on {}", self.translator.name, self.webgl2.name())
    }

    /// Results are keyed on backend and translator: this one's name keeps
    /// them apart from the built-in translation's on the same backend.
    fn translator(&self) -> &str {
        &self.translator.name
    }

    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        self.webgl2
            .render_external(jobs, &self.translator)
            .into_iter()
            .map(|r| r.map(Rendered::from).map_err(|e| e.to_string()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn specs_give_each_stage_its_command_and_profile() {
        let t = Translator::from_specs(
            &specs(&["hlslcc=hlslcc_batch --print", "me=a {ps}", "me=b {vs} {ps}"]),
            &specs(&["me=@dxbc-dbg"]),
        )
        .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].name, "hlslcc");
        assert_eq!(t[0].pixel.command, "hlslcc_batch --print");
        assert_eq!(
            t[0].vertex.as_ref().unwrap().command,
            "hlslcc_batch --print"
        );
        assert_eq!(t[0].profile.name, "hlslcc");
        assert_eq!(t[1].pixel.command, "a {ps}");
        assert_eq!(t[1].vertex.as_ref().unwrap().command, "b {vs} {ps}");
        assert_eq!(t[1].profile.name, "dxbc-dbg");
        let only_ps =
            Translator::from_specs(&specs(&["own=x {ps}"]), &["own=@dxbc-dbg".into()]).unwrap();
        assert!(only_ps[0].vertex.is_none());
    }

    #[test]
    fn bad_specs_are_named() {
        let cases: [(&[&str], &[&str], &str); 9] = [
            (&["hlslcc"], &[], "expected NAME=COMMAND"),
            (&["hlslcc="], &[], "no COMMAND after `hlslcc=`"),
            (&["a b=x"], &[], "the name `a b`"),
            (
                &["other=x"],
                &[],
                "no profile: give --translator-profile other=FILE",
            ),
            (
                &["h=x {vs}"],
                &["h=@hlslcc"],
                "only a vertex-shader command",
            ),
            (
                &["h=x {ps}", "h=y {ps}"],
                &["h=@hlslcc"],
                "a second pixel-shader command",
            ),
            (&["h=x"], &["g=@hlslcc"], "no --translator is called `g`"),
            (&["h=x"], &["h=@nope"], "no shipped profile `nope`"),
            (&["dxbc-dbg=x"], &[], "the built-in translation's name"),
        ];
        for (s, p, want) in cases {
            let e = Translator::from_specs(&specs(s), &specs(p)).unwrap_err();
            assert!(matches!(e, TranslatorError::Spec { .. }), "{e:?}");
            assert!(e.to_string().contains(want), "{s:?} {p:?}: {e}");
        }
        let e = Translator::from_specs(&specs(&["h=x"]), &specs(&["h=/no/such.profile"]))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/no/such.profile: cannot read the profile"),
            "{e}"
        );
    }
}
