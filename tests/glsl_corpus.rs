//! Every pixel and vertex shader in the corpus goes through the GLSL emitter
//! in both dialects. A shader is either refused, for a reason GLSL ES 3.00
//! cannot express, or translated into source that glslangValidator accepts
//! (es300) and naga parses and validates (vk450). One summary line is
//! printed, then each failure with its first error lines.

mod common;

use std::collections::BTreeMap;

use dxbc_dbg::dxbc::opcodes::Op;
use dxbc_dbg::dxbc::shader::Shader;
use dxbc_dbg::glsl::{self, Dialect, Options, Reason, Translation};

use common::validate;

/// Reasons GLSL ES 3.00 genuinely cannot express. `Operand` and `Stage`
/// (for a vertex or pixel shader) would be emitter gaps.
fn legitimate(r: Reason) -> bool {
    !matches!(r, Reason::Operand | Reason::Stage)
}

/// The first few error lines of a validator's output.
fn first_errors(msg: &str) -> String {
    msg.lines()
        .filter(|l| !l.trim().is_empty() && !l.ends_with(".frag") && !l.ends_with(".vert"))
        .take(12)
        .map(|l| format!("      {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

struct Outcome {
    file: String,
    es300: Result<(), String>,
    vk450: Result<(), String>,
}

/// Validates every translation, spreading the glslangValidator processes
/// over the machine's threads.
fn validate_all(items: Vec<(String, Translation, Translation)>) -> Vec<Outcome> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8);
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(file, es, vk)| Outcome {
                            file: file.clone(),
                            es300: validate::es300(es.stage, &es.source),
                            vk450: validate_vk450(vk),
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("validator thread"))
            .collect()
    })
}

/// Reasons only es300 refuses for (vk450 lowers what they name):
/// multisampling with its system values, cube-map arrays, doubles, and
/// buffer views and UAVs, typed buffer SRVs among them (vk450 lowers their
/// `ld` and `bufinfo`; it refuses the rest by the same name, which then
/// shows in both dialects' refusals).
fn es300_only(r: Reason) -> bool {
    matches!(
        r,
        Reason::Multisample
            | Reason::SystemValue
            | Reason::CubeArray
            | Reason::Double
            | Reason::Uav
            | Reason::RawStructuredBuffer
            | Reason::TypedBuffer
    )
}

/// An es300 refusal vk450 has no counterpart for: an es300-only reason, or
/// a pixel shader's `sync_uglobal` (es300 refuses every `sync` as
/// compute-only; vk450 lowers the UAV fence to nothing, `docs/glsl.md`).
fn es300_only_diagnostic(d: &glsl::Diagnostic) -> bool {
    es300_only(d.reason) || (d.reason == Reason::Compute && d.text.starts_with("sync_uglobal"))
}

/// Validates vk450 text by the route the Vulkan path compiles it: naga's
/// GLSL front end, or, with storage, glslang to SPIR-V and naga's SPIR-V
/// front end, or, with image atomics, glslang and spirv-val.
fn validate_vk450(t: &glsl::Translation) -> Result<(), String> {
    validate::vk450_route(t)
}

/// Reasons only vk450 refuses for: a cube-array comparison outside the
/// pixel shader (naga's only form takes an implicit LOD), which es300
/// refuses earlier as a cube array; a gather from an integer cube (naga
/// refuses `textureLod` on integer textures); `vCoverage` at pixel
/// frequency (naga lacks `gl_SampleMaskIn`); an atomic on a float typed 2D
/// UAV (D3D11 allows typed UAV atomics only on R32_UINT/R32_SINT) or a
/// typed UAV of a dimension the lowering stops short of, which es300
/// refuses as UAVs.
fn vk450_only(r: Reason) -> bool {
    matches!(
        r,
        Reason::CubeArrayShadowLod
            | Reason::IntegerCubeGather
            | Reason::CoverageInput
            | Reason::ImageAtomic
            | Reason::UavDimension
            | Reason::UavFormat
            | Reason::ViewMismatch
            | Reason::ViewIndex
            | Reason::TiledMemory
    )
}

/// Whether a shader declares a buffer view or UAV (what vk450 lowers to
/// storage buffers and images, and es300 refuses).
fn declares_storage(shader: &Shader) -> bool {
    shader.program.instructions.iter().any(|i| {
        matches!(
            i.op,
            Op::DclUavTyped
                | Op::DclUavRaw
                | Op::DclUavStructured
                | Op::DclResourceRaw
                | Op::DclResourceStructured
        )
    })
}

