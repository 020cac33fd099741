//! Everything a container carries besides the program: reflection (RDEF),
//! signatures, STAT and SFI0. They come from the listing's comment header
//! when it has one; otherwise they are derived from the declarations, with
//! `.semantic` directives naming what the bytecode alone cannot.

use super::error::{AsmError, AsmResult};
use super::header::{ParsedHeader, Profile, parse_header};
use crate::dxbc::container::build_container;
use crate::dxbc::disasm::{Style, style_chunk};
use crate::dxbc::ir::*;
use crate::dxbc::rdef::ProgramType;
use crate::dxbc::signature::{Signature, SignatureElement, SignatureKind};

/// A `.semantic REG NAME [INDEX] [float|int|uint]` directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemanticDirective {
    /// `v` or `o`.
    pub file: char,
    pub register: u32,
    pub name: String,
    pub index: u32,
    /// D3D_REGISTER_COMPONENT_TYPE: 1 uint, 2 sint, 3 float.
    pub component_type: u32,
}

#[derive(Debug, Clone)]
pub struct Reflection {
    /// What fxc's comment header said (empty when there was none).
    pub header: ParsedHeader,
    pub semantics: Vec<SemanticDirective>,
}

/// D3D_NAME values for the outputs that have no register number.
const SV_DEPTH: u32 = 65;
const SV_COVERAGE: u32 = 66;
const SV_DEPTH_GE: u32 = 67;
const SV_DEPTH_LE: u32 = 68;
const SV_STENCIL_REF: u32 = 69;

/// The HLSL semantic fxc gives a D3D_NAME system value.
fn sv_semantic(sv: u32) -> Option<&'static str> {
    Some(match sv {
        1 => "SV_Position",
        2 => "SV_ClipDistance",
        3 => "SV_CullDistance",
        4 => "SV_RenderTargetArrayIndex",
        5 => "SV_ViewportArrayIndex",
        6 => "SV_VertexID",
        7 => "SV_PrimitiveID",
        8 => "SV_InstanceID",
        9 => "SV_IsFrontFace",
        10 => "SV_SampleIndex",
        SV_DEPTH => "SV_Depth",
        SV_COVERAGE => "SV_Coverage",
        SV_DEPTH_GE => "SV_DepthGreaterEqual",
        SV_DEPTH_LE => "SV_DepthLessEqual",
        SV_STENCIL_REF => "SV_StencilRef",
        _ => return None,
    })
}

impl Reflection {
    /// Reads fxc's comment header (the lines before the profile line).
    pub fn from_header(
        lines: &[(usize, &str)],
        profile: (ProgramType, u8, u8),
    ) -> AsmResult<Reflection> {
        let (kind, major, minor) = profile;
        let profile = Profile {
            program: kind,
            major,
            minor,
        };
        Ok(Reflection {
            header: parse_header(lines, Some(profile))?,
            semantics: Vec::new(),
        })
    }

