//! A case's resources against the shaders' declarations. D3D's runtime
//! (with its debug layer) refuses a view whose dimension or return type does
//! not match the shader's `dcl_resource`, and a sampler whose comparison
//! mode does not match `dcl_sampler`; a GPU driver given the same mismatch
//! fails with a message naming no slot, and the emulator would quietly read
//! it. So the case is refused before anything is drawn, naming the section
//! and the slot, on every path alike.
//!
//! A binding the shaders never declare is legal D3D (an application binds
//! a material's whole set whatever the shader reads) and is drawn, with a
//! warning naming the section: it may be a typo for another slot.

use super::texture::dimension_name;
use super::{Case, CaseError, CaseWarning, Section};
use crate::dxbc::Shader;
use crate::dxbc::analysis::Linkage;
use crate::dxbc::analysis::ResourceUse;
use crate::dxbc::enums::{ProgramType, ReturnType, SamplerMode};
use crate::dxbc::ir::DeclKind;
use crate::vm::texture::{Dimension, NumericKind, Texture};

/// One shader's declarations, with the stage's name for messages.
struct Stage<'a> {
    name: &'static str,
    shader: &'a Shader,
    uses: ResourceUse,
}

impl Stage<'_> {
    fn declaration(&self, index: usize) -> Option<&crate::dxbc::ir::Instruction> {
        self.shader.program.instructions.get(index)
    }
}

fn stage_name(kind: ProgramType) -> &'static str {
    match kind {
        ProgramType::Pixel => "pixel shader",
        ProgramType::Vertex => "vertex shader",
        _ => "shader",
    }
}

/// Whether a view of `kind` may be read through a declaration returning
/// `declared`: `float` reads every format that returns floats (fxc declares
/// `Texture2D<float4>` so), `unorm`/`snorm`/`uint`/`sint` only their own.
fn returns(kind: NumericKind, declared: ReturnType) -> bool {
    match declared {
        ReturnType::Float => !matches!(kind, NumericKind::Uint | NumericKind::Sint),
        // An sRGB view is UNORM data decoded through the curve.
        ReturnType::Unorm => matches!(kind, NumericKind::Unorm | NumericKind::Srgb),
        ReturnType::Snorm => kind == NumericKind::Snorm,
        ReturnType::Uint => kind == NumericKind::Uint,
        ReturnType::Sint => kind == NumericKind::Sint,
        // `mixed`, `double` and the rest are not judged here.
        _ => true,
    }
}

impl Case {
    /// Checks the case's textures, samplers and constant buffers against
    /// the declarations of `shaders` (the pixel shader, and the vertex
    /// shader when there is one); the error names the section's line. A
    /// slot no shader declares is a warning, also naming the line.
    pub fn check_bindings(&self, shaders: &[&Shader]) -> Result<Vec<CaseWarning>, CaseError> {
        let mut warnings = Vec::new();
        let stages: Vec<Stage> = shaders
            .iter()
            .map(|s| Stage {
                name: stage_name(s.program.kind),
                shader: s,
                uses: ResourceUse::of(&s.program),
            })
            .collect();
        let names = || {
            stages
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(" or the ")
        };
        for (slot, texture) in &self.textures {
            // A typed buffer SRV is a texture written as a [buffer].
            let section = if texture.dimension() == Dimension::Buffer {
                Section::Buffer(*slot)
            } else {
                Section::Texture(*slot)
            };
            let mut declared = false;
            for stage in &stages {
                let Some(&index) = stage.uses.textures.declared.get(slot) else {
                    continue;
                };
                declared = true;
                if let Some(decl) = stage.declaration(index) {
                    self.check_texture(section, *slot, texture, stage.name, decl)?;
                }
            }
            if !declared {
                warnings.push(self.section_warning(
                    section,
                    format!(
                        "the {} declares no t{slot}; it is bound and unused",
                        names()
                    ),
                ));
            }
        }
        for (slot, _) in &self.samplers {
            let section = Section::Sampler(*slot);
            let comparison = self.comparison_samplers.contains(slot);
            let mut declared = false;
            for stage in &stages {
                let Some(&index) = stage.uses.samplers.declared.get(slot) else {
                    continue;
                };
                declared = true;
                let mode = stage.declaration(index).and_then(|d| d.sampler_mode());
                let problem = match mode {
                    Some(SamplerMode::Comparison) if !comparison => Some(
                        "declares it mode_comparison (for `_c` instructions); give the sampler a `compare` function",
                    ),
                    Some(SamplerMode::Default) if comparison => Some(
                        "declares it mode_default; `compare` makes a comparison sampler, which only `_c` instructions take",
                    ),
                    _ => None,
                };
                if let Some(problem) = problem {
                    return Err(self.section_error(
                        section,
                        format!("the {} {problem} (s{slot})", stage.name),
                    ));
                }
            }
            if !declared {
                warnings.push(self.section_warning(
                    section,
                    format!(
                        "the {} declares no s{slot}; it is bound and unused",
                        names()
                    ),
                ));
            }
        }
        for (slot, _) in &self.constant_buffers {
            if !stages
                .iter()
                .any(|s| s.uses.constant_buffers.declared.contains_key(slot))
            {
                warnings.push(self.section_warning(
                    Section::ConstantBuffer(*slot),
                    format!(
                        "the {} declares no cb{slot}; it is bound and unused",
                        names()
                    ),
                ));
            }
        }
        self.check_buffers(&stages, &names(), &mut warnings)?;
        self.check_interfaces(&stages, &names())?;
        Ok(warnings)
    }

