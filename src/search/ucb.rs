//! The selection and backup both searches share: UCB1 over a node's children, and the
//! result added along the path an iteration walked.
//!
//! The plain UCT ([`uct`](super::uct)) and the strong search ([`strong`](super::strong))
//! differ in how they expand, play out and choose, not in how they walk the tree, so this
//! is written once; the strong search's proofs only add "never pick a proven loss", a
//! compile-time switch that leaves plain UCT's hottest loop without the check.

use super::outcome::Outcome;
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

/// Precomputed `1/2n`, `1/sqrt(n)` and `ln n` for small `n`.
pub struct UcbTables {
    /// `[1/2n, 1/sqrt(n)]` side by side: the pair UCB1 reads per child is one look-up.
    /// Half of `1/n` exactly (halving a float rounds nothing), so that a child's mean from
    /// its half points is one product, bit for bit the `half_points * 0.5 * (1/n)` it
    /// stands for.
    inv: Box<[[f32; 2]; TABLE_SIZE]>,
    ln: Box<[f32; TABLE_SIZE]>,
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
        let mut tables = UcbTables {
            inv: Box::new([[0.0; 2]; TABLE_SIZE]),
            ln: Box::new([0.0; TABLE_SIZE]),
        };
        for (i, (inv, ln)) in tables.inv.iter_mut().zip(tables.ln.iter_mut()).enumerate() {
            *inv = [0.5 * (1.0 / n(i)), 1.0 / n(i).sqrt()];
            *ln = n(i).ln();
        }
        tables
    }

    /// `(1/2n, 1/sqrt(n))`, from the table when `n` is small (`1/2n` as `0.5 * (1/n)`,
    /// the same number: halving is exact).
    #[inline(always)]
    pub fn half_inv_and_inv_sqrt(&self, n: u32) -> (f32, f32) {
        match self.inv.get(n as usize) {
            Some(&[half_inv, inv_sqrt]) => (half_inv, inv_sqrt),
            _ => {
                let inv = 1.0 / n as f32;
                (0.5 * inv, inv.sqrt())
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

/// UCB1 over the children of `id`; an unvisited child is taken at once (UCB1's infinite
/// bound). `SKIP_LOSSES` (the strong search) never picks a child proven lost for the mover;
/// plain UCT has no proofs and skips the check in its hottest loop.
#[inline]
pub fn select_child<const SKIP_LOSSES: bool>(
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
        // A proven loss for the mover is never worth a visit (only the strong search proves them).
        if SKIP_LOSSES && child.kind == NodeKind::Loss {
            continue;
        }
        if child.visits == 0 {
            return first + i as NodeId;
        }
        let (half_inv, inv_sqrt) = tables.half_inv_and_inv_sqrt(child.visits);
        // `half_points * 0.5 * inv` in one product: both round the same exact value.
        let score = child.half_points as f32 * half_inv + scale * inv_sqrt;
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

/// Tree parallelism's virtual loss ([`parallel`](super::parallel)): counts the visit of an
/// iteration whose playout is still running on every node of its path, with no result yet.
/// To the side choosing among siblings the path then looks lost once more, so the threads
/// spread over different leaves; [`backup_results`] adds the result when it comes.
#[inline]
pub fn add_virtual_loss(tree: &mut Tree, path: &[NodeId]) {
    for &id in path {
        tree.node_mut(id).visits += 1;
    }
}

/// [`backup`] for a path whose visits [`add_virtual_loss`] counted already: only the
/// results are added, so the two together are exactly one [`backup`].
#[inline]
pub fn backup_results(tree: &mut Tree, path: &[NodeId], root_mover: Side, outcome: Outcome) {
    let mut mover = root_mover.other();
    for &id in path {
        tree.node_mut(id).half_points += outcome.half_points_for(mover);
        mover = mover.other();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::ROOT;

    /// A root with three children: the first visited `visits` times with `half_points`, the
    /// other two unvisited.
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

    /// A child's mean as one product with the table's `1/2n` is bit for bit the
    /// `half_points * 0.5 * (1/n)` the search computed before (issue 39: same play).
    #[test]
    fn the_half_inverse_gives_the_same_means_bit_for_bit() {
        let tables = UcbTables::new();
        for n in (1..3 * TABLE_SIZE as u32).chain([1 << 20, 123_457, u32::MAX]) {
            let (half_inv, _) = tables.half_inv_and_inv_sqrt(n);
            let inv = 1.0 / n as f32;
            let twice = n.saturating_mul(2);
            for half_points in [0, 1, 3, n / 3, n, twice - 1, twice] {
                let old = half_points as f32 * 0.5 * inv;
                let new = half_points as f32 * half_inv;
                assert_eq!(old.to_bits(), new.to_bits(), "{half_points} / {n}");
            }
        }
    }

    #[test]
    fn an_untried_child_comes_first_and_a_proven_loss_never() {
        let tables = UcbTables::new();
        let tree = root_with_one_tried(9, 18);
        assert_eq!(select_child::<true>(&tree, ROOT, 0.5, &tables), 2);
        // All tried: the best mean plus exploration; a proven loss is skipped however good.
        let mut tree = root_with_one_tried(9, 18);
        for (child, half_points) in [(2, 9), (3, 0)] {
            let node = tree.node_mut(child);
            (node.visits, node.half_points) = (9, half_points);
        }
        assert_eq!(select_child::<true>(&tree, ROOT, 0.5, &tables), 1);
        tree.node_mut(1).kind = NodeKind::Loss;
        assert_eq!(select_child::<true>(&tree, ROOT, 0.5, &tables), 2);
        assert_eq!(select_child::<false>(&tree, ROOT, 0.5, &tables), 1);
    }

    /// A virtual loss and the results added later come to exactly one backup.
    #[test]
    fn a_virtual_loss_then_its_results_is_one_backup() {
        let mut once = root_with_one_tried(9, 18);
        let mut twice = root_with_one_tried(9, 18);
        let path = [ROOT, 1];
        let outcome = Outcome::Win(Side::Us);
        backup(&mut once, &path, Side::Us, outcome);
        add_virtual_loss(&mut twice, &path);
        assert_eq!(twice.node(1).visits, 10);
        assert_eq!(twice.node(1).half_points, 18);
        backup_results(&mut twice, &path, Side::Us, outcome);
        for id in path {
            let (a, b) = (once.node(id), twice.node(id));
            assert_eq!((a.visits, a.half_points), (b.visits, b.half_points));
        }
    }
}
