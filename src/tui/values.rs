//! Register values as text (the float/hex/int/uint views) and the
//! prompts' little languages: register components and pixels.

use crate::vm::Loc;

/// How register values are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueView {
    Float,
    Hex,
    Int,
    Uint,
}

impl ValueView {
    pub fn next(self) -> ValueView {
        match self {
            ValueView::Float => ValueView::Hex,
            ValueView::Hex => ValueView::Int,
            ValueView::Int => ValueView::Uint,
            ValueView::Uint => ValueView::Float,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ValueView::Float => "float",
            ValueView::Hex => "hex",
            ValueView::Int => "int",
            ValueView::Uint => "uint",
        }
    }

    pub fn format(self, bits: u32) -> String {
        match self {
            ValueView::Float => float_text(bits),
            ValueView::Hex => format!("0x{bits:08x}"),
            ValueView::Int => (bits as i32).to_string(),
            ValueView::Uint => bits.to_string(),
        }
    }
}

/// A float short enough for a register column: Rust's shortest round-trip
/// form, or scientific notation when that is long.
pub fn float_text(bits: u32) -> String {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        return "NaN".into();
    }
    let s = format!("{f:?}");
    if s.len() <= 12 { s } else { format!("{f:.5e}") }
}

pub fn nan_or_inf(bits: u32) -> bool {
    (bits >> 23) & 0xff == 0xff
}

pub fn component_name(c: usize) -> char {
    ['x', 'y', 'z', 'w'][c & 3]
}

/// `X,Y` → pixel.
pub fn parse_pixel(s: &str) -> Option<(u32, u32)> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// `r0.x`, `o1.w`, `x0[3].y`, `oDepth` → register and component.
pub fn parse_watch(s: &str) -> Option<(Loc, usize)> {
    let s = s.trim();
    match s {
        "oDepth" => return Some((Loc::Depth, 0)),
        "oMask" => return Some((Loc::Coverage, 0)),
        _ => {}
    }
    let (reg, comp) = s.rsplit_once('.')?;
    let comp = match comp {
        "x" | "r" => 0,
        "y" | "g" => 1,
        "z" | "b" => 2,
        "w" | "a" => 3,
        _ => return None,
    };
    let num = |t: &str| t.parse::<u32>().ok();
    let loc = if let Some(rest) = reg.strip_prefix('x') {
        let (r, i) = rest.strip_suffix(']')?.split_once('[')?;
        Loc::Indexable(num(r)?, num(i)?)
    } else if let Some(r) = reg.strip_prefix('r') {
        Loc::Temp(num(r)?)
    } else if let Some(r) = reg.strip_prefix('o') {
        Loc::Output(num(r)?)
    } else {
        return None;
    };
    Some((loc, comp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_names() {
        assert_eq!(parse_watch("r0.x"), Some((Loc::Temp(0), 0)));
        assert_eq!(parse_watch(" o2.w "), Some((Loc::Output(2), 3)));
        assert_eq!(parse_watch("x1[4].y"), Some((Loc::Indexable(1, 4), 1)));
        assert_eq!(parse_watch("oDepth"), Some((Loc::Depth, 0)));
        assert_eq!(parse_watch("r0"), None);
        assert_eq!(parse_watch("v0.x"), None);
        assert_eq!(parse_watch("r0.q"), None);
    }

    #[test]
    fn pixels() {
        assert_eq!(parse_pixel("3, 4"), Some((3, 4)));
        assert_eq!(parse_pixel("3"), None);
        assert_eq!(parse_pixel("a,4"), None);
    }

    #[test]
    fn value_views() {
        let one = 1.0f32.to_bits();
        assert_eq!(ValueView::Float.format(one), "1.0");
        assert_eq!(ValueView::Hex.format(one), "0x3f800000");
        assert_eq!(ValueView::Int.format(u32::MAX), "-1");
        assert_eq!(ValueView::Uint.format(u32::MAX), "4294967295");
        assert_eq!(ValueView::Float.format(0x7fc0_0000), "NaN");
        assert_eq!(ValueView::Float.format(f32::INFINITY.to_bits()), "inf");
        assert_eq!(ValueView::Float.format(1e30f32.to_bits()), "1e30");
        assert_eq!(
            ValueView::Float.format((-1.2345678e-30f32).to_bits()),
            "-1.23457e-30"
        );
        let mut v = ValueView::Float;
        for _ in 0..4 {
            v = v.next();
        }
        assert_eq!(v, ValueView::Float);
    }
}
