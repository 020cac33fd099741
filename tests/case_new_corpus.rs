//! `case new` over the corpus: every vertex and pixel shader gets a
//! generated case that parses, matches the shader's declarations and draws
//! on the emulator (CPU renderer), or a clear refusal. Counts by outcome
//! and reason are printed; a panic, a generated case that does not load,
//! or an emulator error other than a shader that does not end fails.
//!
//! The NaN test: for the pixel shaders that divide, take reciprocals,
//! square roots or logarithms, no pixel of the generated case is NaN or
//! infinite, unless the shader is listed below with the reason (a reason
//! other than a zero input: generated inputs are never zero where a
//! division could see them).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use dxbc_dbg::dxbc::Shader;
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::dxbc::opcodes::Op;
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::cpu;
use dxbc_dbg::harness::generate::{Options, ShaderInput, case_text, paths};
use dxbc_dbg::harness::image::Image;

/// Corpus pixel shaders whose generated case has non-finite pixels for a
/// reason other than a zero input.
const NAN_EXPECTED: &[(&str, &str)] = &[];

enum Outcome {
    Drawn(Vec<Image>),
    Refused(String),
    /// The emulator's budget ran out: a loop the generated values do not
    /// end (a GPU would not end it either).
    DoesNotEnd,
}

/// Generates, loads and draws the case for the corpus blobs `files` (one
/// shader, or a vertex and a pixel shader). `Err` is a failure of the test
/// (the message says which).
fn draw(root: &Path, files: &[(&str, &Shader)]) -> Result<Outcome, String> {
    let first = root.join(files[0].0);
    let dir = first.parent().expect("a corpus blob is in a directory");
    // The case sits beside the first blob (never written); its shaders are
    // named relative to it.
    let case_path = first.with_extension("case");
    let names: Vec<String> = files
        .iter()
        .map(|(f, _)| {
            let rel = paths::relative(
                &dir.canonicalize().expect("corpus directory"),
                &root.join(f).canonicalize().expect("corpus blob"),
            );
            paths::case_line(&rel).expect("corpus paths are plain")
        })
        .collect();
    let inputs: Vec<ShaderInput> = files
        .iter()
        .zip(&names)
        .map(|((_, shader), path)| ShaderInput { shader, path })
        .collect();
    let file = files
        .iter()
        .map(|(f, _)| *f)
        .collect::<Vec<_>>()
        .join(" + ");
    let opts = Options {
        size: [16, 16],
        ..Options::default()
    };
    let text = match case_text(&inputs, &opts) {
        Ok(t) => t,
        Err(r) => return Ok(Outcome::Refused(r.reason.to_string())),
    };
    let case = Case::parse(&text, &case_path)
        .map_err(|e| format!("{file}: the generated case does not parse: {e}\n{text}"))?;
    let shaders = match case.shaders() {
        Ok(s) => s,
        // One corpus blob has a wrong checksum on purpose; a case file
        // refuses it as every loader does.
        Err(e) if e.message.contains("checksum") => {
            return Ok(Outcome::Refused("container checksum does not match".into()));
        }
        Err(e) => return Err(format!("{file}: the generated case's shader: {e}")),
    };
    let mut stages = vec![&shaders.pixel];
    stages.extend(shaders.vertex.as_ref());
    case.check_bindings(&stages).map_err(|e| {
        format!("{file}: the generated case does not match the shader: {e}\n{text}")
    })?;
    match cpu::render(&case, &shaders) {
        Ok(images) => Ok(Outcome::Drawn(images)),
        Err(e) if e.does_not_end() => Ok(Outcome::DoesNotEnd),
        Err(e) => Err(format!("{file}: the emulator stopped: {e}")),
    }
}

