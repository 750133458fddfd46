//! End-to-end: misbehaving libraries (compiled from `fixtures/`) must each end with the
//! right verdict, the run must finish, and nothing may appear in the working directory.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

mod common;

use common::{FIXTURES, games, ok};

/// Compiles every fixture once into a temp dir and returns it.
fn libs() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        for entry in std::fs::read_dir(FIXTURES).expect("fixtures dir") {
            let src = entry.expect("entry").path();
            let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
            let out = dir.path().join(format!("{stem}.so"));
            let compiler = match src.extension().and_then(|e| e.to_str()) {
                Some("c") => "cc",
                // Deliberately gcc, not g++: libstdc++ is not a declared dependency.
                Some("cpp") => "gcc",
                Some("so") => {
                    std::fs::copy(&src, &out).unwrap();
                    continue;
                }
                _ => continue,
            };
            let status = Command::new(compiler)
                .args(["-O1", "-shared", "-fPIC", "-I", FIXTURES, "-o"])
                .arg(&out)
                .arg(&src)
                .status()
                .unwrap_or_else(|e| panic!("these tests need a C compiler ({compiler}): {e}"));
            assert!(status.success(), "{compiler} failed on {}", src.display());
        }
        dir
    })
    .path()
}

fn lib(name: &str) -> PathBuf {
    libs().join(format!("{name}.so"))
}

/// Runs the judge from an empty working directory with a private TMPDIR, and checks
/// that both are empty afterwards (scratch directories removed, nothing leaked).
fn judge(args: &[&str], extra: &[PathBuf]) -> Output {
    let args = args.iter().map(std::ffi::OsStr::new);
    common::judge_leaving_nothing(args.chain(extra.iter().map(|p| p.as_os_str())))
}

