//! The memory pane's model: every buffer SRV (`t#`) and UAV (`u#`) the
//! run sees, as rows of 32-bit words typed by the UAV's format or the
//! container's RDEF, with what the last step wrote marked. `view.rs` draws
//! the rows.
//!
//! Rows are built on demand (`MemoryPane::row`), not all at once: a case
//! may bind a buffer of many thousand elements and a draw shows a few
//! dozen rows.

use std::collections::BTreeMap;

use crate::dxbc::Shader;
use crate::dxbc::rdef::{InputType, Type, class};
use crate::dxbc::shown::shown;
use crate::vm::memory::{Buffer, Cell, Layout, MemoryWrite};
use crate::vm::texture::NumericKind;

use super::app::App;
use super::values::{ValueView, float_text};

/// Words shown on one row.
pub const PER_ROW: usize = 4;

/// Which register file a buffer view is bound in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Space {
    /// Shader resource views, `t#` (read-only).
    Srv,
    /// Unordered access views, `u#`.
    Uav,
}

impl Space {
    pub fn prefix(self) -> char {
        match self {
            Space::Srv => 't',
            Space::Uav => 'u',
        }
    }
}

/// How a word is shown in the typed view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordType {
    Float,
    Int,
    Uint,
    /// Nothing says: the bits in hex.
    Bits,
}

impl WordType {
    /// A D3D_SHADER_VARIABLE_TYPE of a 32-bit number (bool is a 32-bit
    /// 0 or 1 in buffers); doubles and the rest are shown as bits.
    fn of_base(base: u16) -> WordType {
        use crate::dxbc::rdef::base::{BOOL, FLOAT, INT, UINT};
        match base {
            FLOAT => WordType::Float,
            INT => WordType::Int,
            BOOL | UINT => WordType::Uint,
            _ => WordType::Bits,
        }
    }

    fn format(self, bits: u32) -> String {
        match self {
            WordType::Float => float_text(bits),
            WordType::Int => (bits as i32).to_string(),
            WordType::Uint => bits.to_string(),
            WordType::Bits => format!("0x{bits:08x}"),
        }
    }
}

/// What the container's RDEF says of a buffer binding. Names are
/// untrusted bytes: they are kept escaped (`dxbc::shown`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reflection {
    pub name: String,
    /// The element type as HLSL spells it (`struct Particle`, `float4`),
    /// for structured buffers.
    pub element: Option<String>,
    /// Each word of an element: the member it belongs to (`pos.y`) and its
    /// type, by word index within the element (gaps are `None`).
    pub words: Vec<Option<(String, WordType)>>,
}

/// The buffer bindings RDEF describes, by (space, slot).
pub fn reflect(shader: &Shader) -> BTreeMap<(Space, u32), Reflection> {
    let mut out = BTreeMap::new();
    let Some(rdef) = &shader.rdef else {
        return out;
    };
    for b in &rdef.bindings {
        let space = match b.input_type {
            InputType::Structured | InputType::ByteAddress => Space::Srv,
            InputType::UavRwTyped if b.dimension == 1 => Space::Uav,
            t if t.is_uav() => Space::Uav,
            _ => continue,
        };
        let mut r = Reflection {
            name: shown(&b.name).into_owned(),
            ..Reflection::default()
        };
        if let Some(element) = rdef
            .buffer_for(b)
            .and_then(|cb| cb.variables.first())
            .map(|v| &v.ty)
        {
            r.element = Some(shown(&element.hlsl_name()).into_owned());
            flatten(element, "", 0, &mut r.words);
        }
        // An array of views (`RWStructuredBuffer<T> b[3]`) takes one slot
        // per element; fxc lists it once.
        let count = b.bind_count.clamp(1, 128);
        for i in 0..count {
            let mut each = r.clone();
            if count > 1 {
                each.name = format!("{}[{i}]", r.name);
            }
            out.insert((space, b.bind_point.saturating_add(i)), each);
        }
    }
    out
}

