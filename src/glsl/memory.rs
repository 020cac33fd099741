//! Raw, structured and typed buffers and UAVs (`t#` declared raw or
//! structured, every `u#`) and the instructions that read, write and
//! atomically update them. es300 refuses all of it by name (GLSL ES 3.00
//! has no storage buffers or images); vk450 lowers it.
//!
//! Every buffer view is a std430 block holding one runtime-sized `uint`
//! array, `words`: D3D addresses these views in 32-bit words whatever the
//! element type, and the register file is bits anyway. Addresses are
//! turned into word indices by `dx_raw_word` / `dx_structured_word` (or the
//! element index itself, for a typed R32 buffer), which give
//! `DX_OUT_OF_BOUNDS` for a component past the end, or past the element's
//! stride. Each component is checked on its own, explicitly, as D3D and the
//! emulator (`vm::memory`) do: a read there gives 0 and a write there is
//! dropped, in statements (never a ternary a compiler may turn into a
//! select that loads anyway), so the result never rests on the driver's
//! robustness. A raw address ignores its low two bits, as the emulator's.
//!
//! A typed 2D UAV (`RWTexture2D`) is a storage image, `r32ui`/`r32i`/
//! `r32f` after the declared return type (the declaration names no
//! format; R32 formats are the ones D3D11 loads from a typed UAV without
//! its extended formats, and the ones the cases bind), bounds-checked
//! against `imageSize` on each coordinate. Its atomics are `imageAtomic*`
//! on `r32ui`/`r32i` (`image_atomic`); the manifest marks such an image
//! (`StorageImageEntry::atomics`), since neither of naga's front ends
//! reads image atomics and a runtime must get the shader to the driver
//! another way. D3D11 allows typed UAV atomics only on R32_UINT/R32_SINT,
//! so those on an `r32f` image are refused (`Reason::ImageAtomic`).
//!
//! Typed UAVs of other dimensions (1D, arrays, 3D) are refused
//! (`Reason::UavDimension`). `resinfo` on a typed 2D UAV is lowered in
//! `resinfo`; an instruction that does not fit the view it names (a raw
//! load from a typed UAV, `bufinfo` on a texture, ...) is refused as
//! `Reason::ViewMismatch`, so no vk450 refusal here speaks of ES 3.00.
//!
//! A UAV whose counter is used (`imm_atomic_alloc`/`imm_atomic_consume`)
//! gets a second block of its own, one `uint count`.
//!
//! Typed buffer SRVs (`dcl_resource_buffer`, `Buffer<T>`) are word blocks
//! too, decoded in the shader by the view's format: `typed_srv`.
//!
//! Signed `atomic_imin`/`imax` are compare-and-swap loops: the words are
//! `uint`, and a `uint` atomicMin is the unsigned one.
//!
//! `sync` lowers to nothing in a pixel shader: D3D allows only
//! `sync_uglobal` there, which orders one invocation's own UAV accesses
//! for other invocations; GLSL already keeps an invocation's accesses in
//! program order for itself, and the order between pixels is undefined in
//! D3D anyway (cases never depend on it). The thread-group forms exist only
//! in compute shaders and are refused.

use std::collections::{BTreeMap, BTreeSet};

mod resinfo;
pub mod typed_srv;
pub use resinfo::resinfo;

use super::emit::Emitter;
use super::manifest::{CounterEntry, StorageBufferEntry, StorageImageEntry, StorageLayout};
use super::types::{Ty, mask_components, swizzle};
use super::{Dialect, Reason, names};
use crate::dxbc::enums::{ResourceDimension, ReturnType};
use crate::dxbc::ir::{DeclKind, Instruction, Operand, OperandType};
use crate::dxbc::opcodes::{AtomicOp, Op};
use crate::dxbc::rdef::InputType;

/// How one buffer view is addressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Byte addresses.
    Raw,
    /// Elements of `stride` bytes.
    Structured { stride: u32 },
    /// A typed R32 buffer UAV: one word per element.
    TypedBuffer(ReturnType),
    /// A typed R32 2D texture UAV: a storage image.
    Typed2D(ReturnType),
    /// A typed UAV of another dimension (1D, arrays, 3D): not lowered.
    TypedOther,
}

