//! A translator's conventions, as a profile file names them
//! (docs/translators.md, "Profiles"). Placeholder: the format is filled
//! in with the binding.

/// How one translator names what it declares.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// The profile's name (its file stem, or the shipped profile's name).
    pub name: String,
}
