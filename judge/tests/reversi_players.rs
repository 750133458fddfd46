//! The Reversi program players, `gtp:` and `botzone:`, end to end: the Python test
//! programs of `fixtures/reversi/` (copied to a private directory per test, so a scan of
//! `/proc` finds any process left behind) play whole games under the referee and lose by
//! their verdicts when they misbehave; the `reversi` binary plays in both protocols and
//! under both rules through `judge match --game reversi`; and a match against Debian's
//! `gtp-rhino` when it is installed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use gravity4_judge::games::reversi::{Move, Reversi, Rule};
use gravity4_judge::games::{Game, Side, Termination};
use gravity4_judge::players::{LogSink, Player, PlayerSpec, ProcessSettings};
use gravity4_judge::referee::{self, Outcome};

mod common;

use common::{games, ok, reversi_binary};
use testkit::partner::skip_without;
use testkit::process::processes_under;

/// A player from its command-line form, logging into `logs`.
fn open(arg: &str, logs: &Path) -> Box<dyn Player<Reversi>> {
    let spec = PlayerSpec::parse(Path::new(arg)).unwrap();
    spec.check().unwrap();
    let settings = ProcessSettings {
        exe: PathBuf::from("/nonexistent"),
        memory_limit_mb: 512,
    };
    let name = spec.base_name().replace(['/', '#', ' '], "_");
    let log = Arc::new(LogSink::open(&logs.join(format!("{name}.log")), 1 << 20).unwrap());
    spec.open_reversi(&settings, log)
}

/// `gtp:python3 DIR/gtp_bot.py` or `botzone:python3 DIR/botzone_bot.py [--keep-running]`
/// in `mode`.
fn fixture(kind: &str, dir: &Path, mode: &str) -> String {
    // The kept bot carries one more variable, so its name (and its log) differs from the
    // one-turn bot's.
    let (scheme, script, extra, env) = match kind {
        "gtp" => ("gtp", "gtp_bot.py", "", ""),
        "botzone" => ("botzone", "botzone_bot.py", "", ""),
        "keep" => (
            "botzone",
            "botzone_bot.py",
            " --keep-running",
            ",FIXTURE_KEPT=1",
        ),
        _ => unreachable!(),
    };
    format!(
        "{scheme}:python3 {}{extra}@FIXTURE_MODE={mode}{env}",
        dir.join(script).display()
    )
}

/// The limit a move in these games: far above what the test programs need (milliseconds), so
/// that a Python program starved of CPU by a match running beside the tests is not judged
/// timed out before its first answer (seen at 2 s: 1.5-2 s a move for 0.1 s of CPU). The
/// hanging programs cost this much each.
const MOVE_LIMIT: Duration = Duration::from_secs(6);

/// One game of `first` (black) against `second` on board `seed`, both freshly opened.
fn game(first: &str, second: &str, seed: u64, logs: &Path) -> Outcome<Reversi> {
    let game = Reversi {
        rule: Rule::Standard,
    };
    let setup = game.setup(seed);
    let mut a = open(first, logs);
    let mut b = open(second, logs);
    referee::play(&game, &setup, [a.as_mut(), b.as_mut()], MOVE_LIMIT)
}

/// The moves replay legally from the game's opening to its end.
fn assert_whole_legal_game(o: &Outcome<Reversi>, seed: u64) {
    let game = Reversi {
        rule: Rule::Standard,
    };
    let mut position = game.start(&game.setup(seed));
    for &mv in &o.moves {
        assert!(game.is_legal(&position, mv), "{mv} is not legal: {o:?}");
        game.play(&mut position, mv);
    }
    let end = game.end(&position);
    assert!(end.is_some(), "the game did not reach its end: {o:?}");
    assert_eq!(end.unwrap().winner, o.winner, "{o:?}");
    assert_eq!(o.termination, Termination::Discs, "{o:?}");
}

