//! Number formatting as fxc prints it. Two generations of Microsoft's
//! disassembler exist in the wild and differ only in how floats print:
//!
//! * classic (HLSL compiler 9.x): always C's `%f`, through a C runtime that
//!   keeps 17 significant digits and pads the rest with zeros;
//! * modern (d3dcompiler_47, "6.3"/"10.x", the stand-alone "D3D Shader
//!   Disassembler"): `%f` when that reads back as the same float, otherwise
//!   nine significant digits (`0.00781250000`) or, for tiny values,
//!   `%.9E` with a three-digit exponent (`1.000000012E-007`).
//!
//! Integers print in decimal up to 10000 in magnitude and as `0x%08x` above.

/// Which generation of fxc's number printing to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloatStyle {
    Classic,
    #[default]
    Modern,
}

impl FloatStyle {
    /// Chooses the style from an RDEF creator string such as
    /// `Microsoft (R) HLSL Shader Compiler 9.29.952.3111`: 9.x compilers
    /// printed classic floats, everything newer prints modern ones.
    pub fn from_creator(creator: &str) -> FloatStyle {
        let version = creator
            .rsplit(' ')
            .next()
            .and_then(|v| v.split('.').next())
            .and_then(|m| m.parse::<u32>().ok());
        match version {
            Some(9) => FloatStyle::Classic,
            _ => FloatStyle::Modern,
        }
    }
}

/// Largest magnitude fxc prints in decimal rather than hex.
const DECIMAL_LIMIT: u32 = 10000;

/// Unsigned positions print exactly like signed ones: fxc shows
/// `and r0.x, r0.y, l(-4)` for 0xfffffffc.
pub fn format_uint(v: u32) -> String {
    format_int(v)
}

pub fn format_int(v: u32) -> String {
    let mut s = String::new();
    write_int(&mut s, v);
    s
}

/// [`format_int`] appended to `out`.
pub fn write_int(out: &mut String, v: u32) {
    let s = v as i32;
    if s.unsigned_abs() <= DECIMAL_LIMIT {
        if s < 0 {
            out.push('-');
        }
        push_u64(out, s.unsigned_abs() as u64);
    } else {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push_str("0x");
        for shift in (0..8).rev() {
            out.push(HEX[(v >> (shift * 4)) as usize & 0xf] as char);
        }
    }
}

/// Decimal digits of `n`, without going through `core::fmt`.
pub fn push_u64(out: &mut String, mut n: u64) {
    // Register numbers and most indices are one or two digits.
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
        return;
    }
    if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    push_ascii(out, &buf[i..]);
}

/// Appends decimal digits (`b'0'..=b'9'`) as one piece: pushing them char
/// by char paid a capacity check and a UTF-8 encoding branch per digit, and
/// validating them as UTF-8 cost about as much again.
fn push_ascii(out: &mut String, digits: &[u8]) {
    debug_assert!(digits.iter().all(u8::is_ascii_digit));
    // SAFETY: every caller passes digits it has just made as `b'0' + d`
    // with d < 10 (checked in debug builds above), and ASCII is UTF-8.
    // `numfmt`'s tests (integers, fixed-point against the reference)
    // cover every caller.
    out.push_str(unsafe { std::str::from_utf8_unchecked(digits) });
}

/// `n` with exactly `width` digits, zero-padded (n < 10^width).
fn push_padded(out: &mut String, mut n: u64, width: usize) {
    let mut buf = [b'0'; 20];
    let width = width.min(buf.len());
    for slot in buf[..width].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    push_ascii(out, &buf[..width]);
}

/// `%.{prec}f` the way the Microsoft C runtime printed it: the value is first
/// reduced to 17 significant digits, the rest are zeros.
pub fn msvc_fixed(v: f64, prec: usize) -> String {
    let mut s = String::new();
    write_fixed(&mut s, v, prec);
    s
}

