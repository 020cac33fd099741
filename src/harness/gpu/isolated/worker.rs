//! The worker's side: `dxbc-dbg gpu-worker` reads requests on standard
//! input, draws them with a [`Gpu`] of its own and answers on standard
//! output, until its input ends.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::fd::FromRawFd;
use std::os::unix::ffi::OsStrExt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};

use super::protocol::{self, Failure, Reply, Request};
use crate::harness::case::{Case, CaseShaders};
use crate::harness::gpu::{Draw, Gpu, GpuError};

/// Test-only: makes the worker die as a crashing driver would when it is
/// asked to draw a named case, so the tests can show a run surviving it
/// (docs/harness.md, "Crash isolation"). A comma-separated list of
/// `SIGNAL:NAME`, SIGNAL `segv` or `abort`, NAME a case file's name less
/// `.case` (and less `.auto` for the cases `diff --auto` generates).
pub const CRASH_SWITCH: &str = "DXBC_DBG_TEST_WORKER_CRASH";

/// Serves the parent on standard input and output. The protocol gets a
/// private copy of standard output, and descriptor 1 becomes standard
/// error: whatever a driver or library prints cannot reach the pipe.
pub fn serve_stdio() -> io::Result<()> {
    // SAFETY: dup and dup2 on the process's own standard descriptors,
    // before any other thread of this process writes to them; the new
    // descriptor is owned by the File alone.
    let out = unsafe {
        let out = libc::dup(1);
        if out < 0 || libc::dup2(2, 1) < 0 {
            return Err(io::Error::last_os_error());
        }
        File::from_raw_fd(out)
    };
    serve(io::stdin().lock(), out)
}

/// Answers every request read from `input` on `output`, until `input`
/// ends between requests.
pub fn serve(input: impl Read, output: impl Write) -> io::Result<()> {
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    let crashes = std::env::var(CRASH_SWITCH)
        .map(|v| parse_crashes(&v))
        .unwrap_or(Ok(Vec::new()));
    let mut gpu: Option<Gpu> = None;
    while let Some((request, payloads)) = protocol::read_frame::<Request>(&mut input)? {
        let (reply, out) = match request {
            Request::Open { timeout_ms } => match Gpu::new() {
                Ok(g) => {
                    let adapter = g.adapter_name();
                    gpu = Some(g.with_timeout(std::time::Duration::from_millis(timeout_ms)));
                    (Reply::Opened { adapter }, Vec::new())
                }
                Err(e) => (Reply::Failed(failure(e)), Vec::new()),
            },
            Request::Refuses { options } => match (&gpu, job(&payloads)) {
                (None, _) => (not_open(), Vec::new()),
                (_, Err(e)) => (Reply::Failed(Failure::Other(e)), Vec::new()),
                (Some(g), Ok((case, shaders))) => (
                    Reply::Refusal(g.refusal(&case, &shaders, &options.to_glsl())),
                    Vec::new(),
                ),
            },
            Request::Draw { options } => match (&gpu, job(&payloads)) {
                (None, _) => (not_open(), Vec::new()),
                (_, Err(e)) => (Reply::Failed(Failure::Other(e)), Vec::new()),
                (Some(g), Ok((case, shaders))) => match &crashes {
                    Err(e) => (Reply::Failed(Failure::Other(e.clone())), Vec::new()),
                    Ok(list) => {
                        if let Some(signal) = crash_for(list, &case.path) {
                            crash(signal);
                        }
                        draw(g, &case, &shaders, &options.to_glsl())
                    }
                },
            },
        };
        let refs: Vec<&[u8]> = out.iter().map(Vec::as_slice).collect();
        protocol::write_frame(&mut output, &reply, &refs)?;
        output.flush()?;
    }
    Ok(())
}

fn not_open() -> Reply {
    Reply::Failed(Failure::Other(
        "the worker was asked to draw before opening its device".into(),
    ))
}

fn failure(e: GpuError) -> Failure {
    match e {
        GpuError::NoAdapter(why) => Failure::NoAdapter(why),
        GpuError::Timeout(d) => Failure::Timeout {
            ms: d.as_millis() as u64,
        },
        e => Failure::Other(e.to_string()),
    }
}

