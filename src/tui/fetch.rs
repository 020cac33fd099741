//! The texture-read section (`e`): after a sample, gather or `ld`, what
//! the emulator's texture unit did for the shown lane — resource and
//! sampler, coordinates, derivatives and LOD, each texel read with its
//! weight or comparison result, and the result.
//!
//! The machine explains the instruction at its program counter
//! (`Machine::explain_fetch`), so the instruction just executed is
//! explained by stepping back over it, explaining, and stepping forward
//! again: one instruction each way, done once per step position and
//! cached.

use std::collections::BTreeMap;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};

use crate::dxbc::Shader;
use crate::dxbc::rdef::InputType;
use crate::dxbc::shown::shown;
use crate::vm::fetch::explains;
use crate::vm::texture::{
    AddressMode, Dimension, FetchDetail, FetchKind, Filter, Lod, Sampler, TapSource, TextureDesc,
};
use crate::vm::{LANES, LaneFetch};

use super::app::App;
use super::values::float_text;

/// Which step the cached explanation belongs to: the step position, the
/// instruction it ran and the pixel (picking a pixel re-runs the machine
/// to the same position).
type Key = (usize, usize, (u32, u32));

/// The section's state: shown or hidden, the RDEF names of the texture
/// and sampler bindings, and the explanation of the last step.
pub struct FetchPane {
    pub shown: bool,
    names: BTreeMap<(bool, u32), String>,
    cache: Option<(Key, Option<[Option<LaneFetch>; LANES]>)>,
}

impl FetchPane {
    pub fn new(shader: &Shader) -> FetchPane {
        FetchPane {
            shown: true,
            names: binding_names(shader),
            cache: None,
        }
    }
}

/// RDEF's names of the texture (`false`) and sampler (`true`) bindings by
/// slot, escaped (they are untrusted bytes). The one place names are looked
/// up, so a general names module can replace it.
fn binding_names(shader: &Shader) -> BTreeMap<(bool, u32), String> {
    let mut out = BTreeMap::new();
    let Some(rdef) = &shader.rdef else {
        return out;
    };
    for b in &rdef.bindings {
        let sampler = match b.input_type {
            InputType::Texture => false,
            InputType::Sampler => true,
            _ => continue,
        };
        let name = shown(&b.name).into_owned();
        let count = b.bind_count.clamp(1, 128);
        for i in 0..count {
            let each = if count > 1 {
                format!("{name}[{i}]")
            } else {
                name.clone()
            };
            out.insert((sampler, b.bind_point.saturating_add(i)), each);
        }
    }
    out
}

impl App {
    /// The explanation of the instruction just executed, when it was a
    /// texture read (computed once per step position).
    pub fn last_fetch(&mut self) -> Option<&[Option<LaneFetch>; LANES]> {
        let index = self.machine.last_index()?;
        let inst = self.program.instructions.get(index)?;
        let op = inst.op.feedback_form().map_or(inst.op, |f| f.plain);
        if !explains(op) {
            return None;
        }
        let key = (self.machine.position(), index, self.pixel);
        if self.fetch.cache.as_ref().map(|c| c.0) != Some(key) {
            let mut lanes = None;
            if self.machine.step_back() {
                lanes = self.machine.explain_fetch().ok().flatten();
                // Re-running the instruction restores the state it left.
                let _ = self.machine.step();
            }
            self.fetch.cache = Some((key, lanes));
        }
        self.fetch.cache.as_ref()?.1.as_ref()
    }

    /// The section's lines for the shown lane; empty when there is nothing
    /// to show.
    pub fn fetch_rows(&mut self) -> Vec<String> {
        if !self.fetch.shown {
            return Vec::new();
        }
        let lane = self.lane;
        let Some(lanes) = self.last_fetch().cloned() else {
            return Vec::new();
        };
        let Some(f) = &lanes[lane] else {
            return vec![format!("lane {lane} did not run this instruction")];
        };
        rows(f, &self.fetch.names)
    }
}

/// Draws the section at the top of `area` when the last step read a
/// texture; returns what is left for the pane below.
pub fn draw(frame: &mut Frame, app: &mut App, area: Rect) -> Rect {
    let rows = app.fetch_rows();
    if rows.is_empty() || area.height < 8 {
        return area;
    }
    let height = (rows.len() as u16 + 2).min(area.height / 2);
    let [top, rest] =
        Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(area);
    let title = match app.machine.last_index() {
        Some(i) => format!(
            " texture read [{i}] {} · lane {} · e: hide ",
            app.program.instructions[i].name(),
            app.lane
        ),
        None => " texture read ".into(),
    };
    let heading = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
    // Rows past the section's half of the pane are counted on its border
    // (`+` makes the pane taller).
    let total = rows.len();
    let block = super::layout::with_more(
        Block::bordered().title(title),
        0,
        usize::from(height.saturating_sub(2)).min(total),
        total,
    );
    let lines: Vec<Line> = rows
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            if k == 0 {
                Line::styled(r, heading)
            } else {
                Line::raw(r)
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), top);
    rest
}