#[test]
fn gtp_and_botzone_programs_play_whole_legal_games() {
    let dir = common::copied_scripts("reversi");
    let logs = tempfile::tempdir().unwrap();
    for (seed, (a, b)) in [
        ("gtp", "botzone"),
        ("botzone", "gtp"),
        ("keep", "gtp"),
        ("gtp", "keep"),
    ]
    .into_iter()
    .enumerate()
    {
        let o = game(
            &fixture(a, dir.path(), "legal"),
            &fixture(b, dir.path(), "legal"),
            seed as u64,
            logs.path(),
        );
        assert_whole_legal_game(&o, seed as u64);
        // Every answer's CPU time was read from its program's own clock.
        assert!(
            o.cpu_ms.iter().all(|c| c.is_some_and(|ms| ms >= 0.0)),
            "{o:?}"
        );
        if a == "botzone" {
            // A process per turn: its start-up (Python's) is part of each of its moves.
            let mut first_movers = o.cpu_ms.iter().step_by(2).flatten();
            assert!(first_movers.all(|&ms| ms > 1.0), "{o:?}");
        }
    }
    assert!(processes_under(dir.path()).is_empty());
    // The Botzone bot checked the `data` handed back and logged its `debug` via the judge.
    let bot_log = std::fs::read_to_string(logs.path().join("botzone_bot@MODE=legal.log")).unwrap();
    assert!(bot_log.contains("botzone debug: turn 2"), "{bot_log}");
    assert!(!bot_log.contains("Traceback"), "{bot_log}");
    // The one-turn bot is sent the whole history every turn; the keep-running bot once, then
    // one request per line.
    assert!(!bot_log.contains("got: {\"x\":"), "{bot_log}");
    let logged: Vec<_> = std::fs::read_dir(logs.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let kept = logged
        .iter()
        .find(|name| name.contains("KEPT=1"))
        .unwrap_or_else(|| panic!("no log of the kept bot among {logged:?}"));
    let keep = std::fs::read_to_string(logs.path().join(kept)).unwrap();
    assert!(keep.contains("got: {\"x\":"), "{keep}");
    // Two games (one per colour), each begun with one full history.
    let histories = keep.lines().filter(|l| l.contains("\"requests\"")).count();
    assert_eq!(histories, 2, "{keep}");
}

#[test]
fn misbehaving_programs_lose_with_their_verdicts_and_leave_nothing() {
    let dir = common::copied_scripts("reversi");
    let logs = tempfile::tempdir().unwrap();
    let cases: [(&str, Termination, &str); 7] = [
        ("garbage", Termination::Garbage, ""),
        ("crash", Termination::Crash, "SIGABRT"),
        ("hang", Termination::Timeout, ""),
        ("illegal", Termination::Illegal, "d4"),
        ("pass", Termination::Illegal, "pass"),
        ("flood", Termination::Garbage, "flood"),
        ("writer", Termination::Discs, ""),
    ];
    for kind in ["gtp", "botzone", "keep"] {
        for (k, (mode, termination, detail)) in cases.iter().enumerate() {
            let bad = fixture(kind, dir.path(), mode);
            let good = fixture(
                if kind == "gtp" { "botzone" } else { "gtp" },
                dir.path(),
                "legal",
            );
            // The misbehaving program plays black on even boards, white on odd ones.
            let seed = k as u64 + 10;
            let (first, second, bad_side) = if k % 2 == 0 {
                (&bad, &good, Side::First)
            } else {
                (&good, &bad, Side::Second)
            };
            let o = game(first, second, seed, logs.path());
            let what = format!("{kind} {mode}: {o:?}");
            assert_eq!(o.termination, *termination, "{what}");
            if *termination == Termination::Discs {
                assert_whole_legal_game(&o, seed);
                continue;
            }
            assert_eq!(o.winner, Some(bad_side.other()), "{what}");
            let text = o.detail.clone().unwrap_or_default();
            assert!(text.contains(detail), "{what}");
            // Mid-game: the opening and a few moves were played first.
            assert!(o.moves.len() >= 2, "{what}");
        }
    }
    // A garbage answer's verdict quotes it, in each protocol's words.
    for (gtp, botzone, says) in [
        (
            "garbage",
            "legal",
            "`genmove black` answered \"banana\", not a move",
        ),
        (
            "legal",
            "garbage",
            "output \"banana\" is not one JSON object",
        ),
    ] {
        let o = game(
            &fixture("gtp", dir.path(), gtp),
            &fixture("botzone", dir.path(), botzone),
            3,
            logs.path(),
        );
        let detail = o.detail.as_deref().unwrap_or_default();
        assert!(detail.starts_with(says), "{o:?}");
    }
    assert!(processes_under(dir.path()).is_empty());
}

#[test]
fn an_engine_refusing_the_set_up_loses_by_load() {
    let dir = common::copied_scripts("reversi");
    let logs = tempfile::tempdir().unwrap();
    let o = game(
        &fixture("gtp", dir.path(), "legal"),
        &fixture("gtp", dir.path(), "reject"),
        1,
        logs.path(),
    );
    assert_eq!(o.termination, Termination::Load, "{o:?}");
    assert_eq!(o.winner, Some(Side::First));
    assert_eq!(
        o.detail.as_deref(),
        Some("`boardsize 8` answered `? unacceptable size`")
    );
    assert!(o.moves.is_empty());
    assert!(processes_under(dir.path()).is_empty());
}

#[test]
fn a_gtp_engine_that_refuses_play_pass_plays_on() {
    // Like gtp-rhino, the fixture answers `? syntax error` to `play black pass`; the judge
    // carries on and asks for white's move, which the engine gives from its own board.
    let dir = common::copied_scripts("reversi");
    let logs = tempfile::tempdir().unwrap();
    let game = Reversi {
        rule: Rule::Standard,
    };
    let setup = game.setup(7);
    let position = game.start(&setup);
    let mut white = open(&fixture("gtp", dir.path(), "legal"), logs.path());
    white.start(&game, &setup, Side::Second).unwrap();
    let answer = white.next_move(&game, &position, Some(Move::Pass), Duration::from_secs(5));
    assert!(
        matches!(answer.reply, Ok(Move::Square { .. })),
        "{:?}",
        answer.reply
    );
    white.stop();
    drop(white);
    let log = std::fs::read_to_string(logs.path().join("gtp_bot@MODE=legal.log")).unwrap();
    let sent: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("got: "))
        .collect();
    let opening: Vec<String> = setup
        .opening_moves()
        .iter()
        .enumerate()
        .map(|(i, m)| format!("play {} {m}", ["black", "white"][i % 2]))
        .collect();
    let mut expected = vec!["boardsize 8".to_string(), "clear_board".to_string()];
    expected.extend(opening);
    expected.extend(
        [
            "time_settings 0 5 1",
            "play black pass",
            "time_left white 5 1",
            "genmove white",
            "quit",
        ]
        .map(String::from),
    );
    assert_eq!(sent, expected);
    assert!(processes_under(dir.path()).is_empty());
}

