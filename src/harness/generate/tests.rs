//! The value rules, determinism per seed, and untrusted names.

use std::path::Path;

use super::constants::{self, Value};
use super::inputs::{Lane, Source, component};
use super::*;
use crate::dxbc::asm::test_shader;
use crate::dxbc::enums::{ComponentType, SystemValue};
use crate::dxbc::rdef::{CbufferKind, ConstantBuffer, Type, Variable, class};
use crate::harness::case::Case;

const PS: ProgramType = ProgramType::Pixel;
const VS: ProgramType = ProgramType::Vertex;

fn floats(s: Source) -> [f32; 4] {
    match s {
        Source::Corners(v) => v.map(|l| match l {
            Lane::Float(f) => f,
            other => panic!("expected a float, found {other:?}"),
        }),
        Source::Rasterizer => panic!("expected values, found the rasterizer's"),
    }
}

fn float_in(stage: ProgramType, name: &str, k: usize, seed: u64) -> [f32; 4] {
    floats(component(
        stage,
        name,
        0,
        SystemValue::Undefined,
        ComponentType::Float32,
        k,
        seed,
    ))
}

#[test]
fn texcoords_span_a_little_past_the_unit_square() {
    let u = float_in(PS, "TEXCOORD", 0, 0);
    let v = float_in(PS, "TexCoord", 1, 0);
    // Corners TL, TR, BL, BR: u grows to the right, v downwards.
    assert_eq!(u, [-0.125, 1.125, -0.125, 1.125]);
    assert_eq!(v, [-0.125, -0.125, 1.125, 1.125]);
    // A projective divisor stays near 1.
    assert!(
        float_in(PS, "TEXCOORD", 3, 0)
            .iter()
            .all(|w| (0.75..=1.25).contains(w))
    );
}

#[test]
fn normals_tangents_and_binormals_are_unit_vectors() {
    for name in ["NORMAL", "TANGENT", "BINORMAL", "BITANGENT"] {
        let c: Vec<[f32; 4]> = (0..3).map(|k| float_in(VS, name, k, 0)).collect();
        for corner in 0..4 {
            let len2: f32 = c.iter().map(|v| v[corner] * v[corner]).sum();
            assert!(
                (len2 - 1.0).abs() < 1e-5,
                "{name} at corner {corner}: |v|² = {len2}"
            );
        }
    }
    // The tangent's w is the binormal's sign, ±1 by the seed.
    assert_eq!(float_in(VS, "TANGENT", 3, 0), [1.0; 4]);
    assert_eq!(float_in(VS, "TANGENT", 3, 1), [-1.0; 4]);
}

#[test]
fn colours_are_in_the_unit_range_and_other_names_positive() {
    for seed in 0..20 {
        for k in 0..4 {
            for v in float_in(PS, "COLOR", k, seed) {
                assert!((0.0..=1.0).contains(&v), "COLOR.{k} = {v}");
            }
            // An unknown name: positive and moderate, never zero.
            for v in float_in(PS, "WEIRD_THING", k, seed) {
                assert!((0.25..=1.25).contains(&v), "unknown.{k} = {v}");
            }
        }
    }
    // Deterministic: the same name and seed give the same values.
    assert_eq!(
        float_in(PS, "WEIRD_THING", 0, 7),
        float_in(PS, "WEIRD_THING", 0, 7)
    );
}

#[test]
fn integers_are_small_and_non_zero_and_system_values_left_to_the_rasterizer() {
    for (ty, name) in [
        (ComponentType::Uint32, "MATERIAL"),
        (ComponentType::Sint32, "BLENDINDICES"),
    ] {
        for k in 0..4 {
            let Source::Corners(v) = component(PS, name, 0, SystemValue::Undefined, ty, k, 3)
            else {
                panic!("{name} has values")
            };
            for l in v {
                let n = match l {
                    Lane::Uint(n) => n as i64,
                    Lane::Sint(n) => n as i64,
                    Lane::Float(f) => panic!("{name} is an integer, found {f}"),
                };
                assert!((1..=4).contains(&n), "{name}.{k} = {n}");
            }
        }
    }
    for sv in [
        SystemValue::Position,
        SystemValue::IsFrontFace,
        SystemValue::SampleIndex,
    ] {
        let s = component(PS, "SV_X", 0, sv, ComponentType::Float32, 0, 0);
        assert_eq!(s, Source::Rasterizer, "{sv:?}");
    }
    // A vertex shader's vertex id is the corner.
    let s = component(
        VS,
        "SV_VertexID",
        0,
        SystemValue::VertexId,
        ComponentType::Uint32,
        0,
        0,
    );
    assert_eq!(s, Source::Corners([0, 1, 2, 3].map(Lane::Uint)));
}

fn ty(class: u16, base: u16, rows: u16, columns: u16, elements: u16) -> Type {
    Type {
        class,
        base,
        rows,
        columns,
        elements,
        members: Vec::new(),
        name: None,
        extra: None,
    }
}

