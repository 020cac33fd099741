//! The two validators the emitted GLSL must pass: `glslangValidator` (Debian
//! `glslang-tools`, the reference GLSL ES front end) for es300, and naga's
//! GLSL front end plus its IR validator (what wgpu uses) for vk450.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use dxbc_dbg::dxbc::ir::ShaderKind;

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-glsl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Validates ES 3.00 source with glslangValidator. Err holds its messages.
/// Panics when the tool is missing: the README's test command installs it.
pub fn es300(stage: ShaderKind, source: &str) -> Result<(), String> {
    let ext = match stage {
        ShaderKind::Vertex => "vert",
        _ => "frag",
    };
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = scratch_dir().join(format!("s{n}.{ext}"));
    std::fs::write(&path, source).expect("write shader");
    let out = Command::new("glslangValidator").arg(&path).output().expect(
        "glslangValidator not found: install glslang-tools (the README's test command does)",
    );
    let _ = std::fs::remove_file(&path);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Parses vk450 source with naga's GLSL front end and validates the module.
pub fn vk450(stage: ShaderKind, source: &str) -> Result<(), String> {
    let naga_stage = match stage {
        ShaderKind::Vertex => naga::ShaderStage::Vertex,
        _ => naga::ShaderStage::Fragment,
    };
    let mut frontend = naga::front::glsl::Frontend::default();
    let module = frontend
        .parse(&naga::front::glsl::Options::from(naga_stage), source)
        .map_err(|e| format!("naga parse: {}", e.emit_to_string(source)))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        // wgpu grants pack/unpackHalf2x16 (`f32tof16`, `f16tof32`) on every
        // native backend (downlevel SHADER_F16_IN_F32).
        naga::valid::Capabilities::default() | naga::valid::Capabilities::SHADER_FLOAT16_IN_FLOAT32,
    )
    .validate(&module)
    .map_err(|e| format!("naga validate: {}", e.emit_to_string(source)))?;
    Ok(())
}
