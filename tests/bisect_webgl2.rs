//! `bisect` on WebGL2 (the es300 text in headless Chromium): with a fault
//! injected in the translation it names exactly the faulted instruction;
//! without one, the cases of `tests/cases` show no divergence at a covered
//! pixel each. Without a browser these tests fail, saying what to
//! install, as `webgl2_browser` does.

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use dxbc_dbg::glsl::{Dialect, Options};
use dxbc_dbg::harness::bisect::{self, BisectError, Bisection};
use dxbc_dbg::harness::case::{Case, CaseShaders};
use dxbc_dbg::harness::webgl2::{Config, WebGl2};

use common::bisect_faults::{self as faults, load, path};

fn browser() -> WebGl2 {
    WebGl2::new(Config::default())
        .expect("no browser for WebGL2: install Debian's chromium-headless-shell")
}

fn run(webgl2: &WebGl2, name: &str, pixel: (u32, u32), options: &Options) -> Bisection {
    let (case, shaders) = load(name);
    bisect::webgl2(webgl2, &case, &shaders, pixel, options)
        .unwrap_or_else(|e| panic!("{name} at {pixel:?}: {e}"))
}

fn plain() -> Options {
    Options::new(Dialect::Es300)
}

// The checks every backend passes (tests/common/bisect_faults.rs).
#[test]
fn a_wrong_swizzle_is_named_at_its_instruction() {
    let webgl2 = browser();
    faults::wrong_swizzle(&faults::Backend {
        run: &|name, pixel, options| run(&webgl2, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_dropped_frag_coord_reciprocal_is_named_at_the_position_declaration() {
    let webgl2 = browser();
    faults::dropped_frag_coord_reciprocal(&faults::Backend {
        run: &|name, pixel, options| run(&webgl2, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_reversed_pcf_comparison_is_named_at_the_sample_c() {
    let webgl2 = browser();
    faults::reversed_pcf_comparison(&faults::Backend {
        run: &|name, pixel, options| run(&webgl2, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_flipped_gather_order_is_named_at_the_gather() {
    let webgl2 = browser();
    faults::flipped_gather_order(&faults::Backend {
        run: &|name, pixel, options| run(&webgl2, name, pixel, options),
        plain: plain(),
    });
}

#[test]
fn a_nan_coordinate_to_sample_l_is_named_at_the_sample() {
    let webgl2 = browser();
    faults::nan_coordinate_to_sample_l(&faults::Backend {
        run: &|name, pixel, options| run(&webgl2, name, pixel, options),
        plain: plain(),
    });
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
    faults::failing_run_names_the_fault(&browser(), &plain());
}
