//! The texture gaps: operations ES 3.00 lacks (`gather4`) and sampler state
//! WebGL2 lacks, counted only where the read takes them — a border tap
//! actually read, a mirror-once axis actually below 0, a bias that is not
//! zero — from the texture unit's own account of the read
//! (`vm::Machine::explain_fetch`).

use super::{GapKind, Pending, state_value};
use crate::dxbc::ir::Instruction;
use crate::dxbc::opcodes::{Op, TexelRead};
use crate::vm::texture::{AddressMode, Dimension, FetchKind, Reduction, TapSource};
use crate::vm::trace::typed_view;
use crate::vm::{LaneFetch, Machine, VmError};

/// ES 3.00's least MAX_TEXTURE_LOD_BIAS: a bias within it is added as D3D
/// adds it on every implementation.
const ES_MIN_MAX_LOD_BIAS: f32 = 2.0;

fn float_text(f: f32) -> String {
    typed_view(f.to_bits(), crate::dxbc::value_type::ValueType::Float)
}

/// How many coordinate axes the sampler's address modes apply to (cubes
/// ignore address modes).
fn addressed_axes(dim: Dimension) -> usize {
    match dim {
        Dimension::Tex1D | Dimension::Tex1DArray => 1,
        Dimension::Tex2D | Dimension::Tex2DArray => 2,
        Dimension::Tex3D => 3,
        _ => 0,
    }
}

