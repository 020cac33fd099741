//! Input, output and patch-constant signatures: which semantic lives in
//! which register and components. Three element layouts exist:
//! ISGN/OSGN/PCSG (24 bytes), OSG5 (28, with a leading GS stream index) and
//! ISG1/OSG1/PSG1 (32, stream first and minimum precision last).

use super::error::{DxbcError, Result};
use super::reader::Reader;

use super::enums::{ComponentType, SystemValue};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureKind {
    Input,
    Output,
    PatchConstant,
}

/// How many render targets a pixel shader can write (D3D11's
/// `D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT`): `SV_Target0` to `SV_Target7`.
pub const RENDER_TARGETS: u32 = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureElement {
    pub semantic_name: String,
    pub semantic_index: u32,
    /// D3D_NAME as stored: 0 none, 1 position, ... 64 target, 65 depth, ...
    /// Other layers read [`SignatureElement::system_value`].
    pub(in crate::dxbc) system_value: u32,
    /// D3D_REGISTER_COMPONENT_TYPE as stored: 0 unknown, 1 uint, 2 sint, 3
    /// float. Other layers read [`SignatureElement::component_type`].
    pub(in crate::dxbc) component_type: u32,
    /// Register number; `u32::MAX` for outputs without one (oDepth, oMask).
    pub register: u32,
    /// Components the element occupies (bit 0 = x).
    pub mask: u8,
    /// For inputs, the components the shader always reads; for outputs, the
    /// components it never writes (fxc's "Used" column is the complement).
    pub rw_mask: u8,
    /// GS output stream; 0 for layouts without one.
    pub stream: u32,
    /// D3D_MIN_PRECISION; 0 for layouts without one.
    pub min_precision: u32,
}

impl SignatureElement {
    /// The system value the element is stored with.
    pub fn system_value(&self) -> SystemValue {
        SystemValue::from_code(self.system_value)
    }

    /// The component type.
    pub fn component_type(&self) -> ComponentType {
        ComponentType::from_code(self.component_type)
    }

    /// Whether the element is a system value: marked as one, or named
    /// `SV_…` (pixel-shader outputs are stored with 0). The name is
    /// untrusted bytes from the file, so the prefix is compared as bytes.
    pub fn is_system_value(&self) -> bool {
        self.system_value != 0
            || self
                .semantic_name
                .as_bytes()
                .get(..3)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"SV_"))
    }

    /// The components fxc lists as used: the read mask for inputs, and the
    /// occupied components that are not "never written" for outputs.
    pub fn used_mask(&self, is_output: bool) -> u8 {
        if is_output {
            self.mask & !self.rw_mask & 0xf
        } else {
            self.rw_mask & 0xf
        }
    }
}

