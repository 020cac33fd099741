//! The help overlay: the key table (`keys.rs`) and the inputs' source, in
//! a box that scrolls when the screen is too short for it. Its title says
//! which rows are shown and the keys that scroll it, so every row is
//! reachable at the smallest screen the debugger draws at.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::app::App;
use super::keys;

const HEADING: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
const DIM: Style = Style::new().fg(Color::Gray);

/// Every row of the overlay.
pub fn rows(app: &App) -> Vec<Line<'static>> {
    let mut lines: Vec<Line> = keys::BINDINGS
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!(" {:<22}", keys::keys_text(b)), HEADING),
                Span::raw(b.help),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        " mouse wheel: scroll the pane under the pointer",
        DIM,
    ));
    lines.push(Line::styled(
        format!(" inputs: {}", app.inputs.description),
        DIM,
    ));
    lines
}

impl App {
    /// A key while the overlay is open: the scroll keys move it (`true`);
    /// any other goes to the key table (`?` and Esc close the overlay).
    pub(super) fn help_key(&mut self, code: KeyCode) -> bool {
        let page = self.help_page.max(1) as isize;
        let delta = match code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('[') => -1,
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Char(']') => 1,
            KeyCode::PageUp => -page,
            KeyCode::PageDown | KeyCode::Char(' ') => page,
            KeyCode::Home => isize::MIN / 2,
            KeyCode::End => isize::MAX / 2,
            _ => return false,
        };
        // Settled against the row count at the next draw.
        self.help_top = self.help_top.saturating_add_signed(delta);
        true
    }
}

pub fn draw(frame: &mut Frame, app: &mut App, area: Rect) {
    let unwrapped = rows(app);
    let title_room = 72;
    // As wide as the longest row, within the screen; a row wider than
    // that (a long case path) wraps rather than being cut.
    let widest = unwrapped.iter().map(Line::width).max().unwrap_or(0) as u16 + 2;
    let width = widest.max(title_room).min(area.width);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let lines: Vec<Line> = unwrapped.into_iter().flat_map(|l| wrap(l, inner)).collect();
    let total = lines.len();
    let room = usize::from(area.height.saturating_sub(2)).max(1);
    let shown = total.min(room);
    app.help_page = shown.saturating_sub(1).max(1);
    app.help_top = app.help_top.min(total - shown);
    let top = app.help_top;
    let title = if shown < total {
        format!(
            " keys: rows {}-{} of {total} · ↑/↓ PgUp/PgDn Home/End scroll · Esc closes ",
            top + 1,
            top + shown
        )
    } else {
        " keys (Esc closes) ".to_string()
    };
    let height = (shown as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let mut block = Block::bordered().title(title);
    if let Some(note) = super::layout::more_note(top, shown, total) {
        block = block.title_bottom(Line::styled(note, DIM).right_aligned());
    }
    let lines: Vec<Line> = lines.into_iter().skip(top).take(shown).collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// A row wider than `width` as several, the rest indented under the
/// help column (the style of its last span kept).
fn wrap(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    if line.width() <= width {
        return vec![line];
    }
    let style = line.spans.last().map(|s| s.style).unwrap_or_default();
    let text: Vec<char> = line.spans.iter().flat_map(|s| s.content.chars()).collect();
    let indent = 24.min(width / 2);
    let mut out = vec![Line::styled(
        text[..width].iter().collect::<String>(),
        style,
    )];
    let room = (width - indent).max(1);
    for chunk in text[width..].chunks(room) {
        out.push(Line::styled(
            format!("{}{}", " ".repeat(indent), chunk.iter().collect::<String>()),
            style,
        ));
    }
    out
}
