//! UCT: selection by UCB1, one new leaf per iteration, random playout, backup.

use super::playout::{Outcome, random_playout};
use super::tree::{NodeId, NodeKind, ROOT, Tree};
use crate::position::{MAX_SIZE, Position, Side};
use rand::RngCore;
use std::time::{Duration, Instant};

/// UCB1's exploration constant `c` in `Q/N + c * sqrt(2 ln N_parent / N)`; 0.8 is the value
/// the course's reference UCT uses.
pub const EXPLORATION: f32 = 0.8;

/// How often (in iterations) the clock is read. An iteration costs about a microsecond, so
/// 64 of them stay far below the 20 ms a move may overrun its budget by.
pub(super) const CLOCK_EVERY: u64 = 64;

/// Longest possible path: every cell of a 12x12 board plus the root.
pub(super) const MAX_PATH: usize = MAX_SIZE * MAX_SIZE + 1;

/// Visit counts below this read `1/n`, `1/sqrt(n)` and `ln n` from tables (48 KiB, hot in
/// cache) instead of computing them: UCB1 over 12 children would otherwise cost 12 divisions
/// and 12 square roots per tree level, more than the rest of the walk.
const TABLE_SIZE: usize = 4096;

/// Precomputed `1/n`, `1/sqrt(n)` and `ln n` for small `n`.
pub(super) struct UcbTables {
    inv: Vec<f32>,
    inv_sqrt: Vec<f32>,
    ln: Vec<f32>,
}

impl UcbTables {
    pub(super) fn new() -> UcbTables {
        let n = |i: usize| i.max(1) as f32;
        UcbTables {
            inv: (0..TABLE_SIZE).map(|i| 1.0 / n(i)).collect(),
            inv_sqrt: (0..TABLE_SIZE).map(|i| 1.0 / n(i).sqrt()).collect(),
            ln: (0..TABLE_SIZE).map(|i| n(i).ln()).collect(),
        }
    }

    #[inline(always)]
    pub(super) fn inv_and_inv_sqrt(&self, n: u32) -> (f32, f32) {
        match (self.inv.get(n as usize), self.inv_sqrt.get(n as usize)) {
            (Some(&inv), Some(&inv_sqrt)) => (inv, inv_sqrt),
            _ => {
                let inv = 1.0 / n as f32;
                (inv, inv.sqrt())
            }
        }
    }

    #[inline(always)]
    pub(super) fn ln(&self, n: u32) -> f32 {
        match self.ln.get(n as usize) {
            Some(&ln) => ln,
            None => (n as f32).ln(),
        }
    }
}

/// What the search does, as opposed to how long it may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// UCB1 exploration constant.
    pub exploration: f32,
    /// Root moves (bit per column) already proven to lose, e.g. by the endgame solver: the
    /// solver search leaves them out of the root unless nothing else is left.
    pub excluded_root_moves: u16,
    /// Solver search only: finish games with tactical playouts (else uniformly random).
    pub tactical_playouts: bool,
    /// Tactical playouts only: when nothing is forced, prefer moves that do not fill the cell
    /// under the mover's own threat.
    pub keep_threats: bool,
    /// Solver search only: at each expansion, look for a forced win by a chain of threats
    /// for the side to move, and mark the node proven when there is one.
    pub threat_sequences: bool,
    /// Solver search only: when the search finds a node with 8 visits, prove lost each of its
    /// unexpanded children after which the opponent wins by a chain of threats (so a quiet
    /// move that sets up a chain is refuted at once, not one reply at a time).
    pub reply_sequences: bool,
    /// Solver search only: stop before the deadline once the most visited root move cannot
    /// be overtaken in the time left, or at once when it has one candidate (a proven root,
    /// or one with a proven winning move, always stops).
    pub early_stop: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: EXPLORATION,
            excluded_root_moves: 0,
            tactical_playouts: true,
            keep_threats: true,
            threat_sequences: true,
            reply_sequences: false,
            early_stop: false,
        }
    }
}

