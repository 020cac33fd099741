//! The three number types an instruction reads or writes, GLSL type names,
//! literals that keep every bit, and swizzle text.
//!
//! [`ValueType`] and [`OpaqueType`] are the GLSL types the manifest lists:
//! typed so a runtime reads the number type, component count or texture
//! shape as fields, and printed (`Display`) as the GLSL spelling, which is
//! also what the manifest's JSON carries.

use std::fmt::{self, Write as _};

use crate::dxbc::enums::ReturnType;
use crate::dxbc::numfmt::push_u64;
use crate::dxbc::opcodes::NumType;

use super::writer::Piece;

/// The type an instruction reads its sources as or produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    Float,
    Int,
    Uint,
}

impl Ty {
    /// The GLSL scalar type that carries a D3D number type. Registers are
    /// float vectors, so typeless values (and a missing type) travel as
    /// floats and are bit-cast where an instruction reads them otherwise.
    /// (Doubles never get here: the emitter refuses them.)
    /// The GLSL type a texture with this return type yields (`isampler*`
    /// for sint, `usampler*` for uint, float otherwise).
    pub fn of_return(r: ReturnType) -> Ty {
        match r {
            ReturnType::Sint => Ty::Int,
            ReturnType::Uint => Ty::Uint,
            _ => Ty::Float,
        }
    }

    pub fn of(t: Option<NumType>) -> Ty {
        match t {
            Some(NumType::Int) => Ty::Int,
            Some(NumType::Uint) => Ty::Uint,
            Some(NumType::Float | NumType::Untyped | NumType::Double) | None => Ty::Float,
        }
    }

    pub fn scalar(self) -> &'static str {
        match self {
            Ty::Float => "float",
            Ty::Int => "int",
            Ty::Uint => "uint",
        }
    }

    /// `float`, `vec2`, `ivec3`, `uvec4`…: from a table, as the name is
    /// written into nearly every line.
    pub fn vec(self, n: usize) -> &'static str {
        const NAMES: [[&str; 4]; 3] = [
            ["float", "vec2", "vec3", "vec4"],
            ["int", "ivec2", "ivec3", "ivec4"],
            ["uint", "uvec2", "uvec3", "uvec4"],
        ];
        let row = match self {
            Ty::Float => 0,
            Ty::Int => 1,
            Ty::Uint => 2,
        };
        // Widths past 4 never reach here (registers are vec4s).
        debug_assert!(n <= 4, "a vector of {n}");
        NAMES[row][n.clamp(1, 4) - 1]
    }

    /// Reinterprets float register bits as this type.
    #[allow(clippy::wrong_self_convention)]
    pub fn from_float_bits(self) -> Option<&'static str> {
        match self {
            Ty::Float => None,
            Ty::Int => Some("floatBitsToInt"),
            Ty::Uint => Some("floatBitsToUint"),
        }
    }

    /// Reinterprets a value of this type as float register bits.
    pub fn to_float_bits(self) -> Option<&'static str> {
        match self {
            Ty::Float => None,
            Ty::Int => Some("intBitsToFloat"),
            Ty::Uint => Some("uintBitsToFloat"),
        }
    }

    /// A literal of this type from raw bits.
    pub fn literal(self, bits: u32) -> String {
        let mut s = String::new();
        self.push_literal(&mut s, bits);
        s
    }

    /// [`Ty::literal`] appended to `out`.
    pub fn push_literal(self, out: &mut String, bits: u32) {
        match self {
            Ty::Float => push_float_literal(out, bits),
            Ty::Int => push_int_literal(out, bits as i32),
            Ty::Uint => {
                push_u64(out, bits.into());
                out.push('u');
            }
        }
    }

    /// A literal vector (or scalar) of this type from raw lanes, built in
    /// one `String` (immediates are read per instruction).
    pub fn literal_vec(self, lanes: &[u32]) -> String {
        let mut s = String::with_capacity(16 * lanes.len() + 8);
        self.push_literal_vec(&mut s, lanes);
        s
    }

    /// [`Ty::literal_vec`] appended to `out`.
    pub fn push_literal_vec(self, s: &mut String, lanes: &[u32]) {
        if lanes.len() == 1 {
            self.push_literal(s, lanes[0]);
            return;
        }
        s.push_str(self.vec(lanes.len()));
        s.push('(');
        if lanes.iter().all(|&l| l == lanes[0]) {
            self.push_literal(s, lanes[0]);
        } else {
            for (k, &l) in lanes.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                self.push_literal(s, l);
            }
        }
        s.push(')');
    }
}

/// The scalar type of a declared value: the three register types, and
/// `bool` for built-ins such as `gl_FrontFacing` (which no register holds,
/// hence not a [`Ty`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    Float,
    Int,
    Uint,
    Bool,
}

