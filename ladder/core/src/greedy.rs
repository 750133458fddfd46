//! Rungs 2 and 3: one-ply tactics and nothing else.
//!
//! Rung 2 wins now if it can, else blocks the opponent's win now, else plays at random.
//! Rung 3 also refuses (when it has a choice) moves that let the opponent win on top of them,
//! the most common way a one-ply player throws a game away.

use crate::{fresh_rng, open_columns};
use gravity4::position::{Position, edge_distance};
use gravity4::request::Request;
use rand::Rng;
use rand::seq::{IndexedRandom, IteratorRandom};

/// Win, else block, else random.
pub fn choose(request: &Request) -> usize {
    greedy_move(&request.position, false, false, &mut fresh_rng())
}

/// Win, else block, else random among the moves that do not give the opponent a win on top,
/// favouring central columns.
pub fn choose_safe(request: &Request) -> usize {
    greedy_move(&request.position, true, true, &mut fresh_rng())
}

/// A column that wins at once for the side to move, if any (the leftmost).
pub fn winning_move(pos: &Position) -> Option<usize> {
    open_columns(pos).find(|&col| pos.is_winning_move(col))
}

/// A column where the opponent would win at once if it were their turn, if any: the move that
/// blocks it (when there are two or more, blocking one is as good as any).
pub fn blocking_move(pos: &Position) -> Option<usize> {
    let them = pos.to_move().other();
    open_columns(pos).find(|&col| pos.completes_four(them, pos.landing_row(col), col))
}

/// True iff playing `col` lets the opponent win by dropping a stone right on top of it.
pub fn gives_win_on_top(pos: &Position, col: usize) -> bool {
    let mut next = pos.clone();
    // The caller has checked `col` does not win, so the game goes on after it.
    next.play(col);
    next.can_play(col) && next.is_winning_move(col)
}

/// The greedy choice for the side to move in `pos`; `safe` adds the win-on-top filter, and
/// `centre` draws the remaining candidates with weight (distance from the edge + 1)^2 instead
/// of uniformly (central stones take part in more lines).
pub fn greedy_move(pos: &Position, safe: bool, centre: bool, rng: &mut impl Rng) -> usize {
    if let Some(col) = winning_move(pos).or_else(|| blocking_move(pos)) {
        return col;
    }
    let candidates = open_columns(pos).filter(|&col| !safe || !gives_win_on_top(pos, col));
    let pick = if centre {
        let cols = pos.cols();
        candidates
            .collect::<Vec<_>>()
            .choose_weighted(rng, |&col| {
                let weight = edge_distance(col, cols) + 1;
                weight * weight
            })
            .ok()
            .copied()
    } else {
        candidates.choose(rng)
    };
    // Every move loses something (or nothing is safe): any legal move will do.
    pick.unwrap_or_else(|| crate::random::random_move(pos, rng))
}
