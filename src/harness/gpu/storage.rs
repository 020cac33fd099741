//! Buffer views and UAVs on the Vulkan path, bound from the manifest's
//! storage entries: raw/structured SRVs as read-only storage buffers,
//! typed buffer SRVs as read-only storage buffers of their elements' bytes
//! in the view's format (the shader decodes them; the view's format and
//! element count go in `hlslcc_BufferViews`, filled with the other
//! blocks in `bindings`), UAVs
//! as storage buffers (or, typed 2D ones, `R32` storage textures), each
//! used UAV counter as a storage buffer of one word. After the draw every
//! UAV (words and counter) is copied out and read back, so the suite can
//! diff it against the emulator's.

use std::collections::BTreeMap;

use crate::glsl::{Manifest, StorageLayout};
use crate::harness::case::Case;
use crate::vm::memory::{Buffer, Layout};
use crate::vm::texture::{Format, Texture};

use super::bindings::Slot;
use super::{GpuError, Renderer};

/// A bound UAV, kept to read back after the draw.
pub(super) struct Uav {
    slot: u32,
    /// The case's UAV as it started (layout and counter for read-back).
    start: Buffer,
    resource: Resource,
    counter: Option<wgpu::Buffer>,
}

enum Resource {
    Buffer(wgpu::Buffer),
    Image {
        texture: wgpu::Texture,
        width: u32,
        height: u32,
    },
}

/// A UAV copied into mappable buffers.
pub(super) struct Staged {
    slot: u32,
    start: Buffer,
    words: wgpu::Buffer,
    /// Images: width, height and the padded bytes per row of the copy.
    rows: Option<(u32, u32, u32)>,
    counter: Option<wgpu::Buffer>,
}

/// A binding entry: its type, resource and stages.
pub(super) type Entry = (wgpu::BindingType, Slot, wgpu::ShaderStages);

fn storage_buffer(r: &Renderer, label: &str, words: &[u32]) -> wgpu::Buffer {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let b = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.len() as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    r.queue.write_buffer(&b, 0, &bytes);
    b
}

