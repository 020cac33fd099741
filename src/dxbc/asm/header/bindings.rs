//! The "Resource Bindings" table, in each of its column layouts, read back
//! into RDEF's resource binding records.

use super::{Line, Parser, number};
use crate::dxbc::asm::error::AsmResult;
use crate::dxbc::rdef::{InputType, ResourceBinding, input_flags};

/// Which binding-table layout a header used.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum BindColumns {
    SlotElements,
    HlslBind,
    HlslBindWithId,
}

impl<'a> Parser<'a> {
    pub(super) fn binding_table(&mut self) -> AsmResult<()> {
        self.i += 1;
        let head = self.next_content("the binding table's column names")?;
        let h = head.trimmed();
        let columns = if !h.starts_with("Name") {
            return Err(head.err(h, "expected the binding table's column names"));
        } else if h.contains("Slot") {
            BindColumns::SlotElements
        } else if h.split_whitespace().any(|c| c == "ID") {
            BindColumns::HlslBindWithId
        } else if h.contains("HLSL Bind") {
            BindColumns::HlslBind
        } else {
            return Err(head.err(h, "expected `Slot Elements` or `HLSL Bind Count` columns"));
        };
        self.i += 1;
        self.expect_dashes()?;
        let mut rows = match self.bindings.take() {
            Some((_, rows)) => rows,
            None => Vec::new(),
        };
        while let Some(l) = self.line() {
            if l.body.is_none() || l.is_separator() {
                break;
            }
            rows.push(binding_row(&l, columns)?);
            self.i += 1;
        }
        self.bindings = Some((columns, rows));
        Ok(())
    }
}

/// One row of the binding table.
fn binding_row(l: &Line, columns: BindColumns) -> AsmResult<ResourceBinding> {
    let toks: Vec<&str> = l.trimmed().split_whitespace().collect();
    let want = if columns == BindColumns::HlslBindWithId {
        7
    } else {
        6
    };
    if toks.len() != want {
        let tok = toks.get(want).copied().unwrap_or(l.trimmed());
        return Err(l.err(
            tok,
            format!("expected {want} columns: name, type, format, dimension, binding, count"),
        ));
    }
    let (name, ty, format, dim) = (toks[0], toks[1], toks[2], toks[3]);
    let (id, bind, count) = match columns {
        BindColumns::HlslBindWithId => (Some(toks[4]), toks[5], toks[6]),
        _ => (None, toks[4], toks[5]),
    };

    let structured = format == "struct";
    let raw = format == "byte";
    let input_type = match (ty, dim) {
        ("cbuffer", _) => InputType::CBuffer,
        ("tbuffer", _) => InputType::TBuffer,
        ("sampler" | "sampler_c", _) => InputType::Sampler,
        ("texture", _) if structured => InputType::Structured,
        ("texture", _) if raw => InputType::ByteAddress,
        ("texture", _) => InputType::Texture,
        ("UAV", "append") => InputType::UavAppendStructured,
        ("UAV", "consume") => InputType::UavConsumeStructured,
        ("UAV", "r/w+cnt") => InputType::UavRwStructuredWithCounter,
        ("UAV", _) if structured => InputType::UavRwStructured,
        ("UAV", _) if raw => InputType::UavRwByteAddress,
        ("UAV", _) => InputType::UavRwTyped,
        // The printer's name for types it does not know; 12 is the first
        // value D3D_SHADER_INPUT_TYPE does not define for DXBC.
        ("unknown", _) => InputType::Other(12),
        _ => {
            return Err(l.err(
                ty,
                "expected cbuffer, tbuffer, sampler, sampler_c, texture or UAV",
            ));
        }
    };
    let mut flags = 0;
    if ty == "sampler_c" {
        flags |= input_flags::COMPARISON_SAMPLER;
    }
    let typed = matches!(
        input_type,
        InputType::Texture | InputType::UavRwTyped | InputType::Other(_)
    );
    // Structured and raw buffers: fxc records them as "mixed" buffers.
    let (mut return_type, mut dimension, mut num_samples) = (0, 0, 0);
    if typed {
        let (rt, components) = texture_format(l, format)?;
        return_type = rt;
        flags |= (components - 1) << 2;
        let (d, samples) = texture_dimension(l, dim)?;
        dimension = d;
        num_samples = samples;
    } else if !matches!(
        input_type,
        InputType::CBuffer | InputType::TBuffer | InputType::Sampler
    ) {
        return_type = 6;
        dimension = 1;
    }
    let bind_count = if count == "unbounded" {
        0
    } else {
        number(l, count)?
    };
    let (bind_point, space) = match columns {
        BindColumns::SlotElements => (number(l, bind)?, None),
        _ => hlsl_bind(l, bind)?,
    };
    let id = match id {
        Some(tok) => {
            let digits = tok.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            Some(number(l, digits).map_err(|_| l.err(tok, "expected a range ID like T0 or CB1"))?)
        }
        None => None,
    };
    Ok(ResourceBinding {
        name: name.to_string(),
        input_type,
        return_type,
        dimension,
        num_samples,
        bind_point,
        bind_count,
        flags,
        space,
        id,
    })
}

/// "t3" or "cb0,space2" → (3, None) / (0, Some(2)).
fn hlsl_bind(l: &Line, tok: &str) -> AsmResult<(u32, Option<u32>)> {
    let (reg, space) = match tok.split_once(",space") {
        Some((reg, space)) => (reg, Some(number(l, space)?)),
        None => (tok, None),
    };
    let digits = reg.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    if digits.len() == reg.len() {
        return Err(l.err(tok, "expected a register like t0 or cb1"));
    }
    Ok((number(l, digits)?, space))
}

/// "float4" → (5, 4); "NA" → (0, 1); "continued" → (8, 1).
fn texture_format(l: &Line, format: &str) -> AsmResult<(u32, u32)> {
    match format {
        "NA" => return Ok((0, 1)),
        "continued" => return Ok((8, 1)),
        _ => {}
    }
    const NAMES: [&str; 7] = ["unorm", "snorm", "sint", "uint", "float", "mixed", "double"];
    for (i, name) in NAMES.iter().enumerate() {
        if let Some(rest) = format.strip_prefix(name) {
            let components = match rest {
                "" => 1,
                "2" => 2,
                "3" => 3,
                "4" => 4,
                _ => continue,
            };
            return Ok((i as u32 + 1, components));
        }
    }
    Err(l.err(format, "expected a resource format such as float4 or uint"))
}

/// "2d" → (4, MAX); "2dMS4" → (6, 4). Non-MS textures store no sample
/// count (u32::MAX, as fxc writes).
fn texture_dimension(l: &Line, dim: &str) -> AsmResult<(u32, u32)> {
    let plain = match dim {
        "NA" => Some(0),
        "buf" => Some(1),
        "1d" => Some(2),
        "1darray" => Some(3),
        "2d" => Some(4),
        "2darray" => Some(5),
        "3d" => Some(8),
        "cube" => Some(9),
        "cubearray" => Some(10),
        _ => None,
    };
    if let Some(d) = plain {
        return Ok((d, u32::MAX));
    }
    for (prefix, d) in [("2darrayMS", 7), ("2dMS", 6)] {
        if let Some(n) = dim.strip_prefix(prefix) {
            let samples = if n.is_empty() { 0 } else { number(l, n)? };
            return Ok((d, samples));
        }
    }
    Err(l.err(dim, "expected a resource dimension such as 2d or cube"))
}
