//! Round trips of the information in an fxc listing's comment header:
//! chunk writers against the chunk parsers on every corpus blob, and the
//! header parser against the header printer on the corpus blobs and on
//! fxc's own listings. The corpus lives beside the checkout; without it
//! these tests say so and pass.

mod common;

use common::Rng;

use std::collections::BTreeMap;
use std::path::Path;

use common::normalise;
use dxbc_dbg::dxbc::asm::header::{
    ParsedHeader, Profile, leading_header, parse_header, parse_slot_count,
};
use dxbc_dbg::dxbc::container::{Container, build_container};
use dxbc_dbg::dxbc::listing::header_lines;
use dxbc_dbg::dxbc::rdef::Rdef;
use dxbc_dbg::dxbc::signature::{Signature, is_signature};
use dxbc_dbg::dxbc::stat::{ShaderFeatures, Stat};
use dxbc_dbg::dxbc::write::{write_features, write_rdef, write_signature, write_stat};
use dxbc_dbg::dxbc::{ParseOptions, Shader};

const NO_VERIFY: ParseOptions = ParseOptions {
    verify_checksum: false,
};

/// Every RDEF, signature, STAT and SFI0 chunk of every corpus shader:
/// parse, write, parse again must give the same structure. Byte identity
/// with fxc's chunk is counted, not required.
#[test]
fn chunk_writers_invert_the_parsers() {
    let Some(root) = common::corpus() else { return };
    let (mut chunks, mut identical) = (0usize, 0usize);
    let mut differing: Vec<String> = Vec::new();
    let mut failures = Vec::new();
    for blob in common::manifest(&root).iter().filter(|b| b.is_shader()) {
        let bytes = std::fs::read(root.join(&blob.file)).expect("read blob");
        let c = Container::parse(&bytes, false).expect("container parses");
        for ch in &c.chunks {
            let (same, written) = match &ch.fourcc {
                b"RDEF" => {
                    let a = Rdef::parse(ch.data, 0).expect("RDEF parses");
                    let w = write_rdef(&a);
                    (Rdef::parse(&w, 0).ok() == Some(a), w)
                }
                b"STAT" => {
                    let a = Stat::parse(ch.data, 0).expect("STAT parses");
                    let w = write_stat(&a);
                    (Stat::parse(&w, 0).ok() == Some(a), w)
                }
                b"SFI0" => {
                    let a = ShaderFeatures::parse(ch.data, 0).expect("SFI0 parses");
                    let w = write_features(&a);
                    (ShaderFeatures::parse(&w, 0).ok() == Some(a), w)
                }
                f if is_signature(f) => {
                    let a = Signature::parse(f, ch.data, 0).expect("signature parses");
                    let w = write_signature(&a);
                    (Signature::parse(f, &w, 0).ok() == Some(a), w)
                }
                _ => continue,
            };
            chunks += 1;
            let name = format!("{} {}", blob.file, ch.name());
            if !same {
                failures.push(name);
                continue;
            }
            if written == ch.data {
                identical += 1;
            } else {
                differing.push(name);
            }
        }
    }
    println!(
        "chunk writers: {}/{chunks} chunks round-trip, {identical} byte-identical to fxc's",
        chunks - failures.len()
    );
    for d in differing.iter().take(40) {
        println!("  not byte-identical: {d}");
    }
    assert!(
        failures.is_empty(),
        "chunks that do not round-trip:\n{}",
        failures.join("\n")
    );
}

fn numbered(lines: &[String]) -> Vec<(usize, &str)> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 1, l.as_str()))
        .collect()
}

fn normalised(lines: &[String]) -> Vec<String> {
    lines.iter().map(|l| normalise(l)).collect()
}

/// The first line where two headers differ, for failure reports.
fn first_difference(mine: &[String], theirs: &[String]) -> String {
    let n = mine.len().max(theirs.len());
    match (0..n).find(|&i| mine.get(i) != theirs.get(i)) {
        Some(i) => format!(
            "line {}: printed `{}`, expected `{}`",
            i + 1,
            mine.get(i).map_or("<none>", String::as_str),
            theirs.get(i).map_or("<none>", String::as_str)
        ),
        None => "no difference".to_string(),
    }
}

