//! Hostile containers through every command, as processes. Real containers
//! (the corpus's shaders, and the project's own shaders assembled) are
//! mutated chunk by chunk — a byte, a dword set to a boundary value, a text
//! byte of a name replaced with 0x80, 0xC3, 0xFF, NUL, a quote or a newline,
//! a chunk's size shortened, the file cut short — their hash is fixed up so
//! they get past the checksum, and each one is run through the real binary:
//! `info`, `disasm`, `asm` on the listing `disasm` printed, `glsl` in both
//! dialects with `--map` and `--manifest`, and `trace` (text or `--json`).
//! Every eighth also goes through `step`'s debugger (the library on a test
//! terminal), and every 32nd, when it is a pixel shader, into a case that
//! `diff` draws on Vulkan and, for a share of them, on WebGL2.
//!
//! Each process must end by itself within [`TIMEOUT`] under a 128 MiB
//! address-space limit, exit 0 (UTF-8 output; valid JSON for a manifest; a
//! container from `asm` that reads back) or 1 (one `dxbc-dbg: FILE: ...`
//! line, naming the file, under which a GLSL refusal may list its
//! instructions, indented), never a panic or a signal. At least
//! [`MIN_PROCESS_RUNS`] processes run; the counts per command and outcome
//! and the seed are printed.
//!
//! The seed is new every run, so each CI run tries new containers; set
//! `DXBC_DBG_MUTATION_SEED` to the printed value to run the same ones again
//! (a failure names the seed and the mutation's number), with
//! `DXBC_DBG_MUTATION_ONLY=N` to run mutation N alone and keep its file,
//! and `DXBC_DBG_MUTATIONS` to run another number of mutations.
//!
//! Without `../shared/corpus` only the project's own shaders are mutated.

mod common;

use std::collections::BTreeMap;
use std::fs::File;
use std::os::unix::process::ExitStatusExt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::Rng;
use dxbc_dbg::dxbc::container::Container;
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};
use dxbc_dbg::harness::suite::DEFAULT_BISECT_LIMIT;

/// Processes run in all, at least.
const MIN_PROCESS_RUNS: usize = 200_000;
/// Longer than any command takes on a real container (a trace runs at
/// most a million instructions), far shorter than a hang.
const TIMEOUT: Duration = Duration::from_secs(30);
/// The address space a command may take (so also the most memory it can
/// hold): every command on the largest real container runs within 64 MiB;
/// an allocation sized from a count in the file would fail against this,
/// and the process would die of it (a signal, which fails the test).
/// The kernel's own count of a child's peak resident size cannot stand in
/// for it: a child started from this process inherits this process's
/// high-water mark.
const ADDRESS_SPACE: u64 = 128 << 20;
/// `step` runs on every STEP_EVERY-th mutation, `diff` on every
/// DIFF_EVERY-th that is still a pixel shader.
const STEP_EVERY: u64 = 8;
const DIFF_EVERY: u64 = 32;
/// Cases per `diff` process on Vulkan, and how many cases the WebGL2
/// backend draws (one browser each batch).
const DIFF_BATCH: usize = 300;
const WEBGL2_CASES: usize = 100;
/// `diff --draw-timeout`: a Vulkan draw's limit, and the WebGL2 batch's.
/// Some real shaders take lavapipe minutes to compile (docs/harness.md);
/// a mutation of one is reported as not finishing, which is a clean end.
const VULKAN_DRAW_SECS: u64 = 30;
const WEBGL2_BATCH_SECS: u64 = 180;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dxbc-dbg")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The seed: `DXBC_DBG_MUTATION_SEED` (decimal or 0x-hex), else the clock.
fn seed() -> u64 {
    match std::env::var("DXBC_DBG_MUTATION_SEED") {
        Ok(v) => {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("DXBC_DBG_MUTATION_SEED={v} is not a number"))
        }
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    }
}

/// One container to mutate, with where it came from.
struct Base {
    name: String,
    bytes: Vec<u8>,
}

/// The corpus's shaders (when present) and the project's own.
fn bases() -> Vec<Base> {
    let mut out = Vec::new();
    if let Some(corpus) = common::corpus() {
        for blob in common::manifest(&corpus).iter().filter(|b| b.is_shader()) {
            let bytes = std::fs::read(corpus.join(&blob.file)).expect("read corpus blob");
            out.push(Base {
                name: blob.file.clone(),
                bytes,
            });
        }
    }
    for p in common::files_under(&root().join("shaders"), "asm") {
        let text = std::fs::read_to_string(&p).expect("read shader source");
        let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
        let bytes = asm::assemble(&text).unwrap_or_else(|e| panic!("{}", e.in_file(&name)));
        out.push(Base { name, bytes });
    }
    out
}

