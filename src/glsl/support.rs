//! What the emitter does with each opcode, by name: lowers it, refuses it
//! for a named reason whatever its operands are, or has nothing to emit.
//! The emitter refuses through this table before a per-class module sees an
//! instruction, and `tests/opcode_coverage.rs` walks every opcode of the
//! description to check that each lowered one has a lowering and to list
//! what is refused.

use super::Reason;
use crate::dxbc::opcodes::{Class, Op};

/// The emitter's answer for one opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Lowered to GLSL. An instruction may still be refused for what its
    /// operands name (a multisampled texture, a UAV, a register-indexed
    /// resource): those depend on the program, not the opcode; and the
    /// multisampled reads (`ld2dms`, `sampleinfo`, `samplepos`) are
    /// lowered in vk450 only, es300 refusing them by name (ES 3.00 has no
    /// `sampler2DMS`, `gl_NumSamples`).
    Lowered,
    /// Refused whatever the operands. For memory instructions the operands
    /// may name a more specific reason (a raw buffer rather than a UAV).
    Refused(Reason),
    /// Emits nothing: `nop` and the reserved opcodes.
    Nothing,
}

/// The emitter's support for `op`.
pub fn support(op: Op) -> Support {
    use Op::*;
    use Support::{Lowered, Nothing, Refused};
    match op {
        // The tiled-resource `_s` forms are lowered as their plain forms
        // (the memory ones refused with them, below) plus the status of a
        // fully mapped access, and the residency check as the comparison
        // that reads it (see `texture::feedback`).
        // Buffer sizes: lowered for raw/structured views and UAVs (vk450;
        // es300 refuses them by name); a typed `Buffer<T>` is refused by
        // the texture path (`Reason::TypedBuffer`).
        Bufinfo => Lowered,
        // Pull-model interpolation.
        EvalSnapped | EvalSampleIndex | EvalCentroid => Refused(Reason::Interpolation),
        // Buffer and UAV declarations: lowered in vk450 (`memory`), refused
        // by es300 by name (ES 3.00 has no storage buffers or images).
        DclUavTyped | DclUavRaw | DclUavStructured | DclResourceRaw | DclResourceStructured => {
            Lowered
        }
        DclTgsmRaw | DclTgsmStructured | DclThreadGroup => Refused(Reason::Compute),
        // The tiled-resource forms of the memory loads are not lowered
        // (es300 names the UAV or buffer they read instead, as for every
        // memory instruction; see `emit::memory_reason`).
        LdUavTypedS | LdRawS | LdStructuredS => Refused(Reason::TiledMemory),
        DclStream => Refused(Reason::Stream),
        // Geometry, hull and domain shader declarations and phases.
        DclGsOutputPrimitiveTopology
        | DclGsInputPrimitive
        | DclMaxOutputVertexCount
        | DclGsInstanceCount
        | HsDecls
        | HsControlPointPhase
        | HsForkPhase
        | HsJoinPhase
        | DclInputControlPointCount
        | DclOutputControlPointCount
        | DclTessDomain
        | DclTessPartitioning
        | DclTessOutputPrimitive
        | DclHsMaxTessfactor
        | DclHsForkPhaseInstanceCount
        | DclHsJoinPhaseInstanceCount => Refused(Reason::Stage),
        Abort | DebugBreak => Refused(Reason::Debug),
        Nop | Reserved0 | Reserved1 | Reserved11 | Reserved11_1 => Nothing,
        _ => match op.info().class {
            // Doubles are lowered in vk450 only; es300 refuses them by
            // name (ES 3.00 has no `double`), in `double::emit`.
            Class::Double => Lowered,
            Class::Stream => Refused(Reason::Stream),
            // UAV and raw/structured buffer access (and `sync`): lowered
            // in vk450, refused by es300 by name (`memory::emit`).
            Class::Memory => Lowered,
            _ => Lowered,
        },
    }
}

/// Whether the emitter has a lowering for `op`: the tables and matches the
/// per-class modules dispatch on, asked directly (for the coverage test).
pub fn has_lowering(op: Op) -> bool {
    match op.info().class {
        Class::Flow => super::flow::lowers(op),
        Class::Texture => super::texture::lowers(op),
        Class::Decl => super::decl::lowers(op),
        Class::Other => op == Op::Customdata,
        Class::Double => super::double::lowers(op),
        Class::Memory => super::memory::lowers(op),
        _ => super::alu::lowers(op),
    }
}
