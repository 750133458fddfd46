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

use common::FIXTURES;

/// The Reversi fixtures copied into a fresh directory.
fn programs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(Path::new(FIXTURES).join("reversi")).unwrap() {
        let src = entry.unwrap().path();
        if src.extension().is_some_and(|e| e == "py") {
            std::fs::copy(&src, dir.path().join(src.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// Processes whose command line mentions `dir`, once the ones being killed are gone.
fn processes_under(dir: &Path) -> Vec<String> {
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
        std::thread::sleep(Duration::from_millis(20));
        alive = scan();
    }
    alive
}

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
    let (scheme, script, extra) = match kind {
        "gtp" => ("gtp", "gtp_bot.py", ""),
        "botzone" => ("botzone", "botzone_bot.py", ""),
        "keep" => ("botzone", "botzone_bot.py", " --keep-running"),
        _ => unreachable!(),
    };
    format!(
        "{scheme}:python3 {}{extra}@FIXTURE_MODE={mode}",
        dir.join(script).display()
    )
}

/// One game of `first` (black) against `second` on board `seed`, both freshly opened.
fn game(first: &str, second: &str, seed: u64, logs: &Path) -> Outcome<Reversi> {
    let game = Reversi {
        rule: Rule::Standard,
    };
    let setup = game.setup(seed);
    let mut a = open(first, logs);
    let mut b = open(second, logs);
    referee::play(
        &game,
        &setup,
        [a.as_mut(), b.as_mut()],
        Duration::from_millis(2000),
    )
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
    let dir = programs();
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
    }
    assert!(processes_under(dir.path()).is_empty());
    // The Botzone bot checked the `data` handed back and logged its `debug` via the judge.
    let bot_log = std::fs::read_to_string(logs.path().join("botzone_bot@MODE=legal.log")).unwrap();
    assert!(bot_log.contains("botzone debug: turn 2"), "{bot_log}");
    assert!(!bot_log.contains("Traceback"), "{bot_log}");
    // The keep-running bot was sent the history once, then one request per line.
    let keep = std::fs::read_to_string(logs.path().join("botzone_bot@MODE=legal.log")).unwrap();
    assert!(keep.contains("got: {\"x\":"), "{keep}");
}

#[test]
fn misbehaving_programs_lose_with_their_verdicts_and_leave_nothing() {
    let dir = programs();
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
    let garbage = game(
        &fixture("gtp", dir.path(), "garbage"),
        &fixture("botzone", dir.path(), "legal"),
        3,
        logs.path(),
    );
    assert!(
        garbage
            .detail
            .as_deref()
            .is_some_and(|d| d.contains("`genmove black` answered \"banana\", not a move")),
        "{garbage:?}"
    );
    let garbage = game(
        &fixture("gtp", dir.path(), "legal"),
        &fixture("botzone", dir.path(), "garbage"),
        3,
        logs.path(),
    );
    assert!(
        garbage
            .detail
            .as_deref()
            .is_some_and(|d| d.starts_with("output \"banana\" is not one JSON object")),
        "{garbage:?}"
    );
    assert!(processes_under(dir.path()).is_empty());
}

#[test]
fn an_engine_refusing_the_set_up_loses_by_load() {
    let dir = programs();
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
    let dir = programs();
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
