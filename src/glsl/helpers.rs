//! Small GLSL functions for what ES 3.00 lacks or leaves undefined where D3D
//! defines a result. Only helpers an instruction asked for are written, in a
//! fixed order, each once.
//!
//! Component-wise helpers are defined on scalars; vector overloads that
//! apply the scalar one per component are generated for the widths used.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::types::Ty;
use super::writer::{Part, Section};

/// A component-wise helper: scalar parameter types, result type, body.
pub struct Scalar {
    pub name: &'static str,
    pub params: &'static [Ty],
    pub ret: Ty,
    /// Body of the scalar function; parameters are `a`, `b`, `c`, `d`.
    pub body: &'static str,
    /// Other scalar helpers the body calls.
    pub needs: &'static [&'static Scalar],
}

/// `ftoi`: truncation toward zero; NaN gives 0 and out-of-range values
/// saturate (GLSL leaves both undefined).
pub static FTOI: Scalar = Scalar {
    name: "dx_ftoi",
    params: &[Ty::Float],
    ret: Ty::Int,
    body: "if (isnan(a)) return 0;\n\
           if (a >= 2147483647.0) return 2147483647;\n\
           if (a <= -2147483648.0) return -2147483647 - 1;\n\
           return int(a);",
    needs: &[],
};

/// `ftou`: NaN and negatives give 0; values past 2^32-1 saturate.
pub static FTOU: Scalar = Scalar {
    name: "dx_ftou",
    params: &[Ty::Float],
    ret: Ty::Uint,
    body: "if (isnan(a) || a <= 0.0) return 0u;\n\
           if (a >= 4294967295.0) return 4294967295u;\n\
           return uint(a);",
    needs: &[],
};

/// `max`: D3D11 returns the other operand when one is NaN (both NaN: NaN).
/// GLSL defines `max` by `<` and lets an implementation give either
/// operand for NaN (SSE's `maxps` returns the second), so the NaN cases
/// are decided here; on a GPU without NaNs `isnan` is false and this is
/// plain `max`.
pub static MAX: Scalar = Scalar {
    name: "dx_max",
    params: &[Ty::Float, Ty::Float],
    ret: Ty::Float,
    body: "if (isnan(a)) return b;\n\
           if (isnan(b)) return a;\n\
           return max(a, b);",
    needs: &[],
};

/// `min`, likewise.
pub static MIN: Scalar = Scalar {
    name: "dx_min",
    params: &[Ty::Float, Ty::Float],
    ret: Ty::Float,
    body: "if (isnan(a)) return b;\n\
           if (isnan(b)) return a;\n\
           return min(a, b);",
    needs: &[],
};

/// `f32tof16`: the half bits in the low 16 bits, rounded to nearest even,
/// float denormals flushed, NaN kept quiet with its top payload bits. Done
/// in integers: `packHalf2x16` leaves rounding to the implementation and
/// naga accepts it only with the `SHADER_FLOAT16_IN_FLOAT32` capability.
pub static F32TOF16: Scalar = Scalar {
    name: "dx_f32tof16",
    params: &[Ty::Float],
    ret: Ty::Uint,
    body: "uint b = floatBitsToUint(a);\n\
           uint s = (b >> 16u) & 0x8000u;\n\
           int e = int((b >> 23u) & 0xffu);\n\
           uint m = b & 0x7fffffu;\n\
           if (e == 255) return s | 0x7c00u | (m != 0u ? (0x200u | (m >> 13u)) : 0u);\n\
           e = e - 112;\n\
           if (e >= 31) return s | 0x7c00u;\n\
           if (e <= 0) {\n\
           \x20   if (e < -10) return s;\n\
           \x20   m = m | 0x800000u;\n\
           \x20   uint sh = uint(14 - e);\n\
           \x20   uint d = m >> sh;\n\
           \x20   uint r = m & ((1u << sh) - 1u);\n\
           \x20   uint mid = 1u << (sh - 1u);\n\
           \x20   if (r > mid || (r == mid && (d & 1u) != 0u)) d += 1u;\n\
           \x20   return s | d;\n\
           }\n\
           uint h = (uint(e) << 10u) | (m >> 13u);\n\
           uint r = m & 0x1fffu;\n\
           if (r > 0x1000u || (r == 0x1000u && (h & 1u) != 0u)) h += 1u;\n\
           return s | h;",
    needs: &[],
};

