//! RDEF: the reflection data fxc stores beside the program — constant
//! buffers with their variables and types, resource bindings, the target
//! profile and the compiler's name.
//!
//! All offsets inside RDEF are relative to the start of the chunk data.
//! Type descriptors point at other type descriptors (struct members), so a
//! corrupted or hostile chunk can describe cycles or exponentially large
//! trees; parsing is therefore bounded by a nesting depth, an ancestry check
//! and a total descriptor budget.

use super::error::{DxbcError, Result};
use super::reader::Reader;

mod synth;
mod target;
mod types;

pub use synth::{SYNTHESIZED_CREATOR, synthesize};
pub use target::{ProgramType, Target};
pub use types::{MAX_TYPE_DEPTH, MAX_TYPE_NODES, Member, Type, base, base_type_name, class};

/// 'RD11' in SM5.0 RDEF headers.
pub const RD11_MAGIC: u32 = u32::from_le_bytes(*b"RD11");
/// The SM5.1 variant of the RD11 marker.
pub const RD11_MAGIC_5_1: u32 = 0x2544_1313;

/// The SM5 header extension: a marker and the size of each record kind, so
/// readers can step over records that grow in later versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rd11Header {
    pub magic: u32,
    pub header_size: u32,
    pub cbuffer_size: u32,
    pub binding_size: u32,
    pub variable_size: u32,
    pub type_size: u32,
    pub member_size: u32,
    pub reserved: u32,
}

/// D3D_SHADER_INPUT_TYPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputType {
    CBuffer,
    TBuffer,
    Texture,
    Sampler,
    UavRwTyped,
    Structured,
    UavRwStructured,
    ByteAddress,
    UavRwByteAddress,
    UavAppendStructured,
    UavConsumeStructured,
    UavRwStructuredWithCounter,
    Other(u32),
}

impl InputType {
    pub fn from_u32(v: u32) -> InputType {
        match v {
            0 => InputType::CBuffer,
            1 => InputType::TBuffer,
            2 => InputType::Texture,
            3 => InputType::Sampler,
            4 => InputType::UavRwTyped,
            5 => InputType::Structured,
            6 => InputType::UavRwStructured,
            7 => InputType::ByteAddress,
            8 => InputType::UavRwByteAddress,
            9 => InputType::UavAppendStructured,
            10 => InputType::UavConsumeStructured,
            11 => InputType::UavRwStructuredWithCounter,
            other => InputType::Other(other),
        }
    }

    pub fn is_uav(&self) -> bool {
        matches!(
            self,
            InputType::UavRwTyped
                | InputType::UavRwStructured
                | InputType::UavRwByteAddress
                | InputType::UavAppendStructured
                | InputType::UavConsumeStructured
                | InputType::UavRwStructuredWithCounter
        )
    }
}

/// Bits of [`ResourceBinding::flags`] (D3D_SHADER_INPUT_FLAGS).
pub mod input_flags {
    pub const USER_PACKED: u32 = 1;
    pub const COMPARISON_SAMPLER: u32 = 2;
    /// Two bits: component count minus one for textures and typed buffers.
    pub const COMPONENT_MASK: u32 = 0b1100;
    pub const UNUSED: u32 = 0x10;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceBinding {
    pub name: String,
    pub input_type: InputType,
    /// D3D_RESOURCE_RETURN_TYPE: 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float,
    /// 6 mixed, 7 double, 8 continued; 0 for non-textures.
    pub return_type: u32,
    /// D3D_SRV_DIMENSION: 1 buffer, 2 1d, 3 1darray, 4 2d, 5 2darray, 6 2dms,
    /// 7 2dmsarray, 8 3d, 9 cube, 10 cubearray, 11 bufferex.
    pub dimension: u32,
    /// Sample count for MS textures, structure stride for structured
    /// buffers, `u32::MAX` where not applicable.
    pub num_samples: u32,
    pub bind_point: u32,
    /// 0 means unbounded (SM5.1).
    pub bind_count: u32,
    pub flags: u32,
    /// SM5.1 register space.
    pub space: Option<u32>,
    /// SM5.1 range ID.
    pub id: Option<u32>,
}

impl ResourceBinding {
    /// Texture/typed-buffer component count (1..=4) from the flags.
    pub fn components(&self) -> u32 {
        ((self.flags & input_flags::COMPONENT_MASK) >> 2) + 1
    }
}

/// D3D_CBUFFER_TYPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CbufferKind {
    CBuffer,
    TBuffer,
    InterfacePointers,
    ResourceBindInfo,
    Other(u32),
}

