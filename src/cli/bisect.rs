//! `dxbc-dbg bisect`: the first instruction at which a pixel's registers on
//! the GPU differ from the emulator's (docs/bisect.md). Exit 0 when none
//! differs, 1 when one does, 2 when the bisection cannot run.

use std::path::{Path, PathBuf};

use anyhow::Result;
use dxbc_dbg::dxbc::numfmt;
use dxbc_dbg::harness::bisect::{Bisection, Divergence, Kind};
use dxbc_dbg::harness::case::Case;
// `0.500000 (0x3f000000)`, `-inf (0xff800000)`: the one formatter the
// HTML report's bisection also uses.
use dxbc_dbg::harness::results::bisect::value;
use dxbc_dbg::vm::state::Reg;
use dxbc_dbg::{glsl, harness};
use serde_json::{Value, json};

use super::Outcome;

/// Which GPU backend records the registers.
pub enum On {
    Vulkan,
    WebGl2 {
        browser: Option<PathBuf>,
        angle: harness::webgl2::Angle,
    },
}

/// What `bisect` was asked.
pub struct Request<'a> {
    pub case: &'a Path,
    pub pixel: (u32, u32),
    /// The lane of the pixel's quad compared (default: the pixel's own).
    pub lane: Option<u8>,
    pub backend: On,
    pub json: bool,
}

pub fn bisect_command(req: Request) -> Result<Outcome> {
    let unusable = |m: String| Ok(Outcome::Unusable(m));
    let case = match Case::load(req.case) {
        Ok(c) => c,
        Err(e) => return unusable(e.to_string()),
    };
    let shaders = match case.shaders() {
        Ok(s) => s,
        Err(e) => return unusable(e.to_string()),
    };
    let stages: Vec<&dxbc_dbg::dxbc::Shader> = std::iter::once(&shaders.pixel)
        .chain(&shaders.vertex)
        .collect();
    if let Err(e) = case.check_bindings(&stages) {
        return unusable(e.to_string());
    }
    let pixel = match req.lane {
        Some(l) => {
            let (qx, qy) = (req.pixel.0 & !1, req.pixel.1 & !1);
            (qx + u32::from(l & 1), qy + u32::from(l >> 1))
        }
        None => req.pixel,
    };
    let found = match req.backend {
        On::Vulkan => vulkan(&case, &shaders, pixel),
        On::WebGl2 { browser, angle } => webgl2(&case, &shaders, pixel, browser, angle),
    };
    let (on, b) = match found {
        Ok(found) => found,
        Err(why) => return unusable(why),
    };
    if req.json {
        println!("{}", to_json(&case, &on, &b));
    } else {
        print!("{}", to_text(&case, &on, &b));
    }
    Ok(if b.divergence.is_some() {
        Outcome::Failed
    } else {
        Outcome::Done
    })
}

/// The backend a bisection ran on, for the output: its name (`vulkan`,
/// `webgl2`), title and what drew (adapter, browser).
pub struct Ran {
    pub backend: &'static str,
    pub title: &'static str,
    pub adapter: String,
}

#[cfg(feature = "gpu")]
fn vulkan(
    case: &Case,
    shaders: &harness::case::CaseShaders,
    pixel: (u32, u32),
) -> Result<(Ran, Bisection), String> {
    use harness::gpu::Draw;
    use harness::gpu::isolated::{Isolated, WorkerCommand};
    // A worker process draws, so a driver crash is reported as such.
    let command = WorkerCommand::this_executable()
        .map_err(|e| format!("the vulkan backend: cannot find this executable: {e}"))?;
    let gpu = Isolated::open(command, harness::gpu::DEFAULT_DRAW_TIMEOUT).map_err(|e| {
        format!("the vulkan backend: {e}; install a Vulkan driver (Mesa's lavapipe without a GPU)")
    })?;
    let options = glsl::Options::new(glsl::Dialect::Vk450);
    let bar = super::progress::Bar::new();
    let b = harness::bisect::vulkan_reporting(&gpu, case, shaders, pixel, &options, &bar)
        .map(|p| p.bisection)
        .map_err(|e| format!("{}: {e}", case.path.display()))?;
    bar.finish();
    let ran = Ran {
        backend: "vulkan",
        title: "Vulkan",
        adapter: gpu.adapter_name(),
    };
    Ok((ran, b))
}

#[cfg(not(feature = "gpu"))]
fn vulkan(
    _case: &Case,
    _shaders: &harness::case::CaseShaders,
    _pixel: (u32, u32),
) -> Result<(Ran, Bisection), String> {
    Err("the vulkan backend is not built in (build with the `gpu` feature)".into())
}

fn webgl2(
    case: &Case,
    shaders: &harness::case::CaseShaders,
    pixel: (u32, u32),
    browser: Option<PathBuf>,
    angle: harness::webgl2::Angle,
) -> Result<(Ran, Bisection), String> {
    use harness::webgl2::{Config, WebGl2, WebGl2Error};
    let config = Config {
        browser,
        angle,
        ..Config::default()
    };
    let webgl2 = WebGl2::new(config).map_err(|e| match e {
        // As the drawing commands say it (their exit 4 is bisect's 2).
        WebGl2Error::NoBrowser(why) => format!(
            "no browser ({why}); the webgl2 backend needs headless Chromium (Debian's \
             chromium-headless-shell) or --browser PATH"
        ),
        e => e.to_string(),
    })?;
    let options = glsl::Options::new(glsl::Dialect::Es300);
    let bar = super::progress::Bar::new();
    let b = harness::bisect::webgl2_reporting(&webgl2, &[(case, shaders, pixel)], &options, &bar)
        .pop()
        .unwrap_or_else(|| {
            Err(harness::bisect::BisectError::Other(
                "no bisection came back".into(),
            ))
        })
        .map(|p| p.bisection)
        .map_err(|e| format!("{}: {e}", case.path.display()))?;
    bar.finish();
    let ran = Ran {
        backend: "webgl2",
        title: "WebGL2",
        adapter: webgl2.name(),
    };
    Ok((ran, b))
}

