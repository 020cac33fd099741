//! The comment header of an fxc listing read back into the chunks it was
//! printed from: the banner into RDEF's creator, Buffer Definitions and
//! Resource Bindings into RDEF, the signature tables into ISGN/OSGN/PCSG
//! (or their SM5 variants), the feature note into SFI0 and the
//! tessellation / sample-frequency notes into STAT.
//!
//! The target is what [`crate::dxbc::header::listing_header_from`] prints:
//! built from a [`ParsedHeader`], it gives back the same lines
//! (whitespace-normalised), and so does a container written from it. The
//! header shows only part of each chunk; everything it does not show is
//! filled with what fxc writes most often (documented field by field
//! below), never with something that would change the printed text.
//!
//! Lines that no chunk can carry (3Dmigoto's "using 3Dmigoto" line, the
//! interface class tables, the Level9 section of `_level_9_x` listings)
//! are skipped and reported in [`ParsedHeader::unrepresented`], so a caller
//! can warn that the assembled shader will not print them.

use super::error::{AsmError, AsmResult};
use crate::dxbc::header::{HeaderParts, listing_header_from};
use crate::dxbc::rdef::{
    CbufferKind, ConstantBuffer, InputType, MAX_TYPE_DEPTH, Member, ProgramType, Rdef,
    ResourceBinding, Target, Type, Variable, VariableResources, base_type_name, class, input_flags,
    variable_flags,
};
use crate::dxbc::signature::{Signature, SignatureElement, SignatureKind, system_value_name};
use crate::dxbc::stat::{
    FEATURE_NAMES, ShaderFeatures, Stat, field, tessellator_domain_name,
    tessellator_output_primitive_name, tessellator_partitioning_name,
};
use crate::dxbc::write::{
    default_rd11, signature_fourcc, write_features, write_rdef, write_signature, write_stat,
};

/// A compile target as the profile line names it (`ps_5_0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub program: ProgramType,
    pub major: u8,
    pub minor: u8,
}

impl Profile {
    /// Reads `ps_5_0`, `cs_4_1`, ... (surrounding whitespace allowed).
    /// Only the SM4/SM5 program types are accepted.
    pub fn parse(text: &str) -> Option<Profile> {
        let mut parts = text.trim().split('_');
        let program = match parts.next()? {
            "ps" => ProgramType::Pixel,
            "vs" => ProgramType::Vertex,
            "gs" => ProgramType::Geometry,
            "hs" => ProgramType::Hull,
            "ds" => ProgramType::Domain,
            "cs" => ProgramType::Compute,
            _ => return None,
        };
        let major: u8 = parts.next()?.parse().ok()?;
        let minor: u8 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || major > 15 || minor > 15 {
            return None;
        }
        Some(Profile {
            program,
            major,
            minor,
        })
    }

    /// RDEF's target token: the program marker (0xFFFF for ps, 'GS', ...)
    /// in the high half, then major and minor.
    pub fn rdef_token(&self) -> u32 {
        let marker: u32 = match self.program {
            ProgramType::Pixel => 0xFFFF,
            ProgramType::Vertex => 0xFFFE,
            ProgramType::Geometry => 0x4753,
            ProgramType::Hull => 0x4853,
            ProgramType::Domain => 0x4453,
            ProgramType::Compute => 0x4353,
            ProgramType::Other(v) => v as u32,
        };
        (marker << 16) | ((self.major as u32) << 8) | self.minor as u32
    }

    /// The program chunk's version token (type in bits 16..32, then major
    /// and minor nibbles).
    pub fn program_token(&self) -> u32 {
        let kind: u32 = match self.program {
            ProgramType::Pixel => 0,
            ProgramType::Vertex => 1,
            ProgramType::Geometry => 2,
            ProgramType::Hull => 3,
            ProgramType::Domain => 4,
            ProgramType::Compute => 5,
            ProgramType::Other(v) => v as u32,
        };
        (kind << 16) | ((self.major as u32 & 0xf) << 4) | (self.minor as u32 & 0xf)
    }
}

