//! The commands' work beyond argument parsing: shared pieces here, `diff`
//! and `report merge` in [`diff`], `case new` in [`case_new`]. `main.rs`
//! holds the argument definitions and dispatch.

use std::path::Path;

use anyhow::{Context, Result};
use dxbc_dbg::dxbc::{self, ParseOptions, Shader};
use dxbc_dbg::input_file;

pub mod auto;
pub mod bisect;
pub mod case_new;
pub mod diff;

/// Reads a shader from a container, or assembles it when the file is text.
pub fn load(path: &Path, no_verify: bool) -> Result<Shader> {
    let mut bytes = input_file::read(path).with_context(|| path.display().to_string())?;
    if path.extension().is_some_and(|e| e == "asm") {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bytes = dxbc::asm::assemble(&text)
            .map_err(|e| anyhow::anyhow!(e.in_file(&path.display().to_string())))?;
    }
    let mut shader = Shader::parse(
        &bytes,
        ParseOptions {
            verify_checksum: !no_verify,
        },
    )
    .with_context(|| path.display().to_string())?;
    if no_verify {
        shader.check_checksum(&bytes);
    }
    Ok(shader)
}

/// How a command ended, when it did not end in an error (exit 1).
pub enum Outcome {
    Done,
    Failed,
    /// The Vulkan backend cannot draw: no adapter, or a binary built
    /// without the `gpu` feature (both exit 3). `why` follows "skipping the
    /// vulkan backend: "; `fix` says what would make it draw.
    NoVulkan {
        why: String,
        fix: &'static str,
    },
    NoBrowser(String),
    /// The command could not do its work (a bad case, no adapter, a
    /// helper pixel): for commands whose exit 1 means a finding (`bisect`),
    /// exit 2 with this message.
    Unusable(String),
}
