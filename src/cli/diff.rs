//! `diff` and `report merge`: opening the backends, running the suite,
//! writing the summary, HTML, JUnit and JSON documents.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use dxbc_dbg::harness;

use super::Outcome;

/// Which backends `diff --backend` asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    One(harness::suite::Backend),
    All,
    /// The emulator alone.
    None,
}

pub fn parse_backends(s: &str) -> Result<BackendChoice, String> {
    match s {
        "all" => return Ok(BackendChoice::All),
        "none" => return Ok(BackendChoice::None),
        _ => {}
    }
    harness::suite::Backend::parse(s)
        .map(BackendChoice::One)
        .ok_or_else(|| format!("`{s}` is not a backend (vulkan, webgl2, all or none)"))
}

/// The Vulkan backend, or the outcome saying why it cannot draw.
/// `devices` Vulkan devices draw the cases between them when more than one.
#[cfg(feature = "gpu")]
fn open_vulkan(
    timeout: std::time::Duration,
    devices: usize,
) -> Result<Result<Box<dyn harness::suite::Renderer>, Outcome>> {
    // Each device is a worker process of this binary, so a driver crash
    // fails one case and the run goes on (`harness::gpu::isolated`).
    let command = harness::gpu::isolated::WorkerCommand::this_executable()
        .context("finding this executable to start the Vulkan worker")?;
    let open = || harness::gpu::isolated::Isolated::open(command.clone(), timeout);
    let opened = if devices > 1 {
        (0..devices)
            .map(|_| open().map(|g| Box::new(g) as Box<dyn harness::suite::Renderer + Send>))
            .collect::<Result<Vec<_>, _>>()
            .map(|parts| {
                Box::new(harness::suite::Split::new(parts).expect("devices of one backend"))
                    as Box<dyn harness::suite::Renderer>
            })
    } else {
        open().map(|g| Box::new(g) as Box<dyn harness::suite::Renderer>)
    };
    match opened {
        Ok(g) => Ok(Ok(g)),
        Err(harness::gpu::GpuError::NoAdapter(why)) => Ok(Err(Outcome::NoVulkan {
            why: format!("no GPU adapter ({why})"),
            fix: "the diff needs Vulkan (a GPU driver, or Mesa's lavapipe from mesa-vulkan-drivers)",
        })),
        Err(e) => Err(anyhow::anyhow!("creating the GPU device: {e}")),
    }
}

#[cfg(not(feature = "gpu"))]
fn open_vulkan(
    _timeout: std::time::Duration,
    _devices: usize,
) -> Result<Result<Box<dyn harness::suite::Renderer>, Outcome>> {
    Ok(Err(Outcome::NoVulkan {
        why: "not built (dxbc-dbg was built without the `gpu` cargo feature)".to_string(),
        fix: "rebuild with `--features gpu`, or draw with `--backend webgl2`",
    }))
}

/// The backends a run draws with, opened. The WebGL2 backend is kept as
/// itself: external translators' renderers draw through it.
pub struct Opened {
    pub vulkan: Option<Box<dyn harness::suite::Renderer>>,
    pub webgl2: Option<harness::webgl2::WebGl2>,
}

impl Opened {
    /// The run's renderers in their order: Vulkan, WebGL2 through
    /// dxbc-dbg's own text, then each external translator's (`external`,
    /// drawing through `webgl2`).
    pub fn renderers<'a>(
        &'a self,
        external: &'a [Box<dyn harness::suite::Renderer + 'a>],
    ) -> Vec<&'a dyn harness::suite::Renderer> {
        let mut out: Vec<&'a dyn harness::suite::Renderer> = Vec::new();
        if let Some(v) = &self.vulkan {
            out.push(v.as_ref());
        }
        if let Some(w) = &self.webgl2 {
            out.push(w);
        }
        out.extend(external.iter().map(|e| e.as_ref()));
        out
    }
}

