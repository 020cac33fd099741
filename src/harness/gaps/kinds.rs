//! The gaps themselves: each a place where Direct3D 11 defines a value and
//! GLSL ES 3.00 (as WebGL2 runs it) does not, or has no such operation.
//! The texts are what `trace --gaps`, the reports and `docs/translators.md`
//! say, so they are written once, here.

use serde::Serialize;

/// One kind of D3D11 ↔ GLSL ES 3.00 gap an executed instruction can hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GapKind {
    /// `min`/`max` with a NaN source.
    MinMaxNan,
    /// `ftoi`/`ftou` of NaN.
    FloatToIntNan,
    /// `ftoi`/`ftou` of a value outside the destination's range
    /// (infinities included; any negative value for `ftou`).
    FloatToIntRange,
    /// `ishl`/`ishr`/`ushr` with a count of 32 or more as an unsigned
    /// number (a negative count included).
    ShiftCount,
    /// `udiv` by zero (SM4/SM5 have no signed division instruction: fxc
    /// writes signed division as `udiv` on magnitudes).
    DivideByZero,
    /// `rcp` or `rsq` of ±0.
    ReciprocalOfZero,
    /// A float comparison (`eq`, `ne`, `lt`, `ge`) with a NaN source.
    NanComparison,
    /// A denormal float source of float arithmetic.
    Denormal,
    /// Any `gather4` form.
    Gather,
    /// A sample or gather that read a texel outside the texture under the
    /// border address mode (the border colour).
    BorderColour,
    /// A sample or gather on an axis addressed with mirror once, at a
    /// coordinate below 0 (where mirror once and clamp differ).
    MirrorOnce,
    /// A sample under a sampler with a non-zero MipLODBias.
    MipLodBias,
    /// `sample_b` with a bias beyond ±2 (ES 3.00's least
    /// MAX_TEXTURE_LOD_BIAS).
    SampleBias,
    /// A sample whose LOD lands on the sampler's MinLOD or MaxLOD (set to
    /// something other than D3D's unbounded default).
    LodClamp,
    /// A comparison sample whose result D3D fixes and ES 3.00 does not:
    /// filtered comparison results that disagree, or a non-depth format.
    Comparison,
    /// A filtered read under a minimum or maximum reduction filter
    /// (D3D11.1), over taps that differ.
    ReductionFilter,
    /// A `noperspective` pixel-shader input (not a system value) under
    /// corners whose clip w differ, where screen-linear and
    /// perspective-correct interpolation give different values.
    Noperspective,
}

