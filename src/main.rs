//! The `dxbc-dbg` command line: argument definitions, dispatch and exit
//! statuses. What a command does beyond calling the library is in `cli`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use dxbc_dbg::dxbc;
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::{glsl, harness, input_file, tui, vm};

mod cli;
use cli::case_new::case_new;
use cli::diff::{
    BackendChoice, Outputs, Selection, diff_command, open_backends, parse_backends, report_merge,
};
use cli::{Outcome, load};

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
        /// Print, instead of the steps, the instructions of the pixel's
        /// path whose operand values hit a place where D3D11 and GLSL ES
        /// 3.00 differ (NaN into min/max, ftoi of NaN, shift counts of 32
        /// or more, udiv by 0, gather4, border/mirror-once/bias sampler
        /// state taken, ...), with the values and both rules
        /// (docs/debugger.md).
        #[arg(long)]
        gaps: bool,
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
        /// The shader's HLSL source, shown by `H` in the GLSL's place
        /// (default: the file with the shader's stem and `.hlsl` beside
        /// it, when there is one).
        #[arg(long, value_name = "FILE")]
        hlsl: Option<PathBuf>,
        /// Read the shader even if its container checksum does not match.
        #[arg(long)]
        no_verify: bool,
    },
    /// Find the first instruction at which a pixel's registers on the GPU
    /// differ from the emulator's: the case drawn on Vulkan (vk450) or
    /// WebGL2 (es300) with the translation recording that pixel, beside
    /// the emulator's run of its quad (docs/bisect.md). Exit status: 0 no
    /// divergence, 1 a divergence (printed), 2 the bisection could not run.
    Bisect {
        /// A case file with an inline `[pixel shader]` or a `[pixel shader file]`.
        case: PathBuf,
        /// The pixel compared, e.g. `--pixel 10,4` (rows from the top).
        #[arg(long, value_parser = parse_pixel)]
        pixel: (u32, u32),
        /// The lane of the pixel's quad compared instead (0-3: top-left,
        /// top-right, bottom-left, bottom-right).
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
        lane: Option<u8>,
        /// The GPU backend: `vulkan` (the vk450 text) or `webgl2` (the
        /// es300 text in headless Chromium).
        #[arg(long, default_value = "vulkan", value_parser = ["vulkan", "webgl2"])]
        backend: String,
        /// The browser for `--backend webgl2` (default: the first of
        /// chromium-headless-shell, chromium, google-chrome on PATH).
        #[arg(long)]
        browser: Option<PathBuf>,
        /// ANGLE's back end for WebGL2: swiftshader (no GPU), vulkan or gl.
        #[arg(long, default_value = "swiftshader", value_parser = parse_angle)]
        angle: harness::webgl2::Angle,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
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
        /// The other stage of FILE's program, so the two link: for a vertex
        /// shader, the pixel shader it feeds (its outputs take that shader's
        /// interpolation qualifiers and, in vk450, locations); for either,
        /// constant buffers both declare get the larger size.
        #[arg(long, value_name = "PS|VS")]
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
        /// With `--auto`: shader blobs, directories searched for `*.dxbc`,
        /// or manifests (`*.list`, a blob path a line).
        #[arg(default_value = "tests/cases")]
        cases: Vec<PathBuf>,
        /// Draw shader blobs instead of case files: each pixel shader gets
        /// a generated case (with a tolerance derived from its
        /// instructions) and a verdict: agree, differ, refused, emulator
        /// error, does not end (docs/harness.md, "Generated-case runs").
        /// Exit status 1 when a shader differs or errors.
        #[arg(long, conflicts_with_all = ["bless", "goldens"])]
        auto: bool,
        /// With `--auto`: write each generated case here, named after its
        /// blob, and draw it from there.
        #[arg(long, value_name = "DIR", requires = "auto")]
        write_cases: Option<PathBuf>,
        /// With `--auto`: the seed of the generated values.
        #[arg(long, default_value_t = 0, requires = "auto")]
        seed: u64,
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
        /// Seconds a case's draw may take before it is reported as not
        /// finishing, on Vulkan and on WebGL2 (where the browser is ended
        /// and a new one draws the rest; a software GPU can compile a long
        /// shader for minutes, and one that never ends must not stall the
        /// run).
        #[arg(long, value_name = "SECS", default_value_t = 300,
              value_parser = clap::value_parser!(u64).range(1..))]
        draw_timeout: u64,
        /// Do not bisect failures: by default each backend whose image
        /// differs from the emulator's is bisected at its worst pixel
        /// (`dxbc-dbg bisect`), and the report names the first divergent
        /// instruction with both values.
        #[arg(long, conflicts_with = "bisect_limit")]
        no_bisect: bool,
        /// The most bisections a run makes (each compiles an instrumented
        /// pipeline: seconds on lavapipe); failures past it are named as
        /// not bisected. Default 10; with `--auto` none unless given.
        #[arg(long, value_name = "N")]
        bisect_limit: Option<usize>,
        /// Boxed: the other commands' arguments are much smaller.
        #[command(flatten)]
        translators: Box<TranslatorArgs>,
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
    /// The worker process `diff`, `bisect` and `step` draw on Vulkan
    /// through, so a crashing driver takes only it down (docs/harness.md,
    /// "Crash isolation"). It speaks a binary protocol on its standard
    /// input and output; not for use by hand.
    #[cfg(feature = "gpu")]
    #[command(name = "gpu-worker", hide = true)]
    GpuWorker,
}

