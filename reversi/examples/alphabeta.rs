//! The `learned` alpha-beta search to a fixed depth on the held-back positions of
//! `weights/standard-holdout.txt` with 20 to 50 empties: nodes and CPU time, to compare
//! search switches (Multi-ProbCut) at equal depth. Fewer nodes
//! at the same depth is a hint; the match (reversi/README.md) decides.
//!
//! `cargo run -p reversi --release --example alphabeta -- DEPTH [mpc]`

use std::time::Instant;

use reversi::Rule;
use reversi::position::{Color, Position};
use reversi::search::alphabeta::{AlphaBeta, Evaluator};
use reversi::search::mpc::Mpc;
use reversi::search::{Engine, patterns};

const HOLDOUT: &str = include_str!("../weights/standard-holdout.txt");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(8);
    let mpc = args.iter().any(|a| a == "mpc");
    let tables = patterns::ByRule::builtin().expect("built-in tables");
    let mut engine = AlphaBeta::with_evaluator(64 << 20, Evaluator::Patterns(tables))
        .with_mpc(mpc.then(Mpc::builtin));
    let (mut nodes, mut positions) = (0u64, 0u32);
    let start = Instant::now();
    for line in HOLDOUT.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(own), Some(opp)) = (
            f.first().and_then(|t| u64::from_str_radix(t, 16).ok()),
            f.get(1).and_then(|t| u64::from_str_radix(t, 16).ok()),
        ) else {
            continue;
        };
        if f.len() != 3 {
            continue;
        }
        let Ok(pos) = Position::from_parts(own, opp, Color::Black, None, Rule::Standard) else {
            continue;
        };
        if !(20..=50).contains(&pos.empties()) || pos.must_pass() || pos.is_game_over() {
            continue;
        }
        engine.new_game();
        engine.best_at_depth(&pos, depth);
        nodes += engine.nodes();
        positions += 1;
    }
    println!(
        "depth {depth} mpc {mpc}: {positions} positions, {nodes} nodes, {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
