//! The one SM4/SM5 opcode table. Decoding, printing, the assembler, `info`
//! statistics and later the emulator and emitter all look instructions up here
//! instead of keeping their own per-opcode `match`es.
//!
//! Numbers and mnemonics follow `d3d11TokenizedProgramFormat.hpp`
//! (`D3D10_SB_OPCODE_TYPE` / `D3D11_SB_OPCODE_TYPE`) and fxc's spelling.

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

/// How an immediate operand is printed; one letter per operand position in
/// [`OpInfo::imm`] (the last letter repeats for the remaining operands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImmKind {
    /// `f`: always as a float.
    Float,
    /// `i`: signed integer (hex when large).
    Int,
    /// `u`: unsigned integer (hex when large).
    Uint,
    /// `x`: typeless: float when the bits look like a normal float, otherwise integer.
    Untyped,
    /// `d`: double.
    Double,
}

impl ImmKind {
    fn from_letter(c: u8) -> ImmKind {
        match c {
            b'f' => ImmKind::Float,
            b'i' => ImmKind::Int,
            b'u' => ImmKind::Uint,
            b'd' => ImmKind::Double,
            _ => ImmKind::Untyped,
        }
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
    pub code: u16,
    pub name: &'static str,
    pub class: Class,
    /// Number of destination operands (the first operands).
    pub dst: u8,
    /// Number of source operands after the destinations.
    pub src: u8,
    /// Immediate print kinds by operand position (see [`ImmKind`]).
    pub imm: &'static str,
    pub layout: Layout,
    pub block: Block,
    /// Takes `_z`/`_nz` (test-boolean) from the opcode token.
    pub test: bool,
    /// Can carry `_sat`.
    pub sat: bool,
}

impl OpInfo {
    pub fn imm_kind(&self, operand: usize) -> ImmKind {
        let b = self.imm.as_bytes();
        if b.is_empty() {
            return ImmKind::Untyped;
        }
        ImmKind::from_letter(b[operand.min(b.len() - 1)])
    }

    pub fn is_decl(&self) -> bool {
        self.class == Class::Decl
    }

