//! The tolerance a generated case is drawn with, derived from the
//! instructions its shader uses and what D3D11 allows for each
//! (docs/harness.md, "Generated-case runs", gives the figures and where
//! they come from). A backend's channel agrees with the emulator's when it
//! is within `abs` **or** within `ulp` (the diff's rule), so the two bounds
//! are kept apart: relative errors as ULP, absolute ones as `abs`.
//!
//! The bounds are per instruction, not propagated through the program: a
//! long chain of rounded steps, or a filtered texel scaled up afterwards,
//! can legitimately exceed them. Such a shader shows as a differ whose
//! worst pixel is then stepped by hand.

use crate::dxbc::Shader;
use crate::dxbc::opcodes::{LodFrom, Op, TexelRead};

/// The tolerance of a generated case: the instructions of every shader it
/// draws, with the textures its text generates (`case_text` writes this
/// section and `diff --auto` draws with it, so both use this one rule).
pub fn for_generated(shaders: &[&Shader], text: &str) -> Derived {
    let ops: Vec<Op> = shaders
        .iter()
        .flat_map(|s| s.program.instructions.iter().map(|i| i.op))
        .collect();
    // The generated textures filtered samples read: SNORM spans [-1, 1],
    // every other filtered one [0, 1].
    let snorm = text.contains("format rgba8_snorm");
    let textures = Textures {
        range: if snorm { 2.0 } else { 1.0 },
        normalized: snorm || text.contains("format rgba8_unorm"),
    };
    derive(&ops, textures)
}

/// One ULP of a float in [1, 2): relative errors below are given in it.
const ULP: f64 = 1.0 / 8_388_608.0; // 2^-23

/// `D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`: a filtered sample's weights may
/// be quantised to 8 fractional bits, so each axis' weight may be off by
/// half a step.
pub const SUBTEXEL_BITS: u32 = 8;
/// `D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT`: the blend between two mips may be
/// quantised alike.
pub const MIP_LOD_BITS: u32 = 8;

/// A derived tolerance, with the instructions that caused each part.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub abs: f32,
    pub ulp: u32,
    /// `(instructions, why)`, one per rule that raised a bound, in the
    /// order of the rules; written as comments in the case.
    pub causes: Vec<(String, String)>,
    /// What the specification leaves open for this shader and no bound
    /// covers (a differ is reported with these notes).
    pub open: Vec<String>,
}

impl Derived {
    /// The `[tolerance]` section, its comments saying which instructions
    /// caused each bound.
    pub fn section(&self) -> String {
        let mut s = String::from("[tolerance]\n");
        if self.causes.is_empty() {
            s.push_str("# No float arithmetic, filtering or derivatives: bit-exact.\n");
        }
        for (ops, why) in &self.causes {
            s.push_str(&format!("# {ops}: {why}\n"));
        }
        for o in &self.open {
            s.push_str(&format!("# Left open by D3D11 (no bound): {o}\n"));
        }
        s.push_str(&format!("abs {}\nulp {}\n", self.abs, self.ulp));
        s
    }
}

/// What a rule matches and the bounds it sets.
struct Rule {
    ops: &'static [Op],
    ulp: u32,
    abs: f64,
    why: &'static str,
}

const RULES: &[Rule] = &[
    // Add, subtract and multiply are within 0.5 ULP (rounding or
    // truncation): two conforming results are at most 1 ULP apart.
    Rule {
        ops: &[Op::Add, Op::Mul],
        ulp: 1,
        abs: 0.0,
        why: "within 0.5 ULP each (D3D11 lets an implementation truncate), so 1 ULP apart",
    },
    // A fused or unfused mad (and dp*, which D3D11 lets be evaluated in
    // any order, fused or not) rounds the product or not: near a
    // cancellation the difference is an ULP of the product, not of the
    // result, so it is an absolute bound at the magnitude of the
    // generated inputs (below 4).
    Rule {
        ops: &[Op::Mad, Op::Dp2, Op::Dp3, Op::Dp4],
        ulp: 2,
        abs: 4.0 * 2.0 * ULP,
        why: "fused or not (D3D11 allows either): 2 ULP, or an ULP of a product of size 4 near cancellation",
    },
    Rule {
        ops: &[Op::Div],
        ulp: 3,
        abs: 0.0,
        why: "D3D11 allows 2.5 ULP",
    },
    // rcp and rsq: maximum relative error 2^-21 (4 ULP); sqrt, exp and
    // log are held to the same relative bound.
    Rule {
        ops: &[Op::Rcp, Op::Rsq, Op::Sqrt, Op::Exp],
        ulp: 4,
        abs: 0.0,
        why: "relative error up to 2^-21 (4 ULP)",
    },
    // A relative bound says nothing where log's result is near 0 (x near
    // 1): there the bound is absolute, 2^-21.
    Rule {
        ops: &[Op::Log],
        ulp: 4,
        abs: 4.0 * ULP,
        why: "relative error up to 2^-21 (4 ULP), absolute 2^-21 where the result is near 0",
    },
    // D3D11 gives sincos no figure; GPUs evaluate it with range reduction
    // and a short polynomial. The bound is a working one over the
    // generated inputs' range (|x| < 4), well above what either software
    // GPU's polynomial misses by.
    Rule {
        ops: &[Op::Sincos],
        ulp: 0,
        abs: 1.0 / 2048.0,
        why: "no D3D11 figure: a working absolute bound of 2^-11 over inputs below 4",
    },
];

