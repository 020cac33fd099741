//! The CPU path's frames: rows of quads drawn in parallel give the images a
//! serial draw gives, bit for bit, and the same first error.
//!
//! A draw on a rayon pool thread runs serially (`harness::draw`), so each
//! case is drawn once inside a one-thread pool (serial) and once from the
//! test's own thread (rows spread over the global pool when the machine
//! has two or more CPUs; serial again otherwise, which the comparison
//! still passes).

use std::path::Path;

use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::cpu::{self, CpuError};
use dxbc_dbg::harness::image::Image;

fn serial<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool")
        .install(f)
}

fn bits(images: &[Image]) -> Vec<Vec<[u32; 4]>> {
    images
        .iter()
        .map(|i| i.pixels.iter().map(|p| p.map(f32::to_bits)).collect())
        .collect()
}

fn same_both_ways(case: &Case) {
    let shaders = case.shaders().expect("shaders assemble");
    let one = serial(|| cpu::render(case, &shaders)).expect("draws serially");
    let rows = cpu::render(case, &shaders).expect("draws in parallel");
    assert_eq!(one.len(), rows.len());
    assert!(
        bits(&one) == bits(&rows),
        "{}: images differ",
        case.path.display()
    );
}

#[test]
fn the_shadow_example_is_the_same_drawn_in_parallel() {
    // Two texture reads per pixel, a comparison sampler and interpolated
    // coordinates; 96x80 (1920 quads) is past the size that goes parallel,
    // and odd multiples of the quad make the last row and column matter.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/shadow_pcf_edge.case");
    let mut case = Case::load(&path).expect("the shipped case loads");
    case.width = 96;
    case.height = 80;
    same_both_ways(&case);
}

#[test]
fn discard_derivatives_and_position_are_the_same_drawn_in_parallel() {
    // A perspective quad (w from 1 to 3) so interpolation, derivatives and
    // SV_Position all vary per pixel; pixels where the derivative of v1.x
    // times 100 passes 0.9 are discarded. 70x66 leaves a half quad at the
    // right and bottom edges.
    let text = "[pixel shader]\nps_5_0\n\
        dcl_input_ps_siv linear noperspective v0.xyzw, position\n\
        dcl_input_ps linear v1.xy\ndcl_output o0.xyzw\ndcl_temps 2\n\
        deriv_rtx r0.x, v1.x\nmul r0.y, r0.x, l(100.0)\n\
        lt r1.x, l(0.9), r0.y\ndiscard_nz r1.x\n\
        mov o0.xy, v1.xyxx\nmov o0.z, r0.x\nmov o0.w, v0.w\nret\n\
        [render target]\nsize 70 66\n\
        [quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 3 3 0 3 v1 1 0 0 0\n\
        vertex -1 -1 0 1 v1 0 1 0 0\nvertex 3 -3 0 3 v1 1 1 0 0\n";
    let case = Case::parse(text, Path::new("inline.case")).expect("case parses");
    same_both_ways(&case);
}

#[test]
fn the_first_error_in_row_major_order_is_reported_either_way() {
    // Pixel centres below y = 40 (quad rows from y = 40 down) loop for
    // ever; the first such quad in row-major order is the one at (0, 40),
    // whichever rows the parallel draw happens to reach first.
    let text = "[pixel shader]\nps_4_0\n\
        dcl_input_ps_siv linear noperspective v0.xyzw, position\n\
        dcl_output o0.xyzw\ndcl_temps 1\n\
        lt r0.x, l(40.0), v0.y\nif_nz r0.x\nloop\nendloop\nendif\n\
        mov o0.xyzw, v0.xyzw\nret\n\
        [render target]\nsize 64 64\n";
    let case = Case::parse(text, Path::new("endless.case")).expect("case parses");
    let shaders = case.shaders().expect("shaders assemble");
    let check = |err: CpuError| {
        assert!(err.does_not_end(), "{err}");
        match err {
            CpuError::Pixel { x, y, .. } => assert_eq!((x, y), (0, 40)),
            other => panic!("{other}"),
        }
    };
    check(serial(|| cpu::render(&case, &shaders)).expect_err("endless serially"));
    check(cpu::render(&case, &shaders).expect_err("endless in parallel"));
}
