//! Instance, adapter and device: Vulkan only (lavapipe where there is no
//! GPU), with the optional features the cases use requested when the
//! adapter has them.

use super::GpuError;

/// Features a case may need; each is requested only if the adapter offers
/// it. (Border addressing needs none: the translation emulates it, and the
/// runtime contract binds clamp-to-edge.) 16-bit UNORM/SNORM textures
/// need `TEXTURE_FORMAT_16BIT_NORM`; without it their upload says so. The
/// format-specific features give the adapter's own multisample counts per
/// format (WebGPU's core set has none for 32-bit float targets);
/// multisampled arrays need their own feature. Block-compressed textures
/// go up compressed with `TEXTURE_COMPRESSION_BC` (3D ones also need
/// `TEXTURE_COMPRESSION_BC_SLICED_3D`), decoded without it. Doubles need
/// `SHADER_F64` (Vulkan's `shaderFloat64`, which lavapipe has); a shader
/// with doubles on an adapter without it is refused by name before naga
/// sees it. A shader with image atomics, which naga cannot read, goes to
/// the driver as glslang's SPIR-V through `PASSTHROUGH_SHADERS`; without
/// it such a shader is refused by name.
const WANTED: wgpu::Features = wgpu::Features::FLOAT32_FILTERABLE
    .union(wgpu::Features::DEPTH32FLOAT_STENCIL8)
    .union(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM)
    .union(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES)
    .union(wgpu::Features::MULTISAMPLE_ARRAY)
    .union(wgpu::Features::TEXTURE_COMPRESSION_BC)
    .union(wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D)
    .union(wgpu::Features::SHADER_F64)
    .union(wgpu::Features::PASSTHROUGH_SHADERS);

pub(super) struct Device {
    /// Asked for per-format features (multisample counts).
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter_name: String,
    /// Whether the device reads BC1–BC7 textures itself, and 3D ones.
    pub bc: bool,
    pub bc_3d: bool,
    /// Whether shaders may use doubles (`SHADER_F64`).
    pub f64: bool,
    /// Whether SPIR-V may skip naga (`PASSTHROUGH_SHADERS`): the route for
    /// shaders with image atomics.
    pub passthrough: bool,
    /// What the current draw's uploads chose (compressed or decoded), for
    /// the case's report; taken by `Gpu::render`.
    pub notes: std::cell::RefCell<Vec<String>>,
}

/// Opens a Vulkan device. `DXBC_DBG_GPU=none` opens nothing, so the
/// no-GPU behaviour (the `diff` command's exit status 3) can be seen on a
/// machine that has one.
pub(super) fn open() -> Result<Device, GpuError> {
    if std::env::var("DXBC_DBG_GPU").is_ok_and(|v| v == "none") {
        return Err(GpuError::NoAdapter(
            "DXBC_DBG_GPU=none: no GPU backend enabled".into(),
        ));
    }
    open_with(wgpu::Backends::VULKAN)
}

fn open_with(backends: wgpu::Backends) -> Result<Device, GpuError> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = backends;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
        apply_limit_buckets: false,
    }))
    .map_err(|e| {
        GpuError::NoAdapter(format!(
            "no Vulkan adapter ({e}); on a machine without a GPU install Mesa's lavapipe \
             (Debian/Ubuntu: `apt-get install mesa-vulkan-drivers`)"
        ))
    })?;
    let info = adapter.get_info();
    let features = adapter.features() & WANTED;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("dxbc-dbg harness"),
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .map_err(|e| GpuError::NoAdapter(format!("{}: cannot open a device: {e}", info.name)))?;
    Ok(Device {
        adapter,
        device,
        queue,
        adapter_name: format!("{} ({:?}, {})", info.name, info.backend, info.driver_info),
        bc: features.contains(wgpu::Features::TEXTURE_COMPRESSION_BC),
        bc_3d: features.contains(wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D),
        f64: features.contains(wgpu::Features::SHADER_F64),
        passthrough: features.contains(wgpu::Features::PASSTHROUGH_SHADERS),
        notes: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With no backend to search, the error is `NoAdapter` and says how to
    /// get lavapipe.
    #[test]
    fn no_adapter_says_how_to_install_lavapipe() {
        match open_with(wgpu::Backends::empty()) {
            Err(GpuError::NoAdapter(m)) => assert!(m.contains("mesa-vulkan-drivers"), "{m}"),
            Err(e) => panic!("expected NoAdapter, got {e}"),
            Ok(_) => panic!("an adapter with no backends"),
        }
    }
}
