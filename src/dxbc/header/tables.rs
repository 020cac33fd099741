//! The header's tables: resource bindings and signatures, column for
//! column as fxc prints them.

use std::fmt::Write as _;

use super::Lines;
use crate::dxbc::enums::SystemValue;
use crate::dxbc::rdef::{InputType, ProgramType, Rdef, ResourceBinding, input_flags};
use crate::dxbc::signature::{Signature, SignatureElement, SignatureKind};

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

pub(super) fn binding_table(l: &mut Lines, rdef: &Rdef) {
    let cols = bind_columns(rdef);
    l.push("// Resource Bindings:");
    l.push("//");
    match cols {
        BindColumns::SlotElements => {
            l.push(
                "// Name                                 Type  Format         Dim Slot Elements",
            );
            l.push(
                "// ------------------------------ ---------- ------- ----------- ---- --------",
            );
        }
        BindColumns::HlslBind => {
            l.push("// Name                                 Type  Format         Dim      HLSL Bind  Count");
            l.push("// ------------------------------ ---------- ------- ----------- -------------- ------");
        }
        BindColumns::HlslBindWithId => {
            l.push("// Name                                 Type  Format         Dim      ID      HLSL Bind  Count");
            l.push("// ------------------------------ ---------- ------- ----------- ------- -------------- ------");
        }
    }
    let mut scratch = String::new();
    for b in &rdef.bindings {
        l.mark(&b.name);
        let _ = write!(l.out, "// {:<30} {:>10} ", b.name, binding_type(b),);
        scratch.clear();
        let format = binding_format(&mut scratch, b);
        let _ = write!(l.out, "{format:>7} ");
        scratch.clear();
        let dim = binding_dim(&mut scratch, b);
        let _ = write!(l.out, "{dim:>11}");
        let count = Count(b.bind_count);
        match cols {
            BindColumns::SlotElements => {
                let _ = write!(l.out, " {:>4} {count:>8}", b.bind_point);
            }
            BindColumns::HlslBind => {
                let _ = write!(l.out, " {:>14} {count:>6} ", HlslBind(b));
            }
            BindColumns::HlslBindWithId => {
                let letter = match register_letter(b) {
                    "cb" => "CB",
                    "s" => "S",
                    "u" => "U",
                    _ => "T",
                };
                scratch.clear();
                let _ = write!(scratch, "{letter}{}", b.id.unwrap_or(0));
                let _ = write!(l.out, " {scratch:>7} {:>14} {count:>6} ", HlslBind(b));
            }
        }
        l.end();
    }
    l.push("//");
    l.push("//");
}

/// A binding's element count, `unbounded` for 0; pads like a string.
struct Count(u32);

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.0 == 0 {
            f.pad("unbounded")
        } else {
            let mut buf = String::new();
            crate::dxbc::numfmt::push_u64(&mut buf, self.0 as u64);
            f.pad(&buf)
        }
    }
}

fn binding_type(b: &ResourceBinding) -> &'static str {
    match b.input_type {
        InputType::CBuffer => "cbuffer",
        InputType::TBuffer => "tbuffer",
        InputType::Sampler if b.flags & input_flags::COMPARISON_SAMPLER != 0 => "sampler_c",
        InputType::Sampler => "sampler",
        InputType::Texture | InputType::Structured | InputType::ByteAddress => "texture",
        t if t.is_uav() => "UAV",
        _ => "unknown",
    }
}

/// The format column; a name with a component count is written into
/// `scratch`.
fn binding_format<'s>(scratch: &'s mut String, b: &ResourceBinding) -> &'s str {
    match b.input_type {
        InputType::CBuffer | InputType::TBuffer | InputType::Sampler => "NA",
        InputType::Structured
        | InputType::UavRwStructured
        | InputType::UavAppendStructured
        | InputType::UavConsumeStructured
        | InputType::UavRwStructuredWithCounter => "struct",
        InputType::ByteAddress | InputType::UavRwByteAddress => "byte",
        _ => {
            let base = match b.return_type {
                1..=7 => crate::dxbc::ir::ReturnType::from_code(b.return_type as u8).name(),
                8 => return "continued",
                _ => return "NA",
            };
            match b.components() {
                1 => base,
                n => {
                    let _ = write!(scratch, "{base}{n}");
                    scratch
                }
            }
        }
    }
}

