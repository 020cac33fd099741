//! `bisect` on Vulkan: with a fault injected in the translation it names
//! exactly the faulted instruction; without one, the cases of
//! `tests/cases` show no divergence at a covered pixel each. Without a
//! Vulkan adapter these tests fail, saying how to install lavapipe, as
//! `harness_gpu` does.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dxbc_dbg::glsl::{Dialect, Options};
use dxbc_dbg::harness::bisect::{self, BisectError, Bisection, Kind};
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::gpu::Gpu;
use dxbc_dbg::vm::state::Loc;

fn gpu() -> Gpu {
    Gpu::new().unwrap_or_else(|e| {
        panic!(
            "{e}\nThe GPU tests need a Vulkan driver; without a GPU install Mesa's lavapipe \
             (`apt-get install mesa-vulkan-drivers`)."
        )
    })
}

fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

fn run(gpu: &Gpu, name: &str, pixel: (u32, u32), options: &Options) -> Bisection {
    let case = Case::load(&path(name)).expect("case parses");
    let shaders = case.shaders().expect("shaders assemble");
    bisect::vulkan(gpu, &case, &shaders, pixel, options)
        .unwrap_or_else(|e| panic!("{name} at {pixel:?}: {e}"))
}

fn plain() -> Options {
    Options::new(Dialect::Vk450)
}

/// The divergence `b` names, which must be instruction `index`.
fn named(b: &Bisection, index: usize) -> &bisect::Divergence {
    let d = b
        .divergence
        .as_ref()
        .unwrap_or_else(|| panic!("no divergence found: {b:?}"));
    assert_eq!(d.index, index, "named {} `{}`: {d:?}", d.index, d.text);
    d
}

#[test]
fn a_wrong_swizzle_is_named_at_its_instruction() {
    let gpu = gpu();
    // shaders/cases/pcf_2d.asm: 0-5 declarations, 6 `add r0.xy, v0.xyxx,
    // cb0[0].zwzz`, with cb0[0] = (0.25, 0.25, 0, 0). At pixel (2,1)
    // v0.xy = (2.5, 1.5); the fault reads v0.yzyy, so r0.x = 1.5 + 0
    // where D3D gives 2.5 + 0.
    let name = "cases/pcf/point_less.case";
    assert!(run(&gpu, name, (2, 1), &plain()).divergence.is_none());
    let options = Options {
        wrong_swizzle_at: Some(6),
        ..plain()
    };
    let b = run(&gpu, name, (2, 1), &options);
    let d = named(&b, 6);
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
    // The source v0 is the same on both sides in the components declared
    // (xy): the fault is in the read.
    let v0 = d.sources.iter().find(|s| s.register == "v0").expect("v0");
    let xy = |r: Option<[u32; 4]>| r.map(|r| [r[0], r[1]]);
    assert_eq!(xy(v0.emulator), xy(v0.gpu));
    assert_eq!(xy(v0.gpu), Some([2.5f32.to_bits(), 1.5f32.to_bits()]));
}

