//! Declarations: constant buffers, temps, indexable temps, the immediate
//! constant buffer, global flags and the register file here; stage inputs
//! in `input.rs`, outputs in `output.rs`, what the two share (signature
//! lookups, locations, qualifiers, manifest entries) in `io.rs`. Textures
//! and samplers belong to [`super::texture`].
//!
//! Inputs are declared once per signature element (`in_SEMn`, `vs_SEMn`)
//! and copied into `v` registers before the body; outputs are copied out of
//! `o` registers after it. Every `o` register starts at zero, so outputs the
//! signature lists but no instruction writes come out as zero.

use super::emit::{Emitter, RegSet};
use super::link::constant_buffer_decl;
use super::manifest::ConstantBufferEntry;
use super::names;
use super::support::{Support, support};
use super::types::{Ty, push_hex8};
use super::writer::{Section, cat};
use super::{Dialect, Reason, texture};
use crate::dxbc::ir::{CustomData, DeclKind, Instruction};
use crate::dxbc::numfmt::push_u64;
use crate::dxbc::opcodes::Op;

mod input;
mod io;
mod output;

use input::input;
pub(super) use input::runs_per_sample;
use output::output;

/// D3D11 limits: temps (and indexable-temp elements), constant-buffer rows,
/// input/output registers. Bytecode past them is malformed.
const MAX_TEMPS: u32 = 4096;
const MAX_CB_ROWS: u32 = 4096;
const MAX_IO_REGISTERS: u32 = 64;

/// Whether [`emit`] lowers `op` (for [`super::support::has_lowering`]).
pub(super) fn lowers(op: Op) -> bool {
    matches!(
        op,
        Op::DclTemps
            | Op::DclIndexableTemp
            | Op::DclConstantBuffer
            | Op::DclGlobalFlags
            | Op::DclResource
            | Op::DclSampler
            | Op::DclInput
            | Op::DclInputSgv
            | Op::DclInputSiv
            | Op::DclInputPs
            | Op::DclInputPsSgv
            | Op::DclInputPsSiv
            | Op::DclOutput
            | Op::DclOutputSgv
            | Op::DclOutputSiv
            | Op::DclIndexRange
            | Op::DclFunctionBody
            | Op::DclFunctionTable
            | Op::DclInterface
            | Op::Customdata
    ) || super::memory::declares(op)
}

pub fn emit(e: &mut Emitter, inst: &Instruction) {
    if let Support::Refused(reason) = support(inst.op) {
        e.refuse(inst, reason);
        return;
    }
    match inst.op {
        Op::DclTemps => {
            if let DeclKind::Count(n) = inst.decl
                && n > MAX_TEMPS
            {
                e.refuse(inst, Reason::Limit);
            } else if let DeclKind::Count(n) = inst.decl
                && n > 0
            {
                // `vec4 r0, r1, …;` pushed into one String (every shader
                // has this line; a String per register was measurable).
                let mut line = String::with_capacity(6 + 5 * n as usize);
                line.push_str("vec4 ");
                for i in 0..n {
                    if i > 0 {
                        line.push_str(", ");
                    }
                    line.push('r');
                    push_u64(&mut line, i.into());
                }
                line.push(';');
                e.decl_line(line);
            }
        }
        Op::DclIndexableTemp => {
            if let DeclKind::IndexableTemp {
                reg,
                size,
                components,
            } = inst.decl
            {
                if size > MAX_TEMPS {
                    e.refuse(inst, Reason::Limit);
                    return;
                }
                let ty = Ty::Float.vec(components.clamp(1, 4) as usize);
                e.decl_line((ty, " x", reg, '[', size.max(1), "];"));
            }
        }
        Op::DclConstantBuffer => constant_buffer(e, inst),
        Op::DclGlobalFlags => {
            let flags = inst.global_flags().unwrap_or_default();
            if flags.force_early_depth_stencil {
                e.decl_line("// early_fragment_tests dropped: GLSL ES 3.00 has no such layout");
            }
            // vk450 lowers doubles (`double.rs`); ES 3.00 has none.
            if flags.enable_double_precision && e.dialect == Dialect::Es300 {
                e.refuse(inst, Reason::Double);
            }
        }
        Op::DclResource | Op::DclSampler => texture::declare(e, inst),
        op if super::memory::declares(op) => super::memory::declare(e, inst),
        Op::DclInput
        | Op::DclInputSgv
        | Op::DclInputSiv
        | Op::DclInputPs
        | Op::DclInputPsSgv
        | Op::DclInputPsSiv => input(e, inst),
        Op::DclOutput | Op::DclOutputSgv | Op::DclOutputSiv => output(e, inst),
        Op::DclIndexRange => {}
        Op::DclFunctionBody | Op::DclFunctionTable | Op::DclInterface => {
            super::interfaces::declare(e, inst)
        }
        Op::Customdata => {
            if let Some(c) = &inst.custom
                && let CustomData::ImmediateConstantBuffer(data) = c.as_ref()
            {
                if data.len() > 4 * MAX_CB_ROWS as usize {
                    e.refuse(inst, Reason::Limit);
                } else {
                    immediate_constant_buffer(e, data);
                }
            }
        }
        // Everything else is refused through the support table above or
        // is not a declaration.
        _ => {}
    }
}

