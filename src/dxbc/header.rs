//! The comment header of an fxc `/Fc` listing: compiler banner, required
//! features, buffer definitions, the resource binding table, the
//! signatures and the tessellation/sample-frequency notes, rebuilt from the
//! reflection chunks so our listings can be diffed against fxc's.
//!
//! fxc's layout is reproduced column for column. Where fxc versions differ
//! (the binding table's columns), the version is taken from the RDEF
//! creator string, since the listing matches the compiler that made it.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::container::Container;
use super::error::Result;
use super::rdef::{CbufferKind, ProgramType, Rdef, Type, Variable, class};
use super::signature::{Signature, SignatureKind};
use super::stat::{
    ShaderFeatures, Stat, tessellator_domain_name, tessellator_output_primitive_name,
    tessellator_partitioning_name,
};

mod tables;

pub use tables::compiler_version;
use tables::{binding_table, signature_table};

/// Everything the header is built from. Any part may be missing; the
/// header then simply lacks that section.
#[derive(Clone, Copy, Default)]
pub struct HeaderParts<'a> {
    pub rdef: Option<&'a Rdef>,
    pub signatures: &'a [&'a Signature],
    pub stat: Option<&'a Stat>,
    pub features: Option<&'a ShaderFeatures>,
    /// Program type from the program chunk; RDEF's target is used when this
    /// is None. Needed to tell whether a patch-constant signature is an
    /// output (hull shader) or an input (domain shader).
    pub program: Option<ProgramType>,
    /// The program emits shader messages (printf/errorf), which only run
    /// under the debug layer; fxc then adds a note saying so.
    pub debug_layer_note: bool,
    /// The program declares `forceEarlyDepthStencil`; fxc lists it among
    /// the "additional functionality" notes although it is no SFI0 bit.
    pub early_depth_stencil: bool,
}

/// The header from RDEF and signatures alone.
pub fn listing_header(rdef: Option<&Rdef>, signatures: &[&Signature]) -> Vec<String> {
    listing_header_from(&HeaderParts {
        rdef,
        signatures,
        ..HeaderParts::default()
    })
}

/// Parses the reflection chunks of a container and builds its header.
pub fn container_listing_header(c: &Container) -> Result<Vec<String>> {
    let rdef = match c.find(b"RDEF") {
        Some(ch) => Some(Rdef::parse(ch.data, ch.offset)?),
        None => None,
    };
    let mut sigs = Vec::new();
    for ch in &c.chunks {
        if super::signature::is_signature(&ch.fourcc) {
            sigs.push(Signature::parse(&ch.fourcc, ch.data, ch.offset)?);
        }
    }
    let stat = match c.find(b"STAT") {
        Some(ch) => Some(Stat::parse(ch.data, ch.offset)?),
        None => None,
    };
    let features = match c.find(b"SFI0") {
        Some(ch) => Some(ShaderFeatures::parse(ch.data, ch.offset)?),
        None => None,
    };
    // Bits 16..32 of the program's first token are its type; reading one
    // word here avoids depending on the instruction decoder.
    let program = c
        .program_chunk()
        .and_then(|p| p.data.get(0..4))
        .map(|b| ProgramType::from_code(u16::from_le_bytes([b[2], b[3]])));
    let debug_layer_note = c
        .program_chunk()
        .is_some_and(|p| program_has_shader_messages(p.data));
    let sig_refs: Vec<&Signature> = sigs.iter().collect();
    Ok(listing_header_from(&HeaderParts {
        rdef: rdef.as_ref(),
        signatures: &sig_refs,
        stat: stat.as_ref(),
        features: features.as_ref(),
        program,
        debug_layer_note,
        early_depth_stencil: c.program_chunk().is_some_and(|p| {
            super::decode::decode_program(p.data, p.offset, &p.fourcc == b"SHEX").is_ok_and(
                |prog| {
                    prog.instructions.iter().any(|i| {
                        i.global_flags()
                            .is_some_and(|f| f.force_early_depth_stencil)
                    })
                },
            )
        }),
    }))
}

