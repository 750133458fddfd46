//! The selection and backup both searches share: UCB1 over a node's children, and the
//! result added along the path an iteration walked.
//!
//! The plain UCT ([`uct`](super::uct)) and the strong search ([`strong`](super::strong))
//! differ in how they expand, play out and choose, not in how they walk the tree, so this
//! is written once; the strong search's proofs only add "never pick a proven loss", a
//! compile-time switch that leaves plain UCT's hottest loop without the check.

use super::playout::Outcome;
use super::tree::{NodeId, NodeKind, Tree};
use crate::position::{MAX_SIZE, Side};

/// How often (in iterations) the clock is read. An iteration costs about a microsecond, so
/// 64 of them stay far below the 20 ms a move may overrun its budget by.
pub const CLOCK_EVERY: u64 = 64;

/// Longest possible path: every cell of a 12x12 board plus the root.
pub const MAX_PATH: usize = MAX_SIZE * MAX_SIZE + 1;

/// Visit counts below this read `1/n`, `1/sqrt(n)` and `ln n` from tables (48 KiB, hot in
/// cache) instead of computing them: UCB1 over 12 children would otherwise cost 12 divisions
/// and 12 square roots per tree level, more than the rest of the walk.
const TABLE_SIZE: usize = 4096;

/// Precomputed `1/n`, `1/sqrt(n)` and `ln n` for small `n`.
pub struct UcbTables {
    inv: Vec<f32>,
    inv_sqrt: Vec<f32>,
    ln: Vec<f32>,
}

impl Default for UcbTables {
    fn default() -> UcbTables {
        UcbTables::new()
    }
}

impl UcbTables {
    /// Fills the tables (a few microseconds: once per search).
    pub fn new() -> UcbTables {
        let n = |i: usize| i.max(1) as f32;
        UcbTables {
            inv: (0..TABLE_SIZE).map(|i| 1.0 / n(i)).collect(),
            inv_sqrt: (0..TABLE_SIZE).map(|i| 1.0 / n(i).sqrt()).collect(),
            ln: (0..TABLE_SIZE).map(|i| n(i).ln()).collect(),
        }
    }

    /// `(1/n, 1/sqrt(n))`, from the table when `n` is small.
    #[inline(always)]
    pub fn inv_and_inv_sqrt(&self, n: u32) -> (f32, f32) {
        match (self.inv.get(n as usize), self.inv_sqrt.get(n as usize)) {
            (Some(&inv), Some(&inv_sqrt)) => (inv, inv_sqrt),
            _ => {
                let inv = 1.0 / n as f32;
                (inv, inv.sqrt())
            }
        }
    }

    /// `ln n`, from the table when `n` is small.
    #[inline(always)]
    pub fn ln(&self, n: u32) -> f32 {
        match self.ln.get(n as usize) {
            Some(&ln) => ln,
            None => (n as f32).ln(),
        }
    }
}

/// UCB1 over the children of `id`. An unvisited child is taken at once (infinite bound), or
/// with `first_play = Some(offset)` scored as the parent's value for the side choosing plus
/// `offset` ([`first_play_urgency`]). `SKIP_LOSSES` (the strong search) never picks a child
/// proven lost for the mover; plain UCT has no proofs and skips the check in its hottest loop.
#[inline]
pub fn select_child<const SKIP_LOSSES: bool>(
    tree: &Tree,
    id: NodeId,
    exploration: f32,
    first_play: Option<f32>,
    tables: &UcbTables,
) -> NodeId {
    let parent = tree.node(id);
    let first = parent.first_child;
    // c * sqrt(2 ln N_parent / N) = [c * sqrt(2 ln N_parent)] * sqrt(1 / N): one ln per level.
    let scale = exploration * (2.0 * tables.ln(parent.visits.max(1))).sqrt();
    let urgency = first_play.map(|offset| {
        let mean = parent.half_points as f32 * 0.5 / parent.visits.max(1) as f32;
        first_play_urgency(mean, parent.visits, offset)
    });
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in tree.children(id).iter().enumerate() {
        // A proven loss for the mover is never worth a visit (only the strong search proves them).
        if SKIP_LOSSES && child.kind == NodeKind::Loss {
            continue;
        }
        if child.visits == 0 {
            if take_untried(urgency, first + i as NodeId, &mut best, &mut best_score) {
                return first + i as NodeId;
            }
            continue;
        }
        let (inv, inv_sqrt) = tables.inv_and_inv_sqrt(child.visits);
        let score = child.half_points as f32 * 0.5 * inv + scale * inv_sqrt;
        if score > best_score {
            best_score = score;
            best = first + i as NodeId;
        }
    }
    best
}

