//! `dxbc-dbg diff --auto` through the real binary, on the emulator alone
//! (`--backend none`) so that it runs anywhere: three assembled blobs
//! give the three verdict kinds they must (a pixel shader that agrees, a
//! vertex shader skipped by stage, a pixel shader whose case generation
//! refuses it), `--write-cases` writes cases the ordinary `diff` loads and
//! passes, the JSON document carries the verdicts and `report merge`
//! counts shards' verdicts as one run, and a missing path is named.

mod common;

use std::path::{Path, PathBuf};

use common::cli::{dxbc_dbg, stderr, stdout};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-auto-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A pixel shader of adds and multiplies (1 ULP), drawn by the emulator.
const PS_ADD: &str = "\
.semantic v1 TEXCOORD 0 float
ps_5_0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
add r0.xy, v1.xyxx, l(0.25, 0.5, 0, 0)
mul r0.x, r0.x, r0.y
mov o0.xy, r0.xyxx
mov o0.zw, l(0,0,0,1.0)
ret
";

/// A typed UAV of a dimension the case syntax has no form for: case
/// generation refuses it (`typed UAV dimension`).
const PS_UAV_ARRAY: &str = "\
ps_5_0
dcl_uav_typed_texture2darray (float,float,float,float) u1
dcl_output o0.xyzw
mov o0.xyzw, l(1.0,0,0,1.0)
ret
";