/// The declared views, by slot, and the UAVs whose counter is used.
#[derive(Debug, Default)]
pub struct Memory {
    pub srvs: BTreeMap<u32, Kind>,
    pub uavs: BTreeMap<u32, Kind>,
    pub counters: BTreeSet<u32>,
    /// vk450: typed buffer SRVs (`dcl_resource_buffer`), by slot, with
    /// their return type (`typed_srv`).
    pub typed_srvs: BTreeMap<u32, ReturnType>,
}

/// Marks a word index past the view (or past the element).
const OUT: &str = "0xffffffffu";

/// Whether [`emit`] lowers `op` (for [`super::support::has_lowering`]).
pub(super) fn lowers(op: Op) -> bool {
    matches!(
        op,
        Op::LdRaw
            | Op::LdStructured
            | Op::LdUavTyped
            | Op::StoreUavTyped
            | Op::StoreRaw
            | Op::StoreStructured
            | Op::Sync
            | Op::ImmAtomicAlloc
            | Op::ImmAtomicConsume
    ) || op.atomic().is_some()
}

/// Whether [`declare`] lowers `op`.
pub(super) fn declares(op: Op) -> bool {
    matches!(
        op,
        Op::DclResourceRaw
            | Op::DclResourceStructured
            | Op::DclUavRaw
            | Op::DclUavStructured
            | Op::DclUavTyped
    )
}

/// The declared views and used counters, before the walk.
pub fn scan(e: &mut Emitter) {
    let mut m = Memory::default();
    for inst in &e.program.instructions {
        let Some(slot) = inst.operands.first().and_then(Operand::reg) else {
            continue;
        };
        let stride = || match inst.decl {
            DeclKind::Count(s) => s,
            _ => 4,
        };
        let rt = match inst.decl {
            DeclKind::ReturnTypes(r) => r[0],
            _ => ReturnType::Uint,
        };
        match inst.op {
            Op::DclResourceRaw => {
                m.srvs.insert(slot, Kind::Raw);
            }
            Op::DclResourceStructured => {
                m.srvs.insert(slot, Kind::Structured { stride: stride() });
            }
            Op::DclUavRaw => {
                m.uavs.insert(slot, Kind::Raw);
            }
            Op::DclUavStructured => {
                m.uavs.insert(slot, Kind::Structured { stride: stride() });
            }
            Op::DclUavTyped => {
                let kind = match inst.resource_dimension() {
                    Some(ResourceDimension::Buffer) => Kind::TypedBuffer(rt),
                    Some(ResourceDimension::Texture2D) => Kind::Typed2D(rt),
                    _ => Kind::TypedOther,
                };
                m.uavs.insert(slot, kind);
            }
            // es300 refuses typed buffers by name (the texture path);
            // SM5.1's register spaces are not lowered.
            Op::DclResource
                if inst.resource_dimension() == Some(ResourceDimension::Buffer)
                    && e.dialect == Dialect::Vk450
                    && !e.program.is_sm51() =>
            {
                m.typed_srvs.insert(slot, rt);
            }
            Op::ImmAtomicAlloc | Op::ImmAtomicConsume => {
                if let Some(u) = inst.operands.get(1).and_then(Operand::reg) {
                    m.counters.insert(u);
                }
            }
            _ => {}
        }
    }
    e.memory = m;
}

/// The es300 refusal of a memory instruction or declaration: a UAV, a
/// raw/structured SRV, or (neither named) thread-group memory.
fn es300_reason(inst: &Instruction) -> Reason {
    let named = |ty| inst.operands.iter().any(|o| o.ty == ty);
    if named(OperandType::UNORDERED_ACCESS_VIEW) {
        Reason::Uav
    } else if named(OperandType::RESOURCE) {
        Reason::RawStructuredBuffer
    } else {
        Reason::Compute
    }
}

/// The GLSL name of a view: `t3` (SRV) or `u1` (UAV).
fn view_name(uav: bool, slot: u32) -> String {
    format!("{}{slot}", if uav { "u" } else { "t" })
}

