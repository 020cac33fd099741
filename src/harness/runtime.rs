//! What an application using the translated GLSL sets, worked out once for
//! every backend: the members of the emulation blocks, the constant-buffer
//! rows, and the hardware sampler state. Both renderers (Vulkan and
//! WebGL2) take their values from here, so each draws through exactly the
//! contract written in docs/glsl.md and docs/glsl-textures.md and nothing
//! of its own.

use crate::glsl::{self, Manifest, TextureShape, Translation, UniformEntry, UniformRole};
use crate::harness::case::{Case, CaseShaders};
use crate::vm::texture::{AddressMode, ComparisonFunc, Filter, NumericKind, Reduction, Sampler};

/// A case's stages translated as an application makes them.
pub struct Stages {
    pub pixel: Translation,
    /// The case's vertex shader; `None` when the backend generates one.
    pub vertex: Option<Translation>,
}

/// Translates the pixel shader and the vertex shader for it (the pixel
/// shader's interpolation qualifiers and, in vk450, both stages numbering
/// varyings in the pixel shader's order; constant buffers both declare at
/// the larger size in both), in `dialect`. Errors
/// name the case file and the stage.
pub fn translate(
    case: &Case,
    shaders: &CaseShaders,
    options: &glsl::Options,
    dialect: glsl::Dialect,
) -> Result<Stages, String> {
    let link = glsl::Link::from_pixel_shader(&shaders.pixel);
    let mut options = options.clone();
    options.dialect = dialect;
    options.varying_locations = (dialect == glsl::Dialect::Vk450).then(|| link.varying_order());
    let refused = |what: &str, e: glsl::Refused| {
        format!(
            "{}: the {what} shader cannot be translated: {e}",
            case.path.display()
        )
    };
    // With a vertex shader, the pixel shader's constant buffers take the
    // sizes both stages need, as the vertex shader's do (glsl::Link).
    let mut ps_options = options.clone();
    ps_options.link = shaders.vertex.as_ref().map(glsl::Link::from_vertex_shader);
    let pixel = glsl::translate(&shaders.pixel, &ps_options).map_err(|e| refused("pixel", e))?;
    let vertex = match &shaders.vertex {
        Some(vs) => {
            options.link = Some(link);
            Some(glsl::translate(vs, &options).map_err(|e| refused("vertex", e))?)
        }
        None => None,
    };
    Ok(Stages { pixel, vertex })
}

/// `D3D11_TEXTURE_ADDRESS_MODE` as the sampler-state block stores it.
pub fn d3d_address(m: AddressMode) -> i32 {
    match m {
        AddressMode::Wrap => 1,
        AddressMode::Mirror => 2,
        AddressMode::Clamp => 3,
        AddressMode::Border => 4,
        AddressMode::MirrorOnce => 5,
    }
}

/// `D3D11_COMPARISON_FUNC` (1 never … 8 always).
pub fn d3d_compare(f: ComparisonFunc) -> i32 {
    ComparisonFunc::ALL
        .iter()
        .position(|x| *x == f)
        .map_or(1, |p| p as i32 + 1)
}

fn filter_code(f: Filter) -> i32 {
    match f {
        Filter::Point => 0,
        Filter::Linear => 1,
    }
}

/// The case's sampler in slot `n`, or D3D11's default state.
pub fn sampler(case: &Case, n: u32) -> Sampler {
    case.samplers
        .iter()
        .find(|(s, _)| *s == n)
        .map(|(_, s)| *s)
        .unwrap_or_default()
}