/// Values a dword is set to: zero, one, the sign bit, all ones, counts
/// just past a chunk, and offsets that point backwards or far away.
const DWORDS: [u32; 10] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff,
    0x1_0000,
    0x100,
    0x4000_0000,
];

/// Bytes a name's text byte is replaced with: a UTF-8 continuation byte,
/// a lone lead byte, a byte never in UTF-8, NUL, and characters that
/// would break a line, a string or an identifier.
const TEXT_BYTES: [u8; 9] = [0x80, 0xc3, 0xff, 0x00, b'"', b'\n', b'\'', b'\\', b'\r'];

/// One mutation of `base`, chosen by `rng`, aimed at chunk `which` (mod
/// the chunk count); the hash is fixed up afterwards. Returns the bytes
/// and a description for a failure message.
fn mutate(base: &[u8], which: usize, rng: &mut Rng) -> (Vec<u8>, String) {
    let mut bytes = base.to_vec();
    let chunks: Vec<(String, usize, usize)> = Container::parse(base, false)
        .map(|c| {
            c.chunks
                .iter()
                .map(|k| {
                    (
                        String::from_utf8_lossy(&k.fourcc).into_owned(),
                        k.offset,
                        k.data.len(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let Some((fourcc, start, len)) = chunks.get(which % chunks.len().max(1)).cloned() else {
        // Not a container we can find chunks in: flip a byte anywhere.
        let at = rng.below(bytes.len());
        bytes[at] ^= 1 << rng.below(8);
        common::fix_checksum(&mut bytes);
        return (bytes, format!("byte {at} flipped"));
    };
    let mut what = Vec::new();
    // Mostly one change; now and then two or three on the same chunk.
    let changes = [1, 1, 1, 1, 2, 3][rng.below(6)];
    for _ in 0..changes {
        let kind = rng.below(10);
        let text: Vec<usize> = (start..start + len)
            .filter(|&i| bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
            .collect();
        match kind {
            0..=2 if len > 0 => {
                let at = start + rng.below(len);
                let v = rng.next() as u8;
                bytes[at] = v;
                what.push(format!("{fourcc} byte {at} = {v:#04x}"));
            }
            3..=5 if len >= 4 => {
                let at = start + 4 * rng.below(len / 4);
                let v = if rng.below(4) == 0 {
                    rng.next() as u32
                } else {
                    DWORDS[rng.below(DWORDS.len())]
                };
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
                what.push(format!("{fourcc} dword {at} = {v:#x}"));
            }
            6..=7 if !text.is_empty() => {
                let at = text[rng.below(text.len())];
                let v = TEXT_BYTES[rng.below(TEXT_BYTES.len())];
                bytes[at] = v;
                what.push(format!("{fourcc} text byte {at} = {v:#04x}"));
            }
            8 if len > 0 => {
                // The chunk's size field says less than it holds.
                let size_at = start - 4;
                let v = rng.below(len) as u32;
                bytes[size_at..size_at + 4].copy_from_slice(&v.to_le_bytes());
                what.push(format!("{fourcc} size = {v}"));
            }
            _ => {
                // The file ends inside this chunk; the header's total size
                // says so, so reading goes on to the cut.
                let cut = start + rng.below(len + 1);
                bytes.truncate(cut);
                if bytes.len() >= 28 {
                    bytes[24..28].copy_from_slice(&(cut as u32).to_le_bytes());
                }
                what.push(format!("cut at {fourcc} + {} ({cut} bytes)", cut - start));
                break;
            }
        }
    }
    common::fix_checksum(&mut bytes);
    (bytes, what.join(", "))
}

/// How a process ended.
struct Ended {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Processes running now, with the time each must end by; the watchdog
/// kills those past it.
static RUNNING: Mutex<Vec<(libc::pid_t, Instant)>> = Mutex::new(Vec::new());
/// Processes the watchdog killed.
static KILLED: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Kills every process past its deadline, every tenth of a second, until
/// `stop` is set. (Workers block in `wait` rather than poll, so a
/// short command is reaped the moment it ends.)
fn watchdog(stop: &std::sync::atomic::AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        let now = Instant::now();
        let running = RUNNING.lock().expect("lock");
        for &(pid, _) in running.iter().filter(|(_, d)| now > *d) {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            KILLED.lock().expect("lock").push(pid);
        }
    }
}

/// Runs the binary with `args`, output to files in `dir` (a pipe could
/// fill and stall it), under the address-space limit when asked; the
/// watchdog kills it past `timeout`.
fn run(dir: &Path, args: &[&str], limit_memory: bool, timeout: Duration) -> Ended {
    let out_path = dir.join("stdout");
    let err_path = dir.join("stderr");
    let mut child = Command::new(bin())
        .current_dir(root())
        .args(args)
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).expect("stdout file"))
        .stderr(File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("start dxbc-dbg");
    let pid = child.id() as libc::pid_t;
    RUNNING
        .lock()
        .expect("lock")
        .push((pid, Instant::now() + timeout));
    if limit_memory {
        let lim = libc::rlimit64 {
            rlim_cur: ADDRESS_SPACE,
            rlim_max: ADDRESS_SPACE,
        };
        // Set from outside just after the start: the first microseconds of
        // a process allocate nothing worth bounding. A child already gone
        // (ESRCH) needs no limit.
        unsafe { libc::prlimit64(pid, libc::RLIMIT_AS, &lim, std::ptr::null_mut()) };
    }
    let status = child.wait().expect("wait for dxbc-dbg");
    RUNNING.lock().expect("lock").retain(|(p, _)| *p != pid);
    let killed = {
        let mut k = KILLED.lock().expect("lock");
        let was = k.contains(&pid);
        k.retain(|p| *p != pid);
        was
    };
    assert!(
        !killed,
        "dxbc-dbg {} did not end within {timeout:?}",
        args.join(" ")
    );
    Ended {
        code: status.code(),
        signal: status.signal(),
        stdout: std::fs::read(&out_path).expect("read stdout"),
        stderr: std::fs::read(&err_path).expect("read stderr"),
    }
}

/// Outcomes per command, and how many processes ran.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<(String, &'static str), usize>,
    processes: usize,
}

impl Tally {
    fn add(&mut self, command: &str, outcome: &'static str) {
        *self
            .counts
            .entry((command.to_string(), outcome))
            .or_default() += 1;
    }
    fn merge(&mut self, other: Tally) {
        for (k, v) in other.counts {
            *self.counts.entry(k).or_default() += v;
        }
        self.processes += other.processes;
    }
}

/// What a failure message names so the run can be repeated.
struct Origin<'a> {
    seed: u64,
    index: u64,
    base: &'a str,
    mutation: &'a str,
}

impl std::fmt::Display for Origin<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DXBC_DBG_MUTATION_SEED={:#x}, mutation {} of {} ({})",
            self.seed, self.index, self.base, self.mutation
        )
    }
}

/// Checks one process's ending against the contract and tallies it as
/// "ok" or "error". `file` is the path an error must name.
fn judge(
    tally: &mut Tally,
    command: &str,
    args: &[&str],
    file: &str,
    end: &Ended,
    origin: &Origin,
) -> bool {
    tally.processes += 1;
    let stderr = String::from_utf8_lossy(&end.stderr);
    let context = || format!("dxbc-dbg {}\n{origin}\nstderr:\n{stderr}", args.join(" "));
    if let Some(sig) = end.signal {
        panic!("killed by signal {sig}: {}", context());
    }
    assert!(
        std::str::from_utf8(&end.stdout).is_ok(),
        "stdout is not UTF-8: {}",
        context()
    );
    assert!(
        std::str::from_utf8(&end.stderr).is_ok(),
        "stderr is not UTF-8: {}",
        context()
    );
    match end.code {
        Some(0) => {
            assert!(!stderr.contains("panicked"), "{}", context());
            tally.add(command, "ok");
            true
        }
        Some(1) => {
            let mut lines = stderr.lines();
            let first = lines.next().unwrap_or("");
            assert!(
                first.starts_with(&format!("dxbc-dbg: {file}:")),
                "an error names the file on one line: {}",
                context()
            );
            for more in lines {
                assert!(
                    command.starts_with("glsl") && more.starts_with("  instruction "),
                    "only a GLSL refusal lists more lines: {}",
                    context()
                );
            }
            tally.add(command, "clean error");
            false
        }
        other => panic!("exit status {other:?}: {}", context()),
    }
}

/// Runs the process-level commands on one mutated container.
fn commands(dir: &Path, file: &Path, index: u64, tally: &mut Tally, origin: &Origin) {
    let f = file.to_str().expect("scratch paths are UTF-8");
    let exec = |args: &[&str]| run(dir, args, true, TIMEOUT);

    let args = ["info", f];
    judge(tally, "info", &args, f, &exec(&args), origin);

    let args = ["disasm", f];
    let listed = exec(&args);
    if judge(tally, "disasm", &args, f, &listed, origin) {
        let listing = dir.join("listing.asm");
        std::fs::write(&listing, &listed.stdout).expect("write listing");
        let l = listing.to_str().expect("UTF-8 path");
        let out = dir.join("reassembled.dxbc");
        let _ = std::fs::remove_file(&out);
        let o = out.to_str().expect("UTF-8 path");
        let args = ["asm", l, "-o", o];
        if judge(tally, "asm", &args, l, &exec(&args), origin) {
            let bytes = std::fs::read(&out).expect("asm wrote its output");
            assert!(
                Shader::parse(&bytes, ParseOptions::default()).is_ok(),
                "asm's output does not read back: {origin}"
            );
        }
    }

    let manifest = dir.join("manifest.json");
    let m = manifest.to_str().expect("UTF-8 path");
    for dialect in ["es300", "vk450"] {
        let _ = std::fs::remove_file(&manifest);
        let args = ["glsl", f, "--dialect", dialect, "--map", "--manifest", m];
        let command = format!("glsl {dialect}");
        if judge(tally, &command, &args, f, &exec(&args), origin) {
            let json = std::fs::read_to_string(&manifest).expect("manifest written");
            assert!(
                serde_json::from_str::<serde_json::Value>(&json).is_ok(),
                "manifest is not JSON: {origin}\n{json}"
            );
        }
    }

    // Few lines: what is printed is bounded anyway; the run is not.
    let json = index % 2 == 1;
    let mut args = vec!["trace", f, "--max-lines", "40"];
    if json {
        args.push("--json");
    }
    let command = if json { "trace --json" } else { "trace" };
    let end = exec(&args);
    if judge(tally, command, &args, f, &end, origin) && json {
        let text = String::from_utf8_lossy(&end.stdout);
        assert!(
            serde_json::from_str::<serde_json::Value>(&text).is_ok(),
            "trace --json is not one JSON document: {origin}"
        );
    }
}

/// The debugger on one container, drawn into a test terminal: start,
/// steps forward and back, run to the end, lanes, views and the other
/// dialect, as a person at the keyboard would. A shader the emulator
/// cannot start must be refused with an error, not a panic.
fn step(shader: &Shader) -> &'static str {
    use dxbc_dbg::tui::app::Action;
    use dxbc_dbg::tui::{App, Inputs, view};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    let Ok(mut app) = App::new(shader, Inputs::defaults(shader), (1, 1), None) else {
        return "clean error";
    };
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("test terminal");
    let actions = [
        Action::Step,
        Action::Step,
        Action::Step,
        Action::StepBack,
        Action::CycleView,
        Action::NextLane,
        Action::SwitchDialect,
        Action::ToggleExtra,
        Action::PageDown,
        Action::RunToEnd,
        Action::StepBack,
        Action::RunToNan,
        Action::Restart,
        Action::Continue,
    ];
    terminal
        .draw(|f| view::draw(f, &mut app))
        .expect("draw into the test terminal");
    for a in actions {
        app.apply(a);
        terminal
            .draw(|f| view::draw(f, &mut app))
            .expect("draw into the test terminal");
    }
    "ok"
}

/// A case drawing a mutated pixel shader on a 2x2 target with the case
/// defaults, and the container beside it.
fn write_case(dir: &Path, index: u64, bytes: &[u8]) {
    std::fs::write(dir.join(format!("m{index}.dxbc")), bytes).expect("write case shader");
    std::fs::write(
        dir.join(format!("m{index}.case")),
        format!("[pixel shader file]\nm{index}.dxbc\n[render target]\nsize 2 2\n"),
    )
    .expect("write case");
}

/// What every worker shares: the plan, and where the first failure and
/// the count of finished mutations go.
struct Plan<'a> {
    seed: u64,
    workers: u64,
    /// Mutations 0..total are run.
    total: u64,
    /// Run this mutation alone, and keep its file.
    only: Option<u64>,
    bases: &'a [Base],
    scratch: &'a Path,
    /// Where pixel shaders for `diff` are gathered.
    cases: &'a Path,
    failure: Mutex<Option<String>>,
    done: AtomicUsize,
}

