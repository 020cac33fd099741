//! The watch list: expressions kept across steps (`a` adds one, `A`
//! removes one) and shown at the top of the register pane after every
//! step, each component by its type (or the pane's view) and highlighted
//! when the last step changed it in the lane shown. `w` with an empty
//! prompt runs until a watched component changes.
//!
//! Register expressions go through [`resolve`]; anything else is looked up
//! as a name (`App::resolve`, `names.rs`: a semantic, a constant buffer
//! field by path or unique suffix), with or without a component.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::dxbc::shown::shown as escaped;
use crate::dxbc::value_type::ValueType;
use crate::vm::Loc;

use super::app::{App, Tone};
use super::names::Named;
use super::values::{component_name, component_of, shown};

/// Most expressions the list keeps: the strip takes rows from the
/// register pane, so it stays small.
pub const MAX_WATCHES: usize = 8;

/// A register a watch reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A register the lane writes (temps, outputs, `x#[i]`, `oDepth`, …).
    Written(Loc),
    /// Input `v#` (read only: never changes during a run).
    Input(u32),
    /// Constant buffer slot and row (read only, like inputs).
    Constant(u32, u32),
}

/// A resolved watch expression: the register and which of its components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watch {
    /// As the user typed it (trimmed), shown with control characters
    /// escaped.
    pub text: String,
    pub place: Place,
    /// Component indices in the order named (`r0.wx` → 3, 0).
    pub components: Vec<usize>,
}

/// One component's value for the strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub component: usize,
    pub bits: u32,
    pub ty: ValueType,
    pub changed: bool,
}

/// The one entry point from text to a watch: register names today
/// (`r0.x`, `o0`, `v1.y`, `x0[2].z`, `oDepth`, `r1.xy`).
pub fn resolve(text: &str) -> Result<Watch, String> {
    let text = text.trim();
    let (reg, mask) = match text.rsplit_once('.') {
        Some((r, m)) => (r, Some(m)),
        None => (text, None),
    };
    let place = register(reg).ok_or_else(|| {
        format!(
            "`{}` is not a register (r#, v#, o#, x#[i], oDepth, oMask)",
            escaped(reg)
        )
    })?;
    let scalar = matches!(
        place,
        Place::Written(Loc::Depth | Loc::Coverage | Loc::StencilRef)
    );
    let components = match (mask, scalar) {
        (None, true) => vec![0],
        (None, false) => vec![0, 1, 2, 3],
        (Some(_), true) => return Err(format!("`{}` has one component", escaped(reg))),
        (Some(m), false) => components(m).ok_or_else(|| {
            format!(
                "`.{}` is not a component mask (x, y, z, w or r, g, b, a, each once)",
                escaped(m)
            )
        })?,
    };
    Ok(Watch {
        text: text.to_string(),
        place,
        components,
    })
}

