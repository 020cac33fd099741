//! The render targets a case draws into, as every renderer sees them: for
//! each `SV_TargetN` the pixel shader writes, the format it is stored in
//! (the case's `format N F`, else 32-bit channels of the output's type, as
//! many as it declares), its clear value, and the checks that case and
//! shader agree. Values go through `vm::output_merger`, so the emulator's
//! image of a target and a GPU's read-back decode alike.

use super::case::Case;
use super::image::TargetKind;
use crate::vm::output_merger;
use crate::vm::texture::{Format, NumericKind};

/// One render target of a draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetPlan {
    /// The `N` of `SV_TargetN`.
    pub index: u32,
    /// The output's type.
    pub kind: TargetKind,
    /// Components the output declares.
    pub channels: u32,
    /// The case's format; `None`: 32-bit `kind` channels.
    pub format: Option<Format>,
    /// `ClearRenderTargetView`'s colour (0 when the case gives none).
    pub clear: [f32; 4],
}

impl TargetPlan {
    /// The image value of an output's raw lanes written to the target
    /// (channels outside `mask` are the zeros the register holds).
    pub fn written(&self, raw: [u32; 4]) -> [f32; 4] {
        match self.format {
            Some(f) => output_merger::read_back(f, &output_merger::store(f, raw)),
            None => std::array::from_fn(|c| {
                if c < self.channels as usize {
                    self.kind.value(raw[c])
                } else {
                    0.0
                }
            }),
        }
    }

    /// The clear colour as the lanes a shader output would carry: float
    /// bits, or the integers an integer target's clear names (checked
    /// integral by [`plan`]).
    pub fn clear_lanes(&self) -> [u32; 4] {
        self.clear.map(|v| match self.kind {
            TargetKind::Float => v.to_bits(),
            TargetKind::Uint => v as u32,
            TargetKind::Sint => v as i32 as u32,
        })
    }

    /// The image value of a texel only the clear reached.
    pub fn cleared(&self) -> [f32; 4] {
        self.written(self.clear_lanes())
    }

    /// One pixel's samples (image values, as [`written`](Self::written)
    /// gives them) resolved as `ResolveSubresource` does: the average,
    /// channel by channel. An sRGB target averages in linear space (D3D
    /// leaves the resolve's arithmetic to the implementation; hardware
    /// resolves `_SRGB` formats in linear space, and Vulkan's specification
    /// asks it of sRGB attachments): each sample's stored encoding decodes
    /// through the sRGB curve, the linear values are averaged, and the
    /// mean is encoded and stored back as the format rounds, so the image
    /// holds the encoding a resolved texel stores. Integer targets are
    /// averaged as their values, which D3D cannot resolve but a comparison
    /// can. A single sample is returned as it is, bit for bit.
    pub fn resolve(&self, samples: &[[f32; 4]]) -> [f32; 4] {
        if let [one] = samples {
            return *one;
        }
        match self.format {
            Some(f) if f.is_srgb() => {
                let linear: Vec<[f32; 4]> = samples
                    .iter()
                    .map(|s| {
                        // The image holds the stored code / 255; the UNORM
                        // store recovers the code exactly.
                        let bytes = output_merger::store(f.without_srgb(), s.map(f32::to_bits));
                        f.decode(&bytes).map(f32::from_bits)
                    })
                    .collect();
                let mean = average(&linear);
                output_merger::read_back(f, &output_merger::store(f, mean.map(f32::to_bits)))
            }
            _ => average(samples),
        }
    }
}

/// The channel-by-channel mean of a pixel's samples.
fn average(samples: &[[f32; 4]]) -> [f32; 4] {
    let n = samples.len() as f32;
    std::array::from_fn(|c| samples.iter().map(|s| s[c]).sum::<f32>() / n)
}

/// Whether a format stores what an output of `kind` writes.
fn kinds_agree(format: Format, kind: TargetKind) -> bool {
    matches!(
        (format.kind(), kind),
        (
            NumericKind::Unorm | NumericKind::Snorm | NumericKind::Srgb | NumericKind::Float,
            TargetKind::Float
        ) | (NumericKind::Uint, TargetKind::Uint)
            | (NumericKind::Sint, TargetKind::Sint)
    )
}

fn kind_name(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::Float => "float",
        TargetKind::Uint => "uint",
        TargetKind::Sint => "int",
    }
}

