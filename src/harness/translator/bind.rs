//! The binding contract of one external translation: each name its text
//! declares, resolved through the profile against the shader's reflection
//! (signatures, RDEF — the one the translator read, made up from the
//! declarations where the case has none — and the program's resource
//! declarations), as the typed `glsl::Manifest` the WebGL2 scene reads,
//! plus the constants bound by name. A declared name nothing resolves is a
//! `TranslatorError::Bind` naming it: never a silent zero.

use std::collections::BTreeSet;

use super::TranslatorError;
use super::profile::{Hole, OutputRule, Pattern, Profile, RoleKind};
use super::reflect::{self, Decl, Storage};
use crate::dxbc::Shader;
use crate::dxbc::enums::{ResourceDimension, ReturnType, SamplerMode};
use crate::dxbc::ir::{DeclKind, OperandType};
use crate::dxbc::opcodes::Op;
use crate::dxbc::rdef::{CbufferKind, InputType, Rdef, synthesize};
use crate::dxbc::signature::{SignatureElement, SignatureKind};
use crate::glsl::{
    CombinedEntry, ConstantBufferEntry, Dialect, Dim, InterpolationQualifier, Manifest, Opaque,
    OpaqueType, Scalar, TextureEntry, TextureShape, Ty, UniformEntry, UniformRole, ValueType,
    VaryingEntry,
};

/// One RDEF variable bound by name: a plain uniform or a block member,
/// filled from constant buffer `slot`'s bytes `offset..offset + size`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedConstant {
    pub name: String,
    /// The uniform block holding it; `None` for a plain uniform.
    pub block: Option<String>,
    pub slot: u32,
    pub offset: u32,
    pub size: u32,
}

/// What the scene needs to draw one stage of an external translation.
#[derive(Debug, Clone)]
pub struct Binding {
    pub manifest: Manifest,
    pub constants: Vec<NamedConstant>,
}

impl Binding {
    /// Whether the text declares a uniform the runtime sets to the y flip.
    pub fn has_y_flip(&self) -> bool {
        self.manifest
            .uniforms
            .iter()
            .any(|u| u.role == UniformRole::YFlip)
    }
}

/// What the program declares and reads: texture slots with their
/// dimension and return type, sampler slots with their mode, and which
/// sampler each texture is read with.
struct Resources {
    textures: Vec<(u32, ResourceDimension, ReturnType)>,
    samplers: Vec<(u32, bool)>,
    pairs: BTreeSet<(u32, u32)>,
    /// Interpolation per pixel input register (`dcl_input_ps`).
    noperspective: Vec<u32>,
}

fn resources(shader: &Shader) -> Resources {
    let mut r = Resources {
        textures: Vec::new(),
        samplers: Vec::new(),
        pairs: BTreeSet::new(),
        noperspective: Vec::new(),
    };
    let slot = |op: &crate::dxbc::ir::Operand| {
        op.indices
            .first()
            .and_then(|i| i.imm())
            .and_then(|v| u32::try_from(v).ok())
    };
    for inst in &shader.program.instructions {
        match inst.op {
            Op::DclResource => {
                if let Some(s) = inst.operands.first().and_then(slot) {
                    let ret = match &inst.decl {
                        DeclKind::ReturnTypes(t) => t[0],
                        _ => ReturnType::Float,
                    };
                    let dim = inst
                        .resource_dimension()
                        .unwrap_or(ResourceDimension::Unknown);
                    r.textures.push((s, dim, ret));
                }
            }
            Op::DclSampler => {
                if let Some(s) = inst.operands.first().and_then(slot) {
                    r.samplers
                        .push((s, inst.sampler_mode() == Some(SamplerMode::Comparison)));
                }
            }
            _ if inst.interpolation().is_some() => {
                if inst.interpolation().is_some_and(|i| i.is_noperspective())
                    && let Some(s) = inst.operands.first().and_then(slot)
                {
                    r.noperspective.push(s);
                }
            }
            _ if !inst.info().is_decl() => {
                let t = inst
                    .operands
                    .iter()
                    .find(|o| o.ty == OperandType::RESOURCE)
                    .and_then(slot);
                let s = inst
                    .operands
                    .iter()
                    .find(|o| o.ty == OperandType::SAMPLER)
                    .and_then(slot);
                if let (Some(t), Some(s)) = (t, s) {
                    r.pairs.insert((t, s));
                }
            }
            _ => {}
        }
    }
    r
}