/// [`msvc_fixed`] appended to `out`: the integer fast path when it can
/// prove its digits equal, the exact (bignum) path otherwise.
pub fn write_fixed(out: &mut String, v: f64, prec: usize) {
    match fixed_fast(v, prec) {
        Some(q) => {
            if v.is_sign_negative() {
                out.push('-');
            }
            let unit = POW10[prec];
            push_u64(out, q / unit);
            if prec > 0 {
                out.push('.');
                push_padded(out, q % unit, prec);
            }
        }
        None => write_fixed_exact(out, v, prec),
    }
}

const POW10: [u64; 17] = {
    let mut t = [1u64; 17];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// |v|·10^prec rounded as [`msvc_fixed_exact`] rounds it, computed from the
/// binary value with integers; None when that cannot be proved equal.
///
/// The C runtime first rounds to 17 significant digits, then rounds half up
/// on the digit after the last printed one (the guard), ignoring what
/// follows. Below 10^(15-prec) the 17th significant digit lies at least one
/// place after the guard, so the 17-digit rounding can only change the
/// printed digits or the guard through a carry, and a carry needs every
/// digit between the guard and the 17th to be 9: the exact remainder past
/// the guard would then be at least 0.9. A remainder under 0.875 therefore
/// proves that the truncated exact value has the same printed digits and
/// guard as the 17-digit one; anything else takes the exact path.
fn fixed_fast(v: f64, prec: usize) -> Option<u64> {
    if prec > 14 {
        return None;
    }
    let a = v.abs();
    // Also refuses NaN and infinities.
    if !a.is_finite() || a >= POW10[15 - prec] as f64 {
        return None;
    }
    let bits = a.to_bits();
    let biased = (bits >> 52) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    // a = m·2^e exactly.
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, biased - 1075)
    };
    let scale = POW10[prec + 1] as u128;
    // Scaled to prec+1 decimals: `t` the whole part (its last digit the
    // guard), `rem / 2^s` the fraction past the guard.
    let t: u128 = if e >= 0 {
        // An integer below 10^15: exact in u64, times 10^15 fits u128.
        (a as u64 as u128) * scale
    } else {
        let s = (-e) as u32;
        let p = m as u128 * scale; // < 2^53 · 10^15 < 2^103
        if s >= 128 {
            // p < 2^103 ≤ 2^s/2^25: nothing before the guard, the
            // remainder far below 0.875.
            0
        } else {
            let one = 1u128 << s;
            let rem = p & (one - 1);
            if rem >= one - (one >> 3) {
                return None;
            }
            p >> s
        }
    };
    let t = t as u64; // < 10^16
    Some(t / 10 + u64::from(t % 10 >= 5))
}

/// The C runtime's digits the slow way: Rust's exact 17-digit formatting,
/// placed and rounded digit by digit. Kept as the reference the fast path
/// is tested against.
#[cfg(test)]
fn msvc_fixed_exact(v: f64, prec: usize) -> String {
    let mut s = String::new();
    write_fixed_exact(&mut s, v, prec);
    s
}

/// Room for `{:.16e}` of any f64 (`d.dddddddddddddddde-ddd` is 23 bytes).
struct SciBuf {
    bytes: [u8; 32],
    len: usize,
}

