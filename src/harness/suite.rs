//! Running cases: load, assemble, draw on the GPU and the CPU, diff the
//! two, check goldens and probes, and say why a case failed.
//!
//! A case passes when both renderers draw it, the GPU image is within the
//! case's tolerance of the CPU image at every pixel of every render
//! target, every probe matches both images (render target 0), and, for a
//! case with `golden`, both images are within tolerance of the golden.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::case::{Case, CaseShaders, ShaderSource};
use super::cpu;
use super::diff::{Diff, diff, texel_within};
use super::golden;
use super::gpu::{Gpu, GpuError};
use super::image::Image;
use crate::glsl;

/// What draws a case through the translated GLSL: the wgpu renderer, or
/// a stand-in in tests.
pub trait Renderer {
    fn name(&self) -> String;
    fn render(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Vec<Image>, GpuError>;
}

impl Renderer for Gpu {
    fn name(&self) -> String {
        self.adapter_name()
    }

    fn render(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Vec<Image>, GpuError> {
        Gpu::render(self, case, shaders, options)
    }
}

/// How cases are run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Translation options for the GPU path (tests set `flip_gather_order`).
    pub glsl: glsl::Options,
    /// Where goldens live.
    pub goldens: PathBuf,
    /// Write goldens from the CPU image instead of comparing with them.
    pub bless: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            glsl: glsl::Options::new(glsl::Dialect::Vk450),
            goldens: PathBuf::from("goldens"),
            bless: false,
        }
    }
}

/// One render target's images and diffs.
#[derive(Debug, Clone)]
pub struct TargetResult {
    pub index: usize,
    pub gpu: Image,
    pub cpu: Image,
    /// GPU against CPU (`a` is the GPU image).
    pub diff: Diff,
    /// GPU and CPU against the golden, when the case compares with one.
    pub golden_gpu: Option<Diff>,
    pub golden_cpu: Option<Diff>,
}

/// What running one case found.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub path: PathBuf,
    /// Its name: the path relative to where it was found, without `.case`.
    pub name: String,
    /// The shader to hand to `dxbc-dbg step`: the pixel shader's file, or
    /// the case file itself when the shader is written inline.
    pub shader: PathBuf,
    pub failures: Vec<String>,
    /// Milliseconds to draw one frame.
    pub gpu_ms: Option<f64>,
    pub cpu_ms: Option<f64>,
    pub targets: Vec<TargetResult>,
    /// Goldens written by `--bless`.
    pub blessed: Vec<PathBuf>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The pixel with the largest GPU↔CPU error over all render targets
    /// (failing pixels first).
    pub fn worst_pixel(&self) -> Option<(u32, u32)> {
        let mut best: Option<&super::diff::Worst> = None;
        for t in &self.targets {
            if let Some(w) = &t.diff.worst {
                let better = match best {
                    None => true,
                    Some(b) => {
                        let m = |w: &super::diff::Worst| {
                            w.error.iter().map(|e| e.abs).fold(0.0f64, f64::max)
                        };
                        (b.passes && !w.passes) || (b.passes == w.passes && m(w) > m(b))
                    }
                };
                if better {
                    best = Some(w);
                }
            }
        }
        best.map(|w| (w.x, w.y))
    }

    /// The command that steps the worst pixel in the debugger.
    pub fn step_command(&self) -> Option<String> {
        let (x, y) = self.worst_pixel()?;
        Some(format!(
            "dxbc-dbg step {} --case {} --pixel {x},{y}",
            shell_quote(&self.shader.display().to_string()),
            shell_quote(&self.path.display().to_string())
        ))
    }
}

