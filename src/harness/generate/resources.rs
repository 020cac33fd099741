//! `[texture N]`, `[sampler N]`, `[buffer N]`, `[uav N]` and
//! `[interfaces]` for every declaration of the case's shaders.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::rng::Rng;
use super::text::{float, shown};
use super::{Options, Refusal};
use crate::dxbc::Shader;
use crate::dxbc::enums::{ResourceDimension, ReturnType, SamplerMode};
use crate::dxbc::ir::{DeclKind, Instruction, OperandType};
use crate::dxbc::opcodes::Op;

/// Elements of a generated structured buffer, words of a raw one, and
/// elements of a typed buffer: enough for a shader's first reads.
const BUFFER_ELEMENTS: u32 = 16;
const RAW_WORDS: u32 = 64;

/// A texture's side (a cube's face, a 3D texture's width and height): 8
/// texels give four mips, enough for trilinear filtering to blend two
/// distinct levels anywhere on a small target.
const SIDE: u32 = 8;
/// Layers of an array texture, slices of a 3D one, cubes of a cube array.
const LAYERS: u32 = 3;

/// The comparison instructions: a texture they read holds depths.
fn compares(op: Op) -> bool {
    matches!(
        op,
        Op::SampleC
            | Op::SampleCLz
            | Op::Gather4C
            | Op::Gather4PoC
            | Op::Gather4CS
            | Op::Gather4PoCS
            | Op::SampleCLzS
            | Op::SampleCClS
    )
}

fn slot(inst: &Instruction) -> Option<u32> {
    inst.operands.first().and_then(|o| o.reg())
}

fn return_type(inst: &Instruction) -> ReturnType {
    match &inst.decl {
        DeclKind::ReturnTypes(t) => t[0],
        _ => ReturnType::Float,
    }
}

fn stride(inst: &Instruction) -> u32 {
    match inst.decl {
        DeclKind::Count(s) => s,
        _ => 4,
    }
}

/// The RDEF name bound at `slot` of a kind, for comments.
fn binding_name(shaders: &[&Shader], texture: bool, slot: u32) -> Option<String> {
    use crate::dxbc::rdef::InputType;
    shaders.iter().find_map(|s| {
        s.rdef.as_ref()?.bindings.iter().find_map(|b| {
            let kind = match b.input_type {
                InputType::Sampler => Some(false),
                InputType::CBuffer => None,
                _ if b.input_type.is_uav() => None,
                _ => Some(true),
            };
            (kind == Some(texture)
                && slot >= b.bind_point
                && slot < b.bind_point.saturating_add(b.bind_count.max(1)))
            .then(|| shown(&b.name))
        })
    })
}

fn uav_name(shaders: &[&Shader], slot: u32) -> Option<String> {
    shaders.iter().find_map(|s| {
        s.rdef
            .as_ref()?
            .bindings
            .iter()
            .find_map(|b| (b.input_type.is_uav() && b.bind_point == slot).then(|| shown(&b.name)))
    })
}

/// Words of float data in [0.25, 2] (multiples of 1/16), `per_line` a line.
fn float_data(rng: &mut Rng, words: u32, per_line: u32) -> String {
    let mut s = String::new();
    let mut left = words;
    while left > 0 {
        let n = left.min(per_line);
        let vals: Vec<String> = (0..n).map(|_| float(rng.sixteenths(0.25, 2.0))).collect();
        let _ = writeln!(s, "data float {}", vals.join(" "));
        left -= n;
    }
    s
}

