//! The step debugger in a real terminal (tmux) when things die: a Vulkan
//! worker killed mid-capture (the test-only switch of docs/harness.md,
//! "Crash isolation") is a message and the debugger goes on; SIGTERM,
//! SIGINT and SIGHUP end it with the terminal restored. After each, the
//! shell's `stty -a` must show canonical mode and echo again: a debugger
//! dying in raw mode leaves `-icanon -echo`.

mod common;

use std::time::{Duration, Instant};

use common::screen::root;
use common::tmux::Tmux;

/// Whether `stty -a` output on `screen` shows `icanon` and `echo` set.
fn sane(screen: &str) -> bool {
    let words: Vec<&str> = screen.split_whitespace().collect();
    words.contains(&"icanon") && words.contains(&"echo")
}

/// The screen from `exit=` on: the shell's lines after the debugger.
fn after_exit(screen: &str) -> &str {
    &screen[screen.find("exit=").expect("exit= on the screen")..]
}

#[test]
fn a_crashing_worker_is_a_message_and_the_terminal_comes_back() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let tmux = Tmux::new("crash");
    let script = format!(
        "DXBC_DBG_TEST_WORKER_CRASH=segv:point_less '{bin}' step \
         tests/cases/pcf/point_less.case --pixel 2,1; echo \"exit=$?\"; stty -a; sleep 60"
    );
    // Wide enough for the whole message on the status line.
    tmux.start_sized(&root(), &script, 200, 45);
    tmux.wait_for("instr 6/12");
    tmux.cmd(&["send-keys", "-t", "dbg", "G"]);
    let s = tmux.wait_for_within(
        "the Vulkan driver crashed (signal 11, SIGSEGV)",
        Duration::from_secs(60),
    );
    assert!(s.contains("GPU values: "), "{s}");
    // Still up: a step moves on to the next instruction.
    tmux.cmd(&["send-keys", "-t", "dbg", "n"]);
    tmux.wait_for("instr 7/12");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    // `stty -a` ends with its local flags (`-extproc` last): wait for
    // them, not for its first line, so the whole output is on screen.
    let s = tmux.wait_for("extproc");
    let rest = after_exit(&s);
    assert!(rest.starts_with("exit=0"), "{s}");
    assert!(sane(rest), "{s}");
}

/// The debugger's process: the child of the pane's shell.
fn debugger_pid(tmux: &Tmux) -> i32 {
    let shell = tmux.cmd(&["list-panes", "-t", "dbg", "-F", "#{pane_pid}"]);
    let shell = shell.trim();
    let start = Instant::now();
    loop {
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .unwrap_or_default();
        if let Some(pid) = children.split_whitespace().next() {
            return pid.parse().expect("a pid");
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no debugger under the shell {shell}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn termination_signals_restore_the_terminal() {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    for (signal, name) in [
        (libc::SIGTERM, "TERM"),
        (libc::SIGINT, "INT"),
        (libc::SIGHUP, "HUP"),
    ] {
        let tmux = Tmux::new(&format!("sig{name}"));
        let script = format!(
            "'{bin}' step tests/cases/pcf/point_less.case --pixel 2,1; echo \"exit=$?\"; \
             stty -a; sleep 60"
        );
        tmux.start(&root(), &script);
        tmux.wait_for("instr 6/12");
        let pid = debugger_pid(&tmux);
        // SAFETY: a signal to the debugger this test started.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "SIG{name}");
        // `stty -a` ends with its local flags (`-extproc` last): wait for
        // them, not for its first line, so the whole output is on screen.
        let s = tmux.wait_for("extproc");
        let rest = after_exit(&s);
        // The shell reports death by signal N as 128 + N: the handler
        // restores, then lets the signal end the process.
        assert!(
            rest.starts_with(&format!("exit={}", 128 + signal)),
            "SIG{name}: {s}"
        );
        assert!(sane(rest), "SIG{name}: {s}");
    }
}
