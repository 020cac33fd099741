//! The D3D11 ↔ GLSL ES 3.00 gap detector: which executed instructions of
//! one pixel hit, with their actual operand values, a place where Direct3D
//! 11 defines the result and GLSL ES 3.00 leaves it open or has no such
//! operation (`docs/translators.md`, "HLSLcc's gaps").
//!
//! A translator that lowers such an instruction naively (`int(x)` for
//! `ftoi`, `x << n` for `ishl`, `textureGather` for `gather4`) gives a
//! driver's value, not D3D's, exactly where the detector fires, so a
//! failing external translation's report names the gap as its likely cause.
//! The detector runs the pixel's quad on the emulator and, before each
//! step of the pixel's lane, reads the instruction's sources as that step
//! will (`vm::Machine::source_values`) and, for texture reads, what the
//! texture unit will do (`vm::Machine::explain_fetch`); the rules are in
//! `alu.rs` and `texture.rs`, the texts in `kinds.rs`.

mod alu;
mod kinds;
mod texture;

use std::rc::Rc;

use serde::Serialize;

use crate::dxbc::disasm::{Style, format_instruction};
use crate::dxbc::ir::Instruction;
use crate::dxbc::opcodes::NumType;
use crate::harness::case::{Case, CaseShaders};
use crate::harness::cpu;
use crate::harness::pixel_quad::{PixelQuad, PixelQuadError, pixel_quad};
use crate::vm::machine::Event;
use crate::vm::state::{Loc, Reg};
use crate::vm::{Machine, SourceValue, VmError};

pub use kinds::{GapKind, Handling};

/// One value that put an instruction into a gap: a source component, or
/// sampler state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GapValue {
    /// The operand's position in the instruction (destinations first), or
    /// `None` for sampler state, which is no operand.
    pub operand: Option<usize>,
    /// The component of the instruction's result it feeds (`x`..`w`), or
    /// `None` for sampler state.
    pub component: Option<char>,
    /// Where the value comes from: the register component as the listing
    /// names it (`cb0[1].x`, `-r2.w`), `l(...)` for an immediate, or the
    /// sampler state (`s0 MipLODBias`, shown `s0 MipLODBias: 1.000000`).
    pub source: String,
    /// The exact bits (sampler state: the f32 bits of the setting).
    pub bits: u32,
    /// The value as the instruction reads it (`nan`, `-3`, `33`,
    /// `1.000000`), or what the state is.
    pub view: String,
}

/// One instruction that hit a gap on the pixel's path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gap {
    pub kind: GapKind,
    /// The instruction's index in the program.
    pub index: usize,
    /// Its disassembly (first line).
    pub text: String,
    /// The values that hit the gap, at its first hit.
    pub values: Vec<GapValue>,
    /// What the emulator (D3D11's rules) gave there, where it is a
    /// register value: `x = 0 (0x00000000)`.
    pub d3d_result: Option<String>,
    /// How many times the instruction hit this gap on the path (loops).
    pub hits: usize,
    /// What D3D11 defines ([`GapKind::d3d`]).
    pub d3d: &'static str,
    /// What GLSL ES 3.00 leaves open ([`GapKind::glsl`]).
    pub glsl: &'static str,
    /// How dxbc-dbg's own es300 text meets it ([`GapKind::dxbc_dbg`]).
    pub dxbc_dbg: Handling,
    /// With what.
    pub dxbc_dbg_by: &'static str,
}

impl Gap {
    /// The gap on one line, for a report's cause:
    /// `shift_count at [4] ishl r0.x, cb0[0].x, cb0[1].x (cb0[1].x = 33)`.
    pub fn line(&self) -> String {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|v| match v.operand {
                Some(_) => format!("{} = {}", v.source, v.view),
                None => format!("{}: {}", v.source, v.view),
            })
            .collect();
        let mut line = format!("{} at [{}] {}", self.kind, self.index, self.text);
        if !values.is_empty() {
            line.push_str(&format!(" ({})", values.join("; ")));
        }
        line
    }
}

