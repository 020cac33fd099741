//! Hand-worked buffer and UAV accesses, one quad at a time.

use super::{Buffer, Layout};
use crate::dxbc::asm::test_shader;
use crate::vm::{Machine, Resources, Setup};
use std::rc::Rc;

/// Runs `body` (after `ps_5_0` and its declarations) on one quad with
/// `t0` and `u0`..; returns lane outputs o0 and the UAVs afterwards.
fn run(
    body: &str,
    srv: Option<Buffer>,
    uavs: Vec<Option<Buffer>>,
    helper: [bool; 4],
) -> ([[u32; 4]; 4], Vec<Option<Buffer>>) {
    let s = test_shader(&format!("ps_5_0\n{body}\nret\n"));
    let resources = Resources {
        buffers: vec![srv],
        ..Resources::default()
    };
    let mut setup = Setup::empty();
    setup.helper = helper;
    let mut m = Machine::new(Rc::new(s.program), setup, resources).expect("prepared");
    m.set_uavs(uavs);
    m.run_to_end().expect("runs");
    let outs = std::array::from_fn(|l| m.state.lanes[l].outputs.first().copied().unwrap_or([0; 4]));
    (outs, m.take_uavs())
}

fn raw(words: &[u32]) -> Option<Buffer> {
    Some(Buffer::new(Layout::Raw, words.to_vec()))
}

#[test]
fn ld_raw_reads_four_words_from_a_byte_address_with_zero_past_the_end() {
    // Address 4 → words 1, 2, 3 and word 4, past the 4-word buffer: 0.
    let (o, _) = run(
        "dcl_output o0.xyzw\ndcl_resource_raw t0\nld_raw o0.xyzw, l(4), t0.xyzw",
        raw(&[10, 11, 12, 13]),
        vec![],
        [false; 4],
    );
    assert_eq!(o[0], [11, 12, 13, 0]);
    // The resource swizzle picks from the window: .wzyx of (11,12,13,0).
    let (o, _) = run(
        "dcl_output o0.xyzw\ndcl_resource_raw t0\nld_raw o0.xyzw, l(4), t0.wzyx",
        raw(&[10, 11, 12, 13]),
        vec![],
        [false; 4],
    );
    assert_eq!(o[3], [0, 13, 12, 11]);
}

#[test]
fn ld_structured_is_bounded_by_the_element_and_the_count() {
    // Stride 8: element 1 is words 2, 3. Offset 4 → word 3, then offset 8
    // is past the element → 0 (even though word 4 exists).
    let buf = Some(Buffer::new(
        Layout::Structured { stride: 8 },
        vec![1, 2, 3, 4, 5, 6],
    ));
    let (o, _) = run(
        "dcl_output o0.xyzw\ndcl_resource_structured t0, 8\n\
         ld_structured o0.xyzw, l(1), l(4), t0.xyzw",
        buf.clone(),
        vec![],
        [false; 4],
    );
    assert_eq!(o[0], [4, 0, 0, 0]);
    // Element 3 of a 3-element buffer: all zero.
    let (o, _) = run(
        "dcl_output o0.xyzw\ndcl_resource_structured t0, 8\n\
         ld_structured o0.xyzw, l(3), l(0), t0.xyzw",
        buf,
        vec![],
        [false; 4],
    );
    assert_eq!(o[0], [0; 4]);
}

#[test]
fn stores_follow_the_mask_and_drop_out_of_bounds_words() {
    // D3D allows only .x, .xy, .xyz, .xyzw here: .xy at byte 4 writes
    // words 1 and 2 (z/w not written). Then a store at byte 12 writes
    // word 3 (x) and drops word 4 (y), past the 4-word buffer.
    let (_, u) = run(
        "dcl_uav_raw u0\nstore_raw u0.xy, l(4), l(7, 8, 9, 10)\n\
         store_raw u0.xy, l(12), l(20, 21, 0, 0)",
        None,
        vec![raw(&[0, 0, 0, 0])],
        [false; 4],
    );
    assert_eq!(u[0].as_ref().unwrap().words, vec![0, 7, 8, 20]);
}

