//! The one SM4/SM5 opcode description. Every opcode has a name ([`Op`]) and
//! one row here: mnemonic, class, operand counts, result and source number
//! types, how immediates print, block role and which modifiers it takes.
//! Decoding, printing, the assembler and `info` read the row; the emulator
//! and the emitter key their per-opcode behaviour by [`Op`] and take types
//! and float rules from the row (`tests/opcode_coverage.rs` checks they
//! agree with it).
//!
//! Numbers and mnemonics follow `d3d11TokenizedProgramFormat.hpp`
//! (`D3D10_SB_OPCODE_TYPE` / `D3D11_SB_OPCODE_TYPE`) and fxc's spelling.

mod classify;

pub use classify::{Atomic, AtomicOp, FeedbackForm, LodFrom, TexelRead, TextureOperands};

/// What kind of work an instruction does; used for statistics and for
/// choosing how immediates print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Floating-point arithmetic and comparisons.
    Float,
    /// Signed integer arithmetic and comparisons.
    Int,
    /// Unsigned integer arithmetic, comparisons and bit operations.
    Uint,
    /// Conversions between number types.
    Convert,
    /// Typeless moves and selects.
    Move,
    /// Structured control flow, calls, `discard`.
    Flow,
    /// Texture sampling, gather, load and queries.
    Texture,
    /// UAV, raw/structured buffer and shared-memory access, atomics, sync.
    Memory,
    /// Double-precision arithmetic.
    Double,
    /// Geometry-shader stream output.
    Stream,
    /// Declarations (`dcl_*`, hull-shader phase markers).
    Decl,
    /// `nop`, `customdata`, debug instructions.
    Other,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Float => "float",
            Class::Int => "int",
            Class::Uint => "uint",
            Class::Convert => "conversion",
            Class::Move => "move",
            Class::Flow => "flow control",
            Class::Texture => "texture",
            Class::Memory => "memory",
            Class::Double => "double",
            Class::Stream => "stream",
            Class::Decl => "declaration",
            Class::Other => "other",
        }
    }
}

/// The number type an operand or result is read as. One vocabulary for
/// every layer: the printer chooses how immediates look from it, the
/// emulator how source modifiers and denormal flushing apply, the emitter
/// which GLSL type it reads a register as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumType {
    /// `f`: 32-bit float.
    Float,
    /// `i`: signed 32-bit integer.
    Int,
    /// `u`: unsigned 32-bit integer (also bit masks and booleans).
    Uint,
    /// `x`: typeless bits (moves, selects; resource-typed results).
    Untyped,
    /// `d`: 64-bit float in two lanes.
    Double,
}

impl NumType {
    const fn from_letter(c: u8) -> NumType {
        match c {
            b'f' => NumType::Float,
            b'i' => NumType::Int,
            b'u' => NumType::Uint,
            b'd' => NumType::Double,
            _ => NumType::Untyped,
        }
    }

    /// Whether source modifiers act as integer operations (`-` is two's
    /// complement negation, `|x|` integer absolute value).
    pub fn is_integer(self) -> bool {
        matches!(self, NumType::Int | NumType::Uint)
    }
}

/// Token layout of an instruction beyond its generic operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Every token after the opcode (and extended tokens) is an operand.
    Operands,
    /// `customdata`: class in the opcode token, length in the next dword.
    CustomData,
    /// Declarations whose payload is described by [`super::ir::DeclKind`].
    Decl,
}

/// Block structure, for indentation and for control-flow consumers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    None,
    /// Opens a block: `if`, `loop`, `switch`.
    Open,
    /// Closes one block and opens another: `else`.
    Middle,
    /// Closes a block: `endif`, `endloop`, `endswitch`.
    Close,
}

#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    pub op: Op,
    pub code: u16,
    pub name: &'static str,
    pub class: Class,
    /// Number of destination operands (the first operands). Two means the
    /// instruction has a second result (`imul`'s low half, `udiv`'s
    /// remainder, `sincos`'s cosine, a `_s` instruction's feedback).
    pub dst: u8,
    /// Number of source operands after the destinations.
    pub src: u8,
    /// Result and source number types (`result`, `source` letters of
    /// [`NumType`]; `-` where there is none).
    types: [u8; 2],
    /// Immediate print kinds by operand position (see [`NumType`]).
    pub imm: &'static str,
    pub layout: Layout,
    pub block: Block,
    /// Takes `_z`/`_nz` (test-boolean) from the opcode token.
    pub test: bool,
    /// Can carry `_sat`.
    pub sat: bool,
    /// Tiled-resource residency feedback: the `_s` forms (whose second
    /// result is the feedback value) and `check_access_fully_mapped`.
    pub feedback: bool,
}