/// Declares one buffer view (or storage image), and its counter block.
pub fn declare(e: &mut Emitter, inst: &Instruction) {
    if e.dialect == Dialect::Es300 {
        let reason = if matches!(inst.op, Op::DclResourceRaw | Op::DclResourceStructured) {
            Reason::RawStructuredBuffer
        } else {
            Reason::Uav
        };
        e.refuse(inst, reason);
        return;
    }
    if e.program.is_sm51() {
        // SM5.1 register spaces and ranges: no lowering yet.
        e.refuse(inst, Reason::ViewIndex);
        return;
    }
    let Some(slot) = inst.operands.first().and_then(Operand::reg) else {
        e.refuse(inst, Reason::ViewIndex);
        return;
    };
    let uav = !matches!(inst.op, Op::DclResourceRaw | Op::DclResourceStructured);
    let kind = if uav {
        e.memory.uavs.get(&slot)
    } else {
        e.memory.srvs.get(&slot)
    };
    let Some(&kind) = kind else { return };
    let name = view_name(uav, slot);
    let kinds: &[InputType] = if uav {
        &[
            InputType::UavRwTyped,
            InputType::UavRwStructured,
            InputType::ByteAddress,
            InputType::UavRwByteAddress,
            InputType::UavAppendStructured,
            InputType::UavConsumeStructured,
            InputType::UavRwStructuredWithCounter,
        ]
    } else {
        &[InputType::Structured, InputType::ByteAddress]
    };
    let reflected_name = e.manifest.reflected_name(kinds, slot);
    let binding = if uav {
        names::uav_binding(slot)
    } else {
        names::texture_binding(slot)
    };
    match kind {
        Kind::TypedOther => {
            e.refuse(inst, Reason::UavDimension);
            return;
        }
        Kind::Typed2D(rt) => {
            let Some((format, image)) = image_type(rt) else {
                e.refuse(inst, Reason::UavFormat);
                return;
            };
            e.decl_line(format_args!(
                "layout(set = {}, binding = {binding}, {format}) uniform {image} {name};",
                names::SET
            ));
            e.manifest.storage_images.push(StorageImageEntry {
                slot,
                return_type: rt,
                glsl_name: name.clone(),
                glsl_type: image.to_string(),
                glsl_format: format.to_string(),
                binding: Some(binding),
                reflected_name,
                // Set by the first atomic on it (see `image_atomic`).
                atomics: false,
            });
        }
        _ => {
            let block = format!("hlslcc_Buffer_{name}");
            let access = if uav { "" } else { "readonly " };
            e.decl_line(format_args!(
                "layout(std430, set = {}, binding = {binding}) {access}buffer {block} {{ uint words[]; }} {name};",
                names::SET
            ));
            e.manifest.storage_buffers.push(StorageBufferEntry {
                register: name.clone(),
                slot,
                uav,
                layout: match kind {
                    Kind::Raw => StorageLayout::Raw,
                    Kind::Structured { stride } => StorageLayout::Structured { stride },
                    Kind::TypedBuffer(rt) | Kind::Typed2D(rt) => {
                        StorageLayout::Typed { return_type: rt }
                    }
                    Kind::TypedOther => return,
                },
                read_only: !uav,
                glsl_name: name.clone(),
                block,
                binding: Some(binding),
                reflected_name,
            });
        }
    }
    if uav && e.memory.counters.contains(&slot) {
        let binding = names::counter_binding(slot);
        let block = format!("hlslcc_Counter_{name}");
        let counter = format!("{name}_counter");
        e.decl_line(format_args!(
            "layout(std430, set = {}, binding = {binding}) buffer {block} {{ uint count; }} {counter};",
            names::SET
        ));
        e.manifest.counters.push(CounterEntry {
            slot,
            glsl_name: counter,
            block,
            binding: Some(binding),
        });
    }
}

/// The image format qualifier and type of a typed 2D UAV's return type.
fn image_type(rt: ReturnType) -> Option<(&'static str, &'static str)> {
    Some(match rt {
        ReturnType::Uint => ("r32ui", "uimage2D"),
        ReturnType::Sint => ("r32i", "iimage2D"),
        ReturnType::Float => ("r32f", "image2D"),
        _ => return None,
    })
}

