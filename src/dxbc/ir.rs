//! The intermediate representation every consumer reads: the disassembler,
//! the assembler's encoder, the GLSL emitter and the emulator.
//!
//! It keeps every field the token stream carries (including the raw bits of
//! the opcode token's control field) so that an instruction re-encodes to the
//! same tokens, while giving consumers decoded, typed views.

use std::cell::RefCell;

use smallvec::SmallVec;

pub use super::enums::{
    GlobalFlags, Interpolation, ProgramType, ResInfoReturn, ResourceDimension, ReturnType,
    SampleInfoReturn, SamplerMode, SystemValue,
};
use super::opcodes::{FeedbackForm, Op, OpInfo};

pub use super::indices::Indices;
pub use super::lanes::Lanes;
pub use super::operands::Operands;

/// A decoded SHDR/SHEX chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub kind: ProgramType,
    pub major: u8,
    pub minor: u8,
    /// True for SHEX (SM5 chunk name), false for SHDR.
    pub shex: bool,
    pub instructions: Vec<Instruction>,
}

thread_local! {
    /// The instruction storage of the last program dropped on this thread,
    /// emptied, for the next program decoded here. A program's storage is
    /// its one large allocation; taken fresh for every shader it was the
    /// most expensive call to the allocator in decoding a small shader
    /// (glibc merges the freed small blocks first), about 2% of a
    /// parse-and-translate round over the VS/PS corpus.
    static SPARE_INSTRUCTIONS: RefCell<Vec<Instruction>> = const { RefCell::new(Vec::new()) };
}

/// Storage past this many instructions is freed, not kept for the next
/// program, so one huge program does not pin its memory.
const SPARE_INSTRUCTIONS_MAX: usize = 4096;

/// Empty storage for at least `count` instructions: the last dropped
/// program's when it is large enough.
pub(crate) fn instruction_storage(count: usize) -> Vec<Instruction> {
    let spare = SPARE_INSTRUCTIONS
        .try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)))
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    if spare.capacity() >= count {
        debug_assert!(spare.is_empty());
        spare
    } else {
        Vec::with_capacity(count)
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let mut storage = std::mem::take(&mut self.instructions);
        if storage.capacity() == 0 || storage.capacity() > SPARE_INSTRUCTIONS_MAX {
            return;
        }
        storage.clear();
        let _ = SPARE_INSTRUCTIONS.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.capacity() < storage.capacity()
            {
                *s = storage;
            }
        });
    }
}

impl Program {
    /// `ps_5_0` and friends.
    pub fn profile(&self) -> String {
        format!("{}_{}_{}", self.kind.prefix(), self.major, self.minor)
    }

    /// True from shader model 5.1 on, where resource operands carry ranges.
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }

    /// Which index of a `cb` operand holds the row: `cb#[row]` before
    /// shader model 5.1, `CB#[register][row]` from 5.1 on (index 0 is the
    /// slot, or the range ID, either way).
    pub fn constant_buffer_row_index(&self) -> usize {
        if self.is_sm51() { 2 } else { 1 }
    }
}

/// Operand token bits 0..1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Components {
    #[default]
    Zero,
    One,
    Four,
    /// `D3D10_SB_OPERAND_N_COMPONENT`, with the value of bits 4..11 kept.
    N(u8),
}

/// How the operand's components are chosen (bits 2..3 and 4..11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Selection {
    /// No selection bits (0- and 1-component operands).
    #[default]
    None,
    /// Write mask, bit 0 = x.
    Mask(u8),
    /// Four source component indices.
    Swizzle([u8; 4]),
    /// One source component.
    Select1(u8),
}

