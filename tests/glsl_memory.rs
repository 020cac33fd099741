//! The buffer and UAV lowering: every memory instruction family translates
//! to vk450 text that glslangValidator compiles and naga's SPIR-V front end
//! and validator accept (the Vulkan path's compile route for storage), and
//! es300 refuses each by name.

mod common;

use dxbc_dbg::dxbc::asm;
use dxbc_dbg::dxbc::shader::{ParseOptions, Shader};
use dxbc_dbg::glsl::{self, Dialect, Options, Reason, StorageLayout};

fn shader(text: &str) -> Shader {
    let bytes = asm::assemble(text).unwrap_or_else(|e| panic!("{e}"));
    Shader::parse(&bytes, ParseOptions::default()).expect("assembled shader reads back")
}

/// The `[pixel shader]` or `[vertex shader]` (`section`) of a case file;
/// empty when it has none.
fn case_shader(text: &str, section: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == section;
            continue;
        }
        if inside && !t.starts_with('#') {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Translates to vk450 and validates by the Vulkan path's route: glslang
/// and naga's SPIR-V front end, or, for image atomics (which naga cannot
/// read, so the Vulkan path passes the SPIR-V through), glslang and
/// spirv-val.
#[track_caller]
fn vk450_valid(name: &str, s: &Shader) -> glsl::Translation {
    let t =
        glsl::translate(s, &Options::new(Dialect::Vk450)).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Err(e) = common::validate::vk450_route(&t) {
        panic!("{name} does not compile:\n{e}\n{}", t.source);
    }
    t
}

/// Every op family at once: raw, structured and typed views, SRV and UAV,
/// loads, stores, each atomic and its `imm_` form, the counter, bufinfo
/// and sync.
const EVERY_OP: &str = "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_resource_raw t0
dcl_resource_structured t1, 8
dcl_uav_raw u1
dcl_uav_structured u2, 12
dcl_uav_typed_buffer (sint,sint,sint,sint) u3
dcl_uav_typed_texture2d (float,float,float,float) u4
dcl_temps 3
ftou r0.xy, v0.xyxx
ld_raw r1.xyzw, r0.x, t0.xyzw
ld_structured r1.xy, r0.x, l(4), t1.yxxx
ld_structured r2.xyz, r0.y, l(0), u2.xyzx
ld_raw r2.w, r0.x, u1.x
store_raw u1.xy, r0.x, r1.xyxx
store_structured u2.xyz, r0.x, l(0), r1.xyzx
ld_uav_typed r2.xyzw, r0.xxxx, u3.xyzw
store_uav_typed u3.xyzw, r0.xxxx, r1.xxxx
ld_uav_typed r2.xyzw, r0.xyxx, u4.xyzw
store_uav_typed u4.xyzw, r0.xyxx, r2.xxxx
atomic_and u1, r0.x, l(1)
atomic_or u1, r0.x, l(1)
atomic_xor u1, r0.x, l(1)
atomic_cmp_store u1, r0.x, l(1), l(2)
atomic_iadd u2, r0.xyxx, l(1)
atomic_imax u3, r0.x, l(-1)
atomic_imin u3, r0.x, l(-1)
atomic_umax u1, r0.x, l(1)
atomic_umin u1, r0.x, l(1)
imm_atomic_iadd r1.x, u1, r0.x, l(1)
imm_atomic_and r1.x, u1, r0.x, l(1)
imm_atomic_or r1.x, u1, r0.x, l(1)
imm_atomic_xor r1.x, u1, r0.x, l(1)
imm_atomic_exch r1.x, u1, r0.x, l(1)
imm_atomic_cmp_exch r1.x, u1, r0.x, l(1), l(2)
imm_atomic_imax r1.x, u3, r0.x, l(5)
imm_atomic_imin r1.x, u3, r0.x, l(5)
imm_atomic_umax r1.x, u1, r0.x, l(5)
imm_atomic_umin r1.x, u1, r0.x, l(5)
imm_atomic_alloc r1.y, u2
imm_atomic_consume r1.z, u2
bufinfo r2.x, t0.xxxx
bufinfo r2.y, t1.xxxx
bufinfo r2.z, u3.xxxx
sync_uglobal
mov o0.xyzw, r1.xyzw
ret
";

#[test]
fn every_memory_op_compiles_through_glslang_and_naga() {
    let s = shader(EVERY_OP);
    let t = vk450_valid("every op", &s);
    let m = &t.manifest;
    let layouts: Vec<(String, StorageLayout, bool)> = m
        .storage_buffers
        .iter()
        .map(|b| (b.register.clone(), b.layout, b.read_only))
        .collect();
    assert_eq!(layouts.len(), 5, "{layouts:?}");
    assert!(layouts.contains(&("t1".into(), StorageLayout::Structured { stride: 8 }, true)));
    assert!(layouts.contains(&("u1".into(), StorageLayout::Raw, false)));
    assert_eq!(m.storage_images.len(), 1);
    assert_eq!(m.storage_images[0].glsl_format, "r32f");
    assert_eq!(m.counters.len(), 1);
    assert_eq!(m.counters[0].slot, 2);
    // The bindings are the names module's.
    assert_eq!(m.counters[0].binding, Some(glsl::names::counter_binding(2)));
    assert_eq!(
        m.storage_images[0].binding,
        Some(glsl::names::uav_binding(4))
    );
    // Loads, stores and atomics go through explicit bounds checks, never
    // a bare index: every `.words[w]` is behind an `if (w != OUT)` on the
    // same line or an earlier one.
    let mut seen = String::new();
    let mut accesses = 0;
    for line in t.source.lines() {
        let code = line.trim();
        if !code.starts_with("//") {
            for (k, _) in code.match_indices(".words[") {
                let rest = &code[k + ".words[".len()..];
                let index = &rest[..rest.find(']').expect("closing bracket")];
                let check = format!("if ({index} != 0xffffffffu)");
                assert!(
                    seen.contains(&check) || code.starts_with(&check),
                    "unchecked access: {code}"
                );
                accesses += 1;
            }
        }
        seen.push_str(code);
        seen.push('\n');
    }
    assert!(accesses >= 20, "{accesses} accesses in:\n{}", t.source);
}

#[test]
fn the_buffer_cases_compile_through_glslang_and_naga() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/buffers");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/cases/buffers") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "case") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read case");
        for section in ["[pixel shader]", "[vertex shader]"] {
            let source = case_shader(&text, section);
            if !source.trim().is_empty() {
                vk450_valid(&format!("{} {section}", path.display()), &shader(&source));
                n += 1;
            }
        }
    }
    assert!(n >= 15, "expected the buffer cases' shaders, found {n}");
}