/// The GLSL atomic function of an atomic operation (for the signed
/// min/max, the `int` function its compare-and-swap loop applies).
fn atomic_function(op: AtomicOp) -> &'static str {
    match op {
        AtomicOp::And => "atomicAnd",
        AtomicOp::Or => "atomicOr",
        AtomicOp::Xor => "atomicXor",
        AtomicOp::Add => "atomicAdd",
        AtomicOp::Umax => "atomicMax",
        AtomicOp::Umin => "atomicMin",
        AtomicOp::Exchange => "atomicExchange",
        AtomicOp::CompareExchange => "atomicCompSwap",
        // Signed: a compare-and-swap loop over `max`/`min` of ints.
        AtomicOp::Imax => "max",
        AtomicOp::Imin => "min",
    }
}

/// The view an operand names, with its kind; refuses (and gives None) a
/// view chosen by a register, SM5.1 ranges, thread-group memory, or a view
/// the program does not declare as a buffer.
fn view(e: &mut Emitter, inst: &Instruction, op: &Operand) -> Option<(bool, u32, Kind)> {
    let uav = match op.ty {
        OperandType::UNORDERED_ACCESS_VIEW => true,
        OperandType::RESOURCE => false,
        _ => {
            e.refuse(inst, Reason::Compute);
            return None;
        }
    };
    if op.indices.iter().any(|i| i.relative().is_some()) {
        e.refuse(inst, Reason::ResourceIndex);
        return None;
    }
    if e.program.is_sm51() {
        e.refuse(inst, Reason::ViewIndex);
        return None;
    }
    let Some(slot) = op.reg() else {
        e.refuse(inst, Reason::ViewIndex);
        return None;
    };
    let kind = if uav {
        e.memory.uavs.get(&slot)
    } else {
        e.memory.srvs.get(&slot)
    };
    match kind {
        Some(Kind::TypedOther) => {
            e.refuse(inst, Reason::UavDimension);
            None
        }
        Some(&k) => Some((uav, slot, k)),
        None => {
            // A `t#` declared as a texture (a typed buffer, say).
            e.refuse(
                inst,
                if uav {
                    Reason::Undeclared
                } else {
                    Reason::ViewMismatch
                },
            );
            None
        }
    }
}

/// Requests the word-index helpers.
fn word_helpers(e: &mut Emitter) {
    e.helpers.use_custom("dx_raw_word", || {
        format!(
            "// The word of component c at a raw byte address (low two bits\n\
             // ignored), or {OUT} past the view's len words.\n\
             uint dx_raw_word(uint addr, uint c, uint len) {{\n\
             \x20   uint w = (addr >> 2u) + c;\n\
             \x20   return w < len ? w : {OUT};\n\
             }}"
        )
    });
    e.helpers.use_custom("dx_structured_word", || {
        format!(
            "// The word of component c at (element, byte offset) of a view of\n\
             // per-word elements, or {OUT} past the element or the view's len\n\
             // words. Computed without overflow: the element is compared with\n\
             // the count of (whole or partial) elements first.\n\
             uint dx_structured_word(uint element, uint offset, uint c, uint per, uint len) {{\n\
             \x20   uint j = (offset >> 2u) + c;\n\
             \x20   if (j >= per) return {OUT};\n\
             \x20   uint whole = len / per;\n\
             \x20   if (element > whole || (element == whole && j >= len - whole * per)) return {OUT};\n\
             \x20   return element * per + j;\n\
             }}"
        )
    });
}

/// A statement giving the word index of component `c` for an address
/// already in `addr` (a `uvec2` local: `.x` address or element, `.y` byte
/// offset), as the name of a fresh local.
fn word_index(e: &mut Emitter, name: &str, kind: Kind, addr: &str, c: u32) -> String {
    let w = e.tmp();
    let len = format!("uint({name}.words.length())");
    let expr = match kind {
        Kind::Raw => format!("dx_raw_word({addr}.x, {c}u, {len})"),
        Kind::Structured { stride } => format!(
            "dx_structured_word({addr}.x, {addr}.y, {c}u, {}u, {len})",
            (stride / 4).max(1)
        ),
        // One word per element: only the first component exists.
        Kind::TypedBuffer(_) | Kind::Typed2D(_) | Kind::TypedOther if c > 0 => OUT.to_string(),
        Kind::TypedBuffer(_) | Kind::Typed2D(_) | Kind::TypedOther => {
            format!("({addr}.x < {len} ? {addr}.x : {OUT})")
        }
    };
    e.line(format_args!("uint {w} = {expr};"));
    w
}

