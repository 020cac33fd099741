//! Chunk writers: RDEF, the signature chunks, STAT and SFI0 back to bytes.
//! Each is the inverse of its parser, so `parse(write(x)) == x` for
//! anything the parser produced; that is what the assembler relies on to
//! rebuild the reflection chunks from an fxc listing's comment header.
//!
//! The layouts follow what fxc emits (record order, string sharing, 0xAB
//! padding, identical type descriptors shared), so that most chunks come
//! out byte-identical to fxc's. Byte identity is a courtesy, not a
//! guarantee: only the parsed structures are promised to round-trip.

use std::collections::HashMap;

use super::rdef::{
    ConstantBuffer, RD11_MAGIC, RD11_MAGIC_5_1, Rd11Header, Rdef, ResourceBinding, Strides, Type,
    Variable, VariableResources,
};
use super::signature::{Signature, SignatureKind, signature_layout};
use super::stat::{ShaderFeatures, Stat};

/// fxc pads strings to the next word with this byte; zero would read as an
/// empty string if a reader ever landed on it, 0xAB never can.
const PAD: u8 = 0xab;

/// Size of the SM4 RDEF header (7 words) and of the SM5 one (plus RD11).
const SM4_HEADER: usize = 28;
const SM5_HEADER: usize = 60;

/// Bindings this long carry the SM5.1 register space and range ID.
const BINDING_WITH_SPACE: usize = 40;

/// The RD11 header fxc writes for a target: 5.1 has a distinct marker and
/// 40-byte bindings (space and ID), 5.0 the original sizes.
pub fn default_rd11(major: u8, minor: u8) -> Rd11Header {
    let five_one = (major, minor) >= (5, 1);
    Rd11Header {
        magic: if five_one { RD11_MAGIC_5_1 } else { RD11_MAGIC },
        header_size: SM5_HEADER as u32,
        cbuffer_size: Strides::SM5_MIN.cbuffer as u32,
        binding_size: if five_one {
            BINDING_WITH_SPACE as u32
        } else {
            Strides::SM5_MIN.binding as u32
        },
        variable_size: Strides::SM5_MIN.variable as u32,
        type_size: Strides::SM5_MIN.ty as u32,
        member_size: Strides::SM5_MIN.member as u32,
        reserved: 0,
    }
}

/// A growing chunk with word patching and string sharing.
struct Buf {
    bytes: Vec<u8>,
    strings: HashMap<String, u32>,
}

impl Buf {
    fn new() -> Self {
        Buf {
            bytes: Vec::new(),
            strings: HashMap::new(),
        }
    }

    /// Current length as a chunk offset. Chunks are far below 4 GiB in
    /// practice; an absurd one saturates instead of wrapping, which makes
    /// the parser reject it rather than misread it.
    fn pos(&self) -> u32 {
        u32::try_from(self.bytes.len()).unwrap_or(u32::MAX)
    }

    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    fn align(&mut self) {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(PAD);
        }
    }

    /// Reserves `n` zero bytes (a table filled in later); returns its start.
    fn reserve(&mut self, n: usize) -> usize {
        let at = self.bytes.len();
        self.bytes.resize(at + n, 0);
        at
    }

    fn patch(&mut self, at: usize, v: u32) {
        if let Some(slot) = self.bytes.get_mut(at..at + 4) {
            slot.copy_from_slice(&v.to_le_bytes());
        }
    }

    fn patch16(&mut self, at: usize, v: u16) {
        if let Some(slot) = self.bytes.get_mut(at..at + 2) {
            slot.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Appends a NUL-terminated string unless the same text is already in
    /// the chunk; fxc shares names this way (a cbuffer and its binding
    /// point at one string). Strings are not aligned: only records are.
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.strings.get(s) {
            return at;
        }
        let at = self.pos();
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.strings.insert(s.to_string(), at);
        at
    }
}

struct RdefWriter {
    buf: Buf,
    sm5: bool,
    strides: Strides,
    /// Types of top-level variables already written, so identical ones
    /// share a record as in fxc's output. Keyed by the whole type tree:
    /// two types that parse to equal values may share, nothing else can.
    types: Vec<(Type, u32)>,
    /// The same for struct members' types.
    member_types: Vec<(Type, u32)>,
    /// Default values already written.
    defaults: Vec<(Vec<u8>, u32)>,
}