/// A typed buffer's elements as the words of its storage buffer: the
/// format's memory layout, as D3D holds the buffer, zero-padded to whole
/// words (an element may be narrower than a word in other formats; the
/// ones a case may give are whole words or 4-byte packs). Never empty: a
/// case's buffer has at least one element.
fn element_words(tex: &Texture) -> Vec<u32> {
    let mut bytes = tex.to_bytes();
    bytes.resize(bytes.len().next_multiple_of(4).max(4), 0);
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn texture_format(f: Format) -> Option<wgpu::TextureFormat> {
    Some(match f {
        Format::R32Uint => wgpu::TextureFormat::R32Uint,
        Format::R32Sint => wgpu::TextureFormat::R32Sint,
        Format::R32Float => wgpu::TextureFormat::R32Float,
        _ => return None,
    })
}

/// Each manifest with the wgpu stage it is compiled for.
pub(super) fn with_stages<'a>(
    manifests: &[&'a Manifest],
) -> Vec<(&'a Manifest, wgpu::ShaderStages)> {
    manifests
        .iter()
        .map(|m| {
            let stage = if m.stage == crate::dxbc::ir::ProgramType::Vertex {
                wgpu::ShaderStages::VERTEX
            } else {
                wgpu::ShaderStages::FRAGMENT
            };
            (*m, stage)
        })
        .collect()
}

/// Why the adapter cannot bind the manifests' storage at all, if it
/// cannot: a capability it lacks (`lacks NAME: …`) or a per-stage limit
/// the shader exceeds (`exceeds LIMIT (binds N, the adapter allows M): …`).
/// The text before the first colon names the capability or the limit and
/// the counts, so a generated-case run can count refusals by it. The suite
/// asks this before drawing (`Renderer::refuses`), so such a case is not
/// applicable on this adapter rather than a failed draw; `bind` asks it
/// again for callers that draw directly.
pub(super) fn refusal(
    r: &Renderer,
    manifests: &[(&Manifest, wgpu::ShaderStages)],
) -> Option<String> {
    let downlevel = r.adapter.get_downlevel_capabilities();
    let limits = r.device.limits();
    let adapter = &r.adapter_name;
    for (m, stage) in manifests {
        let shader = if *stage == wgpu::ShaderStages::VERTEX {
            "vertex shader"
        } else {
            "pixel shader"
        };
        let writes = m.storage_buffers.iter().any(|b| b.uav)
            || !m.storage_images.is_empty()
            || !m.counters.is_empty();
        if writes
            && *stage == wgpu::ShaderStages::FRAGMENT
            && !downlevel
                .flags
                .contains(wgpu::DownlevelFlags::FRAGMENT_WRITABLE_STORAGE)
        {
            return Some(format!(
                "lacks FRAGMENT_WRITABLE_STORAGE: the pixel shader writes UAVs, which need \
                 writable storage in fragment shaders; the adapter {adapter} has none"
            ));
        }
        if writes
            && *stage == wgpu::ShaderStages::VERTEX
            && !r
                .device
                .features()
                .contains(wgpu::Features::VERTEX_WRITABLE_STORAGE)
        {
            return Some(format!(
                "lacks VERTEX_WRITABLE_STORAGE: the vertex shader writes UAVs; the adapter \
                 {adapter} was not opened with it"
            ));
        }
        let buffers = (m.storage_buffers.len() + m.counters.len() + m.typed_buffers.len()) as u32;
        let most = limits.max_storage_buffers_per_shader_stage;
        if buffers > most {
            return Some(format!(
                "exceeds max_storage_buffers_per_shader_stage (binds {buffers}, the adapter \
                 allows {most}): the {shader} binds {buffers} storage buffers (buffer views, \
                 UAVs and counters); the adapter {adapter} allows {most} per stage"
            ));
        }
        let images = m.storage_images.len() as u32;
        let most = limits.max_storage_textures_per_shader_stage;
        if images > most {
            return Some(format!(
                "exceeds max_storage_textures_per_shader_stage (binds {images}, the adapter \
                 allows {most}): the {shader} binds {images} storage images (typed UAVs); \
                 the adapter {adapter} allows {most} per stage"
            ));
        }
    }
    None
}

/// Adds every storage binding the manifests list to `entries` and returns
/// the UAVs to read back. `stages[i]` is the stage of `manifests[i]`.
pub(super) fn bind(
    r: &Renderer,
    case: &Case,
    manifests: &[(&Manifest, wgpu::ShaderStages)],
    entries: &mut BTreeMap<u32, Entry>,
) -> Result<Vec<Uav>, String> {
    let mut uavs: Vec<Uav> = Vec::new();
    if !manifests.iter().any(|(m, _)| m.has_storage()) {
        return Ok(uavs);
    }
    if let Some(refusal) = refusal(r, manifests) {
        return Err(refusal);
    }
    let source =
        |uav: bool, slot: u32| -> Result<&Buffer, String> {
            let list = if uav { &case.uavs } else { &case.buffers };
            list.iter().find(|(s, _)| *s == slot).map(|(_, b)| b).ok_or_else(|| {
            let (reg, section) = if uav { ("u", "uav") } else { ("t", "buffer") };
            format!(
                "{reg}{slot} is declared but the case binds no [{section} {slot}]: the Vulkan \
                 path has no empty storage buffer to bind in its place"
            )
        })
        };
    for (m, stage) in manifests {
        for b in &m.storage_buffers {
            let Some(binding) = b.binding else { continue };
            if let Some(e) = entries.get_mut(&binding) {
                e.2 |= *stage;
                continue;
            }
            let start = source(b.uav, b.slot)?;
            if start.words.is_empty() {
                return Err(format!(
                    "{} has no words: wgpu cannot bind an empty storage buffer",
                    b.register
                ));
            }
            // The manifest's layout must be the case's (the case parser
            // checks it against the declaration too).
            let agrees = match (b.layout, start.layout) {
                (StorageLayout::Raw, Layout::Raw) => true,
                (StorageLayout::Structured { stride: a }, Layout::Structured { stride: c }) => {
                    a == c
                }
                (StorageLayout::Typed { .. }, Layout::Typed { row: None, .. }) => true,
                _ => false,
            };
            if !agrees {
                return Err(format!(
                    "{} is declared {:?} but the case gives {:?}",
                    b.register, b.layout, start.layout
                ));
            }
            let buffer = storage_buffer(r, &b.glsl_name, &start.words);
            if b.uav {
                uavs.push(Uav {
                    slot: b.slot,
                    start: start.clone(),
                    resource: Resource::Buffer(buffer.clone()),
                    counter: None,
                });
            }
            entries.insert(
                binding,
                (
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage {
                            read_only: b.read_only,
                        },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    Slot::Buffer(buffer),
                    *stage,
                ),
            );
        }
        for t in &m.typed_buffers {
            let Some(binding) = t.binding else { continue };
            if let Some(e) = entries.get_mut(&binding) {
                e.2 |= *stage;
                continue;
            }
            let Some((_, tex)) = case.textures.iter().find(|(s, _)| *s == t.slot) else {
                return Err(format!(
                    "t{} is a typed buffer but the case binds no [buffer {}] with `format F`: \
                     the Vulkan path has no empty storage buffer to bind in its place",
                    t.slot, t.slot
                ));
            };
            let buffer = storage_buffer(r, &t.glsl_name, &element_words(tex));
            entries.insert(
                binding,
                (
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    Slot::Buffer(buffer),
                    *stage,
                ),
            );
        }
        for i in &m.storage_images {
            let Some(binding) = i.binding else { continue };
            if let Some(e) = entries.get_mut(&binding) {
                e.2 |= *stage;
                continue;
            }
            let start = source(true, i.slot)?;
            let (format, width) = match start.layout {
                Layout::Typed {
                    format,
                    row: Some(w),
                } => (format, w),
                _ => {
                    return Err(format!(
                        "u{} is a typed 2D UAV but the case's [uav {}] has no `size W H`",
                        i.slot, i.slot
                    ));
                }
            };
            let Some(tf) = texture_format(format) else {
                return Err(format!(
                    "u{}: {} is not an R32 format",
                    i.slot,
                    format.name()
                ));
            };
            let height = (start.words.len() as u32) / width.max(1);
            let texture = r.device.create_texture(&wgpu::TextureDescriptor {
                label: Some(&i.glsl_name),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: tf,
                usage: wgpu::TextureUsages::STORAGE_BINDING
                    | wgpu::TextureUsages::COPY_DST
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
            let bytes: Vec<u8> = start.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            r.queue.write_texture(
                texture.as_image_copy(),
                &bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * width),
                    rows_per_image: Some(height),
                },
                wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
            );
            let view = texture.create_view(&Default::default());
            uavs.push(Uav {
                slot: i.slot,
                start: start.clone(),
                resource: Resource::Image {
                    texture,
                    width,
                    height,
                },
                counter: None,
            });
            entries.insert(
                binding,
                (
                    wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::ReadWrite,
                        format: tf,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    Slot::View(view),
                    *stage,
                ),
            );
        }
        for c in &m.counters {
            let Some(binding) = c.binding else { continue };
            if let Some(e) = entries.get_mut(&binding) {
                e.2 |= *stage;
                continue;
            }
            let start = source(true, c.slot)?;
            let buffer = storage_buffer(r, &c.glsl_name, &[start.counter]);
            if let Some(u) = uavs.iter_mut().find(|u| u.slot == c.slot) {
                u.counter = Some(buffer.clone());
            }
            entries.insert(
                binding,
                (
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: false },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    Slot::Buffer(buffer),
                    *stage,
                ),
            );
        }
    }
    uavs.sort_by_key(|u| u.slot);
    Ok(uavs)
}