    pub fn operand_count(&self) -> usize {
        self.dst as usize + self.src as usize
    }
}

/// Opcode numbers that the decoder and printer single out.
pub mod code {
    pub const BREAK: u16 = 2;
    pub const BREAKC: u16 = 3;
    pub const CALL: u16 = 4;
    pub const CALLC: u16 = 5;
    pub const CASE: u16 = 6;
    pub const CONTINUE: u16 = 7;
    pub const CONTINUEC: u16 = 8;
    pub const DEFAULT: u16 = 10;
    pub const DISCARD: u16 = 13;
    pub const ELSE: u16 = 18;
    pub const ENDIF: u16 = 21;
    pub const ENDLOOP: u16 = 22;
    pub const ENDSWITCH: u16 = 23;
    pub const IF: u16 = 31;
    pub const LABEL: u16 = 44;
    pub const LD: u16 = 45;
    pub const LD_MS: u16 = 46;
    pub const LOOP: u16 = 48;
    pub const CUSTOMDATA: u16 = 53;
    pub const RESINFO: u16 = 61;
    pub const RET: u16 = 62;
    pub const RETC: u16 = 63;
    pub const SAMPLE: u16 = 69;
    pub const SAMPLE_C: u16 = 70;
    pub const SAMPLE_C_LZ: u16 = 71;
    pub const SAMPLE_L: u16 = 72;
    pub const SAMPLE_D: u16 = 73;
    pub const SAMPLE_B: u16 = 74;
    pub const SWITCH: u16 = 76;
    pub const DCL_RESOURCE: u16 = 88;
    pub const DCL_CONSTANT_BUFFER: u16 = 89;
    pub const DCL_SAMPLER: u16 = 90;
    pub const DCL_INDEX_RANGE: u16 = 91;
    pub const DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY: u16 = 92;
    pub const DCL_GS_INPUT_PRIMITIVE: u16 = 93;
    pub const DCL_MAX_OUTPUT_VERTEX_COUNT: u16 = 94;
    pub const DCL_INPUT: u16 = 95;
    pub const DCL_INPUT_SGV: u16 = 96;
    pub const DCL_INPUT_SIV: u16 = 97;
    pub const DCL_INPUT_PS: u16 = 98;
    pub const DCL_INPUT_PS_SGV: u16 = 99;
    pub const DCL_INPUT_PS_SIV: u16 = 100;
    pub const DCL_OUTPUT: u16 = 101;
    pub const DCL_OUTPUT_SGV: u16 = 102;
    pub const DCL_OUTPUT_SIV: u16 = 103;
    pub const DCL_TEMPS: u16 = 104;
    pub const DCL_INDEXABLE_TEMP: u16 = 105;
    pub const DCL_GLOBAL_FLAGS: u16 = 106;
    pub const LOD: u16 = 108;
    pub const GATHER4: u16 = 109;
    pub const SAMPLE_POS: u16 = 110;
    pub const SAMPLE_INFO: u16 = 111;
    pub const HS_DECLS: u16 = 113;
    pub const HS_CONTROL_POINT_PHASE: u16 = 114;
    pub const HS_FORK_PHASE: u16 = 115;
    pub const HS_JOIN_PHASE: u16 = 116;
    pub const INTERFACE_CALL: u16 = 120;
    pub const BUFINFO: u16 = 121;
    pub const GATHER4_C: u16 = 126;
    pub const GATHER4_PO: u16 = 127;
    pub const GATHER4_PO_C: u16 = 128;
    pub const DCL_STREAM: u16 = 143;
    pub const DCL_FUNCTION_BODY: u16 = 144;
    pub const DCL_FUNCTION_TABLE: u16 = 145;
    pub const DCL_INTERFACE: u16 = 146;
    pub const DCL_INPUT_CONTROL_POINT_COUNT: u16 = 147;
    pub const DCL_OUTPUT_CONTROL_POINT_COUNT: u16 = 148;
    pub const DCL_TESS_DOMAIN: u16 = 149;
    pub const DCL_TESS_PARTITIONING: u16 = 150;
    pub const DCL_TESS_OUTPUT_PRIMITIVE: u16 = 151;
    pub const DCL_HS_MAX_TESSFACTOR: u16 = 152;
    pub const DCL_HS_FORK_PHASE_INSTANCE_COUNT: u16 = 153;
    pub const DCL_HS_JOIN_PHASE_INSTANCE_COUNT: u16 = 154;
    pub const DCL_THREAD_GROUP: u16 = 155;
    pub const DCL_UAV_TYPED: u16 = 156;
    pub const DCL_UAV_RAW: u16 = 157;
    pub const DCL_UAV_STRUCTURED: u16 = 158;
    pub const DCL_TGSM_RAW: u16 = 159;
    pub const DCL_TGSM_STRUCTURED: u16 = 160;
    pub const DCL_RESOURCE_RAW: u16 = 161;
    pub const DCL_RESOURCE_STRUCTURED: u16 = 162;
    pub const SYNC: u16 = 190;
    pub const DCL_GS_INSTANCE_COUNT: u16 = 206;
}

use Block::{Close as C, Middle as M, None as N, Open as O};
use Class::*;
use Layout::{CustomData as CD, Decl as DL, Operands as OP};

macro_rules! table {
    ($( $code:literal $name:literal $class:ident $dst:literal $src:literal $imm:literal $layout:ident $block:ident $flags:literal ;)*) => {
        /// Every opcode, sorted by number.
        pub static OPCODES: &[OpInfo] = &[
            $( OpInfo {
                code: $code,
                name: $name,
                class: $class,
                dst: $dst,
                src: $src,
                imm: $imm,
                layout: $layout,
                block: $block,
                test: $flags.as_bytes().len() > 0 && $flags.as_bytes()[0] == b't',
                sat: $flags.as_bytes().len() > 0 && $flags.as_bytes()[0] == b's',
            }, )*
        ];
    };
}

// Columns: number, mnemonic, class, destinations, sources, immediate kinds,
// layout, block role, flags ("s": takes _sat, "t": takes _z/_nz).
table! {
    0 "add" Float 1 2 "f" OP N "s";
    1 "and" Uint 1 2 "u" OP N "";
    2 "break" Flow 0 0 "" OP N "";
    3 "breakc" Flow 0 1 "x" OP N "t";
    4 "call" Flow 0 1 "" OP N "";
    5 "callc" Flow 0 2 "x" OP N "t";
    6 "case" Flow 0 1 "u" OP N "";
    7 "continue" Flow 0 0 "" OP N "";
    8 "continuec" Flow 0 1 "x" OP N "t";
    9 "cut" Stream 0 0 "" OP N "";
    10 "default" Flow 0 0 "" OP N "";
    11 "deriv_rtx" Float 1 1 "f" OP N "s";
    12 "deriv_rty" Float 1 1 "f" OP N "s";
    13 "discard" Flow 0 1 "x" OP N "t";
    14 "div" Float 1 2 "f" OP N "s";
    15 "dp2" Float 1 2 "f" OP N "s";
    16 "dp3" Float 1 2 "f" OP N "s";
    17 "dp4" Float 1 2 "f" OP N "s";
    18 "else" Flow 0 0 "" OP M "";
    19 "emit" Stream 0 0 "" OP N "";
    20 "emit_then_cut" Stream 0 0 "" OP N "";
    21 "endif" Flow 0 0 "" OP C "";
    22 "endloop" Flow 0 0 "" OP C "";
    23 "endswitch" Flow 0 0 "" OP C "";
    24 "eq" Float 1 2 "f" OP N "";
    25 "exp" Float 1 1 "f" OP N "s";
    26 "frc" Float 1 1 "f" OP N "s";
    27 "ftoi" Convert 1 1 "f" OP N "";
    28 "ftou" Convert 1 1 "f" OP N "";
    29 "ge" Float 1 2 "f" OP N "";
    30 "iadd" Int 1 2 "i" OP N "";
    31 "if" Flow 0 1 "x" OP O "t";
    32 "ieq" Int 1 2 "i" OP N "";
    33 "ige" Int 1 2 "i" OP N "";
    34 "ilt" Int 1 2 "i" OP N "";
    35 "imad" Int 1 3 "i" OP N "";
    36 "imax" Int 1 2 "i" OP N "";
    37 "imin" Int 1 2 "i" OP N "";
    38 "imul" Int 2 2 "i" OP N "";
    39 "ine" Int 1 2 "i" OP N "";
    40 "ineg" Int 1 1 "i" OP N "";
    41 "ishl" Int 1 2 "i" OP N "";
    42 "ishr" Int 1 2 "i" OP N "";
    43 "itof" Convert 1 1 "i" OP N "";
    44 "label" Flow 0 1 "" OP N "";
    45 "ld" Texture 1 2 "i" OP N "";
    46 "ldms" Texture 1 3 "i" OP N "";
    47 "log" Float 1 1 "f" OP N "s";
    48 "loop" Flow 0 0 "" OP O "";
    49 "lt" Float 1 2 "f" OP N "";
    50 "mad" Float 1 3 "f" OP N "s";
    51 "min" Float 1 2 "f" OP N "s";
    52 "max" Float 1 2 "f" OP N "s";
    53 "customdata" Other 0 0 "" CD N "";
    54 "mov" Move 1 1 "x" OP N "s";
    55 "movc" Move 1 3 "x" OP N "s";
    56 "mul" Float 1 2 "f" OP N "s";
    57 "ne" Float 1 2 "f" OP N "";
    58 "nop" Other 0 0 "" OP N "";
    59 "not" Uint 1 1 "u" OP N "";
    60 "or" Uint 1 2 "u" OP N "";
    61 "resinfo" Texture 1 2 "u" OP N "";
    62 "ret" Flow 0 0 "" OP N "";
    63 "retc" Flow 0 1 "x" OP N "t";
    64 "round_ne" Float 1 1 "f" OP N "s";
    65 "round_ni" Float 1 1 "f" OP N "s";
    66 "round_pi" Float 1 1 "f" OP N "s";
    67 "round_z" Float 1 1 "f" OP N "s";
    68 "rsq" Float 1 1 "f" OP N "s";
    69 "sample" Texture 1 3 "f" OP N "";
    70 "sample_c" Texture 1 4 "f" OP N "";
    71 "sample_c_lz" Texture 1 4 "f" OP N "";
    72 "sample_l" Texture 1 4 "f" OP N "";
    73 "sample_d" Texture 1 5 "f" OP N "";
    74 "sample_b" Texture 1 4 "f" OP N "";
    75 "sqrt" Float 1 1 "f" OP N "s";
    76 "switch" Flow 0 1 "x" OP O "";
    77 "sincos" Float 2 1 "f" OP N "s";
    78 "udiv" Uint 2 2 "u" OP N "";
    79 "ult" Uint 1 2 "u" OP N "";
    80 "uge" Uint 1 2 "u" OP N "";
    81 "umul" Uint 2 2 "u" OP N "";
    82 "umad" Uint 1 3 "u" OP N "";
    83 "umax" Uint 1 2 "u" OP N "";
    84 "umin" Uint 1 2 "u" OP N "";
    85 "ushr" Uint 1 2 "u" OP N "";
    86 "utof" Convert 1 1 "u" OP N "";
    87 "xor" Uint 1 2 "u" OP N "";
    88 "dcl_resource" Decl 0 1 "" DL N "";
    89 "dcl_constantbuffer" Decl 0 1 "" DL N "";
    90 "dcl_sampler" Decl 0 1 "" DL N "";
    91 "dcl_indexrange" Decl 0 1 "" DL N "";
    92 "dcl_outputtopology" Decl 0 0 "" DL N "";
    93 "dcl_inputprimitive" Decl 0 0 "" DL N "";
    94 "dcl_maxout" Decl 0 0 "" DL N "";
    95 "dcl_input" Decl 0 1 "" DL N "";
    96 "dcl_input_sgv" Decl 0 1 "" DL N "";
    97 "dcl_input_siv" Decl 0 1 "" DL N "";
    98 "dcl_input_ps" Decl 0 1 "" DL N "";
    99 "dcl_input_ps_sgv" Decl 0 1 "" DL N "";
    100 "dcl_input_ps_siv" Decl 0 1 "" DL N "";
    101 "dcl_output" Decl 0 1 "" DL N "";
    102 "dcl_output_sgv" Decl 0 1 "" DL N "";
    103 "dcl_output_siv" Decl 0 1 "" DL N "";
    104 "dcl_temps" Decl 0 0 "" DL N "";
    105 "dcl_indexableTemp" Decl 0 0 "" DL N "";
    106 "dcl_globalFlags" Decl 0 0 "" DL N "";
    107 "reserved0" Other 0 0 "" OP N "";
    108 "lod" Texture 1 3 "f" OP N "";
    109 "gather4" Texture 1 3 "f" OP N "";
    110 "samplepos" Texture 1 2 "u" OP N "";
    111 "sampleinfo" Texture 1 1 "u" OP N "";
    112 "reserved1" Other 0 0 "" OP N "";
    113 "hs_decls" Decl 0 0 "" OP N "";
    114 "hs_control_point_phase" Decl 0 0 "" OP N "";
    115 "hs_fork_phase" Decl 0 0 "" OP N "";
    116 "hs_join_phase" Decl 0 0 "" OP N "";
    117 "emit_stream" Stream 0 1 "" OP N "";
    118 "cut_stream" Stream 0 1 "" OP N "";
    119 "emit_then_cut_stream" Stream 0 1 "" OP N "";
    120 "fcall" Flow 0 1 "" DL N "";
    121 "bufinfo" Texture 1 1 "u" OP N "";
    122 "deriv_rtx_coarse" Float 1 1 "f" OP N "s";
    123 "deriv_rtx_fine" Float 1 1 "f" OP N "s";
    124 "deriv_rty_coarse" Float 1 1 "f" OP N "s";
    125 "deriv_rty_fine" Float 1 1 "f" OP N "s";
    126 "gather4_c" Texture 1 4 "f" OP N "";
    127 "gather4_po" Texture 1 4 "ffif" OP N "";
    128 "gather4_po_c" Texture 1 5 "ffiff" OP N "";
    129 "rcp" Float 1 1 "f" OP N "s";
    130 "f32tof16" Convert 1 1 "f" OP N "";
    131 "f16tof32" Convert 1 1 "u" OP N "";
    132 "uaddc" Uint 2 2 "u" OP N "";
    133 "usubb" Uint 2 2 "u" OP N "";
    134 "countbits" Uint 1 1 "u" OP N "";
    135 "firstbit_hi" Uint 1 1 "u" OP N "";
    136 "firstbit_lo" Uint 1 1 "u" OP N "";
    137 "firstbit_shi" Int 1 1 "i" OP N "";
    138 "ubfe" Uint 1 3 "u" OP N "";
    139 "ibfe" Int 1 3 "uuui" OP N "";
    140 "bfi" Uint 1 4 "u" OP N "";
    141 "bfrev" Uint 1 1 "u" OP N "";
    142 "swapc" Move 2 3 "x" OP N "";
    143 "dcl_stream" Decl 0 1 "" DL N "";
    144 "dcl_function_body" Decl 0 0 "" DL N "";
    145 "dcl_function_table" Decl 0 0 "" DL N "";
    146 "dcl_interface" Decl 0 0 "" DL N "";
    147 "dcl_input_control_point_count" Decl 0 0 "" DL N "";
    148 "dcl_output_control_point_count" Decl 0 0 "" DL N "";
    149 "dcl_tessellator_domain" Decl 0 0 "" DL N "";
    150 "dcl_tessellator_partitioning" Decl 0 0 "" DL N "";
    151 "dcl_tessellator_output_primitive" Decl 0 0 "" DL N "";
    152 "dcl_hs_max_tessfactor" Decl 0 1 "f" DL N "";
    153 "dcl_hs_fork_phase_instance_count" Decl 0 0 "" DL N "";
    154 "dcl_hs_join_phase_instance_count" Decl 0 0 "" DL N "";
    155 "dcl_thread_group" Decl 0 0 "" DL N "";
    156 "dcl_uav_typed" Decl 0 1 "" DL N "";
    157 "dcl_uav_raw" Decl 0 1 "" DL N "";
    158 "dcl_uav_structured" Decl 0 1 "" DL N "";
    159 "dcl_tgsm_raw" Decl 0 1 "" DL N "";
    160 "dcl_tgsm_structured" Decl 0 1 "" DL N "";
    161 "dcl_resource_raw" Decl 0 1 "" DL N "";
    162 "dcl_resource_structured" Decl 0 1 "" DL N "";
    163 "ld_uav_typed" Memory 1 2 "u" OP N "";
    164 "store_uav_typed" Memory 1 2 "ux" OP N "";
    165 "ld_raw" Memory 1 2 "u" OP N "";
    166 "store_raw" Memory 1 2 "uux" OP N "";
    167 "ld_structured" Memory 1 3 "u" OP N "";
    168 "store_structured" Memory 1 3 "uuux" OP N "";
    169 "atomic_and" Memory 1 2 "u" OP N "";
    170 "atomic_or" Memory 1 2 "u" OP N "";
    171 "atomic_xor" Memory 1 2 "u" OP N "";
    172 "atomic_cmp_store" Memory 1 3 "u" OP N "";
    173 "atomic_iadd" Memory 1 2 "uui" OP N "";
    174 "atomic_imax" Memory 1 2 "uui" OP N "";
    175 "atomic_imin" Memory 1 2 "uui" OP N "";
    176 "atomic_umax" Memory 1 2 "u" OP N "";
    177 "atomic_umin" Memory 1 2 "u" OP N "";
    178 "imm_atomic_alloc" Memory 2 0 "u" OP N "";
    179 "imm_atomic_consume" Memory 2 0 "u" OP N "";
    180 "imm_atomic_iadd" Memory 2 2 "uuui" OP N "";
    181 "imm_atomic_and" Memory 2 2 "u" OP N "";
    182 "imm_atomic_or" Memory 2 2 "u" OP N "";
    183 "imm_atomic_xor" Memory 2 2 "u" OP N "";
    184 "imm_atomic_exch" Memory 2 2 "uuux" OP N "";
    185 "imm_atomic_cmp_exch" Memory 2 3 "uuuxx" OP N "";
    186 "imm_atomic_imax" Memory 2 2 "uuui" OP N "";
    187 "imm_atomic_imin" Memory 2 2 "uuui" OP N "";
    188 "imm_atomic_umax" Memory 2 2 "u" OP N "";
    189 "imm_atomic_umin" Memory 2 2 "u" OP N "";
    190 "sync" Memory 0 0 "" OP N "";
    191 "dadd" Double 1 2 "d" OP N "s";
    192 "dmax" Double 1 2 "d" OP N "s";
    193 "dmin" Double 1 2 "d" OP N "s";
    194 "dmul" Double 1 2 "d" OP N "s";
    195 "deq" Double 1 2 "d" OP N "";
    196 "dge" Double 1 2 "d" OP N "";
    197 "dlt" Double 1 2 "d" OP N "";
    198 "dne" Double 1 2 "d" OP N "";
    199 "dmov" Double 1 1 "d" OP N "s";
    200 "dmovc" Double 1 3 "xxdd" OP N "s";
    201 "dtof" Double 1 1 "d" OP N "";
    202 "ftod" Double 1 1 "f" OP N "";
    203 "eval_snapped" Float 1 2 "fi" OP N "";
    204 "eval_sample_index" Float 1 2 "fi" OP N "";
    205 "eval_centroid" Float 1 1 "f" OP N "";
    206 "dcl_gsinstances" Decl 0 0 "" DL N "";
    207 "abort" Other 0 0 "" OP N "";
    208 "debug_break" Other 0 0 "" OP N "";
    209 "reserved_11" Other 0 0 "" OP N "";
    210 "ddiv" Double 1 2 "d" OP N "s";
    211 "dfma" Double 1 3 "d" OP N "s";
    212 "drcp" Double 1 1 "d" OP N "s";
    213 "msad" Uint 1 3 "u" OP N "";
    214 "dtoi" Double 1 1 "d" OP N "";
    215 "dtou" Double 1 1 "d" OP N "";
    216 "itod" Double 1 1 "i" OP N "";
    217 "utod" Double 1 1 "u" OP N "";
    218 "reserved_11_1" Other 0 0 "" OP N "";
    219 "gather4_s" Texture 2 3 "f" OP N "";
    220 "gather4_c_s" Texture 2 4 "f" OP N "";
    221 "gather4_po_s" Texture 2 4 "fffif" OP N "";
    222 "gather4_po_c_s" Texture 2 5 "fffiff" OP N "";
    223 "ld_s" Texture 2 2 "i" OP N "";
    224 "ldms_s" Texture 2 3 "i" OP N "";
    225 "ld_uav_typed_s" Memory 2 2 "u" OP N "";
    226 "ld_raw_s" Memory 2 2 "u" OP N "";
    227 "ld_structured_s" Memory 2 3 "u" OP N "";
    228 "sample_l_s" Texture 2 4 "f" OP N "";
    229 "sample_c_lz_s" Texture 2 4 "f" OP N "";
    230 "sample_cl_s" Texture 2 4 "f" OP N "";
    231 "sample_b_cl_s" Texture 2 5 "f" OP N "";
    232 "sample_d_cl_s" Texture 2 6 "f" OP N "";
    233 "sample_c_cl_s" Texture 2 5 "f" OP N "";
    234 "check_access_fully_mapped" Uint 1 1 "u" OP N "";
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
    fn table_is_dense_and_sorted() {
        for (i, op) in OPCODES.iter().enumerate() {
            assert_eq!(op.code as usize, i, "{} out of place", op.name);
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
    fn imm_kinds_repeat_last_letter() {
        let op = lookup(127).unwrap();
        assert_eq!(op.imm_kind(2), ImmKind::Int);
        assert_eq!(op.imm_kind(3), ImmKind::Float);
        assert_eq!(op.imm_kind(9), ImmKind::Float);
    }
}