impl RdefWriter {
    /// Writes a type (members first, then the record) and returns its
    /// offset, reusing an identical earlier record. fxc shares the types
    /// of top-level variables with each other and the types of struct
    /// members with each other, but not across the two (`member` says
    /// which this is), and never shares array types; following it keeps
    /// most chunks byte-identical to fxc's.
    fn ty(&mut self, ty: &Type, member: bool) -> u32 {
        let cache = if member {
            &self.member_types
        } else {
            &self.types
        };
        if ty.elements == 0
            && let Some((_, at)) = cache.iter().find(|(t, _)| t == ty)
        {
            return *at;
        }
        // fxc's order: the type's name, then each member's name and type,
        // then the member table, then the record itself.
        let name_at = match (&ty.name, self.sm5) {
            (Some(n), true) => self.buf.string(n),
            _ => 0,
        };
        let mut members = Vec::with_capacity(ty.members.len());
        for m in &ty.members {
            let name = self.buf.string(&m.name);
            let mty = self.ty(&m.ty, true);
            members.push((name, mty, m.offset));
        }
        let members_at = if members.is_empty() {
            0
        } else {
            self.buf.align();
            let at = self.buf.reserve(members.len() * self.strides.member);
            for (i, (name, mty, offset)) in members.iter().enumerate() {
                let rec = at + i * self.strides.member;
                self.buf.patch(rec, *name);
                self.buf.patch(rec + 4, *mty);
                self.buf.patch(rec + 8, *offset);
            }
            at as u32
        };
        self.buf.align();
        let at = self.buf.reserve(self.strides.ty);
        // The member count is a u16 on disk; a parsed type can never hold
        // more, so clamping only matters for hand-built values.
        let count = u16::try_from(ty.members.len()).unwrap_or(u16::MAX);
        for (i, v) in [ty.class, ty.base, ty.rows, ty.columns, ty.elements, count]
            .into_iter()
            .enumerate()
        {
            self.buf.patch16(at + 2 * i, v);
        }
        self.buf.patch(at + 12, members_at);
        if self.sm5 {
            let extra = ty.extra.unwrap_or([0; 4]);
            for (i, w) in extra.into_iter().enumerate() {
                self.buf.patch(at + 16 + 4 * i, w);
            }
            self.buf.patch(at + 32, name_at);
        }
        let at = at as u32;
        if member {
            self.member_types.push((ty.clone(), at));
        } else {
            self.types.push((ty.clone(), at));
        }
        at
    }

    /// Writes what a variable record points at (name, type, default value)
    /// and fills the record at `rec`.
    fn variable(&mut self, rec: usize, v: &Variable) {
        let name = self.buf.string(&v.name);
        let ty = self.ty(&v.ty, false);
        // Identical default values share one copy, as fxc writes them.
        let default = match &v.default_value {
            Some(bytes) => match self.defaults.iter().find(|(d, _)| d == bytes) {
                Some((_, at)) => *at,
                None => {
                    self.buf.align();
                    let at = self.buf.pos();
                    self.buf.bytes.extend_from_slice(bytes);
                    self.defaults.push((bytes.clone(), at));
                    at
                }
            },
            None => 0,
        };
        self.buf.patch(rec, name);
        self.buf.patch(rec + 4, v.offset);
        self.buf.patch(rec + 8, v.size);
        self.buf.patch(rec + 12, v.flags);
        self.buf.patch(rec + 16, ty);
        self.buf.patch(rec + 20, default);
        if self.sm5 {
            // No resources recorded reads as "none" (fxc's -1/0 pairs).
            let r = v.resources.unwrap_or(VariableResources {
                start_texture: u32::MAX,
                texture_size: 0,
                start_sampler: u32::MAX,
                sampler_size: 0,
            });
            self.buf.patch(rec + 24, r.start_texture);
            self.buf.patch(rec + 28, r.texture_size);
            self.buf.patch(rec + 32, r.start_sampler);
            self.buf.patch(rec + 36, r.sampler_size);
        }
    }