/// Quotes a path for a POSIX shell when it needs it.
fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn elapsed_ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// Runs one case.
pub fn run_case(
    path: &Path,
    name: &str,
    renderer: &dyn Renderer,
    options: &RunOptions,
) -> CaseResult {
    let mut result = CaseResult {
        path: path.to_path_buf(),
        name: name.to_string(),
        shader: path.to_path_buf(),
        failures: Vec::new(),
        gpu_ms: None,
        cpu_ms: None,
        targets: Vec::new(),
        blessed: Vec::new(),
    };
    let case = match Case::load(path) {
        Ok(c) => c,
        Err(e) => {
            result.failures.push(e.to_string());
            return result;
        }
    };
    if let Some(ShaderSource::File(f)) = &case.pixel_shader {
        result.shader = path.parent().map_or_else(|| f.clone(), |d| d.join(f));
    }
    let shaders = match case.shaders() {
        Ok(s) => s,
        Err(e) => {
            result.failures.push(e.to_string());
            return result;
        }
    };
    let start = Instant::now();
    let gpu = renderer.render(&case, &shaders, &options.glsl);
    result.gpu_ms = Some(elapsed_ms(start));
    let start = Instant::now();
    let cpu = cpu::render(&case, &shaders);
    result.cpu_ms = Some(elapsed_ms(start));
    let gpu = match gpu {
        Ok(g) => Some(g),
        Err(e) => {
            result.gpu_ms = None;
            result.failures.push(format!("GPU: {e}"));
            None
        }
    };
    let cpu = match cpu {
        Ok(c) => c,
        Err(e) => {
            result.cpu_ms = None;
            result.failures.push(format!("CPU: {e}"));
            return result;
        }
    };
    let tol = &case.tolerance;

    let goldens = if case.golden && !options.bless {
        match golden::load(&options.goldens, name, cpu.len()) {
            Ok(g) => Some(g),
            Err(e) => {
                result.failures.push(format!("golden: {e}"));
                None
            }
        }
    } else {
        None
    };
    if case.golden && options.bless {
        match golden::bless(&options.goldens, name, &cpu) {
            Ok(written) => result.blessed = written,
            Err(e) => result.failures.push(format!("bless: {e}")),
        }
    }

    let Some(gpu) = gpu else {
        return result;
    };
    if gpu.len() != cpu.len() {
        result.failures.push(format!(
            "the GPU drew {} render targets, the CPU {}",
            gpu.len(),
            cpu.len()
        ));
    }
    for (i, (g, c)) in gpu.into_iter().zip(cpu).enumerate() {
        let d = diff(&g, &c, tol);
        if d.size_mismatch {
            result.failures.push(format!(
                "SV_Target{i}: GPU image is {}x{}, CPU image {}x{}",
                g.width, g.height, c.width, c.height
            ));
        } else if d.failing > 0 {
            let w = d.worst.as_ref().map(|w| (w.x, w.y)).unwrap_or_default();
            result.failures.push(format!(
                "SV_Target{i}: {} of {} pixels differ beyond tolerance (abs {}, ulp {}); max abs {}, max ulp {}, worst pixel ({}, {})",
                d.failing, d.pixels, tol.abs, tol.ulp, d.max_abs, d.max_ulp, w.0, w.1
            ));
        }
        let (mut golden_gpu, mut golden_cpu) = (None, None);
        if let Some(gold) = goldens.as_ref().and_then(|gs| gs.get(i)) {
            for (label, img, slot) in [("GPU", &g, &mut golden_gpu), ("CPU", &c, &mut golden_cpu)] {
                let gd = diff(img, gold, tol);
                if !gd.passed() {
                    result.failures.push(format!(
                        "SV_Target{i}: {label} image differs from the golden at {} pixels (max abs {}, max ulp {})",
                        gd.failing, gd.max_abs, gd.max_ulp
                    ));
                }
                *slot = Some(gd);
            }
        }
        result.targets.push(TargetResult {
            index: i,
            gpu: g,
            cpu: c,
            diff: d,
            golden_gpu,
            golden_cpu,
        });
    }
    if let Some(t) = result.targets.first() {
        let failures = probe_failures(&case, &t.gpu, &t.cpu);
        result.failures.extend(failures);
    } else if !case.probes.is_empty() {
        result
            .failures
            .push("probes given but the shader writes no render target".into());
    }
    result
}

/// Probes checked against both images of render target 0.
fn probe_failures(case: &Case, gpu: &Image, cpu: &Image) -> Vec<String> {
    let mut out = Vec::new();
    let file = case.path.display().to_string();
    for p in &case.probes {
        let [x0, y0, w, h] = p.rect;
        if w == 0 || h == 0 || x0.saturating_add(w) > cpu.width || y0.saturating_add(h) > cpu.height
        {
            out.push(format!(
                "{file}:{}: probe rect ({x0}, {y0}, {w}x{h}) lies outside the {}x{} target",
                p.line, cpu.width, cpu.height
            ));
            continue;
        }
        for (label, img) in [("GPU", gpu), ("CPU", cpu)] {
            if img.width != cpu.width || img.height != cpu.height {
                continue;
            }
            let bad = (y0..y0 + h)
                .flat_map(|y| (x0..x0 + w).map(move |x| (x, y)))
                .find(|&(x, y)| !texel_within(img.get(x, y), p.expected, &case.tolerance));
            if let Some((x, y)) = bad {
                out.push(format!(
                    "{file}:{}: probe at ({x}, {y}): {label} has {:?}, expected {:?}",
                    p.line,
                    img.get(x, y),
                    p.expected
                ));
            }
        }
    }
    out
}

