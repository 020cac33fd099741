//! Untrusted strings (semantic names, RDEF names, paths) as they appear in
//! a generated case's comments: on one line whatever they hold.

/// Longest name shown; past it the name is cut and marked.
const MAX_SHOWN: usize = 64;

/// `s` made safe for a comment: printable ASCII is kept; every other
/// character (newlines, control characters, Unicode line separators,
/// anything a terminal might act on) is written `\u{…}`; a long name is
/// cut after [`MAX_SHOWN`] characters with `...`. The result never holds
/// a line break, so it cannot start a section or a setting.
pub fn shown(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == MAX_SHOWN {
            out.push_str("...");
            break;
        }
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    if out.is_empty() {
        out.push_str("(unnamed)");
    }
    out
}

/// A float as the case syntax reads it back to the same bits (Rust's
/// shortest round-trip form, always with a point or exponent).
pub fn float(v: f32) -> String {
    format!("{v:?}")
}