    fn binding(&mut self, rec: usize, b: &ResourceBinding, name: u32) {
        let input_type = input_type_value(b);
        let words = [
            name,
            input_type,
            b.return_type,
            b.dimension,
            b.num_samples,
            b.bind_point,
            b.bind_count,
            b.flags,
        ];
        for (i, w) in words.into_iter().enumerate() {
            self.buf.patch(rec + 4 * i, w);
        }
        if self.strides.binding >= BINDING_WITH_SPACE {
            self.buf.patch(rec + 32, b.space.unwrap_or(0));
            self.buf.patch(rec + 36, b.id.unwrap_or(0));
        }
    }

    fn cbuffer(&mut self, rec: usize, cb: &ConstantBuffer, name: u32) {
        let vars_at = if cb.variables.is_empty() {
            0
        } else {
            self.buf.align();
            let at = self.buf.reserve(cb.variables.len() * self.strides.variable);
            for (i, v) in cb.variables.iter().enumerate() {
                self.variable(at + i * self.strides.variable, v);
            }
            at as u32
        };
        let count = u32::try_from(cb.variables.len()).unwrap_or(u32::MAX);
        let kind = cbuffer_kind_value(cb);
        for (i, w) in [name, count, vars_at, cb.size, cb.flags, kind]
            .into_iter()
            .enumerate()
        {
            self.buf.patch(rec + 4 * i, w);
        }
    }
}

fn input_type_value(b: &ResourceBinding) -> u32 {
    use super::rdef::InputType::*;
    match b.input_type {
        CBuffer => 0,
        TBuffer => 1,
        Texture => 2,
        Sampler => 3,
        UavRwTyped => 4,
        Structured => 5,
        UavRwStructured => 6,
        ByteAddress => 7,
        UavRwByteAddress => 8,
        UavAppendStructured => 9,
        UavConsumeStructured => 10,
        UavRwStructuredWithCounter => 11,
        Other(v) => v,
    }
}