/// The value of one member of `hlslcc_TextureLevels`,
/// `hlslcc_SamplerState` or `hlslcc_BufferViews`, as 16 bytes of lanes; `None` for a uniform that
/// is not one of theirs.
pub fn block_member(case: &Case, u: &UniformEntry) -> Option<[u32; 4]> {
    let ints = |v: [i32; 4]| v.map(|x| x as u32);
    let floats = |v: [f32; 4]| v.map(f32::to_bits);
    Some(match u.role {
        UniformRole::TextureLevels { texture } => {
            match case.textures.iter().find(|(s, _)| *s == texture) {
                Some((_, tex)) => [
                    tex.mip_levels(),
                    (tex.format().kind() == NumericKind::Unorm) as u32,
                    tex.format().channels() as u32,
                    tex.sample_count(),
                ],
                // Unbound: no levels, so every ld is out of range and reads
                // zeros, alpha included.
                None => [0, 0, 4, 0],
            }
        }
        UniformRole::RasterizerSamples => [case.samples.max(1), 0, 0, 0],
        // The view's DXGI format and element count; an unbound slot has
        // format 0 (UNKNOWN) and no elements, which the shader reads as
        // zeros.
        UniformRole::BufferView { texture } => {
            match case.textures.iter().find(|(s, _)| *s == texture) {
                Some((_, tex)) => [tex.format().dxgi(), tex.desc().width, 0, 0],
                None => [0; 4],
            }
        }
        UniformRole::SamplerMode { sampler: n } => {
            let s = sampler(case, n);
            let a = s.address.map(d3d_address);
            ints([a[0], a[1], a[2], d3d_compare(s.comparison)])
        }
        UniformRole::SamplerBorder { sampler: n } => floats(sampler(case, n).border_color),
        UniformRole::SamplerLod { sampler: n } => {
            let s = sampler(case, n);
            floats([s.mip_lod_bias, s.min_lod, s.max_lod, 0.0])
        }
        UniformRole::SamplerFilter { sampler: n } => {
            let s = sampler(case, n);
            ints([
                filter_code(s.min_filter),
                filter_code(s.mag_filter),
                filter_code(s.mip_filter),
                match s.reduction {
                    Reduction::Standard => 0,
                    Reduction::Minimum => 1,
                    Reduction::Maximum => 2,
                },
            ])
        }
        UniformRole::YFlip | UniformRole::InterfaceTable | UniformRole::InterfaceThis => {
            return None;
        }
    })
}

/// Every row of a member of the emulation blocks, 16 bytes each: one for
/// the plain members ([`block_member`]), one per interface slot for
/// `hlslcc_interfaceTable` (`.x`: the bound table's position in the slot's
/// list) and `hlslcc_this` (the instance data), read from the same
/// [`crate::vm::interfaces::Bindings`] the emulator runs with. `None` for
/// a uniform that is not one of theirs.
pub fn block_rows(case: &Case, u: &UniformEntry) -> Option<Vec<[u32; 4]>> {
    let slots = u.glsl_type.array.unwrap_or(1);
    match u.role {
        UniformRole::InterfaceTable => Some(
            (0..slots)
                .map(|s| [case.interfaces.get(s).table, 0, 0, 0])
                .collect(),
        ),
        UniformRole::InterfaceThis => {
            Some((0..slots).map(|s| case.interfaces.get(s).this).collect())
        }
        _ => block_member(case, u).map(|v| vec![v]),
    }
}

/// Why neither GPU path can draw the case as D3D would, `None` when it
/// can: a min/max-reduction sampler in a shader that samples a cube. The
/// translation computes reduction on its emulated path, which cubes do not
/// have, and no wgpu or WebGL2 sampler reduces; the hardware's weighted
/// filter would be a silent wrong answer.
pub fn refused(case: &Case, manifests: &[&Manifest]) -> Option<String> {
    let cube = manifests
        .iter()
        .flat_map(|m| &m.textures)
        .any(|t| t.glsl_type.shape == TextureShape::Cube);
    let slots = manifests.iter().flat_map(|m| {
        m.samplers
            .iter()
            .map(|s| s.slot)
            .chain(m.combined_samplers.iter().map(|c| c.sampler))
    });
    let reduced = slots
        .into_iter()
        .find(|&n| sampler(case, n).reduction != Reduction::Standard);
    match (cube, reduced) {
        (true, Some(n)) => Some(format!(
            "s{n} has a min/max reduction and the shader samples a cube texture: the \
             translation emulates reduction only off cubes, and no wgpu or WebGL2 \
             sampler reduces"
        )),
        _ => None,
    }
}

/// A constant buffer's rows, zero-padded (or cut) to the `count` rows the
/// shader declares (at least one).
pub fn constant_buffer_rows(case: &Case, slot: u32, count: u32) -> Vec<[u32; 4]> {
    let rows = case
        .constant_buffers
        .iter()
        .find(|(s, _)| *s == slot)
        .map(|(_, r)| r.as_slice())
        .unwrap_or(&[]);
    let count = (count as usize).max(1);
    let mut out: Vec<[u32; 4]> = rows.iter().take(count).copied().collect();
    out.resize(count, [0; 4]);
    out
}

