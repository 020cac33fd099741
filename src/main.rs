//! The `dxbc-dbg` command line. Everything here is argument parsing and
//! error reporting; the work lives in the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::dxbc::{self, ParseOptions, Shader};
use dxbc_dbg::{glsl, harness, input_file, tui, vm};

#[derive(Parser)]
#[command(
    name = "dxbc-dbg",
    version,
    about = "Debugger and differential tester for DXBC → GLSL ES 3.00 translation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the fxc-style listing of a shader (header comments and instructions).
    Disasm {
        file: PathBuf,
        /// Read the shader even if its container checksum does not match.
        #[arg(long)]
        no_verify: bool,
        /// Print only the instruction lines, without the comment header.
        #[arg(long)]
        no_header: bool,
    },
    /// Assemble fxc-syntax assembly (a `disasm` listing or an fxc /Fc listing) into a DXBC container.
    Asm {
        file: PathBuf,
        /// Where to write the container.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Run a shader on the reference emulator for the quad holding a pixel and
    /// print every executed instruction with the components it changed.
    Trace {
        /// A .dxbc container or .asm source.
        file: PathBuf,
        /// The pixel whose quad is run (pixel shaders), e.g. `--pixel 10,4`.
        #[arg(long, value_parser = parse_pixel, default_value = "0,0")]
        pixel: (u32, u32),
        /// Take inputs, textures, samplers and constant buffers from a case
        /// file (docs/cases.md) instead of the documented defaults.
        #[arg(long)]
        case: Option<PathBuf>,
        /// Print JSON instead of text (one step record a line).
        #[arg(long)]
        json: bool,
        /// Print at most N lines of steps (with --json, N step records);
        /// the run still goes to the end for the outputs and the outcome,
        /// and a last line (JSON: `truncated`) says steps were left out.
        #[arg(
            long,
            value_name = "N",
            default_value_t = vm::trace::DEFAULT_MAX_LINES,
            value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
        )]
        max_lines: usize,
        /// Read the shader even if its container checksum does not match.
        #[arg(long)]
        no_verify: bool,
    },
    /// Debug a shader interactively: step the emulator one DXBC instruction
    /// at a time (forward and back) for the quad holding a pixel, beside the
    /// emitted GLSL and the register file (docs/debugger.md).
    Step {
        /// A .dxbc container or .asm source.
        file: PathBuf,
        /// Take inputs, textures, samplers and constant buffers from a case
        /// file (docs/cases.md) instead of the documented defaults.
        #[arg(long)]
        case: Option<PathBuf>,
        /// The pixel whose quad is run (pixel shaders), e.g. `--pixel 10,4`.
        #[arg(long, value_parser = parse_pixel, default_value = "0,0")]
        pixel: (u32, u32),
        /// The lane of the quad shown first (0-3; default: the pixel's own).
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
        lane: Option<u8>,
        /// Read the shader even if its container checksum does not match.
        #[arg(long)]
        no_verify: bool,
    },
    /// Translate a shader to GLSL: ES 3.00 for WebGL2 (default) or Vulkan
    /// GLSL 4.50 for the harness.
    Glsl {
        /// A .dxbc container or .asm source.
        file: PathBuf,
        /// `es300` or `vk450`.
        #[arg(long, default_value = "es300", value_parser = parse_dialect)]
        dialect: glsl::Dialect,
        /// Write the GLSL here instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print the source map (instruction index: first-last GLSL line) after the GLSL.
        #[arg(long)]
        map: bool,
        /// Write the binding manifest (JSON) here.
        #[arg(long)]
        manifest: Option<PathBuf>,
        /// The pixel shader FILE (a vertex shader) feeds: its outputs take
        /// that shader's interpolation qualifiers and, in vk450, locations,
        /// so the two link.
        #[arg(long, value_name = "PS")]
        link: Option<PathBuf>,
        /// Read the shader even if its container checksum does not match.
        #[arg(long)]
        no_verify: bool,
    },
    /// Draw test cases through the translated GLSL (Vulkan: vk450 on wgpu;
    /// WebGL2: es300 in headless Chromium) and on the emulator, diff the
    /// images, check probes and goldens. Exit status: 0 all pass, 1 a case
    /// failed, 3 no GPU adapter (or no Vulkan backend built in), 4 no
    /// browser (for a backend asked for).
    Diff {
        /// Case files, or directories searched for `*.case` recursively.
        #[arg(default_value = "tests/cases")]
        cases: Vec<PathBuf>,
        /// Write goldens (from the emulator's image) instead of comparing.
        #[arg(long)]
        bless: bool,
        /// Where goldens live, named by each case's path relative to the
        /// directory it was found under. Default: the `goldens` directory
        /// beside the `tests/cases` tree each case lives in, named by its
        /// path in that tree (so one group finds the same goldens as the
        /// whole tree).
        #[arg(long)]
        goldens: Option<PathBuf>,
        /// Write an HTML report (index.html and pictures) into this directory.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Write JUnit XML here.
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Write the results document (JSON, docs/harness.md) here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Run only cases whose name or path contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Run slice K of N (1 <= K <= N) of the cases, chosen by a hash of
        /// each case's name: N runs with K = 1..N share the cases out with
        /// none left over or run twice (`report merge` joins their JSON).
        #[arg(long, value_name = "K/N", value_parser = parse_shard)]
        shard: Option<harness::shard::Shard>,
        /// Threads for the emulator's side (loading, CPU draws, diffs);
        /// default: one per CPU. Backends draw their batch as before.
        #[arg(long, value_name = "N",
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        jobs: Option<usize>,
        /// Vulkan devices drawing the cases between them, each on its own
        /// thread (lavapipe also spreads each draw over threads of its
        /// own; docs/harness.md gives measurements).
        #[arg(long, value_name = "N", default_value_t = 1,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        vulkan_devices: usize,
        /// `vulkan`, `webgl2`, `all`, or `none` (the emulator alone: its
        /// draws, goldens and probes); default: every backend whose
        /// runtime is present (the others are named, with the reason).
        #[arg(long, value_parser = parse_backends)]
        backend: Option<BackendChoice>,
        /// The browser for the WebGL2 backend (default: the first of
        /// chromium-headless-shell, chromium, google-chrome on PATH).
        #[arg(long)]
        browser: Option<PathBuf>,
        /// ANGLE's back end for WebGL2: swiftshader (no GPU), vulkan or gl.
        #[arg(long, default_value = "swiftshader", value_parser = parse_angle)]
        angle: harness::webgl2::Angle,
        /// Seconds a draw may take before it is reported as not finishing:
        /// each case's on Vulkan, the whole batch's on WebGL2 (a software
        /// GPU can compile a long shader for minutes; one that never ends
        /// must not stall the run).
        #[arg(long, value_name = "SECS", default_value_t = 300,
              value_parser = clap::value_parser!(u64).range(1..))]
        draw_timeout: u64,
    },
    /// Case files: `case new` writes one from a shader's bytecode alone.
    Case {
        #[command(subcommand)]
        action: CaseCommand,
    },
    /// Work with `diff --json` results documents.
    Report {
        #[command(subcommand)]
        command: ReportCommand,
    },
    /// Summarise a shader: chunks, resources, constant buffers, signatures, instruction counts.
    Info {
        file: PathBuf,
        /// Read the shader even if its container checksum does not match.
        #[arg(long)]
        no_verify: bool,
    },
}

