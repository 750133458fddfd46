//! Spatial patterns around a move, in the manner of Stern, Herbrich and Graepel (2006) and
//! Coulom (2007): nested neighbourhoods of the move's point, each the points within a
//! distance `d(dx, dy) = |dx| + |dy| + max(|dx|, |dy|)` of it (d <= 3 is the 3x3 square; d <= 6
//! reaches three lines away, a diamond seven points across; d <= 8 nine), the content of each
//! point seen from the mover (empty, own stone, the opponent's, off the board).
//!
//! A neighbourhood is named by a 64-bit key: a Zobrist hash of its points, taken under each of
//! the 8 symmetries of the square, the least of the 8 kept, so that a shape and its
//! reflections and rotations share one key; each size mixes in a salt of its own, so keys of
//! two sizes never meet. Keys are computed ring by ring from the smallest size up.

use crate::board::{Board, EDGE, EMPTY, stone};
use crate::point::{Color, Point};

/// The sizes: a neighbourhood of size `k` holds the points at distance 2..=[`SIZES`]`[k]`.
pub const SIZES: [i32; 6] = [3, 4, 5, 6, 7, 8];

/// The largest distance in [`SIZES`].
const MAX_DISTANCE: i32 = 8;

/// Coulom's distance between two points `dx`, `dy` apart.
#[inline]
pub fn distance(dx: i32, dy: i32) -> i32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    ax + ay + ax.max(ay)
}

/// The point offsets of the largest neighbourhood, sorted by distance (stable within one
/// distance), each with its distance.
fn offsets() -> Vec<(i32, i32, i32)> {
    let mut out = Vec::new();
    for dy in -4..=4 {
        for dx in -4..=4 {
            let d = distance(dx, dy);
            if (2..=MAX_DISTANCE).contains(&d) {
                out.push((dx, dy, d));
            }
        }
    }
    out.sort_by_key(|&(_, _, d)| d);
    out
}

/// The 8 symmetries of the square as maps of an offset.
fn symmetry(s: usize, dx: i32, dy: i32) -> (i32, i32) {
    let (x, y) = if s & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    (x, y)
}

/// A 64-bit mix (SplitMix64's finaliser), for the Zobrist keys and the size salts.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The content of a point seen from the mover: 0 empty, 1 own, 2 the opponent's, 3 off board.
#[inline]
fn state(content: u8, me: u8) -> u8 {
    match content {
        EMPTY => 0,
        EDGE => 3,
        c if c == me => 1,
        _ => 2,
    }
}

/// The tables behind the keys: the offsets, where each symmetry sends each of them, and the
/// Zobrist key of each (offset, content).
#[derive(Debug)]
pub struct Shapes {
    /// The offsets in canonical order.
    base: Vec<(i32, i32)>,
    /// Per symmetry, the index of the offset each canonical offset is sent to.
    moved: [Vec<u8>; 8],
    /// Number of offsets up to each size.
    ends: [usize; SIZES.len()],
    /// Zobrist keys, 4 per offset.
    zobrist: Vec<u64>,
}

impl Default for Shapes {
    fn default() -> Shapes {
        Shapes::new()
    }
}

impl Shapes {
    /// The tables (built once per model).
    pub fn new() -> Shapes {
        let base: Vec<(i32, i32)> = offsets().iter().map(|&(dx, dy, _)| (dx, dy)).collect();
        let moved = std::array::from_fn(|s| {
            base.iter()
                .map(|&(dx, dy)| {
                    let to = symmetry(s, dx, dy);
                    base.iter().position(|&o| o == to).expect("symmetric") as u8
                })
                .collect()
        });
        let ends = SIZES.map(|d| offsets().iter().filter(|o| o.2 <= d).count());
        let zobrist = (0..base.len() as u64 * 4)
            .map(|k| mix(k.wrapping_add(0x9e37_79b9_7f4a_7c15)))
            .collect();
        Shapes {
            base,
            moved,
            ends,
            zobrist,
        }
    }

