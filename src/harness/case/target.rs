//! `[render target]` and `[depth]`: what the quad is drawn into. The size,
//! a format and clear colour per `SV_TargetN`, the viewport, the sample
//! count, and the depth buffer with its test. Both renderers read these
//! descriptions; the conversions themselves are the output merger's
//! (`vm::output_merger`).

use super::CaseError;
use super::values::{Ctx, Lines, Once};
use crate::dxbc::limits::RENDER_TARGET_SIDE;
use crate::vm::output_merger::{DepthFormat, DepthState};
use crate::vm::texture::{ComparisonFunc, Format};

/// D3D11's number of simultaneous render targets.
pub const MAX_TARGETS: u32 = crate::dxbc::signature::RENDER_TARGETS;
/// D3D11's viewport bounds (`D3D11_VIEWPORT_BOUNDS_MIN`/`MAX`).
pub const VIEWPORT_MIN: f32 = -32768.0;
pub const VIEWPORT_MAX: f32 = 32767.0;

/// One render target's settings (`format N F`, `clear N r g b a`).
#[derive(Debug, Clone, PartialEq)]
pub struct RenderTarget {
    /// The `N` of `SV_TargetN`.
    pub index: u32,
    /// The `format N F` line and its format; `None`: 32-bit channels of
    /// the output's type, as many as it declares.
    pub format: Option<(usize, Format)>,
    /// The `clear N …` line and its colour (D3D's `ClearRenderTargetView`
    /// floats; integer formats take the integer they name).
    pub clear: Option<(usize, [f32; 4])>,
}

/// D3D's viewport: top-left corner and size in pixels, depth range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub min_depth: f32,
    pub max_depth: f32,
}

impl Viewport {
    /// The whole target, depth 0 to 1.
    pub fn full(width: u32, height: u32) -> Viewport {
        Viewport {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }
    }
}

/// `[depth]`: the draw's depth buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthBuffer {
    /// The section's line, for errors about the buffer as a whole.
    pub line: usize,
    pub state: DepthState,
    /// `ClearDepthStencilView`'s depth (0..=1); stencil clears to 0.
    pub clear: f32,
}

/// Render-target format names: the colour formats D3D11 renders to that
/// the texture unit has (depth formats belong to `[depth]`).
fn target_format_named(name: &str) -> Option<Format> {
    Some(match name {
        "r8_unorm" => Format::R8Unorm,
        "rg8_unorm" => Format::Rg8Unorm,
        "rgba8_unorm" => Format::Rgba8Unorm,
        "rgba8_unorm_srgb" => Format::Rgba8UnormSrgb,
        "rgba8_uint" => Format::Rgba8Uint,
        "r16_unorm" => Format::R16Unorm,
        "rg16_float" => Format::Rg16Float,
        "rgba16_float" => Format::Rgba16Float,
        "r32_float" => Format::R32Float,
        "rg32_float" => Format::Rg32Float,
        "rgba32_float" => Format::Rgba32Float,
        "r32_uint" => Format::R32Uint,
        "r32_sint" => Format::R32Sint,
        _ => return None,
    })
}

const TARGET_FORMATS: &str = "r8_unorm, rg8_unorm, rgba8_unorm, rgba8_unorm_srgb, rgba8_uint, \
     r16_unorm, rg16_float, rgba16_float, r32_float, rg32_float, rgba32_float, r32_uint, r32_sint";

/// What `[render target]` sets.
#[derive(Debug, Clone, Default)]
pub(super) struct TargetSection {
    pub size: Option<[u32; 2]>,
    pub targets: Vec<RenderTarget>,
    pub viewport: Option<(usize, Viewport)>,
    /// `samples N` and its line; `None`: one sample.
    pub samples: Option<(usize, u32)>,
}

