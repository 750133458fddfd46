//! Playouts: the game played on to its end by a fast policy, to score a leaf of the tree.
//!
//! The heavy policy tries, in a fixed order as Pachi's `moggy` and MoGo do:
//! 1. a capture of the opponent's last stone(s) when they stand in atari, and the rescue of
//!    own groups next to the last move that it put in atari (by capturing an attacker in
//!    atari, or by extending when that gains liberties);
//! 2. a MoGo 3x3 pattern on one of the 8 points around the last move;
//! 3. a random move.
//!
//! Every move it plays is legal, never fills one of the player's own true eyes, and (heavy
//! policy) is never a self-atari of a group larger than [`MAX_SELF_ATARI_STONES`]. The light
//! policy is step 3 alone with the eye rule. A playout ends after two passes in a row or
//! [`move_cap`] moves.

use rand::Rng;
use rand::rngs::SmallRng;

use super::patterns;
use super::tree::PASS;
use crate::board::{Board, EMPTY, stone};
use crate::point::Color;

/// A self-atari may make a group of at most this many stones: small sacrifices (throw-ins,
/// nakade) are part of the game, big ones are blunders a playout must not make.
pub const MAX_SELF_ATARI_STONES: usize = 3;

/// The move cap of a playout: three times the board's points, far beyond a real game's
/// length, so that only superko-like cycles (which simple ko does not stop) hit it.
pub fn move_cap(board: &Board) -> usize {
    3 * board.size() * board.size()
}

/// How playouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly random legal moves that do not fill one's own true eye.
    Light,
    /// Captures, atari escapes and 3x3 patterns around the last move, then random.
    Heavy,
}

/// Scratch space for the policy (kept between playouts: no allocation per move).
#[derive(Debug, Default)]
pub struct Scratch {
    candidates: Vec<u16>,
}

/// True when `color` at `i` (legal) would make a self-atari of more than
/// [`MAX_SELF_ATARI_STONES`] stones.
#[inline]
pub fn is_bad_self_atari(board: &Board, color: Color, i: usize) -> bool {
    // Two empty neighbours are two liberties: the common case, decided without counting.
    let empty = board
        .neighbors(i)
        .iter()
        .filter(|&&n| board.at(n) == EMPTY)
        .count();
    empty < 2
        && board.libs_after(color, i, 2) <= 1
        && board.size_after(color, i) > MAX_SELF_ATARI_STONES
}

/// True when the random step may play `color` at the empty point `i`.
#[inline]
fn acceptable(board: &Board, color: Color, i: usize, policy: Policy) -> bool {
    board.is_legal(color, i)
        && !board.is_true_eye(color, i)
        && (policy == Policy::Light || !is_bad_self_atari(board, color, i))
}

/// A random acceptable move for `color`, or [`PASS`] when none is left.
pub fn random_move(board: &Board, color: Color, policy: Policy, rng: &mut SmallRng) -> usize {
    let empties = board.empties();
    let n = empties.len();
    if n == 0 {
        return usize::from(PASS);
    }
    let start = rng.random_range(0..n);
    for k in 0..n {
        let i = usize::from(empties[(start + k) % n]);
        if acceptable(board, color, i, policy) {
            return i;
        }
    }
    usize::from(PASS)
}

/// Pushes the moves that save the group of the own stone at `s` (in atari): capturing a
/// neighbouring enemy group in atari, or extending when that leaves at least two liberties.
fn escapes(board: &Board, color: Color, s: usize, out: &mut Vec<u16>) {
    let head = board.group(s);
    let opp = stone(color.opponent());
    for t in board.group_stones(head) {
        for n in board.neighbors(t) {
            if board.at(n) == opp && board.libs(n) == 1 {
                let lib = board.first_lib(board.group(n));
                if board.is_legal(color, lib) {
                    out.push(lib as u16);
                }
            }
        }
    }
    let lib = board.first_lib(head);
    if board.is_legal(color, lib) && board.libs_after(color, lib, 2) >= 2 {
        out.push(lib as u16);
    }
}

/// The heavy policy's tactical and pattern steps around the last move; `None` when they
/// propose nothing.
fn local_move(
    board: &Board,
    color: Color,
    rng: &mut SmallRng,
    scratch: &mut Scratch,
) -> Option<usize> {
    let last = board.last_move()?;
    let out = &mut scratch.candidates;
    out.clear();
    let me = stone(color);
    // 1. Capture the last stone's group if it stands in atari; save own groups it ataried.
    if board.at(last) != EMPTY && board.libs(last) == 1 {
        let lib = board.first_lib(board.group(last));
        if board.is_legal(color, lib) {
            out.push(lib as u16);
        }
    }
    for n in board.neighbors(last) {
        if board.at(n) == me && board.libs(n) == 1 {
            escapes(board, color, n, out);
        }
    }
    if !out.is_empty() {
        return Some(usize::from(out[rng.random_range(0..out.len())]));
    }
    // 2. Patterns around the last move.
    let s = board.stride();
    for n in [
        last - s - 1,
        last - s,
        last - s + 1,
        last - 1,
        last + 1,
        last + s - 1,
        last + s,
        last + s + 1,
    ] {
        if board.at(n) == EMPTY
            && patterns::matches(board, n)
            && board.is_legal(color, n)
            && !board.is_true_eye(color, n)
            && !is_bad_self_atari(board, color, n)
        {
            out.push(n as u16);
        }
    }
    if out.is_empty() {
        None
    } else {
        Some(usize::from(out[rng.random_range(0..out.len())]))
    }
}