/// An address mode the hardware sampler keeps. Border and mirror_once
/// are emulated by the shader (WebGL2 has neither), which expects
/// clamp-to-edge underneath both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HardwareAddress {
    Repeat,
    MirroredRepeat,
    ClampToEdge,
}

/// The sampler object an application binds for a D3D sampler: address
/// modes, filters, LOD clamps and comparison, but never a LOD bias (the
/// shader adds MipLODBias itself; WebGL2 samplers have none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HardwareSampler {
    pub address: [HardwareAddress; 3],
    pub min_filter: Filter,
    pub mag_filter: Filter,
    pub mip_filter: Filter,
    /// MinLOD/MaxLOD, with NaN read as "no limit" and both held to
    /// [0, 32] (level 0 is selected below 0 either way; 32 is past any
    /// mip chain), so min <= max.
    pub min_lod: f32,
    pub max_lod: f32,
    /// `Some` for a comparison sampler.
    pub compare: Option<ComparisonFunc>,
    /// MaxAnisotropy for the anisotropic filter (1 otherwise).
    pub max_anisotropy: u32,
}

pub fn hardware_sampler(s: &Sampler, comparison: bool) -> HardwareSampler {
    let address = |m: AddressMode| match m {
        AddressMode::Wrap => HardwareAddress::Repeat,
        AddressMode::Mirror => HardwareAddress::MirroredRepeat,
        AddressMode::Clamp | AddressMode::Border | AddressMode::MirrorOnce => {
            HardwareAddress::ClampToEdge
        }
    };
    let min_lod = if s.min_lod.is_nan() {
        0.0
    } else {
        s.min_lod.clamp(0.0, 32.0)
    };
    let max_lod = if s.max_lod.is_nan() {
        32.0
    } else {
        s.max_lod.clamp(min_lod, 32.0)
    };
    HardwareSampler {
        address: s.address.map(address),
        min_filter: s.min_filter,
        mag_filter: s.mag_filter,
        mip_filter: s.mip_filter,
        min_lod,
        max_lod,
        compare: comparison.then_some(s.comparison),
        max_anisotropy: s.max_anisotropy.unwrap_or(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emulated_state_never_reaches_the_hardware_sampler() {
        let s = Sampler {
            address: [
                AddressMode::Border,
                AddressMode::MirrorOnce,
                AddressMode::Mirror,
            ],
            mip_lod_bias: 2.5,
            min_lod: f32::NAN,
            max_lod: -3.0,
            ..Sampler::default()
        };
        let h = hardware_sampler(&s, false);
        assert_eq!(
            h.address,
            [
                HardwareAddress::ClampToEdge,
                HardwareAddress::ClampToEdge,
                HardwareAddress::MirroredRepeat
            ]
        );
        // NaN MinLOD is no limit; a MaxLOD below it is raised to it.
        assert_eq!((h.min_lod, h.max_lod), (0.0, 0.0));
        assert_eq!(h.compare, None);
        assert_eq!(
            hardware_sampler(&s, true).compare,
            Some(ComparisonFunc::Never)
        );
    }

    #[test]
    fn min_max_reduction_beside_a_cube_is_refused() {
        let shader = crate::dxbc::asm::test_shader(
            "ps_5_0\ndcl_sampler s0, mode_default\n\
             dcl_resource_texturecube (float,float,float,float) t0\n\
             dcl_output o0.xyzw\n\
             sample_indexable(texturecube)(float,float,float,float) o0.xyzw, l(1.0, 0.0, 0.0, 0.0), t0.xyzw, s0\n\
             ret\n",
        );
        for dialect in [glsl::Dialect::Es300, glsl::Dialect::Vk450] {
            let options = glsl::Options::new(dialect);
            let t = glsl::translate(&shader, &options).expect("translates");
            let text = "[pixel shader]\nps_5_0\n[sampler 0]\nreduction min\n";
            let mut case = Case::parse(text, std::path::Path::new("t.case")).unwrap();
            let why = refused(&case, &[&t.manifest]).expect("refused");
            assert!(why.contains("s0") && why.contains("cube"), "{why}");
            case.samplers[0].1.reduction = Reduction::Standard;
            assert_eq!(refused(&case, &[&t.manifest]), None);
        }
    }
}
