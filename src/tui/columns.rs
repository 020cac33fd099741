//! Packing the register pane's rows into columns: on a wide pane several
//! registers share a row (r0 and r1 side by side at 160 columns), so a
//! shader with many temps still shows its inputs and outputs. Headings
//! keep a row of their own; a register with a GPU line under it takes its
//! two rows in its column.

use ratatui::text::{Line, Span};

/// One register (its row, and the GPU's row under it when there is one),
/// or a section heading.
pub enum Item {
    Heading(Line<'static>),
    Cell(Vec<Line<'static>>),
}

/// Columns between two registers side by side.
pub const GAP: usize = 3;

/// How many registers go side by side in `width` columns when each
/// takes `cell` columns: at least one.
pub fn columns(width: usize, cell: usize) -> usize {
    ((width + GAP) / (cell + GAP).max(1)).max(1)
}

/// The pane's lines for `width` columns, registers filled in reading
/// order (left to right, then down) within each section. A register takes
/// its widest line's columns, at most `most`: a longer line (a name past
/// the name column) shifts only its own row's later registers.
pub fn pack(items: Vec<Item>, width: usize, most: usize) -> Vec<Line<'static>> {
    let cell = items
        .iter()
        .filter_map(|i| match i {
            Item::Cell(lines) => lines.iter().map(Line::width).max(),
            Item::Heading(_) => None,
        })
        .max()
        .unwrap_or(0)
        .min(most);
    let per_row = columns(width, cell);
    let mut out = Vec::new();
    let mut row: Vec<Vec<Line<'static>>> = Vec::new();
    for item in items {
        match item {
            Item::Heading(line) => {
                flush(&mut out, &mut row, cell);
                out.push(line);
            }
            Item::Cell(lines) => {
                row.push(lines);
                if row.len() == per_row {
                    flush(&mut out, &mut row, cell);
                }
            }
        }
    }
    flush(&mut out, &mut row, cell);
    out
}

/// Puts the registers of one row side by side, each padded to `cell`
/// columns and the gap (nothing after the last one drawn on a line, so
/// one register per row draws as it would alone).
fn flush(out: &mut Vec<Line<'static>>, row: &mut Vec<Vec<Line<'static>>>, cell: usize) {
    let height = row.iter().map(Vec::len).max().unwrap_or(0);
    for y in 0..height {
        let mut spans: Vec<Span<'static>> = Vec::new();
        for (i, lines) in row.iter().enumerate() {
            let line = lines.get(y).cloned().unwrap_or_default();
            let pad = cell.saturating_sub(line.width()) + GAP;
            spans.extend(line.spans);
            if row[i + 1..].iter().any(|later| later.len() > y) {
                spans.push(Span::raw(" ".repeat(pad)));
            }
        }
        out.push(Line::from(spans));
    }
    row.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    fn cell(s: &str) -> Item {
        Item::Cell(vec![Line::raw(s.to_string())])
    }

    #[test]
    fn two_registers_a_row_when_two_fit() {
        // Cells of 4 columns: two need 4 + 3 + 4 = 11 columns, three 18.
        assert_eq!(columns(11, 4), 2);
        assert_eq!(columns(17, 4), 2);
        assert_eq!(columns(18, 4), 3);
        assert_eq!(columns(3, 4), 1);
        let items = vec![
            Item::Heading(Line::raw("temps")),
            cell("r0 a"),
            cell("r1 b"),
            cell("r2 c"),
            Item::Heading(Line::raw("inputs")),
            cell("v0"),
        ];
        assert_eq!(
            text(&pack(items, 12, 4)),
            ["temps", "r0 a   r1 b", "r2 c", "inputs", "v0"]
        );
    }

    #[test]
    fn a_register_with_a_gpu_row_keeps_both_rows_in_its_column() {
        let items = vec![
            Item::Cell(vec![Line::raw("r0 1"), Line::raw("gpu 2")]),
            cell("r1 3"),
        ];
        assert_eq!(text(&pack(items, 40, 40)), ["r0 1    r1 3", "gpu 2"]);
    }
}