impl Selection {
    /// Components read or written, as a four-bit mask.
    pub fn mask(&self) -> u8 {
        match *self {
            Selection::None => 0,
            Selection::Mask(m) => m,
            Selection::Swizzle(s) => s.iter().fold(0, |m, &c| m | 1 << c),
            Selection::Select1(c) => 1 << c,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Modifier {
    #[default]
    None,
    Neg,
    Abs,
    AbsNeg,
}

/// Extended operand token bits 14..16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MinPrecision {
    #[default]
    Default,
    Float16,
    Float2_8,
    Sint16,
    Uint16,
    Other(u8),
}

impl MinPrecision {
    pub fn from_bits(v: u32) -> MinPrecision {
        match v {
            0 => MinPrecision::Default,
            1 => MinPrecision::Float16,
            2 => MinPrecision::Float2_8,
            4 => MinPrecision::Sint16,
            5 => MinPrecision::Uint16,
            o => MinPrecision::Other(o as u8),
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            MinPrecision::Default => 0,
            MinPrecision::Float16 => 1,
            MinPrecision::Float2_8 => 2,
            MinPrecision::Sint16 => 4,
            MinPrecision::Uint16 => 5,
            MinPrecision::Other(o) => o as u32,
        }
    }
}

/// One index of a register operand, in the representation the token chose.
#[derive(Debug, Clone, PartialEq)]
pub enum Index {
    Imm32(u32),
    Imm64(u64),
    Relative(Box<Operand>),
    Imm32Relative(u32, Box<Operand>),
    Imm64Relative(u64, Box<Operand>),
}

impl Index {
    /// The immediate part, if any.
    pub fn imm(&self) -> Option<u64> {
        match self {
            Index::Imm32(v) | Index::Imm32Relative(v, _) => Some(*v as u64),
            Index::Imm64(v) | Index::Imm64Relative(v, _) => Some(*v),
            Index::Relative(_) => None,
        }
    }

    /// The relative register part, if any.
    pub fn relative(&self) -> Option<&Operand> {
        match self {
            Index::Relative(r) | Index::Imm32Relative(_, r) | Index::Imm64Relative(_, r) => Some(r),
            _ => None,
        }
    }

    /// The representation code stored in the operand token.
    pub fn repr_bits(&self) -> u32 {
        match self {
            Index::Imm32(_) => 0,
            Index::Imm64(_) => 1,
            Index::Relative(_) => 2,
            Index::Imm32Relative(..) => 3,
            Index::Imm64Relative(..) => 4,
        }
    }
}

/// Operand register files (`D3D10_SB_OPERAND_TYPE`). The numbers are the token values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct OperandType(pub u8);

impl OperandType {
    pub const TEMP: OperandType = OperandType(0);
    pub const INPUT: OperandType = OperandType(1);
    pub const OUTPUT: OperandType = OperandType(2);
    pub const INDEXABLE_TEMP: OperandType = OperandType(3);
    pub const IMMEDIATE32: OperandType = OperandType(4);
    pub const IMMEDIATE64: OperandType = OperandType(5);
    pub const SAMPLER: OperandType = OperandType(6);
    pub const RESOURCE: OperandType = OperandType(7);
    pub const CONSTANT_BUFFER: OperandType = OperandType(8);
    pub const IMMEDIATE_CONSTANT_BUFFER: OperandType = OperandType(9);
    pub const LABEL: OperandType = OperandType(10);
    pub const INPUT_PRIMITIVEID: OperandType = OperandType(11);
    pub const OUTPUT_DEPTH: OperandType = OperandType(12);
    pub const NULL: OperandType = OperandType(13);
    pub const RASTERIZER: OperandType = OperandType(14);
    pub const OUTPUT_COVERAGE_MASK: OperandType = OperandType(15);
    pub const STREAM: OperandType = OperandType(16);
    pub const FUNCTION_BODY: OperandType = OperandType(17);
    pub const FUNCTION_TABLE: OperandType = OperandType(18);
    pub const INTERFACE: OperandType = OperandType(19);
    pub const FUNCTION_INPUT: OperandType = OperandType(20);
    pub const FUNCTION_OUTPUT: OperandType = OperandType(21);
    pub const OUTPUT_CONTROL_POINT_ID: OperandType = OperandType(22);
    pub const INPUT_FORK_INSTANCE_ID: OperandType = OperandType(23);
    pub const INPUT_JOIN_INSTANCE_ID: OperandType = OperandType(24);
    pub const INPUT_CONTROL_POINT: OperandType = OperandType(25);
    pub const OUTPUT_CONTROL_POINT: OperandType = OperandType(26);
    pub const INPUT_PATCH_CONSTANT: OperandType = OperandType(27);
    pub const INPUT_DOMAIN_POINT: OperandType = OperandType(28);
    pub const THIS_POINTER: OperandType = OperandType(29);
    pub const UNORDERED_ACCESS_VIEW: OperandType = OperandType(30);
    pub const THREAD_GROUP_SHARED_MEMORY: OperandType = OperandType(31);
    pub const INPUT_THREAD_ID: OperandType = OperandType(32);
    pub const INPUT_THREAD_GROUP_ID: OperandType = OperandType(33);
    pub const INPUT_THREAD_ID_IN_GROUP: OperandType = OperandType(34);
    pub const INPUT_COVERAGE_MASK: OperandType = OperandType(35);
    pub const INPUT_THREAD_ID_IN_GROUP_FLATTENED: OperandType = OperandType(36);
    pub const INPUT_GS_INSTANCE_ID: OperandType = OperandType(37);
    pub const OUTPUT_DEPTH_GREATER_EQUAL: OperandType = OperandType(38);
    pub const OUTPUT_DEPTH_LESS_EQUAL: OperandType = OperandType(39);
    pub const CYCLE_COUNTER: OperandType = OperandType(40);
    pub const OUTPUT_STENCIL_REF: OperandType = OperandType(41);
    pub const INNER_COVERAGE: OperandType = OperandType(42);

    /// fxc's register-file prefix, and whether the index is printed after
    /// the prefix (`r0`) or the register has a fixed name (`vPrim`).
    pub fn prefix(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "r",
            1 => "v",
            2 => "o",
            3 => "x",
            4 | 5 => "l",
            6 => "s",
            7 => "t",
            8 => "cb",
            9 => "icb",
            10 => "l",
            11 => "vPrim",
            12 => "oDepth",
            13 => "null",
            14 => "rasterizer",
            15 => "oMask",
            16 => "m",
            17 => "fb",
            18 => "ft",
            19 => "fp",
            20 => "fi",
            21 => "fo",
            22 => "vOutputControlPointID",
            23 => "vForkInstanceID",
            24 => "vJoinInstanceID",
            25 => "vicp",
            26 => "vocp",
            27 => "vpc",
            28 => "vDomain",
            29 => "this",
            30 => "u",
            31 => "g",
            32 => "vThreadID",
            33 => "vThreadGroupID",
            34 => "vThreadIDInGroup",
            35 => "vCoverage",
            36 => "vThreadIDInGroupFlattened",
            37 => "vGSInstanceID",
            38 => "oDepthGE",
            39 => "oDepthLE",
            40 => "vCycleCounter",
            41 => "oStencilRef",
            42 => "vInnerCoverage",
            _ => return None,
        })
    }

