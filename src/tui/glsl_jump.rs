//! From a GLSL line back to the DXBC instruction it was emitted for: the
//! inverse of the source map's highlight, for a reader who spots a suspect
//! line in the GLSL pane and wants to step to it.

use super::app::{App, Tone};

impl App {
    /// The instruction whose source-map range holds GLSL line `line`
    /// (1-based, as the pane numbers lines) in the dialect shown, or why
    /// there is none.
    pub fn instruction_of_glsl_line(&self, line: u32) -> Result<usize, String> {
        let glsl = self.glsl();
        let Some(map) = glsl.map.as_ref() else {
            return Err(format!(
                "the {} text is the emitter's refusal: no line belongs to an instruction",
                self.dialect.name()
            ));
        };
        let n = glsl.lines.len();
        if line == 0 || line as usize > n {
            return Err(format!("the {} text has lines 1-{n}", self.dialect.name()));
        }
        map.instruction_at(line).ok_or_else(|| {
            format!(
                "GLSL line {line} belongs to no instruction (declarations, helpers or the \
                 function's frame)"
            )
        })
    }

    /// The `L` prompt: moves the listing cursor to the instruction of a
    /// GLSL line (the machine stays where it is; `t` runs there).
    pub fn jump_to_glsl_line(&mut self, text: &str) {
        let text = text.trim();
        let Ok(line) = text.parse::<u32>() else {
            return self.set(
                Tone::Error,
                format!(
                    "`{}` is not a GLSL line number",
                    crate::dxbc::shown::shown(text)
                ),
            );
        };
        match self.instruction_of_glsl_line(line) {
            Ok(i) => {
                self.cursor = i;
                self.follow_listing = Some(i);
                self.set(
                    Tone::Info,
                    format!("GLSL line {line} is instruction [{i}] (t runs to it)"),
                );
            }
            Err(e) => self.set(Tone::Error, e),
        }
    }
}