#[test]
fn every_misbehaviour_gets_its_verdict() {
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("run");
    // (opponent, verdict it must lose with, detail substring) — None: it plays legally.
    let cases: &[(&str, Option<&str>, &str)] = &[
        ("segfault", Some("crash"), "SIGSEGV"),
        ("abort", Some("crash"), "SIGABRT"),
        ("exit3", Some("crash"), "exit status 3"),
        ("memhog", Some("crash"), ""),
        ("hang", Some("timeout"), ""),
        ("spin", Some("timeout"), ""),
        ("illegal", Some("illegal"), "illegal point"),
        ("null", Some("null"), ""),
        ("sabotage", Some("crash"), "protocol violation"),
        ("nosymbol", Some("load"), "clearPoint"),
        ("flood", None, ""),
        ("writer", None, ""),
        ("slow", None, ""),
        ("cxx_nostdlib", None, ""),
        ("ballast", None, ""),
    ];
    let pool: Vec<PathBuf> = cases.iter().map(|c| lib(c.0)).collect();
    let mut args = vec![
        "gauntlet".to_string(),
        lib("legal").display().to_string(),
        "--pairs".into(),
        "1".into(),
        "--seed".into(),
        "3".into(),
        "--move-limit-ms".into(),
        "1000".into(),
        "--memory-limit-mb".into(),
        "256".into(),
        "--concurrency".into(),
        "2".into(),
        "--quiet".into(),
        "--out".into(),
        out_dir.display().to_string(),
        "--vs".into(),
    ];
    args.extend(pool.iter().map(|p| p.display().to_string()));
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = judge(&arg_refs, &[]);
    ok(&out);
    let games = games(&out_dir);
    assert_eq!(games.len(), 2 * cases.len(), "every game logged");
    let mut by_opponent: HashMap<String, Vec<&Value>> = HashMap::new();
    for g in &games {
        let opp = if g["first"] == "legal" {
            &g["second"]
        } else {
            &g["first"]
        };
        by_opponent
            .entry(opp.as_str().unwrap().to_string())
            .or_default()
            .push(g);
    }
    for (name, verdict, detail) in cases {
        let gs = &by_opponent[*name];
        assert_eq!(gs.len(), 2, "{name}: two games");
        for g in gs {
            let opp_side = if g["first"] == *name {
                "first"
            } else {
                "second"
            };
            let term = g["termination"].as_str().unwrap();
            match verdict {
                Some(v) => {
                    assert_eq!(term, *v, "{name}: {g}");
                    assert_eq!(g["loser"], opp_side, "{name} loses: {g}");
                    let d = g["detail"].as_str().unwrap_or("");
                    assert!(d.contains(detail), "{name}: detail {d:?} lacks {detail:?}");
                }
                None => assert!(
                    term == "four" || term == "full",
                    "{name} plays legally: {g}"
                ),
            }
        }
    }
    // The course runner's result codes, with A the first mover.
    for g in &games {
        let loser_first = g["loser"] == "first";
        let code = g["course_code"].as_i64().unwrap();
        let expect = match (
            g["termination"].as_str().unwrap(),
            g["detail"].as_str().unwrap_or(""),
        ) {
            ("crash", _) => [3, 5],
            ("illegal", _) => [4, 6],
            ("timeout" | "null", _) => [7, 8],
            ("load", d) if d.starts_with("missing symbol") => [-3, -4],
            ("load", _) => [-1, -2],
            ("four", _) => [2, 1],
            _ => [0, 0],
        };
        assert_eq!(code, if loser_first { expect[0] } else { expect[1] }, "{g}");
    }
    // The illegal point is recorded.
    let ill = by_opponent["illegal"][0];
    assert!(ill["illegal_point"].is_array());
    // Slow but legal: every one of its moves took at least its 200 ms.
    for g in &by_opponent["slow"] {
        let start = if g["first"] == "slow" { 0 } else { 1 };
        let ms: Vec<f64> = g["move_ms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!(
            ms.iter().skip(start).step_by(2).all(|&t| t >= 199.0),
            "slow moves: {ms:?}"
        );
    }
    // Each side's peak memory is logged: the ballast's 96 MiB, the plain player's far less.
    for g in &by_opponent["ballast"] {
        let peak = |side: usize| g["peak_rss_kb"][side].as_u64().unwrap();
        let (ballast, legal) = if g["first"] == "ballast" {
            (0, 1)
        } else {
            (1, 0)
        };
        assert!(peak(ballast) >= 96 << 10, "ballast's peak: {g}");
        assert!(peak(legal) < 64 << 10, "legal's peak: {g}");
    }
    // Output floods are kept, but capped.
    let flood_log = std::fs::metadata(out_dir.join("logs/flood.log"))
        .unwrap()
        .len();
    assert!(
        (1 << 20..(1 << 20) + 200).contains(&flood_log),
        "flood log is {flood_log} bytes"
    );
    // The summary names verdicts per player.
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    let player = |name: &str| {
        summary["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(player("legal")["games"], 2 * cases.len() as u64);
    let ballast = player("ballast");
    assert!(
        ballast["peak_rss_mb"].as_f64().unwrap() >= 96.0,
        "{ballast}"
    );
    // The terminal report shows it too.
    let table = String::from_utf8_lossy(&out.stdout);
    let row = table
        .lines()
        .skip_while(|l| !l.starts_with("time, memory"))
        .find(|l| l.starts_with("ballast "))
        .unwrap_or_else(|| panic!("no time and memory row for ballast:\n{table}"));
    let peak: f64 = row.split_whitespace().last().unwrap().parse().unwrap();
    assert!(peak >= 96.0, "{row}");
}

#[test]
fn reused_processes_survive_crashes_and_keep_playing() {
    let run = tempfile::tempdir().unwrap();
    let dir = run.path().join("r");
    let d = dir.display().to_string();
    let out = judge(
        &[
            "gauntlet",
            "--pairs",
            "2",
            "--seed",
            "9",
            "--reuse-process",
            "--quiet",
            "--move-limit-ms",
            "1000",
            "--out",
            &d,
        ],
        &[
            lib("legal"),
            "--vs".into(),
            lib("segfault"),
            lib("cxx_nostdlib"),
            lib("fast"),
        ],
    );
    ok(&out);
    let games = games(&dir);
    assert_eq!(games.len(), 12);
    for g in &games {
        let crashed = g["first"] == "segfault" || g["second"] == "segfault";
        assert_eq!(g["termination"] == "crash", crashed, "{g}");
    }
}

#[test]
fn resume_plays_only_missing_games_and_keeps_pairs_whole() {
    let run = tempfile::tempdir().unwrap();
    let dir = run.path().join("m");
    let d = dir.display().to_string();
    let base = [
        "match",
        "--pairs",
        "3",
        "--seed",
        "11",
        "--quiet",
        "--move-limit-ms",
        "1000",
    ];
    let libs = [lib("legal"), lib("fast")];
    ok(&judge(&[&base[..], &["--out", &d]].concat(), &libs));
    let full = games(&dir);
    assert_eq!(full.len(), 6);
    // Keep pair 0 whole and one game of pair 1, plus a torn line: as if killed.
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"pair\":0") || l.contains("\"id\":\"0-1-0\""))
        .collect();
    assert_eq!(kept.len(), 3);
    std::fs::write(dir.join("games.jsonl"), kept.join("\n") + "\n{\"id\":\"0-2").unwrap();
    let out = judge(&[&base[..], &["--resume", &d]].concat(), &libs);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 games to play (2 already logged)"));
    let resumed = games(&dir);
    assert_eq!(resumed.len(), 6);
    let mut ids: Vec<&str> = resumed.iter().map(|g| g["id"].as_str().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, ["0-0-0", "0-0-1", "0-1-0", "0-1-1", "0-2-0", "0-2-1"]);
    // Same seed, same boards.
    for g in &resumed {
        let orig = full.iter().find(|o| o["id"] == g["id"]).unwrap();
        assert_eq!(orig["board"], g["board"]);
    }
    // A different library list is refused.
    let bad = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["match", "--quiet", "--resume", &d])
        .args([lib("legal"), lib("slow")])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn report_summarizes_a_stopped_run_from_its_whole_pairs() {
    let run = tempfile::tempdir().unwrap();
    let dir = run.path().join("stopped");
    let d = dir.display().to_string();
    let args = [
        "match", "--pairs", "3", "--seed", "5", "--quiet", "--out", &d,
    ];
    // `judge report DIR`, which must succeed; its stdout.
    let report = || {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(["report", &d])
            .output()
            .unwrap();
        ok(&out);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let played = judge(&args, &[lib("legal"), lib("fast")]);
    ok(&played);
    // A finished run: the table of all its games, as the match printed it.
    let played = String::from_utf8_lossy(&played.stdout);
    let table = played.split("\nrun directory:").next().unwrap();
    assert!(table.contains("legal vs fast: "), "{played}");
    let finished = report();
    assert!(finished.starts_with(table), "{finished}");
    assert!(!finished.contains("planned games"), "{finished}");
    // As if stopped with Ctrl-C after three games: no summary, pair 1 half played.
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"pair\":0") || l.contains("\"id\":\"0-1-0\""))
        .collect();
    std::fs::write(dir.join("games.jsonl"), kept.join("\n") + "\n").unwrap();
    std::fs::remove_file(dir.join("summary.json")).unwrap();
    let log_inode = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(dir.join("games.jsonl")).unwrap().ino()
    };
    let out = report();
    assert!(out.contains("2 of 6 planned games"), "{out}");
    // The log is only read: a match still running appends to the very same file, so the
    // half-played pair stays in it, in place.
    use std::os::unix::fs::MetadataExt;
    let after = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(after, kept.join("\n") + "\n");
    let inode = |p: &std::path::Path| std::fs::metadata(p).unwrap().ino();
    assert_eq!(inode(&dir.join("games.jsonl")), log_inode);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"], 2);
    assert!(dir.join("report.html").exists());
    // Up to date now: a second report prints the same table from the same whole pairs and
    // leaves the summary alone.
    let summary_before = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    let again = report();
    assert_eq!(again, out);
    assert_eq!(
        std::fs::read_to_string(dir.join("summary.json")).unwrap(),
        summary_before
    );
}