#[test]
fn a_dropped_frag_coord_reciprocal_is_named_at_the_position_declaration() {
    let gpu = gpu();
    // w_horizontal: 0 `dcl_input_ps_siv linear noperspective v0.xyzw,
    // position`. At x = 3, clip w = 32/25 = 1.28; without the reciprocal
    // SV_Position.w is gl_FragCoord.w = 1/1.28 = 0.78125.
    let name = "cases/fragcoord/w_horizontal.case";
    let options = Options {
        drop_frag_coord_reciprocal: true,
        ..plain()
    };
    let b = run(&gpu, name, (3, 1), &options);
    let d = named(&b, 0);
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

#[test]
fn a_reversed_pcf_comparison_is_named_at_the_sample_c() {
    let gpu = gpu();
    // point_less at (0,2): texel 9/16 against reference 0.5, less: 1
    // (the case's own probe). Reversed (greater-equal), 0. Instruction 8
    // is the sample_c writing o0.x.
    let name = "cases/pcf/point_less.case";
    let options = Options {
        reverse_pcf_compare: true,
        ..plain()
    };
    let b = run(&gpu, name, (0, 2), &options);
    let d = named(&b, 8);
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

#[test]
fn a_flipped_gather_order_is_named_at_the_gather() {
    let gpu = gpu();
    // red_wrap_centres: 6 mul, 7 gather4 into o0.
    let name = "cases/gather4/red_wrap_centres.case";
    let options = Options {
        flip_gather_order: true,
        ..plain()
    };
    let b = run(&gpu, name, (1, 1), &options);
    let d = named(&b, 7);
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

#[test]
fn a_nan_coordinate_to_sample_l_is_named_at_the_sample() {
    let gpu = gpu();
    // tests/bisect/nan_sample_l.case gives the reasoning: the emulator's
    // 2.5 is its own reading of a NaN coordinate, and lavapipe's is
    // another; they part at the sample_l, instruction 7.
    let b = run(&gpu, "bisect/nan_sample_l.case", (1, 1), &plain());
    let d = named(&b, 7);
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

#[test]
fn a_discard_taken_on_both_sides_is_no_divergence() {
    let gpu = gpu();
    // tests/bisect/discard_taken.case: at (1,5) v0.x = 1.5 < 4, the
    // discard (instruction 4) is taken. The vk450 invocation ends there
    // after recording steps 3 and 4; the emulator's lane runs on through 5
    // and 6, as D3D's does. Both discarded the pixel at the same step, so
    // there is nothing to tell apart: no divergence, two steps compared.
    let b = run(&gpu, "bisect/discard_taken.case", (1, 5), &plain());
    assert!(b.divergence.is_none(), "{b:?}");
    assert_eq!((b.compared, b.emulator_steps, b.gpu_steps), (2, 4, 2));
    // At (6,5) v0.x = 6.5: not taken, and both run the four steps.
    let b = run(&gpu, "bisect/discard_taken.case", (6, 5), &plain());
    assert!(b.divergence.is_none(), "{b:?}");
    assert_eq!((b.compared, b.emulator_steps, b.gpu_steps), (4, 4, 4));
}

fn cases(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/cases")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cases(&p, out);
        } else if p.extension().is_some_and(|e| e == "case") {
            out.push(p);
        }
    }
}

/// Every case of `tests/cases` that Vulkan draws bisects to no divergence
/// at its first covered pixel from the centre outwards. Cases the
/// bisection cannot take are listed with the reason: multisampled ones,
/// those not applicable on Vulkan (`[require]`).
#[test]
fn without_a_fault_no_case_diverges() {
    let gpu = gpu();
    let mut all = Vec::new();
    cases(&path("cases"), &mut all);
    let start = Instant::now();
    let mut diverged = Vec::new();
    let (mut compared, mut skipped) = (0, Vec::new());
    for p in &all {
        let case = Case::load(p).expect("case parses");
        let shaders = case.shaders().expect("shaders assemble");
        let (w, h) = (case.width, case.height);
        // The centre first, then the rest in rows: the first not a helper.
        let centre = (w / 2, h / 2);
        let candidates =
            std::iter::once(centre).chain((0..h).flat_map(|y| (0..w).map(move |x| (x, y))));
        let mut outcome = None;
        for pixel in candidates {
            match bisect::vulkan(&gpu, &case, &shaders, pixel, &plain()) {
                Err(BisectError::Helper { .. }) => continue,
                r => {
                    outcome = Some((pixel, r));
                    break;
                }
            }
        }
        let name = p
            .strip_prefix(path("cases"))
            .unwrap_or(p)
            .display()
            .to_string();
        match outcome {
            None => skipped.push(format!("{name}: no covered pixel")),
            Some((_, Err(e @ (BisectError::Multisample(_) | BisectError::Other(_))))) => {
                skipped.push(format!("{name}: {e}"))
            }
            Some((pixel, Err(e))) => panic!("{name} at {pixel:?}: {e}"),
            Some((pixel, Ok(b))) => {
                compared += 1;
                if let Some(d) = b.divergence {
                    diverged.push(format!(
                        "{name} at {pixel:?}: {} `{}`: {:?}",
                        d.index, d.text, d.kind
                    ));
                }
            }
        }
    }
    eprintln!(
        "{compared} cases bisected in {:?} ({} skipped):\n  {}",
        start.elapsed(),
        skipped.len(),
        skipped.join("\n  ")
    );
    assert!(diverged.is_empty(), "diverged:\n{}", diverged.join("\n"));
    assert!(compared > 150, "only {compared} cases bisected");
}

/// A `diff` run bisects the case a fault makes fail at its worst pixel:
/// the results record names exactly the faulted instruction with both
/// values, the HTML report and JUnit show it, and a run with bisection
/// off (`--no-bisect`) records none.
#[test]
fn a_failing_run_reports_the_faulted_instruction() {
    use dxbc_dbg::harness::report;
    use dxbc_dbg::harness::results::bisect::{BisectOutcome, Found};
    use dxbc_dbg::harness::results::{CaseRecord, Results, RunInfo};
    use dxbc_dbg::harness::suite::{self, Backend, Renderer, RunOptions};

    let gpu = gpu();
    // As in `a_wrong_swizzle_is_named_at_its_instruction`: instruction 6
    // `add r0.xy, v0.xyxx, cb0[0].zwzz` with cb0[0].zw = 0 and v0.xy the
    // pixel centre (x + 0.5, y + 0.5); the fault reads v0.yzyy, so r0.x
    // is y + 0.5 where D3D gives x + 0.5. Pixel (x, y) then compares
    // texel (y, x) instead of (x, y): the image differs wherever the two
    // texels fall on opposite sides of the reference, never on x = y.
    let name = "cases/pcf/point_less.case";
    let options = RunOptions {
        glsl: Options {
            wrong_swizzle_at: Some(6),
            ..plain()
        },
        bisect_limit: suite::DEFAULT_BISECT_LIMIT,
        ..RunOptions::default()
    };
    let renderers: [&dyn Renderer; 1] = [&gpu];
    let r = suite::run_case(&path(name), "point_less", &renderers, &options);
    assert!(!r.passed(), "the fault makes the case fail");
    let b = r.backend(Backend::Vulkan).expect("drawn on vulkan");
    let (x, y) = b.failing_pixel().expect("a pixel beyond tolerance");
    assert_ne!(x, y);
    let rec = CaseRecord::from_result(0, &r);
    let bisect = rec.backends[0].bisect.clone().expect("bisected");
    assert_eq!(bisect.pixel, [x, y]);
    let (emulator, gpu_bits) = (x as f32 + 0.5, y as f32 + 0.5);
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
            emulator: emulator.to_bits(),
            gpu: gpu_bits.to_bits(),
        }
    );

    let info = RunInfo {
        inputs: vec![name.into()],
        backends: vec!["vulkan".into()],
        filter: None,
        shard: None,
        bless: false,
        auto: None,
    };
    let doc = Results::from_run(info.clone(), vec![], 1, &[0], std::slice::from_ref(&r));
    // Through the document's JSON, as `report merge` would read it.
    let doc = Results::from_json(&doc.to_json()).expect("reads back");
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-bisect-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let html =
        std::fs::read_to_string(report::write_html(&dir, &doc).expect("writes")).expect("reads");
    let hex = |v: f32| format!("(0x{:08x})", v.to_bits());
    for want in [
        "<h3>First divergent instruction</h3>".to_string(),
        "<td>6: <code>add r0.xy, v0.xyxx, cb0[0].zwzz</code></td>".into(),
        "<tr><th>register</th><td>r0.x</td></tr>".into(),
        format!("<th>emulator</th><td>{emulator:.6} {}", hex(emulator)),
        format!("<th>GPU</th><td>{gpu_bits:.6} {}", hex(gpu_bits)),
        format!("--pixel {x},{y} --backend vulkan</code>"),
    ] {
        assert!(html.contains(&want), "{want}\n{html}");
    }
    let junit = report::junit(&doc);
    assert!(
        junit.contains(&format!(
            "first divergent instruction at pixel ({x}, {y}): instruction 6 `add r0.xy, \
             v0.xyxx, cb0[0].zwzz`: r0.x: emulator {emulator:.6} {}",
            hex(emulator)
        )),
        "{junit}"
    );

    let off = RunOptions {
        bisect_limit: 0,
        ..options
    };
    let r = suite::run_case(&path(name), "point_less", &renderers, &off);
    assert!(!r.passed());
    assert!(r.backends.iter().all(|b| b.bisect.is_none()));
    let doc = Results::from_run(info, vec![], 1, &[0], &[r]);
    let html =
        std::fs::read_to_string(report::write_html(&dir, &doc).expect("writes")).expect("reads");
    assert!(!html.contains("First divergent instruction"), "{html}");
    assert!(!html.contains("dxbc-dbg bisect"), "{html}");
    let _ = std::fs::remove_dir_all(&dir);
}