/// One worker's share: mutations `index` with `index % workers == me`.
fn worker(me: u64, plan: &Plan) -> Tally {
    let Plan {
        seed,
        workers,
        total,
        only,
        bases,
        scratch,
        cases,
        ref failure,
        ref done,
    } = *plan;
    let dir = scratch.join(format!("w{me}"));
    std::fs::create_dir_all(&dir).expect("worker dir");
    let file = dir.join("m.dxbc");
    let mut tally = Tally::default();
    let mut index = me;
    while index < total {
        if failure.lock().expect("lock").is_some() {
            break;
        }
        // Each mutation has its own generator, so it reproduces from the
        // seed and its number whatever the number of workers.
        if only.is_some_and(|n| n != index) {
            index += workers;
            continue;
        }
        let mut rng = Rng(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        // Every container in turn, a different chunk of it each round.
        let base = &bases[index as usize % bases.len()];
        let round = index as usize / bases.len();
        let (bytes, mutation) = mutate(&base.bytes, round, &mut rng);
        let origin = Origin {
            seed,
            index,
            base: &base.name,
            mutation: &mutation,
        };
        std::fs::write(&file, &bytes).expect("write mutated container");
        if only.is_some() {
            let kept = scratch.join(format!("mutation-{index}.dxbc"));
            std::fs::write(&kept, &bytes).expect("keep the mutation");
            println!("mutation {index} ({origin}) kept as {}", kept.display());
        }
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            commands(&dir, &file, index, &mut tally, &origin);
            let parsed = Shader::parse(&bytes, ParseOptions::default());
            if index.is_multiple_of(STEP_EVERY) {
                let outcome = match &parsed {
                    Ok(shader) => step(shader),
                    Err(_) => "clean error",
                };
                tally.add("step (library)", outcome);
            }
            if index.is_multiple_of(DIFF_EVERY)
                && parsed
                    .as_ref()
                    .is_ok_and(|s| s.program.kind == ProgramType::Pixel)
            {
                write_case(cases, index, &bytes);
            }
        }));
        if let Err(panic) = outcome {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let mut slot = failure.lock().expect("lock");
            slot.get_or_insert(format!("{message}\n(at {origin})"));
            break;
        }
        done.fetch_add(1, Ordering::Relaxed);
        index += workers;
    }
    tally
}

