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
    let s = v as i32;
    if s.unsigned_abs() <= DECIMAL_LIMIT {
        s.to_string()
    } else {
        format!("0x{v:08x}")
    }
}

/// `%.{prec}f` the way the Microsoft C runtime printed it: the value is first
/// reduced to 17 significant digits, the rest are zeros.
pub fn msvc_fixed(v: f64, prec: usize) -> String {
    let neg = v.is_sign_negative();
    let a = v.abs();
    if a == 0.0 {
        return format!("{}0.{}", if neg { "-" } else { "" }, "0".repeat(prec));
    }
    // 17 significant digits and a decimal exponent.
    let sci = format!("{a:.16e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mant
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|d| d - b'0')
        .collect();
    // Place the digits: digit k has weight 10^(exp - k).
    // Integer part positions exp..0, fractional positions -1..-(prec+1).
    let int_len = if exp >= 0 { exp as usize + 1 } else { 1 };
    let total = int_len + prec + 1; // one guard digit for rounding
    let mut out = vec![0u8; total];
    for (k, &d) in digits.iter().enumerate() {
        let pos = exp - k as i32; // power of ten
        let idx = int_len as i32 - 1 - pos;
        if idx >= 0 && (idx as usize) < total {
            out[idx as usize] = d;
        }
    }
    // Round half up on the guard digit.
    let guard = out.pop().unwrap_or(0);
    if guard >= 5 {
        let mut i = out.len();
        loop {
            if i == 0 {
                out.insert(0, 1);
                break;
            }
            i -= 1;
            if out[i] == 9 {
                out[i] = 0;
            } else {
                out[i] += 1;
                break;
            }
        }
    }
    let int_digits = out.len() - prec;
    let mut s = String::with_capacity(out.len() + 2);
    if neg {
        s.push('-');
    }
    for &d in &out[..int_digits] {
        s.push((b'0' + d) as char);
    }
    if prec > 0 {
        s.push('.');
        for &d in &out[int_digits..] {
            s.push((b'0' + d) as char);
        }
    }
    s
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
fn precise(f: f32) -> String {
    let v = f as f64;
    let exp10 = v.abs().log10().floor() as i32;
    if exp10 < -6 {
        let s = format!("{v:.9E}");
        match s.split_once('E') {
            Some((m, e)) => {
                let e: i32 = e.parse().unwrap_or(0);
                format!("{m}E{}{:03}", if e < 0 { '-' } else { '+' }, e.abs())
            }
            None => s,
        }
    } else {
        let decimals = (8 - exp10).max(0) as usize;
        msvc_fixed(v, decimals)
    }
}

/// A float immediate in a typed (float) position.
pub fn format_float(bits: u32, style: FloatStyle) -> String {
    let f = f32::from_bits(bits);
    if let Some(s) = special(f, style) {
        return s.to_string();
    }
    let fixed = msvc_fixed(f as f64, 6);
    match style {
        FloatStyle::Classic => fixed,
        FloatStyle::Modern => {
            if fixed.parse::<f32>().ok().map(f32::to_bits) == Some(bits)
                || (f == 0.0 && fixed.parse::<f32>() == Ok(0.0))
            {
                fixed
            } else {
                precise(f)
            }
        }
    }
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
    if !looks_like_float(bits) {
        return format_int(bits);
    }
    let f = f32::from_bits(bits);
    if untyped_is_precise(bits, style) {
        let p = precise(f);
        if stray {
            format!("{}{p}", if f < 0.0 { '-' } else { '0' })
        } else {
            p
        }
    } else {
        msvc_fixed(f as f64, 6)
    }
}

/// Formats a typeless list lane by lane, applying the stray-character quirk
/// when `stray` (some releases of the modern disassembler have it, some not).
pub fn format_untyped_list(values: &[u32], style: FloatStyle, stray: bool) -> Vec<String> {
    let mut seen_precise = false;
    values
        .iter()
        .map(|&b| {
            let s = format_untyped(b, style, stray && seen_precise);
            seen_precise |= untyped_is_precise(b, style);
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn integers() {
        assert_eq!(format_int(u32::MAX), "-1");
        assert_eq!(format_int(16), "16");
        assert_eq!(format_uint(0x3f80_0000), "0x3f800000");
        assert_eq!(format_uint(4096), "4096");
        assert_eq!(format_uint(0xffff), "0x0000ffff");
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