/// Every logged game is whole and legal under `rule` from its logged opening, and its
/// result agrees with the discs.
fn assert_logged_games_legal(dir: &Path, rule: Rule, count: usize) {
    let game = Reversi { rule };
    let games = games(dir);
    assert_eq!(games.len(), count);
    for g in &games {
        let setup: gravity4_judge::games::reversi::Setup =
            serde_json::from_value(g["board"].clone()).unwrap();
        assert_eq!(setup.rule(), rule);
        let mut position = game.start(&setup);
        for mv in g["moves"].as_array().unwrap() {
            let mv: Move = mv.as_str().unwrap().parse().unwrap();
            assert!(game.is_legal(&position, mv), "{mv} illegal in {g}");
            game.play(&mut position, mv);
        }
        let end = game
            .end(&position)
            .unwrap_or_else(|| panic!("unfinished: {g}"));
        assert_eq!(g["termination"], "discs", "{g}");
        let winner = match g["result"].as_str().unwrap() {
            "1-0" => Some(Side::First),
            "0-1" => Some(Side::Second),
            _ => None,
        };
        assert_eq!(end.winner, winner, "{g}");
    }
}

/// Runs `judge MODE --game reversi PLAYERS... OPTIONS... -q --out RUNS/run` from an
/// empty directory that must stay empty, checks that it succeeded, and returns the run
/// directory.
fn run_reversi(runs: &Path, mode: &str, players: &[String], options: &[&str]) -> PathBuf {
    let out_dir = runs.join("run");
    let mut args = vec![mode.to_string(), "--game".into(), "reversi".into()];
    args.extend(players.iter().cloned());
    args.extend(options.iter().map(|o| o.to_string()));
    args.extend(["-q".into(), "--out".into(), out_dir.display().to_string()]);
    ok(&common::judge_leaving_nothing(&args));
    out_dir
}

#[test]
fn the_reversi_program_plays_gtp_against_botzone_under_both_rules() {
    let r = reversi_binary();
    let r = r.display();
    for (rule, flag, keep) in [
        (Rule::Standard, "", ""),
        (Rule::NoAdjacent, " --rule no-adjacent", " --keep-running"),
    ] {
        let runs = tempfile::tempdir().unwrap();
        let out_dir = run_reversi(
            runs.path(),
            "match",
            &[
                format!("gtp:{r} gtp{flag}@REVERSI_MOVE_MS=50"),
                format!("botzone:{r} botzone{flag}{keep}@REVERSI_MOVE_MS=50"),
            ],
            &["--rule", rule.name(), "--pairs", "2", "--seed", "5"],
        );
        assert_logged_games_legal(&out_dir, rule, 4);
    }
}

