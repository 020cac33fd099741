//! Hand-built RDEF and signatures; every expected word is worked from
//! HLSL's constant buffer packing rules (each array element and each
//! matrix register on its own 16-byte row) in the comment beside it.

use super::*;
use crate::dxbc::rdef::{ConstantBuffer, Member, ResourceBinding, Target, Variable, class as cls};

fn ty(class: u16, base: u16, rows: u16, columns: u16, elements: u16) -> Type {
    Type {
        class,
        base,
        rows,
        columns,
        elements,
        members: vec![],
        name: None,
        extra: None,
    }
}

use crate::dxbc::rdef::base::{BOOL, FLOAT, INT, UINT};

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

fn binding(name: &str, input_type: InputType, bind_point: u32, bind_count: u32) -> ResourceBinding {
    ResourceBinding {
        name: name.into(),
        input_type,
        return_type: 0,
        dimension: 0,
        num_samples: u32::MAX,
        bind_point,
        bind_count,
        flags: 0,
        space: None,
        id: None,
    }
}

/// `struct Light { float3 color; bool on; }`: color at 0, on at 12.
fn light(elements: u16) -> Type {
    let mut t = ty(cls::STRUCT, 0, 1, 4, elements);
    t.members = vec![
        Member {
            name: "color".into(),
            offset: 0,
            ty: ty(cls::VECTOR, FLOAT, 1, 3, 0),
        },
        Member {
            name: "on".into(),
            offset: 12,
            ty: ty(cls::SCALAR, BOOL, 1, 1, 0),
        },
    ];
    t
}

fn rdef(cbuffers: Vec<ConstantBuffer>, bindings: Vec<ResourceBinding>) -> Rdef {
    Rdef {
        target: Target::from_token(0xFFFF_0500),
        flags: 0,
        creator: String::new(),
        rd11: None,
        constant_buffers: cbuffers,
        bindings,
    }
}

/// ```hlsl
/// cbuffer cbFxaa : register(b1) {
///     float2 rcpFrame;        // offset 0
///     int count;              // offset 8
///     uint flags;             // offset 12
///     Light light;            // offset 16 (row 1)
///     float weights[3];       // offset 32 (rows 2, 3, 4)
///     float4x3 world;         // offset 80 (rows 5..7, column-major)
///     row_major float2x3 rm;  // offset 128 (rows 8, 9)
///     Light lights[2];        // offset 160 (rows 10, 11)
/// };
/// ```
fn fxaa() -> Names {
    let vars = vec![
        var("rcpFrame", 0, ty(cls::VECTOR, FLOAT, 1, 2, 0)),
        var("count", 8, ty(cls::SCALAR, INT, 1, 1, 0)),
        var("flags", 12, ty(cls::SCALAR, UINT, 1, 1, 0)),
        var("light", 16, light(0)),
        var("weights", 32, ty(cls::SCALAR, FLOAT, 1, 1, 3)),
        var("world", 80, ty(cls::MATRIX_COLUMNS, FLOAT, 4, 3, 0)),
        var("rm", 128, ty(cls::MATRIX_ROWS, FLOAT, 2, 3, 0)),
        var("lights", 160, light(2)),
    ];
    let cb = ConstantBuffer {
        name: "cbFxaa".into(),
        kind: CbufferKind::CBuffer,
        size: 192,
        flags: 0,
        variables: vars,
    };
    Names::of_rdef(&rdef(
        vec![cb],
        vec![binding("cbFxaa", InputType::CBuffer, 1, 1)],
    ))
}

fn at(n: &Names, row: u32, c: usize) -> Option<(&str, Option<ValueType>)> {
    let f = n.cbuffers.get(&1)?.field(row, c)?;
    Some((f.path.as_str(), f.ty))
}

#[test]
fn vectors_and_scalars_share_a_row_by_offset() {
    let n = fxaa();
    assert_eq!(n.cbuffers.get(&1).unwrap().name, "cbFxaa");
    assert!(!n.cbuffers.contains_key(&0), "the binding says slot 1");
    // rcpFrame: bytes 0..8 = row 0 .x .y; count at byte 8 = .z (int);
    // flags at 12 = .w (uint).
    assert_eq!(at(&n, 0, 0), Some(("rcpFrame.x", Some(ValueType::Float))));
    assert_eq!(at(&n, 0, 1), Some(("rcpFrame.y", Some(ValueType::Float))));
    assert_eq!(at(&n, 0, 2), Some(("count", Some(ValueType::Int))));
    assert_eq!(at(&n, 0, 3), Some(("flags", Some(ValueType::Uint))));
    let f = n.cbuffers[&1].field(0, 1).unwrap();
    assert_eq!(f.owner, "rcpFrame");
}

