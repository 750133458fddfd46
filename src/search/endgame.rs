//! The exact endgame solver: alpha-beta over win/tie/loss with a transposition table.
//!
//! Values are from the side to move: +1 win, 0 tie, -1 loss. Moves come from
//! [`Tactics::candidates`](crate::threats::Tactics::candidates) (wins end the search, forced
//! blocks are the only move, moves that lose on the spot are left out), centre first. The
//! search is time-boxed: it gives up (returns `None`) at the deadline rather than overrun.

use crate::position::Position;
use crate::threats::ThreatPosition;
use std::collections::HashMap;
use std::time::Instant;

/// Positions with at most this many empty cells are offered to the solver. Measured with
/// `cargo bench --bench endgame` (late positions of tactical games on 9..12 boards, 12 each):
/// up to 24 empties the median solve is under 1 ms and the worst 28 ms; at 32 one in 12 timed
/// out at 2 s. A first setting of 32 with 40% of the budget lost 26-2-59 against no solver at
/// 50 ms per move (STRENGTH.md): failed attempts cost MCTS too much time.
pub const MAX_EMPTY: usize = 24;

/// Nodes between clock reads.
const CLOCK_EVERY: u64 = 4096;

/// The value of each root move, by column, for the side to move; `None` for columns that
/// cannot be played.
pub type RootValues = Vec<Option<i8>>;

/// Transposition-table entry: the value is exact, a lower bound or an upper bound.
#[derive(Clone, Copy)]
enum Bound {
    Exact(i8),
    Lower(i8),
    Upper(i8),
}

struct Solver {
    table: HashMap<u64, Bound>,
    nodes: u64,
    deadline: Instant,
    order: Vec<usize>,
}

/// Solves every root move of `root` by `deadline`. Returns `None` if time ran out.
pub fn solve_root(root: &Position, deadline: Instant) -> Option<(RootValues, u64)> {
    let mut solver = Solver {
        table: HashMap::with_capacity(1 << 16),
        nodes: 0,
        deadline,
        order: centre_first(root.cols()),
    };
    let tp = ThreatPosition::new(root.clone());
    let mut values = vec![None; root.cols()];
    for &col in &solver.order.clone() {
        if !root.can_play(col) {
            continue;
        }
        let mut child = tp.clone();
        let value = if child.play(col) {
            1
        } else if child.position().empty_cells() == 0 {
            0
        } else {
            -solver.negamax(&child, -1, 1)?
        };
        values[col] = Some(value);
    }
    Some((values, solver.nodes))
}

impl Solver {
    /// The value of `tp` for the side to move, searched in the window `(alpha, beta)`.
    fn negamax(&mut self, tp: &ThreatPosition, mut alpha: i8, mut beta: i8) -> Option<i8> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.deadline {
            return None;
        }
        let tactics = tp.tactics();
        if tactics.wins != 0 {
            return Some(1);
        }
        let candidates = tactics.candidates();
        if candidates == 0 {
            return Some(-1);
        }
        let key = tp.key();
        let original_alpha = alpha;
        match self.table.get(&key) {
            Some(&Bound::Exact(v)) => return Some(v),
            Some(&Bound::Lower(v)) => alpha = alpha.max(v),
            Some(&Bound::Upper(v)) => beta = beta.min(v),
            None => {}
        }
        if alpha >= beta {
            return Some(alpha);
        }
        let mut best = -1;
        for i in 0..self.order.len() {
            let col = self.order[i];
            if candidates & (1 << col) == 0 {
                continue;
            }
            let mut child = tp.clone();
            let value = if child.play(col) {
                1
            } else if child.position().empty_cells() == 0 {
                0
            } else {
                -self.negamax(&child, -beta, -alpha)?
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let entry = if best <= original_alpha {
            Bound::Upper(best)
        } else if best >= beta {
            Bound::Lower(best)
        } else {
            Bound::Exact(best)
        };
        self.table.insert(key, entry);
        Some(best)
    }
}

fn centre_first(cols: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cols).collect();
    order.sort_by_key(|&c| (2 * c as i32 - (cols as i32 - 1)).abs());
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::time::Duration;

    /// Plain minimax over every legal move, no pruning, no table: obviously correct, slow.
    fn minimax(pos: &Position) -> i8 {
        let mut best = -1;
        for col in 0..pos.cols() {
            if !pos.can_play(col) {
                continue;
            }
            let mut child = pos.clone();
            let value = if child.play(col) {
                1
            } else if child.empty_cells() == 0 {
                0
            } else {
                -minimax(&child)
            };
            best = best.max(value);
        }
        best
    }

