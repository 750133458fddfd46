//! The exact endgame solver: alpha-beta over win/tie/loss with a transposition table.
//!
//! Values are from the side to move: +1 win, 0 tie, -1 loss. Moves come from
//! [`Tactics::candidates`](crate::threats::Tactics::candidates) (wins end the search, forced
//! blocks are the only move, moves that lose on the spot are left out), centre first. The
//! search is time-boxed: it stops at the deadline rather than overrun, and keeps the root
//! moves it finished.
//!
//! Its table outlives the call ([`EndgameTable`], kept by [`crate::session`]): a solve that
//! runs out of time leaves every subtree it finished in the table, so the attempt two plies
//! later, in a position the first one searched under, starts from those and reaches further.

use crate::position::zobrist::position_key;
use crate::position::{Geometry, MAX_SIZE, Position, centre_first};
use crate::threats::ThreatPosition;
use std::time::Instant;

/// The most empty cells a position offered to the solver may have; [`crate::session`]
/// offers fewer at short budgets. Random late positions are hard: `cargo bench --bench
/// endgame` solves every one up to 44 empties within 2 s, but 1 of 12 at 48 and 6 of 12 at
/// 56 time out. Positions of real games are easier: along the long games of our 2 s matches
/// (the bench's reach table, table kept between moves) the first solve within 200 ms (the
/// share at 2 s) came at 51 empty cells on average, at 60 in some games; within 20 ms (the
/// share at 200 ms), at 47.
pub const MAX_EMPTY: usize = 60;

/// Nodes between clock reads.
const CLOCK_EVERY: u64 = 4096;

/// Transposition-table slots: 2^20 packed `u64` entries, 8 MiB, allocated once per board
/// (zeroed pages cost nothing until touched). In the reach table, 2^22 slots reached no
/// further and a fresh 32 MiB table lost 4 empty cells of reach at 20 ms to page faults.
const TABLE_SLOTS: usize = 1 << 20;

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

/// The solver's transposition table, kept between moves and games on one board.
///
/// A fixed-size, always-replace table of bounds. Each slot is one `u64`: the position's key
/// (stones and side to move) with its low four bits replaced by the bound's code (0 =
/// empty), so a probe is one load and one compare. Two keys that differ only in those four
/// bits would share a slot's tag, but they index different slots (the index comes from the
/// bits above them). Bounds are facts about positions, true in any game, so the table is
/// only emptied when the board's size or blocked cell changes.
#[derive(Default)]
pub struct EndgameTable {
    slots: Vec<u64>,
    geometry: Option<Geometry>,
}

impl EndgameTable {
    const CODE_BITS: u64 = 0xF;

    /// A table ready for `root`'s board.
    pub fn for_board(root: &Position) -> EndgameTable {
        let mut table = EndgameTable::default();
        table.prepare(root);
        table
    }

    /// Makes the table ready for a solve from `root`: allocates it on first use and empties
    /// it when the board differs from the last solve's.
    pub fn prepare(&mut self, root: &Position) {
        let geometry = root.geometry();
        if self.slots.len() != TABLE_SLOTS || self.geometry != Some(geometry) {
            self.slots = vec![0; TABLE_SLOTS];
            self.geometry = Some(geometry);
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

struct Solver<'t> {
    table: &'t mut EndgameTable,
    nodes: u64,
    deadline: Instant,
    /// The solve gives up after this many nodes (reproducible runs), as at the deadline.
    max_nodes: u64,
    order: Vec<usize>,
}

/// What a root solve found by its deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSolve {
    /// The value of each root move solved; `None` for columns not solved or not open.
    pub values: RootValues,
    /// Nodes searched.
    pub nodes: u64,
    /// True when every open column was solved, or a winning move was found (the others
    /// then do not matter and are left unsolved).
    pub complete: bool,
}

impl RootSolve {
    /// A move proven to win, if one was found.
    pub fn winning_move(&self) -> Option<usize> {
        self.values.iter().position(|&v| v == Some(1))
    }

    /// The moves proven to lose, one bit per column.
    pub fn losing_moves(&self) -> u16 {
        self.values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == Some(-1))
            .fold(0, |mask, (col, _)| mask | 1 << col)
    }
}

/// Solves the root moves of `root` until `deadline`, most promising first (as inside the
/// search), and stops at the first win. `table` must be prepared for `root`'s board.
pub fn solve_root(root: &Position, table: &mut EndgameTable, deadline: Instant) -> RootSolve {
    solve_root_within(root, table, deadline, u64::MAX)
}

/// [`solve_root`] that also gives up after `max_nodes` nodes: with a node budget and no
/// deadline, a solve is the same on any machine (fixed-iteration runs).
pub fn solve_root_within(
    root: &Position,
    table: &mut EndgameTable,
    deadline: Instant,
    max_nodes: u64,
) -> RootSolve {
    debug_assert_eq!(table.geometry, Some(root.geometry()));
    let mut solver = Solver {
        table,
        nodes: 0,
        deadline,
        max_nodes,
        order: centre_first(root.cols())
            .into_iter()
            .map(usize::from)
            .collect(),
    };
    let tp = ThreatPosition::new(root.clone());
    let mut values = vec![None; root.cols()];
    let tactics = tp.tactics();
    if tactics.wins != 0 {
        values[tactics.wins.trailing_zeros() as usize] = Some(1);
        return RootSolve {
            values,
            nodes: 1,
            complete: true,
        };
    }
    let candidates = tactics.candidates();
    // The open moves the tactics leave out lose by force (see `Tactics::candidates`).
    for col in (0..root.cols()).filter(|&c| tactics.open & !candidates & (1 << c) != 0) {
        values[col] = Some(-1);
    }
    // The columns in the order `ordered_children` numbers its positions.
    let cols: Vec<usize> = solver.candidate_cols(candidates).collect();
    let (children, order, count) = solver.ordered_children(&tp, candidates);
    let mut complete = true;
    for &i in &order[..count] {
        let child = children[i as usize]
            .as_ref()
            .expect("filled for each index");
        let value = if child.position().empty_cells() == 0 {
            0
        } else if let Some(value) = solver.negamax(child, -1, 1) {
            -value
        } else {
            complete = false;
            break;
        };
        values[cols[i as usize]] = Some(value);
        if value == 1 {
            break;
        }
    }
    RootSolve {
        values,
        nodes: solver.nodes,
        complete,
    }
}

