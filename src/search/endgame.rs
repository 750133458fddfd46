//! The exact endgame solver: alpha-beta over win/tie/loss with a transposition table.
//!
//! Values are from the side to move: +1 win, 0 tie, -1 loss. Moves come from
//! [`Tactics::candidates`](crate::threats::Tactics::candidates) (wins end the search, forced
//! blocks are the only move, moves that lose on the spot are left out), centre first. The
//! search is time-boxed: it gives up (returns `None`) at the deadline rather than overrun.

use super::uct::centre_first;
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
        order: centre_first(root.cols())
            .into_iter()
            .map(usize::from)
            .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::ops::RangeInclusive;
    use std::time::Duration;

    /// Plain minimax over every legal move, no pruning, no table: obviously correct, slow.
    fn minimax(pos: &Position) -> i8 {
        (0..pos.cols())
            .filter(|&c| pos.can_play(c))
            .map(|c| value_after(pos, c, minimax))
            .max()
            .unwrap_or(0)
    }

    /// Alpha-beta with the same tactical move generation as the solver but no table.
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
        for col in (0..tp.position().cols()).filter(|c| candidates & (1 << c) != 0) {
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

    /// The value for the side to move of playing `col`, the rest valued by `rest`.
    fn value_after(pos: &Position, col: usize, rest: fn(&Position) -> i8) -> i8 {
        let mut child = pos.clone();
        if child.play(col) {
            1
        } else if child.empty_cells() == 0 {
            0
        } else {
            -rest(&child)
        }
    }

    /// A board of the given size range filled by random non-winning moves down to `empty`
    /// empty cells (so the board fills instead of the game ending), if that works out.
    fn quiet_endgame(
        rng: &mut SmallRng,
        rows: RangeInclusive<usize>,
        cols: RangeInclusive<usize>,
        empty: usize,
    ) -> Option<Position> {
        let (rows, cols) = (rng.random_range(rows), rng.random_range(cols));
        let mut pos = Position::new(
            rows,
            cols,
            rng.random_range(0..rows),
            rng.random_range(0..cols),
        )
        .ok()?;
        while pos.empty_cells() > empty {
            let quiet: Vec<usize> = (0..cols)
                .filter(|&c| pos.can_play(c) && !pos.is_winning_move(c))
                .collect();
            if quiet.is_empty() || pos.play(quiet[rng.random_range(0..quiet.len())]) {
                return None;
            }
        }
        (pos.empty_cells() > 0).then_some(pos)
    }

    /// Checks the solver's root values on `count` quiet endgames against `exact`.
    fn check_root_values(
        seed: u64,
        count: usize,
        make: impl Fn(&mut SmallRng) -> Option<Position>,
        exact: fn(&Position, usize) -> i8,
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut checked = 0;
        while checked < count {
            let Some(pos) = make(&mut rng) else { continue };
            let (values, _) = solve_root(&pos, Instant::now() + Duration::from_secs(60)).unwrap();
            for (col, value) in values.iter().enumerate() {
                if let Some(v) = *value {
                    assert_eq!(v, exact(&pos, col), "col {col}\n{pos:?}");
                }
            }
            checked += 1;
        }
    }

    #[test]
    fn agrees_with_plain_minimax_on_small_endgames() {
        check_root_values(
            99,
            60,
            |rng| quiet_endgame(rng, 4..=6, 4..=5, 9),
            |pos, col| value_after(pos, col, minimax),
        );
    }

    #[test]
    fn agrees_with_plain_minimax_on_course_sized_boards() {
        // Wide lines and diagonals; 6 empty cells keep the plain minimax quick.
        check_root_values(
            2027,
            30,
            |rng| quiet_endgame(rng, 9..=12, 9..=12, 6),
            |pos, col| value_after(pos, col, minimax),
        );
    }

    #[test]
    fn the_table_changes_no_root_value() {
        check_root_values(
            4242,
            30,
            |rng| quiet_endgame(rng, 9..=12, 9..=12, 16),
            |pos, col| {
                let mut child = ThreatPosition::new(pos.clone());
                if child.play(col) {
                    1
                } else if child.position().empty_cells() == 0 {
                    0
                } else {
                    -plain_alphabeta(&child, -1, 1)
                }
            },
        );
    }

    #[test]
    fn gives_up_at_the_deadline() {
        let pos = Position::new(12, 12, 0, 0).unwrap();
        let start = Instant::now();
        assert!(solve_root(&pos, start + Duration::from_millis(30)).is_none());
        assert!(start.elapsed() < Duration::from_millis(500));
    }
}
