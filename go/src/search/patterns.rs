//! MoGo's 3x3 patterns (Gelly, Wang, Munos and Teytaud 2006, "Modification of UCT with
//! patterns in Monte-Carlo Go"): the shapes around an empty point that make a move there
//! worth playing in a playout (hane, cuts, and a few edge shapes).
//!
//! A neighbourhood is the content of the 8 points around the centre, 2 bits each (empty,
//! black, white, edge), 16 bits in all; a table of 4^8 = 65536 flags, built once from the
//! shapes below under the 8 symmetries of the square and both colourings, says which ones
//! match. Matching is then one lookup.

use std::sync::OnceLock;

use crate::board::{Board, EMPTY};

/// The shapes, each as three rows of three (the centre, the move, is always `.`):
/// `X` and `O` are stones of the two colours (either way round), `.` empty, `#` off the
/// board, `?` anything, `x` anything but `X`, `o` anything but `O`.
const SHAPES: &[[&str; 3]] = &[
    // Hane: enclosing hane.
    ["XOX", "...", "???"],
    // Hane: non-cutting hane.
    ["XO.", "...", "?.?"],
    // Hane: magari (turning).
    ["XO?", "X..", "x.?"],
    // Cut 1: the unprotected cut.
    ["XO?", "O.o", "?o?"],
    // Cut 1: the peeped cut.
    ["XO?", "O.X", "???"],
    // Cut 2: pushing between two stones.
    ["?X?", "O.O", "ooo"],
    // Edge: chasing along the edge.
    ["X.?", "O.?", "###"],
    // Edge: blocking a cut on the side.
    ["OX?", "X.O", "###"],
    // Edge: blocking the connection on the side.
    ["?X?", "x.O", "###"],
    // Edge: sagari (descending to the edge).
    ["?XO", "x.x", "###"],
    // Edge: the cut on the side.
    ["?OX", "X.O", "###"],
];

/// The 8 neighbours of a centre as (row, column) offsets, in the order of the code's 2-bit
/// fields: NW, N, NE, W, E, SW, S, SE.
const CELLS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The 16-bit neighbourhood code of point `i` (see the module documentation).
#[inline]
pub fn code(board: &Board, i: usize) -> usize {
    let s = board.stride();
    let around = [
        i - s - 1,
        i - s,
        i - s + 1,
        i - 1,
        i + 1,
        i + s - 1,
        i + s,
        i + s + 1,
    ];
    let mut code = 0;
    for (k, &n) in around.iter().enumerate() {
        code |= usize::from(board.at(n)) << (2 * k);
    }
    code
}

/// True when a MoGo pattern matches around the empty point `i`.
#[inline]
pub fn matches(board: &Board, i: usize) -> bool {
    debug_assert_eq!(board.at(i), EMPTY);
    table()[code(board, i)]
}

/// The match table, built on first use.
pub fn table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The values (board content codes: 0 empty, 1 black, 2 white, 3 edge) a shape symbol
/// allows, with `x` the colour written `X`.
fn allowed(symbol: u8, x: u8) -> Vec<u8> {
    let o = 3 - x;
    match symbol {
        b'X' => vec![x],
        b'O' => vec![o],
        b'.' => vec![0],
        b'#' => vec![3],
        b'x' => vec![0, o, 3],
        b'o' => vec![0, x, 3],
        b'?' => vec![0, 1, 2, 3],
        _ => unreachable!("unknown pattern symbol {}", symbol as char),
    }
}

fn build() -> Vec<bool> {
    let mut table = vec![false; 1 << 16];
    for shape in SHAPES {
        let grid: Vec<&[u8]> = shape.iter().map(|row| row.as_bytes()).collect();
        debug_assert_eq!(grid[1][1], b'.');
        // The 8 symmetries: optional transpose, then optional flips of rows and columns.
        for sym in 0..8 {
            for x in [1u8, 2] {
                let choices: Vec<Vec<u8>> = CELLS
                    .iter()
                    .map(|&(dr, dc)| {
                        let (mut r, mut c) = if sym & 1 != 0 { (dc, dr) } else { (dr, dc) };
                        if sym & 2 != 0 {
                            r = -r;
                        }
                        if sym & 4 != 0 {
                            c = -c;
                        }
                        allowed(grid[(r + 1) as usize][(c + 1) as usize], x)
                    })
                    .collect();
                fill(&choices, 0, 0, &mut table);
            }
        }
    }
    table
}

/// Marks every code the per-cell `choices` allow, from cell `k` on with `code` so far.
fn fill(choices: &[Vec<u8>], k: usize, code: usize, table: &mut [bool]) {
    if k == choices.len() {
        table[code] = true;
        return;
    }
    for &v in &choices[k] {
        fill(choices, k + 1, code | usize::from(v) << (2 * k), table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::{Color, Point};

    fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len()).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let i = b.index(Point::new(x, y));
                match ch {
                    'X' => {
                        b.play(Color::Black, i);
                    }
                    'O' => {
                        b.play(Color::White, i);
                    }
                    _ => {}
                }
            }
        }
        b
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colouring() {
        // The enclosing hane, as drawn, rotated, and with the colours swapped.
        let b = board(&[".....", ".XOX.", ".....", ".....", "....."]);
        assert!(matches(&b, b.index(Point::new(2, 2))));
        let b = board(&[".....", ".O...", ".X...", ".O...", "....."]);
        assert!(matches(&b, b.index(Point::new(2, 2))));
        assert!(matches(&b, b.index(Point::new(0, 2))));
    }

    #[test]
    fn empty_surroundings_and_lone_stones_do_not_match() {
        let b = board(&[".....", ".....", ".....", ".....", "....."]);
        for i in b.points() {
            assert!(!matches(&b, i));
        }
        let b = board(&[".....", ".....", "..X..", ".....", "....."]);
        assert!(!matches(&b, b.index(Point::new(2, 1))));
        assert!(!matches(&b, b.index(Point::new(2, 2))));
    }

    #[test]
    fn cut_matches_and_a_protected_cut_point_does_not() {
        // Cut 1 (XO? / O.o / ?o?) with the centre at (2,2).
        let b = board(&[".....", ".XO..", ".O...", ".....", "....."]);
        assert!(matches(&b, b.index(Point::new(2, 2))));
        // With an O stone at the SE... o forbids O on E, S, SE: (2,1) holds O: no cut 1.
        let b = board(&[".....", ".XO..", ".O.O.", ".....", "....."]);
        // The peeped cut needs an X there, the hane shapes an empty point: nothing matches.
        assert!(!matches(&b, b.index(Point::new(2, 2))));
    }

    #[test]
    fn edge_shapes_match_on_every_side() {
        // Chase along the bottom edge: X . ? / O . ? / # # #, centre at (1,4).
        let b = board(&[".....", ".....", ".....", "X....", "O...."]);
        assert!(matches(&b, b.index(Point::new(1, 4))));
        // The same shape against the top edge (a symmetry).
        let b = board(&["O....", "X....", ".....", ".....", "....."]);
        assert!(matches(&b, b.index(Point::new(1, 0))));
        // A lone stone next to the edge is no shape.
        let b = board(&[".....", ".....", ".....", ".....", "O...."]);
        assert!(!matches(&b, b.index(Point::new(1, 4))));
    }
}
