//! The "Buffer Definitions" section: cbuffers, tbuffers, interface and
//! structured-buffer records with their declarations, struct layouts and
//! default values, read back into RDEF's constant buffers and types.

use super::{Line, Parser, number};
use crate::dxbc::asm::error::AsmResult;
use crate::dxbc::rdef::{
    CbufferKind, ConstantBuffer, MAX_TYPE_DEPTH, Member, Type, Variable, VariableResources,
    base_type_name, class, variable_flags,
};

/// A declaration inside a buffer definition, with its absolute offset.
struct Decl {
    name: String,
    offset: u32,
    size: Option<u32>,
    unused: bool,
    ty: Type,
    default_value: Option<Vec<u8>>,
}

impl<'a> Parser<'a> {
    pub(super) fn buffer_definitions(&mut self) -> AsmResult<()> {
        self.i += 1;
        let mut buffers = self.buffers.take().unwrap_or_default();
        loop {
            self.skip_separators();
            let Some(l) = self.line() else { break };
            let Some((kind, name)) = buffer_title(l.trimmed()) else {
                break;
            };
            self.i += 1;
            let open = self.next_content("`{`")?;
            if open.trimmed() != "{" {
                return Err(open.err(open.trimmed(), "expected `{` opening the buffer"));
            }
            self.i += 1;
            let decls = self.declarations(0, true)?;
            let close = self.next_content("`}` closing the buffer")?;
            if close.trimmed() != "}" {
                return Err(close.err(close.trimmed(), "expected `}` closing the buffer"));
            }
            self.i += 1;
            buffers.push(self.buffer(kind, name.to_string(), decls));
        }
        self.buffers = Some(buffers);
        Ok(())
    }

    fn buffer(&self, kind: CbufferKind, name: String, decls: Vec<Decl>) -> ConstantBuffer {
        let end = decls
            .iter()
            .map(|d| d.offset.saturating_add(d.size.unwrap_or(0)))
            .max()
            .unwrap_or(0);
        // The header does not show a buffer's size. fxc rounds cbuffers up
        // to whole registers, a structured buffer's element record is its
        // stride, and an interface buffer's slots take a register each.
        let size = match kind {
            CbufferKind::ResourceBindInfo => end,
            CbufferKind::InterfacePointers => end.saturating_mul(16),
            _ => end.saturating_add(15) & !15,
        };
        let variables = decls
            .into_iter()
            .map(|d| {
                let mut flags = if d.unused { 0 } else { variable_flags::USED };
                if d.ty.class == class::INTERFACE_POINTER {
                    flags |= variable_flags::INTERFACE_POINTER;
                }
                Variable {
                    name: d.name,
                    offset: d.offset,
                    size: d.size.unwrap_or(0),
                    flags,
                    ty: d.ty,
                    default_value: d.default_value,
                    resources: self.sm5.then_some(VariableResources {
                        start_texture: u32::MAX,
                        texture_size: 0,
                        start_sampler: u32::MAX,
                        sampler_size: 0,
                    }),
                }
            })
            .collect();
        ConstantBuffer {
            name,
            kind,
            size,
            flags: 0,
            variables,
        }
    }

