//! The bisection checks every GPU backend must pass, written once:
//! `tests/bisect_gpu.rs` (Vulkan) and `tests/bisect_webgl2.rs` (WebGL2)
//! call them with their own way of bisecting a case at a pixel. Each
//! fault injection in the translator must be named at exactly the
//! faulted instruction, with the values worked by hand below.

use std::path::{Path, PathBuf};

use dxbc_dbg::glsl::Options;
use dxbc_dbg::harness::bisect::{Bisection, Divergence, Kind};
use dxbc_dbg::harness::case::{Case, CaseShaders};
use dxbc_dbg::harness::results::CaseRecord;
use dxbc_dbg::harness::results::bisect::{BisectOutcome, Found};
use dxbc_dbg::harness::suite::{self, CaseResult, Renderer, RunOptions};
use dxbc_dbg::vm::state::Loc;

/// A backend's bisection of a case under `tests/` at a pixel.
pub type Bisect<'a> = dyn Fn(&str, (u32, u32), &Options) -> Bisection + 'a;

/// How a backend bisects: a case under `tests/` at a pixel, with
/// translation options (the backend sets its own dialect and capture),
/// and the options without a fault in that dialect.
pub struct Backend<'a> {
    pub run: &'a Bisect<'a>,
    pub plain: Options,
}

pub fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

pub fn load(name: &str) -> (Case, CaseShaders) {
    let case = Case::load(&path(name)).expect("case parses");
    let shaders = case.shaders().expect("shaders assemble");
    (case, shaders)
}

/// The divergence `b` names, which must be instruction `index`.
pub fn named(b: &Bisection, index: usize) -> &Divergence {
    let d = b
        .divergence
        .as_ref()
        .unwrap_or_else(|| panic!("no divergence found: {b:?}"));
    assert_eq!(d.index, index, "named {} `{}`: {d:?}", d.index, d.text);
    d
}

/// The line range `glsl` prints for instruction `index` of the case's
/// pixel shader: a divergence names the plain text's lines, not the
/// instrumented text's.
fn plain_lines(name: &str, index: usize, options: &Options) -> Option<(u32, u32)> {
    let (_, shaders) = load(name);
    let t = dxbc_dbg::glsl::translate(&shaders.pixel, options).expect("translates");
    t.map.lines(index)
}

pub fn wrong_swizzle(b: &Backend) {
    // shaders/cases/pcf_2d.asm: 0-5 declarations, 6 `add r0.xy, v0.xyxx,
    // cb0[0].zwzz`, with cb0[0] = (0.25, 0.25, 0, 0). At pixel (2,1) of
    // the 4x4 target v0.xy = (2.5, 1.5); the fault reads v0.yzyy, so
    // r0.x = 1.5 + 0 where D3D gives 2.5 + 0.
    let name = "cases/pcf/point_less.case";
    assert!((b.run)(name, (2, 1), &b.plain).divergence.is_none());
    let options = Options {
        wrong_swizzle_at: Some(6),
        ..b.plain.clone()
    };
    let found = (b.run)(name, (2, 1), &options);
    let d = named(&found, 6);
    match d.kind {
        Kind::Value {
            register: Loc::Temp(0),
            component: 0,
            emulator,
            gpu,
        } => {
            // The add's own result, before the mul scales it.
            assert_eq!(f32::from_bits(emulator), 2.5);
            assert_eq!(f32::from_bits(gpu), 1.5);
        }
        ref k => panic!("expected r0.x to differ: {k:?}"),
    }
    assert_eq!(d.step, Some(0));
    assert!(d.glsl_lines.is_some());
    assert_eq!(d.glsl_lines, plain_lines(name, 6, &options));
    // The source v0 is the same on both sides in the components declared
    // (xy): the fault is in the read. It is D3D's v0 for pixel (2,1), not
    // for its mirror row (2,2): the capture takes D3D's rows from the top.
    let v0 = d.sources.iter().find(|s| s.register == "v0").expect("v0");
    let xy = |r: Option<[u32; 4]>| r.map(|r| [r[0], r[1]]);
    assert_eq!(xy(v0.emulator), xy(v0.gpu));
    assert_eq!(xy(v0.gpu), Some([2.5f32.to_bits(), 1.5f32.to_bits()]));
}

pub fn dropped_frag_coord_reciprocal(b: &Backend) {
    // w_horizontal: 0 `dcl_input_ps_siv linear noperspective v0.xyzw,
    // position`. At x = 3, clip w = 32/25 = 1.28; without the reciprocal
    // SV_Position.w is gl_FragCoord.w = 1/1.28 = 0.78125.
    let name = "cases/fragcoord/w_horizontal.case";
    let options = Options {
        drop_frag_coord_reciprocal: true,
        ..b.plain.clone()
    };
    let found = (b.run)(name, (3, 1), &options);
    let d = named(&found, 0);
    assert_eq!(d.step, None, "an input differs at entry");
    match d.kind {
        Kind::Input {
            register: 0,
            component: 3,
            emulator,
            gpu,
        } => {
            assert_eq!(f32::from_bits(emulator), 1.28);
            assert_eq!(f32::from_bits(gpu), 0.78125);
        }
        ref k => panic!("expected v0.w to differ: {k:?}"),
    }
}