/// Whether a program chunk holds a shader-message customdata block (class
/// 4, emitted for printf/errorf). Only instruction lengths are walked, so
/// the header does not depend on the instruction decoder; a malformed
/// program simply ends the walk.
pub fn program_has_shader_messages(program: &[u8]) -> bool {
    const CUSTOMDATA: u32 = 0x35;
    const SHADER_MESSAGE: u32 = 4;
    let word = |i: usize| -> Option<u32> {
        let b = program.get(i * 4..i * 4 + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    // Words 0 and 1 are the version token and the length in words.
    let mut i = 2;
    while let Some(token) = word(i) {
        let len = if token & 0x7ff == CUSTOMDATA {
            if token >> 11 == SHADER_MESSAGE {
                return true;
            }
            match word(i + 1) {
                Some(n) => n as usize,
                None => return false,
            }
        } else {
            ((token >> 24) & 0x7f) as usize
        };
        if len == 0 {
            return false;
        }
        i = match i.checked_add(len) {
            Some(next) => next,
            None => return false,
        };
    }
    false
}

/// Builds the header lines (each starting with "//", no newlines).
pub fn listing_header_from(parts: &HeaderParts) -> Vec<String> {
    let mut text = String::new();
    write_listing_header(&mut text, parts);
    text.split_terminator('\n').map(String::from).collect()
}

/// [`listing_header_from`]'s lines appended to `out`, each ended by `\n`.
/// The listing writes them straight into its own buffer: the header is a
/// large share of a listing's lines, and a string per line cost more than
/// the program's text.
pub fn write_listing_header(out: &mut String, parts: &HeaderParts) {
    let start = out.len();
    let l = &mut Lines {
        out,
        start,
        untrusted: false,
    };
    let creator = parts.rdef.map(|r| r.creator.as_str()).unwrap_or("");
    l.push("//");
    if creator.is_empty() {
        l.push("// Generated by Microsoft (R) D3D Shader Disassembler");
    } else {
        l.mark(creator);
        l.fmt(format_args!("// Generated by {creator}"));
    }
    l.push("//");

    if let Some(rdef) = parts.rdef {
        l.push("//");
        // Every listing from this fxc build in the corpus has a bare "///"
        // line here, and none from other builds do; it is reproduced for
        // that build only so listings can be compared line for line.
        if creator.ends_with("9.30.9200.20714") {
            l.push("///");
        }
        if parts.debug_layer_note {
            l.push("// Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED.");
            l.push("//");
            l.push("//");
        }
        feature_notes(l, parts.features, parts.early_depth_stencil);
        if !rdef.constant_buffers.is_empty() {
            buffer_definitions(l, rdef);
        }
        if !rdef.bindings.is_empty() {
            binding_table(l, rdef);
        }
    } else {
        feature_notes(l, parts.features, parts.early_depth_stencil);
    }

    let program = parts.program.or(parts.rdef.map(|r| r.target.program));
    for kind in [
        SignatureKind::PatchConstant,
        SignatureKind::Input,
        SignatureKind::Output,
    ] {
        for sig in parts.signatures.iter().filter(|s| s.kind == kind) {
            signature_table(l, sig, program);
        }
    }

    if let Some(stat) = parts.stat {
        stat_notes(l, stat, program);
    }
}

/// The header's text being written: each line goes straight into `out`
/// and is ended by [`Lines::end`].
struct Lines<'a> {
    out: &'a mut String,
    /// Where the line being written starts.
    start: usize,
    /// Whether the line holds a control character from a name of the
    /// file's ([`Lines::mark`]); nothing else written here has one.
    untrusted: bool,
}

impl Lines<'_> {
    fn push(&mut self, line: &str) {
        self.out.push_str(line);
        self.end();
    }

    fn fmt(&mut self, args: std::fmt::Arguments) {
        let _ = self.out.write_fmt(args);
        self.end();
    }

    /// Notes a name from the file that is (about to be) part of the line.
    fn mark(&mut self, name: &str) {
        // A superset of `char::is_control` in UTF-8 (C1 controls start
        // with 0xC2); `shown` decides exactly.
        self.untrusted |= name.bytes().any(|b| b < 0x20 || b == 0x7f || b == 0xc2);
    }

    /// Ends the line. Names come from the file: one with a control
    /// character would otherwise break out of its comment line, so a line
    /// holding one is replaced by its [`shown`](super::shown::shown) form.
    /// Only lines given such a name ([`Lines::mark`]) need the check.
    fn end(&mut self) {
        if std::mem::take(&mut self.untrusted) {
            let escaped = match super::shown::shown(&self.out[self.start..]) {
                Cow::Owned(s) => Some(s),
                Cow::Borrowed(_) => None,
            };
            if let Some(escaped) = escaped {
                self.out.truncate(self.start);
                self.out.push_str(&escaped);
            }
        }
        self.out.push('\n');
        self.start = self.out.len();
    }

    /// Pads the line so far with spaces to `width` characters, as `{:<width$}`
    /// would pad it.
    fn pad_to(&mut self, width: usize) {
        let have = self.out[self.start..].chars().count();
        self.out
            .extend(std::iter::repeat_n(' ', width.saturating_sub(have)));
    }
}

