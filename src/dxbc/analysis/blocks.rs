//! The block structure of a program, computed once: which `else`/`endif`
//! belongs to which `if`, loop bounds, switch cases, subroutine labels.
//! Control flow then jumps by table lookup instead of scanning, and the
//! emitter writes braces knowing every block it opens is closed.

use super::{AnalysisError, Check};
use crate::dxbc::ir::{Index, Program};
use crate::dxbc::opcodes::Op;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blocks {
    /// For `if`: its `else`, if any.
    pub else_of: Vec<Option<usize>>,
    /// For `if`/`else`/`loop`/`switch`: the closing instruction.
    pub end_of: Vec<Option<usize>>,
    /// For `endloop`: its `loop`.
    pub loop_of: Vec<Option<usize>>,
    /// For `switch`: every `case` value (the `default` is implied by the rest).
    pub cases: Vec<Vec<u32>>,
    /// Label number → instruction index of the `label`.
    pub labels: Vec<(u32, usize)>,
    /// Index of the first executable instruction (after the declarations).
    pub entry: usize,
}

impl Blocks {
    /// Errors name the first instruction that breaks the nesting rules:
    /// a closer or `else` without its opener, `case`/`default` outside a
    /// `switch`, `break` outside a `loop` or `switch`, `continue` outside a
    /// `loop`, a `label` inside an open block, or (at the opener) a block
    /// that is never closed.
    pub fn of(program: &Program) -> Result<Blocks, AnalysisError> {
        let n = program.instructions.len();
        let mut s = Blocks {
            else_of: vec![None; n],
            end_of: vec![None; n],
            loop_of: vec![None; n],
            cases: vec![Vec::new(); n],
            labels: Vec::new(),
            entry: 0,
        };
        // (opening instruction, kind) stack.
        let mut stack: Vec<(usize, Op)> = Vec::new();
        let malformed = |index: usize, msg: &str| AnalysisError {
            index,
            offset: program.instructions[index].offset,
            check: Check::Structure,
            message: msg.to_string(),
        };
        let inside = |stack: &[(usize, Op)], kinds: &[Op]| -> Option<usize> {
            stack
                .iter()
                .rev()
                .find(|(_, k)| kinds.contains(k))
                .map(|(open, _)| *open)
        };
        let mut entry = None;
        for (i, inst) in program.instructions.iter().enumerate() {
            let info = inst.info();
            if entry.is_none() && !info.is_decl() && inst.custom.is_none() {
                entry = Some(i);
            }
            match inst.op {
                Op::If | Op::Loop | Op::Switch => stack.push((i, inst.op)),
                Op::Else => match stack.last() {
                    Some(&(open, Op::If)) if s.else_of[open].is_none() => {
                        s.else_of[open] = Some(i);
                    }
                    Some(&(_, Op::If)) => return Err(malformed(i, "second `else` for one `if`")),
                    _ => return Err(malformed(i, "`else` without `if`")),
                },
                Op::Endif => match stack.pop() {
                    Some((open, Op::If)) => {
                        s.end_of[open] = Some(i);
                        if let Some(e) = s.else_of[open] {
                            s.end_of[e] = Some(i);
                        }
                    }
                    _ => return Err(malformed(i, "`endif` without `if`")),
                },
                Op::Endloop => match stack.pop() {
                    Some((open, Op::Loop)) => {
                        s.end_of[open] = Some(i);
                        s.loop_of[i] = Some(open);
                    }
                    _ => return Err(malformed(i, "`endloop` without `loop`")),
                },
                Op::Endswitch => match stack.pop() {
                    Some((open, Op::Switch)) => s.end_of[open] = Some(i),
                    _ => return Err(malformed(i, "`endswitch` without `switch`")),
                },
                Op::Case => {
                    let open = inside(&stack, &[Op::Switch])
                        .ok_or_else(|| malformed(i, "`case` outside `switch`"))?;
                    let value = inst
                        .operands
                        .first()
                        .and_then(|o| o.imm.first().copied())
                        .ok_or_else(|| malformed(i, "`case` without a value"))?;
                    s.cases[open].push(value);
                }
                Op::Default => {
                    inside(&stack, &[Op::Switch])
                        .ok_or_else(|| malformed(i, "`default` outside `switch`"))?;
                }
                Op::Break | Op::Breakc => {
                    inside(&stack, &[Op::Loop, Op::Switch])
                        .ok_or_else(|| malformed(i, "`break` outside `loop` or `switch`"))?;
                }
                Op::Continue | Op::Continuec => {
                    inside(&stack, &[Op::Loop])
                        .ok_or_else(|| malformed(i, "`continue` outside `loop`"))?;
                }
                Op::Label => {
                    // A subroutine starts a new function: a block still open
                    // from the code before it could only be closed across
                    // the function boundary.
                    if let Some(&(open, _)) = stack.last() {
                        return Err(malformed(open, "block is never closed"));
                    }
                    let id = inst
                        .operands
                        .first()
                        .and_then(|o| match o.indices.first() {
                            Some(Index::Imm32(v)) => Some(*v),
                            _ => None,
                        })
                        .ok_or_else(|| malformed(i, "`label` without a number"))?;
                    s.labels.push((id, i));
                }
                _ => {}
            }
        }
        if let Some(&(open, _)) = stack.last() {
            return Err(malformed(open, "block is never closed"));
        }
        s.entry = entry.unwrap_or(n);
        Ok(s)
    }

    /// The instruction index of `label id`.
    pub fn label(&self, id: u32) -> Option<usize> {
        self.labels.iter().find(|(l, _)| *l == id).map(|(_, i)| *i)
    }
}
