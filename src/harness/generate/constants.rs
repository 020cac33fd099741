//! `[constant buffer N]` for every `dcl_constantbuffer`: as many rows as
//! declared, each lane typed and named from RDEF when the shader carries
//! it (floats in [0.25, 1], integers 1 or 2 (neighbours differ), bools 1,
//! matrices a rotation times a non-zero scale), positive moderate floats
//! without it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Refusal;
use super::rng::Rng;
use super::text::{float, shown};
use crate::dxbc::Shader;
use crate::dxbc::rdef::{CbufferKind, ConstantBuffer, InputType, Type, class};

/// D3D11's rows in a constant buffer.
const MAX_ROWS: u32 = 4096;

/// What one lane of a row holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Float(f32),
    Uint(u32),
    Sint(i32),
    /// Bits with no one type (half of a double).
    Bits(u32),
}

impl Value {
    fn bits(&self) -> u32 {
        match *self {
            Value::Float(v) => v.to_bits(),
            Value::Uint(v) | Value::Bits(v) => v,
            Value::Sint(v) => v as u32,
        }
    }
}

/// A row being filled: four lanes and the names of what they hold.
#[derive(Debug, Clone, Default)]
pub struct Row {
    pub lanes: [Option<Value>; 4],
    pub names: Vec<String>,
}

