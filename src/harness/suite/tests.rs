use super::compare::uav_diff;
use super::*;

mod translators;

/// A stand-in GPU: the CPU image, optionally with one pixel changed.
struct Fake {
    poke: Option<(u32, u32, [f32; 4])>,
}

impl Renderer for Fake {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }
    fn name(&self) -> String {
        "fake".into()
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        jobs.iter()
            .map(|(case, shaders)| {
                let mut images = cpu::render(case, shaders).map_err(|e| e.to_string())?;
                if let Some((x, y, v)) = self.poke {
                    images[0].set(x, y, v);
                }
                Ok(Rendered {
                    images,
                    ms: 0.5,
                    notes: Vec::new(),
                    uavs: Vec::new(),
                })
            })
            .collect()
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dxbc-dbg-suite-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

const CASE: &str = "[pixel shader]\nps_4_0\ndcl_input_ps linear v1.x\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xxxx\nret\n[render target]\nsize 4 4\n[quad]\nvertex -1 1 0 1 v1 0 0 0 0\nvertex 1 1 0 1 v1 1 0 0 0\nvertex -1 -1 0 1 v1 0 0 0 0\nvertex 1 -1 0 1 v1 1 0 0 0\n[test]\nprobe 0 0 0.125 0.125 0.125 0.125\nprobe rect 3 0 1 4 0.875 0.875 0.875 0.875\ngolden\n";

#[test]
fn a_case_runs_blesses_and_compares() {
    let dir = temp_dir("run");
    let case = dir.join("cases/grad.case");
    std::fs::create_dir_all(case.parent().expect("parent")).expect("dir");
    std::fs::write(&case, CASE).expect("write");
    let found = collect(&[dir.join("cases")], None).expect("collect");
    assert_eq!(found, vec![(case.clone(), "grad".to_string())]);
    assert!(
        collect(&[dir.join("cases")], Some("nothing"))
            .expect("c")
            .is_empty()
    );

    let mut options = RunOptions {
        goldens: Some(dir.join("goldens")),
        ..RunOptions::default()
    };
    let fake = Fake { poke: None };
    // Without a golden the case fails and says how to make one.
    let r = run_case(&case, "grad", &[&fake], &options);
    assert!(
        r.failures.iter().any(|f| f.contains("--bless")),
        "{:?}",
        r.failures
    );
    options.bless = true;
    let r = run_case(&case, "grad", &[&fake], &options);
    assert!(r.passed(), "{:?}", r.failures);
    assert_eq!(r.blessed, vec![dir.join("goldens/grad.exr")]);
    options.bless = false;
    let r = run_case(&case, "grad", &[&fake], &options);
    assert!(r.passed(), "{:?}", r.failures);
    assert!(r.cpu_ms.is_some() && r.backends[0].ms.is_some());

    // A wrong GPU pixel fails the GPU/CPU diff, the golden and the probe.
    let bad = Fake {
        poke: Some((3, 2, [0.0; 4])),
    };
    let r = run_case(&case, "grad", &[&bad], &options);
    assert!(!r.passed());
    assert_eq!(r.worst_pixel(), Some((3, 2)));
    let text = r.failures.join("\n");
    assert!(text.contains("1 of 16 pixels"), "{text}");
    assert!(
        text.contains("vulkan: SV_Target0: image differs from the golden"),
        "{text}"
    );
    assert!(text.contains("probe at (3, 2): vulkan"), "{text}");
    assert!(!text.contains("CPU has"), "{text}");
    let cmd = r.step_command().expect("command");
    assert!(cmd.ends_with("--pixel 3,2"), "{cmd}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shader_file_is_found_beside_the_case() {
    let dir = temp_dir("file");
    std::fs::create_dir_all(dir.join("cases")).expect("dir");
    std::fs::create_dir_all(dir.join("shaders")).expect("dir");
    std::fs::write(
        dir.join("shaders/flat.asm"),
        "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.5, 0.5, 0.5, 1.0)\nret\n",
    )
    .expect("write");
    let case = dir.join("cases/flat.case");
    std::fs::write(
        &case,
        "[pixel shader file]\n../shaders/flat.asm\n[render target]\nsize 2 2\n[test]\nprobe 1 1 0.5 0.5 0.5 1\n",
    )
    .expect("write");
    let bad = Fake {
        poke: Some((1, 0, [0.0; 4])),
    };
    let r = run_case(&case, "flat", &[&bad], &RunOptions::default());
    assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
    assert_eq!(r.shader, dir.join("cases/../shaders/flat.asm"));
    // The case brings its shader: the command names the case alone.
    let cmd = r.step_command().expect("command");
    assert!(cmd.ends_with("cases/flat.case --pixel 1,0"), "{cmd}");
    assert!(!cmd.contains("--case"), "{cmd}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_cases_fail_with_the_file_named() {
    let dir = temp_dir("broken");
    let case = dir.join("bad.case");
    std::fs::write(&case, "[pixel shader]\nps_4_0\nfrobnicate r0\n").expect("write");
    let r = run_case(
        &case,
        "bad",
        &[&Fake { poke: None }],
        &RunOptions::default(),
    );
    assert!(!r.passed());
    assert!(r.failures[0].contains("bad.case"), "{:?}", r.failures);
    assert!(collect(&[dir.join("missing")], None).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A renderer that must not be asked to draw.
struct NeverDraw;

impl Renderer for NeverDraw {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }
    fn name(&self) -> String {
        "never".into()
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        assert!(
            jobs.is_empty(),
            "a shader that does not end was sent to draw"
        );
        Vec::new()
    }
}

/// A renderer whose device cannot draw anything: it refuses every case
/// by a limit, and must not be asked to draw.
struct Refusing;

impl Renderer for Refusing {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }
    fn name(&self) -> String {
        "refusing".into()
    }
    fn refuses(&self, _: &Case, _: &CaseShaders, _: &glsl::Options) -> Option<String> {
        Some("exceeds max_widgets (binds 3, the adapter allows 2): three widgets".into())
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        assert!(jobs.is_empty(), "a refused case was sent to draw");
        Vec::new()
    }
}

#[test]
fn a_case_the_renderer_refuses_is_not_applicable_and_not_drawn() {
    let dir = temp_dir("refused");
    let case = dir.join("any.case");
    std::fs::write(
        &case,
        "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1,1,1,1)\nret\n\
         [render target]\nsize 2 2\n",
    )
    .expect("write");
    let r = run_case(&case, "any", &[&Refusing], &RunOptions::default());
    assert!(r.passed(), "{:?}", r.failures);
    let b = &r.backends[0];
    assert_eq!(
        b.not_applicable.as_deref(),
        Some("exceeds max_widgets (binds 3, the adapter allows 2): three widgets")
    );
    assert!(b.targets.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shader_that_does_not_end_is_not_sent_to_the_gpu() {
    // `loop` with no `break`: the emulator stops at its instruction
    // budget; a GPU would spin until reset.
    let dir = temp_dir("endless");
    let case = dir.join("spin.case");
    std::fs::write(
        &case,
        "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nloop\nendloop\nmov o0.xyzw, l(1,1,1,1)\nret\n\
         [render target]\nsize 2 2\n",
    )
    .expect("write");
    let r = run_case(&case, "spin", &[&NeverDraw], &RunOptions::default());
    assert!(!r.passed());
    assert!(
        r.failures
            .iter()
            .any(|f| f.starts_with("CPU: ") && f.contains("instruction budget")),
        "{:?}",
        r.failures
    );
    assert!(
        r.failures
            .iter()
            .any(|f| f.starts_with("vulkan: not drawn: the shader does not end")),
        "{:?}",
        r.failures
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A buffer case loaded, with the emulator's UAVs after its draw.
fn drawn_uavs(name: &str) -> (Case, Vec<Option<crate::vm::memory::Buffer>>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases/buffers")
        .join(format!("{name}.case"));
    let (case, shaders) = load(&path, name).input.expect("the case loads");
    let uavs = cpu::render_with_uavs(&case, &shaders)
        .expect("the emulator draws it")
        .uavs;
    (case, uavs)
}

fn backend_uavs(
    cpu: &[Option<crate::vm::memory::Buffer>],
) -> Vec<(u32, crate::vm::memory::Buffer)> {
    cpu.iter()
        .enumerate()
        .filter_map(|(s, b)| b.clone().map(|b| (s as u32, b)))
        .collect()
}

#[test]
fn an_unordered_uav_is_compared_as_a_multiset_of_elements() {
    let (case, cpu) = drawn_uavs("append_unordered");
    assert_eq!(case.unordered_uavs, vec![1]);
    let mut gpu = backend_uavs(&cpu);
    // The same elements in another order: equal as a multiset.
    gpu[0].1.words[..16].reverse();
    assert!(uav_diff(&case, &cpu, &gpu).is_empty());
    // One element changed: the multisets differ.
    gpu[0].1.words[3] = 999;
    let f = uav_diff(&case, &cpu, &gpu);
    assert!(f.len() == 1 && f[0].contains("u1 (unordered)"), "{f:?}");
    // The counter stays exact.
    let mut gpu = backend_uavs(&cpu);
    gpu[0].1.counter += 1;
    let f = uav_diff(&case, &cpu, &gpu);
    assert!(
        f.len() == 1 && f[0].contains("u1: counter 17, the CPU's 16"),
        "{f:?}"
    );
}

#[test]
fn an_ordered_uav_is_compared_word_by_word() {
    let (case, cpu) = drawn_uavs("pixel_store");
    let mut gpu = backend_uavs(&cpu);
    assert!(uav_diff(&case, &cpu, &gpu).is_empty());
    // Two elements swapped: a multiset would not see it, the diff does.
    gpu[0].1.words.swap(2, 4);
    gpu[0].1.words.swap(3, 5);
    let f = uav_diff(&case, &cpu, &gpu);
    assert!(
        f.len() == 1 && f[0].starts_with("u1: 4 of 32 words differ"),
        "{f:?}"
    );
    // A UAV the backend did not read back is named.
    let f = uav_diff(&case, &cpu, &[]);
    assert_eq!(f, vec!["u1 was not read back".to_string()]);
}

/// A typed buffer case needs only `buffers`: Vulkan draws it (vk450 reads
/// the view as a storage buffer and decodes its format), WebGL2 reports it
/// n/a (GLSL ES 3.00 has neither storage nor samplerBuffer). Its probes,
/// worked by hand in the case, hold on the emulator, and a wrong probe
/// fails.
#[test]
fn the_typed_buffer_case_is_vulkans_and_meets_its_probes_on_the_emulator() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases/buffers/typed_srv.case");
    let (mut case, shaders) = load(&path, "typed_srv").input.expect("the case loads");
    let needs: Vec<Feature> = case.requires.iter().map(|r| r.feature).collect();
    assert_eq!(needs, [Feature::Buffers]);
    assert!(Backend::Vulkan.supports(Feature::Buffers));
    assert!(!Backend::WebGl2.supports(Feature::Buffers));
    let drawn = cpu::render_with_uavs(&case, &shaders).expect("the emulator draws it");
    let images: Vec<&Image> = drawn.images.iter().collect();
    let indices: Vec<u32> = cpu::targets(&shaders.pixel)
        .iter()
        .map(|t| t.index)
        .collect();
    assert_eq!(case.probes.len(), 8);
    let failures = compare::probe_checks(&case, "CPU", &images, &indices);
    assert!(failures.is_empty(), "{failures:?}");
    // The out-of-range pixel's probe, changed to expect a nonzero red:
    // one failure, at the probe's own pixel.
    case.probes[3].expected[0] = 1.0;
    let [x, y, ..] = case.probes[3].rect;
    let failures = compare::probe_checks(&case, "CPU", &images, &indices);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0].1, Some((x, y)));
}

#[test]
fn printed_paths_cancel_parent_components_lexically() {
    let t = |p: &str| tidy(Path::new(p)).display().to_string();
    assert_eq!(
        t("/tmp/out/../../work/corpus/x.dxbc"),
        "/work/corpus/x.dxbc"
    );
    assert_eq!(t("out/../../corpus/x.dxbc"), "../corpus/x.dxbc");
    assert_eq!(t("./a/./b/../c.case"), "a/c.case");
    assert_eq!(t("../../x"), "../../x");
    assert_eq!(t("/.."), "/");
    assert_eq!(t("a/.."), ".");
}

/// The CPU image, with pixel (3, 2) changed when `poke`, and a capture
/// that finds nothing, counting the pixels it was asked for.
struct Bisecting {
    poke: bool,
    asked: std::cell::RefCell<Vec<(u32, u32)>>,
}

impl Renderer for Bisecting {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }
    fn name(&self) -> String {
        "bisecting".into()
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        Fake {
            poke: self.poke.then_some((3, 2, [9.0; 4])),
        }
        .render_all(jobs, options)
    }
    fn captures_registers(&self) -> bool {
        true
    }
    fn bisect_all(
        &self,
        jobs: &[super::BisectJob],
        _: &glsl::Options,
    ) -> Vec<Result<crate::harness::bisect::Bisection, String>> {
        jobs.iter()
            .map(|(_, _, pixel)| {
                self.asked.borrow_mut().push(*pixel);
                Ok(crate::harness::bisect::Bisection {
                    pixel: *pixel,
                    compared: 1,
                    emulator_steps: 1,
                    gpu_steps: 1,
                    truncated: false,
                    divergence: None,
                })
            })
            .collect()
    }
}

/// Failures against the emulator are bisected at the backend's worst
/// pixel, in the cases' order, up to the run's limit; those past it are
/// named; a run with the limit 0 makes none; a backend that cannot
/// capture says so without using the limit up.
#[test]
fn failures_are_bisected_at_the_worst_pixel_up_to_the_limit() {
    let dir = temp_dir("bisect");
    let text = "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.5,0.5,0.5,1)\nret\n\
                [render target]\nsize 4 4\n";
    let cases: Vec<(PathBuf, String)> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            let p = dir.join(format!("{n}.case"));
            std::fs::write(&p, text).expect("write");
            (p, n.to_string())
        })
        .collect();
    let r = Bisecting {
        poke: true,
        asked: Default::default(),
    };
    let options = RunOptions {
        bisect_limit: 2,
        ..RunOptions::default()
    };
    let rs = run_all(&cases, &[&r], &options, &());
    assert_eq!(*r.asked.borrow(), [(3, 2), (3, 2)]);
    let outcome = |i: usize| rs[i].backends[0].bisect.clone().map(|b| b.outcome);
    assert!(matches!(outcome(0), Some(Bisected::Ran(_))));
    assert!(matches!(outcome(1), Some(Bisected::Ran(_))));
    assert_eq!(outcome(2), Some(Bisected::OverLimit(2)));
    let indices: Vec<usize> = (0..rs.len()).collect();
    let info = crate::harness::results::RunInfo {
        inputs: vec![],
        backends: vec!["vulkan".into()],
        filter: None,
        shard: None,
        bless: false,
        auto: None,
    };
    let doc = crate::harness::results::Results::from_run(info, vec![], 3, &indices, &rs);
    let table = crate::harness::report::summary_table(&doc);
    assert!(
        table.contains("not bisected (over the limit of 2): c on vulkan"),
        "{table}"
    );

    // The limit 0 (`diff --no-bisect`): none.
    r.asked.borrow_mut().clear();
    let rs = run_all(&cases, &[&r], &RunOptions::default(), &());
    assert!(r.asked.borrow().is_empty());
    assert!(rs.iter().all(|c| c.backends[0].bisect.is_none()));

    // A backend that cannot capture: said, for every case.
    let fake = Fake {
        poke: Some((1, 1, [0.0; 4])),
    };
    let rs = run_all(&cases, &[&fake], &options, &());
    for c in &rs {
        let b = c.backends[0].bisect.as_ref().expect("recorded");
        assert_eq!(b.pixel, (1, 1));
        assert_eq!(
            b.outcome,
            Bisected::NotRun("the vulkan backend cannot capture registers".into())
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A case that fails only by its probe (the backend's image is the
/// emulator's) names no pixel where they disagree: nothing to bisect.
#[test]
fn a_probe_failure_alone_is_not_bisected() {
    let dir = temp_dir("probe-only");
    let case = dir.join("p.case");
    std::fs::write(
        &case,
        "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0.5,0.5,0.5,1)\nret\n\
         [render target]\nsize 2 2\n[test]\nprobe 0 0 1 1 1 1\n",
    )
    .expect("write");
    let r = Bisecting {
        poke: false,
        asked: Default::default(),
    };
    let options = RunOptions {
        bisect_limit: 5,
        ..RunOptions::default()
    };
    let res = run_case(&case, "p", &[&r], &options);
    assert!(!res.passed());
    assert!(res.backends[0].bisect.is_none());
    assert!(r.asked.borrow().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run tells its progress of every stage, with its size, and of every
/// item in it, before it returns: what the binary's bar draws.
#[test]
fn progress_reports_each_stage_and_every_case() {
    use crate::harness::progress::record::Recorder;
    let dir = temp_dir("progress");
    let cases: Vec<(PathBuf, String)> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            let p = dir.join(format!("{n}.case"));
            std::fs::write(&p, CASE).expect("write");
            (p, n.to_string())
        })
        .collect();
    let fake = Fake {
        poke: Some((1, 1, [1.0; 4])),
    };
    let recorder = Recorder::default();
    let results = run_all(&cases, &[&fake], &RunOptions::default(), &recorder);
    assert_eq!(results.len(), 3);
    let stage = |name: &str| (name.to_string(), 3, 3);
    assert_eq!(
        recorder.stages(),
        [
            stage("loading cases"),
            stage("emulator"),
            stage("drawing on vulkan"),
            stage("comparing"),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
