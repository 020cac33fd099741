//! Running a translator's command on a case's shaders: the shaders
//! written as containers into a private folder (with an RDEF made up from
//! the declarations where the case's assembly has none), the command run
//! with `sh -c` in a process group of its own, bounded in time and output,
//! and everything it started ended, whatever happens.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::{Template, TranslatorError};
use crate::dxbc::Shader;
use crate::dxbc::rdef::synthesize;
use crate::harness::case::CaseShaders;

/// The most a command may print on standard output; a text past it is
/// refused (no translation of a case's shader is near it).
pub const MAX_OUTPUT: usize = 16 << 20;

/// Which shader a command translates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Pixel,
    Vertex,
}

impl Stage {
    pub fn word(self) -> &'static str {
        match self {
            Stage::Pixel => "pixel",
            Stage::Vertex => "vertex",
        }
    }
}

/// A private folder holding a case's shaders as containers, removed (with
/// whatever a command left in it) when dropped.
pub struct Blobs {
    dir: PathBuf,
    pub pixel: PathBuf,
    pub vertex: Option<PathBuf>,
}

impl Drop for Blobs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `shader` as a container a translator reads: as it is when it has
/// RDEF, else with one made up from its declarations.
pub fn container(shader: &Shader) -> Vec<u8> {
    if shader.rdef.is_some() {
        return crate::dxbc::write::shader_container(shader);
    }
    let mut with = shader.clone();
    with.rdef = Some(synthesize(&shader.program));
    crate::dxbc::write::shader_container(&with)
}

impl Blobs {
    /// Writes the case's shaders (`ps.dxbc`, `vs.dxbc`) into a new folder
    /// under the system's temporary directory.
    pub fn write(translator: &str, shaders: &CaseShaders) -> Result<Blobs, TranslatorError> {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("dxbc-dbg-translator-{}-{n}", std::process::id()));
        let fail = |e: std::io::Error| TranslatorError::Command {
            translator: translator.to_string(),
            why: format!("cannot write the shader for it to {}: {e}", dir.display()),
        };
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(fail)?;
        // From here on the folder is removed on every path.
        let mut blobs = Blobs {
            pixel: dir.join("ps.dxbc"),
            vertex: None,
            dir: dir.clone(),
        };
        std::fs::write(&blobs.pixel, container(&shaders.pixel)).map_err(fail)?;
        if let Some(vs) = &shaders.vertex {
            let p = dir.join("vs.dxbc");
            std::fs::write(&p, container(vs)).map_err(fail)?;
            blobs.vertex = Some(p);
        }
        Ok(blobs)
    }
}

/// `s` quoted for `sh`.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The command line for one shader: `{dxbc}` and the stage's own
/// placeholder replaced by its path (quoted), or the path appended when
/// the template names neither. In a vertex command `{ps}` names the pixel
/// shader it feeds.
pub fn command_line(template: &Template, stage: Stage, blobs: &Blobs) -> Option<String> {
    let this = match stage {
        Stage::Pixel => blobs.pixel.clone(),
        Stage::Vertex => blobs.vertex.clone()?,
    };
    let q = shell_quote(&this.to_string_lossy());
    let own = match stage {
        Stage::Pixel => "{ps}",
        Stage::Vertex => "{vs}",
    };
    let c = &template.command;
    if c.contains("{dxbc}") || c.contains(own) {
        let mut line = c.replace("{dxbc}", &q).replace(own, &q);
        if stage == Stage::Vertex {
            line = line.replace("{ps}", &shell_quote(&blobs.pixel.to_string_lossy()));
        }
        Some(line)
    } else {
        Some(format!("{c} {q}"))
    }
}

/// The signal's name, for messages.
fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGSEGV => "SIGSEGV".into(),
        libc::SIGABRT => "SIGABRT".into(),
        libc::SIGBUS => "SIGBUS".into(),
        libc::SIGFPE => "SIGFPE".into(),
        libc::SIGILL => "SIGILL".into(),
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGPIPE => "SIGPIPE".into(),
        other => format!("signal {other}"),
    }
}

/// Ends the process group led by `pid` (the command and everything it
/// started); a group already gone is no error.
fn kill_group(pid: u32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it
    // touches no memory of ours.
    unsafe {
        libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
    }
}

