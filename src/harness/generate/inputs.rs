//! The `[quad]`: a value per input register of the first stage, chosen by
//! semantic (docs/cases.md, "Generated cases"), and the comments naming
//! the render targets. A vertex shader alone gets a pass-through pixel
//! shader here.

use std::fmt::Write as _;

use super::Refusal;
use super::rng::{Rng, mix};
use super::text::{float, shown};
use crate::dxbc::Shader;
use crate::dxbc::enums::{ComponentType, SystemValue};
use crate::dxbc::ir::ProgramType;
use crate::dxbc::signature::{SignatureElement, SignatureKind};

/// The corners in the case's order: top-left, top-right, bottom-left,
/// bottom-right, as (column, row) of the quad.
const CORNERS: [(f32, f32); 4] = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)];

/// One lane's value at a corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lane {
    Float(f32),
    Uint(u32),
    Sint(i32),
}

impl Lane {
    fn text(self) -> String {
        match self {
            Lane::Float(v) => float(v),
            Lane::Uint(v) => format!("{v}u"),
            Lane::Sint(v) => format!("{v}i"),
        }
    }
}

/// What feeds a component: the rasterizer (the case gives nothing) or a
/// value per corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Source {
    Rasterizer,
    Corners([Lane; 4]),
}

/// The semantic name without case, for matching (`TexCoord` is
/// `TEXCOORD`).
fn upper(name: &str) -> String {
    name.to_ascii_uppercase()
}

fn unit(v: [f32; 3]) -> [f32; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / n)
}

/// A stable hash of a name, so an unknown semantic gets the same values
/// whatever else the shader declares.
fn name_hash(name: &str, index: u32) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    mix(h ^ u64::from(index))
}