fn assemble(dir: &Path, name: &str, text: &str) {
    let asm = dir.join(format!("{name}.asm"));
    std::fs::write(&asm, text).expect("asm");
    let out = dxbc_dbg(&[
        "asm",
        asm.to_str().expect("UTF-8"),
        "-o",
        dir.join(format!("{name}.dxbc")).to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(&asm).expect("asm removed");
}

fn blobs(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    assemble(&dir, "ps_add", PS_ADD);
    assemble(&dir, "ps_uav_array", PS_UAV_ARRAY);
    let vs = std::fs::read_to_string("shaders/control_flow_vs.asm").expect("vs");
    assemble(&dir, "vs", &vs);
    dir
}

/// The count on a summary line (`agree    1`).
fn count(summary: &str, verdict: &str) -> Option<usize> {
    summary.lines().find_map(|l| {
        let rest = l.strip_prefix(verdict)?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

#[test]
fn three_blobs_give_agree_skipped_and_refused() {
    let dir = blobs("kinds");
    let json = dir.join("run.json");
    let out = dxbc_dbg(&[
        "diff",
        "--auto",
        dir.to_str().expect("UTF-8"),
        "--backend",
        "none",
        "--json",
        json.to_str().expect("UTF-8"),
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert_eq!(count(&text, "agree "), Some(1), "{text}");
    assert_eq!(count(&text, "refused "), Some(1), "{text}");
    assert_eq!(count(&text, "skipped "), Some(1), "{text}");
    assert_eq!(count(&text, "differ "), Some(0), "{text}");
    assert!(text.contains("generation: typed UAV dimension"), "{text}");
    assert!(text.contains("vertex shader"), "{text}");
    let doc = std::fs::read_to_string(&json).expect("json written");
    assert!(doc.contains("\"auto\""), "{doc}");
    assert!(doc.contains("\"kind\": \"agree\""), "{doc}");
    assert!(doc.contains("\"kind\": \"skipped\""), "{doc}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn written_cases_load_in_an_ordinary_diff() {
    let dir = blobs("write");
    let cases = dir.join("cases");
    let out = dxbc_dbg(&[
        "diff",
        "--auto",
        dir.to_str().expect("UTF-8"),
        "--backend",
        "none",
        "--write-cases",
        cases.to_str().expect("UTF-8"),
        "--seed",
        "3",
    ]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let case = cases.join("ps_add.case");
    let text = std::fs::read_to_string(&case).expect("the case was written");
    assert!(text.contains("(seed 3)"), "{text}");
    assert!(text.contains("[tolerance]\n# add, mul:"), "{text}");
    assert!(text.contains("\nulp 1\n"), "{text}");
    // Only the pixel shader that gets a case has one.
    assert!(!cases.join("vs.case").exists());
    assert!(!cases.join("ps_uav_array.case").exists());
    let again = dxbc_dbg(&["diff", case.to_str().expect("UTF-8"), "--backend", "none"]);
    assert!(
        again.status.success(),
        "{}{}",
        stdout(&again),
        stderr(&again)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merge_into_the_counts_of_one_run() {
    let dir = blobs("merge");
    // A manifest naming the blobs, relative to itself.
    let list = dir.join("set.list");
    std::fs::write(
        &list,
        "# the three\nps_add.dxbc\nvs.dxbc\nps_uav_array.dxbc\n",
    )
    .expect("list");
    let mut docs = Vec::new();
    for k in 1..=2 {
        let json = dir.join(format!("s{k}.json"));
        let out = dxbc_dbg(&[
            "diff",
            "--auto",
            list.to_str().expect("UTF-8"),
            "--backend",
            "none",
            "--shard",
            &format!("{k}/2"),
            "--json",
            json.to_str().expect("UTF-8"),
        ]);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
        docs.push(json.to_str().expect("UTF-8").to_string());
    }
    let mut args = vec!["report", "merge"];
    args.extend(docs.iter().map(String::as_str));
    let out = dxbc_dbg(&args);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.starts_with("3 shaders"), "{text}");
    assert_eq!(count(&text, "agree "), Some(1), "{text}");
    assert_eq!(count(&text, "skipped "), Some(1), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_path_is_named() {
    let out = dxbc_dbg(&["diff", "--auto", "no/such/blobs", "--backend", "none"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no/such/blobs"), "{}", stderr(&out));
    let dir = temp_dir("missing");
    let list = dir.join("bad.list");
    std::fs::write(&list, "gone.dxbc\n").expect("list");
    let out = dxbc_dbg(&[
        "diff",
        "--auto",
        list.to_str().expect("UTF-8"),
        "--backend",
        "none",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad.list:1"), "{}", stderr(&out));
    assert!(stderr(&out).contains("gone.dxbc"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file a path under `dir` holds, relative to it.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).expect("under").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// `--write-cases DIR` with a manifest of absolute paths: each case is
/// written under DIR, named by the blob's path relative to the manifest's
/// directory (or, outside it, by its own path without the root), and
/// nothing is written anywhere else — not beside the blobs, where a name
/// like `/abs/path/ps` joined to DIR used to land. Two blobs on one case
/// file are an error before anything is written.
#[test]
fn write_cases_writes_only_under_its_directory() {
    let root = temp_dir("write-cases-abs");
    let blobs = root.join("blobs");
    std::fs::create_dir_all(blobs.join("sub")).expect("dir");
    assemble(&blobs.join("sub"), "ps", PS_ADD);
    let lists = root.join("lists");
    std::fs::create_dir_all(&lists).expect("dir");
    let blob = blobs.join("sub/ps.dxbc").canonicalize().expect("blob");
    let manifest = lists.join("abs.list");
    std::fs::write(&manifest, format!("{}\n", blob.display())).expect("manifest");
    let out_dir = root.join("out");
    let before = files_under(&root);
    let out = dxbc_dbg(&[
        "diff",
        "--auto",
        manifest.to_str().expect("UTF-8"),
        "--write-cases",
        out_dir.to_str().expect("UTF-8"),
        "--backend",
        "none",
    ]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    // The blob lies outside the manifest's directory: its name is its
    // absolute path without the root.
    let rel = blob
        .strip_prefix("/")
        .expect("absolute")
        .with_extension("case");
    let written = files_under(&out_dir);
    assert_eq!(written, vec![rel.clone()], "{written:?}");
    let mut after: Vec<PathBuf> = files_under(&root)
        .into_iter()
        .filter(|p| !p.starts_with("out"))
        .collect();
    after.sort();
    assert_eq!(after, before, "files written outside --write-cases");
    // The written case loads and passes with the ordinary diff.
    let case = out_dir.join(&rel);
    let out = dxbc_dbg(&["diff", case.to_str().expect("UTF-8"), "--backend", "none"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));

    // The same blob listed twice (once absolute, once relative): one case
    // file for two blobs is refused, and nothing is written.
    let twice = blobs.join("twice.list");
    std::fs::write(&twice, format!("{}\nsub/ps.dxbc\n", blob.display())).expect("manifest");
    let out_twice = root.join("out_twice");
    let out = dxbc_dbg(&[
        "diff",
        "--auto",
        twice.to_str().expect("UTF-8"),
        "--write-cases",
        out_twice.to_str().expect("UTF-8"),
        "--backend",
        "none",
    ]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("would both write"),
        "{}",
        stderr(&out)
    );
    assert!(!out_twice.exists() || files_under(&out_twice).is_empty());
    let _ = std::fs::remove_dir_all(&root);
}
