//! Walking two [`Path`]s in step: the first input, register or path that
//! differs, with the instruction's source registers on both sides.
//!
//! Values are compared on the components the instruction writes, by its
//! result type: integer and double results (and untyped ones whose bits
//! do not look like floats) exactly, float ones within the case's
//! `[tolerance]` by the image diff's rule (`abs` or `ulp`, NaN equal to
//! NaN). A step whose instruction differs is a divergence of the path,
//! charged to the last branching instruction before it.
//!
//! Values other pixels decide are not compared: what an atomic returns
//! or a UAV load reads depends on the order the GPU ran the draw's other
//! pixels in, which the emulator's one quad does not reproduce. Such a
//! result, and everything computed from it, is marked order-dependent and
//! skipped until a full write replaces it.

use std::collections::BTreeSet;

use super::{Path, Step};
use crate::dxbc::Shader;
use crate::dxbc::disasm::{self, format_instruction};
use crate::dxbc::ir::{Index, Instruction, Operand, OperandType, Selection};
use crate::dxbc::numfmt;
use crate::dxbc::opcodes::{NumType, Op};
use crate::glsl::SourceMap;
use crate::harness::case::Tolerance;
use crate::harness::diff::channel_error;
use crate::vm::state::{Loc, Reg};

/// What a bisection found.
#[derive(Debug, Clone, PartialEq)]
pub struct Bisection {
    pub pixel: (u32, u32),
    /// Steps the two paths had in common before the divergence (all of
    /// the shorter one when there is none).
    pub compared: usize,
    pub emulator_steps: usize,
    pub gpu_steps: usize,
    /// Either side's run went past the capture's capacity: only its
    /// beginning was compared.
    pub truncated: bool,
    pub divergence: Option<Divergence>,
}

/// The first place the two sides disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Position on the path (`None`: the inputs at entry).
    pub step: Option<usize>,
    /// The instruction named: the one whose result differs, the branch
    /// the paths part at, or the declaration of an input that differs.
    pub index: usize,
    /// The instruction as the disassembler prints it (first line).
    pub text: String,
    /// Its lines in the plain translation `glsl` prints in the backend's
    /// dialect (vk450 on Vulkan, es300 on WebGL2).
    pub glsl_lines: Option<(u32, u32)>,
    pub kind: Kind,
    /// The instruction's register sources before it ran.
    pub sources: Vec<Source>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// An input register at entry.
    Input {
        register: u32,
        component: usize,
        emulator: u32,
        gpu: u32,
    },
    /// A component the instruction wrote.
    Value {
        register: Loc,
        component: usize,
        emulator: u32,
        gpu: u32,
    },
    /// The instruction wrote different registers (a relative index that
    /// differs).
    Register { emulator: Vec<Loc>, gpu: Vec<Loc> },
    /// After the branch at `index` the two sides ran different
    /// instructions (`None`: that side had ended).
    Path {
        emulator_next: Option<usize>,
        gpu_next: Option<usize>,
    },
}

/// One register source of the named instruction, on both sides (`None`
/// where that side had not written it yet).
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The operand as the disassembler prints it.
    pub operand: String,
    /// The register it reads (`r3`, `v0`, `x1[2]`).
    pub register: String,
    pub emulator: Option<Reg>,
    pub gpu: Option<Reg>,
}

