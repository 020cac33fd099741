//! The debugger's state and every action on it. Nothing here touches a
//! terminal: tests drive an [`App`] directly and draw it into a test
//! backend, and `mod.rs` only feeds it key and mouse events.

use std::collections::BTreeSet;
use std::rc::Rc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::dxbc::Shader;
use crate::dxbc::disasm::format_instruction;
use crate::dxbc::ir::Program;
use crate::dxbc::opcodes::Class;
use crate::dxbc::value_type::{Typing, ValueType};
use crate::glsl::{self, Dialect, SourceMap};
use crate::harness::case::Case;
use crate::vm::defaults::{self, DefaultTextures, PixelChoice};
use crate::vm::memory::Buffer;
use crate::vm::{Change, Event, LANES, Machine, Resources, Setup, VmError};

use super::gpu::{GpuCell, GpuValues};
use super::memory::{Reflection, Space};

pub use super::values::{
    ValueView, component_name, float_text, nan_or_inf, parse_pixel, parse_watch, shown,
};

/// Builds the emulator's inputs for the quad holding a pixel.
pub type Provider = Box<dyn Fn(PixelChoice) -> (Setup, Resources)>;

/// Where a run's inputs come from, kept so picking another pixel can
/// re-run the emulator.
pub struct Inputs {
    /// The render target the pixel lies in.
    pub width: u32,
    pub height: u32,
    pub provider: Provider,
    /// The UAVs (`u#` by slot) every run starts from: the case's, as it
    /// gives them (the quad does not see what quads drawn before it
    /// would have written).
    pub uavs: Vec<Option<Buffer>>,
    /// Shown in the help overlay: "documented defaults" or the case.
    pub description: String,
}

impl Inputs {
    /// The documented defaults (`docs/debugger.md`): a 64x64 target, inputs
    /// varying across it, zeroed constant buffers, checker textures.
    pub fn defaults(shader: &Shader) -> Inputs {
        let shader = shader.clone();
        let size = PixelChoice::default();
        Inputs {
            width: size.width,
            height: size.height,
            provider: Box::new(move |choice| {
                (
                    defaults::default_setup(&shader, choice),
                    defaults::default_resources(&shader.program, DefaultTextures::Checker),
                )
            }),
            uavs: Vec::new(),
            description: "documented defaults (64x64 target, checker textures)".into(),
        }
    }

    /// A case's quad, textures, samplers, constant buffers, buffers and
    /// UAVs.
    pub fn case(case: Case, shader: &Shader, name: &str) -> Inputs {
        let shader = shader.clone();
        let (width, height) = (case.width, case.height);
        Inputs {
            width,
            height,
            uavs: crate::harness::cpu::uavs(&case),
            provider: Box::new(move |choice| {
                crate::harness::raster::case_inputs(&case, &shader, choice)
            }),
            description: format!("case {name} ({width}x{height} target)"),
        }
    }
}

/// Everything a key can do. `keys.rs` binds keys to these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Step,
    StepBack,
    Continue,
    ToggleBreakpoint,
    RunToEnd,
    Restart,
    RunToCursor,
    Watch,
    RunToNan,
    CursorUp,
    CursorDown,
    PageUp,
    PageDown,
    NextLane,
    Lane(u8),
    PickPixel,
    Search,
    CycleView,
    ToggleMemory,
    PaneUp,
    PaneDown,
    SwitchDialect,
    ToggleExtra,
    /// Show or hide the texture-read section (`fetch.rs`).
    ToggleFetch,
    /// Capture the shown lane's pixel on a GPU backend (`gpu.rs`).
    LoadGpu(super::gpu::Backend),
    JumpToDivergence,
    /// Focus, pane widths and heights, scrolling to an end (`layout.rs`).
    Layout(super::layout::Adjust),
    /// The watch list (`watch.rs`).
    AddWatch,
    RemoveWatch,
    /// The instruction of a GLSL line (`glsl_jump.rs`).
    GlslLine,
    /// The right code pane: GLSL or the HLSL source (`hlsl.rs`).
    ToggleHlsl,
    Help,
    Close,
    Quit,
}

/// One emitted dialect: its lines and source map, or the refusal.
pub struct GlslText {
    pub lines: Vec<String>,
    /// None when the emitter refused the shader.
    pub map: Option<SourceMap>,
}

