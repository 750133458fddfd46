//! `go-engine gtp --ponder`: the search goes on during the opponent's turn, from our
//! `genmove` answer until the next command arrives, and stops before that command runs.
//! The session must answer every command promptly and play only legal moves.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::ENGINE;
use go_engine::engine::Engine;
use go_engine::point::{Color, Move};
use go_engine::search::Limits;
use testkit::process::GtpProcess;

/// How long the opponent "thinks" after each of our moves: the time we ponder.
const OPPONENT_THINKS: Duration = Duration::from_millis(150);

/// The slowest answer to the command after a ponder that counts as prompt (the search stops
/// within a few dozen playouts; this leaves room for a loaded machine).
const PROMPT: Duration = Duration::from_millis(500);

#[test]
fn a_pondering_session_answers_promptly_and_plays_legal_moves() {
    // Neither side resigns: the game goes on for the test's 40 moves or to two passes.
    let no_resign = [("GO_RESIGN", "0")];
    let args = ["gtp", "--ponder", "--move-ms", "60"];
    let mut ours = GtpProcess::start_with_env("go-engine", ENGINE, &args, &no_resign);
    // The opponent, and the judge of our moves' legality: the engine without pondering.
    let args = ["gtp", "--move-ms", "20"];
    let mut other = GtpProcess::start_with_env("opponent", ENGINE, &args, &no_resign);

    for e in [&mut ours, &mut other] {
        e.ok("boardsize 9");
        e.ok("clear_board");
    }
    let mut slowest = Duration::ZERO;
    let (mut passes, mut plies) = (0, 0);
    while passes < 2 && plies < 40 {
        let mv = ours.ok("genmove black").to_ascii_lowercase();
        other.ok(&format!("play black {mv}"));
        passes = if mv == "pass" { 1 } else { 0 };
        std::thread::sleep(OPPONENT_THINKS);
        let reply = other.ok("genmove white").to_ascii_lowercase();
        // The first command after the ponder: answered at once, the search stopped.
        let start = Instant::now();
        ours.ok("showboard");
        slowest = slowest.max(start.elapsed());
        ours.ok(&format!("play white {reply}"));
        passes = if reply == "pass" { passes + 1 } else { 0 };
        plies += 2;
    }
    println!("{plies} moves; slowest answer after a ponder: {slowest:?}");
    assert!(plies >= 10, "{plies} moves");
    assert!(slowest < PROMPT, "{slowest:?}");
    // Both sides hold the same game: every move of ours was legal for the other engine.
    assert_eq!(ours.ok("showboard"), other.ok("showboard"));
    let start = Instant::now();
    ours.ok("genmove black");
    assert_eq!(ours.quit(), Some(0), "quit while pondering");
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn pondering_grows_the_tree_the_next_search_keeps() {
    let mut e = Engine::new(9, 7.0).unwrap();
    e.genmove(Color::Black, &Limits::playouts(200));
    let stop = AtomicBool::new(false);
    let playouts = std::thread::scope(|s| {
        let search = s.spawn(|| e.ponder(&stop));
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
        search.join().unwrap()
    });
    assert!(playouts > 0, "the ponder searched");
    // White's most visited reply in the pondered tree (a one-playout search reads it):
    // the tree under it is kept for Black's next search.
    let reply = e.reg_genmove(Color::White, &Limits::playouts(1));
    assert!(matches!(reply, Move::Play(_)), "{reply:?}");
    e.play(Color::White, reply).unwrap();
    e.genmove(Color::Black, &Limits::playouts(100));
    let stats = e.last_stats().unwrap();
    assert!(stats.reused_visits > 0, "{stats:?}");
    // After two passes there is nothing to ponder.
    e.play(Color::White, Move::Pass).unwrap();
    e.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(e.ponder(&AtomicBool::new(false)), 0);
}
