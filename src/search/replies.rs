//! Last good replies with forgetting (LGRF-1, Baier and Drake, "The Power of Forgetting",
//! 2010): a playout policy that learns, during one search, which answer to each move won.
//!
//! For each side and each cell the opponent may have just played on, the table holds the
//! column that side last answered it with in an iteration it went on to win. A playout with
//! a free choice (nothing to win, block or avoid) plays that reply when it is among its
//! candidates, else a random candidate. After each iteration the winner's replies along the
//! whole path (tree and playout) are stored, and the loser's are deleted where the table
//! still holds them (the forgetting). Ties change nothing.
//!
//! With `two_moves` (LGRF-2) a second table answers the last TWO moves, and is asked first;
//! the one-move table answers when it has nothing.
//!
//! With `exact`, a reply is a cell rather than a column: it is played only when its column's
//! next stone lands on that very cell (a column answered at another height is another move
//! in Connect-4: other lines, other threats).
//!
//! The tables are per search: their knowledge is about the positions around one root. Off
//! by default (`GRAVITY4_ENABLE=last-good-reply`, `last-good-reply-2`); STRENGTH.md has
//! what they measured.

use super::playout::Outcome;
use crate::position::{MAX_SIZE, Position, Side};

/// A cell as one byte: `row * MAX_SIZE + col`.
pub type Cell = u8;

/// No previous move (before the first move of the path).
pub const NO_CELL: Cell = (MAX_SIZE * MAX_SIZE) as Cell;

/// Cells of the largest board and [`NO_CELL`].
const CELLS: usize = MAX_SIZE * MAX_SIZE + 1;

/// The longest path an iteration can record: every cell of the largest board.
const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// The reply tables and the moves of the iteration under way.
#[derive(Clone)]
pub struct Replies {
    /// `table[side][cell]`: `side`'s last good reply to a stone on `cell` plus one, or 0: its
    /// column, or with `exact` its cell.
    table: [[u8; CELLS]; 2],
    /// With LGRF-2, `pairs[side][before * CELLS + cell]`: the same for a stone on `cell`
    /// after one on `before`; empty without.
    pairs: [Vec<u8>; 2],
    /// The cells played so far in this iteration, from the root on, after two [`NO_CELL`]s
    /// (so the last two moves can always be read).
    moves: [Cell; MAX_MOVES + 2],
    len: usize,
    /// The side that makes the first move recorded in this iteration.
    first_mover: Side,
    /// Replies are cells, not columns.
    exact: bool,
}

impl Default for Replies {
    fn default() -> Replies {
        Replies::new(false, false)
    }
}

impl Replies {
    /// Empty tables: one-move replies, and two-move ones too when `two_moves`; replies are
    /// cells when `exact`, else columns.
    pub fn new(two_moves: bool, exact: bool) -> Replies {
        let pairs = || vec![0; if two_moves { CELLS * CELLS } else { 0 }];
        Replies {
            table: [[0; CELLS]; 2],
            pairs: [pairs(), pairs()],
            moves: [NO_CELL; MAX_MOVES + 2],
            len: 2,
            first_mover: Side::Us,
            exact,
        }
    }

    /// The cell `(row, col)` as a [`Cell`].
    #[inline(always)]
    pub fn cell(row: usize, col: usize) -> Cell {
        (row * MAX_SIZE + col) as Cell
    }

    /// Starts recording a new iteration, whose first move `first_mover` makes.
    #[inline(always)]
    pub fn begin(&mut self, first_mover: Side) {
        self.len = 2;
        self.first_mover = first_mover;
    }

    /// Records a stone played on `cell` in this iteration.
    #[inline(always)]
    pub fn record(&mut self, cell: Cell) {
        // A path never holds more moves than the board has cells.
        if self.len < self.moves.len() {
            self.moves[self.len] = cell;
            self.len += 1;
        }
    }

    /// The cell of the last move recorded, or [`NO_CELL`].
    #[inline(always)]
    pub fn last(&self) -> Cell {
        self.moves[self.len - 1]
    }

    /// `side`'s good reply in `pos` to the last move recorded (to the last two first, with
    /// LGRF-2), as a column mask (0 if none, or with `exact` if the column's next stone
    /// would not land on the reply's cell).
    #[inline(always)]
    pub fn reply_mask(&self, side: Side, pos: &Position) -> u16 {
        let (before, last) = (self.moves[self.len - 2], self.moves[self.len - 1]);
        let mut reply = self.table[side as usize][usize::from(last)];
        if let Some(&pair) = self.pairs[side as usize].get(pair_index(before, last)) {
            reply = if pair != 0 { pair } else { reply };
        }
        if self.exact {
            let Some(cell) = reply.checked_sub(1) else {
                return 0;
            };
            let (row, col) = (usize::from(cell) / MAX_SIZE, usize::from(cell) % MAX_SIZE);
            // `top` is the landing row plus one (0 when full).
            return u16::from(pos.top(col) == row + 1) << col;
        }
        // reply 0 (none) shifts to 0; reply c + 1 to bit c.
        ((1u32 << reply) >> 1) as u16
    }

