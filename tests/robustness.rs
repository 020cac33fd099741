//! The reader never panics and never allocates out of proportion to its
//! input. Inputs: every truncation point of every corpus container (with its
//! size field rewritten so parsing goes past the header), every dword
//! truncation of every program chunk (with its length token rewritten so
//! decoding runs up to the cut), every byte truncation of every RDEF and
//! signature chunk, and deterministic random mutations of whole containers.
//! Each must give Ok or a typed error; whatever parses is also printed
//! (listing and info) to exercise the printers on odd values.
//!
//! A counting allocator measures the peak heap growth of every input.

mod common;

use common::Rng;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use dxbc_dbg::dxbc::decode::decode_program;
use dxbc_dbg::dxbc::rdef::Rdef;
use dxbc_dbg::dxbc::signature::{Signature, is_signature};
use dxbc_dbg::dxbc::{ParseOptions, Shader, info, listing};

struct Counting;

thread_local! {
    static CURRENT: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = CURRENT.try_with(|c| {
            let now = c.get() + layout.size();
            c.set(now);
            let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
        });
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = CURRENT.try_with(|c| c.set(c.get().saturating_sub(layout.size())));
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Heap growth (bytes) at the high-water mark while running `f`.
fn peak_growth(f: impl FnOnce()) -> usize {
    let base = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(base));
    f();
    PEAK.with(Cell::get) - base
}

/// Largest heap growth allowed for an input of `len` bytes: decoded IR and
/// printed text are a small constant factor of the input; a count read from
/// the file must never be able to ask for more.
fn budget(len: usize) -> usize {
    (1 << 16) | (len * 512)
}

const NO_VERIFY: ParseOptions = ParseOptions {
    verify_checksum: false,
};

struct Tally {
    inputs: usize,
    ok: usize,
    worst_ratio: f64,
}

impl Tally {
    fn run(&mut self, what: &str, len: usize, f: impl FnOnce() -> bool) {
        let mut ok = false;
        let grown = peak_growth(|| ok = f());
        assert!(
            grown <= budget(len),
            "{what}: {grown} bytes allocated for a {len}-byte input"
        );
        self.inputs += 1;
        self.ok += ok as usize;
        self.worst_ratio = self.worst_ratio.max(grown as f64 / len.max(1) as f64);
    }
}

/// Parse and, when that works, print everything.
fn full_read(bytes: &[u8]) -> bool {
    match Shader::parse(bytes, NO_VERIFY) {
        Ok(s) => {
            let text = listing::listing(&s);
            let report = info::report("input", &s);
            !text.is_empty() && !report.is_empty()
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
    }
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    if at + 4 <= b.len() {
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

#[test]
fn reader_survives_truncation_and_mutation() {
    let Some(root) = common::corpus() else { return };
    let blobs: Vec<Vec<u8>> = common::manifest(&root)
        .iter()
        .map(|b| std::fs::read(root.join(&b.file)).expect("read blob"))
        .collect();
    let mut t = Tally {
        inputs: 0,
        ok: 0,
        worst_ratio: 0.0,
    };

    for bytes in &blobs {
        // Whole containers cut at every byte, size field rewritten.
        for cut in 0..bytes.len() {
            let mut b = bytes[..cut].to_vec();
            set_u32(&mut b, 24, cut as u32);
            t.run("truncated container", cut, || full_read(&b));
        }
        let Ok(shader) = Shader::parse(bytes, NO_VERIFY) else {
            continue;
        };
        for c in &shader.chunks {
            let data = &bytes[c.offset + 8..c.offset + 8 + c.size];
            let base = c.offset + 8;
            if &c.fourcc == b"SHEX" || &c.fourcc == b"SHDR" {
                for dwords in 0..=data.len() / 4 {
                    let mut d = data[..dwords * 4].to_vec();
                    set_u32(&mut d, 4, dwords as u32);
                    t.run("truncated program", d.len(), || {
                        decode_program(&d, base, true).is_ok()
                    });
                }
            } else if &c.fourcc == b"RDEF" {
                for cut in 0..data.len() {
                    t.run("truncated RDEF", cut, || {
                        Rdef::parse(&data[..cut], base).is_ok()
                    });
                }
            } else if is_signature(&c.fourcc) {
                for cut in 0..data.len() {
                    t.run("truncated signature", cut, || {
                        Signature::parse(&c.fourcc, &data[..cut], base).is_ok()
                    });
                }
            }
        }
    }
    let truncations = t.inputs;

    // Random mutations: bytes, dwords set to hostile counts, chunk-sized
    // windows of noise. Deterministic, so a failure reproduces.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let hostile = [0, 1, 2, 0x7f, 0xffff, 0x7fff_ffff, 0x8000_0000, u32::MAX];
    let mutations = 200_000;
    for _ in 0..mutations {
        let src = &blobs[rng.below(blobs.len())];
        let mut b = src.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(b.len());
            match rng.below(4) {
                0 => b[at] = rng.next() as u8,
                1 => b[at] ^= 1 << rng.below(8),
                2 => set_u32(&mut b, at & !3, hostile[rng.below(hostile.len())]),
                _ => set_u32(&mut b, at & !3, rng.next() as u32),
            }
        }
        let len = b.len();
        t.run("mutated container", len, || full_read(&b));
    }

    println!(
        "robustness: {} inputs ({truncations} truncations, {mutations} mutations), {} parsed, \
         no panic, peak heap at most {:.0}x the input",
        t.inputs, t.ok, t.worst_ratio
    );
    assert!(t.inputs >= 200_000);
}