    /// The keys of the neighbourhoods of every size around the empty point `i` for `color`
    /// to move, smallest first.
    pub fn keys(&self, board: &Board, color: Color, i: usize) -> [u64; SIZES.len()] {
        let me = stone(color);
        let p = board.point(i);
        let size = board.size() as i32;
        let (px, py) = (i32::from(p.x), i32::from(p.y));
        let mut content = [0u8; 64];
        for (c, &(dx, dy)) in content.iter_mut().zip(&self.base) {
            let (x, y) = (px + dx, py + dy);
            *c = if (0..size).contains(&x) && (0..size).contains(&y) {
                state(
                    board.at(board.index(Point::new(x as usize, y as usize))),
                    me,
                )
            } else {
                3
            };
        }
        let mut hash = [0u64; 8];
        let mut out = [0u64; SIZES.len()];
        let mut start = 0;
        for (k, &end) in self.ends.iter().enumerate() {
            for (h, moved) in hash.iter_mut().zip(&self.moved) {
                for o in start..end {
                    let c = content[usize::from(moved[o])];
                    *h ^= self.zobrist[4 * o + usize::from(c)];
                }
            }
            start = end;
            let least = hash.iter().copied().min().unwrap_or(0);
            out[k] = mix(least ^ (k as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with(size: usize, stones: &[(Color, usize, usize)]) -> Board {
        let mut b = Board::new(size).unwrap();
        for &(c, x, y) in stones {
            let i = b.index(Point::new(x, y));
            b.play(c, i);
        }
        b
    }

    #[test]
    fn sizes_nest_and_the_smallest_is_the_3x3_square() {
        let base = offsets();
        let shapes = Shapes::new();
        assert_eq!(shapes.ends[0], 8, "d <= 3 is the 8 neighbours");
        assert_eq!(shapes.ends[3], 28, "d <= 6");
        assert_eq!(shapes.ends[SIZES.len() - 1], base.len());
        assert!(shapes.ends.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn reflections_rotations_and_colours_share_a_key() {
        let shapes = Shapes::new();
        // A black stone one point right of D4 (x 3, y 3 from the top-left) and a white one
        // two below it, on 9x9; then its reflection in the diagonal through D4, and the same
        // with colours swapped.
        let a = board_with(9, &[(Color::Black, 4, 3), (Color::White, 3, 5)]);
        let b = board_with(9, &[(Color::Black, 3, 4), (Color::White, 5, 3)]);
        let c = board_with(9, &[(Color::White, 4, 3), (Color::Black, 3, 5)]);
        let at = |b: &Board| b.index(Point::new(3, 3));
        let ka = shapes.keys(&a, Color::Black, at(&a));
        assert_eq!(ka, shapes.keys(&b, Color::Black, at(&b)));
        assert_eq!(ka, shapes.keys(&c, Color::White, at(&c)));
        // Seen by the other colour the same stones are another shape.
        assert_ne!(ka, shapes.keys(&a, Color::White, at(&a)));
        // The 3x3 square does not see a stone two points away: a stone at distance 4.
        let d = board_with(9, &[(Color::Black, 5, 3)]);
        let e = Board::new(9).unwrap();
        let kd = shapes.keys(&d, Color::Black, at(&d));
        let ke = shapes.keys(&e, Color::Black, at(&e));
        assert_eq!(kd[0], ke[0]);
        assert_ne!(kd[1], ke[1]);
    }

    #[test]
    fn the_edge_is_part_of_the_shape_and_sizes_never_share_keys() {
        let shapes = Shapes::new();
        let b = Board::new(19).unwrap();
        let corner = shapes.keys(&b, Color::Black, b.index(Point::new(0, 0)));
        let middle = shapes.keys(&b, Color::Black, b.index(Point::new(9, 9)));
        let other_corner = shapes.keys(&b, Color::Black, b.index(Point::new(18, 18)));
        assert_ne!(corner, middle);
        assert_eq!(corner, other_corner);
        let mut all: Vec<u64> = corner.iter().chain(&middle).copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * SIZES.len());
    }
}
