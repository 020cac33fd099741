//! Direct3D 11's binding limits (`D3D11_COMMONSHADER_*`), the slot ranges a
//! shader model 5 register index and an application's bind call can reach.
//! Case files and the harness read them by name, so a slot outside them is
//! refused with the limit it broke rather than dropped.

/// Shader-resource view slots per stage
/// (`D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT`): `t0` to `t127`.
pub const SHADER_RESOURCE_SLOTS: u32 = 128;

/// Sampler slots per stage (`D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT`):
/// `s0` to `s15`.
pub const SAMPLER_SLOTS: u32 = 16;

/// Constant-buffer slots an application binds per stage
/// (`D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT`): `cb0` to `cb13`;
/// the hardware's two more are the immediate constant buffer and a
/// reserved one.
pub const CONSTANT_BUFFER_SLOTS: u32 = 14;

/// 16-byte rows in one constant buffer
/// (`D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT`).
pub const CONSTANT_BUFFER_ROWS: u32 = 4096;

/// Return addresses a shader's `call`/`fcall` stack holds
/// (`D3D11_COMMONSHADER_SUBROUTINE_NESTING_LIMIT`): a call made with the
/// stack full is skipped over.
pub const SUBROUTINE_NESTING_LIMIT: usize = 32;

/// Class-interface slots per shader (`D3D11_SHADER_MAX_INTERFACES`): the
/// slots `fp#[…]` reaches and an application binds class instances to.
pub const INTERFACE_SLOTS: u32 = 253;

/// Largest render-target (and viewport) side
/// (`D3D11_REQ_RENDER_TO_BUFFER_WINDOW_WIDTH`).
pub const RENDER_TARGET_SIDE: u32 = 16384;