    /// Handles `.semantic REG NAME [INDEX] [TYPE]`.
    pub fn semantic_directive(&mut self, text: &str, line: usize, column: usize) -> AsmResult<()> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let err = |found: &str, msg: &str| AsmError::at(line, column, found, msg.to_string());
        let usage = "expected `.semantic REG NAME [INDEX] [float|int|uint]`, e.g. `.semantic v1 TEXCOORD 0`";
        let (reg, name) = match words.as_slice() {
            [r, n, ..] => (*r, *n),
            _ => return Err(err(text.trim(), usage)),
        };
        let file = reg.chars().next().filter(|c| *c == 'v' || *c == 'o');
        let register = reg.get(1..).and_then(|n| n.parse().ok());
        let (Some(file), Some(register)) = (file, register) else {
            return Err(err(
                reg,
                "expected an input or output register such as v1 or o0",
            ));
        };
        let mut index = 0;
        let mut component_type = 3;
        for w in &words[2..] {
            match *w {
                "float" => component_type = 3,
                "int" => component_type = 2,
                "uint" => component_type = 1,
                n => index = n.parse().map_err(|_| err(n, usage))?,
            }
        }
        self.semantics.push(SemanticDirective {
            file,
            register,
            name: name.to_string(),
            index,
            component_type,
        });
        Ok(())
    }

    fn directive(&self, file: char, register: u32) -> Option<&SemanticDirective> {
        self.semantics
            .iter()
            .find(|d| d.file == file && d.register == register)
    }

    /// Input and output signatures from the declarations, for text that has
    /// no signature tables.
    fn derived_signatures(&self, program: &Program) -> Vec<Signature> {
        let mut inputs: Vec<SignatureElement> = Vec::new();
        let mut outputs: Vec<SignatureElement> = Vec::new();
        for inst in &program.instructions {
            let (is_input, is_output) = (inst.declares_input(), inst.declares_output());
            if !is_input && !is_output {
                continue;
            }
            let Some(op) = inst.operands.first() else {
                continue;
            };
            let sv = match inst.decl {
                DeclKind::SystemValue(v) => v.code(),
                _ => 0,
            };
            let (register, sv) = match op.ty {
                OperandType::INPUT | OperandType::OUTPUT if op.indices.len() == 1 => {
                    (op.reg().unwrap_or(0), sv)
                }
                OperandType::OUTPUT_DEPTH => (u32::MAX, SV_DEPTH),
                OperandType::OUTPUT_COVERAGE_MASK => (u32::MAX, SV_COVERAGE),
                OperandType::OUTPUT_DEPTH_GREATER_EQUAL => (u32::MAX, SV_DEPTH_GE),
                OperandType::OUTPUT_DEPTH_LESS_EQUAL => (u32::MAX, SV_DEPTH_LE),
                OperandType::OUTPUT_STENCIL_REF => (u32::MAX, SV_STENCIL_REF),
                // Other system registers (vPrim, vThreadID, ...) are not in
                // signatures, and per-vertex arrays need the listing's tables.
                _ => continue,
            };
            let mask = match op.selection {
                Selection::Mask(m) if m != 0 => m,
                _ => 1,
            };
            let file = if is_input { 'v' } else { 'o' };
            let pixel_target = !is_input && program.kind == ProgramType::Pixel && sv == 0;
            let (name, index, component_type) = match self.directive(file, register) {
                Some(d) => (d.name.clone(), d.index, d.component_type),
                None => match sv_semantic(sv) {
                    Some(n) => (n.to_string(), 0, if matches!(sv, 4..=10) { 1 } else { 3 }),
                    None if pixel_target => ("SV_Target".to_string(), register, 3),
                    None => ("TEXCOORD".to_string(), register, 3),
                },
            };
            let list = if is_input { &mut inputs } else { &mut outputs };
            if let Some(e) = list.iter_mut().find(|e| {
                e.register == register && e.semantic_name == name && e.semantic_index == index
            }) {
                e.mask |= mask;
                e.rw_mask = if is_input { e.mask } else { 0 };
                continue;
            }
            // Registers without a number sort after the numbered ones.
            let stored_sv = if register == u32::MAX || sv <= 22 {
                sv
            } else {
                0
            };
            list.push(SignatureElement {
                semantic_name: name,
                semantic_index: index,
                system_value: stored_sv,
                component_type,
                register,
                mask,
                rw_mask: if is_input { mask } else { 0 },
                stream: 0,
                min_precision: 0,
            });
        }
        inputs.sort_by_key(|e| e.register);
        outputs.sort_by_key(|e| e.register);
        vec![
            Signature {
                fourcc: *b"ISGN",
                kind: SignatureKind::Input,
                elements: inputs,
            },
            Signature {
                fourcc: *b"OSGN",
                kind: SignatureKind::Output,
                elements: outputs,
            },
        ]
    }

    /// The container: RDEF, signatures, program, SFI0, STAT in fxc's
    /// order, then `LSTY` when the text's printing style needs recording.
    pub fn container(
        &self,
        program: &Program,
        slots: Option<u32>,
        style: Option<Style>,
        words: &[u32],
    ) -> Vec<u8> {
        let mut header = self.header.clone();
        if header.signatures.is_empty() {
            header.signatures = self.derived_signatures(program);
        }
        match slots {
            Some(n) if n > 0 || header.stat.is_some() => header.set_instruction_count(n),
            _ => {}
        }
        let name = if program.shex { *b"SHEX" } else { *b"SHDR" };
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut chunks = header.container_chunks(name, &bytes);
        if let Some(style) = style {
            chunks.push((style_chunk::FOURCC, style_chunk::write(style)));
        }
        let refs: Vec<(&[u8; 4], &[u8])> = chunks.iter().map(|(f, d)| (f, d.as_slice())).collect();
        build_container(&refs)
    }
}
