//! The bind group, driven by the translations' manifests: constant buffers,
//! textures (and the plain views of compared ones), samplers (comparison
//! samplers for `samplerShadow`, the fetch sampler), and the std140
//! blocks the emulation helpers read (`hlslcc_TextureLevels`,
//! `hlslcc_SamplerState`, the bound classes in `hlslcc_Interfaces`, and
//! typed buffer views' formats and sizes in `hlslcc_BufferViews`).

use std::collections::BTreeMap;

use crate::glsl::names::{
    BUFFER_VIEW_BINDING, INTERFACE_BINDING, MIP_COUNT_BINDING, SAMPLER_STATE_BINDING,
};
use crate::glsl::{Manifest, SamplerKind, TextureShape, Ty};
use crate::harness::case::Case;
use crate::harness::runtime::{self, HardwareAddress};
use crate::vm::texture::{ComparisonFunc, Filter, Sampler, Texture};

use super::textures::{self, Dummy};
use super::{GpuError, Renderer};

pub(super) enum Slot {
    Buffer(wgpu::Buffer),
    View(wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

pub(super) struct Bindings {
    pub layout: wgpu::BindGroupLayout,
    pub group: wgpu::BindGroup,
    /// The UAVs bound, to read back after the draw.
    pub uavs: Vec<super::storage::Uav>,
    /// The register capture's buffer, when the pixel shader records.
    pub capture: Option<wgpu::Buffer>,
    /// Every binding number in the layout, ascending: where wgpu's Vulkan
    /// backend puts each (see `passthrough`).
    pub numbers: Vec<u32>,
}

/// D3D's comparison function as wgpu spells it (samplers and the depth test).
pub(super) fn wgpu_compare(f: ComparisonFunc) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as C;
    match f {
        ComparisonFunc::Never => C::Never,
        ComparisonFunc::Less => C::Less,
        ComparisonFunc::Equal => C::Equal,
        ComparisonFunc::LessEqual => C::LessEqual,
        ComparisonFunc::Greater => C::Greater,
        ComparisonFunc::NotEqual => C::NotEqual,
        ComparisonFunc::GreaterEqual => C::GreaterEqual,
        ComparisonFunc::Always => C::Always,
    }
}

/// The runtime contract's hardware sampler as a wgpu sampler: border,
/// mirror_once and MipLODBias are the shader's business (the translation
/// emulates them from `hlslcc_SamplerState`), so every D3D sampler state
/// can be drawn.
fn sampler_desc(s: &Sampler, comparison: bool) -> wgpu::SamplerDescriptor<'static> {
    let h = runtime::hardware_sampler(s, comparison);
    let address = |m: HardwareAddress| match m {
        HardwareAddress::Repeat => wgpu::AddressMode::Repeat,
        HardwareAddress::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
        HardwareAddress::ClampToEdge => wgpu::AddressMode::ClampToEdge,
    };
    let filter = |f: Filter| match f {
        Filter::Point => wgpu::FilterMode::Nearest,
        Filter::Linear => wgpu::FilterMode::Linear,
    };
    wgpu::SamplerDescriptor {
        label: None,
        address_mode_u: address(h.address[0]),
        address_mode_v: address(h.address[1]),
        address_mode_w: address(h.address[2]),
        mag_filter: filter(h.mag_filter),
        min_filter: filter(h.min_filter),
        mipmap_filter: match h.mip_filter {
            Filter::Point => wgpu::MipmapFilterMode::Nearest,
            Filter::Linear => wgpu::MipmapFilterMode::Linear,
        },
        lod_min_clamp: h.min_lod,
        lod_max_clamp: h.max_lod,
        compare: h.compare.map(wgpu_compare),
        // wgpu requires every filter linear for anisotropy > 1, which the
        // anisotropic filter sets.
        anisotropy_clamp: h.max_anisotropy.clamp(1, 16) as u16,
        border_color: None,
    }
}

/// The view a texture object of this shape reads (the declared GLSL shape,
/// not D3D's dimension: a 1D texture is declared, and uploaded, as 2D).
fn view_dimension(shape: TextureShape) -> wgpu::TextureViewDimension {
    match shape {
        TextureShape::D2 => wgpu::TextureViewDimension::D2,
        TextureShape::D2Array => wgpu::TextureViewDimension::D2Array,
        TextureShape::D3 => wgpu::TextureViewDimension::D3,
        TextureShape::Cube => wgpu::TextureViewDimension::Cube,
        // Every layer, six per cube (the upload keeps D3D's face order).
        TextureShape::CubeArray => wgpu::TextureViewDimension::CubeArray,
        TextureShape::D2MS => wgpu::TextureViewDimension::D2,
        TextureShape::D2MSArray => wgpu::TextureViewDimension::D2Array,
    }
}

