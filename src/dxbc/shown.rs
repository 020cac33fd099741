//! Names from a file as text to show. RDEF and signature names are
//! untrusted bytes (decoded lossily on reading); a control character in one
//! would end a listing's comment line early, so that the rest of the name
//! reads back as header syntax or even as an instruction, or split a report
//! row. Shown text escapes them instead.

use std::borrow::Cow;

/// `text` with every control character (newline, tab, NUL, DEL, C1) written
/// as `\xNN` (or `\u{N}` above 0xFF), so it stays on one line and a reader
/// can still tell which byte it was. Everything else, including non-ASCII
/// letters, is kept.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c as u32 {
            _ if !c.is_control() => s.push(c),
            n if n <= 0xff => s.push_str(&format!("\\x{n:02x}")),
            n => s.push_str(&format!("\\u{{{n:x}}}")),
        }
    }
    Cow::Owned(s)
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(shown("TEXCOORD"), "TEXCOORD");
        assert_eq!(shown("R\u{e9}\u{2026}"), "R\u{e9}\u{2026}");
        assert_eq!(shown("A\nB"), "A\\x0aB");
        assert_eq!(shown("\r\t\u{7f}\u{85}"), "\\x0d\\x09\\x7f\\x85");
        assert_eq!(shown("a\u{feff}"), "a\u{feff}");
        assert_eq!(shown("\"'"), "\"'");
    }
}
