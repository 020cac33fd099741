//! STAT (fxc's instruction statistics) and SFI0 (feature flags the shader
//! needs from the device).
//!
//! STAT is a flat array of u32: 29 words from SM4 compilers, 37 from SM5
//! ones. Field meanings follow the D3D11_SHADER_DESC order they feed; the
//! words whose meaning is not known are kept and reachable through
//! [`Stat::get`], so nothing is lost if a later compiler appends more.

use super::error::{DxbcError, Result};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stat {
    pub words: Vec<u32>,
}

/// Index of each known STAT word.
pub mod field {
    pub const INSTRUCTION_COUNT: usize = 0;
    pub const TEMP_REGISTER_COUNT: usize = 1;
    pub const DEF_COUNT: usize = 2;
    pub const DCL_COUNT: usize = 3;
    pub const FLOAT_INSTRUCTION_COUNT: usize = 4;
    pub const INT_INSTRUCTION_COUNT: usize = 5;
    pub const UINT_INSTRUCTION_COUNT: usize = 6;
    pub const STATIC_FLOW_CONTROL_COUNT: usize = 7;
    pub const DYNAMIC_FLOW_CONTROL_COUNT: usize = 8;
    pub const MACRO_INSTRUCTION_COUNT: usize = 9;
    pub const TEMP_ARRAY_COUNT: usize = 10;
    pub const ARRAY_INSTRUCTION_COUNT: usize = 11;
    pub const CUT_INSTRUCTION_COUNT: usize = 12;
    pub const EMIT_INSTRUCTION_COUNT: usize = 13;
    pub const TEXTURE_NORMAL_INSTRUCTIONS: usize = 14;
    pub const TEXTURE_LOAD_INSTRUCTIONS: usize = 15;
    pub const TEXTURE_COMP_INSTRUCTIONS: usize = 16;
    pub const TEXTURE_BIAS_INSTRUCTIONS: usize = 17;
    pub const TEXTURE_GRADIENT_INSTRUCTIONS: usize = 18;
    pub const MOV_INSTRUCTION_COUNT: usize = 19;
    pub const MOVC_INSTRUCTION_COUNT: usize = 20;
    pub const CONVERSION_INSTRUCTION_COUNT: usize = 21;
    /// D3D10_SB_PRIMITIVE of a GS input or HS input patch.
    pub const INPUT_PRIMITIVE: usize = 23;
    /// D3D10_SB_PRIMITIVE_TOPOLOGY of a GS output.
    pub const GS_OUTPUT_TOPOLOGY: usize = 24;
    pub const GS_MAX_OUTPUT_VERTEX_COUNT: usize = 25;
    pub const LOD_INSTRUCTIONS: usize = 27;
    /// Non-zero when a pixel shader runs per sample; fxc prints "Pixel
    /// Shader runs at sample frequency" from it.
    pub const SAMPLE_FREQUENCY: usize = 28;
    /// Inferred from D3D11_SHADER_DESC's order (it precedes cControlPoints).
    pub const GS_INSTANCE_COUNT: usize = 29;
    pub const CONTROL_POINTS: usize = 30;
    /// D3D_TESSELLATOR_OUTPUT_PRIMITIVE.
    pub const HS_OUTPUT_PRIMITIVE: usize = 31;
    /// D3D_TESSELLATOR_PARTITIONING.
    pub const HS_PARTITIONING: usize = 32;
    /// D3D_TESSELLATOR_DOMAIN.
    pub const TESSELLATOR_DOMAIN: usize = 33;
    pub const BARRIER_INSTRUCTIONS: usize = 34;
    pub const INTERLOCKED_INSTRUCTIONS: usize = 35;
    pub const TEXTURE_STORE_INSTRUCTIONS: usize = 36;
}

macro_rules! accessors {
    ($($name:ident = $idx:ident;)*) => {
        $(
            #[doc = concat!("STAT word `", stringify!($idx), "`; 0 when the chunk is too short to hold it.")]
            pub fn $name(&self) -> u32 {
                self.get(field::$idx).unwrap_or(0)
            }
        )*
    };
}

impl Stat {
    /// Parses STAT data. The length must be a whole number of words; any
    /// number of words is accepted so short or extended chunks still load.
    pub fn parse(data: &[u8], base_offset: usize) -> Result<Stat> {
        if !data.len().is_multiple_of(4) {
            return Err(DxbcError::malformed(
                base_offset,
                format!(
                    "STAT chunk is {} bytes, not a whole number of 32-bit words",
                    data.len()
                ),
            ));
        }
        Ok(Stat {
            words: super::reader::words(data),
        })
    }

    pub fn get(&self, index: usize) -> Option<u32> {
        self.words.get(index).copied()
    }