/// The weight of [`select_child_with_prior`]'s bias: a child the policy gives probability
/// `p` gains `PRIOR_WEIGHT * p / (visits + 1)`. 1, not tuned: a favourite with p = 0.4
/// gains 0.2 after one visit and 0.04 after nine, beside UCB1's exploration term of
/// 0.5 * sqrt(2 ln N / n).
pub const PRIOR_WEIGHT: f32 = 1.0;

/// UCB1 over the children of `id` with a playout policy's weights, by column, as priors (the
/// strong search with `policy-prior`; progressive bias, Chaslot et al. 2008, with a learned
/// policy for the heuristic). A child not yet visited is taken at once, the one with the
/// largest weight first (the first in order among equals); a visited one scores UCB1 plus
/// [`PRIOR_WEIGHT`] times its share of the children's weights over `visits + 1`. A child
/// proven lost for the mover is never picked.
#[inline]
pub fn select_child_with_prior(
    tree: &Tree,
    id: NodeId,
    exploration: f32,
    tables: &UcbTables,
    weights: &[f32; MAX_SIZE],
) -> NodeId {
    let parent = tree.node(id);
    let first = parent.first_child;
    let children = tree.children(id);
    let (mut total, mut untried) = (0.0, None::<(NodeId, f32)>);
    for (i, child) in children.iter().enumerate() {
        if child.kind == NodeKind::Loss {
            continue;
        }
        let weight = weights[usize::from(child.col)];
        total += weight;
        if child.visits == 0 && untried.is_none_or(|(_, best)| weight > best) {
            untried = Some((first + i as NodeId, weight));
        }
    }
    if let Some((child, _)) = untried {
        return child;
    }
    let scale = exploration * (2.0 * tables.ln(parent.visits.max(1))).sqrt();
    // Weights are at least 1e-3 (learned.rs), so `total` is 0 only with no child left.
    let bias = PRIOR_WEIGHT / total.max(f32::MIN_POSITIVE);
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in children.iter().enumerate() {
        if child.kind == NodeKind::Loss {
            continue;
        }
        let (inv, inv_sqrt) = tables.inv_and_inv_sqrt(child.visits);
        let (inv_next, _) = tables.inv_and_inv_sqrt(child.visits + 1);
        let prior = weights[usize::from(child.col)] * bias;
        let score = child.half_points as f32 * 0.5 * inv + scale * inv_sqrt + prior * inv_next;
        if score > best_score {
            best_score = score;
            best = first + i as NodeId;
        }
    }
    best
}

/// A selection loop's step for the child `index`, not yet visited: true to take it at once
/// (no first-play urgency: UCB1's infinite bound), else it competes with its urgency score.
#[inline(always)]
pub fn take_untried(
    urgency: Option<f32>,
    index: u32,
    best: &mut u32,
    best_score: &mut f32,
) -> bool {
    match urgency {
        None => true,
        Some(urgency) => {
            if urgency > *best_score {
                *best_score = urgency;
                *best = index;
            }
            false
        }
    }
}

/// The score of a child not yet visited under first-play urgency: the parent's value for
/// the side choosing there (`1 - mean`, where `mean` is the parent's mean for the side that
/// moved into it; 0.5 before the parent has a result) plus `offset`.
#[inline(always)]
pub fn first_play_urgency(mean: f32, visits: u32, offset: f32) -> f32 {
    let value = if visits == 0 { 0.5 } else { 1.0 - mean };
    value + offset
}