#[derive(Subcommand)]
enum CaseCommand {
    /// Write a case (docs/cases.md, "Generated cases") for a pixel shader,
    /// a vertex and a pixel shader, or a vertex shader alone (drawn through
    /// a generated pixel shader showing its outputs): inputs by semantic,
    /// a texture, sampler, buffer or UAV per declaration, constant buffers
    /// typed from RDEF. A starting point to edit; it has no probes.
    New {
        /// .dxbc containers or .asm sources (one or two).
        #[arg(required = true, num_args = 1..=2)]
        shaders: Vec<PathBuf>,
        /// Where to write the case (default: standard output, with paths
        /// relative to the current directory).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Seed of the generated values (the same seed gives the same case).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The render target's width and height.
        #[arg(long, num_args = 2, value_names = ["W", "H"])]
        size: Option<Vec<u32>>,
        /// A picture (PNG, or a DDS file) for texture slot N: `tN=PATH`.
        #[arg(long, value_name = "tN=PATH")]
        texture: Vec<String>,
    },
}

#[derive(Subcommand)]
enum ReportCommand {
    /// Join the JSON of `diff --shard K/N` runs into the report one run
    /// would have written: summary table, and optionally HTML (linking each
    /// slice's pictures), JUnit and the joined JSON. Refuses overlapping
    /// slices, missing ones and runs with other options. Exit status: 0 all
    /// pass, 1 a case failed (or the documents do not merge).
    Merge {
        /// The slices' documents.
        #[arg(required = true)]
        documents: Vec<PathBuf>,
        /// Write an HTML report (index.html) into this directory.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Write JUnit XML here.
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Write the joined document here.
        #[arg(long)]
        json: Option<PathBuf>,
    },
}