    accessors! {
        instruction_count = INSTRUCTION_COUNT;
        temp_register_count = TEMP_REGISTER_COUNT;
        def_count = DEF_COUNT;
        dcl_count = DCL_COUNT;
        float_instruction_count = FLOAT_INSTRUCTION_COUNT;
        int_instruction_count = INT_INSTRUCTION_COUNT;
        uint_instruction_count = UINT_INSTRUCTION_COUNT;
        static_flow_control_count = STATIC_FLOW_CONTROL_COUNT;
        dynamic_flow_control_count = DYNAMIC_FLOW_CONTROL_COUNT;
        macro_instruction_count = MACRO_INSTRUCTION_COUNT;
        temp_array_count = TEMP_ARRAY_COUNT;
        array_instruction_count = ARRAY_INSTRUCTION_COUNT;
        cut_instruction_count = CUT_INSTRUCTION_COUNT;
        emit_instruction_count = EMIT_INSTRUCTION_COUNT;
        texture_normal_instructions = TEXTURE_NORMAL_INSTRUCTIONS;
        texture_load_instructions = TEXTURE_LOAD_INSTRUCTIONS;
        texture_comp_instructions = TEXTURE_COMP_INSTRUCTIONS;
        texture_bias_instructions = TEXTURE_BIAS_INSTRUCTIONS;
        texture_gradient_instructions = TEXTURE_GRADIENT_INSTRUCTIONS;
        mov_instruction_count = MOV_INSTRUCTION_COUNT;
        movc_instruction_count = MOVC_INSTRUCTION_COUNT;
        conversion_instruction_count = CONVERSION_INSTRUCTION_COUNT;
        input_primitive = INPUT_PRIMITIVE;
        gs_output_topology = GS_OUTPUT_TOPOLOGY;
        gs_max_output_vertex_count = GS_MAX_OUTPUT_VERTEX_COUNT;
        lod_instructions = LOD_INSTRUCTIONS;
        gs_instance_count = GS_INSTANCE_COUNT;
        control_points = CONTROL_POINTS;
        hs_output_primitive = HS_OUTPUT_PRIMITIVE;
        hs_partitioning = HS_PARTITIONING;
        tessellator_domain = TESSELLATOR_DOMAIN;
        barrier_instructions = BARRIER_INSTRUCTIONS;
        interlocked_instructions = INTERLOCKED_INSTRUCTIONS;
        texture_store_instructions = TEXTURE_STORE_INSTRUCTIONS;
    }

    /// Texture sampling instructions of every kind (normal, load,
    /// comparison, bias, gradient), as `info` totals them. Summed in u64:
    /// the words come from the file, and five of them overflow u32.
    pub fn texture_sample_total(&self) -> u64 {
        [
            self.texture_normal_instructions(),
            self.texture_load_instructions(),
            self.texture_comp_instructions(),
            self.texture_bias_instructions(),
            self.texture_gradient_instructions(),
        ]
        .into_iter()
        .map(u64::from)
        .sum()
    }

    /// Static plus dynamic flow control instructions, summed in u64 for
    /// the same reason.
    pub fn flow_control_total(&self) -> u64 {
        u64::from(self.static_flow_control_count()) + u64::from(self.dynamic_flow_control_count())
    }

    pub fn is_sample_frequency(&self) -> bool {
        self.get(field::SAMPLE_FREQUENCY).unwrap_or(0) != 0
    }
}

/// SFI0: a u64 of D3D shader feature flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderFeatures {
    pub flags: u64,
}

/// Bits of [`ShaderFeatures::flags`].
pub mod feature {
    pub const DOUBLES: u64 = 1 << 0;
    pub const COMPUTE_SHADERS_PLUS_RAW_AND_STRUCTURED_BUFFERS_VIA_SHADER_4_X: u64 = 1 << 1;
    pub const UAVS_AT_EVERY_STAGE: u64 = 1 << 2;
    pub const UAVS_64: u64 = 1 << 3;
    pub const MINIMUM_PRECISION: u64 = 1 << 4;
    pub const DOUBLE_EXTENSIONS_11_1: u64 = 1 << 5;
    pub const SHADER_EXTENSIONS_11_1: u64 = 1 << 6;
    pub const LEVEL_9_COMPARISON_FILTERING: u64 = 1 << 7;
    pub const TILED_RESOURCES: u64 = 1 << 8;
    pub const STENCIL_REF: u64 = 1 << 9;
    pub const INNER_COVERAGE: u64 = 1 << 10;
    pub const TYPED_UAV_LOAD_ADDITIONAL_FORMATS: u64 = 1 << 11;
    pub const ROVS: u64 = 1 << 12;
    pub const VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER: u64 = 1 << 13;
}

/// fxc's description of each feature bit, indexed by bit number, as printed
/// under "Note: shader requires additional functionality:".
pub const FEATURE_NAMES: [&str; 14] = [
    "Double-precision floating point",
    "Raw and Structured buffers",
    "UAVs at every shader stage",
    "64 UAV slots",
    "Minimum-precision data types",
    "Double-precision extensions for 11.1",
    "Shader extensions for 11.1",
    "Comparison filtering for feature level 9",
    "Tiled resources",
    "PS Output Stencil Ref",
    "PS Inner Coverage",
    "Typed UAV Load Additional Formats",
    "Raster Ordered UAVs",
    "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
];

