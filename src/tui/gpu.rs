//! The GPU's values beside the emulator's (`G` loads them, `D` jumps to
//! the first divergence): the lane's pixel drawn with the register
//! capture (`harness::bisect`), in a background thread so the event loop
//! keeps drawing a progress line while the driver compiles and draws.
//!
//! The debugger's position counts every instruction the quad executed;
//! a path counts only the shown lane's path steps (`Op::is_path_step`).
//! A load therefore also runs the quad once more on the emulator to note,
//! for each position, how many path steps the lane had taken by then.

use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::glsl;
use crate::harness::bisect::{self, Divergence, Kind, Paths, Registers};
use crate::harness::case::{Case, CaseShaders};
pub use crate::harness::suite::Backend;
use crate::vm::{Event, LANES, Loc, Machine};

use super::app::{App, Tone, component_name};

/// What a capture draws: the case as written (a vertex shader not yet
/// run: the GPU runs it) with its shaders, and the translation options.
#[derive(Debug, Clone)]
pub struct GpuCase {
    pub case: Case,
    pub shaders: CaseShaders,
    /// The options the capture translates with (each backend sets its
    /// own dialect); tests set the translator's fault injections here.
    pub options: glsl::Options,
    /// The Vulkan worker process the capture draws in, so a crashing
    /// driver fails the load instead of ending the debugger (`dxbc-dbg
    /// step` sets it); `None` draws in this process.
    #[cfg(feature = "gpu")]
    pub worker: Option<crate::harness::gpu::isolated::WorkerCommand>,
}

impl GpuCase {
    pub fn new(case: Case, shaders: CaseShaders) -> GpuCase {
        GpuCase {
            case,
            shaders,
            options: glsl::Options::new(glsl::Dialect::Vk450),
            #[cfg(feature = "gpu")]
            worker: None,
        }
    }
}

/// A capture for one pixel, done.
#[derive(Debug)]
pub struct Loaded {
    pub backend: Backend,
    pub pixel: (u32, u32),
    pub lane: usize,
    pub paths: Paths,
    /// For each debugger position, the lane's path steps taken by then.
    pub path_steps: Vec<usize>,
}

/// A capture running in the background.
pub struct Job {
    pub backend: Backend,
    pub pixel: (u32, u32),
    pub lane: usize,
    pub started: Instant,
    /// What the capture is doing now, set by its thread.
    stage: Stage,
    rx: Receiver<Result<Paths, String>>,
}

/// The capture thread's current stage, for the progress line.
type Stage = Arc<Mutex<&'static str>>;

fn enter(stage: &Stage, what: &'static str) {
    if let Ok(mut s) = stage.lock() {
        *s = what;
    }
}

pub enum GpuState {
    Idle,
    Loading(Job),
    Loaded(Box<Loaded>),
}

/// The GPU side of the debugger.
pub struct GpuValues {
    /// `None` for a shader without a case: nothing to draw.
    pub source: Option<GpuCase>,
    pub state: GpuState,
}

impl Default for GpuValues {
    fn default() -> GpuValues {
        GpuValues {
            source: None,
            state: GpuState::Idle,
        }
    }
}

/// One component of the GPU's register file beside the emulator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuCell {
    /// `None`: the GPU's path has not written it (yet).
    pub bits: Option<u32>,
    /// Differs from the emulator's beyond the case's tolerance.
    pub differs: bool,
}

/// The register a pane row shows, for looking up its GPU values.
#[derive(Debug, Clone, Copy)]
pub enum Which {
    Input(u32),
    Loc(Loc),
}

/// The capture thread's name: the panic hook (`terminal.rs`) leaves the
/// terminal alone for it, since its panic comes back as the load's error
/// and the debugger goes on.
pub const CAPTURE_THREAD: &str = "gpu-capture";

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "no message".into()
    }
}

/// The pixel of `lane` in the quad holding `pixel`.
pub fn lane_pixel((x, y): (u32, u32), lane: usize) -> (u32, u32) {
    ((x & !1) + (lane as u32 & 1), (y & !1) + (lane as u32 >> 1))
}

/// Draws `source` on `backend` with the capture set for `pixel`. Each
/// backend with a register capture is one arm here.
fn capture(
    backend: Backend,
    source: &GpuCase,
    pixel: (u32, u32),
    stage: &Stage,
) -> Result<Paths, String> {
    match backend {
        Backend::Vulkan => vulkan(source, pixel, stage),
        Backend::WebGl2 => webgl2(source, pixel, stage),
    }
}

