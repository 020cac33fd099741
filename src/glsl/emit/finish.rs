//! Final assembly: the header, declarations, register file, helpers,
//! prototypes, functions and `main()` joined into the translation's text
//! and line map.

use super::super::manifest::{UniformEntry, UniformRole};
use super::super::types::{Ty, ValueType};
use super::super::writer::{Part, Section, join};
use super::super::{Dialect, Translation, decl};
use super::Emitter;
use crate::dxbc::ir::ProgramType;

impl Emitter<'_> {
    /// Joins everything into the final text.
    pub(super) fn finish(mut self) -> Translation {
        self.close_function();
        let mut head = Section::new();
        head.reserve(256, 8);
        match self.dialect {
            Dialect::Es300 => head.line(None, "#version 300 es"),
            Dialect::Vk450 => head.line(None, "#version 450"),
        }
        // The manifest holds the profile already (`ps_5_0`).
        head.line(
            None,
            (
                "// ",
                &self.manifest.profile,
                " translated by dxbc-dbg (",
                self.dialect.name(),
                ')',
            ),
        );
        if self.dialect == Dialect::Es300 {
            head.line(None, "precision highp float;");
            head.line(None, "precision highp int;");
            if self.y_flip {
                y_flip_uniform(&mut self, &mut head);
            }
        }
        head.line(None, "");

        let mut globals = Section::new();
        globals.reserve(512, 8);
        let zero = decl::register_file(&mut self, &mut globals);
        super::super::capture::declare(&mut self, &mut globals);

        let mut helper_parts = Vec::new();
        if !self.helpers.is_empty() {
            self.helpers.render(&mut helper_parts);
        }
        let mut protos = Section::new();
        for l in &self.labels {
            protos.line(None, ("void ", l, "();"));
        }
        if !self.labels.is_empty() {
            protos.line(None, "");
        }

        // naga (and Vulkan) want a position from every vertex shader; one
        // without SV_Position (stream output only) gets a constant one.
        if self.dialect == Dialect::Vk450
            && self.stage == ProgramType::Vertex
            && !self
                .manifest
                .outputs
                .iter()
                .any(|o| o.glsl_name == "gl_Position")
        {
            self.epilogue.line(
                None,
                "gl_Position = vec4(0.0); // no SV_Position output: position unused",
            );
        }
        // `main()` is joined from its pieces as they are (each indented
        // already) rather than copied into one section first.
        let mut main_open = Section::new();
        main_open.line(None, "void main() {");
        let mut call = Section::indented(1);
        super::super::capture::entry(&self, &mut call);
        call.line(None, "dxbc_main();");
        let mut main_close = Section::indented(1);
        super::super::capture::exit(&self, &mut main_close);
        main_close.dedent();
        main_close.line(None, "}");

        let mut parts: Vec<Part> = Vec::with_capacity(16 + helper_parts.len());
        parts.push(head.into());
        parts.push(std::mem::take(&mut self.decls).into());
        parts.push(globals.into());
        parts.extend(helper_parts);
        parts.push(protos.into());
        // `dxbc_main` may not have been opened (a program of declarations
        // only): give it an empty body.
        if self.functions.is_empty() {
            let mut f = Section::new();
            f.line(None, "void dxbc_main() {");
            f.line(None, "}");
            f.line(None, "");
            parts.push(f.into());
        }
        parts.extend(
            std::mem::take(&mut self.functions)
                .into_iter()
                .map(Part::from),
        );
        parts.push(main_open.into());
        parts.push(zero.into());
        parts.push(std::mem::take(&mut self.prologue).into());
        parts.push(call.into());
        parts.push(std::mem::take(&mut self.position).into());
        parts.push(std::mem::take(&mut self.epilogue).into());
        parts.push(main_close.into());
        let (source, map) = join(parts, self.program.instructions.len());
        Translation {
            dialect: self.dialect,
            stage: self.stage,
            source,
            map,
            manifest: self.manifest,
        }
    }
}

/// `hlslcc_YFlip`: what the runtime sets so the es300 text gives D3D's
/// window conventions (docs/glsl.md, "D3D's window conventions in es300").
fn y_flip_uniform(e: &mut Emitter, head: &mut Section) {
    head.line(
        None,
        "// (-1, 0) drawing into a framebuffer object, (1, height) drawing to the canvas",
    );
    head.line(None, "uniform highp vec2 hlslcc_YFlip;");
    e.manifest.uniforms.push(UniformEntry {
        name: "hlslcc_YFlip".into(),
        glsl_type: ValueType::vec(Ty::Float, 2),
        role: UniformRole::YFlip,
        meaning: "y direction of the render target: (-1, 0) when drawing into a \
                  framebuffer object, (1, height in pixels) when drawing to the default \
                  framebuffer (canvas)"
            .into(),
        block: String::new(),
        offset: 0,
        binding: None,
    });
}