/// The hits of the texture read at the program counter in `lane`.
pub(super) fn hits(
    machine: &Machine,
    inst: &Instruction,
    lane: usize,
    out: &mut Vec<Pending>,
) -> Result<(), VmError> {
    let gather = inst.op.texel_read() == Some(TexelRead::Gather);
    let sources = machine.source_values(lane)?;
    if gather {
        // ES 3.00 has no gather at all: any executed gather4 is a gap,
        // whatever its values. Its coordinate is what it read.
        let values = sources
            .first()
            .map(|s| {
                (0..2)
                    .map(|c| {
                        super::operand_value(
                            inst,
                            s,
                            c,
                            s.read[c],
                            crate::dxbc::value_type::ValueType::Float,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push(Pending {
            kind: GapKind::Gather,
            values,
        });
    }
    // `sample_b`'s bias is its second value source (after the coordinate;
    // resource and sampler operands are slots, not values).
    if matches!(inst.op, Op::SampleB | Op::SampleBClS)
        && let Some(b) = sources.get(1)
    {
        let bias = f32::from_bits(b.read[0]);
        if bias.abs() > ES_MIN_MAX_LOD_BIAS {
            out.push(Pending {
                kind: GapKind::SampleBias,
                values: vec![super::operand_value(
                    inst,
                    b,
                    0,
                    b.read[0],
                    crate::dxbc::value_type::ValueType::Float,
                )],
            });
        }
    }
    let Some(fetches) = machine.explain_fetch()? else {
        return Ok(());
    };
    let Some(Some(fetch)) = fetches.get(lane) else {
        return Ok(());
    };
    sampler_hits(fetch, out);
    Ok(())
}

/// The sampler-state hits of one lane's read.
pub(super) fn sampler_hits(fetch: &LaneFetch, out: &mut Vec<Pending>) {
    let (Some((slot, smp)), Some(detail), Some(desc)) =
        (&fetch.sampler, &fetch.detail, &fetch.desc)
    else {
        return;
    };
    let t = fetch.texture;
    // Border: a tap outside the texture that counts (a zero weight reads
    // nothing; gather taps are unweighted and all count).
    let border = detail
        .taps
        .iter()
        .any(|tap| tap.source == TapSource::Border && tap.weight.is_none_or(|w| w != 0.0));
    if border {
        let [r, g, b, a] = smp.border_color;
        out.push(Pending {
            kind: GapKind::BorderColour,
            values: vec![state_value(
                format!("t{t} outside the texture, s{slot} border address"),
                r.to_bits(),
                format!(
                    "BorderColor ({}, {}, {}, {})",
                    float_text(r),
                    float_text(g),
                    float_text(b),
                    float_text(a)
                ),
            )],
        });
    }
    // Mirror once: differs from the clamp WebGL2 binds only below 0.
    let sizes = [desc.width, desc.height, desc.depth];
    let mut mirrored = Vec::new();
    for axis in 0..addressed_axes(desc.dimension) {
        if smp.address[axis] != AddressMode::MirrorOnce {
            continue;
        }
        let u = f32::from_bits(detail.coord[axis]);
        let texels = f64::from(u) * f64::from(sizes[axis].max(1)) + f64::from(detail.offset[axis]);
        if texels < 0.0 {
            mirrored.push(state_value(
                format!("s{slot} mirror once on {}", ['u', 'v', 'w'][axis]),
                detail.coord[axis],
                format!("coordinate {} ({texels} texels)", float_text(u)),
            ));
        }
    }
    if !mirrored.is_empty() {
        out.push(Pending {
            kind: GapKind::MirrorOnce,
            values: mirrored,
        });
    }
    // The LOD settings act on filtered reads only (gathers and loads take
    // level 0 of the view whatever the sampler says).
    let filtered = matches!(detail.kind, FetchKind::Sample | FetchKind::SampleCompare);
    if filtered && smp.mip_lod_bias != 0.0 && !smp.mip_lod_bias.is_nan() {
        out.push(Pending {
            kind: GapKind::MipLodBias,
            values: vec![state_value(
                format!("s{slot} MipLODBias"),
                smp.mip_lod_bias.to_bits(),
                float_text(smp.mip_lod_bias),
            )],
        });
    }
    if filtered && let Some(lod) = &detail.lod {
        let mut bounds = Vec::new();
        if smp.min_lod > -f32::MAX && lod.clamped == f64::from(smp.min_lod) {
            bounds.push(state_value(
                format!("s{slot} MinLOD"),
                smp.min_lod.to_bits(),
                float_text(smp.min_lod),
            ));
        }
        if smp.max_lod < f32::MAX && lod.clamped == f64::from(smp.max_lod) {
            bounds.push(state_value(
                format!("s{slot} MaxLOD"),
                smp.max_lod.to_bits(),
                float_text(smp.max_lod),
            ));
        }
        if !bounds.is_empty() {
            out.push(Pending {
                kind: GapKind::LodClamp,
                values: bounds,
            });
        }
    }
    // A reduction filter: WebGL2 filters by the weighted sum, which is the
    // minimum or maximum only when the weighted taps hold one value.
    if filtered && smp.reduction != Reduction::Standard {
        let weighted: Vec<[u32; 4]> = detail
            .taps
            .iter()
            .filter(|tap| tap.weight.is_some_and(|w| w > 0.0))
            .map(|tap| tap.value)
            .collect();
        if weighted.iter().any(|v| *v != weighted[0]) {
            out.push(Pending {
                kind: GapKind::ReductionFilter,
                values: vec![state_value(
                    format!("s{slot} reduction"),
                    0,
                    format!(
                        "{} over {} weighted taps that differ",
                        match smp.reduction {
                            Reduction::Minimum => "minimum",
                            _ => "maximum",
                        },
                        weighted.len()
                    ),
                )],
            });
        }
    }
    if matches!(
        detail.kind,
        FetchKind::SampleCompare | FetchKind::GatherCompare
    ) {
        let mut why = Vec::new();
        if !desc.format.is_depth() {
            why.push(state_value(
                format!("t{t} compared in format"),
                0,
                format!("{} (not a depth format)", desc.format.name()),
            ));
        }
        // Filtered comparisons that disagree: GL's combination of them is
        // the implementation's. Taps that agree give the same value under
        // any combination "proportional to the passes".
        let weighted: Vec<f64> = detail
            .taps
            .iter()
            .filter(|tap| tap.weight.is_some_and(|w| w > 0.0))
            .filter_map(|tap| tap.compared)
            .collect();
        if weighted.len() > 1 && weighted.iter().any(|c| *c != weighted[0]) {
            let passed = weighted.iter().filter(|c| **c > 0.0).count();
            let reference = detail.reference.unwrap_or(f32::NAN);
            why.push(state_value(
                format!("s{slot} filters"),
                reference.to_bits(),
                format!(
                    "{} comparisons of reference {} ({passed} passed)",
                    weighted.len(),
                    float_text(reference)
                ),
            ));
        }
        if !why.is_empty() {
            out.push(Pending {
                kind: GapKind::Comparison,
                values: why,
            });
        }
    }
}
