//! The blobs a `diff --auto` run reads: files, directories searched for
//! `*.dxbc`, and manifests (`*.list`: a blob path a line, `#` comments,
//! paths relative to the manifest).

use std::path::{Path, PathBuf};

/// One shader blob and the name its case and results carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    pub path: PathBuf,
    /// The path relative to the directory it was found under (or as the
    /// manifest writes it), without `.dxbc`; a file given directly is
    /// named by its stem.
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
        out.push(Blob {
            name: slash_name(&Path::new(line).with_extension("")),
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

fn slash_name(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
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
}
