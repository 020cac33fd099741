//! Typed buffer SRVs (`dcl_resource_buffer`, HLSL `Buffer<T>`) on vk450:
//! `ld` and `bufinfo`. es300 refuses them (`Reason::TypedBuffer`: GLSL ES
//! 3.00 has no `samplerBuffer`), and vk450 cannot use `samplerBuffer`
//! either, since naga (which reads the Vulkan path's shaders) has no texel
//! buffers.
//!
//! So each typed SRV `tN` is a read-only std430 block of `uint words[]`
//! holding the view's elements as D3D lays them out in memory, bound where
//! texture N would be, and the shader decodes them itself. The
//! declaration names only the return type; the element format is the
//! view's, chosen by the application when it creates the SRV, so the
//! shader reads it at run time, as a D3D runtime knows it only at bind
//! time: member `hlslcc_bufferViews[N]` of the std140 block
//! `hlslcc_BufferViews` holds `.x` the view's DXGI format code and `.y`
//! its element count. The array is indexed by slot, so every stage that
//! declares the block agrees on where slot N's view lies.
//!
//! `ld` is a per-slot function, `dx_ld_tN`: an element at or past the
//! view's element count (or past the words bound) reads as zero bits,
//! which decode, as the emulator's out-of-range `ld` does, to 0 in the
//! format's components and the defaults in the missing ones (0, 0, 1:
//! 1.0 for float formats, 1 for integer ones); the words are checked on
//! their own too, so a runtime's wrong element count never reads past the
//! block. A format code the function does not decode gives 0 in every
//! lane. UNORM8 is divided by 255.0 explicitly, D3D's exact c / 255,
//! rather than left to `unpackUnorm4x8`, whose precision GLSL leaves to
//! the implementation. The result is register bits, as every load's.

use super::super::emit::Emitter;
use super::super::helpers::F16TOF32;
use super::super::manifest::{TypedBufferEntry, UniformEntry, UniformRole};
use super::super::types::{Ty, ValueType};
use super::super::{Reason, names};
use super::finish_load;
use crate::dxbc::enums::{DxgiFormat, ReturnType};
use crate::dxbc::ir::{Instruction, Operand, OperandType};
use crate::dxbc::rdef::InputType;

pub const VIEWS_BLOCK: &str = "hlslcc_BufferViews";
const VIEWS: &str = "hlslcc_bufferViews";

/// The uniform holding typed buffer `slot`'s view.
pub fn view_uniform(slot: u32) -> String {
    format!("{VIEWS}[{slot}]")
}

/// Declares typed buffer SRV `slot`: its word block, and (with the first
/// one) the views block, sized for the highest typed slot.
pub fn declare(e: &mut Emitter, slot: u32, return_type: ReturnType) {
    if e.memory.typed_srvs.keys().next() == Some(&slot) {
        let last = e.memory.typed_srvs.keys().last().copied().unwrap_or(slot);
        e.decl_line(format_args!(
            "layout(std140, set = {}, binding = {}) uniform {VIEWS_BLOCK} {{ uvec4 {VIEWS}[{}]; }};",
            names::SET,
            names::BUFFER_VIEW_BINDING,
            last + 1
        ));
        let slots: Vec<u32> = e.memory.typed_srvs.keys().copied().collect();
        for t in slots {
            e.manifest.uniforms.push(UniformEntry {
                name: view_uniform(t),
                glsl_type: ValueType::vec(Ty::Uint, 4),
                meaning: format!(
                    "t{t}: x = the typed buffer view's DXGI_FORMAT code; y = its element \
                     count; z, w unused"
                ),
                block: VIEWS_BLOCK.into(),
                offset: 16 * t,
                binding: Some(names::BUFFER_VIEW_BINDING),
                role: UniformRole::BufferView { texture: t },
            });
        }
    }
    let name = format!("t{slot}");
    let block = format!("hlslcc_Buffer_{name}");
    let binding = names::texture_binding(slot);
    e.decl_line(format_args!(
        "layout(std430, set = {}, binding = {binding}) readonly buffer {block} {{ uint words[]; }} {name}; // typed buffer of {}",
        names::SET,
        return_type.name()
    ));
    let reflected_name = e.manifest.reflected_name(&[InputType::Texture], slot);
    e.manifest.typed_buffers.push(TypedBufferEntry {
        slot,
        return_type,
        glsl_name: name,
        block,
        binding: Some(binding),
        view: view_uniform(slot),
        reflected_name,
    });
}

/// The typed buffer SRV an instruction's resource operand names, if it
/// names one (by a literal slot; a view chosen by a register is refused).
fn typed_slot(e: &Emitter, op: &Operand) -> Option<u32> {
    if op.ty != OperandType::RESOURCE {
        return None;
    }
    op.reg().filter(|s| e.memory.typed_srvs.contains_key(s))
}