    #[test]
    fn agrees_with_plain_minimax_on_small_endgames() {
        let mut rng = SmallRng::seed_from_u64(99);
        let mut checked = 0;
        while checked < 60 {
            let (rows, cols) = (rng.random_range(4..=6), rng.random_range(4..=5));
            let mut pos = Position::new(
                rows,
                cols,
                rng.random_range(0..rows),
                rng.random_range(0..cols),
            )
            .unwrap();
            // Random opening down to at most 9 empty cells, then solve exactly both ways.
            let mut over = false;
            while pos.empty_cells() > 9 {
                let open: Vec<usize> = (0..cols).filter(|&c| pos.can_play(c)).collect();
                if pos.play(open[rng.random_range(0..open.len())]) {
                    over = true;
                    break;
                }
            }
            if over || pos.empty_cells() == 0 {
                continue;
            }
            let deadline = Instant::now() + Duration::from_secs(30);
            let (values, _) = solve_root(&pos, deadline).unwrap();
            let best = values.iter().flatten().copied().max().unwrap();
            assert_eq!(best, minimax(&pos), "{pos:?}");
            for (col, value) in values.iter().enumerate() {
                if let Some(v) = *value {
                    let mut child = pos.clone();
                    let exact = if child.play(col) {
                        1
                    } else if child.empty_cells() == 0 {
                        0
                    } else {
                        -minimax(&child)
                    };
                    // Losing-on-the-spot moves are pruned inside, but root values are exact.
                    assert_eq!(v, exact, "col {col}\n{pos:?}");
                }
            }
            checked += 1;
        }
    }

    #[test]
    fn agrees_with_plain_minimax_on_course_sized_boards() {
        // Wide lines and diagonals (9..12 x 9..12) with up to 6 empty cells left (8 took
        // minutes for the plain minimax).
        let mut rng = SmallRng::seed_from_u64(2027);
        let mut checked = 0;
        while checked < 30 {
            let (rows, cols) = (rng.random_range(9..=12), rng.random_range(9..=12));
            let mut pos = Position::new(
                rows,
                cols,
                rng.random_range(0..rows),
                rng.random_range(0..cols),
            )
            .unwrap();
            let mut over = false;
            // Random moves that do not win, so the board fills instead of the game ending.
            while pos.empty_cells() > 6 {
                let quiet: Vec<usize> = (0..cols)
                    .filter(|&c| pos.can_play(c) && !pos.is_winning_move(c))
                    .collect();
                if quiet.is_empty() || pos.play(quiet[rng.random_range(0..quiet.len())]) {
                    over = true;
                    break;
                }
            }
            if over || pos.empty_cells() == 0 {
                continue;
            }
            let (values, _) = solve_root(&pos, Instant::now() + Duration::from_secs(60)).unwrap();
            for (col, value) in values.iter().enumerate() {
                if let Some(v) = *value {
                    let mut child = pos.clone();
                    let exact = if child.play(col) {
                        1
                    } else if child.empty_cells() == 0 {
                        0
                    } else {
                        -minimax(&child)
                    };
                    assert_eq!(v, exact, "col {col}\n{pos:?}");
                }
            }
            checked += 1;
        }
    }

    /// Alpha-beta with the same tactical move generation but no table: exact at the root.
    fn plain_alphabeta(tp: &ThreatPosition, mut alpha: i8, beta: i8) -> i8 {
        let t = tp.tactics();
        if t.wins != 0 {
            return 1;
        }
        let candidates = t.candidates();
        if candidates == 0 {
            return -1;
        }
        let mut best = -1;
        for col in 0..tp.position().cols() {
            if candidates & (1 << col) == 0 {
                continue;
            }
            let mut child = tp.clone();
            let v = if child.play(col) {
                1
            } else if child.position().empty_cells() == 0 {
                0
            } else {
                -plain_alphabeta(&child, -beta, -alpha)
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    #[test]
    fn the_table_changes_no_root_value() {
        let mut rng = SmallRng::seed_from_u64(4242);
        let mut checked = 0;
        while checked < 30 {
            let (rows, cols) = (rng.random_range(9..=12), rng.random_range(9..=12));
            let mut pos = Position::new(
                rows,
                cols,
                rng.random_range(0..rows),
                rng.random_range(0..cols),
            )
            .unwrap();
            let mut over = false;
            while pos.empty_cells() > 16 {
                let quiet: Vec<usize> = (0..cols)
                    .filter(|&c| pos.can_play(c) && !pos.is_winning_move(c))
                    .collect();
                if quiet.is_empty() || pos.play(quiet[rng.random_range(0..quiet.len())]) {
                    over = true;
                    break;
                }
            }
            if over {
                continue;
            }
            let (values, _) = solve_root(&pos, Instant::now() + Duration::from_secs(60)).unwrap();
            let tp = ThreatPosition::new(pos.clone());
            for (col, value) in values.iter().enumerate() {
                if let Some(v) = *value {
                    let mut child = tp.clone();
                    let exact = if child.play(col) {
                        1
                    } else if child.position().empty_cells() == 0 {
                        0
                    } else {
                        -plain_alphabeta(&child, -1, 1)
                    };
                    assert_eq!(v, exact, "col {col}\n{pos:?}");
                }
            }
            checked += 1;
        }
    }

    #[test]
    fn gives_up_at_the_deadline() {
        let pos = Position::new(12, 12, 0, 0).unwrap();
        let start = Instant::now();
        assert!(solve_root(&pos, start + Duration::from_millis(30)).is_none());
        assert!(start.elapsed() < Duration::from_millis(500));
    }
}
