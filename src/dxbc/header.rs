//! The comment header of an fxc `/Fc` listing: compiler banner, required
//! features, buffer definitions, the resource binding table, the
//! signatures and the tessellation/sample-frequency notes, rebuilt from the
//! reflection chunks so our listings can be diffed against fxc's.
//!
//! fxc's layout is reproduced column for column. Where fxc versions differ
//! (the binding table's columns), the version is taken from the RDEF
//! creator string, since the listing matches the compiler that made it.

use super::container::Container;
use super::enums::SystemValue;
use super::error::Result;
use super::rdef::{
    CbufferKind, ConstantBuffer, InputType, ProgramType, Rdef, ResourceBinding, Type, Variable,
    class, input_flags,
};
use super::signature::{Signature, SignatureElement, SignatureKind, mask_columns};
use super::stat::{
    ShaderFeatures, Stat, tessellator_domain_name, tessellator_output_primitive_name,
    tessellator_partitioning_name,
};

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
    let mut out = Vec::new();
    let creator = parts.rdef.map(|r| r.creator.as_str()).unwrap_or("");
    out.push("//".to_string());
    if creator.is_empty() {
        out.push("// Generated by Microsoft (R) D3D Shader Disassembler".to_string());
    } else {
        out.push(format!("// Generated by {creator}"));
    }
    out.push("//".to_string());

    if let Some(rdef) = parts.rdef {
        out.push("//".to_string());
        // Every listing from this fxc build in the corpus has a bare "///"
        // line here, and none from other builds do; it is reproduced for
        // that build only so listings can be compared line for line.
        if creator.ends_with("9.30.9200.20714") {
            out.push("///".to_string());
        }
        if parts.debug_layer_note {
            out.push(
                "// Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED.".to_string(),
            );
            out.push("//".to_string());
            out.push("//".to_string());
        }
        feature_notes(&mut out, parts.features, parts.early_depth_stencil);
        if !rdef.constant_buffers.is_empty() {
            buffer_definitions(&mut out, rdef);
        }
        if !rdef.bindings.is_empty() {
            binding_table(&mut out, rdef);
        }
    } else {
        feature_notes(&mut out, parts.features, parts.early_depth_stencil);
    }

    let program = parts.program.or(parts.rdef.map(|r| r.target.program));
    for kind in [
        SignatureKind::PatchConstant,
        SignatureKind::Input,
        SignatureKind::Output,
    ] {
        for sig in parts.signatures.iter().filter(|s| s.kind == kind) {
            signature_table(&mut out, sig, program);
        }
    }

    if let Some(stat) = parts.stat {
        stat_notes(&mut out, stat, program);
    }
    // Names come from the file: one with a newline would otherwise break
    // out of its comment line.
    out.into_iter()
        .map(|l| super::shown::shown(&l).into_owned())
        .collect()
}

fn feature_notes(out: &mut Vec<String>, features: Option<&ShaderFeatures>, early: bool) {
    let mut names = Vec::new();
    if early {
        names.push("Early depth-stencil".to_string());
    }
    names.extend(features.map(ShaderFeatures::names).unwrap_or_default());
    if names.is_empty() {
        return;
    }
    out.push("// Note: shader requires additional functionality:".to_string());
    for n in names {
        out.push(format!("//       {n}"));
    }
    out.push("//".to_string());
    out.push("//".to_string());
}

/// Column where the "// Offset:" comments start in buffer definitions.
const DECL_WIDTH: usize = 40;

fn buffer_definitions(out: &mut Vec<String>, rdef: &Rdef) {
    out.push("// Buffer Definitions: ".to_string());
    for cb in &rdef.constant_buffers {
        out.push("//".to_string());
        out.push(format!("// {}", buffer_title(cb)));
        out.push("// {".to_string());
        out.push("//".to_string());
        for (i, var) in cb.variables.iter().enumerate() {
            variable_lines(out, var, i == 0);
        }
        out.push("//".to_string());
        out.push("// }".to_string());
    }
    out.push("//".to_string());
    out.push("//".to_string());
}

