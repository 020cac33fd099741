//! One instruction or declaration line → [`Instruction`]: the inverse of
//! `disasm::format_instruction`. Mnemonics are found in the opcode table by
//! longest prefix; what follows (`_sat`, `_nz`, `_aoffimmi`, `_indexable`,
//! `[precise]`, parenthesised groups, `_uint`) sets controls and extended
//! opcode tokens exactly as fxc encodes them.

use super::error::AsmResult;
use super::operand::{Pos, Role, parse_number, parse_operand, split_top_level};
use crate::dxbc::disasm::{
    GLOBAL_FLAGS, interpolation_name, primitive_name, system_value_name, topology_name,
};
use crate::dxbc::ir::*;
use crate::dxbc::opcodes::{self, ImmKind, OPCODES, OpInfo, code};

const DIMS: [&str; 13] = [
    "unknown",
    "buffer",
    "texture1d",
    "texture2d",
    "texture2dms",
    "texture3d",
    "texturecube",
    "texture1darray",
    "texture2darray",
    "texture2dmsarray",
    "texturecubearray",
    "raw_buffer",
    "structured_buffer",
];

const RETURN_TYPES: [&str; 10] = [
    "",
    "unorm",
    "snorm",
    "sint",
    "uint",
    "float",
    "mixed",
    "double",
    "continued",
    "unused",
];

fn dim_number(name: &str) -> Option<u32> {
    DIMS.iter().position(|d| *d == name).map(|d| d as u32)
}

fn blank(info: &OpInfo) -> Instruction {
    Instruction {
        opcode: info.code,
        controls: 0,
        extended: Vec::new(),
        operands: Operands::new(),
        decl: DeclKind::Plain,
        custom: None,
        trailing: Vec::new(),
        offset: 0,
        length: 0,
    }
}

/// The longest table mnemonic that `word` starts with, at a `_` boundary.
fn lookup_prefix(word: &str) -> Option<(&'static OpInfo, &str)> {
    OPCODES
        .iter()
        .filter(|o| {
            word.starts_with(o.name)
                && (word.len() == o.name.len() || word.as_bytes()[o.name.len()] == b'_')
        })
        .max_by_key(|o| o.name.len())
        .map(|o| (o, &word[o.name.len()..]))
}

/// A parsed instruction head: mnemonic word, bracket and paren groups.
struct Head<'a> {
    word: &'a str,
    precise: Option<&'a str>,
    groups: Vec<&'a str>,
    /// Text glued after the groups (`_uint` for resinfo).
    after: &'a str,
    /// The rest of the line: operands.
    rest: &'a str,
    rest_col: usize,
}

fn split_head(line: &str, pos: Pos) -> AsmResult<Head<'_>> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b'(') {
        i += 1;
    }
    let word = &line[..i];
    let mut precise = None;
    let mut j = i;
    // `[precise...]` after a space.
    let after_ws = line[j..].trim_start();
    if after_ws.starts_with("[precise") {
        let start = line.len() - after_ws.len();
        let close = line[start..]
            .find(']')
            .map(|c| start + c)
            .ok_or_else(|| pos.err(&line[start..], "missing `]` after `[precise`"))?;
        precise = Some(&line[start + 1..close]);
        j = close + 1;
    }
    let mut groups = Vec::new();
    while j < bytes.len() && bytes[j] == b'(' {
        let close = line[j..]
            .find(')')
            .map(|c| j + c)
            .ok_or_else(|| pos.err(&line[j..], "missing `)`"))?;
        groups.push(&line[j + 1..close]);
        j = close + 1;
    }
    let k = line[j..]
        .find([' ', '\t'])
        .map(|c| j + c)
        .unwrap_or(line.len());
    let after = &line[j..k];
    let rest = line[k..].trim_start();
    Ok(Head {
        word,
        precise,
        groups,
        after,
        rest,
        rest_col: pos.column + (line.len() - rest.len()),
    })
}

fn mask_bits(text: &str, pos: Pos) -> AsmResult<u8> {
    let mut m = 0;
    for c in text.chars() {
        m |= match c {
            'x' => 1,
            'y' => 2,
            'z' => 4,
            'w' => 8,
            _ => return Err(pos.err(text, "expected a component mask")),
        };
    }
    Ok(m)
}