impl std::fmt::Write for SciBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// [`msvc_fixed_exact`] appended to `out`: the fast path's fallback (large
/// values such as `FLT_MAX` take it on every listing). The digits are
/// worked in stack buffers: the former version's `format!` and vectors
/// were most of its cost.
fn write_fixed_exact(out: &mut String, v: f64, prec: usize) {
    use std::fmt::Write as _;
    let neg = v.is_sign_negative();
    let a = v.abs();
    if neg {
        out.push('-');
    }
    if a == 0.0 {
        // `0.` and the zeros, even at precision 0 (as the reference always
        // printed it; the fast path answers zero before this).
        out.push_str("0.");
        for _ in 0..prec {
            out.push('0');
        }
        return;
    }
    // 17 significant digits and a decimal exponent.
    let mut sci = SciBuf {
        bytes: [0; 32],
        len: 0,
    };
    let _ = write!(sci, "{a:.16e}");
    let sci = &sci.bytes[..sci.len];
    let (mant, exp) = match sci.iter().position(|&b| b == b'e') {
        Some(e) => (&sci[..e], &sci[e + 1..]),
        None => (sci, &b"0"[..]),
    };
    let exp: i32 = std::str::from_utf8(exp)
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(0);
    let mut digits = [0u8; 24];
    let mut count = 0;
    for d in mant.iter().filter(|b| b.is_ascii_digit()) {
        if let Some(slot) = digits.get_mut(count) {
            *slot = d - b'0';
            count += 1;
        }
    }
    // Place the digits: digit k has weight 10^(exp - k).
    // Integer part positions exp..0, fractional positions -1..-(prec+1).
    let int_len = if exp >= 0 { exp as usize + 1 } else { 1 };
    let total = int_len + prec + 1; // one guard digit for rounding
    // A leading carry digit, the places, the guard.
    let mut placed: smallvec::SmallVec<[u8; 64]> = smallvec::SmallVec::from_elem(0, total + 1);
    for (k, &d) in digits[..count].iter().enumerate() {
        let pos = exp - k as i32; // power of ten
        let idx = int_len as i32 - 1 - pos;
        if idx >= 0 && (idx as usize) < total {
            placed[idx as usize + 1] = d;
        }
    }
    // Round half up on the guard digit.
    let guard = placed[total];
    let mut first = 1;
    if guard >= 5 {
        let mut i = total;
        loop {
            i -= 1;
            if i == 0 {
                placed[0] = 1;
                first = 0;
                break;
            }
            if placed[i] == 9 {
                placed[i] = 0;
            } else {
                placed[i] += 1;
                break;
            }
        }
    }
    let shown = &mut placed[first..total];
    for d in shown.iter_mut() {
        *d += b'0';
    }
    let int_digits = shown.len() - prec;
    push_ascii(out, &shown[..int_digits]);
    if prec > 0 {
        out.push('.');
        push_ascii(out, &shown[int_digits..]);
    }
}

fn special(f: f32, style: FloatStyle) -> Option<&'static str> {
    special_word(f.is_nan(), f.is_infinite(), f.is_sign_negative(), style)
}

fn special_word(nan: bool, inf: bool, negative: bool, style: FloatStyle) -> Option<&'static str> {
    if nan {
        Some(match (style, negative) {
            (FloatStyle::Classic, false) => "1.#QNAN0",
            (FloatStyle::Classic, true) => "-1.#IND00",
            (FloatStyle::Modern, false) => "nan",
            (FloatStyle::Modern, true) => "-nan",
        })
    } else if inf {
        Some(match (style, negative) {
            (FloatStyle::Classic, false) => "1.#INF00",
            (FloatStyle::Classic, true) => "-1.#INF00",
            (FloatStyle::Modern, false) => "inf",
            (FloatStyle::Modern, true) => "-inf",
        })
    } else {
        None
    }
}

/// Nine significant digits, the modern disassembler's fallback when `%f`
/// would lose the value.
fn write_precise(out: &mut String, f: f32) {
    let v = f as f64;
    let exp10 = v.abs().log10().floor() as i32;
    if exp10 < -6 {
        let s = format!("{v:.9E}");
        match s.split_once('E') {
            Some((m, e)) => {
                let e: i32 = e.parse().unwrap_or(0);
                out.push_str(m);
                out.push('E');
                out.push(if e < 0 { '-' } else { '+' });
                push_padded(
                    out,
                    e.unsigned_abs() as u64,
                    3.max(digits(e.unsigned_abs())),
                );
            }
            None => out.push_str(&s),
        }
    } else {
        let decimals = (8 - exp10).max(0) as usize;
        write_fixed(out, v, decimals);
    }
}

/// How many decimal digits `n` has (at least one).
fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Whether the `%f` text just written (`out[start..]`) reads back as `bits`.
fn reads_back(out: &str, start: usize, bits: u32) -> bool {
    fixed_reads_back(bits) || out[start..].parse::<f32>().ok().map(f32::to_bits) == Some(bits)
}

