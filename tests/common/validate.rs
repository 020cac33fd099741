//! The two validators the emitted GLSL must pass: `glslangValidator` (Debian
//! `glslang-tools`, the reference GLSL ES front end) for es300, and naga's
//! GLSL front end plus its IR validator (what wgpu uses) for vk450.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use dxbc_dbg::dxbc::ir::ProgramType;

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-glsl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Validates ES 3.00 source with glslangValidator. Err holds its messages.
/// Panics when the tool is missing: the README's test command installs it.
pub fn es300(stage: ProgramType, source: &str) -> Result<(), String> {
    let ext = match stage {
        ProgramType::Vertex => "vert",
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
pub fn vk450(stage: ProgramType, source: &str) -> Result<(), String> {
    let naga_stage = match stage {
        ProgramType::Vertex => naga::ShaderStage::Vertex,
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

/// Validates vk450 source with storage as the Vulkan path compiles it:
/// glslangValidator to SPIR-V (naga's GLSL front end has no atomics), then
/// naga's SPIR-V front end, with wgpu's options, and its IR validator.
pub fn vk450_spirv(stage: ProgramType, source: &str) -> Result<(), String> {
    let ext = match stage {
        ProgramType::Vertex => "vert",
        _ => "frag",
    };
    // The Vulkan path's own compile, so this checks what it draws.
    let words = dxbc_dbg::harness::spirv::compile(source, ext)?;
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        strict_capabilities: true,
        block_ctx_dump_prefix: None,
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let module = naga::front::spv::parse_u8_slice(&bytes, &options)
        .map_err(|e| format!("naga spv parse: {e}"))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| format!("naga validate: {e:?}"))?;
    Ok(())
}

/// Validates vk450 source with image atomics as the Vulkan path hands it
/// to the driver (wgpu's passthrough, since naga's SPIR-V front end cannot
/// read `OpImageTexelPointer`): glslangValidator to SPIR-V, checked by the
/// SPIRV-Tools validator it runs.
pub fn vk450_passthrough(stage: ProgramType, source: &str) -> Result<(), String> {
    let ext = match stage {
        ProgramType::Vertex => "vert",
        _ => "frag",
    };
    dxbc_dbg::harness::spirv::compile_validated(source, ext).map(|_| ())
}

/// Validates a vk450 translation by the route the Vulkan path compiles it:
/// naga's GLSL front end without storage; with storage glslang and naga's
/// SPIR-V front end, or, with image atomics, glslang and spirv-val alone.
pub fn vk450_route(t: &dxbc_dbg::glsl::Translation) -> Result<(), String> {
    let m = &t.manifest;
    if m.image_atomics() {
        vk450_passthrough(t.stage, &t.source)
    } else if !m.has_storage() {
        vk450(t.stage, &t.source)
    } else {
        vk450_spirv(t.stage, &t.source)
    }
}

/// Links an es300 vertex and fragment shader the way a GLSL ES 3.00
/// implementation does. glslangValidator `-l` checks that names and types
/// agree across the stages, but (at least up to glslang 12) not the rule
/// that a varying's interpolation qualifier (`flat` or the default
/// `smooth`) and `centroid` must be the same in both stages, which WebGL
/// implementations enforce ("Interpolation types of varying … differ"), so
/// that rule is checked here on the declarations. Err holds the messages.
pub fn es300_link(vertex: &str, fragment: &str) -> Result<(), String> {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let vs = scratch_dir().join(format!("l{n}.vert"));
    let fs = scratch_dir().join(format!("l{n}.frag"));
    std::fs::write(&vs, vertex).expect("write shader");
    std::fs::write(&fs, fragment).expect("write shader");
    let out = Command::new("glslangValidator")
        .arg("-l")
        .arg(&vs)
        .arg(&fs)
        .output()
        .expect(
            "glslangValidator not found: install glslang-tools (the README's test command does)",
        );
    let _ = std::fs::remove_file(&vs);
    let _ = std::fs::remove_file(&fs);
    if !out.status.success() {
        return Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let outputs = varyings(vertex, "out");
    let mut errors = Vec::new();
    for (name, fq) in varyings(fragment, "in") {
        let Some((_, vq)) = outputs.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        if *vq != fq {
            errors.push(format!(
                "interpolation of varying `{name}` differs: vertex `{vq}`, fragment `{fq}`"
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// The global `in` or `out` variables of a shader with their interpolation
/// and `centroid` qualifiers, normalised (`smooth` when none is written).
fn varyings(source: &str, storage: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for line in source.lines() {
        // Declarations are at the top level, unindented.
        if line.starts_with(char::is_whitespace) || line.starts_with("//") {
            continue;
        }
        let line = match line.find(')') {
            Some(p) if line.starts_with("layout") => &line[p + 1..],
            _ => line,
        };
        let Some(decl) = line.trim().strip_suffix(';') else {
            continue;
        };
        let words: Vec<&str> = decl.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| *w == storage) else {
            continue;
        };
        let (Some(name), true) = (words.get(at + 2), words.len() == at + 3) else {
            continue;
        };
        let quals = &words[..at];
        let interpolation = if quals.contains(&"flat") {
            "flat"
        } else {
            "smooth"
        };
        let centroid = if quals.contains(&"centroid") {
            " centroid"
        } else {
            ""
        };
        found.push((name.to_string(), format!("{interpolation}{centroid}")));
    }
    found
}