/// Runs `diff` over the cases in `dir`, `per_run` at a time (each batch
/// moved into its own directory), on `backend`; every case must be
/// reported, and the process must end cleanly.
fn diff_cases(
    dir: &Path,
    backend: &str,
    per_run: usize,
    limit: usize,
    draw_secs: u64,
    tally: &mut Tally,
) {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read cases")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "case"))
        .collect();
    cases.sort();
    cases.truncate(limit);
    for (n, batch) in cases.chunks(per_run).enumerate() {
        let batch_dir = dir.join(format!("{backend}-{n}"));
        std::fs::create_dir_all(&batch_dir).expect("batch dir");
        for case in batch {
            let name = case.file_name().expect("case name");
            std::fs::copy(case, batch_dir.join(name)).expect("copy case");
            let shader = case.with_extension("dxbc");
            std::fs::copy(&shader, batch_dir.join(shader.file_name().expect("name")))
                .expect("copy shader");
        }
        let goldens = batch_dir.join("goldens");
        let junit = batch_dir.join("junit.xml");
        let (b, g, j) = (
            batch_dir.to_str().expect("UTF-8"),
            goldens.to_str().expect("UTF-8"),
            junit.to_str().expect("UTF-8"),
        );
        let secs = draw_secs.to_string();
        let args = [
            "diff",
            b,
            "--backend",
            backend,
            "--goldens",
            g,
            "--junit",
            j,
            "--draw-timeout",
            &secs,
        ];
        // The command's own promise: every draw ends or is given up within
        // the draw timeout (on WebGL2, the batch), so past that, with room
        // for the emulator and a device for each give-up, it hangs.
        // A run also bisects its failures against the emulator, up to
        // its default limit: on Vulkan a draw each, on WebGL2 one more
        // browser run for all of them.
        let draws = if backend == "vulkan" {
            batch.len() + batch.len().min(DEFAULT_BISECT_LIMIT)
        } else {
            2
        };
        let bound = Duration::from_secs(60 + draws as u64 * (draw_secs + 5));
        let end = run(&batch_dir, &args, false, bound);
        let stdout = String::from_utf8_lossy(&end.stdout);
        let stderr = String::from_utf8_lossy(&end.stderr);
        let context = format!("dxbc-dbg {}\nstderr:\n{stderr}", args.join(" "));
        assert!(end.signal.is_none(), "diff killed: {context}");
        assert!(
            matches!(end.code, Some(0 | 1)),
            "diff exit {:?}: {context}\n{stdout}",
            end.code
        );
        assert!(!stderr.contains("panicked"), "{context}");
        // "N passed, M failed": every case is accounted for.
        let last = stdout
            .lines()
            .rev()
            .find(|l| l.ends_with(" failed"))
            .unwrap_or_else(|| panic!("no summary: {context}\n{stdout}"));
        let numbers: Vec<usize> = last
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 2, "{last}");
        assert_eq!(numbers[0] + numbers[1], batch.len(), "{last}");
        let xml = std::fs::read_to_string(&junit).expect("junit written");
        assert_eq!(
            xml.matches("<testcase ").count(),
            batch.len(),
            "one JUnit test per case on one backend"
        );
        let command = format!("diff {backend} (cases)");
        for _ in 0..numbers[0] {
            tally.add(&command, "pass");
        }
        for _ in 0..numbers[1] {
            tally.add(&command, "fail, reported");
        }
        tally.processes += 1;
    }
}

