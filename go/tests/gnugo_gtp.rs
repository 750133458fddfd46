//! Whole 9x9 games of `go-engine gtp` against GNU Go 3.8 over GTP, refereed here:
//!
//! ```text
//! /usr/games/gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead --positional-superko
//! ```
//!
//! The referee asks the side to move for `genmove` and tells the other side with `play`; each
//! side must accept every move of the other (same rules: area scoring, positional superko,
//! suicide illegal). Our engine plays at 50 ms a move without resigning, so every game ends
//! in two passes, and then both engines score the final position with `final_score`: the
//! scores must agree (dead stones judged alike), every disagreement printed with the
//! position. Without GNU Go the test is skipped, except under `CI=true`, where it fails.
//!
//! The CI test plays 2 games; `cargo test --profile ci -p go-engine --test gnugo_gtp --
//! --ignored --nocapture` plays 20 more and prints each one's result.

mod common;

use common::ENGINE;
use testkit::partner::{GNUGO, gnugo_missing};
use testkit::process::GtpProcess;

/// The result of one game.
#[derive(Debug)]
struct Outcome {
    moves: usize,
    ours: String,
    theirs: String,
    board: String,
}

/// `B+3.5`, `W+7`, `0` as Black's margin.
fn margin(result: &str) -> f64 {
    let value = |s: &str| {
        s.parse::<f64>()
            .unwrap_or_else(|_| panic!("result {result:?}"))
    };
    match result.split_once('+') {
        Some(("B", n)) => value(n),
        Some(("W", n)) => -value(n),
        _ if result == "0" => 0.0,
        _ => panic!("result {result:?}"),
    }
}

/// Plays one game, our engine Black when `we_are_black`.
fn play_game(we_are_black: bool, seed_moves: &[&str]) -> Outcome {
    // Our engine resigns lost games; here every game is played out to be scored.
    let mut ours = GtpProcess::start_with_env(
        "go-engine",
        ENGINE,
        &["gtp", "--move-ms", "50"],
        &[("GO_RESIGN", "0")],
    );
    ours.ok("protocol_version");
    let mut gnugo = GtpProcess::start(
        "gnugo",
        GNUGO,
        &[
            "--mode",
            "gtp",
            "--level",
            "1",
            "--chinese-rules",
            "--capture-all-dead",
            "--positional-superko",
        ],
    );
    for engine in [&mut ours, &mut gnugo] {
        engine.ok("boardsize 9");
        engine.ok("clear_board");
        engine.ok("komi 7");
    }
    let mut color = "black";
    let mut passes = 0;
    let mut moves = 0;
    // A short fixed opening varies the games (GNU Go is deterministic).
    for &vertex in seed_moves {
        ours.ok(&format!("play {color} {vertex}"));
        gnugo.ok(&format!("play {color} {vertex}"));
        color = if color == "black" { "white" } else { "black" };
        moves += 1;
    }
    while passes < 2 && moves < 300 {
        let ours_to_move = (color == "black") == we_are_black;
        let (mover, other) = if ours_to_move {
            (&mut ours, &mut gnugo)
        } else {
            (&mut gnugo, &mut ours)
        };
        let mv = mover.ok(&format!("genmove {color}")).to_ascii_lowercase();
        assert_ne!(
            mv, "resign",
            "{} resigned; the game cannot be scored",
            mover.name
        );
        if let Err(e) = other.ask(&format!("play {color} {mv}")) {
            let board = other.ok("showboard");
            panic!(
                "{} refused {}'s {color} {mv}: {e}\n{board}",
                other.name, mover.name
            );
        }
        passes = if mv == "pass" { passes + 1 } else { 0 };
        color = if color == "black" { "white" } else { "black" };
        moves += 1;
    }
    assert_eq!(passes, 2, "the game did not end in 300 moves");
    let outcome = Outcome {
        moves,
        ours: ours.ok("final_score"),
        theirs: gnugo.ok("final_score"),
        board: gnugo.ok("showboard"),
    };
    // Both record the same game: our SGF holds every move.
    let sgf = ours.ok("printsgf");
    assert_eq!(
        sgf.matches(";B[").count() + sgf.matches(";W[").count(),
        moves,
        "{sgf}"
    );
    assert_eq!(ours.quit(), Some(0));
    outcome
}

/// Openings of a few moves, so that games differ.
const OPENINGS: &[&[&str]] = &[
    &[],
    &["e5"],
    &["c3", "g7"],
    &["d4", "f6", "e6"],
    &["g3"],
    &["c4", "e5"],
    &["f5", "d5", "e3"],
    &["e3", "e7"],
    &["d6"],
    &["g6", "c6"],
];

fn play_games(count: usize) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    for g in 0..count {
        let opening = OPENINGS[(g / 2) % OPENINGS.len()];
        let we_are_black = g % 2 == 0;
        let o = play_game(we_are_black, opening);
        let verdict = if margin(&o.ours) == margin(&o.theirs) {
            "agree"
        } else {
            "DISAGREE"
        };
        println!(
            "game {g}: go-engine {} opening {opening:?}, {} moves, go-engine says {}, GNU Go says {} ({verdict})",
            if we_are_black { "black" } else { "white" },
            o.moves,
            o.ours,
            o.theirs
        );
        if verdict == "DISAGREE" {
            println!("{}", o.board);
        }
        outcomes.push(o);
    }
    outcomes
}

#[test]
fn two_games_against_gnu_go_are_played_out_and_scored_alike() {
    if gnugo_missing() {
        return;
    }
    let outcomes = play_games(2);
    for o in &outcomes {
        assert!(o.moves >= 10, "{o:?}");
    }
    let agree = outcomes
        .iter()
        .filter(|o| margin(&o.ours) == margin(&o.theirs))
        .count();
    assert_eq!(agree, outcomes.len(), "final scores differ: {outcomes:#?}");
}

#[test]
#[ignore = "20 games, about two minutes: run with --ignored"]
fn twenty_games_against_gnu_go() {
    if gnugo_missing() {
        return;
    }
    let outcomes = play_games(20);
    let agree = outcomes
        .iter()
        .filter(|o| margin(&o.ours) == margin(&o.theirs))
        .count();
    let wins = outcomes
        .iter()
        .enumerate()
        .filter(|(g, o)| (margin(&o.theirs) > 0.0) == (g % 2 == 0))
        .count();
    println!(
        "{} games: final scores agree in {agree}; go-engine (50 ms) won {wins} by GNU Go's count",
        outcomes.len()
    );
    assert!(
        agree * 100 >= outcomes.len() * 90,
        "scores agree in only {agree} games"
    );
}