/// A GLSL value type by name (`vec3`, `uint`, `bvec2`).
fn value_type(ty: &str, array: Option<u32>) -> Option<ValueType> {
    let (scalar, rest) = match ty {
        "float" => {
            return Some(ValueType {
                scalar: Scalar::Float,
                components: 1,
                array,
            });
        }
        "int" => {
            return Some(ValueType {
                scalar: Scalar::Int,
                components: 1,
                array,
            });
        }
        "uint" => {
            return Some(ValueType {
                scalar: Scalar::Uint,
                components: 1,
                array,
            });
        }
        "bool" => {
            return Some(ValueType {
                scalar: Scalar::Bool,
                components: 1,
                array,
            });
        }
        _ if ty.starts_with("vec") => (Scalar::Float, &ty[3..]),
        _ if ty.starts_with("ivec") => (Scalar::Int, &ty[4..]),
        _ if ty.starts_with("uvec") => (Scalar::Uint, &ty[4..]),
        _ if ty.starts_with("bvec") => (Scalar::Bool, &ty[4..]),
        _ => return None,
    };
    let n: u8 = rest.parse().ok().filter(|n| (2..=4).contains(n))?;
    Some(ValueType {
        scalar,
        components: n,
        array,
    })
}

/// A GLSL ES 3.00 sampler type by name (`isampler2DArray`,
/// `samplerCubeShadow`).
fn opaque_type(ty: &str) -> Option<OpaqueType> {
    let (t, rest) = if let Some(r) = ty.strip_prefix("isampler") {
        (Ty::Int, r)
    } else if let Some(r) = ty.strip_prefix("usampler") {
        (Ty::Uint, r)
    } else {
        (Ty::Float, ty.strip_prefix("sampler")?)
    };
    let (shape_text, shadow) = match rest.strip_suffix("Shadow") {
        Some(s) => (s, true),
        None => (rest, false),
    };
    if shadow && t != Ty::Float {
        return None;
    }
    let shape = match shape_text {
        "2D" => TextureShape::D2,
        "2DArray" => TextureShape::D2Array,
        "3D" if !shadow => TextureShape::D3,
        "Cube" => TextureShape::Cube,
        _ => return None,
    };
    Some(OpaqueType {
        object: Opaque::Sampler,
        ty: t,
        shape,
        shadow,
    })
}