fn constant_buffer(e: &mut Emitter, inst: &Instruction) {
    let Some((slot, size)) = constant_buffer_decl(e.program, inst) else {
        return;
    };
    // Linked to another stage that declares the buffer larger: both stages
    // declare the larger size, so the block is the same in both (GLSL ES
    // 3.00 refuses to link differing ones). The rows past this shader's
    // own are never read by it.
    let linked = e
        .options
        .link
        .as_ref()
        .and_then(|l| l.constant_buffer_rows(slot));
    let size = size.max(linked.unwrap_or(0));
    if size > MAX_CB_ROWS || slot > 15 {
        e.refuse(inst, Reason::Limit);
        return;
    }
    // A buffer read only by relative addressing may declare 0 rows;
    // a GLSL array needs one at least.
    let size = size.max(1);
    let block = cat!("ConstantBuffer", slot);
    let instance = cat!("cb", slot);
    // Only the layout differs by dialect; the line is pushed in pieces.
    e.decls.open(e.cur);
    let buf = e.decls.buf();
    match e.dialect {
        Dialect::Es300 => buf.push_str("layout(std140) uniform "),
        Dialect::Vk450 => cat!(buf;
            "layout(std140, set = ",
            names::SET,
            ", binding = ",
            names::cbuffer_binding(slot),
            ") uniform "
        ),
    }
    cat!(buf; &block, " { vec4 data[", size, "]; } ", &instance, ";\n");
    let reflected_name = e.manifest.reflected_cbuffer(slot);
    e.manifest.constant_buffers.push(ConstantBufferEntry {
        slot,
        block,
        instance,
        vec4_count: size,
        binding: (e.dialect == Dialect::Vk450).then(|| names::cbuffer_binding(slot)),
        reflected_name,
    });
}

/// The ICB as raw bits: `uvec4` rows, reinterpreted at each read, so NaN
/// payloads, infinities and denormals survive exactly.
fn immediate_constant_buffer(e: &mut Emitter, data: &[u32]) {
    let rows = data.len().div_ceil(4).max(1);
    e.decl_line(("const uvec4 ImmCB_0[", rows, "] = uvec4[", rows, "]("));
    // Each row is built in one reused buffer, its words as `0x%08x` by
    // hand: an ICB can hold thousands of words, each of which `format!`
    // would run through the formatting machinery.
    let mut row = String::with_capacity(64);
    for r in 0..rows {
        row.clear();
        row.push_str("    uvec4(");
        for c in 0..4 {
            if c > 0 {
                row.push_str(", ");
            }
            push_hex8(&mut row, data.get(r * 4 + c).copied().unwrap_or(0));
            row.push('u');
        }
        row.push(')');
        if r + 1 != rows {
            row.push(',');
        }
        e.decl_line(&row);
    }
    e.decl_line(");");
}

/// The `v` and `o` registers (and `oDepth`), declared after the other
/// declarations; outputs start at zero: the statements zeroing them are
/// returned, for `main()` to run before the input copies.
pub fn register_file(e: &mut Emitter, out: &mut Section) -> Section {
    let count = |set: &RegSet| set.last().map_or(0, |m| m + 1);
    let inputs = count(&e.input_regs);
    let outputs = count(&e.output_regs);
    if inputs > 0 {
        if e.inputs_indexed {
            out.line(None, ("vec4 v[", inputs, "];"));
        } else {
            register_list(out, 'v', &e.input_regs);
        }
    }
    if outputs > 0 {
        if e.outputs_indexed {
            out.line(None, ("vec4 o[", outputs, "];"));
        } else {
            register_list(out, 'o', &e.output_regs);
        }
    }
    if e.uses_depth_output {
        out.line(None, "float oDepth;");
    }
    if e.uses_coverage_output {
        out.line(None, "uint oMask;");
    }
    if !out.is_empty() {
        out.line(None, "");
    }
    // Zero every output before the body runs (written into `main()`
    // before the prologue).
    let mut zero = Section::indented(1);
    zero.reserve(32 * e.output_regs.count() + 64, e.output_regs.count() + 2);
    // Pushed pieces, the register number in one reused buffer: one line
    // per output, in every shader.
    let mut num = String::with_capacity(10);
    if e.outputs_indexed {
        for r in 0..outputs {
            num.clear();
            push_u64(&mut num, r.into());
            zero.line_cat(None, &["o[", &num, "] = vec4(0.0);"]);
        }
    } else {
        for r in e.output_regs.iter() {
            let note = if e.outputs_written.contains(r) {
                ""
            } else {
                " // signature-only output: never written"
            };
            num.clear();
            push_u64(&mut num, r.into());
            zero.line_cat(None, &["o", &num, " = vec4(0.0);", note]);
        }
    }
    if e.uses_depth_output {
        zero.line(None, "oDepth = 0.0;");
    }
    if e.uses_coverage_output {
        // Every sample kept until the shader says otherwise.
        zero.line(None, "oMask = 0xffffffffu;");
    }
    zero
}

/// `vec4 v0, v1, v3;`: the registers of a file not indexed, written into
/// the line with no `String` per name.
fn register_list(out: &mut Section, file: char, regs: &RegSet) {
    out.open(None);
    let buf = out.buf();
    buf.push_str("vec4 ");
    for (k, r) in regs.iter().enumerate() {
        if k > 0 {
            buf.push_str(", ");
        }
        buf.push(file);
        push_u64(buf, r.into());
    }
    buf.push_str(";\n");
}
