//! Decision quality: how often a search, given a fixed number of iterations, picks a move
//! that the exact solver shows to be worse than the best one.
//!
//! Strength matches on this shared machine are slow and noisy, and a match at a short budget
//! says little about the long one. This bench asks a narrower question that does not depend
//! on the machine's load: on real late-middle-game positions (from the 2 s games in
//! `data/long-games.txt`, at the first turn with at most `EMPTY` empty cells), every move is
//! solved exactly once, then each search configuration plays the position from scratch with
//! a fixed number of iterations and a few seeds; a choice whose exact value is below the
//! position's best (a win thrown to a tie or loss, a tie to a loss) is a blunder. Positions
//! where every move has the same value are left out. The searches run without the
//! endgame solver, so this measures what the search itself learns per iteration.
//!
//! Run: `cargo bench --bench decisions -- [EMPTY] [ITERATIONS] [SEEDS]` (defaults 48,
//! 300000, 2). Solving takes a few minutes at 48 empty cells; the searches about
//! `ITERATIONS / 300000` s each.

use gravity4::position::Position;
use gravity4::search::endgame::{EndgameTable, solve_root};
use gravity4::search::strong::Workspace;
use gravity4::search::{SearchConfig, SearchLimits, strong};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// The long games of 2 s matches: per line the board (`M N noX noY`) and the columns played.
const LONG_GAMES: &str = include_str!("data/long-games.txt");

/// Longest a single exact solve may take before the position is left out.
const SOLVE_LIMIT: Duration = Duration::from_secs(20);

/// The first position of the game on `line` with at most `empty` empty cells, if the game
/// lasts that long.
fn position_at(line: &str, empty: usize) -> Option<Position> {
    let numbers: Vec<usize> = line
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (board, moves) = numbers.split_at(4);
    let mut pos = Position::new(board[0], board[1], board[2], board[3]).unwrap();
    for &col in moves {
        if pos.empty_cells() <= empty {
            return Some(pos);
        }
        if pos.play(col) {
            return None;
        }
    }
    None
}

/// The exact value of `pos` for the side to move (1 win, 0 tie, -1 loss), or `None` if the
/// solve did not finish within [`SOLVE_LIMIT`].
fn value(pos: &Position, table: &mut EndgameTable) -> Option<i8> {
    if pos.open_columns() == 0 {
        return Some(0);
    }
    table.prepare(pos);
    let solve = solve_root(pos, table, Instant::now() + SOLVE_LIMIT);
    if solve.winning_move().is_some() {
        return Some(1);
    }
    solve
        .complete
        .then(|| solve.values.iter().flatten().copied().max().unwrap_or(0))
}

/// The exact value of each open move of `pos` for the side to move, by column.
fn move_values(pos: &Position, table: &mut EndgameTable) -> Option<Vec<Option<i8>>> {
    (0..pos.cols())
        .map(|col| {
            if !pos.can_play(col) {
                return Some(None);
            }
            let mut child = pos.clone();
            if child.play(col) {
                return Some(Some(1));
            }
            value(&child, table).map(|v| Some(-v))
        })
        .collect()
}

/// The move `name`'s search picks from `pos` after `iterations` iterations with `seed`.
fn choice(name: &str, pos: &Position, iterations: u64, seed: u64) -> usize {
    let limits = SearchLimits {
        max_iterations: Some(iterations),
        ..SearchLimits::for_duration(Duration::from_secs(3600), 384 << 20)
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let config = SearchConfig::strong();
    let report = match name {
        "tree" => strong::search(
            pos,
            0,
            &mut Workspace::default(),
            &config,
            &limits,
            &mut rng,
        ),
        _ => unreachable!("unknown search {name}"),
    };
    report.expect("the position has moves").col
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let empty = args.first().copied().unwrap_or(48) as usize;
    let iterations = args.get(1).copied().unwrap_or(300_000);
    let seeds = args.get(2).copied().unwrap_or(2);
    let searches = ["tree"];

    let mut table = EndgameTable::default();
    let mut decisions = Vec::new();
    let start = Instant::now();
    for line in LONG_GAMES.lines().filter(|l| !l.starts_with('#')) {
        let Some(pos) = position_at(line, empty) else {
            continue;
        };
        let Some(values) = move_values(&pos, &mut table) else {
            continue;
        };
        let known: Vec<i8> = values.iter().flatten().copied().collect();
        let (best, worst) = (*known.iter().max().unwrap(), *known.iter().min().unwrap());
        if best > worst {
            decisions.push((pos, values, best));
        }
    }
    println!(
        "{} decision positions at <= {empty} empty cells (solved in {:.0} s); {iterations} \
         iterations, {seeds} seeds each, no endgame solver",
        decisions.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "{:<8} {:>10} {:>10} {:>12}",
        "search", "choices", "blunders", "seconds"
    );
    for name in searches {
        let (mut blunders, mut choices) = (0, 0);
        let start = Instant::now();
        for (pos, values, best) in &decisions {
            for seed in 0..seeds {
                let col = choice(name, pos, iterations, seed);
                choices += 1;
                if values[col].is_none_or(|v| v < *best) {
                    blunders += 1;
                }
            }
        }
        println!(
            "{name:<8} {choices:>10} {blunders:>10} {:>12.1}",
            start.elapsed().as_secs_f64()
        );
    }
}