#[test]
fn every_command_survives_mutated_containers() {
    let seed = seed();
    println!("DXBC_DBG_MUTATION_SEED={seed:#x}");
    let bases = bases();
    assert!(!bases.is_empty());
    // About six processes a mutation (asm only after a listing).
    // `DXBC_DBG_MUTATIONS=N` runs fewer (or more), for a quick look or a
    // long soak; the count of processes is only held to the minimum at
    // the default.
    let asked: Option<u64> = std::env::var("DXBC_DBG_MUTATIONS")
        .ok()
        .map(|v| v.trim().parse().expect("DXBC_DBG_MUTATIONS is a count"));
    let only: Option<u64> = std::env::var("DXBC_DBG_MUTATION_ONLY").ok().map(|v| {
        v.trim()
            .parse()
            .expect("DXBC_DBG_MUTATION_ONLY is a number")
    });
    let total = match only {
        Some(n) => n + 1,
        None => asked.unwrap_or((MIN_PROCESS_RUNS / 5) as u64),
    };
    // Two workers a core: each waits while its child runs, and the next
    // child starts while files are written and read.
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8) as u64
        * 2;
    let scratch = std::env::temp_dir().join(format!("dxbc-dbg-mutations-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let cases = scratch.join("cases");
    std::fs::create_dir_all(&cases).expect("scratch");

    let plan = Plan {
        seed,
        workers,
        total,
        only,
        bases: &bases,
        scratch: &scratch,
        cases: &cases,
        failure: Mutex::new(None),
        done: AtomicUsize::new(0),
    };
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut commands_secs = 0.0;
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| watchdog(&stop));
        let handles: Vec<_> = (0..workers)
            .map(|me| {
                let plan = &plan;
                s.spawn(move || worker(me, plan))
            })
            .collect();
        for h in handles {
            tally.merge(h.join().expect("worker"));
        }
        let diffs = std::panic::catch_unwind(AssertUnwindSafe(|| {
            if plan.failure.lock().expect("lock").is_none() {
                commands_secs = start.elapsed().as_secs_f64();
                diff_cases(
                    &cases,
                    "vulkan",
                    DIFF_BATCH,
                    usize::MAX,
                    VULKAN_DRAW_SECS,
                    &mut tally,
                );
                diff_cases(
                    &cases,
                    "webgl2",
                    WEBGL2_CASES,
                    WEBGL2_CASES,
                    WEBGL2_BATCH_SECS,
                    &mut tally,
                );
            }
        }));
        // The watchdog stops whatever happened, so the scope can end.
        stop.store(true, Ordering::Relaxed);
        if let Err(panic) = diffs {
            std::panic::resume_unwind(panic);
        }
    });
    if let Some(f) = plan.failure.lock().expect("lock").take() {
        panic!("{f}");
    }
    println!(
        "{} mutations of {} containers; {} processes ({:.0} s for the per-container commands, {} workers), seed {seed:#x}",
        plan.done.load(Ordering::Relaxed),
        bases.len(),
        tally.processes,
        commands_secs,
        workers
    );
    for ((command, outcome), n) in &tally.counts {
        println!("  {command:<18} {outcome:<16} {n}");
    }
    assert!(
        asked.is_some() || only.is_some() || tally.processes >= MIN_PROCESS_RUNS,
        "only {} processes",
        tally.processes
    );
    if only.is_none() {
        let _ = std::fs::remove_dir_all(&scratch);
    }
}