/// Typed buffer SRVs of both number types, loaded through a swizzle and
/// sized with `bufinfo`.
const TYPED_SRV: &str = "ps_5_0
dcl_input_ps_siv linear noperspective v0.x, position
dcl_output o0.xyzw
dcl_resource_buffer (float,float,float,float) t2
dcl_resource_buffer (sint,sint,sint,sint) t5
dcl_temps 2
ftou r0.x, v0.x
ld_indexable(buffer)(float,float,float,float) r1.xyzw, r0.xxxx, t2.wzyx
ld_indexable(buffer)(sint,sint,sint,sint) r0.y, r0.xxxx, t5.yxzw
bufinfo r0.z, t5.xxxx
itof r0.yz, r0.yyzy
add o0.xyzw, r1.xyzw, r0.yzyz
ret
";

#[test]
fn typed_buffer_srvs_compile_through_glslang_and_naga_reading_their_views_format() {
    let t = vk450_valid("typed SRVs", &shader(TYPED_SRV));
    let src = &t.source;
    // One views block, indexed by slot (so every stage agrees on where
    // slot N lies), sized for the highest typed slot.
    assert_eq!(
        src.matches("uniform hlslcc_BufferViews").count(),
        1,
        "{src}"
    );
    assert!(src.contains("uvec4 hlslcc_bufferViews[6];"), "{src}");
    for slot in [2, 5] {
        assert!(
            src.contains(&format!(
                "readonly buffer hlslcc_Buffer_t{slot} {{ uint words[]; }} t{slot};"
            )),
            "{src}"
        );
        assert!(
            src.contains(&format!("uvec4 dx_ld_t{slot}(uint i)")),
            "{src}"
        );
    }
    // The decode reads the view's format and bounds the element by the
    // view's count; bufinfo is that count.
    assert!(src.contains("uint f = hlslcc_bufferViews[2].x;"), "{src}");
    assert!(src.contains("if (i < hlslcc_bufferViews[5].y"), "{src}");
    assert!(src.contains("= hlslcc_bufferViews[5].y;"), "{src}");
    // No texture, sampler or levels block for a buffer.
    assert!(!src.contains("texture"), "{src}");
    assert!(t.manifest.textures.is_empty());
    let slots: Vec<u32> = t.manifest.typed_buffers.iter().map(|b| b.slot).collect();
    assert_eq!(slots, [2, 5]);
    let b = &t.manifest.typed_buffers[1];
    assert_eq!(
        (b.glsl_name.as_str(), b.block.as_str(), b.binding),
        ("t5", "hlslcc_Buffer_t5", Some(16 + 5))
    );
    assert_eq!(b.view, "hlslcc_bufferViews[5]");
    let views: Vec<(String, u32, Option<u32>)> = t
        .manifest
        .uniforms
        .iter()
        .map(|u| (u.name.clone(), u.offset, u.binding))
        .collect();
    assert_eq!(
        views,
        [
            ("hlslcc_bufferViews[2]".to_string(), 32, Some(201)),
            ("hlslcc_bufferViews[5]".to_string(), 80, Some(201)),
        ]
    );
}

