//! The fast path for the instructions real shaders spend their time in:
//! ALU instructions with one result register (component-wise entries and
//! dot products) whose operands all have planned shapes.
//! Each is turned once per program into an [`AluOp`] with every decision
//! that does not depend on register values already taken: immediates
//! swizzled and modified, each source's post-processing (plain bits,
//! flushed float, or a modifier) classified, the write mask turned into a
//! blend mask. Executing one then works a quad at a time — each decision
//! is a single branch for the instruction, and the loops inside run over
//! the lanes — instead of re-deciding everything per lane and component.
//! Conditional flow instructions get their condition prepared the same way
//! ([`Cond`]). Everything else takes the general path in `mod.rs`.

use super::plan::{DstPlan, From, Plan, SrcPlan};
use super::{Change, Machine};
use crate::dxbc::ir::{Instruction, Modifier};
use crate::dxbc::opcodes::NumType;
use crate::vm::alu::Exec;
use crate::vm::alu::{single_result, single_result_arity};
use crate::vm::float;
use crate::vm::state::{LANES, Loc, Reg, State};

/// One instruction, decided once per program.
// `AluOp` stays inline although it is large: ops live in one vector per
// program, and a box would add a pointer chase to every fast instruction.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy)]
pub(super) enum Op {
    Alu(AluOp),
    /// Control flow, run by `flow.rs` without a step's bookkeeping; the
    /// condition, when the instruction tests a planned operand.
    Flow(Option<Cond>),
    /// Declarations, textures, and ALU instructions with operands in
    /// uncommon shapes (relative indices, indexable temps, ...).
    General,
}

/// What happens to a source's swizzled components before the arithmetic.
#[derive(Clone, Copy)]
enum Post {
    /// Nothing: integer and typeless reads without a modifier.
    Bits,
    /// Denormals flushed: float reads without a modifier.
    Flush,
    /// A source modifier, applied as `Machine::modify` does.
    Modify(NumType, Modifier),
}

#[derive(Clone, Copy)]
struct Src {
    /// Temps and inputs differ per lane; a constant-buffer row is the same
    /// for the quad; an immediate is stored already swizzled and modified.
    from: From,
    swizzle: [u8; 4],
    post: Post,
}

#[derive(Clone, Copy)]
pub(super) struct AluOp {
    exec: Exec,
    arity: u8,
    srcs: [Src; 3],
    dst: DstPlan,
    /// Per component: all ones where the destination keeps its old value.
    keep: [u32; 4],
    saturate: bool,
}

/// The fast form of `inst`, when it has one.
pub(super) fn op(inst: &Instruction, exec: Exec, plan: Option<&Plan>) -> Op {
    let Some(p) = plan else {
        return if matches!(exec, Exec::Flow) {
            Op::Flow(None)
        } else {
            Op::General
        };
    };
    if matches!(exec, Exec::Flow) {
        return Op::Flow(p.srcs.first().map(|s| Cond {
            src: source(s, NumType::Untyped),
            nonzero: inst.test_nonzero(),
        }));
    }
    let Some(arity) = single_result_arity(exec) else {
        return Op::General;
    };
    if p.dsts.len() != 1 || p.srcs.len() < arity || arity == 0 {
        return Op::General;
    }
    if !matches!(p.dsts[0].loc, Loc::Temp(_) | Loc::Output(_)) {
        return Op::General;
    }
    let kind = crate::vm::alu::source_type(inst.op);
    let src = |s: &SrcPlan| source(s, kind);
    let first = src(&p.srcs[0]);
    let mut srcs = [first; 3];
    for (slot, s) in srcs.iter_mut().zip(&p.srcs[..arity]) {
        *slot = src(s);
    }
    Op::Alu(AluOp {
        exec,
        arity: arity as u8,
        srcs,
        dst: p.dsts[0],
        keep: std::array::from_fn(|c| {
            if p.dsts[0].mask & (1 << c) != 0 {
                0
            } else {
                u32::MAX
            }
        }),
        saturate: inst.saturate(),
    })
}

/// A planned source with its decisions taken for reads as `kind`.
fn source(s: &SrcPlan, kind: NumType) -> Src {
    let swizzle = s.swizzle.map(|c| c & 3);
    let post = match (s.modifier, kind) {
        (Modifier::None, NumType::Float) => Post::Flush,
        (Modifier::None, _) => Post::Bits,
        (m, k) => Post::Modify(k, m),
    };
    match s.from {
        From::Imm(v) => Src {
            from: From::Imm(apply(post, &v, swizzle)),
            swizzle: [0, 1, 2, 3],
            post: Post::Bits,
        },
        from => Src {
            from,
            swizzle,
            post,
        },
    }
}

/// The test of a conditional flow instruction (`if_nz`, `breakc_z`, ...).
#[derive(Clone, Copy)]
pub(super) struct Cond {
    src: Src,
    /// Taken when the value is non-zero (`_nz`) rather than zero (`_z`).
    nonzero: bool,
}

