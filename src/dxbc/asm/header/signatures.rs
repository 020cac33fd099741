//! The input, output and patch-constant signature tables, read back into
//! signature chunks once the program type is known.

use super::{Line, Parser, number};
use crate::dxbc::asm::error::AsmResult;
use crate::dxbc::rdef::ProgramType;
use crate::dxbc::signature::{Signature, SignatureElement, SignatureKind, system_value_name};
use crate::dxbc::write::signature_fourcc;

/// A signature row as printed, converted once the program type is known
/// (outputs and patch constants store "Used" differently).
struct RawRow<'a> {
    line: Line<'a>,
    name: String,
    index: u32,
    /// None for "N/A" (outputs without a register).
    mask: Option<u8>,
    register: u32,
    system_value: u32,
    component_type: u32,
    min_precision: u32,
    used: Used,
    used_token: &'a str,
}

enum Used {
    Mask(u8),
    Yes(bool),
}

pub(super) struct RawSignature<'a> {
    kind: SignatureKind,
    rows: Vec<RawRow<'a>>,
}

impl<'a> Parser<'a> {
    pub(super) fn signature_table(&mut self, kind: SignatureKind) -> AsmResult<()> {
        self.i += 1;
        let head = self.next_content("the signature's column names")?;
        if !head.trimmed().starts_with("Name") {
            return Err(head.err(head.trimmed(), "expected the signature's column names"));
        }
        self.i += 1;
        self.expect_dashes()?;
        let mut rows = Vec::new();
        while let Some(l) = self.line() {
            if l.body.is_none() || l.is_separator() {
                break;
            }
            let t = l.trimmed();
            if matches!(t, "no Input" | "no Output" | "no Patch Constant") && rows.is_empty() {
                self.i += 1;
                break;
            }
            rows.push(signature_row(l)?);
            self.i += 1;
        }
        self.signatures.push(RawSignature { kind, rows });
        Ok(())
    }
}

/// Inverse of the printer's SysValue names.
fn system_value(name: &str) -> Option<u32> {
    if let Some(n) = name.strip_prefix("SV").and_then(|n| n.parse().ok()) {
        return Some(n);
    }
    (0..=19u32)
        .chain(64..=70)
        .find(|&v| system_value_name(v) == name)
}

/// One signature row, split on whitespace: the mask and "Used" columns are
/// sets of component letters, which whitespace cannot make ambiguous, and
/// listings that lost their trailing spaces still read.
fn signature_row(l: Line) -> AsmResult<RawRow> {
    let toks: Vec<&str> = l.trimmed().split_whitespace().collect();
    let missing = |what: &str| l.err(l.trimmed(), format!("expected {what} in the signature row"));
    let name = *toks.first().ok_or_else(|| missing("a semantic name"))?;
    let index_tok = *toks.get(1).ok_or_else(|| missing("a semantic index"))?;
    let index = number(&l, index_tok)?;
    let mut i = 2;
    let mask = if toks.get(i) == Some(&"N/A") {
        i += 1;
        None
    } else {
        let mut m = 0u8;
        while let Some(bits) = toks.get(i).and_then(|t| component_mask(t)) {
            m |= bits;
            i += 1;
        }
        Some(m)
    };
    let reg_tok = *toks.get(i).ok_or_else(|| missing("a register"))?;
    let register = match reg_tok {
        "oDepth" | "oMask" | "oDepthGE" | "oDepthLE" | "oStencilRef" | "N/A" => u32::MAX,
        n => number(&l, n)?,
    };
    let sv_tok = *toks.get(i + 1).ok_or_else(|| missing("a system value"))?;
    let system_value = system_value(sv_tok)
        .ok_or_else(|| l.err(sv_tok, "expected a system value such as NONE or POS"))?;
    let fmt_tok = *toks.get(i + 2).ok_or_else(|| missing("a format"))?;
    let (component_type, min_precision) = match fmt_tok {
        "float" => (3, 0),
        "int" => (2, 0),
        "uint" => (1, 0),
        "unknown" => (0, 0),
        "min16f" => (3, 1),
        "min2_8f" => (3, 2),
        "min16i" => (2, 4),
        "min16u" => (1, 5),
        other => return Err(l.err(other, "expected a component format such as float or uint")),
    };
    let used_toks = toks.get(i + 3..).unwrap_or(&[]);
    let used_token = used_toks.first().copied().unwrap_or("");
    let used = match used_toks {
        ["YES"] => Used::Yes(true),
        ["NO"] => Used::Yes(false),
        _ => {
            let mut m = 0u8;
            for t in used_toks {
                m |= component_mask(t)
                    .ok_or_else(|| l.err(t, "expected the used components (x, y, z, w)"))?;
            }
            Used::Mask(m)
        }
    };
    Ok(RawRow {
        line: l,
        name: name.to_string(),
        index,
        mask,
        register,
        system_value,
        component_type,
        min_precision,
        used,
        used_token,
    })
}

/// "xy" → 0b0011, in xyzw order; None if the token is not such a set.
fn component_mask(tok: &str) -> Option<u8> {
    let mut m = 0u8;
    let mut last = -1i32;
    for c in tok.chars() {
        let bit = "xyzw".find(c)? as i32;
        if bit <= last {
            return None;
        }
        last = bit;
        m |= 1 << bit;
    }
    (!tok.is_empty()).then_some(m)
}

pub(super) fn signature(
    raw: RawSignature,
    program: Option<ProgramType>,
    sm5: bool,
) -> AsmResult<Signature> {
    let is_output = match raw.kind {
        SignatureKind::Input => false,
        SignatureKind::Output => true,
        SignatureKind::PatchConstant => program == Some(ProgramType::Hull),
    };
    let pixel_output = raw.kind == SignatureKind::Output && program == Some(ProgramType::Pixel);
    let mut elements = Vec::with_capacity(raw.rows.len());
    for r in raw.rows {
        // Outputs without a register occupy x (fxc's mask for oDepth & co).
        let mask = r.mask.unwrap_or(1);
        let used = match r.used {
            Used::Mask(m) => m,
            Used::Yes(true) => mask,
            Used::Yes(false) => 0,
        };
        if matches!(r.used, Used::Yes(_)) != (r.register == u32::MAX) {
            return Err(r.line.err(
                r.used_token,
                "a register-less output shows YES/NO as Used, a register its components",
            ));
        }
        // Inputs store what is read; outputs what is never written, over
        // all four components, as fxc does.
        let rw_mask = if is_output {
            if used & !mask != 0 {
                return Err(r.line.err(
                    r.used_token,
                    "an output cannot use components outside its Mask",
                ));
            }
            !used & 0xf
        } else {
            used
        };
        // fxc stores pixel outputs' system values as 0 and infers them
        // from the name when printing; keep that where it prints the same.
        let mut element = SignatureElement {
            semantic_name: r.name,
            semantic_index: r.index,
            system_value: 0,
            component_type: r.component_type,
            register: r.register,
            mask,
            rw_mask,
            stream: 0,
            min_precision: r.min_precision,
        };
        if !(pixel_output && element.effective_system_value(true).code() == r.system_value) {
            element.system_value = r.system_value;
        }
        elements.push(element);
    }
    let min_precision = elements.iter().any(|e| e.min_precision != 0);
    let sm5_gs_output =
        sm5 && raw.kind == SignatureKind::Output && program == Some(ProgramType::Geometry);
    Ok(Signature {
        fourcc: signature_fourcc(raw.kind, min_precision, sm5_gs_output),
        kind: raw.kind,
        elements,
    })
}