    /// Registers whose name carries no index even when the token has one.
    pub fn is_named_register(self) -> bool {
        matches!(
            self.0,
            11..=15 | 22..=24 | 28 | 32..=42
        )
    }

    /// The register files a pixel shader's instruction writes as a lane's
    /// registers: temps, indexable temps, outputs, the depth outputs,
    /// coverage and stencil reference (not `null`, UAVs or shared memory,
    /// which are no register of a lane).
    pub fn is_lane_register(self) -> bool {
        matches!(
            self,
            OperandType::TEMP
                | OperandType::OUTPUT
                | OperandType::INDEXABLE_TEMP
                | OperandType::OUTPUT_DEPTH
                | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
                | OperandType::OUTPUT_DEPTH_LESS_EQUAL
                | OperandType::OUTPUT_COVERAGE_MASK
                | OperandType::OUTPUT_STENCIL_REF
        )
    }
}

/// One operand, as decoded from its token(s).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Operand {
    pub ty: OperandType,
    pub components: Components,
    pub selection: Selection,
    pub indices: Indices,
    pub modifier: Modifier,
    pub min_precision: MinPrecision,
    /// SM5.1 `nonuniform` flag of the extended operand token.
    pub nonuniform: bool,
    /// Whether an extended operand token was present. fxc sometimes writes one
    /// that changes nothing; keeping the fact makes re-encoding exact.
    pub extended: bool,
    /// Immediate dwords in stream order, one per 32-bit component.
    ///
    /// * `IMMEDIATE32` (`l(...)`): one lane per value; a one-lane immediate
    ///   stands for the value in all four components.
    /// * `IMMEDIATE64` (`d(...)`): each double takes two lanes, low dword
    ///   first. A four-component token holds two doubles (four lanes, the
    ///   first double in `.xy`, the second in `.zw`); a one-component token
    ///   holds one double (two lanes). Double instructions address 32-bit
    ///   halves, so `.xy` of a double operand is one double, exactly the
    ///   lanes here. [`Operand::doubles`] gives the typed view.
    pub imm: Lanes,
}

impl Operand {
    /// The first index as a plain immediate (`r3` → 3), if it is one.
    pub fn reg(&self) -> Option<u32> {
        match self.indices.first() {
            Some(Index::Imm32(v)) => Some(*v),
            _ => None,
        }
    }

    pub fn is_immediate(&self) -> bool {
        self.ty == OperandType::IMMEDIATE32 || self.ty == OperandType::IMMEDIATE64
    }