/// `ld` from a typed buffer SRV; false (nothing written) when the
/// resource is something else, which the texture path lowers or refuses.
pub fn ld(e: &mut Emitter, inst: &Instruction, res_index: usize) -> bool {
    let Some(res) = inst.operands.get(res_index) else {
        return false;
    };
    let Some(slot) = typed_slot(e, res) else {
        return false;
    };
    if res.indices.iter().any(|i| i.relative().is_some()) {
        e.refuse(inst, Reason::ResourceIndex);
        return true;
    }
    let f = decode_function(e, slot);
    // The element index is the address's x, read unsigned: a negative
    // one is a huge index, out of range.
    let index = e.read_scalar(inst, &inst.operands[1], Ty::Uint);
    let v = e.tmp();
    e.line(format_args!("uvec4 {v} = {f}({index});"));
    finish_load(e, inst, &inst.operands[0], res, &v);
    true
}

/// `bufinfo` of a typed buffer SRV: the view's element count in every
/// component (D3D11: "the number of elements in the view"). None when
/// the resource is not one.
pub fn bufinfo(e: &Emitter, res: &Operand) -> Option<String> {
    let slot = typed_slot(e, res)?;
    Some(format!("{}.y", view_uniform(slot)))
}

/// Requests `dx_ld_tN` and gives its name.
fn decode_function(e: &mut Emitter, slot: u32) -> String {
    let name = format!("dx_ld_t{slot}");
    let t = format!("t{slot}");
    let view = view_uniform(slot);
    let code = |f: DxgiFormat| format!("{}u", f.code()); // layering-ok: the shader compares the runtime's DXGI_FORMAT
    let (r32g32b32a32, r16g16b16a16, r32g32, r8g8b8a8) = (
        code(DxgiFormat::R32G32B32A32Float),
        code(DxgiFormat::R16G16B16A16Float),
        code(DxgiFormat::R32G32Float),
        code(DxgiFormat::R8G8B8A8Unorm),
    );
    let (r32f, r32u, r32i) = (
        code(DxgiFormat::R32Float),
        code(DxgiFormat::R32Uint),
        code(DxgiFormat::R32Sint),
    );
    // Halves are converted in integers, exactly (unpackHalf2x16 would
    // need naga's SHADER_FLOAT16_IN_FLOAT32, which the SPIR-V route does
    // not grant).
    let half = e.helpers.use_scalar(&F16TOF32, 1);
    let text = format!(
        "// ld from typed buffer {t}: element i's lanes as register bits, decoded\n\
         // by the view's DXGI format ({view}.x). Past the view's element count\n\
         // ({view}.y) or the words bound, the element reads as zero bits: 0 in\n\
         // the format's components, the defaults in the missing ones. A format\n\
         // not decoded here gives 0.\n\
         uvec4 {name}(uint i) {{\n\
         \x20   uint f = {view}.x;\n\
         \x20   uint per = f == {r32g32b32a32} ? 4u : (f == {r16g16b16a16} || f == {r32g32}) ? 2u : 1u;\n\
         \x20   uvec4 w = uvec4(0u);\n\
         \x20   if (i < {view}.y && i < uint({t}.words.length()) / per) {{\n\
         \x20       uint b = i * per;\n\
         \x20       w.x = {t}.words[b];\n\
         \x20       if (per > 1u) w.y = {t}.words[b + 1u];\n\
         \x20       if (per > 2u) {{\n\
         \x20           w.z = {t}.words[b + 2u];\n\
         \x20           w.w = {t}.words[b + 3u];\n\
         \x20       }}\n\
         \x20   }}\n\
         \x20   // R32G32B32A32_FLOAT: the words are the lanes.\n\
         \x20   if (f == {r32g32b32a32}) return w;\n\
         \x20   // R16G16B16A16_FLOAT: halves, R in word 0's low 16 bits.\n\
         \x20   if (f == {r16g16b16a16}) return floatBitsToUint(vec4({half}(w.x), {half}(w.x >> 16u), {half}(w.y), {half}(w.y >> 16u)));\n\
         \x20   // R32G32_FLOAT\n\
         \x20   if (f == {r32g32}) return uvec4(w.x, w.y, 0u, 0x3f800000u);\n\
         \x20   // R8G8B8A8_UNORM: R in the low byte; c / 255 exactly.\n\
         \x20   if (f == {r8g8b8a8}) return floatBitsToUint(vec4((uvec4(w.x) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu) / 255.0);\n\
         \x20   // R32_FLOAT\n\
         \x20   if (f == {r32f}) return uvec4(w.x, 0u, 0u, 0x3f800000u);\n\
         \x20   // R32_UINT, R32_SINT\n\
         \x20   if (f == {r32u} || f == {r32i}) return uvec4(w.x, 0u, 0u, 1u);\n\
         \x20   return uvec4(0u);\n\
         }}"
    );
    e.helpers.use_custom(&name, || text);
    name
}