/// Case files to run: each file given, and every `*.case` under each
/// directory (recursively, sorted), with its name (path relative to that
/// directory without `.case`; a file given directly is named by its
/// stem). `filter` keeps the cases whose name or path contains it.
pub fn collect(paths: &[PathBuf], filter: Option<&str>) -> Result<Vec<(PathBuf, String)>, String> {
    let mut out = Vec::new();
    for root in paths {
        if root.is_dir() {
            let mut found = Vec::new();
            walk(root, &mut found)?;
            found.sort();
            for f in found {
                let rel = f.strip_prefix(root).unwrap_or(&f).with_extension("");
                let name = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push((f, name));
            }
        } else if root.is_file() {
            let name = root
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((root.clone(), name));
        } else {
            return Err(format!(
                "{}: no such case file or directory",
                root.display()
            ));
        }
    }
    if let Some(pat) = filter {
        out.retain(|(p, n)| n.contains(pat) || p.display().to_string().contains(pat));
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        let p = entry.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "case") {
            out.push(p);
        }
    }
    Ok(())
}

/// Runs cases in order, calling `progress` after each.
pub fn run_all(
    cases: &[(PathBuf, String)],
    renderer: &dyn Renderer,
    options: &RunOptions,
    mut progress: impl FnMut(&CaseResult),
) -> Vec<CaseResult> {
    cases
        .iter()
        .map(|(path, name)| {
            let r = run_case(path, name, renderer, options);
            progress(&r);
            r
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in GPU: the CPU image, optionally with one pixel changed.
    struct Fake {
        poke: Option<(u32, u32, [f32; 4])>,
    }

    impl Renderer for Fake {
        fn name(&self) -> String {
            "fake".into()
        }
        fn render(
            &self,
            case: &Case,
            shaders: &CaseShaders,
            _: &glsl::Options,
        ) -> Result<Vec<Image>, GpuError> {
            let mut imgs =
                cpu::render(case, shaders).map_err(|e| GpuError::Other(e.to_string()))?;
            if let Some((x, y, v)) = self.poke {
                imgs[0].set(x, y, v);
            }
            Ok(imgs)
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
            goldens: dir.join("goldens"),
            ..RunOptions::default()
        };
        let fake = Fake { poke: None };
        // Without a golden the case fails and says how to make one.
        let r = run_case(&case, "grad", &fake, &options);
        assert!(
            r.failures.iter().any(|f| f.contains("--bless")),
            "{:?}",
            r.failures
        );
        options.bless = true;
        let r = run_case(&case, "grad", &fake, &options);
        assert!(r.passed(), "{:?}", r.failures);
        assert_eq!(r.blessed, vec![dir.join("goldens/grad.exr")]);
        options.bless = false;
        let r = run_case(&case, "grad", &fake, &options);
        assert!(r.passed(), "{:?}", r.failures);
        assert!(r.cpu_ms.is_some() && r.gpu_ms.is_some());

        // A wrong GPU pixel fails the GPU/CPU diff, the golden and the probe.
        let bad = Fake {
            poke: Some((3, 2, [0.0; 4])),
        };
        let r = run_case(&case, "grad", &bad, &options);
        assert!(!r.passed());
        assert_eq!(r.worst_pixel(), Some((3, 2)));
        let text = r.failures.join("\n");
        assert!(text.contains("1 of 16 pixels"), "{text}");
        assert!(text.contains("GPU image differs from the golden"), "{text}");
        assert!(text.contains("probe at (3, 2): GPU"), "{text}");
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
        let r = run_case(&case, "flat", &bad, &RunOptions::default());
        assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
        assert_eq!(r.shader, dir.join("cases/../shaders/flat.asm"));
        let cmd = r.step_command().expect("command");
        assert!(cmd.contains("flat.asm --case"), "{cmd}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn broken_cases_fail_with_the_file_named() {
        let dir = temp_dir("broken");
        let case = dir.join("bad.case");
        std::fs::write(&case, "[pixel shader]\nps_4_0\nfrobnicate r0\n").expect("write");
        let r = run_case(&case, "bad", &Fake { poke: None }, &RunOptions::default());
        assert!(!r.passed());
        assert!(r.failures[0].contains("bad.case"), "{:?}", r.failures);
        assert!(collect(&[dir.join("missing")], None).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