fn buffer_title(cb: &ConstantBuffer) -> String {
    match cb.kind {
        CbufferKind::CBuffer => format!("cbuffer {}", cb.name),
        CbufferKind::TBuffer => format!("tbuffer {}", cb.name),
        CbufferKind::InterfacePointers => format!("interfaces {}", cb.name),
        CbufferKind::ResourceBindInfo => format!("Resource bind info for {}", cb.name),
        CbufferKind::Other(k) => format!("buffer(kind {k}) {}", cb.name),
    }
}

fn variable_lines(out: &mut Vec<String>, var: &Variable, first: bool) {
    let mut tail = format!("// Offset: {:>4} Size: {:>5}", var.offset, var.size);
    if !var.is_used() {
        tail.push_str(" [unused]");
    }
    type_lines(out, 2, &var.ty, &var.name, var.offset, &tail, first);
    if let Some(bytes) = &var.default_value {
        let words: Vec<String> = bytes
            .chunks_exact(4)
            .map(|c| format!("0x{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect();
        for (i, row) in words.chunks(4).enumerate() {
            let lead = if i == 0 { "//      = " } else { "//        " };
            out.push(format!("{lead}{}", row.join(" ")));
        }
    }
}

/// "// " plus `indent` spaces: fxc's indentation inside definitions.
fn prefix(indent: usize) -> String {
    format!("// {}", " ".repeat(indent))
}

fn array_suffix(ty: &Type) -> String {
    if ty.elements > 0 {
        format!("[{}]", ty.elements)
    } else {
        String::new()
    }
}

/// One declaration: a single line for plain types, or a nested block for
/// structs, whose members show their absolute offsets. Depth is bounded by
/// the RDEF parser's nesting limit.
fn type_lines(
    out: &mut Vec<String>,
    indent: usize,
    ty: &Type,
    name: &str,
    offset: u32,
    tail: &str,
    first: bool,
) {
    let p = prefix(indent);
    let decl_name = format!("{name}{};", array_suffix(ty));
    if ty.class == class::STRUCT {
        if !first {
            out.push(p.clone());
        }
        out.push(format!("{p}{}", ty.hlsl_name()));
        out.push(format!("{p}{{"));
        out.push(prefix(indent + 4));
        for (i, m) in ty.members.iter().enumerate() {
            let abs = offset.wrapping_add(m.offset);
            let member_tail = format!("// Offset: {abs:>4}");
            type_lines(out, indent + 4, &m.ty, &m.name, abs, &member_tail, i == 0);
        }
        out.push("//".to_string());
        out.push(pad(format!("{p}}} {decl_name}"), tail));
    } else {
        out.push(pad(format!("{p}{} {decl_name}", ty.hlsl_name()), tail));
    }
}

fn pad(decl: String, tail: &str) -> String {
    format!("{decl:<DECL_WIDTH$}{tail}")
}

/// Which binding table layout a compiler prints.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BindColumns {
    /// fxc up to 10.0: "Slot Elements".
    SlotElements,
    /// fxc 10.1+: "HLSL Bind Count".
    HlslBind,
    /// SM5.1 targets: an "ID" column before the HLSL bind point.
    HlslBindWithId,
}

/// The compiler version numbers at the end of an RDEF creator string.
pub fn compiler_version(creator: &str) -> Option<Vec<u32>> {
    let last = creator.split_whitespace().last()?;
    last.split('.').map(|p| p.parse().ok()).collect()
}

fn bind_columns(rdef: &Rdef) -> BindColumns {
    if rdef.target.at_least(5, 1) {
        return BindColumns::HlslBindWithId;
    }
    match compiler_version(&rdef.creator) {
        Some(v) if v.as_slice() >= [10, 1].as_slice() => BindColumns::HlslBind,
        _ => BindColumns::SlotElements,
    }
}

fn binding_table(out: &mut Vec<String>, rdef: &Rdef) {
    let cols = bind_columns(rdef);
    out.push("// Resource Bindings:".to_string());
    out.push("//".to_string());
    match cols {
        BindColumns::SlotElements => {
            out.push(
                "// Name                                 Type  Format         Dim Slot Elements"
                    .to_string(),
            );
            out.push(
                "// ------------------------------ ---------- ------- ----------- ---- --------"
                    .to_string(),
            );
        }
        BindColumns::HlslBind => {
            out.push("// Name                                 Type  Format         Dim      HLSL Bind  Count".to_string());
            out.push("// ------------------------------ ---------- ------- ----------- -------------- ------".to_string());
        }
        BindColumns::HlslBindWithId => {
            out.push("// Name                                 Type  Format         Dim      ID      HLSL Bind  Count".to_string());
            out.push("// ------------------------------ ---------- ------- ----------- ------- -------------- ------".to_string());
        }
    }
    for b in &rdef.bindings {
        let lead = format!(
            "// {:<30} {:>10} {:>7} {:>11}",
            b.name,
            binding_type(b),
            binding_format(b),
            binding_dim(b)
        );
        let count = if b.bind_count == 0 {
            "unbounded".to_string()
        } else {
            b.bind_count.to_string()
        };
        out.push(match cols {
            BindColumns::SlotElements => format!("{lead} {:>4} {:>8}", b.bind_point, count),
            BindColumns::HlslBind => format!("{lead} {:>14} {:>6} ", hlsl_bind(b), count),
            BindColumns::HlslBindWithId => {
                let id = format!("{}{}", register_letter(b).to_uppercase(), b.id.unwrap_or(0));
                format!("{lead} {id:>7} {:>14} {:>6} ", hlsl_bind(b), count)
            }
        });
    }
    out.push("//".to_string());
    out.push("//".to_string());
}

fn binding_type(b: &ResourceBinding) -> String {
    match b.input_type {
        InputType::CBuffer => "cbuffer",
        InputType::TBuffer => "tbuffer",
        InputType::Sampler if b.flags & input_flags::COMPARISON_SAMPLER != 0 => "sampler_c",
        InputType::Sampler => "sampler",
        InputType::Texture | InputType::Structured | InputType::ByteAddress => "texture",
        t if t.is_uav() => "UAV",
        _ => "unknown",
    }
    .to_string()
}

fn binding_format(b: &ResourceBinding) -> String {
    match b.input_type {
        InputType::CBuffer | InputType::TBuffer | InputType::Sampler => "NA".to_string(),
        InputType::Structured
        | InputType::UavRwStructured
        | InputType::UavAppendStructured
        | InputType::UavConsumeStructured
        | InputType::UavRwStructuredWithCounter => "struct".to_string(),
        InputType::ByteAddress | InputType::UavRwByteAddress => "byte".to_string(),
        _ => {
            let base = match b.return_type {
                1..=7 => super::ir::ReturnType::from_code(b.return_type as u8).name(),
                8 => return "continued".to_string(),
                _ => return "NA".to_string(),
            };
            match b.components() {
                1 => base.to_string(),
                n => format!("{base}{n}"),
            }
        }
    }
}

fn binding_dim(b: &ResourceBinding) -> String {
    match b.input_type {
        InputType::Structured | InputType::ByteAddress => "r/o".to_string(),
        InputType::UavRwStructured | InputType::UavRwByteAddress => "r/w".to_string(),
        InputType::UavAppendStructured => "append".to_string(),
        InputType::UavConsumeStructured => "consume".to_string(),
        InputType::UavRwStructuredWithCounter => "r/w+cnt".to_string(),
        InputType::Texture | InputType::UavRwTyped => {
            let ms = |base: &str| {
                if b.num_samples == 0 || b.num_samples == u32::MAX {
                    base.to_string()
                } else {
                    format!("{base}{}", b.num_samples)
                }
            };
            match b.dimension {
                1 | 11 => "buf".to_string(),
                2 => "1d".to_string(),
                3 => "1darray".to_string(),
                4 => "2d".to_string(),
                5 => "2darray".to_string(),
                6 => ms("2dMS"),
                7 => ms("2darrayMS"),
                8 => "3d".to_string(),
                9 => "cube".to_string(),
                10 => "cubearray".to_string(),
                _ => "NA".to_string(),
            }
        }
        _ => "NA".to_string(),
    }
}

fn register_letter(b: &ResourceBinding) -> &'static str {
    match b.input_type {
        InputType::CBuffer => "cb",
        InputType::Sampler => "s",
        t if t.is_uav() => "u",
        _ => "t",
    }
}