fn reg_text(r: Option<Reg>) -> String {
    match r {
        Some(r) => {
            let v: Vec<String> = r.iter().map(|b| value(*b)).collect();
            format!("({})", v.join(", "))
        }
        None => "(not written yet)".into(),
    }
}

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

pub fn to_text(case: &Case, on: &Ran, b: &Bisection) -> String {
    let mut s = format!(
        "{} pixel ({},{}) on {} ({}): {} step(s) compared (emulator {}, GPU {}){}\n",
        case.path.display(),
        b.pixel.0,
        b.pixel.1,
        on.title,
        on.adapter,
        b.compared,
        b.emulator_steps,
        b.gpu_steps,
        if b.truncated {
            "; the run outgrew the capture, only its beginning is compared"
        } else {
            ""
        }
    );
    let Some(d) = &b.divergence else {
        s.push_str("no divergence\n");
        return s;
    };
    s.push_str(&divergence_text(d));
    s
}

fn divergence_text(d: &Divergence) -> String {
    let lines = d.glsl_lines.map_or("no GLSL lines".into(), |(a, b)| {
        format!("GLSL lines {a}-{b}")
    });
    let at = d.step.map_or("at entry".into(), |s| format!("step {s}"));
    let mut s = format!(
        "first divergence: instruction {} `{}` ({lines}), {at}\n",
        d.index, d.text
    );
    match &d.kind {
        Kind::Input {
            register,
            component,
            emulator,
            gpu,
        } => s.push_str(&format!(
            "  input v{register}.{}: emulator {}, GPU {}\n",
            XYZW[*component],
            value(*emulator),
            value(*gpu)
        )),
        Kind::Value {
            register,
            component,
            emulator,
            gpu,
        } => s.push_str(&format!(
            "  {register}.{}: emulator {}, GPU {}\n",
            XYZW[*component],
            value(*emulator),
            value(*gpu)
        )),
        Kind::Register { emulator, gpu } => s.push_str(&format!(
            "  wrote {} on the emulator, {} on the GPU\n",
            locs(emulator),
            locs(gpu)
        )),
        Kind::Path {
            emulator_next,
            gpu_next,
        } => s.push_str(&format!(
            "  the paths part here: next the emulator runs {}, the GPU {}\n",
            next(*emulator_next),
            next(*gpu_next)
        )),
    }
    for src in &d.sources {
        s.push_str(&format!(
            "  source {} = {}: emulator {}, GPU {}\n",
            src.operand,
            src.register,
            reg_text(src.emulator),
            reg_text(src.gpu)
        ));
    }
    s
}

fn locs(l: &[dxbc_dbg::vm::state::Loc]) -> String {
    let v: Vec<String> = l.iter().map(ToString::to_string).collect();
    if v.is_empty() {
        "nothing".into()
    } else {
        v.join(", ")
    }
}

fn next(i: Option<usize>) -> String {
    i.map_or("nothing (it had ended)".into(), |i| {
        format!("instruction {i}")
    })
}

fn bits_json(bits: u32) -> Value {
    json!({
        "bits": format!("0x{bits:08x}"),
        "float": numfmt::format_float(bits, Default::default()),
    })
}

fn reg_json(r: Option<Reg>) -> Value {
    match r {
        Some(r) => Value::Array(r.iter().map(|b| bits_json(*b)).collect()),
        None => Value::Null,
    }
}

pub fn to_json(case: &Case, on: &Ran, b: &Bisection) -> Value {
    let divergence = b.divergence.as_ref().map(|d| {
        let mut kind = match &d.kind {
            Kind::Input {
                register,
                component,
                emulator,
                gpu,
            } => json!({"kind": "input", "register": format!("v{register}"),
                "component": XYZW[*component].to_string(),
                "emulator": bits_json(*emulator), "gpu": bits_json(*gpu)}),
            Kind::Value {
                register,
                component,
                emulator,
                gpu,
            } => json!({"kind": "value", "register": register.to_string(),
                "component": XYZW[*component].to_string(),
                "emulator": bits_json(*emulator), "gpu": bits_json(*gpu)}),
            Kind::Register { emulator, gpu } => json!({"kind": "register",
                "emulator": emulator.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "gpu": gpu.iter().map(ToString::to_string).collect::<Vec<_>>()}),
            Kind::Path {
                emulator_next,
                gpu_next,
            } => json!({"kind": "path", "emulator_next": emulator_next, "gpu_next": gpu_next}),
        };
        let sources: Vec<Value> = d
            .sources
            .iter()
            .map(|s| {
                json!({"operand": s.operand, "register": s.register,
                    "emulator": reg_json(s.emulator), "gpu": reg_json(s.gpu)})
            })
            .collect();
        if let Value::Object(m) = &mut kind {
            m.insert("index".into(), json!(d.index));
            m.insert("step".into(), json!(d.step));
            m.insert("text".into(), json!(d.text));
            m.insert(
                "glsl_lines".into(),
                json!(d.glsl_lines.map(|(a, b)| [a, b])),
            );
            m.insert("sources".into(), Value::Array(sources));
        }
        kind
    });
    json!({
        "case": case.path.display().to_string(),
        "pixel": [b.pixel.0, b.pixel.1],
        "backend": on.backend,
        "adapter": on.adapter,
        "compared": b.compared,
        "emulator_steps": b.emulator_steps,
        "gpu_steps": b.gpu_steps,
        "truncated": b.truncated,
        "divergence": divergence,
    })
}