/// Everything an fxc comment header says, as the chunks it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedHeader {
    /// RDEF: present when the header shows a compiler banner, buffers,
    /// bindings or the layout only an RDEF produces (see [`parse_header`]).
    pub rdef: Option<Rdef>,
    /// In the order the header lists them (patch constant, input, output).
    pub signatures: Vec<Signature>,
    /// Present whenever the header has a banner (fxc always writes STAT);
    /// only the words the header shows are non-zero. The instruction count
    /// comes from the listing's last line: see [`parse_slot_count`] and
    /// [`ParsedHeader::set_instruction_count`].
    pub stat: Option<Stat>,
    /// SFI0, present when the feature note names a bit of it.
    pub features: Option<ShaderFeatures>,
    /// The program type the tables were read for: the profile's, or
    /// inferred from the header when no profile was given.
    pub program: Option<ProgramType>,
    /// "Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED.":
    /// the printer shows it when the program holds printf/errorf messages,
    /// so it is the program's job to reproduce, not a chunk's.
    pub debug_layer_note: bool,
    /// "Early depth-stencil" in the feature note. It is not an SFI0 bit:
    /// it reflects the program's `forceEarlyDepthStencil` global flag, and
    /// the header printer does not show it yet.
    pub early_depth_stencil: bool,
    /// Line numbers of header lines no chunk can carry, skipped: the
    /// 3Dmigoto "using" line, interface class tables, the Level9 section,
    /// unrecognised comments.
    pub unrepresented: Vec<usize>,
}

impl ParsedHeader {
    /// True when the input had no header at all (no banner, no section).
    pub fn is_empty(&self) -> bool {
        self.rdef.is_none()
            && self.signatures.is_empty()
            && self.stat.is_none()
            && self.features.is_none()
            && !self.debug_layer_note
            && !self.early_depth_stencil
    }

    /// The header printer's output for these parts.
    pub fn print(&self) -> Vec<String> {
        let signatures: Vec<&Signature> = self.signatures.iter().collect();
        listing_header_from(&HeaderParts {
            rdef: self.rdef.as_ref(),
            signatures: &signatures,
            stat: self.stat.as_ref(),
            features: self.features.as_ref(),
            program: self.program,
            debug_layer_note: self.debug_layer_note,
            early_depth_stencil: self.early_depth_stencil,
        })
    }

    /// Puts the "Approximately N instruction slots used" count into STAT,
    /// creating a zeroed STAT if there is none.
    pub fn set_instruction_count(&mut self, n: u32) {
        let sm5 = self.rdef.as_ref().is_none_or(|r| r.target.major >= 5);
        let stat = self.stat.get_or_insert_with(|| Stat {
            words: vec![0; stat_words(sm5, false)],
        });
        if let Some(w) = stat.words.get_mut(field::INSTRUCTION_COUNT) {
            *w = n;
        }
    }

    /// The chunks for a container, in fxc's order, around the given
    /// program chunk: RDEF, input, then output and patch-constant
    /// signatures (patch constants before outputs in a domain shader),
    /// the program, SFI0, STAT.
    pub fn container_chunks(
        &self,
        program_fourcc: [u8; 4],
        program: &[u8],
    ) -> Vec<([u8; 4], Vec<u8>)> {
        let mut out = Vec::new();
        if let Some(rdef) = &self.rdef {
            out.push((*b"RDEF", write_rdef(rdef)));
        }
        let order = if self.program == Some(ProgramType::Domain) {
            [
                SignatureKind::Input,
                SignatureKind::PatchConstant,
                SignatureKind::Output,
            ]
        } else {
            [
                SignatureKind::Input,
                SignatureKind::Output,
                SignatureKind::PatchConstant,
            ]
        };
        for kind in order {
            for sig in self.signatures.iter().filter(|s| s.kind == kind) {
                out.push((sig.fourcc, write_signature(sig)));
            }
        }
        out.push((program_fourcc, program.to_vec()));
        if let Some(f) = &self.features {
            out.push((*b"SFI0", write_features(f)));
        }
        if let Some(s) = &self.stat {
            out.push((*b"STAT", write_stat(s)));
        }
        out
    }
}

/// STAT length fxc writes: 37 words from SM5 compilers, 29 from SM4 ones
/// (which have no tessellation words).
fn stat_words(sm5: bool, tessellation: bool) -> usize {
    if sm5 || tessellation { 37 } else { 29 }
}

