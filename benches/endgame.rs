//! How long the exact endgame solver takes by number of empty cells, on late positions of
//! random tactical games on course-sized boards. Sets `endgame::MAX_EMPTY`.
//!
//! Run: `cargo bench --bench endgame` (prints median and worst solve time per bucket; a
//! timeout is counted when a solve exceeds the per-position limit).
//!
//! A first table shows how far the solver reaches *in a game*: along the long games of our
//! 2 s matches (`benches/data/long-games.txt`), from `MAX_EMPTY` empty cells, one side
//! tries a solve of 200 ms (its share at the default 2 s) at each of its turns, once with a
//! fresh table per attempt and once with one table kept over the game, as the library
//! keeps it. It prints the empty cells at the first attempt that finished (more is earlier,
//! better). `cargo bench --bench endgame -- reach 2 20` prints only that table, for every
//! second game, with a 20 ms share (the share of a 200 ms move).

use gravity4::position::Position;
use gravity4::search::endgame::{EndgameTable, MAX_EMPTY, solve_root};
use gravity4::search::playout::tactical_playout;
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_millis(2000);
const SAMPLES: usize = 12;
/// The solver's share of a 2 s move, the reach table's default.
const SHARE: Duration = Duration::from_millis(200);
/// Where the reach table starts trying: where the library does.
const REACH_FROM: usize = MAX_EMPTY;

/// A position with exactly `empty` empty cells from a tactical random game, if the game
/// lasts that long.
fn late_position(rng: &mut SmallRng, empty: usize) -> Option<Position> {
    let (rows, cols) = (rng.random_range(9..=12), rng.random_range(9..=12));
    let mut pos = Position::new(
        rows,
        cols,
        rng.random_range(0..rows),
        rng.random_range(0..cols),
    )
    .ok()?;
    while pos.empty_cells() > empty {
        // Pick the next move with a one-ply tactical playout step: play a random candidate.
        let mut tp = ThreatPosition::new(pos.clone());
        let t = tp.tactics();
        let cands = t.candidates();
        if t.wins != 0 || cands == 0 {
            return None;
        }
        let cols_left: Vec<usize> = (0..cols).filter(|c| cands & (1 << c) != 0).collect();
        let col = cols_left[rng.random_range(0..cols_left.len())];
        if pos.play(col) {
            return None;
        }
        let _ = tactical_playout(&mut tp, true, rng); // keeps the rng stream varied
    }
    Some(pos)
}

/// The long games of 2 s matches: per line the board (`M N noX noY`) and the columns played.
const LONG_GAMES: &str = include_str!("data/long-games.txt");

/// One game's positions at the turns of the side to move when `REACH_FROM` cells are left.
fn game_turns(line: &str) -> Vec<Position> {
    let numbers: Vec<usize> = line
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (board, moves) = numbers.split_at(4);
    let mut pos = Position::new(board[0], board[1], board[2], board[3]).unwrap();
    let mut turns: Vec<Position> = Vec::new();
    for &col in moves {
        let parity_ok = turns.first().is_none_or(|t| t.ply() % 2 == pos.ply() % 2);
        if pos.empty_cells() <= REACH_FROM && parity_ok {
            turns.push(pos.clone());
        }
        if pos.play(col) {
            break;
        }
    }
    turns
}

/// Empty cells at the first of `turns` whose solve finished within `share` (0 if none),
/// with a table kept over the game or a fresh one per turn.
fn first_solved(turns: &[Position], share: Duration, kept: bool) -> usize {
    let mut table = EndgameTable::default();
    for pos in turns {
        if !kept {
            table = EndgameTable::default();
        }
        table.prepare(pos);
        if solve_root(pos, &mut table, Instant::now() + share).complete {
            return pos.empty_cells();
        }
    }
    0
}

/// The reach table (see the module docs), over every `every`-th long game.
fn reach_in_games(every: usize, share: Duration) {
    println!(
        "first solve within {} ms in long 2 s games, from {REACH_FROM} empty cells",
        share.as_millis()
    );
    println!("{:>6} {:>12} {:>12}", "game", "fresh table", "kept table");
    let lines = LONG_GAMES.lines().filter(|l| !l.starts_with('#'));
    let (mut fresh_sum, mut kept_sum, mut games) = (0, 0, 0);
    for (index, line) in lines.enumerate().step_by(every) {
        let turns = game_turns(line);
        let (fresh, kept) = (
            first_solved(&turns, share, false),
            first_solved(&turns, share, true),
        );
        println!("{index:>6} {fresh:>12} {kept:>12}");
        fresh_sum += fresh;
        kept_sum += kept;
        games += 1;
    }
    println!(
        "{:>6} {:>12.1} {:>12.1}",
        "mean",
        fresh_sum as f64 / games as f64,
        kept_sum as f64 / games as f64
    );
}

fn main() {
    // `cargo bench --bench endgame -- reach N MS`: only the reach table, every N-th game,
    // MS milliseconds per solve.
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "reach") {
        let number = |i: usize| args.get(at + i).and_then(|n| n.parse::<u64>().ok());
        let every = number(1).unwrap_or(1) as usize;
        let share = number(2).map_or(SHARE, Duration::from_millis);
        reach_in_games(every, share);
        return;
    }
    reach_in_games(1, SHARE);
    println!();
    let mut rng = SmallRng::seed_from_u64(7);
    println!(
        "{:>6} {:>8} {:>12} {:>12} {:>9}",
        "empty", "samples", "median ms", "worst ms", "timeouts"
    );
    for empty in [16, 20, 24, 28, 32, 36, 40, 44, 48, 56] {
        let mut times = Vec::new();
        let mut timeouts = 0;
        while times.len() + timeouts < SAMPLES {
            let Some(pos) = late_position(&mut rng, empty) else {
                continue;
            };
            let start = Instant::now();
            let mut table = EndgameTable::for_board(&pos);
            if solve_root(&pos, &mut table, start + LIMIT).complete {
                times.push(start.elapsed().as_secs_f64() * 1e3);
            } else {
                timeouts += 1;
            }
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
        let worst = times.last().copied().unwrap_or(f64::NAN);
        println!(
            "{empty:>6} {:>8} {median:>12.1} {worst:>12.1} {timeouts:>9}",
            times.len() + timeouts
        );
    }
}