/// `f16tof32`: the low 16 bits read as a half, exactly (denormal halves
/// become normal floats), in integers for the same reasons as `f32tof16`.
pub static F16TOF32: Scalar = Scalar {
    name: "dx_f16tof32",
    params: &[Ty::Uint],
    ret: Ty::Float,
    body: "uint s = (a & 0x8000u) << 16u;\n\
           uint e = (a >> 10u) & 0x1fu;\n\
           uint m = a & 0x3ffu;\n\
           // m * 2^-24 is exact and normal.\n\
           if (e == 0u) return uintBitsToFloat(s | floatBitsToUint(float(m) * 5.9604644775390625e-8));\n\
           if (e == 31u) return uintBitsToFloat(s | 0x7f800000u | (m << 13u));\n\
           return uintBitsToFloat(s | ((e + 112u) << 23u) | (m << 13u));",
    needs: &[],
};

/// `countbits` (no `bitCount` in ES 3.00).
pub static COUNTBITS: Scalar = Scalar {
    name: "dx_countbits",
    params: &[Ty::Uint],
    ret: Ty::Uint,
    body: "a = a - ((a >> 1u) & 0x55555555u);\n\
           a = (a & 0x33333333u) + ((a >> 2u) & 0x33333333u);\n\
           return (((a + (a >> 4u)) & 0x0f0f0f0fu) * 0x01010101u) >> 24u;",
    needs: &[],
};

/// `firstbit_lo`: index of the lowest set bit; 0 gives 0xFFFFFFFF.
pub static FIRSTBIT_LO: Scalar = Scalar {
    name: "dx_firstbit_lo",
    params: &[Ty::Uint],
    ret: Ty::Uint,
    body: "if (a == 0u) return 0xffffffffu;\n\
           return dx_countbits((a & (~a + 1u)) - 1u);",
    needs: &[&COUNTBITS],
};

/// `firstbit_hi`: index of the highest set bit counted from the MSB
/// (D3D's convention, not `findMSB`'s); 0 gives 0xFFFFFFFF.
pub static FIRSTBIT_HI: Scalar = Scalar {
    name: "dx_firstbit_hi",
    params: &[Ty::Uint],
    ret: Ty::Uint,
    body: "if (a == 0u) return 0xffffffffu;\n\
           uint n = 0u;\n\
           if ((a & 0xffff0000u) == 0u) { n += 16u; a <<= 16u; }\n\
           if ((a & 0xff000000u) == 0u) { n += 8u; a <<= 8u; }\n\
           if ((a & 0xf0000000u) == 0u) { n += 4u; a <<= 4u; }\n\
           if ((a & 0xc0000000u) == 0u) { n += 2u; a <<= 2u; }\n\
           if ((a & 0x80000000u) == 0u) { n += 1u; }\n\
           return n;",
    needs: &[],
};

/// `firstbit_shi`: `firstbit_hi` of the bits that differ from the sign bit.
pub static FIRSTBIT_SHI: Scalar = Scalar {
    name: "dx_firstbit_shi",
    params: &[Ty::Int],
    ret: Ty::Uint,
    body: "uint u = uint(a);\n\
           return dx_firstbit_hi(a < 0 ? ~u : u);",
    needs: &[&FIRSTBIT_HI],
};

/// `bfrev` (no `bitfieldReverse` in ES 3.00).
pub static BFREV: Scalar = Scalar {
    name: "dx_bfrev",
    params: &[Ty::Uint],
    ret: Ty::Uint,
    body: "a = ((a >> 1u) & 0x55555555u) | ((a & 0x55555555u) << 1u);\n\
           a = ((a >> 2u) & 0x33333333u) | ((a & 0x33333333u) << 2u);\n\
           a = ((a >> 4u) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4u);\n\
           a = ((a >> 8u) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8u);\n\
           return (a >> 16u) | (a << 16u);",
    needs: &[],
};

