//! Text collected in sections of lines, each line tagged with the DXBC
//! instruction that produced it; joining the sections gives the source and
//! the source map.

use super::SourceMap;

/// One section of output (declarations, a function body, …).
#[derive(Debug, Default, Clone)]
pub struct Section {
    lines: Vec<(Option<usize>, String)>,
    indent: usize,
}

impl Section {
    pub fn new() -> Section {
        Section::default()
    }

    /// An empty section whose lines start `depth` levels in.
    pub fn indented(depth: usize) -> Section {
        Section {
            lines: Vec::new(),
            indent: depth,
        }
    }

    /// Appends a line at the current indentation, tagged with `tag`.
    pub fn line(&mut self, tag: Option<usize>, text: impl AsRef<str>) {
        let text = text.as_ref();
        let mut s = String::with_capacity(text.len() + self.indent * 4);
        for _ in 0..self.indent {
            s.push_str("    ");
        }
        s.push_str(text);
        self.lines.push((tag, s));
    }

    pub fn indent(&mut self) {
        self.indent += 1;
    }

    pub fn dedent(&mut self) {
        // The emitter refuses unbalanced blocks before writing anything
        // (`dxbc::analysis::Blocks`), so stepping out past the first level
        // is a bug in the emitter, never bad input.
        debug_assert!(self.indent > 0, "dedent below the outermost level");
        self.indent = self.indent.saturating_sub(1);
    }

    pub fn depth(&self) -> usize {
        self.indent
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Appends another section's lines.
    pub fn append(&mut self, other: Section) {
        self.lines.extend(other.lines);
    }
}

/// Joins sections into the source text and the per-instruction line map.
pub fn join(sections: Vec<Section>, instructions: usize) -> (String, SourceMap) {
    let mut text = String::new();
    let mut ranges: Vec<Option<(u32, u32)>> = vec![None; instructions];
    let mut line_no = 0u32;
    for section in sections {
        for (tag, line) in section.lines {
            line_no += 1;
            text.push_str(&line);
            text.push('\n');
            if let Some(i) = tag
                && let Some(slot) = ranges.get_mut(i)
            {
                *slot = Some(match *slot {
                    None => (line_no, line_no),
                    Some((a, b)) => (a.min(line_no), b.max(line_no)),
                });
            }
        }
    }
    (text, SourceMap { ranges })
}
