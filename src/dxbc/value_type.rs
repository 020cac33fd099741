//! The type a register component holds. Registers are typeless 32-bit
//! words; what a word means is decided by the instruction that wrote it.
//! Tools that show register values (the step debugger, `trace`) read a
//! component by the type its last writer gave it, so a loop counter of -5
//! reads as -5 and not as a NaN, and a comparison's all-ones as `true`.
//!
//! The rule (`docs/debugger.md`, "Typed values"), by the instruction:
//!
//! * arithmetic, conversions, bit operations: the result type of the
//!   opcode table ([`OpInfo::result_type`](super::opcodes::OpInfo::result_type),
//!   the one `bisect` compares by): float, int, uint, or a double's halves;
//! * comparisons ([`Op::is_comparison`]): a mask;
//! * `and` with a mask: the other source's type (the mask keeps that value
//!   or clears it, as fxc turns a condition into 1.0 with
//!   `and r0.x, r0.x, l(0x3f800000)`); `or`/`xor` of two masks and `not`
//!   of one: a mask; otherwise uint;
//! * moves (`mov`, `movc`, `swapc`): the type of what they moved, per
//!   component and, for the selects, per lane the source the condition
//!   chose; a source modifier or `_sat` is float arithmetic, so float;
//! * texture fetches: the resource's declared return type (unorm, snorm
//!   and float read as float); comparison fetches, `lod`, `samplepos`:
//!   float; `resinfo` and `sampleinfo` float or, in their `_uint` forms,
//!   uint; `bufinfo` and a tiled-resource status: uint; a typed UAV load:
//!   the UAV's declared return type; raw and structured loads: unknown
//!   (the words carry no type);
//! * atomics returning the old value: int for the signed operations
//!   (`iadd`, `imax`, `imin`), uint for the rest; counters: uint.
//!
//! What a move carries from its source: a register's current type; an
//! input's component type from the signature; an immediate (or an
//! immediate constant buffer entry) the type the listing prints it as (a
//! float when the bits read as one, else an integer), except zero, which
//! is 0 and 0.0 alike: unknown; a constant buffer word: unknown. Unknown
//! is shown as float.

use std::collections::BTreeMap;

use super::Shader;
use super::enums::{ComponentType, ResInfoReturn, ReturnType, SampleInfoReturn};
use super::ir::{DeclKind, Instruction, Modifier, Operand, OperandType, Selection};
use super::numfmt;
use super::opcodes::{AtomicOp, FeedbackForm, NumType, Op};
use super::signature::SignatureKind;

/// How a register component is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueType {
    Float,
    Int,
    Uint,
    /// A comparison's result: all ones (true) or zero (false).
    Mask,
    /// One half of a 64-bit float (`.xy` or `.zw` hold one double).
    Double,
}

impl ValueType {
    pub fn name(self) -> &'static str {
        match self {
            ValueType::Float => "float",
            ValueType::Int => "int",
            ValueType::Uint => "uint",
            ValueType::Mask => "mask",
            ValueType::Double => "double",
        }
    }

    /// The opcode table's number type; typeless bits have none.
    pub fn of_num(t: NumType) -> Option<ValueType> {
        match t {
            NumType::Float => Some(ValueType::Float),
            NumType::Int => Some(ValueType::Int),
            NumType::Uint => Some(ValueType::Uint),
            NumType::Double => Some(ValueType::Double),
            NumType::Untyped => None,
        }
    }

    /// A typeless immediate as the listing prints it
    /// ([`numfmt::looks_like_float`]): what the reader sees written in the
    /// program is what the register shows. Zero bits are 0 and 0.0
    /// alike (fxc writes `l(0, 0, 0, 0)` for float zeros too): no type.
    pub fn of_immediate(bits: u32) -> Option<ValueType> {
        if bits == 0 {
            None
        } else if numfmt::looks_like_float(bits) {
            Some(ValueType::Float)
        } else {
            Some(ValueType::Int)
        }
    }

    /// A resource's declared return type.
    fn of_return(t: ReturnType) -> Option<ValueType> {
        match t {
            ReturnType::Unorm | ReturnType::Snorm | ReturnType::Float => Some(ValueType::Float),
            ReturnType::Sint => Some(ValueType::Int),
            ReturnType::Uint => Some(ValueType::Uint),
            ReturnType::Double => Some(ValueType::Double),
            _ => None,
        }
    }

    /// A signature element's component type.
    fn of_component(t: ComponentType) -> ValueType {
        match t {
            ComponentType::Uint32 => ValueType::Uint,
            ComponentType::Sint32 => ValueType::Int,
            _ => ValueType::Float,
        }
    }
}