/// A minimal valid program for a profile: the version token and the
/// length. When the header carries the debug-layer note, which the printer
/// derives from printf/errorf messages in the program, an empty shader
/// message (customdata class 4) is added so the note survives.
fn minimal_program(profile: Profile, parsed: &ParsedHeader) -> ([u8; 4], Vec<u8>) {
    let mut words = vec![profile.program_token(), 2];
    if parsed.early_depth_stencil {
        // dcl_globalFlags forceEarlyDepthStencil
        words.push((1 << 24) | (1 << 13) | 106);
        words[1] = words.len() as u32;
    }
    if parsed.debug_layer_note {
        words.extend_from_slice(&[(4 << 11) | 0x35, 7, 0, 0, 0, 0, 0]);
        words[1] = words.len() as u32;
    }
    let fourcc = if profile.major >= 5 {
        *b"SHEX"
    } else {
        *b"SHDR"
    };
    (fourcc, words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

fn profile_of(shader: &Shader) -> Profile {
    Profile {
        program: shader.program.kind,
        major: shader.program.major,
        minor: shader.program.minor,
    }
}

/// Every corpus shader: its printed header, parsed back, must print the
/// same lines; and the chunks written from the parse, in a container with
/// a minimal program, must print them too.
#[test]
fn corpus_headers_parse_back_to_the_same_text() {
    let Some(root) = common::corpus() else { return };
    let (mut total, mut same, mut same_via_chunks) = (0, 0, 0);
    let mut failures = Vec::new();
    for blob in common::manifest(&root).iter().filter(|b| b.is_shader()) {
        let bytes = std::fs::read(root.join(&blob.file)).expect("read blob");
        let shader = Shader::parse(&bytes, NO_VERIFY).expect("parses");
        let header = header_lines(&shader);
        let expected = normalised(&header);
        total += 1;
        let profile = profile_of(&shader);
        let parsed = match parse_header(&numbered(&header), Some(profile)) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: {e}", blob.file));
                continue;
            }
        };
        let printed = normalised(&parsed.print());
        if printed != expected {
            failures.push(format!(
                "{}: {}",
                blob.file,
                first_difference(&printed, &expected)
            ));
            continue;
        }
        same += 1;
        let (fourcc, program) = minimal_program(profile, &parsed);
        let chunks = parsed.container_chunks(fourcc, &program);
        let refs: Vec<(&[u8; 4], &[u8])> = chunks.iter().map(|(f, d)| (f, d.as_slice())).collect();
        let container = build_container(&refs);
        match Shader::parse(&container, ParseOptions::default()) {
            Ok(rebuilt) => {
                let again = normalised(&header_lines(&rebuilt));
                if again == expected {
                    same_via_chunks += 1;
                } else {
                    failures.push(format!(
                        "{} (via chunks): {}",
                        blob.file,
                        first_difference(&again, &expected)
                    ));
                }
            }
            Err(e) => failures.push(format!("{} (via chunks): {e}", blob.file)),
        }
    }
    println!(
        "corpus headers: {same}/{total} print back identical, {same_via_chunks}/{total} through written chunks"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A listing's header split off, parsed and printed back.
struct ListingResult {
    parsed: bool,
    /// Printed text equals the listing's header as it stands.
    exact: bool,
    /// Equal once the lines reported as unrepresentable are left out.
    modulo_unrepresented: bool,
    cause: Option<String>,
}

fn check_listing(text: &str) -> ListingResult {
    let (lines, profile_line) = leading_header(text);
    let profile = profile_line.and_then(|(_, l)| Profile::parse(l));
    let parsed = match parse_header(&lines, profile) {
        Ok(p) => p,
        Err(e) => {
            return ListingResult {
                parsed: false,
                exact: false,
                modulo_unrepresented: false,
                cause: Some(format!("parse error: {e}")),
            };
        }
    };
    let printed: Vec<String> = normalised(&parsed.print());
    let keep =
        |(no, l): &&(usize, &str)| !l.trim().is_empty() && !parsed.unrepresented.contains(no);
    let all: Vec<String> = lines
        .iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(_, l)| normalise(l))
        .collect();
    let represented: Vec<String> = lines
        .iter()
        .filter(keep)
        .map(|(_, l)| normalise(l))
        .collect();
    let exact = printed == all;
    let modulo = printed == represented;
    ListingResult {
        parsed: true,
        exact,
        modulo_unrepresented: modulo,
        cause: (!modulo).then(|| first_difference(&printed, &represented)),
    }
}

/// Shortens a mismatch to a category so causes can be counted.
fn cause_category(cause: &str) -> String {
    let cut = cause.split_once(": ").map_or(cause, |(_, c)| c);
    let words: Vec<&str> = cut.split_whitespace().take(9).collect();
    words.join(" ")
}

/// fxc's own listings: the 85 beside corpus blobs and the 2,597 without
/// binaries. The header must parse for at least 99% of them; how many
/// print back identically is reported, with the causes of the rest.
#[test]
fn fxc_listing_headers_parse_and_print_back() {
    let Some(root) = common::corpus() else { return };
    let mut files: Vec<std::path::PathBuf> = common::manifest(&root)
        .iter()
        .filter(|b| b.has_listing)
        .map(|b| root.join(&b.file).with_extension("asm"))
        .collect();
    let beside = files.len();
    let listings = root.join("listings");
    let mut others: Vec<_> = std::fs::read_dir(&listings)
        .expect("listings folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    others.sort();
    files.extend(others);

    let (mut parsed, mut exact, mut modulo) = (0, 0, 0);
    let mut errors = Vec::new();
    let mut causes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (i, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("read listing");
        let r = check_listing(&text);
        parsed += r.parsed as usize;
        exact += r.exact as usize;
        modulo += r.modulo_unrepresented as usize;
        let name = path
            .strip_prefix(&root)
            .unwrap_or(Path::new(""))
            .display()
            .to_string();
        if let Some(cause) = r.cause {
            if !r.parsed {
                errors.push(format!("{name}: {cause}"));
            }
            let e = causes.entry(cause_category(&cause)).or_insert((0, name));
            e.0 += 1;
        }
        if i + 1 == beside {
            println!(
                "fxc listings beside blobs: {parsed}/{beside} parse, {exact} print back exactly, {modulo} once unrepresentable lines are left out"
            );
        }
    }
    let total = files.len();
    println!(
        "all fxc listings: {parsed}/{total} parse, {exact} print back exactly, {modulo} once unrepresentable lines are left out"
    );
    let mut sorted: Vec<_> = causes.into_iter().collect();
    sorted.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    for (cause, (n, example)) in &sorted {
        println!("  {n:5}  {cause}   (e.g. {example})");
    }
    for e in errors.iter().take(20) {
        println!("  {e}");
    }
    assert!(
        parsed * 100 >= total * 99,
        "only {parsed}/{total} listing headers parse"
    );
}

/// The closing slot-count line of every listing beside a corpus blob
/// matches the blob's STAT instruction count.
#[test]
fn slot_counts_match_stat() {
    let Some(root) = common::corpus() else { return };
    let (mut total, mut same) = (0, 0);
    for blob in common::manifest(&root).iter().filter(|b| b.has_listing) {
        let dxbc = root.join(&blob.file);
        let bytes = std::fs::read(&dxbc).expect("read blob");
        let shader = Shader::parse(&bytes, NO_VERIFY).expect("parses");
        let text = std::fs::read_to_string(dxbc.with_extension("asm")).expect("listing");
        let count = text.lines().rev().find_map(parse_slot_count);
        total += 1;
        let stat = shader.stat.as_ref().map_or(0, |s| s.instruction_count());
        if count == Some(stat) {
            same += 1;
        } else {
            println!("{}: listing says {count:?}, STAT {stat}", blob.file);
        }
    }
    println!("slot counts: {same}/{total} equal STAT's instruction count");
    assert_eq!(same, total);
}

/// Tokens that sit on the edges of what the header grammar accepts.
const NASTY: &[&str] = &[
    "",
    "-1",
    "4294967295",
    "4294967296",
    "99999999999999999999",
    "65536",
    "[",
    "]",
    "[99999]",
    "}",
    "{",
    "struct",
    "//",
    "///",
    "0x",
    "0xzzzzzzzz",
    "0xffffffff",
    "N/A",
    "YES",
    "NO",
    "unbounded",
    "x",
    "xyzwxyzw",
    "wzyx",
    "é",
    "\t",
    "t0,space",
    ",space9",
    "t",
    "Offset:",
    "Size:",
    "=",
    "[unused]",
    "row_major",
    "interface",
    "class",
    "float4x",
    "float99",
    "2dMS",
    "2dMS99999999999",
    "Generated by",
    "cbuffer",
    "Resource bind info for",
    "buffer(kind 7)",
    "Input signature:",
    "Buffer Definitions:",
    "Resource Bindings:",
    "Tessellation Domain",
    "Undefined",
    "SV99999999999",
    "min16f",
    "struct S",
    "T",
    "CB4294967295",
    "Unknown feature bit 64",
    "Unknown feature bit 63",
];

fn mutate(lines: &mut Vec<String>, rng: &mut Rng) {
    if lines.is_empty() {
        lines.push("//".to_string());
        return;
    }
    let i = rng.below(lines.len());
    match rng.below(7) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
        }
        3 => {
            let cut: Vec<char> = lines[i].chars().collect();
            let at = rng.below(cut.len() + 1);
            lines[i] = cut[..at].iter().collect();
        }
        4 => {
            let j = rng.below(lines.len());
            let l = lines[j].clone();
            lines.insert(i, l);
        }
        _ => {
            // Replace one whitespace-separated token.
            let mut toks: Vec<String> = lines[i].split(' ').map(String::from).collect();
            let t = rng.below(toks.len());
            toks[t] = NASTY[rng.below(NASTY.len())].to_string();
            lines[i] = toks.join(" ");
        }
    }
}