/// WebGL2 in headless Chromium (SwiftShader), found as `diff` finds it.
fn webgl2(source: &GpuCase, pixel: (u32, u32), stage: &Stage) -> Result<Paths, String> {
    use crate::harness::webgl2::{Config, WebGl2, WebGl2Error};
    enter(stage, "starting the browser");
    let webgl2 = WebGl2::new(Config::default()).map_err(|e| match e {
        WebGl2Error::NoBrowser(why) => format!(
            "the webgl2 backend: no browser ({why}); it needs headless Chromium (Debian's \
             chromium-headless-shell)"
        ),
        e => format!("the webgl2 backend: {e}"),
    })?;
    let job = (&source.case, &source.shaders, pixel);
    enter(stage, "drawing in the browser");
    bisect::webgl2_paths_all(&webgl2, &[job], &source.options)
        .pop()
        .unwrap_or_else(|| Err(bisect::BisectError::Other("no capture came back".into())))
        .map_err(|e| format!("{}: {e}", source.case.path.display()))
}

#[cfg(feature = "gpu")]
fn vulkan(source: &GpuCase, pixel: (u32, u32), stage: &Stage) -> Result<Paths, String> {
    use crate::harness::gpu::{DEFAULT_DRAW_TIMEOUT, Gpu, isolated::Isolated};
    let no_device = |e: crate::harness::gpu::GpuError| {
        format!("the vulkan backend: {e}; install a Vulkan driver (Mesa's lavapipe without a GPU)")
    };
    let (in_process, isolated);
    let gpu: &dyn crate::harness::gpu::Draw = match &source.worker {
        Some(command) => {
            enter(stage, "starting the Vulkan worker");
            // Its standard error would scribble over the screen; it is
            // kept for the message should the driver crash.
            isolated =
                Isolated::open_quiet(command.clone(), DEFAULT_DRAW_TIMEOUT).map_err(no_device)?;
            &isolated
        }
        None => {
            enter(stage, "opening the Vulkan device");
            in_process = Gpu::new().map_err(no_device)?;
            &in_process
        }
    };
    enter(
        stage,
        "drawing with the capture (the driver compiles first)",
    );
    bisect::vulkan_paths(gpu, &source.case, &source.shaders, pixel, &source.options)
        .map_err(|e| format!("{}: {e}", source.case.path.display()))
}

#[cfg(not(feature = "gpu"))]
fn vulkan(_source: &GpuCase, _pixel: (u32, u32), _stage: &Stage) -> Result<Paths, String> {
    Err("the vulkan backend is not built in (build with the `gpu` feature)".into())
}