/// Where the type of a component an instruction writes comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// The instruction gives it.
    Type(ValueType),
    /// Nothing says (raw and structured loads, typeless resources).
    Unknown,
    /// What source operand `operand` carries ([`Typing::source`]) at the
    /// component its selection puts there ([`selected`]).
    Moved { operand: usize },
    /// A select: per lane and component, what `if_set` carries where the
    /// condition operand's component is non-zero, else what `if_clear`
    /// carries.
    Chosen {
        condition: usize,
        if_set: usize,
        if_clear: usize,
    },
    /// `and` of operands `a` and `b`: see [`and_type`].
    And { a: usize, b: usize },
    /// `or`, `xor`, `not` of the operands `first..first + count`: see
    /// [`bits_type`].
    Bits { first: usize, count: usize },
}

/// What a source operand carries into a move's destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carried {
    Type(ValueType),
    /// The type the register read holds now (the caller tracks it).
    Register,
    Unknown,
}

/// `and`: a mask in one source keeps the other source's value or clears
/// it, so the result has the other's type (two masks: a mask; an unknown
/// other: unknown); without a mask, uint.
pub fn and_type(a: Option<ValueType>, b: Option<ValueType>) -> Option<ValueType> {
    match (a, b) {
        (Some(ValueType::Mask), other) | (other, Some(ValueType::Mask)) => other,
        _ => Some(ValueType::Uint),
    }
}

/// `or`, `xor`, `not`: masks stay masks; anything else is uint bits.
pub fn bits_type(sources: impl IntoIterator<Item = Option<ValueType>>) -> ValueType {
    if sources.into_iter().all(|t| t == Some(ValueType::Mask)) {
        ValueType::Mask
    } else {
        ValueType::Uint
    }
}

/// The source component a destination component `c` reads through the
/// operand's selection (a swizzle, a single component, or the same one).
pub fn selected(op: &Operand, c: usize) -> usize {
    match op.selection {
        Selection::Swizzle(s) => s[c & 3] as usize & 3,
        Selection::Select1(x) => x as usize & 3,
        _ => c & 3,
    }
}

/// What the program declares about types: the inputs' component types
/// (from the input signature) and the return types of the textures and
/// typed UAVs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Typing {
    inputs: BTreeMap<u32, [ValueType; 4]>,
    textures: BTreeMap<u32, ValueType>,
    uavs: BTreeMap<u32, ValueType>,
}

impl Typing {
    pub fn of(shader: &Shader) -> Typing {
        let mut t = Typing::default();
        for e in shader.elements(SignatureKind::Input).unwrap_or_default() {
            // System values without a `v#` register (`SV_Depth`, …).
            if e.register == u32::MAX {
                continue;
            }
            let types = t.inputs.entry(e.register).or_insert([ValueType::Float; 4]);
            for (c, slot) in types.iter_mut().enumerate() {
                if e.mask & (1 << c) != 0 {
                    *slot = ValueType::of_component(e.component_type());
                }
            }
        }
        for inst in &shader.program.instructions {
            let map = match inst.op {
                Op::DclResource => &mut t.textures,
                Op::DclUavTyped => &mut t.uavs,
                _ => continue,
            };
            if let (DeclKind::ReturnTypes(types), Some(slot)) =
                (&inst.decl, inst.operands.first().and_then(Operand::reg))
                && let Some(ty) = ValueType::of_return(types[0])
            {
                map.insert(slot, ty);
            }
        }
        t
    }

    /// Input register `v{reg}`'s component `c`: its signature's type
    /// (float where no signature element covers it).
    pub fn input(&self, reg: u32, c: usize) -> ValueType {
        self.inputs.get(&reg).map_or(ValueType::Float, |t| t[c & 3])
    }

