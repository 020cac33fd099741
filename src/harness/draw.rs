//! The pixel stage of a CPU draw: every 2x2 quad of the target shaded on
//! the emulator and merged into the targets' samples and the depth buffer
//! (see `cpu` for what a case draws and how its outputs are stored).
//!
//! A frame is hundreds of thousands of quads of a few instructions each,
//! so what is the same for every quad is done once: the rasterizer's
//! per-draw state ([`QuadRaster`]), the prepared program, and one machine
//! per worker, restarted on each quad ([`Machine::restart`]) instead of
//! built anew.
//!
//! Rows of quads run in parallel on the current rayon pool: each pixel's
//! result depends only on its own quad, and each row writes only its own
//! two rows of samples, so the images are bit-identical to a serial run.
//! Three things keep a draw serial, in row-major quad order:
//! * the shader uses UAVs (or the case binds some): D3D leaves the order of
//!   UAV writes and atomics across pixels undefined, but a case's expected
//!   buffer contents, and its goldens, are those of one order, this one;
//! * the caller is already a rayon worker (a suite running cases in
//!   parallel, `--jobs`): its pool is busy with other cases, and splitting
//!   each frame too would only add overhead;
//! * the frame is small (a few hundred quads), where splitting costs more
//!   than it saves.
//!
//! An error (a quad past the instruction budget, an operand the emulator
//! does not model) is the first one in row-major order either way: rows
//! below a failed row stop early, rows above it still run.

use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::case::Case;
use super::cpu::{CpuError, Target, bind_constant_buffers};
use super::raster::{QuadRaster, TRIANGLE_COUNT};
use super::render_targets::TargetPlan;
use crate::dxbc::Shader;
use crate::dxbc::ir::OperandType;
use crate::vm::defaults::PixelChoice;
use crate::vm::memory::Buffer;
use crate::vm::state::Setup;
use crate::vm::{Machine, Prepared, Resources};

/// Fewer quads than this are drawn on the calling thread.
const PARALLEL_QUADS: u32 = 1024;

/// What every quad of one draw shares.
pub struct Pass<'a> {
    pub case: &'a Case,
    pub pixel: &'a Shader,
    pub file: &'a str,
    pub targets: &'a [Target],
    pub plans: &'a [TargetPlan],
    pub resources: &'a Resources,
    /// `None` for one pixel-frequency run per quad and triangle, else one
    /// run per sample.
    pub runs: &'a [Option<u32>],
    pub writes_depth: bool,
    /// The viewport's depth range, which depth is clamped to.
    pub range: [f32; 2],
}

/// The target rows one row of quads writes.
struct Row<'b> {
    /// Top pixel row of the quads.
    qy: u32,
    /// Per target, its samples in the row's pixel rows.
    samples: Vec<&'b mut [[f32; 4]]>,
    depth: Option<&'b mut [f32]>,
}

/// One thread's machine, restarted on each quad it shades, and the setup
/// the rasterizer fills for it.
struct Worker {
    machine: Machine,
    quad: Setup,
}