pub fn reversed_pcf_comparison(b: &Backend) {
    // point_less at (0,2): texel 9/16 against reference 0.5, less: 1
    // (the case's own probe). Reversed (greater-equal), 0. Instruction 8
    // is the sample_c writing o0.x. Row 2 is not row 1 mirrored: there
    // the texel is 5/16 and the reversed result 1.
    let name = "cases/pcf/point_less.case";
    let options = Options {
        reverse_pcf_compare: true,
        ..b.plain.clone()
    };
    let found = (b.run)(name, (0, 2), &options);
    let d = named(&found, 8);
    assert_eq!(
        d.kind,
        Kind::Value {
            register: Loc::Output(0),
            component: 0,
            emulator: 1f32.to_bits(),
            gpu: 0f32.to_bits(),
        }
    );
}

pub fn flipped_gather_order(b: &Backend) {
    // red_wrap_centres: 6 mul, 7 gather4 into o0.
    let name = "cases/gather4/red_wrap_centres.case";
    let options = Options {
        flip_gather_order: true,
        ..b.plain.clone()
    };
    let found = (b.run)(name, (1, 1), &options);
    let d = named(&found, 7);
    assert!(
        matches!(
            d.kind,
            Kind::Value {
                register: Loc::Output(0),
                ..
            }
        ),
        "{d:?}"
    );
}

pub fn nan_coordinate_to_sample_l(b: &Backend) {
    // tests/bisect/nan_sample_l.case gives the reasoning: the emulator's
    // 2.5 is its own reading of a NaN coordinate, and the GPU's another;
    // they part at the sample_l, instruction 7.
    let found = (b.run)("bisect/nan_sample_l.case", (1, 1), &b.plain);
    let d = named(&found, 7);
    match d.kind {
        Kind::Value {
            register: Loc::Output(0),
            emulator,
            ..
        } => assert_eq!(f32::from_bits(emulator), 2.5),
        ref k => panic!("expected o0 to differ: {k:?}"),
    }
    // Both sides fed the same NaN in.
    let r0 = &d.sources[0];
    assert_eq!(r0.emulator, r0.gpu);
    assert!(f32::from_bits(r0.gpu.expect("r0 written")[0]).is_nan());
}

/// A `diff` run through `renderer` with the swizzle fault: the case fails,
/// and its record names exactly the faulted instruction at the backend's
/// worst pixel with both values. Gives the result, the run's options and
/// that pixel, for a backend's own further checks.
pub fn failing_run_names_the_fault(
    renderer: &dyn Renderer,
    plain: &Options,
) -> (CaseResult, RunOptions, (u32, u32)) {
    // As in `wrong_swizzle`: instruction 6 `add r0.xy, v0.xyxx,
    // cb0[0].zwzz` with cb0[0].zw = 0 and v0.xy the pixel centre
    // (x + 0.5, y + 0.5); the fault reads v0.yzyy, so r0.x is y + 0.5
    // where D3D gives x + 0.5. Pixel (x, y) then compares texel (y, x)
    // instead of (x, y): the image differs wherever the two texels fall
    // on opposite sides of the reference, never on x = y.
    let name = "cases/pcf/point_less.case";
    let options = RunOptions {
        glsl: Options {
            wrong_swizzle_at: Some(6),
            ..plain.clone()
        },
        bisect_limit: suite::DEFAULT_BISECT_LIMIT,
        ..RunOptions::default()
    };
    let r = suite::run_case(&path(name), "point_less", &[renderer], &options);
    assert!(!r.passed(), "the fault makes the case fail");
    let b = r.backend(renderer.backend()).expect("drawn");
    let (x, y) = b.failing_pixel().expect("a pixel beyond tolerance");
    assert_ne!(x, y);
    let rec = CaseRecord::from_result(0, &r);
    let bisect = rec.backends[0].bisect.clone().expect("bisected");
    assert_eq!(bisect.pixel, [x, y]);
    let d = match &bisect.outcome {
        BisectOutcome::Compared {
            divergence: Some(d),
            ..
        } => d,
        other => panic!("expected a divergence: {other:?}"),
    };
    assert_eq!(d.index, 6, "named {} `{}`", d.index, d.text);
    assert_eq!(d.text, "add r0.xy, v0.xyxx, cb0[0].zwzz");
    assert_eq!(
        d.found,
        Found::Value {
            register: "r0".into(),
            component: "x".into(),
            emulator: (x as f32 + 0.5).to_bits(),
            gpu: (y as f32 + 0.5).to_bits(),
        }
    );
    (r, options, (x, y))
}