/// The case and shaders of a `Refuses` or `Draw` request's payloads.
fn job(payloads: &[Vec<u8>]) -> Result<(Case, CaseShaders), String> {
    let [path, text, pixel, pixel_offsets, rest @ ..] = payloads else {
        return Err(format!(
            "a draw request with {} payloads, not 4 or 6",
            payloads.len()
        ));
    };
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(path));
    let text = std::str::from_utf8(text).map_err(|e| format!("the case text: {e}"))?;
    let case = Case::parse(text, &path).map_err(|e| e.to_string())?;
    let bad = |e: String| format!("{}: the shader sent to the worker: {e}", path.display());
    let parse = |bytes: &[u8], offsets: &[u8]| {
        let mut shader = crate::dxbc::Shader::parse(bytes, crate::dxbc::ParseOptions::default())
            .map_err(|e| bad(e.to_string()))?;
        // Messages name instructions by their offsets in the original.
        let offsets = protocol::words_from(offsets).map_err(bad)?;
        if offsets.len() != shader.program.instructions.len() {
            return Err(bad(format!(
                "{} offsets for {} instructions",
                offsets.len(),
                shader.program.instructions.len()
            )));
        }
        for (i, at) in shader.program.instructions.iter_mut().zip(offsets) {
            i.offset = at as usize;
        }
        Ok(shader)
    };
    let vertex = match rest {
        [] => None,
        [v, offsets] => Some(parse(v, offsets)?),
        _ => return Err("a draw request with more than two shaders".into()),
    };
    Ok((
        case,
        CaseShaders {
            pixel: parse(pixel, pixel_offsets)?,
            vertex,
        },
    ))
}

/// One draw and its reply. A panic in the draw is the case's failure,
/// not the worker's end.
fn draw(
    gpu: &Gpu,
    case: &Case,
    shaders: &CaseShaders,
    options: &crate::glsl::Options,
) -> (Reply, Vec<Vec<u8>>) {
    let drawn = std::panic::catch_unwind(AssertUnwindSafe(|| gpu.draw(case, shaders, options)));
    let drawing = match drawn {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => return (Reply::Failed(failure(e)), Vec::new()),
        Err(p) => {
            let why = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            return (
                Reply::Failed(Failure::Other(format!(
                    "{}: the draw panicked: {why}",
                    case.path.display()
                ))),
                Vec::new(),
            );
        }
    };
    let mut out: Vec<Vec<u8>> = drawing.images.iter().map(protocol::image_bytes).collect();
    out.extend(
        drawing
            .uavs
            .iter()
            .map(|(_, b)| protocol::words_bytes(&b.words)),
    );
    if let Some(words) = &drawing.capture {
        out.push(protocol::words_bytes(words));
    }
    let reply = Reply::Drawn {
        images: drawing.images.iter().map(|i| (i.width, i.height)).collect(),
        uavs: drawing.uavs.iter().map(|(s, b)| (*s, b.counter)).collect(),
        capture: drawing.capture.is_some(),
        notes: drawing.notes,
    };
    (reply, out)
}

/// How the test-only switch makes the worker die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Crash {
    Segv,
    Abort,
}

fn parse_crashes(value: &str) -> Result<Vec<(Crash, String)>, String> {
    value
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|item| {
            let bad = || format!("{CRASH_SWITCH}: `{item}` is not segv:NAME or abort:NAME");
            let (signal, name) = item.trim().split_once(':').ok_or_else(bad)?;
            let signal = match signal {
                "segv" => Crash::Segv,
                "abort" => Crash::Abort,
                _ => return Err(bad()),
            };
            if name.is_empty() {
                return Err(bad());
            }
            Ok((signal, name.to_string()))
        })
        .collect()
}

/// The crash the switch names for the case at `path`, if any.
fn crash_for(list: &[(Crash, String)], path: &Path) -> Option<Crash> {
    let file = path.file_name()?.to_str()?;
    let name = file.strip_suffix(".case").unwrap_or(file);
    let name = name.strip_suffix(".auto").unwrap_or(name);
    list.iter().find(|(_, n)| n == name).map(|(c, _)| *c)
}

fn crash(how: Crash) -> ! {
    match how {
        Crash::Segv => {
            // SAFETY: signal and raise on this process. The runtime's own
            // SIGSEGV handler (stack overflow detection) would return from
            // a raised signal and let the process go on; the default
            // action ends it as a faulting driver would.
            unsafe {
                libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                libc::raise(libc::SIGSEGV);
            }
            std::process::abort()
        }
        Crash::Abort => std::process::abort(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crash_switch_names_cases_by_file_name() {
        let list = parse_crashes("segv:alpha, abort:beta").unwrap();
        assert_eq!(
            crash_for(&list, Path::new("x/alpha.case")),
            Some(Crash::Segv)
        );
        assert_eq!(
            crash_for(&list, Path::new("beta.auto.case")),
            Some(Crash::Abort)
        );
        assert_eq!(crash_for(&list, Path::new("alphabet.case")), None);
        assert_eq!(crash_for(&list, Path::new("gamma.case")), None);
        for bad in ["kill:alpha", "segv", "segv:"] {
            let e = parse_crashes(bad).unwrap_err();
            assert!(e.contains(CRASH_SWITCH) && e.contains(bad), "{e}");
        }
        assert!(parse_crashes("").unwrap().is_empty());
    }
}
