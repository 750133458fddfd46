//! The exact endgame solver: negamax alpha-beta to the end of the game, on final disc margin.
//!
//! Move ordering: far from the end, fastest-first (the reply that leaves the opponent the fewest
//! moves, corners before anything), which finds cutoffs early; in the last few empties the
//! ordering costs more than it saves, so corners first and index order. A small transposition
//! table (bounds and the best move) carries results between transpositions and between the
//! iterations of a root solve. The solver works for both rule sets: it asks the position for
//! its moves, so the house rule and its passes come for free.

use std::time::Instant;

use crate::bitboard::{CORNERS, Square};
use crate::position::{Move, Position};

/// Entries in the transposition table (a power of two): 2^18 entries of 24 bytes, 6 MiB.
const TABLE_BITS: u32 = 18;

/// Positions with fewer empties are not stored: they are cheaper to search than to look up.
const TABLE_MIN_EMPTIES: u32 = 6;

/// From this many empties on, moves are ordered fastest-first; below, corners first.
const MOBILITY_ORDER_EMPTIES: u32 = 7;

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 2048;

/// One table slot: the position (own, opp, forbidden-square code) and bounds on its value.
#[derive(Clone, Copy, Default)]
struct Entry {
    own: u64,
    opp: u64,
    /// The square the house rule forbids around (its index), or 64 for none; part of the key.
    last: u8,
    lower: i8,
    upper: i8,
    best: u8,
}

