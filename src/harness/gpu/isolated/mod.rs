//! Vulkan draws in a worker process. A driver can abort or fault inside a
//! draw (lavapipe's LLVM has been seen to smash its stack on a long pixel
//! shader); in this process that ends the whole run with no report. Here
//! the draw runs in `dxbc-dbg gpu-worker`, a child of the same binary
//! spoken to over its standard input and output (`protocol`); when the
//! child dies, that case fails with how it died
//! ([`GpuError::Crashed`]) and the next draw starts a fresh child.
//!
//! The case crosses as its text and path (the worker parses it again:
//! cases are not changed after parsing) and the shaders as containers
//! rebuilt from their parsed form (`dxbc::write::shader_container`) with
//! their instructions' byte offsets in the original, so messages name the
//! same offsets as in this process; pictures, UAVs and the capture come
//! back as raw bytes.

pub mod protocol;
pub mod worker;

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{Draw, Drawing, GpuError};
use crate::glsl;
use crate::harness::case::{Case, CaseShaders};
use protocol::{Failure, Reply, Request};

/// How to start a worker: a program and its arguments.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

impl WorkerCommand {
    /// The hidden subcommand of `dxbc-dbg` that runs [`worker::serve_stdio`].
    pub const SUBCOMMAND: &'static str = "gpu-worker";

    /// This very executable's worker subcommand (for the `dxbc-dbg`
    /// binary; a test executable has no such subcommand and names the
    /// binary instead).
    pub fn this_executable() -> io::Result<WorkerCommand> {
        Ok(WorkerCommand {
            program: std::env::current_exe()?,
            args: vec![Self::SUBCOMMAND.into()],
        })
    }
}

/// The Vulkan backend through a worker process: [`Draw`] and
/// [`suite::Renderer`] as [`super::Gpu`] gives them, with a driver crash
/// confined to the case that caused it.
pub struct Isolated {
    command: WorkerCommand,
    timeout: Duration,
    adapter: String,
    /// Whether the worker's standard error is copied to ours (the command
    /// line) or only kept for the crash message (the debugger, whose
    /// screen it would scribble over).
    echo_stderr: bool,
    /// `None` after a crash, until the next request starts another.
    worker: RefCell<Option<Worker>>,
}

struct Worker {
    child: Child,
    /// `None` once closed, which ends the worker's loop.
    to: Option<BufWriter<ChildStdin>>,
    from: BufReader<ChildStdout>,
    /// The last line the worker wrote to standard error.
    last_words: Arc<Mutex<Option<String>>>,
    stderr: Option<JoinHandle<()>>,
}

impl Isolated {
    /// Starts a worker and opens its device; `GpuError::NoAdapter` as
    /// [`super::Gpu::new`] gives it. Each draw may take `timeout`.
    pub fn open(command: WorkerCommand, timeout: Duration) -> Result<Isolated, GpuError> {
        Isolated::open_with(command, timeout, true)
    }

    /// [`Isolated::open`], keeping the worker's standard error off the
    /// terminal (for the debugger's screen).
    pub fn open_quiet(command: WorkerCommand, timeout: Duration) -> Result<Isolated, GpuError> {
        Isolated::open_with(command, timeout, false)
    }

    fn open_with(
        command: WorkerCommand,
        timeout: Duration,
        echo_stderr: bool,
    ) -> Result<Isolated, GpuError> {
        let mut isolated = Isolated {
            command,
            timeout,
            adapter: String::new(),
            echo_stderr,
            worker: RefCell::new(None),
        };
        let (worker, adapter) = isolated.start()?;
        isolated.adapter = adapter;
        *isolated.worker.get_mut() = Some(worker);
        Ok(isolated)
    }