fn hlsl_bind(b: &ResourceBinding) -> String {
    let mut s = format!("{}{}", register_letter(b), b.bind_point);
    if let Some(space) = b.space.filter(|&s| s != 0) {
        s.push_str(&format!(",space{space}"));
    }
    s
}

fn signature_table(out: &mut Vec<String>, sig: &Signature, program: Option<ProgramType>) {
    let (title, none) = match sig.kind {
        SignatureKind::Input => ("Input signature", "no Input"),
        SignatureKind::Output => ("Output signature", "no Output"),
        SignatureKind::PatchConstant => ("Patch Constant signature", "no Patch Constant"),
    };
    // A hull shader writes its patch constants; a domain shader reads them.
    let is_output = match sig.kind {
        SignatureKind::Input => false,
        SignatureKind::Output => true,
        SignatureKind::PatchConstant => program == Some(ProgramType::Hull),
    };
    out.push("//".to_string());
    out.push(format!("// {title}:"));
    out.push("//".to_string());
    out.push("// Name                 Index   Mask Register SysValue  Format   Used".to_string());
    out.push("// -------------------- ----- ------ -------- -------- ------- ------".to_string());
    if sig.elements.is_empty() {
        out.push(format!("// {none}"));
        return;
    }
    let pixel_output = sig.kind == SignatureKind::Output && program == Some(ProgramType::Pixel);
    for e in &sig.elements {
        out.push(signature_row(e, is_output, pixel_output));
    }
    out.push("//".to_string());
}