impl OpInfo {
    /// How an immediate at operand position `operand` prints; the last
    /// letter repeats for the remaining operands.
    pub fn imm_kind(&self, operand: usize) -> NumType {
        let b = self.imm.as_bytes();
        if b.is_empty() {
            return NumType::Untyped;
        }
        NumType::from_letter(b[operand.min(b.len() - 1)])
    }

    /// The number type the instruction computes in and writes; `None` for
    /// instructions without a destination.
    pub fn result_type(&self) -> Option<NumType> {
        (self.types[0] != b'-').then(|| NumType::from_letter(self.types[0]))
    }

    /// The number type the sources are read as (source modifiers and
    /// denormal flushing follow it); `None` for instructions without sources.
    pub fn source_type(&self) -> Option<NumType> {
        (self.types[1] != b'-').then(|| NumType::from_letter(self.types[1]))
    }

    /// D3D's float rules for this instruction (functional spec 3.1): float
    /// sources have denormals flushed on read; a float arithmetic result is
    /// flushed and may take `_sat`. Moves are typeless and flush nothing.
    pub fn float_rule(&self) -> FloatRule {
        FloatRule {
            flush_sources: self.source_type() == Some(NumType::Float),
            float_result: self.result_type() == Some(NumType::Float),
        }
    }

    pub fn is_decl(&self) -> bool {
        self.class == Class::Decl
    }

    pub fn operand_count(&self) -> usize {
        self.dst as usize + self.src as usize
    }
}

/// Which of D3D's float rules apply to an instruction (see [`OpInfo::float_rule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatRule {
    /// Sources are floats: denormals flush to sign-preserved zero on read.
    pub flush_sources: bool,
    /// The result is float arithmetic: denormals flush, `_sat` clamps.
    pub float_result: bool,
}

use Block::{Close as C, Middle as M, None as N, Open as O};
use Class::*;
use Layout::{CustomData as CD, Decl as DL, Operands as OP};

macro_rules! table {
    ($( $code:literal $op:ident $name:literal $class:ident $dst:literal $src:literal $types:literal $imm:literal $layout:ident $block:ident $flags:literal ;)*) => {
        /// Every SM4/SM5 opcode, by its D3D name (`D3D10_SB_OPCODE_*` /
        /// `D3D11_SB_OPCODE_*` in camel case). Layers match on these names,
        /// never on numbers; the number is the token value.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Op {
            $( $op = $code, )*
        }

        /// Every opcode, sorted by number.
        pub static OPCODES: &[OpInfo] = &[
            $( OpInfo {
                op: Op::$op,
                code: $code,
                name: $name,
                class: $class,
                dst: $dst,
                src: $src,
                types: [$types.as_bytes()[0], $types.as_bytes()[1]],
                imm: $imm,
                layout: $layout,
                block: $block,
                test: $flags.as_bytes().len() > 0 && $flags.as_bytes()[0] == b't',
                sat: $flags.as_bytes().len() > 0 && $flags.as_bytes()[0] == b's',
                feedback: $flags.as_bytes().len() > 0 && $flags.as_bytes()[0] == b'f',
            }, )*
        ];
    };
}

