//! The search tree: a flat arena of 16-byte nodes addressed by `u32` indices.
//!
//! A node's children are allocated together, in one contiguous run, the first time the
//! search walks through it, so choosing among siblings reads one or two cache lines.

use crate::position::MAX_SIZE;

/// Index of a node in the [`Tree`] arena.
pub type NodeId = u32;

/// The root is always the first node.
pub const ROOT: NodeId = 0;

/// What is proven about the game at a node, for the player who moved INTO it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeKind {
    /// Nothing proven (or not yet reached).
    Open = 0,
    /// The mover wins: the move made four, or (strong search) the opponent loses whatever it plays.
    Win = 1,
    /// A tie: the move filled the board, or (strong search) best play from here ties.
    Tie = 2,
    /// The mover loses by force: the opponent has a winning reply (strong search only).
    Loss = 3,
}

/// One position of the tree, reached from its parent by dropping a stone in `col`.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Times an iteration passed through this node.
    pub visits: u32,
    /// Sum of results for the player who moved INTO this node, in half points
    /// (win 2, tie 1, loss 0): integers add exactly where an `f32` would round.
    pub half_points: u32,
    /// First child in the arena; meaningful only when `child_count > 0`.
    pub first_child: NodeId,
    /// Number of children; 0 until the node is expanded.
    pub child_count: u8,
    /// The column played to reach this node from its parent.
    pub col: u8,
    /// Terminal status, learned the first time the move into the node is played.
    pub kind: NodeKind,
}

impl Node {
    fn new(col: u8) -> Node {
        Node {
            visits: 0,
            half_points: 0,
            first_child: 0,
            child_count: 0,
            col,
            kind: NodeKind::Open,
        }
    }

    /// Mean result for the player who moved into this node, in 0..=1.
    #[inline]
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            f64::from(self.half_points) / (2.0 * f64::from(self.visits))
        }
    }
}

/// The node arena. It keeps its allocation between searches so a new search does not
/// page-fault its way through fresh memory again.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    max_nodes: usize,
    /// The second buffer `reroot` copies a kept subtree into (then the two swap).
    spare: Vec<Node>,
}

impl Tree {
    /// An empty tree that will never hold more than `max_bytes` of nodes.
    pub fn with_memory_cap(max_bytes: usize) -> Tree {
        let mut tree = Tree::default();
        tree.reset(max_bytes);
        tree
    }

    /// Clears the tree to a lone root, keeping the allocation, with a new memory cap.
    pub fn reset(&mut self, max_bytes: usize) {
        self.max_nodes = (max_bytes / std::mem::size_of::<Node>()).clamp(1, NodeId::MAX as usize);
        self.nodes.clear();
        if self.nodes.capacity() < self.max_nodes {
            // Reserve the whole cap once: untouched pages cost no memory, and the search
            // never stops for a reallocation that would copy the tree mid-move.
            self.nodes.reserve_exact(self.max_nodes);
        }
        self.nodes.push(Node::new(u8::MAX));
    }

    /// Makes the tree ready for a search with a new memory cap: a lone root if it is empty,
    /// otherwise (a subtree kept by [`Tree::reroot`]) as it is.
    pub fn prepare(&mut self, max_bytes: usize) {
        if self.nodes.is_empty() {
            self.reset(max_bytes);
        } else {
            self.max_nodes =
                (max_bytes / std::mem::size_of::<Node>()).clamp(1, NodeId::MAX as usize);
            if self.nodes.capacity() < self.max_nodes {
                self.nodes.reserve_exact(self.max_nodes - self.nodes.len());
            }
        }
    }

    /// Empties the tree (the next [`Tree::prepare`] starts from a lone root).
    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    /// Keeps only the subtree under `id`, which becomes the root; its proof is forgotten so
    /// the search re-derives it from the children. Siblings of each kept node stay
    /// contiguous: the subtree is copied breadth-first into the spare buffer.
    pub fn reroot(&mut self, id: NodeId) {
        let mut kept = std::mem::take(&mut self.spare);
        kept.clear();
        if kept.capacity() < self.max_nodes {
            kept.reserve_exact(self.max_nodes);
        }
        let mut from: Vec<NodeId> = vec![id];
        kept.push(self.nodes[id as usize]);
        let mut next = 0;
        while next < kept.len() {
            let old = from[next];
            let node = self.nodes[old as usize];
            if node.child_count > 0 {
                let first = kept.len() as NodeId;
                for k in 0..NodeId::from(node.child_count) {
                    kept.push(self.nodes[(node.first_child + k) as usize]);
                    from.push(node.first_child + k);
                }
                kept[next].first_child = first;
            }
            next += 1;
        }
        kept[0].kind = NodeKind::Open;
        self.spare = std::mem::replace(&mut self.nodes, kept);
    }