#[test]
fn misbehaving_programs_in_a_run_leave_nothing_behind() {
    // A round-robin through the CLI: the file writer plays on, the others lose by their
    // verdicts, and the working directory, TMPDIR (scratch directories) and the process
    // table are clean afterwards.
    let dir = common::copied_scripts("reversi");
    let runs = tempfile::tempdir().unwrap();
    let out_dir = run_reversi(
        runs.path(),
        "round-robin",
        &[
            fixture("gtp", dir.path(), "legal"),
            fixture("keep", dir.path(), "writer"),
            fixture("gtp", dir.path(), "crash"),
            fixture("botzone", dir.path(), "hang"),
        ],
        &["--pairs", "1", "--move-limit-ms", "2000"],
    );
    assert!(processes_under(dir.path()).is_empty());
    for g in games(&out_dir) {
        let loser = match g["loser"].as_str() {
            Some(side) => g[side].as_str().unwrap().to_string(),
            None => String::new(),
        };
        match g["termination"].as_str().unwrap() {
            "discs" => {}
            "crash" => assert!(loser.contains("MODE=crash"), "{g}"),
            "timeout" => assert!(loser.contains("MODE=hang"), "{g}"),
            _ => panic!("unexpected verdict: {g}"),
        }
        // The crashing and the hanging program lose every game against a good one.
        let names = [g["first"].as_str().unwrap(), g["second"].as_str().unwrap()];
        let bad = |n: &str| n.contains("MODE=crash") || n.contains("MODE=hang");
        for (n, other) in [(names[0], names[1]), (names[1], names[0])] {
            if bad(n) && !bad(other) {
                assert_eq!(loser, n, "{g}");
            }
        }
    }
    let summary = std::fs::read_to_string(out_dir.join("summary.json")).unwrap();
    assert!(summary.contains("\"crash\""), "{summary}");
    assert!(summary.contains("\"timeout\""), "{summary}");
}

#[test]
fn reversi_programs_are_refused_for_connect4_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args([
            "match",
            "gtp:sh -c true",
            "botzone:sh -c true",
            "--pairs",
            "1",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a GTP engine (Reversi or Go); Connect-4 needs course-ABI libraries or saiblo: programs (add --game reversi or --game go)"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_match_against_gtp_rhino() {
    let rhino = Path::new("/usr/games/gtp-rhino");
    if skip_without(
        rhino.exists(),
        "/usr/games/gtp-rhino (apt-get install grhino)",
    ) {
        return;
    }
    let r = reversi_binary();
    let runs = tempfile::tempdir().unwrap();
    let out_dir = run_reversi(
        runs.path(),
        "match",
        &[
            format!("gtp:{} gtp@REVERSI_MOVE_MS=50", r.display()),
            "gtp:/usr/games/gtp-rhino -l 1".into(),
        ],
        &["--pairs", "1", "--seed", "3"],
    );
    assert_logged_games_legal(&out_dir, Rule::Standard, 2);
}

#[test]
fn gtp_engines_are_kept_across_games_with_reuse_process() {
    // The fixture logs every command it reads: with --reuse-process one process (one
    // `quit`) plays all 4 games, each set up anew; without it, one process per game.
    let dir = common::copied_scripts("reversi");
    for (reuse, quits) in [(true, 1), (false, 4)] {
        let runs = tempfile::tempdir().unwrap();
        let mut options = vec!["--pairs", "2", "--concurrency", "1"];
        if reuse {
            options.push("--reuse-process");
        }
        let out_dir = run_reversi(
            runs.path(),
            "match",
            &[
                fixture("gtp", dir.path(), "legal"),
                fixture("gtp", dir.path(), "writer"),
            ],
            &options,
        );
        assert_logged_games_legal(&out_dir, Rule::Standard, 4);
        for name in ["gtp_bot@MODE=legal", "gtp_bot@MODE=writer"] {
            let log =
                std::fs::read_to_string(out_dir.join("logs").join(format!("{name}.log"))).unwrap();
            let count = |what: &str| log.lines().filter(|l| *l == what).count();
            assert_eq!(count("got: boardsize 8"), 4, "{name}: {log}");
            assert_eq!(count("got: quit"), quits, "{name} reuse={reuse}");
        }
    }
    assert!(processes_under(dir.path()).is_empty());
}
