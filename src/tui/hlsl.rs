//! The HLSL pane: the shader's source, when there is one, in place of the
//! GLSL (`H` switches). The source is `--hlsl FILE` or the file with the
//! shader's stem and `.hlsl` beside it.
//!
//! Lines are not mapped to instructions. fxc `/Zi` writes its line table
//! in an `SDBG` chunk (older compilers) or a PDB stream in `SPDB`; neither
//! layout is publicly specified, and no pixel shader we have carries one
//! to check a reading against, so the pane only says whether the container
//! holds such a chunk and highlights no line as the current one.

use std::io::Read;
use std::path::{Path, PathBuf};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::dxbc::Shader;
use crate::dxbc::shown::shown;

use super::app::{App, Pane, Tone};
use super::layout::block;

/// The largest source read: no hand-written shader comes near it, and a
/// file this large is more likely a mistake (a binary, a log) than HLSL.
pub const MAX_BYTES: u64 = 4 << 20;

/// Columns a tab advances to (the next multiple of): tabs are common in
/// HLSL and escaping them as `\x09` would make the source hard to read.
const TAB: usize = 4;

/// A source file, kept as one text with where each line starts, so a
/// file of many short lines costs four bytes a line, not a `String`.
#[derive(Debug, Clone)]
pub struct HlslSource {
    /// The file's name as the title shows it (control characters escaped).
    pub name: String,
    text: String,
    starts: Vec<u32>,
}

impl HlslSource {
    /// A source from its bytes: not UTF-8 is decoded lossily (so a file in
    /// a legacy code page still shows, with U+FFFD where it is not).
    pub fn from_bytes(name: &str, bytes: &[u8]) -> HlslSource {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let mut starts = vec![0u32];
        starts.extend(
            (text.match_indices('\n'))
                .map(|(i, _)| i as u32 + 1)
                .filter(|&s| (s as usize) < text.len()),
        );
        if text.is_empty() {
            starts.clear();
        }
        HlslSource {
            name: shown(name).into_owned(),
            text,
            starts,
        }
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Line `i` (0-based) as drawn: without its line end, tabs expanded,
    /// other control characters escaped.
    pub fn line(&self, i: usize) -> String {
        let Some(&start) = self.starts.get(i) else {
            return String::new();
        };
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.text.len(), |&e| e as usize);
        let raw = &self.text[start as usize..end];
        let raw = raw.strip_suffix('\n').unwrap_or(raw);
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let mut expanded = String::with_capacity(raw.len());
        for c in raw.chars() {
            if c == '\t' {
                let n = expanded.chars().count();
                expanded.extend(std::iter::repeat_n(' ', TAB - n % TAB));
            } else {
                expanded.push(c);
            }
        }
        shown(&expanded).into_owned()
    }
}

