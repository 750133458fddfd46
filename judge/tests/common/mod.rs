//! Helpers the judge's integration tests share: fixture libraries compiled with `cc`, and
//! the judge run from empty directories that must still be empty when it is done.

// Each test crate uses the part it needs.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The C fixtures' directory.
pub const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Compiles the fixture `name` into `dir/NAME.so` with extra compiler `flags` (which change
/// its bytes, not its behaviour) and returns its path.
pub fn fixture(dir: &Path, name: &str, flags: &[&str]) -> PathBuf {
    let out = dir.join(format!("{name}.so"));
    let status = Command::new("cc")
        .args(["-O1", "-shared", "-fPIC", "-I", FIXTURES])
        .args(flags)
        .arg("-o")
        .arg(&out)
        .arg(Path::new(FIXTURES).join(format!("{name}.c")))
        .status()
        .expect("these tests need a C compiler (cc)");
    assert!(status.success(), "cc failed on {name}.c");
    out
}

/// Runs the judge with `args` from an empty working directory with a private TMPDIR, and
/// checks that both are empty afterwards (scratch directories removed, nothing leaked).
pub fn judge_leaving_nothing<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    let cwd = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .current_dir(cwd.path())
        .env("TMPDIR", tmp.path())
        .output()
        .expect("run judge");
    let left = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect::<Vec<_>>()
    };
    assert!(
        left(cwd.path()).is_empty(),
        "working directory not empty: {:?}",
        left(cwd.path())
    );
    assert!(
        left(tmp.path()).is_empty(),
        "scratch left behind: {:?}",
        left(tmp.path())
    );
    out
}