/// The address operand read into a fresh `uvec2` local (`.y` 0 for forms
/// that take one component).
fn address(e: &mut Emitter, inst: &Instruction, a: &Operand, b: Option<&Operand>) -> String {
    let v = e.tmp();
    let expr = match b {
        // Structured loads and stores: element and offset are operands of
        // their own.
        Some(b) => {
            let x = e.read_scalar(inst, a, Ty::Uint);
            let y = e.read_scalar(inst, b, Ty::Uint);
            format!("uvec2({x}, {y})")
        }
        None => e.read_n(inst, a, 2, Ty::Uint),
    };
    e.line(format_args!("uvec2 {v} = {expr};"));
    v
}

/// Lowers one memory instruction (or, in es300, refuses it by name).
pub fn emit(e: &mut Emitter, inst: &Instruction) {
    if e.dialect == Dialect::Es300 {
        e.refuse(inst, es300_reason(inst));
        return;
    }
    let ops = &inst.operands;
    match inst.op {
        Op::Sync => {
            if inst.sync_thread_group() == Some(true) {
                e.refuse(inst, Reason::Compute);
            } else {
                e.line("// nothing to wait for: one pixel's accesses are in order");
            }
        }
        Op::LdRaw | Op::LdStructured => {
            let structured = inst.op == Op::LdStructured;
            let res = &ops[if structured { 3 } else { 2 }];
            let Some((uav, slot, kind)) = view(e, inst, res) else {
                return;
            };
            if !matches!(kind, Kind::Raw | Kind::Structured { .. }) {
                e.refuse(inst, Reason::ViewMismatch);
                return;
            }
            word_helpers(e);
            let addr = address(e, inst, &ops[1], structured.then(|| &ops[2]));
            load_words(e, inst, &ops[0], res, &view_name(uav, slot), kind, &addr);
        }
        Op::LdUavTyped => {
            let res = &ops[2];
            let Some((uav, slot, kind)) = view(e, inst, res) else {
                return;
            };
            let name = view_name(uav, slot);
            let addr = address(e, inst, &ops[1], None);
            let v = e.tmp();
            let one = |rt: ReturnType| {
                if rt == ReturnType::Float {
                    "0x3f800000u"
                } else {
                    "1u"
                }
            };
            e.line(format_args!("uvec4 {v} = uvec4(0u);"));
            match kind {
                Kind::TypedBuffer(rt) => {
                    let w = word_index(e, &name, kind, &addr, 0);
                    e.line(format_args!(
                        "if ({w} != {OUT}) {v} = uvec4({name}.words[{w}], 0u, 0u, {});",
                        one(rt)
                    ));
                }
                Kind::Typed2D(rt) => {
                    let bits = match rt {
                        ReturnType::Float => "floatBitsToUint",
                        ReturnType::Sint => "uint",
                        _ => "",
                    };
                    e.line(format_args!(
                        "if (all(lessThan({addr}, uvec2(imageSize({name}))))) {v} = uvec4({bits}(imageLoad({name}, ivec2({addr})).x), 0u, 0u, {});",
                        one(rt)
                    ));
                }
                _ => {
                    e.refuse(inst, Reason::ViewMismatch);
                    return;
                }
            }
            finish_load(e, inst, &ops[0], res, &v);
        }
        Op::StoreUavTyped => {
            let Some((uav, slot, kind)) = view(e, inst, &ops[0]) else {
                return;
            };
            let name = view_name(uav, slot);
            let addr = address(e, inst, &ops[1], None);
            let value = e.read_scalar(inst, &ops[2], Ty::Uint);
            match kind {
                Kind::TypedBuffer(_) => {
                    let w = word_index(e, &name, kind, &addr, 0);
                    e.line(format_args!(
                        "if ({w} != {OUT}) {name}.words[{w}] = {value};"
                    ));
                }
                Kind::Typed2D(rt) => {
                    let texel = match rt {
                        ReturnType::Float => format!("vec4(uintBitsToFloat({value}))"),
                        ReturnType::Sint => format!("ivec4(int({value}))"),
                        _ => format!("uvec4({value})"),
                    };
                    e.line(format_args!(
                        "if (all(lessThan({addr}, uvec2(imageSize({name}))))) imageStore({name}, ivec2({addr}), {texel});"
                    ));
                }
                _ => e.refuse(inst, Reason::ViewMismatch),
            }
        }
        Op::StoreRaw | Op::StoreStructured => {
            let structured = inst.op == Op::StoreStructured;
            let Some((uav, slot, kind)) = view(e, inst, &ops[0]) else {
                return;
            };
            if !matches!(kind, Kind::Raw | Kind::Structured { .. }) {
                e.refuse(inst, Reason::ViewMismatch);
                return;
            }
            word_helpers(e);
            let name = view_name(uav, slot);
            let addr = address(e, inst, &ops[1], structured.then(|| &ops[2]));
            let value = &ops[if structured { 3 } else { 2 }];
            // Mask component c writes word c of the window, value
            // component c (D3D allows only .x, .xy, .xyz, .xyzw).
            let mask = Emitter::dst_mask(&ops[0]);
            let values: Vec<(u32, String)> = mask_components(mask)
                .into_iter()
                .map(|c| (u32::from(c), e.read(inst, value, &[c], Ty::Uint)))
                .collect();
            for (c, v) in values {
                let w = word_index(e, &name, kind, &addr, c);
                e.line(format_args!("if ({w} != {OUT}) {name}.words[{w}] = {v};"));
            }
        }
        Op::ImmAtomicAlloc | Op::ImmAtomicConsume => {
            let Some((_, slot, _)) = view(e, inst, &ops[1]) else {
                return;
            };
            let counter = format!("{}_counter.count", view_name(true, slot));
            // alloc returns the count before its increment, consume the
            // count after its decrement.
            let expr = if inst.op == Op::ImmAtomicAlloc {
                format!("atomicAdd({counter}, 1u)")
            } else {
                format!("(atomicAdd({counter}, {OUT}) - 1u)")
            };
            let v = e.tmp();
            e.line(format_args!("uint {v} = {expr};"));
            assign_scalar(e, inst, &ops[0], &v);
        }
        _ => atomic(e, inst),
    }
}