fn register(s: &str) -> Option<Place> {
    let num = |t: &str| -> Option<u32> {
        // Digits only: `r+1` or `r 1` are not registers.
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    Some(match s {
        "oDepth" => Place::Written(Loc::Depth),
        "oMask" => Place::Written(Loc::Coverage),
        "oStencilRef" => Place::Written(Loc::StencilRef),
        _ => {
            if let Some(rest) = s.strip_prefix('x') {
                let (r, i) = rest.strip_suffix(']')?.split_once('[')?;
                Place::Written(Loc::Indexable(num(r)?, num(i)?))
            } else if let Some(r) = s.strip_prefix('r') {
                Place::Written(Loc::Temp(num(r)?))
            } else if let Some(r) = s.strip_prefix('o') {
                Place::Written(Loc::Output(num(r)?))
            } else if let Some(r) = s.strip_prefix('v') {
                Place::Input(num(r)?)
            } else {
                return None;
            }
        }
    })
}

fn components(mask: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for c in mask.chars() {
        let i = component_of(c)?;
        if out.contains(&i) {
            return None;
        }
        out.push(i);
    }
    (!out.is_empty()).then_some(out)
}

impl App {
    /// The register file `watch` reads, in the lane shown, or why it has
    /// none (a register the program does not declare).
    fn watch_values(&self, watch: &Watch) -> Result<[u32; 4], String> {
        let lane = self.lane;
        let regs = &self.machine.state.lanes[lane];
        match watch.place {
            Place::Written(Loc::Depth) => Ok([regs.depth, 0, 0, 0]),
            Place::Written(Loc::Coverage) => Ok([regs.coverage, 0, 0, 0]),
            Place::Written(Loc::StencilRef) => Ok([regs.stencil_ref, 0, 0, 0]),
            Place::Written(loc) => regs
                .get(loc)
                .copied()
                .ok_or_else(|| format!("the program has no {loc}")),
            Place::Input(i) => self.machine.state.inputs[lane]
                .get(i as usize)
                .copied()
                .ok_or_else(|| format!("the program has no v{i}")),
            Place::Constant(b, row) => (self.machine.state.constant_buffers)
                .get(b as usize)
                .and_then(|cb| cb.get(row as usize))
                .copied()
                .ok_or_else(|| format!("no cb{b}[{row}] is bound")),
        }
    }

    /// A watch expression: a register (`resolve`), else a name with a
    /// component (`TEXCOORD0.y`, `cbFxaa.rcpFrame.x`) or without one (every
    /// component the name covers on its row: `cbFxaa.rcpFrame`).
    pub fn watch_of(&self, text: &str) -> Result<Watch, String> {
        let register_error = match resolve(text) {
            Ok(w) => return Ok(w),
            Err(e) => e,
        };
        let text = text.trim();
        let each: Vec<Named> = match self.resolve(text) {
            Some(named) => vec![named],
            None => (["x", "y", "z", "w"].iter())
                .filter_map(|c| self.resolve(&format!("{text}.{c}")))
                .collect(),
        };
        let mut place = None;
        let mut components = Vec::new();
        for named in each {
            let (p, c) = match named {
                Named::Reg(loc, c) => (Place::Written(loc), c),
                Named::Input(r, c) => (Place::Input(r), c),
                Named::Constant(b, row, c) => (Place::Constant(b, row), c),
            };
            // A name spanning rows (a matrix, an array) is watched by one
            // of its elements: the strip shows one register per entry.
            if place.is_some_and(|q| q != p) {
                return Err(format!(
                    "`{}` spans several registers: watch one element or row",
                    escaped(text)
                ));
            }
            place = Some(p);
            components.push(c);
        }
        match place {
            Some(place) => Ok(Watch {
                text: text.to_string(),
                place,
                components,
            }),
            None => Err(format!(
                "{register_error}, nor a name the shader's RDEF or signatures give"
            )),
        }
    }

    /// A watch's components in the lane shown: value, type and whether
    /// the last step changed it there.
    pub fn watch_cells(&self, watch: &Watch) -> Result<Vec<Cell>, String> {
        let values = self.watch_values(watch)?;
        let lane = self.lane;
        Ok(watch
            .components
            .iter()
            .map(|&c| match watch.place {
                Place::Written(loc) => Cell {
                    component: c,
                    bits: values[c],
                    ty: self.machine.value_type(lane, loc, c),
                    changed: self
                        .machine
                        .changes()
                        .iter()
                        .any(|ch| ch.lane == lane && ch.loc == loc && ch.component == c),
                },
                Place::Input(i) => Cell {
                    component: c,
                    bits: values[c],
                    ty: self.machine.input_type(i, c),
                    changed: false,
                },
                Place::Constant(b, row) => Cell {
                    component: c,
                    bits: values[c],
                    ty: self.constant_type(b, row, c),
                    changed: false,
                },
            })
            .collect())
    }

    /// `a`: adds an expression to the list, refusing one that names
    /// nothing the program has (so the strip never shows a dead row).
    pub fn add_watch(&mut self, text: &str) {
        let watch = match self.watch_of(text) {
            Ok(w) => w,
            Err(e) => return self.set(Tone::Error, e),
        };
        if let Err(e) = self.watch_values(&watch) {
            return self.set(
                Tone::Error,
                format!("cannot watch `{}`: {e}", watch.shown()),
            );
        }
        if self.watches.iter().any(|w| w == &watch) {
            return self.set(
                Tone::Warn,
                format!("`{}` is watched already", watch.shown()),
            );
        }
        if self.watches.len() >= MAX_WATCHES {
            return self.set(
                Tone::Error,
                format!("the watch list holds {MAX_WATCHES}; remove one first (A)"),
            );
        }
        self.set(Tone::Info, format!("watching `{}`", watch.shown()));
        self.watches.push(watch);
    }

    /// `A`: removes entry N (1-based, as the strip numbers them), or the
    /// last one added when the prompt is left empty.
    pub fn remove_watch(&mut self, text: &str) {
        let text = text.trim();
        if self.watches.is_empty() {
            return self.set(Tone::Warn, "the watch list is empty");
        }
        let n = self.watches.len();
        let index = if text.is_empty() {
            n - 1
        } else {
            match text.parse::<usize>() {
                Ok(i) if (1..=n).contains(&i) => i - 1,
                _ => {
                    return self.set(
                        Tone::Error,
                        format!("`{}` is not a watch number (1-{n})", escaped(text)),
                    );
                }
            }
        };
        let gone = self.watches.remove(index);
        self.set(Tone::Info, format!("stopped watching `{}`", gone.shown()));
    }

    /// `w` with an empty prompt: runs until a step changes a watched
    /// component in any lane (the list's own run-until-change).
    pub fn run_until_watched_changes(&mut self) {
        if self.watches.is_empty() {
            return self.set(
                Tone::Error,
                "the watch list is empty: type a register component, or add watches with a",
            );
        }
        self.run(usize::MAX, |app| {
            let hit = app.machine.changes().iter().find(|ch| {
                app.watches.iter().any(|w| {
                    w.place == Place::Written(ch.loc) && w.components.contains(&ch.component)
                })
            })?;
            let ty = app.machine.value_type(hit.lane, hit.loc, hit.component);
            Some(format!(
                "watched {}.{} changed: {} -> {} (lane {})",
                hit.loc,
                component_name(hit.component),
                shown(app.view, hit.old, ty),
                shown(app.view, hit.new, ty),
                hit.lane
            ))
        });
    }

    /// The strip's lines: a heading, then one line per watch. Empty when
    /// nothing is watched, so the pane is as before.
    pub fn watch_lines(&self, changed: Style, heading: Style, dim: Style) -> Vec<Line<'static>> {
        if self.watches.is_empty() {
            return Vec::new();
        }
        let mut lines = vec![Line::styled(
            "watch (a: add, A: remove, w + Enter: run until one changes)",
            heading,
        )];
        for (i, w) in self.watches.iter().enumerate() {
            let mut spans = vec![Span::raw(format!(" {:>1} {:<10}", i + 1, w.shown()))];
            match self.watch_cells(w) {
                Ok(cells) => {
                    for c in cells {
                        spans.push(Span::styled(
                            format!(" {}:", component_name(c.component)),
                            dim,
                        ));
                        let style = if c.changed { changed } else { Style::new() };
                        spans.push(Span::styled(
                            format!("{:>13}", shown(self.view, c.bits, c.ty)),
                            style,
                        ));
                    }
                }
                Err(e) => spans.push(Span::styled(format!(" {e}"), dim)),
            }
            lines.push(Line::from(spans));
        }
        lines
    }
}

