//! Structured control flow, subroutine calls, `discard` and returns. DXBC's
//! blocks map one to one onto GLSL's; conditions test a register's bits
//! against zero (`_nz` / `_z`).

use super::Reason;
use super::emit::Emitter;
use super::types::{Ty, int_literal};
use crate::dxbc::ir::Instruction;
use crate::dxbc::opcodes::Op;

/// Writes `if (floatBitsToUint(x) != 0u)` (`== 0u` for `_z`) and then
/// `rest` as one body line: the condition is read straight into a reused
/// buffer, with no `String` for it or the line.
fn if_line(e: &mut Emitter, inst: &Instruction, rest: &[&str]) {
    let mut line = e.take_buf();
    line.push_str("if (");
    match inst.operands.first() {
        Some(src) => {
            e.read_into(&mut line, inst, src, &[0], Ty::Uint);
            line.push_str(if inst.test_nonzero() {
                " != 0u"
            } else {
                " == 0u"
            });
        }
        None => line.push_str("false"),
    }
    line.push(')');
    for r in rest {
        line.push_str(r);
    }
    e.line(&line);
    e.give_buf(line);
}

fn guarded(e: &mut Emitter, inst: &Instruction, stmt: &str) {
    if_line(e, inst, &[" { ", stmt, " }"]);
}

/// Whether [`emit`] lowers `op` (for [`super::support::has_lowering`]):
/// every flow-control opcode.
pub(super) fn lowers(op: Op) -> bool {
    matches!(
        op,
        Op::If
            | Op::Else
            | Op::Endif
            | Op::Loop
            | Op::Endloop
            | Op::Break
            | Op::Breakc
            | Op::Continue
            | Op::Continuec
            | Op::Switch
            | Op::Case
            | Op::Default
            | Op::Endswitch
            | Op::Ret
            | Op::Retc
            | Op::Discard
            | Op::Call
            | Op::Callc
            | Op::InterfaceCall
            | Op::Label
    )
}

pub fn emit(e: &mut Emitter, inst: &Instruction) {
    // Closers and labels step out before their comment so it lines up
    // with the code it belongs to.
    let steps_out = matches!(
        inst.op,
        Op::Else | Op::Endif | Op::Endloop | Op::Case | Op::Default
    );
    if steps_out {
        e.dedent();
    }
    e.comment(inst);
    if steps_out {
        e.indent();
    }
    // The capture's record goes before the instruction acts, so a `ret`
    // or `discard` is recorded too.
    super::capture::flow(e, inst);
    if inst.op == Op::Endswitch {
        // GLSL ES rejects a label directly before the closing brace. The
        // break follows the comment so the instruction's lines start with
        // it, as every instruction's do. The last block usually ends in
        // its own `break`.
        let prev = e
            .cur
            .and_then(|i| i.checked_sub(1))
            .map(|i| e.program.instructions[i].op);
        if !matches!(prev, Some(Op::Break | Op::Ret | Op::Continue)) {
            e.line("break;");
        }
        e.dedent();
        e.dedent();
    }
    match inst.op {
        Op::If => {
            if_line(e, inst, &[" {"]);
            e.indent();
        }
        Op::Else => {
            e.dedent();
            e.line("} else {");
            e.indent();
        }
        Op::Endif | Op::Endloop => {
            e.dedent();
            e.line("}");
        }
        Op::Loop => {
            e.line("while (true) {");
            e.indent();
        }
        Op::Break => e.line("break;"),
        Op::Breakc => guarded(e, inst, "break;"),
        Op::Continue => e.line("continue;"),
        Op::Continuec => guarded(e, inst, "continue;"),
        Op::Switch => {
            let v = inst
                .operands
                .first()
                .map(|s| e.read_scalar(inst, s, Ty::Int))
                .unwrap_or_else(|| "0".into());
            e.line(("switch (", &v, ") {"));
            // Labels sit one level in, statements two.
            e.indent();
            e.indent();
        }
        Op::Case => {
            let v = inst
                .operands
                .first()
                .and_then(|o| o.imm.first().copied())
                .unwrap_or(0);
            e.dedent();
            e.line(("case ", int_literal(v as i32), ':'));
            e.indent();
        }
        Op::Default => {
            e.dedent();
            e.line("default:");
            e.indent();
        }
        Op::Endswitch => e.line("}"),
        Op::Ret => e.line("return;"),
        Op::Retc => guarded(e, inst, "return;"),
        Op::Discard => {
            let stmt = super::capture::discard_statement(e);
            guarded(e, inst, stmt)
        }
        Op::Call => {
            let l = inst.operands.first().and_then(|o| o.reg()).unwrap_or(0);
            e.line(('l', l, "();"));
        }
        Op::Callc => {
            let l = inst.operands.get(1).and_then(|o| o.reg()).unwrap_or(0);
            let mut num = String::with_capacity(10);
            crate::dxbc::numfmt::push_u64(&mut num, l.into());
            if_line(e, inst, &[" { l", &num, "(); }"]);
        }
        Op::InterfaceCall => super::interfaces::call(e, inst),
        Op::Label => {}
        _ => e.refuse(inst, Reason::Operand),
    }
}