/// `atomic_*` and `imm_atomic_*`: one word, bounds-checked; the `imm_`
/// forms write the word's old value (0 out of bounds, as the emulator).
fn atomic(e: &mut Emitter, inst: &Instruction) {
    let Some(atomic_of) = inst.op.atomic() else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    let function = atomic_function(atomic_of.op);
    let ops = &inst.operands;
    let imm = atomic_of.returns_old;
    let base = atomic_of.uav();
    let Some((uav, slot, kind)) = view(e, inst, &ops[base]) else {
        return;
    };
    if let Kind::Typed2D(rt) = kind {
        image_atomic(e, inst, slot, rt);
        return;
    }
    word_helpers(e);
    let name = view_name(uav, slot);
    let addr = address(e, inst, &ops[base + 1], None);
    let compare = atomic_of.compares();
    let first = e.read_scalar(inst, &ops[base + 2], Ty::Uint);
    let (cmp, value) = if compare {
        (Some(first), e.read_scalar(inst, &ops[base + 3], Ty::Uint))
    } else {
        (None, first)
    };
    let w = word_index(e, &name, kind, &addr, 0);
    let (old, v) = (e.tmp(), e.tmp());
    e.line(format_args!("uint {v} = {value};"));
    e.line(format_args!("uint {old} = 0u;"));
    let word = format!("{name}.words[{w}]");
    e.line(format_args!("if ({w} != {OUT}) {{"));
    e.indent();
    match (function, cmp) {
        ("max" | "min", _) => {
            // Read the word atomically, then swap in the signed min/max of
            // it until no other invocation changed it in between.
            let got = e.tmp();
            e.line(format_args!("{old} = atomicOr({word}, 0u);"));
            e.line("while (true) {");
            e.indent();
            e.line(format_args!(
                "uint {got} = atomicCompSwap({word}, {old}, uint({function}(int({old}), int({v}))));"
            ));
            e.line(format_args!("if ({got} == {old}) break;"));
            e.line(format_args!("{old} = {got};"));
            e.dedent();
            e.line("}");
        }
        (f, Some(c)) => e.line(format_args!("{old} = {f}({word}, {c}, {v});")),
        (f, None) => e.line(format_args!("{old} = {f}({word}, {v});")),
    }
    e.dedent();
    e.line("}");
    if imm {
        assign_scalar(e, inst, &ops[0], &old);
    }
}

