//! How a game (or a playout) ended: the one type every part of the search shares, in a leaf
//! module so that the playouts, the learned policies and the backup need not import each
//! other for it.

use crate::position::Side;

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