/// Whether the six-decimal `%f` text of the float `bits` is known to read
/// back as the same bits without printing and parsing it (false means
/// "not known", not "does not"). Two cases are:
///
/// * the value has at most six fractional bits (zeros included): it times
///   10^6 is an integer, so its text is exact (at most eight significant
///   digits below 16, well inside the runtime's seventeen);
/// * |value| ≥ 16: the text is within 0.5·10^-6 of the value (plus the
///   17-digit reduction, relatively 5·10^-17), while neighbouring floats
///   are at least 2^-20 ≈ 9.5·10^-7 away, so the nearest float to the
///   text is the value itself.
pub fn fixed_reads_back(bits: u32) -> bool {
    let exponent = (bits >> 23) & 0xff;
    if bits & 0x7fff_ffff == 0 {
        return true;
    }
    // NaN and infinities print as words; denormals are far below 10^-6.
    if exponent == 0xff || exponent == 0 {
        return false;
    }
    if exponent >= 127 + 4 {
        return true;
    }
    // value = m · 2^(exponent - 150); its fractional bits are those of the
    // negative power left once m's trailing zeros are taken out.
    let m = (bits & 0x7f_ffff) | 0x80_0000;
    150 - exponent as i32 - m.trailing_zeros() as i32 <= 6
}

/// A float immediate in a typed (float) position.
pub fn format_float(bits: u32, style: FloatStyle) -> String {
    let mut s = String::new();
    write_float(&mut s, bits, style);
    s
}

/// [`format_float`] appended to `out`.
pub fn write_float(out: &mut String, bits: u32, style: FloatStyle) {
    let f = f32::from_bits(bits);
    if let Some(s) = special(f, style) {
        out.push_str(s);
        return;
    }
    let start = out.len();
    write_fixed(out, f as f64, 6);
    // Zero of either sign prints `%f` (its text reads back as a zero).
    if style == FloatStyle::Classic || f == 0.0 || reads_back(out, start, bits) {
        return;
    }
    out.truncate(start);
    write_precise(out, f);
}

/// A double of a `d(...)` immediate: `%f` with fxc's `l` suffix
/// (`d(1.000000l, 0.500000l)`), through the same C runtime as floats.
/// Non-finite values take the style's float words (`1.#INF00l`, `infl`).
pub fn format_double(bits: u64, style: FloatStyle) -> String {
    let v = f64::from_bits(bits);
    match special_word(v.is_nan(), v.is_infinite(), v.is_sign_negative(), style) {
        Some(word) => format!("{word}l"),
        None => format!("{}l", msvc_fixed(v, 6)),
    }
}

/// [`format_double`] appended to `out`.
pub fn write_double(out: &mut String, bits: u64, style: FloatStyle) {
    let v = f64::from_bits(bits);
    match special_word(v.is_nan(), v.is_infinite(), v.is_sign_negative(), style) {
        Some(word) => out.push_str(word),
        None => write_fixed(out, v, 6),
    }
    out.push('l');
}

/// Reads one double of a `d(...)` immediate back: what [`format_double`]
/// prints, with or without the `l`. NaNs read as the quiet NaN of their
/// sign (a listing pins any other payload with an exact line).
pub fn parse_double(text: &str) -> Option<u64> {
    let t = text.trim();
    let t = t.strip_suffix('l').unwrap_or(t);
    let special = match t {
        "1.#INF00" | "inf" | "+inf" => Some(f64::INFINITY.to_bits()),
        "-1.#INF00" | "-inf" => Some(f64::NEG_INFINITY.to_bits()),
        "1.#QNAN0" | "nan" => Some(0x7ff8_0000_0000_0000),
        "-1.#IND00" | "-1.#QNAN0" | "-nan" => Some(0xfff8_0000_0000_0000),
        _ => None,
    };
    if special.is_some() {
        return special;
    }
    // Only decimal numbers: Rust's parser would also take words such as
    // `infinity`, which no listing prints.
    if !t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        || !t.bytes().any(|b| b.is_ascii_digit())
    {
        return None;
    }
    t.parse::<f64>().ok().map(f64::to_bits)
}

