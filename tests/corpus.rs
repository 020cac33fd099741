//! Acceptance over the real bytecode in `../shared/corpus`: every SM4/SM5
//! container goes through the real binary's `disasm` and `info` with exit
//! status 0, checksums verify (the known bad one is reported), and effect
//! containers are refused with a clear message.

mod common;

use std::process::Command;

use dxbc_dbg::dxbc::{DxbcError, ParseOptions, Shader};

fn dxbc_dbg(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-dbg"))
        .args(args)
        .output()
        .expect("run dxbc-dbg")
}

#[test]
fn every_corpus_shader_disassembles_and_reports() {
    let Some(root) = common::corpus() else { return };
    let blobs = common::manifest(&root);
    let (mut total, mut parsed) = (0, 0);
    let mut bad_checksums = Vec::new();
    let mut failures = Vec::new();
    for blob in blobs.iter().filter(|b| b.is_shader()) {
        total += 1;
        let path = root.join(&blob.file);
        let path_s = path.to_string_lossy().to_string();
        let mut flags = vec![];
        if !blob.checksum_ok {
            // Without --no-verify the reader must refuse it, naming the checksum.
            let out = dxbc_dbg(&["disasm", &path_s]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                !out.status.success() && err.contains("checksum mismatch"),
                "{err}"
            );
            bad_checksums.push(blob.file.clone());
            flags.push("--no-verify");
        }
        let mut ok = true;
        for cmd in ["disasm", "info"] {
            let mut args = vec![cmd, path_s.as_str()];
            args.extend(&flags);
            let out = dxbc_dbg(&args);
            if !out.status.success() || out.stdout.is_empty() {
                ok = false;
                failures.push(format!(
                    "{cmd} {}: {}",
                    blob.file,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
        if ok {
            parsed += 1;
        }
    }
    println!("corpus: {parsed}/{total} parsed");
    println!(
        "corpus: {} blob(s) with a bad container checksum: {}",
        bad_checksums.len(),
        bad_checksums.join(", ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(parsed, total);
}

#[test]
fn checksums_match_the_manifest() {
    let Some(root) = common::corpus() else { return };
    let mut checked = 0;
    for blob in common::manifest(&root) {
        let bytes = std::fs::read(root.join(&blob.file)).expect("read blob");
        let verified = Shader::parse(&bytes, ParseOptions::default());
        match verified {
            Err(DxbcError::Checksum { .. }) => assert!(!blob.checksum_ok, "{}", blob.file),
            _ => assert!(blob.checksum_ok, "{} should fail its checksum", blob.file),
        }
        checked += 1;
    }
    println!("corpus: {checked} container checksums checked against the manifest");
}

#[test]
fn effect_containers_are_named_as_such() {
    let Some(root) = common::corpus() else { return };
    let mut n = 0;
    for blob in common::manifest(&root).iter().filter(|b| b.is_effect()) {
        let path = root.join(&blob.file);
        let out = dxbc_dbg(&["disasm", &path.to_string_lossy()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{}", blob.file);
        assert!(
            err.contains("effect (FX10) container"),
            "{}: {err}",
            blob.file
        );
        assert!(err.contains(&blob.file), "error must name the file: {err}");
        n += 1;
    }
    println!("corpus: {n} effect containers refused with a clear message");
}