    /// Declarations up to (not including) the closing `}` line. Top-level
    /// ones carry Size and `[unused]`; struct members only an Offset.
    fn declarations(&mut self, depth: usize, top: bool) -> AsmResult<Vec<Decl>> {
        let mut decls: Vec<Decl> = Vec::new();
        loop {
            let l = self.next_content("a declaration or `}`")?;
            let t = l.trimmed();
            if t.starts_with('}') {
                return Ok(decls);
            }
            if let Some(first) = t.strip_prefix('=') {
                let Some(last) = decls.last_mut() else {
                    return Err(l.err(t, "a default value must follow a declaration"));
                };
                let value = self.default_value(l, first, last.size.unwrap_or(0))?;
                last.default_value = Some(value);
                continue;
            }
            if let Some((decl, tail)) = t.split_once("//") {
                let (ty_text, name, elements) = split_declaration(&l, decl)?;
                let mut ty = parse_type(&l, ty_text, self.sm5)?;
                ty.elements = elements;
                let (offset, size, unused) = declaration_tail(&l, tail, top)?;
                decls.push(Decl {
                    name: name.to_string(),
                    offset,
                    size,
                    unused,
                    ty,
                    default_value: None,
                });
                self.i += 1;
                continue;
            }
            // A struct: its type name, `{`, members, `} name;` with tail.
            let struct_name = match t.strip_prefix("struct") {
                Some("") => None,
                Some(rest) if rest.starts_with(' ') => Some(rest.trim().to_string()),
                _ => return Err(l.err(t, "expected a declaration, a struct or `}`")),
            };
            if depth + 1 >= MAX_TYPE_DEPTH {
                return Err(l.err(
                    t,
                    format!("structs nest deeper than {MAX_TYPE_DEPTH} levels"),
                ));
            }
            self.i += 1;
            let open = self.next_content("`{` opening the struct")?;
            if open.trimmed() != "{" {
                return Err(open.err(open.trimmed(), "expected `{` opening the struct"));
            }
            self.i += 1;
            let members = self.declarations(depth + 1, false)?;
            let close = self.next_content("`}` closing the struct")?;
            let closing = close.trimmed();
            let Some((decl, tail)) = closing.split_once("//") else {
                return Err(close.err(
                    closing,
                    "expected `} name;  // Offset: ...` closing the struct",
                ));
            };
            let decl = decl.trim().strip_prefix('}').unwrap_or(decl);
            let (rest, name, elements) = split_declaration(&close, decl)?;
            if !rest.is_empty() {
                return Err(close.err(rest, "expected only a name after `}`"));
            }
            let (offset, size, unused) = declaration_tail(&close, tail, top)?;
            self.i += 1;
            let members: Vec<Member> = members
                .into_iter()
                .map(|m| Member {
                    name: m.name,
                    // Members print absolute offsets; the record holds them
                    // relative to the struct.
                    offset: m.offset.wrapping_sub(offset),
                    ty: m.ty,
                })
                .collect();
            let columns = members.iter().fold(0u16, |n, m| {
                let per = if m.ty.class == class::STRUCT {
                    m.ty.columns
                } else {
                    m.ty.rows.saturating_mul(m.ty.columns)
                };
                n.saturating_add(per.saturating_mul(m.ty.elements.max(1)))
            });
            decls.push(Decl {
                name: name.to_string(),
                offset,
                size,
                unused,
                ty: Type {
                    class: class::STRUCT,
                    base: 0,
                    rows: 1,
                    columns,
                    elements,
                    members,
                    name: if self.sm5 { struct_name } else { None },
                    extra: self.sm5.then_some([0; 4]),
                },
                default_value: None,
            });
        }
    }

    /// "= 0x... 0x..." and its continuation lines: the variable's initial
    /// value, one word per `size / 4` (fxc prints whole words only).
    fn default_value(
        &mut self,
        first: Line<'a>,
        after_eq: &'a str,
        size: u32,
    ) -> AsmResult<Vec<u8>> {
        let mut bytes = Vec::new();
        let mut push_words = |l: &Line<'a>, text: &'a str| -> AsmResult<()> {
            for tok in text.split_whitespace() {
                let hex = tok
                    .strip_prefix("0x")
                    .filter(|h| h.len() == 8)
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .ok_or_else(|| l.err(tok, "expected a default value word like 0x3f800000"))?;
                bytes.extend_from_slice(&hex.to_le_bytes());
            }
            Ok(())
        };
        push_words(&first, after_eq)?;
        self.i += 1;
        while let Some(l) = self.line() {
            let t = l.trimmed();
            if l.body.is_none() || !t.starts_with("0x") {
                break;
            }
            push_words(&l, t)?;
            self.i += 1;
        }
        let whole = (size / 4) as usize * 4;
        if bytes.len() != whole {
            return Err(first.err(
                first.trimmed(),
                format!(
                    "the default value has {} words but the variable's Size of {size} bytes needs {}",
                    bytes.len() / 4,
                    whole / 4
                ),
            ));
        }
        // Bytes past the last whole word are not printed; fxc's are zero.
        bytes.resize(size as usize, 0);
        Ok(bytes)
    }
}

/// `cbuffer X`, `tbuffer X`, `interfaces X`, `Resource bind info for X`,
/// `buffer(kind N) X`.
fn buffer_title(t: &str) -> Option<(CbufferKind, &str)> {
    let named = |prefix: &str, kind: CbufferKind| {
        t.strip_prefix(prefix)
            .filter(|rest| rest.starts_with(' '))
            .map(|rest| (kind, rest.trim()))
    };
    if let Some(rest) = t.strip_prefix("buffer(kind ") {
        let (n, name) = rest.split_once(')')?;
        return Some((CbufferKind::from_u32(n.parse().ok()?), name.trim()));
    }
    named("cbuffer", CbufferKind::CBuffer)
        .or_else(|| named("tbuffer", CbufferKind::TBuffer))
        .or_else(|| named("interfaces", CbufferKind::InterfacePointers))
        .or_else(|| named("Resource bind info for", CbufferKind::ResourceBindInfo))
}