impl App {
    /// `G`: starts capturing the shown lane's pixel on `backend`. When the
    /// lane is not the picked pixel's own, its pixel is picked first, so
    /// the emulator runs the quad as the bisection does for that pixel
    /// (the triangle owning it).
    pub fn load_gpu(&mut self, backend: Backend) {
        let Some(source) = self.gpu.source.clone() else {
            self.set(
                Tone::Error,
                "no case to draw on the GPU: a shader alone runs on the debugger's default \
                 inputs; make a case with `dxbc-dbg case new SHADER -o X.case` and run \
                 `dxbc-dbg step X.case`",
            );
            return;
        };
        let pixel = lane_pixel(self.pixel, self.lane);
        if pixel.0 >= self.inputs.width || pixel.1 >= self.inputs.height {
            self.set(
                Tone::Error,
                format!(
                    "lane {}'s pixel ({},{}) is outside the {}x{} target: nothing to capture",
                    self.lane, pixel.0, pixel.1, self.inputs.width, self.inputs.height
                ),
            );
            return;
        }
        if pixel != self.pixel {
            self.pick_pixel(pixel.0, pixel.1);
        }
        let (tx, rx) = mpsc::channel();
        let stage: Stage = Arc::new(Mutex::new("starting"));
        let stage_of_thread = Arc::clone(&stage);
        let spawned = std::thread::Builder::new()
            .name(CAPTURE_THREAD.into())
            .spawn(move || {
                let stage = stage_of_thread;
                let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    capture(backend, &source, pixel, &stage)
                }))
                .unwrap_or_else(|p| Err(format!("the capture panicked: {}", panic_text(&*p))));
                // The receiver is gone when the load was dropped meanwhile.
                let _ = tx.send(result);
            });
        if let Err(e) = spawned {
            self.set(
                Tone::Error,
                format!("GPU values: no thread to load them: {e}"),
            );
            return;
        }
        self.gpu.state = GpuState::Loading(Job {
            backend,
            pixel,
            lane: self.lane,
            started: Instant::now(),
            stage,
            rx,
        });
        // The status bar's progress line says what runs.
        self.set(Tone::Info, "");
    }

    /// Whether a capture is running (the event loop then polls).
    pub fn gpu_busy(&self) -> bool {
        matches!(self.gpu.state, GpuState::Loading(_))
    }

    /// The status bar's progress line while a capture runs.
    pub fn gpu_progress(&self) -> Option<String> {
        match &self.gpu.state {
            GpuState::Loading(job) => Some(format!(
                "capturing pixel ({},{}) on {}: {:.1} s, {}",
                job.pixel.0,
                job.pixel.1,
                job.backend.name(),
                job.started.elapsed().as_secs_f32(),
                job.stage.lock().map_or("running", |s| *s)
            )),
            _ => None,
        }
    }

    /// Takes a finished capture in, if there is one.
    pub fn poll_gpu(&mut self) {
        self.take_gpu(false);
    }

    /// Waits for the running capture and takes it in (for tests and
    /// scripts, which have no event loop).
    pub fn wait_for_gpu(&mut self) {
        self.take_gpu(true);
    }

    fn take_gpu(&mut self, block: bool) {
        let GpuState::Loading(job) = &self.gpu.state else {
            return;
        };
        let got = if block {
            job.rx.recv().map_err(|_| TryRecvError::Disconnected)
        } else {
            job.rx.try_recv()
        };
        let result = match got {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the capture stopped without a result".into()),
        };
        let (backend, pixel, lane) = (job.backend, job.pixel, job.lane);
        self.gpu.state = GpuState::Idle;
        let loaded = result.and_then(|paths| {
            let path_steps = self.path_positions(lane)?;
            let ours = path_steps.last().copied().unwrap_or(0);
            let theirs = paths.emulator.steps.len();
            if ours != theirs && !paths.emulator.overflowed {
                return Err(format!(
                    "the debugger's run of pixel ({},{}) took {ours} path steps, the \
                     bisection's {theirs}: their inputs differ",
                    pixel.0, pixel.1
                ));
            }
            Ok(Loaded {
                backend,
                pixel,
                lane,
                paths,
                path_steps,
            })
        });
        match loaded {
            Ok(l) => {
                let b = &l.paths.bisection;
                let found = match &b.divergence {
                    Some(d) => format!("first divergence at [{}]; D jumps there", d.index),
                    None => "no divergence".into(),
                };
                let msg = format!(
                    "{} values of pixel ({},{}) loaded: {} step(s) compared, {found}",
                    backend.name(),
                    pixel.0,
                    pixel.1,
                    b.compared
                );
                let tone = if b.divergence.is_some() {
                    Tone::Warn
                } else {
                    Tone::Info
                };
                self.gpu.state = GpuState::Loaded(Box::new(l));
                self.set(tone, msg);
            }
            Err(e) => self.set(Tone::Error, format!("GPU values: {e}")),
        }
    }

    /// For each position of the quad's run from the start, the path steps
    /// `lane` had taken: a step counts when the lane executes it and it is
    /// a path step, as the emulator's side of a bisection counts.
    fn path_positions(&self, lane: usize) -> Result<Vec<usize>, String> {
        let choice = super::app::choice(&self.inputs, self.pixel);
        let (setup, resources) = (self.inputs.provider)(choice);
        let fail = |e: crate::vm::VmError| format!("the emulator: {e}");
        let mut m =
            Machine::new(Rc::clone(&self.program), setup, Rc::new(resources)).map_err(fail)?;
        m.set_recording(false);
        m.set_uavs(self.inputs.uavs.clone());
        let mut table = vec![0];
        let mut taken = 0;
        loop {
            let running = m.execution_mask()[lane.min(LANES - 1)];
            match m.step().map_err(fail)? {
                Event::Finished => return Ok(table),
                Event::Executed { index } => {
                    let step = self.program.instructions[index].op.is_path_step();
                    taken += usize::from(running && step);
                    table.push(taken);
                }
            }
        }
    }

    /// Drops loaded (or loading) values that no longer match the pixel
    /// and lane shown and says so: after the last event when `keep_event`
    /// (a re-run's own message), else alone.
    pub(super) fn gpu_view_changed(&mut self, keep_event: bool) {
        let (pixel, lane) = match &self.gpu.state {
            GpuState::Idle => return,
            GpuState::Loading(j) => (j.pixel, j.lane),
            GpuState::Loaded(l) => (l.pixel, l.lane),
        };
        if pixel == self.pixel && lane == self.lane {
            return;
        }
        self.gpu.state = GpuState::Idle;
        let note = format!(
            "the GPU values were for pixel ({},{}) lane {lane}: G loads this lane's",
            pixel.0, pixel.1
        );
        let msg = if !keep_event || self.event.is_empty() {
            note
        } else {
            format!("{}; {note}", self.event)
        };
        self.set(Tone::Warn, msg);
    }

    pub fn gpu_loaded(&self) -> Option<&Loaded> {
        match &self.gpu.state {
            GpuState::Loaded(l) => Some(l),
            _ => None,
        }
    }

    /// The GPU's register file at the debugger's position: its path
    /// replayed to as many steps as the lane has taken here, and no
    /// further than where the two paths part (past that, no GPU step
    /// matches the emulator's).
    pub fn gpu_registers(&self) -> Option<Registers> {
        let l = self.gpu_loaded()?;
        let source = self.gpu.source.as_ref()?;
        let position = self.machine.position();
        let taken = l
            .path_steps
            .get(position)
            .or(l.path_steps.last())
            .copied()
            .unwrap_or(0);
        let b = &l.paths.bisection;
        let limit = match &b.divergence {
            Some(Divergence {
                kind: Kind::Path { .. },
                ..
            }) => b.compared,
            _ => usize::MAX,
        };
        Some(Registers::replay(
            &source.shaders.pixel,
            &l.paths.gpu,
            taken.min(limit),
        ))
    }

    /// The GPU's side of one pane row, beside `emulator`'s components.
    pub fn gpu_cells(&self, regs: &Registers, which: Which, emulator: &[u32]) -> Vec<GpuCell> {
        let (Some(source), written) = (
            self.gpu.source.as_ref(),
            match which {
                Which::Input(r) => regs.inputs.get(&r),
                Which::Loc(l) => regs.written.get(&l),
            },
        ) else {
            return Vec::new();
        };
        (0..emulator.len())
            .map(|c| match written.and_then(|w| w[c]) {
                None => GpuCell {
                    bits: None,
                    differs: false,
                },
                Some(w) => GpuCell {
                    bits: Some(w.bits),
                    differs: !bisect::agree(
                        &source.shaders.pixel,
                        w.writer,
                        emulator[c],
                        w.bits,
                        &source.case.tolerance,
                    ),
                },
            })
            .collect()
    }

    /// `D`: moves to just after the first divergent step (the inputs at
    /// the start, the branch for paths that part) and says what differs.
    pub fn jump_to_divergence(&mut self) {
        let Some(l) = self.gpu_loaded() else {
            let msg = if self.gpu_busy() {
                "the GPU values are still loading"
            } else {
                "no GPU values loaded: G loads them"
            };
            self.set(Tone::Warn, msg);
            return;
        };
        let b = &l.paths.bisection;
        let Some(d) = b.divergence.clone() else {
            let msg = format!(
                "no divergence: {} agrees with the emulator over {} step(s)",
                l.backend.name(),
                b.compared
            );
            self.set(Tone::Info, msg);
            return;
        };
        let target = d.step.map_or(0, |s| s + 1);
        let position = l
            .path_steps
            .iter()
            .position(|&n| n >= target)
            .unwrap_or(l.path_steps.len().saturating_sub(1));
        let backend = l.backend;
        if let Err(e) = self.go_to(position) {
            self.set(Tone::Error, format!("error: {e}"));
            return;
        }
        let msg = self.describe(backend, &d);
        self.set(Tone::Warn, msg);
    }

    /// Moves the machine to `position` steps from the start.
    fn go_to(&mut self, position: usize) -> Result<(), crate::vm::VmError> {
        self.machine.restore(position);
        while self.machine.position() < position {
            if let Event::Finished = self.machine.step()? {
                break;
            }
        }
        self.moved();
        Ok(())
    }

    /// The status line for a divergence.
    fn describe(&self, backend: Backend, d: &Divergence) -> String {
        // Both sides read by the emulator's type for the component (the
        // jump has just run the step that wrote it).
        let typed = |bits: u32, ty| super::values::shown(self.view, bits, ty);
        let backend = backend.name();
        let at = format!("[{}] {}", d.index, d.text);
        match &d.kind {
            Kind::Input {
                register,
                component,
                emulator,
                gpu,
            } => {
                let ty = self.machine.input_type(*register, *component);
                format!(
                    "divergence at entry: v{register}.{} emulator {}, {backend} {} (declared at {at})",
                    component_name(*component),
                    typed(*emulator, ty),
                    typed(*gpu, ty)
                )
            }
            Kind::Value {
                register,
                component,
                emulator,
                gpu,
            } => {
                let ty = self.machine.value_type(self.lane, *register, *component);
                format!(
                    "divergence: {register}.{} emulator {}, {backend} {}, after {at}",
                    component_name(*component),
                    typed(*emulator, ty),
                    typed(*gpu, ty)
                )
            }
            Kind::Register { emulator, gpu } => {
                let names = |l: &[Loc]| {
                    l.iter()
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                };
                format!(
                    "divergence: the emulator wrote {}, {backend} {}, at {at}",
                    names(emulator),
                    names(gpu)
                )
            }
            Kind::Path {
                emulator_next,
                gpu_next,
            } => {
                let next = |n: &Option<usize>| n.map_or("the end".into(), |i| format!("[{i}]"));
                format!(
                    "the paths part: the emulator runs {} next, {backend} {}, after {at}",
                    next(emulator_next),
                    next(gpu_next)
                )
            }
        }
    }
}
