//! A whole shader container read into owned, typed parts: the entry point
//! for every command and for the layers above `dxbc`.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::analysis::{Analysis, AnalysisError, IoLayout, Registers};
use super::checksum::checksum_matches;
use super::container::{Chunk, Container, fourcc_name};
use super::decode::decode_program;
use super::disasm::{self, Style};
use super::error::Result;
use super::ir::Program;
use super::rdef::Rdef;
use super::signature::{Signature, SignatureElement, SignatureKind, is_signature};
use super::stat::{ShaderFeatures, Stat};

#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    /// Reject containers whose stored hash does not match (fxc's loaders do).
    pub verify_checksum: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            verify_checksum: true,
        }
    }
}

/// Where a chunk lies in the container; unknown chunks are listed too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkInfo {
    pub fourcc: [u8; 4],
    /// Absolute offset of the chunk's 8-byte header.
    pub offset: usize,
    pub size: usize,
    /// Whether this reader interprets the chunk.
    pub known: bool,
}

impl ChunkInfo {
    pub fn name(&self) -> String {
        fourcc_name(&self.fourcc)
    }
}

#[derive(Debug, Clone)]
pub struct Shader {
    pub size: usize,
    pub stored_checksum: [u32; 4],
    /// Some(true) when the hash was verified while parsing, None when the
    /// caller asked not to verify (hashing costs as much as decoding, so it
    /// is only done on request; see [`Shader::check_checksum`]).
    pub checksum_ok: Option<bool>,
    pub chunks: Vec<ChunkInfo>,
    pub rdef: Option<Rdef>,
    pub signatures: Vec<Signature>,
    pub program: Program,
    pub stat: Option<Stat>,
    pub features: Option<ShaderFeatures>,
    /// Printing style recorded by the assembler (`LSTY` chunk), if any.
    pub listing_style: Option<Style>,
    /// The analysis pass's result, worked out on first use (listing a
    /// shader needs none) and then shared by every consumer.
    analysis: OnceLock<std::result::Result<Analysis, AnalysisError>>,
}

const KNOWN_CHUNKS: [&[u8; 4]; 13] = [
    b"RDEF", b"ISGN", b"OSGN", b"OSG5", b"ISG1", b"OSG1", b"PCSG", b"PSG1", b"SHDR", b"SHEX",
    b"STAT", b"SFI0", b"LSTY",
];

impl Shader {
    pub fn parse(bytes: &[u8], opts: ParseOptions) -> Result<Shader> {
        let container = Container::parse(bytes, opts.verify_checksum)?;
        let program_chunk = *container.require_program()?;
        let chunk = |c: &Chunk| ChunkInfo {
            fourcc: c.fourcc,
            offset: c.header_offset(),
            size: c.data.len(),
            known: KNOWN_CHUNKS.contains(&&c.fourcc),
        };
        let mut rdef = None;
        let mut signatures = Vec::new();
        let mut stat = None;
        let mut features = None;
        let mut listing_style = None;
        for c in &container.chunks {
            match &c.fourcc {
                b"RDEF" if rdef.is_none() => rdef = Some(Rdef::parse(c.data, c.offset)?),
                b"STAT" if stat.is_none() => stat = Some(Stat::parse(c.data, c.offset)?),
                b"SFI0" if features.is_none() => {
                    features = Some(ShaderFeatures::parse(c.data, c.offset)?)
                }
                f if *f == disasm::style_chunk::FOURCC => {
                    listing_style = disasm::style_chunk::read(c.data)
                }
                f if is_signature(f) => signatures.push(Signature::parse(f, c.data, c.offset)?),
                _ => {}
            }
        }
        let program = decode_program(
            program_chunk.data,
            program_chunk.offset,
            &program_chunk.fourcc == b"SHEX",
        )?;
        Ok(Shader {
            size: bytes.len(),
            stored_checksum: container.checksum,
            checksum_ok: opts.verify_checksum.then_some(true),
            chunks: container.chunks.iter().map(chunk).collect(),
            rdef,
            signatures,
            program,
            stat,
            features,
            listing_style,
            analysis: OnceLock::new(),
        })
    }

    /// The analysis pass over the program and its signatures
    /// ([`Analysis::of_shader`]), run once. It describes the program as
    /// it was when first asked for: code that edits `program` afterwards
    /// calls [`Analysis::of_shader`] itself.
    pub fn analysis(&self) -> std::result::Result<&Analysis, &AnalysisError> {
        self.analysis
            .get_or_init(|| Analysis::of_shader(self))
            .as_ref()
    }

    /// The input layout: the analysis's, or worked out on its own for a
    /// program the analysis rejects. The machine refuses to run such a
    /// program, but a caller can still show what its inputs would be.
    pub fn input_layout(&self) -> Cow<'_, IoLayout> {
        match self.analysis() {
            Ok(a) => Cow::Borrowed(&a.inputs),
            Err(_) => Cow::Owned(IoLayout::of_inputs(self)),
        }
    }

    /// The register files' declared sizes, as [`Shader::input_layout`]:
    /// the analysis's, or read on their own for a rejected program.
    pub fn register_sizes(&self) -> Cow<'_, Registers> {
        match self.analysis() {
            Ok(a) => Cow::Borrowed(&a.registers),
            Err(_) => Cow::Owned(Registers::of(&self.program)),
        }
    }

    /// Records whether `bytes` (the input this was parsed from) carries a
    /// matching hash.
    pub fn check_checksum(&mut self, bytes: &[u8]) {
        self.checksum_ok = Some(checksum_matches(bytes));
    }

    /// The fxc printing style that matches the compiler that built this.
    pub fn style(&self) -> Style {
        if let Some(s) = self.listing_style {
            return s;
        }
        self.rdef
            .as_ref()
            .map(|r| Style::from_creator(&r.creator))
            .unwrap_or_default()
    }

    pub fn signature(&self, fourccs: &[&[u8; 4]]) -> Option<&Signature> {
        self.signatures
            .iter()
            .find(|s| fourccs.contains(&&s.fourcc))
    }

    /// The elements of the shader's signature of `kind` (input, output or
    /// patch constant), whichever of its chunk's variants it carries.
    pub fn elements(&self, kind: SignatureKind) -> Option<&[SignatureElement]> {
        self.signatures
            .iter()
            .find(|s| s.kind == kind)
            .map(|s| s.elements.as_slice())
    }

    /// Instruction and declaration lines, as fxc prints them.
    pub fn program_lines(&self) -> Vec<String> {
        disasm::program_lines(&self.program, self.style())
    }
}