// Columns: number, name, mnemonic, class, destinations, sources, result and
// source number types, immediate print kinds by operand, layout, block role,
// flags ("s": takes _sat, "t": takes _z/_nz, "f": tiled-resource feedback).
table! {
    0 Add "add" Float 1 2 "ff" "f" OP N "s";
    1 And "and" Uint 1 2 "uu" "u" OP N "";
    2 Break "break" Flow 0 0 "--" "" OP N "";
    3 Breakc "breakc" Flow 0 1 "-x" "x" OP N "t";
    4 Call "call" Flow 0 1 "-x" "" OP N "";
    5 Callc "callc" Flow 0 2 "-x" "x" OP N "t";
    6 Case "case" Flow 0 1 "-u" "u" OP N "";
    7 Continue "continue" Flow 0 0 "--" "" OP N "";
    8 Continuec "continuec" Flow 0 1 "-x" "x" OP N "t";
    9 Cut "cut" Stream 0 0 "--" "" OP N "";
    10 Default "default" Flow 0 0 "--" "" OP N "";
    11 DerivRtx "deriv_rtx" Float 1 1 "ff" "f" OP N "s";
    12 DerivRty "deriv_rty" Float 1 1 "ff" "f" OP N "s";
    13 Discard "discard" Flow 0 1 "-x" "x" OP N "t";
    14 Div "div" Float 1 2 "ff" "f" OP N "s";
    15 Dp2 "dp2" Float 1 2 "ff" "f" OP N "s";
    16 Dp3 "dp3" Float 1 2 "ff" "f" OP N "s";
    17 Dp4 "dp4" Float 1 2 "ff" "f" OP N "s";
    18 Else "else" Flow 0 0 "--" "" OP M "";
    19 Emit "emit" Stream 0 0 "--" "" OP N "";
    20 EmitThenCut "emit_then_cut" Stream 0 0 "--" "" OP N "";
    21 Endif "endif" Flow 0 0 "--" "" OP C "";
    22 Endloop "endloop" Flow 0 0 "--" "" OP C "";
    23 Endswitch "endswitch" Flow 0 0 "--" "" OP C "";
    24 Eq "eq" Float 1 2 "uf" "f" OP N "";
    25 Exp "exp" Float 1 1 "ff" "f" OP N "s";
    26 Frc "frc" Float 1 1 "ff" "f" OP N "s";
    27 Ftoi "ftoi" Convert 1 1 "if" "f" OP N "";
    28 Ftou "ftou" Convert 1 1 "uf" "f" OP N "";
    29 Ge "ge" Float 1 2 "uf" "f" OP N "";
    30 Iadd "iadd" Int 1 2 "ii" "i" OP N "";
    31 If "if" Flow 0 1 "-x" "x" OP O "t";
    32 Ieq "ieq" Int 1 2 "ui" "i" OP N "";
    33 Ige "ige" Int 1 2 "ui" "i" OP N "";
    34 Ilt "ilt" Int 1 2 "ui" "i" OP N "";
    35 Imad "imad" Int 1 3 "ii" "i" OP N "";
    36 Imax "imax" Int 1 2 "ii" "i" OP N "";
    37 Imin "imin" Int 1 2 "ii" "i" OP N "";
    38 Imul "imul" Int 2 2 "ii" "i" OP N "";
    39 Ine "ine" Int 1 2 "ui" "i" OP N "";
    40 Ineg "ineg" Int 1 1 "ii" "i" OP N "";
    41 Ishl "ishl" Int 1 2 "ii" "i" OP N "";
    42 Ishr "ishr" Int 1 2 "ii" "i" OP N "";
    43 Itof "itof" Convert 1 1 "fi" "i" OP N "";
    44 Label "label" Flow 0 1 "-x" "" OP N "";
    45 Ld "ld" Texture 1 2 "xi" "i" OP N "";
    46 LdMs "ldms" Texture 1 3 "xi" "i" OP N "";
    47 Log "log" Float 1 1 "ff" "f" OP N "s";
    48 Loop "loop" Flow 0 0 "--" "" OP O "";
    49 Lt "lt" Float 1 2 "uf" "f" OP N "";
    50 Mad "mad" Float 1 3 "ff" "f" OP N "s";
    51 Min "min" Float 1 2 "ff" "f" OP N "s";
    52 Max "max" Float 1 2 "ff" "f" OP N "s";
    53 Customdata "customdata" Other 0 0 "--" "" CD N "";
    54 Mov "mov" Move 1 1 "xx" "x" OP N "s";
    55 Movc "movc" Move 1 3 "xx" "x" OP N "s";
    56 Mul "mul" Float 1 2 "ff" "f" OP N "s";
    57 Ne "ne" Float 1 2 "uf" "f" OP N "";
    58 Nop "nop" Other 0 0 "--" "" OP N "";
    59 Not "not" Uint 1 1 "uu" "u" OP N "";
    60 Or "or" Uint 1 2 "uu" "u" OP N "";
    61 Resinfo "resinfo" Texture 1 2 "xu" "u" OP N "";
    62 Ret "ret" Flow 0 0 "--" "" OP N "";
    63 Retc "retc" Flow 0 1 "-x" "x" OP N "t";
    64 RoundNe "round_ne" Float 1 1 "ff" "f" OP N "s";
    65 RoundNi "round_ni" Float 1 1 "ff" "f" OP N "s";
    66 RoundPi "round_pi" Float 1 1 "ff" "f" OP N "s";
    67 RoundZ "round_z" Float 1 1 "ff" "f" OP N "s";
    68 Rsq "rsq" Float 1 1 "ff" "f" OP N "s";
    69 Sample "sample" Texture 1 3 "xf" "f" OP N "";
    70 SampleC "sample_c" Texture 1 4 "xf" "f" OP N "";
    71 SampleCLz "sample_c_lz" Texture 1 4 "xf" "f" OP N "";
    72 SampleL "sample_l" Texture 1 4 "xf" "f" OP N "";
    73 SampleD "sample_d" Texture 1 5 "xf" "f" OP N "";
    74 SampleB "sample_b" Texture 1 4 "xf" "f" OP N "";
    75 Sqrt "sqrt" Float 1 1 "ff" "f" OP N "s";
    76 Switch "switch" Flow 0 1 "-x" "x" OP O "";
    77 Sincos "sincos" Float 2 1 "ff" "f" OP N "s";
    78 Udiv "udiv" Uint 2 2 "uu" "u" OP N "";
    79 Ult "ult" Uint 1 2 "uu" "u" OP N "";
    80 Uge "uge" Uint 1 2 "uu" "u" OP N "";
    81 Umul "umul" Uint 2 2 "uu" "u" OP N "";
    82 Umad "umad" Uint 1 3 "uu" "u" OP N "";
    83 Umax "umax" Uint 1 2 "uu" "u" OP N "";
    84 Umin "umin" Uint 1 2 "uu" "u" OP N "";
    85 Ushr "ushr" Uint 1 2 "uu" "u" OP N "";
    86 Utof "utof" Convert 1 1 "fu" "u" OP N "";
    87 Xor "xor" Uint 1 2 "uu" "u" OP N "";
    88 DclResource "dcl_resource" Decl 0 1 "-x" "" DL N "";
    89 DclConstantBuffer "dcl_constantbuffer" Decl 0 1 "-x" "" DL N "";
    90 DclSampler "dcl_sampler" Decl 0 1 "-x" "" DL N "";
    91 DclIndexRange "dcl_indexrange" Decl 0 1 "-x" "" DL N "";
    92 DclGsOutputPrimitiveTopology "dcl_outputtopology" Decl 0 0 "--" "" DL N "";
    93 DclGsInputPrimitive "dcl_inputprimitive" Decl 0 0 "--" "" DL N "";
    94 DclMaxOutputVertexCount "dcl_maxout" Decl 0 0 "--" "" DL N "";
    95 DclInput "dcl_input" Decl 0 1 "-x" "" DL N "";
    96 DclInputSgv "dcl_input_sgv" Decl 0 1 "-x" "" DL N "";
    97 DclInputSiv "dcl_input_siv" Decl 0 1 "-x" "" DL N "";
    98 DclInputPs "dcl_input_ps" Decl 0 1 "-x" "" DL N "";
    99 DclInputPsSgv "dcl_input_ps_sgv" Decl 0 1 "-x" "" DL N "";
    100 DclInputPsSiv "dcl_input_ps_siv" Decl 0 1 "-x" "" DL N "";
    101 DclOutput "dcl_output" Decl 0 1 "-x" "" DL N "";
    102 DclOutputSgv "dcl_output_sgv" Decl 0 1 "-x" "" DL N "";
    103 DclOutputSiv "dcl_output_siv" Decl 0 1 "-x" "" DL N "";
    104 DclTemps "dcl_temps" Decl 0 0 "--" "" DL N "";
    105 DclIndexableTemp "dcl_indexableTemp" Decl 0 0 "--" "" DL N "";
    106 DclGlobalFlags "dcl_globalFlags" Decl 0 0 "--" "" DL N "";
    107 Reserved0 "reserved0" Other 0 0 "--" "" OP N "";
    108 Lod "lod" Texture 1 3 "xf" "f" OP N "";
    109 Gather4 "gather4" Texture 1 3 "xf" "f" OP N "";
    110 SamplePos "samplepos" Texture 1 2 "xu" "u" OP N "";
    111 SampleInfo "sampleinfo" Texture 1 1 "xu" "u" OP N "";
    112 Reserved1 "reserved1" Other 0 0 "--" "" OP N "";
    113 HsDecls "hs_decls" Decl 0 0 "--" "" OP N "";
    114 HsControlPointPhase "hs_control_point_phase" Decl 0 0 "--" "" OP N "";
    115 HsForkPhase "hs_fork_phase" Decl 0 0 "--" "" OP N "";
    116 HsJoinPhase "hs_join_phase" Decl 0 0 "--" "" OP N "";
    117 EmitStream "emit_stream" Stream 0 1 "-x" "" OP N "";
    118 CutStream "cut_stream" Stream 0 1 "-x" "" OP N "";
    119 EmitThenCutStream "emit_then_cut_stream" Stream 0 1 "-x" "" OP N "";
    120 InterfaceCall "fcall" Flow 0 1 "-x" "" DL N "";
    121 Bufinfo "bufinfo" Texture 1 1 "xu" "u" OP N "";
    122 DerivRtxCoarse "deriv_rtx_coarse" Float 1 1 "ff" "f" OP N "s";
    123 DerivRtxFine "deriv_rtx_fine" Float 1 1 "ff" "f" OP N "s";
    124 DerivRtyCoarse "deriv_rty_coarse" Float 1 1 "ff" "f" OP N "s";
    125 DerivRtyFine "deriv_rty_fine" Float 1 1 "ff" "f" OP N "s";
    126 Gather4C "gather4_c" Texture 1 4 "xf" "f" OP N "";
    127 Gather4Po "gather4_po" Texture 1 4 "xf" "ffif" OP N "";
    128 Gather4PoC "gather4_po_c" Texture 1 5 "xf" "ffiff" OP N "";
    129 Rcp "rcp" Float 1 1 "ff" "f" OP N "s";
    130 F32tof16 "f32tof16" Convert 1 1 "uf" "f" OP N "";
    131 F16tof32 "f16tof32" Convert 1 1 "fu" "u" OP N "";
    132 Uaddc "uaddc" Uint 2 2 "uu" "u" OP N "";
    133 Usubb "usubb" Uint 2 2 "uu" "u" OP N "";
    134 Countbits "countbits" Uint 1 1 "uu" "u" OP N "";
    135 FirstbitHi "firstbit_hi" Uint 1 1 "uu" "u" OP N "";
    136 FirstbitLo "firstbit_lo" Uint 1 1 "uu" "u" OP N "";
    137 FirstbitShi "firstbit_shi" Int 1 1 "ui" "i" OP N "";
    138 Ubfe "ubfe" Uint 1 3 "uu" "u" OP N "";
    139 Ibfe "ibfe" Int 1 3 "iu" "uuui" OP N "";
    140 Bfi "bfi" Uint 1 4 "uu" "u" OP N "";
    141 Bfrev "bfrev" Uint 1 1 "uu" "u" OP N "";
    142 Swapc "swapc" Move 2 3 "xx" "x" OP N "";
    143 DclStream "dcl_stream" Decl 0 1 "-x" "" DL N "";
    144 DclFunctionBody "dcl_function_body" Decl 0 0 "--" "" DL N "";
    145 DclFunctionTable "dcl_function_table" Decl 0 0 "--" "" DL N "";
    146 DclInterface "dcl_interface" Decl 0 0 "--" "" DL N "";
    147 DclInputControlPointCount "dcl_input_control_point_count" Decl 0 0 "--" "" DL N "";
    148 DclOutputControlPointCount "dcl_output_control_point_count" Decl 0 0 "--" "" DL N "";
    149 DclTessDomain "dcl_tessellator_domain" Decl 0 0 "--" "" DL N "";
    150 DclTessPartitioning "dcl_tessellator_partitioning" Decl 0 0 "--" "" DL N "";
    151 DclTessOutputPrimitive "dcl_tessellator_output_primitive" Decl 0 0 "--" "" DL N "";
    152 DclHsMaxTessfactor "dcl_hs_max_tessfactor" Decl 0 1 "-f" "f" DL N "";
    153 DclHsForkPhaseInstanceCount "dcl_hs_fork_phase_instance_count" Decl 0 0 "--" "" DL N "";
    154 DclHsJoinPhaseInstanceCount "dcl_hs_join_phase_instance_count" Decl 0 0 "--" "" DL N "";
    155 DclThreadGroup "dcl_thread_group" Decl 0 0 "--" "" DL N "";
    156 DclUavTyped "dcl_uav_typed" Decl 0 1 "-x" "" DL N "";
    157 DclUavRaw "dcl_uav_raw" Decl 0 1 "-x" "" DL N "";
    158 DclUavStructured "dcl_uav_structured" Decl 0 1 "-x" "" DL N "";
    159 DclTgsmRaw "dcl_tgsm_raw" Decl 0 1 "-x" "" DL N "";
    160 DclTgsmStructured "dcl_tgsm_structured" Decl 0 1 "-x" "" DL N "";
    161 DclResourceRaw "dcl_resource_raw" Decl 0 1 "-x" "" DL N "";
    162 DclResourceStructured "dcl_resource_structured" Decl 0 1 "-x" "" DL N "";
    163 LdUavTyped "ld_uav_typed" Memory 1 2 "xu" "u" OP N "";
    164 StoreUavTyped "store_uav_typed" Memory 1 2 "xu" "ux" OP N "";
    165 LdRaw "ld_raw" Memory 1 2 "xu" "u" OP N "";
    166 StoreRaw "store_raw" Memory 1 2 "xu" "uux" OP N "";
    167 LdStructured "ld_structured" Memory 1 3 "xu" "u" OP N "";
    168 StoreStructured "store_structured" Memory 1 3 "xu" "uuux" OP N "";
    169 AtomicAnd "atomic_and" Memory 1 2 "xu" "u" OP N "";
    170 AtomicOr "atomic_or" Memory 1 2 "xu" "u" OP N "";
    171 AtomicXor "atomic_xor" Memory 1 2 "xu" "u" OP N "";
    172 AtomicCmpStore "atomic_cmp_store" Memory 1 3 "xu" "u" OP N "";
    173 AtomicIadd "atomic_iadd" Memory 1 2 "xu" "uui" OP N "";
    174 AtomicImax "atomic_imax" Memory 1 2 "xu" "uui" OP N "";
    175 AtomicImin "atomic_imin" Memory 1 2 "xu" "uui" OP N "";
    176 AtomicUmax "atomic_umax" Memory 1 2 "xu" "u" OP N "";
    177 AtomicUmin "atomic_umin" Memory 1 2 "xu" "u" OP N "";
    178 ImmAtomicAlloc "imm_atomic_alloc" Memory 2 0 "x-" "u" OP N "";
    179 ImmAtomicConsume "imm_atomic_consume" Memory 2 0 "x-" "u" OP N "";
    180 ImmAtomicIadd "imm_atomic_iadd" Memory 2 2 "xu" "uuui" OP N "";
    181 ImmAtomicAnd "imm_atomic_and" Memory 2 2 "xu" "u" OP N "";
    182 ImmAtomicOr "imm_atomic_or" Memory 2 2 "xu" "u" OP N "";
    183 ImmAtomicXor "imm_atomic_xor" Memory 2 2 "xu" "u" OP N "";
    184 ImmAtomicExch "imm_atomic_exch" Memory 2 2 "xu" "uuux" OP N "";
    185 ImmAtomicCmpExch "imm_atomic_cmp_exch" Memory 2 3 "xu" "uuuxx" OP N "";
    186 ImmAtomicImax "imm_atomic_imax" Memory 2 2 "xu" "uuui" OP N "";
    187 ImmAtomicImin "imm_atomic_imin" Memory 2 2 "xu" "uuui" OP N "";
    188 ImmAtomicUmax "imm_atomic_umax" Memory 2 2 "xu" "u" OP N "";
    189 ImmAtomicUmin "imm_atomic_umin" Memory 2 2 "xu" "u" OP N "";
    190 Sync "sync" Memory 0 0 "--" "" OP N "";
    191 Dadd "dadd" Double 1 2 "dd" "d" OP N "s";
    192 Dmax "dmax" Double 1 2 "dd" "d" OP N "s";
    193 Dmin "dmin" Double 1 2 "dd" "d" OP N "s";
    194 Dmul "dmul" Double 1 2 "dd" "d" OP N "s";
    195 Deq "deq" Double 1 2 "ud" "d" OP N "";
    196 Dge "dge" Double 1 2 "ud" "d" OP N "";
    197 Dlt "dlt" Double 1 2 "ud" "d" OP N "";
    198 Dne "dne" Double 1 2 "ud" "d" OP N "";
    199 Dmov "dmov" Double 1 1 "dd" "d" OP N "s";
    200 Dmovc "dmovc" Double 1 3 "dd" "xxdd" OP N "s";
    201 Dtof "dtof" Double 1 1 "fd" "d" OP N "";
    202 Ftod "ftod" Double 1 1 "df" "f" OP N "";
    203 EvalSnapped "eval_snapped" Float 1 2 "ff" "fi" OP N "";
    204 EvalSampleIndex "eval_sample_index" Float 1 2 "ff" "fi" OP N "";
    205 EvalCentroid "eval_centroid" Float 1 1 "ff" "f" OP N "";
    206 DclGsInstanceCount "dcl_gsinstances" Decl 0 0 "--" "" DL N "";
    207 Abort "abort" Other 0 0 "--" "" OP N "";
    208 DebugBreak "debug_break" Other 0 0 "--" "" OP N "";
    209 Reserved11 "reserved_11" Other 0 0 "--" "" OP N "";
    210 Ddiv "ddiv" Double 1 2 "dd" "d" OP N "s";
    211 Dfma "dfma" Double 1 3 "dd" "d" OP N "s";
    212 Drcp "drcp" Double 1 1 "dd" "d" OP N "s";
    213 Msad "msad" Uint 1 3 "uu" "u" OP N "";
    214 Dtoi "dtoi" Double 1 1 "id" "d" OP N "";
    215 Dtou "dtou" Double 1 1 "ud" "d" OP N "";
    216 Itod "itod" Double 1 1 "di" "i" OP N "";
    217 Utod "utod" Double 1 1 "du" "u" OP N "";
    218 Reserved11_1 "reserved_11_1" Other 0 0 "--" "" OP N "";
    219 Gather4S "gather4_s" Texture 2 3 "xf" "f" OP N "f";
    220 Gather4CS "gather4_c_s" Texture 2 4 "xf" "f" OP N "f";
    221 Gather4PoS "gather4_po_s" Texture 2 4 "xf" "fffif" OP N "f";
    222 Gather4PoCS "gather4_po_c_s" Texture 2 5 "xf" "fffiff" OP N "f";
    223 LdS "ld_s" Texture 2 2 "xi" "i" OP N "f";
    224 LdmsS "ldms_s" Texture 2 3 "xi" "i" OP N "f";
    225 LdUavTypedS "ld_uav_typed_s" Memory 2 2 "xu" "u" OP N "f";
    226 LdRawS "ld_raw_s" Memory 2 2 "xu" "u" OP N "f";
    227 LdStructuredS "ld_structured_s" Memory 2 3 "xu" "u" OP N "f";
    228 SampleLS "sample_l_s" Texture 2 4 "xf" "f" OP N "f";
    229 SampleCLzS "sample_c_lz_s" Texture 2 4 "xf" "f" OP N "f";
    230 SampleClS "sample_cl_s" Texture 2 4 "xf" "f" OP N "f";
    231 SampleBClS "sample_b_cl_s" Texture 2 5 "xf" "f" OP N "f";
    232 SampleDClS "sample_d_cl_s" Texture 2 6 "xf" "f" OP N "f";
    233 SampleCClS "sample_c_cl_s" Texture 2 5 "xf" "f" OP N "f";
    234 CheckAccessFullyMapped "check_access_fully_mapped" Uint 1 1 "uu" "u" OP N "f";
}