/// A float lane, short.
fn num(bits: u32) -> String {
    float_text(bits)
}

fn nums(v: &[u32]) -> String {
    v.iter().map(|&b| num(b)).collect::<Vec<_>>().join(", ")
}

fn f3(v: [f32; 3], n: usize) -> String {
    v[..n]
        .iter()
        .map(|f| num(f.to_bits()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn dimension(d: Dimension) -> &'static str {
    match d {
        Dimension::Buffer => "buffer",
        Dimension::Tex1D => "1D",
        Dimension::Tex1DArray => "1D array",
        Dimension::Tex2D => "2D",
        Dimension::Tex2DArray => "2D array",
        Dimension::Tex2DMS => "2D MS",
        Dimension::Tex2DMSArray => "2D MS array",
        Dimension::Tex3D => "3D",
        Dimension::Cube => "cube",
        Dimension::CubeArray => "cube array",
    }
}

fn desc_text(d: &TextureDesc) -> String {
    let size = match d.dimension {
        Dimension::Tex3D => format!("{}x{}x{}", d.width, d.height, d.depth),
        Dimension::Buffer | Dimension::Tex1D | Dimension::Tex1DArray => d.width.to_string(),
        _ => format!("{}x{}", d.width, d.height),
    };
    format!("{} {size} {}", dimension(d.dimension), d.format.name())
}

fn filter(f: Filter) -> &'static str {
    match f {
        Filter::Point => "point",
        Filter::Linear => "linear",
    }
}

fn address(a: AddressMode) -> &'static str {
    match a {
        AddressMode::Wrap => "wrap",
        AddressMode::Mirror => "mirror",
        AddressMode::Clamp => "clamp",
        AddressMode::Border => "border",
        AddressMode::MirrorOnce => "mirror_once",
    }
}

fn sampler_text(s: &Sampler) -> String {
    let f = if s.max_anisotropy.is_some() {
        "anisotropic".to_string()
    } else if s.min_filter == s.mag_filter && s.mag_filter == s.mip_filter {
        filter(s.min_filter).to_string()
    } else {
        format!(
            "min {} mag {} mip {}",
            filter(s.min_filter),
            filter(s.mag_filter),
            filter(s.mip_filter)
        )
    };
    let a = if s.address[0] == s.address[1] && s.address[1] == s.address[2] {
        address(s.address[0]).to_string()
    } else {
        s.address.map(address).join("/")
    };
    format!("{f} {a}")
}

/// Coordinate components a dimension reads, named.
fn coord_text(d: &FetchDetail, dim: Dimension) -> String {
    let (names, n): (&str, usize) = match dim {
        Dimension::Tex1D | Dimension::Buffer => ("u", 1),
        Dimension::Tex1DArray => ("u, layer", 2),
        Dimension::Tex2D | Dimension::Tex2DMS => ("uv", 2),
        Dimension::Tex2DArray | Dimension::Tex2DMSArray => ("uv, layer", 3),
        Dimension::Tex3D => ("uvw", 3),
        Dimension::Cube => ("dir", 3),
        Dimension::CubeArray => ("dir, cube", 4),
    };
    if d.kind == FetchKind::Load {
        let n = if dim == Dimension::Buffer { 1 } else { n };
        let c: Vec<String> = d.coord[..n].iter().map(u32::to_string).collect();
        return format!("texel ({}) mip {}", c.join(", "), d.coord[3]);
    }
    format!("{names} ({})", nums(&d.coord[..n]))
}

fn tap_place(s: TapSource, dim: Dimension) -> String {
    match s {
        TapSource::Texel {
            layer,
            level,
            xyz,
            in_bounds,
        } => {
            let n = match dim {
                Dimension::Tex3D => 3,
                Dimension::Buffer | Dimension::Tex1D | Dimension::Tex1DArray => 1,
                _ => 2,
            };
            let c: Vec<String> = xyz[..n].iter().map(u32::to_string).collect();
            let layer = match dim {
                Dimension::Cube | Dimension::CubeArray => format!(" face {layer}"),
                _ if dim.is_array() => format!(" layer {layer}"),
                _ => String::new(),
            };
            let oob = if in_bounds { "" } else { " (out of bounds)" };
            format!("texel ({}) mip {level}{layer}{oob}", c.join(","))
        }
        TapSource::Border => "border".into(),
        TapSource::CubeCorner => "cube corner (mean of the other three)".into(),
    }
}

