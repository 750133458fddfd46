//! Helpers the judge's integration tests share: fixture libraries compiled with `cc`, the
//! judge run from empty directories that must still be empty when it is done, and pages
//! run in headless Chromium.

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

/// The Chromium binary: `$CHROMIUM`, or Debian's `chromium` on the PATH.
pub fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return p.into();
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
        .expect(
            "this test needs headless Chromium: install Debian's package \
             (apt-get install -y chromium; .ci/run does) or set CHROMIUM=/path/to/chromium",
        )
}

/// Loads `url` in headless Chromium and returns the DOM after the page's script ran for
/// `budget_ms` of virtual time (which stands still while the page waits on the network).
pub fn dump_dom(url: &str, budget_ms: u32) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
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
    BUILT
        .get_or_init(|| {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
            let target = root.join("target").join("judge-tests");
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = std::process::Command::new(cargo)
                .args(["build", "--release", "-q", "-p", "reversi", "--target-dir"])
                .arg(&target)
                .current_dir(root)
                .status()
                .expect("run cargo build -p reversi");
            assert!(status.success(), "building the reversi program failed");
            target.join("release").join("reversi")
        })
        .clone()
}
