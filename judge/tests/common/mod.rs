//! Helpers the judge's integration tests share: fixture libraries compiled with `cc`,
//! fixture programs copied where leftover processes can be found, the judge run from empty
//! directories that must still be empty when it is done, its logged games, pages run in
//! headless Chromium, and what a test does when a partner program is missing.

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

/// The Python fixtures of `fixtures/SUB/` copied into a fresh directory, so that a scan
/// of `/proc` for that directory ([`processes_under`]) finds any process left behind.
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

/// Processes whose command line mentions `dir`, once the ones being killed are gone
/// (killed processes are reaped before the judge returns, but `/proc` may lag: up to a
/// second's grace).
pub fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let scan = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&needle))
            .collect::<Vec<_>>()
    };
    let mut alive = scan();
    for _ in 0..50 {
        if alive.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        alive = scan();
    }
    alive
}

/// Checks that the judge succeeded (showing its output if not) and returns its stdout.
pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "judge failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
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
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run judge");
    // Dropping stdin after the keys closes it: the end of input, as at a closed terminal.
    child.stdin.take().unwrap().write_all(keys).unwrap();
    child.wait_with_output().expect("wait for judge")
}

/// Whether a test should skip because its partner program is missing (`present` false):
/// on a developer's machine it prints why and returns true; under CI (`CI=true`), where
/// scripts/test.sh installs every partner program, it panics, so a missing program fails
/// the suite instead of passing it untested. `what` names the program and how to get it.
#[track_caller]
pub fn skip_without(present: bool, what: &str) -> bool {
    match missing_partner(
        present,
        std::env::var("CI").is_ok_and(|v| v == "true"),
        what,
    ) {
        Ok(None) => false,
        Ok(Some(why)) => {
            println!("{why}");
            true
        }
        Err(why) => panic!("{why}"),
    }
}

/// [`skip_without`]'s decision with the CI flag given (tests cannot safely change the
/// environment): `Ok(None)` run, `Ok(Some(line))` skip saying so, `Err(message)` fail.
pub fn missing_partner(present: bool, ci: bool, what: &str) -> Result<Option<String>, String> {
    match (present, ci) {
        (true, _) => Ok(None),
        (false, false) => Ok(Some(format!(
            "skipped: missing partner program: {what} (with CI=true this fails)"
        ))),
        (false, true) => Err(format!(
            "missing partner program: {what}; under CI (CI=true) that is a failure, not a skip"
        )),
    }
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
///
/// Virtual time also stands still while a request hangs, so Chromium runs under
/// coreutils' `timeout` with a wall-clock limit (three times the budget, at least two
/// minutes): a page stuck waiting fails the test instead of hanging it.
pub fn dump_dom(url: &str, budget_ms: u32) -> String {
    let profile = tempfile::tempdir().unwrap();
    let wall_secs = (u64::from(budget_ms) * 3 / 1000).max(120);
    let out = Command::new("timeout")
        .args(["--kill-after=10", &wall_secs.to_string()])
        .arg(chromium())
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
        "chromium failed ({}; exit status 124 or a kill: still running after {wall_secs} s): {}",
        out.status,
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let target = root.join("target").join("judge-tests");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args([
            "build",
            "--release",
            "-q",
            "-p",
            package,
            "--bin",
            package,
            "--target-dir",
        ])
        .arg(&target)
        .current_dir(root)
        .status()
        .unwrap_or_else(|e| panic!("run cargo build -p {package}: {e}"));
    assert!(status.success(), "building {package} failed");
    target.join("release").join(package)
}

/// Builds our library's cdylib in release (`cargo build --release --lib -p gravity4`, the build
/// the root crate's tests make too, so it is built once) and returns its path.
///
/// Not in this test binary's profile: `-p gravity4` alone resolves its dependencies' features
/// apart from the workspace, and its rlib's name carries no hash, so building it into the
/// profile directory the workspace's tests were built in replaces the rlib the other crates
/// were compiled against, and the doc tests that run afterwards cannot load them.
pub fn our_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--lib", "-p", "gravity4", "--quiet"])
        .arg("--target-dir")
        .arg(target)
        .current_dir(root)
        .status()
        .expect("run cargo build");
    assert!(status.success(), "building libgravity4.so failed");
    target.join("release").join("libgravity4.so")
}