/// Gaps named in a cause line before the rest are only counted.
const CAUSE_GAPS: usize = 3;

/// The cause a report gives a translation that fails at a pixel whose path
/// hits `gaps`: the first few gaps' lines, `; `-joined, and how many more
/// there are; `None` when the path hits none (the gap detector then has
/// nothing to say about the failure).
pub fn cause(gaps: &[Gap]) -> Option<String> {
    if gaps.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = gaps.iter().take(CAUSE_GAPS).map(Gap::line).collect();
    if gaps.len() > CAUSE_GAPS {
        parts.push(format!("and {} more", gaps.len() - CAUSE_GAPS));
    }
    Some(format!("D3D11/GLSL ES 3.00 gap: {}", parts.join("; ")))
}

/// Why the gaps of a pixel could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum GapError {
    #[error("pixel ({x},{y}) is outside the {width}x{height} target")]
    Outside {
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    },
    #[error("pixel ({x},{y}) is not covered by the quad: no pixel shader runs there")]
    Helper { x: u32, y: u32 },
    #[error("{file}: the vertex stage: {message}")]
    Vertex { file: String, message: String },
    #[error("{file}: {source}")]
    Emulator {
        file: String,
        #[source]
        source: VmError,
    },
}

/// A hit found before its step ran, waiting for the step's result.
struct Pending {
    kind: GapKind,
    values: Vec<GapValue>,
}

/// The gaps pixel `(x, y)` of `case` hits, in order of first hit, one per
/// instruction and kind (`hits` counts repeats). The quad runs as the CPU
/// draw runs it: through the case's vertex shader when it has one, the
/// triangle owning the pixel, the case's constant buffers, textures and
/// UAVs.
pub fn case_gaps(
    case: &Case,
    shaders: &CaseShaders,
    (x, y): (u32, u32),
) -> Result<Vec<Gap>, GapError> {
    let file = case.path.display().to_string();
    let ps = &shaders.pixel;
    let PixelQuad {
        setup,
        lane,
        corner_w,
    } = pixel_quad(case, shaders, (x, y)).map_err(|e| match e {
        PixelQuadError::Outside {
            x,
            y,
            width,
            height,
        } => GapError::Outside {
            x,
            y,
            width,
            height,
        },
        PixelQuadError::Helper { x, y } => GapError::Helper { x, y },
        PixelQuadError::Vertex(message) => GapError::Vertex {
            file: file.clone(),
            message,
        },
    })?;
    let fail = |source| GapError::Emulator {
        file: file.clone(),
        source,
    };
    let mut m =
        Machine::new(Rc::new(ps.program.clone()), setup, cpu::resources(case)).map_err(fail)?;
    m.set_uavs(cpu::uavs(case));
    // Results are shown by the type their writer gives them.
    m.set_typing(Rc::new(crate::dxbc::value_type::Typing::of(ps)));
    let mut gaps = declared_gaps(ps, &corner_w);
    gaps.extend(scan(&mut m, lane, ps.style()).map_err(fail)?);
    Ok(gaps)
}