fn return_types(group: &str, pos: Pos) -> AsmResult<[ReturnType; 4]> {
    let names: Vec<&str> = group.split(',').map(str::trim).collect();
    if names.len() != 4 {
        return Err(pos.err(group, "expected four return types"));
    }
    let mut t = [ReturnType(0); 4];
    for (i, n) in names.iter().enumerate() {
        let v = RETURN_TYPES
            .iter()
            .position(|r| !r.is_empty() && r == n)
            .ok_or_else(|| {
                pos.err(
                    n,
                    "expected a return type (float, uint, sint, unorm, snorm, mixed, …)",
                )
            })?;
        t[i] = ReturnType(v as u8);
    }
    Ok(t)
}

fn parse_u32(text: &str, pos: Pos) -> AsmResult<u32> {
    text.trim()
        .parse::<u32>()
        .map_err(|_| pos.err(text.trim(), "expected an unsigned integer"))
}

/// Operands of the line, parsed with their roles from the opcode table.
fn operands(
    inst: &mut Instruction,
    rest: &str,
    rest_col: usize,
    pos: Pos,
    decl: bool,
) -> AsmResult<()> {
    if rest.is_empty() {
        return Ok(());
    }
    let info = inst.info();
    for (i, (off, text)) in split_top_level(rest).into_iter().enumerate() {
        let p = Pos {
            line: pos.line,
            column: rest_col + off,
        };
        if text.is_empty() {
            return Err(p.err(rest, "expected an operand"));
        }
        let role = if decl {
            Role::Decl
        } else if i < info.dst as usize {
            Role::Dst
        } else {
            Role::Src
        };
        inst.operands
            .push(parse_operand(text, role, info.imm_kind(i), decl, p)?);
    }
    Ok(())
}

