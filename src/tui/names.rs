//! The debugger's side of the container's names (`dxbc::names`): what the
//! register pane labels rows and components with, what the watch prompt,
//! [`App::component`] and search accept besides register names, and the
//! names of an instruction's operands for a detail line.
//!
//! Accepted names (`docs/debugger.md`, "Names"): register components
//! (`r0.x`, `o0.w`, `x1[2].y`, `v1.y`, `cb1[0].x`), a semantic and one of
//! its own components (`TEXCOORD0.y`, `TEXCOORD.y` for index 0,
//! case-insensitive as HLSL semantics are), and a constant buffer field by
//! its full path (`cbFxaa.rcpFrame.x`) or by any unique dotted suffix of
//! it (`rcpFrame.x`).

use crate::dxbc::disasm::{Style, format_operand};
use crate::dxbc::ir::{Operand, OperandType, Selection};
use crate::dxbc::names::{Names, Semantic, Slot};
use crate::dxbc::opcodes::NumType;
use crate::dxbc::value_type::ValueType;
use crate::vm::Loc;

use super::app::App;
use super::values::{component_index, parse_watch};

/// What the debugger knows of the container's names.
#[derive(Debug, Clone, Default)]
pub struct Naming {
    pub names: Names,
    /// How the listing prints operands (for [`App::operand_names`]).
    pub style: Style,
}

/// A component a name resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// A register the shader writes (`r#`, `o#`, `x#[i]`, `oDepth`).
    Reg(Loc, usize),
    /// Input `v#`, component.
    Input(u32, usize),
    /// Constant buffer slot, row, component.
    Constant(u32, u32, usize),
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = super::values::component_name;
        match *self {
            Named::Reg(loc, k) => write!(f, "{loc}.{}", c(k)),
            Named::Input(r, k) => write!(f, "v{r}.{}", c(k)),
            Named::Constant(b, r, k) => write!(f, "cb{b}[{r}].{}", c(k)),
        }
    }
}

/// The register component of a semantic's own component `k` (`TEXCOORD1.x`
/// packed in `.zw` is `.z`): its components start at its mask's first.
fn semantic_component(s: &Semantic, k: usize) -> Option<usize> {
    let c = s.mask.trailing_zeros() as usize + k;
    (c < 4 && s.mask & (1 << c) != 0).then_some(c)
}

/// `name` against a semantic: `TEXCOORD1`, or `TEXCOORD` for index 0,
/// ignoring case.
fn semantic_matches(s: &Semantic, name: &str) -> bool {
    name.eq_ignore_ascii_case(&s.name)
        || (s.index == 0 && name.eq_ignore_ascii_case(&s.base))
        || name.eq_ignore_ascii_case(&format!("{}{}", s.base, s.index))
}

impl Naming {
    pub fn of(shader: &crate::dxbc::Shader) -> Naming {
        Naming {
            names: Names::of(shader),
            style: shader.style(),
        }
    }

    /// The label of input (or output) register `r`'s component `c`:
    /// `TEXCOORD1.x`, by the semantic's own components.
    pub fn semantic_label(&self, output: bool, r: u32, c: usize) -> Option<String> {
        let s = self.names.semantic(output, r, c)?;
        let k = c - s.mask.trailing_zeros() as usize;
        Some(format!("{}.{}", s.name, super::values::component_name(k)))
    }

    /// The name a row of input (or output) register `r` is shown with:
    /// its semantic when one covers every occupied component.
    pub fn row_semantic(&self, output: bool, r: u32) -> Option<&str> {
        let list = if output {
            &self.names.outputs
        } else {
            &self.names.inputs
        };
        let mut on_row = list.iter().filter(|s| s.register == r);
        let first = on_row.next()?;
        on_row.next().is_none().then_some(first.name.as_str())
    }

    /// A name (see the module's list) as a component, or None.
    pub fn resolve(&self, text: &str) -> Option<Named> {
        let text = text.trim();
        if let Some((loc, c)) = parse_watch(text) {
            return Some(Named::Reg(loc, c));
        }
        let num = |t: &str| t.parse::<u32>().ok();
        let split = text.rsplit_once('.');
        if let Some((head, c)) = split.and_then(|(h, c)| Some((h, component_index(c)?))) {
            if let Some(r) = head.strip_prefix('v').and_then(num) {
                return Some(Named::Input(r, c));
            }
            if let Some((b, row)) = head
                .strip_prefix("cb")
                .and_then(|t| t.strip_suffix(']'))
                .and_then(|t| t.split_once('['))
            {
                return Some(Named::Constant(num(b)?, num(row)?, c));
            }
            let sem = (self.names.inputs.iter()).find(|s| semantic_matches(s, head));
            if let Some(s) = sem {
                return Some(Named::Input(s.register, semantic_component(s, c)?));
            }
        }
        self.field(text)
    }