    /// A fresh worker with its device open, and the adapter's name.
    fn start(&self) -> Result<(Worker, String), GpuError> {
        let mut child = Command::new(&self.command.program)
            .args(&self.command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // glibc writes its fatal messages (`*** stack smashing
            // detected ***`) to the terminal unless told otherwise; on
            // standard error they reach the crash message instead of the
            // debugger's screen.
            .env("LIBC_FATAL_STDERR_", "1")
            .spawn()
            .map_err(|e| {
                GpuError::Worker(format!(
                    "cannot start {}: {e}",
                    self.command.program.display()
                ))
            })?;
        let (Some(to), Some(from), Some(err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(GpuError::Worker("its pipes were not set up".into()));
        };
        let last_words = Arc::new(Mutex::new(None));
        let kept = Arc::clone(&last_words);
        let echo = self.echo_stderr;
        let stderr = std::thread::Builder::new()
            .name("gpu-worker-stderr".into())
            .spawn(move || relay_stderr(err, echo, &kept))
            .ok();
        let mut worker = Worker {
            child,
            to: Some(BufWriter::new(to)),
            from: BufReader::new(from),
            last_words,
            stderr,
        };
        let timeout_ms = self.timeout.as_millis().min(u64::MAX as u128) as u64;
        match worker.exchange(&Request::Open { timeout_ms }, &[]) {
            Ok((Reply::Opened { adapter }, _)) => Ok((worker, adapter)),
            Ok((Reply::Failed(f), _)) => {
                worker.close();
                Err(from_failure(f))
            }
            Ok((other, _)) => {
                worker.close();
                Err(GpuError::Worker(format!("answered opening with {other:?}")))
            }
            Err(e) => Err(worker.died(e)),
        }
    }

    /// Sends `request` with the case as payloads and reads the reply. A
    /// worker that dies meanwhile is reaped and reported; the next
    /// request starts another.
    fn ask(
        &self,
        request: &Request,
        case: &Case,
        shaders: &CaseShaders,
    ) -> Result<(Reply, Vec<Vec<u8>>), GpuError> {
        let mut slot = self.worker.borrow_mut();
        let worker = match slot.as_mut() {
            Some(w) => w,
            None => slot.insert(self.start()?.0),
        };
        let stages: Vec<[Vec<u8>; 2]> = std::iter::once(&shaders.pixel)
            .chain(&shaders.vertex)
            .map(|s| {
                let offsets: Vec<u32> = (s.program.instructions.iter())
                    .map(|i| i.offset as u32)
                    .collect();
                [
                    crate::dxbc::write::shader_container(s),
                    protocol::words_bytes(&offsets),
                ]
            })
            .collect();
        let mut payloads: Vec<&[u8]> =
            vec![case.path.as_os_str().as_bytes(), case.source.as_bytes()];
        payloads.extend(stages.iter().flatten().map(Vec::as_slice));
        match worker.exchange(request, &payloads) {
            Ok(r) => Ok(r),
            Err(e) => {
                let dead = slot.take().expect("the worker asked");
                Err(dead.died(e))
            }
        }
    }
}

impl Worker {
    fn exchange(
        &mut self,
        request: &Request,
        payloads: &[&[u8]],
    ) -> io::Result<(Reply, Vec<Vec<u8>>)> {
        let to = self.to.as_mut().ok_or(io::ErrorKind::BrokenPipe)?;
        protocol::write_frame(to, request, payloads)?;
        to.flush()?;
        protocol::read_frame(&mut self.from)?.ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
    }

    /// What became of a worker whose pipe failed with `e`: killed by a
    /// signal or exited ([`GpuError::Crashed`]), or alive and speaking
    /// out of turn (then ended, and reported as a protocol error).
    fn died(mut self, e: io::Error) -> GpuError {
        let garbled = e.kind() == io::ErrorKind::InvalidData;
        if garbled {
            let _ = self.child.kill();
        }
        let status = self.reap();
        let last_words = self.last_words();
        match status {
            _ if garbled => GpuError::Worker(format!("an unreadable reply: {e}")),
            Some(status) => GpuError::Crashed {
                status: describe(status),
                last_words,
            },
            None => GpuError::Worker(format!("its pipe failed ({e}) and it would not exit")),
        }
    }

    /// Waits a little for the worker to end, then ends it.
    fn reap(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => {
                    let _ = self.child.kill();
                    return self.child.wait().ok();
                }
            }
        }
    }

    /// The last line on the worker's standard error, once the relay has
    /// read to its end (briefly waited for: a process the worker started
    /// may still hold the pipe).
    fn last_words(&mut self) -> Option<String> {
        if let Some(h) = self.stderr.take() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while !h.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if h.is_finished() {
                let _ = h.join();
            }
        }
        self.last_words.lock().ok().and_then(|w| w.clone())
    }

    /// Ends a worker that is alive: closing its input ends its loop.
    fn close(mut self) {
        drop(self.to.take());
        let _ = self.reap();
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        if let Some(w) = self.worker.get_mut().take() {
            w.close();
        }
    }
}