/// The dialects refuse the same instructions for the same reasons, except
/// where one dialect alone lacks something.
fn refusals_agree(es: &[glsl::Diagnostic], vk: &[glsl::Diagnostic]) -> bool {
    es.iter()
        .all(|d| vk.contains(d) || es300_only_diagnostic(d))
        && vk.iter().all(|d| es.contains(d) || vk450_only(d.reason))
}

#[test]
fn corpus_shaders_translate_to_valid_glsl() {
    let Some(root) = common::corpus() else { return };
    let shaders = common::vertex_and_pixel_shaders(&root);
    assert!(!shaders.is_empty());

    let mut refused: BTreeMap<Reason, usize> = BTreeMap::new();
    let mut refused_count = 0;
    // Shaders with storage declarations: how many vk450 lowers, and the
    // reasons it refuses the rest for.
    let mut storage = 0;
    let mut storage_lowered = 0;
    let mut storage_refused: BTreeMap<Reason, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut items = Vec::new();
    for (file, shader) in &shaders {
        let es = glsl::translate(shader, &Options::new(Dialect::Es300));
        let vk = glsl::translate(shader, &Options::new(Dialect::Vk450));
        if declares_storage(shader) {
            storage += 1;
            match &vk {
                Ok(_) => storage_lowered += 1,
                Err(r) => {
                    for reason in r.reasons() {
                        *storage_refused.entry(reason).or_insert(0) += 1;
                    }
                }
            }
        }
        match (es, vk) {
            (Ok(es), Ok(vk)) => items.push((file.clone(), es, vk)),
            // Multisampling and cube-map arrays exist in vk450 only: es300
            // refuses them by name and the vk450 text must still validate.
            (Err(a), Ok(vk)) if a.reasons().iter().all(|r| es300_only(*r)) => {
                if let Err(msg) = validate_vk450(&vk) {
                    problems.push(format!("{file}:\n    vk450:\n{}", first_errors(&msg)));
                }
            }
            (Err(a), Err(b)) => {
                refused_count += 1;
                if !refusals_agree(&a.diagnostics, &b.diagnostics) {
                    problems.push(format!("{file}: the dialects refuse differently"));
                }
                for r in a.reasons() {
                    *refused.entry(r).or_insert(0) += 1;
                    if !legitimate(r) {
                        problems.push(format!("{file}: refused without cause:\n{a}"));
                    }
                }
            }
            _ => problems.push(format!("{file}: one dialect translates, the other refuses")),
        }
    }

    let translated = items.len();
    let outcomes = validate_all(items);
    let es_valid = outcomes.iter().filter(|o| o.es300.is_ok()).count();
    let vk_valid = outcomes.iter().filter(|o| o.vk450.is_ok()).count();
    let reasons = refused
        .iter()
        .map(|(r, n)| format!("{} {n}", r.name()))
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "translated {translated}, refused {refused_count} ({reasons}), \
         es300 valid {es_valid}/{translated}, vk450 valid {vk_valid}/{translated}"
    );
    let storage_reasons = storage_refused
        .iter()
        .map(|(r, n)| format!("{} {n}", r.name()))
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "with buffer views or UAVs: {storage}, vk450 lowers {storage_lowered}, \
         refuses {} ({storage_reasons})",
        storage - storage_lowered
    );

    for o in &outcomes {
        if o.es300.is_ok() && o.vk450.is_ok() {
            continue;
        }
        let mut report = format!("{}:", o.file);
        for (dialect, r) in [("es300", &o.es300), ("vk450", &o.vk450)] {
            if let Err(msg) = r {
                report.push_str(&format!("\n    {dialect}:\n{}", first_errors(msg)));
            }
        }
        problems.push(report);
    }
    for p in &problems {
        println!("FAIL {p}");
    }
    assert!(
        problems.is_empty(),
        "{} shader(s) failed (see above)",
        problems.len()
    );
}