/// Writes `v` (16 bytes) at `offset` in a block, growing it as needed.
fn put(block: &mut Vec<u8>, offset: u32, v: [u32; 4]) {
    let at = offset as usize;
    if block.len() < at + 16 {
        block.resize(at + 16, 0);
    }
    for (k, lane) in v.iter().enumerate() {
        block[at + 4 * k..at + 4 * k + 4].copy_from_slice(&lane.to_le_bytes());
    }
}

/// `hlslcc_TextureLevels`, `hlslcc_SamplerState`, `hlslcc_Interfaces` and
/// `hlslcc_BufferViews`, std140, filled as docs/glsl-textures.md and docs/glsl.md specify
/// (values from `runtime`).
fn blocks(case: &Case, manifests: &[&Manifest]) -> BTreeMap<u32, Vec<u8>> {
    let mut out: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    for m in manifests {
        for u in &m.uniforms {
            let Some(binding) = u.binding else { continue };
            let block = out.entry(binding).or_default();
            for (i, v) in runtime::block_rows(case, u)
                .into_iter()
                .flatten()
                .enumerate()
            {
                put(block, u.offset + 16 * i as u32, v);
            }
        }
    }
    out
}

fn layout_entry(
    binding: u32,
    ty: wgpu::BindingType,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty,
        count: None,
    }
}