#[test]
fn atomics_return_the_original_value_and_helpers_do_not_write() {
    // Each of the three non-helper lanes adds 5 to word 0 (start 1) and
    // gets the value before its add: 1, 6, 11 in lane order; the helper
    // lane (3) adds nothing and reads 0. Final: 1 + 3 * 5 = 16.
    let (o, u) = run(
        "dcl_output o0.xyzw\ndcl_uav_raw u0\nimm_atomic_iadd o0.x, u0, l(0), l(5)",
        None,
        vec![raw(&[1])],
        [false, false, false, true],
    );
    assert_eq!([o[0][0], o[1][0], o[2][0], o[3][0]], [1, 6, 11, 0]);
    assert_eq!(u[0].as_ref().unwrap().words, vec![16]);
    // Signed max: -3 (0xFFFFFFFD) against 2 keeps 2; unsigned max would
    // keep 0xFFFFFFFD.
    let (_, u) = run(
        "dcl_uav_raw u0\natomic_imax u0, l(0), l(-3)\natomic_umax u0, l(4), l(-3)",
        None,
        vec![raw(&[2, 2])],
        [false; 4],
    );
    assert_eq!(u[0].as_ref().unwrap().words, vec![2, 0xFFFF_FFFD]);
}

#[test]
fn cmp_exch_swaps_only_on_a_match_and_the_counter_counts() {
    // Word 0 = 3: lane 0 compares 3 (match → 9, returns 3); lanes 1-3
    // then compare 3 against 9 and leave it, returning 9.
    let (o, u) = run(
        "dcl_output o0.xyzw\ndcl_uav_raw u0\nimm_atomic_cmp_exch o0.x, u0, l(0), l(3), l(9)",
        None,
        vec![raw(&[3])],
        [false; 4],
    );
    assert_eq!([o[0][0], o[1][0], o[2][0], o[3][0]], [3, 9, 9, 9]);
    assert_eq!(u[0].as_ref().unwrap().words, vec![9]);
    // alloc returns the counter before its increment; consume the value
    // after its decrement. Counter 5: allocs give 5..8 and leave 9.
    let mut b = Buffer::new(Layout::Structured { stride: 4 }, vec![0; 4]);
    b.counter = 5;
    let (o, u) = run(
        "dcl_output o0.xyzw\ndcl_uav_structured u0, 4\nimm_atomic_alloc o0.x, u0",
        None,
        vec![Some(b.clone())],
        [false; 4],
    );
    assert_eq!([o[0][0], o[1][0], o[2][0], o[3][0]], [5, 6, 7, 8]);
    assert_eq!(u[0].as_ref().unwrap().counter, 9);
    let (o, u) = run(
        "dcl_output o0.xyzw\ndcl_uav_structured u0, 4\nimm_atomic_consume o0.x, u0",
        None,
        vec![Some(b)],
        [false; 4],
    );
    assert_eq!([o[0][0], o[1][0], o[2][0], o[3][0]], [4, 3, 2, 1]);
    assert_eq!(u[0].as_ref().unwrap().counter, 1);
}

#[test]
fn bufinfo_counts_bytes_for_raw_and_elements_for_structured() {
    assert_eq!(Buffer::new(Layout::Raw, vec![0; 5]).info(), 20);
    assert_eq!(
        Buffer::new(Layout::Structured { stride: 12 }, vec![0; 7]).info(),
        2
    );
}

#[test]
fn bufinfo_reads_srv_and_uav_views() {
    // 6 words = 24 bytes raw (t0); u0 is 3 elements of 8 bytes.
    let (o, _) = run(
        "dcl_output o0.xyzw\ndcl_resource_raw t0\ndcl_uav_structured u0, 8\n\
         bufinfo o0.x, t0.xxxx\nbufinfo o0.y, u0.xxxx",
        raw(&[0; 6]),
        vec![Some(Buffer::new(
            Layout::Structured { stride: 8 },
            vec![0; 6],
        ))],
        [false; 4],
    );
    assert_eq!(&o[0][..2], &[24, 3]);
}