/// The signature element's mask letters, as many as the declared type
/// has components (`None` when the element has fewer).
fn mask_for(e: &SignatureElement, components: u8) -> Option<String> {
    let letters: String = "xyzw"
        .chars()
        .enumerate()
        .filter(|(i, _)| e.mask & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect();
    let n = usize::from(components.max(1));
    (letters.len() >= n).then(|| letters[..n].to_string())
}

/// Binds `text`, the translation of `shader` (a pixel or vertex shader),
/// by `profile`.
pub fn bind(
    translator: &str,
    text: &str,
    shader: &Shader,
    profile: &Profile,
) -> Result<Binding, TranslatorError> {
    let stage = match shader.program.kind {
        crate::dxbc::enums::ProgramType::Pixel => "pixel",
        crate::dxbc::enums::ProgramType::Vertex => "vertex",
        _ => "other",
    };
    let refuse = |what: String, why: String| TranslatorError::Bind {
        translator: translator.to_string(),
        what,
        why,
    };
    let decls = reflect::declarations(text).map_err(|e| {
        refuse(
            format!("the {stage} shader's text"),
            format!("its declarations cannot be read: {e}"),
        )
    })?;
    let made;
    let rdef: &Rdef = match &shader.rdef {
        Some(r) => r,
        None => {
            made = synthesize(&shader.program);
            &made
        }
    };
    let res = resources(shader);
    let mut manifest = Manifest::new(shader, Dialect::Es300);
    let mut constants = Vec::new();
    let pixel = stage == "pixel";
    for d in &decls {
        let what = || {
            format!(
                "{stage} shader {} `{}` (line {})",
                storage_word(d),
                d.name,
                d.line
            )
        };
        match d.storage {
            Storage::In => {
                let rules = if pixel {
                    &profile.pixel_inputs
                } else {
                    &profile.vertex_inputs
                };
                let v = varying(d, shader, SignatureKind::Input, rules)
                    .map_err(|why| refuse(what(), why))?;
                let mut v = v;
                let noperspective = pixel
                    && profile.noperspective_emulation
                    && res.noperspective.contains(&v.register);
                v.interpolation =
                    InterpolationQualifier::from_flags(d.flat, d.centroid, noperspective);
                manifest.inputs.push(v);
            }
            Storage::Out if pixel => {
                let v = pixel_output(d, shader, &profile.pixel_outputs)
                    .map_err(|why| refuse(what(), why))?;
                manifest.outputs.push(v);
            }
            Storage::Out => {
                let v = varying(d, shader, SignatureKind::Output, &profile.vertex_outputs)
                    .map_err(|why| refuse(what(), why))?;
                manifest.outputs.push(v);
            }
            Storage::Uniform => {
                uniform(d, rdef, &res, profile, &mut manifest, &mut constants)
                    .map_err(|why| refuse(what(), why))?;
            }
        }
    }
    Ok(Binding {
        manifest,
        constants,
    })
}

fn storage_word(d: &Decl) -> &'static str {
    match d.storage {
        Storage::In => "input",
        Storage::Out => "output",
        Storage::Uniform if d.block.is_some() => "uniform block member",
        Storage::Uniform => "uniform",
    }
}

fn rules_text(rules: &[Pattern]) -> String {
    if rules.is_empty() {
        "the profile has no rule for these".into()
    } else {
        format!(
            "no signature element matches {}",
            rules
                .iter()
                .map(|r| format!("`{}`", r.text))
                .collect::<Vec<_>>()
                .join(" or ")
        )
    }
}

/// A declared `in` (or a vertex shader's `out`) as the signature element
/// its name renders.
fn varying(
    d: &Decl,
    shader: &Shader,
    kind: SignatureKind,
    rules: &[Pattern],
) -> Result<VaryingEntry, String> {
    let ty = value_type(&d.ty, d.array)
        .filter(|t| t.array.is_none())
        .ok_or_else(|| format!("a varying of type {} cannot be fed from a case", d.ty))?;
    let elements = shader.elements(kind).unwrap_or(&[]);
    for rule in rules {
        for e in elements {
            let ident = crate::glsl::names::semantic_ident(&e.semantic_name);
            let name = rule.render(&|h| match h {
                Hole::Semantic => Some(ident.clone()),
                Hole::Index => Some(e.semantic_index.to_string()),
                _ => None,
            });
            if name.is_some_and(|n| n.eq_ignore_ascii_case(&d.name)) {
                let mask = mask_for(e, ty.components).ok_or_else(|| {
                    format!(
                        "declared {} but {}{} has only the components {}",
                        d.ty,
                        e.semantic_name,
                        e.semantic_index,
                        crate::dxbc::signature::mask_columns(e.mask).replace(' ', "")
                    )
                })?;
                return Ok(VaryingEntry {
                    register: e.register,
                    mask,
                    semantic: e.semantic_name.clone(),
                    semantic_index: e.semantic_index,
                    glsl_name: d.name.clone(),
                    glsl_type: ty,
                    location: d.location,
                    interpolation: None,
                    builtin: false,
                });
            }
        }
    }
    Err(rules_text(rules))
}

