//! Paths between the files of reports: the pictures of a slice's report as
//! seen from a merged report elsewhere, or a report directory as seen from
//! its JSON file. Always written with `/`, which every browser and
//! platform reads, so a document reads the same wherever it was written.

use std::path::{Component, Path, PathBuf};

/// `p` made absolute without touching the file system beyond the current
/// directory, with `.` and `..` resolved (symbolic links are taken from
/// `canonicalize` when the path exists, so two spellings of one directory
/// agree).
fn absolute(p: &Path) -> Result<PathBuf, String> {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    if let Ok(c) = p.canonicalize() {
        return Ok(c);
    }
    let abs =
        std::path::absolute(p).map_err(|e| format!("{}: cannot resolve: {e}", p.display()))?;
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Ok(out)
}

/// `target` relative to the directory `base` (`.` when they are one).
pub fn relative(target: &Path, base: &Path) -> Result<String, String> {
    let (t, b) = (absolute(target)?, absolute(base)?);
    let tc: Vec<Component> = t.components().collect();
    let bc: Vec<Component> = b.components().collect();
    let common = tc.iter().zip(&bc).take_while(|(x, y)| x == y).count();
    if common == 0 {
        // Different roots (another drive): only the absolute path reaches.
        return Ok(t.display().to_string());
    }
    let mut parts: Vec<String> = vec!["..".to_string(); bc.len() - common];
    parts.extend(
        tc[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

/// `rel` (a document's `/`-separated relative path, or an absolute one)
/// joined onto `base`.
pub fn join(base: &Path, rel: &str) -> PathBuf {
    if Path::new(rel).is_absolute() {
        return PathBuf::from(rel);
    }
    rel.split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .fold(base.to_path_buf(), |p, s| p.join(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        let root = std::env::temp_dir();
        let r = |a: &str, b: &str| relative(&root.join(a), &root.join(b)).expect("resolves");
        assert_eq!(r("x/y/img", "x/merged"), "../y/img");
        assert_eq!(r("x/y", "x/y"), ".");
        assert_eq!(r("x/y/z", "x"), "y/z");
        assert_eq!(r("x", "x/a/b"), "../..");
        assert_eq!(
            join(&root.join("x/merged"), "../y/img/a.png"),
            root.join("x/merged/../y/img/a.png")
        );
    }
}
