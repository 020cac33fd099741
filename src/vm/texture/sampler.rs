//! Sampler state: filters, address modes, LOD controls, comparison function
//! and border colour, mirroring `D3D11_SAMPLER_DESC`.

/// Point or linear, for each of min, mag and mip filtering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Point,
    Linear,
}

/// How the texels of a filter footprint combine (D3D11.1's filter
/// reduction type): the weighted sum, or the component-wise minimum or
/// maximum of the texels with a non-zero weight (`D3D11_FILTER_MINIMUM_*`,
/// `D3D11_FILTER_MAXIMUM_*`). Comparison samplers always filter the
/// comparison results with the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reduction {
    #[default]
    Standard,
    Minimum,
    Maximum,
}

/// Texture address mode (`D3D11_TEXTURE_ADDRESS_MODE`), applied to each
/// integer texel index on one axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressMode {
    Wrap,
    Mirror,
    Clamp,
    Border,
    MirrorOnce,
}

impl AddressMode {
    /// From the `D3D11_TEXTURE_ADDRESS_MODE` number (1..=5).
    pub fn from_d3d11(n: u32) -> Option<AddressMode> {
        Some(match n {
            1 => AddressMode::Wrap,
            2 => AddressMode::Mirror,
            3 => AddressMode::Clamp,
            4 => AddressMode::Border,
            5 => AddressMode::MirrorOnce,
            _ => return None,
        })
    }
}

/// Comparison function of a comparison sampler (`D3D11_COMPARISON_FUNC`).
/// The test is `reference <func> texel`: the shader's reference value on
/// the left, the fetched texel on the right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComparisonFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl ComparisonFunc {
    pub const ALL: [ComparisonFunc; 8] = [
        ComparisonFunc::Never,
        ComparisonFunc::Less,
        ComparisonFunc::Equal,
        ComparisonFunc::LessEqual,
        ComparisonFunc::Greater,
        ComparisonFunc::NotEqual,
        ComparisonFunc::GreaterEqual,
        ComparisonFunc::Always,
    ];

    /// From the `D3D11_COMPARISON_FUNC` number (1..=8).
    pub fn from_d3d11(n: u32) -> Option<ComparisonFunc> {
        n.checked_sub(1)
            .and_then(|i| ComparisonFunc::ALL.get(i as usize).copied())
    }

    /// `reference <self> texel` with IEEE semantics: every ordered test is
    /// false when either side is NaN, NotEqual is true, and +0 == -0.
    /// Callers flush denormals first.
    pub fn passes(self, reference: f32, texel: f32) -> bool {
        match self {
            ComparisonFunc::Never => false,
            ComparisonFunc::Less => reference < texel,
            ComparisonFunc::Equal => reference == texel,
            ComparisonFunc::LessEqual => reference <= texel,
            ComparisonFunc::Greater => reference > texel,
            ComparisonFunc::NotEqual => reference != texel,
            ComparisonFunc::GreaterEqual => reference >= texel,
            ComparisonFunc::Always => true,
        }
    }
}

/// A sampler. `Default` is D3D11's default sampler state: trilinear, clamp
/// on every axis, no bias, LOD range [-FLT_MAX, FLT_MAX], comparison
/// `Never`, border colour (1, 1, 1, 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampler {
    pub min_filter: Filter,
    pub mag_filter: Filter,
    pub mip_filter: Filter,
    /// U, V, W.
    pub address: [AddressMode; 3],
    /// `MipLODBias`; clamped to D3D's [-16, 15.99] when used.
    pub mip_lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    /// Used by the comparison operations only.
    pub comparison: ComparisonFunc,
    pub border_color: [f32; 4],
    /// D3D11.1 filter reduction (min/max filtering).
    pub reduction: Reduction,
    /// `Some(MaxAnisotropy)` (1..=16) for the anisotropic filter, which
    /// then stands for min, mag and mip filters (mag: linear); `None` for
    /// the point/linear filters above.
    pub max_anisotropy: Option<u32>,
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler {
            min_filter: Filter::Linear,
            mag_filter: Filter::Linear,
            mip_filter: Filter::Linear,
            address: [AddressMode::Clamp; 3],
            mip_lod_bias: 0.0,
            min_lod: -f32::MAX,
            max_lod: f32::MAX,
            comparison: ComparisonFunc::Never,
            border_color: [1.0; 4],
            reduction: Reduction::Standard,
            max_anisotropy: None,
        }
    }
}

impl Sampler {
    /// Every filter point, otherwise default.
    pub fn point() -> Sampler {
        Sampler {
            min_filter: Filter::Point,
            mag_filter: Filter::Point,
            mip_filter: Filter::Point,
            ..Sampler::default()
        }
    }

    /// Every filter linear, otherwise default.
    pub fn linear() -> Sampler {
        Sampler::default()
    }

    /// The same address mode on all three axes.
    pub fn with_address(mut self, mode: AddressMode) -> Sampler {
        self.address = [mode; 3];
        self
    }

    /// Filters from a `D3D11_FILTER` value: bit 0 mip, bit 2 mag, bit 4 min
    /// linear (anisotropic filters count as linear here; the anisotropic
    /// footprint is `max_anisotropy`, which the caller sets with
    /// MaxAnisotropy). The comparison bit (0x80) does not matter here: the
    /// operation chosen (`sample_c` or `sample`) decides whether to compare.
    pub fn with_d3d11_filter(mut self, filter: u32) -> Sampler {
        let pick = |bit: u32| {
            if filter & bit != 0 || filter & 0x40 != 0 {
                Filter::Linear
            } else {
                Filter::Point
            }
        };
        self.mip_filter = pick(0x1);
        self.mag_filter = pick(0x4);
        self.min_filter = pick(0x10);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_is_reference_op_texel() {
        use ComparisonFunc::*;
        // reference 0.25 against texel 0.5: the reference is the smaller.
        let want = [
            (Never, false),
            (Less, true),
            (Equal, false),
            (LessEqual, true),
            (Greater, false),
            (NotEqual, true),
            (GreaterEqual, false),
            (Always, true),
        ];
        for (func, pass) in want {
            assert_eq!(func.passes(0.25, 0.5), pass, "{func:?}");
        }
        assert!(Equal.passes(0.0, -0.0));
        assert!(!LessEqual.passes(f32::NAN, 1.0));
        assert!(NotEqual.passes(f32::NAN, f32::NAN));
        assert!(Always.passes(f32::NAN, 0.0));
    }

    #[test]
    fn d3d11_numbers() {
        assert_eq!(
            ComparisonFunc::from_d3d11(4),
            Some(ComparisonFunc::LessEqual)
        );
        assert_eq!(ComparisonFunc::from_d3d11(0), None);
        assert_eq!(ComparisonFunc::from_d3d11(9), None);
        assert_eq!(AddressMode::from_d3d11(5), Some(AddressMode::MirrorOnce));
        assert_eq!(AddressMode::from_d3d11(6), None);
        // D3D11_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR = 0x11
        let s = Sampler::default().with_d3d11_filter(0x11);
        assert_eq!(
            (s.min_filter, s.mag_filter, s.mip_filter),
            (Filter::Linear, Filter::Point, Filter::Linear)
        );
        // COMPARISON_MIN_MAG_LINEAR_MIP_POINT = 0x94
        let s = Sampler::default().with_d3d11_filter(0x94);
        assert_eq!(
            (s.min_filter, s.mag_filter, s.mip_filter),
            (Filter::Linear, Filter::Linear, Filter::Point)
        );
    }
}