/// An exact solver with its transposition table; reuse one across searches.
pub struct Solver {
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// For the engines' tests: `report`, an engine's answer in `pos`, proves what the exact
/// `solver` finds, and its move keeps that outcome (any move keeps a loss).
#[cfg(test)]
pub(crate) fn assert_proven_and_kept(
    solver: &mut Solver,
    pos: &Position,
    report: &super::SearchReport,
) {
    use super::Proof;
    let truth = solver.outcome(pos, None).expect("no deadline");
    let expected = match truth {
        1 => Proof::Win,
        0 => Proof::Draw,
        _ => Proof::Loss,
    };
    assert_eq!(report.proof, expected, "{pos}");
    let after = pos.play(report.mv).expect("engines answer legal moves");
    assert!(-solver.outcome(&after, None).expect("no deadline") == truth || truth < 0);
}

/// For the engines' tests: the position after random legal moves from the start of `rule`
/// down to `empties` empty squares, or `None` if the game ended on the way (or is over).
#[cfg(test)]
pub(crate) fn random_position(
    rule: crate::position::Rule,
    empties: u32,
    rng: &mut rand::rngs::SmallRng,
) -> Option<Position> {
    use rand::Rng;
    let mut p = Position::start(rule);
    while p.empties() > empties {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return None;
        }
        p = p.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    (!p.is_game_over()).then_some(p)
}

/// Sorts `moves` by ascending `keys` (the two slices are parallel), stable: an insertion
/// sort, since a position has a handful of moves.
pub(crate) fn sort_by_keys(moves: &mut [u8], keys: &mut [i32]) {
    for a in 1..moves.len() {
        let (k, v) = (keys[a], moves[a]);
        let mut b = a;
        while b > 0 && keys[b - 1] > k {
            keys[b] = keys[b - 1];
            moves[b] = moves[b - 1];
            b -= 1;
        }
        keys[b] = k;
        moves[b] = v;
    }
}

/// The square the house rule keys on, or 64: two positions with the same discs but different
/// forbidden squares have different values.
#[inline]
pub(crate) fn last_code(pos: &Position) -> u8 {
    if pos.forbidden() == 0 {
        64
    } else {
        match pos.last_move() {
            Some(Move::Play(sq)) => sq.index(),
            _ => 64,
        }
    }
}

/// The slot of a position (`own`, `opp`, [`last_code`]) in a table of `2^bits` entries; the
/// solver's table and the alpha-beta engine's share it.
#[inline]
pub(crate) fn slot(own: u64, opp: u64, last: u8, bits: u32) -> usize {
    let h = own.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
        ^ opp.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ u64::from(last).wrapping_mul(0x1656_67b1_9e37_79f9);
    (h >> (64 - bits)) as usize
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            nodes: 0,
            deadline: None,
            aborted: false,
        }
    }

    /// Nodes visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The best move of `pos` and its exact value clipped to the window: the final disc margin
    /// for the side to move when it lies strictly inside (`alpha`, `beta`), else a bound on the
    /// far side of the window. A window of (-1, 1) asks only win, draw or loss. `None` when
    /// `deadline` passed first, or the game is over.
    pub fn solve(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        deadline: Option<Instant>,
    ) -> Option<(i32, Move)> {
        self.nodes = 0;
        self.deadline = deadline;
        self.aborted = false;
        if pos.is_game_over() {
            return None;
        }
        let mask = pos.move_mask();
        if mask == 0 {
            let v = -self.negamax(&pos.play_unchecked(Move::Pass), -beta, -alpha);
            return (!self.aborted).then_some((v, Move::Pass));
        }
        let mut alpha = alpha;
        let mut best = (i32::MIN, Move::Pass);
        let mut order = [0u8; 64];
        let n = self.order(pos, mask, &mut order);
        for &i in &order[..n] {
            let mv = Move::Play(Square::new(i).expect("order holds squares"));
            let v = -self.negamax(&pos.play_unchecked(mv), -beta, -alpha);
            if self.aborted {
                return None;
            }
            if v > best.0 {
                best = (v, mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// The exact value (final disc margin for the side to move) of `pos`, or `None` past the
    /// deadline.
    pub fn value(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<i32> {
        self.nodes = 0;
        self.deadline = deadline;
        self.aborted = false;
        let v = self.negamax(pos, -64, 64);
        (!self.aborted).then_some(v)
    }

    /// Win/draw/loss of `pos` for the side to move (1, 0, -1), or `None` past the deadline.
    pub fn outcome(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<i32> {
        self.nodes = 0;
        self.deadline = deadline;
        self.aborted = false;
        let v = self.negamax(pos, -1, 1);
        (!self.aborted).then_some(v.signum())
    }

    /// Writes the squares of `mask` into `out` in search order; returns how many.
    fn order(&self, pos: &Position, mask: u64, out: &mut [u8; 64]) -> usize {
        let mut n = 0;
        if pos.empties() >= MOBILITY_ORDER_EMPTIES {
            let mut keys = [0i32; 64];
            let mut m = mask;
            while m != 0 {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                let child = pos.play_unchecked(Move::Play(Square::new(i).expect("bit index")));
                let mut key = child.move_mask().count_ones() as i32 * 16;
                if CORNERS & (1 << i) != 0 {
                    key -= 64;
                }
                out[n] = i;
                keys[n] = key;
                n += 1;
            }
            sort_by_keys(&mut out[..n], &mut keys[..n]);
        } else {
            for part in [mask & CORNERS, mask & !CORNERS] {
                let mut m = part;
                while m != 0 {
                    out[n] = m.trailing_zeros() as u8;
                    m &= m - 1;
                    n += 1;
                }
            }
        }
        n
    }

    /// Fail-soft negamax on final disc margin.
    fn negamax(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        if self.out_of_time() {
            return 0;
        }
        let mask = pos.move_mask();
        if mask == 0 {
            if pos.is_game_over() {
                return pos.disc_margin();
            }
            return -self.negamax(&pos.play_unchecked(Move::Pass), -beta, -alpha);
        }
        let use_table = pos.empties() >= TABLE_MIN_EMPTIES;
        let (own, opp, last) = (pos.own(), pos.opp(), last_code(pos));
        let index = slot(own, opp, last, TABLE_BITS);
        let mut hint = 64u8;
        if use_table {
            let e = self.table[index];
            if e.own == own && e.opp == opp && e.last == last {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                hint = e.best;
            }
        }
        let (best, best_sq) = self.search_moves(pos, mask, hint, alpha, beta);
        if self.aborted {
            return 0;
        }
        if use_table {
            let (lower, upper) = if best >= beta {
                (best, 64)
            } else if best <= alpha {
                (-64, best)
            } else {
                (best, best)
            };
            self.table[index] = Entry {
                own,
                opp,
                last,
                lower: lower as i8,
                upper: upper as i8,
                best: best_sq,
            };
        }
        best
    }

    /// Counts a node and says whether the search must stop (the deadline, read every
    /// [`CLOCK_EVERY`] nodes, passed now or earlier).
    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Searches the moves of `mask` in order, `hint` (the table's best move) first; returns
    /// the best score and square.
    fn search_moves(
        &mut self,
        pos: &Position,
        mask: u64,
        hint: u8,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let mut order = [0u8; 64];
        let n = self.order(pos, mask, &mut order);
        if hint < 64
            && let Some(at) = order[..n].iter().position(|&s| s == hint)
        {
            order[..=at].rotate_right(1);
        }
        let mut best = i32::MIN;
        let mut best_sq = order[0];
        for &i in &order[..n] {
            let child = pos.play_unchecked(Move::Play(Square::new(i).expect("bit index")));
            let v = -self.negamax(&child, -beta, -alpha);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_sq = i;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        (best, best_sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Rule;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// Plain minimax to the end: the reference the solver must match.
    fn minimax(pos: &Position) -> i32 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return pos.disc_margin();
        }
        moves
            .iter()
            .map(|&m| -minimax(&pos.play(m).unwrap()))
            .max()
            .unwrap()
    }

    #[test]
    fn solver_matches_minimax_on_small_endgames() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut solver = Solver::new();
        let mut checked = 0;
        for rule in [Rule::Standard, Rule::NoAdjacent] {
            for _ in 0..30 {
                let Some(p) = random_position(rule, 7, &mut rng) else {
                    continue;
                };
                let exact = minimax(&p);
                assert_eq!(solver.value(&p, None), Some(exact), "{p}");
                assert_eq!(solver.outcome(&p, None), Some(exact.signum()), "{p}");
                let (v, mv) = solver.solve(&p, -64, 64, None).unwrap();
                assert_eq!(v, exact);
                assert!(p.is_legal(mv));
                assert_eq!(-minimax(&p.play(mv).unwrap()), exact);
                checked += 1;
            }
        }
        assert!(checked > 40);
    }
}