impl GlslText {
    fn of(shader: &Shader, dialect: Dialect) -> GlslText {
        match glsl::translate(shader, &glsl::Options::new(dialect)) {
            Ok(t) => GlslText {
                lines: t.source.lines().map(str::to_string).collect(),
                map: Some(t.map),
            },
            Err(refused) => {
                let mut lines = vec![format!(
                    "// the emitter refuses this shader ({}):",
                    dialect.name()
                )];
                lines.extend(refused.diagnostics.iter().map(|d| format!("//   {d}")));
                GlslText { lines, map: None }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    Watch,
    Pixel,
    Search,
    AddWatch,
    RemoveWatch,
    GlslLine,
}

impl PromptKind {
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Watch => "run until this changes (e.g. r0.x; empty: any watched component)",
            PromptKind::AddWatch => "watch (e.g. r0.x, o0, v1.y, x0[2].z)",
            PromptKind::RemoveWatch => "stop watching number (empty: the last added)",
            PromptKind::GlslLine => "GLSL line number",
            PromptKind::Pixel => "pixel X,Y",
            PromptKind::Search => "search (Enter: next match)",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help,
    Prompt(PromptKind, String),
}

/// The tone of the status line's last event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Warn,
    Error,
}

/// The panes the mouse wheel can scroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Listing,
    Glsl,
    Registers,
}

/// Where the last draw put each pane (for the mouse wheel).
#[derive(Debug, Clone, Copy, Default)]
pub struct Areas {
    pub listing: Rect,
    pub glsl: Rect,
    /// The instruction detail line's rows, under the code panes.
    pub detail: Rect,
    pub registers: Rect,
}

/// One line of the register pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegRow {
    Heading(String),
    Reg {
        name: String,
        values: Vec<u32>,
        /// Each component's type (`dxbc::value_type`), which the typed
        /// view shows it by.
        types: Vec<ValueType>,
        /// Which components the last step changed in the selected lane.
        changed: Vec<bool>,
        /// The GPU's values beside them, once loaded (empty otherwise).
        gpu: Vec<GpuCell>,
        /// Each component's name where the container gives one
        /// (`rcpFrame.x`, `TEXCOORD1.x`); empty or None: `x`..`w`.
        labels: Vec<Option<String>>,
    },
}

pub struct App {
    pub program: Rc<Program>,
    /// The listing text of each instruction (first line only).
    pub listing: Vec<String>,
    pub es300: GlslText,
    pub vk450: GlslText,
    pub dialect: Dialect,
    pub machine: Machine,
    /// The run's textures and buffer SRVs (the machine holds the same).
    pub resources: Rc<Resources>,
    pub inputs: Inputs,
    pub pixel: (u32, u32),
    pub lane: usize,
    pub cursor: usize,
    pub breakpoints: BTreeSet<usize>,
    /// The register pane's view: None shows each value by its type.
    pub view: Option<ValueView>,
    /// What the program declares about types, for every machine a run
    /// makes (`P` makes a new one).
    pub typing: Rc<Typing>,
    pub extra: bool,
    /// The bottom pane shows the buffers and UAVs instead of registers.
    pub memory: bool,
    /// The memory pane's view: None shows each word by its type.
    pub mem_view: Option<ValueView>,
    /// RDEF's names and element types of the buffer bindings.
    pub names: std::collections::BTreeMap<(Space, u32), Reflection>,
    /// RDEF's and the signatures' names of registers (`names.rs`).
    pub naming: super::names::Naming,
    pub overlay: Overlay,
    pub event: String,
    pub tone: Tone,
    pub quit: bool,
    /// Scroll positions (first visible row) and what to bring into view
    /// at the next draw.
    pub listing_top: usize,
    pub glsl_top: usize,
    pub regs_top: usize,
    pub mem_top: usize,
    pub follow_listing: Option<usize>,
    pub follow_glsl: bool,
    /// Scroll the memory pane to the last write at the next draw.
    pub follow_memory: bool,
    /// Rows `[`/`]` scroll the bottom pane (its height at the last draw).
    pub bottom_page: usize,
    pub areas: Areas,
    /// The split, the bottom pane's height and the focus (`layout.rs`).
    pub layout: super::layout::Layout,
    /// Rows a page key moves (the listing's height at the last draw).
    pub page: usize,
    /// The help overlay's first row shown, and the rows a page key moves
    /// it (its height at the last draw) (`help.rs`).
    pub help_top: usize,
    pub help_page: usize,
    /// The GPU's values for the lane shown (`G`, `D`).
    pub gpu: GpuValues,
    /// The texture-read section (`fetch.rs`).
    pub fetch: super::fetch::FetchPane,
    /// The watch list, shown at the top of the register pane.
    pub watches: Vec<super::watch::Watch>,
    /// The HLSL source shown in the GLSL's place (`hlsl.rs`).
    pub hlsl: super::hlsl::HlslPane,
    last_search: String,
}

