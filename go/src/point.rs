//! The vocabulary every part of the engine shares: colours, points and moves.
//!
//! A point is `(x, y)` with `x` the column from the left and `y` the row from the TOP, both
//! 0-based, as SGF writes them (`aa` is the top-left corner). GTP counts rows from the bottom
//! and skips the letter I; the protocol modules convert at their edges, nothing else does.

use std::fmt;

/// The largest board side the engine plays (GTP's and SGF's letters reach 25).
pub const MAX_SIZE: usize = 25;
/// The smallest board side.
pub const MIN_SIZE: usize = 2;

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black moves first (without handicap).
    Black,
    /// White.
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// An intersection: column `x` from the left, row `y` from the top, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0 = leftmost.
    pub x: u8,
    /// Row, 0 = top.
    pub y: u8,
}

impl Point {
    /// The point at column `x`, row `y` (from the top).
    pub fn new(x: usize, y: usize) -> Point {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Point {
            x: x as u8,
            y: y as u8,
        }
    }

    /// True when the point lies on a `size` x `size` board.
    pub fn on_board(self, size: usize) -> bool {
        usize::from(self.x) < size && usize::from(self.y) < size
    }
}

/// What a player does on a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone on this point.
    Play(Point),
    /// A pass.
    Pass,
    /// Resignation (GTP's `genmove` may answer it; SGF records it as a result, not a move).
    Resign,
}
