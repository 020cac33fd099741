//! The command `diff` prints to step a failing case's pixel, and the one
//! its HTML report prints, run as printed in a real terminal (tmux): each
//! opens the debugger on the case's own inline shader at that pixel.
//!
//! The case is `tests/cases/alu/deriv_linear.case` (its shader written in
//! the case) with one probe added that no renderer meets: pixel (2,1)
//! expected with alpha 0, where the shader writes 1. The run is on the
//! emulator alone, so the pixel to step is the probe's (nothing else
//! fails); the case is copied to a temporary folder so the printed paths
//! are the ones a user would see there.

mod common;

use std::path::Path;
use std::process::Command;

use common::screen::root;
use common::tmux::Tmux;

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(args)
        .current_dir(dir)
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("dxbc-dbg runs")
}

/// Opens `command` (as printed, `dxbc-dbg` first) in tmux in `dir` and
/// checks the debugger shows pixel (2,1): lane 2 of the quad at (2,0).
fn opens_at_2_1(name: &str, dir: &Path, command: &str) {
    let bin = env!("CARGO_BIN_EXE_dxbc-dbg");
    let args = command
        .strip_prefix("dxbc-dbg ")
        .unwrap_or_else(|| panic!("a dxbc-dbg command: {command}"));
    let tmux = Tmux::new(name);
    tmux.start(dir, &format!("'{bin}' {args}; echo \"exit=$?\"; sleep 60"));
    // The status line is the frame's last row: once it is on the screen,
    // the rows above it are too (the register pane's title is drawn
    // earlier, so waiting for it could catch a half-drawn frame).
    let s = tmux.wait_for("pixel (2,1) · lane 2");
    assert!(s.contains("registers: lane 2 at pixel (2,1)"), "{s}");
    // The case's shader: its first executable instruction is next.
    assert!(s.contains("▶ [   3] mul r0.x, v0.x, l(3.000000)"), "{s}");
    tmux.cmd(&["send-keys", "-t", "dbg", "q"]);
    let s = tmux.wait_for("exit=");
    assert!(s.contains("exit=0"), "{s}");
}

#[test]
fn the_printed_step_commands_open_the_failing_pixel() {
    let text = std::fs::read_to_string(root().join("tests/cases/alu/deriv_linear.case"))
        .expect("the case");
    assert!(text.contains("[pixel shader]\n"), "an inline shader");
    // The golden is left out (it lives beside the original) and a probe
    // that fails added at the end of the [test] section.
    let text: String = text
        .lines()
        .filter(|l| l.trim() != "golden")
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "probe 2 1 3 -2 0 0\n";
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-report-step-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("deriv_linear.case"), text).expect("write the case");

    let out = run_in(
        &dir,
        &[
            "diff",
            "deriv_linear.case",
            "--backend",
            "none",
            "--report",
            "report",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "the case fails:\n{stdout}");
    assert!(stdout.contains("probe at (2, 1): CPU has"), "{stdout}");
    let printed = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("step the worst pixel: "))
        .unwrap_or_else(|| panic!("a step command:\n{stdout}"));
    assert_eq!(printed, "dxbc-dbg step deriv_linear.case --pixel 2,1");
    opens_at_2_1("report-step-stdout", &dir, printed);

    // The HTML report's command, from the report's folder.
    let html = std::fs::read_to_string(dir.join("report/index.html")).expect("the report");
    let at = html
        .find("dxbc-dbg step ")
        .expect("a step command in the report");
    let command = &html[at..at + html[at..].find('<').expect("the command ends")];
    assert_eq!(command, "dxbc-dbg step ../deriv_linear.case --pixel 2,1");
    opens_at_2_1("report-step-html", &dir.join("report"), command);
    let _ = std::fs::remove_dir_all(&dir);
}
