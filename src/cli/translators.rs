//! `diff --translator NAME=COMMAND` and `--translator-profile NAME=FILE`:
//! the renderers that draw external translators' GLSL on the run's WebGL2
//! backend, beside dxbc-dbg's own translation (docs/translators.md).

use dxbc_dbg::harness::suite::Renderer;
use dxbc_dbg::harness::translator::TranslatorError;
use dxbc_dbg::harness::webgl2::WebGl2;

/// One renderer per translator the specs name (a spec for `{ps}` and one
/// for `{vs}` with the same name make one translator), each drawing
/// through `webgl2`, in the order first named. No specs: none.
///
/// This build has the results, reports and command line for external
/// translators but not yet the translator's command and binding
/// (`translator::Translator::from_specs`, `translator::ExternalRenderer`),
/// so any spec is refused by name rather than ignored.
pub fn external_renderers<'a>(
    _webgl2: &'a WebGl2,
    specs: &[String],
    profiles: &[String],
) -> Result<Vec<Box<dyn Renderer + 'a>>, TranslatorError> {
    if specs.is_empty() && profiles.is_empty() {
        return Ok(Vec::new());
    }
    Err(TranslatorError::Spec {
        spec: specs
            .first()
            .or(profiles.first())
            .cloned()
            .unwrap_or_default(),
        why: "external translators are not built".into(),
    })
}