impl Pass<'_> {
    /// A worker for this draw. Each thread prepares its own program: the
    /// machine's shared parts are reference-counted for one thread.
    fn worker(&self) -> Result<Worker, CpuError> {
        let prepared = Prepared::new(Rc::new(self.pixel.program.clone())).map_err(|source| {
            CpuError::Program {
                file: self.file.to_string(),
                source,
            }
        })?;
        let mut setup = Setup::empty();
        setup.sample_count = self.case.samples;
        bind_constant_buffers(self.case, &mut setup);
        let mut machine = Machine::prepared(prepared, setup, Rc::new(self.resources.clone()));
        machine.set_recording(false);
        Ok(Worker {
            machine,
            quad: Setup::empty(),
        })
    }

    /// Whether the shader can touch UAVs: declared or bound ones.
    fn uses_uavs(&self) -> bool {
        !self.case.uavs.is_empty()
            || self.pixel.program.instructions.iter().any(|i| {
                i.operands
                    .iter()
                    .any(|o| o.ty == OperandType::UNORDERED_ACCESS_VIEW)
            })
    }

    /// Shades every quad into `samples` (per target, pixel `(x, y)`'s
    /// sample `s` at `(y * w + x) * n + s`) and `depth`; returns the UAVs
    /// as the draw left them.
    pub fn draw(
        &self,
        samples: &mut [Vec<[f32; 4]>],
        depth: Option<&mut Vec<f32>>,
        uavs: Vec<Option<Buffer>>,
    ) -> Result<Vec<Option<Buffer>>, CpuError> {
        // Made first, so a program that cannot run is an error whatever
        // the target's size.
        let mut first = self.worker()?;
        let (w, h) = (self.case.width, self.case.height);
        if w == 0 || h == 0 {
            return Ok(uavs);
        }
        let raster = QuadRaster::new(self.case, self.pixel);
        let n = self.case.samples.max(1) as usize;
        let row_pixels = 2 * w as usize;
        let mut rows: Vec<Row> = (0..h.div_ceil(2))
            .map(|i| Row {
                qy: 2 * i,
                samples: Vec::with_capacity(samples.len()),
                depth: None,
            })
            .collect();
        for buf in samples.iter_mut() {
            for (row, chunk) in rows.iter_mut().zip(buf.chunks_mut(row_pixels * n)) {
                row.samples.push(chunk);
            }
        }
        if let Some(d) = depth {
            for (row, chunk) in rows.iter_mut().zip(d.chunks_mut(row_pixels)) {
                row.depth = Some(chunk);
            }
        }
        let quads = w.div_ceil(2) * h.div_ceil(2);
        let serial = self.uses_uavs()
            || rayon::current_thread_index().is_some()
            || quads < PARALLEL_QUADS
            || rayon::current_num_threads() < 2;
        if serial {
            first.machine.set_uavs(uavs);
            for row in rows {
                self.row(&raster, &mut first, row)?;
            }
            return Ok(first.machine.take_uavs());
        }
        // The first failed row: rows below it need not run.
        let failed = AtomicUsize::new(usize::MAX);
        let results: Vec<Result<(), CpuError>> = rows
            .into_par_iter()
            .enumerate()
            .map_init(
                || self.worker(),
                |worker, (i, row)| {
                    if i > failed.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    let worker = worker.as_mut().map_err(|e| e.clone())?;
                    let result = self.row(&raster, worker, row);
                    if result.is_err() {
                        failed.fetch_min(i, Ordering::Relaxed);
                    }
                    result
                },
            )
            .collect();
        results.into_iter().collect::<Result<(), _>>()?;
        Ok(uavs)
    }

    /// Shades one row of quads, left to right.
    fn row(&self, raster: &QuadRaster, worker: &mut Worker, mut row: Row) -> Result<(), CpuError> {
        let case = self.case;
        let n = case.samples.max(1);
        for qx in (0..case.width).step_by(2) {
            let choice = PixelChoice {
                x: qx,
                y: row.qy,
                width: case.width,
                height: case.height,
            };
            // One run per triangle and per sample run, as a GPU shades a
            // quad the diagonal crosses once for each triangle.
            let passes = (0..TRIANGLE_COUNT).flat_map(|t| self.runs.iter().map(move |&r| (t, r)));
            for (triangle, run) in passes {
                let Some(lane_depth) = raster.fill(&mut worker.quad, choice, run, triangle, false)
                else {
                    continue;
                };
                let m = &mut worker.machine;
                m.restart(&worker.quad);
                m.run_to_end().map_err(|source| CpuError::Pixel {
                    file: self.file.to_string(),
                    x: qx,
                    y: row.qy,
                    source,
                })?;
                let (helper, covered) = (worker.quad.helper, worker.quad.coverage);
                let discarded = m.discarded();
                for (lane, (px, py)) in choice.lane_pixels().into_iter().enumerate() {
                    if helper[lane] || discarded[lane] || px >= case.width || py >= case.height {
                        continue;
                    }
                    let state = &m.state.lanes[lane];
                    let pixel = ((py - row.qy) * case.width + px) as usize;
                    // The depth buffer is single-sampled: a case loads only
                    // when `[depth]` and a multisampled target are not both
                    // given, so this is the one sample's test.
                    if let (Some(d), Some(buf)) = (&case.depth, row.depth.as_deref_mut()) {
                        let z = if self.writes_depth {
                            f32::from_bits(state.depth)
                        } else {
                            lane_depth[lane]
                        };
                        let (pass, store) = d.state.test(z, self.range, buf[pixel]);
                        if !pass {
                            continue;
                        }
                        if let Some(z) = store {
                            buf[pixel] = z;
                        }
                    }
                    // oMask starts all ones, so a shader without one
                    // writes every covered sample.
                    let mask = covered[lane] & state.coverage;
                    let at = pixel * n as usize;
                    for ((t, plan), buf) in self
                        .targets
                        .iter()
                        .zip(self.plans)
                        .zip(row.samples.iter_mut())
                    {
                        let raw = state
                            .outputs
                            .get(t.register as usize)
                            .copied()
                            .unwrap_or([0; 4]);
                        let raw =
                            std::array::from_fn(
                                |c| {
                                    if t.mask & (1 << c) != 0 { raw[c] } else { 0 }
                                },
                            );
                        let texel = plan.written(raw);
                        for s in (0..n).filter(|s| mask & (1 << s) != 0) {
                            buf[at + s as usize] = texel;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