#[test]
fn typed_buffer_srvs_are_refused_by_es300_and_past_ld_and_bufinfo_by_vk450() {
    let r = glsl::translate(&shader(TYPED_SRV), &Options::new(Dialect::Es300))
        .expect_err("ES 3.00 has no samplerBuffer");
    assert!(r.reasons().contains(&Reason::TypedBuffer), "{r}");
    let s = shader(
        "ps_5_0
dcl_output o0.xyzw
dcl_resource_buffer (float,float,float,float) t0
resinfo o0.xyzw, l(0), t0.xyzw
ret
",
    );
    let r = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect_err("resinfo of a buffer");
    assert_eq!(r.reasons(), [Reason::TypedBuffer], "{r}");
}

#[test]
fn es300_refuses_every_memory_op_by_name() {
    let s = shader(EVERY_OP);
    let r = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err("es300 has no storage");
    let reasons = r.reasons();
    assert!(reasons.contains(&Reason::Uav), "{r}");
    assert!(reasons.contains(&Reason::RawStructuredBuffer), "{r}");
    // Each memory instruction (and declaration) is named: the text lists
    // every `atomic_` line.
    let text = r.to_string();
    for l in EVERY_OP.lines().filter(|l| l.contains("atomic_")) {
        assert!(text.contains(l.trim()), "`{l}` is not named:\n{text}");
    }
}

/// Every atomic on an `r32ui` and an `r32i` image, each `imm_` form too.
const IMAGE_ATOMICS: &str = "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_uav_typed_texture2d (uint,uint,uint,uint) u1
dcl_uav_typed_texture2d (sint,sint,sint,sint) u2
dcl_uav_raw u3
dcl_temps 2
ftou r0.xy, v0.xyxx
atomic_and u1, r0.xyxx, l(1)
atomic_or u2, r0.xyxx, l(1)
atomic_xor u1, r0.xyxx, l(1)
atomic_cmp_store u2, r0.xyxx, l(1), l(2)
atomic_iadd u1, r0.xyxx, l(1)
atomic_imax u1, r0.xyxx, l(-1)
atomic_imin u2, r0.xyxx, l(-1)
atomic_umax u2, r0.xyxx, l(1)
atomic_umin u1, r0.xyxx, l(1)
imm_atomic_iadd r1.x, u2, r0.xyxx, l(1)
imm_atomic_and r1.x, u1, r0.xyxx, l(1)
imm_atomic_or r1.x, u1, r0.xyxx, l(1)
imm_atomic_xor r1.x, u2, r0.xyxx, l(1)
imm_atomic_exch r1.x, u2, r0.xyxx, l(1)
imm_atomic_cmp_exch r1.y, u1, r0.xyxx, l(1), l(2)
imm_atomic_imax r1.z, u2, r0.xyxx, l(5)
imm_atomic_imin r1.z, u1, r0.xyxx, l(5)
imm_atomic_umax r1.w, u1, r0.xyxx, l(5)
imm_atomic_umin r1.w, u2, r0.xyxx, l(5)
atomic_iadd u3, l(0), l(1)
mov o0.xyzw, r1.xyzw
ret
";

