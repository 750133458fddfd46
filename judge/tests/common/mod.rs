//! Helpers the judge's integration tests share beyond `testkit` (partner programs and the CI
//! policy, child processes, release builds, headless Chromium): fixture libraries compiled
//! with `cc`, fixture programs copied where leftover processes can be found, the judge run
//! from empty directories that must still be empty when it is done, its logged games, the
//! autotest result of its pages, and the programs it plays.

// Each test binary uses the part it needs; what is not the judge's own is in `testkit`.
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

/// The Python fixtures of `fixtures/SUB/` copied into a fresh directory, so that a scan
/// of `/proc` for that directory (`testkit::process::processes_under`) finds any process left behind.
pub fn copied_scripts(sub: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(Path::new(FIXTURES).join(sub)).unwrap() {
        let src = entry.unwrap().path();
        if src.extension().is_some_and(|e| e == "py") {
            std::fs::copy(&src, dir.path().join(src.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// Checks that the judge succeeded (showing its output if not) and returns its stdout.
#[track_caller]
pub fn ok(out: &Output) -> String {
    testkit::process::stdout_of_success(out, "judge")
}

/// The games a run logged in `dir/games.jsonl`, a JSON value each.
pub fn games(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
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

/// Runs the judge with `args` from `cwd`, typing `keys` into its stdin (a pipe, so the
/// views read whole lines), and returns what it printed once it exited.
pub fn judge_typing<S: AsRef<OsStr>>(
    cwd: &Path,
    args: impl IntoIterator<Item = S>,
    keys: &[u8],
) -> Output {
    let mut judge = Command::new(env!("CARGO_BIN_EXE_judge"));
    testkit::process::feed(judge.args(args).current_dir(cwd), keys)
}

/// The text of `<pre id="autotest" ...>` in a DOM dump, unescaped, as JSON.
pub fn autotest_json(dom: &str) -> serde_json::Value {
    let start = dom
        .find("<pre id=\"autotest\"")
        .expect("no #autotest element");
    let body = &dom[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    assert!(!body.is_empty(), "the page did not run its autotest");
    let text = body
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad autotest JSON {e}: {text}"))
}

/// The `reversi` program, built in release once per test binary into a target directory
/// of the tests' own (so the build never waits on the cargo running the tests).
pub fn reversi_binary() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| release_binary("reversi")).clone()
}

/// Our Go engine, `go-engine`, built as [`reversi_binary`] is.
pub fn go_engine() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| release_binary("go-engine")).clone()
}

/// Builds the workspace package `package`, whose binary has the same name, in release into
/// `target/judge-tests`, and returns the binary's path.
fn release_binary(package: &str) -> PathBuf {
    let target = testkit::build::workspace_root().join("target/judge-tests");
    testkit::build::release_binary(package, &target)
}

/// Builds our library's cdylib in release into the target directory of these tests (see
/// `testkit::build::release_library`, which the root crate's tests call too, so it is built
/// once) and returns its path.
pub fn our_library() -> PathBuf {
    testkit::build::release_library(&testkit::build::target_dir())
}