#[test]
fn typed_r32_uavs_load_one_channel_and_store_value_x() {
    use crate::vm::texture::Format;
    // u0 is R32_FLOAT, 2 elements (1.5, 2.5). Every lane stores 4.0
    // (value.x) to element 0, then loads it back: one channel reads
    // (4.0, 0, 0, 1.0), the missing alpha being 1 of the format's type.
    let f = |v: f32| v.to_bits();
    let u = Some(Buffer::new(
        Layout::Typed {
            format: Format::R32Float,
            row: None,
        },
        vec![f(1.5), f(2.5)],
    ));
    let (o, u) = run(
        "dcl_output o0.xyzw\ndcl_uav_typed_buffer (float,float,float,float) u0\n\
         store_uav_typed u0.xyzw, l(0, 0, 0, 0), l(4.0, 0, 0, 0)\n\
         ld_uav_typed o0.xyzw, l(0, 0, 0, 0), u0.xyzw",
        None,
        vec![u],
        [false; 4],
    );
    assert_eq!(o[0], [f(4.0), 0, 0, f(1.0)]);
    assert_eq!(u[0].as_ref().unwrap().words, vec![f(4.0), f(2.5)]);
    // Element 2 of a 2-element R32_UINT UAV: the store is dropped (the
    // words stay 7, 8) and the load is all 0, alpha included.
    let (o1, u) = run(
        "dcl_output o0.xyzw\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\n\
         store_uav_typed u0.xyzw, l(2, 0, 0, 0), l(9, 9, 9, 9)\n\
         ld_uav_typed o0.xyzw, l(2, 0, 0, 0), u0.xyzw",
        None,
        vec![Some(Buffer::new(
            Layout::Typed {
                format: Format::R32Uint,
                row: None,
            },
            vec![7, 8],
        ))],
        [false; 4],
    );
    assert_eq!(o1[0], [0; 4]);
    assert_eq!(u[0].as_ref().unwrap().words, vec![7, 8]);
}

#[test]
fn a_typed_2d_uav_is_addressed_by_x_and_y() {
    use crate::vm::texture::Format;
    // A 2x2 R32_UINT texture (texel (x, y) is word y * 2 + x). A store at
    // (1, 1) lands in word 3; one at (2, 0), past the width, is dropped,
    // not wrapped into word 2.
    let (_, u) = run(
        "dcl_uav_typed_texture2d (uint,uint,uint,uint) u0\n\
         store_uav_typed u0.xyzw, l(1, 1, 0, 0), l(7, 0, 0, 0)\n\
         store_uav_typed u0.xyzw, l(2, 0, 0, 0), l(9, 0, 0, 0)",
        None,
        vec![Some(Buffer::new(
            Layout::Typed {
                format: Format::R32Uint,
                row: Some(2),
            },
            vec![0; 4],
        ))],
        [false; 4],
    );
    assert_eq!(u[0].as_ref().unwrap().words, vec![0, 0, 0, 7]);
}

#[test]
fn a_step_reports_its_memory_writes_and_stepping_back_restores_them() {
    use super::{Cell, MemoryWrite};
    // Stride 8: element 1 is words 2, 3. Lane l stores (l, 7) there (the
    // lanes in order, so lane 3's value stands), then the append counter
    // moves once per lane.
    let s = test_shader(
        "ps_5_0\ndcl_uav_structured u1, 8\ndcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_temps 1\nftou r0.x, v0.x\nmov r0.y, l(7)\n\
         store_structured u1.xy, l(1), l(0), r0.xyxx\nimm_atomic_alloc r0.z, u1\nret\n",
    );
    let mut setup = Setup::empty();
    // Lane x positions 0, 1, 0, 1 (pixel centres truncated).
    for l in 0..4 {
        setup.inputs[l] = vec![[(l % 2) as f32 + 0.5, 0.5, 0.0, 1.0].map(f32::to_bits)];
    }
    let mut m = Machine::new(Rc::new(s.program), setup, Resources::default()).expect("prepared");
    let before = vec![5, 5, 9, 9, 5, 5];
    m.set_uavs(vec![
        None,
        Some(Buffer::new(
            Layout::Structured { stride: 8 },
            before.clone(),
        )),
    ]);
    // 0-2 declarations, 3 ftou, 4 mov, 5 the store, 6 the alloc.
    m.run_to(5).expect("runs to the store");
    assert!(m.memory_writes().is_empty(), "mov writes no memory");
    m.step().expect("store_structured");
    let w = |lane, word, old, new| MemoryWrite {
        slot: 1,
        lane,
        cell: Cell::Word { element: 1, word },
        old,
        new,
    };
    // Lane 0 wrote 0 over 9 and 7 over 9; lane 1 then 1 over 0 and 7
    // over 7; lanes 2 and 3 repeat lanes 0 and 1.
    assert_eq!(
        m.memory_writes(),
        [
            w(0, 2, 9, 0),
            w(0, 3, 9, 7),
            w(1, 2, 0, 1),
            w(1, 3, 7, 7),
            w(2, 2, 1, 0),
            w(2, 3, 7, 7),
            w(3, 2, 0, 1),
            w(3, 3, 7, 7),
        ]
    );
    assert_eq!(m.uav(1).unwrap().words, [5, 5, 1, 7, 5, 5]);
    m.step().expect("imm_atomic_alloc");
    assert_eq!(m.uav(1).unwrap().counter, 4);
    assert_eq!(m.memory_writes().len(), 4);
    assert_eq!(m.memory_writes()[3].cell, Cell::Counter);
    // Back over the alloc: the counter returns to 0; back over the store:
    // element 1 has its old words, and the log shows the mov's (none).
    assert!(m.step_back());
    assert_eq!(m.uav(1).unwrap().counter, 0);
    assert!(m.step_back());
    assert_eq!(m.uav(1).unwrap().words, before);
    assert!(m.memory_writes().is_empty());
}