/// Adds the outcome to every node on the path, each from the view of the side that moved
/// into it.
#[inline]
pub fn backup(tree: &mut Tree, path: &[NodeId], root_mover: Side, outcome: Outcome) {
    // The root was "moved into" by the side not to move there; sides alternate downwards.
    let mut mover = root_mover.other();
    for &id in path {
        let node = tree.node_mut(id);
        node.visits += 1;
        node.half_points += outcome.half_points_for(mover);
        mover = mover.other();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::ROOT;

    /// A root with three children: the first visited `visits` times with `half_points`, the
    /// other two unvisited; the root's own mean for the side that moved into it is 0.4 (so
    /// the side choosing there stands at 0.6).
    fn root_with_one_tried(visits: u32, half_points: u32) -> Tree {
        let mut tree = Tree::with_memory_cap(1 << 16);
        assert!(tree.expand(ROOT, &[0, 1, 2]));
        let root = tree.node_mut(ROOT);
        root.visits = 10;
        root.half_points = 8;
        let child = tree.node_mut(1);
        child.visits = visits;
        child.half_points = half_points;
        tree
    }

    #[test]
    fn without_first_play_urgency_an_untried_child_comes_first() {
        let tree = root_with_one_tried(9, 18);
        let tables = UcbTables::new();
        assert_eq!(select_child::<true>(&tree, ROOT, 0.5, None, &tables), 2);
    }

    #[test]
    fn first_play_urgency_deepens_a_child_better_than_the_parent() {
        let tables = UcbTables::new();
        // Won every time: its score (1 + exploration) beats 0.6 + 0.1.
        let tree = root_with_one_tried(9, 18);
        assert_eq!(
            select_child::<true>(&tree, ROOT, 0.5, Some(0.1), &tables),
            1
        );
        // Lost every time, with little exploration left: the first untried child is next.
        let tree = root_with_one_tried(9, 0);
        assert_eq!(
            select_child::<true>(&tree, ROOT, 0.05, Some(0.1), &tables),
            2
        );
        // A proven-lost child is skipped whatever its score.
        let mut tree = root_with_one_tried(9, 18);
        tree.node_mut(1).kind = NodeKind::Loss;
        assert_eq!(
            select_child::<true>(&tree, ROOT, 0.5, Some(0.1), &tables),
            2
        );
        assert!((first_play_urgency(0.4, 10, 0.1) - 0.7).abs() < 1e-6);
        assert_eq!(first_play_urgency(0.0, 0, 0.0), 0.5);
    }

    /// Weights by column for the children of [`root_with_one_tried`] (columns 0, 1, 2).
    fn weights(w: [f32; 3]) -> [f32; MAX_SIZE] {
        let mut all = [0.0; MAX_SIZE];
        all[..3].copy_from_slice(&w);
        all
    }

    #[test]
    fn a_prior_orders_the_untried_children_and_biases_the_tried() {
        let tables = UcbTables::new();
        let select =
            |tree: &Tree, w| select_child_with_prior(tree, ROOT, 0.5, &tables, &weights(w));
        // Untried children come first, the most probable of them first (the first among equals).
        let tree = root_with_one_tried(9, 18);
        assert_eq!(select(&tree, [9.0, 1.0, 3.0]), 3);
        assert_eq!(select(&tree, [9.0, 2.0, 2.0]), 2);
        // All tried alike: the prior decides.
        let mut tree = root_with_one_tried(3, 3);
        for child in [2, 3] {
            let node = tree.node_mut(child);
            (node.visits, node.half_points) = (3, 3);
        }
        assert_eq!(select(&tree, [1.0, 1.0, 1.0]), 1, "no prior: the first");
        assert_eq!(select(&tree, [1.0, 5.0, 1.0]), 2);
        // The bias fades with visits: a child with more wins overtakes the favourite.
        let node = tree.node_mut(1);
        (node.visits, node.half_points) = (400, 720);
        for child in [2, 3] {
            let node = tree.node_mut(child);
            (node.visits, node.half_points) = (400, 400);
        }
        tree.node_mut(ROOT).visits = 1200;
        assert_eq!(select(&tree, [1.0, 5.0, 1.0]), 1);
        // A proven-lost child is never picked, whatever its weight.
        tree.node_mut(1).kind = NodeKind::Loss;
        assert_eq!(select(&tree, [100.0, 1.0, 1.0]), 2);
    }
}
