//! One instruction or declaration line → [`Instruction`]: the inverse of
//! `disasm::format_instruction`. Mnemonics are found in the opcode table by
//! longest prefix; what follows (`_sat`, `_nz`, `_aoffimmi`, `_indexable`,
//! `[precise]`, parenthesised groups, `_uint`) sets controls and extended
//! opcode tokens exactly as fxc encodes them.

use super::error::AsmResult;
use super::operand::{Pos, Role, parse_number, parse_operand, split_top_level};
use crate::dxbc::ir::*;
use crate::dxbc::opcodes::{self, NumType, OPCODES, Op, OpInfo};

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

pub(super) fn dim_number(name: &str) -> Option<u32> {
    DIMS.iter().position(|d| *d == name).map(|d| d as u32)
}

pub(super) fn blank(info: &OpInfo) -> Instruction {
    Instruction {
        op: info.op,
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
pub(super) struct Head<'a> {
    pub(super) word: &'a str,
    pub(super) precise: Option<&'a str>,
    pub(super) groups: Vec<&'a str>,
    /// Text glued after the groups (`_uint` for resinfo).
    pub(super) after: &'a str,
    /// The rest of the line: operands.
    pub(super) rest: &'a str,
    pub(super) rest_col: usize,
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

pub(super) fn return_types(group: &str, pos: Pos) -> AsmResult<[ReturnType; 4]> {
    let names: Vec<&str> = group.split(',').map(str::trim).collect();
    if names.len() != 4 {
        return Err(pos.err(group, "expected four return types"));
    }
    let mut t = [ReturnType::from_code(0); 4];
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
        t[i] = ReturnType::from_code(v as u8);
    }
    Ok(t)
}

pub(super) fn parse_u32(text: &str, pos: Pos) -> AsmResult<u32> {
    text.trim()
        .parse::<u32>()
        .map_err(|_| pos.err(text.trim(), "expected an unsigned integer"))
}

/// Operands of the line, parsed with their roles from the opcode table.
pub(super) fn operands(
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
        let mut inst = blank(opcodes::lookup(Op::Customdata as u32).unwrap_or(&OPCODES[53]));
        inst.custom = Some(Box::new(CustomData::Comment(Vec::new())));
        return Ok(inst);
    }
    if let Some(flags) = word.strip_prefix("sync") {
        let info = &OPCODES[Op::Sync as usize];
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
        ("dcl_resource_", Op::DclResource),
        ("dcl_uav_typed_", Op::DclUavTyped),
    ] {
        if let Some(rest) = word.strip_prefix(prefix) {
            let (dim_name, flags) = match rest.find("_glc").or_else(|| rest.find("_rov")) {
                Some(p) => (&rest[..p], &rest[p..]),
                None => (rest, ""),
            };
            if let Some(dim) = dim_number(dim_name) {
                return super::decl::typed_resource_decl(opcode, dim, flags, &head, pos);
            }
        }
    }

    let (info, mut suffix) =
        lookup_prefix(word).ok_or_else(|| pos.err(word, "unknown instruction"))?;
    let mut inst = blank(info);

    if info.layout == opcodes::Layout::Decl || info.op == Op::InterfaceCall {
        return super::decl::declaration(inst, suffix, &head, pos);
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
    match info.op {
        Op::Resinfo => {
            if take("_uint") {
                inst.controls |= 2 << 11;
            } else if take("_rcpfloat") || take("_rcpFloat") {
                inst.controls |= 1 << 11;
            }
        }
        Op::SampleInfo if take("_uint") => inst.controls |= 1 << 11,
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
        inst.extended.push(ExtendedOpcode::ResourceDimension {
            dim: ResourceDimension::from_code(dim as u8),
            stride,
            raw: 2 | (dim << 6) | ((stride & 0xfff) << 11),
        });
        if let Some(t) = groups.next() {
            let types = return_types(t, pos)?;
            let packed = (types.iter().enumerate())
                .fold(0, |w, (i, r)| w | ((r.code() as u32 & 0xf) << (6 + 4 * i)));
            inst.extended.push(ExtendedOpcode::ReturnType {
                types,
                raw: 3 | packed,
            });
        }
    }
    if let Some(extra) = groups.next() {
        return Err(pos.err(extra, "unexpected parenthesised group"));
    }
    match (info.op, head.after) {
        (_, "") => {}
        (Op::Resinfo, "_uint") => inst.controls |= 2 << 11,
        (Op::Resinfo, "_rcpfloat" | "_rcpFloat") => inst.controls |= 1 << 11,
        (Op::SampleInfo, "_uint") => inst.controls |= 1 << 11,
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
            NumType::Untyped,
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
    let mut inst = blank(&OPCODES[Op::Customdata as usize]);
    inst.controls = 4 << 11;
    inst.custom = Some(Box::new(CustomData::ShaderMessage {
        id,
        format: 1,
        text: text.to_string(),
        operands,
        raw,
    }));
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
            data.push(parse_number(v, NumType::Untyped, 0, pos)?);
        }
    }
    let mut inst = blank(&OPCODES[Op::Customdata as usize]);
    inst.controls = 3 << 11;
    inst.custom = Some(Box::new(CustomData::ImmediateConstantBuffer(data)));
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
            "dcl_input_ps_sgv constant v3.z, primitive_id",
            "dcl_input_ps_sgv undefined v3.z, primitive_id",
            "dcl_input_ps_sgv linear v3.z, primitive_id",
            "dcl_input_ps v1.x",
            "dcl_input_ps interpolation_9 v1.x",
            "dadd r0.xy, r0.zwzw, d(1.000000l, -0.500000l)",
            "dmul r0.zw, r0.zwzw, d(2.000000l)",
            "mad r2.xyzw {min16f}, |r2.xyzw {min16f}|, -r1.xyzw {min2_8f}, -|r3.xyzw {min16f}|",
            "iadd r0.x {min16i}, -r1.x {min16i}, |r1.y {min16u}|",
            "mov r0.x, -|r1.x {min16u} {nonuniform}|",
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
    fn sgv_interpolation_follows_the_style() {
        // Releases before d3dcompiler_47 leave `constant` out; both forms
        // read as constant.
        let old = Style {
            sgv_interpolation: false,
            ..Style::default()
        };
        for line in [
            "dcl_input_ps_sgv v3.z, primitive_id",
            "dcl_input_ps_sgv constant v3.z, primitive_id",
        ] {
            let inst = parse_instruction(line, 1, 1).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(inst.interpolation(), Some(Interpolation::Constant));
            assert_eq!(
                format_instruction(&inst, old),
                "dcl_input_ps_sgv v3.z, primitive_id"
            );
        }
        // Other modes print in either style, since a bare line means constant.
        let inst = parse_instruction("dcl_input_ps_sgv linear v3.z, primitive_id", 1, 1).unwrap();
        assert_eq!(
            format_instruction(&inst, old),
            "dcl_input_ps_sgv linear v3.z, primitive_id"
        );
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