    /// Marks the root's children in the columns of `mask` (bit per column) as proven losses
    /// for the side to move at the root. No-op on an empty or unexpanded tree.
    pub fn mark_root_losses(&mut self, mask: u16) {
        if self.nodes.is_empty() || mask == 0 {
            return;
        }
        let root = self.nodes[ROOT as usize];
        let first = root.first_child as usize;
        for node in &mut self.nodes[first..first + root.child_count as usize] {
            if mask & (1 << node.col) != 0 {
                node.kind = NodeKind::Loss;
            }
        }
    }

    /// The child of `id` reached by playing `col`, if the tree has it (`None` also when
    /// `id` is not in the tree, e.g. the tree is empty because the last move was played
    /// without a search).
    pub fn child_by_col(&self, id: NodeId, col: usize) -> Option<NodeId> {
        let node = self.nodes.get(id as usize)?;
        (0..NodeId::from(node.child_count))
            .map(|k| node.first_child + k)
            .find(|&c| self.nodes[c as usize].col as usize == col)
    }

    /// Number of nodes allocated.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True iff the tree has no nodes (after [`Tree::clear`]; `reset` leaves a root).
    #[inline]
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

    /// The children of `id` as a slice (empty before expansion).
    #[inline]
    pub fn children(&self, id: NodeId) -> &[Node] {
        let n = &self.nodes[id as usize];
        let start = n.first_child as usize;
        &self.nodes[start..start + n.child_count as usize]
    }

    /// Gives `id` one child per column of `mask` (bit per column), in the order `order`
    /// lists them (centre first, so the first visits go to the usually best moves). Returns
    /// false, changing nothing, when the memory cap leaves no room.
    #[inline]
    pub fn expand_columns(&mut self, id: NodeId, order: &[u8], mask: u16) -> bool {
        let mut cols = [0u8; MAX_SIZE];
        let mut len = 0;
        for &c in order.iter().filter(|&&c| mask & (1 << c) != 0) {
            cols[len] = c;
            len += 1;
        }
        self.expand(id, &cols[..len])
    }

    /// Gives `id` one child per column in `cols`, in that order. Returns false, changing
    /// nothing, when the memory cap leaves no room: the tree stops growing, the search goes on.
    pub fn expand(&mut self, id: NodeId, cols: &[u8]) -> bool {
        let first = self.nodes.len();
        if first + cols.len() > self.max_nodes || cols.is_empty() {
            return false;
        }
        self.nodes.extend(cols.iter().map(|&c| Node::new(c)));
        let node = &mut self.nodes[id as usize];
        node.first_child = first as NodeId;
        node.child_count = cols.len() as u8;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
    }

    #[test]
    fn expansion_respects_the_memory_cap() {
        let mut tree = Tree::with_memory_cap(4 * 16);
        assert!(tree.expand(ROOT, &[0, 1, 2]));
        assert_eq!(tree.children(ROOT).len(), 3);
        assert!(
            !tree.expand(1, &[0, 1]),
            "5 nodes would exceed a 4-node cap"
        );
        assert_eq!(tree.len(), 4);
        assert_eq!(tree.node(1).child_count, 0);
    }

    #[test]
    fn reroot_keeps_exactly_the_subtree() {
        let mut tree = Tree::with_memory_cap(1 << 20);
        tree.expand(ROOT, &[0, 1, 2]); // nodes 1..=3
        tree.expand(2, &[4, 5]); // children of col 1: nodes 4, 5
        tree.expand(5, &[6]); // node 6 under col 5
        tree.node_mut(5).visits = 7;
        tree.node_mut(6).visits = 3;
        tree.node_mut(2).kind = NodeKind::Win;
        tree.reroot(2);
        assert_eq!(tree.len(), 4);
        assert_eq!(tree.node(ROOT).kind, NodeKind::Open);
        let cols: Vec<u8> = tree.children(ROOT).iter().map(|n| n.col).collect();
        assert_eq!(cols, [4, 5]);
        let five = tree.child_by_col(ROOT, 5).unwrap();
        assert_eq!(tree.node(five).visits, 7);
        let six = tree.child_by_col(five, 6).unwrap();
        assert_eq!(tree.node(six).visits, 3);
        assert_eq!(tree.child_by_col(ROOT, 9), None);
    }
}