/// Runs the translator's command for `stage` and returns what it printed.
/// A command that cannot start, exits non-zero, dies of a signal, prints
/// nothing (or more than [`MAX_OUTPUT`], or not UTF-8) or runs past
/// `limit` is a `TranslatorError::Command` with the last line it wrote to
/// standard error.
pub fn run(
    translator: &str,
    template: &Template,
    stage: Stage,
    blobs: &Blobs,
    limit: Duration,
) -> Result<String, TranslatorError> {
    let fail = |why: String| TranslatorError::Command {
        translator: translator.to_string(),
        why,
    };
    let line = command_line(template, stage, blobs)
        .ok_or_else(|| fail(format!("no {} shader to translate", stage.word())))?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(&line)
        .env("DXBC_DBG_STAGE", stage.word())
        .env("DXBC_DBG_PS", &blobs.pixel)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    match &blobs.vertex {
        Some(v) => cmd.env("DXBC_DBG_VS", v),
        None => cmd.env_remove("DXBC_DBG_VS"),
    };
    let mut child = cmd
        .spawn()
        .map_err(|e| fail(format!("cannot run `sh -c {line}`: {e}")))?;
    let pid = child.id();
    // Readers on threads, so a command filling one pipe while the harness
    // waits on the other cannot stall; each stops taking bytes at its cap
    // (the rest is drained, so the command is never blocked on a full
    // pipe).
    let read = |mut r: Box<dyn Read + Send>, cap: usize| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buf = [0u8; 65536];
            let mut over = false;
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if kept.len() + n <= cap {
                            kept.extend_from_slice(&buf[..n]);
                        } else {
                            over = true;
                        }
                    }
                }
            }
            (kept, over)
        })
    };
    let out = child.stdout.take().map(|s| read(Box::new(s), MAX_OUTPUT));
    let err = child.stderr.take().map(|s| read(Box::new(s), 1 << 20));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if start.elapsed() >= limit => {
                kill_group(pid);
                let _ = child.wait();
                break Err(format!(
                    "the {} shader's translation ran past {:.0?} and was stopped",
                    stage.word(),
                    limit
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                kill_group(pid);
                let _ = child.wait();
                break Err(format!("waiting for the command: {e}"));
            }
        }
    };
    // Whatever the shell left running (a background child holding the
    // pipes) ends with it.
    kill_group(pid);
    let (stdout, over) = out.and_then(|h| h.join().ok()).unwrap_or_default();
    let (stderr, _) = err.and_then(|h| h.join().ok()).unwrap_or_default();
    let last = String::from_utf8_lossy(&stderr)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| format!(": {}", l.trim()))
        .unwrap_or_default();
    let status = status.map_err(|why| fail(format!("{why}{last}")))?;
    if let Some(sig) = status.signal() {
        return Err(fail(format!(
            "the {} shader's translation died of {}{last}",
            stage.word(),
            signal_name(sig)
        )));
    }
    let exit = status.code(); // layering-ok: a process's exit status, not a D3D number
    // `sh` reports a command that died of signal N as status 128 + N.
    if let Some(sig) = exit.filter(|c| (129..=128 + 64).contains(c)) {
        return Err(fail(format!(
            "the {} shader's translation died of {} (the shell's status {}){last}",
            stage.word(),
            signal_name(sig - 128),
            sig
        )));
    }
    if !status.success() {
        return Err(fail(format!(
            "the {} shader's translation exited with status {}{last}",
            stage.word(),
            exit.unwrap_or(-1)
        )));
    }
    if over {
        return Err(fail(format!(
            "the {} shader's translation printed more than {MAX_OUTPUT} bytes",
            stage.word()
        )));
    }
    let text = String::from_utf8(stdout).map_err(|_| {
        fail(format!(
            "the {} shader's translation is not UTF-8 text",
            stage.word()
        ))
    })?;
    if text.trim().is_empty() {
        return Err(fail(format!(
            "the {} shader's translation printed nothing{last}",
            stage.word()
        )));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shaders() -> CaseShaders {
        CaseShaders {
            pixel: crate::dxbc::asm::test_shader(
                "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n",
            ),
            vertex: None,
        }
    }

    fn go(command: &str, limit: Duration) -> Result<String, TranslatorError> {
        let blobs = Blobs::write("t", &shaders()).unwrap();
        run(
            "t",
            &Template {
                command: command.into(),
            },
            Stage::Pixel,
            &blobs,
            limit,
        )
    }

    fn why(r: Result<String, TranslatorError>) -> String {
        match r {
            Err(TranslatorError::Command { translator, why }) => {
                assert_eq!(translator, "t");
                why
            }
            other => panic!("expected a command error, got {other:?}"),
        }
    }

    const LIMIT: Duration = Duration::from_secs(20);

    #[test]
    fn the_blob_has_a_made_up_rdef_and_the_folder_goes_with_it() {
        let blobs = Blobs::write("t", &shaders()).unwrap();
        let bytes = std::fs::read(&blobs.pixel).unwrap();
        let parsed = Shader::parse(&bytes, crate::dxbc::ParseOptions::default()).unwrap();
        let rdef = parsed.rdef.expect("RDEF");
        assert_eq!(rdef.constant_buffers[0].variables[0].name, "cb0");
        let dir = blobs.pixel.parent().unwrap().to_path_buf();
        drop(blobs);
        assert!(!dir.exists(), "{} left behind", dir.display());
    }

    #[test]
    fn placeholders_are_replaced_or_the_path_appended() {
        let out = go("printf '%s|' {ps}", LIMIT).unwrap();
        assert!(out.ends_with("ps.dxbc|"), "{out}");
        let out = go("printf '%s|' stage=$DXBC_DBG_STAGE", LIMIT).unwrap();
        assert!(
            out.starts_with("stage=pixel|") && out.ends_with("ps.dxbc|"),
            "{out}"
        );
        // The blob is read through the quoted path.
        let out = go("head -c 4 {dxbc}", LIMIT).unwrap();
        assert_eq!(out, "DXBC");
    }

    #[test]
    fn a_segfault_is_named() {
        // Killed directly (the shell replaced by the command) and through
        // the shell, which reports 128 + the signal.
        let w = why(go("exec sh -c 'kill -SEGV $$'", LIMIT));
        assert!(w.contains("died of SIGSEGV"), "{w}");
        let w = why(go("sh -c 'kill -SEGV $$'; exit $?", LIMIT));
        assert!(w.contains("died of SIGSEGV") && w.contains("139"), "{w}");
    }

    #[test]
    fn an_error_status_gives_the_last_stderr_line() {
        let w = why(go(
            "echo first >&2; echo 'bad blob' >&2; echo out; exit 1",
            LIMIT,
        ));
        assert!(w.ends_with("exited with status 1: bad blob"), "{w}");
    }

    #[test]
    fn no_output_is_an_error() {
        let w = why(go("echo only-stderr >&2; true", LIMIT));
        assert!(w.contains("printed nothing: only-stderr"), "{w}");
        let w = why(go("printf '\\n\\n'", LIMIT));
        assert!(w.contains("printed nothing"), "{w}");
    }

    fn alive(pid: i32) -> bool {
        // A zombie is dead: its state is Z.
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    }

    #[test]
    fn a_command_past_the_limit_is_stopped_with_its_children() {
        let dir = std::env::temp_dir().join(format!("dxbc-dbg-cmd-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pidfile = dir.join("pid");
        let start = Instant::now();
        let w = why(go(
            &format!(
                ": {{dxbc}}; sleep 30 & echo $! > {}; sleep 30",
                shell_quote(&pidfile.to_string_lossy())
            ),
            Duration::from_secs(1),
        ));
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        assert!(w.contains("ran past") && w.contains("stopped"), "{w}");
        let pid: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let gone = (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            !alive(pid)
        });
        assert!(gone, "the command's child {pid} was left running");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_background_child_is_ended_when_the_command_succeeds() {
        let dir = std::env::temp_dir().join(format!("dxbc-dbg-cmd-bg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pidfile = dir.join("pid");
        let out = go(
            &format!(
                ": {{dxbc}}; sleep 30 & echo $! > {}; echo text",
                shell_quote(&pidfile.to_string_lossy())
            ),
            LIMIT,
        )
        .unwrap();
        assert_eq!(out.trim(), "text");
        let pid: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let gone = (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            !alive(pid)
        });
        assert!(gone, "the command's child {pid} was left running");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
