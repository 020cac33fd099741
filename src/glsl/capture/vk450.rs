//! vk450: the records appended to a storage buffer (`dxbc_capture`,
//! std430, at [`names::CAPTURE_BINDING`]): the header, then every record
//! up to [`CAPACITY`]; records past it are dropped and the overflow flag
//! set.

use super::super::emit::Emitter;
use super::super::manifest::CaptureEntry;
use super::super::names;
use super::super::writer::Section;
use super::{BUFFER_NAME, CAPACITY, buffer_bytes};

/// The block and `dxbc_cap`; the manifest's entry.
pub(super) fn declare(e: &mut Emitter, out: &mut Section) {
    let binding = names::CAPTURE_BINDING;
    out.line(
        None,
        "// register capture (docs/glsl.md): one record per executed instruction of one pixel",
    );
    // One member, a runtime array of uvec4 whose first is the header:
    // naga's GLSL front end loads array elements of a buffer block but
    // not scalar members beside a runtime array.
    out.line(
        None,
        format!(
            "layout(std430, set = {}, binding = {binding}) buffer DxbcCapture {{ uvec4 words[]; }} {BUFFER_NAME};",
            names::SET
        ),
    );
    out.line(None, "bool dxbc_capture_on = false;");
    out.line(
        None,
        "void dxbc_cap(uint index, uint file, uint reg, uint element, uvec4 bits) {",
    );
    out.indent();
    out.line(None, "if (!dxbc_capture_on) { return; }");
    // One invocation writes, so a plain count is enough (and keeps the
    // text free of atomics, which naga's GLSL front end lacks). Two
    // vector stores a record: lavapipe compiles the shader's hundreds of
    // records in a fraction of the time eight scalar stores take.
    out.line(None, format_args!("uint n = {BUFFER_NAME}.words[0].x;"));
    out.line(
        None,
        format!("if (n >= {CAPACITY}u) {{ {BUFFER_NAME}.words[0].y = 1u; return; }}"),
    );
    out.line(None, format_args!("{BUFFER_NAME}.words[0].x = n + 1u;"));
    out.line(
        None,
        format!("{BUFFER_NAME}.words[1u + 2u * n] = uvec4(index, file, reg, element);"),
    );
    out.line(
        None,
        format_args!("{BUFFER_NAME}.words[2u + 2u * n] = bits;"),
    );
    out.dedent();
    out.line(None, "}");
    out.line(None, "");
    e.manifest.capture = Some(CaptureEntry {
        binding,
        glsl_name: BUFFER_NAME.into(),
        bytes: buffer_bytes(),
    });
}
