//! The register pane's rows: the selected lane's temps, inputs and
//! outputs (and on request the constant buffers, indexable temps and ICB),
//! with the components the last step changed and, once loaded, the GPU's
//! values beside them (`gpu.rs`).

use crate::dxbc::ir::OperandType;
use crate::dxbc::value_type::ValueType;
use crate::vm::{Change, Loc};

use super::app::{App, RegRow};
use super::gpu::Which;

impl App {
    /// The register pane's rows for the selected lane.
    pub fn register_rows(&self) -> Vec<RegRow> {
        let lane = self.lane;
        let state = &self.machine.state;
        let regs = &state.lanes[lane];
        let changes: Vec<&Change> = self
            .machine
            .changes()
            .iter()
            .filter(|c| c.lane == lane)
            .collect();
        let changed = |loc: Loc| -> Vec<bool> {
            (0..4)
                .map(|c| changes.iter().any(|ch| ch.loc == loc && ch.component == c))
                .collect()
        };
        let gpu_regs = self.gpu_registers();
        let gpu = |which: Which, values: &[u32]| match &gpu_regs {
            Some(regs) => self.gpu_cells(regs, which, values),
            None => Vec::new(),
        };
        let mut rows = Vec::new();
        let section = |rows: &mut Vec<RegRow>, title: &str, items: Vec<RegRow>| {
            if !items.is_empty() {
                rows.push(RegRow::Heading(title.to_string()));
                rows.extend(items);
            }
        };
        // Immediate constant buffer entries read as the listing prints
        // them.
        let plain = |name: String, r: &[u32; 4]| RegRow::Reg {
            name,
            values: r.to_vec(),
            types: r
                .iter()
                .map(|&b| ValueType::of_immediate(b).unwrap_or(ValueType::Float))
                .collect(),
            changed: vec![false; 4],
            gpu: Vec::new(),
            labels: Vec::new(),
        };
        // A register the lane writes, by the types its writers gave it,
        // with the GPU's value beside it.
        let written = |loc: Loc, values: Vec<u32>| RegRow::Reg {
            name: loc.to_string(),
            gpu: gpu(Which::Loc(loc), &values),
            types: (0..values.len())
                .map(|c| self.machine.value_type(lane, loc, c))
                .collect(),
            changed: changed(loc)[..values.len()].to_vec(),
            labels: match loc {
                Loc::Output(r) => self.semantic_labels(true, r, values.len()),
                _ => Vec::new(),
            },
            values,
        };
        let temps = (regs.temps.iter().enumerate())
            .map(|(i, r)| written(Loc::Temp(i as u32), r.to_vec()))
            .collect();
        section(&mut rows, "temps", temps);
        let inputs = (state.inputs[lane].iter().enumerate())
            .map(|(i, r)| RegRow::Reg {
                name: self.semantic_row_name(false, i as u32),
                labels: self.semantic_labels(false, i as u32, 4),
                values: r.to_vec(),
                types: (0..4)
                    .map(|c| self.machine.input_type(i as u32, c))
                    .collect(),
                changed: vec![false; 4],
                gpu: gpu(Which::Input(i as u32), r),
            })
            .collect();
        section(&mut rows, "inputs", inputs);
        let mut outputs: Vec<RegRow> = (regs.outputs.iter().enumerate())
            .map(|(i, r)| {
                let mut row = written(Loc::Output(i as u32), r.to_vec());
                if let RegRow::Reg { name, .. } = &mut row {
                    *name = self.semantic_row_name(true, i as u32);
                }
                row
            })
            .collect();
        for (ty, loc, value) in [
            (OperandType::OUTPUT_DEPTH, Loc::Depth, regs.depth),
            (
                OperandType::OUTPUT_COVERAGE_MASK,
                Loc::Coverage,
                regs.coverage,
            ),
        ] {
            if self.writes(ty) {
                outputs.push(written(loc, vec![value]));
            }
        }
        section(&mut rows, "outputs", outputs);
        if self.extra {
            for (b, cb) in state.constant_buffers.iter().enumerate() {
                let items = (cb.iter().enumerate())
                    .map(|(i, r)| self.constant_row(b as u32, i as u32, r))
                    .collect();
                section(&mut rows, &self.constant_heading(b as u32), items);
            }
            for (x, arr) in regs.indexable.iter().enumerate() {
                let items = (arr.iter().enumerate())
                    .map(|(i, r)| written(Loc::Indexable(x as u32, i as u32), r.to_vec()))
                    .collect();
                section(&mut rows, &format!("indexable temp x{x}"), items);
            }
            let icb = (state.icb.iter().enumerate())
                .map(|(i, r)| plain(format!("icb[{i}]"), r))
                .collect();
            section(&mut rows, "immediate constant buffer", icb);
        }
        rows
    }

    fn writes(&self, ty: OperandType) -> bool {
        let depth_like = |t: OperandType| {
            matches!(
                t,
                OperandType::OUTPUT_DEPTH
                    | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
                    | OperandType::OUTPUT_DEPTH_LESS_EQUAL
            )
        };
        self.program.instructions.iter().any(|i| {
            i.operands.iter().any(|o| {
                if ty == OperandType::OUTPUT_DEPTH {
                    depth_like(o.ty)
                } else {
                    o.ty == ty
                }
            })
        })
    }

    /// One component of the selected lane, by any name `resolve` takes
    /// (`r0.x`, `o0.w`, `x1[2].y`, `TEXCOORD0.y`, `rcpFrame.x`): what tests
    /// and the watch prompt read.
    pub fn component(&self, name: &str) -> Option<u32> {
        self.value_of(self.resolve(name)?).map(|(bits, _)| bits)
    }
}