fn feature_notes(l: &mut Lines, features: Option<&ShaderFeatures>, early: bool) {
    let names = features.map(ShaderFeatures::names).unwrap_or_default();
    if !early && names.is_empty() {
        return;
    }
    l.push("// Note: shader requires additional functionality:");
    if early {
        l.push("//       Early depth-stencil");
    }
    for n in names {
        l.fmt(format_args!("//       {n}"));
    }
    l.push("//");
    l.push("//");
}

/// Column where the "// Offset:" comments start in buffer definitions.
const DECL_WIDTH: usize = 40;

fn buffer_definitions(l: &mut Lines, rdef: &Rdef) {
    l.push("// Buffer Definitions: ");
    for cb in &rdef.constant_buffers {
        l.push("//");
        let name = &cb.name;
        l.mark(name);
        match cb.kind {
            CbufferKind::CBuffer => l.fmt(format_args!("// cbuffer {name}")),
            CbufferKind::TBuffer => l.fmt(format_args!("// tbuffer {name}")),
            CbufferKind::InterfacePointers => l.fmt(format_args!("// interfaces {name}")),
            CbufferKind::ResourceBindInfo => {
                l.fmt(format_args!("// Resource bind info for {name}"))
            }
            CbufferKind::Other(k) => l.fmt(format_args!("// buffer(kind {k}) {name}")),
        }
        l.push("// {");
        l.push("//");
        for (i, var) in cb.variables.iter().enumerate() {
            variable_lines(l, var, i == 0);
        }
        l.push("//");
        l.push("// }");
    }
    l.push("//");
    l.push("//");
}

/// The comment after a declaration: a variable's offset and size, or a
/// struct member's absolute offset.
#[derive(Clone, Copy)]
enum Tail {
    Variable {
        offset: u32,
        size: u32,
        unused: bool,
    },
    Member {
        offset: u32,
    },
}

impl Tail {
    fn write(self, out: &mut String) {
        match self {
            Tail::Variable {
                offset,
                size,
                unused,
            } => {
                let _ = write!(out, "// Offset: {offset:>4} Size: {size:>5}");
                if unused {
                    out.push_str(" [unused]");
                }
            }
            Tail::Member { offset } => {
                let _ = write!(out, "// Offset: {offset:>4}");
            }
        }
    }
}

