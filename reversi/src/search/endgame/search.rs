//! The solver's three searches, by how many empties are left:
//!
//! * deep (at least [`super::Config::deep_min_empties`]): transposition table, stability
//!   cut-off, fastest-first ordering, principal-variation search;
//! * shallow (down to [`LAST_EMPTIES`] + 1): stability cut-off, parity order, plain
//!   alpha-beta, no table (a search here costs less than a table miss);
//! * the last [`LAST_EMPTIES`]: no move generation at all: each empty square is tried in parity
//!   order and kept if it flips something, and the very last empty is scored by counting its
//!   flips without making the move.
//!
//! Every search is fail-soft negamax on the final score of the side to move. A position is
//! `(own, opp, last)`: the discs of the side to move, the opponent's, and the square code of
//! the house rule (the opponent's last move when it forbids squares, else [`NO_LAST`]).

use super::Solver;
use super::bits::{
    NO_LAST, final_score, flips, forbidden, moves as legal_moves, odd_quadrants, touches,
};
use crate::bitboard::{CORNERS, neighbours};

/// At or below this many empties the specialised search without move generation runs.
pub(super) const LAST_EMPTIES: u32 = 4;

/// The table's best move goes first whatever its mobility.
const HINT_BONUS: i32 = 1 << 20;

/// The opponent's best reply one ply further, by the mobility it leaves: the most of (its
/// replies then, minus ours then), over its `replies` in the position where it holds `theirs`
/// and we hold `ours`; minus our mobility when it must pass.
fn lookahead(theirs: u64, ours: u64, replies: u64) -> i32 {
    if replies == 0 {
        return -(legal_moves(ours, theirs).count_ones() as i32);
    }
    let mut best = i32::MIN;
    let mut m = replies;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(theirs, ours, sq);
        let (us, them) = (ours ^ f, theirs | f | (1u64 << sq));
        let v =
            legal_moves(them, us).count_ones() as i32 - legal_moves(us, them).count_ones() as i32;
        best = best.max(v);
    }
    best
}

/// More legal moves than a Reversi position can have (the known maximum is 33).
const MAX_MOVES: usize = 40;

/// The moves of a node with their flips and ordering keys.
pub(super) struct MoveList {
    sq: [u8; MAX_MOVES],
    flipped: [u64; MAX_MOVES],
    key: [i32; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// Moves `k..` so that the one with the smallest key is at `k` (selection: most nodes cut
    /// after one or two moves, so sorting the rest would be wasted).
    fn select(&mut self, k: usize) {
        let mut at = k;
        for i in k + 1..self.len {
            if self.key[i] < self.key[at] {
                at = i;
            }
        }
        self.sq.swap(k, at);
        self.flipped.swap(k, at);
        self.key.swap(k, at);
    }
}

impl Solver {
    /// The score of `(own, opp, last)` by the search its empties call for.
    #[inline]
    pub(super) fn search(&mut self, own: u64, opp: u64, last: u8, alpha: i32, beta: i32) -> i32 {
        let empties = 64 - (own | opp).count_ones();
        if empties >= self.config.deep_min_empties.max(LAST_EMPTIES + 1) {
            self.deep(own, opp, last, alpha, beta, empties)
        } else if empties > LAST_EMPTIES {
            self.shallow(own, opp, last, alpha, beta)
        } else {
            self.last_few(own, opp, last, alpha, beta)
        }
    }

    /// The square code a move on `sq` leaves for the opponent.
    #[inline]
    fn child_last(&self, sq: u8) -> u8 {
        if self.no_adjacent { sq } else { NO_LAST }
    }

    /// The score when the side to move has no allowed move: a pass if either side still has a
    /// standard move (under the house rule the mover may have only forbidden ones), else the
    /// game is over.
    fn pass(&mut self, own: u64, opp: u64, last: u8, alpha: i32, beta: i32) -> i32 {
        if legal_moves(opp, own) != 0 || (last != NO_LAST && legal_moves(own, opp) != 0) {
            -self.search(opp, own, NO_LAST, -beta, -alpha)
        } else {
            final_score(own, opp, self.empties_to_winner)
        }
    }

