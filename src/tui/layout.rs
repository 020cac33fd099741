//! The screen's geometry and which pane has the keyboard: the listing vs
//! GLSL split and the bottom pane's height (both adjustable), the
//! instruction detail line between the code panes and the bottom pane, and
//! the focus that `Tab` moves and the scroll keys act on.
//!
//! Long lines are not scrolled sideways: the detail line shows the next
//! instruction in full (wrapped), and the split gives the listing or the
//! GLSL the width it needs. That keeps one way to read a long line
//! instead of a per-pane horizontal offset to manage.

use ratatui::layout::{Constraint, Layout as Split, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, BorderType};

use super::app::{App, Pane, Tone};

/// The listing's share of the width, in percent: the default and the
/// limits (either pane keeps a fifth of the width).
pub const SPLIT_DEFAULT: u16 = 50;
pub const SPLIT_MIN: u16 = 20;
pub const SPLIT_MAX: u16 = 80;
/// How far one `<`/`>` moves the split.
pub const SPLIT_STEP: u16 = 5;
/// Rows the code panes keep at the least (a border and one line each
/// side) when the bottom pane grows, and the bottom pane's least.
const CODE_MIN: u16 = 3;
const BOTTOM_MIN: u16 = 3;
/// The detail line wraps over at most this many rows; a longer
/// instruction ends in `…` (the listing still has it, and widening the
/// terminal shows more).
pub const DETAIL_MAX_ROWS: usize = 4;

/// A layout key's effect (`keys.rs` binds them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adjust {
    /// Tab: listing → GLSL → bottom pane → listing.
    NextFocus,
    WiderListing,
    NarrowerListing,
    TallerBottom,
    ShorterBottom,
    /// Scroll the focused pane to its first or last row.
    Home,
    End,
}

/// The adjustable part of the layout and the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The listing's share of the code panes' width, in percent.
    pub split: u16,
    /// Rows added to (or, negative, taken from) the bottom pane's default
    /// height of two fifths of the screen; settled at each draw to what
    /// the screen allows.
    pub bottom: i32,
    /// The pane the scroll keys act on (shown with a thick border). The
    /// bottom pane at first, so `[`/`]` scroll it as they always have.
    pub focus: Pane,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            split: SPLIT_DEFAULT,
            bottom: 0,
            focus: Pane::Registers,
        }
    }
}

/// Where one draw puts each part of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub listing: Rect,
    pub glsl: Rect,
    pub detail: Rect,
    pub bottom: Rect,
    pub status: Rect,
}

impl Layout {
    /// Splits `area` (at least the smallest screen the debugger draws)
    /// for a detail text of `detail_rows` rows and a status area of
    /// `status_rows` (the status line, and a long message's rows). The
    /// bottom pane's height is settled to what fits, and stored so
    /// further keys start from it.
    pub fn geometry(&mut self, area: Rect, detail_rows: usize, status_rows: usize) -> Geometry {
        let status_rows = (status_rows.max(1) as u16).min(area.height / 4).max(1);
        let body = area.height.saturating_sub(status_rows);
        let detail = (detail_rows.clamp(1, DETAIL_MAX_ROWS) as u16).min(body / 4);
        let base = i32::from(body * 2 / 5);
        let most = i32::from(body.saturating_sub(detail + CODE_MIN).max(BOTTOM_MIN));
        let height = (base + self.bottom).clamp(i32::from(BOTTOM_MIN), most);
        self.bottom = height - base;
        let [code, detail, bottom, status] = Split::vertical([
            Constraint::Min(CODE_MIN),
            Constraint::Length(detail),
            Constraint::Length(height as u16),
            Constraint::Length(status_rows),
        ])
        .areas(area);
        let [listing, glsl] = Split::horizontal([
            Constraint::Percentage(self.split),
            Constraint::Percentage(100 - self.split),
        ])
        .areas(code);
        Geometry {
            listing,
            glsl,
            detail,
            bottom,
            status,
        }
    }
}

/// What a pane showing rows `top..top + shown` of `total` says on its
/// bottom border when that is not all of them (`↑ 3 · ↓ 12 more`), so
/// no pane cuts rows without saying so.
pub fn more_note(top: usize, shown: usize, total: usize) -> Option<String> {
    let below = total.saturating_sub(top + shown);
    match (top, below) {
        (0, 0) => None,
        (0, b) => Some(format!(" ↓ {b} more ")),
        (a, 0) => Some(format!(" ↑ {a} more ")),
        (a, b) => Some(format!(" ↑ {a} · ↓ {b} more ")),
    }
}