/// Runs `draw` for each set of blobs, counting outcomes; panics and
/// failures are collected with the files.
fn draw_all<'a>(sets: impl Iterator<Item = Vec<(&'a str, &'a Shader)>>, root: &Path, what: &str) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut total = 0;
    for set in sets {
        total += 1;
        let name = set.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(" + ");
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| draw(root, &set)));
        let key = match outcome {
            Err(_) => {
                failures.push(format!("{name}: panicked"));
                continue;
            }
            Ok(Err(e)) => {
                failures.push(e);
                continue;
            }
            // Every pixel still the clear colour: the quad landed nowhere
            // (or the shader wrote zeros everywhere); counted apart so a
            // generator change that loses the quad shows.
            Ok(Ok(Outcome::Drawn(images)))
                if images
                    .iter()
                    .all(|i| i.pixels.iter().all(|p| *p == [0.0; 4])) =>
            {
                println!("  every pixel zero: {name}");
                "drawn: every pixel zero".to_string()
            }
            Ok(Ok(Outcome::Drawn(_))) => "drawn".to_string(),
            Ok(Ok(Outcome::DoesNotEnd)) => {
                println!("  does not end: {name}");
                "drawn: does not end on the emulator".to_string()
            }
            Ok(Ok(Outcome::Refused(r))) => format!("refused: {r}"),
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    println!("case new over {total} {what}:");
    for (k, n) in &counts {
        println!("  {n:4}  {k}");
    }
    assert!(total > 0, "no {what}");
    assert!(
        failures.is_empty(),
        "{} of the {what} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_corpus_shader_gets_a_case_that_draws_or_a_clear_refusal() {
    let Some(root) = common::corpus() else { return };
    let shaders = common::vertex_and_pixel_shaders(&root);
    draw_all(
        shaders.iter().map(|(f, s)| vec![(f.as_str(), s)]),
        &root,
        "corpus vertex and pixel shaders",
    );
}

/// Natural pairs (a vertex and a pixel shader from one source file, the
/// vertex shader writing every pixel-shader input): the case feeds the
/// vertex shader and draws both.
#[test]
fn every_natural_pair_gets_a_case_that_draws() {
    let Some(root) = common::corpus() else { return };
    let shaders = common::vertex_and_pixel_shaders(&root);
    let group_of = common::groups(&root);
    let of = |kind: ProgramType| shaders.iter().filter(move |(_, s)| s.program.kind == kind);
    let mut pairs = Vec::new();
    for (vf, vs) in of(ProgramType::Vertex) {
        for (pf, ps) in of(ProgramType::Pixel) {
            if group_of.get(vf) == group_of.get(pf) && common::feeds(vs, ps) {
                pairs.push(vec![(vf.as_str(), vs), (pf.as_str(), ps)]);
            }
        }
    }
    draw_all(
        pairs.into_iter(),
        &root,
        "natural VS/PS pairs of the corpus",
    );
}

/// Whether the pixel shader divides or takes a reciprocal, square root or
/// logarithm: where a zero input would give an infinity or NaN.
fn divides(shader: &Shader) -> bool {
    shader.program.kind == ProgramType::Pixel
        && shader
            .program
            .instructions
            .iter()
            .any(|i| matches!(i.op, Op::Div | Op::Rcp | Op::Rsq | Op::Sqrt | Op::Log))
}

#[test]
fn generated_inputs_give_no_nan_in_shaders_that_divide() {
    let Some(root) = common::corpus() else { return };
    let mut checked = 0;
    let mut bad = Vec::new();
    let mut listed_but_finite = Vec::new();
    for (file, shader) in common::vertex_and_pixel_shaders(&root) {
        if !divides(&shader) {
            continue;
        }
        let Ok(Outcome::Drawn(images)) = draw(&root, &[(file.as_str(), &shader)]) else {
            continue;
        };
        checked += 1;
        let non_finite = images.iter().enumerate().find_map(|(t, img)| {
            img.pixels.iter().enumerate().find_map(|(i, p)| {
                p.iter().any(|c| !c.is_finite()).then(|| {
                    let (x, y) = (i as u32 % img.width, i as u32 / img.width);
                    format!("SV_Target{t} pixel ({x}, {y}) = {p:?}")
                })
            })
        });
        let listed = NAN_EXPECTED.iter().any(|(f, _)| *f == file);
        match (non_finite, listed) {
            (Some(at), false) => bad.push(format!("{file}: {at}")),
            (None, true) => listed_but_finite.push(file.clone()),
            _ => {}
        }
    }
    println!("NaN check: {checked} pixel shaders that divide were drawn");
    assert!(checked > 0);
    assert!(
        bad.is_empty(),
        "{} generated cases have non-finite pixels:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        listed_but_finite.is_empty(),
        "listed in NAN_EXPECTED but finite now (remove them): {listed_but_finite:?}"
    );
}