    /// An upper bound on the score from the opponent's stable discs, or 64 when it cannot
    /// reach down to `alpha` (then it is not worth computing).
    #[inline]
    fn stability_bound(&self, own: u64, opp: u64, alpha: i32) -> i32 {
        if !self.config.stability || 64 - 2 * opp.count_ones() as i32 > alpha {
            return 64;
        }
        64 - 2 * super::stability::stable_discs(opp, own | opp).count_ones() as i32
    }

    /// Table, stability, fastest-first, PVS.
    fn deep(
        &mut self,
        own: u64,
        opp: u64,
        last: u8,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let mut hint = NO_LAST;
        if let Some(e) = self.table.probe(own, opp, last) {
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
        let bound = self.stability_bound(own, opp, alpha);
        if bound <= alpha {
            return bound;
        }
        beta = beta.min(bound);
        let moves = legal_moves(own, opp) & !forbidden(last);
        if moves == 0 {
            return self.pass(own, opp, last, alpha, beta);
        }
        let mut list = self.ordered(own, opp, moves, hint, empties);
        if self.config.etc
            && empties > self.config.deep_min_empties
            && let Some(cut) = self.transposition_cut(own, opp, &list, beta)
        {
            return cut;
        }
        let (score, best) = self.pvs(own, opp, &mut list, alpha, beta);
        if !self.aborted {
            self.table
                .store((own, opp, last), empties, alpha, beta, score, best);
        }
        score
    }

    /// Enhanced transposition cut-off: a score of at least `beta` when the table already
    /// holds a child whose upper bound refutes it (the child's deep search is then skipped).
    fn transposition_cut(&self, own: u64, opp: u64, list: &MoveList, beta: i32) -> Option<i32> {
        (0..list.len).find_map(|k| {
            let (sq, f) = (list.sq[k], list.flipped[k]);
            let e = self
                .table
                .probe(opp ^ f, own | f | (1u64 << sq), self.child_last(sq))?;
            (-i32::from(e.upper) >= beta).then_some(-i32::from(e.upper))
        })
    }

    /// The moves of `moves` with their flips and fastest-first keys ([`super::Weights`]): the
    /// opponent's replies after each (corners twice) and the empty squares next to our discs
    /// (its potential replies), less a bonus for corners, odd quadrants and `hint`.
    pub(super) fn ordered(
        &self,
        own: u64,
        opp: u64,
        moves: u64,
        hint: u8,
        empties: u32,
    ) -> MoveList {
        let mut list = MoveList {
            sq: [0; MAX_MOVES],
            flipped: [0; MAX_MOVES],
            key: [0; MAX_MOVES],
            len: 0,
        };
        let odd = if self.config.parity {
            odd_quadrants(!(own | opp))
        } else {
            0
        };
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let bit = 1u64 << sq;
            let f = flips(own, opp, u32::from(sq));
            let (theirs, ours) = (opp ^ f, own | f | bit);
            let replies = legal_moves(theirs, ours) & !forbidden(self.child_last(sq));
            let w = &self.config.weights;
            let mut key = w.mobility
                * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
                + w.potential * (neighbours(ours) & !(ours | theirs)).count_ones() as i32;
            if bit & CORNERS != 0 {
                key -= w.corner;
            }
            if bit & odd != 0 {
                key -= w.parity;
            }
            if sq == hint {
                key -= HINT_BONUS;
            }
            if empties >= self.config.lookahead_empties {
                key += w.lookahead * lookahead(theirs, ours, replies);
            }
            let i = list.len;
            (list.sq[i], list.flipped[i], list.key[i]) = (sq, f, key);
            list.len += 1;
        }
        list
    }