/// The plans for the outputs `(index, kind, channels)` the shader writes,
/// in the order given. Errors (starting with the case file and line): a
/// `format N`/`clear N` for a target the shader does not write, a format
/// whose type is not the output's (a float output into a `uint` target),
/// a format with more channels than the output writes (D3D leaves the rest
/// undefined and wgpu refuses the pipeline), an integer target's clear
/// that is not an integer of its range.
pub fn plan(case: &Case, outputs: &[(u32, TargetKind, u32)]) -> Result<Vec<TargetPlan>, String> {
    let file = case.path.display();
    for t in &case.render_targets {
        if !outputs.iter().any(|o| o.0 == t.index) {
            let line = t.format.map(|f| f.0).or(t.clear.map(|c| c.0)).unwrap_or(0);
            return Err(format!(
                "{file}:{line}: render target {} is not written by the pixel shader",
                t.index
            ));
        }
    }
    let mut out = Vec::new();
    for &(index, kind, channels) in outputs {
        let spec = case.render_target(index);
        let format = spec.and_then(|s| s.format);
        if let Some((line, f)) = format {
            if !kinds_agree(f, kind) {
                return Err(format!(
                    "{file}:{line}: SV_Target{index} is a `{}` output; format {} stores {}",
                    kind_name(kind),
                    f.name(),
                    match f.kind() {
                        NumericKind::Uint => "unsigned integers",
                        NumericKind::Sint => "signed integers",
                        _ => "floats",
                    }
                ));
            }
            if (f.channels() as u32) > channels {
                return Err(format!(
                    "{file}:{line}: SV_Target{index} writes {channels} component(s), format {} has {}: \
                     D3D leaves the others undefined",
                    f.name(),
                    f.channels()
                ));
            }
        }
        let clear = spec.and_then(|s| s.clear);
        if let Some((line, c)) = clear
            && kind != TargetKind::Float
        {
            let (lo, hi) = match kind {
                TargetKind::Uint => (0.0, u32::MAX as f64),
                _ => (i32::MIN as f64, i32::MAX as f64),
            };
            if let Some(v) = c
                .iter()
                .find(|v| v.fract() != 0.0 || !(lo..=hi).contains(&f64::from(**v)))
            {
                return Err(format!(
                    "{file}:{line}: SV_Target{index} is a `{}` target: its clear value {v} is not an integer of its range",
                    kind_name(kind)
                ));
            }
        }
        out.push(TargetPlan {
            index,
            kind,
            channels,
            format: format.map(|f| f.1),
            clear: clear.map_or([0.0; 4], |c| c.1),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn case(target: &str) -> Case {
        Case::parse(
            &format!("[pixel shader]\nps_4_0\nret\n[render target]\nsize 2 2\n{target}"),
            Path::new("t.case"),
        )
        .expect("parses")
    }

    #[test]
    fn a_float_output_into_a_uint_target_names_the_format_line() {
        let c = case("format 0 r32_uint\n");
        let e = plan(&c, &[(0, TargetKind::Float, 4)]).unwrap_err();
        assert!(
            e.starts_with("t.case:6: SV_Target0 is a `float` output"),
            "{e}"
        );
    }

    #[test]
    fn a_format_wider_than_the_output_and_an_unwritten_target_are_errors() {
        let c = case("format 0 rgba8_unorm\n");
        let e = plan(&c, &[(0, TargetKind::Float, 2)]).unwrap_err();
        assert!(
            e.contains("t.case:6: SV_Target0 writes 2 component(s)"),
            "{e}"
        );
        let c = case("clear 3 0 0 0 0\n");
        let e = plan(&c, &[(0, TargetKind::Float, 4)]).unwrap_err();
        assert!(
            e.contains("t.case:6: render target 3 is not written"),
            "{e}"
        );
    }

    #[test]
    fn integer_clears_must_be_integers() {
        let c = case("clear 0 1.5 0 0 0\n");
        let e = plan(&c, &[(0, TargetKind::Uint, 1)]).unwrap_err();
        assert!(e.contains("t.case:6:"), "{e}");
        let c = case("clear 0 -1 0 0 0\n");
        assert!(plan(&c, &[(0, TargetKind::Uint, 1)]).is_err());
        let p = plan(&c, &[(0, TargetKind::Sint, 1)]).expect("-1 is an int");
        assert_eq!(p[0].cleared(), [-1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn formatted_targets_store_and_read_back_through_the_format() {
        let c = case("format 0 rgba8_unorm\nclear 0 0.5 1.5 -1 1\n");
        let p = plan(&c, &[(0, TargetKind::Float, 4)]).expect("plans");
        assert_eq!(p[0].cleared(), [128.0 / 255.0, 1.0, 0.0, 1.0]);
        let nan = f32::NAN.to_bits();
        assert_eq!(p[0].written([nan, 0, 0, 0]), [0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn srgb_targets_resolve_in_linear_space() {
        // Four samples of one pixel, as the image holds them (stored code
        // / 255). Red: 1, 1, 0, 0 decode to linear 1, 1, 0, 0; the mean
        // 0.5 encodes to 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536, stored
        // as round(0.73536 * 255) = round(187.52) = 188 — not the 128 an
        // average of the codes gives. Green: four samples of code 128
        // average to themselves (a code decodes and encodes back to
        // itself). Alpha is linear: 1, 1, 0, 0 average to 0.5, stored as
        // round(127.5) = 128.
        let g = 128.0 / 255.0;
        let px = [
            [1.0, g, 0.0, 1.0],
            [1.0, g, 0.0, 1.0],
            [0.0, g, 0.0, 0.0],
            [0.0, g, 0.0, 0.0],
        ];
        let c = case("format 0 rgba8_unorm_srgb\n");
        let p = plan(&c, &[(0, TargetKind::Float, 4)]).expect("plans");
        assert_eq!(p[0].resolve(&px), [188.0 / 255.0, g, 0.0, 128.0 / 255.0]);
        // The same samples in a UNORM target, and in a 32-bit float one,
        // average as they are.
        for target in ["format 0 rgba8_unorm\n", ""] {
            let c = case(target);
            let p = plan(&c, &[(0, TargetKind::Float, 4)]).expect("plans");
            assert_eq!(p[0].resolve(&px), [0.5, g, 0.0, 0.5], "{target}");
        }
        // One sample is itself, whatever the format.
        let c = case("format 0 rgba8_unorm_srgb\n");
        let p = plan(&c, &[(0, TargetKind::Float, 4)]).expect("plans");
        assert_eq!(p[0].resolve(&px[..1]), px[0]);
    }
}