    /// A constant buffer field by full path or unique dotted suffix.
    fn field(&self, text: &str) -> Option<Named> {
        let mut found = None;
        for (&slot, cb) in &self.names.cbuffers {
            for (row, c, f) in cb.fields() {
                let full = format!("{}.{}", cb.name, f.path);
                let hit = full == text
                    || full
                        .strip_suffix(text)
                        .is_some_and(|rest| rest.ends_with('.'));
                if hit {
                    if found.is_some() {
                        return None; // ambiguous
                    }
                    found = Some(Named::Constant(slot, row, c));
                }
            }
        }
        found
    }

    /// The name of one operand, or None: a constant buffer's fields
    /// (`cbFxaa.rcpFrame`), a binding's name (`g_Texture`), the
    /// semantics of an input's or output's components (`TEXCOORD0`).
    pub fn operand_name(&self, op: &Operand) -> Option<String> {
        let imm = |i: usize| {
            op.indices.get(i).and_then(|x| match x.relative() {
                None => x.imm().and_then(|v| u32::try_from(v).ok()),
                Some(_) => None,
            })
        };
        let comps = read_components(&op.selection);
        let distinct = |names: Vec<String>| {
            let mut out: Vec<String> = Vec::new();
            for n in names {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            (!out.is_empty()).then(|| out.join(", "))
        };
        let slot = match op.ty {
            OperandType::RESOURCE => Slot::Resource,
            OperandType::SAMPLER => Slot::Sampler,
            OperandType::UNORDERED_ACCESS_VIEW => Slot::Uav,
            OperandType::CONSTANT_BUFFER => {
                let b = imm(0)?;
                let cb = self.names.cbuffers.get(&b)?;
                let Some(row) = imm(1) else {
                    // A dynamically indexed row: the buffer is all it says.
                    return Some(cb.name.clone());
                };
                return distinct(
                    comps
                        .iter()
                        .filter_map(|&c| cb.field(row, c))
                        .map(|f| format!("{}.{}", cb.name, f.owner))
                        .collect(),
                );
            }
            OperandType::INPUT | OperandType::OUTPUT => {
                let r = imm(0)?;
                let output = op.ty == OperandType::OUTPUT;
                return distinct(
                    comps
                        .iter()
                        .filter_map(|&c| self.names.semantic(output, r, c))
                        .map(|s| s.name.clone())
                        .collect(),
                );
            }
            _ => return None,
        };
        self.names.binding(slot, imm(0)?)
    }
}

/// The components an operand reads or writes, in order, each once; all
/// four for an operand without a selection (`t0`).
fn read_components(sel: &Selection) -> Vec<usize> {
    match *sel {
        Selection::None => (0..4).collect(),
        Selection::Swizzle(s) => {
            let mut out = Vec::new();
            for c in s.iter().map(|&c| c as usize & 3) {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            out
        }
        _ => (0..4).filter(|c| sel.mask() & (1 << c) != 0).collect(),
    }
}

impl App {
    /// A name typed by the user (the watch prompt, a watch list) as the
    /// component it stands for.
    pub fn resolve(&self, text: &str) -> Option<Named> {
        self.naming.resolve(text)
    }

    /// An input or output row's name: `v1 TEXCOORD0` when one semantic
    /// covers the register, else the register alone (its components are
    /// labelled instead).
    pub(super) fn semantic_row_name(&self, output: bool, r: u32) -> String {
        let reg = if output { 'o' } else { 'v' };
        match self.naming.row_semantic(output, r) {
            Some(s) => format!("{reg}{r} {s}"),
            None => format!("{reg}{r}"),
        }
    }

    /// Component labels of an input or output row: only when several
    /// semantics share the register (`TEXCOORD0.x` … `TEXCOORD1.y`).
    pub(super) fn semantic_labels(&self, output: bool, r: u32, n: usize) -> Vec<Option<String>> {
        if self.naming.row_semantic(output, r).is_some() {
            return Vec::new();
        }
        (0..n)
            .map(|c| self.naming.semantic_label(output, r, c))
            .collect()
    }

    /// The heading of constant buffer slot `b`: with RDEF's name when it
    /// has one.
    pub(super) fn constant_heading(&self, b: u32) -> String {
        match self.naming.names.cbuffers.get(&b) {
            Some(cb) => format!("constant buffer cb{b} {}", cb.name),
            None => format!("constant buffer cb{b}"),
        }
    }

    /// Row `row` of constant buffer `b`: each component labelled and typed
    /// by RDEF's variable; without one, `x`..`w` and float.
    pub(super) fn constant_row(&self, b: u32, row: u32, r: &[u32; 4]) -> super::app::RegRow {
        let cb = self.naming.names.cbuffers.get(&b);
        let field = |c: usize| cb.and_then(|cb| cb.field(row, c));
        super::app::RegRow::Reg {
            name: format!("cb{b}[{row}]"),
            values: r.to_vec(),
            types: (0..4).map(|c| self.constant_type(b, row, c)).collect(),
            changed: vec![false; 4],
            gpu: Vec::new(),
            labels: (0..4).map(|c| field(c).map(|f| f.path.clone())).collect(),
        }
    }

    /// The watch prompt given an input or a constant: nothing to run to,
    /// since neither changes while the shader runs; says its value.
    pub(super) fn watch_fixed(&mut self, text: &str, named: Named) {
        let what = match named {
            Named::Input(..) => "an input",
            _ => "a constant",
        };
        let value = self
            .value_of(named)
            .map(|(bits, ty)| format!(" (now {})", super::values::shown(self.view, bits, ty)))
            .unwrap_or_default();
        self.set(
            super::app::Tone::Warn,
            format!("`{text}` is {named}, {what}: it does not change while the shader runs{value}"),
        );
    }

    /// A resolved component's bits in the shown lane and the type it is
    /// read by: a register's by its writer, an input's by the signature,
    /// a constant's by RDEF (float when RDEF does not say).
    pub fn value_of(&self, named: Named) -> Option<(u32, ValueType)> {
        let lane = self.lane;
        let state = &self.machine.state;
        match named {
            Named::Reg(loc, c) => {
                let regs = &state.lanes[lane];
                let bits = match loc {
                    Loc::Depth => regs.depth,
                    Loc::Coverage => regs.coverage,
                    Loc::StencilRef => regs.stencil_ref,
                    _ => regs.get(loc)?[c],
                };
                Some((bits, self.machine.value_type(lane, loc, c)))
            }
            Named::Input(r, c) => {
                let bits = state.inputs[lane].get(r as usize)?[c];
                Some((bits, self.machine.input_type(r, c)))
            }
            Named::Constant(b, row, c) => {
                let bits = state.constant_buffers.get(b as usize)?.get(row as usize)?[c];
                Some((bits, self.constant_type(b, row, c)))
            }
        }
    }

    /// How constant buffer word `cb{b}[row].c` reads: RDEF's type, else
    /// float.
    pub fn constant_type(&self, b: u32, row: u32, c: usize) -> ValueType {
        (self.naming.names.cbuffers.get(&b))
            .and_then(|cb| cb.field(row, c)?.ty)
            .unwrap_or(ValueType::Float)
    }

    /// Each named operand of instruction `index`: its text as the listing
    /// prints it and its name, e.g. `("cb1[0].xyxx", "cbFxaa.rcpFrame")`,
    /// `("t0", "g_Texture")`, `("v1.xyxx", "TEXCOORD0")`.
    pub fn operand_names(&self, index: usize) -> Vec<(String, String)> {
        let Some(inst) = self.program.instructions.get(index) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for op in &inst.operands {
            if let Some(name) = self.naming.operand_name(op) {
                let text = format_operand(op, NumType::Untyped, self.naming.style);
                let pair = (text, name);
                if !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
        out
    }

    /// Whether instruction `index` has an operand whose name contains
    /// `needle` (lower case): how search finds `rcpFrame` at `cb1[0].xy`.
    pub(super) fn operand_names_contain(&self, index: usize, needle: &str) -> bool {
        self.operand_names(index)
            .iter()
            .any(|(_, name)| name.to_lowercase().contains(needle))
    }
}