impl GapKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [GapKind; 17] = [
        GapKind::MinMaxNan,
        GapKind::FloatToIntNan,
        GapKind::FloatToIntRange,
        GapKind::ShiftCount,
        GapKind::DivideByZero,
        GapKind::ReciprocalOfZero,
        GapKind::NanComparison,
        GapKind::Denormal,
        GapKind::Gather,
        GapKind::BorderColour,
        GapKind::MirrorOnce,
        GapKind::MipLodBias,
        GapKind::SampleBias,
        GapKind::LodClamp,
        GapKind::Comparison,
        GapKind::ReductionFilter,
        GapKind::Noperspective,
    ];

    /// The kind's name in text and JSON (`shift_count`).
    pub fn name(self) -> &'static str {
        match self {
            GapKind::MinMaxNan => "min_max_nan",
            GapKind::FloatToIntNan => "float_to_int_nan",
            GapKind::FloatToIntRange => "float_to_int_range",
            GapKind::ShiftCount => "shift_count",
            GapKind::DivideByZero => "divide_by_zero",
            GapKind::ReciprocalOfZero => "reciprocal_of_zero",
            GapKind::NanComparison => "nan_comparison",
            GapKind::Denormal => "denormal",
            GapKind::Gather => "gather",
            GapKind::BorderColour => "border_colour",
            GapKind::MirrorOnce => "mirror_once",
            GapKind::MipLodBias => "mip_lod_bias",
            GapKind::SampleBias => "sample_bias",
            GapKind::LodClamp => "lod_clamp",
            GapKind::Comparison => "comparison",
            GapKind::ReductionFilter => "reduction_filter",
            GapKind::Noperspective => "noperspective",
        }
    }

    /// What Direct3D 11's functional spec defines for it.
    pub fn d3d(self) -> &'static str {
        match self {
            GapKind::MinMaxNan => {
                "min/max return the other operand when one is NaN (NaN only when both are)"
            }
            GapKind::FloatToIntNan => "ftoi and ftou of NaN give 0",
            GapKind::FloatToIntRange => {
                "ftoi saturates to INT_MIN/INT_MAX (infinities included); ftou gives 0 below 0 and UINT_MAX at 2^32 and above"
            }
            GapKind::ShiftCount => "shifts use the count's low 5 bits (a count of 33 shifts by 1)",
            GapKind::DivideByZero => "udiv by 0 gives 0xffffffff for both quotient and remainder",
            GapKind::ReciprocalOfZero => "rcp(±0) = ±inf; rsq(+0) = +inf, rsq(-0) = -inf",
            GapKind::NanComparison => "eq, lt and ge are false with a NaN operand; ne is true",
            GapKind::Denormal => {
                "32-bit float arithmetic flushes denormal sources to sign-preserved zero"
            }
            GapKind::Gather => {
                "gather4 returns one channel of the four texels bilinear filtering would read"
            }
            GapKind::BorderColour => {
                "a texel outside the texture under border addressing reads the sampler's BorderColor"
            }
            GapKind::MirrorOnce => "mirror once mirrors the coordinate about 0 once, then clamps",
            GapKind::MipLodBias => {
                "the sampler's MipLODBias (held to [-16, 15.99]) is added to every sample's LOD"
            }
            GapKind::SampleBias => "sample_b adds its bias held to [-16, 15.99]",
            GapKind::LodClamp => {
                "the LOD is clamped to [MinLOD, MaxLOD] before magnification is decided; MinLOD above MaxLOD samples at MinLOD"
            }
            GapKind::Comparison => {
                "each texel is compared, then the results are filtered with the bilinear weights; any format the view reads as one float channel may be compared"
            }
            GapKind::ReductionFilter => {
                "a minimum or maximum reduction filter returns the component-wise minimum or maximum of the taps with a non-zero weight"
            }
            GapKind::Noperspective => {
                "a noperspective input is interpolated linearly in screen space, without the division by w"
            }
        }
    }

    /// What GLSL ES 3.00 (and WebGL2 around it) leaves open or lacks.
    pub fn glsl(self) -> &'static str {
        match self {
            GapKind::MinMaxNan => {
                "GLSL ES 3.00 defines min(x, y) as (y < x) ? y : x and need not support NaN: which operand comes back is left open"
            }
            GapKind::FloatToIntNan => "GLSL ES 3.00 leaves int(NaN) and uint(NaN) undefined",
            GapKind::FloatToIntRange => {
                "GLSL ES 3.00 leaves int()/uint() of a value outside the type's range undefined, and uint() of any negative value"
            }
            GapKind::ShiftCount => {
                "GLSL ES 3.00 leaves << and >> undefined for a count that is negative or at least 32"
            }
            GapKind::DivideByZero => "GLSL ES 3.00 leaves integer / and % by zero unspecified",
            GapKind::ReciprocalOfZero => {
                "GLSL ES 3.00 need not support infinities, and leaves inversesqrt(x) undefined for x <= 0"
            }
            GapKind::NanComparison => {
                "GLSL ES 3.00 need not support NaN: a comparison's result with a NaN operand is left open"
            }
            GapKind::Denormal => "GLSL ES 3.00 lets an implementation flush denormals or keep them",
            GapKind::Gather => "GLSL ES 3.00 has no textureGather (it came with ES 3.10)",
            GapKind::BorderColour => {
                "WebGL2 has no CLAMP_TO_BORDER address mode: the text must emulate it"
            }
            GapKind::MirrorOnce => {
                "WebGL2 has no MIRROR_CLAMP_TO_EDGE address mode: the text must emulate it"
            }
            GapKind::MipLodBias => "WebGL2 sampler objects have no LOD bias: the text must add it",
            GapKind::SampleBias => {
                "GLSL ES 3.00 clamps a bias to MAX_TEXTURE_LOD_BIAS, which an implementation may set as low as 2.0"
            }
            GapKind::LodClamp => {
                "ES 3.00 text has no LOD clamp of its own: the value holds only if the application sets the sampler object's TEXTURE_MIN_LOD/MAX_LOD, and MinLOD above MaxLOD is not defined there"
            }
            GapKind::Comparison => {
                "GLSL ES 3.00 leaves how a linearly filtered shadow lookup combines its comparisons to the implementation, and compares depth formats only"
            }
            GapKind::ReductionFilter => {
                "WebGL2 has no reduction filter (no sampler filter minmax): the hardware filter gives the weighted sum, so the text must emulate it"
            }
            GapKind::Noperspective => {
                "GLSL ES 3.00 has no noperspective qualifier: every varying is perspective-correct unless the text multiplies by w in the vertex stage and divides in the pixel stage"
            }
        }
    }
}