#[test]
fn a_library_can_play_itself() {
    let run = tempfile::tempdir().unwrap();
    let dir = run.path().join("s");
    let d = dir.display().to_string();
    ok(&judge(
        &["match", "--pairs", "1", "--quiet", "--out", &d],
        &[lib("fast"), lib("fast")],
    ));
    let g = games(&dir);
    let first = g.iter().find(|g| g["id"] == "0-0-0").unwrap();
    assert_eq!(
        (first["first"].as_str(), first["second"].as_str()),
        (Some("fast"), Some("fast#2"))
    );
}

#[test]
fn help_everywhere() {
    for sub in [&[][..], &["match"], &["round-robin"], &["gauntlet"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(sub)
            .arg("--help")
            .output()
            .unwrap();
        assert!(out.status.success(), "{sub:?} --help");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let run = tempfile::tempdir().unwrap();
    let dir = run.path().join("sprt");
    let d = dir.display().to_string();
    let out = judge(
        &[
            "match", "--pairs", "500", "--seed", "4", "--quiet", "--out", &d,
        ],
        &[
            lib("legal"),
            lib("null"),
            "--sprt".into(),
            "elo0=0".into(),
            "elo1=10".into(),
            "alpha=0.05".into(),
            "beta=0.05".into(),
        ],
    );
    ok(&out);
    let n = games(&dir).len();
    assert!(n < 1000, "stopped early ({n} games)");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["sprt"]["decision"], "H1");
    assert!(summary["sprt"]["llr"].as_f64().unwrap() >= summary["sprt"]["upper"].as_f64().unwrap());
    // Every complete pair was won twice; at most the games in flight are unpaired.
    let whole = summary["pairings"][0]["penta"][4].as_u64().unwrap() as usize;
    assert!(whole * 2 + 2 >= n, "{whole} whole pairs of {n} games");
    // A decided test stays decided: resuming it plays nothing more.
    let again = judge(
        &["match", "--pairs", "500", "--quiet", "--resume", &d],
        &[
            lib("legal"),
            lib("null"),
            "--sprt".into(),
            "elo0=0".into(),
            "elo1=10".into(),
            "alpha=0.05".into(),
            "beta=0.05".into(),
        ],
    );
    ok(&again);
    assert!(String::from_utf8_lossy(&again.stderr).contains(" 0 games to play"));
}

#[test]
fn killing_the_judge_loses_only_games_in_flight() {
    let run = tempfile::tempdir().unwrap();
    let dir = run.path().join("k");
    let d = dir.display().to_string();
    // A private copy, so its path identifies this test's hosts in /proc.
    let slow = run.path().join("slow-kill.so");
    std::fs::copy(lib("slow"), &slow).unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "match",
        "--pairs",
        "4",
        "--seed",
        "8",
        "--quiet",
        "--concurrency",
        "2",
        "--move-limit-ms",
        "1000",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(base)
        .args(["--out", &d])
        .arg(&slow)
        .arg(lib("legal"))
        .current_dir(cwd.path())
        .env("TMPDIR", tmp.path())
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1800));
    child.kill().unwrap();
    child.wait().unwrap();
    let logged = std::fs::read_to_string(dir.join("games.jsonl")).unwrap_or_default();
    let before = logged
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count();
    assert!(before < 8, "killed before the end ({before} games logged)");
    // The hosts died with their parent.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let needle = slow.display().to_string();
    let orphans: Vec<_> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).contains(&needle))
        .collect();
    assert!(orphans.is_empty(), "host processes outlived the judge");
    assert!(std::fs::read_dir(cwd.path()).unwrap().next().is_none());
    // Resume with the same TMPDIR: the killed judge's scratch directories are swept.
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args([&base[..], &["--resume", &d]].concat())
        .arg(&slow)
        .arg(lib("legal"))
        .current_dir(cwd.path())
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    ok(&out);
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "stale scratch directories: {left:?}");
    assert!(std::fs::read_dir(cwd.path()).unwrap().next().is_none());
    let after = games(&dir);
    assert_eq!(after.len(), 8);
    let ids: std::collections::HashSet<_> = after
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 8);
}
