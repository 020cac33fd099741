//! Which name lives at which register component: constant buffer words by
//! RDEF's variables, input and output components by their signature's
//! semantics, and `t#`/`s#`/`u#`/`cb#` slots by RDEF's bindings. Tools
//! that show registers (the step debugger) read names through this one
//! model instead of walking RDEF themselves.
//!
//! Constant buffer layout is HLSL's packing as RDEF records it: each
//! variable's byte offset is given; inside a variable,
//!
//! * a vector's components follow each other (`rcpFrame.x`, `.y`, …);
//! * every array element starts a new 16-byte row (`weights[3]`), so an
//!   element's stride is its footprint rounded up to 16 bytes;
//! * a struct's members sit at their recorded offsets (`light.color.x`);
//! * a matrix takes one row per column when column-major (HLSL's default,
//!   class `MATRIX_COLUMNS`) and one per row when `row_major`; its
//!   components are named `_mRC`, HLSL's zero-based row R, column C
//!   (`world._m03` is row 0, column 3 either way, only where it lives
//!   differs).
//!
//! Names are untrusted bytes from the file: every one is kept escaped
//! ([`shown`](super::shown::shown)). A hostile RDEF can describe arrays of
//! arrays far larger than a constant buffer; only words inside the buffer
//! (at most 4096 rows, D3D11's limit) are named, and a walk is bounded by a
//! visit budget, past which the buffer's names are marked incomplete.

use std::collections::BTreeMap;

use super::Shader;
use super::rdef::{CbufferKind, InputType, Rdef, Type, class};
use super::shown::shown;
use super::signature::{SignatureElement, SignatureKind};
use super::value_type::ValueType;

/// D3D11's most 16-byte rows a constant buffer can hold
/// (`D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT`).
pub const MAX_CBUFFER_ROWS: u32 = 4096;

/// Most type nodes one constant buffer's walk may visit.
const VISIT_BUDGET: usize = 1 << 18;

/// One named constant buffer word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The component's path inside the buffer: `rcpFrame.x`, `light.color.x`,
    /// `weights[3]`, `world._m03`.
    pub path: String,
    /// The scalar, vector or matrix the word belongs to (`rcpFrame`,
    /// `weights[3]`, `world`): what an operand reading several of its
    /// components is named by.
    pub owner: String,
    /// How the word reads by its declared type; `None` for types with no
    /// 32-bit reading (`string`, objects).
    pub ty: Option<ValueType>,
}

/// A constant buffer's names, by word (row * 4 + component).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CbufferNames {
    /// The buffer's name (`cbFxaa`, `$Globals`), escaped.
    pub name: String,
    fields: BTreeMap<u32, Field>,
    /// False when the walk stopped at its budget: later words may have
    /// names that are not shown.
    pub complete: bool,
}

impl CbufferNames {
    /// The field at row `row`, component `c` (0..4).
    pub fn field(&self, row: u32, c: usize) -> Option<&Field> {
        self.fields.get(&(row.checked_mul(4)? + (c as u32 & 3)))
    }

    /// Every named word: (row, component, field).
    pub fn fields(&self) -> impl Iterator<Item = (u32, usize, &Field)> {
        self.fields
            .iter()
            .map(|(&w, f)| (w / 4, (w % 4) as usize, f))
    }
}

/// One signature element's name over the components it occupies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Semantic {
    pub register: u32,
    pub mask: u8,
    /// `TEXCOORD0`, `SV_Position`, escaped.
    pub name: String,
    /// The semantic as stored (`TEXCOORD`) and its index, for lookups
    /// that accept `TEXCOORD` for `TEXCOORD0`.
    pub base: String,
    pub index: u32,
}

/// A register file RDEF binds names in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slot {
    /// `t#`: textures, typed, structured and raw buffers, tbuffers.
    Resource,
    /// `s#`.
    Sampler,
    /// `u#`.
    Uav,
    /// `cb#`.
    Cbuffer,
}

impl Slot {
    pub fn prefix(self) -> &'static str {
        match self {
            Slot::Resource => "t",
            Slot::Sampler => "s",
            Slot::Uav => "u",
            Slot::Cbuffer => "cb",
        }
    }
}

/// One RDEF binding: a name over `count` slots from `first`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub slot: Slot,
    pub first: u32,
    /// 0: unbounded (SM5.1), every slot from `first`.
    pub count: u32,
    /// Escaped.
    pub name: String,
}

impl Binding {
    fn holds(&self, slot: Slot, n: u32) -> bool {
        self.slot == slot && n >= self.first && (self.count == 0 || n - self.first < self.count)
    }
}