/// `type name[N]` (a trailing `;` allowed) → (type text, name, elements).
fn split_declaration<'a>(l: &Line, decl: &'a str) -> AsmResult<(&'a str, &'a str, u16)> {
    let decl = decl.trim();
    let decl = decl.strip_suffix(';').unwrap_or(decl).trim_end();
    let (ty, name) = match decl.rsplit_once(char::is_whitespace) {
        Some((ty, name)) => (ty.trim(), name),
        None => ("", decl),
    };
    if name.is_empty() {
        return Err(l.err(decl, "expected a declaration `type name;`"));
    }
    if let Some(open) = name.find('[') {
        let count = name[open + 1..]
            .strip_suffix(']')
            .and_then(|n| n.parse::<u16>().ok())
            .ok_or_else(|| l.err(name, "expected an array size like `[4]`"))?;
        return Ok((ty, &name[..open], count));
    }
    Ok((ty, name, 0))
}

/// "Offset: N [Size: N] [[unused]]" after a declaration.
fn declaration_tail(l: &Line, tail: &str, top: bool) -> AsmResult<(u32, Option<u32>, bool)> {
    let toks: Vec<&str> = tail.split_whitespace().collect();
    let mut offset = None;
    let mut size = None;
    let mut unused = false;
    let mut i = 0;
    while let Some(&tok) = toks.get(i) {
        match tok {
            "Offset:" | "Size:" => {
                let Some(&n) = toks.get(i + 1) else {
                    return Err(l.err(tok, format!("expected a number after `{tok}`")));
                };
                let v = number(l, n)?;
                if tok == "Offset:" {
                    offset = Some(v);
                } else {
                    size = Some(v);
                }
                i += 2;
            }
            "[unused]" => {
                unused = true;
                i += 1;
            }
            // Another dumper's layout: registers (`28.xyzw`, or `0 1 2 3` for a
            // matrix) and a component count. The first register and
            // component give the byte offset; components are four bytes.
            "Index:" => {
                let Some(&first) = toks.get(i + 1) else {
                    return Err(l.err(tok, "expected a register index after `Index:`"));
                };
                let (reg, comp) = match first.split_once('.') {
                    Some((r, c)) => (r, c.chars().next()),
                    None => (first, None),
                };
                // Arrays give a register range, `4-43`.
                let reg = reg.split_once('-').map_or(reg, |(a, _)| a);
                let comp = match comp {
                    None | Some('x') => 0,
                    Some('y') => 1,
                    Some('z') => 2,
                    Some('w') => 3,
                    Some(_) => return Err(l.err(first, "expected a register like `28.xyzw`")),
                };
                offset = Some(number(l, reg)? * 16 + comp * 4);
                i += 2;
                while toks.get(i).is_some_and(|t| t.parse::<u32>().is_ok()) {
                    i += 1;
                }
            }
            "Components:" => {
                let Some(&n) = toks.get(i + 1) else {
                    return Err(l.err(tok, "expected a number after `Components:`"));
                };
                size = Some(number(l, n)? * 4);
                i += 2;
            }
            _ => return Err(l.err(tok, "expected `Offset:`, `Size:` or `[unused]`")),
        }
    }
    let offset = offset.ok_or_else(|| l.err(tail.trim(), "expected `Offset: N`"))?;
    if top && size.is_none() {
        return Err(l.err(tail.trim(), "expected `Size: N` after the offset"));
    }
    Ok((offset, size, unused))
}

/// D3D_SHADER_VARIABLE_TYPE values that are numbers (scalars, vectors and
/// matrices of them); the rest are objects.
fn is_numeric_base(base: u16) -> bool {
    matches!(base, 1 | 2 | 3 | 19 | 20 | 39 | 52..=57)
}

