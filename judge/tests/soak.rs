//! `scripts/soak.sh` in small: 20 games of our library and misbehaving libraries and
//! programs, the judge killed twice with SIGKILL and resumed; the script's own checks (every
//! game once, the summary, no process or file left, the judge's memory) must pass. The long
//! soak is the script itself (docs/reliability.md).

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn a_short_soak_with_two_kills_passes_its_checks() {
    let lib = common::our_library();
    let dir = tempfile::tempdir().unwrap();
    let soak = dir.path().join("soak");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/soak.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("20")
        .env("JUDGE", env!("CARGO_BIN_EXE_judge"))
        .env("LIB", &lib)
        .env("LADDER_DIR", "none")
        .env("SOAK_DIR", &soak)
        .env("KILLS", "2")
        // The hangs cost the whole limit; the script's 2 s default would make this slow.
        .env("MOVE_LIMIT_MS", "500")
        .output()
        .expect("run scripts/soak.sh");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "soak failed:\n{text}");
    for line in [
        "20 games scheduled, 20 logged, 2 kills, 2 resumes",
        "ok   every scheduled game exactly once (0 missing, 0 twice, 0 unscheduled)",
        "ok   summary.json (games 20) equals `judge report` of the log",
        "ok   no process of the run alive (0: )",
        "ok   no file outside the run directory (0 in the judge's cwd and TMPDIR, 0 in /tmp, \
         players' directory unchanged)",
        "soak: passed",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    // The games mixed kinds: our library, crashes, timeouts.
    let log = std::fs::read_to_string(soak.join("run/games.jsonl")).unwrap();
    assert!(log.contains("libgravity4.so"), "{log}");
    for verdict in ["\"crash\"", "\"timeout\""] {
        assert!(log.contains(verdict), "no {verdict} in the log");
    }
}
