//! The register capture's storage buffer on the Vulkan path: bound zeroed
//! where the pixel shader's manifest asks for it (`glsl::capture`),
//! copied out after the draw and read back as words for
//! `harness::bisect`. Kept apart from the UAVs (`storage`): it belongs to
//! no D3D register and is never compared as one.

use std::collections::BTreeMap;

use crate::glsl::Manifest;

use super::Renderer;
use super::bindings::Slot;
use super::storage::Entry;

/// Adds the capture buffer's binding when a manifest declares one.
pub(super) fn bind(
    r: &Renderer,
    manifests: &[&Manifest],
    entries: &mut BTreeMap<u32, Entry>,
) -> Result<Option<wgpu::Buffer>, String> {
    let Some(c) = manifests.iter().find_map(|m| m.capture.as_ref()) else {
        return Ok(None);
    };
    if !r
        .adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::FRAGMENT_WRITABLE_STORAGE)
    {
        return Err(format!(
            "the register capture writes a storage buffer from the pixel shader, which needs \
             wgpu's FRAGMENT_WRITABLE_STORAGE; the adapter {} lacks it",
            r.adapter_name
        ));
    }
    // Zeroed at creation: the count starts at 0 and the overflow flag clear.
    let buffer = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(&c.glsl_name),
        size: c.bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    entries.insert(
        c.binding,
        (
            wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            Slot::Buffer(buffer.clone()),
            wgpu::ShaderStages::FRAGMENT,
        ),
    );
    Ok(Some(buffer))
}

/// Copies the buffer into a mappable one, after the pass.
pub(super) fn copy_out(
    r: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    buffer: &wgpu::Buffer,
) -> wgpu::Buffer {
    let staging = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("capture read-back"),
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    staging
}

/// The words of the copy (after the submission): the header and the
/// records the shader wrote, not the unused rest.
pub(super) fn read_back(
    r: &Renderer,
    staging: &wgpu::Buffer,
    timeout: std::time::Duration,
) -> Result<Vec<u32>, super::GpuError> {
    staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    super::wait_for_gpu(r, timeout)?;
    let data = staging
        .slice(..)
        .get_mapped_range()
        .map_err(|e| super::GpuError::Other(format!("reading back the capture: {e}")))?;
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (header, records) = (
        crate::glsl::capture::HEADER_WORDS,
        crate::glsl::capture::RECORD_WORDS,
    );
    let count = words.first().copied().unwrap_or(0) as usize;
    let end = (header + count.saturating_mul(records)).min(words.len());
    Ok(words[..end].to_vec())
}
