//! Sharded runs end to end: a seeded match played whole and as shards merges back into
//! the same games and counts; `judge merge` refuses parts of other runs or builds and
//! warns about missing ones; `judge status` reads the SPRT over all shards; the GNU
//! parallel recipe runs shards on this machine and merges them. A closed stdout ends any
//! command without a panic.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output};

use serde_json::Value;

mod common;

use common::{games, ok};

/// A working directory holding `legal.so` and `fast.so` (deterministic players: `fast`
/// draws from a fixed seed in a fresh process per game, so replays give the same games).
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::fixture(dir.path(), "legal", &[]);
    common::fixture(dir.path(), "fast", &[]);
    dir
}

fn judge(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .current_dir(cwd)
        .env("TMPDIR", cwd)
        .output()
        .expect("run judge")
}

fn refused(out: &Output, what: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "accepted, expected: {what:?}");
    for w in what {
        assert!(err.contains(w), "{what:?} not in: {err}");
    }
}

fn json(path: PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn game_keys(dir: &Path) -> Vec<String> {
    let mut keys: Vec<String> = games(dir)
        .iter()
        .map(|g| {
            let fields = [
                "id",
                "pairing",
                "pair",
                "game",
                "first",
                "second",
                "first_path",
                "second_path",
                "board",
                "board_seed",
                "seed",
                "result",
                "termination",
                "moves",
            ];
            fields.map(|f| g[f].to_string()).join(" ")
        })
        .collect();
    keys.sort();
    keys
}

/// summary.json without timings, memory peaks and the merge's own fields.
fn counts(dir: &Path) -> Value {
    let mut s = json(dir.join("summary.json"));
    for p in s["players"].as_array_mut().unwrap() {
        for f in ["move_ms_mean", "move_ms_max", "cpu_ms_mean", "peak_rss_mb"] {
            p.as_object_mut().unwrap().remove(f);
        }
    }
    for f in ["missing_games", "missing_shards"] {
        s.as_object_mut().unwrap().remove(f);
    }
    s
}

const MATCH: [&str; 9] = [
    "match",
    "legal.so",
    "fast.so",
    "--pairs",
    "6",
    "--seed",
    "11",
    "-q",
    "--concurrency=2",
];

/// [`MATCH`] played whole into run directory `out`.
fn match_into(out: &str) -> Vec<&str> {
    let mut args = MATCH.to_vec();
    args.extend(["--out", out]);
    args
}

fn shard(cwd: &Path, shard: &str, out: &str, extra: &[&str]) {
    let mut args = match_into(out);
    args.extend(["--shard", shard]);
    args.extend(extra);
    ok(&judge(cwd, &args));
}

/// `judge ARGS...` in `cwd` with its stdout a pipe whose reader is already gone, as when
/// `judge status DIR | head` stops reading early; checks that it did not panic and gives
/// its exit status and stderr.
fn judge_into_closed_pipe(cwd: &Path, args: &[&str]) -> (ExitStatus, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .current_dir(cwd)
        .env("TMPDIR", cwd)
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (out.status, err)
}

/// A closed stdout never makes the judge panic: a tournament keeps its games and says so in
/// one line, and the commands that only read logs end by SIGPIPE, as `cat` would.
#[test]
fn a_closed_stdout_ends_the_judge_without_a_panic() {
    let dir = workdir();
    let cwd = dir.path();
    let (status, err) = judge_into_closed_pipe(cwd, &match_into("run"));
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("printing the results table"), "{err}");
    assert_eq!(games(&cwd.join("run")).len(), 12);
    for command in ["status", "report"] {
        let (status, err) = judge_into_closed_pipe(cwd, &[command, "run"]);
        assert_eq!(status.signal(), Some(libc::SIGPIPE), "{command}: {err}");
    }
}

