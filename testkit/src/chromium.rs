//! Headless Chromium, to run the pages the judge writes and serves.

use std::path::PathBuf;
use std::process::Command;

/// The Chromium binary: `$CHROMIUM`, or Debian's `chromium` on the PATH.
pub fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return p.into();
    }
    crate::partner::on_path("chromium").expect(
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
    let profile = tempfile::tempdir().expect("a scratch profile directory");
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
    String::from_utf8(out.stdout).expect("a DOM in UTF-8")
}
