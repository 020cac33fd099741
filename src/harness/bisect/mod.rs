//! `bisect`: where, along one pixel's executed path, the translated shader
//! running on a GPU first disagrees with the emulator (docs/bisect.md).
//!
//! Both sides give a [`Path`]: the pixel's input registers, then one
//! [`Step`] per executed instruction (`Op::is_path_step`; loops once per
//! iteration) with the registers it wrote as exact bits after it. The
//! emulator's comes from running the pixel's quad (`emulator`), the GPU's
//! from the register capture of the translation (`glsl::capture`): a
//! storage buffer in vk450, read back by `harness::gpu`; windows of
//! records in integer outputs in es300, drawn by `harness::webgl2`
//! (`webgl2`). [`compare`] walks the two in step and
//! returns the first divergence, typed, for the CLI, reports and the
//! debugger alike.

mod compare;
mod emulator;
mod registers;
mod webgl2;

use crate::dxbc::ir::Program;
use crate::glsl::capture::{self, CaptureFile};
use crate::vm::state::{Loc, Reg};

pub use compare::{Bisection, Divergence, Kind, Source, compare};
pub use emulator::emulator_path;
pub use registers::{Components, Registers, Written, agree};
pub use webgl2::{webgl2, webgl2_all, webgl2_paths_all, webgl2_reporting};

/// One executed instruction and the registers it wrote (none for flow,
/// stores and the like; two for an instruction with two destinations).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub index: usize,
    pub writes: Vec<(Loc, Reg)>,
}

/// One pixel's run, on either side.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Path {
    /// Input registers (`v#`) at entry.
    pub inputs: Vec<(u32, Reg)>,
    pub steps: Vec<Step>,
    /// The run went on past [`capture::CAPACITY`] records; `steps` is its
    /// beginning.
    pub overflowed: bool,
    /// The emulator's: the step at which its lane took a `discard`. The
    /// lane runs on after it (as D3D's does, for its quad's derivatives),
    /// so the path goes on; a vk450 invocation ends there instead, so the
    /// GPU's path shows it by stopping at the `discard` (`compare`).
    pub discarded_at: Option<usize>,
}

/// Both sides' paths with what [`compare`] made of them: what the
/// debugger shows beside its own run.
#[derive(Debug, Clone, PartialEq)]
pub struct Paths {
    pub emulator: Path,
    pub gpu: Path,
    pub bisection: Bisection,
}

/// Why a bisection could not run.
#[derive(Debug, thiserror::Error)]
pub enum BisectError {
    #[error("pixel ({x},{y}) is outside the {width}x{height} target")]
    Outside {
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    },
    #[error(
        "pixel ({x},{y}) is a helper lane of its quad: the quad's triangle does not cover it, \
         so no invocation of the GPU's records it; pick a covered pixel"
    )]
    Helper { x: u32, y: u32 },
    #[error(
        "the case draws into a {0}-sample target: bisect compares one invocation per pixel, \
         single-sampled targets only"
    )]
    Multisample(u32),
    /// Anything else, with what failed.
    #[error("{0}")]
    Other(String),
    #[cfg(feature = "gpu")]
    #[error("{0}")]
    Gpu(#[from] super::gpu::GpuError),
}

/// The GPU's [`Path`] from the capture buffer's words (header and
/// records), grouping each instruction's records by
/// `capture::recorded_destinations`.
pub fn gpu_path(program: &Program, words: &[u32]) -> Result<Path, String> {
    let (header, size) = (capture::HEADER_WORDS, capture::RECORD_WORDS);
    if words.len() < header {
        return Err("the capture buffer has no header".into());
    }
    let count = words[0] as usize;
    let overflowed = words[1] != 0;
    let records: Vec<&[u32]> = words[header..].chunks_exact(size).take(count).collect();
    let mut path = Path {
        overflowed,
        ..Path::default()
    };
    let mut at = 0;
    while at < records.len() && records[at][0] == capture::ENTRY {
        let r = records[at];
        path.inputs.push((r[2], [r[4], r[5], r[6], r[7]]));
        at += 1;
    }
    while at < records.len() {
        let index = records[at][0] as usize;
        let inst = program.instructions.get(index).ok_or_else(|| {
            format!(
                "capture record {at} names instruction {index}, past the program's {}",
                program.instructions.len()
            )
        })?;
        let n = capture::recorded_destinations(inst).len().max(1);
        let group = &records[at..(at + n).min(records.len())];
        let mut step = Step {
            index,
            writes: Vec::new(),
        };
        for r in group {
            if r[0] as usize != index {
                return Err(format!(
                    "capture record for instruction {} where instruction {index}'s {n} were due",
                    r[0]
                ));
            }
            let loc = match CaptureFile::from_word(r[1]) {
                Some(CaptureFile::None) => continue,
                Some(CaptureFile::Temp) => Loc::Temp(r[2]),
                Some(CaptureFile::Indexable) => Loc::Indexable(r[2], r[3]),
                Some(CaptureFile::Output) => Loc::Output(r[2]),
                Some(CaptureFile::Depth) => Loc::Depth,
                Some(CaptureFile::Coverage) => Loc::Coverage,
                Some(CaptureFile::Input) | None => {
                    return Err(format!(
                        "capture record for instruction {index} has register file code {}",
                        r[1]
                    ));
                }
            };
            step.writes.push((loc, [r[4], r[5], r[6], r[7]]));
        }
        path.steps.push(step);
        at += group.len();
    }
    Ok(path)
}