/// The gaps a declaration decides for the whole primitive rather than an
/// instruction's values: each `noperspective` input (system values aside:
/// `SV_Position` is the rasterizer's own) when the corners' clip w differ,
/// so screen-linear and perspective-correct interpolation part.
pub fn declared_gaps(ps: &crate::dxbc::Shader, corner_w: &[f32]) -> Vec<Gap> {
    use crate::dxbc::enums::SystemValue;
    use crate::dxbc::ir::{Index, OperandType};
    let Some(&w0) = corner_w.first() else {
        return Vec::new();
    };
    if corner_w.iter().all(|w| w.to_bits() == w0.to_bits()) {
        return Vec::new();
    }
    let layout = ps.input_layout();
    let mut out = Vec::new();
    for (index, inst) in ps.program.instructions.iter().enumerate() {
        if !inst.interpolation().is_some_and(|q| q.is_noperspective()) {
            continue;
        }
        let Some(reg) = inst.operands.iter().find_map(|o| match o.indices.first() {
            Some(Index::Imm32(r)) if o.ty == OperandType::INPUT => Some(*r),
            _ => None,
        }) else {
            continue;
        };
        let plain = layout
            .registers
            .iter()
            .find(|r| r.register == reg)
            .is_some_and(|r| r.system_value == SystemValue::Undefined);
        if !plain {
            continue;
        }
        let kind = GapKind::Noperspective;
        let (dxbc_dbg, dxbc_dbg_by) = kind.dxbc_dbg();
        let ws: Vec<String> = corner_w.iter().map(|w| format!("{w}")).collect();
        out.push(Gap {
            kind,
            index,
            text: format_instruction(inst, ps.style())
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
            values: vec![state_value(
                format!("v{reg} under corner w"),
                w0.to_bits(),
                ws.join(", "),
            )],
            d3d_result: None,
            hits: 1,
            d3d: kind.d3d(),
            glsl: kind.glsl(),
            dxbc_dbg,
            dxbc_dbg_by,
        });
    }
    out
}

/// Runs `machine` to the end and lists the gaps `lane` hits (see
/// [`case_gaps`]). The machine's undo log is not kept. Results are shown
/// by the machine's register types when it keeps them
/// (`Machine::set_typing`).
pub fn scan(machine: &mut Machine, lane: usize, style: Style) -> Result<Vec<Gap>, VmError> {
    machine.set_recording(false);
    let mut gaps: Vec<Gap> = Vec::new();
    loop {
        let pc = machine.pc();
        let running = machine.execution_mask().get(lane).copied().unwrap_or(false);
        let pending = if running {
            before_step(machine, lane)?
        } else {
            Vec::new()
        };
        let index = match machine.step()? {
            Event::Finished => break,
            Event::Executed { index } => index,
        };
        if index != pc || pending.is_empty() {
            continue;
        }
        let inst = &machine.program().instructions[index];
        for hit in pending {
            if let Some(g) = gaps
                .iter_mut()
                .find(|g| g.index == index && g.kind == hit.kind)
            {
                g.hits += 1;
                continue;
            }
            let text = format_instruction(inst, style);
            gaps.push(Gap {
                kind: hit.kind,
                index,
                text: text.lines().next().unwrap_or("").to_string(),
                values: hit.values,
                d3d_result: result_text(machine, inst, lane),
                hits: 1,
                d3d: hit.kind.d3d(),
                glsl: hit.kind.glsl(),
                dxbc_dbg: hit.kind.dxbc_dbg().0,
                dxbc_dbg_by: hit.kind.dxbc_dbg().1,
            });
        }
    }
    Ok(gaps)
}