/// `diff`'s external translators (docs/translators.md).
#[derive(clap::Args)]
struct TranslatorArgs {
    /// Also draw an external translator's GLSL on the WebGL2 backend:
    /// COMMAND (run with `sh -c`) is given a DXBC container's path
    /// (`{dxbc}`, `{ps}` or `{vs}` where it names one, else appended)
    /// and prints GLSL ES 3.00. Each case gets a verdict per translator
    /// (`webgl2/NAME`); repeatable. Needs the webgl2 backend (exit 4
    /// without it).
    #[arg(long, value_name = "NAME=COMMAND")]
    translator: Vec<String>,
    /// The profile binding translator NAME's text (default: the shipped
    /// one for `hlslcc` and `dxbc-dbg`); repeatable.
    #[arg(long, value_name = "NAME=FILE", requires = "translator")]
    translator_profile: Vec<String>,
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

/// Exit status when no GPU adapter can be created, or the Vulkan backend
/// is not built in: either way the backend asked for cannot draw.
const EXIT_NO_ADAPTER: u8 = 3;
/// Exit status of `bisect` when it cannot run (its 1 is a divergence).
const EXIT_UNUSABLE: u8 = 2;
/// Exit status when the WebGL2 backend has no browser to run in.
const EXIT_NO_BROWSER: u8 = 4;

fn run(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Diff {
            cases,
            auto,
            write_cases,
            seed,
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
            no_bisect,
            bisect_limit,
            translators,
        } => {
            let TranslatorArgs {
                translator,
                translator_profile,
            } = *translators;
            let jobs = jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            });
            let options = harness::suite::RunOptions {
                glsl: glsl::Options::new(glsl::Dialect::Vk450),
                goldens,
                bless,
                jobs,
                // Generated-case runs bisect only when asked: a corpus
                // run's differs are large shaders, whose instrumented
                // pipelines take lavapipe a long while to compile.
                bisect_limit: match (no_bisect, bisect_limit, auto) {
                    (true, _, _) => 0,
                    (false, Some(n), _) => n,
                    (false, None, true) => 0,
                    (false, None, false) => harness::suite::DEFAULT_BISECT_LIMIT,
                },
            };
            let timeout = std::time::Duration::from_secs(draw_timeout);
            let opened = match open_backends(
                backend,
                browser,
                angle,
                timeout,
                vulkan_devices,
                !translator.is_empty(),
            )? {
                Ok(b) => b,
                Err(outcome) => return Ok(outcome),
            };
            // External translators draw through the run's one browser.
            let external = match &opened.webgl2 {
                Some(w) => {
                    cli::translators::external_renderers(w, &translator, &translator_profile)?
                }
                None => Vec::new(),
            };
            let renderers = opened.renderers(&external);
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
            if auto {
                let opts = harness::auto::Options {
                    seed,
                    write_cases,
                    // The report's step commands name the cases of the
                    // shaders that do not agree: they are written beside it.
                    failing_cases: report.as_ref().map(|d| d.join("cases")),
                    run: options,
                };
                return cli::auto::auto_command(selection, opts, outputs, &renderers);
            }
            return diff_command(selection, options, outputs, &renderers);
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
            gaps,
        } => {
            let target = cli::debug_target(&file, case.as_deref(), no_verify)?;
            let shader = target.shader;
            // UAVs start as the case gives them: the traced quad does not
            // see what quads drawn before it would have written.
            let (setup, resources, uavs, corner_w) = match target.case {
                Some((case, _)) => {
                    check_pixel(pixel, case.width, case.height)?;
                    let choice = vm::defaults::PixelChoice {
                        x: pixel.0,
                        y: pixel.1,
                        width: case.width,
                        height: case.height,
                    };
                    let (setup, resources) = harness::raster::case_inputs(&case, &shader, choice);
                    let corner_w: Vec<f32> = case.quad.iter().map(|v| v.position[3]).collect();
                    (setup, resources, harness::cpu::uavs(&case), corner_w)
                }
                None => {
                    let choice = vm::defaults::PixelChoice {
                        x: pixel.0,
                        y: pixel.1,
                        ..Default::default()
                    };
                    check_pixel(pixel, choice.width, choice.height)?;
                    (
                        vm::defaults::default_setup(&shader, choice),
                        vm::defaults::default_resources(
                            &shader.program,
                            vm::defaults::DefaultTextures::Checker,
                        ),
                        Vec::new(),
                        Vec::new(),
                    )
                }
            };
            // Gaps a declaration decides (noperspective under varying w)
            // need the corners, which only a case gives.
            let declared = harness::gaps::declared_gaps(&shader, &corner_w);
            let style = shader.style();
            let typing = std::rc::Rc::new(dxbc::value_type::Typing::of(&shader));
            let mut machine = vm::Machine::new(std::rc::Rc::new(shader.program), setup, resources)
                .with_context(|| file.display().to_string())?;
            machine.set_uavs(uavs);
            machine.set_typing(typing);
            if gaps {
                return trace_gaps(&mut machine, declared, pixel, style, json, &file);
            }
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
            hlsl,
            no_verify,
        } => {
            // Without --case, the shader's own case beside it, if any.
            let beside = case.is_none().then(|| cli::case_beside(&file)).flatten();
            let case = case.or_else(|| beside.clone());
            let target = cli::debug_target(&file, case.as_deref(), no_verify)?;
            let source = tui::hlsl::locate(&target.shader_file, hlsl.as_deref())
                .map_err(|e| anyhow::anyhow!("--hlsl {e}"))?;
            let shader = target.shader;
            let inputs = match target.case {
                Some((case, name)) => tui::Inputs::case(case, &shader, &name),
                None => tui::Inputs::defaults(&shader),
            };
            check_pixel(pixel, inputs.width, inputs.height)?;
            let mut app = tui::App::new(&shader, inputs, pixel, lane.map(usize::from))
                .with_context(|| file.display().to_string())?;
            app.gpu.source = target
                .drawn
                .map(|(case, shaders)| isolate(tui::gpu::GpuCase::new(case, shaders)))
                .transpose()?;
            app.hlsl.attach(source);
            if let Some(b) = &beside {
                app.event = format!(
                    "inputs from {}, the case beside the shader (--case takes another)",
                    b.display()
                );
            }
            if let Some(why) = tui::terminal::unavailable() {
                anyhow::bail!("{why}");
            }
            tui::run(app).map_err(|e| match tui::terminal::explain(&e) {
                Some(why) => anyhow::anyhow!("{why}"),
                None => anyhow::anyhow!("terminal: {e}"),
            })?;
        }
        Command::Bisect {
            case,
            pixel,
            lane,
            backend,
            browser,
            angle,
            json,
        } => {
            let backend = match backend.as_str() {
                "webgl2" => cli::bisect::On::WebGl2 { browser, angle },
                _ => cli::bisect::On::Vulkan,
            };
            return cli::bisect::bisect_command(cli::bisect::Request {
                case: &case,
                pixel,
                lane,
                backend,
                json,
            });
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
            if let Some(other_path) = &link {
                let other = load(other_path, no_verify)?;
                options.link = Some(match (shader.program.kind, other.program.kind) {
                    (ProgramType::Vertex, ProgramType::Pixel) => {
                        glsl::Link::from_pixel_shader(&other)
                    }
                    (ProgramType::Pixel, ProgramType::Vertex) => {
                        glsl::Link::from_vertex_shader(&other)
                    }
                    (ProgramType::Vertex, _) => anyhow::bail!(
                        "{}: --link takes the pixel shader {} feeds, not {}",
                        other_path.display(),
                        file.display(),
                        other.program.profile()
                    ),
                    (ProgramType::Pixel, _) => anyhow::bail!(
                        "{}: --link takes the vertex shader feeding {}, not {}",
                        other_path.display(),
                        file.display(),
                        other.program.profile()
                    ),
                    _ => anyhow::bail!(
                        "{}: --link needs a vertex or pixel shader here, not {}",
                        file.display(),
                        shader.program.profile()
                    ),
                });
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
        #[cfg(feature = "gpu")]
        Command::GpuWorker => {
            harness::gpu::isolated::worker::serve_stdio().context("the Vulkan worker")?;
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

/// `G` in `step` draws in a worker process: a driver crash is then a
/// message in the debugger, not its end.
#[cfg(feature = "gpu")]
fn isolate(mut source: tui::gpu::GpuCase) -> Result<tui::gpu::GpuCase> {
    let command = harness::gpu::isolated::WorkerCommand::this_executable()
        .context("finding this executable to start the Vulkan worker")?;
    source.worker = Some(command);
    Ok(source)
}

#[cfg(not(feature = "gpu"))]
fn isolate(source: tui::gpu::GpuCase) -> Result<tui::gpu::GpuCase> {
    Ok(source)
}

fn main() -> ExitCode {
    // Before anything else, while this is the only thread.
    cli::runtime_dir::ensure();
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
        Ok(Outcome::NoWebGl2(why)) => {
            eprintln!("dxbc-dbg: {why}");
            ExitCode::from(EXIT_NO_BROWSER)
        }
        Ok(Outcome::Unusable(why)) => {
            eprintln!("dxbc-dbg: {why}");
            ExitCode::from(EXIT_UNUSABLE)
        }
        Err(e) => {
            // One line: "file: byte offset N: what went wrong".
            eprintln!("dxbc-dbg: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `trace --gaps`: the gaps the pixel's lane hits, as text or JSON
/// (`{"pixel": [x, y], "lane": n, "gaps": [...]}`).
fn trace_gaps(
    machine: &mut vm::Machine,
    mut gaps: Vec<harness::gaps::Gap>,
    pixel: (u32, u32),
    style: dxbc::disasm::Style,
    json: bool,
    file: &std::path::Path,
) -> Result<Outcome> {
    let lane = vm::defaults::PixelChoice {
        x: pixel.0,
        y: pixel.1,
        ..Default::default()
    }
    .lane();
    gaps.extend(
        harness::gaps::scan(machine, lane, style)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?,
    );
    let text = if json {
        let doc = serde_json::json!({ "pixel": [pixel.0, pixel.1], "lane": lane, "gaps": gaps });
        format!("{doc}\n")
    } else {
        harness::gaps::text(&gaps)
    };
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::anyhow!("standard output: {e}"))
        }
        _ => Ok(Outcome::Done),
    }
}

/// A pixel inside the target: `trace` and `step` run only pixels the
/// draw has (a pixel outside would run a quad of helper lanes).
fn check_pixel(pixel: (u32, u32), width: u32, height: u32) -> Result<()> {
    if pixel.0 >= width || pixel.1 >= height {
        anyhow::bail!(
            "pixel ({},{}) is outside the {width}x{height} target",
            pixel.0,
            pixel.1
        );
    }
    Ok(())
}
