//! Zobrist hashing of positions: one random 64-bit word per side and cell, XORed together.
//!
//! A key hashes the stones only, so it changes by one XOR per move and the searches that
//! need it ([`crate::threats::ThreatPosition`] for the strong search and the endgame solver)
//! can carry it along move by move. Within one game the side to move follows from the stone
//! count; tables kept across games fold it in with [`position_key`]. Keys say nothing about
//! the board's size or blocked cell: tables keyed by them compare a
//! [`Geometry`](super::Geometry) as well.

use super::{MAX_SIZE, Position, Side};

/// Keys per side and cell, from a fixed SplitMix64 stream (reproducible, no I/O).
static ZOBRIST: [[u64; MAX_SIZE * MAX_SIZE]; 2] = {
    let mut table = [[0u64; MAX_SIZE * MAX_SIZE]; 2];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut i = 0;
    while i < 2 * MAX_SIZE * MAX_SIZE {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        table[i / (MAX_SIZE * MAX_SIZE)][i % (MAX_SIZE * MAX_SIZE)] = z ^ (z >> 31);
        i += 1;
    }
    table
};

/// Extra key bits for the side to move: the same stones can be reached with either side to
/// move when games differ in who starts, and a table's statistics or bounds belong to one.
const US_TO_MOVE: u64 = 0x5851_F42D_4C95_7F2D;

/// The key of one stone of `side` at `(row, col)`: XOR it in when the stone is played.
#[inline(always)]
pub fn stone(side: Side, row: usize, col: usize) -> u64 {
    ZOBRIST[side as usize][row * MAX_SIZE + col]
}

/// Folds the side to move into a stones-only key (never 0, which callers may use to mean
/// "no position").
#[inline(always)]
pub fn position_key(stones_key: u64, to_move: Side) -> u64 {
    let key = match to_move {
        Side::Us => stones_key ^ US_TO_MOVE,
        Side::Them => stones_key,
    };
    key.max(1)
}

impl Position {
    /// The hash of the stones, computed from scratch: equal stones have equal keys, whichever
    /// side is to move (see [`position_key`] for a key that tells them apart).
    pub fn stones_key(&self) -> u64 {
        let mut key = 0;
        for row in 0..self.rows() {
            for col in 0..self.cols() {
                if let Some(side) = self.stone(row, col) {
                    key ^= stone(side, row, col);
                }
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_the_xor_of_its_stones_and_ignores_move_order() {
        let mut one = Position::new(6, 7, 0, 6).unwrap();
        let mut other = one.clone();
        assert_eq!(one.stones_key(), 0);
        for col in [2, 3, 4] {
            one.play(col);
        }
        for col in [4, 3, 2] {
            other.play(col);
        }
        assert_eq!(one.stones_key(), other.stones_key());
        let expected = stone(Side::Us, 5, 2) ^ stone(Side::Them, 5, 3) ^ stone(Side::Us, 5, 4);
        assert_eq!(one.stones_key(), expected);
    }

    #[test]
    fn the_side_to_move_is_part_of_the_key() {
        assert_ne!(position_key(5, Side::Us), position_key(5, Side::Them));
        assert_ne!(position_key(0, Side::Them), 0, "0 marks a free slot");
    }
}