impl From<Ty> for Scalar {
    fn from(ty: Ty) -> Scalar {
        match ty {
            Ty::Float => Scalar::Float,
            Ty::Int => Scalar::Int,
            Ty::Uint => Scalar::Uint,
        }
    }
}

/// A scalar, vector or array of vectors of one scalar type: `float`,
/// `ivec4`, `uvec4[8]`, `bool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValueType {
    pub scalar: Scalar,
    /// 1 (a scalar) to 4.
    pub components: u8,
    /// `Some(n)` for an array of `n`.
    pub array: Option<u32>,
}

impl ValueType {
    /// A scalar (`components` 0 or 1, as [`Ty::vec`] takes them) or vector.
    pub fn vec(scalar: impl Into<Scalar>, components: usize) -> ValueType {
        ValueType {
            scalar: scalar.into(),
            components: components as u8,
            array: None,
        }
    }

    pub fn array(scalar: impl Into<Scalar>, components: usize, len: u32) -> ValueType {
        ValueType {
            array: Some(len),
            ..ValueType::vec(scalar, components)
        }
    }
}

impl ValueType {
    /// The GLSL spelling, written into `out`: both [`Piece`] and
    /// `Display` write it through here, so it is spelled once and
    /// neither allocates.
    fn spell(&self, out: &mut impl Spell) {
        let (name, prefix) = match self.scalar {
            Scalar::Float => ("float", ""),
            Scalar::Int => ("int", "i"),
            Scalar::Uint => ("uint", "u"),
            Scalar::Bool => ("bool", "b"),
        };
        match self.components {
            0 | 1 => out.text(name),
            n => {
                out.text(prefix);
                out.text("vec");
                out.number(n.into());
            }
        }
        if let Some(n) = self.array {
            out.text("[");
            out.number(n.into());
            out.text("]");
        }
    }
}

/// Where a type's spelling is written: a `String` (as a piece) or a
/// formatter (`Display`, for the manifest's JSON and messages).
trait Spell {
    fn text(&mut self, s: &str);
    fn number(&mut self, n: u64);
}

impl Spell for String {
    fn text(&mut self, s: &str) {
        self.push_str(s);
    }

    fn number(&mut self, n: u64) {
        push_u64(self, n);
    }
}

/// A formatter as a [`Spell`], keeping the first error.
struct FmtSpell<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    result: fmt::Result,
}

impl Spell for FmtSpell<'_, '_> {
    fn text(&mut self, s: &str) {
        if self.result.is_ok() {
            self.result = self.f.write_str(s);
        }
    }

    fn number(&mut self, n: u64) {
        if self.result.is_ok() {
            self.result = write!(self.f, "{n}");
        }
    }
}

/// The shape of a GLSL texture object, after the lowerings the emitter
/// makes (1D textures are 2D of height 1, so there is no 1D here). This,
/// not the D3D dimension, is what a runtime must create its views as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureShape {
    D2,
    D2Array,
    D3,
    Cube,
    /// vk450 only: ES 3.00 has no cube arrays.
    CubeArray,
    /// Multisampled (`texture2DMS`), vk450 only.
    D2MS,
    /// Multisampled array (`texture2DMSArray`), vk450 only.
    D2MSArray,
}

impl TextureShape {
    /// The type-name suffix: `sampler2DArray`, `texture3D`.
    pub fn suffix(self) -> &'static str {
        match self {
            TextureShape::D2 => "2D",
            TextureShape::D2Array => "2DArray",
            TextureShape::D3 => "3D",
            TextureShape::Cube => "Cube",
            TextureShape::CubeArray => "CubeArray",
            TextureShape::D2MS => "2DMS",
            TextureShape::D2MSArray => "2DMSArray",
        }
    }
}

/// Which kind of opaque object a uniform is: es300's combined `sampler*`,
/// or vk450's separate `texture*` (combined with a `sampler` at use sites).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opaque {
    Sampler,
    Texture,
}

/// A sampler or texture uniform's type: `isampler2D`,
/// `sampler2DArrayShadow`, `utexture3D`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpaqueType {
    pub object: Opaque,
    /// What a read returns (`Float` also for depth comparisons).
    pub ty: Ty,
    pub shape: TextureShape,
    /// A `…Shadow` sampler: reads compare against a reference. Only
    /// float samplers are shadow samplers.
    pub shadow: bool,
}

impl OpaqueType {
    /// The spelling, as [`ValueType::spell`] writes one.
    fn spell(&self, out: &mut impl Spell) {
        let prefix = match self.ty {
            Ty::Float => "",
            Ty::Int => "i",
            Ty::Uint => "u",
        };
        let object = match self.object {
            Opaque::Sampler => "sampler",
            Opaque::Texture => "texture",
        };
        let shadow = if self.shadow { "Shadow" } else { "" };
        for part in [prefix, object, self.shape.suffix(), shadow] {
            out.text(part);
        }
    }
}