/// One texture slot's section.
fn texture(
    out: &mut String,
    shaders: &[&Shader],
    inst: &Instruction,
    t: u32,
    depth: bool,
    opts: &Options,
    requires: &mut Vec<(String, String)>,
) -> Result<(), Refusal> {
    let dim = inst
        .resource_dimension()
        .unwrap_or(ResourceDimension::Unknown);
    let rt = return_type(inst);
    let name = binding_name(shaders, true, t)
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    let seed = Rng::for_part(opts.seed, "texture", u64::from(t)).next_u64() % 1_000_000;
    if dim == ResourceDimension::Buffer {
        // A typed buffer (Buffer<T>): its elements as values.
        let (format, kind) = match rt {
            ReturnType::Uint => ("r32_uint", 'u'),
            ReturnType::Sint => ("r32_sint", 'i'),
            _ => ("rgba32_float", 'f'),
        };
        let _ = writeln!(out, "[buffer {t}]\n# t{t}{name}: Buffer<{}>", rt.name());
        let _ = writeln!(out, "format {format}\nsize {BUFFER_ELEMENTS}\nvalues");
        let mut rng = Rng::for_part(opts.seed, "typed buffer", u64::from(t));
        for _ in 0..BUFFER_ELEMENTS {
            let line = match kind {
                'f' => (0..4)
                    .map(|_| float(rng.sixteenths(0.25, 2.0)))
                    .collect::<Vec<_>>()
                    .join(" "),
                // One channel: the rest read as D3D's defaults.
                'u' => format!("{}u 0u 0u 1u", rng.range(1, 8)),
                _ => format!("{}i 0i 0i 1i", rng.range(1, 8)),
            };
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
        return Ok(());
    }
    let (dimension, size, mips) = match dim {
        ResourceDimension::Texture1D => ("1d", format!("{}", 2 * SIDE), true),
        ResourceDimension::Texture1DArray => ("1darray", format!("{} {LAYERS}", 2 * SIDE), true),
        ResourceDimension::Texture2D => ("2d", format!("{SIDE} {SIDE}"), true),
        ResourceDimension::Texture2DArray => ("2darray", format!("{SIDE} {SIDE} {LAYERS}"), true),
        ResourceDimension::Texture2DMs => ("2d", format!("{SIDE} {SIDE}"), false),
        ResourceDimension::Texture2DMsArray => {
            ("2darray", format!("{SIDE} {SIDE} {LAYERS}"), false)
        }
        ResourceDimension::Texture3D => ("3d", format!("{SIDE} {SIDE} 4"), true),
        ResourceDimension::TextureCube => ("cube", format!("{SIDE}"), true),
        ResourceDimension::TextureCubeArray => ("cubearray", format!("{SIDE} {SIDE} 2"), true),
        other => {
            return Err(Refusal::new(
                "texture dimension",
                format!(
                    "t{t} is declared with dimension {}, which no case texture has",
                    other.name()
                ),
            ));
        }
    };
    let _ = writeln!(out, "[texture {t}]");
    let _ = writeln!(
        out,
        "# t{t}{name}: {} of {}{}",
        dim.name(),
        rt.name(),
        if depth {
            ", read with a comparison"
        } else {
            ""
        }
    );
    if let Some(img) = opts.images.iter().find(|i| i.slot == t) {
        if dim != ResourceDimension::Texture2D && img.size.is_some() {
            return Err(Refusal::new(
                "image for a texture that is not 2D",
                format!(
                    "--texture t{t}: t{t} is a {}; a picture fills a 2D texture (a DDS file can hold any)",
                    dim.name()
                ),
            ));
        }
        if depth {
            return Err(Refusal::new(
                "image for a depth texture",
                format!(
                    "--texture t{t}: t{t} is read with a comparison, which needs a depth format; \
                     its generated depths are a pattern (edit its `values` by hand)"
                ),
            ));
        }
        if rt.is_integer() {
            return Err(Refusal::new(
                "image for an integer texture",
                format!(
                    "--texture t{t}: t{t} returns {}; a picture holds unorm colours",
                    rt.name()
                ),
            ));
        }
        if let Some([w, h]) = img.size {
            let _ = writeln!(out, "format rgba8_unorm\nsize {w} {h}");
        }
        let _ = writeln!(out, "fill image {}\n", img.path);
        return Ok(());
    }
    // The format returns what the declaration reads: D3D's runtime refuses
    // any other. Depths for comparisons: D32_FLOAT, read as [0, 1].
    let format = match rt {
        ReturnType::Uint => "rgba8_uint",
        ReturnType::Sint => "rgba8_sint",
        ReturnType::Snorm => "rgba8_snorm",
        _ if depth => "d32_float",
        _ => "rgba8_unorm",
    };
    let _ = writeln!(out, "format {format}\ndimension {dimension}\nsize {size}");
    if mips {
        out.push_str("mips full\n");
    } else {
        let n = inst
            .sample_count()
            .filter(|n| matches!(n, 2 | 4 | 8 | 16))
            .unwrap_or(4);
        let _ = writeln!(out, "samples {n}");
        let (feature, why) = if dim == ResourceDimension::Texture2DMsArray {
            ("multisample_array", "a Texture2DMSArray")
        } else {
            ("multisample", "a Texture2DMS")
        };
        requires.push((feature.into(), format!("t{t} is {why}")));
        if feature == "multisample_array" {
            requires.push(("multisample".into(), format!("t{t} is multisampled")));
        }
    }
    if dim == ResourceDimension::TextureCubeArray {
        requires.push((
            "cube_map_arrays".into(),
            format!("t{t} is a TextureCubeArray"),
        ));
    }
    let _ = writeln!(out, "fill pattern {seed}\n");
    Ok(())
}

/// Every texture, buffer, UAV and sampler section. Slots several shaders
/// declare get one section (the first declaration's).
pub fn sections(
    shaders: &[&Shader],
    opts: &Options,
    requires: &mut Vec<(String, String)>,
) -> Result<String, Refusal> {
    let mut depth_slots: Vec<u32> = Vec::new();
    for s in shaders {
        for inst in &s.program.instructions {
            if compares(inst.op) {
                depth_slots.extend(
                    inst.operands
                        .iter()
                        .filter(|o| o.ty == OperandType::RESOURCE)
                        .filter_map(|o| o.reg()),
                );
            }
        }
    }
    let mut srvs: BTreeMap<u32, &Instruction> = BTreeMap::new();
    let mut uavs: BTreeMap<u32, &Instruction> = BTreeMap::new();
    let mut samplers: BTreeMap<u32, &Instruction> = BTreeMap::new();
    for s in shaders {
        for inst in &s.program.instructions {
            let Some(n) = slot(inst) else { continue };
            let map = match inst.op {
                Op::DclResource | Op::DclResourceRaw | Op::DclResourceStructured => &mut srvs,
                Op::DclUavTyped | Op::DclUavRaw | Op::DclUavStructured => &mut uavs,
                Op::DclSampler => &mut samplers,
                _ => continue,
            };
            map.entry(n).or_insert(inst);
        }
    }
    for i in &opts.images {
        if srvs.get(&i.slot).is_none_or(|d| d.op != Op::DclResource) {
            return Err(Refusal::new(
                "image for an undeclared texture",
                format!(
                    "--texture t{}: the shaders declare no texture t{}",
                    i.slot, i.slot
                ),
            ));
        }
    }
    let mut out = String::new();
    for (&t, inst) in &srvs {
        match inst.op {
            Op::DclResource => texture(
                &mut out,
                shaders,
                inst,
                t,
                depth_slots.contains(&t),
                opts,
                requires,
            )?,
            _ => {
                let name = binding_name(shaders, true, t)
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default();
                let mut rng = Rng::for_part(opts.seed, "buffer", u64::from(t));
                let _ = writeln!(out, "[buffer {t}]");
                out.push_str(&buffer_body(inst, &name, t, 't', &mut rng));
            }
        }
    }
    for (&u, inst) in &uavs {
        let name = uav_name(shaders, u)
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        let mut rng = Rng::for_part(opts.seed, "uav", u64::from(u));
        let _ = writeln!(out, "[uav {u}]");
        if inst.op == Op::DclUavTyped {
            let format = match return_type(inst) {
                ReturnType::Uint => "r32_uint",
                ReturnType::Sint => "r32_sint",
                _ => "r32_float",
            };
            let dim = inst
                .resource_dimension()
                .unwrap_or(ResourceDimension::Unknown);
            let size = match dim {
                ResourceDimension::Buffer => BUFFER_ELEMENTS.to_string(),
                ResourceDimension::Texture2D => format!("{SIDE} {SIDE}"),
                other => {
                    return Err(Refusal::new(
                        "typed UAV dimension",
                        format!(
                            "u{u} is a typed UAV of dimension {}: [uav] holds buffers and 2D textures",
                            other.name()
                        ),
                    ));
                }
            };
            let _ = writeln!(out, "# u{u}{name}: typed {} of {format}", dim.name());
            let _ = writeln!(out, "format {format}\nsize {size}");
            // Zeros: what a cleared UAV holds, and the start an
            // accumulation (InterlockedAdd) expects.
            out.push('\n');
        } else {
            out.push_str(&buffer_body(inst, &name, u, 'u', &mut rng));
        }
    }
    for (&s, inst) in &samplers {
        let name = binding_name(shaders, false, s)
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        let _ = writeln!(out, "[sampler {s}]");
        if inst.sampler_mode() == Some(SamplerMode::Comparison) {
            let _ = writeln!(
                out,
                "# s{s}{name}: a comparison sampler, D3D11's default state otherwise\n\
                 compare less_equal\n"
            );
        } else {
            let _ = writeln!(
                out,
                "# s{s}{name}: D3D11's default state (linear filtering, clamp addressing)\n"
            );
        }
    }
    Ok(out)
}

/// A raw or structured buffer's layout and data.
fn buffer_body(inst: &Instruction, name: &str, n: u32, reg: char, rng: &mut Rng) -> String {
    let mut s = String::new();
    let raw = matches!(inst.op, Op::DclResourceRaw | Op::DclUavRaw);
    if raw {
        let _ = writeln!(
            s,
            "# {reg}{n}{name}: byte-addressed, {RAW_WORDS} words of floats"
        );
        let _ = writeln!(s, "raw\nsize {RAW_WORDS}");
        s.push_str(&float_data(rng, RAW_WORDS, 8));
    } else {
        let st = stride(inst);
        let _ = writeln!(
            s,
            "# {reg}{n}{name}: structured, {BUFFER_ELEMENTS} elements of {st} bytes, floats"
        );
        let _ = writeln!(s, "stride {st}\nsize {BUFFER_ELEMENTS}");
        s.push_str(&float_data(
            rng,
            BUFFER_ELEMENTS * st / 4,
            (st / 4).clamp(1, 8),
        ));
    }
    s.push('\n');
    s
}

/// `[interfaces]` when a shader uses class linkage: every slot of every
/// `dcl_interface` uses its first function table, instance data at the
/// default (cb0 row 0, t0, s0).
pub fn interfaces(shaders: &[&Shader]) -> String {
    let mut slots: Vec<u32> = Vec::new();
    for s in shaders {
        for inst in &s.program.instructions {
            if let DeclKind::Interface {
                index,
                array_length,
                ..
            } = &inst.decl
            {
                let n = (*array_length).clamp(1, 253);
                slots.extend((*index..index.saturating_add(n)).filter(|&i| i < 253));
            }
        }
    }
    slots.sort_unstable();
    slots.dedup();
    if slots.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "[interfaces]\n# Each interface slot's first function table; instance data at the defaults.\n",
    );
    for s in slots {
        let _ = writeln!(out, "slot {s} table 0");
    }
    out.push('\n');
    out
}