#[test]
fn shards_merge_into_the_unsharded_run_and_foreign_parts_are_refused() {
    let dir = workdir();
    let cwd = dir.path();
    ok(&judge(cwd, &match_into("full")));
    shard(cwd, "1/2", "s1", &[]);
    shard(cwd, "2/2", "s2", &[]);
    assert_eq!(
        games(&cwd.join("s1")).len() + games(&cwd.join("s2")).len(),
        12
    );
    let info = json(cwd.join("s2/run.json"));
    assert_eq!(info["shard"], "2/2");
    assert_eq!(info["schedule_sha256"].as_str().unwrap().len(), 64);
    assert_eq!(info["player_files"][1]["path"], "fast.so");

    let out = ok(&judge(cwd, &["merge", "s1", "s2", "--out", "m"]));
    assert!(out.contains("legal vs fast: 12-0-0"), "{out}");
    assert!(out.contains("12 of 12 games"), "{out}");
    let m = cwd.join("m");
    assert_eq!(game_keys(&m), game_keys(&cwd.join("full")));
    assert_eq!(counts(&m), counts(&cwd.join("full")));
    let summary = json(m.join("summary.json"));
    assert_eq!(summary["missing_games"], 0);
    assert_eq!(summary["missing_shards"], serde_json::json!([]));
    assert!(m.join("report.html").exists());
    assert!(m.join("logs/shard-2/fast.log").exists());
    let info = json(m.join("run.json"));
    assert_eq!(info["merged"]["parts"].as_array().unwrap().len(), 2);
    assert!(info.get("shard").is_none());
    // Ordered as an unsharded run orders them: board by board, colours in order.
    let ids: Vec<String> = games(&m).iter().map(|g| g["id"].to_string()).collect();
    let want: Vec<String> = (0..6)
        .flat_map(|p| (0..2).map(move |g| format!("\"0-{p}-{g}\"")))
        .collect();
    assert_eq!(ids, want);
    // The merged run reads like any run.
    let report = ok(&judge(cwd, &["report", "m"]));
    assert!(report.contains("legal vs fast: 12-0-0"), "{report}");
    let status = ok(&judge(cwd, &["status", "s1", "s2"]));
    assert!(status.contains("overall: 12 of 12 games"), "{status}");
    // A shard given twice, as the same directory or as a copy.
    refused(
        &judge(cwd, &["merge", "s1", "s2", "s1", "--out", "x"]),
        &["shard given twice", "s1"],
    );
    copy_dir(&cwd.join("s1"), &cwd.join("s1copy"));
    refused(
        &judge(cwd, &["merge", "s1", "s2", "s1copy", "--out", "x"]),
        &["shard 1/2 given twice", "s1", "s1copy"],
    );
    // A game logged in two parts (a part holding another shard's games).
    copy_dir(&cwd.join("s2"), &cwd.join("s2extra"));
    let line = std::fs::read_to_string(cwd.join("s1/games.jsonl")).unwrap();
    let mut extra = std::fs::read_to_string(cwd.join("s2extra/games.jsonl")).unwrap();
    let first = line.lines().next().unwrap();
    extra.push_str(first);
    extra.push('\n');
    std::fs::write(cwd.join("s2extra/games.jsonl"), extra).unwrap();
    let id = serde_json::from_str::<Value>(first).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    refused(
        &judge(cwd, &["merge", "s1", "s2extra", "--out", "x"]),
        &[&format!("game {id} is in two parts"), "s1", "s2extra"],
    );
    // A shard from another seed.
    let mut other = MATCH.to_vec();
    other[6] = "12";
    other.extend(["--shard", "2/2", "--out", "seed12"]);
    ok(&judge(cwd, &other));
    refused(
        &judge(cwd, &["merge", "s1", "seed12", "--out", "x"]),
        &["seed 12", "seed 11", "seed12", "s1"],
    );
    // Split differently.
    shard(cwd, "2/3", "third", &[]);
    refused(
        &judge(cwd, &["merge", "s1", "third", "--out", "x"]),
        &["split differently", "third"],
    );
    // Another SPRT.
    shard(
        cwd,
        "2/2",
        "sprt",
        &["--sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"],
    );
    refused(
        &judge(cwd, &["status", "s1", "sprt"]),
        &["different SPRT parameters", "sprt", "s1"],
    );
    // --shard without --seed is a usage error; with --resume the run's own shard holds.
    let out = judge(cwd, &["match", "legal.so", "fast.so", "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard needs --seed"));
    let out = judge(
        cwd,
        &[
            "match", "legal.so", "fast.so", "--pairs", "6", "--resume", "s1", "-q",
        ],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 1/2"));
    let out = judge(
        cwd,
        &[
            "match", "legal.so", "fast.so", "--pairs", "6", "--resume", "s1", "--shard", "2/2",
        ],
    );
    refused(&out, &["that run is shard 1/2"]);
    let out = judge(
        cwd,
        &[
            "match", "legal.so", "fast.so", "--pairs", "7", "--resume", "s1",
        ],
    );
    refused(&out, &["that shard's schedule had --pairs 6"]);
    // A shard played with another build of a library (same path, other bytes).
    common::fixture(cwd, "fast", &["-O2", "-DANOTHER_BUILD=1"]);
    shard(cwd, "2/2", "rebuilt", &[]);
    refused(
        &judge(cwd, &["merge", "s1", "rebuilt", "--out", "x"]),
        &[
            "player file fast.so differs",
            "another build",
            "s1",
            "rebuilt",
        ],
    );
    assert!(!cwd.join("x").join("games.jsonl").exists());

    // Nor does a run resume with another build.
    let out = judge(
        cwd,
        &[
            "match", "legal.so", "fast.so", "--pairs", "6", "--resume", "s1",
        ],
    );
    refused(&out, &["fast.so changed since the run started"]);
}

#[test]
fn round_robins_and_gauntlets_merge_into_the_unsharded_run() {
    let dir = workdir();
    let cwd = dir.path();
    common::fixture(cwd, "null", &[]);
    for (mode, players) in [
        ("round-robin", vec!["legal.so", "fast.so", "null.so"]),
        ("gauntlet", vec!["fast.so", "--vs", "legal.so", "null.so"]),
    ] {
        let run = |extra: &[&str]| {
            let mut args = vec![mode];
            args.extend(&players);
            args.extend(["--pairs", "3", "--seed", "5", "-q", "--concurrency=2"]);
            args.extend(extra);
            ok(&judge(cwd, &args));
        };
        let full = format!("{mode}-full");
        run(&["--out", &full]);
        let mut parts = Vec::new();
        for i in 1..=3 {
            let (s, o) = (format!("{i}/3"), format!("{mode}-{i}"));
            run(&["--shard", &s, "--out", &o]);
            parts.push(o);
        }
        let merged = format!("{mode}-merged");
        let mut args: Vec<&str> = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["--out", &merged]);
        ok(&judge(cwd, &args));
        assert_eq!(
            game_keys(&cwd.join(&merged)),
            game_keys(&cwd.join(&full)),
            "{mode}"
        );
        assert_eq!(
            counts(&cwd.join(&merged)),
            counts(&cwd.join(&full)),
            "{mode}"
        );
    }
}

