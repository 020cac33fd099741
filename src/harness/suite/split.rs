//! One backend drawn on several devices at once: `diff --jobs N` opens N
//! Vulkan devices and each thread takes the next case from a shared
//! counter (cases differ widely in cost, so a fixed split would leave
//! threads idle). Only for Vulkan: the WebGL2 backend draws case by case
//! in the one browser of the run.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Backend, Rendered, Renderer};
use crate::glsl;
use crate::harness::case::{Case, CaseShaders};

/// Renderers of one backend, drawing a batch between them.
pub struct Split {
    /// Each locked by the one thread that draws with it (a device is not
    /// for sharing between threads).
    parts: Vec<Mutex<Box<dyn Renderer + Send>>>,
    backend: Backend,
    translator: String,
    name: String,
}

impl Split {
    /// `parts` must all draw one translator's GLSL for one backend; the
    /// first names it.
    pub fn new(parts: Vec<Box<dyn Renderer + Send>>) -> Option<Split> {
        let first = parts.first()?;
        let (backend, name) = (first.backend(), first.name());
        let translator = first.translator().to_string();
        parts
            .iter()
            .all(|p| p.backend() == backend && p.translator() == translator)
            .then(|| Split {
                parts: parts.into_iter().map(Mutex::new).collect(),
                backend,
                translator,
                name,
            })
    }
}

impl Renderer for Split {
    fn backend(&self) -> Backend {
        self.backend
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn translator(&self) -> &str {
        &self.translator
    }

    fn refuses(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Option<String> {
        // The parts are devices of one adapter: the first answers for all.
        let first = self.parts.first()?;
        let part = first.lock().unwrap_or_else(|e| e.into_inner());
        part.refuses(case, shaders, options)
    }

    fn captures_registers(&self) -> bool {
        self.parts.first().is_some_and(|p| {
            p.lock()
                .unwrap_or_else(|e| e.into_inner())
                .captures_registers()
        })
    }

    fn bisect_all(
        &self,
        jobs: &[super::BisectJob],
        options: &glsl::Options,
    ) -> Vec<Result<crate::harness::bisect::Bisection, String>> {
        // Bisections run after the draws: the first part makes them.
        match self.parts.first() {
            Some(first) => first
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .bisect_all(jobs, options),
            None => jobs
                .iter()
                .map(|_| Err("no device to capture registers on".to_string()))
                .collect(),
        }
    }

    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        options: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        let next = AtomicUsize::new(0);
        let out: Vec<Mutex<Option<Result<Rendered, String>>>> =
            jobs.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|s| {
            for part in &self.parts {
                let (next, out) = (&next, &out);
                s.spawn(move || {
                    let part = part.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(k) else { break };
                        let r = part.render_all(std::slice::from_ref(job), options).pop();
                        *out[k].lock().unwrap_or_else(|e| e.into_inner()) = r;
                    }
                });
            }
        });
        out.into_iter()
            .map(|m| {
                m.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or_else(|| Err("the renderer returned no result".into()))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Draws nothing; says which part drew which case (by its width), and
    /// takes a while over narrow ones so the parts' turns interleave.
    struct Tagged(usize);

    impl Renderer for Tagged {
        fn backend(&self) -> Backend {
            Backend::Vulkan
        }
        fn name(&self) -> String {
            format!("part {}", self.0)
        }
        fn render_all(
            &self,
            jobs: &[(&Case, &CaseShaders)],
            _: &glsl::Options,
        ) -> Vec<Result<Rendered, String>> {
            jobs.iter()
                .map(|(case, _)| {
                    if case.width % 3 == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                    Ok(Rendered {
                        images: Vec::new(),
                        ms: case.width as f64,
                        notes: vec![format!("part {}", self.0)],
                        uavs: Vec::new(),
                    })
                })
                .collect()
        }
    }

    #[test]
    fn every_case_is_drawn_once_and_results_keep_the_cases_order() {
        let cases: Vec<(Case, CaseShaders)> = (1..=24)
            .map(|w| {
                let text = format!(
                    "[pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0, 0, 0, 0)\nret\n[render target]\nsize {w} 1\n"
                );
                let case = Case::parse(&text, Path::new("t.case")).expect("case");
                let shaders = case.shaders().expect("shaders");
                (case, shaders)
            })
            .collect();
        let jobs: Vec<(&Case, &CaseShaders)> = cases.iter().map(|(c, s)| (c, s)).collect();
        let parts: Vec<Box<dyn Renderer + Send>> =
            (0..3).map(|i| Box::new(Tagged(i)) as _).collect();
        let split = Split::new(parts).expect("one backend");
        assert_eq!(split.name(), "part 0");
        let out = split.render_all(&jobs, &glsl::Options::new(glsl::Dialect::Vk450));
        let widths: Vec<f64> = out.iter().map(|r| r.as_ref().expect("drawn").ms).collect();
        assert_eq!(widths, (1..=24).map(f64::from).collect::<Vec<_>>());
        // More than one part drew.
        let mut drew: Vec<&str> = out
            .iter()
            .map(|r| r.as_ref().expect("drawn").notes[0].as_str())
            .collect();
        drew.sort();
        drew.dedup();
        assert!(drew.len() > 1, "{drew:?}");
    }
}
