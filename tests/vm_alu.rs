//! The emulator's arithmetic, per instruction class, against values worked
//! out by hand from the D3D11 functional spec's rules (denormal flushing,
//! NaN handling, integer edge cases), and its quad control flow.

mod common;

use std::rc::Rc;

use dxbc_dbg::dxbc::asm;
use dxbc_dbg::vm::{LaneState, Loc, Machine, Resources, Setup, VmError};

/// Runs `body` to the end for a quad whose lane `l` has `v0 = inputs[l]`.
fn run(body: &str, inputs: [[u32; 4]; 4]) -> Machine {
    common::quad::run(body, inputs).expect("runs")
}

fn out(m: &Machine, lane: usize, reg: u32) -> [u32; 4] {
    *m.state.lanes[lane].get(Loc::Output(reg)).expect("output")
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

const ZERO: [[u32; 4]; 4] = [[0; 4]; 4];

fn same(v: [u32; 4]) -> [[u32; 4]; 4] {
    [v; 4]
}

#[test]
fn float_arithmetic_flushes_denormals_but_moves_do_not() {
    let denorm = 0x0000_0001u32;
    let m = run(
        "add o0.x, v0.x, l(0.000000)\nmov o0.y, v0.x\nmul o0.z, v0.x, l(1.000000)\nand o0.w, v0.x, l(-1)",
        same([denorm, 0, 0, 0]),
    );
    assert_eq!(out(&m, 0, 0), [0, denorm, 0, denorm]);
}

#[test]
fn min_max_return_the_non_nan_operand_and_compares_are_false_on_nan() {
    let nan = 0x7fc0_0000;
    let m = run(
        "min o0.x, v0.x, l(2.000000)\nmax o0.y, v0.x, l(3.000000)\nlt o0.z, v0.x, l(1.000000)\nne o0.w, v0.x, v0.x",
        same([nan, 0, 0, 0]),
    );
    assert_eq!(out(&m, 0, 0), [f(2.0), f(3.0), 0, u32::MAX]);
}

#[test]
fn reciprocal_square_root_and_log_special_cases() {
    let m = run(
        "rcp o0.x, v0.x\nrcp o0.y, v0.y\nrsq o0.z, v0.y\nrsq o0.w, v0.z\nlog o1.x, v0.x\nlog o1.y, v0.z\nexp o1.z, l(3.000000)\nsqrt o1.w, v0.w",
        same([f(0.0), f(-0.0), f(-1.0), f(16.0)]),
    );
    let o0 = out(&m, 0, 0);
    assert_eq!(o0[0], f(f32::INFINITY));
    assert_eq!(o0[1], f(f32::NEG_INFINITY));
    assert_eq!(o0[2], f(f32::NEG_INFINITY));
    assert!(f32::from_bits(o0[3]).is_nan());
    let o1 = out(&m, 0, 1);
    assert_eq!(o1[0], f(f32::NEG_INFINITY));
    assert!(f32::from_bits(o1[1]).is_nan());
    assert_eq!(o1[2], f(8.0));
    assert_eq!(o1[3], f(4.0));
}

#[test]
fn saturate_clamps_and_turns_nan_into_zero() {
    let m = run(
        "mov_sat o0.x, v0.x\nadd_sat o0.y, v0.y, l(0.000000)\nmul_sat o0.z, v0.z, l(1.000000)\nmov_sat o0.w, v0.w",
        same([0x7fc0_0000, f(2.5), f(-3.0), f(0.25)]),
    );
    assert_eq!(out(&m, 0, 0), [0, f(1.0), 0, f(0.25)]);
}

#[test]
fn integer_division_by_zero_and_shift_counts() {
    let m = run(
        "udiv o0.x, o0.y, v0.x, v0.y\nishl o0.z, l(1), l(33)\nushr o0.w, v0.x, l(36)\nishr o1.x, l(-8), l(1)\nimul o1.y, o1.z, l(-2), l(3)\nineg o1.w, v0.x",
        same([7, 0, 0, 0]),
    );
    assert_eq!(out(&m, 0, 0), [u32::MAX, u32::MAX, 2, 0]);
    let o1 = out(&m, 0, 1);
    assert_eq!(o1[0], (-4i32) as u32);
    assert_eq!(o1[1], u32::MAX, "high half of -6");
    assert_eq!(o1[2], (-6i32) as u32);
    assert_eq!(o1[3], (-7i32) as u32);
}

#[test]
fn conversions_follow_d3d_rules() {
    let m = run(
        "ftoi o0.x, v0.x\nftou o0.y, v0.y\nftoi o0.z, v0.z\nitof o0.w, l(-3)\nf32tof16 o1.x, l(1.000000)\nf16tof32 o1.y, l(0x00004000)\nround_ne o1.z, l(2.500000)\nfrc o1.w, l(-0.250000)",
        same([0x7fc0_0000, f(-5.0), f(3.0e9), 0]),
    );
    assert_eq!(out(&m, 0, 0), [0, 0, i32::MAX as u32, f(-3.0)]);
    assert_eq!(out(&m, 0, 1), [0x3c00, f(2.0), f(2.0), f(0.75)]);
}

#[test]
fn integer_comparisons_and_bit_ops() {
    let m = run(
        "ilt o0.x, l(-1), l(0)\nult o0.y, l(-1), l(0)\nubfe o0.z, l(8), l(8), l(0x12345678)\nbfi o0.w, l(8), l(8), l(255), l(0x12345678)\ncountbits o1.x, l(0x0000ffff)\nfirstbit_hi o1.y, l(1)\nbfrev o1.z, l(1)\nswapc o1.w, r3.x, l(0), l(5), l(6)",
        ZERO,
    );
    assert_eq!(out(&m, 0, 0), [u32::MAX, 0, 0x56, 0x1234_ff78]);
    let o1 = out(&m, 0, 1);
    assert_eq!(o1[..3], [16, 31, 0x8000_0000]);
    assert_eq!(
        o1[3], 5,
        "swapc with a false condition keeps the first source"
    );
}

#[test]
fn dot_products_and_sincos() {
    let m = run(
        "dp3 o0.x, v0.xyzx, v0.xyzx\ndp2 o0.y, v0.xyxx, l(1.000000, 1.000000, 0.000000, 0.000000)\nsincos o1.x, o1.y, l(0.000000)",
        same([f(1.0), f(2.0), f(3.0), 0]),
    );
    assert_eq!(out(&m, 0, 0)[..2], [f(14.0), f(3.0)]);
    assert_eq!(out(&m, 0, 1)[..2], [f(0.0), f(1.0)]);
}

fn lanes(values: [u32; 4]) -> [[u32; 4]; 4] {
    values.map(|v| [v, 0, 0, 0])
}

#[test]
fn divergent_if_else_runs_each_lane_down_its_branch() {
    let m = run(
        "and r0.x, v0.x, l(1)\nif_nz r0.x\n  mov o0.x, l(10)\nelse\n  mov o0.x, l(20)\nendif\nmov o0.y, l(30)",
        lanes([0, 1, 2, 3]),
    );
    let got: Vec<[u32; 2]> = (0..4)
        .map(|l| [out(&m, l, 0)[0], out(&m, l, 0)[1]])
        .collect();
    assert_eq!(got, [[20, 30], [10, 30], [20, 30], [10, 30]]);
}

#[test]
fn loops_break_per_lane() {
    // Each lane counts to its own v0.x.
    let m = run(
        "mov r0.x, l(0)\nloop\n  uge r0.y, r0.x, v0.x\n  breakc_nz r0.y\n  iadd r0.x, r0.x, l(1)\nendloop\nmov o0.x, r0.x",
        lanes([0, 3, 1, 7]),
    );
    assert_eq!(
        (0..4).map(|l| out(&m, l, 0)[0]).collect::<Vec<_>>(),
        [0, 3, 1, 7]
    );
}

#[test]
fn continue_skips_the_rest_of_an_iteration() {
    let m = run(
        "mov r0.xy, l(0,0,0,0)\nloop\n  uge r0.z, r0.x, l(4)\n  breakc_nz r0.z\n  iadd r0.x, r0.x, l(1)\n  ieq r0.w, r0.x, v0.x\n  continuec_nz r0.w\n  iadd r0.y, r0.y, l(1)\nendloop\nmov o0.x, r0.y",
        lanes([2, 9, 2, 9]),
    );
    assert_eq!(
        (0..4).map(|l| out(&m, l, 0)[0]).collect::<Vec<_>>(),
        [3, 4, 3, 4]
    );
}

#[test]
fn continue_taken_by_every_lane_at_once_keeps_looping() {
    // On odd counts all four lanes continue together, leaving no lane in
    // the body: the loop must still go round again.
    let m = run(
        "mov r0.xy, l(0,0,0,0)\nloop\n  uge r0.z, r0.x, l(6)\n  breakc_nz r0.z\n  iadd r0.x, r0.x, l(1)\n  and r0.w, r0.x, l(1)\n  continuec_nz r0.w\n  iadd r0.y, r0.y, v0.x\nendloop\nmov o0.x, r0.y\nmov o0.y, r0.x",
        lanes([1, 2, 3, 4]),
    );
    // r0.x counts 1..=6 and the even counts (2, 4, 6) add v0.x.
    assert_eq!(
        (0..4).map(|l| out(&m, l, 0)).collect::<Vec<_>>(),
        [[3, 6, 0, 0], [6, 6, 0, 0], [9, 6, 0, 0], [12, 6, 0, 0]]
    );
}

#[test]
fn a_branch_no_lane_takes_is_jumped_over() {
    // Every lane fails the `if`: the machine goes straight to the `else`
    // (docs/emulator.md), so the three-instruction body takes no steps.
    let text = "ps_5_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, l(0)\nif_nz r0.x\n  mov o0.x, l(1)\n  mov o0.y, l(2)\n  mov o0.z, l(3)\nelse\n  mov o0.w, l(4)\nendif\nret\n";
    let program = asm::parse(text).expect("assembles").program;
    let mut m =
        Machine::new(Rc::new(program), Setup::empty(), Resources::default()).expect("machine");
    let steps = m.run_to_end().expect("runs");
    // mov, if, else, mov, endif, ret.
    assert_eq!(steps, 6);
    assert_eq!(out(&m, 0, 0), [0, 0, 0, 4]);
}

#[test]
fn switch_falls_through_and_takes_default() {
    let m = run(
        "mov o0.x, l(0)\nswitch v0.x\n  case l(1)\n  iadd o0.x, o0.x, l(1)\n  case l(2)\n  iadd o0.x, o0.x, l(10)\n  break\n  default\n  mov o0.x, l(100)\n  break\nendswitch",
        lanes([1, 2, 5, 1]),
    );
    assert_eq!(
        (0..4).map(|l| out(&m, l, 0)[0]).collect::<Vec<_>>(),
        [11, 10, 100, 11]
    );
}

#[test]
fn ret_inside_a_branch_retires_only_those_lanes() {
    let m = run(
        "mov o0.x, l(1)\nif_nz v0.x\n  ret\nendif\nmov o0.x, l(2)",
        lanes([0, 1, 0, 1]),
    );
    assert_eq!(
        (0..4).map(|l| out(&m, l, 0)[0]).collect::<Vec<_>>(),
        [2, 1, 2, 1]
    );
    assert!(m.lane_states().iter().all(|s| *s == LaneState::Retired));
}

#[test]
fn discard_marks_lanes_but_they_keep_running() {
    let m = run("discard_nz v0.x\nmov o0.x, l(5)", lanes([0, 1, 0, 0]));
    assert_eq!(m.discarded(), [false, true, false, false]);
    assert_eq!(out(&m, 1, 0)[0], 5);
}

#[test]
fn derivatives_coarse_and_fine() {
    // v0.x = 1, 2, 4, 8 across the quad (lanes: TL, TR, BL, BR).
    let m = run(
        "deriv_rtx_coarse o0.x, v0.x\nderiv_rty_coarse o0.y, v0.x\nderiv_rtx_fine o0.z, v0.x\nderiv_rty_fine o0.w, v0.x",
        lanes([f(1.0), f(2.0), f(4.0), f(8.0)]),
    );
    assert_eq!(out(&m, 3, 0), [f(1.0), f(3.0), f(4.0), f(6.0)]);
    assert_eq!(out(&m, 0, 0), [f(1.0), f(3.0), f(1.0), f(3.0)]);
}

#[test]
fn stepping_back_restores_every_register() {
    let text = "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 2\nmov r0.x, l(1.000000)\nloop\n  add r0.x, r0.x, r0.x\n  lt r1.x, l(100.000000), r0.x\n  breakc_nz r1.x\nendloop\nmov o0.x, r0.x\nret\n";
    let program = Rc::new(asm::parse(text).expect("assembles").program);
    let mut m = Machine::new(program, Setup::empty(), Resources::default()).expect("machine");
    let initial = m.state.clone();
    let steps = m.run_to_end().expect("runs");
    assert_eq!(
        f32::from_bits(m.state.lanes[0].get(Loc::Output(0)).unwrap()[0]),
        128.0
    );
    for _ in 0..steps {
        assert!(m.step_back());
    }
    assert!(!m.step_back());
    assert_eq!(m.state, initial);
    assert_eq!(m.pc(), 3, "back at the first executable instruction");
}

#[test]
fn an_endless_loop_hits_the_budget() {
    let text = "ps_5_0\ndcl_temps 1\nloop\n  iadd r0.x, r0.x, l(1)\nendloop\nret\n";
    let program = Rc::new(asm::parse(text).expect("assembles").program);
    let mut m = Machine::new(program, Setup::empty(), Resources::default()).expect("machine");
    m.set_budget(1000);
    match m.run_to_end() {
        Err(VmError::Budget { limit: 1000, .. }) => {}
        other => panic!("{other:?}"),
    }
}

// Runs the binary, which only the `cli` feature builds.
#[cfg(feature = "cli")]
#[test]
fn trace_with_a_case_runs_the_case_inputs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(root)
        .args([
            "trace",
            "shaders/shadow_pcf.asm",
            "--case",
            "tests/cases/shadow_pcf_edge.case",
            "--pixel",
            "7,7",
        ])
        .output()
        .expect("run dxbc-dbg");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every texel at the right edge is at depth 0.75 >= 0.5: full light.
    assert!(
        text.contains("lane 3: o0 = (1.000000, 1.000000, 1.000000, 1.000000)"),
        "{text}"
    );
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .current_dir(root)
        .args(["trace", "shaders/shadow_pcf.asm", "--case", "Cargo.toml"])
        .output()
        .expect("run dxbc-dbg");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && err.contains("Cargo.toml:1:"),
        "{err}"
    );
}