    /// An immediate's value in the four 32-bit components a register has,
    /// before swizzle: a one-lane `l(x)` fills all four with x, a one-double
    /// `d(x)` fills `.xy` and `.zw` with x's halves (a one-component
    /// immediate stands for its value everywhere, 32- or 64-bit alike), and
    /// four lanes are taken as they are. None for other operands and for a
    /// lane count the decoder does not produce.
    pub fn immediate_lanes(&self) -> Option<[u32; 4]> {
        let i = &self.imm;
        match (self.ty, i.len()) {
            (OperandType::IMMEDIATE32, 1) => Some([i[0]; 4]),
            (OperandType::IMMEDIATE64, 2) => Some([i[0], i[1], i[0], i[1]]),
            (OperandType::IMMEDIATE32 | OperandType::IMMEDIATE64, 4) => {
                Some([i[0], i[1], i[2], i[3]])
            }
            _ => None,
        }
    }

    /// A 64-bit immediate's doubles (one or two), each from its low and high
    /// lane; None for any other operand.
    pub fn doubles(&self) -> Option<SmallVec<[f64; 2]>> {
        (self.ty == OperandType::IMMEDIATE64).then(|| {
            self.imm
                .chunks_exact(2)
                .map(|c| f64::from_bits(c[0] as u64 | (c[1] as u64) << 32))
                .collect()
        })
    }
}

/// Extended opcode tokens, in stream order.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtendedOpcode {
    /// `_aoffimmi(u,v,w)`: immediate texel offsets, 4-bit signed each.
    SampleControls { offsets: [i8; 3], raw: u32 },
    /// `(texture2d)` / `(structured_buffer, stride=N)`.
    ResourceDimension {
        dim: ResourceDimension,
        stride: u32,
        raw: u32,
    },
    /// `(float,float,float,float)`.
    ReturnType { types: [ReturnType; 4], raw: u32 },
    /// A type this decoder does not know; kept for re-encoding.
    Unknown(u32),
}

impl ExtendedOpcode {
    pub fn raw(&self) -> u32 {
        match self {
            ExtendedOpcode::SampleControls { raw, .. }
            | ExtendedOpcode::ResourceDimension { raw, .. }
            | ExtendedOpcode::ReturnType { raw, .. }
            | ExtendedOpcode::Unknown(raw) => *raw,
        }
    }
}

/// Non-operand payload of a declaration (dwords after or instead of operands).
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// Declarations whose meaning lives entirely in the opcode controls
    /// and operands (`dcl_sampler`, `dcl_globalFlags`, `dcl_input`, …).
    Plain,
    /// `dcl_resource*`, `dcl_uav_typed*`: per-component return types.
    ReturnTypes([ReturnType; 4]),
    /// `_siv`/`_sgv` system value name (`D3D10_SB_NAME`).
    SystemValue(SystemValue),
    /// One count dword (`dcl_temps`, `dcl_maxout`, `dcl_indexrange`'s count,
    /// stride of structured declarations, `dcl_function_body`, …).
    Count(u32),
    /// Two dwords: `dcl_tgsm_structured` stride and count.
    Pair(u32, u32),
    /// `dcl_indexableTemp xN[size], components`.
    IndexableTemp {
        reg: u32,
        size: u32,
        components: u32,
    },
    /// `dcl_thread_group x, y, z`.
    ThreadGroup([u32; 3]),
    /// `dcl_function_table ftN = {fb...}`.
    FunctionTable { table: u32, bodies: Vec<u32> },
    /// `dcl_interface fpN[array][calls] = {ft...}`.
    Interface {
        index: u32,
        table_length: u32,
        array_length: u32,
        tables: Vec<u32>,
    },
    /// `fcall fpN[i][func]`: the function index dword.
    InterfaceCall { function: u32 },
}

/// Payload of `customdata` blocks.
#[derive(Debug, Clone, PartialEq)]
pub enum CustomData {
    /// Class 0: comment.
    Comment(Vec<u32>),
    /// Class 1: debug info.
    DebugInfo(Vec<u32>),
    /// Class 2: opaque.
    Opaque(Vec<u32>),
    /// Class 3: the immediate constant buffer, kept bit-exact.
    ImmediateConstantBuffer(Vec<u32>),
    /// Class 4: a `printf`/`errorf` shader message. `raw` is the whole
    /// payload, kept for exact re-encoding.
    ShaderMessage {
        id: u32,
        format: u32,
        text: String,
        operands: Vec<Operand>,
        raw: Vec<u32>,
    },
    /// Other classes (e.g. 5, clip-plane constant mappings).
    Other { class: u32, data: Vec<u32> },
}

