//! Where was a recorded game lost? Solves its positions exactly, from the end backwards,
//! with the library's endgame solver, and prints the game-theoretic value before and after
//! every move it can solve: the first move that turns a position its mover did not lose
//! into one it loses is the mistake that decided the game (as far back as the solver
//! reaches).
//!
//! ```sh
//! cargo run --release --example where-lost -- runs/strength/NAME/games.jsonl 0-11-0 [SECONDS]
//! ```
//!
//! `SECONDS` (default 20) bounds each position's solve; the solver's table is kept from
//! one position to the one before it, so each solve starts from what the later ones
//! found. It stops at the first position it cannot solve in time.

use gravity4::position::{Position, Side};
use gravity4::search::endgame::{EndgameTable, solve_root};
use std::time::{Duration, Instant};

/// A game of the judge's log: the board and the columns played.
struct Game {
    first: String,
    second: String,
    rows: usize,
    cols: usize,
    blocked: (usize, usize),
    moves: Vec<usize>,
}

/// The value of `pos` for its side to move (+1 win, 0 tie, -1 loss), if solved in time.
fn value(pos: &Position, table: &mut EndgameTable, limit: Duration) -> Option<i8> {
    if pos.open_columns() == 0 {
        return Some(0);
    }
    let solve = solve_root(pos, table, Instant::now() + limit);
    if solve.winning_move().is_some() {
        return Some(1);
    }
    solve
        .complete
        .then(|| solve.values.iter().flatten().copied().max().unwrap_or(0))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(log), Some(id)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: where-lost GAMES_JSONL GAME_ID [SECONDS]");
        std::process::exit(2);
    };
    let seconds: f64 = args.get(3).map_or(20.0, |s| s.parse().expect("SECONDS"));
    let limit = Duration::from_secs_f64(seconds);
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| panic!("{log}: {e}"));
    let game = text
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|g| g["id"] == id.as_str())
        .map(|g| {
            let n = |v: &serde_json::Value| v.as_u64().expect("a number") as usize;
            Game {
                first: g["first"].as_str().unwrap_or("?").to_string(),
                second: g["second"].as_str().unwrap_or("?").to_string(),
                rows: n(&g["board"]["M"]),
                cols: n(&g["board"]["N"]),
                blocked: (n(&g["board"]["noX"]), n(&g["board"]["noY"])),
                moves: g["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(n)
                    .collect(),
            }
        })
        .unwrap_or_else(|| panic!("no game {id} in {log}"));
    // Every position of the game, the start first.
    let mut positions =
        vec![Position::new(game.rows, game.cols, game.blocked.0, game.blocked.1).expect("a board")];
    for &col in &game.moves {
        let mut next = positions.last().expect("one").clone();
        if next.play(col) {
            break; // the last move won
        }
        positions.push(next);
    }
    let name = |side: Side, first_side: Side| {
        if side == first_side {
            &game.first
        } else {
            &game.second
        }
    };
    let first_side = positions[0].to_move();
    println!(
        "{} (first) vs {} on {}x{}, blocked {:?}, {} moves",
        game.first,
        game.second,
        game.rows,
        game.cols,
        game.blocked,
        game.moves.len()
    );
    println!("ply  empty  mover             move  before  after  seconds");
    let mut table = EndgameTable::for_board(&positions[0]);
    // The value after the move at ply p is minus the value of position p + 1.
    let mut after: Option<i8> = if positions.len() <= game.moves.len() {
        Some(1) // the last move won
    } else {
        value(positions.last().expect("one"), &mut table, limit).map(|v| -v)
    };
    for ply in (0..positions.len().min(game.moves.len())).rev() {
        let pos = &positions[ply];
        let start = Instant::now();
        let Some(before) = value(pos, &mut table, limit) else {
            println!(
                "{ply:>3}  {:>5}  not solved within {seconds} s: stopping",
                pos.empty_cells()
            );
            break;
        };
        let mark = match (before, after) {
            (b, Some(a)) if a < b => "  <- mistake",
            _ => "",
        };
        let shown = |v: Option<i8>| v.map_or("?".to_string(), |v| format!("{v:+}"));
        println!(
            "{ply:>3}  {:>5}  {:<16} {:>5}  {:>6}  {:>5}  {:>7.2}{mark}",
            pos.empty_cells(),
            name(pos.to_move(), first_side),
            game.moves[ply],
            shown(Some(before)),
            shown(after),
            start.elapsed().as_secs_f64()
        );
        after = Some(-before);
    }
}
