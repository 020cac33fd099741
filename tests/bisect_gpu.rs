//! `bisect` on Vulkan: with a fault injected in the translation it names
//! exactly the faulted instruction; without one, the cases of
//! `tests/cases` show no divergence at a covered pixel each. Without a
//! Vulkan adapter these tests fail, saying how to install lavapipe, as
//! `harness_gpu` does.

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use dxbc_dbg::glsl::{Dialect, Options};
use dxbc_dbg::harness::bisect::{self, BisectError, Bisection};
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::gpu::Gpu;

use common::bisect_faults::{self as faults, path};

fn gpu() -> Gpu {
    Gpu::new().unwrap_or_else(|e| {
        panic!(
            "{e}\nThe GPU tests need a Vulkan driver; without a GPU install Mesa's lavapipe \
             (`apt-get install mesa-vulkan-drivers`)."
        )
    })
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

// The checks every backend passes (tests/common/bisect_faults.rs).
#[test]
fn a_wrong_swizzle_is_named_at_its_instruction() {
    let gpu = gpu();
    faults::wrong_swizzle(&faults::Backend {
        run: &|name, pixel, options| run(&gpu, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_dropped_frag_coord_reciprocal_is_named_at_the_position_declaration() {
    let gpu = gpu();
    faults::dropped_frag_coord_reciprocal(&faults::Backend {
        run: &|name, pixel, options| run(&gpu, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_reversed_pcf_comparison_is_named_at_the_sample_c() {
    let gpu = gpu();
    faults::reversed_pcf_comparison(&faults::Backend {
        run: &|name, pixel, options| run(&gpu, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_flipped_gather_order_is_named_at_the_gather() {
    let gpu = gpu();
    faults::flipped_gather_order(&faults::Backend {
        run: &|name, pixel, options| run(&gpu, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_nan_coordinate_to_sample_l_is_named_at_the_sample() {
    let gpu = gpu();
    faults::nan_coordinate_to_sample_l(&faults::Backend {
        run: &|name, pixel, options| run(&gpu, name, pixel, options),
        plain: plain(),
    });
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
    use dxbc_dbg::harness::results::{Results, RunInfo};
    use dxbc_dbg::harness::suite::{self, Renderer, RunOptions};

    let gpu = gpu();
    let name = "cases/pcf/point_less.case";
    let (r, options, (x, y)) = faults::failing_run_names_the_fault(&gpu, &plain());
    let renderers: [&dyn Renderer; 1] = [&gpu];
    let (emulator, gpu_bits) = (x as f32 + 0.5, y as f32 + 0.5);

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
