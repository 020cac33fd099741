//! Text collected in sections of lines, each line tagged with the DXBC
//! instruction that produced it; joining the sections gives the source and
//! the source map.
//!
//! A section keeps its text in one buffer and a tag per line beside it, so
//! writing a line allocates nothing once the buffers have grown: lines are
//! formatted straight into the buffer (`format_args!`), never into a
//! `String` of their own first. Translating a small shader is mostly fixed
//! costs, and a heap allocation per line was the largest of them.

use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::rc::Rc;

use super::SourceMap;
use crate::dxbc::numfmt::push_u64;

/// Text a line can be written from: borrowed or owned strings, or
/// `format_args!`, which formats into the section's buffer directly.
pub trait LineText {
    fn write_to(self, out: &mut String);
}

impl LineText for &str {
    fn write_to(self, out: &mut String) {
        out.push_str(self);
    }
}

impl LineText for &String {
    fn write_to(self, out: &mut String) {
        out.push_str(self);
    }
}

impl LineText for String {
    fn write_to(self, out: &mut String) {
        out.push_str(&self);
    }
}

impl LineText for fmt::Arguments<'_> {
    fn write_to(self, out: &mut String) {
        // Writing into a `String` cannot fail.
        let _ = out.write_fmt(self);
    }
}

/// A piece of text pushed straight onto a buffer: strings as they are,
/// integers in decimal, GLSL type names. Lines and names are mostly a few
/// such pieces, which `format!` would run through the formatting
/// machinery (a dynamic call per piece, padding checks) and, for a name,
/// into a `String` grown from empty.
pub trait Piece {
    fn push_to(&self, out: &mut String);
}

impl Piece for str {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for char {
    fn push_to(&self, out: &mut String) {
        out.push(*self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

impl<T: Piece + ?Sized> Piece for Box<T> {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

impl<T: Piece + ?Sized> Piece for Rc<T> {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

/// Unsigned integers in decimal, as `{}` writes them.
macro_rules! unsigned_piece {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn push_to(&self, out: &mut String) {
                push_u64(out, *self as u64);
            }
        }
    )*};
}
unsigned_piece!(u8, u16, u32, u64, usize);

/// Signed integers in decimal, as `{}` writes them.
macro_rules! signed_piece {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn push_to(&self, out: &mut String) {
                if *self < 0 {
                    out.push('-');
                }
                push_u64(out, self.unsigned_abs() as u64);
            }
        }
    )*};
}
signed_piece!(i8, i16, i32, i64, isize);

/// A tuple of pieces is a line's text, pushed in order:
/// `s.line(tag, ("void ", &name, "() {"))`.
macro_rules! tuple_line {
    ($($p:ident),+) => {
        impl<$($p: Piece),+> LineText for ($($p,)+) {
            #[allow(non_snake_case)]
            fn write_to(self, out: &mut String) {
                let ($($p,)+) = self;
                $($p.push_to(out);)+
            }
        }
    };
}
tuple_line!(A);
tuple_line!(A, B);
tuple_line!(A, B, C);
tuple_line!(A, B, C, D);
tuple_line!(A, B, C, D, E);
tuple_line!(A, B, C, D, E, F);
tuple_line!(A, B, C, D, E, F, G);
tuple_line!(A, B, C, D, E, F, G, H);
tuple_line!(A, B, C, D, E, F, G, H, I);
tuple_line!(A, B, C, D, E, F, G, H, I, J);
tuple_line!(A, B, C, D, E, F, G, H, I, J, K);
tuple_line!(A, B, C, D, E, F, G, H, I, J, K, L);

/// Pushes pieces onto a `String` in order: `cat!(out; "vec", n, "(")`.
/// `cat!(a, b, …)` alone makes a new `String` of them, for what
/// `format!` would make of plain `{}` arguments.
macro_rules! cat {
    ($out:expr; $($piece:expr),+ $(,)?) => {{
        let out: &mut String = $out;
        $($crate::glsl::writer::Piece::push_to(&$piece, out);)+
    }};
    ($($piece:expr),+ $(,)?) => {{
        let mut out = String::with_capacity(32);
        $($crate::glsl::writer::Piece::push_to(&$piece, &mut out);)+
        out
    }};
}
pub(crate) use cat;

/// The tag of an untagged line.
const NO_TAG: u32 = u32::MAX;