/// Copies the worker's standard error line by line (to ours when `echo`),
/// keeping the last non-empty line.
fn relay_stderr(err: std::process::ChildStderr, echo: bool, last: &Mutex<Option<String>>) {
    let mut lines = BufReader::new(err);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if echo {
            let _ = io::stderr().write_all(&line);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if !text.is_empty()
            && let Ok(mut l) = last.lock()
        {
            *l = Some(text.chars().take(300).collect());
        }
    }
}

/// How a worker ended, for [`GpuError::Crashed`].
fn describe(status: ExitStatus) -> String {
    if let Some(signal) = status.signal() {
        let name = match signal {
            libc::SIGSEGV => Some("SIGSEGV"),
            libc::SIGABRT => Some("SIGABRT"),
            libc::SIGBUS => Some("SIGBUS"),
            libc::SIGILL => Some("SIGILL"),
            libc::SIGFPE => Some("SIGFPE"),
            libc::SIGKILL => Some("SIGKILL"),
            libc::SIGTERM => Some("SIGTERM"),
            _ => None,
        };
        match name {
            Some(n) => format!("signal {signal}, {n}"),
            None => format!("signal {signal}"),
        }
    } else {
        // Called by path: `.code()` is how `.ci/layering.sh` spots a D3D
        // number read back, and this is a process's exit status.
        match ExitStatus::code(&status) {
            Some(c) => format!("exit status {c}"),
            None => status.to_string(),
        }
    }
}

fn from_failure(f: Failure) -> GpuError {
    match f {
        Failure::NoAdapter(why) => GpuError::NoAdapter(why),
        Failure::Timeout { ms } => GpuError::Timeout(Duration::from_millis(ms)),
        Failure::Other(why) => GpuError::Other(why),
    }
}

impl Draw for Isolated {
    fn adapter_name(&self) -> String {
        self.adapter.clone()
    }

    fn draw(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Result<Drawing, GpuError> {
        let request = Request::Draw {
            options: protocol::Options::of(options),
        };
        let (reply, payloads) = self.ask(&request, case, shaders)?;
        let (images, uavs, capture, notes) = match reply {
            Reply::Drawn {
                images,
                uavs,
                capture,
                notes,
            } => (images, uavs, capture, notes),
            Reply::Failed(f) => return Err(from_failure(f)),
            other => {
                return Err(GpuError::Worker(format!("answered a draw with {other:?}")));
            }
        };
        let wanted = images.len() + uavs.len() + usize::from(capture);
        if payloads.len() != wanted {
            return Err(GpuError::Worker(format!(
                "a draw came back with {} payloads, not {wanted}",
                payloads.len()
            )));
        }
        let bad = |e: String| GpuError::Worker(format!("{}: {e}", case.path.display()));
        let mut payloads = payloads.into_iter();
        let mut drawing = Drawing {
            images: Vec::new(),
            uavs: Vec::new(),
            capture: None,
            notes,
        };
        for (w, h) in images {
            let bytes = payloads.next().unwrap_or_default();
            drawing
                .images
                .push(protocol::image_from(w, h, &bytes).map_err(bad)?);
        }
        for (slot, counter) in uavs {
            let bytes = payloads.next().unwrap_or_default();
            // The layout is the case's: the worker drew the same case.
            let Some((_, start)) = case.uavs.iter().find(|(s, _)| *s == slot) else {
                return Err(bad(format!("UAV u{slot} came back, which the case lacks")));
            };
            let mut buffer = start.clone();
            buffer.words = protocol::words_from(&bytes).map_err(bad)?;
            buffer.counter = counter;
            drawing.uavs.push((slot, buffer));
        }
        if capture {
            let bytes = payloads.next().unwrap_or_default();
            drawing.capture = Some(protocol::words_from(&bytes).map_err(bad)?);
        }
        Ok(drawing)
    }

    fn refusal(
        &self,
        case: &Case,
        shaders: &CaseShaders,
        options: &glsl::Options,
    ) -> Option<String> {
        let request = Request::Refuses {
            options: protocol::Options::of(options),
        };
        // A worker that cannot answer leaves the case to its draw, which
        // reports what went wrong.
        match self.ask(&request, case, shaders) {
            Ok((Reply::Refusal(r), _)) => r,
            _ => None,
        }
    }
}
