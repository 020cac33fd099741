//! The emitter never panics on a program the reader accepts: every corpus
//! vertex and pixel shader, with deterministic byte mutations inside its
//! program chunk, either translates (to text starting with `#version`) or
//! is refused with diagnostics that name an instruction — in both dialects.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use common::Rng;
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::dxbc::{ParseOptions, Shader};
use dxbc_dbg::glsl::{self, Dialect, Options};

const NO_VERIFY: ParseOptions = ParseOptions {
    verify_checksum: false,
};

/// Mutations per shader.
const MUTATIONS: usize = 160;

fn check(label: &str, shader: &Shader) -> (usize, usize) {
    let mut ok = 0;
    let mut refused = 0;
    for dialect in [Dialect::Es300, Dialect::Vk450] {
        let result = catch_unwind(AssertUnwindSafe(|| {
            glsl::translate(shader, &Options::new(dialect))
        }));
        match result {
            Err(_) => panic!("{label}: the emitter panicked ({})", dialect.name()),
            Ok(Ok(t)) => {
                assert!(t.source.starts_with("#version"), "{label}");
                ok += 1;
            }
            Ok(Err(r)) => {
                assert!(
                    !r.diagnostics.is_empty(),
                    "{label}: refusal without diagnostics"
                );
                for d in &r.diagnostics {
                    assert!(
                        !d.text.is_empty(),
                        "{label}: diagnostic without instruction"
                    );
                }
                refused += 1;
            }
        }
    }
    (ok, refused)
}

#[test]
fn emitter_survives_mutated_programs() {
    let Some(root) = common::corpus() else {
        return;
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut inputs, mut translated, mut refused) = (0usize, 0usize, 0usize);
    for blob in common::manifest(&root).iter().filter(|b| b.is_shader()) {
        let Ok(bytes) = std::fs::read(root.join(&blob.file)) else {
            continue;
        };
        let Ok(shader) = Shader::parse(&bytes, NO_VERIFY) else {
            continue;
        };
        if !matches!(
            shader.program.kind,
            ProgramType::Vertex | ProgramType::Pixel
        ) {
            continue;
        }
        let Some(chunk) = shader
            .chunks
            .iter()
            .find(|c| &c.fourcc == b"SHDR" || &c.fourcc == b"SHEX")
        else {
            continue;
        };
        // Leave the version and length tokens alone so decoding reaches
        // the instructions.
        let start = chunk.offset + 8 + 8;
        let end = (chunk.offset + 8 + chunk.size).min(bytes.len());
        if end <= start {
            continue;
        }
        let (o, r) = check(&blob.file, &shader);
        inputs += 1;
        translated += o;
        refused += r;
        for m in 0..MUTATIONS {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.below(3) {
                let at = start + rng.below(end - start);
                b[at] ^= 1 << rng.below(8);
            }
            let Ok(s) = Shader::parse(&b, NO_VERIFY) else {
                continue;
            };
            if !matches!(s.program.kind, ProgramType::Vertex | ProgramType::Pixel) {
                continue;
            }
            let (o, r) = check(&format!("{} mutation {m}", blob.file), &s);
            inputs += 1;
            translated += o;
            refused += r;
        }
    }
    println!(
        "glsl robustness: {inputs} programs, {translated} translations, {refused} refusals, no panic"
    );
    assert!(
        inputs > 1000,
        "too few programs reached the emitter: {inputs}"
    );
}

/// A pixel shader writing `o0` as `SV_Target` with semantic index `index`.
fn target_shader(index: u32) -> Shader {
    let text = format!(
        "\
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target            {index:>5}   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_output o0.xyzw
mov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)
ret
"
    );
    let bytes = dxbc_dbg::dxbc::asm::assemble(&text).expect("assembles");
    Shader::parse(&bytes, ParseOptions::default()).expect("parses")
}

/// `SV_Target`'s index is the render target and the GLSL output's
/// location; D3D11 has eight (`SV_Target0`-`SV_Target7`). A damaged
/// signature claiming a larger index once reached the GPU harness as a
/// location in the billions, which it tried to allocate a slot for.
#[test]
fn a_render_target_past_the_eighth_is_refused() {
    for dialect in [Dialect::Es300, Dialect::Vk450] {
        let t = glsl::translate(&target_shader(7), &Options::new(dialect))
            .unwrap_or_else(|r| panic!("SV_Target7 translates: {r}"));
        assert!(t.source.contains("location = 7"), "{}", t.source);
        for index in [8, 3_308_577_239] {
            let r = glsl::translate(&target_shader(index), &Options::new(dialect))
                .expect_err("refused");
            assert_eq!(r.reasons(), vec![glsl::Reason::Limit], "{r}");
            assert!(r.to_string().contains("`dcl_output o0.xyzw`"), "{r}");
        }
    }
}
