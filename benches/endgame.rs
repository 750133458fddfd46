//! How long the exact endgame solver takes by number of empty cells, on late positions of
//! random tactical games on course-sized boards. Sets `endgame::MAX_EMPTY`.
//!
//! Run: `cargo bench --bench endgame` (prints median and worst solve time per bucket; a
//! timeout is counted when a solve exceeds the per-position limit).

use gravity4::position::Position;
use gravity4::search::endgame::solve_root;
use gravity4::search::solver::tactical_playout;
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_millis(2000);
const SAMPLES: usize = 12;

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

fn main() {
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
            match solve_root(&pos, start + LIMIT) {
                Some(_) => times.push(start.elapsed().as_secs_f64() * 1e3),
                None => timeouts += 1,
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
