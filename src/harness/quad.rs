//! The case's quad as both GPU backends feed it: the GLSL functions of a
//! generated vertex shader that return a corner's clip position and raw
//! register lanes (identical text in es300 and vk450), and the interleaved
//! vertex buffer of a translated vertex shader's inputs.

use std::fmt::Write as _;

use crate::glsl::{Scalar, VaryingEntry};
use crate::harness::case::{Case, Vertex};

/// The corners each triangle uses, D3D's order: 0-1-2 and 1-3-2. The
/// provoking vertex of each is its first corner, as the CPU side assumes
/// for `constant` inputs, and as Vulkan takes it.
pub const INDICES: [u16; 6] = [0, 1, 2, 1, 3, 2];

/// The same triangles for a runtime whose provoking vertex is the last
/// (GL, WebGL2): each `(a, b, c)` drawn as `(b, c, a)`, the same winding
/// with D3D's first corner last (docs/glsl.md, "Provoking vertex").
pub const INDICES_LAST_PROVOKING: [u16; 6] = [1, 2, 0, 3, 2, 1];

impl Vertex {
    /// The raw lanes the corner gives register `reg` (zeros when it lists
    /// none).
    pub fn lanes(&self, reg: u32) -> [u32; 4] {
        self.attributes
            .iter()
            .find(|(r, _)| *r == reg)
            .map(|(_, l)| *l)
            .unwrap_or([0; 4])
    }
}

fn uvec4(v: [u32; 4]) -> String {
    format!("uvec4({}u, {}u, {}u, {}u)", v[0], v[1], v[2], v[3])
}

/// `uvec4 hcornerPosition(int c)` and one `uvec4 hcornerVR(int c)` per
/// register in `regs`: per corner the bit patterns, so NaNs and denormals
/// reach the pipeline unchanged.
pub fn corner_functions(case: &Case, regs: &[u32]) -> String {
    let mut s = String::from("\nuvec4 hcornerPosition(int c) {\n");
    for (c, v) in case.quad.iter().enumerate().take(4) {
        let _ = writeln!(
            s,
            "    if (c == {c}) return {};",
            uvec4(v.position.map(f32::to_bits))
        );
    }
    s.push_str("    return uvec4(0u);\n}\n");
    let mut regs = regs.to_vec();
    regs.sort_unstable();
    regs.dedup();
    for r in &regs {
        let _ = writeln!(s, "\nuvec4 hcornerV{r}(int c) {{");
        for (c, v) in case.quad.iter().enumerate().take(4) {
            let _ = writeln!(s, "    if (c == {c}) return {};", uvec4(v.lanes(*r)));
        }
        s.push_str("    return uvec4(0u);\n}\n");
    }
    s
}

/// A varying's value at corner `c` from the corner functions: the input's
/// mask picks the lanes, integers are reinterpreted, floats bit-cast.
pub fn varying_value(i: &VaryingEntry) -> String {
    let lanes = format!("hcornerV{}(c).{}", i.register, i.mask);
    match i.glsl_type.scalar {
        Scalar::Uint => lanes,
        Scalar::Int => format!("{}({lanes})", i.glsl_type),
        // Bool is only gl_FrontFacing, which no stage writes.
        Scalar::Float | Scalar::Bool => format!("uintBitsToFloat({lanes})"),
    }
}

/// One input's place in the vertex buffer.
pub struct Attribute<'a> {
    pub input: &'a VaryingEntry,
    pub components: u32,
    /// Bytes from the start of a corner.
    pub offset: u32,
}

/// A translated vertex shader's inputs as one interleaved buffer: per
/// corner, each input (declared `float`-typed by the emitter, so raw lanes
/// keep their bits) by its mask. Returns the layout, the stride and the
/// bytes.
pub fn vertex_buffer<'a>(
    case: &Case,
    inputs: &[&'a VaryingEntry],
) -> (Vec<Attribute<'a>>, u32, Vec<u8>) {
    let mut layout = Vec::new();
    let mut offset = 0u32;
    for i in inputs {
        let components = i.mask.len().clamp(1, 4) as u32;
        layout.push(Attribute {
            input: i,
            components,
            offset,
        });
        offset += 4 * components;
    }
    let stride = offset.max(4);
    let mut bytes = Vec::new();
    for v in case.quad.iter().take(4) {
        let start = bytes.len();
        for i in inputs {
            let lanes = v.lanes(i.register);
            for ch in i.mask.chars() {
                let lane = match ch {
                    'y' => lanes[1],
                    'z' => lanes[2],
                    'w' => lanes[3],
                    _ => lanes[0],
                };
                bytes.extend_from_slice(&lane.to_le_bytes());
            }
        }
        bytes.resize(start + stride as usize, 0);
    }
    (layout, stride, bytes)
}
