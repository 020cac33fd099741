//! `bisect` on WebGL2 (the es300 text in headless Chromium): with a fault
//! injected in the translation it names exactly the faulted instruction;
//! without one, the cases of `tests/cases` show no divergence at a covered
//! pixel each. Without a browser these tests fail, saying what to
//! install, as `webgl2_browser` does.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dxbc_dbg::glsl::{Dialect, Options};
use dxbc_dbg::harness::bisect::{self, BisectError, Bisection, Kind};
use dxbc_dbg::harness::case::{Case, CaseShaders};
use dxbc_dbg::harness::webgl2::{Config, WebGl2};
use dxbc_dbg::vm::state::Loc;

fn browser() -> WebGl2 {
    WebGl2::new(Config::default())
        .expect("no browser for WebGL2: install Debian's chromium-headless-shell")
}

fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

fn load(name: &str) -> (Case, CaseShaders) {
    let case = Case::load(&path(name)).expect("case parses");
    let shaders = case.shaders().expect("shaders assemble");
    (case, shaders)
}

fn run(webgl2: &WebGl2, name: &str, pixel: (u32, u32), options: &Options) -> Bisection {
    let (case, shaders) = load(name);
    bisect::webgl2(webgl2, &case, &shaders, pixel, options)
        .unwrap_or_else(|e| panic!("{name} at {pixel:?}: {e}"))
}

