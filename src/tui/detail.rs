//! The instruction detail line: the next instruction to execute in full,
//! wrapped over as many rows as it needs (up to
//! [`DETAIL_MAX_ROWS`](super::layout::DETAIL_MAX_ROWS)), under the code
//! panes, where the listing would cut it at its pane's width.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::app::App;
use super::layout::DETAIL_MAX_ROWS;

/// The detail line's look: the listing's next-instruction marker, dimmer.
const DETAIL: Style = Style::new().fg(Color::LightGreen);

impl App {
    /// The text the detail line shows: `[  12] ` and the next instruction
    /// in full, then its operands' names from RDEF and the signatures
    /// (`· cb1[0].xyxx = cbFxaa.rcpFrame`), or what the shader has done
    /// when none is left. The drawing wraps whatever it returns.
    pub fn instruction_detail(&self) -> String {
        let pc = self.machine.pc();
        let Some(text) = self.listing.get(pc) else {
            return "the shader has returned".to_string();
        };
        let mut out = format!("[{pc:4}] {text}");
        for (operand, name) in self.operand_names(pc) {
            out.push_str(&format!("  · {operand} = {name}"));
        }
        out
    }
}

/// The columns continuation rows are indented by, to stand under the
/// instruction after its `▶ [  12] ` prefix.
const INDENT: usize = 9;

/// `text` after a `▶ ` marker, broken into rows of at most `width`
/// columns: at the last space that fits, else mid-word; rows after the
/// first indented. More than `max` rows: the last one ends in `…`.
pub fn wrap(text: &str, width: usize, max: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    let mut prefix = String::from("▶ ");
    while !rest.is_empty() {
        let room = width.saturating_sub(prefix.chars().count()).max(1);
        let cut = if rest.len() <= room {
            rest.len()
        } else {
            // Break at the last space that fits (one just past the row
            // too: it is dropped), unless that leaves the row nearly empty.
            match rest[..=room].iter().rposition(|&c| c == ' ') {
                Some(i) if i + 1 >= room / 2 => i + 1,
                _ => room,
            }
        };
        let row: String = rest[..cut].iter().collect();
        rows.push(format!("{prefix}{}", row.trim_end()));
        rest.drain(..cut);
        prefix = " ".repeat(INDENT.min(width / 2));
    }
    if rows.len() > max {
        rows.truncate(max);
        if let Some(last) = rows.last_mut() {
            let keep = width.saturating_sub(1);
            *last = last.chars().take(keep).collect::<String>() + "…";
        }
    }
    rows
}

/// The rows the detail line needs at `width` columns.
pub fn rows(app: &App, width: u16) -> Vec<String> {
    wrap(&app.instruction_detail(), width as usize, DETAIL_MAX_ROWS)
}

pub(super) fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let lines: Vec<Line> = rows(app, area.width)
        .into_iter()
        .take(area.height as usize)
        .map(|r| Line::styled(r, DETAIL))
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_instruction_is_one_row() {
        assert_eq!(wrap("[   3] ret", 40, 4), ["▶ [   3] ret"]);
    }

    #[test]
    fn rows_break_at_spaces_and_indent_under_the_instruction() {
        // 20 columns: "▶ " leaves 18; "[  12] mad r1.x, r0.w," is 22, so
        // the first row breaks after the last space within 18 columns
        // ("[  12] mad r1.x, " is 17). Continuation rows have 11 columns
        // after the 9-column indent.
        let rows = wrap("[  12] mad r1.x, r0.w, r1.y, r1.z", 20, 4);
        assert_eq!(
            rows,
            [
                "▶ [  12] mad r1.x,",
                "         r0.w, r1.y,",
                "         r1.z",
            ]
        );
        assert!(rows.iter().all(|r| r.chars().count() <= 20));
    }

    #[test]
    fn a_word_longer_than_a_row_is_cut_and_too_many_rows_end_in_an_ellipsis() {
        let rows = wrap(&"x".repeat(60), 20, 2);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], format!("▶ {}", "x".repeat(18)));
        assert_eq!(rows[1], format!("{}{}…", " ".repeat(9), "x".repeat(10)));
    }
}