/// `msad reference, source, accumulator`: the accumulator plus the absolute
/// differences of the four byte pairs, skipping bytes whose reference is 0
/// (D3D11.1's masked sum of absolute differences).
pub static MSAD: Scalar = Scalar {
    name: "dx_msad",
    params: &[Ty::Uint, Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "uint sum = c;\n\
           for (uint i = 0u; i < 32u; i += 8u) {\n\
               uint r = (a >> i) & 0xffu;\n\
               uint s = (b >> i) & 0xffu;\n\
               if (r != 0u) { sum += (r > s) ? r - s : s - r; }\n\
           }\n\
           return sum;",
    needs: &[],
};

/// `ubfe width, offset, value`: width and offset use their low 5 bits; a
/// zero width gives 0; width + offset past 32 takes the bits up to 31.
pub static UBFE: Scalar = Scalar {
    name: "dx_ubfe",
    params: &[Ty::Uint, Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "uint w = a & 31u;\n\
           uint o = b & 31u;\n\
           if (w == 0u) return 0u;\n\
           if (w + o < 32u) return (c << (32u - w - o)) >> (32u - w);\n\
           return c >> o;",
    needs: &[],
};

/// `ibfe`: as `ubfe`, sign-extending the field.
pub static IBFE: Scalar = Scalar {
    name: "dx_ibfe",
    params: &[Ty::Uint, Ty::Uint, Ty::Int],
    ret: Ty::Int,
    body: "uint w = a & 31u;\n\
           uint o = b & 31u;\n\
           if (w == 0u) return 0;\n\
           if (w + o < 32u) return (c << (32u - w - o)) >> (32u - w);\n\
           return c >> o;",
    needs: &[],
};

/// `bfi width, offset, src, base`: `src`'s low bits inserted into `base`.
pub static BFI: Scalar = Scalar {
    name: "dx_bfi",
    params: &[Ty::Uint, Ty::Uint, Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "uint w = a & 31u;\n\
           uint o = b & 31u;\n\
           uint m = (w == 0u) ? 0u : ((0xffffffffu >> (32u - w)) << o);\n\
           return ((c << o) & m) | (d & ~m);",
    needs: &[],
};

/// `udiv` quotient: division by zero gives 0xFFFFFFFF.
pub static UDIV: Scalar = Scalar {
    name: "dx_udiv",
    params: &[Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "return b == 0u ? 0xffffffffu : a / b;",
    needs: &[],
};

/// `udiv` remainder: division by zero gives 0xFFFFFFFF as well.
pub static UREM: Scalar = Scalar {
    name: "dx_urem",
    params: &[Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "return b == 0u ? 0xffffffffu : a % b;",
    needs: &[],
};

/// High 32 bits of the 64-bit unsigned product (no `umulExtended`).
pub static UMUL_HI: Scalar = Scalar {
    name: "dx_umul_hi",
    params: &[Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "uint al = a & 0xffffu;\n\
           uint ah = a >> 16u;\n\
           uint bl = b & 0xffffu;\n\
           uint bh = b >> 16u;\n\
           uint ll = al * bl;\n\
           uint lh = al * bh;\n\
           uint hl = ah * bl;\n\
           uint mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);\n\
           return ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);",
    needs: &[],
};

/// High 32 bits of the 64-bit signed product (no `imulExtended`).
pub static IMUL_HI: Scalar = Scalar {
    name: "dx_imul_hi",
    params: &[Ty::Int, Ty::Int],
    ret: Ty::Int,
    body: "uint hi = dx_umul_hi(uint(a), uint(b));\n\
           if (a < 0) hi -= uint(b);\n\
           if (b < 0) hi -= uint(a);\n\
           return int(hi);",
    needs: &[&UMUL_HI],
};

/// `uaddc` carry out.
pub static UADD_CARRY: Scalar = Scalar {
    name: "dx_uadd_carry",
    params: &[Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "return (a + b) < a ? 1u : 0u;",
    needs: &[],
};

/// `usubb` borrow out.
pub static USUB_BORROW: Scalar = Scalar {
    name: "dx_usub_borrow",
    params: &[Ty::Uint, Ty::Uint],
    ret: Ty::Uint,
    body: "return a < b ? 1u : 0u;",
    needs: &[],
};

/// `deriv_rtx_fine`: ES 3.00 has one `dFdx`, whose precision the
/// implementation picks (no `dFdxFine`).
pub static DFDX_FINE: Scalar = Scalar {
    name: "dx_dFdxFine",
    params: &[Ty::Float],
    ret: Ty::Float,
    body: "return dFdx(a);",
    needs: &[],
};

/// `deriv_rty_fine`, as `deriv_rtx_fine`.
pub static DFDY_FINE: Scalar = Scalar {
    name: "dx_dFdyFine",
    params: &[Ty::Float],
    ret: Ty::Float,
    body: "return dFdy(a);",
    needs: &[],
};

const PARAMS: [&str; 4] = ["a", "b", "c", "d"];

/// `text` as the lines `text.lines()` gives, each ended by `\n`: what
/// writing its lines one at a time gives. Texts built per
/// shader are normalised here, once, so the join can copy every whole
/// text as it is rather than search each for `\r` on every translation.
fn without_cr(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for l in text.lines() {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// A whole-text helper's text: most are constants, written as they are;
/// built ones are shared (`texture::emulate` keeps the ones it builds), so
/// neither is copied before the join.
enum Text {
    Static(&'static str),
    Shared(Rc<str>),
}

/// The vector widths a scalar helper is called at, bit `n` for width `n`:
/// every helper request inserts two, which a `BTreeSet` allocated for.
#[derive(Debug, Clone, Copy)]
struct Widths(u16);

impl Widths {
    /// Widths are 1 to 4 (registers are vec4s); a larger one would be an
    /// emitter bug, kept apart at the top bit rather than lost.
    fn insert(&mut self, n: usize) {
        self.0 |= 1 << n.min(15);
    }

    /// The widths in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + use<> {
        let bits = self.0;
        (0..16).filter(move |n| bits & (1 << n) != 0)
    }
}

/// The helpers a translation uses.
#[derive(Default)]
pub struct Helpers {
    /// Scalar helpers by name, with the vector widths called.
    scalar: BTreeMap<&'static str, (&'static Scalar, Widths)>,
    /// Whole helper texts (texture emulation), by key, in request order.
    /// Constant keys are borrowed, so requesting a constant helper
    /// allocates nothing.
    custom: Vec<(Cow<'static, str>, Text)>,
}

impl Helpers {
    /// Requests `h` for `width` components; returns its name.
    pub fn use_scalar(&mut self, h: &'static Scalar, width: usize) -> &'static str {
        for dep in h.needs {
            self.use_scalar(dep, 1);
        }
        let entry = self.scalar.entry(h.name).or_insert((h, Widths(0)));
        entry.1.insert(1);
        entry.1.insert(width.max(1));
        h.name
    }

    /// Requests a helper given as whole text, written once under `key`.
    pub fn use_custom(&mut self, key: &str, text: impl FnOnce() -> String) {
        if !self.has_custom(key) {
            let text = without_cr(text());
            self.custom
                .push((Cow::Owned(key.to_string()), Text::Shared(Rc::from(text))));
        }
    }

    /// [`Helpers::use_custom`] of a constant text: neither key nor text
    /// is copied.
    pub fn use_custom_static(&mut self, key: &'static str, text: &'static str) {
        // A string literal holds a carriage return only if one is written
        // as `\r` (a CRLF line break in the source reads as `\n`).
        debug_assert!(!text.contains('\r'), "helper {key} holds \\r");
        if !self.has_custom(key) {
            self.custom.push((Cow::Borrowed(key), Text::Static(text)));
        }
    }

    /// [`Helpers::use_custom`] of a text already built: shared, not copied.
    pub fn use_custom_shared(&mut self, key: &str, text: &Rc<str>) {
        // Shared texts are built once from literals and generated names.
        debug_assert!(!text.contains('\r'), "helper {key} holds \\r");
        if !self.has_custom(key) {
            self.custom
                .push((Cow::Owned(key.to_string()), Text::Shared(Rc::clone(text))));
        }
    }

    /// Whether a whole-text helper was requested under `key`.
    pub fn has_custom(&self, key: &str) -> bool {
        self.custom.iter().any(|(k, _)| k == key)
    }

    pub fn is_empty(&self) -> bool {
        self.scalar.is_empty() && self.custom.is_empty()
    }

    /// The helper definitions, one untagged line each: scalar helpers in
    /// dependency order, their vector overloads, then the whole-text
    /// helpers, each followed by an empty line. The whole texts are handed
    /// to the join as they are (shared, not copied here).
    pub fn render(&self, parts: &mut Vec<Part>) {
        if !self.scalar.is_empty() {
            let mut out = Section::new();
            out.reserve(768 * self.scalar.len(), 16 * self.scalar.len());
            let mut done = BTreeSet::new();
            for (h, widths) in self.scalar.values() {
                self.render_scalar(h, widths, &mut done, &mut out);
            }
            parts.push(out.into());
        }
        // No whole text holds `\r` (see the `use_custom*` functions), so
        // each joins as the block of its `lines()` would, uncopied.
        for (_, text) in &self.custom {
            parts.push(match text {
                Text::Static(t) => Part::Static(t),
                Text::Shared(t) => Part::Text(Rc::clone(t)),
            });
            parts.push(Part::Blank);
        }
    }

    fn render_scalar(
        &self,
        h: &'static Scalar,
        widths: &Widths,
        done: &mut BTreeSet<&'static str>,
        out: &mut Section,
    ) {
        if !done.insert(h.name) {
            return;
        }
        for dep in h.needs {
            if let Some((d, w)) = self.scalar.get(dep.name) {
                self.render_scalar(d, w, done, out);
            }
        }
        // Lines are pushed piece by piece into the section: a helper's
        // signature and overloads are a few names each, which per-piece
        // Strings and `format!` would allocate and format for nothing.
        let params = |out: &mut String, n: usize| {
            for (i, (t, p)) in h.params.iter().zip(PARAMS).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(t.vec(n));
                out.push(' ');
                out.push_str(p);
            }
        };
        out.open(None);
        let b = out.buf();
        b.push_str(h.ret.scalar());
        b.push(' ');
        b.push_str(h.name);
        b.push('(');
        params(b, 1);
        b.push_str(") {\n");
        for l in h.body.lines() {
            out.line_cat(None, &["    ", l.trim_end()]);
        }
        out.line(None, "}");
        for n in widths.iter().filter(|&n| n > 1) {
            out.open(None);
            let b = out.buf();
            let ret = h.ret.vec(n);
            b.push_str(ret);
            b.push(' ');
            b.push_str(h.name);
            b.push('(');
            params(b, n);
            b.push_str(") { return ");
            b.push_str(ret);
            b.push('(');
            for c in 0..n {
                if c > 0 {
                    b.push_str(", ");
                }
                let comp = super::types::COMPONENTS[c];
                b.push_str(h.name);
                b.push('(');
                for (i, p) in PARAMS[..h.params.len()].iter().enumerate() {
                    if i > 0 {
                        b.push_str(", ");
                    }
                    b.push_str(p);
                    b.push('.');
                    b.push(comp);
                }
                b.push(')');
            }
            b.push_str("); }\n");
        }
        out.line(None, "");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A built text holding `\r` joins as its `lines()` written one at a
    /// time would: the same text and the same number of lines.
    #[test]
    fn built_text_without_cr_joins_as_its_lines() {
        for text in ["", "a", "\r", "a\r\nb", "a\r\nb\r\n", "x\ry\n", "f() {\n}"] {
            let mut block = Section::new();
            for l in text.lines() {
                block.line(None, l);
            }
            let (want, _) = super::super::writer::join(vec![block], 0);
            let shared: Rc<str> = Rc::from(without_cr(text.to_string()));
            let (got, _) = super::super::writer::join(vec![Part::Text(shared)], 0);
            assert_eq!(got, want, "{text:?}");
        }
    }
}
