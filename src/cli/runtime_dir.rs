//! A private `XDG_RUNTIME_DIR` for a process started without a usable one.
//!
//! Why: creating a Vulkan instance loads Mesa's device-selection layer
//! (`VK_LAYER_MESA_device_select`, an implicit layer), which asks the
//! window systems for the default GPU before any adapter is listed. Its
//! Wayland probe goes through libwayland-client, and libwayland prints
//! `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` to
//! standard error when the variable is missing or not an absolute path —
//! twice per instance, from a library, on a headless machine where
//! nothing is wrong. It reads like the tool's own error. With the
//! variable naming an existing directory, the probe finds no Wayland
//! socket there and fails quietly, and the layer goes on to its other
//! probes as before; nothing of ours is silenced.
//!
//! The directory is per user (`dxbc-dbg-runtime-UID` in the temporary
//! directory), made with mode 0700 as the XDG base-directory spec asks
//! of a runtime directory, and reused by later runs. One that exists but
//! is not a plain directory of ours, closed to others, is not used: the
//! variable is then left as it was (and the message may appear).

use std::fs;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

const VAR: &str = "XDG_RUNTIME_DIR";

/// Sets `XDG_RUNTIME_DIR` to a private directory when it is unset or
/// does not name an existing directory by an absolute path.
///
/// Call first thing in `main`, before any thread starts: changing the
/// environment while another thread may read it is undefined behaviour.
pub fn ensure() {
    let usable = std::env::var_os(VAR)
        .map(PathBuf::from)
        .is_some_and(|p| p.is_absolute() && p.is_dir());
    if usable {
        return;
    }
    if let Some(dir) = private_dir() {
        // SAFETY: called at the start of `main`, while the process has
        // one thread (see above).
        unsafe { std::env::set_var(VAR, dir) };
    }
}

/// The per-user directory, made when missing; `None` when it cannot be
/// made or is not safe to use.
fn private_dir() -> Option<PathBuf> {
    // SAFETY: getuid(2) cannot fail and touches no memory of ours.
    let uid = unsafe { libc::getuid() };
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-runtime-{uid}"));
    if !dir.is_absolute() {
        return None;
    }
    // Another run may make it between the check and here: that is fine,
    // the checks below decide.
    let _ = fs::DirBuilder::new().mode(0o700).create(&dir);
    ours(&dir, uid).then_some(dir)
}

/// A real directory (not a link to one) owned by `uid` and closed to
/// everyone else.
fn ours(dir: &Path, uid: u32) -> bool {
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_open_to_others_is_not_used() {
        // SAFETY: as in `private_dir`.
        let uid = unsafe { libc::getuid() };
        let base =
            std::env::temp_dir().join(format!("dxbc-dbg-runtime-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::DirBuilder::new().mode(0o700).create(&base).unwrap();
        assert!(ours(&base, uid));
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&base, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(!ours(&base, uid));
        let link = base.with_extension("link");
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink(&base, &link).unwrap();
        fs::set_permissions(&base, fs::Permissions::from_mode(0o700)).unwrap();
        assert!(!ours(&link, uid), "a link is not used");
        let _ = fs::remove_file(&link);
        let _ = fs::remove_dir_all(&base);
    }
}
