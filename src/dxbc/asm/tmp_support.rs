//! Stand-ins until the header parser and chunk writers land.
use super::error::AsmResult;
use super::signatures::Reflection;
use crate::dxbc::ir::ShaderKind;
use crate::dxbc::rdef::Rdef;
use crate::dxbc::signature::Signature;
use crate::dxbc::stat::{ShaderFeatures, Stat};

pub fn parse_header(_lines: &[(usize, &str)], _p: (ShaderKind, u8, u8)) -> AsmResult<Reflection> {
    Ok(Reflection::default())
}
pub fn write_rdef(_r: &Rdef) -> Vec<u8> {
    Vec::new()
}
pub fn write_signature(s: &Signature) -> Vec<u8> {
    let mut head = Vec::new();
    head.extend((s.elements.len() as u32).to_le_bytes());
    head.extend(8u32.to_le_bytes());
    let mut names = Vec::new();
    let names_at = 8 + 24 * s.elements.len();
    for e in &s.elements {
        let at = (names_at + names.len()) as u32;
        names.extend(e.semantic_name.as_bytes());
        names.push(0);
        for w in [
            at,
            e.semantic_index,
            e.system_value,
            e.component_type,
            e.register,
        ] {
            head.extend(w.to_le_bytes());
        }
        head.extend([e.mask, e.rw_mask, 0, 0]);
    }
    while names.len() % 4 != 0 {
        names.push(0);
    }
    head.extend(names);
    head
}
pub fn write_stat(s: &Stat) -> Vec<u8> {
    s.words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
pub fn write_features(f: &ShaderFeatures) -> Vec<u8> {
    f.flags.to_le_bytes().to_vec()
}
