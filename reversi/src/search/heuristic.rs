//! The alpha-beta engine's static evaluation: a score for the side to move in hundredths of a
//! disc, from hand-made Othello features whose weights slide with the game's phase.
//!
//! Features (each own minus opponent): mobility (moves now; the house rule applies to the side
//! to move), potential mobility (empty squares next to the other side's discs, where moves come
//! from), corners, X- and C-squares next to an empty corner (they hand the corner over),
//! stable discs (discs no sequence of moves can flip: every one of the four lines through them
//! is full or ends in an own stable disc or the board's edge), discs, and parity (who gets the
//! last move). Weights are given at the start of the game and at its end, and mixed linearly by
//! the empties left: mobility and corners rule the middle game, stable discs and discs the end.

use crate::bitboard::{
    self, CORNERS, NEAR_CORNERS, NOT_A_FILE as NOT_A, NOT_H_FILE as NOT_H, neighbours,
};
use crate::position::Position;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff00_0000_0000_0000;
const RING: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// One weight per feature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    /// Per move of mobility difference.
    pub mobility: i32,
    /// Per square of potential-mobility difference.
    pub potential: i32,
    /// Per corner held.
    pub corners: i32,
    /// Per X-square held next to an empty corner (a cost: subtracted).
    pub x_squares: i32,
    /// Per C-square held next to an empty corner (a cost: subtracted).
    pub c_squares: i32,
    /// Per stable disc.
    pub stable: i32,
    /// Per disc.
    pub discs: i32,
    /// For the side to move when the empties are odd (it gets the last move).
    pub parity: i32,
}

/// The evaluation's weights at both ends of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Weights with 60 empties.
    pub opening: Terms,
    /// Weights with no empties.
    pub ending: Terms,
}

impl Weights {
    /// The hand-set defaults (hundredths of a disc): a corner is worth several discs, a move
    /// of mobility about one in the middle game, fewer discs are better early.
    pub const DEFAULT: Weights = Weights {
        opening: Terms {
            mobility: 100,
            potential: 50,
            corners: 800,
            x_squares: 400,
            c_squares: 150,
            stable: 100,
            discs: -10,
            parity: 0,
        },
        ending: Terms {
            mobility: 80,
            potential: 20,
            corners: 500,
            x_squares: 200,
            c_squares: 50,
            stable: 150,
            discs: 0,
            parity: 100,
        },
    };

    /// Weights from 16 values: the opening's then the ending's, each in [`Terms`] field order
    /// (the form of `REVERSI_AB_WEIGHTS`, read by [`crate::settings`]).
    pub fn from_values(v: [i32; 16]) -> Weights {
        let terms = |v: &[i32]| Terms {
            mobility: v[0],
            potential: v[1],
            corners: v[2],
            x_squares: v[3],
            c_squares: v[4],
            stable: v[5],
            discs: v[6],
            parity: v[7],
        };
        Weights {
            opening: terms(&v[..8]),
            ending: terms(&v[8..]),
        }
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// The diagonals (a1-h8 direction) and anti-diagonals (h1-a8 direction) as masks.
const fn diagonals() -> ([u64; 15], [u64; 15]) {
    let mut down = [0u64; 15];
    let mut anti = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        down[7 + c - r] |= 1 << sq;
        anti[r + c] |= 1 << sq;
        sq += 1;
    }
    (down, anti)
}
const DIAGONALS: ([u64; 15], [u64; 15]) = diagonals();

/// Squares whose row, column, diagonal and anti-diagonal are full, one mask per direction.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut rows = 0;
    let mut cols = u64::MAX;
    for r in 0..8 {
        let row = (occupied >> (8 * r)) & 0xff;
        if row == 0xff {
            rows |= 0xff << (8 * r);
        }
        cols &= row;
    }
    let cols = (cols & 0xff).wrapping_mul(FILE_A);
    let (mut down, mut anti) = (0, 0);
    for i in 0..15 {
        let (d, a) = (DIAGONALS.0[i], DIAGONALS.1[i]);
        if occupied & d == d {
            down |= d;
        }
        if occupied & a == a {
            anti |= a;
        }
    }
    [rows, cols, down, anti]
}