/// Everything the container names, by register.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Names {
    /// By `cb#` slot.
    pub cbuffers: BTreeMap<u32, CbufferNames>,
    pub inputs: Vec<Semantic>,
    pub outputs: Vec<Semantic>,
    pub bindings: Vec<Binding>,
}

impl Names {
    /// The names a shader's RDEF and signatures give.
    pub fn of(shader: &Shader) -> Names {
        let mut names = match &shader.rdef {
            Some(rdef) => Names::of_rdef(rdef),
            None => Names::default(),
        };
        let sems = |kind| {
            shader
                .elements(kind)
                .unwrap_or_default()
                .iter()
                .filter_map(semantic)
                .collect::<Vec<_>>()
        };
        names.inputs = sems(SignatureKind::Input);
        names.outputs = sems(SignatureKind::Output);
        names
    }

    /// The names RDEF gives: bindings, and each bound cbuffer's layout.
    pub fn of_rdef(rdef: &Rdef) -> Names {
        let mut names = Names::default();
        for b in &rdef.bindings {
            let slot = match b.input_type {
                InputType::CBuffer => Slot::Cbuffer,
                InputType::Sampler => Slot::Sampler,
                t if t.is_uav() => Slot::Uav,
                InputType::Other(_) => continue,
                _ => Slot::Resource,
            };
            names.bindings.push(Binding {
                slot,
                first: b.bind_point,
                count: b.bind_count,
                name: shown(&b.name).into_owned(),
            });
            if slot != Slot::Cbuffer {
                continue;
            }
            let Some(cb) = rdef
                .buffer_for(b)
                .filter(|c| c.kind == CbufferKind::CBuffer)
            else {
                continue;
            };
            let mut walk = Walk {
                limit: (cb.size / 4).min(MAX_CBUFFER_ROWS * 4),
                left: VISIT_BUDGET,
                fields: BTreeMap::new(),
            };
            for v in &cb.variables {
                walk.variable(&v.ty, &shown(&v.name), v.offset);
            }
            let names_of = CbufferNames {
                name: shown(&cb.name).into_owned(),
                fields: walk.fields,
                complete: walk.left > 0,
            };
            // An array of cbuffers (SM5.1) names each slot alike.
            let count = if b.bind_count == 0 { 1 } else { b.bind_count };
            for i in 0..count.min(MAX_CBUFFER_SLOTS) {
                names
                    .cbuffers
                    .entry(b.bind_point.saturating_add(i))
                    .or_insert_with(|| names_of.clone());
            }
        }
        names
    }

    /// The semantic over input (or output) register `r`, component `c`.
    pub fn semantic(&self, output: bool, r: u32, c: usize) -> Option<&Semantic> {
        let list = if output { &self.outputs } else { &self.inputs };
        list.iter()
            .find(|s| s.register == r && s.mask & (1 << (c & 3)) != 0)
    }

    /// The name bound at `slot` number `n`: the binding's name, with the
    /// element index for an array of bindings (`shadowMaps[2]`).
    pub fn binding(&self, slot: Slot, n: u32) -> Option<String> {
        let b = self.bindings.iter().find(|b| b.holds(slot, n))?;
        Some(match b.count {
            1 => b.name.clone(),
            _ => format!("{}[{}]", b.name, n - b.first),
        })
    }
}

/// The most slots one cbuffer binding array names (D3D11 has 14 slots per
/// stage; SM5.1 arrays may be larger, and unbounded ones are named at
/// their first slot only).
const MAX_CBUFFER_SLOTS: u32 = 64;

fn semantic(e: &SignatureElement) -> Option<Semantic> {
    if e.register == u32::MAX || e.mask & 0xf == 0 {
        return None;
    }
    let base = shown(&e.semantic_name).into_owned();
    // HLSL writes `TEXCOORD0` and `SV_Position`: the index of a system
    // value is shown only when it says something (`SV_Target1`).
    let name = if e.semantic_index == 0 && e.is_system_value() {
        base.clone()
    } else {
        format!("{base}{}", e.semantic_index)
    };
    Some(Semantic {
        register: e.register,
        mask: e.mask & 0xf,
        name,
        base,
        index: e.semantic_index,
    })
}

