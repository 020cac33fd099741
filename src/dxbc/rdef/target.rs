//! The compile target RDEF records: the program type and shader model.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramType {
    Pixel,
    Vertex,
    Geometry,
    Hull,
    Domain,
    Compute,
    /// Any other marker, e.g. effect ('FX') targets.
    Other(u16),
}

impl ProgramType {
    /// From the high half of RDEF's target token (0xFFFF = ps, 'GS', ...).
    pub fn from_rdef(v: u16) -> ProgramType {
        match v {
            0xFFFF => ProgramType::Pixel,
            0xFFFE => ProgramType::Vertex,
            0x4753 => ProgramType::Geometry,
            0x4853 => ProgramType::Hull,
            0x4453 => ProgramType::Domain,
            0x4353 => ProgramType::Compute,
            other => ProgramType::Other(other),
        }
    }

    /// From the program chunk's version token, bits 16..32 (0 = ps ... 5 = cs).
    pub fn from_program(v: u16) -> ProgramType {
        match v {
            0 => ProgramType::Pixel,
            1 => ProgramType::Vertex,
            2 => ProgramType::Geometry,
            3 => ProgramType::Hull,
            4 => ProgramType::Domain,
            5 => ProgramType::Compute,
            other => ProgramType::Other(other),
        }
    }

    /// Profile prefix: "ps", "vs", ... ("??" for unknown markers).
    pub fn prefix(&self) -> &'static str {
        match self {
            ProgramType::Pixel => "ps",
            ProgramType::Vertex => "vs",
            ProgramType::Geometry => "gs",
            ProgramType::Hull => "hs",
            ProgramType::Domain => "ds",
            ProgramType::Compute => "cs",
            ProgramType::Other(0x4658) => "fx",
            ProgramType::Other(_) => "??",
        }
    }
}

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
