//! A lower bound on the discs that can never be flipped: the solver's stability cut-off.
//!
//! A disc can only be flipped along one of its four lines (row, column, two diagonals), and
//! only where both of its neighbours on that line can change. So a disc is safe along a line
//! when the line is full, when the board's edge is next to it on that line, or when a neighbour
//! on that line is a stable disc of its own colour (flipping the disc would flip that one too).
//! A disc safe along all four lines is stable; growing the set from nothing until it stops
//! gives the bound (the classic edge-anchored and full-line rules in one fixpoint).

/// Every square except the a-file.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square except the h-file.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The a- and h-files: nothing lies beyond them on a row.
const SIDE_FILES: u64 = 0x8181_8181_8181_8181;
/// Rows 1 and 8: nothing lies beyond them on a column.
const TOP_BOTTOM: u64 = 0xff00_0000_0000_00ff;
/// The border: a diagonal through a border square stops there on one side.
const BORDER: u64 = SIDE_FILES | TOP_BOTTOM;

/// The 15 diagonals running a1-h8 (down-right) and the 15 running h1-a8 (down-left).
const DIAGONALS: [[u64; 15]; 2] = diagonals();

/// Builds [`DIAGONALS`]: square (row, col) lies on down-right diagonal `col - row + 7` and
/// down-left diagonal `row + col`.
const fn diagonals() -> [[u64; 15]; 2] {
    let mut out = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = (sq / 8, sq % 8);
        out[0][col + 7 - row] |= 1 << sq;
        out[1][row + col] |= 1 << sq;
        sq += 1;
    }
    out
}

/// The squares whose row is full.
fn full_rows(filled: u64) -> u64 {
    let mut f = filled & (filled >> 1);
    f &= f >> 2;
    f &= f >> 4;
    (f & 0x0101_0101_0101_0101) * 0xff
}

/// The squares whose column is full.
fn full_cols(filled: u64) -> u64 {
    let mut f = filled & (filled >> 32);
    f &= f >> 16;
    f &= f >> 8;
    (f & 0xff) * 0x0101_0101_0101_0101
}

/// The squares whose diagonal in family `family` (0: down-right, 1: down-left) is full.
fn full_diagonals(filled: u64, family: usize) -> u64 {
    let mut out = 0;
    for d in DIAGONALS[family] {
        if filled & d == d {
            out |= d;
        }
    }
    out
}

/// The discs of `discs` that no sequence of moves can flip (a subset of the truly stable
/// ones), on a board whose occupied squares are `filled` (`discs` included).
pub(super) fn stable_discs(discs: u64, filled: u64) -> u64 {
    let row = full_rows(filled) | SIDE_FILES;
    let col = full_cols(filled) | TOP_BOTTOM;
    let down_right = full_diagonals(filled, 0) | BORDER;
    let down_left = full_diagonals(filled, 1) | BORDER;
    let mut stable = 0u64;
    loop {
        let s = stable;
        let grown = discs
            & (row | ((s << 1) & NOT_A) | ((s >> 1) & NOT_H))
            & (col | (s << 8) | (s >> 8))
            & (down_right | ((s << 9) & NOT_A) | ((s >> 9) & NOT_H))
            & (down_left | ((s << 7) & NOT_H) | ((s >> 7) & NOT_A));
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Position, Rule};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn corners_edges_and_full_lines_are_stable() {
        // A lone corner disc is stable, a lone edge disc is not, a full row is.
        assert_eq!(stable_discs(1, 1 | (1 << 20)), 1);
        assert_eq!(stable_discs(1 << 3, (1 << 3) | (1 << 20)), 0);
        assert_eq!(stable_discs(0b111, 0b111), 0b111);
        let full = u64::MAX;
        assert_eq!(
            stable_discs(0x0000_ff00_0000_0000, full),
            0x0000_ff00_0000_0000
        );
    }

    #[test]
    fn stable_discs_are_never_flipped_in_random_games() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut seen = 0;
        for _ in 0..300 {
            let mut pos = Position::start(Rule::Standard);
            let mut stable = [0u64; 2];
            while !pos.is_game_over() {
                let filled = pos.own() | pos.opp();
                // Index 0: black's discs, 1: white's, whoever moves.
                let (black, white) = (pos.black(), pos.white());
                stable[0] |= stable_discs(black, filled);
                stable[1] |= stable_discs(white, filled);
                assert_eq!(
                    stable[0] & black,
                    stable[0],
                    "a stable black disc flipped\n{pos}"
                );
                assert_eq!(
                    stable[1] & white,
                    stable[1],
                    "a stable white disc flipped\n{pos}"
                );
                let moves = pos.legal_moves();
                pos = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            seen += (stable[0] | stable[1]).count_ones();
        }
        assert!(seen > 300 * 10, "the test must see stable discs: {seen}");
    }
}
