//! The features of a candidate move, in Coulom's manner (2007, section 3.1): one value per
//! group, each value one "team member" of the generalized Bradley-Terry model. Group 0 is the
//! largest spatial pattern around the move that the model knows (see [`super::pattern`]);
//! the others are tactics and distances, where value 0 means "absent" and counts for nothing.

use super::ladder;
use super::pattern::Shapes;
use crate::board::{Board, stone};
use crate::point::Color;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The feature groups, in the order of a [`Features`] array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The largest known spatial pattern: 0 none known, else 1 + its index in the dictionary.
    Pattern,
    /// Captures: 1 one or two stones, 2 three or more, 3 a capture that saves an own group
    /// in atari.
    Capture,
    /// Extending an own group out of atari: 1 to two liberties, 2 to three or more, 3 to two
    /// liberties into a working ladder.
    Escape,
    /// A move left in atari that captures nothing: 1 a group of one or two stones, 2 more.
    SelfAtari,
    /// Putting an enemy group in atari: 1 plainly, 2 when a ko is on the board, 3 when the
    /// group cannot run (a ladder or a net).
    Atari,
    /// Coulom's distance to the last move: 1..=15 for d 2..=16, 16 farther; 0 none.
    LastDistance,
    /// The same to the move before it.
    SecondDistance,
    /// The line: 1..=4 from the edge, 5 farther in.
    Line,
}

/// Number of groups.
pub const GROUPS: usize = 8;

/// The groups in array order.
pub const ALL_GROUPS: [Group; GROUPS] = [
    Group::Pattern,
    Group::Capture,
    Group::Escape,
    Group::SelfAtari,
    Group::Atari,
    Group::LastDistance,
    Group::SecondDistance,
    Group::Line,
];

/// The number of values of each group but the pattern's (which has as many as the
/// dictionary, plus one).
pub const TACTICAL_VALUES: [usize; GROUPS] = [0, 4, 4, 3, 4, 17, 17, 6];

/// The features of one candidate: a value per group.
pub type Features = [u16; GROUPS];

/// A hasher for keys that are already uniform 64-bit hashes: it passes them through.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// The spatial patterns a model knows: pattern key -> value of [`Group::Pattern`].
pub type Dictionary = HashMap<u64, u16, BuildHasherDefault<KeyHasher>>;

/// The moves before the one to choose, most recent first, `None` for a pass or nothing.
pub type Recent = [Option<usize>; 2];

/// Reads features off a board: the pattern tables and a dictionary.
#[derive(Debug, Default)]
pub struct Extractor {
    shapes: Shapes,
    dictionary: Dictionary,
}

impl Extractor {
    /// An extractor knowing `dictionary`'s patterns.
    pub fn new(dictionary: Dictionary) -> Extractor {
        Extractor {
            shapes: Shapes::new(),
            dictionary,
        }
    }

    /// The pattern tables.
    pub fn shapes(&self) -> &Shapes {
        &self.shapes
    }

    /// The dictionary.
    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }

    /// The features of `color` playing at the empty, legal point `i`.
    pub fn features(&self, board: &Board, color: Color, i: usize, recent: Recent) -> Features {
        let keys = self.shapes.keys(board, color, i);
        let pattern = keys
            .iter()
            .rev()
            .find_map(|k| self.dictionary.get(k))
            .map_or(0, |&v| v);
        let mut f = tactics(board, color, i);
        f[0] = pattern;
        f[5] = distance_value(board, i, recent[0]);
        f[6] = distance_value(board, i, recent[1]);
        f[7] = line(board, i);
        f
    }
}