/// One section of output (declarations, a function body, …).
#[derive(Debug, Default, Clone)]
pub struct Section {
    /// Every line's text, each ended by `\n`.
    text: String,
    /// Each line's tag, in order: one entry per `line` call (a line's
    /// text is never split, so the map counts what was written). An
    /// instruction index, or [`NO_TAG`]: a quarter of an `Option<usize>`'s
    /// size, and the join's loop over every line tests one word.
    tags: Vec<u32>,
    indent: usize,
}

thread_local! {
    /// Buffers of sections dropped on this thread (after a join), emptied
    /// but keeping their capacity, for the next translation's sections. A
    /// translation writes a dozen sections, two buffers each; allocating
    /// them afresh for every shader was a tenth of a small shader's cost.
    static SPARE: RefCell<Vec<(String, Vec<u32>)>> = const { RefCell::new(Vec::new()) };
}

thread_local! {
    /// Expression buffers of emitters finished on this thread ([`Scratch`]).
    static SPARE_SCRATCH: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Expression buffers an emitter lends itself while building statements,
/// kept on the thread between translations as section buffers are: a
/// shader needs a handful, and each allocated afresh (and freed after the
/// join) cost more than most of its statements.
#[derive(Debug, Default)]
pub struct Scratch(Vec<String>);

/// Most expression buffers kept, and the largest.
const SCRATCH_MAX: usize = 16;
const SCRATCH_BYTES: usize = 1 << 12;

impl Scratch {
    /// The buffers left by the last emitter on this thread, if any.
    pub fn new() -> Scratch {
        Scratch(
            SPARE_SCRATCH
                .try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)))
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default(),
        )
    }

    /// An empty buffer, reused when one was given back.
    pub fn take(&mut self) -> String {
        self.0.pop().unwrap_or_else(|| String::with_capacity(128))
    }

    /// Gives a buffer back, emptied.
    pub fn give(&mut self, mut s: String) {
        s.clear();
        self.0.push(s);
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut bufs = std::mem::take(&mut self.0);
        bufs.retain(|b| b.capacity() <= SCRATCH_BYTES);
        bufs.truncate(SCRATCH_MAX);
        let _ = SPARE_SCRATCH.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.len() < bufs.len()
            {
                *s = bufs;
            }
        });
    }
}

/// Most buffers kept: more than one translation's sections.
const SPARE_MAX: usize = 32;
/// A buffer larger than this is freed, not kept, so one huge shader does
/// not pin its memory for the thread's lifetime.
const SPARE_BYTES: usize = 1 << 18;

impl Section {
    pub fn new() -> Section {
        Section::indented(0)
    }

    /// An empty section whose lines start `depth` levels in.
    pub fn indented(depth: usize) -> Section {
        let (text, tags) = SPARE
            .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten()
            .unwrap_or_default();
        Section {
            text,
            tags,
            indent: depth,
        }
    }

    /// Appends a line at the current indentation, tagged with `tag`.
    pub fn line(&mut self, tag: Option<usize>, text: impl LineText) {
        self.open(tag);
        text.write_to(&mut self.text);
        self.text.push('\n');
    }

    /// Appends a line made of `parts`, pushed one after another: the
    /// commonest lines are a few names and operators, which
    /// `format_args!` would run through the formatting machinery.
    pub fn line_cat(&mut self, tag: Option<usize>, parts: &[&str]) {
        self.open(tag);
        for p in parts {
            self.text.push_str(p);
        }
        self.text.push('\n');
    }

    /// Starts a line: its tag and indentation. The caller writes the text
    /// into [`Section::buf`] and ends it with `\n`.
    pub fn open(&mut self, tag: Option<usize>) {
        // An index past u32 is past any program's instructions: the join
        // would find no range for it either.
        self.tags
            .push(tag.and_then(|i| u32::try_from(i).ok()).unwrap_or(NO_TAG));
        for _ in 0..self.indent {
            self.text.push_str("    ");
        }
    }

    /// The buffer a line opened by [`Section::open`] is written into.
    pub fn buf(&mut self) -> &mut String {
        &mut self.text
    }

    /// Room for `bytes` more text in `lines` more lines, so a section
    /// that will be long grows once rather than doubling its way up.
    pub fn reserve(&mut self, bytes: usize, lines: usize) {
        self.text.reserve(bytes);
        self.tags.reserve(lines);
    }

    pub fn indent(&mut self) {
        self.indent += 1;
    }