/// For each lane in `running`, whether `cond` holds (false for the rest).
/// Every lane's register is read — a waiting lane's value is there, just
/// unused — so the quad is one unrolled pass.
#[inline(always)]
pub(super) fn test(state: &State, cond: &Cond, running: [bool; LANES]) -> [bool; LANES] {
    let mut v = [[0u32; 4]; LANES];
    read(state, &cond.src, [0, 1, 2, 3], &mut v);
    std::array::from_fn(|l| running[l] && (v[l][0] != 0) == cond.nonzero)
}

/// A source's components after swizzle and post-processing. Built as one
/// literal from scalars: an array stored a component at a time and then
/// reloaded whole stalls store forwarding.
#[inline(always)]
fn apply(post: Post, raw: &Reg, swizzle: [u8; 4]) -> Reg {
    // Masked so the indexing needs no bounds checks (`op` stores 0..=3).
    let [x, y, z, w] = swizzle.map(|c| (c & 3) as usize);
    match post {
        Post::Bits => [raw[x], raw[y], raw[z], raw[w]],
        Post::Flush => {
            let fl = float::flush;
            [fl(raw[x]), fl(raw[y]), fl(raw[z]), fl(raw[w])]
        }
        Post::Modify(kind, m) => Machine::modify([raw[x], raw[y], raw[z], raw[w]], kind, m),
    }
}

/// Reads `src` for lanes `ls` into `out` (`out[i]` for lane `ls[i]`).
#[inline(always)]
fn read<const N: usize>(state: &State, src: &Src, ls: [usize; N], out: &mut [Reg; N]) {
    const ZERO: Reg = [0; 4];
    // One branch on the post-processing per instruction, then a plain loop.
    #[inline(always)]
    fn lanes<'a, const N: usize>(
        ls: [usize; N],
        out: &mut [Reg; N],
        get: impl Fn(usize) -> &'a Reg,
        src: &Src,
    ) {
        macro_rules! each {
            ($post:expr) => {
                for i in 0..N {
                    out[i] = apply($post, get(ls[i]), src.swizzle);
                }
            };
        }
        match src.post {
            Post::Bits => each!(Post::Bits),
            Post::Flush => each!(Post::Flush),
            post => each!(post),
        }
    }
    match src.from {
        From::Temp(r) => lanes(
            ls,
            out,
            |l| state.lanes[l].temps.get(r).unwrap_or(&ZERO),
            src,
        ),
        From::Input(r) => lanes(ls, out, |l| state.inputs[l].get(r).unwrap_or(&ZERO), src),
        From::Cb(b, r) => {
            let row = state
                .constant_buffers
                .get(b)
                .and_then(|cb| cb.get(r))
                .unwrap_or(&ZERO);
            *out = [apply(src.post, row, src.swizzle); N];
        }
        From::Imm(v) => *out = [v; N],
    }
}

/// Runs `a` for the lanes whose bits are set in `active`. Changes are
/// logged to `log` when given (stepping back).
#[inline(always)]
pub(super) fn run_alu(state: &mut State, a: &AluOp, active: u8, mut log: Option<&mut Vec<Change>>) {
    // A converged quad runs as one unrolled four-lane pass; a diverged one
    // lane by lane, so the lanes that wait cost nothing.
    if active == 0xf {
        run_lanes(state, a, [0, 1, 2, 3], log);
    } else {
        let mut bits = active;
        while bits != 0 {
            let l = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            run_lanes(state, a, [l], log.as_deref_mut());
        }
    }
}

#[inline(always)]
fn run_lanes<const N: usize>(
    state: &mut State,
    a: &AluOp,
    ls: [usize; N],
    log: Option<&mut Vec<Change>>,
) {
    let mut s = [[[0u32; 4]; N]; 3];
    for (v, src) in s.iter_mut().zip(&a.srcs).take(a.arity as usize) {
        read(state, src, ls, v);
    }
    let m = a.dst.mask;
    // `op` only builds single-result entries.
    let Some(r) = single_result(a.exec, &s, m) else {
        return;
    };
    match log {
        None => {
            let r = if a.saturate {
                r.map(|v| v.map(float::saturate))
            } else {
                r
            };
            let keep = a.keep;
            for (i, &l) in ls.iter().enumerate() {
                let Some(reg) = a.dst.slot(&mut state.lanes[l]) else {
                    continue;
                };
                // A blend through bit masks rather than a branch per
                // component: masks vary from one instruction to the next,
                // and the blend is one vector operation.
                for c in 0..4 {
                    reg[c] = (reg[c] & keep[c]) | (r[i][c] & !keep[c]);
                }
            }
        }
        Some(log) => {
            for (i, &l) in ls.iter().enumerate() {
                state.write_logged(a.dst, l, &r[i], a.saturate, log);
            }
        }
    }
}