fn plain() -> Options {
    Options::new(Dialect::Es300)
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

/// The line range `glsl` prints for instruction `index` of the case's
/// pixel shader in es300: the divergence names the plain text's lines.
fn plain_lines(name: &str, index: usize, options: &Options) -> Option<(u32, u32)> {
    let (_, shaders) = load(name);
    let t = dxbc_dbg::glsl::translate(&shaders.pixel, options).expect("translates");
    t.map.lines(index)
}

#[test]
fn a_wrong_swizzle_is_named_at_its_instruction() {
    let webgl2 = browser();
    // shaders/cases/pcf_2d.asm: 0-5 declarations, 6 `add r0.xy, v0.xyxx,
    // cb0[0].zwzz`, with cb0[0] = (0.25, 0.25, 0, 0). At pixel (2,1) of
    // the 4x4 target v0.xy = (2.5, 1.5); the fault reads v0.yzyy, so
    // r0.x = 1.5 + 0 where D3D gives 2.5 + 0.
    let name = "cases/pcf/point_less.case";
    let options = Options {
        wrong_swizzle_at: Some(6),
        ..plain()
    };
    // Both in one browser run, as a sweep would take them.
    let (case, shaders) = load(name);
    let both = [
        bisect::webgl2_all(&webgl2, &[(&case, &shaders, (2, 1))], &plain()),
        bisect::webgl2_all(&webgl2, &[(&case, &shaders, (2, 1))], &options),
    ];
    let [clean, faulted] = both.map(|mut r| r.pop().expect("one").expect("bisects"));
    assert!(clean.divergence.is_none(), "{clean:?}");
    let d = named(&faulted, 6);
    match d.kind {
        Kind::Value {
            register: Loc::Temp(0),
            component: 0,
            emulator,
            gpu,
        } => {
            assert_eq!(f32::from_bits(emulator), 2.5);
            assert_eq!(f32::from_bits(gpu), 1.5);
        }
        ref k => panic!("expected r0.x to differ: {k:?}"),
    }
    assert_eq!(d.step, Some(0));
    assert_eq!(d.glsl_lines, plain_lines(name, 6, &options));
    // The GPU's v0 is D3D's for pixel (2,1), not its mirror row (2,2):
    // the pixel test and the read-back take D3D's rows from the top.
    let v0 = d.sources.iter().find(|s| s.register == "v0").expect("v0");
    let xy = |r: Option<[u32; 4]>| r.map(|r| [r[0], r[1]]);
    assert_eq!(xy(v0.emulator), xy(v0.gpu));
    assert_eq!(xy(v0.gpu), Some([2.5f32.to_bits(), 1.5f32.to_bits()]));
}

#[test]
fn a_dropped_frag_coord_reciprocal_is_named_at_the_position_declaration() {
    let webgl2 = browser();
    // w_horizontal: 0 `dcl_input_ps_siv linear noperspective v0.xyzw,
    // position`. At x = 3, clip w = 32/25 = 1.28; without the reciprocal
    // SV_Position.w is gl_FragCoord.w = 1/1.28 = 0.78125.
    let name = "cases/fragcoord/w_horizontal.case";
    let options = Options {
        drop_frag_coord_reciprocal: true,
        ..plain()
    };
    let b = run(&webgl2, name, (3, 1), &options);
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
    let webgl2 = browser();
    // point_less at (0,2): texel 9/16 against reference 0.5, less: 1
    // (the case's own probe). Reversed (greater-equal), 0. Instruction 8
    // is the sample_c writing o0.x. Row 2 is not row 1 mirrored: there
    // the texel is 5/16 and the reversed result 1.
    let name = "cases/pcf/point_less.case";
    let options = Options {
        reverse_pcf_compare: true,
        ..plain()
    };
    let b = run(&webgl2, name, (0, 2), &options);
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
    let webgl2 = browser();
    // red_wrap_centres: 6 mul, 7 gather4 into o0.
    let name = "cases/gather4/red_wrap_centres.case";
    let options = Options {
        flip_gather_order: true,
        ..plain()
    };
    let b = run(&webgl2, name, (1, 1), &options);
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
    let webgl2 = browser();
    // tests/bisect/nan_sample_l.case gives the reasoning: the emulator's
    // 2.5 is its own reading of a NaN coordinate, and the GPU's another;
    // they part at the sample_l, instruction 7.
    let b = run(&webgl2, "bisect/nan_sample_l.case", (1, 1), &plain());
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
fn a_taken_discard_is_recorded_to_the_end_as_d3d_runs_it() {
    let webgl2 = browser();
    // tests/bisect/discard_taken.case: the discard at (1,5) is taken and
    // the lane runs on through 5 and 6; at (6,5) it is not. The capture
    // leaves the discard out (a discarded fragment writes no output), so
    // both give the four steps the emulator gives.
    let name = "bisect/discard_taken.case";
    let (case, shaders) = load(name);
    let jobs = [(&case, &shaders, (1, 5)), (&case, &shaders, (6, 5))];
    for r in bisect::webgl2_all(&webgl2, &jobs, &plain()) {
        let b = r.expect("bisects");
        assert!(b.divergence.is_none(), "{b:?}");
        assert_eq!((b.emulator_steps, b.gpu_steps), (4, 4), "{b:?}");
    }
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

/// Every case of `tests/cases` that WebGL2 draws bisects to no divergence
/// at its first covered pixel from the centre outwards, all captures in
/// one browser run. Cases the bisection cannot take are listed with the
/// reason: multisampled ones, those not applicable on WebGL2
/// (`[require]`) or that its translation refuses.
#[test]
fn without_a_fault_no_case_diverges() {
    let webgl2 = browser();
    let mut all = Vec::new();
    cases(&path("cases"), &mut all);
    let start = Instant::now();
    let loaded: Vec<(String, Case, CaseShaders)> = all
        .iter()
        .map(|p| {
            let case = Case::load(p).expect("case parses");
            let shaders = case.shaders().expect("shaders assemble");
            let name = p
                .strip_prefix(path("cases"))
                .unwrap_or(p)
                .display()
                .to_string();
            (name, case, shaders)
        })
        .collect();
    // The pixel: the centre first, then the rest in rows, the first the
    // emulator does not run as a helper lane.
    let mut skipped = Vec::new();
    let mut jobs = Vec::new();
    let mut names = Vec::new();
    for (name, case, shaders) in &loaded {
        let (w, h) = (case.width, case.height);
        let centre = (w / 2, h / 2);
        let mut candidates =
            std::iter::once(centre).chain((0..h).flat_map(|y| (0..w).map(move |x| (x, y))));
        let pixel = candidates.find(|p| {
            !matches!(
                bisect::emulator_path(case, shaders, *p),
                Err(BisectError::Helper { .. })
            )
        });
        match pixel {
            Some(p) => {
                jobs.push((case, shaders, p));
                names.push(name.as_str());
            }
            None => skipped.push(format!("{name}: no covered pixel")),
        }
    }
    let results = bisect::webgl2_all(&webgl2, &jobs, &plain());
    let (mut compared, mut diverged) = (0, Vec::new());
    for ((name, (_, _, pixel)), r) in names.iter().zip(&jobs).zip(results) {
        match r {
            Ok(b) => {
                compared += 1;
                if let Some(d) = b.divergence {
                    diverged.push(format!(
                        "{name} at {pixel:?}: {} `{}`: {:?}",
                        d.index, d.text, d.kind
                    ));
                }
            }
            Err(e @ (BisectError::Multisample(_) | BisectError::Other(_))) => {
                skipped.push(format!("{name}: {e}"))
            }
            Err(e) => panic!("{name} at {pixel:?}: {e}"),
        }
    }
    eprintln!(
        "{compared} cases bisected on WebGL2 in {:?} ({} skipped):\n  {}",
        start.elapsed(),
        skipped.len(),
        skipped.join("\n  ")
    );
    assert!(diverged.is_empty(), "diverged:\n{}", diverged.join("\n"));
    assert!(compared > 150, "only {compared} cases bisected");
}

/// `dxbc-dbg bisect --backend webgl2`: exit 1 with the divergence printed,
/// 2 without a browser (with the message the drawing commands give).
#[test]
fn the_command_exits_by_what_it_found() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let case = path("bisect/nan_sample_l.case");
    let run = |browser: Option<&str>| {
        let mut cmd = std::process::Command::new(bin);
        cmd.args(["bisect", "--pixel", "1,1", "--backend", "webgl2"])
            .arg(&case);
        if let Some(b) = browser {
            cmd.env("DXBC_DBG_BROWSER", b);
        }
        cmd.output().expect("runs")
    };
    let found = run(None);
    let out = String::from_utf8_lossy(&found.stdout);
    assert_eq!(found.status.code(), Some(1), "{out}");
    assert!(out.contains("on WebGL2 ("), "{out}");
    assert!(
        out.contains("first divergence: instruction 7 `sample_l"),
        "{out}"
    );
    let none = run(Some("none"));
    let err = String::from_utf8_lossy(&none.stderr);
    assert_eq!(none.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "no browser (DXBC_DBG_BROWSER=none); the webgl2 backend needs headless Chromium"
        ),
        "{err}"
    );
}

/// A `diff` run on WebGL2 bisects the case a fault makes fail, at its
/// worst pixel: the record names exactly the faulted instruction with
/// both values (as `tests/bisect_gpu.rs` checks on Vulkan).
#[test]
fn a_failing_run_reports_the_faulted_instruction() {
    use dxbc_dbg::harness::results::CaseRecord;
    use dxbc_dbg::harness::results::bisect::{BisectOutcome, Found};
    use dxbc_dbg::harness::suite::{self, Backend, Renderer, RunOptions};

    let webgl2 = browser();
    // Instruction 6 `add r0.xy, v0.xyxx, cb0[0].zwzz` with cb0[0].zw = 0:
    // D3D gives r0.x = v0.x = x + 0.5 at pixel (x, y); the fault reads
    // v0.y, y + 0.5, so the image differs off the diagonal x = y.
    let name = "cases/pcf/point_less.case";
    let options = RunOptions {
        glsl: Options {
            wrong_swizzle_at: Some(6),
            ..plain()
        },
        bisect_limit: suite::DEFAULT_BISECT_LIMIT,
        ..RunOptions::default()
    };
    let renderers: [&dyn Renderer; 1] = [&webgl2];
    let r = suite::run_case(&path(name), "point_less", &renderers, &options);
    assert!(!r.passed(), "the fault makes the case fail");
    let b = r.backend(Backend::WebGl2).expect("drawn on webgl2");
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
    assert_eq!(
        d.found,
        Found::Value {
            register: "r0".into(),
            component: "x".into(),
            emulator: (x as f32 + 0.5).to_bits(),
            gpu: (y as f32 + 0.5).to_bits(),
        }
    );
}