/// The value of component `k` (0 = the element's first) of an input with
/// this semantic, system value and type, at each corner. `stage` is the
/// stage reading it. Public to the module's tests: these are the rules
/// docs/cases.md lists.
pub fn component(
    stage: ProgramType,
    semantic: &str,
    index: u32,
    sv: SystemValue,
    ty: ComponentType,
    k: usize,
    seed: u64,
) -> Source {
    let name = upper(semantic);
    let per_corner = |f: &dyn Fn(usize, f32, f32) -> Lane| -> Source {
        Source::Corners(std::array::from_fn(|c| {
            let (cx, cy) = CORNERS[c];
            f(c, cx, cy)
        }))
    };
    match (stage, sv) {
        // The rasterizer's values (docs/cases.md: SV_Position is the pixel
        // centre, the rest come from the draw).
        (
            ProgramType::Pixel,
            SystemValue::Position
            | SystemValue::IsFrontFace
            | SystemValue::SampleIndex
            | SystemValue::Coverage
            | SystemValue::InnerCoverage
            | SystemValue::PrimitiveId
            | SystemValue::RenderTargetArrayIndex
            | SystemValue::ViewportArrayIndex,
        ) => return Source::Rasterizer,
        // One quad, one instance: the corner is the vertex.
        (_, SystemValue::VertexId) => return per_corner(&|c, _, _| Lane::Uint(c as u32)),
        (_, SystemValue::InstanceId | SystemValue::PrimitiveId) => {
            return per_corner(&|_, _, _| Lane::Uint(0));
        }
        // Inside every clip plane.
        (_, SystemValue::ClipDistance | SystemValue::CullDistance) => {
            return per_corner(&|_, _, _| Lane::Float(1.0));
        }
        _ => {}
    }
    let mut rng = Rng::for_part(seed, &name, u64::from(index) * 4 + k as u64);
    if ty.is_integer() && name.starts_with("POSITION") {
        // An integer position: the quad's corners, -1 and 1.
        let sint = ty == ComponentType::Sint32;
        return per_corner(&|_, cx, cy| {
            let v = match k {
                0 => 2 * cx as i32 - 1,
                1 => 1 - 2 * cy as i32,
                2 => 0,
                _ => 1,
            };
            if sint {
                Lane::Sint(v)
            } else {
                Lane::Uint(v.max(0) as u32)
            }
        });
    }
    if ty.is_integer() {
        // Small and non-zero: indices into short arrays, counts, flags.
        let base = if name.starts_with("BLENDINDICES") {
            k as u32 + 1
        } else {
            1 + (name_hash(&name, index) >> (8 * k)) as u32 % 4
        };
        return per_corner(&|_, _, _| {
            if ty == ComponentType::Sint32 {
                Lane::Sint(base as i32)
            } else {
                Lane::Uint(base)
            }
        });
    }
    let f = |v: f32| Lane::Float(v);
    if name.starts_with("TEXCOORD") || name == "UV" {
        // Texture coordinates across the quad, a little past [0, 1] on
        // each side so addressing modes show; each set shifted a little.
        let shift = (index % 4) as f32 * 0.03125;
        return match k {
            0 => per_corner(&|_, cx, _| f(-0.125 + 1.25 * cx + shift)),
            1 => per_corner(&|_, _, cy| f(-0.125 + 1.25 * cy + shift)),
            // Often a third coordinate (a layer, a depth) or a second set.
            2 => per_corner(&|c, _, _| f([0.25, 0.5, 0.625, 0.875][c])),
            // A projective divisor where one is used: near 1.
            _ => per_corner(&|c, _, _| f([1.0, 0.875, 1.125, 1.0][c])),
        };
    }
    if name.starts_with("NORMAL") {
        // Unit normals tilted towards each corner, so the interpolated one
        // varies but never vanishes.
        return per_corner(&|_, cx, cy| {
            let n = unit([0.25 * (2.0 * cx - 1.0), 0.25 * (1.0 - 2.0 * cy), 1.0]);
            f(n.get(k).copied().unwrap_or(0.0))
        });
    }
    if name.starts_with("TANGENT") {
        // Along +x, tilted a little; w is the binormal's sign (±1, by the
        // seed).
        let sign = if seed & 1 == 0 { 1.0 } else { -1.0 };
        return per_corner(&|_, cx, cy| {
            let t = unit([1.0, 0.125 * (2.0 * cy - 1.0), 0.125 * (2.0 * cx - 1.0)]);
            f(t.get(k).copied().unwrap_or(sign))
        });
    }
    if name.starts_with("BINORMAL") || name.starts_with("BITANGENT") {
        return per_corner(&|_, cx, cy| {
            let b = unit([0.125 * (2.0 * cy - 1.0), 1.0, 0.125 * (1.0 - 2.0 * cx)]);
            f(b.get(k).copied().unwrap_or(0.0))
        });
    }
    if name.starts_with("COLOR") || name.starts_with("COLOUR") {
        // A colour per corner in [0.125, 0.875]; alpha in [0.5, 1].
        let values: [f32; 4] = std::array::from_fn(|_| {
            if k == 3 {
                rng.sixteenths(0.5, 1.0)
            } else {
                rng.sixteenths(0.125, 0.875)
            }
        });
        return per_corner(&|c, _, _| f(values[c]));
    }
    if name.starts_with("POSITION") || name == "SV_POSITION" {
        // A position on the visible quad: inside clip space at w = 1.
        return match k {
            0 => per_corner(&|_, cx, _| f(-0.875 + 1.75 * cx)),
            1 => per_corner(&|_, _, cy| f(0.875 - 1.75 * cy)),
            2 => per_corner(&|_, _, _| f(0.5)),
            _ => per_corner(&|_, _, _| f(1.0)),
        };
    }
    if name.starts_with("BLENDWEIGHT") {
        // Non-negative weights that sum to 1.
        return per_corner(&|_, _, _| f([0.5, 0.25, 0.125, 0.125][k.min(3)]));
    }
    if name.starts_with("BLENDINDICES") {
        return per_corner(&|_, _, _| f(k as f32 + 1.0));
    }
    // Anything else: positive and moderate, so a division or a logarithm
    // of it is finite, varying across the quad; `w` near 1 in case it is
    // a divisor.
    if k == 3 {
        return per_corner(&|_, _, _| f(1.0));
    }
    let values: [f32; 4] = std::array::from_fn(|_| rng.sixteenths(0.25, 1.25));
    per_corner(&|c, _, _| f(values[c]))
}

