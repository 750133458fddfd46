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
//! The table is per search: its knowledge is about the positions around one root. Off by
//! default (`GRAVITY4_ENABLE=last-good-reply`); STRENGTH.md has what it measured.

use super::playout::Outcome;
use crate::position::{MAX_SIZE, Side};

/// A cell as one byte: `row * MAX_SIZE + col`.
pub type Cell = u8;

/// No previous move (the first move of the path): nothing is looked up or learned for it.
pub const NO_CELL: Cell = u8::MAX;

/// Cells of the largest board, one past the last being [`NO_CELL`]'s slot in the table.
const CELLS: usize = 256;

/// The longest path an iteration can record: every cell of the largest board.
const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// The reply table and the moves of the iteration under way.
#[derive(Clone)]
pub struct Replies {
    /// `table[side][cell]`: `col + 1` of `side`'s last good reply to a stone on `cell`, or 0.
    table: [[u8; CELLS]; 2],
    /// The cells played so far in this iteration, from the root on.
    moves: [Cell; MAX_MOVES],
    len: usize,
}

impl Default for Replies {
    fn default() -> Replies {
        Replies {
            table: [[0; CELLS]; 2],
            moves: [NO_CELL; MAX_MOVES],
            len: 0,
        }
    }
}

impl Replies {
    /// The cell `(row, col)` as a [`Cell`].
    #[inline(always)]
    pub fn cell(row: usize, col: usize) -> Cell {
        (row * MAX_SIZE + col) as Cell
    }

    /// Starts recording a new iteration.
    #[inline(always)]
    pub fn begin(&mut self) {
        self.len = 0;
    }

    /// Records a stone played on `cell` in this iteration.
    #[inline(always)]
    pub fn record(&mut self, cell: Cell) {
        // A path never holds more moves than the board has cells.
        if self.len < MAX_MOVES {
            self.moves[self.len] = cell;
            self.len += 1;
        }
    }

    /// The cell of the last move recorded, or [`NO_CELL`].
    #[inline(always)]
    pub fn last(&self) -> Cell {
        if self.len == 0 {
            NO_CELL
        } else {
            self.moves[self.len - 1]
        }
    }

    /// `side`'s good reply to a stone on `cell`, as a column mask (0 if none).
    #[inline(always)]
    pub fn reply_mask(&self, side: Side, cell: Cell) -> u16 {
        let reply = u32::from(self.table[side as usize][usize::from(cell)]);
        // reply 0 (none) shifts to 0; reply c + 1 to bit c.
        ((1u32 << reply) >> 1) as u16
    }

    /// Learns from the iteration just finished, whose first recorded move was made by
    /// `first_mover`: the winner's replies are stored, the loser's forgotten.
    pub fn learn(&mut self, first_mover: Side, outcome: Outcome) {
        let Outcome::Win(winner) = outcome else {
            return;
        };
        // Move i (from 1) answers move i - 1; even i are the first mover's.
        for i in 1..self.len {
            let prev = self.moves[i - 1];
            let col = self.moves[i] % MAX_SIZE as u8;
            let side = if i % 2 == 0 {
                first_mover
            } else {
                first_mover.other()
            };
            let slot = &mut self.table[side as usize][usize::from(prev)];
            if side == winner {
                *slot = col + 1;
            } else if *slot == col + 1 {
                *slot = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_s_replies_are_kept_and_the_loser_s_forgotten() {
        let mut r = Replies::default();
        let a = Replies::cell(11, 5);
        let b = Replies::cell(11, 6);
        let c = Replies::cell(10, 5);
        // Us plays a, Them answers b (column 6), Us answers c (column 5); Us wins.
        r.begin();
        for cell in [a, b, c] {
            r.record(cell);
        }
        assert_eq!(r.last(), c);
        r.learn(Side::Us, Outcome::Win(Side::Us));
        assert_eq!(r.reply_mask(Side::Us, b), 1 << 5);
        assert_eq!(r.reply_mask(Side::Them, a), 0, "the loser learns nothing");
        // The same answer by Us to b loses next time: it is forgotten.
        r.begin();
        for cell in [a, b, c] {
            r.record(cell);
        }
        r.learn(Side::Us, Outcome::Win(Side::Them));
        assert_eq!(r.reply_mask(Side::Us, b), 0);
        assert_eq!(r.reply_mask(Side::Them, a), 1 << 6);
        // A tie changes nothing.
        r.learn(Side::Us, Outcome::Tie);
        assert_eq!(r.reply_mask(Side::Them, a), 1 << 6);
    }

    #[test]
    fn no_previous_move_has_no_reply() {
        let r = Replies::default();
        assert_eq!(r.last(), NO_CELL);
        assert_eq!(r.reply_mask(Side::Us, NO_CELL), 0);
    }
}