fn parse_shard(s: &str) -> Result<harness::shard::Shard, String> {
    harness::shard::Shard::parse(s)
}

fn parse_dialect(s: &str) -> Result<glsl::Dialect, String> {
    glsl::Dialect::parse(s).ok_or_else(|| format!("`{s}` is not a dialect (es300 or vk450)"))
}

/// Which backends `diff --backend` asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BackendChoice {
    One(harness::suite::Backend),
    All,
    /// The emulator alone.
    None,
}

fn parse_backends(s: &str) -> Result<BackendChoice, String> {
    match s {
        "all" => return Ok(BackendChoice::All),
        "none" => return Ok(BackendChoice::None),
        _ => {}
    }
    harness::suite::Backend::parse(s)
        .map(BackendChoice::One)
        .ok_or_else(|| format!("`{s}` is not a backend (vulkan, webgl2, all or none)"))
}

fn parse_angle(s: &str) -> Result<harness::webgl2::Angle, String> {
    harness::webgl2::Angle::parse(s)
        .ok_or_else(|| format!("`{s}` is not an ANGLE back end (swiftshader, vulkan or gl)"))
}

fn parse_pixel(s: &str) -> Result<(u32, u32), String> {
    let (x, y) = s.split_once(',').ok_or("expected X,Y")?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{v}` is not a pixel coordinate"))
    };
    Ok((n(x)?, n(y)?))
}

/// Reads a shader from a container, or assembles it when the file is text.
fn load(path: &Path, no_verify: bool) -> Result<Shader> {
    let mut bytes = input_file::read(path).with_context(|| path.display().to_string())?;
    if path.extension().is_some_and(|e| e == "asm") {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bytes = dxbc::asm::assemble(&text)
            .map_err(|e| anyhow::anyhow!(e.in_file(&path.display().to_string())))?;
    }
    let mut shader = Shader::parse(
        &bytes,
        ParseOptions {
            verify_checksum: !no_verify,
        },
    )
    .with_context(|| path.display().to_string())?;
    if no_verify {
        shader.check_checksum(&bytes);
    }
    Ok(shader)
}

/// `case new`: the case text for `files`, checked by loading it the way
/// `diff` would (parse, shaders, bindings) before it is written.
fn case_new(
    files: &[PathBuf],
    output: Option<&Path>,
    seed: u64,
    size: [u32; 2],
    textures: &[String],
) -> Result<String> {
    use harness::generate::{self, ImageTexture, Options, ShaderInput, paths};
    let case_dir = match output.and_then(Path::parent) {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let case_dir = case_dir
        .canonicalize()
        .with_context(|| format!("{}: the case's directory", case_dir.display()))?;
    // A path as the case names it: relative to the case's directory.
    let in_case = |p: &Path| -> Result<String> {
        let abs = p.canonicalize().with_context(|| p.display().to_string())?;
        Ok(paths::case_line(&paths::relative(&case_dir, &abs))?)
    };
    let mut shaders = Vec::new();
    for f in files {
        shaders.push((load(f, false)?, in_case(f)?));
    }
    let mut images = Vec::new();
    for t in textures {
        let bad = || anyhow::anyhow!("--texture {t}: expected tN=PATH (N in 0..=127)");
        let (slot, path) = t.split_once('=').ok_or_else(bad)?;
        let slot: u32 = slot
            .strip_prefix('t')
            .and_then(|n| n.parse().ok())
            .filter(|n| *n < dxbc::limits::SHADER_RESOURCE_SLOTS)
            .ok_or_else(bad)?;
        let path = Path::new(path);
        let dds = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("dds"));
        let size = if dds {
            None
        } else {
            let pic = harness::image::read_picture(path)
                .map_err(|e| anyhow::anyhow!("--texture {t}: {}: {e}", path.display()))?;
            Some([pic.width(), pic.height()])
        };
        images.push(ImageTexture {
            slot,
            path: in_case(path)?,
            size,
        });
    }
    let inputs: Vec<ShaderInput> = shaders
        .iter()
        .map(|(shader, path)| ShaderInput { shader, path })
        .collect();
    let opts = Options { seed, size, images };
    let text = generate::case_text(&inputs, &opts)?;
    let at = output.map_or_else(|| case_dir.join("generated.case"), Path::to_path_buf);
    let case = harness::case::Case::parse(&text, &at)
        .map_err(|e| anyhow::anyhow!("the generated case does not load (a bug): {e}"))?;
    let loaded = case
        .shaders()
        .map_err(|e| anyhow::anyhow!("the generated case does not load: {e}"))?;
    let mut stages = vec![&loaded.pixel];
    stages.extend(loaded.vertex.as_ref());
    case.check_bindings(&stages)
        .map_err(|e| anyhow::anyhow!("the generated case does not load (a bug): {e}"))?;
    Ok(text)
}

/// Exit status when no GPU adapter can be created, or the Vulkan backend
/// is not built in: either way the backend asked for cannot draw.
const EXIT_NO_ADAPTER: u8 = 3;
/// Exit status when the WebGL2 backend has no browser to run in.
const EXIT_NO_BROWSER: u8 = 4;

/// How a command ended, when it did not end in an error (exit 1).
enum Outcome {
    Done,
    Failed,
    /// The Vulkan backend cannot draw: no adapter, or a binary built
    /// without the `gpu` feature (both exit 3). `why` follows "skipping the
    /// vulkan backend: "; `fix` says what would make it draw.
    NoVulkan {
        why: String,
        fix: &'static str,
    },
    NoBrowser(String),
}

/// The Vulkan backend, or the outcome saying why it cannot draw.
/// `devices` Vulkan devices draw the cases between them when more than one.
#[cfg(feature = "gpu")]
fn open_vulkan(
    timeout: std::time::Duration,
    devices: usize,
) -> Result<Result<Box<dyn harness::suite::Renderer>, Outcome>> {
    let open = || harness::gpu::Gpu::new().map(|g| g.with_timeout(timeout));
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

/// The backends to draw with, opened; a backend asked for by name that
/// cannot be opened ends the command with its own exit status, one merely
/// absent from the default set is named and left out.
fn open_backends(
    choice: Option<BackendChoice>,
    browser: Option<PathBuf>,
    angle: harness::webgl2::Angle,
    timeout: std::time::Duration,
    vulkan_devices: usize,
) -> Result<Result<Vec<Box<dyn harness::suite::Renderer>>, Outcome>> {
    use harness::suite::Backend;
    let wanted: Vec<Backend> = match choice {
        Some(BackendChoice::One(b)) => vec![b],
        Some(BackendChoice::None) => Vec::new(),
        _ => Backend::ALL.to_vec(),
    };
    let required = choice.is_some();
    let mut out: Vec<Box<dyn harness::suite::Renderer>> = Vec::new();
    let mut missing = Vec::new();
    for b in wanted {
        match b {
            Backend::Vulkan => match open_vulkan(timeout, vulkan_devices)? {
                Ok(g) => out.push(g),
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
                    Ok(w) => out.push(Box::new(w)),
                    Err(harness::webgl2::WebGl2Error::NoBrowser(why)) if required => {
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
    if out.is_empty()
        && let Some(first) = missing.into_iter().next()
    {
        return Ok(Err(first));
    }
    Ok(Ok(out))
}

/// Where `diff` writes what it found, besides the summary on standard
/// output.
struct Outputs<'a> {
    report: Option<&'a Path>,
    junit: Option<&'a Path>,
    json: Option<&'a Path>,
}

/// What decides a run's results, as its JSON document records them.
struct Selection<'a> {
    cases: &'a [PathBuf],
    filter: Option<&'a str>,
    shard: Option<harness::shard::Shard>,
}

fn diff_command(
    selection: Selection,
    options: harness::suite::RunOptions,
    outputs: Outputs,
    backends: Vec<Box<dyn harness::suite::Renderer>>,
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
    let renderers: Vec<&dyn harness::suite::Renderer> =
        backends.iter().map(|b| b.as_ref()).collect();
    let names: Vec<harness::results::RendererInfo> = renderers
        .iter()
        .map(|r| harness::results::RendererInfo {
            backend: r.backend().name().to_string(),
            name: r.name(),
        })
        .collect();
    for r in &names {
        println!("backend {}: {}", r.backend, r.name);
    }
    let bar = indicatif::ProgressBar::new(list.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let bless = options.bless;
    let results = harness::suite::run_all(&list, &renderers, &options, |r| {
        bar.set_message(r.name.clone());
        bar.inc(1);
    });
    bar.finish_and_clear();
    let info = harness::results::RunInfo {
        inputs: selection
            .cases
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        backends: names.iter().map(|r| r.backend.clone()).collect(),
        filter: selection.filter.map(str::to_string),
        shard: selection.shard,
        bless,
    };
    let mut doc = harness::results::Results::from_run(info, names, all.len(), &indices, &results);
    print!("{}", harness::report::summary_table(&doc));
    for r in results.iter().filter(|r| !r.passed()) {
        println!("\n{}:", r.name);
        for f in &r.failures {
            println!("  {f}");
        }
        if let Some(cmd) = r.step_command() {
            println!("  step the worst pixel: {cmd}");
        }
    }
    for r in &results {
        for b in &r.blessed {
            println!("blessed {}", b.display());
        }
    }
    if let Some(dir) = outputs.report {
        harness::report::write_pictures(dir, &results, &mut doc).map_err(anyhow::Error::msg)?;
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
fn write_documents(doc: &mut harness::results::Results, outputs: Outputs) -> Result<()> {
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

fn report_merge(documents: &[PathBuf], outputs: Outputs) -> Result<Outcome> {
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
    print!("{}", harness::report::summary_table(&doc));
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

fn run(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Diff {
            cases,
            bless,
            goldens,
            report,
            junit,
            json,
            filter,
            shard,
            jobs,
            vulkan_devices,
            backend,
            browser,
            angle,
            draw_timeout,
        } => {
            let jobs = jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            });
            let options = harness::suite::RunOptions {
                glsl: glsl::Options::new(glsl::Dialect::Vk450),
                goldens,
                bless,
                jobs,
            };
            let timeout = std::time::Duration::from_secs(draw_timeout);
            let backends = match open_backends(backend, browser, angle, timeout, vulkan_devices)? {
                Ok(b) => b,
                Err(outcome) => return Ok(outcome),
            };
            let selection = Selection {
                cases: &cases,
                filter: filter.as_deref(),
                shard,
            };
            let outputs = Outputs {
                report: report.as_deref(),
                junit: junit.as_deref(),
                json: json.as_deref(),
            };
            return diff_command(selection, options, outputs, backends);
        }
        Command::Report {
            command:
                ReportCommand::Merge {
                    documents,
                    report,
                    junit,
                    json,
                },
        } => {
            let outputs = Outputs {
                report: report.as_deref(),
                junit: junit.as_deref(),
                json: json.as_deref(),
            };
            return report_merge(&documents, outputs);
        }
        Command::Disasm {
            file,
            no_verify,
            no_header,
        } => {
            let shader = load(&file, no_verify)?;
            let text = if no_header {
                let mut s = shader.program_lines().join("\n");
                s.push('\n');
                s
            } else {
                dxbc::listing::listing(&shader)
            };
            print!("{text}");
        }
        Command::Asm { file, output } => {
            let text =
                input_file::read_to_string(&file).with_context(|| file.display().to_string())?;
            let bytes = dxbc::asm::assemble(&text)
                .map_err(|e| anyhow::anyhow!(e.in_file(&file.display().to_string())))?;
            std::fs::write(&output, bytes)
                .with_context(|| format!("{}: cannot write", output.display()))?;
        }
        Command::Trace {
            file,
            pixel,
            case,
            json,
            max_lines,
            no_verify,
        } => {
            let shader = load(&file, no_verify)?;
            // UAVs start as the case gives them: the traced quad does not
            // see what quads drawn before it would have written.
            let (setup, resources, uavs) = match case {
                Some(path) => {
                    let case = harness::case::Case::load(&path)?;
                    case.check_bindings(&[&shader])?;
                    let choice = vm::defaults::PixelChoice {
                        x: pixel.0,
                        y: pixel.1,
                        width: case.width,
                        height: case.height,
                    };
                    let (setup, resources) = harness::raster::case_inputs(&case, &shader, choice);
                    (setup, resources, harness::cpu::uavs(&case))
                }
                None => {
                    let choice = vm::defaults::PixelChoice {
                        x: pixel.0,
                        y: pixel.1,
                        ..Default::default()
                    };
                    (
                        vm::defaults::default_setup(&shader, choice),
                        vm::defaults::default_resources(
                            &shader.program,
                            vm::defaults::DefaultTextures::Checker,
                        ),
                        Vec::new(),
                    )
                }
            };
            let style = shader.style();
            let mut machine = vm::Machine::new(std::rc::Rc::new(shader.program), setup, resources)
                .with_context(|| file.display().to_string())?;
            machine.set_uavs(uavs);
            let format = if json {
                vm::trace::Format::Json
            } else {
                vm::trace::Format::Text
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let summary = match vm::trace::write(&mut machine, style, format, max_lines, &mut out) {
                Ok(summary) => summary,
                // The reader went away (`| head`): nobody is left to tell.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(Outcome::Done),
                Err(e) => return Err(anyhow::anyhow!("standard output: {e}")),
            };
            if let Err(e) = summary.outcome {
                return Err(anyhow::anyhow!("{}: {e}", file.display()));
            }
        }
        Command::Step {
            file,
            case,
            pixel,
            lane,
            no_verify,
        } => {
            let shader = load(&file, no_verify)?;
            let inputs = match case {
                Some(path) => {
                    let case = harness::case::Case::load(&path)?;
                    case.check_bindings(&[&shader])?;
                    tui::Inputs::case(case, &shader, &path.display().to_string())
                }
                None => tui::Inputs::defaults(&shader),
            };
            if pixel.0 >= inputs.width || pixel.1 >= inputs.height {
                anyhow::bail!(
                    "pixel ({},{}) is outside the {}x{} target",
                    pixel.0,
                    pixel.1,
                    inputs.width,
                    inputs.height
                );
            }
            let app = tui::App::new(&shader, inputs, pixel, lane.map(usize::from))
                .with_context(|| file.display().to_string())?;
            tui::run(app).context("terminal")?;
        }
        Command::Glsl {
            file,
            dialect,
            output,
            map,
            manifest,
            link,
            no_verify,
        } => {
            let shader = load(&file, no_verify)?;
            let mut options = glsl::Options::new(dialect);
            if let Some(ps_path) = &link {
                if shader.program.kind != ProgramType::Vertex {
                    anyhow::bail!(
                        "{}: --link needs a vertex shader here, not {}",
                        file.display(),
                        shader.program.profile()
                    );
                }
                let ps = load(ps_path, no_verify)?;
                if ps.program.kind != ProgramType::Pixel {
                    anyhow::bail!(
                        "{}: --link takes the pixel shader the vertex shader feeds, not {}",
                        ps_path.display(),
                        ps.program.profile()
                    );
                }
                options.link = Some(glsl::Link::from_pixel_shader(&ps));
            }
            let t = glsl::translate(&shader, &options)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            match &output {
                Some(path) => std::fs::write(path, &t.source)
                    .with_context(|| format!("{}: cannot write", path.display()))?,
                None => print!("{}", t.source),
            }
            if map {
                print!("// source map (instruction: lines)\n{}", t.map.to_text());
            }
            if let Some(path) = manifest {
                std::fs::write(&path, t.manifest.to_json())
                    .with_context(|| format!("{}: cannot write", path.display()))?;
            }
        }
        Command::Case {
            action:
                CaseCommand::New {
                    shaders,
                    output,
                    seed,
                    size,
                    texture,
                },
        } => {
            let size = size.map_or(harness::generate::DEFAULT_SIZE, |v| [v[0], v[1]]);
            let text = case_new(&shaders, output.as_deref(), seed, size, &texture)?;
            match output {
                Some(path) => std::fs::write(&path, text)
                    .with_context(|| format!("{}: cannot write", path.display()))?,
                None => print!("{text}"),
            }
        }
        Command::Info { file, no_verify } => {
            let shader = load(&file, no_verify)?;
            print!(
                "{}",
                dxbc::info::report(&file.display().to_string(), &shader)
            );
        }
    }
    Ok(Outcome::Done)
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::FAILURE,
        Ok(Outcome::NoVulkan { why, fix }) => {
            eprintln!("dxbc-dbg: the vulkan backend: {why}; {fix}");
            ExitCode::from(EXIT_NO_ADAPTER)
        }
        Ok(Outcome::NoBrowser(why)) => {
            eprintln!(
                "dxbc-dbg: no browser ({why}); the webgl2 backend needs headless Chromium (Debian's chromium-headless-shell) or --browser PATH"
            );
            ExitCode::from(EXIT_NO_BROWSER)
        }
        Err(e) => {
            // One line: "file: byte offset N: what went wrong".
            eprintln!("dxbc-dbg: {e:#}");
            ExitCode::FAILURE
        }
    }
}
