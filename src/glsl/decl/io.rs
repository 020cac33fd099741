//! What stage inputs and outputs share: the signature elements a
//! register declares, varying locations, interpolation qualifiers and the
//! manifest's entries for them.

use super::super::emit::Emitter;
use super::super::manifest::VaryingEntry;
use super::super::types::{Ty, ValueType};
use super::super::writer::{Piece, cat};
use super::super::{Dialect, Reason};
use super::MAX_IO_REGISTERS;
use crate::dxbc::enums::{ComponentType, SystemValue};
use crate::dxbc::ir::{Instruction, ProgramType, Selection};
use crate::dxbc::signature::{SignatureElement, SignatureKind};

/// The elements of the stage's `kind` signatures, in order: walked, not
/// collected, as every declared register looks its elements up here.
pub(super) fn signature<'a>(
    e: &Emitter<'a>,
    kind: SignatureKind,
) -> impl Iterator<Item = &'a SignatureElement> + use<'a> {
    e.shader
        .signatures
        .iter()
        .filter(move |s| s.kind == kind)
        .flat_map(|s| s.elements.iter())
}

/// Signature elements in register `reg` overlapping `mask`.
pub(super) fn elements_at<'a>(
    e: &Emitter<'a>,
    kind: SignatureKind,
    reg: u32,
    mask: u8,
) -> impl Iterator<Item = &'a SignatureElement> + use<'a> {
    signature(e, kind).filter(move |el| el.register == reg && el.mask & mask != 0)
}

pub(super) fn component_ty(el: Option<&SignatureElement>) -> Ty {
    match el.map(|e| e.component_type()) {
        Some(ComponentType::Uint32) => Ty::Uint,
        Some(ComponentType::Sint32) => Ty::Int,
        _ => Ty::Float,
    }
}

/// The vk450 location of a non-system-value varying: its position in the
/// link's order (a vertex shader translated with one), else in the
/// caller's order, else among the stage's non-system-value elements.
/// Elements an order leaves out take the locations after it, in signature
/// order, so none shares a location with a listed one.
pub(super) fn varying_location(e: &Emitter, kind: SignatureKind, el: &SignatureElement) -> u32 {
    let linked = match (&e.options.link, e.stage) {
        (Some(link), ProgramType::Vertex) => Some(link.varying_order()),
        _ => None,
    };
    let order = linked.as_ref().or(e.options.varying_locations.as_ref());
    let listed = |x: &SignatureElement| {
        order.and_then(|o| {
            o.iter().position(|(n, i)| {
                n.eq_ignore_ascii_case(&x.semantic_name) && *i == x.semantic_index
            })
        })
    };
    if let Some(p) = listed(el) {
        return p as u32;
    }
    let mut next = order.map_or(0, |o| o.len());
    for x in signature(e, kind) {
        if x.is_system_value() {
            continue;
        }
        if std::ptr::eq(x, el) {
            return next as u32;
        }
        if listed(x).is_none() {
            next += 1;
        }
    }
    el.register
}

/// The register, mask and system value a `dcl_input*`/`dcl_output*`
/// declares, with the register recorded in the file. None when there is
/// nothing to declare: a register past D3D's limits (refused) or an empty
/// mask (the register still exists and stays zero).
pub(super) fn io_register(
    e: &mut Emitter,
    inst: &Instruction,
    op: &crate::dxbc::ir::Operand,
    output: bool,
) -> Option<(u32, u8, SystemValue)> {
    let reg = op
        .reg()
        .unwrap_or_else(|| op.indices.get(1).and_then(|i| i.imm()).unwrap_or(0) as u32);
    let mask = match op.selection {
        Selection::Mask(m) => m,
        _ => 0xf,
    };
    if reg >= MAX_IO_REGISTERS {
        e.refuse(inst, Reason::Limit);
        return None;
    }
    if output {
        e.output_regs.insert(reg);
    } else {
        e.input_regs.insert(reg);
    }
    let sv = inst.system_value().unwrap_or(SystemValue::Undefined);
    (mask != 0).then_some((reg, mask, sv))
}

/// Whether `name` is already the variable of another element (or another
/// register). Semantic names come from the file and keep only their ASCII
/// letters and digits in identifiers, so `CO.UR` and `CO\u{e9}UR` both give
/// `vs_CO_UR0`; declaring the name once would silently drop one of them.
pub(super) fn taken_by_another(
    declared: &[VaryingEntry],
    name: &str,
    reg: u32,
    el: Option<&SignatureElement>,
) -> bool {
    declared.iter().any(|v| {
        v.glsl_name == name
            && (v.register != reg
                || el.is_some_and(|el| {
                    v.semantic != el.semantic_name || v.semantic_index != el.semantic_index
                }))
    })
}

/// Whether the dialect has `noperspective` (GLSL 4.50 does, ES 3.00 not).
pub(super) fn native_noperspective(dialect: Dialect) -> bool {
    dialect == Dialect::Vk450
}

/// The interpolation qualifiers of a varying (with a trailing space).
/// es300 has no `noperspective`; the value is scaled by w instead (see
/// `input::declare_input` and `output::declare_output`). `sample` is the
/// caller's to decide (es300 drops it). A constant text for each of the
/// few combinations, so a declaration builds no `String` for them.
pub(super) fn qualifier(
    dialect: Dialect,
    flat: bool,
    centroid: bool,
    noperspective: bool,
    sample: bool,
) -> &'static str {
    if flat {
        return "flat ";
    }
    let noperspective = noperspective && native_noperspective(dialect);
    match (noperspective, centroid, sample) {
        (false, false, false) => "",
        (true, false, false) => "noperspective ",
        (false, true, false) => "centroid ",
        (true, true, false) => "noperspective centroid ",
        (false, false, true) => "sample ",
        (true, false, true) => "noperspective sample ",
        (false, true, true) => "centroid sample ",
        (true, true, true) => "noperspective centroid sample ",
    }
}

/// `layout(location = N) ` before a varying, or nothing without a
/// location (es300's varyings link by name).
pub(super) struct LocationLayout(pub Option<u32>);

impl Piece for LocationLayout {
    fn push_to(&self, out: &mut String) {
        if let Some(l) = self.0 {
            cat!(out; "layout(location = ", l, ") ");
        }
    }
}

/// A mask as the manifest writes it (`xy`, `x_z`… without spaces).
/// `xzw`: the components `mask` names, in order (the manifest's mask).
pub(super) fn mask_text(mask: u8) -> String {
    let mut s = String::with_capacity(4);
    for (i, c) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
        if mask & (1 << i) != 0 {
            s.push(c);
        }
    }
    s
}

pub(super) fn push_sv_entry(
    e: &mut Emitter,
    output: bool,
    reg: u32,
    mask: u8,
    semantic: &str,
    glsl: &str,
    ty: ValueType,
) {
    let entry = VaryingEntry {
        register: reg,
        mask: mask_text(mask),
        semantic: semantic.into(),
        semantic_index: 0,
        glsl_name: glsl.into(),
        glsl_type: ty,
        location: None,
        interpolation: None,
        builtin: true,
    };
    if output {
        e.manifest.outputs.push(entry);
    } else {
        e.manifest.inputs.push(entry);
    }
}