impl CbufferKind {
    pub fn from_u32(v: u32) -> CbufferKind {
        match v {
            0 => CbufferKind::CBuffer,
            1 => CbufferKind::TBuffer,
            2 => CbufferKind::InterfacePointers,
            3 => CbufferKind::ResourceBindInfo,
            other => CbufferKind::Other(other),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantBuffer {
    pub name: String,
    pub kind: CbufferKind,
    /// Size in bytes (16-byte aligned for cbuffers).
    pub size: u32,
    pub flags: u32,
    pub variables: Vec<Variable>,
}

/// Bits of [`Variable::flags`] (D3D_SHADER_VARIABLE_FLAGS).
pub mod variable_flags {
    pub const USER_PACKED: u32 = 1;
    pub const USED: u32 = 2;
    pub const INTERFACE_POINTER: u32 = 4;
    pub const INTERFACE_PARAMETER: u32 = 8;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// Byte offset in the buffer (slot index for interface pointers).
    pub offset: u32,
    pub size: u32,
    pub flags: u32,
    pub ty: Type,
    /// The initial value bytes, when fxc recorded one.
    pub default_value: Option<Vec<u8>>,
    /// SM5 only: the texture/sampler slots a class instance may use.
    pub resources: Option<VariableResources>,
}

impl Variable {
    pub fn is_used(&self) -> bool {
        self.flags & variable_flags::USED != 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariableResources {
    /// `u32::MAX` when none.
    pub start_texture: u32,
    pub texture_size: u32,
    /// `u32::MAX` when none.
    pub start_sampler: u32,
    pub sampler_size: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rdef {
    pub target: Target,
    /// D3DCOMPILE_* flags the shader was compiled with.
    pub flags: u32,
    /// The compiler's name, e.g. "Microsoft (R) HLSL Shader Compiler 10.1".
    pub creator: String,
    pub rd11: Option<Rd11Header>,
    pub constant_buffers: Vec<ConstantBuffer>,
    pub bindings: Vec<ResourceBinding>,
}

/// RDEF record sizes: fixed in SM4, declared by the RD11 header in SM5.
/// The reader and the writer (`dxbc::write`) share these numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Strides {
    pub cbuffer: usize,
    pub binding: usize,
    pub variable: usize,
    pub ty: usize,
    pub member: usize,
}

impl Strides {
    /// SM4's fixed layout.
    pub(crate) const SM4: Strides = Strides {
        cbuffer: 24,
        binding: 32,
        variable: 24,
        ty: 16,
        member: 12,
    };

    /// The smallest SM5 records: the fields this parser reads. Smaller
    /// sizes would make records overlap; larger ones are later additions.
    pub(crate) const SM5_MIN: Strides = Strides {
        cbuffer: 24,
        binding: 32,
        variable: 40,
        ty: 36,
        member: 12,
    };

    pub(crate) fn from_rd11(h: &Rd11Header) -> Strides {
        Strides {
            cbuffer: h.cbuffer_size as usize,
            binding: h.binding_size as usize,
            variable: h.variable_size as usize,
            ty: h.type_size as usize,
            member: h.member_size as usize,
        }
    }
}

struct Parser<'a> {
    r: Reader<'a>,
    strides: Strides,
    sm5: bool,
    types_left: usize,
    /// Bytes still allowed to be copied out as strings and default values.
    copy_left: usize,
}

/// How many bytes of strings and default values an RDEF of `len` bytes may
/// expand to. Many records may point at one long string; without a cap a
/// small chunk could make the parser copy it thousands of times.
fn copy_budget(len: usize) -> usize {
    len.saturating_mul(16).saturating_add(1 << 20)
}

impl<'a> Parser<'a> {
    /// A reader positioned at chunk-relative `pos`. `field_at` is the
    /// absolute offset of the field that held `pos`, which is what the error
    /// names, since that is the byte a user would inspect.
    fn at(&self, pos: u32, field_at: usize, what: &'static str) -> Result<Reader<'a>> {
        let mut r = self.r;
        r.seek(pos as usize, what).map_err(|_| {
            DxbcError::malformed(
                field_at,
                format!(
                    "{what} offset {pos} lies outside the {}-byte RDEF chunk",
                    self.r.data().len()
                ),
            )
        })?;
        Ok(r)
    }

    fn charge(&mut self, n: usize, field_at: usize) -> Result<()> {
        match self.copy_left.checked_sub(n) {
            Some(left) => {
                self.copy_left = left;
                Ok(())
            }
            None => Err(DxbcError::malformed(
                field_at,
                format!(
                    "RDEF strings and default values expand past {} bytes",
                    copy_budget(self.r.data().len())
                ),
            )),
        }
    }

    fn string(&mut self, pos: u32, field_at: usize, what: &'static str) -> Result<String> {
        let s = self.r.cstr_at(pos as usize, what).map_err(|e| match e {
            DxbcError::Malformed { msg, .. } => DxbcError::Malformed {
                offset: field_at,
                msg,
            },
            other => other,
        })?;
        self.charge(s.len() + 1, field_at)?;
        Ok(s)
    }

    fn variable(&mut self, v: &mut Reader<'a>) -> Result<Variable> {
        let start = v.pos();
        let name_field = v.offset();
        let name_at = v.u32("variable")?;
        let offset = v.u32("variable")?;
        let size = v.u32("variable")?;
        let flags = v.u32("variable")?;
        let type_field = v.offset();
        let type_at = v.u32("variable")?;
        let default_field = v.offset();
        let default_at = v.u32("variable")?;
        let resources = if self.sm5 {
            Some(VariableResources {
                start_texture: v.u32("variable")?,
                texture_size: v.u32("variable")?,
                start_sampler: v.u32("variable")?,
                sampler_size: v.u32("variable")?,
            })
        } else {
            None
        };
        v.seek(start + self.strides.variable, "variable")?;
        let name = self.string(name_at, name_field, "variable name")?;
        let ty = self.ty(type_at, type_field, &mut Vec::new())?;
        let default_value = if default_at != 0 {
            let mut d = self.at(default_at, default_field, "default value")?;
            let bytes = d.bytes(size as usize, "default value")?;
            self.charge(bytes.len(), default_field)?;
            Some(bytes.to_vec())
        } else {
            None
        };
        Ok(Variable {
            name,
            offset,
            size,
            flags,
            ty,
            default_value,
            resources,
        })
    }
}

impl Rdef {
    /// Parses RDEF chunk data; `base_offset` is its absolute offset in the
    /// container.
    pub fn parse(data: &[u8], base_offset: usize) -> Result<Rdef> {
        let mut r = Reader::new(data, base_offset);
        let cb_count = r.u32("RDEF header")? as usize;
        let cb_field = r.offset();
        let cb_at = r.u32("RDEF header")?;
        let bind_count = r.u32("RDEF header")? as usize;
        let bind_field = r.offset();
        let bind_at = r.u32("RDEF header")?;
        let target = Target::from_token(r.u32("RDEF header")?);
        let flags = r.u32("RDEF header")?;
        let creator_field = r.offset();
        let creator_at = r.u32("RDEF header")?;

        let (rd11, strides) = if target.major >= 5 {
            let magic_at = r.offset();
            let magic = r.u32("RD11 header")?;
            if magic != RD11_MAGIC && magic != RD11_MAGIC_5_1 {
                return Err(DxbcError::malformed(
                    magic_at,
                    format!(
                        "SM{}.{} RDEF lacks its RD11 marker (found {magic:#010x})",
                        target.major, target.minor
                    ),
                ));
            }
            let h = Rd11Header {
                magic,
                header_size: r.u32("RD11 header")?,
                cbuffer_size: r.u32("RD11 header")?,
                binding_size: r.u32("RD11 header")?,
                variable_size: r.u32("RD11 header")?,
                type_size: r.u32("RD11 header")?,
                member_size: r.u32("RD11 header")?,
                reserved: r.u32("RD11 header")?,
            };
            // Record sizes smaller than the fields this code reads would make
            // records overlap; larger ones are fine (later additions skipped).
            let (got, min) = (Strides::from_rd11(&h), Strides::SM5_MIN);
            let checks = [
                (got.cbuffer, min.cbuffer, "constant buffer", 8),
                (got.binding, min.binding, "resource binding", 12),
                (got.variable, min.variable, "variable", 16),
                (got.ty, min.ty, "type", 20),
                (got.member, min.member, "member", 24),
            ];
            for (size, min, what, field) in checks {
                if size < min {
                    return Err(DxbcError::malformed(
                        magic_at + field,
                        format!(
                            "RD11 {what} record size {size} is below the {min} bytes it must hold"
                        ),
                    ));
                }
            }
            let strides = Strides::from_rd11(&h);
            (Some(h), strides)
        } else {
            (None, Strides::SM4)
        };

        let mut p = Parser {
            r: Reader::new(data, base_offset),
            strides,
            sm5: target.major >= 5,
            types_left: MAX_TYPE_NODES,
            copy_left: copy_budget(data.len()),
        };

        let creator = if creator_at != 0 {
            p.string(creator_at, creator_field, "creator string")?
        } else {
            String::new()
        };

        let mut bindings = Vec::new();
        if bind_count > 0 {
            let mut b = p.at(bind_at, bind_field, "resource bindings")?;
            b.need_items(bind_count, strides.binding, "resource bindings")?;
            bindings.reserve(bind_count);
            let with_space = strides.binding >= 40;
            for i in 0..bind_count {
                b.seek(bind_at as usize + i * strides.binding, "resource binding")?;
                let name_field = b.offset();
                // The record's words in field order (struct fields are
                // evaluated as written); the SM5.1 record adds the last two.
                let mut word = || b.u32("resource binding");
                bindings.push(ResourceBinding {
                    name: p.string(word()?, name_field, "binding name")?,
                    input_type: InputType::from_u32(word()?),
                    return_type: word()?,
                    dimension: word()?,
                    num_samples: word()?,
                    bind_point: word()?,
                    bind_count: word()?,
                    flags: word()?,
                    space: if with_space { Some(word()?) } else { None },
                    id: if with_space { Some(word()?) } else { None },
                });
            }
        }

        let mut constant_buffers = Vec::new();
        if cb_count > 0 {
            let mut c = p.at(cb_at, cb_field, "constant buffers")?;
            c.need_items(cb_count, strides.cbuffer, "constant buffers")?;
            constant_buffers.reserve(cb_count);
            for i in 0..cb_count {
                c.seek(cb_at as usize + i * strides.cbuffer, "constant buffer")?;
                let name_field = c.offset();
                let name_at = c.u32("constant buffer")?;
                let var_count = c.u32("constant buffer")? as usize;
                let vars_field = c.offset();
                let vars_at = c.u32("constant buffer")?;
                let size = c.u32("constant buffer")?;
                let flags = c.u32("constant buffer")?;
                let kind = CbufferKind::from_u32(c.u32("constant buffer")?);
                let name = p.string(name_at, name_field, "constant buffer name")?;
                let mut variables = Vec::new();
                if var_count > 0 {
                    let mut v = p.at(vars_at, vars_field, "variables")?;
                    v.need_items(var_count, strides.variable, "variables")?;
                    variables.reserve(var_count);
                    for _ in 0..var_count {
                        variables.push(p.variable(&mut v)?);
                    }
                }
                constant_buffers.push(ConstantBuffer {
                    name,
                    kind,
                    size,
                    flags,
                    variables,
                });
            }
        }

        Ok(Rdef {
            target,
            flags,
            creator,
            rd11,
            constant_buffers,
            bindings,
        })
    }

    /// The constant buffer describing a binding (cbuffers, tbuffers and the
    /// element type of structured buffers share the binding's name).
    pub fn buffer_for(&self, binding: &ResourceBinding) -> Option<&ConstantBuffer> {
        self.constant_buffers
            .iter()
            .find(|c| c.name == binding.name)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A little RDEF writer for tests: appends records and patches offsets.
    pub(crate) struct Builder {
        pub buf: Vec<u8>,
    }

    impl Builder {
        pub fn new() -> Self {
            Builder { buf: Vec::new() }
        }
        pub fn u16(&mut self, v: u16) -> &mut Self {
            self.buf.extend_from_slice(&v.to_le_bytes());
            self
        }
        pub fn u32(&mut self, v: u32) -> &mut Self {
            self.buf.extend_from_slice(&v.to_le_bytes());
            self
        }
        pub fn pos(&self) -> u32 {
            self.buf.len() as u32
        }
        pub fn str(&mut self, s: &str) -> u32 {
            let at = self.pos();
            self.buf.extend_from_slice(s.as_bytes());
            self.buf.push(0);
            while !self.buf.len().is_multiple_of(4) {
                self.buf.push(0xab);
            }
            at
        }
        pub fn patch(&mut self, at: u32, v: u32) {
            let at = at as usize;
            self.buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }

    /// An SM5 RDEF with one cbuffer holding `float4 a` and a struct
    /// `S { float x; }` variable, one cbuffer binding and one texture.
    pub(crate) fn sm5_rdef() -> Vec<u8> {
        let mut b = Builder::new();
        // Header (15 words).
        b.u32(1)
            .u32(0)
            .u32(2)
            .u32(0)
            .u32(0xFFFF_0500)
            .u32(0x100)
            .u32(0);
        b.u32(RD11_MAGIC)
            .u32(60)
            .u32(24)
            .u32(32)
            .u32(40)
            .u32(36)
            .u32(12)
            .u32(0);
        let bindings_at = b.pos();
        b.patch(12, bindings_at);
        // Binding 0: texture t3, float4.
        let tex_name_field = b.pos();
        b.u32(0)
            .u32(2)
            .u32(5)
            .u32(4)
            .u32(u32::MAX)
            .u32(3)
            .u32(1)
            .u32(0xc);
        // Binding 1: cbuffer cb0.
        let cb_name_field = b.pos();
        b.u32(0).u32(0).u32(0).u32(0).u32(0).u32(0).u32(1).u32(1);
        let cbs_at = b.pos();
        b.patch(4, cbs_at);
        let cb_rec = b.pos();
        b.u32(0).u32(2).u32(0).u32(32).u32(0).u32(0);
        let vars_at = b.pos();
        b.patch(cb_rec + 8, vars_at);
        let var_a = b.pos();
        b.u32(0).u32(0).u32(16).u32(2).u32(0).u32(0);
        b.u32(u32::MAX).u32(0).u32(u32::MAX).u32(0);
        let var_s = b.pos();
        b.u32(0).u32(16).u32(4).u32(0).u32(0).u32(0);
        b.u32(u32::MAX).u32(0).u32(u32::MAX).u32(0);
        // Types.
        let float4 = b.pos();
        b.u16(class::VECTOR)
            .u16(3)
            .u16(1)
            .u16(4)
            .u16(0)
            .u16(0)
            .u32(0);
        b.u32(0).u32(0).u32(0).u32(0);
        let float4_name_field = b.pos();
        b.u32(0);
        let float1 = b.pos();
        b.u16(class::SCALAR)
            .u16(3)
            .u16(1)
            .u16(1)
            .u16(0)
            .u16(0)
            .u32(0);
        b.u32(0).u32(0).u32(0).u32(0).u32(0);
        let s_ty = b.pos();
        b.u16(class::STRUCT).u16(1).u16(1).u16(1).u16(0).u16(1);
        let s_members_field = b.pos();
        b.u32(0).u32(0).u32(0).u32(0).u32(0);
        let s_name_field = b.pos();
        b.u32(0);
        let members = b.pos();
        b.patch(s_members_field, members);
        let member_name_field = b.pos();
        b.u32(0).u32(float1).u32(0);
        b.patch(var_a + 16, float4);
        b.patch(var_s + 16, s_ty);
        let n = b.str("tex");
        b.patch(tex_name_field, n);
        let n = b.str("cb0");
        b.patch(cb_name_field, n);
        b.patch(cb_rec, n);
        let n = b.str("a");
        b.patch(var_a, n);
        let n = b.str("s");
        b.patch(var_s, n);
        let n = b.str("float4");
        b.patch(float4_name_field, n);
        let n = b.str("S");
        b.patch(s_name_field, n);
        let n = b.str("x");
        b.patch(member_name_field, n);
        let n = b.str("Microsoft (R) HLSL Shader Compiler 10.1");
        b.patch(24, n);
        b.buf
    }

    #[test]
    fn parses_an_sm5_rdef() {
        let data = sm5_rdef();
        let r = Rdef::parse(&data, 0).unwrap();
        assert_eq!(r.target.profile(), "ps_5_0");
        assert_eq!(r.creator, "Microsoft (R) HLSL Shader Compiler 10.1");
        assert_eq!(r.bindings.len(), 2);
        assert_eq!(r.bindings[0].name, "tex");
        assert_eq!(r.bindings[0].input_type, InputType::Texture);
        assert_eq!(r.bindings[0].components(), 4);
        assert_eq!(r.bindings[1].input_type, InputType::CBuffer);
        let cb = &r.constant_buffers[0];
        assert_eq!(cb.name, "cb0");
        assert_eq!(cb.variables.len(), 2);
        assert_eq!(cb.variables[0].ty.hlsl_name(), "float4");
        assert!(cb.variables[0].is_used());
        let s = &cb.variables[1];
        assert_eq!(s.ty.hlsl_name(), "struct S");
        assert_eq!(s.ty.members[0].name, "x");
        assert_eq!(s.ty.members[0].ty.hlsl_name(), "float");
        assert!(r.buffer_for(&r.bindings[1]).is_some());
    }

    #[test]
    fn many_records_sharing_one_long_string_hit_the_copy_budget() {
        // 4096 bindings whose names all point at one 64 KiB string: 256 MiB
        // of copies if unchecked.
        let mut b = Builder::new();
        b.u32(0)
            .u32(0)
            .u32(4096)
            .u32(28)
            .u32(0xFFFF_0400)
            .u32(0)
            .u32(0);
        let name = 28 + 4096 * 32;
        for _ in 0..4096 {
            b.u32(name).u32(2).u32(5).u32(4).u32(0).u32(0).u32(1).u32(0);
        }
        b.buf.extend(std::iter::repeat_n(b'a', 65536));
        b.buf.push(0);
        let e = Rdef::parse(&b.buf, 0).unwrap_err();
        assert!(e.to_string().contains("expand past"), "{e}");
    }

    #[test]
    fn huge_counts_are_rejected_before_allocating() {
        let data = sm5_rdef();
        for field in [0usize, 8] {
            let mut d = data.clone();
            d[field..field + 4].copy_from_slice(&0x1000_0000u32.to_le_bytes());
            assert!(matches!(
                Rdef::parse(&d, 0),
                Err(DxbcError::Truncated { .. })
            ));
        }
    }

    #[test]
    fn rd11_record_sizes_are_checked() {
        let mut data = sm5_rdef();
        data[48..52].copy_from_slice(&4u32.to_le_bytes()); // variable size
        let e = Rdef::parse(&data, 0).unwrap_err();
        assert_eq!(e.offset(), 48);
        let mut data = sm5_rdef();
        data[28..32].copy_from_slice(b"XXXX");
        assert_eq!(Rdef::parse(&data, 0).unwrap_err().offset(), 28);
    }

    #[test]
    fn every_truncation_and_byte_flip_is_handled() {
        let data = sm5_rdef();
        for len in 0..data.len() {
            let _ = Rdef::parse(&data[..len], 0);
        }
        for i in 0..data.len() {
            for v in [0u8, 0xff, 0x80, 1] {
                let mut d = data.clone();
                d[i] = v;
                let _ = Rdef::parse(&d, 0);
            }
        }
    }
}
