//! Random playouts: finish the game with uniformly random legal moves.

use crate::position::{MAX_SIZE, Position, Side};
use rand::RngCore;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side made four in a row.
    Win(Side),
    /// The board filled up with no four.
    Tie,
}

impl Outcome {
    /// The result for `side` in half points: win 2, tie 1, loss 0 (integers add exactly).
    #[inline(always)]
    pub fn half_points_for(self, side: Side) -> u32 {
        match self {
            Outcome::Win(winner) if winner == side => 2,
            Outcome::Win(_) => 0,
            Outcome::Tie => 1,
        }
    }
}

/// Plays uniformly random legal moves on `pos` until someone wins or the board is full.
///
/// The open columns live in a small array that shrinks as columns fill, so every ply is one
/// random number, one table read, one [`Position::play`]: no retries, no allocation.
#[inline]
pub fn random_playout<R: RngCore>(pos: &mut Position, rng: &mut R) -> Outcome {
    let mut open = [0u8; MAX_SIZE];
    let mut len = 0usize;
    let mut mask = pos.open_columns();
    while mask != 0 {
        open[len] = mask.trailing_zeros() as u8;
        len += 1;
        mask &= mask - 1;
    }
    while len > 0 {
        // Multiply-shift maps 32 random bits onto 0..len; the bias (len / 2^32) is far below
        // anything a playout could notice, and it avoids a division per ply.
        let i = ((u64::from(rng.next_u32()) * len as u64) >> 32) as usize;
        let col = open[i] as usize;
        let mover = pos.to_move();
        if pos.play(col) {
            return Outcome::Win(mover);
        }
        if pos.top(col) == 0 {
            len -= 1;
            open[i] = open[len];
        }
    }
    Outcome::Tie
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn playouts_end_in_a_win_or_a_full_board() {
        let mut rng = SmallRng::seed_from_u64(7);
        for seed in 0..200u64 {
            let rows = 4 + (seed % 9) as usize;
            let cols = 4 + (seed / 9 % 9) as usize;
            let root =
                Position::new(rows, cols, seed as usize % rows, seed as usize % cols).unwrap();
            let mut pos = root.clone();
            match random_playout(&mut pos, &mut rng) {
                Outcome::Tie => assert_eq!(pos.empty_cells(), 0),
                Outcome::Win(side) => assert_eq!(pos.to_move(), side.other()),
            }
        }
    }
}
