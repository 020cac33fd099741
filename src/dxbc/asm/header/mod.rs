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
use crate::dxbc::rdef::{ConstantBuffer, ProgramType, Rdef, ResourceBinding};
use crate::dxbc::signature::{Signature, SignatureKind};
use crate::dxbc::stat::{ShaderFeatures, Stat, field};
use crate::dxbc::write::{write_features, write_rdef, write_signature, write_stat};

mod bindings;
mod buffers;
mod chunks;
mod notes;
mod signatures;

use bindings::BindColumns;
use signatures::RawSignature;

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
        let marker = self.program.rdef_code() as u32;
        (marker << 16) | ((self.major as u32) << 8) | self.minor as u32
    }

    /// The program chunk's version token (type in bits 16..32, then major
    /// and minor nibbles).
    pub fn program_token(&self) -> u32 {
        let kind = self.program.code() as u32;
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
    /// The row of dashes under a table's column names, consumed.
    pub(super) fn expect_dashes(&mut self) -> AsmResult<()> {
        let dashes = self.next_content("the dashes under the column names")?;
        if !dashes.trimmed().starts_with('-') {
            return Err(dashes.err(
                dashes.trimmed(),
                "expected the dashes under the column names",
            ));
        }
        self.i += 1;
        Ok(())
    }

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
}

fn number(l: &Line, tok: &str) -> AsmResult<u32> {
    tok.parse()
        .map_err(|_| l.err(tok, "expected a non-negative number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn numbered(text: &str) -> Vec<(usize, &str)> {
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
    }

    fn normalise(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    pub(super) fn round_trip(text: &str, profile: &str) -> ParsedHeader {
        let parsed = parse_header(&numbered(text), Profile::parse(profile)).unwrap();
        let expected: Vec<String> = text.lines().map(String::from).collect();
        assert_eq!(normalise(&parsed.print()), normalise(&expected));
        parsed
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
