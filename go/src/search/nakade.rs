//! Nakade: the vital point of a three-point eye space. A group whose only eye space is three
//! empty points in a row or bent lives if its owner plays the middle point (two eyes) and
//! dies if the opponent does (one eye); uniform playouts find that point one time in three
//! and misjudge such groups, so the heavy policy plays it when the last move (a capture, a
//! move that shrank the space) leaves such a space next to it. The space must be enclosed by
//! stones of one colour (and the edge): either side gains by playing its middle.

use crate::board::{Board, EDGE, EMPTY};

/// The most points a space is read to: one more than the nakade shape.
const SPACE: usize = 3;

/// The middle point of a three-point empty space, enclosed by one colour, next to the stone
/// at `last`; `None` when there is none.
pub fn vital_point(board: &Board, last: usize) -> Option<usize> {
    board
        .neighbors(last)
        .into_iter()
        .filter(|&n| board.at(n) == EMPTY)
        .find_map(|n| middle_of_three(board, n))
}

/// The middle of the empty region holding `start` when the region is three points enclosed
/// by stones of one colour; `None` otherwise. Reads at most [`SPACE`] points (no
/// allocation: the playouts call it every move).
fn middle_of_three(board: &Board, start: usize) -> Option<usize> {
    let mut region = [start; SPACE];
    let mut len = 1;
    // A bit per stone code seen around the region.
    let mut border = 0u8;
    let mut k = 0;
    while k < len {
        for n in board.neighbors(region[k]) {
            match board.at(n) {
                EMPTY if !region[..len].contains(&n) => {
                    if len == SPACE {
                        return None;
                    }
                    region[len] = n;
                    len += 1;
                }
                EMPTY | EDGE => {}
                c => border |= 1 << c,
            }
        }
        k += 1;
    }
    if len != SPACE || border.count_ones() != 1 {
        return None;
    }
    // In a line or a bend of three, the middle is the one point next to both others.
    region.into_iter().find(|&p| {
        let around = board.neighbors(p);
        region.iter().filter(|&q| around.contains(q)).count() == 2
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::{Color, Point};

    fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len()).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let color = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                let i = b.index(Point::new(x, y));
                b.play(color, i);
            }
        }
        b
    }

    #[test]
    fn the_middle_of_a_straight_and_a_bent_three_in_the_corner() {
        // A straight three along the top edge, enclosed by black.
        let b = board(&["...X.", "XXXX.", ".....", ".....", "....."]);
        let last = b.index(Point::new(3, 0));
        assert_eq!(vital_point(&b, last), Some(b.index(Point::new(1, 0))));
        // A bent three in the corner.
        let b = board(&["..X..", ".XX..", "XX...", ".....", "....."]);
        let last = b.index(Point::new(1, 1));
        assert_eq!(vital_point(&b, last), Some(b.index(Point::new(0, 0))));
    }

    #[test]
    fn no_vital_point_in_mixed_or_larger_spaces() {
        // Four points.
        let b = board(&["....X", "XXXX.", ".....", ".....", "....."]);
        assert_eq!(vital_point(&b, b.index(Point::new(4, 0))), None);
        // Three points, but both colours around them.
        let b = board(&["...X.", "XXOX.", ".....", ".....", "....."]);
        assert_eq!(vital_point(&b, b.index(Point::new(3, 0))), None);
    }
}