impl CustomData {
    pub fn class(&self) -> u32 {
        match self {
            CustomData::Comment(_) => 0,
            CustomData::DebugInfo(_) => 1,
            CustomData::Opaque(_) => 2,
            CustomData::ImmediateConstantBuffer(_) => 3,
            CustomData::ShaderMessage { .. } => 4,
            CustomData::Other { class, .. } => *class,
        }
    }

    pub fn data(&self) -> &[u32] {
        match self {
            CustomData::Comment(d)
            | CustomData::DebugInfo(d)
            | CustomData::Opaque(d)
            | CustomData::ImmediateConstantBuffer(d)
            | CustomData::ShaderMessage { raw: d, .. }
            | CustomData::Other { data: d, .. } => d,
        }
    }
}

/// A tiled-resource `_s` instruction as the plain instruction it computes
/// plus its extras (see [`Instruction::feedback_parts`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FeedbackParts {
    pub plain: Instruction,
    /// Where the status goes (a temp, or `null` when unused).
    pub status: Operand,
    /// The per-sample minimum-LOD clamp (`_cl` forms).
    pub clamp: Option<Operand>,
}

/// One decoded instruction or declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// What instruction this is; [`Op::code`] is the token value.
    pub op: Op,
    /// Bits 11..23 of the opcode token, unshifted (i.e. `token & 0x00fff800`).
    /// Private to `dxbc`: the encoder and printer read the bits, every other
    /// layer reads the typed accessors below (`saturate`, `interpolation`,
    /// `resource_dimension`, …), so no consumer shifts token bits itself.
    pub(in crate::dxbc) controls: u32,
    pub extended: Vec<ExtendedOpcode>,
    pub operands: Operands,
    pub decl: DeclKind,
    /// Boxed: rare, and large enough to slow building every instruction.
    pub custom: Option<Box<CustomData>>,
    /// Dwords inside the instruction's declared length that the decoder did
    /// not interpret; kept so nothing is lost and the listing can show them.
    pub trailing: Vec<u32>,
    /// Absolute byte offset of the opcode token in the container.
    pub offset: usize,
    /// Length in dwords, as stored.
    pub length: u32,
}