/// Parses, prints and writes whatever a mutated header gives; only a
/// panic (or a hang) fails.
fn exercise(lines: &[String], profile: Option<Profile>) {
    let numbered = numbered(lines);
    for p in [profile, None] {
        if let Ok(parsed) = parse_header(&numbered, p) {
            let _ = parsed.print();
            let chunks = parsed.container_chunks(*b"SHEX", &[0x50, 0, 0, 0, 2, 0, 0, 0]);
            let refs: Vec<(&[u8; 4], &[u8])> =
                chunks.iter().map(|(f, d)| (f, d.as_slice())).collect();
            if let Ok(shader) = Shader::parse(&build_container(&refs), NO_VERIFY) {
                let _ = header_lines(&shader);
            }
        }
    }
}

#[test]
fn mutated_headers_never_panic() {
    let Some(root) = common::corpus() else { return };
    let mut sources: Vec<(Vec<String>, Option<Profile>)> = Vec::new();
    for blob in common::manifest(&root).iter().filter(|b| b.has_listing) {
        let text =
            std::fs::read_to_string(root.join(&blob.file).with_extension("asm")).expect("listing");
        let (lines, profile) = leading_header(&text);
        sources.push((
            lines.iter().map(|(_, l)| l.to_string()).collect(),
            profile.and_then(|(_, l)| Profile::parse(l)),
        ));
    }
    // A few listings with 3Dmigoto lines, Level9 sections and notes.
    for name in [
        "Stranded_Deep__DX11___c18f4f5ef910d027-vs.asm",
        "Witcher3__012d94c883676674-ps.asm",
        "Cars__70d359757dc17210-vs.asm",
        "Team_Sonic_Racing__026f85b9d72bb230-ps.asm",
    ] {
        if let Ok(text) = std::fs::read_to_string(root.join("listings").join(name)) {
            let (lines, profile) = leading_header(&text);
            sources.push((
                lines.iter().map(|(_, l)| l.to_string()).collect(),
                profile.and_then(|(_, l)| Profile::parse(l)),
            ));
        }
    }
    let mut rng = Rng(0x243f_6a88_85a3_08d3);
    let mut cases = 0;
    for (lines, profile) in &sources {
        for _ in 0..40 {
            let mut m = lines.clone();
            for _ in 0..1 + rng.below(3) {
                mutate(&mut m, &mut rng);
            }
            exercise(&m, *profile);
            cases += 1;
        }
    }
    println!("mutated headers: {cases} cases, no panic");
    assert!(cases >= 3000 || sources.len() < 80);
}