/// `size W H`, `format N F`, `clear N r g b a`, `viewport X Y W H [MINZ
/// MAXZ]`, `samples N` (1, 2, 4, 8 or 16; default 1): the sample count of
/// every target; a multisampled target is drawn with coverage per sample at
/// D3D's standard positions and compared after a resolve (docs/cases.md).
pub(super) fn parse_target(ctx: &Ctx, lines: &Lines) -> Result<TargetSection, CaseError> {
    let mut out = TargetSection::default();
    // `format` and `clear` are set once per target, so their repeats are
    // keyed by the target's number (`format 0` twice is an error, `format
    // 0` and `format 1` are not).
    let mut once = Once::default();
    let entry = |out: &mut TargetSection, l: usize, n: &str| -> Result<usize, CaseError> {
        let index = ctx.u32(l, n)?;
        if index >= MAX_TARGETS {
            return Err(ctx.err(
                l,
                format!("render target {n} is outside 0..={}", MAX_TARGETS - 1),
            ));
        }
        Ok(match out.targets.iter().position(|t| t.index == index) {
            Some(i) => i,
            None => {
                out.targets.push(RenderTarget {
                    index,
                    format: None,
                    clear: None,
                });
                out.targets.len() - 1
            }
        })
    };
    for (l, t) in lines {
        let l = *l;
        let toks: Vec<&str> = t.split_whitespace().collect();
        match toks.as_slice() {
            ["size", w, h] => {
                once.check(ctx, l, "size")?;
                let size = [ctx.u32(l, w)?, ctx.u32(l, h)?];
                if !(1..=RENDER_TARGET_SIDE).contains(&size[0])
                    || !(1..=RENDER_TARGET_SIDE).contains(&size[1])
                {
                    return Err(ctx.err(
                        l,
                        format!(
                            "render target size {w}x{h} is outside 1..={RENDER_TARGET_SIDE} (Direct3D 11's limit)"
                        ),
                    ));
                }
                let pixels = u64::from(size[0]) * u64::from(size[1]);
                if pixels > TARGET_PIXELS {
                    return Err(ctx.err(
                        l,
                        format!(
                            "render target size {w}x{h} is {pixels} pixels; a case may draw at most {TARGET_PIXELS} (4096x4096)"
                        ),
                    ));
                }
                out.size = Some(size);
            }
            ["format", f] => {
                return Err(ctx.err(
                    l,
                    format!("say which target the format is for: `format N {f}` (N of SV_TargetN)"),
                ));
            }
            ["format", n, f] => {
                let i = entry(&mut out, l, n)?;
                let format = target_format_named(f).ok_or_else(|| {
                    ctx.err(
                        l,
                        format!("unknown render-target format `{f}` (known: {TARGET_FORMATS})"),
                    )
                })?;
                once.check(ctx, l, &format!("format {}", out.targets[i].index))?;
                out.targets[i].format = Some((l, format));
            }
            ["clear", n, rest @ ..] => {
                let i = entry(&mut out, l, n)?;
                if rest.len() != 4 {
                    return Err(ctx.err(l, "expected `clear N r g b a`"));
                }
                let mut c = [0f32; 4];
                for (v, t) in c.iter_mut().zip(rest) {
                    *v = ctx.f32(l, t)?;
                }
                once.check(ctx, l, &format!("clear {}", out.targets[i].index))?;
                out.targets[i].clear = Some((l, c));
            }
            ["viewport", rest @ ..] if rest.len() == 4 || rest.len() == 6 => {
                once.check(ctx, l, "viewport")?;
                let mut v = [0f32, 0.0, 0.0, 0.0, 0.0, 1.0];
                for (x, t) in v.iter_mut().zip(rest) {
                    *x = ctx.f32(l, t)?;
                }
                let [x, y, w, h, min_depth, max_depth] = v;
                let bad = |m: String| Err(ctx.err(l, m));
                if !(VIEWPORT_MIN..=VIEWPORT_MAX).contains(&x)
                    || !(VIEWPORT_MIN..=VIEWPORT_MAX).contains(&y)
                {
                    return bad(format!(
                        "viewport corner ({x}, {y}) is outside D3D11's bounds {VIEWPORT_MIN}..={VIEWPORT_MAX}"
                    ));
                }
                // D3D allows an empty viewport (it draws nothing); Vulkan
                // does not, so a case cannot ask for one.
                if !(w > 0.0 && h > 0.0 && x + w <= VIEWPORT_MAX && y + h <= VIEWPORT_MAX) {
                    return bad(format!(
                        "viewport size {w}x{h} must be above 0 and end within {VIEWPORT_MAX}"
                    ));
                }
                if !((0.0..=1.0).contains(&min_depth) && (0.0..=1.0).contains(&max_depth)) {
                    return bad(format!(
                        "viewport depth range {min_depth}..{max_depth} is outside 0..=1"
                    ));
                }
                // Vulkan (and so wgpu) needs min <= max; D3D11 leaves the
                // reversed range to the driver.
                if min_depth > max_depth {
                    return bad(format!(
                        "viewport MINZ {min_depth} is above MAXZ {max_depth}"
                    ));
                }
                out.viewport = Some((
                    l,
                    Viewport {
                        x,
                        y,
                        width: w,
                        height: h,
                        min_depth,
                        max_depth,
                    },
                ));
            }
            ["samples", n] => {
                once.check(ctx, l, "samples")?;
                out.samples = Some((l, super::texture::sample_count(ctx, l, n)?));
            }
            _ => {
                return Err(ctx.err(
                    l,
                    "expected `size W H`, `format N F`, `clear N r g b a`, `viewport X Y W H [MINZ MAXZ]` or `samples N`",
                ));
            }
        }
    }
    out.targets.sort_by_key(|t| t.index);
    Ok(out)
}

