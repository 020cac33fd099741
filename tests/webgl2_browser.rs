//! The WebGL2 backend's browser handling: a real WebGL2 context with the
//! extensions the backend relies on, a clear error for a missing, failing
//! or slow browser, and no browser process left behind in any of these
//! cases. Needs headless Chromium (the README's test command installs
//! Debian's chromium-headless-shell); fails without it.

use std::path::PathBuf;
use std::time::Duration;

use dxbc_dbg::harness::webgl2::{Config, WebGl2, WebGl2Error};

/// Processes started for this test process's pages: their command lines
/// name its private folder (`dxbc-dbg-webgl2-PID-N`).
fn ours() -> Vec<String> {
    let tag = format!("dxbc-dbg-webgl2-{}-", std::process::id());
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(&tag) {
            found.push(cmd);
        }
    }
    found
}

/// Waits for the kernel to reap what was killed, then checks. The wait is
/// generous (10 s) because on a loaded machine a killed browser's
/// processes can take seconds to disappear; one still there after that
/// was not killed at all.
fn assert_none_left() {
    for _ in 0..500 {
        if ours().is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("browser processes left behind: {:?}", ours());
}

fn browser() -> WebGl2 {
    WebGl2::new(Config::default())
        .expect("no browser for WebGL2: install Debian's chromium-headless-shell")
}

#[test]
fn the_browser_gives_webgl2_with_float_targets_and_leaves_nothing_behind() {
    let info = browser().info().expect("the page ran");
    println!("webgl2: {} on {}", info.version, info.renderer);
    assert!(info.version.starts_with("WebGL 2.0"), "{info:?}");
    assert!(info.color_buffer_float, "EXT_color_buffer_float: {info:?}");
    assert!(info.float_linear, "OES_texture_float_linear: {info:?}");
    assert_none_left();
}

#[test]
fn a_browser_that_takes_too_long_is_ended_with_a_clear_error() {
    let w = WebGl2::new(Config {
        timeout: Duration::from_millis(1),
        ..Config::default()
    })
    .expect("browser");
    match w.info() {
        Err(WebGl2Error::Browser(m)) => assert!(
            m.contains("did not finish within") && m.contains("the browser was ended"),
            "{m}"
        ),
        other => panic!("expected a time-out, got {other:?}"),
    }
    assert_none_left();
}

#[test]
fn a_browser_that_fails_or_is_missing_is_named() {
    // `false` starts and exits at once, printing nothing.
    let w = WebGl2::new(Config {
        browser: Some(PathBuf::from("/bin/false")),
        ..Config::default()
    })
    .expect("an executable");
    match w.info() {
        Err(WebGl2Error::Browser(m)) => assert!(m.contains("/bin/false"), "{m}"),
        other => panic!("expected the browser's failure, got {other:?}"),
    }
    match WebGl2::new(Config {
        browser: Some(PathBuf::from("/no/such/chromium")),
        ..Config::default()
    }) {
        Err(WebGl2Error::NoBrowser(m)) => assert!(m.contains("/no/such/chromium"), "{m}"),
        Err(e) => panic!("expected no browser, got {e}"),
        Ok(_) => panic!("a missing browser was accepted"),
    }
    assert_none_left();
}

#[test]
fn shaders_are_compiled_and_linked_in_the_page_with_the_log_of_a_failure() {
    use dxbc_dbg::harness::webgl2::{Compile, Pair};
    let vs = "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n";
    let fs =
        "#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
    let bad =
        "#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = undeclared; }\n";
    let shader = |stage, source: &str| Compile {
        stage,
        source: source.to_string(),
    };
    let checked = browser()
        .check(
            &[shader("vertex", vs), shader("fragment", bad)],
            &[
                Pair {
                    vs: vs.into(),
                    fs: fs.into(),
                },
                Pair {
                    vs: vs.into(),
                    fs: bad.into(),
                },
            ],
        )
        .expect("the page checked the shaders");
    assert_eq!(checked.compiled[0], Ok(()));
    let log = checked.compiled[1]
        .clone()
        .expect_err("an undeclared name compiled");
    assert!(
        log.contains("pixel shader does not compile") && log.contains("undeclared"),
        "{log}"
    );
    assert_eq!(checked.linked[0], Ok(()));
    assert!(checked.linked[1].is_err(), "{:?}", checked.linked);
}