/// How a 32-bit word of a D3D_SHADER_VARIABLE_TYPE reads. A cbuffer
/// `bool` is a 32-bit word the application sets (any non-zero is true),
/// so it reads as the integer it holds; min-precision types are stored as
/// 32-bit values in constant buffers.
pub fn value_type_of_base(base: u16) -> Option<ValueType> {
    use crate::dxbc::rdef::base::*;
    match base {
        FLOAT | MIN8FLOAT..=MIN16FLOAT => Some(ValueType::Float),
        INT | MIN12INT | MIN16INT => Some(ValueType::Int),
        BOOL | UINT | MIN16UINT => Some(ValueType::Uint),
        DOUBLE => Some(ValueType::Double),
        _ => None,
    }
}

struct Walk {
    /// Words past the buffer's end (or D3D11's limit) are not named.
    limit: u32,
    left: usize,
    fields: BTreeMap<u32, Field>,
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Walk {
    /// A variable (or member) of type `ty` at byte `offset`: each array
    /// element at its own 16-byte-aligned start.
    fn variable(&mut self, ty: &Type, path: &str, offset: u32) {
        if ty.elements == 0 {
            return self.element(ty, path, offset);
        }
        let stride = self.footprint(ty).div_ceil(16).max(1) * 16;
        for i in 0..u32::from(ty.elements) {
            let Some(at) = i.checked_mul(stride).and_then(|d| offset.checked_add(d)) else {
                return;
            };
            if at / 4 >= self.limit || self.left == 0 {
                return;
            }
            self.element(ty, &format!("{path}[{i}]"), at);
        }
    }

    /// One element (not an array) of `ty` at byte `offset`.
    fn element(&mut self, ty: &Type, path: &str, offset: u32) {
        if self.left == 0 || offset / 4 >= self.limit {
            return;
        }
        self.left -= 1;
        let word = offset / 4;
        let vt = value_type_of_base(ty.base);
        match ty.class {
            class::STRUCT => {
                for m in &ty.members {
                    let Some(at) = offset.checked_add(m.offset) else {
                        continue;
                    };
                    self.variable(&m.ty, &format!("{path}.{}", shown(&m.name)), at);
                }
            }
            class::SCALAR => self.name(word, path.to_string(), path, vt),
            class::VECTOR => {
                for (c, letter) in COMPONENTS.iter().enumerate().take(ty.columns.into()) {
                    self.name(word + c as u32, format!("{path}.{letter}"), path, vt);
                }
            }
            class::MATRIX_ROWS | class::MATRIX_COLUMNS => {
                let row_major = ty.class == class::MATRIX_ROWS;
                for r in 0..u32::from(ty.rows.min(4)) {
                    for c in 0..u32::from(ty.columns.min(4)) {
                        // Row-major: register row r holds row r; column-
                        // major: register row c holds column c.
                        let at = if row_major { r * 4 + c } else { c * 4 + r };
                        self.name(word + at, format!("{path}._m{r}{c}"), path, vt);
                    }
                }
            }
            // Objects, interfaces: no words of their own to name.
            _ => {}
        }
    }

    fn name(&mut self, word: u32, path: String, owner: &str, ty: Option<ValueType>) {
        if word < self.limit {
            // A hostile RDEF may overlap variables: the first keeps the word.
            self.fields.entry(word).or_insert_with(|| Field {
                path,
                owner: owner.to_string(),
                ty,
            });
        }
    }
}

impl Walk {
    /// Bytes one element of `ty` (not counting its array) spans from its
    /// start, as packed in a constant buffer: what array elements are
    /// spaced by once rounded up to a 16-byte row. Each node it visits is
    /// charged to the walk's budget (a shared struct may be measured at
    /// every element of an outer array).
    fn footprint(&mut self, ty: &Type) -> u32 {
        if self.left == 0 {
            return 0;
        }
        self.left -= 1;
        let vec = |n: u16| u32::from(n.clamp(1, 4)) * 4;
        match ty.class {
            class::SCALAR => 4,
            class::VECTOR => vec(ty.columns),
            // All but the last register row are full.
            class::MATRIX_ROWS => u32::from(ty.rows.clamp(1, 4) - 1) * 16 + vec(ty.columns),
            class::MATRIX_COLUMNS => u32::from(ty.columns.clamp(1, 4) - 1) * 16 + vec(ty.rows),
            class::STRUCT => {
                let mut end = 0u32;
                for m in &ty.members {
                    let each = self.footprint(&m.ty);
                    let span = match u32::from(m.ty.elements) {
                        0 => each,
                        n => (n - 1)
                            .saturating_mul(each.div_ceil(16) * 16)
                            .saturating_add(each),
                    };
                    end = end.max(m.offset.saturating_add(span));
                }
                end
            }
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests;
