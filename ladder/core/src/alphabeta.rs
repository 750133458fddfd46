//! Rungs 4 to 7: negamax with alpha-beta at a fixed depth over a threat-counting evaluation.
//!
//! The search is deliberately plain (no transposition table, no quiescence): its strength is
//! meant to grow with the depth alone. Two cheap rules keep it from being silly at the leaves:
//! every node first checks for a win on the spot, and a node where the opponent threatens to
//! win at once is either lost (two threats) or has exactly one move (block).
//!
//! The evaluation counts *threats*: empty cells that would complete four for a side. A threat
//! is the only thing that decides a gravity Connect-4 game between players who see one move
//! ahead, and `Position::completes_four` tests one in a few word operations. A small centre
//! bonus per stone breaks ties early in the game, when no one has threats yet.

use crate::{fresh_rng, open_columns};
use gravity4::position::{MAX_SIZE, Position, centre_first, edge_distance};
use gravity4::request::Request;
use rand::Rng;
use rand::seq::SliceRandom;
use std::time::{Duration, Instant};

/// The score of a won position, minus the plies it takes, so faster wins score higher and
/// slower losses score higher than faster ones.
pub const WIN: i32 = 1_000_000;

/// Scores above this (or below its negation) are proven wins (losses).
const DECIDED: i32 = WIN - 1000;

/// Value of one threat (an empty cell that completes four). Large against the centre bonus
/// (at most `MAX_SIZE / 2` per stone) so threats dominate once they exist.
const THREAT: i32 = 40;

/// Safety stop for one move, far under the course's 3 s limit: the depths used here finish
/// in milliseconds (see the README), so this only guards against a pathological position or a
/// very slow machine. It is NOT scaled by `GRAVITY4_MOVE_MS`: the alpha-beta rungs are fixed
/// depth, and their strength must not depend on the budget.
pub const SAFETY_LIMIT: Duration = Duration::from_millis(1500);

/// How many nodes between clock reads.
const CLOCK_EVERY: u64 = 1024;

/// Rung 4: depth 2 (a move, the reply, then the leaf checks and evaluation).
pub fn choose_depth_2(request: &Request) -> usize {
    choose_at_depth(request, 2)
}

/// Rung 5: depth 3. Odd depths end on the searcher's own move and measured clearly stronger
/// than the even depth above them (depth 4 scored only 60% against depth 3), so the ladder
/// steps through odd depths.
pub fn choose_depth_3(request: &Request) -> usize {
    choose_at_depth(request, 3)
}

/// Rung 6: depth 5.
pub fn choose_depth_5(request: &Request) -> usize {
    choose_at_depth(request, 5)
}

/// Rung 7: depth 7 (slowest move seen on 12x12: under 200 ms).
pub fn choose_depth_7(request: &Request) -> usize {
    choose_at_depth(request, 7)
}

/// The alpha-beta move at `depth`, stopping early at [`SAFETY_LIMIT`] after `request.entry`.
pub fn choose_at_depth(request: &Request, depth: u32) -> usize {
    best_move(
        &request.position,
        depth,
        request.entry + SAFETY_LIMIT,
        &mut fresh_rng(),
    )
    .col
}

/// What the root search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootResult {
    /// The chosen column.
    pub col: usize,
    /// Its score for the side to move (`WIN - plies` for a forced win).
    pub score: i32,
    /// The deepest iteration that completed.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// Iterative deepening from depth 1 to `max_depth`, keeping the last completed iteration's