/// Whether a typeless immediate reads as a float: a normal exponent, or
/// negative zero. Zero, denormal and NaN/Inf bit patterns print as integers.
pub fn looks_like_float(bits: u32) -> bool {
    let exponent = (bits >> 23) & 0xff;
    bits == 0x8000_0000 || (exponent != 0 && exponent != 0xff)
}

/// Whether the modern disassembler prints this typeless value with nine
/// significant digits (its `%f` would not read back).
pub fn untyped_is_precise(bits: u32, style: FloatStyle) -> bool {
    if style == FloatStyle::Classic || !looks_like_float(bits) {
        return false;
    }
    let f = f32::from_bits(bits);
    f != 0.0
        && !fixed_reads_back(bits)
        && msvc_fixed(f as f64, 6)
            .parse::<f32>()
            .ok()
            .map(f32::to_bits)
            != Some(bits)
}

/// A typeless immediate (`mov`, `movc`, immediate constant buffers).
///
/// `stray` reproduces a quirk of the modern disassembler visible in fxc's
/// own listings: once a list has printed one nine-digit value, each later
/// nine-digit value in the same list gets a stray character in front, `-`
/// when negative and `0` otherwise (`l(0.444036931,00.0614556149,
/// --0.229850411,0)`). Callers pass whether an earlier lane was precise.
pub fn format_untyped(bits: u32, style: FloatStyle, stray: bool) -> String {
    let mut s = String::new();
    write_untyped(&mut s, bits, style, stray);
    s
}

/// [`format_untyped`] appended to `out`; returns whether the value printed
/// with nine significant digits ([`untyped_is_precise`]).
pub fn write_untyped(out: &mut String, bits: u32, style: FloatStyle, stray: bool) -> bool {
    if !looks_like_float(bits) {
        write_int(out, bits);
        return false;
    }
    let f = f32::from_bits(bits);
    let start = out.len();
    write_fixed(out, f as f64, 6);
    // The same test as `untyped_is_precise`, on the text just written.
    if style == FloatStyle::Classic || f == 0.0 || reads_back(out, start, bits) {
        return false;
    }
    out.truncate(start);
    if stray {
        out.push(if f < 0.0 { '-' } else { '0' });
    }
    write_precise(out, f);
    true
}

/// Formats a typeless list lane by lane, applying the stray-character quirk
/// when `stray` (some releases of the modern disassembler have it, some not).
pub fn format_untyped_list(values: &[u32], style: FloatStyle, stray: bool) -> Vec<String> {
    let mut seen_precise = false;
    values
        .iter()
        .map(|&b| {
            let mut s = String::new();
            seen_precise |= write_untyped(&mut s, b, style, stray && seen_precise);
            s
        })
        .collect()
}