/// How dxbc-dbg's own es300 translation meets a gap (`docs/glsl.md`,
/// `docs/glsl-textures.md`): whether its text gives D3D11's value whatever
/// the driver does, or leaves the value to the driver as a plain lowering
/// would.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Handling {
    /// The text computes D3D11's value itself (a mask, a helper, an
    /// emulated sampling path).
    Covered,
    /// D3D11's value depends on state the runtime binds (the sampler
    /// object), not on the text.
    Runtime,
    /// The text is the plain GLSL operation: the driver decides.
    Driver,
}

impl GapKind {
    /// How dxbc-dbg's own es300 text meets the gap, and with what.
    pub fn dxbc_dbg(self) -> (Handling, &'static str) {
        use Handling::*;
        match self {
            GapKind::MinMaxNan => (
                Covered,
                "the dx_min/dx_max helpers, the non-NaN operand decided by isnan",
            ),
            GapKind::FloatToIntNan | GapKind::FloatToIntRange => (
                Covered,
                "the dx_ftoi/dx_ftou helpers, NaN to 0 and saturating",
            ),
            GapKind::ShiftCount => (Covered, "the count masked in the text, n & 31u"),
            GapKind::DivideByZero => (Covered, "the dx_udiv/dx_urem helpers, 0xffffffff by 0"),
            GapKind::ReciprocalOfZero => (Driver, "plain 1.0 / x and inversesqrt"),
            GapKind::NanComparison => (Driver, "plain <, ==, >="),
            GapKind::Denormal => (Driver, "plain arithmetic, no flush"),
            GapKind::Gather => (Covered, "gather4 emulated with texelFetch"),
            GapKind::BorderColour => (Covered, "the emulated sampling path"),
            GapKind::MirrorOnce => (Covered, "abs(u) per mirror-once axis, or the emulated path"),
            GapKind::MipLodBias => (Covered, "the bias added in the text from the sampler block"),
            GapKind::SampleBias => (
                Driver,
                "the bias held to [-16, 15.99], then the hardware's bias, which the driver holds to its MAX_TEXTURE_LOD_BIAS",
            ),
            GapKind::LodClamp => (Runtime, "the sampler object's TEXTURE_MIN_LOD/MAX_LOD"),
            GapKind::Comparison => (Driver, "the hardware shadow lookup"),
            GapKind::ReductionFilter => (Covered, "the emulated sampling path"),
            GapKind::Noperspective => (
                Covered,
                "the vertex stage multiplies by clip w, the pixel stage divides by 1/gl_FragCoord.w",
            ),
        }
    }
}

impl std::fmt::Display for GapKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
