//! D3D's enums, each described once: the token or chunk value, the Rust
//! name every layer matches on, and (where fxc prints one) the spelling.
//! Values this code does not know are kept as `Other(n)`, never clamped,
//! so untrusted bytecode still round-trips and prints what it holds.

/// Declares an enum with a numeric code per variant and an `Other` variant
/// for values outside the list; `from_code`/`code` convert both ways.
macro_rules! coded_enum {
    // With fxc's spelling of each value, and of values it does not know.
    (
        $(#[$meta:meta])*
        $name:ident : $repr:ty, unknown $unknown:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal => $spelling:literal, )*
        }
    ) => {
        coded_enum! {
            $(#[$meta])*
            $name: $repr {
                $( $(#[$vmeta])* $variant = $code, )*
            }
        }

        impl $name {
            /// fxc's spelling.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $spelling, )*
                    $name::Other(_) => $unknown,
                }
            }
        }
    };
    (
        $(#[$meta:meta])*
        $name:ident : $repr:ty {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value this code does not know, kept as read.
            Other($repr),
        }

        impl $name {
            pub fn from_code(v: $repr) -> $name {
                match v {
                    $( $code => $name::$variant, )*
                    other => $name::Other(other),
                }
            }

            pub fn code(self) -> $repr {
                match self {
                    $( $name::$variant => $code, )*
                    $name::Other(v) => v,
                }
            }
        }
    };
}

coded_enum! {
    /// Program type: the version token's bits 16..31 in SHDR/SHEX
    /// (`D3D10_SB_TOKENIZED_PROGRAM_TYPE`). RDEF's target token spells the
    /// same types differently (see [`ProgramType::from_rdef`]).
    ProgramType: u16 {
        Pixel = 0,
        Vertex = 1,
        Geometry = 2,
        Hull = 3,
        Domain = 4,
        Compute = 5,
    }
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
            // `Other` keeps the marker as stored (e.g. 0x4658, 'FX').
            other => ProgramType::Other(other),
        }
    }

    /// RDEF's target-token marker for this type.
    pub fn rdef_code(self) -> u16 {
        match self {
            ProgramType::Pixel => 0xFFFF,
            ProgramType::Vertex => 0xFFFE,
            ProgramType::Geometry => 0x4753,
            ProgramType::Hull => 0x4853,
            ProgramType::Domain => 0x4453,
            ProgramType::Compute => 0x4353,
            ProgramType::Other(v) => v,
        }
    }

    /// The profile prefix fxc prints: `ps`, `vs`, … (`fx` for effect
    /// targets, `??` for other markers).
    pub fn prefix(self) -> &'static str {
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

    /// The stage's name in prose: `pixel`, `vertex`, … (`unknown` for
    /// other markers).
    pub fn stage_name(self) -> &'static str {
        match self {
            ProgramType::Pixel => "pixel",
            ProgramType::Vertex => "vertex",
            ProgramType::Geometry => "geometry",
            ProgramType::Hull => "hull",
            ProgramType::Domain => "domain",
            ProgramType::Compute => "compute",
            ProgramType::Other(_) => "unknown",
        }
    }

    /// One of the six shader stages (not an unknown marker).
    pub fn is_known(self) -> bool {
        !matches!(self, ProgramType::Other(_))
    }
}

coded_enum! {
    /// System-value names: `D3D10_SB_NAME` in `dcl_*_siv/_sgv` tokens and
    /// `D3D_NAME` in signatures (the same numbers; 64 on are signature-only).
    SystemValue: u32, unknown "SV?" {
        Undefined = 0 => "NONE",
        Position = 1 => "POS",
        ClipDistance = 2 => "CLIPDST",
        CullDistance = 3 => "CULLDST",
        RenderTargetArrayIndex = 4 => "RTINDEX",
        ViewportArrayIndex = 5 => "VPINDEX",
        VertexId = 6 => "VERTID",
        PrimitiveId = 7 => "PRIMID",
        InstanceId = 8 => "INSTID",
        IsFrontFace = 9 => "FFACE",
        SampleIndex = 10 => "SAMPLE",
        FinalQuadEdgeTessFactor = 11 => "QUADEDGE",
        FinalQuadInsideTessFactor = 12 => "QUADINT",
        FinalTriEdgeTessFactor = 13 => "TRIEDGE",
        FinalTriInsideTessFactor = 14 => "TRIINT",
        FinalLineDetailTessFactor = 15 => "LINEDET",
        FinalLineDensityTessFactor = 16 => "LINEDEN",
        Barycentrics = 17 => "BARYCEN",
        ShadingRate = 18 => "SHDINGRT",
        CullPrimitive = 19 => "CULLPRIM",
        Target = 64 => "TARGET",
        Depth = 65 => "DEPTH",
        Coverage = 66 => "COVERAGE",
        DepthGreaterEqual = 67 => "DEPTHGE",
        DepthLessEqual = 68 => "DEPTHLE",
        StencilRef = 69 => "STENCILREF",
        InnerCoverage = 70 => "INNERCOV",
    }
}

