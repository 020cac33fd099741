//! Replays every fuzz target's body (`fuzz/fuzz_targets/bodies.rs`, the
//! same file the targets wrap) in the normal test suite, which does not
//! build the fuzz crate: over the corpus containers, the project's own
//! shaders assembled, its case files, and deterministic mutations of all
//! of them. Every input must return; a panic fails the test with the body,
//! the seed input and the mutation's number, and the failing bytes are
//! written where the message says so they can be fed to the fuzz target.
//!
//! The unmutated seeds are real, working inputs, so they must also get
//! past the first stage: a body that refused them all would pass the
//! no-panic check while testing nothing.
//!
//! `FUZZ_BODIES_SEED=N` replays another set of mutations.

mod common;

#[path = "../fuzz/fuzz_targets/bodies.rs"]
mod bodies;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use bodies::Reached;
use common::Rng;

type Body = fn(&[u8]) -> Reached;
type Named = (String, Vec<u8>);

/// Mutations per seed kind. Containers go through three bodies each.
const CONTAINER_MUTATIONS: usize = 6000;
const ASM_MUTATIONS: usize = 3000;
const CASE_MUTATIONS: usize = 6000;

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// (name, bytes) of every container: the corpus's, when present, then the
/// project's shaders assembled.
fn containers(asm: &[Named]) -> Vec<Named> {
    let mut out = Vec::new();
    if let Some(corpus) = common::corpus() {
        for blob in common::manifest(&corpus) {
            let bytes = std::fs::read(corpus.join(&blob.file)).expect("read corpus blob");
            out.push((blob.file, bytes));
        }
    }
    for (name, text) in asm {
        let text = std::str::from_utf8(text).expect("shaders are UTF-8");
        let bytes = dxbc_dbg::dxbc::asm::assemble(text)
            .unwrap_or_else(|e| panic!("{name}: the project's shader does not assemble: {e}"));
        out.push((name.clone(), bytes));
    }
    out
}

fn read_all(dir: &str, ext: &str) -> Vec<Named> {
    let mut paths = Vec::new();
    files_under(&root().join(dir), ext, &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
            (name, std::fs::read(&p).expect("read seed"))
        })
        .collect()
}

/// Bytes odd in names and text: UTF-8 continuation and lead bytes, 0xff,
/// NUL, and the characters case files and listings give meaning to.
const ODD: [u8; 10] = [0x80, 0xc3, 0xff, 0x00, b'"', b'\n', b'[', b']', b'#', b' '];
/// Values a dword read as a count, offset or token is most likely to
/// mishandle.
const DWORDS: [u32; 8] = [
    0,
    1,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    0xffff,
    0x1_0000,
    4096,
];
/// Numbers swapped into text where digits were.
const NUMBERS: [&str; 7] = [
    "0",
    "4294967295",
    "-1",
    "99999999999",
    "4096",
    "nan",
    "1e39",
];

/// One to four random edits of `seed`: byte flips, interesting dwords at
/// aligned offsets, odd bytes inserted, a truncation, and for text, lines
/// duplicated or dropped and numbers replaced.
fn mutate(rng: &mut Rng, seed: &[u8], text: bool) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        // Containers mostly get in-place edits: an insertion or a cut moves
        // every offset after it, and the reader rightly refuses nearly all
        // of those before the emitter or the machine sees them.
        let kind = if text {
            rng.below(7)
        } else {
            [0, 0, 0, 0, 1, 1, 1, 1, 2, 3][rng.below(10)]
        };
        match kind {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 + rng.below(255) as u8;
            }
            1 if b.len() >= 4 => {
                let at = rng.below(b.len() / 4) * 4;
                let v = DWORDS[rng.below(DWORDS.len())];
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            2 => {
                let at = rng.below(b.len() + 1);
                let n = 1 + rng.below(3);
                for _ in 0..n {
                    b.insert(at, ODD[rng.below(ODD.len())]);
                }
            }
            3 => b.truncate(rng.below(b.len() + 1)),
            4 | 5 => {
                let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
                let i = rng.below(lines.len());
                let mut out: Vec<&[u8]> = lines.clone();
                if rng.below(2) == 0 {
                    out.insert(i, lines[i]);
                } else {
                    out.remove(i);
                }
                b = out.join(&b'\n');
            }
            6 => {
                let digits: Vec<usize> = (0..b.len()).filter(|&i| b[i].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    let start = digits[rng.below(digits.len())];
                    let end = (start..b.len())
                        .find(|&i| !b[i].is_ascii_digit())
                        .unwrap_or(b.len());
                    let n = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
                    b.splice(start..end, n.iter().copied());
                }
            }
            _ => {}
        }
    }
    b
}

