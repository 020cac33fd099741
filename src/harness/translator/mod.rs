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

pub mod profile;

pub use profile::Profile;

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
