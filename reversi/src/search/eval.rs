//! A static evaluation for the strong engine's early-cutoff playouts: the chance that the side
//! to move wins, from the classic hand-made Othello features.
//!
//! Features (each a difference between the sides, scaled to about -1..1): corners held;
//! mobility (moves now, the house rule included for the side to move); potential mobility
//! (empty squares next to the opponent's discs, where moves will come from); X-squares held
//! next to an empty corner (they give the corner away); and, near the end, discs. Weights are
//! hand-set in the proportions the Othello literature gives (corners over mobility over
//! potential mobility), then checked in play; the logistic squash turns the sum into a win
//! probability for the tree's means.

use crate::bitboard::{self, CORNERS, NEAR_CORNERS, neighbours};
use crate::position::Position;

/// The evaluation's weights (each feature is scaled to about -1..1 first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Corners held.
    pub corners: f64,
    /// Moves now.
    pub mobility: f64,
    /// Empty squares next to the opponent's discs.
    pub potential: f64,
    /// X-squares held next to an empty corner (subtracted).
    pub x_squares: f64,
    /// Discs, phased in over the last 20 empties.
    pub discs_late: f64,
    /// Edge discs anchored to an own corner (they can never flip).
    pub stability: f64,
}

impl Weights {
    /// The hand-set defaults.
    pub const DEFAULT: Weights = Weights {
        corners: 2.0,
        mobility: 1.2,
        potential: 0.6,
        x_squares: 0.8,
        discs_late: 1.0,
        stability: 0.0,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// Steepness of the logistic: a sum of 1 is about a 73 % win.
const SCALE: f64 = 1.0;

/// The edge lines from each corner: (corner bit, step as a shift direction). Walking from an
/// own corner along an edge, own discs are stable until the first square that is not own.
const EDGE_WALKS: [(u32, i32); 8] = [
    (0, 1),
    (0, 8),
    (7, -1),
    (7, 8),
    (56, 1),
    (56, -8),
    (63, -1),
    (63, -8),
];

/// Edge discs of `own` anchored to an own corner (counted once per walk; a full edge twice).
#[inline]
fn anchored(own: u64) -> u32 {
    let mut n = 0;
    for (corner, step) in EDGE_WALKS {
        if own & (1u64 << corner) == 0 {
            continue;
        }
        let mut sq = corner as i32 + step;
        for _ in 0..7 {
            if own & (1u64 << sq) == 0 {
                break;
            }
            n += 1;
            sq += step;
        }
    }
    n
}

/// `(a - b) / (a + b)`, 0 when both are 0.
#[inline]
fn ratio(a: u32, b: u32) -> f64 {
    if a + b == 0 {
        0.0
    } else {
        (f64::from(a) - f64::from(b)) / f64::from(a + b)
    }
}

/// The estimated chance (0..1) that the side to move wins `pos` (not over).
pub fn win_probability(pos: &Position, w: &Weights) -> f64 {
    let (own, opp) = (pos.own(), pos.opp());
    let empty = !(own | opp);
    let corners =
        (f64::from((own & CORNERS).count_ones()) - f64::from((opp & CORNERS).count_ones())) / 2.0;
    let mobility = ratio(
        pos.move_mask().count_ones(),
        bitboard::legal_moves(opp, own).count_ones(),
    );
    let potential = ratio(
        (neighbours(opp) & empty).count_ones(),
        (neighbours(own) & empty).count_ones(),
    );
    let mut x = 0.0;
    for (corner, xsq, _) in NEAR_CORNERS {
        if empty & corner != 0 {
            if own & xsq != 0 {
                x += 1.0;
            }
            if opp & xsq != 0 {
                x -= 1.0;
            }
        }
    }
    // Discs matter only near the end; before, fewer discs is often better.
    let late = (1.0 - f64::from(pos.empties()) / 20.0).max(0.0);
    let discs = ratio(own.count_ones(), opp.count_ones());
    let stability = if w.stability != 0.0 {
        ratio(anchored(own), anchored(opp))
    } else {
        0.0
    };
    let sum = w.corners * corners + w.mobility * mobility + w.potential * potential
        - w.x_squares * x / 2.0
        + w.discs_late * late * discs
        + w.stability * stability;
    1.0 / (1.0 + (-SCALE * sum).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Color, Rule};

    #[test]
    fn start_is_even_and_corners_are_good() {
        let p = Position::start(Rule::Standard);
        assert!((win_probability(&p, &Weights::DEFAULT) - 0.5).abs() < 1e-9);
        // Black holds a1 and more: black to move should be favoured.
        let black = 1u64 | (1 << 18) | (1 << 27);
        let white = (1 << 28) | (1 << 36);
        let pos = Position::from_parts(black, white, Color::Black, None, Rule::Standard).unwrap();
        assert!(win_probability(&pos, &Weights::DEFAULT) > 0.6);
        assert_eq!(anchored(1 | 2 | 4 | 256), 3);
    }
}