/// The gaps the instruction at the program counter is about to hit in
/// `lane`.
fn before_step(machine: &Machine, lane: usize) -> Result<Vec<Pending>, VmError> {
    let Some(inst) = machine.program().instructions.get(machine.pc()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    if inst.op.texel_read().is_some() {
        texture::hits(machine, inst, lane, &mut out)?;
    } else {
        let sources = machine.source_values(lane)?;
        alu::hits(inst, &sources, &mut out);
    }
    Ok(out)
}

/// The first destination's written components after the step, by the
/// instruction's result type: what D3D11's rules gave.
fn result_text(machine: &Machine, inst: &Instruction, lane: usize) -> Option<String> {
    let info = inst.info();
    if info.dst == 0 {
        return None;
    }
    let mut parts = Vec::new();
    for op in inst.operands.iter().take(info.dst as usize) {
        let Ok(Some(loc)) = machine.destination(op, lane) else {
            continue;
        };
        let regs = &machine.state.lanes[lane];
        let value: Reg = match loc {
            Loc::Depth => [regs.depth, 0, 0, 0],
            Loc::Coverage => [regs.coverage, 0, 0, 0],
            Loc::StencilRef => [regs.stencil_ref, 0, 0, 0],
            _ => regs.get(loc).copied().unwrap_or_default(),
        };
        for (c, bits) in value.iter().enumerate() {
            if op.selection.mask() & (1 << c) != 0 {
                let ty = machine.value_type(lane, loc, c);
                parts.push(format!(
                    "{loc}.{} = {}",
                    alu::component(c),
                    crate::vm::trace::typed_value(*bits, ty)
                ));
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// Source component `c` of `s` (an operand of `inst`) as a [`GapValue`],
/// read as `ty`: named by the register component it comes from.
fn operand_value(
    inst: &Instruction,
    s: &SourceValue,
    c: usize,
    bits: u32,
    ty: crate::dxbc::value_type::ValueType,
) -> GapValue {
    use crate::dxbc::ir::{OperandType, Selection};
    let source = match inst.operands.get(s.operand) {
        Some(op) if matches!(op.ty, OperandType::IMMEDIATE32 | OperandType::IMMEDIATE64) => {
            "literal".to_string()
        }
        Some(op) => {
            let from = match op.selection {
                Selection::Swizzle(sw) => sw[c & 3],
                Selection::Select1(k) => k,
                _ => c as u8,
            };
            let mut one = op.clone();
            one.selection = Selection::Select1(from);
            let kind = inst.info().source_type().unwrap_or(NumType::Untyped);
            crate::dxbc::disasm::format_operand(&one, kind, Style::default())
        }
        None => format!("operand {}", s.operand),
    };
    GapValue {
        operand: Some(s.operand),
        component: Some(alu::component(c)),
        source,
        bits,
        view: crate::vm::trace::typed_view(bits, ty),
    }
}

/// Sampler or texture state as a [`GapValue`].
fn state_value(source: String, bits: u32, view: String) -> GapValue {
    GapValue {
        operand: None,
        component: None,
        source,
        bits,
        view,
    }
}

/// Gaps as text: a block per gap (instruction, kind, values, D3D11's
/// result and rule, GLSL ES 3.00's), or a line saying there are none.
pub fn text(gaps: &[Gap]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if gaps.is_empty() {
        out.push_str("no D3D11/GLSL ES 3.00 gap on this pixel's path\n");
        return out;
    }
    let _ = writeln!(
        out,
        "{} D3D11/GLSL ES 3.00 gap{} on this pixel's path:",
        gaps.len(),
        if gaps.len() == 1 { "" } else { "s" }
    );
    for g in gaps {
        let times = if g.hits > 1 {
            format!(" ({} times)", g.hits)
        } else {
            String::new()
        };
        let _ = writeln!(out, "[{:4}] {}  -- {}{times}", g.index, g.text, g.kind);
        let values: Vec<String> = g
            .values
            .iter()
            .map(|v| match v.operand {
                Some(_) => format!("{} = {} (0x{:08x})", v.source, v.view, v.bits),
                None => format!("{}: {}", v.source, v.view),
            })
            .collect();
        if !values.is_empty() {
            let _ = writeln!(out, "       values: {}", values.join("; "));
        }
        if let Some(r) = &g.d3d_result {
            let _ = writeln!(out, "       D3D11 result: {r}");
        }
        let _ = writeln!(out, "       D3D11: {}", g.d3d);
        // The GLSL side's text names its own standard (GLSL ES 3.00,
        // WebGL2): no label.
        let _ = writeln!(out, "       {}", g.glsl);
        let how = match g.dxbc_dbg {
            Handling::Covered => "covered",
            Handling::Runtime => "left to the runtime's sampler state",
            Handling::Driver => "left to the driver",
        };
        let _ = writeln!(out, "       dxbc-dbg's es300: {how}: {}", g.dxbc_dbg_by);
    }
    out
}

#[cfg(test)]
mod tests;
