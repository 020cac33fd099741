//! Value syntax shared by every section: numbers, lanes given as floats,
//! hex bits or suffixed integers, and comment stripping. Every error names
//! the case file and line.

use super::CaseError;

pub(super) struct Ctx<'a> {
    pub(super) file: &'a str,
}

impl Ctx<'_> {
    pub(super) fn err(&self, line: usize, message: impl Into<String>) -> CaseError {
        CaseError {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    pub(super) fn f32(&self, line: usize, t: &str) -> Result<f32, CaseError> {
        t.parse()
            .map_err(|_| self.err(line, format!("expected a number, found `{t}`")))
    }

    /// A probe value: a float, `0x…` for exact bits (NaN payloads,
    /// infinities, negative zero), or `A/B`, the float nearest the
    /// quotient (`128/255`: what UNORM 128 of an 8-bit channel stands for).
    pub(super) fn probe_value(&self, line: usize, t: &str) -> Result<f32, CaseError> {
        if let Some(h) = t.strip_prefix("0x") {
            return u32::from_str_radix(h, 16)
                .map(f32::from_bits)
                .map_err(|_| self.err(line, format!("bad hex value `{t}`")));
        }
        if let Some((a, b)) = t.split_once('/') {
            let num = |s: &str| {
                s.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| self.err(line, format!("bad fraction `{t}`")))
            };
            let (a, b) = (num(a)?, num(b)?);
            if b == 0.0 {
                return Err(self.err(line, format!("fraction `{t}` divides by zero")));
            }
            return Ok((a / b) as f32);
        }
        self.f32(line, t)
    }

    pub(super) fn u32(&self, line: usize, t: &str) -> Result<u32, CaseError> {
        t.parse().map_err(|_| {
            self.err(
                line,
                format!("expected a non-negative integer, found `{t}`"),
            )
        })
    }

    /// A lane given as a float (`0.5`), hex bits (`0x3f800000`), or an
    /// integer with a `u`/`i` suffix (`7u`, `-1i`).
    pub(super) fn lane(&self, line: usize, t: &str) -> Result<u32, CaseError> {
        if let Some(h) = t.strip_prefix("0x") {
            return u32::from_str_radix(h, 16)
                .map_err(|_| self.err(line, format!("bad hex value `{t}`")));
        }
        if let Some(i) = t.strip_suffix('i') {
            return i
                .parse::<i32>()
                .map(|v| v as u32)
                .map_err(|_| self.err(line, format!("bad integer `{t}`")));
        }
        if let Some(u) = t.strip_suffix('u') {
            return u
                .parse::<u32>()
                .map_err(|_| self.err(line, format!("bad integer `{t}`")));
        }
        Ok(self.f32(line, t)?.to_bits())
    }

    pub(super) fn lanes4(&self, line: usize, toks: &[&str]) -> Result<[u32; 4], CaseError> {
        if toks.len() != 4 {
            return Err(self.err(line, format!("expected four values, found {}", toks.len())));
        }
        let mut v = [0; 4];
        for (i, t) in toks.iter().enumerate() {
            v[i] = self.lane(line, t)?;
        }
        Ok(v)
    }
}

/// A section's lines: (line number, text without comment).
pub(super) type Lines<'a> = Vec<(usize, &'a str)>;

pub(super) fn strip(line: &str) -> &str {
    match line.find('#') {
        Some(p) => line[..p].trim(),
        None => line.trim(),
    }
}

/// The settings a section has seen, so a second line setting the same
/// thing is an error naming both lines rather than a silent replacement.
/// Every section reports a repeat through this one check, so a repeat
/// reads the same wherever it is. A setting is named as the message shows
/// it: the line's first word (`format`), with its slot where a section
/// sets one per slot (`format 0`, `row 3`), or with its aspect (`view
/// mips`); the slot is the parsed number, so `format 00` repeats `format 0`.
#[derive(Default)]
pub(super) struct Once {
    seen: Vec<(String, usize)>,
}

impl Once {
    pub(super) fn check(&mut self, ctx: &Ctx, line: usize, key: &str) -> Result<(), CaseError> {
        if let Some((_, first)) = self.seen.iter().find(|(k, _)| k == key) {
            return Err(ctx.err(
                line,
                format!("`{key}` is set twice in this section (first at line {first})"),
            ));
        }
        self.seen.push((key.to_string(), line));
        Ok(())
    }
}