/// The count in fxc's closing "// Approximately N instruction slots used"
/// line, or None if the line is not one.
pub fn parse_slot_count(line: &str) -> Option<u32> {
    let body = line.trim().strip_prefix("//")?.trim();
    let rest = body.strip_prefix("Approximately ")?;
    let (n, tail) = rest.split_once(' ')?;
    if !tail.trim_start().starts_with("instruction slots used") {
        return None;
    }
    n.parse().ok()
}

/// A line of text with its 1-based line number.
pub type NumberedLine<'a> = (usize, &'a str);

/// Splits a listing into its leading header lines (1-based line numbers)
/// and the profile line that ends them. Without a profile line the header
/// is the leading run of comment and blank lines.
pub fn leading_header(text: &str) -> (Vec<NumberedLine<'_>>, Option<NumberedLine<'_>>) {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    if let Some(p) = lines
        .iter()
        .position(|(_, l)| Profile::parse(l).is_some_and(|p| p.major >= 4))
    {
        return (lines[..p].to_vec(), Some(lines[p]));
    }
    let end = lines
        .iter()
        .position(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("//")
        })
        .unwrap_or(lines.len());
    (lines[..end].to_vec(), None)
}

/// One input line: its number, its text, and the text after `//` when it
/// is a comment.
#[derive(Clone, Copy)]
struct Line<'a> {
    no: usize,
    text: &'a str,
    body: Option<&'a str>,
}

impl<'a> Line<'a> {
    fn new(no: usize, text: &'a str) -> Self {
        let body = text.trim_start().strip_prefix("//");
        Line { no, text, body }
    }

    /// A comment line with nothing after `//` (fxc's blank separators).
    fn is_separator(&self) -> bool {
        self.body.is_some_and(|b| b.trim().is_empty())
    }

    fn trimmed(&self) -> &'a str {
        self.body.map(str::trim).unwrap_or("")
    }

    /// 1-based character column of `sub`, which should be a slice of this
    /// line (the tokens handed around are); otherwise its first occurrence.
    fn col(&self, sub: &str) -> usize {
        let start = (sub.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        let byte = if start <= self.text.len() && self.text.is_char_boundary(start) {
            start
        } else {
            self.text.find(sub).unwrap_or(0)
        };
        self.text[..byte].chars().count() + 1
    }

    fn err(&self, token: &str, message: impl Into<String>) -> AsmError {
        if token.is_empty() {
            AsmError::new(self.no, self.col(self.trimmed()), message)
        } else {
            AsmError::at(self.no, self.col(token), token, message)
        }
    }
}

/// Which binding-table layout a header used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BindColumns {
    SlotElements,
    HlslBind,
    HlslBindWithId,
}

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

struct RawSignature<'a> {
    kind: SignatureKind,
    rows: Vec<RawRow<'a>>,
}

/// A declaration inside a buffer definition, with its absolute offset.
struct Decl {
    name: String,
    offset: u32,
    size: Option<u32>,
    unused: bool,
    ty: Type,
    default_value: Option<Vec<u8>>,
}

/// Titles of sections whose content no chunk written here carries.
fn unrepresented_title(t: &str) -> bool {
    matches!(
        t,
        "Available Class Types:"
            | "Available Class Instances:"
            | "Constant buffer to DX9 shader constant mappings:"
            | "Sampler/Resource to DX9 shader sampler mappings:"
            | "Runtime generated constant mappings:"
            | "Level9 shader bytecode:"
    ) || (t.starts_with("Interface slots,") && t.ends_with("total:"))
}

/// Titles this parser reads.
fn known_title(t: &str) -> bool {
    matches!(
        t,
        "Buffer Definitions:"
            | "Resource Bindings:"
            | "Input signature:"
            | "Output signature:"
            | "Patch Constant signature:"
            | "Note: shader requires additional functionality:"
            | "Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED."
            | "Pixel Shader runs at sample frequency"
    ) || t.starts_with("Generated by ")
        || t.starts_with("Tessellation Domain")
        || t.starts_with("Tessellation Output Primitive")
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    i: usize,
    sm5: bool,
    out: ParsedHeader,
    banner: bool,
    creator: String,
    slash3: bool,
    /// Separators between the banner and the first section, and whether a
    /// section has started (after which they are not counted).
    separators: usize,
    content_started: bool,
    first_content_is_signature: bool,
    /// A 3Dmigoto "using" line followed a separator: its own separator
    /// follows and is not fxc's.
    skip_next_separator: bool,
    buffers: Option<Vec<ConstantBuffer>>,
    bindings: Option<(BindColumns, Vec<ResourceBinding>)>,
    signatures: Vec<RawSignature<'a>>,
    feature_bits: u64,
    sample_frequency: bool,
    domain: Option<(u32, u32)>,
    output_primitive: Option<(u32, u32)>,
}

