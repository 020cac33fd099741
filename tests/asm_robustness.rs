//! The assembler never panics: 100,000+ deterministically mutated listing
//! lines (characters dropped, duplicated, swapped, replaced with syntax
//! characters, numbers bent) each assemble or give an `AsmError` with a
//! line and column inside the text. Whatever assembles must read back.

mod common;

use common::Rng;

use dxbc_dbg::dxbc::{ParseOptions, Shader, asm};

const SYNTAX: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ".",
    "-",
    "|",
    "+",
    ":",
    "\"",
    "l(",
    "r",
    "v",
    "cb",
    "x",
    "_sat",
    "_nz",
    "0x",
    "4294967296",
    "-1",
    "1.#INF00",
    " ",
    "\t",
    "//",
    "_indexable",
    "(texture2d)",
];

fn mutate(line: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(5) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => {
                let c = chars[at];
                chars.insert(at, c);
            }
            2 if at + 1 < chars.len() => chars.swap(at, at + 1),
            3 => {
                let s = SYNTAX[rng.below(SYNTAX.len())];
                for (k, c) in s.chars().enumerate() {
                    chars.insert(at + k, c);
                }
            }
            _ => {
                if let Some(c) = chars.get_mut(at) {
                    if c.is_ascii_digit() {
                        *c = char::from(b'0' + rng.below(10) as u8);
                    } else {
                        *c = ['9', 'z', '_', '.', '('][rng.below(5)];
                    }
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_listing_lines_never_panic() {
    let Some(root) = common::corpus() else { return };
    let dir = root.join("listings");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("listings")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut inputs, mut ok, mut errors) = (0usize, 0usize, 0usize);
    // A few hundred listings; in each, many single lines mutated in turn.
    for path in files.iter().step_by(8) {
        let text = std::fs::read_to_string(path).expect("listing");
        let lines: Vec<&str> = text.lines().collect();
        let body_start = lines
            .iter()
            .position(|l| asm::parse_profile(l.trim()).is_some())
            .unwrap_or(0);
        for _ in 0..320 {
            let target = body_start + rng.below(lines.len() - body_start);
            let mut mutated: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            mutated[target] = mutate(lines[target], &mut rng);
            let source = mutated.join("\n");
            inputs += 1;
            match asm::assemble(&source) {
                Ok(bytes) => {
                    ok += 1;
                    Shader::parse(&bytes, ParseOptions::default())
                        .expect("assembled output reads back");
                }
                Err(e) => {
                    errors += 1;
                    assert!(e.line >= 1 && e.line <= mutated.len(), "{e}");
                    assert!(!e.message.is_empty());
                }
            }
        }
    }
    println!(
        "asm robustness: {inputs} mutated listings ({ok} assembled, {errors} clear errors), no panic"
    );
    assert!(inputs >= 100_000);
}