    /// Principal-variation search over `list`: the first move with the full window, the rest
    /// with a null window, searched again when one beats `alpha`. Returns the best score and
    /// its square (fail-soft).
    pub(super) fn pvs(
        &mut self,
        own: u64,
        opp: u64,
        list: &mut MoveList,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let mut best = (i32::MIN, list.sq[0]);
        for k in 0..list.len {
            list.select(k);
            let (sq, f) = (list.sq[k], list.flipped[k]);
            let child = (opp ^ f, own | f | (1u64 << sq), self.child_last(sq));
            let mut v;
            if k == 0 {
                v = -self.search(child.0, child.1, child.2, -beta, -alpha);
            } else {
                v = -self.search(child.0, child.1, child.2, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.search(child.0, child.1, child.2, -beta, -alpha);
                }
            }
            if self.aborted {
                return (0, best.1);
            }
            if v > best.0 {
                best = (v, sq);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Stability, then the moves in parity order (odd quadrants first), plain alpha-beta.
    fn shallow(&mut self, own: u64, opp: u64, last: u8, mut alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        let bound = self.stability_bound(own, opp, alpha);
        if bound <= alpha {
            return bound;
        }
        let beta = beta.min(bound);
        let moves = legal_moves(own, opp) & !forbidden(last);
        if moves == 0 {
            return self.pass(own, opp, last, alpha, beta);
        }
        let odd = if self.config.parity {
            odd_quadrants(!(own | opp))
        } else {
            u64::MAX
        };
        let mut best = i32::MIN;
        for part in [moves & odd & CORNERS, moves & odd & !CORNERS, moves & !odd] {
            let mut m = part;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                let f = flips(own, opp, sq);
                let last = self.child_last(sq as u8);
                let v = -self.search(opp ^ f, own | f | (1u64 << sq), last, -beta, -alpha);
                if v > best {
                    best = v;
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The last [`LAST_EMPTIES`]: every empty square in parity order, kept if it flips.
    fn last_few(&mut self, own: u64, opp: u64, last: u8, mut alpha: i32, beta: i32) -> i32 {
        let empty = !(own | opp);
        if empty.count_ones() <= 1 {
            return self.last_one(own, opp, last, empty);
        }
        self.nodes += 1;
        let banned = forbidden(last);
        let odd = if self.config.parity {
            odd_quadrants(empty)
        } else {
            u64::MAX
        };
        let mut best = i32::MIN;
        for part in [empty & odd & !banned, empty & !odd & !banned] {
            let mut m = part;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if !touches(opp, sq) {
                    continue;
                }
                let f = flips(own, opp, sq);
                if f == 0 {
                    continue;
                }
                let last = self.child_last(sq as u8);
                let v = -self.search(opp ^ f, own | f | (1u64 << sq), last, -beta, -alpha);
                if v > best {
                    best = v;
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best == i32::MIN {
            return self.pass(own, opp, last, alpha, beta);
        }
        best
    }

    /// The score with at most one empty square (`empty`), the move made by counting flips:
    /// the side to move plays it if it may, else the opponent if it can, else nobody.
    fn last_one(&mut self, own: u64, opp: u64, last: u8, empty: u64) -> i32 {
        self.nodes += 1;
        if empty == 0 {
            return final_score(own, opp, self.empties_to_winner);
        }
        let sq = empty.trailing_zeros();
        let mine = flips(own, opp, sq);
        if mine != 0 && forbidden(last) & empty == 0 {
            return 2 * (own.count_ones() + mine.count_ones()) as i32 + 2 - 64;
        }
        let theirs = flips(opp, own, sq);
        if theirs != 0 {
            // The side to move passes; the opponent fills the board.
            return 64 - 2 * (opp.count_ones() + theirs.count_ones()) as i32 - 2;
        }
        if mine != 0 {
            // Its only move was forbidden and the opponent has none: after two passes the
            // rule no longer applies and the side to move plays it.
            return 2 * (own.count_ones() + mine.count_ones()) as i32 + 2 - 64;
        }
        final_score(own, opp, self.empties_to_winner)
    }

    /// Counts a node and reads the clock (and asks the caller's stop condition) every
    /// [`super::CLOCK_EVERY`] nodes; true once the deadline has passed or the caller said stop (the search then unwinds, its values meaningless).
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_clock {
            self.next_clock = self.nodes + super::CLOCK_EVERY;
            let late = self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d);
            self.aborted = late || self.stop.as_mut().is_some_and(|stop| stop());
        }
        self.aborted
    }
}
