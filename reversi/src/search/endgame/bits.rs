//! The solver's bit arithmetic: flips without a loop over squares, quadrant parity, the house
//! rule's forbidden squares, and the final score.
//!
//! Flips use masked shifts: a run of flipped discs lies strictly between the new disc and the
//! bracketing one, so along a line that runs east or west it never touches the a- or h-file;
//! masking those files off the opponent's discs stops every wrap from one row to the next.

use crate::bitboard::Square;

/// The opponent's discs that may lie inside a flipped run, per shift: columns b..g for the
/// six directions with an east-west part, everything for north-south.
const INNER_COLS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The four 4x4 quadrants; an odd number of empties in one is where the last move of a region
/// tends to fall to the side to move (parity).
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The code of "no forbidden square" (standard rules, after a pass, at the start).
pub(super) const NO_LAST: u8 = 64;

/// The run of `opp` discs from `start` (exclusive) along a left shift by `s`, kept only if an
/// `own` disc closes it.
#[inline(always)]
fn run_left(start: u64, own: u64, opp: u64, s: u32) -> u64 {
    let mut f = (start << s) & opp;
    f |= (f << s) & opp;
    f |= (f << s) & opp;
    f |= (f << s) & opp;
    f |= (f << s) & opp;
    f |= (f << s) & opp;
    if (f << s) & own != 0 { f } else { 0 }
}

/// As [`run_left`], along a right shift.
#[inline(always)]
fn run_right(start: u64, own: u64, opp: u64, s: u32) -> u64 {
    let mut f = (start >> s) & opp;
    f |= (f >> s) & opp;
    f |= (f >> s) & opp;
    f |= (f >> s) & opp;
    f |= (f >> s) & opp;
    f |= (f >> s) & opp;
    if (f >> s) & own != 0 { f } else { 0 }
}

/// The `opp` discs a disc of `own` on square `sq` (0..64) flips; 0 when the move is illegal.
#[inline]
pub(super) fn flips(own: u64, opp: u64, sq: u32) -> u64 {
    let start = 1u64 << sq;
    let inner = opp & INNER_COLS;
    run_left(start, own, inner, 1)
        | run_right(start, own, inner, 1)
        | run_left(start, own, opp, 8)
        | run_right(start, own, opp, 8)
        | run_left(start, own, inner, 7)
        | run_right(start, own, inner, 7)
        | run_left(start, own, inner, 9)
        | run_right(start, own, inner, 9)
}

/// The squares the house rule forbids around `last` (a square index, or [`NO_LAST`]).
#[inline]
pub(super) fn forbidden(last: u8) -> u64 {
    match Square::new(last) {
        Some(sq) => sq.orthogonal_neighbours(),
        None => 0,
    }
}

/// The quadrants holding an odd number of `empty` squares, as one mask.
#[inline]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd
}

/// The final score for the owner of `own` against `opp` once the game is over: the disc
/// difference, with the empty squares added to the winner's count when `empties_to_winner`.
#[inline]
pub(super) fn final_score(own: u64, opp: u64, empties_to_winner: bool) -> i32 {
    let (a, b) = (own.count_ones() as i32, opp.count_ones() as i32);
    let diff = a - b;
    if !empties_to_winner || diff == 0 {
        return diff;
    }
    let empties = 64 - a - b;
    if diff > 0 {
        diff + empties
    } else {
        diff - empties
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn flips_agree_with_the_rules_on_random_boards() {
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..20_000 {
            let a: u64 = rng.random();
            let b: u64 = rng.random::<u64>() & !a;
            let sq = rng.random_range(0..64u32);
            if (a | b) & (1 << sq) != 0 {
                continue;
            }
            let reference = bitboard::flips(a, b, Square::new(sq as u8).unwrap());
            assert_eq!(flips(a, b, sq), reference, "{a:#x} {b:#x} {sq}");
        }
    }

    #[test]
    fn parity_marks_the_quadrants_with_odd_empties() {
        // a1 alone in the top-left quadrant, b1 and c1 make it even, h8 alone bottom right.
        assert_eq!(odd_quadrants(1), QUADRANTS[0]);
        assert_eq!(odd_quadrants(0b111), QUADRANTS[0]);
        assert_eq!(odd_quadrants(0b11), 0);
        assert_eq!(odd_quadrants(1 << 63), QUADRANTS[3]);
    }

    #[test]
    fn empties_go_to_the_winner_only_when_asked() {
        let (own, opp) = (0b1111u64, 0b11_0000u64);
        assert_eq!(final_score(own, opp, false), 2);
        assert_eq!(final_score(own, opp, true), 2 + 58);
        assert_eq!(final_score(opp, own, true), -60);
        assert_eq!(final_score(0b11, 0b1100, true), 0);
    }
}
