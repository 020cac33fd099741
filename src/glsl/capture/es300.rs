//! es300: GLSL ES 3.00 has no storage buffers, so the records go to
//! integer render targets. A fragment writes one value per draw buffer, so
//! a draw keeps a *window* of the records: every record is counted, and
//! those numbered from the uniform `dxbc_capture_first` on, as many as
//! the outputs hold, are written to `uvec4` outputs; the harness draws
//! again with the window moved on until the count is covered.
//!
//! Output 0 is the header, `(count, overflow, first, records per draw)`,
//! written at the end of `main()`; outputs `1 + 2k` and `2 + 2k` hold the
//! window's record `k` (its first four words, then the register's bits).
//! The case's own colour outputs stay private globals, so every draw
//! buffer the context has can hold records. Fragment outputs cannot be
//! indexed by a variable in ES 3.00, so `dxbc_cap` picks the pair by
//! comparing the window slot with each constant.
//!
//! A `discard` is left out (its record before it stays): a discarded
//! fragment writes no output, and D3D's discarded lane runs on to the end
//! (its neighbours' derivatives need it), which the emulator's path
//! records too. Nothing else leaves `main()` early, so the header is
//! always written.

use super::super::emit::Emitter;
use super::super::manifest::CaptureOutputsEntry;
use super::super::writer::Section;

/// Records an es300 capture counts at most; past them the overflow flag
/// is set. Lower than vk450's [`super::CAPACITY`]: each draw gives a few
/// records (three with WebGL2's usual eight draw buffers), and the harness
/// reads them back draw by draw (docs/bisect.md gives the timing).
pub const ES300_CAPACITY: u32 = 1 << 12;
/// The uniform giving the first record number the draw keeps.
pub const WINDOW_UNIFORM: &str = "dxbc_capture_first";
/// Output `k` is `dxbc_captureK`, at location `k`.
pub const OUTPUT_PREFIX: &str = "dxbc_capture";

/// Records a draw keeps with `draw_buffers` outputs: one output is the
/// header, each record takes two.
pub fn es300_records_per_draw(draw_buffers: u32) -> u32 {
    draw_buffers.saturating_sub(1) / 2
}

/// The outputs (locations `0..n`) a capture with `draw_buffers` declares.
pub fn es300_outputs(draw_buffers: u32) -> u32 {
    1 + 2 * es300_records_per_draw(draw_buffers)
}

pub(super) fn declare(e: &mut Emitter, out: &mut Section) {
    let per_draw = es300_records_per_draw(e.options.capture_outputs);
    let outputs = es300_outputs(e.options.capture_outputs);
    out.line(
        None,
        format!(
            "// register capture (docs/glsl.md): one pixel's records, {per_draw} a draw from record {WINDOW_UNIFORM} on, in the outputs"
        ),
    );
    out.line(None, format_args!("uniform highp uint {WINDOW_UNIFORM};"));
    for k in 0..outputs {
        out.line(
            None,
            format!("layout(location = {k}) out highp uvec4 {OUTPUT_PREFIX}{k};"),
        );
    }
    out.line(None, "bool dxbc_capture_on = false;");
    out.line(None, "uint dxbc_capture_count = 0u;");
    out.line(None, "uint dxbc_capture_overflow = 0u;");
    out.line(
        None,
        "void dxbc_cap(uint index, uint file, uint reg, uint element, uvec4 bits) {",
    );
    out.indent();
    out.line(None, "if (!dxbc_capture_on) { return; }");
    out.line(None, "uint n = dxbc_capture_count;");
    out.line(
        None,
        format!("if (n >= {ES300_CAPACITY}u) {{ dxbc_capture_overflow = 1u; return; }}"),
    );
    out.line(None, "dxbc_capture_count = n + 1u;");
    // Before the window the difference wraps past every slot.
    out.line(None, format_args!("uint k = n - {WINDOW_UNIFORM};"));
    for k in 0..per_draw {
        let (a, b) = (1 + 2 * k, 2 + 2 * k);
        let lead = if k == 0 { "" } else { "} else " };
        out.line(None, format_args!("{lead}if (k == {k}u) {{"));
        out.indent();
        out.line(
            None,
            format!("{OUTPUT_PREFIX}{a} = uvec4(index, file, reg, element);"),
        );
        out.line(None, format_args!("{OUTPUT_PREFIX}{b} = bits;"));
        out.dedent();
    }
    if per_draw > 0 {
        out.line(None, "}");
    }
    out.dedent();
    out.line(None, "}");
    out.line(None, "");
    e.manifest.capture_outputs = Some(CaptureOutputsEntry {
        window_uniform: WINDOW_UNIFORM.into(),
        outputs,
        records_per_draw: per_draw,
        capacity: ES300_CAPACITY,
    });
}

/// The header, last in `main()`.
pub(super) fn exit(e: &Emitter, main: &mut Section) {
    let per_draw = es300_records_per_draw(e.options.capture_outputs);
    main.line(
        None,
        format!(
            "{OUTPUT_PREFIX}0 = uvec4(dxbc_capture_count, dxbc_capture_overflow, {WINDOW_UNIFORM}, {per_draw}u);"
        ),
    );
}