fn signature_row(e: &SignatureElement, is_output: bool, pixel_output: bool) -> String {
    let used = e.used_mask(is_output);
    let sv = e.effective_system_value(pixel_output);
    let (mask, register, used) = if e.register == u32::MAX {
        // Outputs without a register (depth, coverage, stencil ref) show
        // the operand name instead and a yes/no for use.
        let reg = match sv {
            SystemValue::Depth => "oDepth",
            SystemValue::Coverage => "oMask",
            SystemValue::DepthGreaterEqual => "oDepthGE",
            SystemValue::DepthLessEqual => "oDepthLE",
            SystemValue::StencilRef => "oStencilRef",
            _ => "N/A",
        };
        let yes = if used != 0 { "YES" } else { "NO" };
        ("N/A".to_string(), reg.to_string(), yes.to_string())
    } else {
        (
            mask_columns(e.mask),
            e.register.to_string(),
            mask_columns(used),
        )
    };
    format!(
        "// {:<20} {:>5} {:>6} {:>8} {:>8} {:>7} {:>6}",
        e.semantic_name,
        e.semantic_index,
        mask,
        register,
        sv.short_name(),
        component_format(e),
        used
    )
}

fn component_format(e: &SignatureElement) -> &'static str {
    match e.min_precision {
        1 => return "min16f",
        2 => return "min2_8f",
        4 => return "min16i",
        5 => return "min16u",
        _ => {}
    }
    match e.component_type {
        1 => "uint",
        2 => "int",
        3 => "float",
        _ => "unknown",
    }
}

fn stat_notes(out: &mut Vec<String>, stat: &Stat, program: Option<ProgramType>) {
    if program == Some(ProgramType::Pixel) && stat.is_sample_frequency() {
        out.push("// Pixel Shader runs at sample frequency".to_string());
        out.push("//".to_string());
    }
    if stat.tessellator_domain() != 0 {
        let row = format!(
            "{:<20} {:>20}",
            tessellator_domain_name(stat.tessellator_domain()),
            stat.control_points()
        );
        one_row_table(
            out,
            "Tessellation Domain   # of control points",
            "-------------------- --------------------",
            &row,
        );
    }
    if stat.hs_output_primitive() != 0 {
        let row = format!(
            "{:<30} {:<18}",
            tessellator_output_primitive_name(stat.hs_output_primitive()),
            tessellator_partitioning_name(stat.hs_partitioning())
        );
        one_row_table(
            out,
            "Tessellation Output Primitive  Partitioning Type ",
            "------------------------------ ------------------",
            &row,
        );
    }
}

/// A heading, its rule, one row and the empty comment line fxc puts
/// after each table.
fn one_row_table(out: &mut Vec<String>, heading: &str, rule: &str, row: &str) {
    for line in [heading, rule, row] {
        out.push(format!("// {line}"));
    }
    out.push("//".to_string());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::rdef::tests::sm5_rdef;

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