/// The backends to draw with, opened; a backend asked for by name that
/// cannot be opened ends the command with its own exit status, one merely
/// absent from the default set is named and left out. `translators`: the
/// run draws external translators' text, which needs the WebGL2 backend
/// (asked for as if by name; a `--backend` leaving it out is refused).
pub fn open_backends(
    choice: Option<BackendChoice>,
    browser: Option<PathBuf>,
    angle: harness::webgl2::Angle,
    timeout: std::time::Duration,
    vulkan_devices: usize,
    translators: bool,
) -> Result<Result<Opened, Outcome>> {
    use harness::suite::Backend;
    let wanted: Vec<Backend> = match choice {
        Some(BackendChoice::One(b)) => vec![b],
        Some(BackendChoice::None) => Vec::new(),
        _ => Backend::ALL.to_vec(),
    };
    if translators && !wanted.contains(&Backend::WebGl2) {
        let asked = match choice {
            Some(BackendChoice::One(b)) => b.name(),
            _ => "none",
        };
        return Ok(Err(Outcome::NoWebGl2(format!(
            "--translator draws external translators' GLSL on the webgl2 backend, \
             which --backend {asked} leaves out (use --backend webgl2 or all)"
        ))));
    }
    let required = choice.is_some();
    let mut out = Opened {
        vulkan: None,
        webgl2: None,
    };
    let mut missing = Vec::new();
    for b in wanted {
        match b {
            Backend::Vulkan => match open_vulkan(timeout, vulkan_devices)? {
                Ok(g) => out.vulkan = Some(g),
                Err(absent) if required => return Ok(Err(absent)),
                Err(absent) => {
                    if let Outcome::NoVulkan { why, .. } = &absent {
                        println!("skipping the vulkan backend: {why}");
                    }
                    missing.push(absent);
                }
            },
            Backend::WebGl2 => {
                let config = harness::webgl2::Config {
                    browser: browser.clone(),
                    angle,
                    timeout,
                };
                match harness::webgl2::WebGl2::new(config) {
                    Ok(w) => out.webgl2 = Some(w),
                    Err(harness::webgl2::WebGl2Error::NoBrowser(why))
                        if required || translators =>
                    {
                        return Ok(Err(Outcome::NoBrowser(why)));
                    }
                    Err(harness::webgl2::WebGl2Error::NoBrowser(why)) => {
                        println!("skipping the webgl2 backend: no browser ({why})");
                        missing.push(Outcome::NoBrowser(why));
                    }
                    Err(e) => return Err(anyhow::anyhow!("starting the browser: {e}")),
                }
            }
        }
    }
    if out.vulkan.is_none()
        && out.webgl2.is_none()
        && let Some(first) = missing.into_iter().next()
    {
        return Ok(Err(first));
    }
    Ok(Ok(out))
}

/// Where `diff` writes what it found, besides the summary on standard
/// output.
pub struct Outputs<'a> {
    pub report: Option<&'a Path>,
    pub junit: Option<&'a Path>,
    pub json: Option<&'a Path>,
}

/// What decides a run's results, as its JSON document records them.
pub struct Selection<'a> {
    pub cases: &'a [PathBuf],
    pub filter: Option<&'a str>,
    pub shard: Option<harness::shard::Shard>,
}

impl Selection<'_> {
    /// What the results document records of a run over this selection on
    /// `renderers` (printed, one line each, as the run starts).
    pub fn run_info(
        &self,
        renderers: &[&dyn harness::suite::Renderer],
        bless: bool,
    ) -> harness::results::RunInfo {
        let keys: Vec<String> = renderers
            .iter()
            .map(|r| harness::results::RendererInfo::of(*r).backend)
            .collect();
        for (r, key) in renderers.iter().zip(&keys) {
            println!("backend {key}: {}", r.name());
        }
        harness::results::RunInfo {
            inputs: self.cases.iter().map(|p| p.display().to_string()).collect(),
            backends: keys,
            filter: self.filter.map(str::to_string),
            shard: self.shard,
            bless,
            auto: None,
        }
    }
}

