//! Drawing: the listing and GLSL side by side, the register file below,
//! a status line, and the help overlay or a prompt on top. Scroll
//! positions the last action asked to follow are settled here, where the
//! panes' heights are known.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::Pane;
use super::columns::{Item, pack};
use super::layout::{block, with_more};

use super::app::{App, Overlay, RegRow, component_name, shown};
use super::gpu::lane_pixel;
use super::memory::{MemRow, summary};

/// The smallest terminal the layout fits.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 20;

/// The next instruction to execute.
pub const PC: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::LightGreen)
    .add_modifier(Modifier::BOLD);
/// The listing cursor (when not on the next instruction).
pub const CURSOR: Style = Style::new().bg(Color::DarkGray);
/// The GLSL lines of the next instruction.
pub const GLSL_LINES: Style = Style::new().fg(Color::Black).bg(Color::LightGreen);
/// A memory word the last step wrote without changing its value.
pub const WRITTEN: Style = Style::new().fg(Color::Black).bg(Color::LightYellow);
/// The marker of a row holding an element the last step wrote.
pub const MARK: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
/// A register component the last step changed.
pub const CHANGED: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Yellow)
    .add_modifier(Modifier::BOLD);
/// A GPU value that differs from the emulator's beyond the case's
/// tolerance.
pub const DIFFERS: Style = Style::new()
    .fg(Color::White)
    .bg(Color::Red)
    .add_modifier(Modifier::BOLD);
/// A GPU value beside the emulator's.
const GPU: Style = Style::new().fg(Color::LightBlue);
const BREAKPOINT: Style = Style::new().fg(Color::LightRed);
const HEADING: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
const DIM: Style = Style::new().fg(Color::Gray);

pub fn draw(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "terminal too small: {}x{}; the debugger needs at least {MIN_WIDTH}x{MIN_HEIGHT} (q quits)",
            area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(msg).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    // The detail line wraps at the full width, so its height is known
    // before the rest is split.
    let detail_rows = super::detail::rows(app, area.width).len();
    // So is the status area: a long message takes rows of its own.
    let status_lines = super::status::lines(app, area.width);
    let g = app.layout.geometry(area, detail_rows, status_lines.len());
    let status = g.status;
    app.areas.listing = g.listing;
    app.areas.glsl = g.glsl;
    app.areas.detail = g.detail;
    // The texture-read section, when shown, takes the bottom pane's top.
    let bottom = super::fetch::draw(frame, app, g.bottom);
    app.areas.registers = bottom;
    draw_listing(frame, app, g.listing);
    if app.hlsl.shown {
        super::hlsl::draw(frame, app, g.glsl);
    } else {
        draw_glsl(frame, app, g.glsl);
    }
    super::detail::draw(frame, app, g.detail);
    if app.memory {
        draw_memory(frame, app, bottom);
    } else {
        draw_registers(frame, app, bottom);
    }
    frame.render_widget(
        Paragraph::new(status_lines).style(Style::new().bg(Color::Black)),
        status,
    );
    if app.overlay == Overlay::Help {
        super::help::draw(frame, app, area);
    }
}

/// `text` padded to exactly `width` columns, or cut to them with a `…`
/// in the last, so a cut line says it is cut (the detail line, or a wider
/// pane, shows the rest).
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() > width {
        let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
        if width > 0 {
            s.push('…');
        }
        return s;
    }
    let mut s = text.to_string();
    let n = s.chars().count();
    s.extend(std::iter::repeat_n(' ', width - n));
    s
}

/// Moves `top` so rows `first..=last` are visible in `height` rows.
fn follow(top: &mut usize, first: usize, last: usize, height: usize) {
    if first < *top || last >= *top + height {
        *top = first.saturating_sub(height / 4);
    }
}