/// Every instruction produces at least one line, its first line is the
/// comment repeating it, and ranges follow instruction order without
/// overlapping: for i < j, range(i) ends before range(j) starts.
#[test]
fn source_map_covers_every_instruction_in_order() {
    let Some(root) = common::corpus() else { return };
    let mut checked = 0;
    let mut problems = Vec::new();
    for (file, shader) in common::vertex_and_pixel_shaders(&root) {
        for dialect in [Dialect::Es300, Dialect::Vk450] {
            let Ok(t) = glsl::translate(&shader, &Options::new(dialect)) else {
                continue;
            };
            checked += 1;
            let lines: Vec<&str> = t.source.lines().collect();
            let n = shader.program.instructions.len();
            assert_eq!(t.map.ranges.len(), n, "{file}");
            let mut prev: Option<(usize, u32)> = None;
            for i in 0..n {
                let Some((a, b)) = t.map.lines(i) else {
                    problems.push(format!(
                        "{file} ({}): instruction {i} has no line",
                        dialect.name()
                    ));
                    continue;
                };
                if a == 0 || a > b || b as usize > lines.len() {
                    problems.push(format!("{file}: instruction {i}: bad range {a}-{b}"));
                    continue;
                }
                if !lines[a as usize - 1].trim_start().starts_with("//") {
                    problems.push(format!(
                        "{file} ({}): instruction {i} starts at `{}`, not its comment",
                        dialect.name(),
                        lines[a as usize - 1]
                    ));
                }
                if let Some((j, end)) = prev
                    && end >= a
                {
                    problems.push(format!(
                        "{file} ({}): instruction {j} ends at line {end}, \
                         instruction {i} starts at {a}",
                        dialect.name()
                    ));
                }
                prev = Some((i, b));
                for line in a..=b {
                    if t.map.instruction_at(line) != Some(i) {
                        problems.push(format!(
                            "{file}: line {line} is in instruction {i}'s range \
                             but instruction_at says {:?}",
                            t.map.instruction_at(line)
                        ));
                    }
                }
            }
        }
    }
    for p in problems.iter().take(40) {
        println!("{p}");
    }
    assert!(checked > 0);
    assert!(
        problems.is_empty(),
        "{} source map problem(s)",
        problems.len()
    );
}

/// wine's d3d10core `test_shader_interstage_interface` pair: the pixel
/// shader reads TEXCOORD1, a float, with `constant` interpolation, so its
/// es300 input is `flat in float`. The vertex shader translated alone
/// writes a plain `out float`, which GLSL ES 3.00 refuses to link
/// ("Interpolation types of varying 'vs_TEXCOORD1' differ"); translated
/// with a link to that pixel shader it writes `flat out float` and the pair
/// links.
#[test]
fn wine_interstage_pair_links_only_when_translated_together() {
    let Some(root) = common::corpus() else { return };
    let dir = root.join("wine");
    let load = |name: &str| {
        let path = dir.join(format!(
            "wine-d3d10core__test_shader_interstage_interface__{name}.dxbc"
        ));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        dxbc_dbg::dxbc::Shader::parse(&bytes, dxbc_dbg::dxbc::ParseOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let vs = load("vs_code");
    let ps = load("ps_code");
    let es = Options::new(Dialect::Es300);
    let fragment = glsl::translate(&ps, &es).expect("pixel shader translates");
    assert!(
        fragment.source.contains("\nflat in float vs_TEXCOORD1;"),
        "{}",
        fragment.source
    );
    let alone = glsl::translate(&vs, &es).expect("vertex shader translates");
    let err = validate::es300_link(&alone.source, &fragment.source)
        .expect_err("alone, the vertex output is not flat");
    assert!(err.contains("`vs_TEXCOORD1`"), "{err}");
    let mut linked = es.clone();
    linked.link = Some(glsl::Link::from_pixel_shader(&ps));
    let vertex = glsl::translate(&vs, &linked).expect("vertex shader translates linked");
    assert!(
        vertex.source.contains("\nflat out float vs_TEXCOORD1;"),
        "{}",
        vertex.source
    );
    validate::es300_link(&vertex.source, &fragment.source).expect("the linked pair links");
    // The same vertex shader linked to the variants reading fewer inputs.
    for name in ["ps_partial_input_code", "ps_single_input_code"] {
        let ps = load(name);
        let fragment = glsl::translate(&ps, &es).expect("pixel shader translates");
        let mut linked = es.clone();
        linked.link = Some(glsl::Link::from_pixel_shader(&ps));
        let vertex = glsl::translate(&vs, &linked).expect("vertex shader translates linked");
        validate::es300_link(&vertex.source, &fragment.source)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
