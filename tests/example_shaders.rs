//! The project's hand-written shaders. Every `shaders/*.asm` assembles; a
//! `.dxbc` committed beside one (the README's example) must be exactly what
//! the assembler makes of it; listings and reports are pinned by reviewed
//! insta snapshots. Regenerate the binaries with
//! `DXBC_DBG_REGENERATE=1 cargo test --test example_shaders`.

use std::path::{Path, PathBuf};

use dxbc_dbg::dxbc::{ParseOptions, Shader, asm, info, listing};

fn shader_sources() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("shaders/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    paths.sort();
    paths
}

fn assemble(path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).expect("read shader source");
    asm::assemble(&text).unwrap_or_else(|e| panic!("{}", e.in_file(&path.display().to_string())))
}

#[test]
fn every_shader_source_assembles_and_binaries_are_current() {
    let sources = shader_sources();
    assert!(!sources.is_empty());
    for src in &sources {
        let bytes = assemble(src);
        let shader =
            Shader::parse(&bytes, ParseOptions::default()).expect("assembled shader reads back");
        let stem = src.file_stem().and_then(|s| s.to_str()).expect("file name");
        insta::assert_snapshot!(format!("{stem}_listing"), listing::listing(&shader));
        let bin = src.with_extension("dxbc");
        if std::env::var_os("DXBC_DBG_REGENERATE").is_some() && bin.exists() {
            std::fs::write(&bin, &bytes).expect("write binary");
        }
        if bin.exists() {
            let committed = std::fs::read(&bin).expect("read binary");
            assert_eq!(
                committed,
                bytes,
                "{} is stale: regenerate it",
                bin.display()
            );
        }
    }
}

#[test]
fn report_and_error_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let bytes = std::fs::read(dir.join("shadow_pcf.dxbc")).expect("example binary");
    let shader = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
    insta::assert_snapshot!(
        "shadow_pcf_info",
        info::report("shaders/shadow_pcf.dxbc", &shader)
    );

    let vs = assemble(&dir.join("control_flow_vs.asm"));
    let vs = Shader::parse(&vs, ParseOptions::default()).expect("parses");
    insta::assert_snapshot!("control_flow_vs_info", info::report("control_flow_vs", &vs));

    // Errors name the byte offset ...
    let mut cut = bytes[..bytes.len() - 6].to_vec();
    let len = cut.len() as u32;
    cut[24..28].copy_from_slice(&len.to_le_bytes());
    let err = Shader::parse(
        &cut,
        ParseOptions {
            verify_checksum: false,
        },
    )
    .expect_err("truncated");
    insta::assert_snapshot!("truncated_error", err.to_string());

    // ... and the assembler's the line, column and token.
    let err = asm::assemble("ps_5_0\ndcl_temps 1\nmov r0.xyzw, q1.x\n").expect_err("bad register");
    insta::assert_snapshot!("asm_error", err.in_file("bad.asm"));
}