#[test]
fn atomics_on_typed_2d_uavs_lower_to_image_atomics_glslang_validates() {
    let t = vk450_valid("image atomics", &shader(IMAGE_ATOMICS));
    let m = &t.manifest;
    // Both images carry the flag the Vulkan path routes by; the raw view
    // is a buffer, so it has none.
    assert!(m.image_atomics());
    assert!(m.storage_images.iter().all(|i| i.atomics), "{m:?}");
    let count = |f: &str| t.source.matches(&format!("{f}(u")).count();
    // Native: and/or/xor/add/exchange/compare-swap, the signed min/max on
    // the r32i image and the unsigned ones on the r32ui image. The other
    // signedness is a compare-and-swap loop: it reads with imageAtomicOr
    // (0) and swaps with imageAtomicCompSwap, once each per atomic.
    assert_eq!(count("imageAtomicMin"), 2, "{}", t.source);
    assert_eq!(count("imageAtomicMax"), 2, "{}", t.source);
    assert!(t.source.contains("max(int("), "{}", t.source);
    assert!(t.source.contains("min(uint("), "{}", t.source);
    assert_eq!(count("imageAtomicExchange"), 1, "{}", t.source);
    // 2 native compare-swaps plus one per loop (4 loops); 2 or-ing atomics
    // plus one read per loop.
    assert_eq!(count("imageAtomicCompSwap"), 6, "{}", t.source);
    assert_eq!(count("imageAtomicOr"), 6, "{}", t.source);
    // Every image atomic sits behind its own imageSize check: 9 atomics
    // and 10 imm_ ones on the images.
    assert_eq!(
        t.source.matches("uvec2(imageSize(u").count(),
        19,
        "{}",
        t.source
    );
    // The r32i image takes and gives ints, turned back to bits.
    assert!(t.source.contains("uint(dx_t"), "{}", t.source);
}

/// The reason the Vulkan path passes image atomics through: naga's SPIR-V
/// front end cannot read what glslang makes of them. If a later naga
/// reads them, this fails, and the passthrough route can go.
#[test]
fn naga_cannot_read_image_atomics() {
    let t =
        glsl::translate(&shader(IMAGE_ATOMICS), &Options::new(Dialect::Vk450)).expect("translates");
    let e = common::validate::vk450_spirv(t.stage, &t.source).expect_err("naga reads it");
    assert!(e.contains("naga spv parse"), "{e}");
}

#[test]
fn atomics_on_a_float_typed_2d_uav_are_refused_on_vk450_by_name() {
    let s = shader(
        "ps_5_0
dcl_output o0.xyzw
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_temps 1
atomic_iadd u1, l(0, 0, 0, 0), l(1)
mov o0.xyzw, l(0, 0, 0, 0)
ret
",
    );
    let r = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect_err("no float atomics");
    assert_eq!(r.reasons(), vec![Reason::ImageAtomic], "{r}");
}

#[test]
fn thread_group_sync_is_refused_in_a_pixel_shader() {
    let s = shader(
        "ps_5_0
dcl_output o0.xyzw
sync_g_t
mov o0.xyzw, l(0, 0, 0, 0)
ret
",
    );
    let r = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect_err("compute-only");
    assert_eq!(r.reasons(), vec![Reason::Compute], "{r}");
}

