//! Playouts: play a position to the end and score it for the side to move there.

use rand::Rng;
use rand::rngs::SmallRng;

use super::eval;
use crate::bitboard::{CORNERS, Square};
use crate::position::{Move, Position};

/// How playout moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among the legal squares (the seed's playouts).
    Random,
    /// Weighted by square class: an offered corner always, the squares next to an empty
    /// corner far below, edges a little above the rest. Random playouts hand away corners; this
    /// keeps the playout's verdict closer to what two sensible players would reach.
    Biased,
}

/// The X-squares (diagonally next to a corner), by corner: (corner, x-square).
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 0, 1 << 9),
    (1 << 7, 1 << 14),
    (1 << 56, 1 << 49),
    (1 << 63, 1 << 54),
];

/// The C-squares (on an edge, next to a corner), by corner: (corner, the two c-squares).
const C_SQUARES: [(u64, u64); 4] = [
    (1 << 0, (1 << 1) | (1 << 8)),
    (1 << 7, (1 << 6) | (1 << 15)),
    (1 << 56, (1 << 48) | (1 << 57)),
    (1 << 63, (1 << 55) | (1 << 62)),
];

/// The outer ring of the board.
const EDGES: u64 = 0xff81_8181_8181_81ff;

/// Playout weights per square class (an offered corner is always taken, before these apply).
/// Hand-set, then checked against the classic engine with `reversi selfplay`: an X-square next
/// to an empty corner is played rarely, a C-square less than the rest, an edge a little more.
const W_EDGE: u32 = 6;
const W_PLAIN: u32 = 4;
const W_C_EMPTY_CORNER: u32 = 2;
const W_X_EMPTY_CORNER: u32 = 1;

/// The squares next to still-empty corners: (X-squares, C-squares).
#[inline]
fn danger(empty: u64) -> (u64, u64) {
    let mut x = 0;
    let mut c = 0;
    for i in 0..4 {
        if empty & X_SQUARES[i].0 != 0 {
            x |= X_SQUARES[i].1;
            c |= C_SQUARES[i].1;
        }
    }
    (x, c)
}

/// One playout move under `policy` from the non-empty `mask`.
#[inline]
pub fn pick(pos: &Position, mask: u64, policy: Policy, rng: &mut SmallRng) -> Square {
    match policy {
        Policy::Random => nth_square(mask, rng.random_range(0..mask.count_ones())),
        Policy::Biased => {
            let corners = mask & CORNERS;
            if corners != 0 {
                return nth_square(corners, rng.random_range(0..corners.count_ones()));
            }
            let empty = !(pos.own() | pos.opp());
            let (x, c) = danger(empty);
            let classes = [
                (mask & x, W_X_EMPTY_CORNER),
                (mask & c & !x, W_C_EMPTY_CORNER),
                (mask & EDGES & !x & !c, W_EDGE),
                (mask & !EDGES & !x & !c, W_PLAIN),
            ];
            let total: u32 = classes.iter().map(|&(m, w)| m.count_ones() * w).sum();
            let mut r = rng.random_range(0..total);
            for (m, w) in classes {
                let weight = m.count_ones() * w;
                if r < weight {
                    return nth_square(m, r / w);
                }
                r -= weight;
            }
            unreachable!("the weights add up to total")
        }
    }
}

/// The `n`-th lowest set square of `mask` (`n < popcount`).
#[inline]
fn nth_square(mut mask: u64, n: u32) -> Square {
    for _ in 0..n {
        mask &= mask - 1;
    }
    Square::first(mask).expect("n is below the population count")
}

/// Plays `pos` out to the end under `policy`; the result for the side to move at `pos`:
/// 1 win, 0.5 draw, 0 loss.
pub fn playout(pos: &Position, policy: Policy, rng: &mut SmallRng) -> f64 {
    playout_cutoff(pos, policy, u32::MAX, &eval::Weights::DEFAULT, rng)
}

/// Plays at most `plies` moves from `pos` under `policy`; the result for the side to move at
/// `pos`: exact (1, 0.5, 0) if the game ended, else the static evaluation's win probability.
pub fn playout_cutoff(
    pos: &Position,
    policy: Policy,
    plies: u32,
    weights: &eval::Weights,
    rng: &mut SmallRng,
) -> f64 {
    let mover = pos.to_move();
    let mut p = *pos;
    let mut played = 0;
    loop {
        let mask = p.move_mask();
        if mask == 0 && p.is_game_over() {
            break;
        }
        if played >= plies {
            let v = eval::win_probability(&p, weights);
            return if p.to_move() == mover { v } else { 1.0 - v };
        }
        p = if mask != 0 {
            let sq = pick(&p, mask, policy, rng);
            p.play_unchecked(Move::Play(sq))
        } else {
            p.play_unchecked(Move::Pass)
        };
        played += 1;
    }
    let margin = p.disc_margin();
    let margin = if p.to_move() == mover {
        margin
    } else {
        -margin
    };
    match margin.cmp(&0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Rule;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_and_score_in_range() {
        let mut rng = SmallRng::seed_from_u64(1);
        for rule in [Rule::Standard, Rule::NoAdjacent] {
            for policy in [Policy::Random, Policy::Biased] {
                let r = playout(&Position::start(rule), policy, &mut rng);
                assert!([0.0, 0.5, 1.0].contains(&r));
            }
        }
    }

    #[test]
    fn biased_takes_a_corner_when_offered() {
        // Black to move with a1 available: white on b2, black on c3.
        let pos = Position::from_parts(
            1 << 18,
            1 << 9,
            crate::position::Color::Black,
            None,
            Rule::Standard,
        )
        .unwrap();
        let mut rng = SmallRng::seed_from_u64(7);
        assert_eq!(
            pick(&pos, pos.move_mask(), Policy::Biased, &mut rng).index(),
            0
        );
    }
}