/// Reads an fxc comment header back into chunks.
///
/// `lines` are the listing's leading lines with their 1-based numbers (see
/// [`leading_header`]); `profile` is the profile line that follows them.
/// Without a profile the program type is inferred where the header allows
/// (tessellation notes, sample frequency) and the target defaults to 5.0
/// (5.1 when the binding table has an ID column).
///
/// Whether an RDEF exists is not always spelled out: a listing from the
/// "D3D Shader Disassembler" (no creator string) of a shader whose RDEF
/// was empty differs from one without an RDEF only by one more blank `//`
/// line after the banner, which the printer emits for an RDEF. That line
/// decides: with it the result has an RDEF with an empty creator and no
/// buffers or bindings, without it no RDEF.
///
/// Plain instruction text with no header gives an empty [`ParsedHeader`].
pub fn parse_header(lines: &[(usize, &str)], profile: Option<Profile>) -> AsmResult<ParsedHeader> {
    let mut p = Parser {
        lines: lines
            .iter()
            .map(|&(no, text)| Line::new(no, text))
            .collect(),
        i: 0,
        sm5: profile.is_none_or(|p| p.major >= 5),
        out: ParsedHeader::default(),
        banner: false,
        creator: String::new(),
        slash3: false,
        separators: 0,
        content_started: false,
        first_content_is_signature: false,
        skip_next_separator: false,
        buffers: None,
        bindings: None,
        signatures: Vec::new(),
        feature_bits: 0,
        sample_frequency: false,
        domain: None,
        output_primitive: None,
    };
    p.run()?;
    p.finish(profile)
}