/// `Piece` and `Display` of the types that spell themselves (`spell`):
/// one spelling, pushed onto a String or written to a formatter.
macro_rules! spelled {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn push_to(&self, out: &mut String) {
                self.spell(out);
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut out = FmtSpell { f, result: Ok(()) };
                self.spell(&mut out);
                out.result
            }
        }
    )*};
}
spelled!(ValueType, OpaqueType);

/// Appends a float literal that reproduces `bits` exactly: the shortest decimal that
/// reads back to the same value for normal numbers and zero, and
/// `uintBitsToFloat(0x…u)` for what decimal cannot carry through a GLSL
/// compiler (NaN, infinities, denormals, negative zero).
fn push_float_literal(out: &mut String, bits: u32) {
    let v = f32::from_bits(bits);
    if bits == 0 {
        out.push_str("0.0");
        return;
    }
    if !v.is_normal() || bits == 0x8000_0000 {
        out.push_str("uintBitsToFloat(");
        push_hex8(out, bits);
        out.push_str("u)");
        return;
    }
    let start = out.len();
    // Whole numbers below 2^24 are exact in f32 and `{:?}` writes them as
    // their digits and `.0` (it turns to exponents only from 1e16): most
    // shader constants are such (0.0 aside, 1.0, 2.0, 255.0), and pushing
    // the digits skips the shortest-decimal search.
    if v.fract() == 0.0 && v.abs() < 16_777_216.0 {
        if v < 0.0 {
            out.push('-');
        }
        push_u64(out, v.abs() as u64);
        out.push_str(".0");
        debug_assert!(out[start..].parse::<f32>().map(|p| p.to_bits()) == Ok(bits));
        return;
    }
    // `{:?}` prints `1e-7`, `1.5`, `100.0`; GLSL wants a dot or an exponent,
    // which it always has.
    let _ = write!(out, "{v:?}");
    debug_assert!(out[start..].parse::<f32>().map(|p| p.to_bits()) == Ok(bits));
}

/// An `int` literal. `-2147483648` is not a literal in GLSL (it is the
/// negation of an out-of-range one), so it is written as an expression.
pub fn int_literal(v: i32) -> String {
    let mut s = String::new();
    push_int_literal(&mut s, v);
    s
}

fn push_int_literal(out: &mut String, v: i32) {
    if v == i32::MIN {
        out.push_str("(-2147483647 - 1)");
    } else {
        // Digits pushed, not formatted: immediates are read per operand.
        if v < 0 {
            out.push('-');
        }
        push_u64(out, v.unsigned_abs().into());
    }
}

/// `v` as `{:#010x}` writes it: `0x` and eight lowercase hex digits,
/// pushed by hand (immediate constant buffers hold thousands of words).
pub fn push_hex8(out: &mut String, v: u32) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("0x");
    for k in (0..8).rev() {
        out.push(char::from(HEX[(v >> (4 * k)) as usize & 15]));
    }
}

pub const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// A swizzle (`.xzw`) held in place, for the few components a write
/// mask names: declarations write one per register, and a `String` each
/// (and the `Vec` of components it was made from) was most of their cost.
#[derive(Debug, Clone, Copy)]
pub struct Swizzle {
    text: [u8; 5],
    len: u8,
}

impl Swizzle {
    /// The components set in `mask`, in order.
    pub fn of_mask(mask: u8) -> Swizzle {
        let mut text = [b'.'; 5];
        let mut len = 1;
        for (c, name) in b"xyzw".iter().enumerate() {
            if mask & (1 << c) != 0 {
                text[len] = *name;
                len += 1;
            }
        }
        Swizzle {
            text,
            len: len as u8,
        }
    }

    /// The first component set in `mask` alone (`.x` for an empty mask, as
    /// no caller passes one).
    pub fn first_of_mask(mask: u8) -> Swizzle {
        let mut s = Swizzle::of_mask(mask);
        if s.len == 1 {
            s.text[1] = b'x';
        }
        s.len = 2;
        s
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever stored.
        std::str::from_utf8(&self.text[..self.len as usize]).unwrap_or(".")
    }
}

impl Piece for Swizzle {
    fn push_to(&self, out: &mut String) {
        out.push_str(self.as_str());
    }
}

/// `.xyz` for component indices.
pub fn swizzle(comps: &[u8]) -> String {
    let mut s = String::with_capacity(comps.len() + 1);
    s.push('.');
    for &c in comps {
        s.push(COMPONENTS[(c & 3) as usize]);
    }
    s
}

/// Component indices set in a write mask, in order.
pub fn mask_components(mask: u8) -> Vec<u8> {
    (0..4u8).filter(|c| mask & (1 << c) != 0).collect()
}

