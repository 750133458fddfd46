//! Playouts: finish the game from a new leaf, with uniformly random legal moves (the
//! classic profile, and the strong one with tactical playouts off) or with tactics (the
//! strong profile).

use crate::position::{MAX_SIZE, Position, Side};
use crate::threats::ThreatPosition;
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

/// Finishes the game: win when possible, block when forced, never hand the opponent a win on
/// top unless every move does; otherwise uniformly random, among the moves that keep the
/// mover's own threats when `keep_threats` asks for it and any do. Decided positions end
/// early.
#[inline]
pub fn tactical_playout<R: RngCore>(
    pos: &mut ThreatPosition,
    keep_threats: bool,
    rng: &mut R,
) -> Outcome {
    loop {
        let to_move = pos.position().to_move();
        let tactics = pos.tactics();
        if tactics.open == 0 {
            return Outcome::Tie;
        }
        if tactics.wins != 0 {
            return Outcome::Win(to_move);
        }
        let mut candidates = tactics.candidates();
        if candidates == 0 {
            // Two threats to block, or only moves that let the opponent win on top.
            return Outcome::Win(to_move.other());
        }
        if keep_threats && tactics.must_block == 0 {
            let keeping = candidates & !tactics.spoils_own_threat;
            if keeping != 0 {
                candidates = keeping;
            }
        }
        let col = random_bit(candidates, rng);
        if pos.play(col) {
            return Outcome::Win(to_move);
        }
    }
}

/// A uniformly random set bit of the non-zero `mask`.
#[inline(always)]
fn random_bit<R: RngCore>(mut mask: u16, rng: &mut R) -> usize {
    let n = mask.count_ones();
    // Multiply-shift onto 0..n, as in the plain playout.
    let mut k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
    while k > 0 {
        mask &= mask - 1;
        k -= 1;
    }
    mask.trailing_zeros() as usize
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

    #[test]
    fn random_bit_hits_every_set_bit() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut seen = 0u16;
        for _ in 0..1000 {
            let b = random_bit(0b1010_0110, &mut rng);
            seen |= 1 << b;
        }
        assert_eq!(seen, 0b1010_0110);
    }
}