/// Parses one instruction line (comments already removed, no leading
/// indentation). `column` is where the line's text starts.
pub fn parse_instruction(line: &str, line_no: usize, column: usize) -> AsmResult<Instruction> {
    let pos = Pos {
        line: line_no,
        column,
    };
    let head = split_head(line, pos)?;
    let word = head.word;

    if word == "printf" || word == "errorf" {
        return shader_message(word, head.rest, head.rest_col, pos);
    }
    if word == "undecipherable" {
        // fxc prints this for customdata it cannot show; the payload is gone.
        let mut inst = blank(opcodes::lookup(code::CUSTOMDATA as u32).unwrap_or(&OPCODES[53]));
        inst.custom = Some(CustomData::Comment(Vec::new()));
        return Ok(inst);
    }
    if let Some(flags) = word.strip_prefix("sync") {
        let info = &OPCODES[code::SYNC as usize];
        let mut inst = blank(info);
        let mut rest = flags;
        for (suffix, bit) in [
            ("_sat", 1 << 13),
            ("_uglobal", 1 << 14),
            ("_ugroup", 1 << 13),
            ("_g", 1 << 12),
            ("_t", 1 << 11),
        ] {
            if let Some(r) = rest.strip_prefix(suffix) {
                inst.controls |= bit;
                rest = r;
            }
        }
        if !rest.is_empty() {
            return Err(pos.err(word, "unknown sync flags"));
        }
        return Ok(inst);
    }

    // Declarations whose mnemonic carries a dimension.
    for (prefix, opcode) in [
        ("dcl_resource_", code::DCL_RESOURCE),
        ("dcl_uav_typed_", code::DCL_UAV_TYPED),
    ] {
        if let Some(rest) = word.strip_prefix(prefix) {
            let (dim_name, flags) = match rest.find("_glc").or_else(|| rest.find("_rov")) {
                Some(p) => (&rest[..p], &rest[p..]),
                None => (rest, ""),
            };
            if let Some(dim) = dim_number(dim_name) {
                return typed_resource_decl(opcode, dim, flags, &head, pos);
            }
        }
    }

    let (info, mut suffix) =
        lookup_prefix(word).ok_or_else(|| pos.err(word, "unknown instruction"))?;
    let mut inst = blank(info);

    if info.layout == opcodes::Layout::Decl || info.code == code::INTERFACE_CALL {
        return declaration(inst, suffix, &head, pos);
    }

    // Suffixes in the order fxc writes them.
    let mut take = |s: &str| -> bool {
        match suffix.strip_prefix(s) {
            Some(r) if r.is_empty() || r.starts_with('_') => {
                suffix = r;
                true
            }
            _ => false,
        }
    };
    if take("_sat") {
        inst.controls |= 1 << 13;
    }
    if info.test {
        if take("_nz") {
            inst.controls |= 1 << 18;
        } else if !take("_z") {
            return Err(pos.err(word, "expected `_z` or `_nz`"));
        }
    }
    let offsets = take("_aoffimmi");
    let indexable = take("_indexable");
    match info.code {
        code::RESINFO => {
            if take("_uint") {
                inst.controls |= 2 << 11;
            } else if take("_rcpfloat") || take("_rcpFloat") {
                inst.controls |= 1 << 11;
            }
        }
        code::SAMPLE_INFO => {
            if take("_uint") {
                inst.controls |= 1 << 11;
            }
        }
        _ => {}
    }
    if !suffix.is_empty() {
        return Err(pos.err(
            word,
            format!("unknown suffix `{suffix}` for `{}`", info.name),
        ));
    }
    if let Some(p) = head.precise {
        let mask = match p.strip_prefix("precise") {
            Some("") => 0xf,
            Some(m) => mask_bits(m.trim_start_matches('(').trim_end_matches(')'), pos)?,
            None => return Err(pos.err(p, "expected `[precise]` or `[precise(mask)]`")),
        };
        inst.controls |= (mask as u32) << 19;
    }

    let mut groups = head.groups.iter();
    if offsets {
        let g = groups
            .next()
            .ok_or_else(|| pos.err(word, "`_aoffimmi` needs `(u,v,w)`"))?;
        let vals: Vec<&str> = g.split(',').collect();
        if vals.len() != 3 {
            return Err(pos.err(g, "expected three offsets (u,v,w)"));
        }
        let mut raw = 1u32;
        let mut offs = [0i8; 3];
        for (i, v) in vals.iter().enumerate() {
            let n: i32 = v
                .trim()
                .parse()
                .map_err(|_| pos.err(v, "expected an offset"))?;
            if !(-8..=7).contains(&n) {
                return Err(pos.err(v, "immediate offsets lie in [-8, 7]"));
            }
            offs[i] = n as i8;
            raw |= ((n as u32) & 0xf) << (9 + 4 * i);
        }
        inst.extended
            .push(ExtendedOpcode::SampleControls { offsets: offs, raw });
    }
    if indexable {
        let g = groups
            .next()
            .ok_or_else(|| pos.err(word, "`_indexable` needs a resource dimension"))?;
        let (dim_name, stride) = match g.split_once(',') {
            Some((d, s)) => {
                let s = s
                    .trim()
                    .strip_prefix("stride=")
                    .ok_or_else(|| pos.err(s, "expected `stride=N`"))?;
                (d.trim(), parse_u32(s, pos)?)
            }
            None => (g.trim(), 0),
        };
        let dim =
            dim_number(dim_name).ok_or_else(|| pos.err(dim_name, "unknown resource dimension"))?;
        inst.extended.push(ExtendedOpcode::ResourceDim {
            dim: ResourceDim(dim as u8),
            stride,
            raw: 2 | (dim << 6) | ((stride & 0xfff) << 11),
        });
        if let Some(t) = groups.next() {
            let types = return_types(t, pos)?;
            let packed = (types.iter().enumerate())
                .fold(0, |w, (i, r)| w | ((r.0 as u32 & 0xf) << (6 + 4 * i)));
            inst.extended.push(ExtendedOpcode::ReturnType {
                types,
                raw: 3 | packed,
            });
        }
    }
    if let Some(extra) = groups.next() {
        return Err(pos.err(extra, "unexpected parenthesised group"));
    }
    match (info.code, head.after) {
        (_, "") => {}
        (code::RESINFO, "_uint") => inst.controls |= 2 << 11,
        (code::RESINFO, "_rcpfloat" | "_rcpFloat") => inst.controls |= 1 << 11,
        (code::SAMPLE_INFO, "_uint") => inst.controls |= 1 << 11,
        (_, other) => return Err(pos.err(other, "unexpected text after the instruction name")),
    }
    operands(&mut inst, head.rest, head.rest_col, pos, false)?;
    let n = inst.operands.len();
    if n != info.operand_count() {
        return Err(pos.err(
            line,
            format!(
                "`{}` takes {} operands, found {n}",
                info.name,
                info.operand_count()
            ),
        ));
    }
    Ok(inst)
}

