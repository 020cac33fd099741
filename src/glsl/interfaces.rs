//! Class interfaces (SM5 dynamic linkage): function bodies become GLSL
//! functions `fbN()`, and each `fcall` a `switch` over the function tables
//! the interface may be bound to.
//!
//! Which class is bound to an interface slot, and the instance data `this`
//! reads, are runtime state the bytecode does not carry: one uniform block
//! holds them, per slot, and the manifest says what to put there:
//! `hlslcc_interfaceTable[slot].x` is the position, in the interface's
//! `dcl_interface` list, of the function table of the bound class, and
//! `hlslcc_this[slot]` is the instance data D3D passes for it.

use super::Dialect;
use super::emit::{Base, Emitter};
use super::manifest::{UniformEntry, UniformRole};
use super::names;
use super::types::{Ty, ValueType, int_literal};
use super::writer::cat;
use crate::dxbc::ir::{DeclKind, Index, Instruction, Operand};
use crate::dxbc::opcodes::Op;

/// The emitter's interface state: the declarations are the analysis
/// pass's `Linkage` (`e.analysis.linkage`).
#[derive(Debug, Default)]
pub struct Interfaces {
    /// The uniform block is written (at the first `dcl_interface`).
    declared: bool,
}

/// The block's vk450 binding: after every constant buffer and texture.
fn binding() -> u32 {
    names::INTERFACE_BINDING
}

/// `dcl_function_body`, `dcl_function_table`, `dcl_interface`: the body
/// and tables need no text of their own (their comment line maps them);
/// the first interface declares the block.
pub fn declare(e: &mut Emitter, inst: &Instruction) {
    if inst.op != Op::DclInterface || e.interfaces.declared {
        return;
    }
    e.interfaces.declared = true;
    let slots = e.analysis.linkage.slots().clamp(1, 256);
    match e.dialect {
        Dialect::Es300 => e.decl_line("layout(std140) uniform hlslcc_Interfaces {"),
        Dialect::Vk450 => e.decl_line((
            "layout(std140, set = ",
            names::SET,
            ", binding = ",
            binding(),
            ") uniform hlslcc_Interfaces {",
        )),
    }
    e.decl_line(("    ivec4 hlslcc_interfaceTable[", slots, "];"));
    e.decl_line(("    uvec4 hlslcc_this[", slots, "];"));
    e.decl_line("};");
    let b = (e.dialect == Dialect::Vk450).then(binding);
    e.manifest.uniforms.push(UniformEntry {
        name: "hlslcc_interfaceTable".into(),
        glsl_type: ValueType::array(Ty::Int, 4, slots),
        role: UniformRole::InterfaceTable,
        meaning: "per interface slot, .x: position in the slot's dcl_interface table list \
                  of the bound class's function table"
            .into(),
        block: "hlslcc_Interfaces".into(),
        offset: 0,
        binding: b,
    });
    e.manifest.uniforms.push(UniformEntry {
        name: "hlslcc_this".into(),
        glsl_type: ValueType::array(Ty::Uint, 4, slots),
        role: UniformRole::InterfaceThis,
        meaning: "per interface slot: the class instance data `this` reads".into(),
        block: "hlslcc_Interfaces".into(),
        offset: 16 * slots,
        binding: b,
    });
}

/// `this[i]`: the bound instance's data, as unsigned bits.
pub fn this_base(e: &mut Emitter, inst: &Instruction, op: &Operand) -> Base {
    let idx = op.indices.first().cloned().unwrap_or(Index::Imm32(0));
    let mut expr = String::with_capacity(32);
    expr.push_str("hlslcc_this[");
    e.index_into(&mut expr, inst, &idx);
    expr.push(']');
    Base {
        expr,
        ty: Ty::Uint,
        width: 4,
    }
}

/// `fcall fpN[i][site]`: a switch over the tables the interface lists.
pub fn call(e: &mut Emitter, inst: &Instruction) {
    let site = match inst.decl {
        DeclKind::InterfaceCall { function } => function as usize,
        _ => 0,
    };
    let Some(op) = inst.operands.first() else {
        return;
    };
    let fp = op.indices.first().and_then(Index::imm).unwrap_or(0) as u32;
    // `fp + i`, or the one that is not zero, pushed into the line.
    let mut line = e.take_buf();
    line.push_str("switch (hlslcc_interfaceTable[");
    match op.indices.get(1) {
        Some(idx) => {
            if fp != 0 {
                cat!(&mut line; fp, " + ");
            }
            e.index_into(&mut line, inst, idx);
        }
        None => cat!(&mut line; fp),
    }
    line.push_str("].x) {");
    // Read through the analysis' own reference, which outlives the
    // emitter's borrow the lines below take.
    let analysis = e.analysis;
    let linkage = &analysis.linkage;
    let tables: &[u32] = linkage.interface(fp).map_or(&[], |i| &i.tables);
    e.line(&line);
    e.give_buf(line);
    e.indent();
    for (k, table) in tables.iter().enumerate() {
        let body = linkage.table(*table).and_then(|b| b.get(site)).copied();
        match body {
            Some(b) => e.line((
                "case ",
                int_literal(k as i32),
                ": fb",
                b,
                "(); break; // ft",
                *table,
            )),
            None => e.line((
                "case ",
                int_literal(k as i32),
                ": break; // ft",
                *table,
                " has no entry ",
                site,
            )),
        }
    }
    e.line("default: break;");
    e.dedent();
    e.line("}");
}

#[cfg(test)]
mod tests {
    use crate::dxbc::asm::test_shader;
    use crate::glsl::{Dialect, Options, translate};

    /// fxc reads a class instance's members as `cb[this.x][this.y + …]`:
    /// the buffer is chosen at run time between the declared ones, never
    /// taken to be cb0.
    #[test]
    fn a_register_indexed_buffer_chooses_between_the_declared_ones() {
        let s = test_shader(
            "ps_5_0\ndcl_constantbuffer cb0[2], immediateIndexed\n\
             dcl_constantbuffer cb3[2], immediateIndexed\n\
             dcl_function_body fb0\ndcl_function_table ft0 = {fb0}\n\
             dcl_interface fp0[1][1] = {ft0}\n\
             dcl_output o0.xyzw\ndcl_temps 1\n\
             mov r0.xy, this[0].xyxx\n\
             mov o0.xyzw, cb[r0.x + 0][r0.y + 1].xyzw\nret\nlabel fb0\nret\n",
        );
        for dialect in [Dialect::Es300, Dialect::Vk450] {
            let t = translate(&s, &Options::new(dialect)).expect("translates");
            let want = "(floatBitsToInt(r0.x)) == 0 ? cb0.data[floatBitsToInt(r0.y) + 1] : \
                        (floatBitsToInt(r0.x)) == 3 ? cb3.data[floatBitsToInt(r0.y) + 1] : \
                        vec4(0.0)";
            assert!(t.source.contains(want), "{}", t.source);
        }
    }
}