fn variable_lines(l: &mut Lines, var: &Variable, first: bool) {
    let tail = Tail::Variable {
        offset: var.offset,
        size: var.size,
        unused: !var.is_used(),
    };
    type_lines(l, 2, &var.ty, &var.name, var.offset, tail, first);
    if let Some(bytes) = &var.default_value {
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        for (i, row) in words.chunks(4).enumerate() {
            l.out
                .push_str(if i == 0 { "//      = " } else { "//        " });
            for (j, w) in row.iter().enumerate() {
                if j > 0 {
                    l.out.push(' ');
                }
                let _ = write!(l.out, "0x{w:08x}");
            }
            l.end();
        }
    }
}

/// "// " plus `indent` spaces: fxc's indentation inside definitions.
fn prefix(out: &mut String, indent: usize) {
    out.push_str("// ");
    out.extend(std::iter::repeat_n(' ', indent));
}

/// `name[elements];` (no brackets for a non-array).
fn decl_name(l: &mut Lines, ty: &Type, name: &str) {
    l.mark(name);
    l.out.push_str(name);
    if ty.elements > 0 {
        let _ = write!(l.out, "[{}]", ty.elements);
    }
    l.out.push(';');
}

/// The type's HLSL name, which may include its name from the file.
fn type_name(l: &mut Lines, ty: &Type) {
    if let Some(n) = &ty.name {
        l.mark(n);
    }
    ty.write_hlsl_name(l.out);
}

/// One declaration: a single line for plain types, or a nested block for
/// structs, whose members show their absolute offsets. Depth is bounded by
/// the RDEF parser's nesting limit.
fn type_lines(
    l: &mut Lines,
    indent: usize,
    ty: &Type,
    name: &str,
    offset: u32,
    tail: Tail,
    first: bool,
) {
    if ty.class == class::STRUCT {
        if !first {
            prefix(l.out, indent);
            l.end();
        }
        prefix(l.out, indent);
        type_name(l, ty);
        l.end();
        prefix(l.out, indent);
        l.push("{");
        prefix(l.out, indent + 4);
        l.end();
        for (i, m) in ty.members.iter().enumerate() {
            let abs = offset.wrapping_add(m.offset);
            let member_tail = Tail::Member { offset: abs };
            type_lines(l, indent + 4, &m.ty, &m.name, abs, member_tail, i == 0);
        }
        l.push("//");
        prefix(l.out, indent);
        l.out.push_str("} ");
    } else {
        prefix(l.out, indent);
        type_name(l, ty);
        l.out.push(' ');
    }
    decl_name(l, ty, name);
    l.pad_to(DECL_WIDTH);
    tail.write(l.out);
    l.end();
}

fn stat_notes(l: &mut Lines, stat: &Stat, program: Option<ProgramType>) {
    if program == Some(ProgramType::Pixel) && stat.is_sample_frequency() {
        l.push("// Pixel Shader runs at sample frequency");
        l.push("//");
    }
    if stat.tessellator_domain() != 0 {
        one_row_table(
            l,
            "Tessellation Domain   # of control points",
            "-------------------- --------------------",
            format_args!(
                "{:<20} {:>20}",
                tessellator_domain_name(stat.tessellator_domain()),
                stat.control_points()
            ),
        );
    }
    if stat.hs_output_primitive() != 0 {
        one_row_table(
            l,
            "Tessellation Output Primitive  Partitioning Type ",
            "------------------------------ ------------------",
            format_args!(
                "{:<30} {:<18}",
                tessellator_output_primitive_name(stat.hs_output_primitive()),
                tessellator_partitioning_name(stat.hs_partitioning())
            ),
        );
    }
}

