//! What the opcode table does not say in a column: how instructions relate
//! and what they do with memory and texels — the `_s` forms' plain
//! instructions, texel reads and where their LOD comes from, atomics,
//! which instructions are steps of an executed path. Each is described
//! once here and read by name everywhere else.

use super::Op;

/// How a tiled-resource `_s` form relates to its plain instruction
/// (D3D11.2 functional spec 5.9.4.5.5): the plain form's destination, then
/// the status (the second destination), then the plain form's sources in
/// their order, and for the `_cl` forms one more source last, the
/// per-sample minimum-LOD clamp. `sample_cl_s` is `sample` with both
/// extras: there is no `_s` form without the clamp for `sample`,
/// `sample_b`, `sample_d` and `sample_c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedbackForm {
    /// The instruction it computes.
    pub plain: Op,
    /// Whether it takes the minimum-LOD clamp operand.
    pub clamp: bool,
}

impl FeedbackForm {
    /// Operand position of the status destination.
    pub const STATUS: usize = 1;
}

impl Op {
    /// The plain instruction a tiled-resource `_s` form computes; `None`
    /// for every other opcode (and for `check_access_fully_mapped`, which
    /// reads a status rather than writing one).
    pub fn feedback_form(self) -> Option<FeedbackForm> {
        let (plain, clamp) = match self {
            Op::Gather4S => (Op::Gather4, false),
            Op::Gather4CS => (Op::Gather4C, false),
            Op::Gather4PoS => (Op::Gather4Po, false),
            Op::Gather4PoCS => (Op::Gather4PoC, false),
            Op::LdS => (Op::Ld, false),
            Op::LdmsS => (Op::LdMs, false),
            Op::LdUavTypedS => (Op::LdUavTyped, false),
            Op::LdRawS => (Op::LdRaw, false),
            Op::LdStructuredS => (Op::LdStructured, false),
            Op::SampleLS => (Op::SampleL, false),
            Op::SampleCLzS => (Op::SampleCLz, false),
            Op::SampleClS => (Op::Sample, true),
            Op::SampleBClS => (Op::SampleB, true),
            Op::SampleDClS => (Op::SampleD, true),
            Op::SampleCClS => (Op::SampleC, true),
            _ => return None,
        };
        Some(FeedbackForm { plain, clamp })
    }

    /// How a texture instruction reads texels (its `_s` form as the plain
    /// one); `None` for every other opcode.
    pub fn texel_read(self) -> Option<TexelRead> {
        let op = self.feedback_form().map_or(self, |f| f.plain);
        Some(match op {
            Op::Ld | Op::LdMs => TexelRead::Load,
            Op::Gather4 | Op::Gather4C | Op::Gather4Po | Op::Gather4PoC => TexelRead::Gather,
            Op::SampleL | Op::SampleCLz => TexelRead::Filtered(LodFrom::Instruction),
            Op::Sample | Op::SampleB | Op::SampleC | Op::SampleD => {
                TexelRead::Filtered(LodFrom::Gradients)
            }
            _ => return None,
        })
    }

    /// An instruction returning a value that depends on the order pixels
    /// run in: an `imm_atomic_*` returning the word from before its
    /// update, and the counter's `imm_atomic_alloc`/`_consume`.
    pub fn returns_prior_value(self) -> bool {
        self.atomic().is_some_and(|a| a.returns_old)
            || matches!(self, Op::ImmAtomicAlloc | Op::ImmAtomicConsume)
    }
}

/// What a texture instruction does with the texels it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TexelRead {
    /// Whole texels, unfiltered (`ld`, `ldms`).
    Load,
    /// Four whole texels (`gather4*`).
    Gather,
    /// Texels weighted by the sampler's filter (`sample*`).
    Filtered(LodFrom),
}

/// Where a filtered read's level of detail comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LodFrom {
    /// The instruction gives it (`sample_l`, `sample_c_lz`'s level 0).
    Instruction,
    /// log2 of gradients: the quad's derivatives (`sample`, `sample_b`,
    /// `sample_c`) or the instruction's (`sample_d`).
    Gradients,
}