    /// Each `[buffer N]` and `[uav N]` against a `dcl_resource_raw`/
    /// `_structured` (`tN`) or `dcl_uav_raw`/`_structured` (`uN`): the
    /// layout must be the declared one and a structured stride equal the
    /// declared stride (D3D's runtime refuses a mismatched view).
    fn check_buffers(
        &self,
        stages: &[Stage],
        names: &str,
        warnings: &mut Vec<CaseWarning>,
    ) -> Result<(), CaseError> {
        use crate::dxbc::opcodes::Op;
        use crate::vm::memory::Layout;
        let views = [
            (
                &self.buffers,
                "t",
                Op::DclResourceRaw,
                Op::DclResourceStructured,
                Section::Buffer as fn(u32) -> Section,
            ),
            (
                &self.uavs,
                "u",
                Op::DclUavRaw,
                Op::DclUavStructured,
                Section::Uav as fn(u32) -> Section,
            ),
        ];
        // A pixel shader's UAVs share slots with its render targets: D3D11
        // binds UAVs from a start slot no lower than the target count
        // (`OMSetRenderTargetsAndUnorderedAccessViews`), and fxc refuses a
        // `u#` below a written `SV_Target#`.
        let targets = stages
            .iter()
            .filter(|s| s.shader.program.kind == ProgramType::Pixel)
            .flat_map(|s| &s.shader.program.instructions)
            .filter(|d| d.op == Op::DclOutput)
            .filter_map(|d| d.operands.first())
            .filter(|o| o.ty == crate::dxbc::ir::OperandType::OUTPUT)
            .filter_map(|o| match o.indices.first() {
                Some(crate::dxbc::ir::Index::Imm32(n)) => Some(n + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        for (slot, _) in &self.uavs {
            if *slot < targets {
                return Err(self.section_error(
                    Section::Uav(*slot),
                    format!(
                        "u{slot} shares its slot with SV_Target{slot}: the pixel shader writes {targets} render target(s), so its UAVs start at u{targets}"
                    ),
                ));
            }
        }
        for (list, prefix, raw_op, structured_op, section) in views {
            for (slot, buffer) in list.iter() {
                let section = section(*slot);
                let mut declared = false;
                for stage in stages {
                    for decl in &stage.shader.program.instructions {
                        let names_slot = decl.operands.first().and_then(|o| o.indices.first())
                            == Some(&crate::dxbc::ir::Index::Imm32(*slot));
                        if names_slot && prefix == "u" && decl.op == Op::DclUavTyped {
                            declared = true;
                            self.check_typed_uav(section, *slot, buffer, stage.name, decl)?;
                            continue;
                        }
                        if !names_slot || (decl.op != raw_op && decl.op != structured_op) {
                            continue;
                        }
                        declared = true;
                        let want = if decl.op == raw_op {
                            Layout::Raw
                        } else {
                            match decl.decl {
                                DeclKind::Count(stride) => Layout::Structured { stride },
                                _ => continue,
                            }
                        };
                        if want != buffer.layout {
                            let say = |l: Layout| match l {
                                Layout::Raw => "raw".to_string(),
                                Layout::Structured { stride } => {
                                    format!("structured, stride {stride}")
                                }
                                Layout::Typed { format, .. } => {
                                    format!("typed {}", format.name())
                                }
                            };
                            return Err(self.section_error(
                                section,
                                format!(
                                    "{prefix}{slot} is {}, but the {} declares it {}",
                                    say(buffer.layout),
                                    stage.name,
                                    say(want)
                                ),
                            ));
                        }
                    }
                }
                if !declared {
                    warnings.push(self.section_warning(
                        section,
                        format!(
                            "the {names} declares no buffer {prefix}{slot}; it is bound and unused"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// A `[uav]` against `dcl_uav_typed`: a buffer UAV (texture UAVs are
    /// not accepted yet) of a format whose type the declaration returns.
    fn check_typed_uav(
        &self,
        section: Section,
        slot: u32,
        buffer: &crate::vm::memory::Buffer,
        stage: &str,
        decl: &crate::dxbc::ir::Instruction,
    ) -> Result<(), CaseError> {
        use crate::dxbc::enums::ResourceDimension;
        use crate::vm::memory::Layout;
        let dim = decl.resource_dimension();
        let Layout::Typed { format, row } = buffer.layout else {
            return Err(self.section_error(
                section,
                format!("the {stage} declares u{slot} a typed UAV: give it `format F`"),
            ));
        };
        let have = if row.is_some() {
            ResourceDimension::Texture2D
        } else {
            ResourceDimension::Buffer
        };
        if dim != Some(have) {
            return Err(self.section_error(
                section,
                format!(
                    "u{slot} is a {} UAV, but the {stage} declares it {} (buffer and texture2d UAVs can be bound)",
                    have.name(),
                    dim.map_or("unknown", |d| d.name())
                ),
            ));
        }
        if let DeclKind::ReturnTypes(types) = &decl.decl
            && let Some(bad) = types.iter().find(|t| !returns(format.kind(), **t))
        {
            return Err(self.section_error(
                section,
                format!(
                    "u{slot} is {}, but the {stage} declares it returning {}",
                    format.name(),
                    bad.name()
                ),
            ));
        }
        Ok(())
    }

    /// Each `[interfaces]` line against the shaders' `dcl_interface`s: the
    /// slot must be one an interface declares, the table position one its
    /// list holds, and the instance's constant buffer one a shader declares.
    fn check_interfaces(&self, stages: &[Stage], names: &str) -> Result<(), CaseError> {
        // Declarations that do not check cannot be bound to; the error says
        // which instruction is wrong.
        let linkages: Vec<Result<Linkage, _>> = stages
            .iter()
            .map(|s| Linkage::of(&s.shader.program).map_err(|e| (s.name, e)))
            .collect();
        for l in &self.interface_lines {
            let err = |m: String| CaseError {
                file: self.path.display().to_string(),
                line: l.line,
                message: m,
            };
            let linkages = linkages
                .iter()
                .map(|k| {
                    k.as_ref().map_err(|(stage, e)| {
                        err(format!("the {stage}'s class interfaces do not check: {e}"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let slot = l.slot;
            let interface = linkages
                .iter()
                .flat_map(|k| k.interfaces())
                .find(|&(fp, i)| slot >= fp && slot - fp < i.length)
                .map(|(fp, i)| (fp, i.tables.len()));
            let Some((fp, listed)) = interface else {
                return Err(err(format!(
                    "the {names} declares no interface slot {slot} (no `dcl_interface` reaches it)"
                )));
            };
            if let Some(table) = l.table
                && table as usize >= listed
            {
                return Err(err(format!(
                    "slot {slot} is fp{fp}[{}], whose `dcl_interface` lists {listed} function \
                     table(s): table is a position in that list, 0..={}",
                    slot - fp,
                    listed.saturating_sub(1)
                )));
            }
            if let Some(cb) = l.constant_buffer
                && !stages
                    .iter()
                    .any(|s| s.uses.constant_buffers.declared.contains_key(&cb))
            {
                return Err(err(format!(
                    "slot {slot}'s instance data is in cb{cb}, which the {names} does not declare"
                )));
            }
        }
        Ok(())
    }

    fn check_texture(
        &self,
        section: Section,
        slot: u32,
        texture: &Texture,
        stage: &str,
        decl: &crate::dxbc::ir::Instruction,
    ) -> Result<(), CaseError> {
        let have = texture.dimension();
        if let Some(dim) = decl.resource_dimension() {
            let want = Dimension::from_resource_dim(dim);
            if want != Some(have) {
                return Err(self.section_error(
                    section,
                    format!(
                        "t{slot} is a {} texture, but the {stage} declares it {}",
                        dimension_name(have),
                        dim.name()
                    ),
                ));
            }
        }
        if let DeclKind::ReturnTypes(types) = &decl.decl {
            let kind = texture.format().kind();
            if let Some(bad) = types.iter().find(|t| !returns(kind, **t)) {
                return Err(self.section_error(
                    section,
                    format!(
                        "t{slot} is {}, which returns {}, but the {stage} declares it returning {}",
                        texture.format().name(),
                        format!("{kind:?}").to_lowercase(),
                        bad.name()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// An error at the line of `section`'s title.
    fn section_warning(&self, section: Section, message: String) -> CaseWarning {
        let e = self.section_error(section, message);
        CaseWarning {
            file: e.file,
            line: e.line,
            message: e.message,
            section,
        }
    }

    fn section_error(&self, section: Section, message: String) -> CaseError {
        let line = self
            .sections
            .iter()
            .find(|(s, _)| *s == section)
            .map_or(0, |(_, l)| *l);
        CaseError {
            file: self.path.display().to_string(),
            line,
            message: format!("{}: {message}", section.title()),
        }
    }
}
