//! Release builds of workspace packages a test needs, and where the test binary runs from.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root directory.
pub fn workspace_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The cargo target directory the running test binary was built into (test binaries live
/// in `<target>/<profile>/deps/`).
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("path of this test binary");
    exe.ancestors()
        .nth(3)
        .expect("test binaries live in <target>/<profile>/deps")
        .to_path_buf()
}

/// The cargo running the tests (`$CARGO`), or the one that built this crate.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into())
}

/// Runs `cargo build --release --quiet ARGS --target-dir TARGET` at the workspace's root.
fn build_release(args: &[&str], target: &Path) {
    let status = Command::new(cargo())
        .args(["build", "--release", "--quiet"])
        .args(args)
        .arg("--target-dir")
        .arg(target)
        .current_dir(workspace_root())
        .status()
        .unwrap_or_else(|e| panic!("run cargo build {args:?}: {e}"));
    assert!(status.success(), "cargo build --release {args:?} failed");
}

/// Builds the course library's cdylib (`cargo build --release --lib -p gravity4`) into
/// `target` and returns its path (`<target>/release/libgravity4.so`). Every crate's tests
/// build it the same way, so it is built once per target directory; cargo's lock keeps two
/// test binaries building it at once from clashing.
///
/// Give it the target directory of the tests ([`target_dir`]), never a profile directory
/// of its own: `-p gravity4` alone resolves its dependencies' features apart from the
/// workspace, and its rlib's name carries no hash, so building it into the profile the
/// workspace's tests were built in would replace the rlib the other crates were compiled
/// against.
pub fn release_library(target: &Path) -> PathBuf {
    build_release(&["--lib", "-p", "gravity4"], target);
    let path = target.join("release").join(format!(
        "{}gravity4{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(path.exists(), "no cdylib at {}", path.display());
    path
}

/// Builds the workspace package `package`, whose binary has the same name, in release into
/// `target`, and returns the binary's path.
pub fn release_binary(package: &str, target: &Path) -> PathBuf {
    build_release(&["-p", package, "--bin", package], target);
    target.join("release").join(package)
}