/// A non-struct type as fxc prints it: `float4`, `row_major float4x4`,
/// `uint`, `interface IFoo`, `Texture2D`. SM5 types carry a name, which
/// fxc sets to the spelling (it is not printed for these classes, so an
/// alias fxc may have used instead, such as `dword`, is not recoverable).
fn parse_type(l: &Line, text: &str, sm5: bool) -> AsmResult<Type> {
    let named = |class: u16, base: u16, rows: u16, columns: u16, name: &str| Type {
        class,
        base,
        rows,
        columns,
        elements: 0,
        members: Vec::new(),
        name: (sm5 && !name.is_empty()).then(|| name.to_string()),
        extra: sm5.then_some([0; 4]),
    };
    if let Some(rest) = text.strip_prefix("interface")
        && (rest.is_empty() || rest.starts_with(' '))
    {
        return Ok(named(class::INTERFACE_POINTER, 37, 1, 4, rest.trim()));
    }
    if let Some(rest) = text.strip_prefix("class")
        && (rest.is_empty() || rest.starts_with(' '))
    {
        return Ok(named(class::INTERFACE_CLASS, 0, 1, 0, rest.trim()));
    }
    let (row_major, spelled) = match text.strip_prefix("row_major ") {
        Some(rest) => (true, rest.trim()),
        None => (false, text),
    };
    let unknown = || {
        l.err(
            text,
            "expected an HLSL type such as float4 or row_major float4x4",
        )
    };
    // The longest base name that leaves a valid dimension suffix wins
    // ("min16float4" is min16float, "uint8" is uint8).
    let mut best: Option<(u16, &str)> = None;
    for base in 0..=63u16 {
        let name = base_type_name(base);
        if name.starts_with("type") {
            continue;
        }
        if let Some(rest) = spelled.strip_prefix(name.as_str())
            && best.is_none_or(|(b, _)| base_type_name(b).len() < name.len())
            && dims(rest).is_some()
        {
            best = Some((base, rest));
        }
    }
    let (base, rest) = match best {
        Some(b) => b,
        // The printer names unknown bases "typeN".
        None => match spelled
            .strip_prefix("type")
            .and_then(|n| n.parse::<u16>().ok())
        {
            Some(base) => (base, ""),
            None => return Err(unknown()),
        },
    };
    let Some(d) = dims(rest) else {
        return Err(unknown());
    };
    let ty = match d {
        Dims::None if is_numeric_base(base) && !row_major => {
            named(class::SCALAR, base, 1, 1, spelled)
        }
        Dims::None if !row_major => named(class::OBJECT, base, 1, 1, spelled),
        Dims::Vector(n) if is_numeric_base(base) && !row_major => {
            named(class::VECTOR, base, 1, n, spelled)
        }
        Dims::Matrix(r, c) if is_numeric_base(base) => {
            let class = if row_major {
                class::MATRIX_ROWS
            } else {
                class::MATRIX_COLUMNS
            };
            named(class, base, r, c, spelled)
        }
        _ => return Err(unknown()),
    };
    Ok(ty)
}

enum Dims {
    None,
    Vector(u16),
    Matrix(u16, u16),
}

fn dims(rest: &str) -> Option<Dims> {
    let num = |s: &str| -> Option<u16> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    if rest.is_empty() {
        return Some(Dims::None);
    }
    match rest.split_once('x') {
        Some((r, c)) => Some(Dims::Matrix(num(r)?, num(c)?)),
        None => Some(Dims::Vector(num(rest)?)),
    }
}

#[cfg(test)]
mod tests {
    use crate::dxbc::asm::header::tests::round_trip;
    use crate::dxbc::rdef::Rdef;
    use crate::dxbc::stat::Stat;

    const SM5: &str = "\
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
//       row_major float3x4 m[2];       // Offset:   32
//
//   } s;                               // Offset:   16 Size:   112 [unused]
//   float2 d;                          // Offset:  128 Size:     8
//      = 0x3f800000 0x00000000
//
// }
//
// Resource bind info for buf
// {
//
//   uint $Element;                     // Offset:    0 Size:     4
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// smp                             sampler_c      NA          NA             s1      1 
// tex                               texture  float4       2dMS4             t3      1 
// buf                               texture  struct         r/o             t4      1 
// out                                   UAV    uint          2d             u1      1 
// cb0                               cbuffer      NA          NA            cb0      1 
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_POSITION              0   xyzw        0      POS   float   x   
// TEXCOORD                 3    y          1     NONE    uint       
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xy  
// SV_DepthGreaterEqual     0    N/A oDepthGE  DEPTHGE   float    YES
//
// Pixel Shader runs at sample frequency
//";

    #[test]
    fn sm5_header_round_trips() {
        let p = round_trip(SM5, "ps_5_0");
        let rdef = p.rdef.as_ref().unwrap();
        assert_eq!(rdef.target.profile(), "ps_5_0");
        let s = &rdef.constant_buffers[0].variables[1];
        assert_eq!(s.ty.members[1].offset, 16);
        assert_eq!(s.ty.members[1].ty.elements, 2);
        assert_eq!(rdef.constant_buffers[0].size, 144);
        assert_eq!(rdef.bindings[2].num_samples, 4);
        assert_eq!(rdef.bindings[1].num_samples, 4);
        assert_eq!(p.signatures[1].elements[0].rw_mask, 0xc);
        assert_eq!(p.signatures[1].elements[0].system_value, 0);
        assert!(p.stat.as_ref().unwrap().is_sample_frequency());
        // And through written chunks.
        for (fourcc, data) in p.container_chunks(*b"SHEX", &[0x50, 0, 0, 0, 2, 0, 0, 0]) {
            match &fourcc {
                b"RDEF" => assert_eq!(&Rdef::parse(&data, 0).unwrap(), rdef),
                b"STAT" => assert_eq!(Stat::parse(&data, 0).ok(), p.stat),
                _ => {}
            }
        }
    }
}
