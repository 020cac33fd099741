//! Type descriptors: the classes and base types of variables, struct
//! members, and the guards that keep a hostile chunk's type graph (cycles,
//! deep nesting, widely shared descriptors) from hanging the parser.

use super::Parser;
use crate::dxbc::error::{DxbcError, Result};

/// Deepest struct nesting accepted. fxc output rarely nests more than a few
/// levels; anything this deep is treated as corrupt.
pub const MAX_TYPE_DEPTH: usize = 32;

/// Most type descriptors one RDEF may expand to. Shared descriptors are
/// expanded at every use, so this caps the work a small hostile chunk can
/// cause (a wide tree of members all pointing at one wide struct).
pub const MAX_TYPE_NODES: usize = 1 << 16;

/// D3D_SHADER_VARIABLE_CLASS values of [`Type::class`].
pub mod class {
    pub const SCALAR: u16 = 0;
    pub const VECTOR: u16 = 1;
    pub const MATRIX_ROWS: u16 = 2;
    pub const MATRIX_COLUMNS: u16 = 3;
    pub const OBJECT: u16 = 4;
    pub const STRUCT: u16 = 5;
    pub const INTERFACE_CLASS: u16 = 6;
    pub const INTERFACE_POINTER: u16 = 7;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Type {
    /// D3D_SHADER_VARIABLE_CLASS (see [`class`]).
    pub class: u16,
    /// D3D_SHADER_VARIABLE_TYPE (3 float, 2 int, 19 uint, 1 bool, ...).
    pub base: u16,
    pub rows: u16,
    pub columns: u16,
    /// Array length; 0 when not an array.
    pub elements: u16,
    pub members: Vec<Member>,
    /// SM5: the type's name (struct and interface names; "float4" etc.).
    pub name: Option<String>,
    /// SM5: the four words between the member offset and the name offset.
    /// They appear to be offsets/counts for the parent (base class) type and
    /// implemented interfaces; kept raw because their meaning is unconfirmed.
    pub extra: Option<[u32; 4]>,
}

impl Type {
    /// The HLSL spelling fxc uses in listings: "float4", "row_major
    /// float4x4", "uint", "struct Foo", "interface IFoo" (arrays excluded).
    pub fn hlsl_name(&self) -> String {
        let mut s = String::new();
        self.write_hlsl_name(&mut s);
        s
    }

