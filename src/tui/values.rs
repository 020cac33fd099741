//! Register values as text (by their types, or in the float/hex/int/uint
//! views) and the prompts' little languages: register components and
//! pixels.

use crate::dxbc::value_type::ValueType;
use crate::vm::Loc;

/// A view that shows every value one way, overriding the types. The
/// panes keep an `Option<ValueView>`: `None` shows each value by its type.
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

/// The register pane's `v`: typed → float → hex → int → uint → typed.
pub fn next_register_view(view: Option<ValueView>) -> Option<ValueView> {
    match view {
        None => Some(ValueView::Float),
        Some(ValueView::Uint) => None,
        Some(v) => Some(v.next()),
    }
}

/// The memory pane's `v`: typed → hex → int → uint → float → typed.
pub fn next_memory_view(view: Option<ValueView>) -> Option<ValueView> {
    match view {
        None => Some(ValueView::Hex),
        Some(ValueView::Hex) => Some(ValueView::Int),
        Some(ValueView::Int) => Some(ValueView::Uint),
        Some(ValueView::Uint) => Some(ValueView::Float),
        Some(ValueView::Float) => None,
    }
}

/// A view's name as the pane titles say it.
pub fn view_name(view: Option<ValueView>) -> &'static str {
    view.map_or("typed", ValueView::name)
}

/// A register component in `view`, or by its type when there is none.
pub fn shown(view: Option<ValueView>, bits: u32, ty: ValueType) -> String {
    match view {
        Some(v) => v.format(bits),
        None => typed_text(bits, ty),
    }
}

/// A component by its type: a float as in the float view, integers in
/// decimal, a mask as `true`/`false`, a double's half in hex (the pair
/// is one value, which no single column holds).
pub fn typed_text(bits: u32, ty: ValueType) -> String {
    match ty {
        ValueType::Float => float_text(bits),
        ValueType::Int => (bits as i32).to_string(),
        ValueType::Uint => bits.to_string(),
        ValueType::Mask => match bits {
            0 => "false".into(),
            u32::MAX => "true".into(),
            b => b.to_string(),
        },
        ValueType::Double => format!("0x{bits:08x}"),
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

/// A component letter (`x`/`r` … `w`/`a`) → its index: the one spelling
/// the prompts, the watch list and names all read.
pub fn component_of(c: char) -> Option<usize> {
    Some(match c {
        'x' | 'r' => 0,
        'y' | 'g' => 1,
        'z' | 'b' => 2,
        'w' | 'a' => 3,
        _ => return None,
    })
}

/// A one-letter component (`"y"`) → its index.
pub fn component_index(s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(())?;
    component_of(c)
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
    let comp = component_index(comp)?;
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

    #[test]
    fn typed_values_and_the_view_cycles() {
        let minus_five = -5i32 as u32;
        assert_eq!(typed_text(minus_five, ValueType::Int), "-5");
        assert_eq!(typed_text(minus_five, ValueType::Uint), "4294967291");
        assert_eq!(typed_text(7, ValueType::Int), "7");
        assert_eq!(typed_text(u32::MAX, ValueType::Mask), "true");
        assert_eq!(typed_text(0, ValueType::Mask), "false");
        assert_eq!(typed_text(0xff80_0000, ValueType::Float), "-inf");
        assert_eq!(shown(Some(ValueView::Hex), 7, ValueType::Int), "0x00000007");
        let cycle = |next: fn(Option<ValueView>) -> Option<ValueView>| {
            let mut v = None;
            let mut names = Vec::new();
            for _ in 0..5 {
                v = next(v);
                names.push(view_name(v));
            }
            names
        };
        assert_eq!(
            cycle(next_register_view),
            ["float", "hex", "int", "uint", "typed"]
        );
        assert_eq!(
            cycle(next_memory_view),
            ["hex", "int", "uint", "float", "typed"]
        );
    }
}