#[test]
fn struct_members_are_named_by_path() {
    let n = fxaa();
    // light at byte 16 = row 1: color .xyz, the bool `on` at 16 + 12 =
    // .w, read as the integer the application stored.
    assert_eq!(
        at(&n, 1, 0),
        Some(("light.color.x", Some(ValueType::Float)))
    );
    assert_eq!(
        at(&n, 1, 2),
        Some(("light.color.z", Some(ValueType::Float)))
    );
    assert_eq!(at(&n, 1, 3), Some(("light.on", Some(ValueType::Uint))));
    assert_eq!(n.cbuffers[&1].field(1, 2).unwrap().owner, "light.color");
}

#[test]
fn each_array_element_starts_a_row() {
    let n = fxaa();
    // float weights[3] at byte 32: elements at rows 2, 3, 4, each in .x;
    // .yzw of those rows are padding.
    assert_eq!(at(&n, 2, 0), Some(("weights[0]", Some(ValueType::Float))));
    assert_eq!(at(&n, 3, 0), Some(("weights[1]", Some(ValueType::Float))));
    assert_eq!(at(&n, 4, 0), Some(("weights[2]", Some(ValueType::Float))));
    assert_eq!(at(&n, 2, 1), None);
    assert_eq!(at(&n, 4, 3), None);
    // Light lights[2] at byte 160 (row 10): a Light spans 16 bytes, so
    // lights[1] starts at row 11 and its `on` is row 11 .w.
    assert_eq!(
        at(&n, 10, 1),
        Some(("lights[0].color.y", Some(ValueType::Float)))
    );
    assert_eq!(at(&n, 11, 3), Some(("lights[1].on", Some(ValueType::Uint))));
}

#[test]
fn matrices_are_named_by_row_and_column_as_packed() {
    let n = fxaa();
    // float4x3 world (4 rows, 3 columns), column-major at row 5: register
    // row 5 + C holds column C, component R row R. So _m21 (row 2,
    // column 1) is row 6 .z, and _m30 (row 3, column 0) is row 5 .w.
    assert_eq!(at(&n, 6, 2), Some(("world._m21", Some(ValueType::Float))));
    assert_eq!(at(&n, 5, 3), Some(("world._m30", Some(ValueType::Float))));
    assert_eq!(at(&n, 7, 0), Some(("world._m02", Some(ValueType::Float))));
    assert_eq!(n.cbuffers[&1].field(6, 2).unwrap().owner, "world");
    // row_major float2x3 rm at row 8: register row 8 + R holds row R,
    // components 0..3 its columns; .w is padding.
    assert_eq!(at(&n, 9, 2), Some(("rm._m12", Some(ValueType::Float))));
    assert_eq!(at(&n, 8, 1), Some(("rm._m01", Some(ValueType::Float))));
    assert_eq!(at(&n, 8, 3), None);
}

#[test]
fn hostile_arrays_stay_inside_the_buffer_and_names_are_escaped() {
    // A 16-byte cbuffer claiming `float4 a\n[65535]` and another variable
    // far past its end: only row 0 is named, the newline escaped.
    let cb = ConstantBuffer {
        name: "cb\u{1b}".into(),
        kind: CbufferKind::CBuffer,
        size: 16,
        flags: 0,
        variables: vec![
            var("a\n", 0, ty(cls::VECTOR, FLOAT, 1, 4, 65535)),
            var("far", 0xffff_fff0, ty(cls::MATRIX_ROWS, FLOAT, 4, 4, 65535)),
        ],
    };
    let n = Names::of_rdef(&rdef(
        vec![cb],
        vec![binding("cb\u{1b}", InputType::CBuffer, 0, 1)],
    ));
    let names = &n.cbuffers[&0];
    assert_eq!(names.name, "cb\\x1b");
    assert_eq!(names.fields().count(), 4);
    assert_eq!(names.field(0, 3).unwrap().path, "a\\x0a[0].w");
    assert!(names.complete);
    assert_eq!(names.field(u32::MAX, 0), None);
}