impl App {
    pub fn new(
        shader: &Shader,
        inputs: Inputs,
        pixel: (u32, u32),
        lane: Option<usize>,
    ) -> Result<App, VmError> {
        let program = Rc::new(shader.program.clone());
        let style = shader.style();
        let listing = program
            .instructions
            .iter()
            .map(|i| {
                let text = format_instruction(i, style);
                text.lines().next().unwrap_or("").to_string()
            })
            .collect();
        let choice = choice(&inputs, pixel);
        let (setup, resources) = (inputs.provider)(choice);
        let resources = Rc::new(resources);
        let mut machine = Machine::new(Rc::clone(&program), setup, Rc::clone(&resources))?;
        machine.set_uavs(inputs.uavs.clone());
        let typing = Rc::new(Typing::of(shader));
        machine.set_typing(Rc::clone(&typing));
        let mut app = App {
            listing,
            es300: GlslText::of(shader, Dialect::Es300),
            vk450: GlslText::of(shader, Dialect::Vk450),
            dialect: Dialect::Es300,
            cursor: machine.pc(),
            machine,
            resources,
            program,
            names: super::memory::reflect(shader),
            naming: super::names::Naming::of(shader),
            inputs,
            pixel,
            lane: lane.unwrap_or(choice.lane()).min(LANES - 1),
            breakpoints: BTreeSet::new(),
            view: None,
            typing,
            extra: false,
            memory: false,
            mem_view: None,
            overlay: Overlay::None,
            event: "ready: n steps, ? shows the keys".into(),
            tone: Tone::Info,
            quit: false,
            listing_top: 0,
            glsl_top: 0,
            regs_top: 0,
            mem_top: 0,
            follow_listing: None,
            follow_glsl: true,
            follow_memory: true,
            bottom_page: 10,
            areas: Areas::default(),
            layout: super::layout::Layout::default(),
            page: 20,
            help_top: 0,
            help_page: 10,
            gpu: GpuValues::default(),
            fetch: super::fetch::FetchPane::new(shader),
            watches: Vec::new(),
            hlsl: super::hlsl::HlslPane::new(shader),
            last_search: String::new(),
        };
        app.follow_listing = Some(app.machine.pc());
        Ok(app)
    }

    pub fn glsl(&self) -> &GlslText {
        match self.dialect {
            Dialect::Es300 => &self.es300,
            _ => &self.vk450,
        }
    }

    /// The GLSL lines (1-based, inclusive) of the next instruction.
    pub fn glsl_highlight(&self) -> Option<(u32, u32)> {
        self.glsl().map.as_ref()?.lines(self.machine.pc())
    }

    pub(super) fn set(&mut self, tone: Tone, event: impl Into<String>) {
        self.tone = tone;
        self.event = event.into();
    }