impl SystemValue {
    /// fxc's short name, as in the listing's SysValue column (`SV23` for a
    /// value it does not know).
    pub fn short_name(self) -> String {
        match self {
            SystemValue::Other(v) => format!("SV{v}"),
            known => known.name().to_string(),
        }
    }
}

coded_enum! {
    /// A view's element format (`DXGI_FORMAT`), the subset typed buffer
    /// views are given here. Shader bytecode never names one: a typed
    /// buffer's declaration gives only its return type, and the format is
    /// the view's, chosen when the application creates it, so a
    /// translation that must decode elements reads this code at run time.
    DxgiFormat: u32 {
        R32G32B32A32Float = 2,
        R16G16B16A16Float = 10,
        R32G32Float = 16,
        R8G8B8A8Unorm = 28,
        R32Float = 41,
        R32Uint = 42,
        R32Sint = 43,
    }
}

coded_enum! {
    /// A signature element's component type (`D3D_REGISTER_COMPONENT_TYPE`).
    ComponentType: u32 {
        Unknown = 0,
        Uint32 = 1,
        Sint32 = 2,
        Float32 = 3,
    }
}

impl ComponentType {
    /// 32-bit integers (signed or unsigned), not floats.
    pub fn is_integer(self) -> bool {
        matches!(self, ComponentType::Uint32 | ComponentType::Sint32)
    }
}

coded_enum! {
    /// Resource dimension (`D3D10_SB_RESOURCE_DIMENSION`), from a
    /// declaration's controls or the resource-dimension extended token.
    ResourceDimension: u8, unknown "unknown_dimension" {
        Unknown = 0 => "unknown",
        Buffer = 1 => "buffer",
        Texture1D = 2 => "texture1d",
        Texture2D = 3 => "texture2d",
        Texture2DMs = 4 => "texture2dms",
        Texture3D = 5 => "texture3d",
        TextureCube = 6 => "texturecube",
        Texture1DArray = 7 => "texture1darray",
        Texture2DArray = 8 => "texture2darray",
        Texture2DMsArray = 9 => "texture2dmsarray",
        TextureCubeArray = 10 => "texturecubearray",
        RawBuffer = 11 => "raw_buffer",
        StructuredBuffer = 12 => "structured_buffer",
    }
}

coded_enum! {
    /// Per-component resource return type (`D3D10_SB_RESOURCE_RETURN_TYPE`).
    ReturnType: u8, unknown "unknown" {
        Unorm = 1 => "unorm",
        Snorm = 2 => "snorm",
        Sint = 3 => "sint",
        Uint = 4 => "uint",
        Float = 5 => "float",
        Mixed = 6 => "mixed",
        Double = 7 => "double",
        Continued = 8 => "continued",
        Unused = 9 => "unused",
    }
}

impl ReturnType {
    /// Whether fetches return integers (sint/uint), not floats.
    pub fn is_integer(self) -> bool {
        matches!(self, ReturnType::Sint | ReturnType::Uint)
    }
}

coded_enum! {
    /// Pixel-shader input interpolation (`D3D10_SB_INTERPOLATION_MODE`).
    Interpolation: u8 {
        Undefined = 0,
        Constant = 1,
        Linear = 2,
        LinearCentroid = 3,
        LinearNoPerspective = 4,
        LinearNoPerspectiveCentroid = 5,
        LinearSample = 6,
        LinearNoPerspectiveSample = 7,
    }
}

