//! The `tui` layer: `dxbc-dbg step`, the interactive debugger. It steps the
//! reference emulator one DXBC instruction at a time (forward, and back
//! through the machine's undo log) for the quad holding one pixel, beside
//! the emitted GLSL and the register file. See `docs/debugger.md`.
//!
//! `app.rs` holds all state and actions (no terminal), `gpu.rs` the GPU's
//! values beside the emulator's (captured in a background thread),
//! `watch.rs` the watch list, `loops.rs` loop iteration counts,
//! `glsl_jump.rs` the instruction of a GLSL line, `hlsl.rs` the HLSL
//! source pane,
//! `keys.rs` the key table, `values.rs` value views and prompt parsing,
//! `names.rs` the container's names of registers (labels, lookups, search), `registers.rs` and
//! `memory.rs` the rows of the bottom pane's two modes (registers, and
//! buffers and UAVs), `fetch.rs` the texture-read section above them,
//! `view.rs` the drawing, `layout.rs` the panes' geometry and the focus,
//! `status.rs` the status line and messages, `help.rs` the help overlay,
//! `detail.rs` the instruction detail line, `columns.rs` registers side by
//! side on a wide pane, `terminal.rs` the terminal's set-up and restoration.

pub mod app;
pub mod columns;
pub mod detail;
pub mod fetch;
pub mod glsl_jump;
pub mod gpu;
pub mod help;
pub mod hlsl;
pub mod keys;
pub mod layout;
pub mod loops;
pub mod memory;
pub mod names;
pub mod registers;
pub mod status;
pub mod terminal;
pub mod values;
pub mod view;
pub mod watch;

use std::io;

use crossterm::event::{self, Event, KeyEventKind, MouseEventKind};

pub use app::{Action, App, Inputs};

/// Rows one notch of the mouse wheel scrolls.
const WHEEL: isize = 3;

/// How often the progress line of a GPU capture is redrawn.
const POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs the debugger on the real terminal until the user quits.
pub fn run(mut app: App) -> io::Result<()> {
    let mut session = terminal::Session::start()?;
    loop {
        session.terminal.draw(|f| view::draw(f, &mut app))?;
        if app.quit {
            return Ok(());
        }
        // While a GPU capture runs, wake up to take it in and to redraw
        // its progress line; otherwise sleep until the next event.
        if app.gpu_busy() && !event::poll(POLL)? {
            app.poll_gpu();
            continue;
        }
        match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => app.key(key),
            Event::Mouse(m) => match m.kind {
                MouseEventKind::ScrollUp => app.scroll_at(m.column, m.row, -WHEEL),
                MouseEventKind::ScrollDown => app.scroll_at(m.column, m.row, WHEEL),
                _ => {}
            },
            _ => {}
        }
        app.poll_gpu();
    }
}
