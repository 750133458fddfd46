//! Whole 9x9 games of the program `go-engine gmp` against GNU Go 3.8's `--mode gmp` (and its
//! simplified `--mode sgmp`, given `--boardsize 9`), the two processes joined by a pair of
//! pipes (each one's standard output the other's standard input), each writing its own SGF:
//!
//! ```text
//! /usr/games/gnugo --mode gmp --quiet --level 1 --chinese-rules -o THEIRS.sgf --color C
//! go-engine gmp --color C' --size 9 --komi 5.5 --move-ms 50 -o OURS.sgf
//! ```
//!
//! Every game must end in two passes with both SGF files holding the same moves (and, in a
//! handicap game, the same handicap stones). GNU Go's `--mode gmp` plays komi 5.5 whatever
//! it is told, so ours is 5.5 too. The CI tests play 2 games (one each colour) in each mode;
//! `cargo test --profile ci -p go-engine --test gnugo_gmp -- --ignored --nocapture` plays 10,
//! two of them with a handicap of 2, and checks that the results in the two files (our
//! `final_score`, GNU Go's own count, which gives White a point a handicap stone) agree in
//! at least 8. Without GNU Go the tests are skipped, except under `CI=true`, where they
//! fail.

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::ENGINE;
use go_engine::point::Move;
use go_engine::sgf::record::GameRecord;
use testkit::partner::{GNUGO, gnugo_missing};
use testkit::process::wait_until;

/// Kills the children when dropped (a failing test must not leave them running).
struct Reaper(Vec<Child>);

impl Drop for Reaper {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn sgf_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gnugo-gmp-{name}-{}.sgf", std::process::id()))
}

/// Waits for `child` at most until `deadline`; its exit code.
fn wait(child: &mut Child, deadline: Instant, what: &str) -> Option<i32> {
    let status = wait_until(child, deadline);
    status
        .unwrap_or_else(|| panic!("{what} did not finish in time"))
        .code()
}

