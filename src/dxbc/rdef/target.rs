//! The compile target RDEF records: the program type and shader model.

pub use crate::dxbc::enums::ProgramType;

/// The compile target recorded in RDEF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub program: ProgramType,
    pub major: u8,
    pub minor: u8,
    /// The raw token, kept for markers this code does not know.
    pub token: u32,
}

impl Target {
    pub fn from_token(token: u32) -> Target {
        Target {
            program: ProgramType::from_rdef((token >> 16) as u16),
            major: ((token >> 8) & 0xff) as u8,
            minor: (token & 0xff) as u8,
            token,
        }
    }

    /// e.g. "ps_5_0".
    pub fn profile(&self) -> String {
        format!("{}_{}_{}", self.program.prefix(), self.major, self.minor)
    }

    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}