/// The policy's move for `color` (an array index, or [`PASS`]).
pub fn choose(
    board: &Board,
    color: Color,
    policy: Policy,
    rng: &mut SmallRng,
    scratch: &mut Scratch,
) -> usize {
    if policy == Policy::Heavy
        && let Some(i) = local_move(board, color, rng, scratch)
    {
        return i;
    }
    random_move(board, color, policy, rng)
}

/// Plays `board` to the end from `color` to move with `passes` consecutive passes behind it,
/// calling `record` with every move made; returns Black's area minus White's at the end (by
/// [`Board::playout_score`]).
pub fn playout(
    board: &mut Board,
    mut color: Color,
    mut passes: u32,
    policy: Policy,
    rng: &mut SmallRng,
    scratch: &mut Scratch,
    mut record: impl FnMut(usize, Color),
) -> i32 {
    let cap = move_cap(board);
    let mut moves = 0;
    while passes < 2 && moves < cap {
        let i = choose(board, color, policy, rng, scratch);
        if i == usize::from(PASS) {
            board.pass();
            passes += 1;
        } else {
            board.play(color, i);
            passes = 0;
        }
        record(i, color);
        color = color.opponent();
        moves += 1;
    }
    board.playout_score()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::Point;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_with_only_eyes_left() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut scratch = Scratch::default();
        for policy in [Policy::Light, Policy::Heavy] {
            for size in [2, 5, 9] {
                for _ in 0..20 {
                    let mut b = Board::new(size).unwrap();
                    let mut n = 0;
                    playout(
                        &mut b,
                        Color::Black,
                        0,
                        policy,
                        &mut rng,
                        &mut scratch,
                        |_, _| n += 1,
                    );
                    b.assert_consistent();
                    if n >= move_cap(&b) {
                        // A long cycle (simple ko does not stop them) on a tiny board.
                        assert!(size <= 5, "{policy:?} {size}: {n} moves");
                        continue;
                    }
                    // Each side passed because it had no acceptable move left.
                    for c in [Color::Black, Color::White] {
                        assert_eq!(random_move(&b, c, policy, &mut rng), 0, "{policy:?}\n{b}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_heavy_policy_captures_a_stone_in_atari() {
        let mut b = Board::new(7).unwrap();
        let at = |b: &Board, x, y| b.index(Point::new(x, y));
        for (c, x, y) in [
            (Color::Black, 3, 2),
            (Color::Black, 2, 3),
            (Color::Black, 4, 3),
        ] {
            b.play(c, at(&b, x, y));
        }
        // White's last stone at (3,3) has one liberty, (3,4).
        b.play(Color::White, at(&b, 3, 3));
        let mut rng = SmallRng::seed_from_u64(2);
        let mut scratch = Scratch::default();
        for _ in 0..20 {
            let i = choose(&b, Color::Black, Policy::Heavy, &mut rng, &mut scratch);
            assert_eq!(i, at(&b, 3, 4));
        }
    }

    #[test]
    fn the_heavy_policy_saves_a_group_by_extending() {
        let mut b = Board::new(7).unwrap();
        let at = |b: &Board, x, y| b.index(Point::new(x, y));
        b.play(Color::Black, at(&b, 3, 3));
        b.play(Color::White, at(&b, 2, 3));
        b.play(Color::White, at(&b, 4, 3));
        // White's last move puts the black stone in atari; (3,2) extends to 3 liberties.
        b.play(Color::White, at(&b, 3, 4));
        let mut rng = SmallRng::seed_from_u64(3);
        let mut scratch = Scratch::default();
        let i = choose(&b, Color::Black, Policy::Heavy, &mut rng, &mut scratch);
        assert_eq!(i, at(&b, 3, 2));
    }

    #[test]
    fn big_self_atari_is_refused_small_is_not() {
        let mut b = Board::new(5).unwrap();
        let at = |b: &Board, x, y| b.index(Point::new(x, y));
        // . X X X O
        // . O O O .
        for (c, x, y) in [
            (Color::Black, 1, 0),
            (Color::Black, 2, 0),
            (Color::Black, 3, 0),
            (Color::White, 4, 0),
            (Color::White, 1, 1),
            (Color::White, 2, 1),
            (Color::White, 3, 1),
        ] {
            b.play(c, at(&b, x, y));
        }
        // Black in the corner: four stones left with one liberty.
        assert!(is_bad_self_atari(&b, Color::Black, at(&b, 0, 0)));
        // White there captures: no self-atari.
        assert!(!is_bad_self_atari(&b, Color::White, at(&b, 0, 0)));
        // Black at (4,1) captures the white corner stone: no self-atari.
        assert!(!is_bad_self_atari(&b, Color::Black, at(&b, 4, 1)));
        assert!(!is_bad_self_atari(&b, Color::Black, at(&b, 0, 1)));
    }
}