/// Derivatives whose coarse-or-fine choice D3D11 leaves to the
/// implementation, and the instructions that select a LOD from them.
const OPEN_DERIVATIVES: &[Op] = &[Op::DerivRtx, Op::DerivRty];

/// What the tolerance needs to know of the textures a case binds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Textures {
    /// The value range filtered samples read (1 for UNORM and depth, 2
    /// for SNORM): the weight error is a fraction of it.
    pub range: f32,
    /// Whether any is a normalised (UNORM/SNORM) format, whose texels
    /// every read converts to float.
    pub normalized: bool,
}

/// The tolerance for a pixel shader using `ops` with such textures.
pub fn derive(ops: &[Op], textures: Textures) -> Derived {
    let filtered_range = textures.range;
    let mut d = Derived {
        abs: 0.0,
        ulp: 0,
        causes: Vec::new(),
        open: Vec::new(),
    };
    let mut abs = 0.0f64;
    let names = |set: &[Op]| -> Option<String> {
        let used: Vec<&str> = set
            .iter()
            .filter(|o| ops.contains(o))
            .map(|o| o.name())
            .collect();
        (!used.is_empty()).then(|| used.join(", "))
    };
    // The instructions of `ops` that `pick` selects, by the
    // classifications `dxbc::opcodes` gives.
    let picked = |pick: &dyn Fn(Op) -> bool| -> Option<String> {
        let mut used: Vec<&str> = Vec::new();
        for o in ops.iter().filter(|o| pick(**o)) {
            if !used.contains(&o.name()) {
                used.push(o.name());
            }
        }
        (!used.is_empty()).then(|| used.join(", "))
    };
    for rule in RULES {
        if let Some(used) = names(rule.ops) {
            d.ulp = d.ulp.max(rule.ulp);
            abs = abs.max(rule.abs);
            d.causes.push((used, rule.why.to_string()));
        }
    }
    if let Some(used) = picked(&|o| matches!(o.texel_read(), Some(TexelRead::Filtered(_)))) {
        // Up to three axes' weights and the mip blend, each off by half a
        // step of 2^-8, each moving the result by at most the range.
        let step = 0.5 / f64::from(1u32 << SUBTEXEL_BITS);
        let mip = 0.5 / f64::from(1u32 << MIP_LOD_BITS);
        let bound = (3.0 * step + mip) * f64::from(filtered_range);
        abs = abs.max(bound);
        d.causes.push((
            used,
            format!(
                "linear filtering: weights to {SUBTEXEL_BITS} fractional bits on up to 3 axes and the mip blend to {MIP_LOD_BITS} (D3D11), {bound} over a value range of {filtered_range}"
            ),
        ));
    }
    if textures.normalized
        && let Some(used) = picked(&|o| o.texel_read().is_some())
    {
        d.ulp = d.ulp.max(1);
        d.causes.push((
            used,
            "a normalised texel converted to float (c / (2^n - 1)), which an implementation may evaluate as c times the reciprocal: 1 ULP (a working bound: D3D11 gives the texture path's conversions tolerances in ULP)".into(),
        ));
    }
    if ops.contains(&Op::Lod) {
        let bound = 1.0 / f64::from(1u32 << MIP_LOD_BITS);
        abs = abs.max(bound);
        d.causes.push((
            "lod".into(),
            format!("the LOD to {MIP_LOD_BITS} fractional bits (D3D11)"),
        ));
    }
    if let Some(used) = names(OPEN_DERIVATIVES) {
        d.open.push(format!(
            "{used}: coarse or fine is the implementation's choice, and the two differ by the second difference of the input"
        ));
    }
    if let Some(used) = picked(&|o| o.returns_prior_value()) {
        d.open.push(format!(
            "{used}: the value returned depends on the order pixels run in, which D3D11 leaves open"
        ));
    }
    if let Some(used) = picked(&|o| o.texel_read() == Some(TexelRead::Filtered(LodFrom::Gradients)))
    {
        d.open.push(format!(
            "{used}: a LOD from gradients, whose log2 GPUs approximate beyond D3D11's 8 fractional bits (lavapipe 0.04 low, SwiftShader 0.02: lod_bias/gradient_length.case), from derivatives coarse or fine for the implicit forms"
        ));
    }
    d.abs = abs as f32;
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// UNORM textures (range 1), or SNORM ones (range 2).
    const UNORM: Textures = Textures {
        range: 1.0,
        normalized: true,
    };
    const SNORM: Textures = Textures {
        range: 2.0,
        normalized: true,
    };
    /// Depth (float) textures: no conversion.
    const DEPTH: Textures = Textures {
        range: 1.0,
        normalized: false,
    };

    #[test]
    fn integer_and_move_only_shaders_are_bit_exact() {
        let d = derive(&[Op::Mov, Op::Iadd, Op::Ld, Op::Gather4, Op::Ret], DEPTH);
        assert_eq!((d.abs, d.ulp), (0.0, 0));
        assert!(d.causes.is_empty() && d.open.is_empty());
        assert!(d.section().contains("bit-exact"), "{}", d.section());
    }

    #[test]
    fn add_and_mul_allow_one_ulp_and_mad_adds_an_absolute_bound() {
        let d = derive(&[Op::Add, Op::Mul, Op::Mov], DEPTH);
        assert_eq!((d.abs, d.ulp), (0.0, 1));
        assert_eq!(d.causes[0].0, "add, mul");
        let d = derive(&[Op::Mad, Op::Add], DEPTH);
        assert_eq!(d.ulp, 2);
        assert_eq!(d.abs, (8.0 * ULP) as f32);
        assert_eq!(d.causes.len(), 2);
    }

    #[test]
    fn transcendentals_take_the_largest_bound() {
        assert_eq!(derive(&[Op::Div], DEPTH).ulp, 3);
        let d = derive(&[Op::Div, Op::Rsq, Op::Add], DEPTH);
        assert_eq!(d.ulp, 4);
        assert_eq!(d.abs, 0.0);
        assert!(derive(&[Op::Log], DEPTH).abs > 0.0);
        assert_eq!(derive(&[Op::Sincos], DEPTH).abs, 1.0 / 2048.0);
    }

    /// Four half-steps of 2^-8 (three axes and the mip blend): 1/128 of the
    /// range, twice that for SNORM.
    #[test]
    fn filtered_sampling_scales_with_the_format_range() {
        let d = derive(&[Op::SampleL], DEPTH);
        assert_eq!(d.abs, 1.0 / 128.0);
        assert_eq!(derive(&[Op::SampleL], SNORM).abs, 1.0 / 64.0);
        assert!(d.open.is_empty(), "explicit LOD leaves nothing open");
        let d = derive(&[Op::Sample], DEPTH);
        assert!(d.open.iter().any(|o| o.contains("LOD from gradients")));
        // An instruction used twice is named once.
        let d = derive(&[Op::SampleD, Op::Sample, Op::SampleD], DEPTH);
        assert!(d.open[0].starts_with("sample_d, sample: "), "{:?}", d.open);
        assert!(d.open.iter().any(|o| o.contains("LOD from gradients")));
        // Gathers and loads are exact, but for a normalised texel's
        // conversion to float.
        assert_eq!(derive(&[Op::Gather4C], DEPTH).abs, 0.0);
        assert_eq!(derive(&[Op::Gather4C], DEPTH).ulp, 0);
        let d = derive(&[Op::Ld], UNORM);
        assert_eq!((d.abs, d.ulp), (0.0, 1));
    }

    #[test]
    fn unspecified_derivatives_are_open_and_explicit_ones_are_not() {
        let d = derive(&[Op::DerivRtx], DEPTH);
        assert_eq!(derive(&[Op::ImmAtomicAlloc], DEPTH).open.len(), 1);
        assert_eq!(d.open.len(), 1);
        assert!(d.section().contains("Left open"), "{}", d.section());
        assert!(
            derive(&[Op::DerivRtxFine, Op::DerivRtyCoarse], DEPTH)
                .open
                .is_empty()
        );
    }

    #[test]
    fn the_section_parses_back_to_the_same_bounds() {
        let d = derive(&[Op::Sample, Op::Mad, Op::Rcp, Op::DerivRty], SNORM);
        let text = d.section();
        let abs: f32 = text
            .lines()
            .find_map(|l| l.strip_prefix("abs "))
            .and_then(|v| v.parse().ok())
            .expect("abs line");
        assert_eq!(abs, d.abs);
        assert!(text.contains("\nulp 4\n"), "{text}");
    }
}
