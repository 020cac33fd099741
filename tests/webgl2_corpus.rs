//! Every corpus vertex and pixel shader the emitter translates must compile
//! in a real WebGL2 context (headless Chromium), and every natural VS/PS
//! pair of the corpus must link when the two are translated linked
//! (`--link`: the vertex shader to its pixel shader, the pixel shader to
//! its vertex shader, which sizes shared constant buffers alike). glslangValidator accepting the text is not
//! enough: WebGL2 adds its own rules (ANGLE's validator, varying linking by
//! name and interpolation).
//!
//! A natural pair: a vertex and a pixel shader from the same source file
//! (repository and path in the corpus manifest), where every
//! non-system-value input of the pixel shader is written by the vertex
//! shader (same semantic, compared without regard to case as D3D does, and
//! index; its components among the written ones).
//!
//! Needs a browser (the README's test command installs Debian's
//! chromium-headless-shell); fails without one rather than skipping.

mod common;

use std::collections::BTreeMap;

use dxbc_dbg::dxbc::Shader;
use dxbc_dbg::dxbc::ir::ProgramType;
use dxbc_dbg::glsl::{self, Dialect};
use dxbc_dbg::harness::webgl2::{Compile, Config, Pair, WebGl2};

#[test]
fn every_translation_compiles_and_every_natural_pair_links_in_webgl2() {
    let Some(root) = common::corpus() else {
        return;
    };
    let webgl2 = WebGl2::new(Config::default()).expect(
        "no browser for WebGL2: install Debian's chromium-headless-shell (the README's test command does)",
    );
    let shaders = common::vertex_and_pixel_shaders(&root);
    let es = glsl::Options::new(Dialect::Es300);
    let mut items = Vec::new();
    let mut names = Vec::new();
    for (file, shader) in &shaders {
        let Ok(t) = glsl::translate(shader, &es) else {
            continue;
        };
        items.push(Compile {
            stage: if shader.program.kind == ProgramType::Vertex {
                "vertex"
            } else {
                "fragment"
            },
            source: t.source,
        });
        names.push(file.clone());
    }

    let group_of = common::groups(&root);
    let by_file: BTreeMap<&str, &Shader> = shaders.iter().map(|(f, s)| (f.as_str(), s)).collect();
    let mut pairs = Vec::new();
    let mut pair_names = Vec::new();
    let mut tried_alone = 0usize;
    for (vf, vs) in shaders
        .iter()
        .filter(|(_, s)| s.program.kind == ProgramType::Vertex)
    {
        for (pf, ps) in shaders
            .iter()
            .filter(|(_, s)| s.program.kind == ProgramType::Pixel)
        {
            if group_of.get(vf) != group_of.get(pf) || !common::feeds(vs, ps) {
                continue;
            }
            let Ok(fs) = glsl::translate(by_file[pf.as_str()], &es) else {
                continue;
            };
            // Both stages linked: the VS to the PS's inputs, and each to
            // the other's constant buffer sizes.
            let linked = glsl::Options {
                link: Some(glsl::Link::from_pixel_shader(ps)),
                ..es.clone()
            };
            let Ok(v) = glsl::translate(vs, &linked) else {
                continue;
            };
            let ps_linked = glsl::Options {
                link: Some(glsl::Link::from_vertex_shader(vs)),
                ..es.clone()
            };
            let Ok(fs_linked) = glsl::translate(ps, &ps_linked) else {
                continue;
            };
            let alone = glsl::translate(vs, &es).map(|t| t.source);
            pairs.push(Pair {
                vs: v.source,
                fs: fs_linked.source,
            });
            pair_names.push(format!("{vf} + {pf}"));
            // The same pair without --link, to count what linking fixes.
            if let Ok(a) = alone {
                pairs.push(Pair {
                    vs: a,
                    fs: fs.source,
                });
                pair_names.push(String::new());
                tried_alone += 1;
            }
        }
    }

    let checked = webgl2.check(&items, &pairs).expect("the browser ran");
    let compile_failures: Vec<String> = checked
        .compiled
        .iter()
        .zip(&names)
        .filter_map(|(r, n)| r.as_ref().err().map(|e| format!("{n}: {e}")))
        .collect();
    let mut link_failures = Vec::new();
    let mut linked_ok = 0usize;
    let mut unlinked_bad = 0usize;
    for (k, r) in checked.linked.iter().enumerate() {
        if pair_names[k].is_empty() {
            unlinked_bad += r.is_err() as usize;
            continue;
        }
        match r {
            Ok(()) => linked_ok += 1,
            Err(e) => link_failures.push(format!("{}: {e}", pair_names[k])),
        }
    }
    let n_pairs = pair_names.iter().filter(|n| !n.is_empty()).count();
    println!(
        "webgl2: {} of {} corpus translations compile; {linked_ok} of {n_pairs} natural VS/PS pairs link with --link ({unlinked_bad} of {tried_alone} do not link without it)",
        items.len() - compile_failures.len(),
        items.len(),
    );
    assert!(
        compile_failures.is_empty(),
        "do not compile in WebGL2:\n{}",
        compile_failures.join("\n")
    );
    assert!(
        link_failures.is_empty(),
        "do not link in WebGL2:\n{}",
        link_failures.join("\n")
    );
    // The corpus has such pairs (112 when this was written), and some of
    // them need --link (a `constant` float input, or fewer components read
    // than written): the check must have something to check.
    assert!(n_pairs >= 40, "only {n_pairs} natural pairs found");
    assert!(
        unlinked_bad > 0,
        "no pair needed --link; the link check checks nothing"
    );
}