/// What an atomic instruction does to its memory word (D3D11 functional
/// spec 7.14.x, the `atomic_*` and `imm_atomic_*` instructions).
/// `imm_atomic_alloc`/`_consume` work on a UAV's hidden counter, not on a
/// word, and are not atomics in this sense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    And,
    Or,
    Xor,
    /// Wrapping 32-bit add (`iadd`: the same bits for signed and unsigned).
    Add,
    /// Signed maximum and minimum.
    Imax,
    Imin,
    /// Unsigned maximum and minimum.
    Umax,
    Umin,
    /// `imm_atomic_exch`: stores the value.
    Exchange,
    /// `atomic_cmp_store` / `imm_atomic_cmp_exch`: stores the value when
    /// the word equals the compare operand.
    CompareExchange,
}

/// An atomic instruction's description: its operation, and whether it is
/// an `imm_` form (a destination receiving the word's value before the
/// update, operand 0; the UAV, address and values follow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Atomic {
    pub op: AtomicOp,
    pub returns_old: bool,
}

impl Atomic {
    /// Operand position of the UAV the atomic updates.
    pub fn uav(self) -> usize {
        usize::from(self.returns_old)
    }

    /// Whether a compare value precedes the value (the compare forms).
    pub fn compares(self) -> bool {
        self.op == AtomicOp::CompareExchange
    }
}

impl Op {
    /// Whether an executed instruction of this opcode is a step of a
    /// lane's path, as the emulator's trace and the GPU capture record it
    /// (`harness::bisect`): every instruction a lane runs except the
    /// declarations and custom data, and the markers that only delimit
    /// blocks (`else`, `endif`, `endloop`, `case`, `default`,
    /// `endswitch`, `label`). A lane's arrival at a marker depends on how
    /// a quad's lanes are scheduled around it (the emulator runs `else`
    /// for the lanes leaving the `if` branch, GLSL has no statement
    /// there), so only the instructions deciding the path (`if`, `loop`,
    /// `break*`, `continue*`, `switch`, `ret*`, `discard`, calls) and
    /// those computing values are compared.
    pub fn is_path_step(self) -> bool {
        !self.info().is_decl()
            && !matches!(
                self,
                Op::Customdata
                    | Op::Else
                    | Op::Endif
                    | Op::Endloop
                    | Op::Case
                    | Op::Default
                    | Op::Endswitch
                    | Op::Label
            )
    }
}

impl Op {
    /// Whether the instruction is a comparison: each component it writes
    /// is a mask, all ones where the comparison holds and zero where it
    /// does not (functional spec 22.10: `eq`, `ge`, `lt`, `ne`, their
    /// integer, unsigned and double forms), not a number.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            Op::Eq
                | Op::Ge
                | Op::Lt
                | Op::Ne
                | Op::Ieq
                | Op::Ige
                | Op::Ilt
                | Op::Ine
                | Op::Ult
                | Op::Uge
                | Op::Deq
                | Op::Dge
                | Op::Dlt
                | Op::Dne
        )
    }
}

impl Op {
    /// The atomic this opcode is, `None` for every other opcode (including
    /// the counter instructions `imm_atomic_alloc`/`_consume`).
    pub fn atomic(self) -> Option<Atomic> {
        use AtomicOp::*;
        let (op, returns_old) = match self {
            Op::AtomicAnd => (And, false),
            Op::AtomicOr => (Or, false),
            Op::AtomicXor => (Xor, false),
            Op::AtomicCmpStore => (CompareExchange, false),
            Op::AtomicIadd => (Add, false),
            Op::AtomicImax => (Imax, false),
            Op::AtomicImin => (Imin, false),
            Op::AtomicUmax => (Umax, false),
            Op::AtomicUmin => (Umin, false),
            Op::ImmAtomicIadd => (Add, true),
            Op::ImmAtomicAnd => (And, true),
            Op::ImmAtomicOr => (Or, true),
            Op::ImmAtomicXor => (Xor, true),
            Op::ImmAtomicExch => (Exchange, true),
            Op::ImmAtomicCmpExch => (CompareExchange, true),
            Op::ImmAtomicImax => (Imax, true),
            Op::ImmAtomicImin => (Imin, true),
            Op::ImmAtomicUmax => (Umax, true),
            Op::ImmAtomicUmin => (Umin, true),
            _ => return None,
        };
        Some(Atomic { op, returns_old })
    }
}

/// Operand positions of a texture instruction's resource and sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureOperands {
    pub resource: usize,
    pub sampler: Option<usize>,
}