impl<'a> Parser<'a> {
    fn line(&self) -> Option<Line<'a>> {
        self.lines.get(self.i).copied()
    }

    fn skip(&mut self) {
        let no = self.lines.get(self.i).map(|l| l.no);
        if let Some(no) = no {
            self.out.unrepresented.push(no);
        }
        self.i += 1;
    }

    /// Moves past blank `//` lines (and empty lines) inside a section.
    fn skip_separators(&mut self) {
        while let Some(l) = self.line() {
            if l.is_separator() || l.text.trim().is_empty() {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    /// The next non-blank line, or an error naming what was expected.
    fn next_content(&mut self, expected: &str) -> AsmResult<Line<'a>> {
        self.skip_separators();
        match self.line() {
            Some(l) if l.body.is_some() => Ok(l),
            Some(l) => Err(l.err(
                l.text.split_whitespace().next().unwrap_or(""),
                format!("expected {expected} in the listing header"),
            )),
            None => {
                let (no, col) = self
                    .lines
                    .last()
                    .map_or((1, 1), |l| (l.no, l.text.chars().count() + 1));
                Err(AsmError::new(
                    no,
                    col,
                    format!("the listing header ends where {expected} was expected"),
                ))
            }
        }
    }

    fn content(&mut self, signature: bool) {
        if !self.content_started {
            self.content_started = true;
            self.first_content_is_signature = signature;
        }
    }

    fn run(&mut self) -> AsmResult<()> {
        while let Some(l) = self.line() {
            let Some(body) = l.body else {
                if l.text.trim().is_empty() {
                    self.i += 1;
                    continue;
                }
                let token = l.text.split_whitespace().next().unwrap_or("");
                return Err(l.err(token, "expected a `//` comment line in the listing header"));
            };
            let t = body.trim();
            if t.is_empty() {
                if self.skip_next_separator {
                    self.skip_next_separator = false;
                    self.skip();
                    continue;
                }
                if self.banner && !self.content_started {
                    self.separators += 1;
                }
                self.i += 1;
                continue;
            }
            if t == "/" {
                // The bare "///" one fxc build prints inside the RDEF part.
                self.slash3 = true;
                self.i += 1;
                continue;
            }
            if let Some(creator) = t.strip_prefix("Generated by ") {
                self.banner_line(l, creator)?;
                continue;
            }
            if t.starts_with("using 3Dmigoto") {
                // 3Dmigoto adds this line (and, after a blank line, a blank
                // line of its own) below the disassembler's banner.
                let after_separator =
                    self.i > 0 && self.lines.get(self.i - 1).is_some_and(|p| p.is_separator());
                if after_separator && !self.content_started {
                    self.skip_next_separator = true;
                }
                self.skip();
                continue;
            }
            match t {
                "Buffer Definitions:" => {
                    self.content(false);
                    self.buffer_definitions()?;
                }
                "Resource Bindings:" => {
                    self.content(false);
                    self.binding_table()?;
                }
                "Input signature:" | "Output signature:" | "Patch Constant signature:" => {
                    self.content(true);
                    let kind = match t {
                        "Input signature:" => SignatureKind::Input,
                        "Output signature:" => SignatureKind::Output,
                        _ => SignatureKind::PatchConstant,
                    };
                    self.signature_table(kind)?;
                }
                "Note: shader requires additional functionality:" => {
                    self.content(false);
                    self.feature_note()?;
                }
                "Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED." => {
                    self.content(false);
                    self.out.debug_layer_note = true;
                    self.i += 1;
                }
                "Pixel Shader runs at sample frequency" => {
                    self.content(false);
                    self.sample_frequency = true;
                    self.i += 1;
                }
                _ if t.starts_with("Tessellation Domain") => {
                    self.content(false);
                    self.tessellation_domain()?;
                }
                _ if t.starts_with("Tessellation Output Primitive") => {
                    self.content(false);
                    self.tessellation_output()?;
                }
                _ if unrepresented_title(t) => self.unrepresented_section(),
                // Any other comment is free text no chunk carries.
                _ => self.skip(),
            }
        }
        Ok(())
    }

    fn banner_line(&mut self, l: Line<'a>, creator: &str) -> AsmResult<()> {
        if self.banner {
            return Err(l.err(
                l.trimmed(),
                "a second compiler banner in the listing header",
            ));
        }
        self.banner = true;
        let creator = creator.trim();
        // The disassembler's own banner stands for "no creator string".
        if creator != "Microsoft (R) D3D Shader Disassembler" {
            self.creator = creator.to_string();
        }
        self.i += 1;
        Ok(())
    }

    /// Skips a section no chunk carries, up to the next section this
    /// parser reads. The blank line fxc puts before it goes too, since the
    /// printer, which does not print the section, does not print that one.
    fn unrepresented_section(&mut self) {
        if let Some(prev) = self.i.checked_sub(1).and_then(|p| self.lines.get(p)) {
            let no = prev.no;
            if prev.is_separator() && !self.out.unrepresented.contains(&no) {
                self.out.unrepresented.push(no);
            }
        }
        self.skip();
        while let Some(l) = self.line() {
            let t = l.trimmed();
            if l.body.is_some() && known_title(t) {
                break;
            }
            self.skip();
        }
    }

    fn feature_note(&mut self) -> AsmResult<()> {
        self.i += 1;
        while let Some(l) = self.line() {
            if l.body.is_none() || l.is_separator() {
                break;
            }
            let name = l.trimmed();
            if name == "Early depth-stencil" {
                self.out.early_depth_stencil = true;
            } else if let Some(bit) = FEATURE_NAMES.iter().position(|n| *n == name) {
                self.feature_bits |= 1u64 << bit;
            } else if let Some(n) = name
                .strip_prefix("Unknown feature bit ")
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n < 64)
            {
                self.feature_bits |= 1u64 << n;
            } else {
                return Err(l.err(name, "expected the name of a required shader feature"));
            }
            self.i += 1;
        }
        Ok(())
    }

    fn tessellation_domain(&mut self) -> AsmResult<()> {
        self.i += 1;
        let l = self.table_row("the tessellation domain row")?;
        let toks: Vec<&str> = l.trimmed().split_whitespace().collect();
        let (Some(&name), Some(&count)) = (toks.first(), toks.get(1)) else {
            return Err(l.err(
                l.trimmed(),
                "expected a tessellation domain and control point count",
            ));
        };
        let domain = (1..=3)
            .find(|&v| tessellator_domain_name(v) == name)
            // Values fxc has no name for print as "Undefined"; 4 is one.
            .or((name == "Undefined").then_some(4))
            .ok_or_else(|| {
                l.err(
                    name,
                    "expected Isoline, Triangle, Quadrilateral or Undefined",
                )
            })?;
        let points = number(&l, count)?;
        if toks.len() > 2 {
            return Err(l.err(toks[2], "unexpected text after the control point count"));
        }
        self.domain = Some((domain, points));
        self.i += 1;
        Ok(())
    }

    fn tessellation_output(&mut self) -> AsmResult<()> {
        self.i += 1;
        let l = self.table_row("the tessellation output primitive row")?;
        let t = l.trimmed();
        // Both columns may contain spaces, so match the known names.
        let mut primitives: Vec<(u32, &str)> = (1..=4)
            .map(|v| (v, tessellator_output_primitive_name(v)))
            .collect();
        primitives.push((5, "Undefined"));
        primitives.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
        let Some((primitive, rest)) = primitives
            .iter()
            .find_map(|&(v, n)| t.strip_prefix(n).map(|rest| (v, rest.trim())))
        else {
            return Err(l.err(t, "expected a tessellation output primitive"));
        };
        let partitioning = (1..=4)
            .find(|&v| tessellator_partitioning_name(v) == rest)
            .or((rest == "Undefined").then_some(0))
            .ok_or_else(|| l.err(rest, "expected a tessellation partitioning"))?;
        self.output_primitive = Some((primitive, partitioning));
        self.i += 1;
        Ok(())
    }

    /// The first row of a table whose title line was just passed: skips
    /// the column line if present and the dashes line.
    fn table_row(&mut self, what: &str) -> AsmResult<Line<'a>> {
        let mut l = self.next_content(what)?;
        if l.trimmed().starts_with('-') {
            self.i += 1;
            l = self.next_content(what)?;
        }
        Ok(l)
    }

    fn buffer_definitions(&mut self) -> AsmResult<()> {
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

    fn binding_table(&mut self) -> AsmResult<()> {
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
        let dashes = self.next_content("the dashes under the column names")?;
        if !dashes.trimmed().starts_with('-') {
            return Err(dashes.err(
                dashes.trimmed(),
                "expected the dashes under the column names",
            ));
        }
        self.i += 1;
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

    fn signature_table(&mut self, kind: SignatureKind) -> AsmResult<()> {
        self.i += 1;
        let head = self.next_content("the signature's column names")?;
        if !head.trimmed().starts_with("Name") {
            return Err(head.err(head.trimmed(), "expected the signature's column names"));
        }
        self.i += 1;
        let dashes = self.next_content("the dashes under the column names")?;
        if !dashes.trimmed().starts_with('-') {
            return Err(dashes.err(
                dashes.trimmed(),
                "expected the dashes under the column names",
            ));
        }
        self.i += 1;
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

    /// Builds the chunks from what was read.
    fn finish(mut self, profile: Option<Profile>) -> AsmResult<ParsedHeader> {
        let has_rdef_sections = self.buffers.is_some() || self.bindings.is_some();
        let anything = self.banner
            || has_rdef_sections
            || !self.signatures.is_empty()
            || self.feature_bits != 0
            || self.out.early_depth_stencil
            || self.out.debug_layer_note
            || self.sample_frequency
            || self.domain.is_some()
            || self.output_primitive.is_some();
        if !anything {
            return Ok(self.out);
        }

        let program = profile.map(|p| p.program).or_else(|| {
            if self.output_primitive.is_some() {
                Some(ProgramType::Hull)
            } else if self.sample_frequency {
                Some(ProgramType::Pixel)
            } else {
                None
            }
        });
        self.out.program = program;

        let with_id = matches!(self.bindings, Some((BindColumns::HlslBindWithId, _)));
        let target_profile = profile.unwrap_or(Profile {
            program: program.unwrap_or(ProgramType::Pixel),
            major: 5,
            minor: if with_id { 1 } else { 0 },
        });

        // RDEF: see parse_header on the one case the layout decides.
        let layout_says_rdef = {
            let n = self.separators;
            let own = if self.first_content_is_signature {
                1
            } else {
                0
            };
            self.content_started && n >= own + 2 || !self.content_started && n >= 2
        };
        let needs_rdef = !self.creator.is_empty()
            || has_rdef_sections
            || self.slash3
            || self.out.debug_layer_note
            || (self.banner && layout_says_rdef);
        if needs_rdef {
            let target = Target::from_token(target_profile.rdef_token());
            let buffers = self.buffers.take().unwrap_or_default();
            let sm51 = target.at_least(5, 1);
            let mut bindings = match self.bindings.take() {
                Some((_, rows)) => rows,
                None => Vec::new(),
            };
            for b in &mut bindings {
                // Structured buffers keep their stride in the sample count
                // field; the header shows it as the element record's size.
                if matches!(
                    b.input_type,
                    InputType::Structured
                        | InputType::UavRwStructured
                        | InputType::UavAppendStructured
                        | InputType::UavConsumeStructured
                        | InputType::UavRwStructuredWithCounter
                ) {
                    b.num_samples = buffers
                        .iter()
                        .find(|c| c.kind == CbufferKind::ResourceBindInfo && c.name == b.name)
                        .and_then(|c| c.variables.first())
                        .map_or(0, |v| v.size);
                }
                // Only 5.1 records hold a space and range ID.
                if sm51 {
                    b.space = Some(b.space.unwrap_or(0));
                    b.id = Some(b.id.unwrap_or(0));
                } else {
                    b.space = None;
                    b.id = None;
                }
            }
            self.out.rdef = Some(Rdef {
                target,
                flags: 0,
                creator: self.creator.clone(),
                rd11: (target.major >= 5).then(|| default_rd11(target.major, target.minor)),
                constant_buffers: buffers,
                bindings,
            });
        }

        let sm5 = target_profile.major >= 5;
        for raw in std::mem::take(&mut self.signatures) {
            let sig = signature(raw, program, sm5)?;
            self.out.signatures.push(sig);
        }

        let tessellation = self.domain.is_some() || self.output_primitive.is_some();
        let mut words = vec![0u32; stat_words(sm5, tessellation)];
        let mut set = |i: usize, v: u32| {
            if let Some(w) = words.get_mut(i) {
                *w = v;
            }
        };
        if self.sample_frequency {
            set(field::SAMPLE_FREQUENCY, 1);
        }
        if let Some((domain, points)) = self.domain {
            set(field::TESSELLATOR_DOMAIN, domain);
            set(field::CONTROL_POINTS, points);
        }
        if let Some((primitive, partitioning)) = self.output_primitive {
            set(field::HS_OUTPUT_PRIMITIVE, primitive);
            set(field::HS_PARTITIONING, partitioning);
        }
        self.out.stat = Some(Stat { words });
        if self.feature_bits != 0 {
            self.out.features = Some(ShaderFeatures {
                flags: self.feature_bits,
            });
        }
        Ok(self.out)
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

fn number(l: &Line, tok: &str) -> AsmResult<u32> {
    tok.parse()
        .map_err(|_| l.err(tok, "expected a non-negative number"))
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

fn signature(raw: RawSignature, program: Option<ProgramType>, sm5: bool) -> AsmResult<Signature> {
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
        if !(pixel_output && element.effective_system_value(true) == r.system_value) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(text: &str) -> Vec<(usize, &str)> {
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
    }

    fn normalise(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    fn round_trip(text: &str, profile: &str) -> ParsedHeader {
        let parsed = parse_header(&numbered(text), Profile::parse(profile)).unwrap();
        let expected: Vec<String> = text.lines().map(String::from).collect();
        assert_eq!(normalise(&parsed.print()), normalise(&expected));
        parsed
    }

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

    #[test]
    fn hull_shader_notes_and_sm51_ids() {
        let text = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- ------- -------------- ------
// t                                 texture  float4          2d      T0      t0,space2 unbounded 
//
//
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0   x           0 QUADEDGE   float   x   
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Output
// Tessellation Domain   # of control points
// -------------------- --------------------
// Quadrilateral                           4
//
// Tessellation Output Primitive  Partitioning Type 
// ------------------------------ ------------------
// Counter Clockwise Triangles    Odd Fractional    
//";
        let p = round_trip(text, "hs_5_1");
        let b = &p.rdef.as_ref().unwrap().bindings[0];
        assert_eq!((b.space, b.id, b.bind_count), (Some(2), Some(0), 0));
        let stat = p.stat.as_ref().unwrap();
        assert_eq!(stat.tessellator_domain(), 3);
        assert_eq!(stat.hs_output_primitive(), 4);
        assert_eq!(stat.hs_partitioning(), 3);
        // Without a profile the output primitive says "hull shader".
        let q = parse_header(&numbered(text), None).unwrap();
        assert_eq!(q.program, Some(ProgramType::Hull));
        assert_eq!(q.rdef.unwrap().target.profile(), "hs_5_1");
    }

    #[test]
    fn disassembler_banner_with_and_without_rdef() {
        let without = "\
//
// Generated by Microsoft (R) D3D Shader Disassembler
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input";
        let p = round_trip(without, "vs_4_0");
        assert!(p.rdef.is_none());
        let with = "\
//
// Generated by Microsoft (R) D3D Shader Disassembler
//
//
// Note: shader requires additional functionality:
//       Double-precision floating point
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input";
        let p = round_trip(with, "cs_5_0");
        assert_eq!(p.rdef.as_ref().map(|r| r.creator.as_str()), Some(""));
        assert_eq!(p.features.map(|f| f.flags), Some(1));
        // 3Dmigoto's line (and its blank line) are skipped and reported.
        let migoto = without.replacen(
            "//\n//\n// Input",
            "//\n//   using 3Dmigoto v1.2.51 on Sat Dec 24 12:33:39 2016\n//\n//\n// Input",
            1,
        );
        let p = parse_header(&numbered(&migoto), Profile::parse("vs_4_0")).unwrap();
        assert!(p.rdef.is_none());
        assert_eq!(p.unrepresented, vec![4, 5]);
    }

    #[test]
    fn no_header_is_empty() {
        let text = "ps_5_0\nmov o0, l(0)\nret\n";
        let (lines, profile) = leading_header(text);
        assert!(lines.is_empty());
        assert_eq!(profile, Some((1, "ps_5_0")));
        let p = parse_header(&lines, None).unwrap();
        assert!(p.is_empty());
        assert_eq!(p, ParsedHeader::default());
    }

    #[test]
    fn slot_counts() {
        assert_eq!(
            parse_slot_count("// Approximately 12 instruction slots used"),
            Some(12)
        );
        assert_eq!(
            parse_slot_count("  //   Approximately 0 instruction slots used  "),
            Some(0)
        );
        assert_eq!(
            parse_slot_count("// approximately 12 instruction slots used"),
            None
        );
        assert_eq!(
            parse_slot_count("// Approximately x instruction slots used"),
            None
        );
        assert_eq!(parse_slot_count("ret"), None);
        let mut p = ParsedHeader::default();
        p.set_instruction_count(7);
        assert_eq!(p.stat.map(|s| s.instruction_count()), Some(7));
    }

    #[test]
    fn errors_name_line_column_and_token() {
        let text = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xyzw        0     NONE   flaot   xy";
        let e = parse_header(&numbered(text), None).unwrap_err();
        assert_eq!((e.line, e.column), (8, 58));
        assert_eq!(e.found.as_deref(), Some("flaot"));
        let e =
            parse_header(&[(3, "// Buffer Definitions:"), (4, "// cbuffer x")], None).unwrap_err();
        assert_eq!(e.line, 4);
        let e = parse_header(&[(9, "mov r0, r1")], None).unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_deref()), (9, 1, Some("mov")));
        let e = parse_header(
            &[
                (1, "// Buffer Definitions:"),
                (2, "// cbuffer x"),
                (3, "// {"),
                (4, "//   float4 v;   // Offset: 0 Size: 16"),
                (5, "//      = 0x00000000"),
                (6, "// }"),
            ],
            None,
        )
        .unwrap_err();
        assert!(e.message.contains("default value"), "{e}");
    }

    #[test]
    fn profiles() {
        let p = Profile::parse("ds_5_0").unwrap();
        assert_eq!(p.rdef_token(), 0x4453_0500);
        assert_eq!(p.program_token(), 0x0004_0050);
        assert!(Profile::parse("vs_2_x").is_none());
        assert!(Profile::parse("ps_5_0_level_9_1").is_none());
        assert!(Profile::parse("xs_5_0").is_none());
    }
}
