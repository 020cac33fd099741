//! The real terminal: raw mode, the alternate screen and mouse capture on
//! the way in, and all of it undone on the way out, whether the debugger
//! quits, returns an error or panics. Ctrl-C needs nothing extra: raw mode
//! delivers it as a key, which quits through the normal path.

use std::io::{self, IsTerminal, Stdout, stdout};

use crossterm::cursor::Show;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// What to do instead, for a user who ran `step` into a pipe or a file.
const INSTEAD: &str = "use `trace` for text output";

/// Why the debugger cannot run here, when it cannot: it draws on
/// standard output, which must then be a terminal.
pub fn unavailable() -> Option<String> {
    (!stdout().is_terminal())
        .then(|| format!("step needs a terminal: standard output is not one; {INSTEAD}"))
}

/// A clearer message for a terminal error that means there is no
/// terminal at all: with standard output a terminal but no controlling
/// terminal to read keys from, opening `/dev/tty` fails with ENXIO.
pub fn explain(e: &io::Error) -> Option<String> {
    (e.raw_os_error() == Some(libc::ENXIO)).then(|| {
        format!("step needs a terminal: there is no controlling terminal to read keys from ({e}); {INSTEAD}")
    })
}

/// The terminal while the debugger owns it; dropping it restores the
/// terminal.
pub struct Session {
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    pub fn start() -> io::Result<Session> {
        install_panic_hook();
        enable_raw_mode()?;
        let entered = execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)
            .and_then(|_| Terminal::new(CrosstermBackend::new(stdout())));
        match entered {
            Ok(terminal) => Ok(Session { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back as the shell left it. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, Show);
}

/// A panic message printed on the alternate screen in raw mode would be
/// lost; restore first, then let the previous hook report it.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A GPU capture's panic is reported by its load (`gpu.rs`); the
        // debugger keeps the terminal.
        if std::thread::current().name() == Some(super::gpu::CAPTURE_THREAD) {
            return;
        }
        restore();
        previous(info);
    }));
}