impl Instruction {
    pub fn info(&self) -> &'static OpInfo {
        self.op.info()
    }

    pub fn name(&self) -> &'static str {
        self.info().name
    }

    /// `_sat` (opcode token bit 13), for instructions that take it.
    pub fn saturate(&self) -> bool {
        self.info().sat && self.controls & (1 << 13) != 0
    }

    /// Test-boolean: true for `_nz` (bit 18), false for `_z`.
    pub fn test_nonzero(&self) -> bool {
        self.controls & (1 << 18) != 0
    }

    /// SM5 `precise` write mask (bits 19..22).
    pub fn precise_mask(&self) -> u8 {
        ((self.controls >> 19) & 0xf) as u8
    }

    /// Bits 11.. of the controls, the opcode-specific field.
    fn control_field(&self, width: u32) -> u32 {
        (self.controls >> 11) & ((1 << width) - 1)
    }

    /// A `dcl_input_ps*` declaration's interpolation mode.
    pub fn interpolation(&self) -> Option<Interpolation> {
        matches!(
            self.op,
            Op::DclInputPs | Op::DclInputPsSiv | Op::DclInputPsSgv
        )
        .then(|| Interpolation::from_code(self.control_field(4) as u8))
    }

    /// A `dcl_resource`/`dcl_uav_typed` declaration's dimension.
    pub fn resource_dimension(&self) -> Option<ResourceDimension> {
        matches!(self.op, Op::DclResource | Op::DclUavTyped)
            .then(|| ResourceDimension::from_code(self.control_field(5) as u8))
    }

    /// Whether a `sync` synchronises or fences at thread-group scope
    /// (`_t`: threads in the group, `_g`: group shared memory), which only
    /// compute shaders have; None for other opcodes.
    pub fn sync_thread_group(&self) -> Option<bool> {
        (self.op == Op::Sync).then_some(self.controls & (0b11 << 11) != 0)
    }

    /// A multisampled `dcl_resource`'s sample count (bits 16..22).
    pub fn sample_count(&self) -> Option<u32> {
        (self.op == Op::DclResource).then_some((self.controls >> 16) & 0x7f)
    }

    /// A `dcl_sampler` declaration's mode.
    pub fn sampler_mode(&self) -> Option<SamplerMode> {
        (self.op == Op::DclSampler).then(|| SamplerMode::from_code(self.control_field(4) as u8))
    }

    /// `dcl_constantbuffer`'s `dynamicIndexed` access pattern.
    pub fn dynamically_indexed(&self) -> bool {
        self.op == Op::DclConstantBuffer && self.control_field(1) != 0
    }

    /// `resinfo`'s return type (`_uint`, `_rcpFloat` or float).
    pub fn resinfo_return(&self) -> Option<ResInfoReturn> {
        (self.op == Op::Resinfo).then(|| ResInfoReturn::from_code(self.control_field(2) as u8))
    }

    /// `sampleinfo`'s return type (`_uint` or float).
    pub fn sampleinfo_return(&self) -> Option<SampleInfoReturn> {
        (self.op == Op::SampleInfo)
            .then(|| SampleInfoReturn::from_code(self.control_field(1) as u8))
    }

    /// `dcl_globalFlags`' flags.
    pub fn global_flags(&self) -> Option<GlobalFlags> {
        (self.op == Op::DclGlobalFlags).then(|| {
            let bit = |n: u32| self.controls & (1 << n) != 0;
            GlobalFlags {
                refactoring_allowed: bit(11),
                enable_double_precision: bit(12),
                force_early_depth_stencil: bit(13),
                enable_raw_and_structured_buffers: bit(14),
                skip_optimization: bit(15),
                enable_minimum_precision: bit(16),
                enable_double_extensions: bit(17),
                enable_shader_extensions: bit(18),
            }
        })
    }

    /// A declaration's system value (`_siv`/`_sgv`), if it names one.
    pub fn system_value(&self) -> Option<SystemValue> {
        match self.decl {
            DeclKind::SystemValue(v) => Some(v),
            _ => None,
        }
    }

    /// A tiled-resource `_s` instruction split into the plain instruction
    /// it computes (same controls and extended tokens, the plain form's
    /// operands in their order), its status destination and, for the
    /// `_cl` forms, its minimum-LOD clamp source; `None` for any other
    /// instruction or when operands are missing.
    pub fn feedback_parts(&self) -> Option<FeedbackParts> {
        let form = self.op.feedback_form()?;
        let plain = form.plain.info();
        let status = self.operands.get(FeedbackForm::STATUS)?.clone();
        let sources = FeedbackForm::STATUS + 1;
        let end = sources + plain.src as usize;
        let clamp = if form.clamp {
            Some(self.operands.get(end)?.clone())
        } else {
            None
        };
        let mut operands = Operands::new();
        operands.push(self.operands.first()?.clone());
        operands.extend(self.operands.get(sources..end)?.iter().cloned());
        Some(FeedbackParts {
            plain: Instruction {
                op: form.plain,
                operands,
                ..self.clone()
            },
            status,
            clamp,
        })
    }

    /// Immediate texel offsets from a sample-controls extended token.
    pub fn offsets(&self) -> Option<[i8; 3]> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::SampleControls { offsets, .. } => Some(*offsets),
            _ => None,
        })
    }

    /// Resource dimension from the extended token (SM5 `_indexable`).
    pub fn resource_dim(&self) -> Option<(ResourceDimension, u32)> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::ResourceDimension { dim, stride, .. } => Some((*dim, *stride)),
            _ => None,
        })
    }

    pub fn return_types(&self) -> Option<[ReturnType; 4]> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::ReturnType { types, .. } => Some(*types),
            _ => None,
        })
    }

    /// `dcl_input*` (any interpolation or system value).
    pub fn declares_input(&self) -> bool {
        matches!(
            self.op,
            Op::DclInput
                | Op::DclInputSgv
                | Op::DclInputSiv
                | Op::DclInputPs
                | Op::DclInputPsSgv
                | Op::DclInputPsSiv
        )
    }

    /// `dcl_output*`.
    pub fn declares_output(&self) -> bool {
        matches!(self.op, Op::DclOutput | Op::DclOutputSgv | Op::DclOutputSiv)
    }

    /// Destination operands, per the opcode table.
    pub fn dsts(&self) -> &[Operand] {
        let n = (self.info().dst as usize).min(self.operands.len());
        &self.operands[..n]
    }

    /// Source operands, per the opcode table.
    pub fn srcs(&self) -> &[Operand] {
        let n = (self.info().dst as usize).min(self.operands.len());
        &self.operands[n..]
    }
}
