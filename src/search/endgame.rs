//! The exact endgame solver: alpha-beta over win/tie/loss with a transposition table.
//!
//! Values are from the side to move: +1 win, 0 tie, -1 loss. Moves come from
//! [`Tactics::candidates`](crate::threats::Tactics::candidates) (wins end the search, forced
//! blocks are the only move, moves that lose on the spot are left out), centre first. The
//! search is time-boxed: it gives up (returns `None`) at the deadline rather than overrun.

use super::uct::centre_first;
use crate::position::{MAX_SIZE, Position};
use crate::threats::ThreatPosition;
use std::time::Instant;

/// Positions with at most this many empty cells are offered to the solver. Measured with
/// `cargo bench --bench endgame` (late positions of tactical games on 9..12 boards, 12 per
/// row, 2 s limit): with threat ordering and the packed table, up to 40 empties every solve
/// finished, the worst in 207 ms (the median under 5 ms); at 44, 4 of 12 timed out. The
/// solver has 10% of the budget ([`crate::session`]), 200 ms at the default 2 s. (The first
/// solver, centre-first order and a `HashMap`, took 676 ms at 32 and timed out at 40.)
pub const MAX_EMPTY: usize = 40;

/// Nodes between clock reads.
const CLOCK_EVERY: u64 = 4096;

/// Transposition-table slots: 2^18 packed `u64` entries, 2 MiB, allocated per solve (zeroed
/// pages cost nothing until touched; a solve touches a few thousand).
const TABLE_SLOTS: usize = 1 << 18;

/// The value of each root move, by column, for the side to move; `None` for columns that
/// cannot be played.
pub type RootValues = Vec<Option<i8>>;

/// Transposition-table entry: the value is exact, a lower bound or an upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact(i8),
    Lower(i8),
    Upper(i8),
}

/// A fixed-size, always-replace table of [`Bound`]s. Each slot is one `u64`: the position's
/// key with its low four bits replaced by the bound's code (0 = empty), so a probe is one
/// load and one compare. Two keys that differ only in those four bits would share a slot's
/// tag, but they index different slots (the index comes from the bits above them).
struct Table {
    slots: Vec<u64>,
}

impl Table {
    const CODE_BITS: u64 = 0xF;

    fn new() -> Table {
        Table {
            slots: vec![0; TABLE_SLOTS],
        }
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key >> 4) as usize & (TABLE_SLOTS - 1)
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Bound> {
        let entry = self.slots[Self::slot(key)];
        if entry & !Self::CODE_BITS != key & !Self::CODE_BITS {
            return None;
        }
        // Codes 1..=9: kind (exact, lower, upper) times three values (-1, 0, 1); 0 is an
        // empty slot whose tag happened to match.
        let code = (entry & Self::CODE_BITS) as i8;
        if code == 0 {
            return None;
        }
        let value = (code - 1) % 3 - 1;
        match (code - 1) / 3 {
            0 => Some(Bound::Exact(value)),
            1 => Some(Bound::Lower(value)),
            _ => Some(Bound::Upper(value)),
        }
    }

    #[inline]
    fn put(&mut self, key: u64, bound: Bound) {
        let (kind, value) = match bound {
            Bound::Exact(v) => (0, v),
            Bound::Lower(v) => (1, v),
            Bound::Upper(v) => (2, v),
        };
        let code = (kind * 3 + (value + 1) + 1) as u64;
        self.slots[Self::slot(key)] = key & !Self::CODE_BITS | code;
    }
}

struct Solver {
    table: Table,
    nodes: u64,
    deadline: Instant,
    order: Vec<usize>,
}

/// Solves every root move of `root` by `deadline`. Returns `None` if time ran out.
pub fn solve_root(root: &Position, deadline: Instant) -> Option<(RootValues, u64)> {
    let mut solver = Solver {
        table: Table::new(),
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
        match self.table.get(key) {
            Some(Bound::Exact(v)) => return Some(v),
            Some(Bound::Lower(v)) => alpha = alpha.max(v),
            Some(Bound::Upper(v)) => beta = beta.min(v),
            None => {}
        }
        if alpha >= beta {
            return Some(alpha);
        }
        let (children, order, count) = self.ordered_children(tp, candidates);
        let mut best = -1;
        // Every index in `order` was filled; no candidate wins at once (`wins` was 0 above).
        for child in order[..count]
            .iter()
            .filter_map(|&i| children[i as usize].as_ref())
        {
            let value = if child.position().empty_cells() == 0 {
                0
            } else {
                -self.negamax(child, -beta, -alpha)?
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
        self.table.put(key, entry);
        Some(best)
    }

    /// The positions after each move of `candidates`, and the order to search them in: the
    /// move that leaves the mover the most threats first, then the more central (a stable
    /// sort of centre-first order). Returns the positions, the order and its length.
    fn ordered_children(
        &self,
        tp: &ThreatPosition,
        candidates: u16,
    ) -> ([Option<ThreatPosition>; MAX_SIZE], [u8; MAX_SIZE], usize) {
        let mover = tp.position().to_move();
        let mut children: [Option<ThreatPosition>; MAX_SIZE] = Default::default();
        let mut scores = [0u32; MAX_SIZE];
        let mut order = [0u8; MAX_SIZE];
        let mut count = 0;
        for &col in &self.order {
            if candidates & (1 << col) == 0 {
                continue;
            }
            let child = children[count].insert(tp.clone());
            let won = child.play(col);
            debug_assert!(
                !won,
                "the caller returns before searching a position with a win"
            );
            scores[count] = child.threat_count(mover);
            order[count] = count as u8;
            count += 1;
        }
        // Insertion sort of indices, descending and stable: at most twelve entries.
        for i in 1..count {
            let mut j = i;
            while j > 0 && scores[order[j - 1] as usize] < scores[order[j] as usize] {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        (children, order, count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::ops::RangeInclusive;
    use std::time::Duration;

    #[test]
    fn the_table_returns_what_was_put_and_nothing_else() {
        let mut table = Table::new();
        let key = 0x1234_5678_9ABC_DEF0u64;
        assert_eq!(table.get(key), None);
        for bound in [-1, 0, 1]
            .into_iter()
            .flat_map(|v| [Bound::Exact(v), Bound::Lower(v), Bound::Upper(v)])
        {
            table.put(key, bound);
            assert_eq!(table.get(key), Some(bound));
            // Same slot, other tag: a miss, not a wrong bound.
            assert_eq!(table.get(key ^ 1 << 40), None);
        }
        // A key whose tag is all zero, probing an empty slot.
        assert_eq!(Table::new().get(0x7), None);
    }

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
