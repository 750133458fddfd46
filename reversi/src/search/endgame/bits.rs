//! The solver's bit arithmetic: flips without a loop over squares, quadrant parity, the house
//! rule's forbidden squares, and the final score.
//!
//! Flips take each of the eight lines from the square (a table) and find the first square on
//! it that is not the opponent's with one bit trick; no loop. Move generation uses masked
//! shifts: a run of bracketed discs lies strictly between the move and the bracketing disc, so
//! along a line that runs east or west it never touches the a- or h-file; masking those files
//! off the opponent's discs stops every wrap from one row to the next.

use crate::bitboard::Square;

/// The opponent's discs that may lie inside a run, per shift: columns b..g for the six
/// directions with an east-west part, everything for north-south.
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

/// Per square, per direction, the squares from the next one on that line to the board's
/// edge: directions 0..4 run towards higher indices (east, south-west, south, south-east),
/// 4..8 towards lower ones (west, north-east, north, north-west).
static LINES: [[u64; 64]; 8] = lines();

/// Builds [`LINES`] by walking from each square.
const fn lines() -> [[u64; 64]; 8] {
    const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut r, mut c) = (sq as i32 / 8 + STEPS[d].0, sq as i32 % 8 + STEPS[d].1);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                out[d][sq] |= 1 << (r * 8 + c);
                r += STEPS[d].0;
                c += STEPS[d].1;
            }
            sq += 1;
        }
        d += 1;
    }
    out
}

/// Flips along a line running to higher indices: the first square that is not the
/// opponent's is the lowest set bit of `line & !opp`; if it is ours, everything below it on
/// the line is flipped.
#[inline(always)]
fn flips_up(own: u64, opp: u64, line: u64) -> u64 {
    let x = line & !opp;
    let first = x & x.wrapping_neg();
    if first & own != 0 {
        first.wrapping_sub(1) & line
    } else {
        0
    }
}

/// As [`flips_up`] towards lower indices: the first non-opponent square is the highest bit.
#[inline(always)]
fn flips_down(own: u64, opp: u64, line: u64) -> u64 {
    let x = line & !opp;
    if x == 0 {
        return 0;
    }
    let first = 1u64 << (63 - x.leading_zeros());
    if first & own != 0 {
        line & !((first << 1) - 1)
    } else {
        0
    }
}

/// The `opp` discs a disc of `own` on square `sq` (0..64) flips; 0 when the move is illegal.
#[inline(always)]
pub(super) fn flips(own: u64, opp: u64, sq: u32) -> u64 {
    let s = sq as usize;
    flips_up(own, opp, LINES[0][s])
        | flips_up(own, opp, LINES[1][s])
        | flips_up(own, opp, LINES[2][s])
        | flips_up(own, opp, LINES[3][s])
        | flips_down(own, opp, LINES[4][s])
        | flips_down(own, opp, LINES[5][s])
        | flips_down(own, opp, LINES[6][s])
        | flips_down(own, opp, LINES[7][s])
}

/// Every move along one shift direction (Kogge-Stone fill: runs of `opp` doubled in two
/// steps); `s` > 0 shifts left, the mask `o` keeps the run off the files it must not wrap to.
#[inline(always)]
fn moves_left(own: u64, o: u64, s: u32) -> u64 {
    let mut f = o & (own << s);
    f |= o & (f << s);
    let pre = o & (o << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    f << s
}

/// As [`moves_left`], shifting right.
#[inline(always)]
fn moves_right(own: u64, o: u64, s: u32) -> u64 {
    let mut f = o & (own >> s);
    f |= o & (f >> s);
    let pre = o & (o >> s);
    f |= pre & (f >> (2 * s));
    f |= pre & (f >> (2 * s));
    f >> s
}

/// The squares where `own` may play against `opp` under the standard rules (the same set as
/// [`crate::bitboard::legal_moves`], in fewer operations: the solver spends much of its time
/// here).
#[inline]
pub(super) fn moves(own: u64, opp: u64) -> u64 {
    let inner = opp & INNER_COLS;
    let m = moves_left(own, inner, 1)
        | moves_right(own, inner, 1)
        | moves_left(own, opp, 8)
        | moves_right(own, opp, 8)
        | moves_left(own, inner, 7)
        | moves_right(own, inner, 7)
        | moves_left(own, inner, 9)
        | moves_right(own, inner, 9);
    m & !(own | opp)
}

/// Every square next to `sq` (the eight directions), for a quick "can this flip anything"
/// test in the last empties.
static NEIGHBOURS: [u64; 64] = neighbour_table();

/// Builds [`NEIGHBOURS`] from the first square of each line.
const fn neighbour_table() -> [u64; 64] {
    let all = lines();
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let line = all[d][sq];
            if line != 0 {
                // The neighbour is the line's square nearest to `sq`.
                out[sq] |= if d < 4 {
                    line & line.wrapping_neg()
                } else {
                    1 << (63 - line.leading_zeros())
                };
            }
            d += 1;
        }
        sq += 1;
    }
    out
}

/// Whether a disc on `sq` could flip anything of `opp` at all (an opponent disc next to it).
#[inline(always)]
pub(super) fn touches(opp: u64, sq: u32) -> bool {
    NEIGHBOURS[sq as usize] & opp != 0
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
    fn moves_agree_with_the_rules_on_random_boards() {
        let mut rng = SmallRng::seed_from_u64(4);
        for _ in 0..20_000 {
            let a: u64 = rng.random::<u64>() & rng.random::<u64>();
            let b: u64 = rng.random::<u64>() & !a;
            assert_eq!(moves(a, b), bitboard::legal_moves(a, b), "{a:#x} {b:#x}");
            let sq = rng.random_range(0..64u32);
            let next_to = bitboard::neighbours(1 << sq);
            assert_eq!(touches(b, sq), next_to & b != 0);
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
