//! Operand text → [`Operand`]: registers with indices, swizzles and masks,
//! modifiers, precision tags and immediates. The inverse of
//! `disasm::format_operand`.

use super::error::{AsmError, AsmResult};
use crate::dxbc::ir::*;
use crate::dxbc::numfmt;
use crate::dxbc::opcodes::NumType;

/// Where in the source an operand's text starts, for error positions.
#[derive(Debug, Clone, Copy)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl Pos {
    pub fn err(self, found: &str, message: impl Into<String>) -> AsmError {
        AsmError::at(self.line, self.column, found, message)
    }
}

/// How the operand is used, which decides the encoding of its selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Written: components are a write mask.
    Dst,
    /// Read: one letter selects a component, four form a swizzle.
    Src,
    /// Declared: components are a mask; named registers carry no components.
    Decl,
}

/// Registers with fixed names, longest first so prefixes do not shadow them.
const NAMED: &[(&str, u8)] = &[
    ("vThreadIDInGroupFlattened", 36),
    ("vOutputControlPointID", 22),
    ("vThreadIDInGroup", 34),
    ("vForkInstanceID", 23),
    ("vJoinInstanceID", 24),
    ("vThreadGroupID", 33),
    ("vInnerCoverage", 42),
    ("vGSInstanceID", 37),
    ("vCycleCounter", 40),
    ("oStencilRef", 41),
    ("rasterizer", 14),
    ("vCoverage", 35),
    ("vThreadID", 32),
    ("oDepthGE", 38),
    ("oDepthLE", 39),
    ("vDomain", 28),
    ("oDepth", 12),
    ("vPrim", 11),
    ("oMask", 15),
    ("null", 13),
];

/// Indexed register files by prefix, longest first.
const INDEXED: &[(&str, u8)] = &[
    ("icb", 9),
    ("vicp", 25),
    ("vocp", 26),
    ("vpc", 27),
    ("this", 29),
    ("cb", 8),
    ("fb", 17),
    ("ft", 18),
    ("fp", 19),
    ("fi", 20),
    ("fo", 21),
    ("r", 0),
    ("v", 1),
    ("o", 2),
    ("x", 3),
    ("s", 6),
    ("t", 7),
    ("l", 10),
    ("m", 16),
    ("u", 30),
    ("g", 31),
];

/// Named registers that declarations encode without components; the others
/// (depth and coverage outputs, input coverage) are one-component even there.
fn decl_has_no_components(ty: u8) -> bool {
    matches!(ty, 11 | 13 | 15 | 22 | 23 | 24 | 36 | 37)
}

fn component(c: char) -> Option<u8> {
    match c {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// Splits `text` at top-level commas (outside brackets, parentheses, bars'
/// contents are flat so need no tracking, and quotes). Returns each piece
/// with its byte offset in `text`.
pub fn split_top_level(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push((start, &text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &text[start..]));
    out.into_iter()
        .map(|(o, s)| {
            let lead = s.len() - s.trim_start().len();
            (o + lead, s.trim())
        })
        .collect()
}

/// Parses one number of an immediate list.
///
/// `lane` and `untyped` undo the modern disassembler's stray prefix
/// (`00.0614556149`, `--0.229850411`) on typeless lanes after the first.
pub fn parse_number(text: &str, kind: NumType, lane: usize, pos: Pos) -> AsmResult<u32> {
    let mut t = text.trim();
    if kind == NumType::Untyped && lane > 0 {
        if let Some(rest) = t.strip_prefix("--") {
            t = &t[1..];
            let _ = rest;
        } else if t.len() > 1 && t.starts_with('0') && t.as_bytes()[1].is_ascii_digit() {
            t = &t[1..];
        }
    }
    let bad = || pos.err(text, "expected a number");
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).map_err(|_| bad());
    }
    if let Some(hex) = t.strip_prefix("-0x") {
        return u32::from_str_radix(hex, 16)
            .map(|v| v.wrapping_neg())
            .map_err(|_| bad());
    }
    let special = match t {
        "1.#INF00" | "inf" | "+inf" => Some(f32::INFINITY.to_bits()),
        "-1.#INF00" | "-inf" => Some(f32::NEG_INFINITY.to_bits()),
        "1.#QNAN0" | "nan" => Some(0x7fc0_0000),
        "-1.#IND00" | "-1.#QNAN0" | "-nan" => Some(0xffc0_0000),
        _ => None,
    };
    if let Some(bits) = special {
        return Ok(bits);
    }
    let is_float = t.contains(['.', 'e', 'E']);
    if is_float || kind == NumType::Float || kind == NumType::Double {
        if !is_float {
            // An integer written where a float is read means that value.
            let v: i64 = t.parse().map_err(|_| bad())?;
            return Ok((v as f32).to_bits());
        }
        return t.parse::<f32>().map(f32::to_bits).map_err(|_| bad());
    }
    if let Ok(v) = t.parse::<i64>() {
        if v < i32::MIN as i64 || v > u32::MAX as i64 {
            return Err(pos.err(text, "integer does not fit in 32 bits"));
        }
        return Ok(v as u32);
    }
    Err(bad())
}