/// Assigns the words of `ty` (at byte `offset` in the element) a name and
/// type. Structs recurse through their members; an array of structs
/// describes its first element only (the others stay unnamed).
fn flatten(ty: &Type, prefix: &str, offset: u32, words: &mut Vec<Option<(String, WordType)>>) {
    // Descriptors are bounded by the RDEF parser; this bounds the words.
    const MAX_WORDS: usize = 512;
    if ty.class == class::STRUCT || !ty.members.is_empty() {
        let first = if ty.elements > 0 { "[0]" } else { "" };
        for m in &ty.members {
            let name = shown(&m.name);
            let name = if prefix.is_empty() {
                format!("{first}{name}")
            } else {
                format!("{prefix}{first}.{name}")
            };
            flatten(&m.ty, &name, offset.saturating_add(m.offset), words);
        }
        return;
    }
    let rows = u32::from(ty.rows.max(1));
    let cols = u32::from(ty.columns.max(1));
    let n = rows * cols * u32::from(ty.elements.max(1));
    let kind = WordType::of_base(ty.base);
    for k in 0..n {
        let word = (offset / 4 + k) as usize;
        if word >= MAX_WORDS {
            return;
        }
        let name = if n == 1 {
            prefix.to_string()
        } else if ty.elements == 0 && rows == 1 {
            format!("{prefix}.{}", ['x', 'y', 'z', 'w'][(k & 3) as usize])
        } else {
            format!("{prefix}[{k}]")
        };
        if words.len() <= word {
            words.resize(word + 1, None);
        }
        words[word] = Some((name, kind));
    }
}

/// One word as a row shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemCell {
    /// What the word is: a member name, a byte offset or an element index.
    pub name: String,
    pub text: String,
    /// The last step wrote this word.
    pub written: bool,
    /// ... and changed its value.
    pub changed: bool,
}

/// One line of the memory pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemRow {
    Heading(String),
    Words {
        label: String,
        /// The row holds (part of) an element the last step wrote.
        marked: bool,
        cells: Vec<MemCell>,
    },
}

/// One bound buffer view.
struct Section<'a> {
    space: Space,
    slot: u32,
    buffer: &'a Buffer,
    reflection: Option<&'a Reflection>,
}

impl Section<'_> {
    /// Rows of words after the heading.
    fn data_rows(&self) -> usize {
        let n = self.buffer.words.len();
        match self.buffer.layout {
            Layout::Structured { .. } => {
                let wpe = self.wpe();
                n / wpe * wpe.div_ceil(PER_ROW)
            }
            _ => n.div_ceil(PER_ROW),
        }
    }

    /// Words per structured element (at least 1).
    fn wpe(&self) -> usize {
        self.buffer.layout.words_per_element().max(1) as usize
    }

    /// The data row holding word `w`.
    fn row_of(&self, w: usize) -> usize {
        match self.buffer.layout {
            Layout::Structured { .. } => {
                let wpe = self.wpe();
                w / wpe * wpe.div_ceil(PER_ROW) + w % wpe / PER_ROW
            }
            _ => w / PER_ROW,
        }
    }

    fn heading(&self) -> String {
        let b = self.buffer;
        let bytes = b.words.len() * 4;
        let mut s = format!("{}{}", self.space.prefix(), self.slot);
        if let Some(r) = self.reflection {
            s.push_str(&format!(" \"{}\"", r.name));
        }
        let count = b.words.len() / self.wpe();
        match b.layout {
            Layout::Raw => s.push_str(&format!(" · raw · {bytes} bytes")),
            Layout::Structured { stride } => {
                s.push_str(&format!(" · structured, stride {stride}"));
                if let Some(e) = self.reflection.and_then(|r| r.element.as_ref()) {
                    s.push_str(&format!(" ({e})"));
                }
                s.push_str(&format!(" · {count} elements ({bytes} bytes)"));
            }
            Layout::Typed { format, row } => {
                s.push_str(&format!(" · typed {}", format.name()));
                match row {
                    Some(w) => s.push_str(&format!(
                        " · {w}x{} texels",
                        b.words.len() / (w.max(1) as usize)
                    )),
                    None => s.push_str(&format!(" · {count} elements")),
                }
            }
        }
        if self.space == Space::Uav {
            s.push_str(&format!(" · counter {}", b.counter));
        }
        s
    }

    /// Data row `i`: its first word, word count and label.
    fn span(&self, i: usize) -> (usize, usize, String) {
        let n = self.buffer.words.len();
        match self.buffer.layout {
            Layout::Structured { .. } => {
                let wpe = self.wpe();
                let per = wpe.div_ceil(PER_ROW);
                let (e, part) = (i / per, i % per);
                let first = e * wpe + part * PER_ROW;
                let len = PER_ROW.min(wpe - part * PER_ROW);
                let label = if part == 0 {
                    format!("[{e}]")
                } else {
                    format!("  +{}", part * PER_ROW * 4)
                };
                (first, len, label)
            }
            Layout::Raw => {
                let first = i * PER_ROW;
                (first, PER_ROW.min(n - first), format!("@{}", first * 4))
            }
            Layout::Typed { row, .. } => {
                let first = i * PER_ROW;
                let label = match row {
                    Some(w) if w > 0 => {
                        let w = w as usize;
                        format!("({},{})", first % w, first / w)
                    }
                    _ => format!("[{first}]"),
                };
                (first, PER_ROW.min(n - first), label)
            }
        }
    }

    /// How word `w` is named and shown in the typed view.
    fn word_meaning(&self, w: usize, first: usize) -> (String, WordType) {
        match self.buffer.layout {
            Layout::Typed { format, .. } => {
                let kind = match format.kind() {
                    NumericKind::Float => WordType::Float,
                    NumericKind::Uint => WordType::Uint,
                    NumericKind::Sint => WordType::Int,
                    _ => WordType::Bits,
                };
                (format!("+{}", w - first), kind)
            }
            Layout::Raw => (format!("+{}", (w - first) * 4), WordType::Bits),
            Layout::Structured { .. } => {
                let within = w % self.wpe();
                let known = self
                    .reflection
                    .and_then(|r| r.words.get(within))
                    .and_then(|m| m.clone());
                known.unwrap_or_else(|| (format!("+{}", within * 4), WordType::Bits))
            }
        }
    }
}