impl SignatureElement {
    /// The system value fxc shows. Pixel shader outputs are stored with 0
    /// (the runtime infers them), yet fxc lists SV_Target and friends by
    /// their system value, so for those it is recovered from the name.
    pub fn effective_system_value(&self, pixel_shader_output: bool) -> SystemValue {
        if self.system_value != 0 || !pixel_shader_output {
            return self.system_value();
        }
        match self.semantic_name.to_ascii_uppercase().as_str() {
            "SV_TARGET" => SystemValue::Target,
            "SV_DEPTH" => SystemValue::Depth,
            "SV_COVERAGE" => SystemValue::Coverage,
            "SV_DEPTHGREATEREQUAL" => SystemValue::DepthGreaterEqual,
            "SV_DEPTHLESSEQUAL" => SystemValue::DepthLessEqual,
            "SV_STENCILREF" => SystemValue::StencilRef,
            _ => SystemValue::Undefined,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub fourcc: [u8; 4],
    pub kind: SignatureKind,
    pub elements: Vec<SignatureElement>,
}

/// Element size and kind for a signature FourCC, or None if it is not one.
pub fn signature_layout(fourcc: &[u8; 4]) -> Option<(usize, SignatureKind)> {
    Some(match fourcc {
        b"ISGN" => (24, SignatureKind::Input),
        b"OSGN" => (24, SignatureKind::Output),
        b"PCSG" => (24, SignatureKind::PatchConstant),
        b"OSG5" => (28, SignatureKind::Output),
        b"ISG1" => (32, SignatureKind::Input),
        b"OSG1" => (32, SignatureKind::Output),
        b"PSG1" => (32, SignatureKind::PatchConstant),
        _ => return None,
    })
}

pub fn is_signature(fourcc: &[u8; 4]) -> bool {
    signature_layout(fourcc).is_some()
}

impl Signature {
    /// Parses a signature chunk's data. `base_offset` is the absolute offset
    /// of `data` in the container, used in errors.
    pub fn parse(fourcc: &[u8; 4], data: &[u8], base_offset: usize) -> Result<Signature> {
        let (stride, kind) = signature_layout(fourcc).ok_or_else(|| {
            DxbcError::malformed(
                base_offset,
                format!(
                    "chunk {} is not a signature",
                    super::container::fourcc_name(fourcc)
                ),
            )
        })?;
        let mut r = Reader::new(data, base_offset);
        let count = r.u32("signature header")? as usize;
        let table_at = r.offset();
        let table = r.u32("signature header")? as usize;
        let mut t = Reader::new(data, base_offset);
        t.seek(table, "signature element table").map_err(|_| {
            DxbcError::malformed(
                table_at,
                format!(
                    "signature element table offset {table} lies outside the {}-byte chunk",
                    data.len()
                ),
            )
        })?;
        t.need_items(count, stride, "signature elements")?;
        let has_stream = stride >= 28;
        // Elements may all point at one long name; cap what is copied so a
        // small chunk cannot expand into gigabytes of strings.
        let mut copy_left = data.len().saturating_mul(16).saturating_add(1 << 20);
        let mut elements = Vec::with_capacity(count);
        for _ in 0..count {
            let stream = if has_stream {
                t.u32("signature element")?
            } else {
                0
            };
            let name_at = t.offset();
            let name_offset = t.u32("signature element")? as usize;
            let semantic_index = t.u32("signature element")?;
            let system_value = t.u32("signature element")?;
            let component_type = t.u32("signature element")?;
            let register = t.u32("signature element")?;
            let mask = t.u8("signature element")?;
            let rw_mask = t.u8("signature element")?;
            t.u16("signature element")?;
            let min_precision = if stride >= 32 {
                t.u32("signature element")?
            } else {
                0
            };
            let semantic_name = t
                .cstr_at(name_offset, "semantic name")
                .map_err(|e| match e {
                    DxbcError::Malformed { msg, .. } => DxbcError::Malformed {
                        offset: name_at,
                        msg,
                    },
                    other => other,
                })?;
            copy_left = copy_left
                .checked_sub(semantic_name.len() + 1)
                .ok_or_else(|| {
                    DxbcError::malformed(name_at, "signature names expand past the copy limit")
                })?;
            elements.push(SignatureElement {
                semantic_name,
                semantic_index,
                system_value,
                component_type,
                register,
                mask,
                rw_mask,
                stream,
                min_precision,
            });
        }
        Ok(Signature {
            fourcc: *fourcc,
            kind,
            elements,
        })
    }
}

/// fxc's short system-value name for a D3D_NAME, as in the listing's
/// SysValue column.
pub fn system_value_name(sv: u32) -> String {
    SystemValue::from_code(sv).short_name()
}

/// Component letters in their fixed columns, e.g. 0b0101 -> "x z ".
pub fn mask_columns(mask: u8) -> String {
    "xyzw"
        .chars()
        .enumerate()
        .map(|(i, c)| if mask & (1 << i) != 0 { c } else { ' ' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_system_value_name_is_recognised_from_bytes_whatever_they_are() {
        let el = |name: &str, sv: u32| SignatureElement {
            semantic_name: name.into(),
            semantic_index: 0,
            system_value: sv,
            component_type: 3,
            register: 0,
            mask: 0xf,
            rw_mask: 0xf,
            stream: 0,
            min_precision: 0,
        };
        assert!(el("sv_Target", 0).is_system_value());
        assert!(el("TEXCOORD", 1).is_system_value());
        assert!(!el("TEXCOORD", 0).is_system_value());
        assert!(!el("SV", 0).is_system_value());
        // A multi-byte character across the third byte: no slicing panic.
        assert!(!el("R\u{e9}\u{e9}", 0).is_system_value());
        assert!(!el("\u{2026}X", 0).is_system_value());
    }

    /// name, index, system value, component type, register, mask, rw mask,
    /// stream, min precision.
    type Spec<'a> = (&'a str, u32, u32, u32, u32, u8, u8, u32, u32);

    /// Builds a signature chunk: header, elements, then the names.
    fn build(stride: usize, elems: &[Spec]) -> Vec<u8> {
        let mut table = Vec::new();
        let mut names = Vec::new();
        let names_at = 8 + stride * elems.len();
        for &(name, index, sv, ty, reg, mask, rw, stream, minp) in elems {
            let name_off = (names_at + names.len()) as u32;
            names.extend_from_slice(name.as_bytes());
            names.push(0);
            if stride >= 28 {
                table.extend_from_slice(&stream.to_le_bytes());
            }
            for v in [name_off, index, sv, ty, reg] {
                table.extend_from_slice(&v.to_le_bytes());
            }
            table.extend_from_slice(&[mask, rw, 0, 0]);
            if stride >= 32 {
                table.extend_from_slice(&minp.to_le_bytes());
            }
        }
        let mut out = Vec::new();
        out.extend_from_slice(&(elems.len() as u32).to_le_bytes());
        out.extend_from_slice(&8u32.to_le_bytes());
        out.extend_from_slice(&table);
        out.extend_from_slice(&names);
        out
    }

    #[test]
    fn parses_each_layout() {
        let e = [
            ("SV_Position", 0, 1, 3, 0, 0xf, 0xf, 1, 0),
            ("TEXCOORD", 3, 0, 3, 1, 0x3, 0x1, 1, 1),
        ];
        for (fourcc, stride) in [(b"ISGN", 24), (b"OSG5", 28), (b"ISG1", 32)] {
            let data = build(stride, &e);
            let s = Signature::parse(fourcc, &data, 100).unwrap();
            assert_eq!(s.elements.len(), 2);
            let t = &s.elements[1];
            assert_eq!(t.semantic_name, "TEXCOORD");
            assert_eq!(
                (t.semantic_index, t.register, t.mask, t.rw_mask),
                (3, 1, 3, 1)
            );
            assert_eq!(t.stream, if stride >= 28 { 1 } else { 0 });
            assert_eq!(t.min_precision, if stride >= 32 { 1 } else { 0 });
        }
        assert_eq!(
            Signature::parse(b"PCSG", &build(24, &e), 0).unwrap().kind,
            SignatureKind::PatchConstant
        );
        assert_eq!(
            Signature::parse(b"OSGN", &build(24, &e), 0).unwrap().kind,
            SignatureKind::Output
        );
    }

    #[test]
    fn used_mask_depends_on_direction() {
        let el = SignatureElement {
            semantic_name: String::new(),
            semantic_index: 0,
            system_value: 0,
            component_type: 3,
            register: 0,
            mask: 0b0111,
            rw_mask: 0b0100,
            stream: 0,
            min_precision: 0,
        };
        assert_eq!(el.used_mask(false), 0b0100);
        assert_eq!(el.used_mask(true), 0b0011);
        assert_eq!(mask_columns(0b0101), "x z ");
        assert_eq!(system_value_name(64), "TARGET");
        let target = SignatureElement {
            semantic_name: "SV_Target".into(),
            system_value: 0,
            ..el.clone()
        };
        assert_eq!(target.effective_system_value(true), SystemValue::Target);
        assert_eq!(target.effective_system_value(false), SystemValue::Undefined);
        assert_eq!(system_value_name(1000), "SV1000");
    }

    #[test]
    fn errors_carry_absolute_offsets() {
        let data = build(24, &[("A", 0, 0, 3, 0, 1, 1, 0, 0)]);
        // Huge count: rejected before allocating, at the table's offset.
        let mut d = data.clone();
        d[..4].copy_from_slice(&0x4000_0000u32.to_le_bytes());
        let e = Signature::parse(b"ISGN", &d, 1000).unwrap_err();
        assert!(
            matches!(e, DxbcError::Truncated { offset: 1008, .. }),
            "{e:?}"
        );
        // Name offset outside the chunk: reported at the name field.
        let mut d = data.clone();
        d[8..12].copy_from_slice(&9999u32.to_le_bytes());
        let e = Signature::parse(b"ISGN", &d, 1000).unwrap_err();
        assert_eq!(e.offset(), 1008);
        // Table offset outside the chunk.
        let mut d = data.clone();
        d[4..8].copy_from_slice(&9999u32.to_le_bytes());
        assert_eq!(
            Signature::parse(b"ISGN", &d, 1000).unwrap_err().offset(),
            1004
        );
        assert!(Signature::parse(b"RDEF", &data, 0).is_err());
        // Many elements sharing one long name stop at the copy limit.
        let n = 8192usize;
        let mut d = Vec::new();
        d.extend_from_slice(&(n as u32).to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        let name = (8 + n * 24) as u32;
        for _ in 0..n {
            for v in [name, 0, 0, 3, 0, 0x0f0f] {
                d.extend_from_slice(&v.to_le_bytes());
            }
        }
        d.extend(std::iter::repeat_n(b'N', 32768));
        d.push(0);
        let e = Signature::parse(b"ISGN", &d, 0).unwrap_err();
        assert!(e.to_string().contains("copy limit"), "{e}");
        for len in 0..data.len() {
            let _ = Signature::parse(b"ISGN", &data[..len], 0);
        }
    }
}