/// Number of components in a write mask.
pub fn mask_count(mask: u8) -> usize {
    (mask & 0xf).count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glsl::writer::cat;

    #[test]
    fn float_literals_keep_bits() {
        for bits in [
            0x3f80_0000u32,
            0x3dcc_cccd,
            0x7f7f_ffff,
            0x0080_0000,
            0xc2c8_0000,
            0x3400_0000,
        ] {
            let s = Ty::Float.literal(bits);
            assert_eq!(s.parse::<f32>().unwrap().to_bits(), bits, "{s}");
        }
        assert_eq!(
            Ty::Float.literal(0x7fc0_0000),
            "uintBitsToFloat(0x7fc00000u)"
        );
        assert_eq!(
            Ty::Float.literal(0xff80_0000),
            "uintBitsToFloat(0xff800000u)"
        );
        assert_eq!(
            Ty::Float.literal(0x8000_0000),
            "uintBitsToFloat(0x80000000u)"
        );
        assert_eq!(Ty::Float.literal(1), "uintBitsToFloat(0x00000001u)");
        assert_eq!(Ty::Float.literal(0), "0.0");
        assert_eq!(Ty::Float.literal(0x3f80_0000), "1.0");
    }

    /// Whole floats take the digit-pushing path: they must read as `{:?}`
    /// writes them (and so as before), at both ends of that path's range.
    #[test]
    fn whole_float_literals_match_debug() {
        for v in [
            1.0f32,
            -1.0,
            2.0,
            255.0,
            -65535.0,
            16_777_215.0,
            -16_777_215.0,
            16_777_216.0,
            1e16,
            0.5,
            -0.25,
        ] {
            assert_eq!(Ty::Float.literal(v.to_bits()), format!("{v:?}"), "{v}");
        }
        assert_eq!(Ty::Float.literal(0x3f80_0000), "1.0");
        assert_eq!(Ty::Float.literal(0xc37f_0000), "-255.0");
    }

    /// Swizzles of masks: every component set, in order; the first alone.
    #[test]
    fn mask_swizzles() {
        assert_eq!(Swizzle::of_mask(0xf).as_str(), ".xyzw");
        assert_eq!(Swizzle::of_mask(0b1101).as_str(), ".xzw");
        assert_eq!(Swizzle::of_mask(0b0100).as_str(), ".z");
        assert_eq!(Swizzle::first_of_mask(0b1100).as_str(), ".z");
        assert_eq!(Swizzle::first_of_mask(0xf).as_str(), ".x");
        for m in 1..16u8 {
            assert_eq!(Swizzle::of_mask(m).as_str(), swizzle(&mask_components(m)));
            assert_eq!(
                Swizzle::first_of_mask(m).as_str(),
                swizzle(&mask_components(m)[..1])
            );
        }
        let mut s = String::from("v0");
        cat!(&mut s; Swizzle::of_mask(3));
        assert_eq!(s, "v0.xy");
    }

    #[test]
    fn int_literals() {
        assert_eq!(int_literal(-5), "-5");
        assert_eq!(int_literal(i32::MIN), "(-2147483647 - 1)");
        assert_eq!(Ty::Uint.literal(0xffff_ffff), "4294967295u");
        assert_eq!(Ty::Int.literal_vec(&[1, 2]), "ivec2(1, 2)");
        assert_eq!(Ty::Float.literal_vec(&[0, 0, 0]), "vec3(0.0)");
    }

    #[test]
    fn manifest_types_print_their_glsl_spelling() {
        assert_eq!(ValueType::vec(Ty::Float, 1).to_string(), "float");
        assert_eq!(ValueType::vec(Ty::Int, 2).to_string(), "ivec2");
        assert_eq!(ValueType::array(Ty::Uint, 4, 8).to_string(), "uvec4[8]");
        assert_eq!(ValueType::vec(Scalar::Bool, 1).to_string(), "bool");
        // A piece pushes what Display writes.
        let mut s = String::from("x ");
        cat!(&mut s; ValueType::array(Ty::Int, 3, 2));
        assert_eq!(s, "x ivec3[2]");
        let t = |object, ty, shape, shadow| {
            OpaqueType {
                object,
                ty,
                shape,
                shadow,
            }
            .to_string()
        };
        use {Opaque::*, TextureShape::*};
        assert_eq!(t(Sampler, Ty::Float, D2, false), "sampler2D");
        assert_eq!(t(Sampler, Ty::Float, D2Array, true), "sampler2DArrayShadow");
        assert_eq!(t(Sampler, Ty::Int, D3, false), "isampler3D");
        assert_eq!(t(Texture, Ty::Uint, Cube, false), "utextureCube");
        assert_eq!(t(Texture, Ty::Int, CubeArray, false), "itextureCubeArray");
        assert_eq!(
            t(Sampler, Ty::Float, CubeArray, true),
            "samplerCubeArrayShadow"
        );
    }
}