#[test]
fn typed_uavs_past_buffers_and_2d_textures_are_refused_on_vk450_by_name() {
    let s = shader(
        "ps_5_0
dcl_output o0.xyzw
dcl_uav_typed_texture2darray (uint,uint,uint,uint) u1
store_uav_typed u1.xyzw, l(0, 0, 0, 0), l(1, 1, 1, 1)
mov o0.xyzw, l(0, 0, 0, 0)
ret
",
    );
    let r = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect_err("not lowered");
    assert_eq!(r.reasons(), vec![Reason::UavDimension], "{r}");
    // The declaration and the store are both named.
    assert_eq!(r.diagnostics.len(), 2, "{r}");
}

#[test]
fn resinfo_on_a_typed_2d_uav_lowers_to_image_size_in_each_form() {
    let s = shader(
        "ps_5_0
dcl_output o0.xyzw
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_temps 3
resinfo_uint r0.xyzw, l(0), u1.xyzw
resinfo r1.xyzw, l(1), u1.yxzw
resinfo_rcpFloat r2.xy, r0.x, u1.xyzw
add r1.xyzw, r1.xyzw, r2.xyxy
mov o0.xyzw, r1.xyzw
ret
",
    );
    let t = vk450_valid("resinfo", &s);
    // One mip: .w is the literal 1 and only mip 0 reads imageSize.
    assert!(t.source.contains("uvec4(0u, 0u, 0u, 1u)"), "{}", t.source);
    assert_eq!(t.source.matches("imageSize(u1)").count(), 3, "{}", t.source);
    // _rcpFloat's +inf for a size of 0.
    assert!(t.source.contains("0x7f800000u"), "{}", t.source);
    // es300 refuses the UAV by name, with its ES 3.00 message.
    let r = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err("no UAVs");
    assert_eq!(r.reasons(), vec![Reason::Uav], "{r}");
    assert!(r.to_string().contains("GLSL ES 3.00 has no images"), "{r}");
}

#[test]
fn vk450_memory_refusals_name_what_the_storage_lowering_lacks() {
    // (program, reason): resinfo on a buffer UAV (buffers are sized with
    // bufinfo), bufinfo on a typed 2D UAV, a raw load from a typed UAV,
    // the tiled-resource load, a UNORM typed 2D UAV.
    let cases = [
        (
            "dcl_uav_typed_buffer (uint,uint,uint,uint) u1\nresinfo_uint r0.xyzw, l(0), u1.xyzw",
            Reason::ViewMismatch,
        ),
        (
            "dcl_uav_typed_texture2d (uint,uint,uint,uint) u1\nbufinfo r0.x, u1.xxxx",
            Reason::ViewMismatch,
        ),
        (
            "dcl_uav_typed_buffer (uint,uint,uint,uint) u1\nld_raw r0.x, l(0), u1.x",
            Reason::ViewMismatch,
        ),
        (
            "dcl_uav_raw u1\nld_raw_s r0.x, r0.y, l(0), u1.x",
            Reason::TiledMemory,
        ),
        (
            "dcl_uav_typed_texture2d (unorm,unorm,unorm,unorm) u1\nresinfo r0.xyzw, l(0), u1.xyzw",
            Reason::UavFormat,
        ),
    ];
    for (body, reason) in cases {
        let s = shader(&format!(
            "ps_5_0\ndcl_output o0.xyzw\ndcl_temps 1\n{body}\nmov o0.xyzw, r0.xyzw\nret\n"
        ));
        let r = glsl::translate(&s, &Options::new(Dialect::Vk450)).expect_err(body);
        assert!(r.reasons().contains(&reason), "{body}: {r}");
        // vk450 has storage buffers and images: no refusal says ES 3.00.
        assert!(!r.to_string().contains("ES 3.00"), "{body}: {r}");
        // es300 still refuses the UAV as a UAV.
        let es = glsl::translate(&s, &Options::new(Dialect::Es300)).expect_err(body);
        assert_eq!(es.reasons(), vec![Reason::Uav], "{body}: {es}");
    }
}