    /// [`Type::hlsl_name`] appended to `out`: the listing header writes
    /// one per variable and member, without a string of its own each.
    pub fn write_hlsl_name(&self, out: &mut String) {
        use std::fmt::Write as _;
        let named = |out: &mut String, prefix: &str| {
            out.push_str(prefix);
            if let Some(n) = self.name.as_deref().filter(|n| !n.is_empty()) {
                out.push(' ');
                out.push_str(n);
            }
        };
        let base = |out: &mut String| match base_type_str(self.base) {
            Some(b) => out.push_str(b),
            None => {
                let _ = write!(out, "type{}", self.base);
            }
        };
        match self.class {
            class::SCALAR => base(out),
            class::VECTOR => {
                base(out);
                let _ = write!(out, "{}", self.columns);
            }
            class::MATRIX_ROWS => {
                out.push_str("row_major ");
                base(out);
                let _ = write!(out, "{}x{}", self.rows, self.columns);
            }
            class::MATRIX_COLUMNS => {
                base(out);
                let _ = write!(out, "{}x{}", self.rows, self.columns);
            }
            class::STRUCT => named(out, "struct"),
            class::INTERFACE_POINTER => named(out, "interface"),
            class::INTERFACE_CLASS => named(out, "class"),
            _ => match self.name.as_deref() {
                Some(n) if !n.is_empty() => out.push_str(n),
                _ => base(out),
            },
        }
    }
}

/// The D3D_SHADER_VARIABLE_TYPE values that name a number's type (what a
/// constant or buffer word reads as); the rest are objects.
pub mod base {
    pub const BOOL: u16 = 1;
    pub const INT: u16 = 2;
    pub const FLOAT: u16 = 3;
    pub const UINT: u16 = 19;
    pub const DOUBLE: u16 = 39;
    pub const MIN8FLOAT: u16 = 52;
    pub const MIN16FLOAT: u16 = 54;
    pub const MIN12INT: u16 = 55;
    pub const MIN16INT: u16 = 56;
    pub const MIN16UINT: u16 = 57;
}

/// HLSL name of a D3D_SHADER_VARIABLE_TYPE.
pub fn base_type_name(t: u16) -> String {
    match base_type_str(t) {
        Some(s) => s.to_string(),
        None => format!("type{t}"),
    }
}

/// [`base_type_name`] for the types that have a name.
fn base_type_str(t: u16) -> Option<&'static str> {
    Some(match t {
        0 => "void",
        1 => "bool",
        2 => "int",
        3 => "float",
        4 => "string",
        5 => "texture",
        6 => "Texture1D",
        7 => "Texture2D",
        8 => "Texture3D",
        9 => "TextureCube",
        10 => "SamplerState",
        15 => "PixelShader",
        16 => "VertexShader",
        19 => "uint",
        20 => "uint8",
        21 => "GeometryShader",
        25 => "Buffer",
        26 => "cbuffer",
        27 => "tbuffer",
        28 => "Texture1DArray",
        29 => "Texture2DArray",
        32 => "Texture2DMS",
        33 => "Texture2DMSArray",
        34 => "TextureCubeArray",
        35 => "HullShader",
        36 => "DomainShader",
        37 => "interface",
        38 => "ComputeShader",
        39 => "double",
        40 => "RWTexture1D",
        41 => "RWTexture1DArray",
        42 => "RWTexture2D",
        43 => "RWTexture2DArray",
        44 => "RWTexture3D",
        45 => "RWBuffer",
        46 => "ByteAddressBuffer",
        47 => "RWByteAddressBuffer",
        48 => "StructuredBuffer",
        49 => "RWStructuredBuffer",
        50 => "AppendStructuredBuffer",
        51 => "ConsumeStructuredBuffer",
        52 => "min8float",
        53 => "min10float",
        54 => "min16float",
        55 => "min12int",
        56 => "min16int",
        57 => "min16uint",
        _ => return None,
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    /// Byte offset within the parent struct.
    pub offset: u32,
    pub ty: Type,
}

impl<'a> Parser<'a> {
    pub(super) fn ty(&mut self, pos: u32, field_at: usize, chain: &mut Vec<u32>) -> Result<Type> {
        if chain.contains(&pos) {
            return Err(DxbcError::malformed(
                field_at,
                format!("type descriptor at RDEF offset {pos} contains itself"),
            ));
        }
        if chain.len() >= MAX_TYPE_DEPTH {
            return Err(DxbcError::malformed(
                field_at,
                format!("types nest deeper than {MAX_TYPE_DEPTH} levels"),
            ));
        }
        if self.types_left == 0 {
            return Err(DxbcError::malformed(
                field_at,
                format!("RDEF expands to more than {MAX_TYPE_NODES} type descriptors"),
            ));
        }
        self.types_left -= 1;

        let mut t = self.at(pos, field_at, "type descriptor")?;
        t.need(self.strides.ty, "type descriptor")?;
        let class = t.u16("type descriptor")?;
        let base = t.u16("type descriptor")?;
        let rows = t.u16("type descriptor")?;
        let columns = t.u16("type descriptor")?;
        let elements = t.u16("type descriptor")?;
        let member_count = t.u16("type descriptor")? as usize;
        let members_field = t.offset();
        let members_at = t.u32("type descriptor")?;
        let (extra, name) = if self.sm5 {
            let mut extra = [0u32; 4];
            for w in &mut extra {
                *w = t.u32("type descriptor")?;
            }
            let name_field = t.offset();
            let name_at = t.u32("type descriptor")?;
            let name = if name_at != 0 {
                Some(self.string(name_at, name_field, "type name")?)
            } else {
                None
            };
            (Some(extra), name)
        } else {
            (None, None)
        };

        let mut members = Vec::new();
        if member_count > 0 {
            let mut m = self.at(members_at, members_field, "struct members")?;
            m.need_items(member_count, self.strides.member, "struct members")?;
            members.reserve(member_count);
            chain.push(pos);
            for i in 0..member_count {
                m.seek(
                    members_at as usize + i * self.strides.member,
                    "struct member",
                )?;
                let name_field = m.offset();
                let name_at = m.u32("struct member")?;
                let type_field = m.offset();
                let type_at = m.u32("struct member")?;
                let offset = m.u32("struct member")?;
                let name = self.string(name_at, name_field, "member name")?;
                let ty = self.ty(type_at, type_field, chain)?;
                members.push(Member { name, offset, ty });
            }
            chain.pop();
        }
        Ok(Type {
            class,
            base,
            rows,
            columns,
            elements,
            members,
            name,
            extra,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::rdef::tests::{Builder, sm5_rdef};
    use crate::dxbc::rdef::{RD11_MAGIC, Rdef, Target};

    fn find(hay: &[u8], needle: &[u8]) -> usize {
        hay.windows(needle.len()).position(|w| w == needle).unwrap()
    }

    #[test]
    fn self_referencing_struct_is_an_error_not_a_hang() {
        let mut data = sm5_rdef();
        // Point the struct's only member at the struct itself.
        let s_ty = find(&data, &[5, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0]);
        let members_at =
            u32::from_le_bytes(data[s_ty + 12..s_ty + 16].try_into().unwrap()) as usize;
        data[members_at + 4..members_at + 8].copy_from_slice(&(s_ty as u32).to_le_bytes());
        let e = Rdef::parse(&data, 1000).unwrap_err();
        assert!(e.to_string().contains("contains itself"), "{e}");
        assert_eq!(e.offset(), 1000 + members_at + 4);
    }

    #[test]
    fn wide_shared_types_hit_the_budget() {
        // A chain of 20 structs, each with 0xffff members all pointing at the
        // next: 0xffff^20 nodes if expanded naively.
        let mut b = Builder::new();
        b.u32(1).u32(0).u32(0).u32(0).u32(0xFFFF_0500).u32(0).u32(0);
        b.u32(RD11_MAGIC)
            .u32(60)
            .u32(24)
            .u32(32)
            .u32(40)
            .u32(36)
            .u32(12)
            .u32(0);
        let cb = b.pos();
        b.patch(4, cb);
        let name = b.pos() + 24 + 40;
        b.u32(name).u32(1).u32(cb + 24).u32(16).u32(0).u32(0);
        let types = b.pos() + 40 + 4;
        b.u32(name).u32(0).u32(4).u32(2).u32(types).u32(0);
        b.u32(0).u32(0).u32(0).u32(0);
        b.u32(0x0000_0061); // "a"
        let mut members = Vec::new();
        for i in 0..20u32 {
            let at = b.pos();
            assert_eq!(at, types + i * 36);
            let last = i == 19;
            b.u16(class::STRUCT)
                .u16(1)
                .u16(1)
                .u16(1)
                .u16(0)
                .u16(if last { 0 } else { 0xffff });
            members.push(b.pos());
            b.u32(0).u32(0).u32(0).u32(0).u32(0).u32(0);
        }
        // One shared member table per level, 0xffff entries each.
        for i in 0..19u32 {
            let table = b.pos();
            b.patch(members[i as usize], table);
            let next = types + (i + 1) * 36;
            for _ in 0..0xffff {
                b.u32(name).u32(next).u32(0);
            }
        }
        let e = Rdef::parse(&b.buf, 0).unwrap_err();
        assert!(e.to_string().contains("type descriptors"), "{e}");
    }

    #[test]
    fn type_names() {
        let t = |class, base, rows, columns| Type {
            class,
            base,
            rows,
            columns,
            elements: 0,
            members: vec![],
            name: None,
            extra: None,
        };
        assert_eq!(t(class::SCALAR, 19, 1, 1).hlsl_name(), "uint");
        assert_eq!(t(class::VECTOR, 2, 1, 3).hlsl_name(), "int3");
        assert_eq!(
            t(class::MATRIX_ROWS, 3, 4, 4).hlsl_name(),
            "row_major float4x4"
        );
        assert_eq!(t(class::MATRIX_COLUMNS, 3, 3, 4).hlsl_name(), "float3x4");
        assert_eq!(t(class::STRUCT, 1, 1, 1).hlsl_name(), "struct");
        assert_eq!(Target::from_token(0x4353_0500).profile(), "cs_5_0");
        assert_eq!(Target::from_token(0xFFFE_0401).profile(), "vs_4_1");
    }
}