fn typed_resource_decl(
    opcode: u16,
    dim: u32,
    flags: &str,
    head: &Head,
    pos: Pos,
) -> AsmResult<Instruction> {
    let info = &OPCODES[opcode as usize];
    let mut inst = blank(info);
    inst.controls = dim << 11;
    match flags {
        "" => {}
        "_glc" => inst.controls |= 1 << 16,
        "_rov" => inst.controls |= 1 << 17,
        "_glc_rov" => inst.controls |= 3 << 16,
        f => return Err(pos.err(f, "unknown UAV flag")),
    }
    let mut groups = head.groups.iter();
    if dim == 4 || dim == 9 {
        let samples = groups.next().ok_or_else(|| {
            pos.err(
                head.word,
                "multisampled resources need a sample count `(N)`",
            )
        })?;
        inst.controls |= (parse_u32(samples, pos)? & 0x7f) << 16;
    }
    // The return types follow after a space: `(float,float,float,float) t0`.
    let rest = head.rest;
    let (types, after) = if let Some(r) = rest.strip_prefix('(') {
        let close = r.find(')').ok_or_else(|| pos.err(rest, "missing `)`"))?;
        (return_types(&r[..close], pos)?, r[close + 1..].trim_start())
    } else {
        return Err(pos.err(
            rest,
            "expected return types such as (float,float,float,float)",
        ));
    };
    inst.decl = DeclKind::ReturnTypes(types);
    let col = head.rest_col + (rest.len() - after.len());
    sm51_or_operand(&mut inst, after, col, pos)?;
    Ok(inst)
}

/// The declared register, with the SM5.1 `, space=N` (and constant-buffer
/// size) payload when present.
fn sm51_or_operand(
    inst: &mut Instruction,
    text: &str,
    col: usize,
    pos: Pos,
) -> AsmResult<Vec<String>> {
    let parts = split_top_level(text);
    let Some(&(off, reg)) = parts.first() else {
        return Err(pos.err(text, "expected a register"));
    };
    let p = Pos {
        line: pos.line,
        column: col + off,
    };
    let mut rest: Vec<String> = parts[1..].iter().map(|(_, s)| s.to_string()).collect();
    let mut op = parse_operand(reg, Role::Decl, ImmKind::Uint, true, p)?;
    let sm51 = reg.contains(':');
    if sm51 {
        // SM5.1 range declarations carry a full swizzle whatever the file.
        op.components = Components::Four;
        op.selection = Selection::Swizzle([0, 1, 2, 3]);
    }
    if sm51 && op.indices.len() == 4 {
        // `CB0[0:0][size]`: the size is payload, not an index.
        if let Some(Index::Imm32(size)) = op.indices.pop() {
            inst.trailing.push(size);
        }
    }
    inst.operands.push(op);
    if sm51 {
        if let Some(space) = rest.last().and_then(|s| s.strip_prefix("space=")) {
            let space = parse_u32(space, pos)?;
            rest.pop();
            inst.trailing.push(space);
        }
    }
    if !sm51 && rest.iter().any(|r| r.starts_with("space=")) {
        return Err(pos.err(text, "`space=` needs an SM5.1 register range"));
    }
    Ok(rest)
}