/// The dimension column; a multisample count is written into `scratch`.
fn binding_dim<'s>(scratch: &'s mut String, b: &ResourceBinding) -> &'s str {
    match b.input_type {
        InputType::Structured | InputType::ByteAddress => "r/o",
        InputType::UavRwStructured | InputType::UavRwByteAddress => "r/w",
        InputType::UavAppendStructured => "append",
        InputType::UavConsumeStructured => "consume",
        InputType::UavRwStructuredWithCounter => "r/w+cnt",
        InputType::Texture | InputType::UavRwTyped => {
            let ms = |scratch: &'s mut String, base: &'static str| -> &'s str {
                if b.num_samples == 0 || b.num_samples == u32::MAX {
                    base
                } else {
                    let _ = write!(scratch, "{base}{}", b.num_samples);
                    scratch
                }
            };
            match b.dimension {
                1 | 11 => "buf",
                2 => "1d",
                3 => "1darray",
                4 => "2d",
                5 => "2darray",
                6 => ms(scratch, "2dMS"),
                7 => ms(scratch, "2darrayMS"),
                8 => "3d",
                9 => "cube",
                10 => "cubearray",
                _ => "NA",
            }
        }
        _ => "NA",
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

/// `t3`, `cb0,space1`: the HLSL bind point; pads like a string.
struct HlslBind<'a>(&'a ResourceBinding);

impl std::fmt::Display for HlslBind<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let b = self.0;
        let mut s = String::with_capacity(16);
        let _ = write!(s, "{}{}", register_letter(b), b.bind_point);
        if let Some(space) = b.space.filter(|&s| s != 0) {
            let _ = write!(s, ",space{space}");
        }
        f.pad(&s)
    }
}

pub(super) fn signature_table(l: &mut Lines, sig: &Signature, program: Option<ProgramType>) {
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
    l.push("//");
    l.fmt(format_args!("// {title}:"));
    l.push("//");
    l.push("// Name                 Index   Mask Register SysValue  Format   Used");
    l.push("// -------------------- ----- ------ -------- -------- ------- ------");
    if sig.elements.is_empty() {
        l.fmt(format_args!("// {none}"));
        return;
    }
    let pixel_output = sig.kind == SignatureKind::Output && program == Some(ProgramType::Pixel);
    for e in &sig.elements {
        signature_row(l, e, is_output, pixel_output);
    }
    l.push("//");
}

pub(super) fn signature_row(
    l: &mut Lines,
    e: &SignatureElement,
    is_output: bool,
    pixel_output: bool,
) {
    let used = e.used_mask(is_output);
    let sv = e.effective_system_value(pixel_output);
    l.mark(&e.semantic_name);
    let _ = write!(l.out, "// {:<20} {:>5} ", e.semantic_name, e.semantic_index);
    if e.register == u32::MAX {
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
        let _ = write!(l.out, "{:>6} {reg:>8} ", "N/A");
    } else {
        let _ = write!(l.out, "{:>6} {:>8} ", Mask(e.mask), e.register);
    }
    match sv {
        // Width does not apply to `format_args!`, so the rare unknown
        // value gets a string of its own.
        SystemValue::Other(_) => {
            let _ = write!(l.out, "{:>8}", sv.short_name());
        }
        known => {
            let _ = write!(l.out, "{:>8}", known.name());
        }
    }
    let _ = write!(l.out, " {:>7} ", component_format(e));
    if e.register == u32::MAX {
        let _ = write!(l.out, "{:>6}", if used != 0 { "YES" } else { "NO" });
    } else {
        let _ = write!(l.out, "{:>6}", Mask(used));
    }
    l.end();
}

/// [`mask_columns`](crate::dxbc::signature::mask_columns) without a string of its own; pads like a string.
struct Mask(u8);

impl std::fmt::Display for Mask {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let mut b = *b"    ";
        for (i, c) in b"xyzw".iter().enumerate() {
            if self.0 & (1 << i) != 0 {
                b[i] = *c;
            }
        }
        // Only ASCII was written.
        f.pad(std::str::from_utf8(&b).unwrap_or("    "))
    }
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