/// The tactical groups (capture, escape, self-atari, atari) of `color` at `i`.
fn tactics(board: &Board, color: Color, i: usize) -> Features {
    let mut f = [0u16; GROUPS];
    let me = stone(color);
    let opp = stone(color.opponent());
    let mut captured = 0;
    let mut saves = false;
    let mut in_atari = false;
    let mut atari_target = None;
    for n in board.neighbors(i) {
        let c = board.at(n);
        if c == opp && board.libs(n) == 1 {
            captured += board.group_size(n);
            saves |= touches_own_atari(board, n, me);
        } else if c == opp && board.libs(n) == 2 {
            atari_target = Some(n);
        } else if c == me && board.libs(n) == 1 {
            in_atari = true;
        }
    }
    if captured > 0 {
        f[1] = if saves {
            3
        } else if captured >= 3 {
            2
        } else {
            1
        };
    }
    let libs = board.libs_after(color, i, 3);
    if in_atari && captured == 0 && libs >= 2 {
        f[2] = if libs >= 3 {
            2
        } else if after(board, color, i, |b| ladder::caught(b, i)) {
            3
        } else {
            1
        };
    }
    if libs <= 1 && captured == 0 {
        f[3] = if board.size_after(color, i) >= 3 {
            2
        } else {
            1
        };
    }
    if let Some(target) = atari_target.filter(|_| libs >= 2) {
        f[4] = if after(board, color, i, |b| ladder::cannot_run(b, target)) {
            3
        } else if board.ko().is_some() {
            2
        } else {
            1
        };
    }
    f
}

/// True when the group of the enemy stone `s` (about to be captured) touches a group of
/// `me` in atari: the capture saves it.
fn touches_own_atari(board: &Board, s: usize, me: u8) -> bool {
    board.group_stones(board.group(s)).any(|t| {
        board
            .neighbors(t)
            .iter()
            .any(|&n| board.at(n) == me && board.libs(n) == 1)
    })
}

/// `test` on the board after `color` plays at `i`.
fn after(board: &Board, color: Color, i: usize, test: impl Fn(&Board) -> bool) -> bool {
    let mut next = board.clone();
    next.play(color, i);
    test(&next)
}

/// The value of [`Group::LastDistance`] for the move at `i` and the earlier move `to`.
fn distance_value(board: &Board, i: usize, to: Option<usize>) -> u16 {
    let Some(j) = to else { return 0 };
    let (a, b) = (board.point(i), board.point(j));
    let d = super::pattern::distance(
        i32::from(a.x) - i32::from(b.x),
        i32::from(a.y) - i32::from(b.y),
    );
    (d - 1).clamp(1, 16) as u16
}

/// The value of [`Group::Line`]: the line of `i`, counted from 1 at the edge, 5 farther in.
fn line(board: &Board, i: usize) -> u16 {
    let p = board.point(i);
    let last = board.size() - 1;
    let (x, y) = (usize::from(p.x), usize::from(p.y));
    let d = x.min(y).min(last - x).min(last - y);
    (d + 1).min(5) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::board;
    use crate::point::Point;

    fn at(b: &Board, x: usize, y: usize) -> usize {
        b.index(Point::new(x, y))
    }

    #[test]
    fn captures_escapes_self_ataris_and_ataris_are_told_apart() {
        let x = Extractor::default();
        let b = board(&[".O...", "OX...", ".....", ".....", "....."]);
        let f = x.features(&b, Color::White, at(&b, 2, 1), [None, None]);
        assert_eq!(f[4], 1, "white (2, 1) puts black (1, 1) in atari");
        let b = board(&[".O...", "OXO..", ".....", ".....", "....."]);
        let f = x.features(&b, Color::White, at(&b, 1, 2), [None, None]);
        assert_eq!(f[1], 1, "white (1, 2) captures one stone");
        let f = x.features(&b, Color::Black, at(&b, 1, 2), [None, None]);
        assert_eq!(f[2], 2, "black extends to three liberties");
        let f = x.features(&b, Color::Black, at(&b, 2, 0), [None, None]);
        assert_eq!(f[1], 0);
        assert_eq!(f[3], 1, "black at (2, 0) would be in atari");
    }

    #[test]
    fn distances_and_lines() {
        let x = Extractor::default();
        let b = Board::new(19).unwrap();
        let i = at(&b, 3, 3);
        let f = x.features(
            &b,
            Color::Black,
            i,
            [Some(at(&b, 4, 3)), Some(at(&b, 15, 15))],
        );
        assert_eq!(f[5], 1, "d = 2 next door");
        assert_eq!(f[6], 16, "far away");
        assert_eq!(f[7], 4);
        let f = x.features(&b, Color::Black, at(&b, 0, 9), [None, None]);
        assert_eq!((f[5], f[6], f[7]), (0, 0, 1));
        assert_eq!(f[0], 0, "an empty dictionary knows no pattern");
    }
}