fn declaration(
    mut inst: Instruction,
    suffix: &str,
    head: &Head,
    pos: Pos,
) -> AsmResult<Instruction> {
    let info = inst.info();
    let rest = head.rest;
    let col = head.rest_col;
    let expect_empty = |s: &str| -> AsmResult<()> {
        if s.is_empty() {
            Ok(())
        } else {
            Err(pos.err(s, format!("unknown suffix for `{}`", info.name)))
        }
    };
    let int = |s: &str| parse_u32(s, pos);
    match info.code {
        code::DCL_RESOURCE | code::DCL_UAV_TYPED => {
            return Err(pos.err(
                head.word,
                format!(
                    "expected `{}_<dimension>` such as `{}_texture2d`",
                    info.name, info.name
                ),
            ));
        }
        code::DCL_GLOBAL_FLAGS => {
            expect_empty(suffix)?;
            for flag in rest.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                let bit = GLOBAL_FLAGS
                    .iter()
                    .find(|(_, n)| *n == flag)
                    .map(|(b, _)| *b)
                    .or_else(|| {
                        flag.strip_prefix("0x")
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                    })
                    .ok_or_else(|| pos.err(flag, "unknown global flag"))?;
                inst.controls |= bit;
            }
        }
        code::DCL_CONSTANT_BUFFER => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            let mut leftover = leftover.into_iter();
            let access = leftover.next().unwrap_or_default();
            match access.as_str() {
                "immediateIndexed" => {}
                "dynamicIndexed" => inst.controls |= 1 << 11,
                other => return Err(pos.err(other, "expected immediateIndexed or dynamicIndexed")),
            }
            // Constant buffers are declared with a four-component operand.
            let op = &mut inst.operands[0];
            op.components = Components::Four;
            op.selection = Selection::Swizzle([0, 1, 2, 3]);
        }
        code::DCL_SAMPLER => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            let mode = leftover.first().map(String::as_str).unwrap_or("");
            inst.controls |= match mode {
                "mode_default" => 0,
                "mode_comparison" => 1,
                "mode_mono" => 2,
                m => return Err(pos.err(m, "expected mode_default, mode_comparison or mode_mono")),
            } << 11;
        }
        code::DCL_RESOURCE_RAW | code::DCL_UAV_RAW | code::DCL_STREAM => {
            uav_flags(&mut inst, suffix, pos)?;
            sm51_or_operand(&mut inst, rest, col, pos)?;
        }
        code::DCL_RESOURCE_STRUCTURED | code::DCL_UAV_STRUCTURED | code::DCL_TGSM_RAW => {
            let mut s = suffix;
            if let Some(r) = s.strip_suffix("_opc") {
                inst.controls |= 1 << 23;
                s = r;
            }
            uav_flags(&mut inst, s, pos)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            let n = leftover
                .first()
                .ok_or_else(|| pos.err(rest, "expected a size"))?;
            inst.decl = DeclKind::Count(int(n)?);
        }
        code::DCL_TGSM_STRUCTURED => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            if leftover.len() != 2 {
                return Err(pos.err(rest, "expected `gN, stride, count`"));
            }
            inst.decl = DeclKind::Pair(int(&leftover[0])?, int(&leftover[1])?);
        }
        code::DCL_INPUT_PS | code::DCL_INPUT_PS_SIV | code::DCL_INPUT_PS_SGV => {
            expect_empty(suffix)?;
            // Interpolation words come before the register.
            let mut words = rest;
            let mut mode = 0;
            for m in (1..=7).rev() {
                let name = interpolation_name(m);
                if let Some(r) = words.strip_prefix(name) {
                    if r.starts_with([' ', '\t']) {
                        mode = m;
                        words = r.trim_start();
                        break;
                    }
                }
            }
            if mode == 0 && inst.opcode == code::DCL_INPUT_PS_SGV {
                // fxc does not print it, but encodes system-generated pixel
                // inputs as constant-interpolated.
                mode = 1;
            }
            inst.controls |= mode << 11;
            let c = col + (rest.len() - words.len());
            let leftover = sm51_or_operand(&mut inst, words, c, pos)?;
            system_value(&mut inst, &leftover, pos)?;
        }
        code::DCL_INPUT
        | code::DCL_OUTPUT
        | code::DCL_INPUT_SGV
        | code::DCL_INPUT_SIV
        | code::DCL_OUTPUT_SGV
        | code::DCL_OUTPUT_SIV => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            system_value(&mut inst, &leftover, pos)?;
        }
        code::DCL_INDEX_RANGE => {
            expect_empty(suffix)?;
            let (reg, n) = rest
                .rsplit_once([' ', '\t'])
                .ok_or_else(|| pos.err(rest, "expected `register count`"))?;
            sm51_or_operand(&mut inst, reg.trim(), col, pos)?;
            inst.decl = DeclKind::Count(int(n)?);
        }
        code::DCL_TEMPS
        | code::DCL_MAX_OUTPUT_VERTEX_COUNT
        | code::DCL_HS_FORK_PHASE_INSTANCE_COUNT
        | code::DCL_HS_JOIN_PHASE_INSTANCE_COUNT
        | code::DCL_GS_INSTANCE_COUNT => {
            expect_empty(suffix)?;
            inst.decl = DeclKind::Count(int(rest)?);
        }
        code::DCL_FUNCTION_BODY => {
            expect_empty(suffix)?;
            let n = rest
                .strip_prefix("fb")
                .ok_or_else(|| pos.err(rest, "expected fbN"))?;
            inst.decl = DeclKind::Count(int(n)?);
        }
        code::DCL_HS_MAX_TESSFACTOR => {
            expect_empty(suffix)?;
            let v = rest
                .strip_prefix("l(")
                .and_then(|r| r.strip_suffix(')'))
                .ok_or_else(|| pos.err(rest, "expected l(value)"))?;
            inst.decl = DeclKind::Count(parse_number(v, ImmKind::Float, 0, pos)?);
        }
        code::DCL_INDEXABLE_TEMP => {
            expect_empty(suffix)?;
            let parts = split_top_level(rest);
            let (reg, comps) = match parts.as_slice() {
                [(_, r), (_, c)] => (*r, *c),
                _ => return Err(pos.err(rest, "expected `xN[size], components`")),
            };
            let r = reg
                .strip_prefix('x')
                .ok_or_else(|| pos.err(reg, "expected xN[size]"))?;
            let (n, size) = r
                .split_once('[')
                .and_then(|(n, s)| s.strip_suffix(']').map(|s| (n, s)))
                .ok_or_else(|| pos.err(reg, "expected xN[size]"))?;
            inst.decl = DeclKind::IndexableTemp {
                reg: int(n)?,
                size: int(size)?,
                components: int(comps)?,
            };
        }
        code::DCL_THREAD_GROUP => {
            expect_empty(suffix)?;
            let v: Vec<&str> = rest.split(',').collect();
            if v.len() != 3 {
                return Err(pos.err(rest, "expected `x, y, z`"));
            }
            inst.decl = DeclKind::ThreadGroup([int(v[0])?, int(v[1])?, int(v[2])?]);
        }
        code::DCL_FUNCTION_TABLE => {
            expect_empty(suffix)?;
            let (t, list) = rest
                .split_once('=')
                .ok_or_else(|| pos.err(rest, "expected `ftN = {fb...}`"))?;
            let table = int(t
                .trim()
                .strip_prefix("ft")
                .ok_or_else(|| pos.err(t, "expected ftN"))?)?;
            let bodies = brace_list(list, "fb", pos)?;
            inst.decl = DeclKind::FunctionTable { table, bodies };
        }
        code::DCL_INTERFACE => {
            match suffix {
                "" => {}
                "_dynamicindexed" => inst.controls |= 1 << 11,
                s => return Err(pos.err(s, "unknown suffix for dcl_interface")),
            }
            let (head_text, list) = rest
                .split_once('=')
                .ok_or_else(|| pos.err(rest, "expected `fpN[a][b] = {ft...}`"))?;
            let h = head_text
                .trim()
                .strip_prefix("fp")
                .ok_or_else(|| pos.err(head_text, "expected fpN"))?;
            let nums: Vec<&str> = h.split(['[', ']']).filter(|s| !s.is_empty()).collect();
            if nums.len() != 3 {
                return Err(pos.err(head_text, "expected fpN[array][calls]"));
            }
            inst.decl = DeclKind::Interface {
                index: int(nums[0])?,
                array_length: int(nums[1])?,
                table_length: int(nums[2])?,
                tables: brace_list(list, "ft", pos)?,
            };
        }
        code::INTERFACE_CALL => {
            expect_empty(suffix)?;
            let mut op = parse_operand(
                rest,
                Role::Src,
                ImmKind::Uint,
                false,
                Pos {
                    line: pos.line,
                    column: col,
                },
            )?;
            let function = match op.indices.pop() {
                Some(Index::Imm32(f)) => f,
                _ => return Err(pos.err(rest, "expected fpN[i][function]")),
            };
            inst.operands.push(op);
            inst.decl = DeclKind::InterfaceCall { function };
        }
        code::DCL_GS_INPUT_PRIMITIVE => {
            expect_empty(suffix)?;
            let v = (0..64)
                .find(|&v| primitive_name(v) == rest)
                .ok_or_else(|| pos.err(rest, "unknown input primitive"))?;
            inst.controls |= v << 11;
        }
        code::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
            expect_empty(suffix)?;
            let v = (0..128)
                .find(|&v| topology_name(v) == rest)
                .ok_or_else(|| pos.err(rest, "unknown output topology"))?;
            inst.controls |= v << 11;
        }
        code::DCL_INPUT_CONTROL_POINT_COUNT | code::DCL_OUTPUT_CONTROL_POINT_COUNT => {
            expect_empty(suffix)?;
            inst.controls |= (int(rest)? & 0x3f) << 11;
        }
        code::DCL_TESS_DOMAIN | code::DCL_TESS_PARTITIONING | code::DCL_TESS_OUTPUT_PRIMITIVE => {
            expect_empty(suffix)?;
            let names: &[&str] = match info.code {
                code::DCL_TESS_DOMAIN => &[
                    "domain_undefined",
                    "domain_isoline",
                    "domain_tri",
                    "domain_quad",
                ],
                code::DCL_TESS_PARTITIONING => &[
                    "partitioning_undefined",
                    "partitioning_integer",
                    "partitioning_pow2",
                    "partitioning_fractional_odd",
                    "partitioning_fractional_even",
                ],
                _ => &[
                    "output_undefined",
                    "output_point",
                    "output_line",
                    "output_triangle_cw",
                    "output_triangle_ccw",
                ],
            };
            let v = names
                .iter()
                .position(|n| *n == rest)
                .ok_or_else(|| pos.err(rest, "unknown tessellator setting"))?;
            inst.controls |= (v as u32) << 11;
        }
        _ => {
            expect_empty(suffix)?;
            if !rest.is_empty() {
                operands(&mut inst, rest, col, pos, true)?;
            }
        }
    }
    Ok(inst)
}