/// The pane's contents for one state of the machine.
pub struct MemoryPane<'a> {
    sections: Vec<Section<'a>>,
    writes: &'a [MemoryWrite],
    /// None: typed (by format or RDEF); otherwise every word this way.
    view: Option<ValueView>,
}

impl<'a> MemoryPane<'a> {
    /// `srvs` and `uavs` by slot, as bound.
    pub fn new(
        srvs: impl IntoIterator<Item = (u32, &'a Buffer)>,
        uavs: impl IntoIterator<Item = (u32, &'a Buffer)>,
        names: &'a BTreeMap<(Space, u32), Reflection>,
        writes: &'a [MemoryWrite],
        view: Option<ValueView>,
    ) -> MemoryPane<'a> {
        let section = |space: Space| {
            move |(slot, buffer): (u32, &'a Buffer)| Section {
                space,
                slot,
                buffer,
                reflection: names.get(&(space, slot)),
            }
        };
        let mut sections: Vec<Section> = srvs.into_iter().map(section(Space::Srv)).collect();
        sections.extend(uavs.into_iter().map(section(Space::Uav)));
        MemoryPane {
            sections,
            writes,
            view,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// Rows in all: each section's heading and its data rows.
    pub fn len(&self) -> usize {
        self.sections.iter().map(|s| 1 + s.data_rows()).sum()
    }

    /// The section and data row (None: the heading) of pane row `i`.
    fn locate(&self, mut i: usize) -> Option<(&Section<'a>, Option<usize>)> {
        for s in &self.sections {
            let n = 1 + s.data_rows();
            if i < n {
                return Some((s, i.checked_sub(1)));
            }
            i -= n;
        }
        None
    }

    /// Pane rows of the first word the last step wrote, and the last.
    pub fn written_rows(&self) -> Option<(usize, usize)> {
        let mut rows = self.writes.iter().filter_map(|w| {
            let Cell::Word { word, .. } = w.cell else {
                return None;
            };
            let mut base = 0;
            for s in &self.sections {
                if s.space == Space::Uav && s.slot == w.slot {
                    return Some(base + 1 + s.row_of(word as usize));
                }
                base += 1 + s.data_rows();
            }
            None
        });
        let first = rows.next()?;
        let (lo, hi) = rows.fold((first, first), |(lo, hi), r| (lo.min(r), hi.max(r)));
        Some((lo, hi))
    }

    pub fn row(&self, i: usize) -> Option<MemRow> {
        let (s, data) = self.locate(i)?;
        let Some(d) = data else {
            return Some(MemRow::Heading(s.heading()));
        };
        let (first, len, label) = s.span(d);
        let ours = |w: usize| {
            self.writes.iter().filter(move |m| {
                s.space == Space::Uav
                    && m.slot == s.slot
                    && matches!(m.cell, Cell::Word { word, .. } if word as usize == w)
            })
        };
        let element = |w: usize| s.buffer.element_of(w);
        let written_elements: Vec<u32> = self
            .writes
            .iter()
            .filter(|m| s.space == Space::Uav && m.slot == s.slot)
            .filter_map(|m| match m.cell {
                Cell::Word { element, .. } => Some(element),
                Cell::Counter => None,
            })
            .collect();
        let cells = (first..first + len)
            .map(|w| {
                let (name, kind) = s.word_meaning(w, first);
                let bits = s.buffer.words[w];
                let text = match self.view {
                    None => kind.format(bits),
                    Some(v) => v.format(bits),
                };
                MemCell {
                    name,
                    text,
                    written: ours(w).next().is_some(),
                    changed: ours(w).any(|m| m.old != m.new),
                }
            })
            .collect();
        let marked = (first..first + len).any(|w| written_elements.contains(&element(w)));
        Some(MemRow::Words {
            label,
            marked,
            cells,
        })
    }
}

/// What the last step wrote, in a line: `u1 element 3 (words 6-7), lanes
/// 0-3`; counters as `u1 counter 2 -> 3`.
pub fn summary(writes: &[MemoryWrite]) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut slots: Vec<u32> = writes.iter().map(|w| w.slot).collect();
    slots.dedup();
    for slot in slots {
        let mine: Vec<&MemoryWrite> = writes.iter().filter(|w| w.slot == slot).collect();
        let mut elements: Vec<u32> = mine
            .iter()
            .filter_map(|w| match w.cell {
                Cell::Word { element, .. } => Some(element),
                Cell::Counter => None,
            })
            .collect();
        elements.sort_unstable();
        elements.dedup();
        if !elements.is_empty() {
            let list: Vec<String> = elements.iter().map(u32::to_string).collect();
            let noun = if elements.len() == 1 {
                "element"
            } else {
                "elements"
            };
            parts.push(format!("u{slot} {noun} {}", list.join(",")));
        }
        let counter: Vec<&&MemoryWrite> = mine.iter().filter(|w| w.cell == Cell::Counter).collect();
        if let (Some(a), Some(b)) = (counter.first(), counter.last()) {
            parts.push(format!("u{slot} counter {} -> {}", a.old, b.new));
        }
    }
    let lanes: std::collections::BTreeSet<usize> = writes.iter().map(|w| w.lane).collect();
    let lanes: Vec<String> = lanes.iter().map(usize::to_string).collect();
    let noun = if lanes.len() == 1 { "lane" } else { "lanes" };
    (!parts.is_empty()).then(|| format!("wrote {} ({noun} {})", parts.join(", "), lanes.join(",")))
}

impl App {
    /// The memory pane for the machine as it stands.
    pub fn memory_pane(&self) -> MemoryPane<'_> {
        let srvs = (self.resources.buffers.iter().enumerate())
            .filter_map(|(slot, b)| Some((slot as u32, b.as_ref()?)));
        let uavs = (0..self.inputs.uavs.len() as u32)
            .filter_map(|slot| Some((slot, self.machine.uav(slot)?)));
        MemoryPane::new(
            srvs,
            uavs,
            &self.names,
            self.machine.memory_writes(),
            self.mem_view,
        )
    }

    /// `v` while the memory pane shows: typed, then the register views.
    pub(super) fn cycle_memory_view(&mut self) {
        self.mem_view = super::values::next_memory_view(self.mem_view);
    }

    /// The memory pane's view, as its title says it.
    pub fn memory_view_name(&self) -> &'static str {
        super::values::view_name(self.mem_view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::rdef::Member;

    fn scalar(class_: u16, base: u16, columns: u16, elements: u16) -> Type {
        Type {
            class: class_,
            base,
            rows: 1,
            columns,
            elements,
            members: Vec::new(),
            name: None,
            extra: None,
        }
    }

    fn member(name: &str, offset: u32, ty: Type) -> Member {
        Member {
            name: name.into(),
            offset,
            ty,
        }
    }

    fn words(ty: &Type) -> Vec<Option<(String, WordType)>> {
        let mut w = Vec::new();
        flatten(ty, "", 0, &mut w);
        w
    }

    #[test]
    fn members_name_their_words_by_type_and_control_bytes_are_escaped() {
        // struct { float3 p; int n[2]; struct { uint u; } s; bool\n b; }
        // Offsets as a structured buffer packs them: p 0, n 12, s 20, b 24
        // (the member named with a newline, as a hostile RDEF could).
        let inner = Type {
            members: vec![member("u", 0, scalar(class::SCALAR, 19, 1, 0))],
            ..scalar(class::STRUCT, 0, 1, 0)
        };
        let ty = Type {
            members: vec![
                member("p", 0, scalar(class::VECTOR, 3, 3, 0)),
                member("n", 12, scalar(class::SCALAR, 2, 1, 2)),
                member("s", 20, inner),
                member("b\n", 24, scalar(class::SCALAR, 1, 1, 0)),
            ],
            ..scalar(class::STRUCT, 0, 1, 0)
        };
        let got: Vec<(String, WordType)> = words(&ty).into_iter().map(Option::unwrap).collect();
        let w = |n: &str, t| (n.to_string(), t);
        assert_eq!(
            got,
            [
                w("p.x", WordType::Float),
                w("p.y", WordType::Float),
                w("p.z", WordType::Float),
                w("n[0]", WordType::Int),
                w("n[1]", WordType::Int),
                w("s.u", WordType::Uint),
                w("b\\x0a", WordType::Uint),
            ]
        );
    }

    #[test]
    fn gaps_and_doubles_stay_bits() {
        // struct { double d; float f; } with f at 12: words 0, 1 are the
        // double's (bits), word 2 nothing, word 3 the float.
        let ty = Type {
            members: vec![
                member("d", 0, scalar(class::SCALAR, 39, 1, 0)),
                member("f", 12, scalar(class::SCALAR, 3, 1, 0)),
            ],
            ..scalar(class::STRUCT, 0, 1, 0)
        };
        let w = words(&ty);
        assert_eq!(w.len(), 4);
        assert_eq!(w[0].as_ref().unwrap().1, WordType::Bits);
        assert_eq!(w[2], None);
        assert_eq!(w[3], Some(("f".to_string(), WordType::Float)));
    }

    #[test]
    fn long_elements_take_several_rows() {
        // Stride 24: six words, rows of four then two, the second labelled
        // by its byte offset in the element.
        let b = Buffer::new(Layout::Structured { stride: 24 }, (0..12).collect());
        let names = BTreeMap::new();
        let pane = MemoryPane::new([], [(0, &b)], &names, &[], None);
        assert_eq!(pane.len(), 1 + 4);
        let Some(MemRow::Words { label, cells, .. }) = pane.row(2) else {
            panic!("a row of words");
        };
        assert_eq!(label, "  +16");
        let texts: Vec<&str> = cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["0x00000004", "0x00000005"]);
        assert_eq!(cells[0].name, "+16");
        let Some(MemRow::Words { label, .. }) = pane.row(3) else {
            panic!("a row of words");
        };
        assert_eq!(label, "[1]");
        assert_eq!(pane.row(5), None);
    }

    #[test]
    fn the_particles_shader_names_its_uav() {
        let text = include_str!("../../shaders/debugger/particles.asm");
        let bytes = crate::dxbc::asm::assemble(text).expect("assembles");
        let shader = Shader::parse(&bytes, Default::default()).expect("parses");
        let names = reflect(&shader);
        let r = &names[&(Space::Uav, 1)];
        assert_eq!(r.name, "particles");
        assert_eq!(r.element.as_deref(), Some("struct Particle"));
        let kinds: Vec<WordType> = r.words.iter().map(|w| w.as_ref().unwrap().1).collect();
        assert_eq!(
            kinds,
            [
                WordType::Float,
                WordType::Float,
                WordType::Uint,
                WordType::Int
            ]
        );
    }
}