/// choice if `deadline` passes. Root moves start in random order (ties go to the first seen,
/// so games vary); later iterations try the previous best first.
///
/// Panics if `pos` has no open column.
pub fn best_move(
    pos: &Position,
    max_depth: u32,
    deadline: Instant,
    rng: &mut impl Rng,
) -> RootResult {
    let mut moves: Vec<usize> = open_columns(pos).collect();
    assert!(!moves.is_empty(), "best_move needs an open column");
    moves.shuffle(rng);
    let mut searcher = Searcher {
        nodes: 0,
        deadline,
        stopped: false,
        order: column_order(pos.cols()),
    };
    let mut result = RootResult {
        col: moves[0],
        score: 0,
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=max_depth.max(1) {
        let mut alpha = -WIN - 1;
        let mut best = moves[0];
        for &col in &moves {
            let mut child = pos.clone();
            let score = if child.play(col) {
                WIN - 1
            } else if child.empty_cells() == 0 {
                0
            } else {
                -searcher.negamax(&child, depth - 1, -WIN - 1, -alpha, 1)
            };
            if searcher.stopped {
                break;
            }
            // Strictly better only: among equal scores the first in (random) order stays.
            if score > alpha {
                alpha = score;
                best = col;
            }
        }
        if searcher.stopped {
            break;
        }
        result = RootResult {
            col: best,
            score: alpha,
            depth,
            nodes: searcher.nodes,
        };
        if alpha.abs() > DECIDED {
            break;
        }
        let at = moves
            .iter()
            .position(|&c| c == best)
            .expect("best is a root move");
        moves[..=at].rotate_right(1);
    }
    result.nodes = searcher.nodes;
    result
}

/// [`centre_first`] in a fixed array the searcher copies: central moves take part in more
/// lines, so trying them first makes alpha-beta cut earlier.
fn column_order(cols: usize) -> [u8; MAX_SIZE] {
    let mut order = [0; MAX_SIZE];
    order[..cols].copy_from_slice(&centre_first(cols));
    order
}

struct Searcher {
    nodes: u64,
    deadline: Instant,
    stopped: bool,
    order: [u8; MAX_SIZE],
}

impl Searcher {
    /// The negamax value of `pos` for the side to move, `ply` plies below the root.
    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.deadline {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let order = self.order;
        let cols = &order[..pos.cols()];
        let them = pos.to_move().other();
        let mut forced = None;
        for &c in cols {
            let col = c as usize;
            if !pos.can_play(col) {
                continue;
            }
            if pos.is_winning_move(col) {
                return WIN - ply;
            }
            if pos.completes_four(them, pos.landing_row(col), col) {
                if forced.is_some() {
                    // Two immediate threats: block one, lose to the other.
                    return -(WIN - ply - 1);
                }
                forced = Some(col);
            }
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let mut best = -WIN - 1;
        let forced_only = forced.map(|c| c as u8);
        let moves = match &forced_only {
            Some(c) => std::slice::from_ref(c),
            None => cols,
        };
        for &c in moves {
            let col = c as usize;
            if !pos.can_play(col) {
                continue;
            }
            let mut child = pos.clone();
            // No move wins here (checked above), so the game goes on after it.
            child.play(col);
            let score = if child.empty_cells() == 0 {
                0
            } else {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The static value of `pos` for the side to move: threats and centre stones, mine minus
/// theirs.
///
/// Each threat counts [`THREAT`]; each stone adds its column's distance from the edge plus
/// one (centre stones belong to more lines).
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.to_move();
    let them = me.other();
    let (blocked_row, blocked_col) = pos.blocked();
    let cols = pos.cols();
    let mut score = 0;
    for col in 0..cols {
        let top = pos.top(col);
        // Empty cells are the rows above `top`; stones (and maybe the blocked cell) the rest.
        for row in 0..top {
            if (row, col) == (blocked_row, blocked_col) {
                continue;
            }
            if pos.completes_four(me, row, col) {
                score += THREAT;
            }
            if pos.completes_four(them, row, col) {
                score -= THREAT;
            }
        }
        let weight = centre_weight(col, cols);
        for row in top..pos.rows() {
            match pos.stone(row, col) {
                Some(side) if side == me => score += weight,
                Some(_) => score -= weight,
                None => {}
            }
        }
    }
    score
}

/// 1 on the edge columns, growing by one per column towards the centre.
fn centre_weight(col: usize, cols: usize) -> i32 {
    edge_distance(col, cols) as i32 + 1
}