fn uav_flags(inst: &mut Instruction, suffix: &str, pos: Pos) -> AsmResult<()> {
    match suffix {
        "" => {}
        "_glc" => inst.controls |= 1 << 16,
        "_rov" => inst.controls |= 1 << 17,
        "_glc_rov" => inst.controls |= 3 << 16,
        s => return Err(pos.err(s, "unknown declaration suffix")),
    }
    Ok(())
}

fn system_value(inst: &mut Instruction, leftover: &[String], pos: Pos) -> AsmResult<()> {
    let takes = matches!(
        inst.opcode,
        code::DCL_INPUT_SGV
            | code::DCL_INPUT_SIV
            | code::DCL_INPUT_PS_SGV
            | code::DCL_INPUT_PS_SIV
            | code::DCL_OUTPUT_SGV
            | code::DCL_OUTPUT_SIV
    );
    match (takes, leftover.first()) {
        (false, None) => Ok(()),
        (true, Some(name)) => {
            let v = (0..=22)
                .find(|&v| system_value_name(v) == *name)
                .or_else(|| {
                    name.strip_prefix("system_value_")
                        .and_then(|n| n.parse().ok())
                })
                .ok_or_else(|| pos.err(name, "unknown system value"))?;
            inst.decl = DeclKind::SystemValue(v);
            Ok(())
        }
        (true, None) => Err(pos.err(inst.name(), "expected `, system_value_name`")),
        (false, Some(extra)) => Err(pos.err(extra, "unexpected text after the register")),
    }
}