/// Compares the emulator's path with the GPU's for `pixel` (see the
/// module notes); `map` gives the GLSL lines.
pub fn compare(
    shader: &Shader,
    map: &SourceMap,
    tolerance: &Tolerance,
    pixel: (u32, u32),
    emulator: &Path,
    gpu: &Path,
) -> Bisection {
    let mut b = Bisection {
        pixel,
        compared: 0,
        emulator_steps: emulator.steps.len(),
        gpu_steps: gpu.steps.len(),
        truncated: emulator.overflowed || gpu.overflowed,
        divergence: None,
    };
    let program = &shader.program;
    let named = |step: Option<usize>, index: usize, kind: Kind, at: usize| {
        let inst = &program.instructions[index];
        Divergence {
            step,
            index,
            text: first_line(format_instruction(inst, shader.style())),
            glsl_lines: map.lines(index),
            kind,
            sources: sources(inst, shader, emulator, gpu, at),
        }
    };
    // Inputs, by register, on the components declared.
    let layout = shader.input_layout();
    for (reg, want) in &emulator.inputs {
        let Some((_, got)) = gpu.inputs.iter().find(|(r, _)| r == reg) else {
            continue;
        };
        let mask = layout
            .registers
            .iter()
            .find(|r| r.register == *reg)
            .map_or(0xf, |r| r.mask);
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            if !within(want[c], got[c], None, tolerance) {
                let index = declaration_of(program, *reg).unwrap_or(0);
                let kind = Kind::Input {
                    register: *reg,
                    component: c,
                    emulator: want[c],
                    gpu: got[c],
                };
                b.divergence = Some(named(None, index, kind, 0));
                return b;
            }
        }
    }
    let n = emulator.steps.len().min(gpu.steps.len());
    let mut order_dependent: BTreeSet<Loc> = BTreeSet::new();
    for i in 0..n {
        let (e, g) = (&emulator.steps[i], &gpu.steps[i]);
        if e.index != g.index {
            b.compared = i;
            b.divergence = Some(parting(program, i, e.index, g.index, emulator, &named));
            return b;
        }
        let inst = &program.instructions[e.index];
        if depends_on_order(inst, &order_dependent) {
            order_dependent.extend(e.writes.iter().map(|(l, _)| *l));
            continue;
        }
        for (k, op) in crate::glsl::capture::recorded_destinations(inst)
            .iter()
            .enumerate()
        {
            if let Some((loc, _)) = e.writes.get(k)
                && written_mask(shader, op, *loc) == full_mask(shader, *loc)
            {
                order_dependent.remove(loc);
            }
        }
        if let Some(kind) = step_difference(shader, inst, e, g, tolerance) {
            b.compared = i;
            b.divergence = Some(named(Some(i), e.index, kind, i));
            return b;
        }
    }
    b.compared = n;
    // The GPU's invocation ended at a `discard` the emulator's lane took
    // at the same step: a vk450 invocation stops there while D3D's lane
    // (and the emulator's) runs on to keep its quad's derivatives, writing
    // nothing the pixel keeps. The paths agree as far as the pixel goes.
    let discarded_together = gpu.steps.len() == n
        && n > 0
        && emulator.discarded_at == Some(n - 1)
        && program.instructions[gpu.steps[n - 1].index].op == Op::Discard;
    // One side ended first: unless a capture stopped it, or both sides
    // discarded the pixel there, that is a path divergence too.
    if emulator.steps.len() != gpu.steps.len() && !b.truncated && !discarded_together {
        let next = |p: &Path| p.steps.get(n).map(|s| s.index);
        let (en, gn) = (next(emulator), next(gpu));
        let at = en.or(gn).unwrap_or(0);
        let mut d = parting(program, n, at, at, emulator, &named);
        d.kind = Kind::Path {
            emulator_next: en,
            gpu_next: gn,
        };
        b.divergence = Some(d);
    }
    b
}

/// The divergence of paths that part at step `i`: named at the last
/// conditional before it (or at step `i` itself when there is none).
fn parting(
    program: &crate::dxbc::ir::Program,
    i: usize,
    emulator_next: usize,
    gpu_next: usize,
    emulator: &Path,
    named: &dyn Fn(Option<usize>, usize, Kind, usize) -> Divergence,
) -> Divergence {
    let kind = Kind::Path {
        emulator_next: Some(emulator_next),
        gpu_next: Some(gpu_next),
    };
    let decides = |j: &usize| {
        matches!(
            program.instructions[emulator.steps[*j].index].op,
            Op::If
                | Op::Breakc
                | Op::Continuec
                | Op::Retc
                | Op::Discard
                | Op::Switch
                | Op::Callc
                | Op::InterfaceCall
        )
    };
    match (0..i).rev().find(decides) {
        Some(j) => named(Some(j), emulator.steps[j].index, kind, j),
        None => named(Some(i), emulator_next, kind, i),
    }
}

/// How step `e` and step `g` of the same instruction differ, if they do.
fn step_difference(
    shader: &Shader,
    inst: &Instruction,
    e: &Step,
    g: &Step,
    tolerance: &Tolerance,
) -> Option<Kind> {
    let locs = |s: &Step| s.writes.iter().map(|(l, _)| *l).collect::<Vec<_>>();
    if locs(e) != locs(g) {
        return Some(Kind::Register {
            emulator: locs(e),
            gpu: locs(g),
        });
    }
    let dsts = crate::glsl::capture::recorded_destinations(inst);
    // The opcode table's result type, the one the debugger shows values
    // by (`dxbc::value_type`): a double result is typed double there.
    let result = inst.info().result_type();
    for (k, ((loc, want), (_, got))) in e.writes.iter().zip(&g.writes).enumerate() {
        let mask = dsts.get(k).map_or(0xf, |op| written_mask(shader, op, *loc));
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            if !within(want[c], got[c], result, tolerance) {
                return Some(Kind::Value {
                    register: *loc,
                    component: c,
                    emulator: want[c],
                    gpu: got[c],
                });
            }
        }
    }
    None
}