/// `block` with [`more_note`] on its bottom border, right-aligned.
pub fn with_more(block: Block<'static>, top: usize, shown: usize, total: usize) -> Block<'static> {
    match more_note(top, shown, total) {
        Some(note) => block.title_bottom(ratatui::text::Line::from(note).right_aligned()),
        None => block,
    }
}

/// A pane's bordered block: thick and highlighted when it has the focus.
pub fn block(app: &App, pane: Pane) -> Block<'static> {
    if app.layout.focus == pane {
        Block::bordered()
            .border_type(BorderType::Thick)
            .border_style(Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD))
    } else {
        Block::bordered()
    }
}

impl App {
    pub(super) fn adjust(&mut self, adjust: Adjust) {
        let l = &mut self.layout;
        match adjust {
            Adjust::NextFocus => {
                l.focus = match l.focus {
                    Pane::Listing => Pane::Glsl,
                    Pane::Glsl => Pane::Registers,
                    Pane::Registers => Pane::Listing,
                };
                // The right code pane is named by what it shows.
                let name = match l.focus {
                    Pane::Glsl if self.hlsl.shown => "HLSL",
                    pane => pane_name(pane),
                };
                self.set(
                    Tone::Info,
                    format!("focus: {name} ([ ] Home End scroll it)"),
                );
            }
            Adjust::WiderListing | Adjust::NarrowerListing => {
                let split = match adjust {
                    Adjust::WiderListing => l.split + SPLIT_STEP,
                    _ => l.split.saturating_sub(SPLIT_STEP),
                };
                if (SPLIT_MIN..=SPLIT_MAX).contains(&split) {
                    l.split = split;
                    self.set(Tone::Info, format!("listing {split}% of the width"));
                } else {
                    let at = l.split;
                    self.set(Tone::Warn, format!("the listing stays at {at}% of the width (limits {SPLIT_MIN}%-{SPLIT_MAX}%)"));
                }
            }
            Adjust::TallerBottom => {
                l.bottom += 1;
                self.set(Tone::Info, "bottom pane one row taller");
            }
            Adjust::ShorterBottom => {
                l.bottom -= 1;
                self.set(Tone::Info, "bottom pane one row shorter");
            }
            Adjust::Home => self.scroll(self.layout.focus, isize::MIN),
            Adjust::End => self.scroll(self.layout.focus, isize::MAX),
        }
    }

    /// `[`/`]`: scrolls the focused pane by its height less a row (as
    /// the page keys move the cursor), `pages` pages.
    pub(super) fn scroll_focused(&mut self, pages: isize) {
        let pane = self.layout.focus;
        let page = match pane {
            Pane::Listing => self.page,
            Pane::Glsl => self.areas.glsl.height.saturating_sub(3) as usize,
            Pane::Registers => self.bottom_page,
        };
        self.scroll(pane, pages * page.max(1) as isize);
    }
}

pub fn pane_name(pane: Pane) -> &'static str {
    match pane {
        Pane::Listing => "listing",
        Pane::Glsl => "GLSL",
        Pane::Registers => "bottom pane",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(width: u16, height: u16) -> Rect {
        Rect::new(0, 0, width, height)
    }

    #[test]
    fn default_split_halves_the_code_panes() {
        // 160 columns at 50%: 80 each; 50 rows less the status line are 49,
        // two fifths of which (19) go to the bottom pane, 1 to the detail
        // line, the remaining 29 to the code panes.
        let g = Layout::default().geometry(rect(160, 50), 1, 1);
        assert_eq!((g.listing.width, g.glsl.width), (80, 80));
        assert_eq!(g.glsl.x, 80);
        assert_eq!((g.listing.height, g.detail.height), (29, 1));
        assert_eq!((g.bottom.y, g.bottom.height), (30, 19));
        assert_eq!(g.status.y, 49);
    }

    #[test]
    fn the_bottom_pane_grows_until_the_code_panes_keep_three_rows() {
        let mut l = Layout {
            bottom: 1000,
            ..Layout::default()
        };
        // 20 rows: body 19, detail 1 (19/4 = 4 allows it), code 3, so the
        // bottom pane takes 15 and the stored growth is settled to 15 - 7.
        let g = l.geometry(rect(80, 20), 1, 1);
        assert_eq!((g.listing.height, g.bottom.height), (3, 15));
        assert_eq!(l.bottom, 15 - 7);
        l.bottom = -1000;
        assert_eq!(l.geometry(rect(80, 20), 1, 1).bottom.height, BOTTOM_MIN);
    }

    #[test]
    fn the_detail_line_takes_its_rows_up_to_the_cap() {
        let mut l = Layout::default();
        assert_eq!(l.geometry(rect(100, 30), 3, 1).detail.height, 3);
        assert_eq!(l.geometry(rect(100, 30), 9, 1).detail.height, 4);
        // 20 rows: a quarter of the body (19/4 = 4) at most.
        assert_eq!(l.geometry(rect(80, 20), 9, 1).detail.height, 4);
    }
}
