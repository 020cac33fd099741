//! The status area at the screen's foot: a line of where the run stands
//! (instruction, step, pixel, lane, execution mask) and the last action's
//! message. A message that does not fit beside the line gets rows of its
//! own under it, wrapped at spaces, so no message is cut: a command a
//! message names (`G`'s capture, `D`'s jump) is read whole at any width
//! the debugger draws at.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::app::{App, Overlay, Tone};
use super::gpu::lane_pixel;

/// The most rows a message takes under the status line; a longer one
/// (none the debugger writes is) ends in `…`.
pub const MESSAGE_MAX_ROWS: usize = 6;

const HEADING: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
const DIM: Style = Style::new().fg(Color::Gray);
const PROGRESS: Style = Style::new().fg(Color::LightBlue);

/// The status area's lines at `width` columns: one, or the status line
/// and the message's rows under it.
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    if let Overlay::Prompt(kind, text) = &app.overlay {
        return vec![Line::from(vec![
            Span::styled(format!(" {}: ", kind.label()), HEADING),
            Span::raw(text.clone()),
            Span::styled("█", DIM),
            Span::styled("   Enter: ok · Esc: cancel", DIM),
        ])];
    }
    let n = app.listing.len();
    let mask: String = app
        .machine
        .execution_mask()
        .iter()
        .map(|&on| if on { '■' } else { '□' })
        .collect();
    let tone = match app.tone {
        Tone::Info => Style::new(),
        Tone::Warn => Style::new().fg(Color::Yellow),
        Tone::Error => Style::new().fg(Color::LightRed),
    };
    // The shown lane's own pixel, as the register pane's title says it.
    let (lane_x, lane_y) = lane_pixel(app.pixel, app.lane);
    let head = vec![
        Span::styled(
            format!(" instr {}/{n} ", app.machine.pc().min(n)),
            Style::new().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(format!(
            " step {} · pixel ({},{}) · lane {} · mask {mask} · ",
            app.machine.position(),
            lane_x,
            lane_y,
            app.lane
        )),
    ];
    let progress = app.gpu_progress();
    let message: Vec<Span<'static>> = [
        (!app.event.is_empty()).then(|| Span::styled(app.event.clone(), tone)),
        progress.map(|p| {
            let sep = if app.event.is_empty() { "" } else { " · " };
            Span::styled(format!("{sep}{p}"), PROGRESS)
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    let keys = Span::styled("  (? keys)", DIM);
    let used: usize = head.iter().chain(&message).map(Span::width).sum::<usize>() + keys.width();
    if used <= usize::from(width) {
        let mut spans = head;
        spans.extend(message);
        spans.push(keys);
        return vec![Line::from(spans)];
    }
    // The message on rows of its own, each span keeping its colour.
    let mut out = vec![Line::from([head, vec![keys]].concat())];
    let room = usize::from(width).saturating_sub(2).max(1);
    let mut rows: Vec<Vec<Span<'static>>> = vec![Vec::new()];
    let mut col = 0;
    for span in message {
        let style = span.style;
        for word in split_keeping_spaces(&span.content) {
            let w = word.chars().count();
            if col + w > room && col > 0 {
                rows.push(Vec::new());
                col = 0;
            }
            let word = if col == 0 { word.trim_start() } else { word };
            // A word longer than a row is broken (the rest continues).
            let mut chars: Vec<char> = word.chars().collect();
            while chars.len() > room {
                let head: String = chars.drain(..room).collect();
                rows.last_mut()
                    .expect("a row")
                    .push(Span::styled(head, style));
                rows.push(Vec::new());
            }
            col += chars.len();
            rows.last_mut()
                .expect("a row")
                .push(Span::styled(chars.into_iter().collect::<String>(), style));
        }
    }
    if rows.len() > MESSAGE_MAX_ROWS {
        rows.truncate(MESSAGE_MAX_ROWS);
        if let Some(last) = rows.last_mut() {
            last.push(Span::raw("…"));
        }
    }
    out.extend(rows.into_iter().map(|mut spans| {
        spans.insert(0, Span::raw("  "));
        Line::from(spans)
    }));
    out
}

/// `text` in pieces that each begin with the spaces before a word.
fn split_keeping_spaces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        if c == ' ' && in_word {
            out.push(&text[start..i]);
            start = i;
            in_word = false;
        } else if c != ' ' {
            in_word = true;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_keeping_spaces;

    #[test]
    fn words_keep_the_spaces_before_them() {
        assert_eq!(
            split_keeping_spaces("press D  to jump"),
            ["press", " D", "  to", " jump"]
        );
        assert_eq!(split_keeping_spaces(""), Vec::<&str>::new());
    }
}