struct Replay {
    /// (body, how far) → count.
    reached: BTreeMap<(&'static str, Reached), usize>,
    failures: Vec<String>,
    runs: usize,
}

impl Replay {
    fn run(
        &mut self,
        name: &'static str,
        body: &dyn Fn(&[u8]) -> Reached,
        label: &str,
        input: &[u8],
    ) -> Reached {
        self.runs += 1;
        match catch_unwind(AssertUnwindSafe(|| body(input))) {
            Ok(r) => {
                *self.reached.entry((name, r)).or_default() += 1;
                r
            }
            Err(_) => {
                let file = std::env::temp_dir()
                    .join(format!("fuzz_bodies-{name}-{}.bin", self.failures.len()));
                let saved = std::fs::write(&file, input).is_ok();
                self.failures.push(format!(
                    "{name} panicked on {label}{}",
                    if saved {
                        format!(" (input: {})", file.display())
                    } else {
                        String::new()
                    }
                ));
                Reached::Refused
            }
        }
    }

    /// Every seed must get past `name`'s first stage (`body` is also given
    /// the seed's name).
    fn seeds(
        &mut self,
        name: &'static str,
        body: &dyn Fn(&[u8], &str) -> Reached,
        seeds: &[Named],
    ) {
        for (seed_name, bytes) in seeds {
            let one = |input: &[u8]| body(input, seed_name);
            if self.run(name, &one, seed_name, bytes) == Reached::Refused {
                self.failures
                    .push(format!("{name} refused the unmutated seed {seed_name}"));
            }
        }
    }

    fn mutations(
        &mut self,
        rng: &mut Rng,
        runs: &[(&'static str, Body)],
        seeds: &[Named],
        count: usize,
        text: bool,
    ) {
        if seeds.is_empty() {
            return;
        }
        for m in 0..count {
            let (seed_name, seed) = &seeds[rng.below(seeds.len())];
            let input = mutate(rng, seed, text);
            for (name, body) in runs {
                self.run(name, body, &format!("mutation {m} of {seed_name}"), &input);
            }
        }
    }
}

#[test]
fn every_fuzz_body_survives_seeds_and_mutations() {
    let seed: u64 = std::env::var("FUZZ_BODIES_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    println!("mutation seed {seed} (FUZZ_BODIES_SEED={seed} replays it)");
    let mut rng = Rng(seed.max(1));

    let asm = read_all("shaders", "asm");
    let containers = containers(&asm);
    let mut cases = read_all("tests/cases", "case");
    cases.extend(read_all("shaders", "case"));
    assert!(!asm.is_empty() && !cases.is_empty(), "seeds missing");

    let container_bodies: [(&'static str, Body); 3] = [
        ("reader", bodies::reader),
        ("container_glsl", bodies::container_glsl),
        ("container_vm", bodies::container_vm),
    ];
    let mut replay = Replay {
        reached: BTreeMap::new(),
        failures: Vec::new(),
        runs: 0,
    };
    // Corpus effects and "none" blobs are not shader containers: they are
    // mutation seeds, but refusing them is right.
    let shader_seeds: Vec<Named> = match common::corpus() {
        Some(corpus) => {
            let shaders: std::collections::HashSet<String> = common::manifest(&corpus)
                .into_iter()
                .filter(|b| b.is_shader())
                .map(|b| b.file)
                .collect();
            containers
                .iter()
                .filter(|(n, _)| shaders.contains(n) || n.ends_with(".asm"))
                .cloned()
                .collect()
        }
        None => containers.clone(),
    };
    for (name, body) in container_bodies {
        replay.seeds(name, &|input, _| body(input), &shader_seeds);
    }
    replay.seeds("assembler", &|input, _| bodies::assembler(input), &asm);
    // Each case from where it lives, so an image fill finds its file.
    replay.seeds(
        "case_parser",
        &|input, name| bodies::case_parser_at(input, &root().join(name)),
        &cases,
    );

    replay.mutations(
        &mut rng,
        &container_bodies,
        &containers,
        CONTAINER_MUTATIONS,
        false,
    );
    replay.mutations(
        &mut rng,
        &[("assembler", bodies::assembler)],
        &asm,
        ASM_MUTATIONS,
        true,
    );
    replay.mutations(
        &mut rng,
        &[("case_parser", bodies::case_parser)],
        &cases,
        CASE_MUTATIONS,
        true,
    );

    println!("{} runs", replay.runs);
    for ((name, reached), n) in &replay.reached {
        println!("{name:>15} {reached:?}: {n}");
    }
    // The emulator and emitter must be reached, not just the reader: the
    // seeds that run to the end prove the bodies are wired through.
    for name in ["container_glsl", "container_vm", "case_parser"] {
        assert!(
            replay
                .reached
                .get(&(name, Reached::Done))
                .copied()
                .unwrap_or(0)
                > 0,
            "{name} never got through every stage"
        );
    }
    assert!(
        replay.failures.is_empty(),
        "{} failures:\n{}",
        replay.failures.len(),
        replay.failures.join("\n")
    );
}