impl Op {
    /// The opcode's description.
    pub fn info(self) -> &'static OpInfo {
        &OPCODES[self as usize]
    }

    /// The token value.
    pub fn code(self) -> u16 {
        self as u16
    }

    /// fxc's mnemonic.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The opcode with token value `code`, if there is one.
    pub fn from_code(code: u32) -> Option<Op> {
        lookup(code).map(|i| i.op)
    }

    /// Every opcode, in number order.
    pub fn all() -> impl Iterator<Item = Op> {
        OPCODES.iter().map(|i| i.op)
    }

    /// Where a texture instruction's resource and sampler operands are
    /// (operand positions, the destination first). `None` for instructions
    /// that read no texture, and for the tiled-resource `_s` forms.
    pub fn texture_operands(self) -> Option<TextureOperands> {
        let (resource, sampler) = match self {
            Op::Sample
            | Op::SampleC
            | Op::SampleCLz
            | Op::SampleL
            | Op::SampleD
            | Op::SampleB
            | Op::Lod
            | Op::Gather4
            | Op::Gather4C => (2, Some(3)),
            // The offset register comes before the resource.
            Op::Gather4Po | Op::Gather4PoC => (3, Some(4)),
            Op::Ld | Op::LdMs | Op::Resinfo => (2, None),
            Op::SampleInfo | Op::Bufinfo => (1, None),
            _ => return None,
        };
        Some(TextureOperands { resource, sampler })
    }
}