/// Reads `path` as an HLSL source, refusing a file over [`MAX_BYTES`]
/// before reading it (and stopping a read that grows past it). The error
/// names the file.
pub fn load(path: &Path) -> Result<HlslSource, String> {
    let named = |why: String| format!("{}: {why}", shown(&path.display().to_string()));
    let file = std::fs::File::open(path).map_err(|e| named(format!("cannot read: {e}")))?;
    let too_large = |size: u64| {
        named(format!(
            "{size} bytes is over the {} MiB limit on HLSL sources",
            MAX_BYTES >> 20
        ))
    };
    let size = file
        .metadata()
        .map_err(|e| named(format!("cannot read: {e}")))?
        .len();
    if size > MAX_BYTES {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| named(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    Ok(HlslSource::from_bytes(&name, &bytes))
}

/// The file a source beside `shader_file` would be: same stem, `.hlsl`.
pub fn beside(shader_file: &Path) -> PathBuf {
    shader_file.with_extension("hlsl")
}

/// The source for a shader read from `shader_file`: `explicit` (`--hlsl`)
/// when given, an error when it cannot be read; else the file beside the
/// shader when there is one. The pane's state either way: without a
/// source it holds what `H` then says.
pub fn locate(shader_file: &Path, explicit: Option<&Path>) -> Result<Located, String> {
    if let Some(path) = explicit {
        return load(path).map(|s| Located {
            source: Some(s),
            missing: String::new(),
        });
    }
    let path = beside(shader_file);
    let wanted: String = path.file_name().map_or_else(
        || "NAME.hlsl".into(),
        |n| shown(&n.to_string_lossy()).into_owned(),
    );
    if !path.exists() {
        return Ok(Located {
            source: None,
            missing: missing_text(&wanted),
        });
    }
    // A sidecar that cannot be read does not stop the debugging: the
    // pane says why instead.
    Ok(match load(&path) {
        Ok(s) => Located {
            source: Some(s),
            missing: String::new(),
        },
        Err(e) => Located {
            source: None,
            missing: format!("no HLSL source: {e}; pass --hlsl FILE"),
        },
    })
}

fn missing_text(wanted: &str) -> String {
    format!("no HLSL source: pass --hlsl FILE or put {wanted} beside the blob")
}

/// What [`locate`] found.
pub struct Located {
    pub source: Option<HlslSource>,
    /// The status line's message for `H` when there is no source.
    pub missing: String,
}

/// The pane's state.
pub struct HlslPane {
    pub source: Option<HlslSource>,
    /// What `H` says when there is no source.
    pub missing: String,
    /// The title's note on the container's debug info.
    pub debug: String,
    /// The pane replaces the GLSL.
    pub shown: bool,
    /// The first line shown (0-based).
    pub top: usize,
}

impl HlslPane {
    /// No source yet (the command line attaches one, [`HlslPane::attach`]).
    pub fn new(shader: &Shader) -> HlslPane {
        HlslPane {
            source: None,
            missing: missing_text("NAME.hlsl"),
            debug: debug_note(shader),
            shown: false,
            top: 0,
        }
    }

    pub fn attach(&mut self, located: Located) {
        self.source = located.source;
        self.missing = located.missing;
        self.top = 0;
    }
}

/// The title's note: whether fxc's debug info is in the container, and
/// that its line table is not read (see the module's comment).
pub fn debug_note(shader: &Shader) -> String {
    let found: Vec<String> = (shader.chunks.iter())
        .filter(|c| matches!(&c.fourcc, b"SDBG" | b"SPDB"))
        .map(|c| c.name())
        .collect();
    // Short, as it shares a half-width title with the file's name.
    match found.as_slice() {
        [] => "no debug info: lines not mapped".into(),
        names => format!("debug info {}: line table not read", names.join("+")),
    }
}

impl App {
    /// `H`: the right code pane shows the HLSL source or the GLSL.
    pub(super) fn toggle_hlsl(&mut self) {
        if self.hlsl.source.is_none() {
            self.hlsl.shown = false;
            let msg = self.hlsl.missing.clone();
            self.set(Tone::Warn, msg);
            return;
        }
        self.hlsl.shown = !self.hlsl.shown;
        let now = if self.hlsl.shown { "HLSL" } else { "GLSL" };
        self.set(Tone::Info, format!("right pane: {now} (H switches)"));
    }
}

/// Draws the source in the GLSL pane's place: numbered lines, scrolled by
/// the same keys (it is the same pane to the focus), nothing highlighted.
pub fn draw(frame: &mut Frame, app: &mut App, area: Rect) {
    let Some(source) = &app.hlsl.source else {
        return;
    };
    let title = format!(" HLSL {} · {} ", source.name, app.hlsl.debug);
    let block = block(app, Pane::Glsl).title(title);
    let inner = block.inner(area);
    let height = inner.height as usize;
    let n = source.len();
    let top = app.hlsl.top.min(n.saturating_sub(height));
    let width = inner.width as usize;
    let digits = n.to_string().len().max(3);
    let lines: Vec<Line> = (top..n.min(top + height))
        .map(|i| {
            let text = format!("{:>digits$} │ {}", i + 1, source.line(i));
            // A cut line ends in `…`, as the other panes' do.
            let text = if text.chars().count() > width {
                let mut t: String = text.chars().take(width.saturating_sub(1)).collect();
                t.push('…');
                t
            } else {
                text
            };
            Line::raw(text)
        })
        .collect();
    app.hlsl.top = top;
    let block = super::layout::with_more(block, top, height.min(n), n);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

#[cfg(test)]
mod tests {
    use super::HlslSource;

    #[test]
    fn lines_drop_their_ends_expand_tabs_and_escape_the_rest() {
        let s = HlslSource::from_bytes("a\u{1b}.hlsl", b"a\r\n\tb\n\xffc\x07\n");
        assert_eq!(s.name, "a\\x1b.hlsl");
        assert_eq!(s.len(), 3);
        assert_eq!(s.line(0), "a");
        assert_eq!(s.line(1), "    b");
        assert_eq!(s.line(2), "\u{fffd}c\\x07");
        // A last line without a line end counts; an empty file has none.
        assert_eq!(HlslSource::from_bytes("x", b"a\nb").len(), 2);
        assert_eq!(HlslSource::from_bytes("x", b"").len(), 0);
        assert_eq!(HlslSource::from_bytes("x", b"\n").len(), 1);
    }
}