impl Solver<'_> {
    /// The value of `tp` for the side to move, searched in the window `(alpha, beta)`.
    fn negamax(&mut self, tp: &ThreatPosition, mut alpha: i8, mut beta: i8) -> Option<i8> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.deadline
            || self.nodes > self.max_nodes
        {
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
        let key = position_key(tp.key(), tp.position().to_move());
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

    /// The columns of `candidates`, centre first.
    #[inline]
    fn candidate_cols(&self, candidates: u16) -> impl Iterator<Item = usize> + '_ {
        (self.order.iter().copied()).filter(move |&c| candidates & (1 << c) != 0)
    }

    /// The positions after each move of `candidates` (in [`Self::candidate_cols`] order), and
    /// the order to search them in: the move that leaves the mover the most threats first,
    /// then the more central (a stable sort of centre-first order). Returns the positions,
    /// the order and its length.
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
        for col in self.candidate_cols(candidates) {
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
    use crate::position::Side;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::ops::RangeInclusive;
    use std::time::Duration;

    #[test]
    fn the_table_returns_what_was_put_and_nothing_else() {
        let board = Position::new(6, 7, 0, 0).unwrap();
        let mut table = EndgameTable::for_board(&board);
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
        assert_eq!(EndgameTable::for_board(&board).get(0x7), None);
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
        // One table for every position, as a session keeps it: earlier solves (and other
        // board sizes) must change no later value.
        let mut table = EndgameTable::default();
        let mut checked = 0;
        while checked < count {
            let Some(pos) = make(&mut rng) else { continue };
            table.prepare(&pos);
            let solve = solve_root(&pos, &mut table, Instant::now() + Duration::from_secs(60));
            assert!(solve.complete);
            for (col, value) in solve.values.iter().enumerate() {
                if let Some(v) = *value {
                    assert_eq!(v, exact(&pos, col), "col {col}\n{pos:?}");
                }
            }
            // Complete means every open column is valued, unless a win made them moot.
            if solve.winning_move().is_none() {
                let valued = (0..pos.cols()).filter(|&c| solve.values[c].is_some());
                assert_eq!(valued.fold(0u16, |m, c| m | 1 << c), pos.open_columns());
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
        let mut table = EndgameTable::for_board(&pos);
        let solve = solve_root(&pos, &mut table, start + Duration::from_millis(30));
        assert!(!solve.complete);
        assert!(start.elapsed() < Duration::from_millis(500));
    }

    /// The same stones as `pos` (Us to move, Us started) but Them to move, as in a game Them
    /// started: the course board without one of Us's topmost stones, which Us then plays.
    fn same_stones_them_to_move(pos: &Position) -> Option<Position> {
        let (mut top, mut board) = pos.to_course();
        let cols = pos.cols();
        let col = (0..cols).find(|&c| {
            let row = pos.top(c);
            row < pos.rows() && pos.stone(row, c) == Some(Side::Us)
        })?;
        board[pos.top(col) * cols + col] = 0;
        top[col] += 1;
        let (blocked_row, blocked_col) = pos.blocked();
        let mut other = Position::from_course(
            pos.rows() as i64,
            pos.cols() as i64,
            &top,
            &board,
            blocked_row as i64,
            blocked_col as i64,
        )
        .ok()?;
        (!other.play(col)).then_some(other)
    }

    /// The same stones with the other side to move (games differ in who starts) are
    /// different positions: a table kept between games must not mix them up.
    #[test]
    fn a_kept_table_tells_the_side_to_move_apart() {
        let mut rng = SmallRng::seed_from_u64(77);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut differing = 0;
        while differing < 10 {
            // Us to move with nothing won at once: the kept solve searches every move.
            let Some(ours) =
                quiet_endgame(&mut rng, 6..=8, 6..=8, 18).filter(|pos| pos.to_move() == Side::Us)
            else {
                continue;
            };
            let Some(theirs) = same_stones_them_to_move(&ours) else {
                continue;
            };
            assert_eq!(theirs.to_move(), Side::Them);
            let quiet = |pos: &Position| {
                let tactics = ThreatPosition::new(pos.clone()).tactics();
                tactics.wins == 0 && tactics.must_block == 0
            };
            if !quiet(&ours) || !quiet(&theirs) {
                continue;
            }
            let fresh = |pos: &Position| {
                solve_root(pos, &mut EndgameTable::for_board(pos), deadline).values
            };
            let (ours_values, expected) = (fresh(&ours), fresh(&theirs));
            if ours_values.contains(&Some(1)) || ours_values == expected {
                continue;
            }
            let mut kept = EndgameTable::for_board(&ours);
            solve_root(&ours, &mut kept, deadline);
            assert_eq!(solve_root(&theirs, &mut kept, deadline).values, expected);
            differing += 1;
        }
    }
}
