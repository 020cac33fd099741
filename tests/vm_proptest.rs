//! Property tests of the emulator's ALU against a direct Rust model of each
//! opcode's D3D11 definition, over arbitrary 32-bit inputs (NaNs, infinities
//! and denormals included).

use std::rc::Rc;

use dxbc_dbg::dxbc::asm;
use dxbc_dbg::vm::{Loc, Machine, Resources, Setup};
use proptest::prelude::*;

/// Runs `op o0.x, v0.x, v0.y` for inputs a, b and returns o0.x.
fn run2(op: &str, a: u32, b: u32) -> u32 {
    let text = format!(
        "ps_5_0\ndcl_input_ps constant v0.xy\ndcl_output o0.x\n{op} o0.x, v0.x, v0.y\nret\n"
    );
    let program = Rc::new(asm::parse(&text).expect("assembles").program);
    let mut setup = Setup::empty();
    for l in 0..4 {
        setup.inputs[l] = vec![[a, b, 0, 0]];
    }
    let mut m = Machine::new(program, setup, Resources::default()).expect("machine");
    m.run_to_end().expect("runs");
    m.state.lanes[0].get(Loc::Output(0)).expect("o0")[0]
}

/// Runs `op o0.x, v0, v1` on four-component inputs, with the fast paths on
/// or off, and returns o0.x.
fn run_vec(op: &str, a: [u32; 4], b: [u32; 4], fast: bool) -> u32 {
    let text = format!(
        "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_input_ps constant v1.xyzw\ndcl_output o0.x\n{op} o0.x, v0.xyzw, v1.xyzw\nret\n"
    );
    let program = Rc::new(asm::parse(&text).expect("assembles").program);
    let mut setup = Setup::empty();
    for l in 0..4 {
        setup.inputs[l] = vec![a, b];
    }
    let mut m = Machine::new(program, setup, Resources::default()).expect("machine");
    m.set_fast_paths(fast);
    m.run_to_end().expect("runs");
    m.state.lanes[0].get(Loc::Output(0)).expect("o0")[0]
}

fn flush(b: u32) -> u32 {
    if b & 0x7f80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

fn fl(b: u32) -> f32 {
    f32::from_bits(flush(b))
}

/// Equal as results: identical bits, or both NaN (payloads may differ).
fn same(x: u32, y: u32) -> bool {
    x == y || (f32::from_bits(x).is_nan() && f32::from_bits(y).is_nan())
}

fn mask(b: bool) -> u32 {
    if b { u32::MAX } else { 0 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn integer_ops_match_the_model(a: u32, b: u32) {
        prop_assert_eq!(run2("iadd", a, b), a.wrapping_add(b));
        prop_assert_eq!(run2("and", a, b), a & b);
        prop_assert_eq!(run2("or", a, b), a | b);
        prop_assert_eq!(run2("xor", a, b), a ^ b);
        prop_assert_eq!(run2("ishl", a, b), a << (b & 31));
        prop_assert_eq!(run2("ushr", a, b), a >> (b & 31));
        prop_assert_eq!(run2("ishr", a, b), ((a as i32) >> (b & 31)) as u32);
        prop_assert_eq!(run2("ult", a, b), mask(a < b));
        prop_assert_eq!(run2("ige", a, b), mask(a as i32 >= b as i32));
        prop_assert_eq!(run2("ieq", a, b), mask(a == b));
        prop_assert_eq!(run2("umin", a, b), a.min(b));
        prop_assert_eq!(run2("imax", a, b), (a as i32).max(b as i32) as u32);
    }

    #[test]
    fn float_ops_match_the_model(a: u32, b: u32) {
        let (x, y) = (fl(a), fl(b));
        prop_assert!(same(run2("add", a, b), flush((x + y).to_bits())));
        prop_assert!(same(run2("mul", a, b), flush((x * y).to_bits())));
        prop_assert!(same(run2("div", a, b), flush((x / y).to_bits())));
        prop_assert_eq!(run2("lt", a, b), mask(x < y));
        prop_assert_eq!(run2("ge", a, b), mask(x >= y));
        prop_assert_eq!(run2("eq", a, b), mask(x == y));
        prop_assert_eq!(run2("ne", a, b), mask(x != y));
        let min = if x.is_nan() { y } else if y.is_nan() { x } else if x == y { if x.is_sign_negative() { x } else { y } } else { x.min(y) };
        prop_assert!(same(run2("min", a, b), min.to_bits()));
        let max = if x.is_nan() { y } else if y.is_nan() { x } else if x == y { if x.is_sign_negative() { y } else { x } } else { x.max(y) };
        prop_assert!(same(run2("max", a, b), max.to_bits()));
    }

    #[test]
    fn dot_products_match_the_model(a: [u32; 4], b: [u32; 4]) {
        for (op, n) in [("dp2", 2), ("dp3", 3), ("dp4", 4)] {
            // Products added in order, each partial sum flushed.
            let mut sum = 0.0f32;
            for c in 0..n {
                sum = fl((sum + fl(a[c]) * fl(b[c])).to_bits());
            }
            let want = flush(sum.to_bits());
            for fast in [true, false] {
                let got = run_vec(op, a, b, fast);
                prop_assert!(same(got, want), "{} fast={}: {:#x} != {:#x}", op, fast, got, want);
            }
        }
    }
}
