//! The real terminal: raw mode, the alternate screen and mouse capture on
//! the way in, and all of it undone on the way out, whether the debugger
//! quits, returns an error, panics or is sent SIGTERM, SIGINT or SIGHUP.
//! Ctrl-C typed at the debugger needs nothing extra: raw mode delivers it
//! as a key, which quits through the normal path. A crashing GPU driver
//! cannot reach here: `G` draws in a worker process (`gpu.rs`).

use std::io::{self, IsTerminal, Stdout, stdout};
use std::sync::OnceLock;

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
        install_signal_handlers();
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

/// The terminal's settings as the shell left them, and a descriptor of
/// it, saved before raw mode for the signal handler.
static SAVED: OnceLock<(libc::c_int, libc::termios)> = OnceLock::new();

/// What the signal handler writes to standard output: crossterm's
/// sequences for leaving mouse capture (every mode it enables) and the
/// alternate screen, and showing the cursor.
const UNDO: &[u8] = b"\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1049l\x1b[?25h";

/// SIGTERM, SIGINT and SIGHUP end the debugger as they would any
/// program, but first put the terminal back: otherwise the shell is left
/// in raw mode without echo. The handler uses only async-signal-safe
/// calls (`tcsetattr`, `write`, `signal`, `raise`), so it restores from
/// what was saved here instead of through crossterm.
fn install_signal_handlers() {
    if SAVED.get().is_none() {
        // SAFETY: open and tcgetattr on a path and a zeroed struct of our
        // own; the descriptor is kept open for the handler.
        let saved = unsafe {
            let fd = libc::open(c"/dev/tty".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
            let mut t: libc::termios = std::mem::zeroed();
            (fd >= 0 && libc::tcgetattr(fd, &mut t) == 0).then_some((fd, t))
        };
        let Some(saved) = saved else {
            // No terminal to restore: the handlers would have nothing to do.
            return;
        };
        let _ = SAVED.set(saved);
    }
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: installs `on_signal`, which is async-signal-safe, with
        // an empty mask; the signal is blocked while it runs.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    // SAFETY: only async-signal-safe calls, on a descriptor and settings
    // saved before the handler was installed. Re-raising with the default
    // action ends the process as the signal would have, once this
    // handler returns and unblocks it.
    unsafe {
        if let Some((fd, saved)) = SAVED.get() {
            libc::tcsetattr(*fd, libc::TCSANOW, saved);
        }
        libc::write(1, UNDO.as_ptr().cast(), UNDO.len());
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
