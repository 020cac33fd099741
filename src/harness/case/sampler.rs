//! `[sampler N]`: D3D11's sampler state, defaulting to D3D11's defaults.

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::vm::texture::{AddressMode, ComparisonFunc, Filter, Reduction, Sampler};

fn address_named(name: &str) -> Option<AddressMode> {
    Some(match name {
        "wrap" => AddressMode::Wrap,
        "mirror" => AddressMode::Mirror,
        "clamp" => AddressMode::Clamp,
        "border" => AddressMode::Border,
        "mirror_once" => AddressMode::MirrorOnce,
        _ => return None,
    })
}

pub(super) fn compare_named(name: &str) -> Option<ComparisonFunc> {
    Some(match name {
        "never" => ComparisonFunc::Never,
        "less" => ComparisonFunc::Less,
        "equal" => ComparisonFunc::Equal,
        "less_equal" => ComparisonFunc::LessEqual,
        "greater" => ComparisonFunc::Greater,
        "not_equal" => ComparisonFunc::NotEqual,
        "greater_equal" => ComparisonFunc::GreaterEqual,
        "always" => ComparisonFunc::Always,
        _ => return None,
    })
}

fn filter_named(name: &str) -> Option<Filter> {
    match name {
        "point" => Some(Filter::Point),
        "linear" => Some(Filter::Linear),
        _ => None,
    }
}

/// The sampler, and whether it is a comparison sampler (it sets `compare`).
pub(super) fn parse_sampler(ctx: &Ctx, lines: &Lines) -> Result<(Sampler, bool), CaseError> {
    let mut s = Sampler::default();
    let mut comparison = false;
    let mut once = Once::default();
    let mut anisotropy: Option<(usize, u32)> = None;
    for (l, t) in lines {
        let toks: Vec<&str> = t.split_whitespace().collect();
        if let Some(key) = toks.first() {
            once.check(ctx, *l, key)?;
        }
        let bad = |what: &str| ctx.err(*l, format!("unknown {what} in `{t}`"));
        match toks.as_slice() {
            // D3D11_FILTER_ANISOTROPIC: min, mag and mip anisotropic (the
            // footprint's taps filtered linearly, mag linear).
            ["filter", "anisotropic"] => {
                s.min_filter = Filter::Linear;
                s.mag_filter = Filter::Linear;
                s.mip_filter = Filter::Linear;
                s.max_anisotropy = Some(s.max_anisotropy.unwrap_or(1));
            }
            ["max_anisotropy", n] => {
                let v = ctx.u32(*l, n)?;
                if !(1..=16).contains(&v) {
                    return Err(
                        ctx.err(*l, format!("max_anisotropy {n} is outside D3D11's 1..=16"))
                    );
                }
                anisotropy = Some((*l, v));
            }
            ["reduction", r] => {
                s.reduction = match *r {
                    "standard" => Reduction::Standard,
                    "min" | "minimum" => Reduction::Minimum,
                    "max" | "maximum" => Reduction::Maximum,
                    _ => return Err(bad("reduction")),
                }
            }
            ["filter", f] => {
                let f = filter_named(f).ok_or_else(|| bad("filter"))?;
                s.min_filter = f;
                s.mag_filter = f;
                s.mip_filter = f;
                s.max_anisotropy = None;
            }
            ["filter", "min", a, "mag", b, "mip", c] => {
                s.min_filter = filter_named(a).ok_or_else(|| bad("filter"))?;
                s.mag_filter = filter_named(b).ok_or_else(|| bad("filter"))?;
                s.mip_filter = filter_named(c).ok_or_else(|| bad("filter"))?;
                s.max_anisotropy = None;
            }
            ["address", modes @ ..] if !modes.is_empty() && modes.len() <= 3 => {
                let m: Vec<AddressMode> = modes
                    .iter()
                    .map(|m| address_named(m).ok_or_else(|| bad("address mode")))
                    .collect::<Result<_, _>>()?;
                for i in 0..3 {
                    s.address[i] = m[i.min(m.len() - 1)];
                }
            }
            ["border", r, g, b, a] => {
                s.border_color = [
                    ctx.f32(*l, r)?,
                    ctx.f32(*l, g)?,
                    ctx.f32(*l, b)?,
                    ctx.f32(*l, a)?,
                ]
            }
            ["compare", f] => {
                s.comparison = compare_named(f).ok_or_else(|| bad("comparison"))?;
                comparison = true;
            }
            ["lod_bias", v] => {
                s.mip_lod_bias = ctx.f32(*l, v)?;
                // D3D11_SAMPLER_DESC: MipLODBias in [-16, 15.99]; the
                // runtime refuses a sampler outside it.
                if !(-16.0..=15.99).contains(&s.mip_lod_bias) {
                    return Err(ctx.err(*l, format!("lod_bias {v} is outside -16..=15.99")));
                }
            }
            ["min_lod", v] => {
                s.min_lod = ctx.f32(*l, v)?;
            }
            ["max_lod", v] => {
                s.max_lod = ctx.f32(*l, v)?;
            }
            _ => return Err(ctx.err(*l, format!("unknown sampler setting `{t}`"))),
        }
    }
    // Any MinLOD and MaxLOD are taken, as D3D11's CreateSamplerState takes
    // them: MinLOD above MaxLOD samples at MinLOD and a NaN is no limit
    // (docs/emulator.md, "Sampler LOD range").
    if let Some((l, n)) = anisotropy {
        // MaxAnisotropy means something only to the anisotropic filter;
        // a value the draw would ignore is a mistake in the case.
        if s.max_anisotropy.is_none() {
            return Err(ctx.err(l, "max_anisotropy needs `filter anisotropic`"));
        }
        s.max_anisotropy = Some(n);
    }
    Ok((s, comparison))
}