#[test]
fn a_partial_merge_warns_and_counts_what_is_missing() {
    let dir = workdir();
    let cwd = dir.path();
    for i in 1..=3 {
        shard(cwd, &format!("{i}/3"), &format!("s{i}"), &[]);
    }
    // Shard 3 was stopped mid-board: three of its four games, the last one half a board.
    let log = std::fs::read_to_string(cwd.join("s3/games.jsonl")).unwrap();
    let kept: Vec<&str> = log.lines().take(3).collect();
    std::fs::write(cwd.join("s3/games.jsonl"), kept.join("\n") + "\n").unwrap();

    let out = judge(cwd, &["merge", "s1", "s3", "--out", "m"]);
    ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: missing shards: 2/3"), "{err}");
    assert!(
        err.contains("shard 3/3 (s3) is incomplete: 2 of 4 games"),
        "{err}"
    );
    assert!(
        err.contains("1 game(s) of half-played boards left out"),
        "{err}"
    );
    assert!(
        err.contains("6 of 12 games of the schedule are missing"),
        "{err}"
    );
    let summary = json(cwd.join("m/summary.json"));
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["missing_games"], 6);
    assert_eq!(summary["missing_shards"], serde_json::json!([2]));
    let info = json(cwd.join("m/run.json"));
    assert_eq!(info["merged"]["missing_games"], 6);
    let status = ok(&judge(cwd, &["status", "s1", "s3"]));
    assert!(status.contains("shard 2/3: not given"), "{status}");
    assert!(status.contains("overall: 6 of 12 games"), "{status}");
}