fn on_off(ctx: &Ctx, l: usize, v: &str) -> Result<bool, CaseError> {
    match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(ctx.err(l, format!("expected `on` or `off`, found `{v}`"))),
    }
}

/// `[depth]`: `format F`, `test on|off`, `write on|off`, `func F`,
/// `clear D`. Defaults are D3D11's depth-stencil state defaults (test on,
/// write on, less) on a `d32_float` buffer cleared to 1.
pub(super) fn parse_depth(ctx: &Ctx, at: usize, lines: &Lines) -> Result<DepthBuffer, CaseError> {
    let mut d = DepthBuffer {
        line: at,
        state: DepthState {
            format: DepthFormat::D32Float,
            test: true,
            write: true,
            func: ComparisonFunc::Less,
        },
        clear: 1.0,
    };
    let mut once = Once::default();
    for (l, t) in lines {
        let l = *l;
        let toks: Vec<&str> = t.split_whitespace().collect();
        let [key, value] = toks.as_slice() else {
            return Err(ctx.err(
                l,
                "expected `format F`, `test on|off`, `write on|off`, `func F` or `clear D`",
            ));
        };
        once.check(ctx, l, key)?;
        match *key {
            "format" => {
                d.state.format = DepthFormat::ALL
                    .into_iter()
                    .find(|f| f.name() == *value)
                    .ok_or_else(|| {
                        let known: Vec<&str> = DepthFormat::ALL.iter().map(|f| f.name()).collect();
                        ctx.err(
                            l,
                            format!("unknown depth format `{value}` (known: {})", known.join(", ")),
                        )
                    })?
            }
            "test" => d.state.test = on_off(ctx, l, value)?,
            "write" => d.state.write = on_off(ctx, l, value)?,
            "func" => {
                d.state.func = super::sampler::compare_named(value).ok_or_else(|| {
                    ctx.err(
                        l,
                        format!(
                            "unknown comparison `{value}` (never, less, equal, less_equal, greater, not_equal, greater_equal, always)"
                        ),
                    )
                })?
            }
            "clear" => {
                let v = ctx.f32(l, value)?;
                if !(0.0..=1.0).contains(&v) {
                    return Err(ctx.err(l, format!("clear depth {value} is outside 0..=1")));
                }
                d.clear = v;
            }
            _ => return Err(ctx.err(l, format!("unknown depth setting `{key}`"))),
        }
    }
    Ok(d)
}

/// Requirements a case's targets imply, added to its `[require]` list so a
/// backend that lacks them reports the case not applicable, with the line
/// that asks for it; and a depth probe without a `[depth]` is an error.
pub(super) fn implied_requirements(ctx: &Ctx, case: &mut super::Case) -> Result<(), CaseError> {
    use super::{Feature, ProbeTarget, Requirement};
    let add = |case: &mut super::Case, line: usize, feature: Feature, reason: String| {
        if !case.requires.iter().any(|r| r.feature == feature) {
            case.requires.push(Requirement {
                line,
                feature,
                reason,
            });
        }
    };
    if let Some(p) = case.probes.iter().find(|p| p.target == ProbeTarget::Depth) {
        let line = p.line;
        let Some(depth) = case.depth else {
            return Err(ctx.err(line, "`probe depth` needs a [depth] section"));
        };
        add(
            case,
            line,
            Feature::DepthReadback,
            format!("line {line} probes the depth buffer"),
        );
        if depth.state.format == DepthFormat::D24UnormS8Uint {
            add(
                case,
                line,
                Feature::Depth24Readback,
                format!("line {line} probes a d24_unorm_s8_uint depth buffer"),
            );
        }
    }
    let norm16 = case
        .render_targets
        .iter()
        .find_map(|t| t.format.filter(|(_, f)| *f == Format::R16Unorm));
    if let Some((line, _)) = norm16 {
        add(
            case,
            line,
            Feature::Norm16Target,
            format!("line {line} renders to r16_unorm"),
        );
    }
    Ok(())
}

/// Pixels a case's render target may have. Every target of a draw is this
/// size, held as four 32-bit values a pixel on the emulator and on the GPU
/// (eight targets of 4096x4096 are 2 GiB); D3D's own limit, 16384 a side,
/// would allow 32 GiB.
pub const TARGET_PIXELS: u64 = 4096 * 4096;
