//! 64-bit board masks and the shift arithmetic the rules are built from.
//!
//! Bit layout: bit `8 * row + col`, with row 0 the top row ("1" in Othello notation) and col 0
//! the left column ("a"). So a1 is bit 0, h1 bit 7, a8 bit 56, h8 bit 63:
//!
//! ```text
//!      a  b  c  d  e  f  g  h
//!   1  0  1  2  3  4  5  6  7
//!   2  8  9 10 11 12 13 14 15
//!   3 16 17 18 19 20 21 22 23
//!   4 24 25 26 27 28 29 30 31      d4 = 27 (white), e4 = 28 (black)
//!   5 32 33 34 35 36 37 38 39      d5 = 35 (black), e5 = 36 (white)
//!   6 40 41 42 43 44 45 46 47
//!   7 48 49 50 51 52 53 54 55
//!   8 56 57 58 59 60 61 62 63
//! ```
//!
//! Shifting left by one moves every disc one column right (east); discs that would wrap from
//! the h-file onto the next row's a-file are masked off, which is all the edge handling the
//! rules need.

use std::fmt;

/// Every square except the a-file: where a disc shifted east may legally land.
pub const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square except the h-file: where a disc shifted west may legally land.
pub const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The four corners, for playout and ordering heuristics.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Each corner with the squares that hand it over while it is empty, for the evaluations:
/// (corner, its X-square, its two C-squares).
pub const NEAR_CORNERS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 48) | (1 << 57)),
    (1 << 63, 1 << 54, (1 << 55) | (1 << 62)),
];

/// One of the 64 squares, `8 * row + col` (see the module docs for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `index` (0..64), or `None` past the board.
    pub fn new(index: u8) -> Option<Square> {
        (index < 64).then_some(Square(index))
    }

    /// The square at 0-based `row` (0 = Othello row 1, the top) and `col` (0 = file a).
    pub fn from_row_col(row: u8, col: u8) -> Option<Square> {
        // `then`, not `then_some`: the index of a row past 31 overflows a `u8`.
        (row < 8 && col < 8).then(|| Square(row * 8 + col))
    }

    /// The index 0..64.
    pub fn index(self) -> u8 {
        self.0
    }

    /// 0-based row, 0 being the top row (Othello row "1").
    pub fn row(self) -> u8 {
        self.0 / 8
    }

    /// 0-based column, 0 being file "a".
    pub fn col(self) -> u8 {
        self.0 % 8
    }

    /// The one-bit mask of this square.
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The lowest set square of a non-empty mask.
    pub fn first(mask: u64) -> Option<Square> {
        (mask != 0).then(|| Square(mask.trailing_zeros() as u8))
    }

    /// Parses Othello notation `a1`..`h8` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let col = bytes[0].to_ascii_lowercase().checked_sub(b'a')?;
        let row = bytes[1].checked_sub(b'1')?;
        Square::from_row_col(row, col)
    }

    /// The up-to-four squares sharing an edge with this one (`|dr| + |dc| == 1`).
    pub fn orthogonal_neighbours(self) -> u64 {
        let b = self.bit();
        north(b) | south(b) | east(b) | west(b)
    }
}

impl fmt::Display for Square {
    /// Othello notation, `a1`..`h8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// Every square next to a disc of `b` in the eight directions (the evaluations' potential
/// mobility counts the empty ones).
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let row = east(b) | west(b);
    row | north(b | row) | south(b | row)
}

/// Iterates the squares of a mask, lowest index first.
pub fn squares(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        let sq = Square::first(mask)?;
        mask &= mask - 1;
        Some(sq)
    })
}

/// Every disc one row up.
#[inline]
fn north(b: u64) -> u64 {
    b >> 8
}
/// Every disc one row down.
#[inline]
fn south(b: u64) -> u64 {
    b << 8
}
/// Every disc one column right; the h-file falls off.
#[inline]
fn east(b: u64) -> u64 {
    (b << 1) & NOT_A_FILE
}
/// Every disc one column left; the a-file falls off.
#[inline]
fn west(b: u64) -> u64 {
    (b >> 1) & NOT_H_FILE
}
#[inline]
fn north_east(b: u64) -> u64 {
    (b >> 7) & NOT_A_FILE
}
#[inline]
fn north_west(b: u64) -> u64 {
    (b >> 9) & NOT_H_FILE
}
#[inline]
fn south_east(b: u64) -> u64 {
    (b << 9) & NOT_A_FILE
}
#[inline]
fn south_west(b: u64) -> u64 {
    (b << 7) & NOT_H_FILE
}