/// The input registers of `shader` and, per component, the element that
/// covers it: (register, [(element, component within it)]).
struct Register<'a> {
    register: u32,
    mask: u8,
    system_value: SystemValue,
    component_type: ComponentType,
    elements: [Option<(&'a SignatureElement, usize)>; 4],
}

fn registers(shader: &Shader) -> Vec<Register<'_>> {
    let sig = shader.elements(SignatureKind::Input).unwrap_or(&[]);
    let layout = shader.input_layout();
    let mut out = Vec::new();
    for r in &layout.registers {
        let mut elements = [None; 4];
        for e in sig.iter().filter(|e| e.register == r.register) {
            let mut k = 0;
            for (c, slot) in elements.iter_mut().enumerate() {
                if e.mask & (1 << c) != 0 {
                    *slot = Some((e, k));
                    k += 1;
                }
            }
        }
        out.push(Register {
            register: r.register,
            mask: r.mask | r.signature_mask,
            system_value: r.system_value,
            component_type: r.component_type,
            elements,
        });
    }
    out.sort_by_key(|r| r.register);
    out
}

/// The `[quad]` section for the first stage's inputs, each register's
/// semantics in a comment above the corners.
pub fn quad(shader: &Shader, seed: u64) -> String {
    let stage = shader.program.kind;
    let mut comments = String::new();
    let mut columns: Vec<(u32, [[Lane; 4]; 4])> = Vec::new();
    for r in registers(shader) {
        let mut lanes = [[Lane::Float(0.0); 4]; 4];
        let mut any = false;
        let mut parts: Vec<(String, String)> = Vec::new();
        for (c, el) in r.elements.iter().enumerate() {
            if r.mask & (1 << c) == 0 && el.is_none() {
                continue;
            }
            let (name, index, sv, ty, k) = match el {
                Some((e, k)) => {
                    // The element's own: a register may pack a plain
                    // attribute beside a system value (`VTXID` in .x,
                    // `SV_PrimitiveID` in .y).
                    let sv = e.system_value();
                    let ty = match e.component_type() {
                        ComponentType::Unknown => r.component_type,
                        t => t,
                    };
                    (e.semantic_name.as_str(), e.semantic_index, sv, ty, *k)
                }
                None => ("", 0, r.system_value, r.component_type, c),
            };
            let source = component(stage, name, index, sv, ty, k, seed);
            if let Source::Corners(v) = source {
                any = true;
                for corner in 0..4 {
                    lanes[corner][c] = v[corner];
                }
            }
            let label = if name.is_empty() {
                "(no signature)".to_string()
            } else {
                format!(
                    "{}{}{}",
                    shown(name),
                    index,
                    if source == Source::Rasterizer {
                        " (the rasterizer's)"
                    } else {
                        ""
                    }
                )
            };
            let comp = "xyzw".as_bytes()[c] as char;
            // Components of one element are listed together: `xy: TEXCOORD0`.
            match parts.last_mut() {
                Some((mask, l)) if *l == label => mask.push(comp),
                _ => parts.push((comp.to_string(), label)),
            }
        }
        let parts: Vec<String> = parts.iter().map(|(m, l)| format!("{m}: {l}")).collect();
        let _ = writeln!(comments, "# v{}  {}", r.register, parts.join(", "));
        if any {
            columns.push((r.register, lanes));
        }
    }
    let mut out = String::from("[quad]\n");
    out.push_str(
        "# Corners: top-left, top-right, bottom-left, bottom-right (clip space, w = 1).\n",
    );
    let what = if stage == ProgramType::Vertex {
        "vertex shader"
    } else {
        "pixel shader"
    };
    let _ = writeln!(out, "# The {what}'s inputs:");
    out.push_str(&comments);
    for (corner, (cx, cy)) in CORNERS.iter().enumerate() {
        let _ = write!(
            out,
            "vertex {} {} 0.5 1.0",
            float(2.0 * cx - 1.0),
            float(1.0 - 2.0 * cy)
        );
        for (reg, lanes) in &columns {
            let v = lanes[corner];
            let _ = write!(
                out,
                "  v{reg} {} {} {} {}",
                v[0].text(),
                v[1].text(),
                v[2].text(),
                v[3].text()
            );
        }
        out.push('\n');
    }
    out
}