/// Looks an opcode number up in the table.
pub fn lookup(code: u32) -> Option<&'static OpInfo> {
    let info = OPCODES.get(code as usize)?;
    debug_assert_eq!(info.code as u32, code);
    Some(info)
}

/// Looks a base mnemonic (no suffixes) up in the table.
pub fn by_name(name: &str) -> Option<&'static OpInfo> {
    OPCODES.iter().find(|o| o.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texel_reads_classify_the_feedback_forms_as_their_plain_ones() {
        let gradients = Some(TexelRead::Filtered(LodFrom::Gradients));
        assert_eq!(Op::Sample.texel_read(), gradients);
        assert_eq!(Op::SampleDClS.texel_read(), gradients);
        assert_eq!(
            Op::SampleCLzS.texel_read(),
            Some(TexelRead::Filtered(LodFrom::Instruction))
        );
        assert_eq!(Op::Gather4PoCS.texel_read(), Some(TexelRead::Gather));
        assert_eq!(Op::LdmsS.texel_read(), Some(TexelRead::Load));
        // Not texture reads: a LOD query, a raw buffer load, arithmetic.
        for op in [Op::Lod, Op::LdRaw, Op::LdRawS, Op::Add] {
            assert_eq!(op.texel_read(), None, "{}", op.name());
        }
        assert!(Op::ImmAtomicCmpExch.returns_prior_value());
        assert!(!Op::AtomicIadd.returns_prior_value());
    }

    #[test]
    fn table_is_dense_and_sorted() {
        for (i, op) in OPCODES.iter().enumerate() {
            assert_eq!(op.code as usize, i, "{} out of place", op.name);
            assert_eq!(op.op as usize, i, "{}'s name is out of place", op.name);
        }
    }

    #[test]
    fn mnemonics_are_unique() {
        let mut names: Vec<_> = OPCODES.iter().map(|o| o.name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }

    #[test]
    fn feedback_forms_add_a_status_and_maybe_a_clamp() {
        let mut forms = 0;
        for info in OPCODES {
            let Some(form) = info.op.feedback_form() else {
                // Only the residency check is a feedback opcode without a
                // plain form.
                assert!(!info.feedback || info.op == Op::CheckAccessFullyMapped);
                continue;
            };
            forms += 1;
            let plain = form.plain.info();
            assert!(info.feedback, "{}", info.name);
            assert_eq!(info.class, plain.class, "{}", info.name);
            assert_eq!(info.dst, plain.dst + 1, "{}", info.name);
            assert_eq!(info.src, plain.src + u8::from(form.clamp), "{}", info.name);
            assert!(info.name.starts_with(plain.name), "{}", info.name);
            assert_eq!(info.name.contains("_cl"), form.clamp, "{}", info.name);
        }
        assert_eq!(forms, 15);
    }

    #[test]
    fn atomics_agree_with_their_rows() {
        let mut atomics = 0;
        for info in OPCODES {
            let Some(a) = info.op.atomic() else {
                assert!(
                    !info.name.contains("atomic_")
                        || info.name.ends_with("alloc")
                        || info.name.ends_with("consume"),
                    "{}",
                    info.name
                );
                continue;
            };
            atomics += 1;
            assert_eq!(info.class, Class::Memory, "{}", info.name);
            // An imm_ form has a destination for the old value: two
            // destination operands (the value and the UAV).
            assert_eq!(
                a.returns_old,
                info.name.starts_with("imm_"),
                "{}",
                info.name
            );
            assert_eq!(info.dst, 1 + u8::from(a.returns_old), "{}", info.name);
            // Address, value, and the compare value for the compare forms.
            assert_eq!(info.src, 2 + u8::from(a.compares()), "{}", info.name);
        }
        assert_eq!(atomics, 19);
    }

    #[test]
    fn imm_kinds_repeat_last_letter() {
        let op = lookup(127).unwrap();
        assert_eq!(op.imm_kind(2), NumType::Int);
        assert_eq!(op.imm_kind(3), NumType::Float);
        assert_eq!(op.imm_kind(9), NumType::Float);
    }
}