#[test]
fn status_reads_the_sprt_over_all_shards() {
    let dir = workdir();
    let cwd = dir.path();
    let sprt = ["--sprt", "elo0=0", "elo1=400", "alpha=0.05", "beta=0.05"];
    let mut args = MATCH.to_vec();
    args[4] = "8";
    for i in 1..=2 {
        let mut a = args.clone();
        let (s, o) = (format!("{i}/2"), format!("s{i}"));
        a.extend(["--shard", &s, "--out", &o]);
        a.extend(sprt);
        ok(&judge(cwd, &a));
        // A shard plays its whole part: it cannot stop the others.
        assert_eq!(games(&cwd.join(&o)).len(), 8);
    }
    // Neither shard alone is conclusive; their summed pentanomial counts are.
    let one = judge(cwd, &["status", "s1"]);
    assert_eq!(one.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&one.stdout).contains("after 4 pairs -> continue"));
    let both = judge(cwd, &["status", "s1", "s2"]);
    let text = String::from_utf8_lossy(&both.stdout);
    assert_eq!(both.status.code(), Some(11), "{text}");
    assert!(
        text.contains("over all shards: pentanomial [0, 0, 0, 0, 8]"),
        "{text}"
    );
    assert!(text.contains("after 8 pairs -> H1"), "{text}");
    ok(&judge(cwd, &["merge", "s1", "s2", "--out", "m"]));
    let summary = json(cwd.join("m/summary.json"));
    assert_eq!(summary["sprt"]["decision"], "H1");
    assert_eq!(summary["sprt"]["pairs"], 8);
    // The other way round, H0: exit 10.
    let mut a = args.clone();
    a.swap(1, 2);
    for i in 1..=2 {
        let mut a = a.clone();
        let (s, o) = (format!("{i}/2"), format!("r{i}"));
        a.extend(["--shard", &s, "--out", &o]);
        a.extend(sprt);
        ok(&judge(cwd, &a));
    }
    let both = judge(cwd, &["status", "r1", "r2"]);
    let text = String::from_utf8_lossy(&both.stdout);
    assert_eq!(both.status.code(), Some(10), "{text}");
    assert!(text.contains("after 8 pairs -> H0"), "{text}");
}

#[test]
fn the_gnu_parallel_recipe_runs_four_shards_and_merges_them() {
    let installed = testkit::partner::on_path("parallel").is_some();
    if testkit::partner::skip_without(installed, "GNU parallel (apt-get install -y parallel)") {
        return;
    }
    let dir = workdir();
    let cwd = dir.path();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/parallel-match.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(["--shards", "4", "--out", "pm", "-j", "2", "--"])
        .args([
            "match", "legal.so", "fast.so", "--pairs", "6", "--seed", "11",
        ])
        .args(["--concurrency", "1"])
        .current_dir(cwd)
        .env("JUDGE", env!("CARGO_BIN_EXE_judge"))
        .env("TMPDIR", cwd)
        .output()
        .unwrap();
    let text = ok(&out);
    assert!(text.contains("12 of 12 games"), "{text}");
    for i in 1..=4 {
        assert!(cwd.join(format!("pm/shard-{i}/games.jsonl")).exists());
    }
    let summary = json(cwd.join("pm/merged/summary.json"));
    assert_eq!(
        (summary["games"].as_u64(), summary["missing_games"].as_u64()),
        (Some(12), Some(0))
    );
    assert!(cwd.join("pm/merged/report.html").exists());
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn report_pools_independent_runs_and_keeps_their_boards_apart() {
    let dir = workdir();
    let cwd = dir.path();
    for (seed, out) in [("11", "a"), ("12", "b")] {
        let mut args = MATCH.to_vec();
        args[4] = "3";
        args[6] = seed;
        args.extend(["--out", out]);
        ok(&judge(cwd, &args));
    }
    let one = |d: &str| {
        let out = judge(cwd, &["report", d]);
        ok(&out);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let pentanomial = |text: &str| {
        let needle = "pentanomial [0, ½, 1, 1½, 2] = [";
        let at = text.find(needle).expect(text) + needle.len();
        let counts = &text[at..at + text[at..].find(']').unwrap()];
        counts
            .split(", ")
            .map(|c| c.parse::<u64>().unwrap())
            .collect::<Vec<_>>()
    };
    let (a, b) = (pentanomial(&one("a")), pentanomial(&one("b")));
    let summary = || std::fs::read_to_string(cwd.join("a/summary.json")).unwrap();
    let before = summary();
    let out = judge(cwd, &["report", "a", "b"]);
    ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    // Both runs number their boards 0..3: pooled, they are six pairs, not three.
    let summed: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(pentanomial(&text), summed, "{text}");
    assert_eq!(summed.iter().sum::<u64>(), 6);
    assert!(
        text.contains("2 runs pooled (seeds 11, 12): 12 games"),
        "{text}"
    );
    // A pooled report writes nothing.
    assert_eq!(summary(), before);
    assert!(!text.contains("report.html"), "{text}");
    // Runs of other players are refused.
    let mut args = MATCH.to_vec();
    args.swap(1, 2);
    args[4] = "1";
    args.extend(["--out", "c"]);
    ok(&judge(cwd, &args));
    refused(
        &judge(cwd, &["report", "a", "c"]),
        &["c: not the same players"],
    );
}