/// The eight directions as wrap-safe shifts.
const DIRECTIONS: [fn(u64) -> u64; 8] = [
    north, south, east, west, north_east, north_west, south_east, south_west,
];

/// The empty squares where the side owning `own` may play against `opp` under the standard
/// rules: squares from which a line of one or more `opp` discs runs to an `own` disc.
///
/// The classic shift loop: from `own`, grow runs of opponent discs in each direction (at most
/// six can fit between two squares), then step once more onto an empty square.
#[inline]
pub fn legal_moves(own: u64, opp: u64) -> u64 {
    let empty = !(own | opp);
    let mut moves = 0;
    for shift in DIRECTIONS {
        let mut run = shift(own) & opp;
        run |= shift(run) & opp;
        run |= shift(run) & opp;
        run |= shift(run) & opp;
        run |= shift(run) & opp;
        run |= shift(run) & opp;
        moves |= shift(run) & empty;
    }
    moves
}

/// The `opp` discs that a disc placed on `sq` by the owner of `own` flips: in each direction,
/// the unbroken run of opponent discs that ends on an own disc.
#[inline]
pub fn flips(own: u64, opp: u64, sq: Square) -> u64 {
    let start = sq.bit();
    let mut flipped = 0;
    for shift in DIRECTIONS {
        let mut run = 0;
        let mut cursor = shift(start);
        while cursor & opp != 0 {
            run |= cursor;
            cursor = shift(cursor);
        }
        if cursor & own != 0 {
            flipped |= run;
        }
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse_in_othello_notation() {
        for i in 0..64 {
            let sq = Square::new(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("A1").unwrap().index(), 0);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        assert_eq!(
            Square::parse("d3").unwrap(),
            Square::from_row_col(2, 3).unwrap()
        );
        for bad in ["", "a", "a9", "i1", "a0", "a10", "11"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn squares_far_off_the_board_are_none_not_an_overflow() {
        // Found by fuzzing the GTP reader (`play white ay`): the index was computed before
        // the bounds were checked, which panics where overflow is checked (debug builds).
        assert_eq!(Square::parse("ay"), None);
        assert_eq!(Square::parse("\u{7f}1"), None);
        for (row, col) in [(32, 0), (0, 32), (255, 255), (8, 0), (0, 8)] {
            assert_eq!(Square::from_row_col(row, col), None, "{row} {col}");
        }
    }

    #[test]
    fn all_eight_neighbours_without_wrapping() {
        let bit = |s: &str| Square::parse(s).unwrap().bit();
        assert_eq!(neighbours(bit("a1")), bit("b1") | bit("a2") | bit("b2"));
        assert_eq!(neighbours(bit("h4")).count_ones(), 5);
        assert_eq!(neighbours(bit("d4")).count_ones(), 8);
        // Two discs side by side: each is the other's neighbour.
        assert_eq!(neighbours(bit("d4") | bit("e4")).count_ones(), 12);
    }

    #[test]
    fn neighbours_stop_at_the_edges() {
        assert_eq!(
            Square::parse("a1")
                .unwrap()
                .orthogonal_neighbours()
                .count_ones(),
            2
        );
        assert_eq!(
            Square::parse("h4")
                .unwrap()
                .orthogonal_neighbours()
                .count_ones(),
            3
        );
        assert_eq!(
            Square::parse("d4")
                .unwrap()
                .orthogonal_neighbours()
                .count_ones(),
            4
        );
        let h1 = Square::parse("h1").unwrap().orthogonal_neighbours();
        assert_eq!(
            h1,
            Square::parse("g1").unwrap().bit() | Square::parse("h2").unwrap().bit()
        );
    }
}
