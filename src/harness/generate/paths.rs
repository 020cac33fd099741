//! Paths a generated case names: relative to the case file, and only
//! ones the case syntax can hold.

use std::path::{Component, Path, PathBuf};

use super::Refusal;

/// `target` as a path relative to the directory `from` (both absolute,
/// already canonical): `..` for each of `from`'s components past the
/// common prefix, then the rest of `target`.
pub fn relative(from: &Path, target: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = target.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    out
}

/// The path as a case file line holds it: UTF-8, `/`-separated, one line,
/// no `#` (which starts a comment) and no surrounding spaces (which the
/// parser trims). Anything else is refused, naming the path.
pub fn case_line(path: &Path) -> Result<String, Refusal> {
    let refuse = |why: &str| {
        Refusal::new(
            "path a case cannot name",
            format!(
                "{}: {why}; a case file names it on one line",
                path.display()
            ),
        )
    };
    let s = path
        .to_str()
        .ok_or_else(|| refuse("the path is not UTF-8"))?
        .replace('\\', "/");
    if s.chars().any(|c| c.is_control()) {
        return Err(refuse("the path holds a control character"));
    }
    if s.contains('#') {
        return Err(refuse("the path holds `#`, which starts a comment"));
    }
    if s.starts_with('[') {
        return Err(refuse("the path starts with `[`, which starts a section"));
    }
    if s.trim() != s || s.is_empty() {
        return Err(refuse("the path starts or ends with white space"));
    }
    Ok(s)
}