fn parse_immediate(text: &str, kind: NumType, pos: Pos) -> AsmResult<Operand> {
    let (is64, body) = if let Some(b) = text.strip_prefix("l(") {
        (false, b)
    } else if let Some(b) = text.strip_prefix("d(") {
        (true, b)
    } else {
        return Err(pos.err(text, "expected an immediate `l(...)`"));
    };
    let body = body
        .strip_suffix(')')
        .ok_or_else(|| pos.err(text, "immediate is missing its closing `)`"))?;
    let parts: Vec<&str> = body.split(',').map(str::trim).collect();
    let mut op = Operand {
        ty: if is64 {
            OperandType::IMMEDIATE64
        } else {
            OperandType::IMMEDIATE32
        },
        ..Operand::default()
    };
    // A 64-bit immediate fills the same four 32-bit components with one
    // double (one component) or two (four components).
    op.components = match (is64, parts.len()) {
        (_, 1) => Components::One,
        (false, 4) | (true, 2) => Components::Four,
        (false, n) => {
            return Err(pos.err(text, format!("an immediate has 1 or 4 values, not {n}")));
        }
        (true, n) => {
            return Err(pos.err(
                text,
                format!("a 64-bit immediate has 1 or 2 doubles, not {n}"),
            ));
        }
    };
    if op.components == Components::Four {
        op.selection = Selection::Mask(0);
    }
    for (lane, p) in parts.iter().enumerate() {
        if is64 {
            let bits = numfmt::parse_double(p)
                .ok_or_else(|| pos.err(p, "expected a double such as 1.000000l"))?;
            op.imm.push(bits as u32);
            op.imm.push((bits >> 32) as u32);
        } else {
            op.imm.push(parse_number(p, kind, lane, pos)?);
        }
    }
    Ok(op)
}

/// Parses the text inside one pair of index brackets.
fn parse_index(text: &str, pos: Pos) -> AsmResult<Index> {
    let t = text.trim();
    if let Ok(v) = t.parse::<u32>() {
        return Ok(Index::Imm32(v));
    }
    // `reg + N` (fxc always prints the `+ N`; a bare register means + 0).
    let (reg, imm) = match t.rfind('+') {
        Some(p) => {
            let n = t[p + 1..].trim();
            let v = n
                .parse::<u32>()
                .map_err(|_| pos.err(n, "expected an index offset"))?;
            (t[..p].trim(), v)
        }
        None => (t, 0),
    };
    let rel = parse_operand(reg, Role::Src, NumType::Uint, false, pos)?;
    Ok(if imm == 0 {
        // fxc encodes `[r0.x + 0]` as a purely relative index.
        Index::Relative(Box::new(rel))
    } else {
        Index::Imm32Relative(imm, Box::new(rel))
    })
}