fn draw_listing(frame: &mut Frame, app: &mut App, area: Rect) {
    let block = block(app, Pane::Listing).title(format!(" DXBC [{}] ", app.listing.len()));
    let inner = block.inner(area);
    let height = inner.height as usize;
    app.page = height.saturating_sub(1).max(1);
    let n = app.listing.len();
    if let Some(t) = app.follow_listing.take() {
        follow(&mut app.listing_top, t, t, height);
    }
    app.listing_top = app.listing_top.min(n.saturating_sub(height));
    let pc = app.machine.pc();
    let width = inner.width as usize;
    // `loop ⟳3`: the iterations the quad has begun (`loops.rs`).
    let loops = app.loop_counts();
    let lines: Vec<Line> = (app.listing_top..n.min(app.listing_top + height))
        .map(|i| {
            let bp = if app.breakpoints.contains(&i) {
                "●"
            } else {
                " "
            };
            let cur = if i == app.cursor { "›" } else { " " };
            let arrow = if i == pc { "▶" } else { " " };
            let count = loops[i].map(|c| format!(" ⟳{c}")).unwrap_or_default();
            let text = fit(
                &format!("{arrow} [{i:4}] {}{count}", app.listing[i]),
                width - 2,
            );
            let style = if i == pc {
                PC
            } else if i == app.cursor {
                CURSOR
            } else {
                Style::new()
            };
            Line::from(vec![
                Span::styled(bp, BREAKPOINT.patch(style)),
                Span::styled(cur, style),
                Span::styled(text, style),
            ])
        })
        .collect();
    let block = with_more(block, app.listing_top, height.min(n), n);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn draw_glsl(frame: &mut Frame, app: &mut App, area: Rect) {
    let highlight = app.glsl_highlight();
    let refused = app.glsl().map.is_none();
    let title = match (refused, highlight) {
        (true, _) => format!(" GLSL {} (refused) ", app.dialect.name()),
        (false, Some((a, b))) if a == b => format!(" GLSL {} line {a} ", app.dialect.name()),
        (false, Some((a, b))) => format!(" GLSL {} lines {a}-{b} ", app.dialect.name()),
        (false, None) => format!(" GLSL {} ", app.dialect.name()),
    };
    let block = block(app, Pane::Glsl).title(title);
    let inner = block.inner(area);
    let height = inner.height as usize;
    let n = app.glsl().lines.len();
    if app.follow_glsl {
        app.follow_glsl = false;
        if let Some((a, b)) = highlight {
            let (a, b) = (a as usize - 1, b as usize - 1);
            // A range taller than the pane shows its start.
            follow(&mut app.glsl_top, a, b.min(a + height.max(1) - 1), height);
        }
    }
    app.glsl_top = app.glsl_top.min(n.saturating_sub(height));
    let width = inner.width as usize;
    let digits = n.to_string().len().max(3);
    let lines: Vec<Line> = (app.glsl_top..n.min(app.glsl_top + height))
        .map(|i| {
            let number = i as u32 + 1;
            let lit = highlight.is_some_and(|(a, b)| (a..=b).contains(&number));
            let text = format!("{number:>digits$} │ {}", app.glsl().lines[i]);
            let style = if lit {
                GLSL_LINES
            } else if refused {
                Style::new().fg(Color::LightRed)
            } else {
                Style::new()
            };
            Line::styled(fit(&text, width), style)
        })
        .collect();
    let block = with_more(block, app.glsl_top, height.min(n), n);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn draw_registers(frame: &mut Frame, app: &mut App, area: Rect) {
    // The lane's own pixel, not the one picked: lane 1 of the quad at
    // (10,10) is pixel (11,10).
    let (px, py) = lane_pixel(app.pixel, app.lane);
    let mut notes = Vec::new();
    if app.machine.helper()[app.lane] {
        notes.push("helper");
    }
    if app.machine.discarded()[app.lane] {
        notes.push("discarded");
    }
    if !app.machine.execution_mask()[app.lane] {
        notes.push("inactive");
    }
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    };
    let backend = app.gpu_loaded().map(|l| l.backend.name());
    let block = block(app, Pane::Registers).title(format!(
        " registers: lane {} at pixel ({px},{py}){notes} · {}{} · x: {} ",
        app.lane,
        super::values::view_name(app.view),
        backend
            .map(|b| format!(" · emulator│{b}"))
            .unwrap_or_default(),
        if app.extra {
            "cbuffers/x#/icb shown"
        } else {
            "more registers"
        }
    ));
    let inner = block.inner(area);
    let height = inner.height as usize;
    app.bottom_page = height.saturating_sub(1).max(1);
    let rows = app.register_rows();
    // Names with a semantic (`v1 TEXCOORD0`) widen the name column for
    // every row, so the values stay in columns.
    let longest = (rows.iter())
        .map(|r| match r {
            RegRow::Reg { name, .. } => name.chars().count(),
            RegRow::Heading(_) => 0,
        })
        .max()
        .unwrap_or(0)
        .clamp(9, 24);
    let (name_width, value_width) = register_columns(inner.width as usize, longest);
    // The GPU's values go beside the emulator's when four pairs fit,
    // else on a line of their own under them.
    let beside = inner.width as usize >= 2 + name_width + 4 * (3 + 2 * GPU_WIDTH + 1);
    let view = app.view;
    // The GPU's value is read as the emulator's component is.
    let gpu_text = |bits: Option<u32>, ty| bits.map_or("–".into(), |b| shown(view, b, ty));
    // Each register's row (and the GPU's under it), packed side by side
    // when the pane is wide enough (`columns.rs`).
    let mut items: Vec<Item> = Vec::new();
    for row in &rows {
        match row {
            RegRow::Heading(t) => items.push(Item::Heading(Line::styled(t.clone(), HEADING))),
            RegRow::Reg {
                name,
                values,
                types,
                changed,
                gpu,
                labels,
            } => {
                let mut lines: Vec<Line<'static>> = Vec::new();
                let pair = beside && !gpu.is_empty();
                let width = if pair { GPU_WIDTH } else { value_width };
                let mut spans = vec![Span::raw(format!("  {name:<name_width$}"))];
                for (c, ((v, ty), ch)) in values.iter().zip(types).zip(changed).enumerate() {
                    let label = labels.get(c).and_then(Option::as_deref);
                    let label = label.map_or_else(|| component_name(c).to_string(), str::to_string);
                    spans.push(Span::styled(format!(" {label}:"), DIM));
                    let style = if *ch { CHANGED } else { Style::new() };
                    spans.push(Span::styled(
                        format!("{:>width$}", shown(view, *v, *ty)),
                        style,
                    ));
                    if let Some(g) = gpu.get(c).filter(|_| pair) {
                        spans.push(Span::styled("│", DIM));
                        let style = if g.differs { DIFFERS } else { GPU };
                        spans.push(Span::styled(
                            format!("{:>GPU_WIDTH$}", gpu_text(g.bits, *ty)),
                            style,
                        ));
                    }
                }
                lines.push(Line::from(spans));
                if !pair && !gpu.is_empty() {
                    let mut spans = vec![Span::styled(
                        format!("    {:<w$}", backend.unwrap_or("gpu"), w = name_width - 2),
                        GPU,
                    )];
                    for (c, (g, ty)) in gpu.iter().zip(types).enumerate() {
                        spans.push(Span::styled(format!(" {}:", component_name(c)), DIM));
                        let style = if g.differs { DIFFERS } else { GPU };
                        spans.push(Span::styled(
                            format!("{:>13}", gpu_text(g.bits, *ty)),
                            style,
                        ));
                    }
                    lines.push(Line::from(spans));
                }
                items.push(Item::Cell(lines));
            }
        }
    }
    let value_room = if beside {
        3 + 2 * GPU_WIDTH + 1
    } else {
        3 + value_width
    };
    let cell = 2 + name_width + 4 * value_room;
    let lines = pack(items, inner.width as usize, cell);
    // The watch list stays at the top; the registers scroll below it.
    let watch = app.watch_lines(CHANGED, HEADING, DIM);
    let height = height.saturating_sub(watch.len());
    app.regs_top = app.regs_top.min(lines.len().saturating_sub(height));
    let block = with_more(block, app.regs_top, height.min(lines.len()), lines.len());
    let lines: Vec<Line> = (watch.into_iter())
        .chain(lines.into_iter().skip(app.regs_top).take(height))
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The register pane's name and value columns for a pane `width` wide
/// whose longest row name is `longest` (9 to 24): the name column fits
/// the longest name, so values stay in columns, unless that would cost
/// what the pane can show. Where two registers fit side by side with
/// plain names (`r13`), a long semantic (`o0 SV_Target0`) must not push
/// them to one a row: values narrow to 12 columns, then the name column
/// is capped and a longer name shifts only its own row. On a narrow pane
/// the values keep their room the same way.
fn register_columns(width: usize, longest: usize) -> (usize, usize) {
    let one = |name: usize, value: usize| 2 + name + 4 * (3 + value);
    let two = |name: usize, value: usize| 2 * one(name, value) + super::columns::GAP;
    if width >= two(9, 13) && two(longest, 13) > width {
        if two(longest, 12) <= width {
            return (longest, 12);
        }
        let name = ((width - super::columns::GAP) / 2).saturating_sub(one(0, 12));
        return (name.max(9), 12);
    }
    (longest.min(width.saturating_sub(one(0, 13)).max(9)), 13)
}

/// Columns of each value when the GPU's go beside the emulator's.
const GPU_WIDTH: usize = 12;

/// The buffers and UAVs: a heading per view, then its words, by type
/// (or the chosen view); the words the last step wrote highlighted, `▶`
/// on the rows of the elements it wrote, scrolled into view after a step.
fn draw_memory(frame: &mut Frame, app: &mut App, area: Rect) {
    let writes = summary(app.machine.memory_writes());
    let block = block(app, Pane::Registers).title(format!(
        " buffers and UAVs · {} · m: registers{} ",
        app.memory_view_name(),
        writes
            .map(|w| format!(" · last step {w}"))
            .unwrap_or_default()
    ));
    let inner = block.inner(area);
    let height = inner.height as usize;
    app.bottom_page = height.saturating_sub(1).max(1);
    let follow_memory = std::mem::take(&mut app.follow_memory);
    let mut top = app.mem_top;
    let pane = app.memory_pane();
    if pane.is_empty() {
        let text = "no buffer SRVs or UAVs are bound (a case binds them: --case)";
        frame.render_widget(Paragraph::new(Line::styled(text, DIM)).block(block), area);
        return;
    }
    if follow_memory && let Some((a, b)) = pane.written_rows() {
        follow(&mut top, a, b.min(a + height.max(1) - 1), height);
    }
    top = top.min(pane.len().saturating_sub(height));
    let lines: Vec<Line> = (top..pane.len().min(top + height))
        .filter_map(|i| pane.row(i))
        .map(|row| match row {
            MemRow::Heading(t) => Line::styled(t, HEADING),
            MemRow::Words {
                label,
                marked,
                cells,
            } => {
                let mark = if marked { "▶" } else { " " };
                let mut spans = vec![Span::styled(mark, MARK), Span::raw(format!(" {label:<9}"))];
                for c in cells {
                    let name: String = c.name.chars().take(12).collect();
                    spans.push(Span::styled(format!(" {name}:"), DIM));
                    let style = if c.changed {
                        CHANGED
                    } else if c.written {
                        WRITTEN
                    } else {
                        Style::new()
                    };
                    spans.push(Span::styled(format!("{:>13}", c.text), style));
                }
                Line::from(spans)
            }
        })
        .collect();
    let block = with_more(block, top, height.min(pane.len()), pane.len());
    app.mem_top = top;
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

#[cfg(test)]
mod tests {
    use super::register_columns;

    #[test]
    fn register_columns_keep_two_registers_a_row_where_plain_names_allow() {
        // 158 columns inside a 160-column screen: plain names, 75 each.
        assert_eq!(register_columns(158, 9), (9, 13));
        // `o0 SV_Target0` (13): 2 + 13 + 64 = 79, two need 161; with
        // values of 12 columns, 2 * 75 + 3 = 153 fit.
        assert_eq!(register_columns(158, 13), (13, 12));
        // 24 does not fit even so: the name column is capped at
        // (158 - 3) / 2 - 62 = 15.
        assert_eq!(register_columns(158, 24), (15, 12));
        // One register a row: the longest name, values of 13 ...
        assert_eq!(register_columns(100, 14), (14, 13));
        // ... but on a narrow pane the values keep their room.
        assert_eq!(register_columns(80, 24), (14, 13));
    }
}
