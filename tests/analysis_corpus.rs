//! Every shader in the corpus, of every stage, passes the analysis pass:
//! the corpus is real fxc output, whose blocks are balanced, whose
//! registers lie within their declarations and whose resources are all
//! declared, so any failure is the pass misreading a well-formed program.

mod common;

use dxbc_dbg::dxbc::{ParseOptions, Shader};

#[test]
fn corpus_shaders_pass_analysis() {
    let Some(root) = common::corpus() else { return };
    let mut total = 0;
    let mut failures = Vec::new();
    for blob in common::manifest(&root).iter().filter(|b| b.is_shader()) {
        let bytes = std::fs::read(root.join(&blob.file)).expect("read blob");
        // One blob's hash is bad on purpose; the program is what is checked.
        let opts = ParseOptions {
            verify_checksum: false,
        };
        let shader = Shader::parse(&bytes, opts).expect("parses");
        total += 1;
        if let Err(e) = shader.analysis() {
            let line = shader.program_lines().get(e.index).cloned();
            failures.push(format!("{}: {e}: {}", blob.file, line.unwrap_or_default()));
        }
    }
    println!("analysis corpus: {total} shaders");
    assert!(total > 0);
    assert!(
        failures.is_empty(),
        "{} corpus shaders fail analysis:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