    /// A key from the terminal: prompt editing while a prompt is open,
    /// otherwise the key table.
    pub fn key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        if let Overlay::Prompt(kind, text) = &mut self.overlay {
            let kind = *kind;
            match key.code {
                KeyCode::Esc => self.overlay = Overlay::None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Enter => {
                    let text = text.clone();
                    if kind != PromptKind::Search {
                        self.overlay = Overlay::None;
                    }
                    self.submit(kind, &text);
                }
                KeyCode::Char(c) => text.push(c),
                _ => {}
            }
            return;
        }
        if self.overlay == Overlay::Help && self.help_key(key.code) {
            return;
        }
        if let Some(action) = super::keys::action_for(&key) {
            self.apply(action);
        }
    }

    /// The mouse wheel over a pane scrolls it.
    pub fn scroll_at(&mut self, column: u16, row: u16, delta: isize) {
        let at = ratatui::layout::Position { x: column, y: row };
        let pane = if self.areas.listing.contains(at) {
            Pane::Listing
        } else if self.areas.glsl.contains(at) {
            Pane::Glsl
        } else if self.areas.registers.contains(at) {
            Pane::Registers
        } else {
            return;
        };
        self.scroll(pane, delta);
    }

    pub fn scroll(&mut self, pane: Pane, delta: isize) {
        let top = match pane {
            Pane::Listing => &mut self.listing_top,
            Pane::Glsl if self.hlsl.shown => &mut self.hlsl.top,
            Pane::Glsl => &mut self.glsl_top,
            Pane::Registers if self.memory => &mut self.mem_top,
            Pane::Registers => &mut self.regs_top,
        };
        *top = top.saturating_add_signed(delta);
        match pane {
            Pane::Listing => self.follow_listing = None,
            Pane::Glsl => self.follow_glsl = false,
            Pane::Registers => self.follow_memory = false,
        }
    }

    pub fn apply(&mut self, action: Action) {
        let n = self.listing.len();
        match action {
            Action::Step => self.run(1, |_| None),
            Action::StepBack => {
                if self.machine.step_back() {
                    self.set(
                        Tone::Info,
                        format!("stepped back to [{}]", self.machine.pc()),
                    );
                } else {
                    self.set(Tone::Info, "at the start");
                }
                self.moved();
            }
            Action::Continue => self.run(usize::MAX, |app| {
                let pc = app.machine.pc();
                app.breakpoints
                    .contains(&pc)
                    .then(|| format!("breakpoint at [{pc}]"))
            }),
            Action::ToggleBreakpoint => {
                let c = self.cursor;
                if !self.breakpoints.remove(&c) {
                    self.breakpoints.insert(c);
                    self.set(Tone::Info, format!("breakpoint set at [{c}]"));
                } else {
                    self.set(Tone::Info, format!("breakpoint cleared at [{c}]"));
                }
            }
            Action::RunToEnd => self.run(usize::MAX, |_| None),
            Action::Restart => {
                self.machine.restore(0);
                self.set(Tone::Info, "back at the start");
                self.moved();
            }
            Action::RunToCursor => {
                let c = self.cursor;
                self.run(usize::MAX, move |app| {
                    (app.machine.pc() == c).then(|| format!("at the cursor [{c}]"))
                })
            }
            Action::Watch => self.overlay = Overlay::Prompt(PromptKind::Watch, String::new()),
            Action::RunToNan => {
                self.run(usize::MAX, |app| {
                    app.produced_nan().map(|c| {
                        format!(
                            "NaN/Inf produced: {}.{} = {} (lane {})",
                            c.loc,
                            component_name(c.component),
                            float_text(c.new),
                            c.lane
                        )
                    })
                });
                // Show the lane that produced it (the shown one when it
                // did too: `produced_nan` prefers it).
                if let Some(c) = self.produced_nan()
                    && c.lane != self.lane
                {
                    self.lane = c.lane;
                    self.gpu_view_changed(true);
                }
            }
            Action::CursorUp => self.move_cursor(-1),
            Action::CursorDown => self.move_cursor(1),
            Action::PageUp => self.move_cursor(-(self.page.max(1) as isize)),
            Action::PageDown => self.move_cursor(self.page.max(1) as isize),
            Action::NextLane => {
                self.lane = (self.lane + 1) % LANES;
                self.gpu_view_changed(false);
            }
            Action::Lane(l) => {
                self.lane = (l as usize).min(LANES - 1);
                self.gpu_view_changed(false);
            }
            Action::PickPixel => self.overlay = Overlay::Prompt(PromptKind::Pixel, String::new()),
            Action::Search => {
                self.overlay = Overlay::Prompt(PromptKind::Search, self.last_search.clone())
            }
            Action::CycleView if self.memory => self.cycle_memory_view(),
            Action::CycleView => self.view = super::values::next_register_view(self.view),
            Action::ToggleMemory => {
                self.memory = !self.memory;
                self.follow_memory = true;
            }
            Action::PaneUp => self.scroll_focused(-1),
            Action::PaneDown => self.scroll_focused(1),
            Action::SwitchDialect => {
                self.dialect = match self.dialect {
                    Dialect::Es300 => Dialect::Vk450,
                    _ => Dialect::Es300,
                };
                self.glsl_top = 0;
                self.follow_glsl = true;
            }
            Action::ToggleExtra => self.extra = !self.extra,
            Action::ToggleFetch => self.fetch.shown = !self.fetch.shown,
            Action::LoadGpu(backend) => self.load_gpu(backend),
            Action::JumpToDivergence => self.jump_to_divergence(),
            Action::Layout(adjust) => self.adjust(adjust),
            Action::AddWatch => self.overlay = Overlay::Prompt(PromptKind::AddWatch, String::new()),
            Action::RemoveWatch => {
                self.overlay = Overlay::Prompt(PromptKind::RemoveWatch, String::new())
            }
            Action::GlslLine => self.overlay = Overlay::Prompt(PromptKind::GlslLine, String::new()),
            Action::ToggleHlsl => self.toggle_hlsl(),
            Action::Help => {
                self.overlay = if self.overlay == Overlay::Help {
                    Overlay::None
                } else {
                    self.help_top = 0;
                    Overlay::Help
                }
            }
            Action::Close => self.overlay = Overlay::None,
            Action::Quit => self.quit = true,
        }
        if n == 0 {
            self.cursor = 0;
        }
    }

    fn move_cursor(&mut self, delta: isize) {
        let last = self.listing.len().saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
        self.follow_listing = Some(self.cursor);
    }

    /// After the machine moved: bring the next instruction into view.
    pub(super) fn moved(&mut self) {
        self.follow_listing = Some(self.machine.pc().min(self.listing.len().saturating_sub(1)));
        self.follow_glsl = true;
        self.follow_memory = true;
    }

    /// Steps up to `limit` times, stopping early when the shader finishes,
    /// a step fails, or `stop` (asked after each step) has something to say.
    pub(super) fn run(&mut self, limit: usize, mut stop: impl FnMut(&App) -> Option<String>) {
        let mut taken = 0usize;
        let mut notes: Vec<String> = Vec::new();
        let outcome = loop {
            if taken == limit {
                break None;
            }
            let discarded = self.machine.discarded();
            match self.machine.step() {
                Ok(Event::Finished) => {
                    break Some((Tone::Info, "finished: the shader has returned".to_string()));
                }
                Ok(Event::Executed { index }) => {
                    taken += 1;
                    let now = self.machine.discarded();
                    let lanes: Vec<String> = (0..LANES)
                        .filter(|&l| now[l] && !discarded[l])
                        .map(|l| l.to_string())
                        .collect();
                    if !lanes.is_empty() {
                        notes.push(format!("[{index}] discarded lane(s) {}", lanes.join(",")));
                    }
                    if let Some(msg) = stop(self) {
                        break Some((Tone::Warn, msg));
                    }
                    if limit == 1 {
                        let mut msg = format!("ran [{index}]");
                        if let Some(c) = self.produced_nan() {
                            msg.push_str(&format!(
                                "; NaN/Inf produced in {}.{} (lane {})",
                                c.loc,
                                component_name(c.component),
                                c.lane
                            ));
                            break Some((Tone::Warn, msg));
                        }
                        if self.machine.is_finished() {
                            msg.push_str("; finished");
                        }
                        break Some((Tone::Info, msg));
                    }
                }
                Err(e) => break Some((Tone::Error, format!("error: {e}"))),
            }
        };
        let (tone, mut msg) = outcome.unwrap_or((Tone::Info, String::new()));
        if !notes.is_empty() {
            let tone = if tone == Tone::Error {
                tone
            } else {
                Tone::Warn
            };
            msg = format!("{}; {msg}", notes.join("; "));
            self.set(tone, msg);
        } else {
            self.set(tone, msg);
        }
        self.moved();
    }

    /// A component the last step set to NaN or ±Inf through float
    /// arithmetic or sampling (comparison masks and integer results are
    /// not floats, so their all-ones bits do not count): in the lane
    /// shown when it has one, else in the first lane that has.
    pub fn produced_nan(&self) -> Option<Change> {
        let index = self.machine.last_index()?;
        let info = self.program.instructions.get(index)?.info();
        if !(info.float_rule().float_result || info.class == Class::Texture) {
            return None;
        }
        let mut found = self.machine.changes().iter().filter(|c| nan_or_inf(c.new));
        let first = found.clone().next().copied();
        found.find(|c| c.lane == self.lane).copied().or(first)
    }

    fn submit(&mut self, kind: PromptKind, text: &str) {
        match kind {
            PromptKind::Watch if text.trim().is_empty() => self.run_until_watched_changes(),
            PromptKind::AddWatch => self.add_watch(text),
            PromptKind::RemoveWatch => self.remove_watch(text),
            PromptKind::GlslLine => self.jump_to_glsl_line(text),
            PromptKind::Watch => match self.resolve(text) {
                Some(super::names::Named::Reg(loc, comp)) => {
                    let name = format!("{loc}.{}", component_name(comp));
                    self.run(usize::MAX, move |app| {
                        app.machine
                            .changes()
                            .iter()
                            .find(|c| c.loc == loc && c.component == comp)
                            .map(|c| {
                                // Both by the type the change gave it.
                                let ty = app.machine.value_type(c.lane, c.loc, c.component);
                                format!(
                                    "{name} changed: {} -> {} (lane {})",
                                    shown(app.view, c.old, ty),
                                    shown(app.view, c.new, ty),
                                    c.lane
                                )
                            })
                    });
                }
                Some(fixed) => self.watch_fixed(text, fixed),
                None => self.set(
                    Tone::Error,
                    format!(
                        "`{text}` is not a register component or a unique name \
                         (e.g. r0.x, o0.w, x1[2].y, TEXCOORD0.y, rcpFrame.x)"
                    ),
                ),
            },
            PromptKind::Pixel => match parse_pixel(text) {
                Some((x, y)) if x < self.inputs.width && y < self.inputs.height => {
                    self.pick_pixel(x, y)
                }
                Some(_) => self.set(
                    Tone::Error,
                    format!(
                        "`{text}` is outside the {}x{} target",
                        self.inputs.width, self.inputs.height
                    ),
                ),
                None => self.set(Tone::Error, format!("`{text}` is not X,Y")),
            },
            PromptKind::Search => {
                self.last_search = text.to_string();
                self.search_next(text);
            }
        }
    }

    /// Re-runs the emulator for the quad holding pixel (x, y), back to the
    /// same number of steps, on the pixel's own lane.
    pub fn pick_pixel(&mut self, x: u32, y: u32) {
        let choice = choice(&self.inputs, (x, y));
        let (setup, resources) = (self.inputs.provider)(choice);
        let resources = Rc::new(resources);
        let position = self.machine.position();
        match Machine::new(Rc::clone(&self.program), setup, Rc::clone(&resources)) {
            Ok(mut machine) => {
                machine.set_uavs(self.inputs.uavs.clone());
                machine.set_typing(Rc::clone(&self.typing));
                self.machine = machine;
                self.resources = resources;
                self.pixel = (x, y);
                self.lane = choice.lane();
                let mut msg = format!("pixel ({x},{y}), lane {}", self.lane);
                for _ in 0..position {
                    match self.machine.step() {
                        Ok(Event::Executed { .. }) => {}
                        Ok(Event::Finished) => break,
                        Err(e) => {
                            msg = format!("{msg}; error: {e}");
                            break;
                        }
                    }
                }
                self.set(Tone::Info, msg);
                self.moved();
                self.gpu_view_changed(true);
            }
            Err(e) => self.set(Tone::Error, format!("error: {e}")),
        }
    }

    /// Moves the cursor to the next listing line (after the cursor,
    /// wrapping) containing `text`, ignoring case.
    pub fn search_next(&mut self, text: &str) {
        let n = self.listing.len();
        if text.is_empty() || n == 0 {
            return;
        }
        let needle = text.to_lowercase();
        let hit = (1..=n).map(|d| (self.cursor + d) % n).find(|&i| {
            self.listing[i].to_lowercase().contains(&needle)
                || self.operand_names_contain(i, &needle)
        });
        match hit {
            Some(i) => {
                self.cursor = i;
                self.follow_listing = Some(i);
                self.set(Tone::Info, format!("`{text}` at [{i}]"));
            }
            None => self.set(Tone::Warn, format!("`{text}` not found")),
        }
    }
}

pub(super) fn choice(inputs: &Inputs, (x, y): (u32, u32)) -> PixelChoice {
    PixelChoice {
        x,
        y,
        width: inputs.width,
        height: inputs.height,
    }
}