#[test]
fn a_wide_shared_struct_stops_at_the_budget() {
    // struct { W m0..m255; } w[4096], W { float f[4096]; } m[4096], all
    // members at offset 0, in a full-size buffer: millions of words
    // claimed, the walk stops at its budget and says so.
    let mut inner = ty(cls::STRUCT, 0, 1, 1, 4096);
    inner.members = vec![Member {
        name: "f".into(),
        offset: 0,
        ty: ty(cls::SCALAR, FLOAT, 1, 1, 4096),
    }];
    let mut outer = ty(cls::STRUCT, 0, 1, 1, 4096);
    outer.members = (0..256)
        .map(|i| Member {
            name: format!("m{i}"),
            offset: 0,
            ty: inner.clone(),
        })
        .collect();
    let cb = ConstantBuffer {
        name: "big".into(),
        kind: CbufferKind::CBuffer,
        size: MAX_CBUFFER_ROWS * 16,
        flags: 0,
        variables: vec![var("w", 0, outer)],
    };
    let n = Names::of_rdef(&rdef(
        vec![cb],
        vec![binding("big", InputType::CBuffer, 0, 1)],
    ));
    assert!(!n.cbuffers[&0].complete);
    // The first element's first word is still named.
    assert_eq!(n.cbuffers[&0].field(0, 0).unwrap().path, "w[0].m0[0].f[0]");
}

fn element(name: &str, index: u32, register: u32, mask: u8, sv: u32) -> SignatureElement {
    SignatureElement {
        semantic_name: name.into(),
        semantic_index: index,
        system_value: sv,
        component_type: 3,
        register,
        mask,
        rw_mask: mask,
        stream: 0,
        min_precision: 0,
    }
}

#[test]
fn packed_semantics_name_their_own_components() {
    // v0 SV_Position (system value 1, index 0: no index shown); v1.xy
    // TEXCOORD0 and v1.zw TEXCOORD1 share the register; v2.x COLOR\n3.
    let els = [
        element("SV_Position", 0, 0, 0xf, 1),
        element("TEXCOORD", 0, 1, 0b0011, 0),
        element("TEXCOORD", 1, 1, 0b1100, 0),
        element("COLOR\n", 3, 2, 0b0001, 0),
        element("SV_Depth", 0, u32::MAX, 1, 0),
    ];
    let n = Names {
        inputs: els.iter().filter_map(semantic).collect(),
        ..Names::default()
    };
    let name = |r, c| n.semantic(false, r, c).map(|s| s.name.as_str());
    assert_eq!(name(0, 3), Some("SV_Position"));
    assert_eq!(name(1, 0), Some("TEXCOORD0"));
    assert_eq!(name(1, 1), Some("TEXCOORD0"));
    assert_eq!(name(1, 2), Some("TEXCOORD1"));
    assert_eq!(name(1, 3), Some("TEXCOORD1"));
    assert_eq!(name(2, 0), Some("COLOR\\x0a3"));
    assert_eq!(name(2, 1), None);
    assert_eq!(n.semantic(true, 0, 0), None);
    // oDepth has no register: not in the list.
    assert_eq!(n.inputs.len(), 4);
}

#[test]
fn bindings_name_their_slot_ranges() {
    let n = Names::of_rdef(&rdef(
        vec![],
        vec![
            binding("g_Texture", InputType::Texture, 0, 1),
            binding("g_Sampler", InputType::Sampler, 0, 1),
            binding("shadowMaps", InputType::Texture, 2, 3),
            binding("out", InputType::UavRwTyped, 1, 1),
            binding("bindless", InputType::Texture, 10, 0),
        ],
    ));
    assert_eq!(n.binding(Slot::Resource, 0).as_deref(), Some("g_Texture"));
    assert_eq!(n.binding(Slot::Sampler, 0).as_deref(), Some("g_Sampler"));
    // shadowMaps over t2..t4: t3 is its element 1, t5 is past it.
    assert_eq!(
        n.binding(Slot::Resource, 3).as_deref(),
        Some("shadowMaps[1]")
    );
    assert_eq!(
        n.binding(Slot::Resource, 4).as_deref(),
        Some("shadowMaps[2]")
    );
    assert_eq!(n.binding(Slot::Resource, 5), None);
    assert_eq!(n.binding(Slot::Uav, 1).as_deref(), Some("out"));
    assert_eq!(n.binding(Slot::Uav, 0), None);
    // An unbounded range (count 0) holds every slot from its first.
    assert_eq!(
        n.binding(Slot::Resource, 17).as_deref(),
        Some("bindless[7]")
    );
}
