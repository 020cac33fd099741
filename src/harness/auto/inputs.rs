//! The blobs a `diff --auto` run reads: files, directories searched for
//! `*.dxbc`, and manifests (`*.list`: a blob path a line, `#` comments,
//! paths relative to the manifest).
//!
//! A blob's name is also where `--write-cases DIR` writes its case
//! (`DIR/NAME.case`), so a name is only ever plain relative components:
//! the path relative to its input root (the directory searched, or the
//! manifest's directory), an absolute path outside that root written
//! without its root, and `..` written `__`. No name can leave DIR.

use std::path::{Path, PathBuf};

/// One shader blob and the name its case and results carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    pub path: PathBuf,
    /// The path relative to the directory it was found under (or the
    /// manifest's directory), without `.dxbc`, in plain components only
    /// (see the module's comment); a file given directly is named by its
    /// stem.
    pub name: String,
}

/// A manifest's file name ends with this.
pub const MANIFEST_EXTENSION: &str = "list";

/// Every blob `paths` name, in order (each directory's sorted), those
/// whose name or path contains `filter`. A path that does not exist, or
/// a manifest line naming a missing file, is an error naming it.
pub fn collect(paths: &[PathBuf], filter: Option<&str>) -> Result<Vec<Blob>, String> {
    let mut out = Vec::new();
    for root in paths {
        if root.is_dir() {
            let mut found = Vec::new();
            crate::harness::suite::walk(root, "dxbc", &mut found)?;
            found.sort();
            for f in found {
                let rel = f.strip_prefix(root).unwrap_or(&f).with_extension("");
                out.push(Blob {
                    name: slash_name(&rel),
                    path: f,
                });
            }
        } else if root.is_file() && root.extension().is_some_and(|e| e == MANIFEST_EXTENSION) {
            manifest(root, &mut out)?;
        } else if root.is_file() {
            out.push(Blob {
                path: root.clone(),
                name: stem(root),
            });
        } else {
            return Err(format!(
                "{}: no such shader blob, manifest or directory",
                root.display()
            ));
        }
    }
    if let Some(pat) = filter {
        out.retain(|b| b.name.contains(pat) || b.path.display().to_string().contains(pat));
    }
    Ok(out)
}

fn manifest(path: &Path, out: &mut Vec<Blob>) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let blob = dir.join(line);
        if !blob.is_file() {
            return Err(format!(
                "{}:{}: {}: no such shader blob",
                path.display(),
                i + 1,
                blob.display()
            ));
        }
        // An absolute line is named from the manifest's directory when it
        // lies under it, else by its own components without the root.
        let listed = Path::new(line);
        let rel = if listed.is_absolute() {
            let under = match (dir.canonicalize(), blob.canonicalize()) {
                (Ok(d), Ok(b)) => b.strip_prefix(&d).map(Path::to_path_buf).ok(),
                _ => None,
            };
            under.unwrap_or_else(|| listed.to_path_buf())
        } else {
            listed.to_path_buf()
        };
        out.push(Blob {
            name: slash_name(&rel.with_extension("")),
            path: blob,
        });
    }
    Ok(())
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `rel`'s plain components joined with `/`: a root or drive prefix and
/// `.` are left out and `..` is written `__`, so the name, joined to a
/// directory, stays inside it.
fn slash_name(rel: &Path) -> String {
    use std::path::Component;
    rel.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
            Component::ParentDir => Some("__".to_string()),
            Component::RootDir | Component::Prefix(_) | Component::CurDir => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Where `--write-cases DIR` writes each blob's case, checked before
/// anything is written: every path inside DIR (a name is plain relative
/// components, [`slash_name`]), and no two blobs on one file. A collision
/// is an error naming both blobs.
pub fn case_files(blobs: &[Blob], dir: &Path) -> Result<Vec<PathBuf>, String> {
    use std::path::Component;
    let mut seen: std::collections::HashMap<PathBuf, &Blob> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for b in blobs {
        let name = Path::new(&b.name);
        if b.name.is_empty() || !name.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!(
                "{}: its name `{}` cannot be a file under {}",
                b.path.display(),
                b.name,
                dir.display()
            ));
        }
        let at = dir.join(format!("{}.case", b.name));
        if let Some(first) = seen.get(&at) {
            return Err(format!(
                "{} and {} would both write {}: name them apart (one manifest or directory per set)",
                first.path.display(),
                b.path.display(),
                at.display()
            ));
        }
        seen.insert(at.clone(), b);
        out.push(at);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_manifests_and_missing_paths() {
        let dir = std::env::temp_dir().join(format!("dxbc-auto-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).expect("dir");
        for f in ["b.dxbc", "a.dxbc", "sub/c.dxbc", "notes.txt"] {
            std::fs::write(dir.join(f), b"x").expect("file");
        }
        std::fs::write(
            dir.join("set.list"),
            "# two of them\n\nsub/c.dxbc\n  a.dxbc \n",
        )
        .expect("manifest");
        let names = |v: Vec<Blob>| v.into_iter().map(|b| b.name).collect::<Vec<_>>();
        let all = collect(std::slice::from_ref(&dir), None).expect("dir");
        assert_eq!(names(all), ["a", "b", "sub/c"]);
        let listed = collect(&[dir.join("set.list")], None).expect("manifest");
        assert_eq!(names(listed), ["sub/c", "a"]);
        std::fs::write(dir.join("bad.list"), "a.dxbc\nmissing.dxbc\n").expect("manifest");
        let e = collect(&[dir.join("bad.list")], None).expect_err("missing");
        assert!(
            e.contains("bad.list:2") && e.contains("missing.dxbc"),
            "{e}"
        );
        let e = collect(&[dir.join("nope")], None).expect_err("missing");
        assert!(e.contains("nope: no such"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_are_plain_relative_components() {
        assert_eq!(slash_name(Path::new("/abs/path/x")), "abs/path/x");
        assert_eq!(slash_name(Path::new("../up/./x")), "__/up/x");
        let blob = |name: &str| Blob {
            path: PathBuf::from(format!("{name}.dxbc")),
            name: name.to_string(),
        };
        let out = Path::new("out");
        let files = case_files(&[blob("a/b"), blob("c")], out).expect("apart");
        assert_eq!(files, [out.join("a/b.case"), out.join("c.case")]);
        let e = case_files(&[blob("a"), blob("a")], out).expect_err("collision");
        assert!(e.contains("would both write"), "{e}");
        let e = case_files(&[blob("/etc/x")], out).expect_err("absolute");
        assert!(e.contains("cannot be a file under"), "{e}");
    }
}