/// A matrix fit to transform a visible quad and stay visible: a rotation
/// about z by 0.125..0.5 radians times a scale of 0.5..0.75 (w kept), no
/// translation. Well conditioned (the condition number of a rotation
/// times a uniform scale is 1) and never singular. The generated corners
/// (±0.875, z 0.5, w 1) stay in front of the eye (w 1) and inside the
/// view: rotated by any angle they reach at most 0.875·√2 ≈ 1.24 from
/// the centre, times 0.75 is 0.93 < 1, and z stays in (0, 0.375]. A
/// product of such matrices (world, view, projection) scales less and
/// rotates about z again; a blend of transformed corners (skinning
/// weights summing to 1) stays in the convex view volume.
pub fn matrix(rng: &mut Rng) -> [[f32; 4]; 4] {
    let angle = rng.float(0.125, 0.5);
    let scale = rng.sixteenths(0.5, 0.75);
    let (s, c) = angle.sin_cos();
    [
        [scale * c, -scale * s, 0.0, 0.0],
        [scale * s, scale * c, 0.0, 0.0],
        [0.0, 0.0, scale, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// A scalar of a base type (D3D_SHADER_VARIABLE_TYPE) in lane `lane` of
/// its row.
fn scalar(base: u16, lane: u32, rng: &mut Rng) -> Value {
    // Integers are 1 in lanes x and z, 2 in y and w: small (such values
    // index arrays, interface arrays and bone palettes as often as they
    // count), non-zero, and neighbours differ, so a loop's start and end
    // side by side give a non-empty range.
    let small = 1 + lane % 2;
    match base {
        // bool: true.
        1 => Value::Uint(1),
        // int, min16int, min12int.
        2 | 52 | 53 => Value::Sint(small as i32),
        // uint, uint8, min16uint.
        19 | 20 | 54 => Value::Uint(small),
        // Floats in [0.25, 1]: never zero (a divisor, a scale), and inside
        // the [0, 1] that depths, comparison references, colours and
        // clip-space z keep to.
        _ => Value::Float(rng.sixteenths(0.25, 1.0)),
    }
}

/// Bytes one instance of `ty` spans in a constant buffer (arrays aside).
fn single_size(ty: &Type) -> u32 {
    let (r, c) = (u32::from(ty.rows.max(1)), u32::from(ty.columns.max(1)));
    let lane = if ty.base == 39 { 8 } else { 4 };
    match ty.class {
        class::MATRIX_ROWS => 16 * (r - 1) + lane * c,
        class::MATRIX_COLUMNS => 16 * (c - 1) + lane * r,
        class::STRUCT => ty
            .members
            .iter()
            .map(|m| m.offset.saturating_add(size(&m.ty)))
            .max()
            .unwrap_or(0),
        _ => lane * c,
    }
}

/// Bytes `ty` spans, arrays included: each element but the last padded to
/// a whole row (HLSL's packing).
fn size(ty: &Type) -> u32 {
    let one = single_size(ty);
    match ty.elements {
        0 | 1 => one,
        n => (u32::from(n) - 1)
            .saturating_mul(one.div_ceil(16) * 16)
            .saturating_add(one),
    }
}

/// Places `ty` at byte `offset` into `rows`, naming each lane with
/// `name`. Lanes past the rows are not placed (a declaration shorter than
/// RDEF's buffer).
fn place(ty: &Type, offset: u32, name: &str, rows: &mut [Row], rng: &mut Rng) {
    let count = u32::from(ty.elements).max(1);
    let stride = single_size(ty).div_ceil(16) * 16;
    for e in 0..count {
        let at = offset.saturating_add(e.saturating_mul(stride));
        if at / 16 >= rows.len() as u32 {
            break;
        }
        let label = if ty.elements > 0 {
            format!("{name}[{e}]")
        } else {
            name.to_string()
        };
        place_one(ty, at, &label, rows, rng);
    }
}

fn put(rows: &mut [Row], at: u32, v: Value, label: &str) {
    let (r, lane) = ((at / 16) as usize, ((at % 16) / 4) as usize);
    if let Some(row) = rows.get_mut(r) {
        row.lanes[lane] = Some(v);
        if row.names.last().map(String::as_str) != Some(label) {
            row.names.push(label.to_string());
        }
    }
}

fn place_one(ty: &Type, at: u32, name: &str, rows: &mut [Row], rng: &mut Rng) {
    let (r, c) = (usize::from(ty.rows.max(1)), usize::from(ty.columns.max(1)));
    match ty.class {
        class::MATRIX_ROWS | class::MATRIX_COLUMNS if ty.base != 39 => {
            let m = matrix(rng);
            let label = format!("{name} ({})", shown(&ty.hlsl_name()));
            for (i, row) in m.iter().enumerate().take(r.min(4)) {
                for (j, v) in row.iter().enumerate().take(c.min(4)) {
                    // Row-major: row i in register i; column-major (HLSL's
                    // default): column j in register j.
                    let off = if ty.class == class::MATRIX_ROWS {
                        16 * i + 4 * j
                    } else {
                        16 * j + 4 * i
                    };
                    put(rows, at + off as u32, Value::Float(*v), &label);
                }
            }
        }
        class::STRUCT => {
            for m in &ty.members {
                let label = format!("{name}.{}", shown(&m.name));
                place(&m.ty, at.saturating_add(m.offset), &label, rows, rng);
            }
        }
        class::SCALAR | class::VECTOR | class::MATRIX_ROWS | class::MATRIX_COLUMNS => {
            let label = format!("{name} ({})", shown(&ty.hlsl_name()));
            let n = if ty.class == class::VECTOR || ty.class == class::SCALAR {
                c
            } else {
                r * c
            };
            for k in 0..n {
                if ty.base == 39 {
                    // A double: two lanes, low word first.
                    let bits = f64::from(rng.sixteenths(0.25, 1.0)).to_bits();
                    let off = at + 8 * k as u32;
                    put(rows, off, Value::Bits(bits as u32), &label);
                    put(rows, off + 4, Value::Bits((bits >> 32) as u32), &label);
                } else {
                    let off = at + 4 * k as u32;
                    put(rows, off, scalar(ty.base, (off % 16) / 4, rng), &label);
                }
            }
        }
        // Objects and interface pointers hold nothing a shader reads here.
        _ => {}
    }
}

/// The RDEF cbuffer bound at `slot`, if the shader describes it.
fn rdef_buffer(shader: &Shader, slot: u32) -> Option<&ConstantBuffer> {
    let rdef = shader.rdef.as_ref()?;
    let binding = rdef.bindings.iter().find(|b| {
        b.input_type == InputType::CBuffer
            && slot >= b.bind_point
            && slot < b.bind_point.saturating_add(b.bind_count.max(1))
    })?;
    rdef.constant_buffers
        .iter()
        .find(|c| c.name == binding.name && c.kind == CbufferKind::CBuffer)
}

/// The rows of constant buffer `slot`: typed from `cb` when given, else
/// positive moderate floats.
pub fn rows(cb: Option<&ConstantBuffer>, count: u32, seed: u64, slot: u32) -> Vec<Row> {
    let mut rng = Rng::for_part(seed, "cb", u64::from(slot));
    let mut rows = vec![Row::default(); count.min(MAX_ROWS) as usize];
    match cb {
        Some(cb) => {
            for v in &cb.variables {
                place(&v.ty, v.offset, &shown(&v.name), &mut rows, &mut rng);
            }
        }
        None => {
            for row in &mut rows {
                row.lanes = std::array::from_fn(|_| Some(Value::Float(rng.sixteenths(0.25, 1.0))));
            }
        }
    }
    rows
}

/// One `row` line: typed when every lane it holds is of one type (a lane
/// no variable covers is 0), `hex` with the values in the comment when
/// the types mix.
pub fn row_line(i: usize, row: &Row) -> String {
    let kinds: Vec<u8> = row
        .lanes
        .iter()
        .flatten()
        .map(|v| match v {
            Value::Float(_) => 0,
            Value::Uint(_) => 1,
            Value::Sint(_) => 2,
            Value::Bits(_) => 3,
        })
        .collect();
    let one = kinds.windows(2).all(|w| w[0] == w[1]);
    let names = if row.names.is_empty() {
        String::new()
    } else {
        format!("  # {}", row.names.join(", "))
    };
    let text = |v: &Option<Value>, kind: u8| match (v, kind) {
        (Some(Value::Float(f)), 0) => float(*f),
        (None, 0) => "0.0".to_string(),
        (Some(Value::Uint(u)), 1) => u.to_string(),
        (Some(Value::Sint(s)), 2) => s.to_string(),
        (None, _) if kind != 3 => "0".to_string(),
        (v, _) => format!("0x{:08x}", v.as_ref().map_or(0, Value::bits)),
    };
    let kind = if one {
        kinds.first().copied().unwrap_or(0)
    } else {
        3
    };
    let ty = ["float", "uint", "int", "hex"][kind as usize];
    let lanes: Vec<String> = row.lanes.iter().map(|v| text(v, kind)).collect();
    let mixed = if kind == 3 && !kinds.iter().all(|k| *k == 3) {
        let shown: Vec<String> = row
            .lanes
            .iter()
            .map(|v| match v {
                Some(Value::Float(f)) => float(*f),
                Some(Value::Uint(u)) => format!("{u}u"),
                Some(Value::Sint(s)) => format!("{s}i"),
                Some(Value::Bits(b)) => format!("0x{b:08x}"),
                None => "0".into(),
            })
            .collect();
        format!(" = ({})", shown.join(", "))
    } else {
        String::new()
    };
    format!("row {i} {ty} {}{names}{mixed}", lanes.join(" "))
}

/// The `[constant buffer N]` sections of every declared slot.
pub fn sections(shaders: &[&Shader], seed: u64) -> Result<String, Refusal> {
    // Slot → (rows, the first shader declaring it).
    let mut slots: BTreeMap<u32, (u32, &Shader)> = BTreeMap::new();
    for s in shaders {
        for (&slot, &rows) in &s.register_sizes().constant_buffers {
            let e = slots.entry(slot).or_insert((rows, s));
            e.0 = e.0.max(rows);
        }
    }
    let mut out = String::new();
    for (slot, (count, shader)) in slots {
        if slot >= crate::dxbc::limits::CONSTANT_BUFFER_SLOTS {
            return Err(Refusal::new(
                "constant buffer slot",
                format!("cb{slot} is past Direct3D 11's constant-buffer slots"),
            ));
        }
        let cb = shaders.iter().find_map(|s| rdef_buffer(s, slot));
        let _ = shader;
        let _ = writeln!(out, "[constant buffer {slot}]");
        match cb {
            Some(cb) => {
                let _ = writeln!(
                    out,
                    "# cb{slot}: cbuffer {} ({count} rows declared; RDEF types)",
                    shown(&cb.name)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "# cb{slot}: {count} rows declared, no RDEF: positive moderate floats"
                );
            }
        }
        for (i, row) in rows(cb, count, seed, slot).iter().enumerate() {
            let _ = writeln!(out, "{}", row_line(i, row));
        }
        out.push('\n');
    }
    Ok(out)
}