/// Bisects `case` at pixel `(x, y)` on Vulkan: the emulator's path beside
/// the capture of the vk450 translation made with `options` (its fault
/// injections included; `dialect` and `capture` are set here), drawn by
/// `gpu` in this process or in a worker (`harness::gpu::Draw`).
#[cfg(feature = "gpu")]
pub fn vulkan(
    gpu: &(impl super::gpu::Draw + ?Sized),
    case: &super::case::Case,
    shaders: &super::case::CaseShaders,
    pixel: (u32, u32),
    options: &crate::glsl::Options,
) -> Result<Bisection, BisectError> {
    vulkan_paths(gpu, case, shaders, pixel, options).map(|p| p.bisection)
}

/// [`vulkan`], keeping both sides' paths.
#[cfg(feature = "gpu")]
pub fn vulkan_paths(
    gpu: &(impl super::gpu::Draw + ?Sized),
    case: &super::case::Case,
    shaders: &super::case::CaseShaders,
    pixel: (u32, u32),
    options: &crate::glsl::Options,
) -> Result<Paths, BisectError> {
    vulkan_reporting(gpu, case, shaders, pixel, options, &())
}

/// [`vulkan_paths`], telling `progress` of each stage: the emulator's
/// path, the capture's draw, the comparison.
#[cfg(feature = "gpu")]
pub fn vulkan_reporting(
    gpu: &(impl super::gpu::Draw + ?Sized),
    case: &super::case::Case,
    shaders: &super::case::CaseShaders,
    pixel: (u32, u32),
    options: &crate::glsl::Options,
    progress: &dyn super::progress::Progress,
) -> Result<Paths, BisectError> {
    let backend = super::suite::Backend::Vulkan;
    if let Some(req) = case.requires.iter().find(|q| !backend.supports(q.feature)) {
        return Err(BisectError::Other(format!(
            "not applicable on vulkan: the case requires {}: {}",
            req.feature.name(),
            req.reason
        )));
    }
    progress.stage("emulator path", 1);
    let emulator = emulator_path(case, shaders, pixel)?;
    progress.advance(1, "");
    let mut options = options.clone();
    options.dialect = crate::glsl::Dialect::Vk450;
    options.capture = None;
    // The lines shown are those of the translation `glsl` prints, not
    // of the instrumented text.
    let plain = super::runtime::translate(case, shaders, &options, crate::glsl::Dialect::Vk450)
        .map_err(BisectError::Other)?;
    options.capture = Some(crate::glsl::CapturePixel {
        x: pixel.0,
        y: pixel.1,
    });
    progress.stage("capture on vulkan", 1);
    let drawing = gpu.draw(case, shaders, &options)?;
    progress.advance(1, "");
    let words = drawing
        .capture
        .ok_or_else(|| BisectError::Other("the draw gave no capture buffer back".into()))?;
    let gpu_side = gpu_path(&shaders.pixel.program, &words)
        .map_err(|e| BisectError::Other(format!("{}: {e}", case.path.display())))?;
    let bisection = compare(
        &shaders.pixel,
        &plain.pixel.map,
        &case.tolerance,
        pixel,
        &emulator,
        &gpu_side,
    );
    Ok(Paths {
        emulator,
        gpu: gpu_side,
        bisection,
    })
}