pub fn diff_command(
    selection: Selection,
    options: harness::suite::RunOptions,
    outputs: Outputs,
    renderers: &[&dyn harness::suite::Renderer],
) -> Result<Outcome> {
    let all =
        harness::suite::collect(selection.cases, selection.filter).map_err(anyhow::Error::msg)?;
    if all.is_empty() {
        anyhow::bail!("no cases to run");
    }
    // An empty slice is no error: N can exceed a small set's size, and
    // its (empty) document still takes part in the merge.
    let (indices, list) = harness::suite::slice(&all, selection.shard);
    if let Some(shard) = selection.shard {
        println!("slice {shard}: {} of {} cases", list.len(), all.len());
    }
    let info = selection.run_info(renderers, options.bless);
    let names: Vec<harness::results::RendererInfo> = renderers
        .iter()
        .map(|r| harness::results::RendererInfo::of(*r))
        .collect();
    let bar = super::progress::Bar::new();
    // Each case's pictures are written as soon as it is compared and then
    // dropped, so a run holds one slice's pixels, not the suite's.
    let mut pictures: Result<(), String> = Ok(());
    let results = harness::suite::run_all_shedding(&list, renderers, &options, &bar, |r| {
        if let (Some(dir), Ok(())) = (outputs.report, &pictures) {
            pictures = harness::report::write_case_pictures(dir, r);
        }
    });
    bar.finish();
    pictures.map_err(anyhow::Error::msg)?;
    let mut doc = harness::results::Results::from_run(info, names, all.len(), &indices, &results);
    print!("{}", harness::report::summary_table(&doc));
    for (r, rec) in results.iter().zip(&doc.cases).filter(|(r, _)| !r.passed()) {
        println!("\n{}:", r.name);
        for f in &r.failures {
            println!("  {f}");
        }
        if let Some(cmd) = r.step_command() {
            println!("  step the worst pixel: {cmd}");
        }
        for b in &rec.backends {
            if let Some(bisect) = &b.bisect {
                let [x, y] = bisect.pixel;
                println!(
                    "  first divergent instruction on {} at ({x}, {y}): {}",
                    b.key(),
                    bisect.summary()
                );
            }
        }
    }
    for r in &results {
        for b in &r.blessed {
            println!("blessed {}", b.display());
        }
    }
    if let Some(dir) = outputs.report {
        harness::report::link_pictures(&results, &mut doc);
        let page = harness::report::write_html(dir, &doc).map_err(anyhow::Error::msg)?;
        println!("report: {}", page.display());
    }
    write_documents(&mut doc, outputs)?;
    Ok(if doc.passed() {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// Writes the JUnit XML and the JSON document where asked.
pub fn write_documents(doc: &mut harness::results::Results, outputs: Outputs) -> Result<()> {
    if let Some(path) = outputs.junit {
        std::fs::write(path, harness::report::junit(doc))
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    if let Some(path) = outputs.json {
        doc.write(path, outputs.report)
            .map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

pub fn report_merge(documents: &[PathBuf], outputs: Outputs) -> Result<Outcome> {
    let slices = documents
        .iter()
        .map(|p| harness::results::Results::read(p).map(|d| (p.clone(), d)))
        .collect::<Result<Vec<_>, String>>()
        .map_err(anyhow::Error::msg)?;
    // Pictures are linked from the merged report, or else from the merged
    // document's own directory, which its `report` field then names.
    let json_dir = outputs
        .json
        .map(|j| j.parent().unwrap_or(Path::new("")).to_path_buf());
    let base = match (outputs.report, &json_dir) {
        (Some(dir), _) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create", dir.display()))?;
            dir.to_path_buf()
        }
        (None, Some(d)) => d.clone(),
        (None, None) => PathBuf::new(),
    };
    let mut doc = harness::results::merge(slices, &base).map_err(anyhow::Error::msg)?;
    if doc.options.auto.is_some() {
        // Generated-case runs count by verdict, as `diff --auto` does.
        print!("{}", harness::results::verdict::summary(&doc));
        super::auto::print_details(&doc);
    } else {
        print!("{}", harness::report::summary_table(&doc));
    }
    if let Some(dir) = outputs.report {
        let page = harness::report::write_html(dir, &doc).map_err(anyhow::Error::msg)?;
        println!("report: {}", page.display());
    }
    let outputs = Outputs {
        report: Some(base.as_path()),
        ..outputs
    };
    write_documents(&mut doc, outputs)?;
    Ok(if doc.passed() {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}
