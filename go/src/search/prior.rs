//! The children of a new node and their priors: what the search believes of each move
//! before it has played any. Every legal move that does not fill the mover's own true eye
//! is a child, and so is the pass.
//!
//! Two sources of belief, chosen by [`Config::model`]:
//! - the move model ([`crate::model`]), learned from game records: a move of probability
//!   `p` among the position's moves gets `w √p` virtual wins on top of the even prior
//!   (`w` is [`Config::model_prior`]; the square root, as in Pachi's pattern prior, keeps
//!   the second and third choices in the running), and the children are sorted by `p`, best
//!   first, for progressive widening;
//! - without a model, hand-written knowledge in the manner of MoGo and Fuego ([`hand_prior`]).

use super::Config;
use super::patterns;
use super::playout::is_bad_self_atari;
use super::tree::{Node, PASS};
use crate::board::{Board, EMPTY, stone};
use crate::model::{Model, Recent};
use crate::point::Color;

/// Fills `out` with the children of a node where `color` moves on `board` after the moves
/// `recent` (most recent first), each with its prior; the pass last.
pub fn children(
    board: &Board,
    color: Color,
    passes: u32,
    recent: Recent,
    config: &Config,
    out: &mut Vec<Node>,
) {
    out.clear();
    let even = config.prior_even;
    match &config.model {
        Some(model) => model_children(board, color, recent, model, config, out),
        None => {
            for &e in board.empties() {
                let i = usize::from(e);
                if board.is_legal(color, i) && !board.is_true_eye(color, i) {
                    let (n, w) = hand_prior(board, color, i, even);
                    out.push(Node::new(e, n, w));
                }
            }
        }
    }
    // A pass is worth trying when the opponent just passed (it ends the game) or nothing else
    // is left; otherwise it starts as a near-certain loss so the search spends little on it.
    let pass_wins = if passes > 0 || out.is_empty() {
        0.5 * even
    } else {
        0.0
    };
    out.push(Node::new(PASS, even, pass_wins));
}

/// The children with the model's priors, most probable first.
fn model_children(
    board: &Board,
    color: Color,
    recent: Recent,
    model: &Model,
    config: &Config,
    out: &mut Vec<Node>,
) {
    let even = config.prior_even;
    // First the scores (ln γ) in the prior fields, then the priors from them.
    let mut best = f32::NEG_INFINITY;
    for &e in board.empties() {
        let i = usize::from(e);
        if board.is_legal(color, i) && !board.is_true_eye(color, i) {
            let score = model.score_move(board, color, i, recent);
            best = best.max(score);
            out.push(Node::new(e, score, 0.0));
        }
    }
    let total: f32 = out.iter().map(|n| (n.prior_visits - best).exp()).sum();
    for node in out.iter_mut() {
        let p = (node.prior_visits - best).exp() / total;
        let bonus = config.model_prior * p.sqrt();
        *node = Node::new(node.mv, even + bonus, 0.5 * even + bonus);
    }
    // Most probable first (the largest prior), for progressive widening; stable, so equal
    // moves keep the board's order.
    out.sort_by(|a, b| b.prior_visits.total_cmp(&a.prior_visits));
}

/// The prior of `color` playing at `i`, as (virtual visits, virtual wins): an even prior of
/// `even` visits at 50 %, plus knowledge in the manner of MoGo and Fuego: captures, atari
/// escapes and 3x3 patterns are encouraged, self-ataris and the first two lines in an empty
/// area discouraged, the third line in an empty area encouraged.
fn hand_prior(board: &Board, color: Color, i: usize, even: f32) -> (f32, f32) {
    let mut n = even;
    let mut w = 0.5 * even;
    let mut bonus = |good: bool| {
        n += even;
        if good {
            w += even;
        }
    };
    let me = stone(color);
    let opp = stone(color.opponent());
    let mut captures = false;
    let mut saves = false;
    for nb in board.neighbors(i) {
        let c = board.at(nb);
        if c == opp && board.libs(nb) == 1 {
            captures = true;
        } else if c == me && board.libs(nb) == 1 {
            saves = true;
        }
    }
    if captures {
        bonus(true);
    }
    let libs = board.libs_after(color, i, 3);
    if saves && libs >= 2 {
        bonus(true);
    }
    if libs <= 1 && !captures {
        bonus(false);
        if is_bad_self_atari(board, color, i) {
            bonus(false);
        }
    }
    if patterns::matches(board, i) {
        bonus(true);
    }
    let size = board.size();
    let p = board.point(i);
    let line = usize::from(p.x.min(p.y)).min(size - 1 - usize::from(p.x.max(p.y))) + 1;
    if size >= 9 && empty_around(board, i, 2) {
        match line {
            1 => {
                bonus(false);
                bonus(false);
            }
            2 => bonus(false),
            3 => bonus(true),
            _ => {}
        }
    }
    (n, w)
}

/// True when no stone lies within Manhattan distance `r` of `i`.
fn empty_around(board: &Board, i: usize, r: i32) -> bool {
    let p = board.point(i);
    let size = board.size() as i32;
    for dy in -r..=r {
        let span = r - dy.abs();
        for dx in -span..=span {
            let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
            if (0..size).contains(&x) && (0..size).contains(&y) {
                let j = board.index(crate::point::Point::new(x as usize, y as usize));
                if board.at(j) != EMPTY {
                    return false;
                }
            }
        }
    }
    true
}