impl Watch {
    /// The expression as shown: control characters escaped.
    pub fn shown(&self) -> String {
        escaped(&self.text).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> (Place, Vec<usize>) {
        let w = resolve(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        (w.place, w.components)
    }

    #[test]
    fn registers_and_masks() {
        assert_eq!(ok("r0.x"), (Place::Written(Loc::Temp(0)), vec![0]));
        assert_eq!(
            ok(" o0 "),
            (Place::Written(Loc::Output(0)), vec![0, 1, 2, 3])
        );
        assert_eq!(ok("v1.y"), (Place::Input(1), vec![1]));
        assert_eq!(
            ok("x0[2].z"),
            (Place::Written(Loc::Indexable(0, 2)), vec![2])
        );
        assert_eq!(ok("r3.wx"), (Place::Written(Loc::Temp(3)), vec![3, 0]));
        assert_eq!(
            ok("o1.rgb"),
            (Place::Written(Loc::Output(1)), vec![0, 1, 2])
        );
        assert_eq!(ok("oDepth"), (Place::Written(Loc::Depth), vec![0]));
    }

    #[test]
    fn bad_expressions_say_why() {
        for bad in [
            "",
            "r",
            "r-1.x",
            "r+1",
            "q0.x",
            "x0.x",
            "x0[a].x",
            "r99999999999",
        ] {
            let e = resolve(bad).expect_err(bad);
            assert!(e.contains("is not a register"), "{bad}: {e}");
        }
        for bad in ["r0.q", "r0.xx", "r0.", "v0.xyzwx"] {
            let e = resolve(bad).expect_err(bad);
            assert!(e.contains("is not a component mask"), "{bad}: {e}");
        }
        assert!(resolve("oDepth.x").unwrap_err().contains("one component"));
        // A control character typed or pasted is escaped in the message.
        let e = resolve("r\u{1b}[2J").unwrap_err();
        assert!(e.contains("\\x1b") && !e.contains('\u{1b}'), "{e}");
    }
}