/// Finds the matching close bracket for the `[` at byte `open`.
fn matching_bracket(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Parses one operand. `in_decl` marks declaration context, where named
/// registers are encoded without components.
pub fn parse_operand(
    text: &str,
    role: Role,
    kind: NumType,
    in_decl: bool,
    pos: Pos,
) -> AsmResult<Operand> {
    let mut t = text.trim();
    // Modifiers enclose the tags, as fxc prints them: `-r0.x {min16f}`,
    // `|r2.xyzw {min16f}|`, `-|r1.y {min16i} {nonuniform}|`.
    let mut neg = false;
    if let Some(rest) = t.strip_prefix('-') {
        neg = true;
        t = rest.trim_start();
    }
    let mut abs = false;
    if t.starts_with('|') {
        t = t
            .strip_prefix('|')
            .and_then(|s| s.strip_suffix('|'))
            .ok_or_else(|| pos.err(text, "unbalanced `|` around an operand"))?
            .trim();
        abs = true;
    }
    let modifier = match (neg, abs) {
        (false, false) => Modifier::None,
        (true, false) => Modifier::Neg,
        (false, true) => Modifier::Abs,
        (true, true) => Modifier::AbsNeg,
    };

    // Trailing tags: `{min16f}`, `{nonuniform}`, and fxc's `{A as B}`.
    let mut min_precision = None;
    let mut nonuniform = false;
    while let Some(open) = t.rfind(" {") {
        let tag = t[open + 2..]
            .strip_suffix('}')
            .ok_or_else(|| pos.err(&t[open + 1..], "an operand tag ends with `}`"))?;
        if tag == "nonuniform" {
            if nonuniform {
                return Err(pos.err(tag, "`{nonuniform}` given twice"));
            }
            nonuniform = true;
        } else {
            if min_precision.is_some() {
                return Err(pos.err(tag, "an operand has one precision tag"));
            }
            min_precision = Some(precision_tag(tag, pos)?);
        }
        t = t[..open].trim_end();
    }
    let min_precision = min_precision.unwrap_or_default();

    let mut op = if t.starts_with("l(") || t.starts_with("d(") {
        parse_immediate(t, kind, pos)?
    } else {
        parse_register(t, role, in_decl, pos)?
    };
    op.modifier = modifier;
    op.min_precision = min_precision;
    op.nonuniform = nonuniform;
    op.extended =
        modifier != Modifier::None || min_precision != MinPrecision::Default || nonuniform;
    Ok(op)
}

/// A minimum-precision tag's text: `min16f` (as `disasm` prints it),
/// `min_precision_N` (a code with no name), or fxc's `A as B`, where `A` is
/// the operand's own precision (`def32` for none) and `B` how the
/// instruction reads it, which the token does not record.
fn precision_tag(tag: &str, pos: Pos) -> AsmResult<MinPrecision> {
    let named = |name: &str| -> Option<MinPrecision> {
        Some(match name {
            "def32" => MinPrecision::Default,
            "min16f" => MinPrecision::Float16,
            "min2_8f" => MinPrecision::Float2_8,
            "min16i" => MinPrecision::Sint16,
            "min16u" => MinPrecision::Uint16,
            _ => return None,
        })
    };
    if let Some((own, read_as)) = tag.split_once(" as ") {
        return match (named(own.trim()), named(read_as.trim())) {
            (Some(p), Some(_)) => Ok(p),
            _ => Err(pos.err(tag, "unknown precision in an `{A as B}` tag")),
        };
    }
    if let Some(p) = named(tag).filter(|p| *p != MinPrecision::Default) {
        return Ok(p);
    }
    if let Some(v) = tag.strip_prefix("min_precision_") {
        return v
            .parse::<u8>()
            .ok()
            .filter(|v| *v < 8)
            .map(|v| MinPrecision::from_bits(v as u32))
            .ok_or_else(|| pos.err(tag, "a precision code is 0 to 7"));
    }
    Err(pos.err(tag, "unknown operand tag"))
}

fn parse_register(t: &str, role: Role, in_decl: bool, pos: Pos) -> AsmResult<Operand> {
    // Split off the component suffix: the last `.` outside brackets.
    let mut depth = 0;
    let mut dot = None;
    for (i, c) in t.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' if depth == 0 => dot = Some(i),
            _ => {}
        }
    }
    let (reg, suffix) = match dot {
        Some(d) => (&t[..d], Some(&t[d + 1..])),
        None => (t, None),
    };

    let mut op = Operand::default();
    let named = NAMED.iter().find(|(n, _)| reg == *n);
    if let Some(&(_, ty)) = named {
        op.ty = OperandType(ty);
    } else {
        // SM5.1 declarations spell the register file in upper case (`CB0`).
        let lower = reg.to_ascii_lowercase();
        let &(prefix, ty) = INDEXED
            .iter()
            .find(|(p, _)| {
                lower.starts_with(p)
                    && lower[p.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_digit() || c == '[')
            })
            .ok_or_else(|| pos.err(reg, "expected a register (r0, v1, cb0[2], l(...), ...)"))?;
        op.ty = OperandType(ty);
        let rest = &reg[prefix.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let v = rest[..digits]
                .parse::<u32>()
                .map_err(|_| pos.err(reg, "register number does not fit in 32 bits"))?;
            op.indices.push(Index::Imm32(v));
        }
        let mut rest = &rest[digits..];
        while rest.starts_with('[') {
            let close = matching_bracket(rest, 0)
                .ok_or_else(|| pos.err(reg, "missing `]` after an index"))?;
            let inner = &rest[1..close];
            if let Some((a, b)) = inner.split_once(':') {
                // SM5.1 range `[first:last]`; an empty bound means unbounded.
                let bound = |s: &str| -> AsmResult<u32> {
                    if s.trim().is_empty() {
                        Ok(u32::MAX)
                    } else {
                        s.trim()
                            .parse()
                            .map_err(|_| pos.err(s, "expected a range bound"))
                    }
                };
                op.indices.push(Index::Imm32(bound(a)?));
                op.indices.push(Index::Imm32(bound(b)?));
            } else {
                op.indices.push(parse_index(inner, pos)?);
            }
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            return Err(pos.err(rest, "unexpected text after the register"));
        }
        if op.indices.is_empty() {
            return Err(pos.err(reg, "register needs a number"));
        }
        if op.indices.len() > 4 || (op.indices.len() == 4 && !reg.contains(':')) {
            return Err(pos.err(reg, "a register has at most three indices"));
        }
    }

    match suffix {
        None => {
            // `null` never has components; other named registers are scalars
            // except where declarations leave them bare.
            let scalar = named.is_some()
                && op.ty != OperandType::NULL
                && !(in_decl && decl_has_no_components(op.ty.0));
            op.components = if scalar {
                Components::One
            } else {
                Components::Zero
            };
            op.selection = Selection::None;
        }
        Some(s) => {
            let comps: Option<Vec<u8>> = s.chars().map(component).collect();
            let comps = comps
                .filter(|c| !c.is_empty() && c.len() <= 4)
                .ok_or_else(|| pos.err(s, "expected components such as .xyzw"))?;
            op.components = Components::Four;
            op.selection = match (role, comps.len()) {
                (Role::Src, 4) => Selection::Swizzle([comps[0], comps[1], comps[2], comps[3]]),
                (Role::Src, 1) => Selection::Select1(comps[0]),
                _ => {
                    let mut m = 0u8;
                    for (i, &c) in comps.iter().enumerate() {
                        if i > 0 && c <= comps[i - 1] {
                            return Err(
                                pos.err(s, "a write mask lists components once, in xyzw order")
                            );
                        }
                        m |= 1 << c;
                    }
                    Selection::Mask(m)
                }
            };
        }
    }
    Ok(op)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Pos = Pos { line: 1, column: 1 };

    #[test]
    fn registers_and_selections() {
        let o =
            parse_operand("-|cb0[r1.x + 3].xyzw|", Role::Src, NumType::Float, false, P).unwrap();
        assert_eq!(o.ty, OperandType::CONSTANT_BUFFER);
        assert_eq!(o.modifier, Modifier::AbsNeg);
        assert!(o.extended);
        assert_eq!(o.selection, Selection::Swizzle([0, 1, 2, 3]));
        match &o.indices[1] {
            Index::Imm32Relative(3, r) => assert_eq!(r.selection, Selection::Select1(0)),
            other => panic!("{other:?}"),
        }
        let d = parse_operand("r2.xz", Role::Dst, NumType::Float, false, P).unwrap();
        assert_eq!(d.selection, Selection::Mask(0b0101));
        let n = parse_operand("vPrim", Role::Decl, NumType::Uint, true, P).unwrap();
        assert_eq!(n.components, Components::Zero);
        let n = parse_operand("oDepth", Role::Dst, NumType::Float, false, P).unwrap();
        assert_eq!(n.components, Components::One);
    }

    #[test]
    fn immediates() {
        let o = parse_operand(
            "l(1.000000, -1, 0x3f800000, 0)",
            Role::Src,
            NumType::Untyped,
            false,
            P,
        )
        .unwrap();
        assert_eq!(&o.imm[..], &[0x3f80_0000, u32::MAX, 0x3f80_0000, 0]);
        let q = parse_operand(
            "l(0.5,00.0614556149,--0.229850411,0)",
            Role::Src,
            NumType::Untyped,
            false,
            P,
        )
        .unwrap();
        assert_eq!(q.imm[1], 0.061_455_615_f32.to_bits());
        assert_eq!(q.imm[2], (-0.229_850_41_f32).to_bits());
        assert!(parse_operand("l(1, 2)", Role::Src, NumType::Int, false, P).is_err());
    }

    #[test]
    fn precision_tags_sit_inside_modifiers() {
        let src = |t: &str| parse_operand(t, Role::Src, NumType::Float, false, P);
        let o = src("|r2.xyzw {min16f}|").unwrap();
        assert_eq!(
            (o.modifier, o.min_precision, o.extended),
            (Modifier::Abs, MinPrecision::Float16, true)
        );
        let o = src("-|r1.y {min16i} {nonuniform}|").unwrap();
        assert_eq!(
            (o.modifier, o.min_precision, o.nonuniform),
            (Modifier::AbsNeg, MinPrecision::Sint16, true)
        );
        assert_eq!(o.selection, Selection::Select1(1));
        // fxc's `{A as B}`: A is the operand's own precision.
        let o = src("r0.x {min16u as min16i}").unwrap();
        assert_eq!(o.min_precision, MinPrecision::Uint16);
        let o = src("l(1.000000) {def32 as min16f}").unwrap();
        assert_eq!(
            (o.min_precision, o.extended),
            (MinPrecision::Default, false)
        );
        for bad in [
            "|r2.xyzw| {min16f}",
            "|r2.xyzw {min16f}",
            "r2.xyzw {min16f}}",
            "r2.xyzw {min16f} {min16u}",
            "r2.xyzw {nonuniform} {nonuniform}",
            "r2.xyzw {min32f}",
            "r2.xyzw {min16f as half}",
            "r2.xyzw {min_precision_9}",
        ] {
            assert!(src(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn double_immediates() {
        let o = parse_operand(
            "d(1.000000l, -0.500000l)",
            Role::Src,
            NumType::Double,
            false,
            P,
        )
        .unwrap();
        // 1.0 = 0x3ff0000000000000, -0.5 = 0xbfe0000000000000, low dword first.
        assert_eq!(o.ty, OperandType::IMMEDIATE64);
        assert_eq!(o.components, Components::Four);
        assert_eq!(&o.imm[..], &[0, 0x3ff0_0000, 0, 0xbfe0_0000]);
        let one = parse_operand("d(2.000000l)", Role::Src, NumType::Double, false, P).unwrap();
        assert_eq!(one.components, Components::One);
        assert_eq!(&one.imm[..], &[0, 0x4000_0000]);
        for bad in [
            "d(1.0l, 2.0l, 3.0l, 4.0l)",
            "d(1.0l, 2.0l, 3.0l)",
            "d(x)",
            "d(infinity)",
        ] {
            assert!(
                parse_operand(bad, Role::Src, NumType::Double, false, P).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse_operand("q7.x", Role::Src, NumType::Float, false, P).unwrap_err();
        assert_eq!(e.found.as_deref(), Some("q7"));
    }

    #[test]
    fn splitting_respects_nesting() {
        let parts = split_top_level("r0.xy, l(1, 2, 3, 4), cb0[r1.x + 2].x");
        let texts: Vec<&str> = parts.iter().map(|p| p.1).collect();
        assert_eq!(texts, ["r0.xy", "l(1, 2, 3, 4)", "cb0[r1.x + 2].x"]);
    }
}
