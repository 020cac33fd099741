//! vk450 text with storage (buffer views, UAVs, counters) compiled to
//! SPIR-V by glslangValidator, for wgpu to read through naga's SPIR-V front
//! end. naga's GLSL front end has no atomic built-ins at all; its SPIR-V
//! front end turns the `uint` words an atomic touches into atomic types.
//! docs/harness.md ("Shaders with storage") says why every storage shader,
//! not only those with atomics, takes this path; shaders with image
//! atomics, which naga cannot read, are compiled with the SPIR-V validator
//! too (`compile_validated`) and passed to the driver as they are. It needs
//! no GPU, so it is
//! built without the `gpu` feature: the tests validate vk450 text through
//! this same compile, so they check what the Vulkan path draws.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

/// The program that compiles, found on `PATH`.
pub const GLSLANG: &str = "glslangValidator";

/// Compiles `source` for `stage` ("vert" or "frag") to SPIR-V words.
pub fn compile(source: &str, stage: &str) -> Result<Vec<u32>, String> {
    compile_with(GLSLANG, source, stage)
}

/// [`compile`], with glslang also running the SPIRV-Tools validator on
/// its output: for SPIR-V that reaches the driver without naga reading it
/// (the passthrough route), where nothing else would check it.
pub fn compile_validated(source: &str, stage: &str) -> Result<Vec<u32>, String> {
    compile_args(GLSLANG, source, stage, &["--spirv-val"])
}

fn compile_with(program: &str, source: &str, stage: &str) -> Result<Vec<u32>, String> {
    compile_args(program, source, stage, &[])
}

fn compile_args(
    program: &str,
    source: &str,
    stage: &str,
    extra: &[&str],
) -> Result<Vec<u32>, String> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let out = std::env::temp_dir().join(format!(
        "dxbc-dbg-{}-{}.spv",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let mut child = Command::new(program)
        .args(["-V", "--stdin", "-S", stage])
        .args(extra)
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "the shader uses storage buffers or images (UAVs, raw or structured buffers), \
                 which the Vulkan path compiles with {GLSLANG} (naga's GLSL front end has no \
                 atomics); running {program} failed: {e} (install glslang-tools)"
            )
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        // A write error shows up as the compiler's own failure below.
        let _ = stdin.write_all(source.as_bytes());
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("waiting for {GLSLANG}: {e}"))?;
    let bytes = std::fs::read(&out);
    let _ = std::fs::remove_file(&out);
    if !output.status.success() {
        return Err(format!(
            "{GLSLANG} rejected the {stage} shader:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let bytes = bytes.map_err(|e| format!("reading {GLSLANG}'s output: {e}"))?;
    if !bytes.len().is_multiple_of(4) {
        return Err(format!(
            "{GLSLANG} wrote {} bytes, not whole words",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the compiler the error names it and says how to get it.
    #[test]
    fn a_missing_compiler_is_named() {
        let e = compile_with("glslangValidator-not-installed", "#version 450\n", "frag")
            .expect_err("no such program");
        assert!(
            e.contains("glslangValidator-not-installed") && e.contains("glslang-tools"),
            "{e}"
        );
    }

    /// Text glslang rejects comes back with its diagnostics.
    #[test]
    fn rejected_text_gives_glslangs_messages() {
        let e = compile("#version 450\nvoid main() { undeclared = 1; }\n", "frag")
            .expect_err("an undeclared name");
        assert!(
            e.contains("rejected the frag shader") && e.contains("undeclared"),
            "{e}"
        );
    }

    /// Valid text gives SPIR-V (its magic number first).
    #[test]
    fn valid_text_gives_spirv_words() {
        let words = compile("#version 450\nvoid main() {}\n", "frag").expect("compiles");
        assert_eq!(words.first(), Some(&0x0723_0203));
    }
}