/// Builds the layout and the group for every binding the manifests list.
pub(super) fn build(
    r: &Renderer,
    case: &Case,
    manifests: &[&Manifest],
) -> Result<Bindings, GpuError> {
    let fail = |m: String| GpuError::Other(format!("{}: {m}", case.path.display()));
    if let Some(why) = runtime::refused(case, manifests) {
        return Err(fail(why));
    }
    let device = &r.device;
    let features = device.features();
    // Each entry's stages: every stage for the blocks and textures; for
    // storage, only the stages that declare it (a writable storage buffer
    // in a vertex stage needs a feature of its own).
    let mut entries: BTreeMap<u32, super::storage::Entry> = BTreeMap::new();
    let all = wgpu::ShaderStages::VERTEX_FRAGMENT;
    // Keyed by slot and whether the slot is compared: a depth texture read
    // without comparison goes up as a colour texture (`textures::upload`).
    let mut uploaded: BTreeMap<(u32, bool), wgpu::Texture> = BTreeMap::new();

    for (binding, bytes) in blocks(case, manifests) {
        if [
            MIP_COUNT_BINDING,
            SAMPLER_STATE_BINDING,
            INTERFACE_BINDING,
            BUFFER_VIEW_BINDING,
        ]
        .contains(&binding)
        {
            let mut bytes = bytes;
            bytes.resize(bytes.len().max(16).next_multiple_of(16), 0);
            entries.insert(binding, with(uniform_entry(r, &bytes), all));
        }
    }
    for m in manifests {
        for cb in &m.constant_buffers {
            let Some(binding) = cb.binding else { continue };
            if entries.contains_key(&binding) {
                continue;
            }
            let rows = runtime::constant_buffer_rows(case, cb.slot, cb.vec4_count);
            let mut bytes = vec![0u8; rows.len() * 16];
            for (i, row) in rows.iter().enumerate() {
                put(&mut bytes, i as u32 * 16, *row);
            }
            entries.insert(binding, with(uniform_entry(r, &bytes), all));
        }
        for t in &m.textures {
            let Some(binding) = t.binding else { continue };
            if entries.contains_key(&binding) {
                continue;
            }
            let compared = t.compared;
            let dim = view_dimension(t.glsl_type.shape);
            let multisampled = matches!(
                t.glsl_type.shape,
                TextureShape::D2MS | TextureShape::D2MSArray
            );
            if t.glsl_type.shape == TextureShape::D2MSArray {
                return Err(fail(format!(
                    "t{} is a Texture2DMSArray: wgpu binds multisampled textures only \
                     through 2D views, so a texture2DMSArray cannot be bound",
                    t.slot
                )));
            }
            let case_tex: Option<&Texture> = case
                .textures
                .iter()
                .find(|(s, _)| *s == t.slot)
                .map(|(_, tex)| tex);
            let (texture, sample_type) = match case_tex {
                Some(tex) => {
                    if compared && !tex.format().is_depth() {
                        return Err(fail(format!(
                            "t{} is compared (sample_c/gather4_c through a comparison \
                             sampler) but has the colour format {}; wgpu compares only \
                             depth formats",
                            t.slot,
                            tex.format().name()
                        )));
                    }
                    let gpu = match uploaded.get(&(t.slot, compared)) {
                        Some(g) => g.clone(),
                        None => {
                            let g = textures::upload(r, tex, compared)
                                .map_err(|e| fail(format!("t{}: {e}", t.slot)))?;
                            uploaded.insert((t.slot, compared), g.clone());
                            g
                        }
                    };
                    let st = if compared {
                        wgpu::TextureSampleType::Depth
                    } else if gpu.format().is_depth_stencil_format() {
                        // A multisampled depth texture keeps its format.
                        wgpu::TextureSampleType::Float { filterable: false }
                    } else {
                        match gpu.format().sample_type(None, Some(features)) {
                            // Multisampled float textures bind unfilterable.
                            Some(wgpu::TextureSampleType::Float { .. }) | None if multisampled => {
                                wgpu::TextureSampleType::Float { filterable: false }
                            }
                            st => {
                                st.unwrap_or(wgpu::TextureSampleType::Float { filterable: false })
                            }
                        }
                    };
                    (gpu, st)
                }
                None => {
                    let (kind, st) = match (compared, t.glsl_type.ty) {
                        (true, _) => (Dummy::Depth, wgpu::TextureSampleType::Depth),
                        (false, Ty::Int) => (Dummy::Sint, wgpu::TextureSampleType::Sint),
                        (false, Ty::Uint) => (Dummy::Uint, wgpu::TextureSampleType::Uint),
                        (false, Ty::Float) => (
                            Dummy::Float,
                            wgpu::TextureSampleType::Float {
                                filterable: !multisampled,
                            },
                        ),
                    };
                    (textures::dummy(r, kind, dim, multisampled)?, st)
                }
            };
            // The case's view (mip and layer range) over the whole
            // resource; the format is already the view's (see
            // `textures::upload`).
            let window = case_tex.and_then(Texture::view);
            let view = texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some(&t.glsl_name),
                dimension: Some(dim),
                base_mip_level: window.map_or(0, |v| v.first_mip),
                mip_level_count: window.map(|v| v.mip_count),
                base_array_layer: window.map_or(0, |v| v.first_layer),
                array_layer_count: match dim {
                    wgpu::TextureViewDimension::D2 => Some(1),
                    wgpu::TextureViewDimension::Cube => Some(6),
                    _ => window.map(|v| v.layer_count),
                },
                ..Default::default()
            });
            entries.insert(
                binding,
                (
                    wgpu::BindingType::Texture {
                        sample_type,
                        view_dimension: dim,
                        multisampled,
                    },
                    Slot::View(view),
                    all,
                ),
            );
        }
        for s in &m.samplers {
            let Some(binding) = s.binding else { continue };
            if entries.contains_key(&binding) {
                continue;
            }
            let (ty, desc) = if s.mode == SamplerKind::Fetch {
                (
                    wgpu::SamplerBindingType::NonFiltering,
                    wgpu::SamplerDescriptor::default(),
                )
            } else {
                let state = runtime::sampler(case, s.slot);
                let comparison = s.mode == SamplerKind::Comparison;
                let desc = sampler_desc(&state, comparison);
                let linear = desc.mag_filter == wgpu::FilterMode::Linear
                    || desc.min_filter == wgpu::FilterMode::Linear
                    || desc.mipmap_filter == wgpu::MipmapFilterMode::Linear;
                let ty = if comparison {
                    wgpu::SamplerBindingType::Comparison
                } else if linear {
                    wgpu::SamplerBindingType::Filtering
                } else {
                    wgpu::SamplerBindingType::NonFiltering
                };
                (ty, desc)
            };
            entries.insert(
                binding,
                (
                    wgpu::BindingType::Sampler(ty),
                    Slot::Sampler(device.create_sampler(&desc)),
                    all,
                ),
            );
        }
    }

    let stages = super::storage::with_stages(manifests);
    let uavs = super::storage::bind(r, case, &stages, &mut entries).map_err(fail)?;
    let capture = super::capture::bind(r, manifests, &mut entries).map_err(fail)?;
    let layout_entries: Vec<_> = entries
        .iter()
        .map(|(b, (ty, _, stages))| layout_entry(*b, *ty, *stages))
        .collect();
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("case bindings"),
        entries: &layout_entries,
    });
    let group_entries: Vec<_> = entries
        .iter()
        .map(|(b, (_, slot, _))| wgpu::BindGroupEntry {
            binding: *b,
            resource: match slot {
                Slot::Buffer(b) => b.as_entire_binding(),
                Slot::View(v) => wgpu::BindingResource::TextureView(v),
                Slot::Sampler(s) => wgpu::BindingResource::Sampler(s),
            },
        })
        .collect();
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("case bindings"),
        layout: &layout,
        entries: &group_entries,
    });
    Ok(Bindings {
        layout,
        group,
        uavs,
        capture,
        numbers: entries.keys().copied().collect(),
    })
}

fn with(
    (ty, slot): (wgpu::BindingType, Slot),
    stages: wgpu::ShaderStages,
) -> super::storage::Entry {
    (ty, slot, stages)
}

/// A uniform block holding `bytes`: its layout type and its buffer.
fn uniform_entry(r: &Renderer, bytes: &[u8]) -> (wgpu::BindingType, Slot) {
    let ty = wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    (ty, Slot::Buffer(uniform_buffer(r, bytes)))
}

fn uniform_buffer(r: &Renderer, bytes: &[u8]) -> wgpu::Buffer {
    let buffer = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("uniform block"),
        size: bytes.len().max(16) as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    r.queue.write_buffer(&buffer, 0, bytes);
    buffer
}