/// A pixel shader's colour output: by its location, or by name.
fn pixel_output(d: &Decl, shader: &Shader, rules: &[OutputRule]) -> Result<VaryingEntry, String> {
    let ty = value_type(&d.ty, d.array)
        .filter(|t| t.array.is_none() && t.scalar != Scalar::Bool)
        .ok_or_else(|| format!("a colour output of type {}", d.ty))?;
    let elements = shader.elements(SignatureKind::Output).unwrap_or(&[]);
    let target = |n: u32| {
        elements
            .iter()
            .find(|e| e.semantic_name.eq_ignore_ascii_case("SV_Target") && e.semantic_index == n)
    };
    for rule in rules {
        let index = match rule {
            OutputRule::Location => d.location,
            OutputRule::Name(p) => (0..crate::dxbc::signature::RENDER_TARGETS).find(|n| {
                p.render(&|h| (h == Hole::Index).then(|| n.to_string()))
                    .is_some_and(|r| r == d.name)
            }),
        };
        let Some(n) = index else { continue };
        let e = target(n).ok_or_else(|| {
            format!("it is render target {n}, which the shader's output signature lacks")
        })?;
        return Ok(VaryingEntry {
            register: e.register,
            mask: mask_for(e, ty.components).unwrap_or_else(|| "xyzw".into()),
            semantic: "SV_Target".into(),
            semantic_index: n,
            glsl_name: d.name.clone(),
            glsl_type: ty,
            location: Some(n),
            interpolation: None,
            builtin: false,
        });
    }
    Err("neither a location nor a pixel-output rule gives its render target".into())
}

/// The RDEF binding name of a slot of kind `ty`, if any.
fn binding_name(rdef: &Rdef, ty: InputType, slot: u32) -> Option<String> {
    rdef.bindings
        .iter()
        .find(|b| {
            b.input_type == ty
                && slot
                    .checked_sub(b.bind_point)
                    .is_some_and(|d| d < b.bind_count.max(1))
        })
        .map(|b| b.name.clone())
}

fn role(kind: RoleKind, t: Option<u32>, s: Option<u32>) -> Option<UniformRole> {
    Some(match kind {
        RoleKind::YFlip => UniformRole::YFlip,
        RoleKind::RasterizerSamples => UniformRole::RasterizerSamples,
        RoleKind::InterfaceTable => UniformRole::InterfaceTable,
        RoleKind::InterfaceThis => UniformRole::InterfaceThis,
        RoleKind::TextureLevels => UniformRole::TextureLevels { texture: t? },
        RoleKind::SamplerMode => UniformRole::SamplerMode { sampler: s? },
        RoleKind::SamplerBorder => UniformRole::SamplerBorder { sampler: s? },
        RoleKind::SamplerLod => UniformRole::SamplerLod { sampler: s? },
        RoleKind::SamplerFilter => UniformRole::SamplerFilter { sampler: s? },
    })
}