/// When the search must stop and how much memory its tree may take.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    /// Wall-clock instant after which no new iteration starts.
    pub deadline: Instant,
    /// Stop after this many iterations (benchmarks and reproducible tests).
    pub max_iterations: Option<u64>,
    /// The tree stops growing (the search does not stop) at this many bytes of nodes.
    pub memory_bytes: usize,
}

impl SearchLimits {
    /// A time limit from now, with the given memory cap.
    pub fn for_duration(budget: Duration, memory_bytes: usize) -> SearchLimits {
        SearchLimits {
            deadline: Instant::now() + budget,
            max_iterations: None,
            memory_bytes,
        }
    }
}

/// The outcome of one search.
#[derive(Clone, Copy, Debug)]
pub struct SearchReport {
    /// What the search proved about the root for the side to move: `Win`, `Tie`, `Loss`, or
    /// `Open` when nothing is proven (always `Open` for plain UCT).
    pub proof: NodeKind,
    /// The chosen column.
    pub col: usize,
    /// The chosen child's mean result for the side to move, 0..=1.
    pub winrate: f64,
    /// Iterations completed.
    pub iterations: u64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
}

/// Runs UCT from `root` until a limit is reached and returns the child with the best mean.
///
/// Returns `None` only when `root` has no legal move.
pub fn search<R: RngCore>(
    root: &Position,
    tree: &mut Tree,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut R,
) -> Option<SearchReport> {
    if root.open_columns() == 0 {
        return None;
    }
    // Plain UCT never reuses a tree: it is the unchanged baseline.
    tree.reset(limits.memory_bytes);
    let order = centre_first(root.cols());
    let tables = UcbTables::new();
    let mut scratch = root.clone();
    let mut path = [ROOT; MAX_PATH];
    let mut iterations = 0u64;
    loop {
        // At least one iteration always runs, so even a call that arrives past its deadline
        // answers with a move that was looked at.
        if limits.max_iterations.is_some_and(|m| iterations >= m)
            || (iterations > 0
                && iterations.is_multiple_of(CLOCK_EVERY)
                && Instant::now() >= limits.deadline)
        {
            break;
        }
        iterations += 1;
        scratch.clone_from(root);
        let (outcome, depth) = descend(tree, &mut scratch, &mut path, &order, config, &tables, rng);
        backup(tree, &path[..=depth], root.to_move(), outcome);
    }
    best_child(tree).map(|(col, winrate)| SearchReport {
        proof: NodeKind::Open,
        col,
        winrate,
        iterations,
        nodes: tree.len(),
    })
}

/// Walks from the root to a new leaf (or a terminal node), playing the moves on `scratch`,
/// then finishes the game. Returns the outcome and the depth of the last node on `path`.
#[inline]
fn descend<R: RngCore>(
    tree: &mut Tree,
    scratch: &mut Position,
    path: &mut [NodeId; MAX_PATH],
    order: &[u8],
    config: &SearchConfig,
    tables: &UcbTables,
    rng: &mut R,
) -> (Outcome, usize) {
    let mut node = ROOT;
    let mut depth = 0;
    loop {
        let n = *tree.node(node);
        if n.child_count == 0 {
            if n.visits == 0 && node != ROOT {
                return (random_playout(scratch, rng), depth);
            }
            if !tree.expand_columns(node, order, scratch.open_columns()) {
                // Memory cap reached: keep searching below this node with playouts only.
                return (random_playout(scratch, rng), depth);
            }
        }
        let child = select_child::<false>(tree, node, config.exploration, tables);
        let mover = scratch.to_move();
        let won = scratch.play(tree.node(child).col as usize);
        depth += 1;
        path[depth] = child;
        node = child;
        if won {
            tree.node_mut(child).kind = NodeKind::Win;
            return (Outcome::Win(mover), depth);
        }
        if scratch.empty_cells() == 0 {
            tree.node_mut(child).kind = NodeKind::Tie;
            return (Outcome::Tie, depth);
        }
    }
}