impl ShaderFeatures {
    /// Parses SFI0 data: at least 8 bytes, a little-endian u64. Longer data
    /// is accepted (only the first 8 bytes are defined).
    pub fn parse(data: &[u8], base_offset: usize) -> Result<ShaderFeatures> {
        let mut r = super::reader::Reader::new(data, base_offset);
        let lo = r.u32("SFI0 feature flags")? as u64;
        let hi = r.u32("SFI0 feature flags")? as u64;
        Ok(ShaderFeatures {
            flags: lo | (hi << 32),
        })
    }

    pub fn has(&self, bit: u64) -> bool {
        self.flags & bit != 0
    }

    /// Descriptions of the set bits; unknown bits are named by number.
    pub fn names(&self) -> Vec<String> {
        (0..64)
            .filter(|b| self.flags & (1u64 << b) != 0)
            .map(|b| match FEATURE_NAMES.get(b) {
                Some(name) => name.to_string(),
                None => format!("Unknown feature bit {b}"),
            })
            .collect()
    }
}

/// fxc's names for the tessellator domain (STAT word 33).
pub fn tessellator_domain_name(v: u32) -> &'static str {
    match v {
        1 => "Isoline",
        2 => "Triangle",
        3 => "Quadrilateral",
        _ => "Undefined",
    }
}

/// fxc's names for the tessellator output primitive (STAT word 31).
pub fn tessellator_output_primitive_name(v: u32) -> &'static str {
    match v {
        1 => "Point",
        2 => "Line",
        3 => "Clockwise Triangles",
        4 => "Counter Clockwise Triangles",
        _ => "Undefined",
    }
}

/// fxc's names for the tessellator partitioning (STAT word 32).
pub fn tessellator_partitioning_name(v: u32) -> &'static str {
    match v {
        1 => "Integer",
        2 => "Pow2",
        3 => "Odd Fractional",
        4 => "Even Fractional",
        _ => "Undefined",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Totals of words at u32::MAX: five texture counts make
    /// 5 * (2^32 - 1) = 21,474,836,475 and two flow control counts
    /// 2 * (2^32 - 1) = 8,589,934,590, neither of which fits a u32.
    #[test]
    fn totals_of_file_words_do_not_overflow() {
        let mut words = vec![0u32; 37];
        words[field::TEXTURE_NORMAL_INSTRUCTIONS..=field::TEXTURE_GRADIENT_INSTRUCTIONS]
            .fill(u32::MAX);
        words[field::STATIC_FLOW_CONTROL_COUNT] = u32::MAX;
        words[field::DYNAMIC_FLOW_CONTROL_COUNT] = u32::MAX;
        let stat = Stat { words };
        assert_eq!(stat.texture_sample_total(), 21_474_836_475);
        assert_eq!(stat.flow_control_total(), 8_589_934_590);
        // A short SM4 chunk (no words past 28) still totals what it has.
        let stat = Stat { words: vec![3; 16] };
        assert_eq!(stat.texture_sample_total(), 6);
        assert_eq!(stat.flow_control_total(), 6);
    }

    #[test]
    fn stat_accessors_and_short_chunks() {
        let mut words = [0u32; 37];
        words[field::INSTRUCTION_COUNT] = 210;
        words[field::SAMPLE_FREQUENCY] = 1;
        words[field::TESSELLATOR_DOMAIN] = 3;
        words[field::TEXTURE_STORE_INSTRUCTIONS] = 7;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let s = Stat::parse(&bytes, 0).unwrap();
        assert_eq!(s.instruction_count(), 210);
        assert!(s.is_sample_frequency());
        assert_eq!(s.tessellator_domain(), 3);
        assert_eq!(s.texture_store_instructions(), 7);
        // An SM4 (29-word) chunk has no tessellation words: they read as 0.
        let s4 = Stat::parse(&bytes[..29 * 4], 0).unwrap();
        assert_eq!(s4.tessellator_domain(), 0);
        assert_eq!(s4.get(29), None);
        // Unknown trailing words are kept.
        let mut longer = bytes.clone();
        longer.extend_from_slice(&5u32.to_le_bytes());
        assert_eq!(Stat::parse(&longer, 0).unwrap().get(37), Some(5));
        assert_eq!(Stat::parse(&bytes[..5], 40).unwrap_err().offset(), 40);
    }

    #[test]
    fn feature_names() {
        let f = ShaderFeatures::parse(&[1, 0, 0, 0, 0, 0, 0, 0x80], 0).unwrap();
        assert!(f.has(feature::DOUBLES));
        assert_eq!(
            f.names(),
            vec!["Double-precision floating point", "Unknown feature bit 63"]
        );
        assert_eq!(ShaderFeatures::parse(&[0; 7], 10).unwrap_err().offset(), 14);
        assert_eq!(FEATURE_NAMES.len(), 14);
        assert_eq!(tessellator_domain_name(3), "Quadrilateral");
        assert_eq!(tessellator_output_primitive_name(3), "Clockwise Triangles");
        assert_eq!(tessellator_partitioning_name(1), "Integer");
    }
}
