//! The machine's registers as raw 32-bit lanes, and what a test or case
//! provides before a run (inputs, constant buffers, resources). Views as
//! float/int/uint/hex are display choices made elsewhere.

use crate::dxbc::analysis::Registers;
use crate::dxbc::ir::Program;

/// Four 32-bit components.
pub type Reg = [u32; 4];

/// Pixel shaders run 2x2 quads: lane 0 top-left, 1 top-right, 2 bottom-left,
/// 3 bottom-right. Vertex shaders use lane 0 (and may fill all four).
pub const LANES: usize = 4;

/// Where a register value lives, for change records and display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    Temp(u32),
    /// `x#[i]`.
    Indexable(u32, u32),
    Output(u32),
    /// `oDepth` (and its conservative variants).
    Depth,
    /// `oMask`.
    Coverage,
    StencilRef,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loc::Temp(i) => write!(f, "r{i}"),
            Loc::Indexable(r, i) => write!(f, "x{r}[{i}]"),
            Loc::Output(i) => write!(f, "o{i}"),
            Loc::Depth => write!(f, "oDepth"),
            Loc::Coverage => write!(f, "oMask"),
            Loc::StencilRef => write!(f, "oStencilRef"),
        }
    }
}

/// One lane's writable registers.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneRegs {
    pub temps: Vec<Reg>,
    /// Indexable temps by `x#`; each is its declared array.
    pub indexable: Vec<Vec<Reg>>,
    pub outputs: Vec<Reg>,
    pub depth: u32,
    pub coverage: u32,
    pub stencil_ref: u32,
}

impl LaneRegs {
    pub fn get(&self, loc: Loc) -> Option<&Reg> {
        match loc {
            Loc::Temp(i) => self.temps.get(i as usize),
            Loc::Indexable(r, i) => self.indexable.get(r as usize)?.get(i as usize),
            Loc::Output(i) => self.outputs.get(i as usize),
            _ => None,
        }
    }

    /// A mutable register (`None` for the scalar outputs and past the
    /// declared sizes).
    pub fn reg_mut(&mut self, loc: Loc) -> Option<&mut Reg> {
        match loc {
            Loc::Temp(i) => self.temps.get_mut(i as usize),
            Loc::Indexable(r, i) => self.indexable.get_mut(r as usize)?.get_mut(i as usize),
            Loc::Output(i) => self.outputs.get_mut(i as usize),
            _ => None,
        }
    }

    /// A mutable component, growing nothing: out-of-range writes are dropped
    /// as D3D drops them.
    pub fn component_mut(&mut self, loc: Loc, c: usize) -> Option<&mut u32> {
        match loc {
            Loc::Temp(i) => self.temps.get_mut(i as usize).map(|r| &mut r[c]),
            Loc::Indexable(r, i) => self
                .indexable
                .get_mut(r as usize)?
                .get_mut(i as usize)
                .map(|r| &mut r[c]),
            Loc::Output(i) => self.outputs.get_mut(i as usize).map(|r| &mut r[c]),
            Loc::Depth => Some(&mut self.depth),
            Loc::Coverage => Some(&mut self.coverage),
            Loc::StencilRef => Some(&mut self.stencil_ref),
        }
    }
}

/// What a run reads: per-lane inputs, system values, constant buffers.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// `v#` per lane.
    pub inputs: [Vec<Reg>; LANES],
    /// `cb#` → its vec4 rows.
    pub constant_buffers: Vec<Vec<Reg>>,
    /// Lanes outside the primitive: they execute (for derivatives) but
    /// their outputs are not used.
    pub helper: [bool; LANES],
    /// `vPrim`.
    pub primitive_id: u32,
    /// `vCoverage` per lane.
    pub coverage: [u32; LANES],
    /// Which lanes a vertex shader runs (all four by default).
    pub lanes_used: usize,
    /// The render target's sample count (what `sampleinfo` and
    /// `samplepos` of the rasterizer report); 0 reads as 1, a
    /// single-sampled target.
    pub sample_count: u32,
    /// The class bound to each interface slot and its instance data
    /// (`fcall`, `this[]`); unbound slots read the defaults.
    pub interfaces: super::interfaces::Bindings,
}

impl Setup {
    /// A setup with no inputs, sized for nothing; callers fill what they need.
    pub fn empty() -> Setup {
        Setup {
            lanes_used: LANES,
            coverage: [1; LANES],
            sample_count: 1,
            ..Setup::default()
        }
    }
}