/// [`format_untyped_list`] appended to `out`, lanes separated by `sep`.
pub fn write_untyped_list(
    out: &mut String,
    values: &[u32],
    style: FloatStyle,
    stray: bool,
    sep: &str,
) {
    let mut seen_precise = false;
    for (i, &b) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        seen_precise |= write_untyped(out, b, style, stray && seen_precise);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut agrees with printing and parsing wherever it says
    /// "reads back": a stride through every bit pattern, and every float
    /// near the two boundaries (16 and the six-fractional-bit values).
    #[test]
    fn fixed_reads_back_only_when_text_does() {
        let slow = |bits: u32| {
            msvc_fixed(f32::from_bits(bits) as f64, 6)
                .parse::<f32>()
                .ok()
                .map(f32::to_bits)
                == Some(bits)
        };
        let mut checked = 0;
        let mut test = |bits: u32| {
            if fixed_reads_back(bits) {
                assert!(slow(bits), "{bits:#010x}");
                checked += 1;
            }
        };
        for bits in (0..=u32::MAX).step_by(9973) {
            test(bits);
        }
        for centre in [16.0f32, -16.0, 15.984375, 0.015625, 1.0, 0.5, 1e9, 3.0e38] {
            let b = centre.to_bits();
            for bits in b.saturating_sub(4096)..=b.saturating_add(4096) {
                test(bits);
            }
        }
        test(0x8000_0000);
        assert!(checked > 100_000, "{checked}");
        // Values the shortcut leaves to the slow path: 0.1 has no exact
        // six-decimal text, and `%f` of a denormal reads back as zero.
        assert!(!fixed_reads_back(0.1f32.to_bits()));
        assert!(!fixed_reads_back(1));
        assert!(!fixed_reads_back(f32::NAN.to_bits()));
        assert!(fixed_reads_back(0.015625f32.to_bits()));
        assert!(!fixed_reads_back(0.0078125f32.to_bits()));
    }

    #[test]
    fn classic_is_percent_f() {
        assert_eq!(
            format_float(1.963211f32.to_bits(), FloatStyle::Classic),
            "1.963211"
        );
        assert_eq!(
            format_float(0.0f32.to_bits(), FloatStyle::Classic),
            "0.000000"
        );
        assert_eq!(
            format_float((-0.5f32).to_bits(), FloatStyle::Classic),
            "-0.500000"
        );
        assert_eq!(
            format_float(0.0078125f32.to_bits(), FloatStyle::Classic),
            "0.007813"
        );
    }

    #[test]
    fn modern_keeps_precision() {
        let m = FloatStyle::Modern;
        assert_eq!(format_float(0.5f32.to_bits(), m), "0.500000");
        assert_eq!(format_float(0.0078125f32.to_bits(), m), "0.00781250000");
        assert_eq!(
            format_float(std::f32::consts::PI.to_bits(), m),
            "3.14159274"
        );
        assert_eq!(
            format_float(0.000_976_562_5_f32.to_bits(), m),
            "0.000976562500"
        );
        assert_eq!(format_float(1.0e-7f32.to_bits(), m), "1.000000012E-007");
        assert_eq!(format_float(0.2495f32.to_bits(), m), "0.249500");
    }

    #[test]
    fn msvc_pads_after_17_digits() {
        assert_eq!(
            msvc_fixed(f32::MAX as f64, 6),
            "340282346638528860000000000000000000000.000000"
        );
        assert_eq!(msvc_fixed(0.9999999, 6), "1.000000");
        assert_eq!(msvc_fixed(-2.5, 0), "-3");
    }

    /// The fast path against the exact one over raw bit patterns: every
    /// class of finite value (denormals, huge exponents, both signs), and
    /// values crowded around the six-decimal rounding boundaries.
    mod fast_equals_exact {
        use super::super::*;
        use proptest::prelude::*;

        fn same(v: f64, prec: usize) -> Result<(), TestCaseError> {
            let mut fast = String::new();
            write_fixed(&mut fast, v, prec);
            prop_assert_eq!(fast, msvc_fixed_exact(v, prec), "{:e} prec {}", v, prec);
            Ok(())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(20_000))]

            #[test]
            fn any_f32(bits in any::<u32>(), prec in 0usize..=16) {
                let f = f32::from_bits(bits);
                prop_assume!(f.is_finite());
                same(f as f64, prec)?;
            }

            #[test]
            fn f32_near_one(bits in 0x3000_0000u32..0x4c00_0000, neg in any::<bool>()) {
                // 2^-31 .. 2^25: where shader constants live.
                let f = f32::from_bits(bits | (neg as u32) << 31);
                same(f as f64, 6)?;
                let exp10 = (f as f64).abs().log10().floor() as i32;
                same(f as f64, (8 - exp10).max(0) as usize)?;
            }

            #[test]
            fn f32_denormal(mant in 0u32..0x80_0000, prec in 0usize..=14) {
                same(f32::from_bits(mant) as f64, prec)?;
            }

            #[test]
            fn any_f64(bits in any::<u64>(), prec in 0usize..=16) {
                let v = f64::from_bits(bits);
                prop_assume!(v.is_finite());
                same(v, prec)?;
            }

            #[test]
            fn f64_moderate(bits in 0x3e00_0000_0000_0000u64..0x4330_0000_0000_0000) {
                same(f64::from_bits(bits), 6)?;
            }

            #[test]
            fn decimal_boundaries(n in 0u64..100_000_000, step in -3i32..=3) {
                // Values next to k.5e-7, where the guard digit decides: the
                // nearest float to n/10^7 and its neighbours.
                let f = (n as f64 / 1e7) as f32;
                let g = f32::from_bits((f.to_bits() as i32 + step).max(0) as u32);
                same(g as f64, 6)?;
                let d = f64::from_bits((((n as f64) / 1e7).to_bits() as i64 + step as i64).max(0) as u64);
                same(d, 6)?;
            }
        }
    }

    #[test]
    fn fast_path_edges() {
        // Worked by hand: 0.0078125 has guard digit 5 → 0.007813;
        // 0.00000049999999... truncates below the guard; 2^-149 is zero.
        assert_eq!(msvc_fixed(0.0078125, 6), "0.007813");
        assert_eq!(msvc_fixed(0.5, 0), "1");
        assert_eq!(msvc_fixed(-0.0, 6), "-0.000000");
        assert_eq!(msvc_fixed(f32::from_bits(1) as f64, 6), "0.000000");
        assert_eq!(msvc_fixed(999_999_999.0, 6), "999999999.000000");
        // And the fast path does take these (7813 = 0.007813 at 10^6).
        assert_eq!(fixed_fast(0.0078125, 6), Some(7813));
        assert_eq!(fixed_fast(0.1f32 as f64, 6), Some(100_000));
        // 1e15 at six decimals takes the exact path: 1000000000000000.375
        // keeps 17 digits, ...0.4, and the rest are zeros.
        assert_eq!(msvc_fixed(1e15 + 0.375, 6), "1000000000000000.400000");
    }

    #[test]
    fn integers() {
        assert_eq!(format_int(u32::MAX), "-1");
        assert_eq!(format_int(16), "16");
        assert_eq!(format_uint(0x3f80_0000), "0x3f800000");
        assert_eq!(format_uint(4096), "4096");
        assert_eq!(format_uint(0xffff), "0x0000ffff");
        // Digits pushed as one piece (`push_ascii`): every length, and
        // the padded and exact fixed-point paths (-1e20 has 21 digits).
        let mut s = String::new();
        for n in [0, 7, 42, 100, 65_536, u64::MAX] {
            push_u64(&mut s, n);
            s.push(' ');
        }
        assert_eq!(s, "0 7 42 100 65536 18446744073709551615 ");
        assert_eq!(msvc_fixed(-1e20, 2), "-100000000000000000000.00");
        assert_eq!(msvc_fixed(0.0, 20), "0.00000000000000000000");
    }

    #[test]
    fn untyped_heuristic() {
        let c = FloatStyle::Classic;
        assert_eq!(format_untyped(0, c, false), "0");
        assert_eq!(format_untyped(u32::MAX, c, false), "-1");
        assert_eq!(format_untyped(1.0f32.to_bits(), c, false), "1.000000");
        assert_eq!(format_untyped(0x8000_0000, c, false), "-0.000000");
        let list = [
            0.444_036_93_f32.to_bits(),
            0.061_455_615_f32.to_bits(),
            (-0.229_850_41_f32).to_bits(),
            0,
        ];
        assert_eq!(
            format_untyped_list(&list, FloatStyle::Modern, true).join(","),
            "0.444036931,00.0614556149,--0.229850411,0"
        );
        let late = [0, 0, 0, 0.129_411_77_f32.to_bits()];
        assert_eq!(
            format_untyped_list(&late, FloatStyle::Modern, true).join(","),
            "0,0,0,0.129411772"
        );
    }

    #[test]
    fn style_from_creator() {
        assert_eq!(
            FloatStyle::from_creator("Microsoft (R) HLSL Shader Compiler 9.29.952.3111"),
            FloatStyle::Classic
        );
        assert_eq!(
            FloatStyle::from_creator("Microsoft (R) HLSL Shader Compiler 10.1"),
            FloatStyle::Modern
        );
    }
}