/// Plays game `g`: our colour alternates; `handicap` stones for Black (GNU Go as Black).
/// Returns the number of moves.
/// One game against GNU Go in `mode`: `gmp` (GNU Go asks the size and the rules over GMP) or
/// `sgmp` (GNU Go's simplified GMP asks nothing: the size is on its command line).
fn gmp_game(tag: &str, g: usize, handicap: usize, mode: &str) -> (usize, bool) {
    let we_are_black = handicap == 0 && g.is_multiple_of(2);
    let (ours_color, theirs_color) = if we_are_black {
        ("black", "white")
    } else {
        ("white", "black")
    };
    let (ours_sgf, theirs_sgf) = (
        sgf_path(&format!("{tag}-{g}-ours")),
        sgf_path(&format!("{tag}-{g}-theirs")),
    );
    let mut gnugo = Command::new(GNUGO);
    if mode == "sgmp" {
        gnugo.args(["--boardsize", "9"]);
    }
    let mut gnugo = gnugo
        .args([
            "--mode",
            mode,
            "--quiet",
            "--level",
            "1",
            "--chinese-rules",
            "--color",
            theirs_color,
            "-o",
        ])
        .arg(&theirs_sgf)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("GNU Go starts");
    let to_us = gnugo.stdout.take().unwrap();
    let to_them = gnugo.stdin.take().unwrap();
    let handicap_arg = handicap.to_string();
    let ours = Command::new(ENGINE)
        .args([
            "gmp",
            "--color",
            ours_color,
            "--size",
            "9",
            "--komi",
            "5.5",
            "--handicap",
            &handicap_arg,
            "--move-ms",
            "50",
            "--sgf-stats",
            "-o",
        ])
        .arg(&ours_sgf)
        .stdin(Stdio::from(to_us))
        .stdout(Stdio::from(to_them))
        .stderr(Stdio::piped())
        .spawn()
        .expect("go-engine starts");
    let mut reaper = Reaper(vec![ours, gnugo]);
    let deadline = Instant::now() + Duration::from_secs(300);
    let ours_code = wait(&mut reaper.0[0], deadline, "go-engine");
    let theirs_code = wait(&mut reaper.0[1], deadline, "GNU Go");
    let mut log = String::new();
    if let Some(mut stderr) = reaper.0[0].stderr.take() {
        use std::io::Read;
        stderr.read_to_string(&mut log).unwrap();
    }
    assert_eq!(ours_code, Some(0), "game {g}: go-engine failed: {log}");
    assert!(theirs_code.is_some(), "game {g}: GNU Go was killed");
    let read = |path: &PathBuf| {
        let text = std::fs::read(path).unwrap_or_else(|e| panic!("game {g}: {path:?}: {e}"));
        if std::env::var_os("GO_KEEP_SGF").is_none() {
            let _ = std::fs::remove_file(path);
        }
        GameRecord::from_sgf(&text).unwrap_or_else(|e| panic!("game {g}: {e}"))
    };
    let (ours, theirs) = (read(&ours_sgf), read(&theirs_sgf));
    assert_eq!(ours.move_list(), theirs.move_list(), "game {g}: the moves");
    let n = ours.moves.len();
    assert!(n >= 2, "game {g}: {n} moves");
    let last_two: Vec<Move> = ours.moves[n - 2..].iter().map(|m| m.mv).collect();
    assert_eq!(last_two, [Move::Pass, Move::Pass], "game {g}: two passes");
    let mut ours_setup = ours.setup.clone();
    let mut theirs_setup = theirs.setup.clone();
    ours_setup.sort();
    theirs_setup.sort();
    assert_eq!(ours_setup, theirs_setup, "game {g}: handicap stones");
    assert_eq!((ours.handicap, theirs.handicap), (handicap, handicap));
    // Our moves carry the search statistics; GNU Go's do not.
    let our_color = if we_are_black {
        go_engine::point::Color::Black
    } else {
        go_engine::point::Color::White
    };
    assert!(
        ours.moves
            .iter()
            .filter(|m| m.color == our_color && m.mv != Move::Pass)
            .all(|m| m
                .comment
                .as_deref()
                .is_some_and(|c| c.starts_with("playouts "))),
        "game {g}: our comments"
    );
    let (our_result, their_result) = (
        ours.result.clone().unwrap_or_default(),
        theirs.result.clone().unwrap_or_default(),
    );
    // GNU Go's Chinese count gives White a point a handicap stone; ours (Tromp-Taylor)
    // does not.
    let agree = margin(&our_result).map(|m| m - handicap as f64) == margin(&their_result);
    println!(
        "game {g} ({mode}): go-engine {ours_color}, handicap {handicap}, {n} moves, go-engine \
         scores {our_result}, GNU Go's SGF says {their_result}{}",
        if agree { "" } else { " (DISAGREE)" }
    );
    (n, agree)
}

/// `B+3.5`, `W+7`, `0` as Black's margin; `None` for anything else.
fn margin(result: &str) -> Option<f64> {
    match result.split_once('+') {
        Some(("B", n)) => n.parse().ok(),
        Some(("W", n)) => n.parse::<f64>().ok().map(|x| -x),
        _ => (result == "0").then_some(0.0),
    }
}

#[test]
fn two_gmp_games_against_gnu_go_end_with_the_same_moves_on_both_sides() {
    if gnugo_missing() {
        return;
    }
    for g in 0..2 {
        gmp_game("ci", g, 0, "gmp");
    }
}

#[test]
fn gmp_games_against_gnu_go_in_simplified_gmp_end_with_the_same_moves() {
    if gnugo_missing() {
        return;
    }
    for g in 0..2 {
        gmp_game("sgmp", g, 0, "sgmp");
    }
}

#[test]
#[ignore = "10 games, a few minutes: run with --ignored"]
fn ten_gmp_games_against_gnu_go() {
    if gnugo_missing() {
        return;
    }
    let games: Vec<(usize, bool)> = (0..10)
        .map(|g| gmp_game("ten", g, if g >= 8 { 2 } else { 0 }, "gmp"))
        .collect();
    let moves: usize = games.iter().map(|g| g.0).sum();
    let agree = games.iter().filter(|g| g.1).count();
    println!(
        "10 GMP games, {moves} moves in all, the same on both sides; results agree in {agree}"
    );
    assert!(agree >= 8, "the final scores agree in only {agree} of 10");
}
