//! Final assembly: the header, declarations, register file, helpers,
//! prototypes, functions and `main()` joined into the translation's text
//! and line map.

use super::super::manifest::{UniformEntry, UniformRole};
use super::super::types::{Ty, ValueType};
use super::super::writer::{Section, join};
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
        head.line(
            None,
            format!(
                "// {} translated by dxbc-dbg ({})",
                self.program.profile(),
                self.dialect.name()
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
        decl::register_file(&mut self, &mut globals);
        super::super::capture::declare(&mut self, &mut globals);

        let mut helper_section = Section::new();
        if !self.helpers.is_empty() {
            self.helpers.render(&mut helper_section);
        }
        let mut protos = Section::new();
        for l in &self.labels {
            protos.line(None, format_args!("void {l}();"));
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
        let mut main = Section::new();
        let copies = self.prologue.len() + self.position.len() + self.epilogue.len();
        main.reserve(copies + 128, 8);
        main.line(None, "void main() {");
        main.indent();
        let prologue = std::mem::take(&mut self.prologue);
        main.append(prologue);
        super::super::capture::entry(&self, &mut main);
        main.line(None, "dxbc_main();");
        let position = std::mem::take(&mut self.position);
        main.append(position);
        let epilogue = std::mem::take(&mut self.epilogue);
        main.append(epilogue);
        super::super::capture::exit(&self, &mut main);
        main.dedent();
        main.line(None, "}");

        let mut sections = vec![head, std::mem::take(&mut self.decls)];
        sections.push(globals);
        sections.push(helper_section);
        sections.push(protos);
        // `dxbc_main` may not have been opened (a program of declarations
        // only): give it an empty body.
        if self.functions.is_empty() {
            let mut f = Section::new();
            f.line(None, "void dxbc_main() {");
            f.line(None, "}");
            f.line(None, "");
            sections.push(f);
        }
        sections.extend(std::mem::take(&mut self.functions));
        sections.push(main);
        let (source, map) = join(sections, self.program.instructions.len());
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
