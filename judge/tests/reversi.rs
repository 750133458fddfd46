//! `--game reversi` from the command line: the usage errors that come before any game
//! (`--rule` without Reversi, Connect-4 players in a Reversi run), the per-game defaults
//! in `--help`, and `judge replay` of a Reversi log (passes included) through a pipe.

use std::path::Path;
use std::process::Command;

use gravity4_judge::games::Game;
use gravity4_judge::games::reversi::{Move, Reversi, Rule};
use gravity4_judge::record::{GameLog, GameRecord, GameResult};

mod common;

/// Runs the judge from `cwd` and expects exit status 1 with one line containing `expect`
/// on stderr, and no run directory.
fn refused(cwd: &Path, args: &[&str], expect: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .args(["--quiet", "--out", "never"])
        .current_dir(cwd)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(expect), "{args:?}: {err}");
    assert!(
        !cwd.join("never").exists(),
        "{args:?} created its run directory"
    );
}

#[test]
fn reversi_usage_errors_come_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let legal = common::fixture(dir.path(), "legal", &[]);
    let legal = legal.to_str().unwrap();
    refused(
        dir.path(),
        &["match", legal, legal, "--rule", "no-adjacent"],
        "--rule no-adjacent is a Reversi rule: give --game reversi",
    );
    refused(
        dir.path(),
        &["match", legal, legal, "--game", "reversi"],
        "legal.so` is a Connect-4 course-ABI library; Reversi needs gtp: or botzone: players",
    );
    refused(
        dir.path(),
        &[
            "round-robin",
            legal,
            legal,
            "saiblo:sh -c true",
            "--game",
            "reversi",
            "--rule",
            "standard",
        ],
        "Reversi needs gtp: or botzone: players",
    );
    // A bad rule or game name is the argument parser's error (exit 2).
    for bad in [["--game", "chess"], ["--rule", "sideways"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(["match", legal, legal])
            .args(bad)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    // `judge play` refuses a library for Reversi, and Connect-4's board options.
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["play", legal, "--game", "reversi"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Reversi needs gtp:"));
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["play", legal, "--game", "reversi", "--size", "9x9"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--size and --blocked shape a Connect-4 board")
    );
}

#[test]
fn help_names_the_games_and_their_limits() {
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["help", "match"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "--game <GAME>",
        "connect4",
        "reversi",
        "--rule <RULE>",
        "Reversi and Go 6000",
        "`go` (Go on a square board",
        "--komi <KOMI>",
        "--main-time <S>",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

/// A whole no-adjacent game between two scripted players (first legal move against last),
/// which passes at least once, logged as a tournament logs it.
fn logged_game(path: &Path) -> GameRecord<Reversi> {
    let game = Reversi {
        rule: Rule::NoAdjacent,
    };
    for seed in 0..500u64 {
        let board = game.setup(seed);
        let mut p = game.start(&board);
        let mut moves = Vec::new();
        loop {
            let legal = game.legal_moves(&p);
            let Some(&mv) = (if moves.len() % 2 == 0 {
                legal.first()
            } else {
                legal.last()
            }) else {
                break;
            };
            moves.push(game.play(&mut p, mv));
        }
        if !moves.contains(&Move::Pass) {
            continue;
        }
        let end = game.end(&p).unwrap();
        let loser = end.winner.map(|w| w.other());
        let record = GameRecord {
            id: "0-0-0".into(),
            pairing: 0,
            pair: 0,
            game: 0,
            first: "firsty".into(),
            second: "lasty".into(),
            first_path: "firsty".into(),
            second_path: "lasty".into(),
            result: GameResult::of(end.winner),
            termination: end.termination,
            course_code: 0,
            loser,
            detail: None,
            illegal_point: None,
            board,
            moves: moves.clone(),
            move_ms: vec![1.0; moves.len()],
            cpu_ms: vec![None; moves.len()],
            seed: 1,
            board_seed: seed,
            margin: end.margin,
            peak_rss_kb: [None, None],
        };
        GameLog::open(path).unwrap().append(&record).unwrap();
        return record;
    }
    panic!("no game with a pass in 500 openings");
}

#[test]
fn replay_steps_through_a_reversi_game_with_its_passes() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let record = logged_game(&log);
    let pass_at = record.moves.iter().position(|m| *m == Move::Pass).unwrap();
    // Step to the move just after the pass, then to the end.
    let mut keys = "n\n".repeat(pass_at + 1);
    keys.push_str("G\nq\n");
    let out = common::judge_typing(
        dir.path(),
        ["replay", log.to_str().unwrap()],
        keys.as_bytes(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Reversi 8x8, rule no-adjacent, opening "),
        "{text}"
    );
    assert!(text.contains("    a  b  c  d  e  f  g  h "), "{text}");
    assert!(text.contains("\n 8 "), "rows are numbered 1..8: {text}");
    // The start already has a last move, the opening's, and it is marked.
    let game = Reversi {
        rule: Rule::NoAdjacent,
    };
    let (row, col) = game
        .last_cell(&game.start(&record.board))
        .expect("an opening ends with a move");
    let start = &text[..text.find("Start:").expect("the start frame")];
    let marked = start
        .lines()
        .find(|l| l.starts_with(&format!("{:>2} ", row + 1)))
        .expect("the opening's row");
    assert_eq!(
        marked.chars().position(|c| c == '[').map(|i| (i - 3) / 3),
        Some(col as usize),
        "{start}"
    );
    let mover = if pass_at % 2 == 0 { "firsty" } else { "lasty" };
    assert!(
        text.contains(&format!(
            "Move {}/{}: {mover} passed in 1.0 ms.",
            pass_at + 1,
            record.moves.len()
        )),
        "{text}"
    );
    let margin = record.margin.unwrap();
    assert!(
        text.contains(&format!("Result {}", record.result.as_str()))
            && text.contains(&format!("by {margin} discs (discs")),
        "{text}"
    );
}