/// An atomic on a typed 2D UAV: `imageAtomic*` on its `r32ui`/`r32i`
/// image, behind the same `imageSize` check as its loads and stores (out
/// of bounds nothing is written and the `imm_` result is 0, as the
/// emulator's). The operands are bits; on an `iimage2D` they go in and
/// come out as `int`, so its signed min/max are native and its unsigned
/// ones (like a `uimage2D`'s signed ones) a compare-and-swap loop. A float
/// image is refused (`Reason::ImageAtomic`): D3D11 allows typed UAV atomics
/// only on R32_UINT and R32_SINT.
fn image_atomic(e: &mut Emitter, inst: &Instruction, slot: u32, rt: ReturnType) {
    let Some(atomic_of) = inst.op.atomic() else {
        e.refuse(inst, Reason::Operand);
        return;
    };
    let signed = match rt {
        ReturnType::Uint => false,
        ReturnType::Sint => true,
        _ => {
            e.refuse(inst, Reason::ImageAtomic);
            return;
        }
    };
    if let Some(image) = e
        .manifest
        .storage_images
        .iter_mut()
        .find(|i| i.slot == slot)
    {
        image.atomics = true;
    }
    let ops = &inst.operands;
    let base = atomic_of.uav();
    let name = view_name(true, slot);
    let addr = address(e, inst, &ops[base + 1], None);
    let first = e.read_scalar(inst, &ops[base + 2], Ty::Uint);
    let (cmp, value) = if atomic_of.compares() {
        (Some(first), e.read_scalar(inst, &ops[base + 3], Ty::Uint))
    } else {
        (None, first)
    };
    // Values in the image's own type, and its results back to bits.
    let (ty, to, from) = if signed {
        ("int", "int", "uint")
    } else {
        ("uint", "", "")
    };
    let (old, v) = (e.tmp(), e.tmp());
    e.line(format_args!("{ty} {v} = {to}({value});"));
    e.line(format_args!("{ty} {old} = {to}(0u);"));
    let at = format!("{name}, ivec2({addr})");
    e.line(format_args!(
        "if (all(lessThan({addr}, uvec2(imageSize({name}))))) {{"
    ));
    e.indent();
    // The compare-and-swap loop's comparison type, where the image's own
    // min/max is the other signedness.
    let looped = match atomic_of.op {
        AtomicOp::Imax | AtomicOp::Imin if !signed => Some("int"),
        AtomicOp::Umax | AtomicOp::Umin if signed => Some("uint"),
        _ => None,
    };
    let f = match atomic_of.op {
        AtomicOp::Imax | AtomicOp::Umax => "max",
        AtomicOp::Imin | AtomicOp::Umin => "min",
        op => atomic_function(op),
    };
    match (looped, cmp) {
        (Some(cast), _) => {
            // Read the texel atomically, then swap in the min/max of it
            // until no other invocation changed it in between.
            let got = e.tmp();
            e.line(format_args!("{old} = imageAtomicOr({at}, {to}(0u));"));
            e.line("while (true) {");
            e.indent();
            e.line(format_args!(
                "{ty} {got} = imageAtomicCompSwap({at}, {old}, {ty}({f}({cast}({old}), {cast}({v}))));"
            ));
            e.line(format_args!("if ({got} == {old}) break;"));
            e.line(format_args!("{old} = {got};"));
            e.dedent();
            e.line("}");
        }
        (None, Some(c)) => e.line(format_args!(
            "{old} = imageAtomicCompSwap({at}, {to}({c}), {v});"
        )),
        (None, None) => {
            let f = match f {
                "max" => "imageAtomicMax".to_string(),
                "min" => "imageAtomicMin".to_string(),
                g => format!("imageAtomic{}", g.trim_start_matches("atomic")),
            };
            e.line(format_args!("{old} = {f}({at}, {v});"));
        }
    }
    e.dedent();
    e.line("}");
    if atomic_of.returns_old {
        assign_scalar(e, inst, &ops[0], &format!("{from}({old})"));
    }
}