/// The section's lines for one lane: header, LOD line, one line per tap,
/// the result.
pub fn rows(f: &LaneFetch, names: &BTreeMap<(bool, u32), String>) -> Vec<String> {
    let name = |sampler: bool, slot: u32| {
        names
            .get(&(sampler, slot))
            .map(|n| format!(" \"{n}\""))
            .unwrap_or_default()
    };
    let mut head = format!("t{}{}", f.texture, name(false, f.texture));
    match &f.desc {
        Some(d) => head.push_str(&format!(" ({})", desc_text(d))),
        None => head.push_str(" (unbound: reads zeros)"),
    }
    if let Some((slot, s)) = &f.sampler {
        head.push_str(&format!(
            " · s{slot}{} {}",
            name(true, *slot),
            sampler_text(s)
        ));
    }
    let mut out = vec![head];
    let (Some(d), Some(desc)) = (&f.detail, &f.desc) else {
        out.push(format!("result ({})", nums(&f.value)));
        return out;
    };
    let dim = desc.dimension;
    let axes = match dim {
        Dimension::Tex3D | Dimension::Cube | Dimension::CubeArray => 3,
        Dimension::Tex1D | Dimension::Tex1DArray => 1,
        _ => 2,
    };
    let mut line = coord_text(d, dim);
    if d.offset != [0; 3] {
        line.push_str(&format!(
            " · offset ({}, {}, {})",
            d.offset[0], d.offset[1], d.offset[2]
        ));
    }
    if let Some(lod) = &d.lod {
        match lod.source {
            Lod::FromGradients { ddx, ddy, bias } => {
                line.push_str(&format!(
                    " · ddx ({}) ddy ({})",
                    f3(ddx, axes),
                    f3(ddy, axes)
                ));
                if bias != 0.0 {
                    line.push_str(&format!(" bias {}", num(bias.to_bits())));
                }
            }
            Lod::Explicit(l) => line.push_str(&format!(" · LOD given {}", num(l.to_bits()))),
            Lod::Zero => line.push_str(" · LOD 0 (lz)"),
        }
        line.push_str(&format!(" · LOD {}", num((lod.clamped as f32).to_bits())));
        if let Some(c) = lod.min_lod_clamp {
            line.push_str(&format!(" cl {}", num(c.to_bits())));
        }
        let levels: Vec<String> = lod
            .levels
            .iter()
            .map(|(l, w)| {
                if lod.levels.len() == 1 {
                    format!("mip {l}")
                } else {
                    format!("mip {l} × {w}")
                }
            })
            .collect();
        line.push_str(&format!(
            " → {} ({}, {})",
            num((lod.lod as f32).to_bits()),
            if lod.magnify { "mag" } else { "min" },
            levels.join(" + ")
        ));
    }
    if let Some(r) = d.reference {
        let func = f.sampler.map(|(_, s)| s.comparison);
        line.push_str(&format!(" · ref {}", num(r.to_bits())));
        if let Some(func) = func {
            line.push_str(&format!(" {func:?}"));
        }
    }
    if let Some(c) = d.channel {
        line.push_str(&format!(
            " · channel {}",
            ["r", "g", "b", "a"][c as usize & 3]
        ));
    }
    out.push(line);
    let gather = matches!(d.kind, FetchKind::Gather | FetchKind::GatherCompare);
    for (k, t) in d.taps.iter().enumerate() {
        let mut s = String::new();
        if gather {
            s.push_str(&format!("{}: ", ["x", "y", "z", "w"][k & 3]));
        }
        s.push_str(&tap_place(t.source, dim));
        if t.source != TapSource::CubeCorner {
            let shown_value = match (d.kind, d.channel) {
                (FetchKind::SampleCompare, _) => num(t.value[0]),
                (_, Some(c)) => num(t.value[c as usize & 3]),
                _ => format!("({})", nums(&t.value)),
            };
            s.push_str(&format!(" = {shown_value}"));
        }
        if let Some(c) = t.compared {
            s.push_str(if c == 1.0 { " → pass" } else { " → fail" });
        }
        if let Some(w) = t.weight {
            s.push_str(&format!(" × {w}"));
        }
        out.push(s);
    }
    if let Some(n) = d.note {
        out.push(n.to_string());
    }
    out.push(format!("result ({})", nums(&f.value)));
    out
}
