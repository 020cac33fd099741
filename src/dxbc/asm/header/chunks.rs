//! Building the chunks from what the sections said, filling what the
//! header does not show with fxc's usual values.

use super::bindings::BindColumns;
use super::signatures::signature;
use super::{ParsedHeader, Parser, Profile, stat_words};
use crate::dxbc::asm::error::AsmResult;
use crate::dxbc::rdef::{CbufferKind, InputType, ProgramType, Rdef, Target};
use crate::dxbc::stat::{ShaderFeatures, Stat, field};
use crate::dxbc::write::default_rd11;

impl<'a> Parser<'a> {
    /// Builds the chunks from what was read.
    pub(super) fn finish(mut self, profile: Option<Profile>) -> AsmResult<ParsedHeader> {
        let has_rdef_sections = self.buffers.is_some() || self.bindings.is_some();
        let anything = self.banner
            || has_rdef_sections
            || !self.signatures.is_empty()
            || self.feature_bits != 0
            || self.out.early_depth_stencil
            || self.out.debug_layer_note
            || self.sample_frequency
            || self.domain.is_some()
            || self.output_primitive.is_some();
        if !anything {
            return Ok(self.out);
        }

        let program = profile.map(|p| p.program).or_else(|| {
            if self.output_primitive.is_some() {
                Some(ProgramType::Hull)
            } else if self.sample_frequency {
                Some(ProgramType::Pixel)
            } else {
                None
            }
        });
        self.out.program = program;

        let with_id = matches!(self.bindings, Some((BindColumns::HlslBindWithId, _)));
        let target_profile = profile.unwrap_or(Profile {
            program: program.unwrap_or(ProgramType::Pixel),
            major: 5,
            minor: if with_id { 1 } else { 0 },
        });

        // RDEF: see parse_header on the one case the layout decides.
        let layout_says_rdef = {
            let n = self.separators;
            let own = if self.first_content_is_signature {
                1
            } else {
                0
            };
            self.content_started && n >= own + 2 || !self.content_started && n >= 2
        };
        let needs_rdef = !self.creator.is_empty()
            || has_rdef_sections
            || self.slash3
            || self.out.debug_layer_note
            || (self.banner && layout_says_rdef);
        if needs_rdef {
            let target = Target::from_token(target_profile.rdef_token());
            let buffers = self.buffers.take().unwrap_or_default();
            let sm51 = target.at_least(5, 1);
            let mut bindings = match self.bindings.take() {
                Some((_, rows)) => rows,
                None => Vec::new(),
            };
            for b in &mut bindings {
                // Structured buffers keep their stride in the sample count
                // field; the header shows it as the element record's size.
                if matches!(
                    b.input_type,
                    InputType::Structured
                        | InputType::UavRwStructured
                        | InputType::UavAppendStructured
                        | InputType::UavConsumeStructured
                        | InputType::UavRwStructuredWithCounter
                ) {
                    b.num_samples = buffers
                        .iter()
                        .find(|c| c.kind == CbufferKind::ResourceBindInfo && c.name == b.name)
                        .and_then(|c| c.variables.first())
                        .map_or(0, |v| v.size);
                }
                // Only 5.1 records hold a space and range ID.
                if sm51 {
                    b.space = Some(b.space.unwrap_or(0));
                    b.id = Some(b.id.unwrap_or(0));
                } else {
                    b.space = None;
                    b.id = None;
                }
            }
            self.out.rdef = Some(Rdef {
                target,
                flags: 0,
                creator: self.creator.clone(),
                rd11: (target.major >= 5).then(|| default_rd11(target.major, target.minor)),
                constant_buffers: buffers,
                bindings,
            });
        }

        let sm5 = target_profile.major >= 5;
        for raw in std::mem::take(&mut self.signatures) {
            let sig = signature(raw, program, sm5)?;
            self.out.signatures.push(sig);
        }

        let tessellation = self.domain.is_some() || self.output_primitive.is_some();
        let mut words = vec![0u32; stat_words(sm5, tessellation)];
        let mut set = |i: usize, v: u32| {
            if let Some(w) = words.get_mut(i) {
                *w = v;
            }
        };
        if self.sample_frequency {
            set(field::SAMPLE_FREQUENCY, 1);
        }
        if let Some((domain, points)) = self.domain {
            set(field::TESSELLATOR_DOMAIN, domain);
            set(field::CONTROL_POINTS, points);
        }
        if let Some((primitive, partitioning)) = self.output_primitive {
            set(field::HS_OUTPUT_PRIMITIVE, primitive);
            set(field::HS_PARTITIONING, partitioning);
        }
        self.out.stat = Some(Stat { words });
        if self.feature_bits != 0 {
            self.out.features = Some(ShaderFeatures {
                flags: self.feature_bits,
            });
        }
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use crate::dxbc::asm::header::tests::{numbered, round_trip};
    use crate::dxbc::asm::header::{Profile, parse_header};

    #[test]
    fn disassembler_banner_with_and_without_rdef() {
        let without = "\
//
// Generated by Microsoft (R) D3D Shader Disassembler
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input";
        let p = round_trip(without, "vs_4_0");
        assert!(p.rdef.is_none());
        let with = "\
//
// Generated by Microsoft (R) D3D Shader Disassembler
//
//
// Note: shader requires additional functionality:
//       Double-precision floating point
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input";
        let p = round_trip(with, "cs_5_0");
        assert_eq!(p.rdef.as_ref().map(|r| r.creator.as_str()), Some(""));
        assert_eq!(p.features.map(|f| f.flags), Some(1));
        // 3Dmigoto's line (and its blank line) are skipped and reported.
        let migoto = without.replacen(
            "//\n//\n// Input",
            "//\n//   using 3Dmigoto v1.2.51 on Sat Dec 24 12:33:39 2016\n//\n//\n// Input",
            1,
        );
        let p = parse_header(&numbered(&migoto), Profile::parse("vs_4_0")).unwrap();
        assert!(p.rdef.is_none());
        assert_eq!(p.unrepresented, vec![4, 5]);
    }
}