/// Resolves one uniform (or block member): a runtime value, a combined
/// sampler, a bare texture, a whole constant buffer or one RDEF variable,
/// tried in that order.
fn uniform(
    d: &Decl,
    rdef: &Rdef,
    res: &Resources,
    profile: &Profile,
    manifest: &mut Manifest,
    constants: &mut Vec<NamedConstant>,
) -> Result<(), String> {
    let tex_name = |t: u32| binding_name(rdef, InputType::Texture, t);
    let smp_name = |s: u32| binding_name(rdef, InputType::Sampler, s);
    // Runtime values.
    for (pat, kind) in &profile.uniforms {
        let ts: Vec<Option<u32>> = if pat.uses(Hole::T) || pat.uses(Hole::Texture) {
            res.textures.iter().map(|t| Some(t.0)).collect()
        } else {
            vec![None]
        };
        let ss: Vec<Option<u32>> = if pat.uses(Hole::S) || pat.uses(Hole::Sampler) {
            res.samplers.iter().map(|s| Some(s.0)).collect()
        } else {
            vec![None]
        };
        for &t in &ts {
            for &s in &ss {
                let name = pat.render(&|h| match h {
                    Hole::T => t.map(|t| t.to_string()),
                    Hole::Texture => t.and_then(tex_name),
                    Hole::S => s.map(|s| s.to_string()),
                    Hole::Sampler => s.and_then(smp_name),
                    _ => None,
                });
                if name.as_deref() != Some(d.name.as_str()) {
                    continue;
                }
                let r = role(*kind, t, s).ok_or("a role without its slot")?;
                let glsl_type = value_type(&d.ty, d.array)
                    .ok_or_else(|| format!("a runtime value of type {}", d.ty))?;
                manifest.uniforms.push(UniformEntry {
                    name: d.name.clone(),
                    glsl_type,
                    meaning: format!("{kind:?}"),
                    block: d.block.clone().unwrap_or_default(),
                    offset: 0,
                    binding: None,
                    role: r,
                });
                return Ok(());
            }
        }
    }
    // Combined samplers, and textures read only by fetch under a sampler
    // rule's name.
    for (compare, rules) in [
        (false, &profile.samplers),
        (true, &profile.compare_samplers),
    ] {
        for pat in rules {
            let implied = !(pat.uses(Hole::S) || pat.uses(Hole::Sampler));
            for &(t, _, _) in &res.textures {
                let with: Vec<u32> = res
                    .pairs
                    .iter()
                    .filter(|(pt, ps)| {
                        *pt == t && res.samplers.iter().any(|(s, c)| s == ps && *c == compare)
                    })
                    .map(|(_, s)| *s)
                    .collect();
                let render = |s: Option<u32>| {
                    pat.render(&|h| match h {
                        Hole::T => Some(t.to_string()),
                        Hole::Texture => tex_name(t),
                        Hole::S => s.map(|s| s.to_string()),
                        Hole::Sampler => s.and_then(smp_name),
                        _ => None,
                    })
                };
                let found: Vec<u32> = if implied {
                    if render(None).as_deref() != Some(d.name.as_str()) {
                        continue;
                    }
                    with.clone()
                } else {
                    let hits: Vec<u32> = with
                        .iter()
                        .copied()
                        .filter(|s| render(Some(*s)).as_deref() == Some(d.name.as_str()))
                        .collect();
                    if hits.is_empty() {
                        continue;
                    }
                    hits
                };
                let glsl_type = opaque_type(&d.ty).ok_or_else(|| {
                    format!("a sampler uniform of type {}, which WebGL2 lacks", d.ty)
                })?;
                match found.as_slice() {
                    [s] => manifest.combined_samplers.push(CombinedEntry {
                        name: d.name.clone(),
                        glsl_type,
                        texture: t,
                        sampler: *s,
                        shadow: glsl_type.shadow,
                    }),
                    // Read by fetch alone: any sampler does, the point
                    // sampler of bare textures.
                    [] => manifest.textures.push(texture_entry(d, t, res, glsl_type)),
                    several => {
                        return Err(format!(
                            "t{t} is read with the samplers {}, and one sampler uniform per \
                             texture carries one sampler state",
                            several
                                .iter()
                                .map(|s| format!("s{s}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                }
                return Ok(());
            }
        }
    }
    for pat in &profile.textures {
        for &(t, _, _) in &res.textures {
            let name = pat.render(&|h| match h {
                Hole::T => Some(t.to_string()),
                Hole::Texture => tex_name(t),
                _ => None,
            });
            if name.as_deref() == Some(d.name.as_str()) {
                let glsl_type = opaque_type(&d.ty).ok_or_else(|| {
                    format!("a texture uniform of type {}, which WebGL2 lacks", d.ty)
                })?;
                manifest.textures.push(texture_entry(d, t, res, glsl_type));
                return Ok(());
            }
        }
    }
    let cbuffers: Vec<(u32, &crate::dxbc::rdef::ConstantBuffer)> = rdef
        .bindings
        .iter()
        .filter(|b| b.input_type == InputType::CBuffer)
        .filter_map(|b| {
            rdef.constant_buffers
                .iter()
                .find(|c| c.name == b.name && c.kind == CbufferKind::CBuffer)
                .map(|c| (b.bind_point, c))
        })
        .collect();
    let qualified = match &d.block {
        Some(b) => format!("{b}.{}", d.name),
        None => d.name.clone(),
    };
    if d.block.is_some() {
        for pat in &profile.constant_buffers {
            for (slot, cb) in &cbuffers {
                let name = pat.render(&|h| match h {
                    Hole::Slot => Some(slot.to_string()),
                    Hole::Cbuffer => Some(cb.name.clone()),
                    _ => None,
                });
                if name.as_deref() == Some(qualified.as_str()) {
                    manifest.constant_buffers.push(ConstantBufferEntry {
                        slot: *slot,
                        block: d.block.clone().unwrap_or_default(),
                        instance: String::new(),
                        vec4_count: d.array.unwrap_or(1),
                        binding: None,
                        reflected_name: Some(cb.name.clone()),
                    });
                    return Ok(());
                }
            }
        }
    }
    for pat in &profile.constants {
        for (slot, cb) in &cbuffers {
            for v in &cb.variables {
                let name = pat.render(&|h| match h {
                    Hole::Slot => Some(slot.to_string()),
                    Hole::Cbuffer => Some(cb.name.clone()),
                    Hole::Name => Some(v.name.clone()),
                    _ => None,
                });
                if name.as_deref() == Some(qualified.as_str()) {
                    if opaque_type(&d.ty).is_some() {
                        return Err(format!("a sampler named as the constant {}", v.name));
                    }
                    constants.push(NamedConstant {
                        name: d.name.clone(),
                        block: d.block.clone(),
                        slot: *slot,
                        offset: v.offset,
                        size: v.size,
                    });
                    return Ok(());
                }
            }
        }
    }
    Err(
        "no rule of the profile names it (not a runtime value, sampler, texture or RDEF constant)"
            .into(),
    )
}

fn texture_entry(d: &Decl, t: u32, res: &Resources, glsl_type: OpaqueType) -> TextureEntry {
    let (dim, ret) = res
        .textures
        .iter()
        .find(|x| x.0 == t)
        .map(|x| (x.1, x.2))
        .unwrap_or((ResourceDimension::Texture2D, ReturnType::Float));
    TextureEntry {
        slot: t,
        dimension: Dim::from_d3d(dim),
        return_type: ret,
        glsl_name: d.name.clone(),
        glsl_type,
        binding: None,
        reflected_name: None,
        compared: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shader(text: &str) -> Shader {
        crate::dxbc::asm::test_shader(text)
    }

    const PS: &str = "ps_5_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s3, mode_default
dcl_resource_texture2d (float,float,float,float) t1
dcl_input_ps linear v1.zw
dcl_output o0.xyzw
.semantic v1 TEXCOORD 2
sample o0.xyzw, v1.zwzz, t1.xyzw, s3
add o0.x, o0.x, cb0[1].y
ret
";

    fn hlslcc() -> Profile {
        Profile::shipped("hlslcc").unwrap()
    }

    /// HLSLcc's names resolve to the case's registers: the varying to its
    /// signature element (components and all), the texture's one sampler
    /// uniform to t1 read with s3, the constant to cb0's bytes, the
    /// output to render target 0.
    #[test]
    fn hlslcc_names_resolve_to_registers() {
        let text = "#version 300 es
layout(std140) uniform PGlobals { vec4 cb0[2]; };
uniform mediump sampler2D t1;
in highp vec2 vs_TEXCOORD2;
layout(location = 0) out highp vec4 SV_Target0;
void main() { SV_Target0 = texture(t1, vs_TEXCOORD2) + cb0[1].yyyy; }
";
        let b = bind("hlslcc", text, &shader(PS), &hlslcc()).unwrap();
        let m = &b.manifest;
        let i = &m.inputs[0];
        assert_eq!(
            (i.register, i.mask.as_str(), i.glsl_name.as_str()),
            (1, "zw", "vs_TEXCOORD2")
        );
        let c = &m.combined_samplers[0];
        assert_eq!(
            (c.name.as_str(), c.texture, c.sampler, c.shadow),
            ("t1", 1, 3, false)
        );
        assert_eq!(
            b.constants,
            [NamedConstant {
                name: "cb0".into(),
                block: Some("PGlobals".into()),
                slot: 0,
                offset: 0,
                size: 32,
            }]
        );
        assert_eq!((m.outputs[0].location, m.outputs[0].register), (Some(0), 0));
        assert!(!b.has_y_flip());
    }

    /// What no rule names is refused by name, as is a varying with no
    /// signature element and a texture whose one uniform would need two
    /// sampler states.
    #[test]
    fn unbindable_names_are_refused_by_name() {
        let cases = [
            ("uniform vec4 mystery;", "uniform `mystery` (line 1)"),
            (
                "in vec4 vs_COLOR0;",
                "input `vs_COLOR0` (line 1): no signature element matches",
            ),
            (
                "in vec4 vs_TEXCOORD2;",
                "declared vec4 but TEXCOORD2 has only the components zw",
            ),
            ("layout(location = 3) out vec4 x;", "render target 3"),
            ("uniform sampler1D t1;", "sampler1D"),
        ];
        for (text, want) in cases {
            let e = bind("hlslcc", text, &shader(PS), &hlslcc()).unwrap_err();
            assert!(matches!(e, TranslatorError::Bind { .. }), "{e:?}");
            let s = e.to_string();
            assert!(s.starts_with("hlslcc: cannot bind pixel shader"), "{s}");
            assert!(s.contains(want), "{text}: {s}");
        }
        let two = shader(
            "ps_5_0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_output o0.xyzw
dcl_temps 1
sample r0.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, s0
sample o0.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, s1
ret
",
        );
        let e = bind("hlslcc", "uniform sampler2D t0;", &two, &hlslcc())
            .unwrap_err()
            .to_string();
        assert!(e.contains("t0 is read with the samplers s0, s1"), "{e}");
    }

    /// dxbc-dbg's own text bound by its shipped profile gives the
    /// emitter's own manifest back: the same combined samplers, bare
    /// textures, constant buffers and runtime values by role.
    #[test]
    fn the_self_profile_reproduces_the_emitters_manifest() {
        let s = shader(
            "ps_5_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2d (float,float,float,float) t2
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
.semantic v1 TEXCOORD 0
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
sample_c r0.y, v1.xyxx, t2.xxxx, s1, cb0[1].x
resinfo_uint r0.zw, l(0), t0.zwxy
add o0.xyzw, r0.xyzw, cb0[0].xyzw
ret
",
        );
        let t = crate::glsl::translate(&s, &crate::glsl::Options::new(Dialect::Es300)).unwrap();
        let p = Profile::shipped("dxbc-dbg").unwrap();
        let b = bind("self", &t.source, &s, &p).unwrap();
        let key_c = |m: &Manifest| {
            let mut v: Vec<_> = m
                .combined_samplers
                .iter()
                .map(|c| (c.name.clone(), c.texture, c.sampler, c.shadow))
                .collect();
            v.sort();
            v
        };
        assert_eq!(key_c(&b.manifest), key_c(&t.manifest));
        let key_t = |m: &Manifest| {
            let mut v: Vec<_> = m
                .textures
                .iter()
                .map(|t| (t.glsl_name.clone(), t.slot))
                .collect();
            v.sort();
            v
        };
        // The bare shadow uniform of a compared texture, which the
        // emitter leaves out of its manifest, is bound to its texture too.
        let mut want = key_t(&t.manifest);
        want.push(("hlslcc_zcmpt2".to_string(), 2));
        want.sort();
        assert_eq!(key_t(&b.manifest), want);
        let key_u = |m: &Manifest| {
            let mut v: Vec<_> = m
                .uniforms
                .iter()
                .map(|u| (u.name.clone(), u.block.clone(), format!("{:?}", u.role)))
                .collect();
            v.sort();
            v
        };
        assert_eq!(key_u(&b.manifest), key_u(&t.manifest));
        let cb = &b.manifest.constant_buffers[0];
        assert_eq!(
            (cb.slot, cb.block.as_str(), cb.vec4_count),
            (0, "ConstantBuffer0", 2)
        );
        assert!(b.constants.is_empty());
    }
}