/// Loads the words a raw/structured load's destination needs (after the
/// resource swizzle) into a `uvec4`, each bounds-checked, and writes them.
fn load_words(
    e: &mut Emitter,
    inst: &Instruction,
    dst: &Operand,
    res: &Operand,
    name: &str,
    kind: Kind,
    addr: &str,
) {
    let mask = Emitter::dst_mask(dst);
    let mut needed: Vec<u8> = Emitter::source_components(res, &mask_components(mask));
    needed.sort_unstable();
    needed.dedup();
    let v = e.tmp();
    e.line(format_args!("uvec4 {v} = uvec4(0u);"));
    for c in needed {
        let w = word_index(e, name, kind, addr, u32::from(c));
        e.line(format_args!(
            "if ({w} != {OUT}) {v}.{} = {name}.words[{w}];",
            super::types::COMPONENTS[c as usize & 3]
        ));
    }
    finish_load(e, inst, dst, res, &v);
}

/// Writes a loaded `uvec4` through the resource's swizzle to `dst`.
fn finish_load(e: &mut Emitter, inst: &Instruction, dst: &Operand, res: &Operand, v: &str) {
    if dst.ty == OperandType::NULL {
        return;
    }
    let mask = Emitter::dst_mask(dst);
    let comps = Emitter::source_components(res, &mask_components(mask));
    let expr = format!("{v}{}", swizzle(&comps));
    e.assign(inst, dst, &expr, Ty::Uint, false);
}

/// Writes a scalar `uint` to every component of `dst`'s mask.
fn assign_scalar(e: &mut Emitter, inst: &Instruction, dst: &Operand, v: &str) {
    if dst.ty == OperandType::NULL {
        return;
    }
    let n = mask_components(Emitter::dst_mask(dst)).len();
    let expr = if n <= 1 {
        v.to_string()
    } else {
        format!("{}({v})", Ty::Uint.vec(n))
    };
    e.assign(inst, dst, &expr, Ty::Uint, false);
}

/// `bufinfo` on a raw/structured view, a UAV or (vk450) a typed buffer
/// SRV: the byte size (raw), the element count (structured, typed) in
/// every component. False when the resource is not such a view (a
/// texture, or in es300 a typed `Buffer<T>`: the texture path refuses
/// both).
pub fn bufinfo(e: &mut Emitter, inst: &Instruction) -> bool {
    let Some(res) = inst.operands.get(1) else {
        return false;
    };
    let is_view = match res.ty {
        OperandType::UNORDERED_ACCESS_VIEW => true,
        OperandType::RESOURCE => res.reg().is_some_and(|s| {
            e.memory.srvs.contains_key(&s) || e.memory.typed_srvs.contains_key(&s)
        }),
        _ => false,
    };
    if !is_view {
        return false;
    }
    if e.dialect == Dialect::Es300 {
        e.refuse(inst, es300_reason(inst));
        return true;
    }
    if let Some(count) = typed_srv::bufinfo(e, res) {
        let v = e.tmp();
        e.line(format_args!("uint {v} = {count};"));
        assign_scalar(e, inst, &inst.operands[0], &v);
        return true;
    }
    let Some((uav, slot, kind)) = view(e, inst, res) else {
        return true;
    };
    let name = view_name(uav, slot);
    let len = format!("uint({name}.words.length())");
    let expr = match kind {
        Kind::Raw => format!("{len} * 4u"),
        Kind::Structured { stride } => format!("{len} / {}u", (stride / 4).max(1)),
        Kind::TypedBuffer(_) => len,
        Kind::Typed2D(_) | Kind::TypedOther => {
            e.refuse(inst, Reason::ViewMismatch);
            return true;
        }
    };
    let v = e.tmp();
    e.line(format_args!("uint {v} = {expr};"));
    assign_scalar(e, inst, &inst.operands[0], &v);
    true
}