fn cbuffer_kind_value(cb: &ConstantBuffer) -> u32 {
    use super::rdef::CbufferKind::*;
    match cb.kind {
        CBuffer => 0,
        TBuffer => 1,
        InterfacePointers => 2,
        ResourceBindInfo => 3,
        Other(v) => v,
    }
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// RDEF chunk data. The layout (SM4, or SM5 with its RD11 header) follows
/// the target's major version, as the parser does; an SM5 target without
/// an RD11 header gets fxc's default one. Order as fxc writes it: header,
/// bindings, their names, cbuffers, each cbuffer's variables with their
/// names and types, the creator string.
///
/// The four raw words SM5 keeps per type ([`Type::extra`]) are written as
/// read. For interface types fxc stores chunk offsets there; those stay
/// meaningful only where this layout matches fxc's (it does for most
/// chunks), since their meaning is not known well enough to relocate them.
pub fn write_rdef(rdef: &Rdef) -> Vec<u8> {
    let sm5 = rdef.target.major >= 5;
    let rd11 = if sm5 {
        Some(
            rdef.rd11
                .unwrap_or_else(|| default_rd11(rdef.target.major, rdef.target.minor)),
        )
    } else {
        None
    };
    // Record sizes from RD11 (records may have grown in later versions;
    // the tail is left zero), never below what the parser needs.
    let strides = match &rd11 {
        Some(h) => {
            let (got, min) = (Strides::from_rd11(h), Strides::SM5_MIN);
            Strides {
                cbuffer: got.cbuffer.max(min.cbuffer),
                binding: got.binding.max(min.binding),
                variable: got.variable.max(min.variable),
                ty: got.ty.max(min.ty),
                member: got.member.max(min.member),
            }
        }
        None => Strides::SM4,
    };
    let mut w = RdefWriter {
        buf: Buf::new(),
        sm5,
        strides,
        types: Vec::new(),
        member_types: Vec::new(),
        defaults: Vec::new(),
    };

    w.buf.reserve(SM4_HEADER);
    if let Some(h) = &rd11 {
        let sizes = [
            h.magic,
            h.header_size,
            w.strides.cbuffer as u32,
            w.strides.binding as u32,
            w.strides.variable as u32,
            w.strides.ty as u32,
            w.strides.member as u32,
            h.reserved,
        ];
        for v in sizes {
            w.buf.u32(v);
        }
        // A longer declared header is honoured so the tables start where
        // a reader stepping over it expects them.
        let declared = h.header_size as usize;
        if declared > SM5_HEADER && declared < (1 << 16) {
            w.buf.reserve(declared - SM5_HEADER);
        }
    }

    // fxc points an empty binding table at the end of the header, and an
    // empty cbuffer table at 0.
    let bind_at = w.buf.reserve(rdef.bindings.len() * w.strides.binding);
    let mut binding_names = Vec::with_capacity(rdef.bindings.len());
    for b in &rdef.bindings {
        binding_names.push(w.buf.string(&b.name));
    }
    for (i, (b, name)) in rdef.bindings.iter().zip(binding_names).enumerate() {
        w.binding(bind_at + i * w.strides.binding, b, name);
    }
    let cb_at = if rdef.constant_buffers.is_empty() {
        0
    } else {
        w.buf.align();
        let at = w
            .buf
            .reserve(rdef.constant_buffers.len() * w.strides.cbuffer);
        // A cbuffer usually shares its binding's name; those without a
        // binding (interface pointers) get theirs after the table.
        let cbuffer_names: Vec<u32> = rdef
            .constant_buffers
            .iter()
            .map(|cb| w.buf.string(&cb.name))
            .collect();
        for (i, (cb, name)) in rdef.constant_buffers.iter().zip(cbuffer_names).enumerate() {
            w.cbuffer(at + i * w.strides.cbuffer, cb, name);
        }
        at
    };
    let creator = if rdef.creator.is_empty() {
        0
    } else {
        w.buf.string(&rdef.creator)
    };
    w.buf.align();

    let header = [
        count_u32(rdef.constant_buffers.len()),
        cb_at as u32,
        count_u32(rdef.bindings.len()),
        bind_at as u32,
        rdef.target.token,
        rdef.flags,
        creator,
    ];
    for (i, v) in header.into_iter().enumerate() {
        w.buf.patch(4 * i, v);
    }
    w.buf.bytes
}

/// Signature chunk data in the element layout its FourCC names: 24-byte
/// ISGN/OSGN/PCSG, 28-byte OSG5 (stream first), 32-byte ISG1/OSG1/PSG1
/// (stream first, minimum precision last). A FourCC that is not a
/// signature falls back to the 24-byte layout.
pub fn write_signature(sig: &Signature) -> Vec<u8> {
    let stride = match signature_layout(&sig.fourcc) {
        Some((stride, _)) => stride,
        None => 24,
    };
    let mut buf = Buf::new();
    buf.u32(count_u32(sig.elements.len()));
    buf.u32(8);
    let table = buf.reserve(sig.elements.len() * stride);
    // Names follow the table, shared between elements (fxc writes
    // "TEXCOORD" once for all its indices).
    let names: Vec<u32> = sig
        .elements
        .iter()
        .map(|e| buf.string(&e.semantic_name))
        .collect();
    buf.align();
    for (i, (e, name)) in sig.elements.iter().zip(names).enumerate() {
        let mut at = table + i * stride;
        if stride >= 28 {
            buf.patch(at, e.stream);
            at += 4;
        }
        for (j, v) in [
            name,
            e.semantic_index,
            e.system_value,
            e.component_type,
            e.register,
        ]
        .into_iter()
        .enumerate()
        {
            buf.patch(at + 4 * j, v);
        }
        if let Some(bytes) = buf.bytes.get_mut(at + 20..at + 24) {
            bytes.copy_from_slice(&[e.mask, e.rw_mask, 0, 0]);
        }
        if stride >= 32 {
            buf.patch(at + 24, e.min_precision);
        }
    }
    buf.bytes
}

/// The FourCC fxc would use for a signature of this kind: the 32-byte
/// layout when an element has a minimum precision (only it can say so),
/// OSG5 for SM5 geometry-shader outputs, the 24-byte layout otherwise.
pub fn signature_fourcc(kind: SignatureKind, min_precision: bool, sm5_gs_output: bool) -> [u8; 4] {
    match (kind, min_precision) {
        (SignatureKind::Input, true) => *b"ISG1",
        (SignatureKind::Output, true) => *b"OSG1",
        (SignatureKind::PatchConstant, true) => *b"PSG1",
        (SignatureKind::Output, false) if sm5_gs_output => *b"OSG5",
        (SignatureKind::Input, false) => *b"ISGN",
        (SignatureKind::Output, false) => *b"OSGN",
        (SignatureKind::PatchConstant, false) => *b"PCSG",
    }
}

/// STAT chunk data: the words as stored.
pub fn write_stat(stat: &Stat) -> Vec<u8> {
    stat.words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// SFI0 chunk data: the 64 feature bits, little-endian.
pub fn write_features(features: &ShaderFeatures) -> Vec<u8> {
    features.flags.to_le_bytes().to_vec()
}

/// A whole container rebuilt from a parsed shader: RDEF, the signatures,
/// the program, STAT, SFI0 and `LSTY`, in the order fxc writes them, with
/// a correct hash. `Shader::parse` of it gives back the same structures
/// (each writer is its parser's inverse, `encode` is `decode`'s), which is
/// what lets a shader cross a process boundary as bytes when only its
/// parsed form is at hand (the Vulkan worker, `harness::gpu::isolated`).
/// Chunks the parser does not read are not carried, and the chunks' places
/// may differ, so the instructions' byte offsets (`Instruction::offset`)
/// are the new container's: a reader that reports them sets them back.
pub fn shader_container(shader: &super::shader::Shader) -> Vec<u8> {
    let mut chunks: Vec<([u8; 4], Vec<u8>)> = Vec::new();
    if let Some(rdef) = &shader.rdef {
        chunks.push((*b"RDEF", write_rdef(rdef)));
    }
    for sig in &shader.signatures {
        chunks.push((sig.fourcc, write_signature(sig)));
    }
    let name = if shader.program.shex {
        *b"SHEX"
    } else {
        *b"SHDR"
    };
    let words = super::encode::encode_program(&shader.program);
    chunks.push((name, words.iter().flat_map(|w| w.to_le_bytes()).collect()));
    if let Some(features) = &shader.features {
        chunks.push((*b"SFI0", write_features(features)));
    }
    if let Some(stat) = &shader.stat {
        chunks.push((*b"STAT", write_stat(stat)));
    }
    if let Some(style) = shader.listing_style {
        use super::disasm::style_chunk;
        chunks.push((style_chunk::FOURCC, style_chunk::write(style)));
    }
    let refs: Vec<(&[u8; 4], &[u8])> = chunks.iter().map(|(f, d)| (f, d.as_slice())).collect();
    super::container::build_container(&refs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::rdef::tests::sm5_rdef;
    use crate::dxbc::rdef::{Member, Target, class};
    use crate::dxbc::signature::SignatureElement;

    #[test]
    fn rdef_round_trips_through_the_parser() {
        let rdef = Rdef::parse(&sm5_rdef(), 0).unwrap();
        let bytes = write_rdef(&rdef);
        assert_eq!(Rdef::parse(&bytes, 0).unwrap(), rdef);
    }

    fn scalar() -> Type {
        Type {
            class: class::SCALAR,
            base: 3,
            rows: 1,
            columns: 1,
            elements: 0,
            members: vec![],
            name: None,
            extra: None,
        }
    }

    #[test]
    fn sm4_rdef_with_structs_defaults_and_shared_types() {
        let s = Type {
            class: class::STRUCT,
            base: 0,
            rows: 1,
            columns: 2,
            elements: 3,
            members: vec![
                Member {
                    name: "a".into(),
                    offset: 0,
                    ty: scalar(),
                },
                Member {
                    name: "b".into(),
                    offset: 4,
                    ty: scalar(),
                },
            ],
            name: None,
            extra: None,
        };
        let var = |name: &str, ty: Type, default: Option<Vec<u8>>| Variable {
            name: name.into(),
            offset: 0,
            size: 4,
            flags: 2,
            ty,
            default_value: default,
            resources: None,
        };
        let rdef = Rdef {
            target: Target::from_token(0xFFFE_0400),
            flags: 0x100,
            creator: "me".into(),
            rd11: None,
            constant_buffers: vec![ConstantBuffer {
                name: "cb".into(),
                kind: super::super::rdef::CbufferKind::CBuffer,
                size: 48,
                flags: 0,
                variables: vec![
                    var("x", scalar(), Some(vec![0, 0, 0x80, 0x3f])),
                    var("y", scalar(), None),
                    var("s", s, None),
                ],
            }],
            bindings: vec![],
        };
        let bytes = write_rdef(&rdef);
        assert_eq!(Rdef::parse(&bytes, 0).unwrap(), rdef);
        // An empty binding table points at the end of the 7-word header.
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 28);
    }

    #[test]
    fn sm51_bindings_keep_space_and_id() {
        let mut rdef = Rdef::parse(&sm5_rdef(), 0).unwrap();
        rdef.target = Target::from_token(0xFFFF_0501);
        rdef.rd11 = Some(default_rd11(5, 1));
        for (i, b) in rdef.bindings.iter_mut().enumerate() {
            b.space = Some(i as u32 + 1);
            b.id = Some(7);
        }
        let bytes = write_rdef(&rdef);
        assert_eq!(Rdef::parse(&bytes, 0).unwrap(), rdef);
    }

    #[test]
    fn signatures_round_trip_in_each_layout() {
        let el = |name: &str, reg: u32| SignatureElement {
            semantic_name: name.into(),
            semantic_index: 1,
            system_value: 0,
            component_type: 3,
            register: reg,
            mask: 0xf,
            rw_mask: 0x3,
            stream: 0,
            min_precision: 0,
        };
        for fourcc in [b"ISGN", b"OSG5", b"ISG1", b"PCSG"] {
            let (_, kind) = signature_layout(fourcc).unwrap();
            let mut elements = vec![el("TEXCOORD", 0), el("TEXCOORD", 1), el("SV_Position", 2)];
            if fourcc != b"ISGN" && fourcc != b"PCSG" {
                elements[1].stream = 2;
            }
            if fourcc == b"ISG1" {
                elements[2].min_precision = 1;
            }
            let sig = Signature {
                fourcc: *fourcc,
                kind,
                elements,
            };
            let bytes = write_signature(&sig);
            assert!(bytes.len().is_multiple_of(4));
            assert_eq!(Signature::parse(fourcc, &bytes, 0).unwrap(), sig);
        }
    }

    #[test]
    fn stat_and_features_round_trip() {
        let stat = Stat {
            words: (0..37).collect(),
        };
        assert_eq!(Stat::parse(&write_stat(&stat), 0).unwrap(), stat);
        let f = ShaderFeatures {
            flags: 0x8000_0000_0000_0201,
        };
        assert_eq!(ShaderFeatures::parse(&write_features(&f), 0).unwrap(), f);
    }

    #[test]
    fn a_parsed_shader_rebuilds_into_a_container_that_parses_the_same() {
        use crate::dxbc::shader::{ParseOptions, Shader};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/shadow_pcf.dxbc");
        let bytes = std::fs::read(path).expect("the shipped shader");
        let mut shader = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
        // It has signatures, a program and STAT; the chunks it lacks are
        // given it, so every chunk the parser reads is written.
        assert!(shader.stat.is_some() && shader.signatures.len() == 2);
        shader.rdef = Some(Rdef::parse(&sm5_rdef(), 0).unwrap());
        shader.features = Some(ShaderFeatures {
            flags: 0x8000_0000_0000_0201,
        });
        let style = crate::dxbc::disasm::Style {
            upper_cb_decl: true,
            ..Default::default()
        };
        shader.listing_style = Some(style);
        // The rebuilt container carries a correct hash: the default
        // options verify it.
        let again = Shader::parse(&shader_container(&shader), ParseOptions::default())
            .expect("the rebuilt container parses");
        assert_eq!(again.rdef, shader.rdef);
        assert_eq!(again.signatures, shader.signatures);
        // Equal but for where the program now starts in the container.
        let mut program = again.program.clone();
        let shift = shader.program.instructions[0].offset as isize
            - program.instructions[0].offset as isize;
        for i in &mut program.instructions {
            i.offset = (i.offset as isize + shift) as usize;
        }
        assert_eq!(program, shader.program);
        assert_eq!(again.stat, shader.stat);
        assert_eq!(again.features, shader.features);
        assert_eq!(again.listing_style, shader.listing_style);
    }
}