/// A heading, its rule, one row and the empty comment line fxc puts
/// after each table.
fn one_row_table(l: &mut Lines, heading: &str, rule: &str, row: std::fmt::Arguments) {
    l.fmt(format_args!("// {heading}"));
    l.fmt(format_args!("// {rule}"));
    l.fmt(format_args!("// {row}"));
    l.push("//");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::rdef::tests::sm5_rdef;
    use crate::dxbc::signature::SignatureElement;

    /// One signature row as a string, without its newline.
    fn signature_row(e: &SignatureElement, is_output: bool, pixel_output: bool) -> String {
        let mut s = String::new();
        let l = &mut Lines {
            out: &mut s,
            start: 0,
            untrusted: false,
        };
        tables::signature_row(l, e, is_output, pixel_output);
        s.pop();
        s
    }

    fn element(name: &str, reg: u32, sv: u32, mask: u8, rw: u8) -> SignatureElement {
        SignatureElement {
            semantic_name: name.to_string(),
            semantic_index: 0,
            system_value: sv,
            component_type: 3,
            register: reg,
            mask,
            rw_mask: rw,
            stream: 0,
            min_precision: 0,
        }
    }

    #[test]
    fn signature_rows_match_fxc_columns() {
        assert_eq!(
            signature_row(&element("SV_POSITION", 0, 1, 0xf, 0x1), false, false),
            "// SV_POSITION              0   xyzw        0      POS   float   x   "
        );
        assert_eq!(
            signature_row(&element("SV_Target", 0, 0, 0xf, 0), true, true),
            "// SV_Target                0   xyzw        0   TARGET   float   xyzw"
        );
        assert_eq!(
            signature_row(
                &element("SV_DepthGreaterEqual", u32::MAX, 67, 1, 0xe),
                true,
                true
            ),
            "// SV_DepthGreaterEqual     0    N/A oDepthGE  DEPTHGE   float    YES"
        );
    }

    #[test]
    fn empty_signature_says_so() {
        let sig = Signature {
            fourcc: *b"ISGN",
            kind: SignatureKind::Input,
            elements: vec![],
        };
        let lines = listing_header(None, &[&sig]);
        assert_eq!(lines.last().unwrap(), "// no Input");
        assert_eq!(
            lines[1],
            "// Generated by Microsoft (R) D3D Shader Disassembler"
        );
    }

    #[test]
    fn sm5_rdef_header() {
        let rdef = Rdef::parse(&sm5_rdef(), 0).unwrap();
        let lines = listing_header(Some(&rdef), &[]);
        let text = lines.join("\n");
        let expected = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Buffer Definitions: 
//
// cbuffer cb0
// {
//
//   float4 a;                          // Offset:    0 Size:    16
//   
//   struct S
//   {
//       
//       float x;                       // Offset:   16
//
//   } s;                               // Offset:   16 Size:     4 [unused]
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// tex                               texture  float4          2d             t3      1 
// cb0                               cbuffer      NA          NA            cb0      1 
//
//";
        assert_eq!(text, expected);
    }

    #[test]
    fn shader_message_scan() {
        // version, length, a mov (length 5), customdata class 4.
        let words = [0x50u32, 9, 0x0500_0036, 0, 0, 0, 0, 4 << 11 | 0x35, 2];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert!(program_has_shader_messages(&bytes));
        assert!(!program_has_shader_messages(&bytes[..28]));
        // A zero-length instruction stops the walk instead of looping.
        let stuck: Vec<u8> = [0x50u32, 3, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        assert!(!program_has_shader_messages(&stuck));
        let mut huge = bytes.clone();
        huge[28..32].copy_from_slice(&0x35u32.to_le_bytes());
        huge[32..36].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(!program_has_shader_messages(&huge));
    }

    #[test]
    fn compiler_versions() {
        assert_eq!(
            compiler_version("Microsoft (R) HLSL Shader Compiler 9.30.9200.20714"),
            Some(vec![9, 30, 9200, 20714])
        );
        assert_eq!(
            compiler_version("Microsoft (R) HLSL Shader Compiler 10.1"),
            Some(vec![10, 1])
        );
        assert_eq!(compiler_version("custom"), None);
    }
}
