//! A shader's input and output registers as one list, merged from the
//! `dcl_input*`/`dcl_output*` declarations and the signatures. The
//! emulator's default inputs, the harness rasteriser and the emitter read
//! this instead of scanning declarations and signatures each in their own
//! way.

use crate::dxbc::enums::{ComponentType, Interpolation, SystemValue};
use crate::dxbc::ir::{OperandType, Program};
use crate::dxbc::opcodes::Op;
use crate::dxbc::shader::Shader;
use crate::dxbc::signature::{Signature, SignatureKind};

/// One `v#` or `o#` register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoRegister {
    pub register: u32,
    /// Components the declarations name (bit 0 = x); 0 when the register
    /// is only in the signature.
    pub mask: u8,
    /// Components the signature's elements in this register cover.
    pub signature_mask: u8,
    /// The declaration's `_siv`/`_sgv` name where it has one, else the
    /// signature's; `Undefined` for plain attributes.
    pub system_value: SystemValue,
    /// From the signature; `Float32` where there is none (declarations do
    /// not carry a type). Where several signature elements share the
    /// register, the last listed (its highest components) gives the type.
    pub component_type: ComponentType,
    /// Pixel-shader inputs: the `dcl_input_ps*` mode. `_sgv` inputs are
    /// `Constant` whatever the token says, since system-generated values
    /// (front face, primitive id) are the same across a primitive.
    pub interpolation: Option<Interpolation>,
    /// Whether a declaration names it (the shader reads or writes it).
    pub declared: bool,
}

impl IoRegister {
    fn new(register: u32) -> IoRegister {
        IoRegister {
            register,
            mask: 0,
            signature_mask: 0,
            system_value: SystemValue::Undefined,
            component_type: ComponentType::Float32,
            interpolation: None,
            declared: false,
        }
    }

    /// The lowest declared component (0 when none is declared).
    pub fn first_component(&self) -> usize {
        if self.mask == 0 {
            0
        } else {
            self.mask.trailing_zeros() as usize
        }
    }
}

/// The registers of one direction (inputs or outputs), by register
/// number. Only the plain `v#`/`o#` files are listed: per-vertex arrays
/// (`v[n][#]`) and named registers (`vPrim`, `oDepth`) are not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IoLayout {
    pub registers: Vec<IoRegister>,
}

impl IoLayout {
    pub fn of_inputs(shader: &Shader) -> IoLayout {
        IoLayout::inputs(&shader.program, input_signature(shader))
    }

    pub fn of_outputs(shader: &Shader) -> IoLayout {
        IoLayout::outputs(&shader.program, output_signature(shader))
    }

    pub fn inputs(program: &Program, signature: Option<&Signature>) -> IoLayout {
        IoLayout::build(program, signature, OperandType::INPUT)
    }

    pub fn outputs(program: &Program, signature: Option<&Signature>) -> IoLayout {
        IoLayout::build(program, signature, OperandType::OUTPUT)
    }

    fn build(program: &Program, signature: Option<&Signature>, file: OperandType) -> IoLayout {
        let mut layout = IoLayout::default();
        for e in signature.map(|s| s.elements.as_slice()).unwrap_or_default() {
            // System values with no register (`SV_Depth`, …) live in
            // named registers, not in this file.
            if e.register == u32::MAX {
                continue;
            }
            let r = layout.entry(e.register);
            r.signature_mask |= e.mask;
            r.system_value = e.system_value();
            r.component_type = e.component_type();
        }
        for inst in &program.instructions {
            let declares = if file == OperandType::INPUT {
                inst.declares_input()
            } else {
                inst.declares_output()
            };
            let Some(op) = inst.operands.first().filter(|_| declares) else {
                continue;
            };
            if op.ty != file || op.indices.len() != 1 {
                continue;
            }
            let Some(reg) = op.reg() else { continue };
            let r = layout.entry(reg);
            let first = !r.declared;
            r.declared = true;
            r.mask |= op.selection.mask();
            if let Some(sv) = inst.system_value() {
                r.system_value = sv;
            }
            // D3D requires one mode per register; the first declaration's
            // stands for all.
            if first {
                r.interpolation = match inst.op {
                    Op::DclInputPsSgv => Some(Interpolation::Constant),
                    _ => inst.interpolation(),
                };
            }
        }
        layout
    }

    fn entry(&mut self, register: u32) -> &mut IoRegister {
        let at = match self
            .registers
            .binary_search_by_key(&register, |r| r.register)
        {
            Ok(at) => at,
            Err(at) => {
                self.registers.insert(at, IoRegister::new(register));
                at
            }
        };
        &mut self.registers[at]
    }

    pub fn get(&self, register: u32) -> Option<&IoRegister> {
        self.registers
            .binary_search_by_key(&register, |r| r.register)
            .ok()
            .map(|at| &self.registers[at])
    }

    /// One past the highest register listed (0 when empty).
    pub fn count(&self) -> u32 {
        self.registers
            .last()
            .map_or(0, |r| r.register.saturating_add(1))
    }

    /// The first declared register carrying `sv`.
    pub fn declared_with(&self, sv: SystemValue) -> Option<&IoRegister> {
        self.registers
            .iter()
            .find(|r| r.declared && r.system_value == sv)
    }
}

fn input_signature(shader: &Shader) -> Option<&Signature> {
    shader
        .signatures
        .iter()
        .find(|s| s.kind == SignatureKind::Input)
}

fn output_signature(shader: &Shader) -> Option<&Signature> {
    shader
        .signatures
        .iter()
        .find(|s| s.kind == SignatureKind::Output)
}
