//! `diff --translator NAME=COMMAND` and `--translator-profile NAME=FILE`:
//! the renderers that draw external translators' GLSL on the run's WebGL2
//! backend, beside dxbc-dbg's own translation (docs/translators.md).

use dxbc_dbg::harness::suite::Renderer;
use dxbc_dbg::harness::translator::{ExternalRenderer, Translator, TranslatorError};
use dxbc_dbg::harness::webgl2::WebGl2;

/// One renderer per translator the specs name (a spec for `{ps}` and one
/// for `{vs}` with the same name make one translator), each drawing
/// through `webgl2`, in the order first named. No specs: none.
pub fn external_renderers<'a>(
    webgl2: &'a WebGl2,
    specs: &[String],
    profiles: &[String],
) -> Result<Vec<Box<dyn Renderer + 'a>>, TranslatorError> {
    let translators = Translator::from_specs(specs, profiles)?;
    Ok(translators
        .into_iter()
        .map(|t| Box::new(ExternalRenderer::new(webgl2, t)) as Box<dyn Renderer + 'a>)
        .collect())
}