/// UCB1 over the children of `id`; an unvisited child is taken at once (infinite bound).
/// `SKIP_LOSSES` (the solver) never picks a child proven lost for the mover; plain UCT has
/// no proofs and skips the check in its hottest loop.
#[inline]
pub(super) fn select_child<const SKIP_LOSSES: bool>(
    tree: &Tree,
    id: NodeId,
    exploration: f32,
    tables: &UcbTables,
) -> NodeId {
    let parent = tree.node(id);
    let first = parent.first_child;
    // c * sqrt(2 ln N_parent / N) = [c * sqrt(2 ln N_parent)] * sqrt(1 / N): one ln per level.
    let scale = exploration * (2.0 * tables.ln(parent.visits.max(1))).sqrt();
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in tree.children(id).iter().enumerate() {
        // A proven loss for the mover is never worth a visit (only the solver proves them).
        if SKIP_LOSSES && child.kind == NodeKind::Loss {
            continue;
        }
        if child.visits == 0 {
            return first + i as NodeId;
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

/// Adds the outcome to every node on the path, each from the view of the side that moved
/// into it.
#[inline]
pub(super) fn backup(tree: &mut Tree, path: &[NodeId], root_mover: Side, outcome: Outcome) {
    // The root was "moved into" by the side not to move there; sides alternate downwards.
    let mut mover = root_mover.other();
    for &id in path {
        let node = tree.node_mut(id);
        node.visits += 1;
        node.half_points += outcome.half_points_for(mover);
        mover = mover.other();
    }
}

/// The root child with the best mean (ties go to the more visited), with that mean.
fn best_child(tree: &Tree) -> Option<(usize, f64)> {
    tree.children(ROOT)
        .iter()
        .filter(|c| c.visits > 0)
        .max_by(|a, b| a.mean().total_cmp(&b.mean()).then(a.visits.cmp(&b.visits)))
        .map(|c| (c.col as usize, c.mean()))
}

/// Columns ordered from the centre outwards: the first visits go to the moves that are
/// usually best, which matters only until every child has been tried once.
pub(super) fn centre_first(cols: usize) -> Vec<u8> {
    let mut order: Vec<u8> = (0..cols as u8).collect();
    order.sort_by_key(|&c| (2 * c as i32 - (cols as i32 - 1)).abs());
    order
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, after};
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    fn run(pos: &Position, iterations: u64) -> SearchReport {
        testing::run_fixed(search, pos, iterations, 1)
    }

    #[test]
    fn takes_an_immediate_win() {
        // Us has three on the bottom row (cols 0..2); col 3 wins.
        let pos = after(&[0, 0, 1, 1, 2, 2]);
        let report = run(&pos, 20_000);
        assert_eq!(report.col, 3);
        assert!(report.winrate > 0.95);
    }

    #[test]
    fn blocks_the_opponents_immediate_win() {
        // Them holds (5,1),(5,2),(5,3) next to Us at (5,0): Us must block at col 4.
        let pos = after(&[0, 1, 6, 2, 6, 3]);
        let report = run(&pos, 50_000);
        assert_eq!(report.col, 4, "{pos:?}");
    }

    #[test]
    fn counts_iterations_and_respects_the_memory_cap() {
        let pos = Position::new(12, 12, 5, 5).unwrap();
        let mut tree = Tree::default();
        let limits = SearchLimits {
            deadline: Instant::now() + Duration::from_secs(60),
            max_iterations: Some(10_000),
            memory_bytes: 1000 * 16,
        };
        let mut rng = SmallRng::seed_from_u64(3);
        let r = search(&pos, &mut tree, &SearchConfig::default(), &limits, &mut rng).unwrap();
        assert_eq!(r.iterations, 10_000);
        assert!(r.nodes <= 1000);
        assert_eq!(tree.node(ROOT).visits, 10_000);
    }

    #[test]
    fn stops_at_the_deadline() {
        let pos = Position::new(12, 12, 0, 0).unwrap();
        let start = Instant::now();
        let mut tree = Tree::default();
        let limits = SearchLimits::for_duration(Duration::from_millis(50), 64 << 20);
        let mut rng = SmallRng::seed_from_u64(3);
        search(&pos, &mut tree, &SearchConfig::default(), &limits, &mut rng).unwrap();
        // Generous bound: CI machines are shared; the judge measures the real overrun.
        assert!(start.elapsed() < Duration::from_millis(50 + 150));
    }
}