/// Comments naming each render target the pixel shader writes, and the
/// format the case gives it (the default: 32-bit channels of the output's
/// type, so nothing is lost in the comparison).
pub fn target_comments(pixel: &Shader) -> String {
    let mut out = String::new();
    for e in pixel.elements(SignatureKind::Output).unwrap_or(&[]) {
        let ty = match e.component_type() {
            ComponentType::Uint32 => "uint",
            ComponentType::Sint32 => "int",
            _ => "float",
        };
        let _ = writeln!(
            out,
            "# o{}: {}{} ({ty}{}; stored as 32-bit {ty} channels)",
            if e.register == u32::MAX {
                "-".to_string()
            } else {
                e.register.to_string()
            },
            shown(&e.semantic_name),
            e.semantic_index,
            e.mask.count_ones()
        );
    }
    out
}

/// Whether an untrusted semantic name can be written in a `.semantic`
/// directive as it is (an HLSL identifier).
fn plain_identifier(name: &str) -> bool {
    let mut b = name.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// A `[pixel shader]` that shows a lone vertex shader's outputs: each
/// output element but the system values goes to a render target of its
/// type, up to eight (D3D11's target count), matched by semantic as the
/// draw links the stages, integers interpolated `constant` as D3D
/// requires. Elements whose name is no identifier are left out (named in
/// a comment).
pub fn pass_through(vs: &Shader) -> Result<String, Refusal> {
    let outputs = vs.elements(SignatureKind::Output).unwrap_or(&[]);
    let mut shown_els: Vec<&SignatureElement> = Vec::new();
    let mut notes = String::new();
    for e in outputs {
        if e.is_system_value() || e.register == u32::MAX {
            continue;
        }
        if !plain_identifier(&e.semantic_name) {
            let _ = writeln!(
                notes,
                "# left out: the output `{}` (its name is no identifier)",
                shown(&e.semantic_name)
            );
            continue;
        }
        if shown_els.len() == 8 {
            let _ = writeln!(
                notes,
                "# left out: {}{} (eight targets at most)",
                shown(&e.semantic_name),
                e.semantic_index
            );
            continue;
        }
        shown_els.push(e);
    }
    if shown_els.is_empty() {
        let position = outputs.iter().any(|e| {
            e.system_value() == SystemValue::Position
                || e.semantic_name.eq_ignore_ascii_case("SV_Position")
        });
        if !position {
            return Err(Refusal::new(
                "vertex shader alone without outputs to show",
                "the vertex shader writes neither a position nor an output a generated pixel \
                 shader could show: give its pixel shader too",
            ));
        }
        // Only a position: the picture is where the quad lands.
        return Ok(format!(
            "# No pixel shader was given and the vertex shader writes only its position:\n\
             # this one draws white wherever the quad lands.\n{notes}\
             [pixel shader]\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)\nret\n\n"
        ));
    }
    let mut s = String::from(
        "# No pixel shader was given: this one shows the vertex shader's outputs,\n\
         # one render target each, as they reach a pixel shader.\n",
    );
    s.push_str(&notes);
    s.push_str("[pixel shader]\nps_4_0\n");
    for (i, e) in shown_els.iter().enumerate() {
        let ty = match e.component_type() {
            ComponentType::Uint32 => "uint",
            ComponentType::Sint32 => "int",
            _ => "float",
        };
        let _ = writeln!(
            s,
            ".semantic v{i} {} {} {ty}",
            e.semantic_name, e.semantic_index
        );
        let _ = writeln!(s, ".semantic o{i} SV_Target {i} {ty}");
    }
    for (i, e) in shown_els.iter().enumerate() {
        let mode = if e.component_type().is_integer() {
            "constant"
        } else {
            "linear"
        };
        let _ = writeln!(s, "dcl_input_ps {mode} v{i}.xyzw");
    }
    for i in 0..shown_els.len() {
        let _ = writeln!(s, "dcl_output o{i}.xyzw");
    }
    for i in 0..shown_els.len() {
        let _ = writeln!(s, "mov o{i}.xyzw, v{i}.xyzw");
    }
    s.push_str("ret\n\n");
    Ok(s)
}