/// The register file for a program, sized from its declarations.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub lanes: [LaneRegs; LANES],
    pub inputs: [Vec<Reg>; LANES],
    pub constant_buffers: Vec<Vec<Reg>>,
    pub icb: Vec<Reg>,
}

/// The register file's sizes, read from a program's declarations once.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// One lane's registers, zeroed.
    lane: LaneRegs,
    /// `v#` registers addressed.
    inputs: usize,
    icb: Vec<Reg>,
}

impl Layout {
    /// Temps and indexable temps are sized as the analysis pass read them
    /// from the declarations; `v#`/`o#` as far as any operand reaches.
    pub fn of(program: &Program, registers: &Registers) -> Layout {
        let mut outputs = 0u32;
        let mut inputs = 0u32;
        let mut icb = Vec::new();
        // Declared sizes are bounded by what a program can address; guard
        // against absurd values in hand-made bytecode all the same.
        const LIMIT: u32 = 1 << 16;
        let temps = registers.temps.min(LIMIT);
        let mut indexable: Vec<Vec<Reg>> = Vec::new();
        for (&reg, x) in &registers.indexable {
            let reg = reg.min(LIMIT) as usize;
            if indexable.len() <= reg {
                indexable.resize(reg + 1, Vec::new());
            }
            indexable[reg] = vec![[0; 4]; x.size.min(LIMIT) as usize];
        }
        for inst in &program.instructions {
            if let Some(crate::dxbc::ir::CustomData::ImmediateConstantBuffer(d)) =
                inst.custom.as_deref()
            {
                icb = d
                    .chunks(4)
                    .map(|c| {
                        let mut r = [0; 4];
                        r[..c.len()].copy_from_slice(c);
                        r
                    })
                    .collect();
            }
            for op in &inst.operands {
                let n = op.reg().map(|r| r.min(LIMIT - 1) + 1).unwrap_or(0);
                match op.ty {
                    crate::dxbc::ir::OperandType::OUTPUT => outputs = outputs.max(n),
                    crate::dxbc::ir::OperandType::INPUT if op.indices.len() == 1 => {
                        inputs = inputs.max(n)
                    }
                    _ => {}
                }
            }
        }
        Layout {
            lane: LaneRegs {
                temps: vec![[0; 4]; temps as usize],
                indexable,
                outputs: vec![[0; 4]; outputs as usize],
                depth: 0,
                coverage: u32::MAX,
                stencil_ref: 0,
            },
            inputs: inputs as usize,
            icb,
        }
    }
}

impl LaneRegs {
    /// Becomes a copy of `from` in the allocations it already has (`from`
    /// has the same sizes: both are one layout's).
    fn reset_to(&mut self, from: &LaneRegs) {
        self.temps.clone_from(&from.temps);
        self.indexable.clone_from(&from.indexable);
        self.outputs.clone_from(&from.outputs);
        self.depth = from.depth;
        self.coverage = from.coverage;
        self.stencil_ref = from.stencil_ref;
    }
}

impl State {
    /// This register file as [`State::with_layout`] would make it for
    /// `setup` with `inputs` as its inputs, reusing its allocations. The
    /// constant buffers are `setup`'s already (the caller restarts a
    /// machine on one draw's setup) and are kept as they are: the shader
    /// cannot write them, and copying a large buffer per quad would cost
    /// more than the quad.
    pub fn restart(&mut self, layout: &Layout, inputs: &[Vec<Reg>; LANES], setup: &Setup) {
        debug_assert_eq!(self.constant_buffers, setup.constant_buffers);
        for (lane, regs) in self.lanes.iter_mut().enumerate() {
            regs.reset_to(&layout.lane);
            let v = &mut self.inputs[lane];
            v.clone_from(&inputs[lane]);
            if v.len() < layout.inputs {
                v.resize(layout.inputs, [0; 4]);
            }
        }
    }

    /// A fresh register file of `layout`'s sizes with `setup`'s inputs.
    pub fn with_layout(layout: &Layout, setup: &Setup) -> State {
        let mut lane_inputs: [Vec<Reg>; LANES] = Default::default();
        for (l, v) in lane_inputs.iter_mut().enumerate() {
            *v = setup.inputs[l].clone();
            if v.len() < layout.inputs {
                v.resize(layout.inputs, [0; 4]);
            }
        }
        let lane = &layout.lane;
        State {
            lanes: [lane.clone(), lane.clone(), lane.clone(), lane.clone()],
            inputs: lane_inputs,
            constant_buffers: setup.constant_buffers.clone(),
            icb: layout.icb.clone(),
        }
    }
}