fn var(name: &str, offset: u32, ty: Type) -> Variable {
    Variable {
        name: name.into(),
        offset,
        size: 0,
        flags: 2,
        ty,
        default_value: None,
        resources: None,
    }
}

fn float_at(rows: &[constants::Row], r: usize, lane: usize) -> f32 {
    match rows[r].lanes[lane] {
        Some(Value::Float(f)) => f,
        ref other => panic!("row {r}.{lane}: expected a float, found {other:?}"),
    }
}

#[test]
fn rdef_types_give_typed_named_rows() {
    // cbuffer { float4x4 WorldViewProj; float Scale; int Count; bool On;
    //           uint2 Pair; row_major float3x4 Bones[2]; }
    let cb = ConstantBuffer {
        name: "Globals".into(),
        kind: CbufferKind::CBuffer,
        size: 16 * 11,
        flags: 0,
        variables: vec![
            var("WorldViewProj", 0, ty(class::MATRIX_COLUMNS, 3, 4, 4, 0)),
            var("Scale", 64, ty(class::SCALAR, 3, 1, 1, 0)),
            var("Count", 68, ty(class::SCALAR, 2, 1, 1, 0)),
            var("On", 72, ty(class::SCALAR, 1, 1, 1, 0)),
            var("Pair", 80, ty(class::VECTOR, 19, 1, 2, 0)),
            var("Bones", 96, ty(class::MATRIX_ROWS, 3, 3, 4, 2)),
        ],
    };
    let rows = constants::rows(Some(&cb), 11, 5, 0);
    // The column-major matrix: register j holds column j. Rebuild M and
    // check it is a rotation about z times a scale in [0.5, 0.75]: the
    // upper 2x2's determinant is scale², M[2][2] the scale, the rest of
    // the third and fourth rows and columns the identity's.
    let m = |i: usize, j: usize| float_at(&rows, j, i);
    let scale = m(2, 2);
    assert!((0.5..=0.75).contains(&scale));
    let det = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
    assert!((det - scale * scale).abs() < 1e-5);
    assert!((m(0, 0) - m(1, 1)).abs() < 1e-6 && (m(0, 1) + m(1, 0)).abs() < 1e-6);
    assert_eq!([m(3, 0), m(3, 1), m(3, 2), m(3, 3)], [0.0, 0.0, 0.0, 1.0]);
    assert!(rows[0].names[0].starts_with("WorldViewProj"));
    // Row 4: a float in [0.25, 1], an int (2 in a y lane), a bool 1; mixed, so hex.
    assert!((0.25..=1.0).contains(&float_at(&rows, 4, 0)));
    assert_eq!(rows[4].lanes[1], Some(Value::Sint(2)));
    assert_eq!(rows[4].lanes[2], Some(Value::Uint(1)));
    assert_eq!(rows[4].lanes[3], None);
    let line = constants::row_line(4, &rows[4]);
    assert!(line.starts_with("row 4 hex "), "{line}");
    assert!(line.contains("Scale") && line.contains("Count") && line.contains("On"));
    // Row 5: uint2, typed uint, padding 0.
    let line = constants::row_line(5, &rows[5]);
    assert!(line.starts_with("row 5 uint "), "{line}");
    assert!(line.contains(" 0 0  # Pair"), "{line}");
    // Bones[0] rows 6..8, Bones[1] rows 9..11 (only 9 and 10 declared).
    assert!(rows[6].names[0].starts_with("Bones[0]"));
    assert!(rows[9].names[0].starts_with("Bones[1]"));
    assert_eq!(rows.len(), 11);
    // Every row parses as the case syntax reads it.
    let text: String =
        std::iter::once("[pixel shader]\nps_4_0\nret\n[constant buffer 0]\n".to_string())
            .chain(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| constants::row_line(i, r) + "\n"),
            )
            .collect();
    let case = Case::parse(&text, Path::new("t.case")).expect("rows parse");
    assert_eq!(case.constant_buffers[0].1.len(), 11);
}

#[test]
fn without_rdef_rows_are_positive_moderate_floats() {
    let rows = constants::rows(None, 3, 1, 2);
    for r in 0..3 {
        for lane in 0..4 {
            assert!((0.25..=1.0).contains(&float_at(&rows, r, lane)));
        }
    }
}

const SHADER: &str = "ps_5_0\n\
    dcl_constantbuffer cb0[2], immediateIndexed\n\
    dcl_sampler s0, mode_default\n\
    dcl_sampler s1, mode_comparison\n\
    dcl_resource_texture2d (float,float,float,float) t0\n\
    dcl_resource_texture2d (float,float,float,float) t1\n\
    dcl_resource_texturecube (uint,uint,uint,uint) t2\n\
    dcl_input_ps linear v1.xy\n\
    dcl_input_ps linear v2.xyzw\n\
    dcl_output o0.xyzw\n\
    dcl_temps 1\n\
    sample r0.xyzw, v1.xyxx, t0.xyzw, s0\n\
    sample_c r0.x, v1.xyxx, t1.xxxx, s1, v2.x\n\
    mul o0.xyzw, r0.xyzw, cb0[1].xyzw\n\
    ret\n";