/// The discs of `own` that can never be flipped: grown from the edges, a disc is stable when
/// on each of its four lines the line is full, or a neighbour along it is a stable own disc or
/// off the board. (A lower bound: some stable discs are missed, none is wrongly counted.)
pub fn stable_discs(own: u64, opp: u64) -> u64 {
    stable_given(own, full_lines(own | opp))
}

/// [`stable_discs`] of `own` given the board's [`full_lines`], which both sides share.
#[inline]
fn stable_given(own: u64, [rows, cols, down, anti]: [u64; 4]) -> u64 {
    let mut stable = 0u64;
    loop {
        let horizontal = rows | FILE_A | FILE_H | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let vertical = cols | RANK_1 | RANK_8 | (stable << 8) | (stable >> 8);
        let diagonal = down | RING | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let anti_diagonal = anti | RING | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        let next = stable | (own & horizontal & vertical & diagonal & anti_diagonal);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The score of `pos` (not over) for the side to move, in hundredths of a disc.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    evaluate_with_moves(pos, pos.move_mask(), w)
}

/// [`evaluate`] given `moves`, the side to move's [`Position::move_mask`], which a search
/// node has already computed.
pub(crate) fn evaluate_with_moves(pos: &Position, moves: u64, w: &Weights) -> i32 {
    debug_assert_eq!(moves, pos.move_mask());
    let (own, opp) = (pos.own(), pos.opp());
    let empty = !(own | opp);
    let empties = empty.count_ones() as i32;
    let mobility = moves.count_ones() as i32 - bitboard::legal_moves(opp, own).count_ones() as i32;
    let potential = (neighbours(opp) & empty).count_ones() as i32
        - (neighbours(own) & empty).count_ones() as i32;
    let corners = (own & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
    let (mut x, mut c) = (0i32, 0i32);
    for (corner, xs, cs) in NEAR_CORNERS {
        if empty & corner != 0 {
            x += (own & xs).count_ones() as i32 - (opp & xs).count_ones() as i32;
            c += (own & cs).count_ones() as i32 - (opp & cs).count_ones() as i32;
        }
    }
    let lines = full_lines(own | opp);
    let stable =
        stable_given(own, lines).count_ones() as i32 - stable_given(opp, lines).count_ones() as i32;
    let discs = own.count_ones() as i32 - opp.count_ones() as i32;
    let parity = empties & 1;
    let terms = |t: &Terms| {
        t.mobility * mobility + t.potential * potential + t.corners * corners
            - t.x_squares * x
            - t.c_squares * c
            + t.stable * stable
            + t.discs * discs
            + t.parity * parity
    };
    // Linear in the empties: the opening weights at 60, the ending ones at 0.
    (terms(&w.opening) * empties + terms(&w.ending) * (60 - empties)) / 60
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Color, Rule};

    fn sq(s: &str) -> u64 {
        crate::bitboard::Square::parse(s).unwrap().bit()
    }

    #[test]
    fn start_is_even() {
        let p = Position::start(Rule::Standard);
        assert_eq!(evaluate(&p, &Weights::DEFAULT), 0);
    }

    #[test]
    fn a_corner_and_its_edge_are_stable_and_valued() {
        let own = sq("a1") | sq("b1") | sq("c1") | sq("e4");
        let opp = sq("d1") | sq("d4") | sq("e5") | sq("b2");
        assert_eq!(stable_discs(own, opp), sq("a1") | sq("b1") | sq("c1"));
        // The opponent's d1 sits between an own run and an empty e1: not stable.
        assert_eq!(stable_discs(opp, own), 0);
        let pos = Position::from_parts(own, opp, Color::Black, None, Rule::Standard).unwrap();
        assert!(evaluate(&pos, &Weights::DEFAULT) > 500);
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let own = 0x00ff_00ff_00ff_00ffu64;
        assert_eq!(stable_discs(own, !own), own);
        assert_eq!(stable_discs(!own, own), !own);
    }
}