    /// The type destination `dst` (0 or 1) of `inst` is given.
    pub fn given(&self, inst: &Instruction, dst: usize) -> Given {
        let op = inst.op;
        let feedback = op.feedback_form();
        if feedback.is_some() && dst == FeedbackForm::STATUS {
            return Given::Type(ValueType::Uint);
        }
        if op.is_comparison() {
            return Given::Type(ValueType::Mask);
        }
        // A `_s` form's operands after the first destination move one
        // place along for the status.
        let shift = usize::from(feedback.is_some());
        let plain = feedback.map_or(op, |f| f.plain);
        let float = Given::Type(ValueType::Float);
        let declared = |map: &BTreeMap<u32, ValueType>, operand: usize| {
            inst.operands
                .get(operand + shift)
                .and_then(Operand::reg)
                .and_then(|slot| map.get(&slot))
                .map_or(Given::Unknown, |t| Given::Type(*t))
        };
        match plain {
            Op::Mov | Op::Movc if inst.saturate() => float,
            Op::Mov => Given::Moved { operand: 1 },
            Op::Movc => Given::Chosen {
                condition: 1,
                if_set: 2,
                if_clear: 3,
            },
            // dst0 = cond ? src1 : src0, dst1 = cond ? src0 : src1.
            Op::Swapc => Given::Chosen {
                condition: 2,
                if_set: if dst == 0 { 4 } else { 3 },
                if_clear: if dst == 0 { 3 } else { 4 },
            },
            Op::And => Given::And { a: 1, b: 2 },
            Op::Or | Op::Xor => Given::Bits { first: 1, count: 2 },
            Op::Not => Given::Bits { first: 1, count: 1 },
            Op::Resinfo => match inst.resinfo_return() {
                Some(ResInfoReturn::Uint) => Given::Type(ValueType::Uint),
                _ => float,
            },
            Op::SampleInfo => match inst.sampleinfo_return() {
                Some(SampleInfoReturn::Uint) => Given::Type(ValueType::Uint),
                _ => float,
            },
            Op::Bufinfo | Op::ImmAtomicAlloc | Op::ImmAtomicConsume => Given::Type(ValueType::Uint),
            Op::SamplePos
            | Op::Lod
            | Op::SampleC
            | Op::SampleCLz
            | Op::Gather4C
            | Op::Gather4PoC => float,
            Op::LdUavTyped => declared(&self.uavs, 2),
            Op::LdRaw | Op::LdStructured => Given::Unknown,
            _ => {
                if let Some(t) = plain.texture_operands() {
                    return declared(&self.textures, t.resource);
                }
                if let Some(a) = plain.atomic() {
                    return Given::Type(match a.op {
                        AtomicOp::Add | AtomicOp::Imax | AtomicOp::Imin => ValueType::Int,
                        _ => ValueType::Uint,
                    });
                }
                inst.info()
                    .result_type()
                    .and_then(ValueType::of_num)
                    .map_or(Given::Unknown, Given::Type)
            }
        }
    }