    /// Learns from the iteration just finished: the winner's replies are stored, the
    /// loser's forgotten.
    pub fn learn(&mut self, outcome: Outcome) {
        let first_mover = self.first_mover;
        let Outcome::Win(winner) = outcome else {
            return;
        };
        // Move i (from 2, the first recorded) answers move i - 1; even i are the first mover's.
        for i in 3..self.len {
            let (before, prev) = (self.moves[i - 2], self.moves[i - 1]);
            let col = if self.exact {
                self.moves[i]
            } else {
                self.moves[i] % MAX_SIZE as u8
            };
            let side = if i % 2 == 0 {
                first_mover
            } else {
                first_mover.other()
            };
            let won = side == winner;
            forget_or_keep(&mut self.table[side as usize][usize::from(prev)], col, won);
            if let Some(slot) = self.pairs[side as usize].get_mut(pair_index(before, prev)) {
                forget_or_keep(slot, col, won);
            }
        }
    }
}

/// The index of the move pair `(before, last)` in a two-move table.
#[inline(always)]
fn pair_index(before: Cell, last: Cell) -> usize {
    usize::from(before) * CELLS + usize::from(last)
}

/// Stores `col` (a column, or a cell) as the reply in `slot` after a win; after a loss,
/// clears it if it holds `col`.
#[inline(always)]
fn forget_or_keep(slot: &mut u8, col: u8, won: bool) {
    if won {
        *slot = col + 1;
    } else if *slot == col + 1 {
        *slot = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty 12x12 board (blocked cell in the top left corner).
    fn empty() -> Position {
        Position::new(12, 12, 0, 0).unwrap()
    }

    #[test]
    fn exact_replies_are_played_only_on_their_own_cell() {
        let mut r = Replies::new(false, true);
        let (a, reply) = (Replies::cell(11, 5), Replies::cell(11, 6));
        r.begin(Side::Us);
        for cell in [Replies::cell(11, 0), a, reply] {
            r.record(cell);
        }
        r.learn(Outcome::Win(Side::Us));
        r.begin(Side::Us);
        r.record(a);
        let mut pos = empty();
        assert_eq!(
            r.reply_mask(Side::Us, &pos),
            1 << 6,
            "column 6 lands on (11, 6)"
        );
        pos.play(6);
        assert_eq!(
            r.reply_mask(Side::Us, &pos),
            0,
            "column 6 now lands on (10, 6)"
        );
    }

    #[test]
    fn the_winner_s_replies_are_kept_and_the_loser_s_forgotten() {
        let mut r = Replies::default();
        let a = Replies::cell(11, 5);
        let b = Replies::cell(11, 6);
        let c = Replies::cell(10, 5);
        // Us plays a, Them answers b (column 6), Us answers c (column 5); Us wins.
        r.begin(Side::Us);
        for cell in [a, b, c] {
            r.record(cell);
        }
        assert_eq!(r.last(), c);
        r.learn(Outcome::Win(Side::Us));
        // What each side would now answer after `moves`.
        let answer = |r: &mut Replies, side, moves: &[Cell]| {
            r.begin(Side::Us);
            moves.iter().for_each(|&m| r.record(m));
            r.reply_mask(side, &empty())
        };
        assert_eq!(answer(&mut r, Side::Us, &[a, b]), 1 << 5);
        assert_eq!(
            answer(&mut r, Side::Them, &[a]),
            0,
            "the loser learns nothing"
        );
        // The same answer by Us to b loses next time: it is forgotten.
        r.begin(Side::Us);
        for cell in [a, b, c] {
            r.record(cell);
        }
        r.learn(Outcome::Win(Side::Them));
        assert_eq!(answer(&mut r, Side::Us, &[a, b]), 0);
        assert_eq!(answer(&mut r, Side::Them, &[a]), 1 << 6);
        // A tie changes nothing.
        r.begin(Side::Us);
        for cell in [a, b, c] {
            r.record(cell);
        }
        r.learn(Outcome::Tie);
        assert_eq!(answer(&mut r, Side::Them, &[a]), 1 << 6);
    }

    #[test]
    fn two_move_replies_come_first_and_fall_back_to_one_move_replies() {
        let mut r = Replies::new(true, false);
        let [a, b, c, d] =
            [(11, 5), (11, 6), (10, 5), (11, 4)].map(|(row, col)| Replies::cell(row, col));
        let play = |r: &mut Replies, moves: &[Cell], winner| {
            r.begin(Side::Us);
            moves.iter().for_each(|&m| r.record(m));
            r.learn(Outcome::Win(winner));
        };
        // After a then b, Us answered 5 and won; after d then b, Us answered 4 and won.
        play(&mut r, &[a, b, c], Side::Us);
        play(&mut r, &[d, b, Replies::cell(10, 4)], Side::Us);
        let answer = |r: &mut Replies, moves: &[Cell]| {
            r.begin(Side::Us);
            moves.iter().for_each(|&m| r.record(m));
            r.reply_mask(Side::Us, &empty())
        };
        assert_eq!(answer(&mut r, &[a, b]), 1 << 5, "the pair's own reply");
        assert_eq!(answer(&mut r, &[d, b]), 1 << 4);
        // An unseen pair ending in b falls back to the last reply to b.
        assert_eq!(answer(&mut r, &[c, b]), 1 << 4);
    }

    #[test]
    fn no_previous_move_has_no_reply() {
        let mut r = Replies::default();
        r.begin(Side::Us);
        assert_eq!(r.last(), NO_CELL);
        assert_eq!(r.reply_mask(Side::Us, &empty()), 0);
    }
}