/// Whether `inst` reads a UAV (its result set by the order of the
/// draw's pixels) or a register holding such a result.
fn depends_on_order(inst: &Instruction, marked: &BTreeSet<Loc>) -> bool {
    let dsts = inst.info().dst as usize;
    let reads = |op: &Operand| -> bool {
        match op.ty {
            OperandType::UNORDERED_ACCESS_VIEW => true,
            OperandType::TEMP => marked.contains(&Loc::Temp(op.reg().unwrap_or(0))),
            OperandType::OUTPUT => marked.contains(&Loc::Output(op.reg().unwrap_or(0))),
            OperandType::INDEXABLE_TEMP => {
                let reg = op.reg().unwrap_or(0);
                marked
                    .iter()
                    .any(|l| matches!(l, Loc::Indexable(r, _) if *r == reg))
            }
            _ => false,
        }
    };
    inst.operands.iter().enumerate().any(|(k, op)| {
        (k >= dsts || op.ty == OperandType::UNORDERED_ACCESS_VIEW) && reads(op)
            || op.indices.iter().filter_map(|i| i.relative()).any(&reads)
    })
}

/// Every component a register has (an indexable temp its declared width).
fn full_mask(shader: &Shader, loc: Loc) -> u8 {
    match loc {
        Loc::Depth | Loc::Coverage | Loc::StencilRef => 1,
        Loc::Indexable(reg, _) => {
            let width = shader
                .register_sizes()
                .indexable
                .get(&reg)
                .map_or(4, |x| x.components.clamp(1, 4));
            (1u8 << width) - 1
        }
        _ => 0xf,
    }
}

/// The components a destination writes: its mask, the first component
/// alone for the scalar registers, an indexable temp's declared width.
pub(super) fn written_mask(shader: &Shader, op: &Operand, loc: Loc) -> u8 {
    let mask = match op.selection {
        Selection::Mask(m) => m & 0xf,
        _ => 0xf,
    };
    match loc {
        Loc::Depth | Loc::Coverage | Loc::StencilRef => 1,
        _ => mask & full_mask(shader, loc),
    }
}

/// Whether two components agree: exact for integer, double and untyped
/// non-float bits; within the tolerance for floats.
pub(super) fn within(a: u32, b: u32, ty: Option<NumType>, tol: &Tolerance) -> bool {
    if a == b {
        return true;
    }
    let floaty = |v: u32| numfmt::looks_like_float(v) || v & 0x7fff_ffff == 0;
    let float = match ty {
        Some(NumType::Float) => true,
        Some(NumType::Int | NumType::Uint | NumType::Double) => false,
        Some(NumType::Untyped) | None => floaty(a) && floaty(b),
    };
    float && channel_error(f32::from_bits(a), f32::from_bits(b)).within(tol)
}

/// The instruction declaring input register `reg` (where its lowering,
/// the input copy, is).
fn declaration_of(program: &crate::dxbc::ir::Program, reg: u32) -> Option<usize> {
    program.instructions.iter().position(|i| {
        i.info().is_decl()
            && i.operands.first().is_some_and(|o| {
                o.ty == OperandType::INPUT && o.indices.first() == Some(&Index::Imm32(reg))
            })
    })
}

/// The register sources of `inst` (executed as step `at`) before it ran.
fn sources(
    inst: &Instruction,
    shader: &Shader,
    emulator: &Path,
    gpu: &Path,
    at: usize,
) -> Vec<Source> {
    let dsts = inst.info().dst as usize;
    let skip = if matches!(inst.op, Op::Callc) {
        0
    } else {
        dsts
    };
    let mut out = Vec::new();
    for op in inst.operands.iter().skip(skip) {
        let which = match op.ty {
            OperandType::TEMP => Some(Reading::Loc(Loc::Temp(op.reg().unwrap_or(0)))),
            OperandType::OUTPUT => Some(Reading::Loc(Loc::Output(op.reg().unwrap_or(0)))),
            OperandType::INPUT => match op.indices.first() {
                Some(Index::Imm32(r)) => Some(Reading::Input(*r)),
                _ => None,
            },
            OperandType::INDEXABLE_TEMP => match op.indices.get(1) {
                Some(Index::Imm32(i)) => {
                    Some(Reading::Loc(Loc::Indexable(op.reg().unwrap_or(0), *i)))
                }
                _ => None,
            },
            _ => None,
        };
        let Some(which) = which else { continue };
        let operand = disasm::format_operand(op, NumType::Untyped, shader.style());
        let register = match which {
            Reading::Loc(l) => l.to_string(),
            Reading::Input(r) => format!("v{r}"),
        };
        out.push(Source {
            operand,
            register,
            emulator: value_before(emulator, at, which),
            gpu: value_before(gpu, at, which),
        });
    }
    out
}

#[derive(Clone, Copy)]
enum Reading {
    Loc(Loc),
    Input(u32),
}

/// A register's value before step `at`: the latest write to it, or the
/// input at entry.
fn value_before(path: &Path, at: usize, which: Reading) -> Option<Reg> {
    match which {
        Reading::Input(r) => path.inputs.iter().find(|(i, _)| *i == r).map(|(_, v)| *v),
        Reading::Loc(loc) => path.steps[..at.min(path.steps.len())]
            .iter()
            .rev()
            .find_map(|s| s.writes.iter().find(|(l, _)| *l == loc).map(|(_, v)| *v)),
    }
}

fn first_line(t: String) -> String {
    t.lines().next().unwrap_or("").to_string()
}
