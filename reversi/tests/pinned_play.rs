//! Play is pinned: each engine, at a fixed seed and a fixed iteration (or node) budget,
//! makes exactly the moves recorded here. A refactor that changes a move fails this test;
//! a change meant to change play re-pins the values and says so in its commit.

use reversi::position::{Position, Rule};
use reversi::search::{Limits, Profile, Tuning};

/// Self-play of `plies` moves by `profile` from the start of `rule`, seed 7, `budget`
/// iterations a move (MCTS) or nodes a move (alpha-beta), as a space-separated move list.
fn self_play(profile: Profile, rule: Rule, budget: u64, plies: usize) -> String {
    let mut engine = profile.engine(Some(7), 16 << 20, &Tuning::default());
    engine.new_game();
    let mut pos = Position::start(rule);
    let mut moves = Vec::new();
    while moves.len() < plies && !pos.is_game_over() {
        let report = engine.choose(&pos, Limits::iterations(budget));
        moves.push(report.mv.to_string());
        pos = pos.play(report.mv).expect("the engine's move is legal");
    }
    moves.join(" ")
}

fn check(profile: Profile, rule: Rule, budget: u64, plies: usize, pinned: &str) {
    let got = self_play(profile, rule, budget, plies);
    assert_eq!(got, pinned, "{profile} under {rule:?} played differently");
}

#[test]
fn classic_plays_its_pinned_moves() {
    check(
        Profile::Classic,
        Rule::Standard,
        300,
        24,
        "e6 d6 c7 f6 g6 f3 c3 c4 b3 c6 c5 b6 a5 b7 e3 c2 a8 c8 b8 a3 g3 g7 f4 g5",
    );
}

#[test]
fn strong_plays_its_pinned_moves() {
    check(
        Profile::Strong,
        Rule::Standard,
        300,
        24,
        "e6 f4 d3 d6 e3 f6 e7 f8 e8 d8 d7 c6 f7 f5 g6 g4 f3 g5 c8 b8 c7 c5 h6 h4",
    );
    check(
        Profile::Strong,
        Rule::NoAdjacent,
        300,
        24,
        "d3 c5 d6 e3 f5 e6 f4 c4 f6 c3 b5 c6 b4 b6 c7 a6 a4 c8 b3 d7 e8 a5 a7 d8",
    );
}

#[test]
fn alphabeta_plays_its_pinned_moves() {
    check(
        Profile::Alphabeta,
        Rule::Standard,
        20_000,
        24,
        "d3 c3 c4 c5 b4 e3 c2 b5 c6 a4 a5 a6 b6 d2 f2 d7 b3 c1 e1 d1 e2 f1 d6 a7",
    );
    check(
        Profile::Alphabeta,
        Rule::NoAdjacent,
        20_000,
        24,
        "d3 c5 e6 f5 c4 e3 f4 g5 f6 d6 g4 e7 f3 e2 h5 c6 d2 g6 d7 c3 f8 c7 b3 f2",
    );
}

#[test]
fn alphabeta_plays_a_whole_game_through_its_endgame_solver() {
    // The last moves come from the exact solver (reversi/src/search/endgame.rs).
    check(
        Profile::Alphabeta,
        Rule::Standard,
        20_000,
        80,
        "d3 c3 c4 c5 b4 e3 c2 b5 c6 a4 a5 a6 b6 d2 f2 d7 b3 c1 e1 d1 e2 f1 d6 a7 f4 a3 e6 f7 e8 f6 e7 f3 g5 g4 b2 f5 h3 f8 g3 g6 a2 a1 c7 h6 b7 h4 h2 h1 b1 g2 g8 b8 h5 a8 h7 h8 g7 d8 g1 pass c8",
    );
}

#[test]
fn learned_plays_its_pinned_moves() {
    // The default profile: the pattern tables and Multi-ProbCut as built in.
    check(
        Profile::Learned,
        Rule::Standard,
        20_000,
        24,
        "e6 f4 d3 c4 c3 c2 f3 f2 g4 h5 b3 a4 c1 f5 e3 b4 b5 e2 e1 d1 c5 d2 f1 f6",
    );
    check(
        Profile::Learned,
        Rule::NoAdjacent,
        20_000,
        24,
        "d3 c5 f6 d2 c4 f3 d6 c3 b6 d7 e3 c6 b4 f5 e2 c2 d1 a6 g3 a5 b3 c1 a4 f2",
    );
}