fn brace_list(text: &str, prefix: &str, pos: Pos) -> AsmResult<Vec<u32>> {
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| pos.err(text, "expected `{...}`"))?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.strip_prefix(prefix)
                .ok_or_else(|| pos.err(s, format!("expected {prefix}N")))
                .and_then(|n| parse_u32(n, pos))
        })
        .collect()
}

/// `printf "format", operands…` / `errorf …` as class-4 customdata, laid
/// out as fxc writes it: id, format kind, text length, operand count,
/// operand dwords, operand tokens, NUL-terminated text padded to dwords.
fn shader_message(word: &str, rest: &str, col: usize, pos: Pos) -> AsmResult<Instruction> {
    let parts = split_top_level(rest);
    let (_, text) = parts
        .first()
        .ok_or_else(|| pos.err(word, "expected a format string"))?;
    let text = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or_else(|| pos.err(text, "expected a quoted format string"))?;
    let mut operands = Vec::new();
    let mut tokens = Vec::new();
    for (off, t) in &parts[1..] {
        let op = parse_operand(
            t,
            Role::Src,
            ImmKind::Untyped,
            false,
            Pos {
                line: pos.line,
                column: col + off,
            },
        )?;
        crate::dxbc::encode::encode_operand(&op, &mut tokens);
        operands.push(op);
    }
    let id = if word == "printf" {
        0x0020_0102
    } else {
        0x0020_0103
    };
    let mut raw = vec![
        id,
        1,
        text.len() as u32,
        operands.len() as u32,
        tokens.len() as u32,
    ];
    raw.extend(tokens);
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    raw.extend(
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    let mut inst = blank(&OPCODES[code::CUSTOMDATA as usize]);
    inst.controls = 4 << 11;
    inst.custom = Some(CustomData::ShaderMessage {
        id,
        format: 1,
        text: text.to_string(),
        operands,
        raw,
    });
    Ok(inst)
}

/// Parses the body of `dcl_immediateConstantBuffer { {a, b, c, d}, … }`
/// (everything after the mnemonic, possibly spanning several lines joined
/// with spaces).
pub fn immediate_constant_buffer(body: &str, pos: Pos) -> AsmResult<Instruction> {
    let inner = body
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| pos.err(body.trim(), "expected `{ {...}, ... }`"))?;
    let mut data = Vec::new();
    for (_, row) in split_top_level(inner) {
        if row.is_empty() {
            continue;
        }
        let vals = row
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .ok_or_else(|| pos.err(row, "expected a row `{ a, b, c, d}`"))?;
        for v in vals.split(',') {
            // ICB values print with first-lane rules (no stray prefix).
            data.push(parse_number(v, ImmKind::Untyped, 0, pos)?);
        }
    }
    let mut inst = blank(&OPCODES[code::CUSTOMDATA as usize]);
    inst.controls = 3 << 11;
    inst.custom = Some(CustomData::ImmediateConstantBuffer(data));
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::disasm::{Style, format_instruction};

    fn round(line: &str) -> String {
        let inst = parse_instruction(line, 1, 1).unwrap_or_else(|e| panic!("{line}: {e}"));
        format_instruction(&inst, Style::default())
    }

    #[test]
    fn lines_round_trip_through_the_printer() {
        for line in [
            "sample_l_indexable [precise](texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)",
            "gather4_c_aoffimmi_indexable(1,-1,0)(texture2d)(float,float,float,float) r1.xyzw, v1.xyxx, t0.xyzw, s0.x, v1.z",
            "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.xyzw, l(0), l(32), t8.xyzw",
            "resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw",
            "add [precise(xyz)] r0.xyz, -cb0[44].xyzx, cb2[4].xyzx",
            "mov_sat o0.xyzw, -|cb2[r0.x + 3].xyzw|",
            "breakc_nz r0.y",
            "sync_sat_uglobal_g_t",
            "dcl_resource_texture2dms(4) (float,float,float,float) t0",
            "dcl_input_ps_siv linear noperspective centroid v0.xy, position",
            "dcl_input_ps_sgv v3.z, primitive_id",
            "dcl_constantbuffer cb0[129], dynamicIndexed",
            "dcl_indexableTemp x0[4], 4",
            "dcl_uav_structured_opc u0, 16",
            "dcl_interface_dynamicindexed fp3[3][1] = {ft6, ft7}",
            "fcall fp3[r0.x + 0][0]",
            "dcl_input vicp[32][0].y",
            "dcl_input_siv v[3][0].xyzw, position",
            "dcl_hs_max_tessfactor l(64.000000)",
            "dcl_tessellator_output_primitive output_triangle_cw",
            "printf \"%0 is not %1 fine!\", r10.z, r10.x",
            "imul null, r0.x, r0.y, l(3)",
            "mov r0.xyzw, l(1.000000,0,-1,0x7f800000)",
        ] {
            assert_eq!(round(line), line);
        }
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse_instruction("mull r0.x, r1.x, r2.x", 7, 3).unwrap_err();
        assert_eq!((e.line, e.column), (7, 3));
        let e = parse_instruction("add r0.x, r1.x", 2, 1).unwrap_err();
        assert!(e.message.contains("takes 3 operands"), "{e}");
        let e = parse_instruction("add r0.x, r1.x, q2", 2, 1).unwrap_err();
        assert_eq!(e.column, 17);
    }
}
