//! The `view …` lines of a `[texture N]` section: the shader-resource view
//! a case binds instead of the whole resource. Kept apart from the section
//! because each aspect is checked against the resource only once the whole
//! section has made it, and each error must name the aspect's own line.

use super::super::CaseError;
use super::super::values::{Ctx, Once};
use super::format_named;
use super::shape::dimension_named;
use crate::vm::texture::{Dimension, Format, Texture, View, ViewError};

/// The `view …` lines of a texture, each aspect with the line that set it
/// (so an error names the line at fault).
#[derive(Default)]
pub(super) struct ViewLines {
    mips: Option<(usize, u32, u32)>,
    layers: Option<(usize, u32, u32)>,
    dimension: Option<(usize, Dimension)>,
    format: Option<(usize, Format)>,
}

impl ViewLines {
    /// A depth-stencil resource is no SRV format: D3D reads its depth or
    /// its stencil through one of two view formats, and a case says which
    /// rather than getting one by default. `format_at` is the line that
    /// gave the resource's format.
    pub(super) fn depth_stencil(
        &self,
        ctx: &Ctx,
        format_at: usize,
        format: Format,
    ) -> Result<(), CaseError> {
        let (line, shown) = self.format.unwrap_or((format_at, format));
        let Some([depth, stencil]) = shown.depth_stencil_views() else {
            return Ok(());
        };
        Err(ctx.err(
            line,
            format!(
                "{} is no shader resource format: add `view format {}` (depth in .x) or \
                 `view format {}` (stencil in .y)",
                shown.name(),
                depth.name().to_ascii_lowercase(),
                stencil.name().to_ascii_lowercase()
            ),
        ))
    }

    /// One `view` line; `once` is the section's, each aspect a setting of
    /// its own (`view mips` twice is an error, `view mips` then `view
    /// layers` is not).
    pub(super) fn parse(
        &mut self,
        ctx: &Ctx,
        once: &mut Once,
        l: usize,
        toks: &[&str],
    ) -> Result<(), CaseError> {
        match toks {
            ["mips", first, count] => {
                once.check(ctx, l, "view mips")?;
                self.mips = Some((l, ctx.u32(l, first)?, ctx.u32(l, count)?));
            }
            ["layers", first, count] => {
                once.check(ctx, l, "view layers")?;
                self.layers = Some((l, ctx.u32(l, first)?, ctx.u32(l, count)?));
            }
            ["dimension", d, rest @ ..] => {
                once.check(ctx, l, "view dimension")?;
                let dim = dimension_named(d)
                    .ok_or_else(|| ctx.err(l, format!("unknown view dimension `{d}`")))?;
                self.dimension = Some((l, dim));
                match rest {
                    [] => {}
                    // `layer N`: one layer, for a 1D or 2D view of an array.
                    ["layer", n] => {
                        once.check(ctx, l, "view layers")?;
                        self.layers = Some((l, ctx.u32(l, n)?, 1));
                    }
                    _ => return Err(ctx.err(l, "expected `view dimension DIM [layer N]`")),
                }
            }
            ["format", f] => {
                once.check(ctx, l, "view format")?;
                let f = format_named(f)
                    .ok_or_else(|| ctx.err(l, format!("unknown view format `{f}`")))?;
                self.format = Some((l, f));
            }
            _ => {
                return Err(ctx.err(
                    l,
                    "expected `view mips FIRST COUNT`, `view layers FIRST COUNT`, \
                     `view dimension DIM [layer N]` or `view format FORMAT`",
                ));
            }
        }
        Ok(())
    }

    /// The resource seen through the view (itself without `view` lines).
    pub(super) fn apply(&self, ctx: &Ctx, at: usize, tex: Texture) -> Result<Texture, CaseError> {
        let mut v = View::whole(&tex);
        let mut any = None;
        if let Some((l, first, count)) = self.mips {
            (v.first_mip, v.mip_count) = (first, count);
            any = Some(l);
        }
        if let Some((l, first, count)) = self.layers {
            (v.first_layer, v.layer_count) = (first, count);
            any = Some(l);
        }
        if let Some((l, d)) = self.dimension {
            v.dimension = d;
            any = Some(l);
        }
        if let Some((l, f)) = self.format {
            v.format = f;
            any = Some(l);
        }
        let Some(any) = any else { return Ok(tex) };
        tex.with_view(v).map_err(|e| {
            let line = match e {
                ViewError::Mips { .. } => self.mips.map(|m| m.0),
                ViewError::Layers { .. } => self.layers.map(|m| m.0),
                ViewError::LayerCount { .. } => {
                    self.layers.map(|m| m.0).or(self.dimension.map(|d| d.0))
                }
                ViewError::Dimension { .. } => self.dimension.map(|d| d.0),
                ViewError::Format { .. } | ViewError::Blocks(_) => self.format.map(|f| f.0),
            };
            ctx.err(line.unwrap_or(any).max(at), format!("view: {e}"))
        })
    }
}