    pub fn dedent(&mut self) {
        // The emitter refuses unbalanced blocks before writing anything
        // (`dxbc::analysis::Blocks`), so stepping out past the first level
        // is a bug in the emitter, never bad input.
        debug_assert!(self.indent > 0, "dedent below the outermost level");
        self.indent = self.indent.saturating_sub(1);
    }

    pub fn depth(&self) -> usize {
        self.indent
    }

    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}

impl Drop for Section {
    fn drop(&mut self) {
        if self.text.capacity() == 0 && self.tags.capacity() == 0
            || self.text.capacity() > SPARE_BYTES
            || self.tags.capacity() > SPARE_BYTES / 4
        {
            return;
        }
        let mut text = std::mem::take(&mut self.text);
        let mut tags = std::mem::take(&mut self.tags);
        text.clear();
        tags.clear();
        // During the thread's teardown the pool may be gone: the buffers
        // are then simply freed.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.len() < SPARE_MAX
            {
                s.push((text, tags));
            }
        });
    }
}

/// A piece of the final text: a section, or a whole text shared with
/// others (a helper kept across translations) written as untagged lines.
pub enum Part {
    Lines(Section),
    /// `text.lines()` as untagged lines, as writing them one at a time
    /// unindented gives; never a text holding `\r`, which would
    /// split line by line.
    Text(Rc<str>),
    /// A constant text, as [`Part::Text`].
    Static(&'static str),
    /// One empty untagged line.
    Blank,
}

impl From<Section> for Part {
    fn from(s: Section) -> Part {
        Part::Lines(s)
    }
}

/// Joins the parts into the source text and the per-instruction line map.
/// Every byte of the output is copied once, here: sections are built
/// apart only because they come out of order, and shared helper texts go
/// straight from the cache into the result.
pub fn join<P: Into<Part>>(parts: Vec<P>, instructions: usize) -> (String, SourceMap) {
    let parts: Vec<Part> = parts.into_iter().map(Into::into).collect();
    let size = parts
        .iter()
        .map(|p| match p {
            Part::Lines(s) => s.text.len(),
            Part::Text(t) => t.len() + 1,
            Part::Static(t) => t.len() + 1,
            Part::Blank => 1,
        })
        .sum();
    let mut text = String::with_capacity(size);
    // First and last line per instruction; 0 (line numbers start at 1)
    // while it has none.
    let mut ranges: Vec<(u32, u32)> = vec![(0, 0); instructions];
    let mut line_no = 0u32;
    for part in &parts {
        let section = match part {
            Part::Lines(section) => section,
            Part::Text(t) => {
                line_no += push_text(&mut text, t);
                continue;
            }
            Part::Static(t) => {
                line_no += push_text(&mut text, t);
                continue;
            }
            Part::Blank => {
                text.push('\n');
                line_no += 1;
                continue;
            }
        };
        text.push_str(&section.text);
        for &tag in &section.tags {
            line_no += 1;
            if tag != NO_TAG
                && let Some(slot) = ranges.get_mut(tag as usize)
            {
                // Line numbers only grow, so a range's start is its first
                // line and its end the latest.
                if slot.0 == 0 {
                    slot.0 = line_no;
                }
                slot.1 = line_no;
            }
        }
    }
    let ranges = ranges
        .into_iter()
        .map(|(a, b)| (a != 0).then_some((a, b)))
        .collect();
    (text, SourceMap { ranges })
}

/// Appends a shared or constant text as untagged lines; returns how many.
fn push_text(text: &mut String, t: &str) -> u32 {
    debug_assert!(!t.contains('\r'), "a shared text with \\r");
    let unended = !t.is_empty() && !t.ends_with('\n');
    let lines = count_newlines(t.as_bytes()) + usize::from(unended);
    text.push_str(t);
    if unended {
        text.push('\n');
    }
    lines as u32
}

/// How many `\n` bytes `text` holds. Every shared helper text is counted
/// on every join, and the plain `filter().count()` compiles to a loop that
/// widens each byte's match to 64 bits. Here matches are summed in byte
/// lanes over at most 255 blocks of 32 (no lane can overflow), which the
/// compiler turns into byte compares and subtracts 16 or 32 at a time.
fn count_newlines(text: &[u8]) -> usize {
    const LANES: usize = 32;
    let mut total = 0;
    let mut blocks = text.chunks_exact(LANES);
    loop {
        let mut lanes = [0u8; LANES];
        let mut taken = 0;
        for block in blocks.by_ref().take(255) {
            for (lane, &b) in lanes.iter_mut().zip(block) {
                *lane += u8::from(b == b'\n');
            }
            taken += 1;
        }
        total += lanes.iter().map(|&n| usize::from(n)).sum::<usize>();
        if taken < 255 {
            break;
        }
    }
    total + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shared text joins as its `lines()` written one at a time would.
    #[test]
    fn shared_text_joins_as_its_lines() {
        for text in ["", "a", "a\n", "a\n\nb", "f() {\n    return;\n}"] {
            let mut s = Section::new();
            s.line(Some(0), "x");
            for l in text.lines() {
                s.line(None, l);
            }
            s.line(None, "");
            s.line(Some(1), "y");
            let (want, want_map) = join(vec![s], 2);
            let mut a = Section::new();
            a.line(Some(0), "x");
            let mut b = Section::new();
            b.line(Some(1), "y");
            let parts = vec![a.into(), Part::Text(Rc::from(text)), Part::Blank, b.into()];
            let (got, map) = join(parts, 2);
            assert_eq!(got, want, "{text:?}");
            assert_eq!(map.ranges, want_map.ranges, "{text:?}");
        }
    }

    /// Pieces push what `{}` formats: integers at both ends of their
    /// range, signed ones negative, and a tuple line in order.
    #[test]
    fn pieces_push_what_display_writes() {
        for n in [0u64, 9, 10, 99, 100, 4_294_967_295, u64::MAX] {
            assert_eq!(cat!(n), n.to_string());
        }
        for n in [0i32, -1, -10, 42, i32::MIN, i32::MAX] {
            assert_eq!(cat!(n), n.to_string());
        }
        assert_eq!(cat!(i64::MIN), i64::MIN.to_string());
        assert_eq!(
            cat!(u8::MAX, usize::MAX),
            format!("{}{}", u8::MAX, usize::MAX)
        );
        let name = String::from("f");
        let mut s = Section::indented(1);
        s.line(Some(0), ("void ", &name, "() {", 'x', 7u32, -3i32));
        assert_eq!(s.text, "    void f() {x7-3\n");
        assert_eq!(s.tags, vec![0]);
        let mut out = String::from(">");
        cat!(&mut out; "vec", 4u8, '(', Rc::<str>::from("a"), ")");
        assert_eq!(out, ">vec4(a)");
    }

    /// The lane-wise count agrees with a plain count at every length
    /// around the block sizes (32 bytes, 255 blocks), newlines dense and
    /// sparse.
    #[test]
    fn newline_count_matches_plain_count() {
        for len in [
            0,
            1,
            31,
            32,
            33,
            255 * 32 - 1,
            255 * 32,
            255 * 32 + 1,
            3 * 255 * 32 + 17,
        ] {
            for every in [1, 2, 7, 64] {
                let text: Vec<u8> = (0..len)
                    .map(|i| if i % every == 0 { b'\n' } else { b'a' })
                    .collect();
                let plain = text.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(count_newlines(&text), plain, "len {len}, every {every}");
            }
        }
    }

    /// An emitter's scratch buffers outlive it on the thread, emptied;
    /// a large one is freed instead.
    #[test]
    fn scratch_buffers_are_kept_emptied() {
        let mut a = Scratch::new();
        let mut b = a.take();
        b.push_str("expression");
        let cap = b.capacity();
        a.give(b);
        let mut big = a.take();
        big.reserve(SCRATCH_BYTES + 1);
        let mut c = a.take();
        c.push('x');
        a.give(c);
        a.give(big);
        drop(a);
        let mut a = Scratch::new();
        let b = a.take();
        assert!(b.is_empty());
        assert_eq!(b.capacity(), cap.max(128));
        assert!(a.0.is_empty(), "one buffer was kept");
    }

    /// A section made after another was dropped reuses its buffers, and
    /// starts empty: no text, no tags, its own indentation.
    #[test]
    fn reused_section_starts_empty() {
        let mut a = Section::indented(2);
        a.line(Some(3), "some text that was written");
        let cap = a.text.capacity();
        drop(a);
        let b = Section::new();
        assert!(b.text.is_empty() && b.tags.is_empty());
        assert_eq!(b.text.capacity(), cap, "the dropped section's buffer");
        assert_eq!(b.depth(), 0);
        let mut b = b;
        b.line(None, "x");
        assert_eq!(b.text, "x\n");
        // A buffer past the bound is freed, not kept.
        let mut big = Section::new();
        big.reserve(SPARE_BYTES + 1, 0);
        drop(big);
        assert!(Section::new().text.capacity() <= SPARE_BYTES);
    }
}
