//! SPIR-V handed to the driver without naga (wgpu's
//! `PASSTHROUGH_SHADERS`): the route for shaders with image atomics, which
//! naga's SPIR-V front end cannot read (docs/harness.md, "Shaders with
//! storage").
//!
//! wgpu's Vulkan backend does not keep a bind group layout's binding
//! numbers: it numbers the Vulkan descriptor bindings 0, 1, 2, ... in the
//! order of the layout's entries sorted by binding, and has naga's SPIR-V
//! writer rewrite every module it generates to match. A passthrough module
//! gets no such rewrite, so [`rebind`] does it here: each `Binding`
//! decoration becomes its number's rank in the layout. A binding the
//! layout lacks is an error, never a guess.

use super::{GpuError, Renderer};

/// SPIR-V's magic number (the header's first word).
const MAGIC: u32 = 0x0723_0203;
/// Words before the first instruction.
const HEADER: usize = 5;
/// `OpDecorate target decoration literals...`.
const OP_DECORATE: u32 = 71;
/// The `Binding` decoration.
const BINDING: u32 = 33;

/// Rewrites each `OpDecorate %x Binding N` to the index of `N` in
/// `numbers` (the layout's binding numbers, ascending).
pub(super) fn rebind(words: &mut [u32], numbers: &[u32]) -> Result<(), String> {
    if words.len() < HEADER || words[0] != MAGIC {
        return Err("not a SPIR-V module (no magic number)".into());
    }
    let mut at = HEADER;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return Err(format!(
                "malformed SPIR-V: an instruction at word {at} runs past the end"
            ));
        }
        if opcode == OP_DECORATE && count == 4 && words[at + 2] == BINDING {
            let n = words[at + 3];
            let rank = numbers.binary_search(&n).map_err(|_| {
                format!("the shader declares binding {n}, which the case's bind group lacks")
            })?;
            words[at + 3] = rank as u32;
        }
        at += count;
    }
    Ok(())
}

/// The module for glslang's SPIR-V `words` of a stage entered at `main`,
/// its bindings renumbered for the layout of `numbers`.
pub(super) fn module(
    r: &Renderer,
    label: &str,
    mut words: Vec<u32>,
    numbers: &[u32],
) -> Result<wgpu::ShaderModule, GpuError> {
    rebind(&mut words, numbers).map_err(GpuError::Other)?;
    // SAFETY: wgpu checks nothing in a passthrough module, so what it
    // relies on holds by construction. The words are SPIR-V that
    // glslangValidator compiled for Vulkan and checked with the SPIRV-Tools
    // validator (`spirv::compile_validated` returns only a successful
    // run's whole words), edited above only in the literal of `Binding`
    // decorations. The one entry point is `main`, the name the pipeline's
    // stages give. Every binding it declares comes from the same manifest
    // the explicit pipeline layout is built from (`bindings::build`,
    // `storage::bind`: storage images as ReadWrite R32Uint/R32Sint storage
    // textures, as the `r32ui`/`r32i` qualifiers say), renumbered as wgpu's
    // Vulkan backend numbers that layout. The device has
    // PASSTHROUGH_SHADERS (the caller checks).
    let module = unsafe {
        r.device
            .create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                label: Some(label),
                entry_points: std::borrow::Cow::Borrowed(&[wgpu::PassthroughShaderEntryPoint {
                    name: std::borrow::Cow::Borrowed("main"),
                    workgroup_size: (0, 0, 0),
                }]),
                spirv: Some(words.into()),
                ..Default::default()
            })
    };
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Header, then `OpDecorate %7 DescriptorSet 210` (a literal a
    /// Binding rewrite would change), `OpDecorate %7 Binding b`,
    /// `OpDecorate %8 Binding c`.
    fn words(b: u32, c: u32) -> Vec<u32> {
        vec![
            MAGIC,
            0x0001_0000,
            0,
            9,
            0,
            (4 << 16) | OP_DECORATE,
            7,
            34,
            210,
            (4 << 16) | OP_DECORATE,
            7,
            BINDING,
            b,
            (4 << 16) | OP_DECORATE,
            8,
            BINDING,
            c,
        ]
    }

    /// Bindings become their rank in the layout; the descriptor set (an
    /// equal-sized decoration with another kind) is left alone.
    #[test]
    fn bindings_become_their_rank_in_the_layout() {
        let mut w = words(210, 3);
        rebind(&mut w, &[3, 100, 209, 210]).expect("rebinds");
        assert_eq!(w, words(3, 0));
    }

    /// A binding the layout lacks, and words that are not SPIR-V, are
    /// errors that say so.
    #[test]
    fn a_binding_missing_from_the_layout_is_named() {
        let e = rebind(&mut words(5, 3), &[3]).expect_err("5 is not bound");
        assert!(e.contains("binding 5"), "{e}");
        let e = rebind(&mut [1, 2, 3, 4, 5], &[]).expect_err("no magic");
        assert!(e.contains("magic"), "{e}");
        let mut cut = words(3, 3);
        cut.truncate(15);
        let e = rebind(&mut cut, &[3]).expect_err("truncated");
        assert!(e.contains("past the end"), "{e}");
    }
}