fn generate_for(shader: &crate::dxbc::Shader, seed: u64) -> String {
    let opts = Options {
        seed,
        ..Options::default()
    };
    case_text(
        &[ShaderInput {
            shader,
            path: "s.dxbc",
        }],
        &opts,
    )
    .expect("generated")
}

#[test]
fn the_same_seed_gives_the_same_case_and_another_seed_another() {
    let s = test_shader(SHADER);
    assert_eq!(generate_for(&s, 3), generate_for(&s, 3));
    assert_ne!(generate_for(&s, 3), generate_for(&s, 4));
    let text = generate_for(&s, 3);
    // Depth data for the comparison, integers for the uint cube.
    assert!(
        text.contains("[texture 1]") && text.contains("format d32_float"),
        "{text}"
    );
    assert!(text.contains("format rgba8_uint\ndimension cube"), "{text}");
    assert!(
        text.contains("[sampler 1]") && text.contains("compare less_equal"),
        "{text}"
    );
    let case = Case::parse(&text, Path::new("t.case")).expect("parses");
    assert_eq!(case.textures.len(), 3);
    assert_eq!(case.constant_buffers[0].1.len(), 2);
    assert_eq!(case.comparison_samplers, vec![1]);
    let warnings = case
        .check_bindings(&[&s])
        .expect("matches the declarations");
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn hostile_names_stay_inside_comments() {
    let mut s = test_shader(SHADER);
    let hostile = "TEXCOORD\n[pixel shader]\r\n#\u{2028}x\u{7}";
    for sig in &mut s.signatures {
        for e in &mut sig.elements {
            e.semantic_name = hostile.to_string();
        }
    }
    let text = generate_for(&s, 0);
    assert!(!text.contains('\r') && !text.contains('\u{2028}') && !text.contains('\u{7}'));
    // The name shows (escaped) in comments, never as a line of its own.
    assert!(text.contains("TEXCOORD\\u{a}[pixel shader]"), "{text}");
    assert!(text.lines().all(|l| !l.starts_with("[pixel shader]")));
    Case::parse(&text, Path::new("t.case")).expect("parses");
    assert_eq!(shown("a\nb"), "a\\u{a}b");
    assert_eq!(shown(""), "(unnamed)");
    assert!(shown(&"x".repeat(500)).len() < 80);
}

#[test]
fn a_vertex_shader_alone_is_shown_through_a_generated_pixel_shader() {
    let vs = test_shader(
        "vs_4_0\n\
         .semantic v0 POSITION 0\n\
         .semantic v1 NORMAL 0\n\
         .semantic o0 SV_Position 0\n\
         .semantic o1 TEXCOORD 0\n\
         dcl_input v0.xyzw\n\
         dcl_input v1.xyz\n\
         dcl_output_siv o0.xyzw, position\n\
         dcl_output o1.xyz\n\
         mov o0.xyzw, v0.xyzw\n\
         mov o1.xyz, v1.xyzx\n\
         ret\n",
    );
    let text = generate_for(&vs, 0);
    let case = Case::parse(&text, Path::new("t.case")).expect("parses");
    // The generated pixel shader is inline and assembles.
    let Some(crate::harness::case::ShaderSource::Inline { text: ps, .. }) = &case.pixel_shader
    else {
        panic!("an inline pixel shader: {text}")
    };
    crate::dxbc::asm::assemble(ps).expect("the pass-through assembles");
    assert!(text.contains(".semantic v0 TEXCOORD 0 float"), "{text}");
    // The quad feeds the vertex shader: unit normals in v1.
    assert!(text.contains("# v1  xyz: NORMAL0"), "{text}");
}

#[test]
fn fill_pattern_differs_per_texel_mip_and_channel() {
    let text = "[pixel shader]\nps_4_0\nret\n[texture 0]\nsize 4 4\nmips full\nfill pattern 9\n";
    let case = Case::parse(text, Path::new("t.case")).expect("parses");
    let t = &case.textures[0].1;
    // rgba8_unorm: four bytes a texel, D3D's subresource order.
    let lanes: Vec<Vec<u8>> = t.to_bytes().chunks(4).map(<[u8]>::to_vec).collect();
    // 16 + 4 + 1 texels; most differ from their neighbours, and channels
    // of one texel differ from each other.
    assert_eq!(lanes.len(), 21);
    let same_neighbours = lanes.windows(2).filter(|w| w[0] == w[1]).count();
    assert!(same_neighbours <= 1, "{lanes:?}");
    assert!(
        lanes
            .iter()
            .filter(|l| l[0] == l[1] && l[1] == l[2])
            .count()
            <= 1
    );
    // Another seed, another pattern.
    let other = Case::parse(
        &text.replace("pattern 9", "pattern 10"),
        Path::new("t.case"),
    )
    .expect("parses");
    assert_ne!(other.textures[0].1.to_bytes()[..4], lanes[0][..]);
}