    /// What source `op` carries into a move: `component` is the source
    /// component read ([`selected`]), `bits` its value.
    pub fn source(&self, op: &Operand, component: usize, bits: u32) -> Carried {
        if op.modifier != Modifier::None {
            return Carried::Type(ValueType::Float);
        }
        match op.ty {
            OperandType::TEMP
            | OperandType::OUTPUT
            | OperandType::INDEXABLE_TEMP
            | OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_COVERAGE_MASK => Carried::Register,
            OperandType::INPUT => match (op.indices.len(), op.reg()) {
                (1, Some(reg)) => Carried::Type(self.input(reg, component)),
                _ => Carried::Unknown,
            },
            OperandType::IMMEDIATE32 | OperandType::IMMEDIATE_CONSTANT_BUFFER => {
                ValueType::of_immediate(bits).map_or(Carried::Unknown, Carried::Type)
            }
            OperandType::INPUT_PRIMITIVEID
            | OperandType::INPUT_COVERAGE_MASK
            | OperandType::INPUT_FORK_INSTANCE_ID
            | OperandType::INPUT_JOIN_INSTANCE_ID
            | OperandType::INPUT_THREAD_ID
            | OperandType::INPUT_THREAD_GROUP_ID
            | OperandType::INPUT_THREAD_ID_IN_GROUP
            | OperandType::INPUT_THREAD_ID_IN_GROUP_FLATTENED
            | OperandType::INPUT_GS_INSTANCE_ID => Carried::Type(ValueType::Uint),
            OperandType::INPUT_DOMAIN_POINT => Carried::Type(ValueType::Float),
            _ => Carried::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shader(body: &str) -> Shader {
        let bytes = crate::dxbc::asm::assemble(body).expect("assembles");
        Shader::parse(&bytes, Default::default()).expect("parses")
    }

    const HEAD: &str = "ps_5_0\n\
        dcl_resource_texture2d (uint,uint,uint,uint) t0\n\
        dcl_resource_texture2d (float,float,float,float) t1\n\
        dcl_sampler s0, mode_default\n\
        dcl_input_ps_siv linear noperspective v0.xy, position\n\
        dcl_output o0.xyzw\n\
        dcl_temps 2\n";

    fn given(line: &str, dst: usize) -> Given {
        let s = shader(&format!("{HEAD}{line}\nret\n"));
        let typing = Typing::of(&s);
        let inst = s
            .program
            .instructions
            .iter()
            .find(|i| !i.info().is_decl())
            .expect("an instruction");
        typing.given(inst, dst)
    }

    #[test]
    fn instructions_give_their_table_type_and_comparisons_masks() {
        let t = |v| Given::Type(v);
        assert_eq!(given("add r0.x, r0.x, r0.y", 0), t(ValueType::Float));
        assert_eq!(given("iadd r0.x, r0.x, l(1)", 0), t(ValueType::Int));
        assert_eq!(given("ushr r0.x, r0.x, l(1)", 0), t(ValueType::Uint));
        assert_eq!(given("ftoi r0.x, r0.x", 0), t(ValueType::Int));
        assert_eq!(given("ilt r0.x, r0.x, l(3)", 0), t(ValueType::Mask));
        assert_eq!(given("ge r0.x, r0.x, l(3.0)", 0), t(ValueType::Mask));
        assert_eq!(given("mov r0.x, r1.y", 0), Given::Moved { operand: 1 });
        assert_eq!(given("mov_sat r0.x, r1.y", 0), t(ValueType::Float));
        assert_eq!(
            given("swapc r0.x, r1.x, r0.y, r0.z, r0.w", 1),
            Given::Chosen {
                condition: 2,
                if_set: 3,
                if_clear: 4
            }
        );
        assert_eq!(given("and r0.x, r0.x, r0.y", 0), Given::And { a: 1, b: 2 });
        assert_eq!(
            given("not r0.x, r0.x", 0),
            Given::Bits { first: 1, count: 1 }
        );
    }

    #[test]
    fn fetches_give_the_resource_s_declared_type() {
        assert_eq!(
            given(
                "ld_indexable(texture2d)(uint,uint,uint,uint) r0.xyzw, l(0, 0, 0, 0), t0.xyzw",
                0
            ),
            Given::Type(ValueType::Uint)
        );
        assert_eq!(
            given(
                "sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t1.xyzw, s0",
                0
            ),
            Given::Type(ValueType::Float)
        );
        assert_eq!(
            given(
                "resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xyzw, l(0), t1.xyzw",
                0
            ),
            Given::Type(ValueType::Uint)
        );
    }

    #[test]
    fn sources_carry_their_types() {
        let s = shader(&format!("{HEAD}ret\n"));
        let typing = Typing::of(&s);
        // SV_Position is a float input.
        assert_eq!(typing.input(0, 1), ValueType::Float);
        // -5 prints as an integer, 2.5 as a float; 0 is either.
        assert_eq!(ValueType::of_immediate(-5i32 as u32), Some(ValueType::Int));
        assert_eq!(
            ValueType::of_immediate(2.5f32.to_bits()),
            Some(ValueType::Float)
        );
        assert_eq!(ValueType::of_immediate(0), None);
        assert_eq!(
            and_type(Some(ValueType::Mask), Some(ValueType::Float)),
            Some(ValueType::Float)
        );
        assert_eq!(
            and_type(Some(ValueType::Int), Some(ValueType::Float)),
            Some(ValueType::Uint)
        );
        assert_eq!(
            bits_type([Some(ValueType::Mask), Some(ValueType::Mask)]),
            ValueType::Mask
        );
        assert_eq!(bits_type([Some(ValueType::Mask), None]), ValueType::Uint);
    }
}