#[test]
fn resinfo_on_a_typed_2d_uav_reports_its_one_mip() {
    use crate::vm::texture::Format;
    // u1 is a 3x2 R32_UINT texture (6 words). The slot's SRV t1 is unbound:
    // the query must read the UAV, not a texture in the same slot. A UAV
    // view has one mip: mip 0 is (3, 2, 0, 1), mip 1 is out of range and
    // keeps only the mip count, (0, 0, 0, 1); the mip is read from a
    // register too.
    let tex = || {
        Some(Buffer::new(
            Layout::Typed {
                format: Format::R32Uint,
                row: Some(3),
            },
            vec![0; 6],
        ))
    };
    for (mip, expected) in [(0, [3, 2, 0, 1]), (1, [0, 0, 0, 1])] {
        let (o, _) = run(
            &format!(
                "dcl_output o0.xyzw\ndcl_uav_typed_texture2d (uint,uint,uint,uint) u1\n\
                 dcl_temps 1\nmov r0.x, l({mip})\nresinfo_uint o0.xyzw, r0.x, u1.xyzw"
            ),
            None,
            vec![None, tex()],
            [false; 4],
        );
        assert_eq!(o, [expected; 4], "mip {mip}");
    }
    // The resource swizzle picks before the mask: u1.wzyx into .xy is
    // (mips, 0) = (1, 0).
    let (o, _) = run(
        "dcl_output o0.xyzw\ndcl_uav_typed_texture2d (uint,uint,uint,uint) u1\n\
         mov o0.xyzw, l(9, 9, 9, 9)\nresinfo_uint o0.xy, l(0), u1.wzyx",
        None,
        vec![None, tex()],
        [false; 4],
    );
    assert_eq!(o[0], [1, 0, 9, 9]);
}

#[test]
fn uav_resinfo_values_by_form() {
    use crate::vm::texture::{Format, ResInfoReturn::*};
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    let inf = f32::INFINITY;
    // 4x2 (8 words): float form (4.0, 2.0, 0.0, 1.0); _rcpFloat takes
    // 1/size of width and height only: (0.25, 0.5, 0.0, 1.0); past mip 0
    // the sizes are 0, so 1/0 = +inf, while .z (no size) stays 0.
    let b = Buffer::new(
        Layout::Typed {
            format: Format::R32Float,
            row: Some(4),
        },
        vec![0; 8],
    );
    assert_eq!(b.resinfo(0, Uint), [4, 2, 0, 1]);
    assert_eq!(b.resinfo(0, Float), f([4.0, 2.0, 0.0, 1.0]));
    assert_eq!(b.resinfo(0, RcpFloat), f([0.25, 0.5, 0.0, 1.0]));
    assert_eq!(b.resinfo(1, RcpFloat), f([inf, inf, 0.0, 1.0]));
    assert_eq!(b.resinfo(u32::MAX, Uint), [0, 0, 0, 1]);
    // A typed buffer of 5 elements: (5, 0, 0, 1), as a typed buffer
    // texture; only the element count is a size.
    let buf = Buffer::new(
        Layout::Typed {
            format: Format::R32Uint,
            row: None,
        },
        vec![0; 5],
    );
    assert_eq!(buf.resinfo(0, Uint), [5, 0, 0, 1]);
    assert_eq!(buf.resinfo(0, RcpFloat), f([0.2, 0.0, 0.0, 1.0]));
    // resinfo cannot name a raw or structured view: zeros.
    assert_eq!(
        Buffer::new(Layout::Raw, vec![0; 4]).resinfo(0, Uint),
        [0; 4]
    );
}