impl Interpolation {
    /// `constant`: no interpolation (GLSL `flat`).
    pub fn is_constant(self) -> bool {
        self == Interpolation::Constant
    }

    /// Screen-linear (no perspective divide).
    pub fn is_noperspective(self) -> bool {
        matches!(
            self,
            Interpolation::LinearNoPerspective
                | Interpolation::LinearNoPerspectiveCentroid
                | Interpolation::LinearNoPerspectiveSample
        )
    }

    pub fn is_centroid(self) -> bool {
        matches!(
            self,
            Interpolation::LinearCentroid | Interpolation::LinearNoPerspectiveCentroid
        )
    }

    pub fn is_sample(self) -> bool {
        matches!(
            self,
            Interpolation::LinearSample | Interpolation::LinearNoPerspectiveSample
        )
    }
}

coded_enum! {
    /// `dcl_sampler` mode (`D3D10_SB_SAMPLER_MODE`).
    SamplerMode: u8 {
        Default = 0,
        Comparison = 1,
        Mono = 2,
    }
}

coded_enum! {
    /// `resinfo`'s return type (`D3D10_SB_RESINFO_INSTRUCTION_RETURN_TYPE`).
    ResInfoReturn: u8 {
        Float = 0,
        RcpFloat = 1,
        Uint = 2,
    }
}

coded_enum! {
    /// `sampleinfo`'s return type (`D3D10_SB_INSTRUCTION_RETURN_TYPE`).
    SampleInfoReturn: u8 {
        Float = 0,
        Uint = 1,
    }
}

/// `dcl_globalFlags` (`D3D10_SB_GLOBAL_FLAGS`), one field per flag a
/// consumer acts on; the listing prints the raw set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GlobalFlags {
    pub refactoring_allowed: bool,
    pub enable_double_precision: bool,
    pub force_early_depth_stencil: bool,
    pub enable_raw_and_structured_buffers: bool,
    pub skip_optimization: bool,
    pub enable_minimum_precision: bool,
    pub enable_double_extensions: bool,
    pub enable_shader_extensions: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknowns_are_kept() {
        for v in 0..=80u32 {
            assert_eq!(SystemValue::from_code(v).code(), v);
        }
        assert_eq!(SystemValue::from_code(64), SystemValue::Target);
        assert_eq!(SystemValue::from_code(23), SystemValue::Other(23));
        assert_eq!(SystemValue::from_code(23).short_name(), "SV23");
        assert_eq!(
            ResourceDimension::from_code(10),
            ResourceDimension::TextureCubeArray
        );
        assert_eq!(ResourceDimension::from_code(31).name(), "unknown_dimension");
        assert_eq!(
            Interpolation::from_code(5),
            Interpolation::LinearNoPerspectiveCentroid
        );
        assert!(Interpolation::from_code(7).is_noperspective());
        assert!(Interpolation::from_code(6).is_sample());
        assert!(!Interpolation::from_code(2).is_centroid());
    }

    #[test]
    fn dxgi_formats_keep_dxgis_numbers() {
        assert_eq!(DxgiFormat::R32G32B32A32Float.code(), 2);
        assert_eq!(DxgiFormat::R16G16B16A16Float.code(), 10);
        assert_eq!(DxgiFormat::R32G32Float.code(), 16);
        assert_eq!(DxgiFormat::R8G8B8A8Unorm.code(), 28);
        assert_eq!(DxgiFormat::from_code(41), DxgiFormat::R32Float);
        assert_eq!(DxgiFormat::from_code(43), DxgiFormat::R32Sint);
        assert_eq!(DxgiFormat::from_code(29), DxgiFormat::Other(29));
    }

    #[test]
    fn rdef_markers_and_version_codes_name_the_same_types() {
        for code in 0..6u16 {
            let t = ProgramType::from_code(code);
            assert_eq!(ProgramType::from_rdef(t.rdef_code()), t);
        }
        assert_eq!(ProgramType::from_rdef(0x4658).prefix(), "fx");
        assert_eq!(ProgramType::from_code(9).prefix(), "??");
    }
}
