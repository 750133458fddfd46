//! The search tree: an arena of nodes addressed by `u32` indices. Nodes hold statistics and
//! the move that reaches them, never a board: the search replays the moves of its path on one
//! scratch board.
//!
//! A node's children are allocated together, in one contiguous run, when the node is
//! expanded; the arena never holds more than its cap, after which the tree stops growing and
//! the search goes on from its leaves.

/// Index of a node in the [`Tree`].
pub type NodeId = u32;

/// The root is always the first node.
pub const ROOT: NodeId = 0;

/// The move of a pass (array index 0 is a border cell, never a point).
pub const PASS: u16 = 0;

/// The smallest node cap: room for a root and all its children on the largest board.
pub const MIN_NODES: usize = 1024;

/// One position of the tree, reached from its parent by `mv`. Every result is kept from the
/// side of the player who made `mv`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Node {
    /// The board index played to reach this node, or [`PASS`].
    pub mv: u16,
    /// Number of children; 0 until expanded.
    pub child_count: u16,
    /// First child in the arena (meaningful when `child_count > 0`).
    pub first_child: NodeId,
    /// Iterations through this node (a virtual loss until the result is backed up).
    pub visits: u32,
    /// Sum of results (win 1, draw 0.5) of those iterations.
    pub wins: f32,
    /// AMAF (all-moves-as-first) iterations: `mv` played later by the same side.
    pub amaf_visits: f32,
    /// Sum of results of the AMAF iterations.
    pub amaf_wins: f32,
    /// Prior knowledge as virtual iterations, and the wins among them.
    pub prior_visits: f32,
    /// Wins among the prior's virtual iterations.
    pub prior_wins: f32,
}

impl Node {
    /// A fresh node for `mv` with a prior of `prior_wins` out of `prior_visits`.
    pub fn new(mv: u16, prior_visits: f32, prior_wins: f32) -> Node {
        Node {
            mv,
            prior_visits,
            prior_wins,
            ..Node::default()
        }
    }

    /// The mean of real results for the player who made `mv` (0.5 before any).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            f64::from(self.wins) / f64::from(self.visits)
        }
    }
}

/// The node arena.
#[derive(Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    max_nodes: usize,
}

impl Tree {
    /// A tree with a lone root that will hold at most `max_nodes` nodes (at least
    /// [`MIN_NODES`]).
    pub fn new(max_nodes: usize) -> Tree {
        let mut tree = Tree {
            nodes: Vec::new(),
            max_nodes: max_nodes.clamp(MIN_NODES, NodeId::MAX as usize),
        };
        tree.reset();
        tree
    }

    /// Back to a lone root, keeping the allocation.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(PASS, 0.0, 0.0));
    }

    /// Changes the node cap (effective for later expansions).
    pub fn set_max_nodes(&mut self, max_nodes: usize) {
        self.max_nodes = max_nodes.clamp(MIN_NODES, NodeId::MAX as usize);
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: there is always a root (for clippy's `len` rule).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node at `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node at `id`, mutably.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// The ids of the children of `id`.
    #[inline]
    pub fn children(&self, id: NodeId) -> std::ops::Range<NodeId> {
        let n = &self.nodes[id as usize];
        n.first_child..n.first_child + NodeId::from(n.child_count)
    }

    /// Gives `id` the children `nodes`; false (nothing changed) when the cap leaves no room or
    /// there is nothing to add.
    pub fn expand(&mut self, id: NodeId, nodes: &[Node]) -> bool {
        let first = self.nodes.len();
        if nodes.is_empty() || first + nodes.len() > self.max_nodes {
            return false;
        }
        self.nodes.extend_from_slice(nodes);
        let node = &mut self.nodes[id as usize];
        node.first_child = first as NodeId;
        node.child_count = nodes.len() as u16;
        true
    }

    /// Forgets the children of `id` (their subtrees become unreachable garbage until the next
    /// reroot or reset).
    pub fn drop_children(&mut self, id: NodeId) {
        self.nodes[id as usize].child_count = 0;
    }

    /// The child of `id` reached by `mv`, if the tree has it.
    pub fn child_by_move(&self, id: NodeId, mv: u16) -> Option<NodeId> {
        self.children(id).find(|&c| self.nodes[c as usize].mv == mv)
    }

    /// Keeps only the subtree under `id`, which becomes the root. The subtree is copied
    /// breadth-first so that siblings stay contiguous.
    pub fn reroot(&mut self, id: NodeId) {
        if id == ROOT {
            return;
        }
        let mut kept: Vec<Node> = Vec::with_capacity(self.nodes.len());
        let mut from: Vec<NodeId> = vec![id];
        kept.push(self.nodes[id as usize]);
        let mut next = 0;
        while next < kept.len() {
            let old = self.nodes[from[next] as usize];
            if old.child_count > 0 {
                kept[next].first_child = kept.len() as NodeId;
                for c in self.children(from[next]) {
                    kept.push(self.nodes[c as usize]);
                    from.push(c);
                }
            }
            next += 1;
        }
        self.nodes = kept;
    }

    /// The most visited child of `id` (ties to the first), if it has children.
    pub fn best_child(&self, id: NodeId) -> Option<NodeId> {
        self.children(id)
            .max_by_key(|&c| (self.nodes[c as usize].visits, std::cmp::Reverse(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_respects_the_cap() {
        let mut tree = Tree::new(4);
        let many = vec![Node::new(5, 1.0, 0.5); MIN_NODES - 3];
        assert!(
            tree.expand(ROOT, &many),
            "a tiny cap is raised to MIN_NODES"
        );
        assert!(tree.expand(1, &many[..2]));
        assert!(
            !tree.expand(2, &many[..1]),
            "one more node would pass the cap"
        );
        assert_eq!(tree.len(), MIN_NODES);
        let mut tree = Tree::new(100);
        let kids = [
            Node::new(5, 1.0, 0.5),
            Node::new(6, 1.0, 0.5),
            Node::new(PASS, 1.0, 0.0),
        ];
        assert!(tree.expand(ROOT, &kids));
        assert_eq!(tree.child_by_move(ROOT, 6), Some(2));
        assert_eq!(tree.child_by_move(ROOT, 7), None);
    }

    #[test]
    fn reroot_keeps_exactly_the_subtree() {
        let mut tree = Tree::new(100);
        tree.expand(ROOT, &[Node::new(1, 0.0, 0.0), Node::new(2, 0.0, 0.0)]); // 1, 2
        tree.expand(2, &[Node::new(3, 0.0, 0.0), Node::new(4, 0.0, 0.0)]); // 3, 4
        tree.expand(4, &[Node::new(5, 0.0, 0.0)]); // 5
        tree.node_mut(4).visits = 7;
        tree.node_mut(5).visits = 2;
        tree.reroot(2);
        assert_eq!(tree.len(), 4);
        let four = tree.child_by_move(ROOT, 4).unwrap();
        assert_eq!(tree.node(four).visits, 7);
        assert_eq!(tree.best_child(ROOT), Some(four));
        let five = tree.child_by_move(four, 5).unwrap();
        assert_eq!(tree.node(five).visits, 2);
    }
}