fn staging(r: &Renderer, size: u64) -> wgpu::Buffer {
    r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("uav read-back"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Copies every UAV (and counter) into mappable buffers, after the pass.
pub(super) fn copy_out(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    uavs: Vec<Uav>,
) -> Vec<Staged> {
    uavs.into_iter()
        .map(|u| {
            let (words, rows) = match &u.resource {
                Resource::Buffer(b) => {
                    let s = staging(r, b.size());
                    encoder.copy_buffer_to_buffer(b, 0, &s, 0, b.size());
                    (s, None)
                }
                Resource::Image {
                    texture,
                    width,
                    height,
                } => {
                    // Texture-to-buffer copies take rows of 256-byte multiples.
                    let row = (4 * width).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
                    let s = staging(r, u64::from(row) * u64::from(*height));
                    encoder.copy_texture_to_buffer(
                        texture.as_image_copy(),
                        wgpu::TexelCopyBufferInfo {
                            buffer: &s,
                            layout: wgpu::TexelCopyBufferLayout {
                                offset: 0,
                                bytes_per_row: Some(row),
                                rows_per_image: Some(*height),
                            },
                        },
                        wgpu::Extent3d {
                            width: *width,
                            height: *height,
                            depth_or_array_layers: 1,
                        },
                    );
                    (s, Some((*width, *height, row)))
                }
            };
            let counter = u.counter.as_ref().map(|c| {
                let s = staging(r, 4);
                encoder.copy_buffer_to_buffer(c, 0, &s, 0, 4);
                s
            });
            Staged {
                slot: u.slot,
                start: u.start,
                words,
                rows,
                counter,
            }
        })
        .collect()
}

/// Maps the copies (after the submission) and gives each UAV as the
/// emulator's type: the case's layout with the words and counter read
/// back (a counter the shader does not use keeps its starting value).
pub(super) fn read_back(
    r: &Renderer,
    staged: &[Staged],
    timeout: std::time::Duration,
) -> Result<Vec<(u32, Buffer)>, GpuError> {
    if staged.is_empty() {
        return Ok(Vec::new());
    }
    for s in staged {
        s.words.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        if let Some(c) = &s.counter {
            c.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
    }
    super::wait_for_gpu(r, timeout)?;
    let words_of = |b: &wgpu::Buffer, what: &str| -> Result<Vec<u32>, GpuError> {
        let data = b
            .slice(..)
            .get_mapped_range()
            .map_err(|e| GpuError::Other(format!("reading back {what}: {e}")))?;
        Ok(data
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    let mut out = Vec::new();
    for s in staged {
        let what = format!("u{}", s.slot);
        let all = words_of(&s.words, &what)?;
        let words = match s.rows {
            None => all,
            Some((w, h, row)) => {
                let per_row = (row / 4) as usize;
                (0..h as usize)
                    .flat_map(|y| all[y * per_row..y * per_row + w as usize].to_vec())
                    .collect()
            }
        };
        let counter = match &s.counter {
            Some(c) => words_of(c, &format!("u{}'s counter", s.slot))?
                .first()
                .copied()
                .unwrap_or(0),
            None => s.start.counter,
        };
        let mut b = s.start.clone();
        b.words = words;
        b.counter = counter;
        out.push((s.slot, b));
    }
    Ok(out)
}
