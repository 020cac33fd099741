//! [`Program`] → SHDR/SHEX tokens: the exact inverse of `decode`. The
//! assembler encodes through here, and the corpus tests check that decoding
//! then encoding gives back the original tokens, which proves the IR keeps
//! everything the bytecode says.

use super::ir::*;
use super::opcodes::Layout;

/// Encodes a whole program chunk body (version token, length, instructions).
pub fn encode_program(p: &Program) -> Vec<u32> {
    let mut out = vec![
        ((p.kind.code() as u32) << 16) | ((p.major as u32 & 0xf) << 4) | (p.minor as u32 & 0xf),
        0,
    ];
    for inst in &p.instructions {
        encode_instruction(inst, &mut out);
    }
    out[1] = out.len() as u32;
    out
}

/// Appends one instruction's tokens to `out`.
pub fn encode_instruction(inst: &Instruction, out: &mut Vec<u32>) {
    let info = inst.info();
    if let (Layout::CustomData, Some(custom)) = (info.layout, &inst.custom) {
        let data = custom.data();
        out.push(inst.op as u32 | (custom.class() << 11));
        out.push(data.len() as u32 + 2);
        out.extend_from_slice(data);
        return;
    }
    let start = out.len();
    out.push(0); // opcode token, patched with the length below
    for (i, e) in inst.extended.iter().enumerate() {
        let more = if i + 1 < inst.extended.len() {
            0x8000_0000
        } else {
            0
        };
        out.push((e.raw() & 0x7fff_ffff) | more);
    }
    match &inst.decl {
        DeclKind::InterfaceCall { function } => {
            out.push(*function);
            for op in &inst.operands {
                encode_operand(op, out);
            }
        }
        decl => {
            for op in &inst.operands {
                encode_operand(op, out);
            }
            encode_decl_payload(decl, out);
        }
    }
    out.extend_from_slice(&inst.trailing);
    let len = (out.len() - start) as u32;
    let ext = if inst.extended.is_empty() {
        0
    } else {
        0x8000_0000
    };
    out[start] = inst.op as u32 | (inst.controls & 0x00ff_f800) | ((len & 0x7f) << 24) | ext;
}

fn encode_decl_payload(decl: &DeclKind, out: &mut Vec<u32>) {
    match decl {
        DeclKind::Plain | DeclKind::InterfaceCall { .. } => {}
        DeclKind::ReturnTypes(t) => out.push(
            t.iter()
                .enumerate()
                .fold(0, |w, (i, r)| w | ((r.code() as u32 & 0xf) << (4 * i))),
        ),
        DeclKind::SystemValue(v) => out.push(v.code()),
        DeclKind::Count(v) => out.push(*v),
        DeclKind::Pair(a, b) => out.extend_from_slice(&[*a, *b]),
        DeclKind::IndexableTemp {
            reg,
            size,
            components,
        } => out.extend_from_slice(&[*reg, *size, *components]),
        DeclKind::ThreadGroup(g) => out.extend_from_slice(g),
        DeclKind::FunctionTable { table, bodies } => {
            out.push(*table);
            out.push(bodies.len() as u32);
            out.extend_from_slice(bodies);
        }
        DeclKind::Interface {
            index,
            table_length,
            array_length,
            tables,
        } => {
            out.push(*index);
            out.push(*table_length);
            out.push((array_length << 16) | (tables.len() as u32 & 0xffff));
            out.extend_from_slice(tables);
        }
    }
}

/// Appends one operand's tokens to `out`.
pub fn encode_operand(op: &Operand, out: &mut Vec<u32>) {
    let mut tok = (op.ty.0 as u32) << 12;
    match op.components {
        Components::Zero => {}
        Components::One => tok |= 1,
        Components::Four => tok |= 2,
        Components::N(n) => tok |= 3 | ((n as u32) << 4),
    }
    match op.selection {
        Selection::None => {}
        Selection::Mask(m) => tok |= (m as u32 & 0xf) << 4,
        Selection::Swizzle(s) => {
            tok |= 1 << 2;
            for (i, c) in s.iter().enumerate() {
                tok |= (*c as u32 & 3) << (4 + 2 * i);
            }
        }
        Selection::Select1(c) => tok |= (2 << 2) | ((c as u32 & 3) << 4),
    }
    tok |= (op.indices.len() as u32 & 3) << 20;
    for (d, idx) in op.indices.iter().enumerate().take(3) {
        tok |= idx.repr_bits() << (22 + 3 * d);
    }
    if op.extended {
        tok |= 0x8000_0000;
    }
    out.push(tok);
    if op.extended {
        let modifier = match op.modifier {
            Modifier::None => 0,
            Modifier::Neg => 1,
            Modifier::Abs => 2,
            Modifier::AbsNeg => 3,
        };
        out.push(
            1 | (modifier << 6) | (op.min_precision.bits() << 14) | ((op.nonuniform as u32) << 17),
        );
    }
    for idx in &op.indices {
        match idx {
            Index::Imm32(v) => out.push(*v),
            Index::Imm64(v) => out.extend_from_slice(&[(*v >> 32) as u32, *v as u32]),
            Index::Relative(r) => encode_operand(r, out),
            Index::Imm32Relative(v, r) => {
                out.push(*v);
                encode_operand(r, out);
            }
            Index::Imm64Relative(v, r) => {
                out.extend_from_slice(&[(*v >> 32) as u32, *v as u32]);
                encode_operand(r, out);
            }
        }
    }
    out.extend_from_slice(&op.imm);
}
