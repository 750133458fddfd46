//! The search graph: one node per position, whatever move order reached it.
//!
//! Connect-4 positions only ever gain stones, so the graph has no cycles, and a position
//! reached by different move orders is one node whose statistics every order shares
//! (Monte-Carlo graph search; Czech, Korus and Kersting 2021, and KataGo's "Monte-Carlo Graph
//! Search from First Principles").
//!
//! ```text
//!  nodes  [ key | sum | visits | first_edge | edge_count | kind ]   32 bytes, one per position
//!  edges  [ child | visits | q | col | kind ]                       16 bytes, one per move tried
//!  slots  open addressing, key -> node id + 1 (0 = empty)            4 bytes, 2+ per node
//! ```
//!
//! A node's value is the mean of its own first playout and its children's values weighted by
//! the visits of the edges to them: `sum = u + sum_e N_e * (1 - q_e)`, `visits = 1 + sum_e N_e`.
//! Each edge keeps the value of its child as of its last traversal (`q`), so choosing among
//! siblings reads one contiguous run of edges and never chases the children; the snapshot is
//! refreshed whenever the search passes through the edge.
//!
//! The graph stays valid as long as the board (size and blocked cell) does: every node is a
//! fact about a position. [`Graph::prepare`] keeps it between moves and games on one board and
//! compacts it to what the new root can still reach once it fills half its memory.

use super::tree::NodeKind;
use crate::position::Position;

/// Index of a node in the [`Graph`].
pub type GraphId = u32;

/// No node: an edge whose child has not been created yet.
pub const NIL: GraphId = GraphId::MAX;

/// Bytes a node costs on average with its share of edges and hash slots, for sizing.
const BYTES_PER_NODE: usize = 96;

/// One position.
#[derive(Clone, Copy, Debug)]
pub struct GraphNode {
    /// Position key ([`crate::position::zobrist::position_key`]: stones and side to move).
    pub key: u64,
    /// The node's first playout result plus `N_e * (1 - q_e)` over its edges, for the player
    /// who moved into the node (so `sum / visits` is that player's mean, in 0..=1).
    pub sum: f64,
    /// One for the node's own first result plus the visits of its edges.
    pub visits: u32,
    /// First edge in the edge arena; meaningful when `edge_count > 0`.
    pub first_edge: u32,
    /// Number of edges; 0 until the node is expanded.
    pub edge_count: u8,
    /// What is proven for the player who moved into the node.
    pub kind: NodeKind,
}

impl GraphNode {
    fn new(key: u64) -> GraphNode {
        GraphNode {
            key,
            sum: 0.0,
            visits: 0,
            first_edge: 0,
            edge_count: 0,
            kind: NodeKind::Open,
        }
    }

    /// The value for the player who moved into the node, in 0..=1: exact when proven, the
    /// mean otherwise (0.5 before any visit).
    #[inline]
    pub fn value(&self) -> f64 {
        match self.kind {
            NodeKind::Win => 1.0,
            NodeKind::Loss => 0.0,
            NodeKind::Tie => 0.5,
            NodeKind::Open if self.visits == 0 => 0.5,
            NodeKind::Open => self.sum / f64::from(self.visits),
        }
    }
}

/// A move from a node, with the statistics of the search through it.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The position the move leads to, or [`NIL`] until the search first plays it.
    pub child: GraphId,
    /// Iterations that went through this edge.
    pub visits: u32,
    /// The child's value for the side that plays this move, as of the last traversal.
    pub q: f32,
    /// The column played.
    pub col: u8,
    /// The child's proof as of the last traversal (for the side that plays this move).
    pub kind: NodeKind,
}

impl Edge {
    fn new(col: u8) -> Edge {
        Edge {
            child: NIL,
            visits: 0,
            q: 0.5,
            col,
            kind: NodeKind::Open,
        }
    }
}

/// The board a graph belongs to: its nodes are facts about positions on this board only.
type Board = (usize, usize, (usize, usize));

/// The node and edge arenas and the position index.
#[derive(Debug, Default)]
pub struct Graph {
    nodes: Vec<GraphNode>,
    edges: Vec<Edge>,
    /// Open addressing over `key`: node id + 1, 0 for an empty slot.
    slots: Vec<u32>,
    max_nodes: usize,
    max_edges: usize,
    board: Option<Board>,
}

impl Graph {
    /// Makes the graph ready for a search from `root` within `memory_bytes`: kept as it is
    /// on the same board (compacted to what `root` reaches once half full), emptied for
    /// another board or a new memory cap.
    pub fn prepare(&mut self, root: &Position, root_key: u64, memory_bytes: usize) {
        let board = (root.rows(), root.cols(), root.blocked());
        let max_nodes = (memory_bytes / BYTES_PER_NODE).clamp(16, (NIL - 1) as usize);
        if self.board != Some(board) || self.max_nodes != max_nodes {
            self.reset(max_nodes, memory_bytes);
            self.board = Some(board);
        } else if self.nodes.len() * 2 > self.max_nodes || self.edges.len() * 2 > self.max_edges {
            self.compact(root_key);
        }
    }

    /// Empties the graph and sizes it: `max_nodes` nodes, twice as many hash slots (rounded
    /// up to a power of two), the rest of `memory_bytes` for edges.
    fn reset(&mut self, max_nodes: usize, memory_bytes: usize) {
        let slots = (2 * max_nodes).next_power_of_two();
        let used = max_nodes * std::mem::size_of::<GraphNode>() + slots * 4;
        self.max_nodes = max_nodes;
        self.max_edges = (memory_bytes.saturating_sub(used) / std::mem::size_of::<Edge>())
            .clamp(16, (u32::MAX - 1) as usize);
        self.nodes = Vec::with_capacity(self.max_nodes);
        self.edges = Vec::with_capacity(self.max_edges);
        // Zeroed by the allocator: untouched pages cost no memory.
        self.slots = vec![0; slots];
    }

    /// Empties the graph but keeps its size and board.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.slots.fill(0);
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True iff the graph has no node.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node at `id`.
    #[inline]
    pub fn node(&self, id: GraphId) -> &GraphNode {
        &self.nodes[id as usize]
    }

    /// The node at `id`, mutably.
    #[inline]
    pub fn node_mut(&mut self, id: GraphId) -> &mut GraphNode {
        &mut self.nodes[id as usize]
    }

    /// The edges of `id` (empty before expansion).
    #[inline]
    pub fn edges(&self, id: GraphId) -> &[Edge] {
        let n = &self.nodes[id as usize];
        &self.edges[n.first_edge as usize..n.first_edge as usize + n.edge_count as usize]
    }

    /// The edge at absolute index `e`.
    #[inline]
    pub fn edge(&self, e: u32) -> &Edge {
        &self.edges[e as usize]
    }

    /// The edge at absolute index `e`, mutably.
    #[inline]
    pub fn edge_mut(&mut self, e: u32) -> &mut Edge {
        &mut self.edges[e as usize]
    }

    #[inline]
    fn slot_of(&self, key: u64) -> usize {
        // Fibonacci hashing spreads Zobrist keys' low bits, which are already random, evenly.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & (self.slots.len() - 1)
    }

    /// Where `key` is: its node, or the empty slot where it would go.
    #[inline]
    fn probe(&self, key: u64) -> Result<GraphId, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = self.slot_of(key);
        loop {
            match self.slots[slot] {
                0 => return Err(slot),
                id if self.nodes[id as usize - 1].key == key => return Ok(id - 1),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// The node of the position with `key`, if the graph has it.
    #[inline]
    pub fn find(&self, key: u64) -> Option<GraphId> {
        if self.slots.is_empty() {
            return None;
        }
        self.probe(key).ok()
    }

    /// The node of the position with `key`, created unvisited if new; `None` when the graph
    /// is full (the search then goes on without growing).
    #[inline]
    pub fn find_or_insert(&mut self, key: u64) -> Option<GraphId> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = match self.probe(key) {
            Ok(id) => return Some(id),
            Err(slot) => slot,
        };
        if self.nodes.len() >= self.max_nodes {
            return None;
        }
        let id = self.nodes.len() as GraphId;
        self.nodes.push(GraphNode::new(key));
        self.slots[slot] = id + 1;
        Some(id)
    }

    /// Gives `id` one edge per column in `cols`, in that order. Returns false, changing
    /// nothing, when the edge arena is full.
    pub fn expand(&mut self, id: GraphId, cols: &[u8]) -> bool {
        let first = self.edges.len();
        if cols.is_empty() || first + cols.len() > self.max_edges {
            return false;
        }
        self.edges.extend(cols.iter().map(|&c| Edge::new(c)));
        let node = &mut self.nodes[id as usize];
        node.first_edge = first as u32;
        node.edge_count = cols.len() as u8;
        true
    }

    /// Keeps only the nodes reachable from the node with `root_key` (all of them dropped if
    /// there is none), with their statistics, edges and proofs.
    fn compact(&mut self, root_key: u64) {
        let Some(root) = self.find(root_key) else {
            self.clear();
            return;
        };
        let mut remap = vec![NIL; self.nodes.len()];
        let mut nodes = Vec::with_capacity(self.max_nodes);
        let mut edges = Vec::with_capacity(self.max_edges);
        let mut order = vec![root];
        remap[root as usize] = 0;
        nodes.push(self.nodes[root as usize]);
        let mut next = 0;
        while next < order.len() {
            let old = self.nodes[order[next] as usize];
            if old.edge_count > 0 {
                let first = edges.len() as u32;
                for e in &self.edges[old.first_edge as usize..][..old.edge_count as usize] {
                    let mut e = *e;
                    if e.child != NIL {
                        if remap[e.child as usize] == NIL {
                            remap[e.child as usize] = nodes.len() as GraphId;
                            nodes.push(self.nodes[e.child as usize]);
                            order.push(e.child);
                        }
                        e.child = remap[e.child as usize];
                    }
                    edges.push(e);
                }
                nodes[next].first_edge = first;
            }
            next += 1;
        }
        self.nodes = nodes;
        self.edges = edges;
        self.slots.fill(0);
        for id in 0..self.nodes.len() {
            if let Err(slot) = self.probe(self.nodes[id].key) {
                self.slots[slot] = id as u32 + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Position {
        Position::new(6, 7, 0, 6).unwrap()
    }

    #[test]
    fn sizes_are_as_drawn() {
        assert_eq!(std::mem::size_of::<GraphNode>(), 32);
        assert_eq!(std::mem::size_of::<Edge>(), 16);
    }

    #[test]
    fn one_node_per_key_and_the_caps_hold() {
        let mut g = Graph::default();
        g.prepare(&board(), 1, 16 * BYTES_PER_NODE);
        assert_eq!(g.max_nodes, 16);
        let a = g.find_or_insert(7).unwrap();
        assert_eq!(g.find_or_insert(7), Some(a));
        assert_eq!(g.find(8), None);
        for k in 100..115 {
            assert!(g.find_or_insert(k).is_some());
        }
        assert_eq!(g.len(), 16);
        assert_eq!(g.find_or_insert(999), None, "full");
        assert_eq!(g.find(7), Some(a), "still found when full");
    }

    #[test]
    fn compaction_keeps_exactly_what_the_root_reaches() {
        let mut g = Graph::default();
        g.prepare(&board(), 1, 1 << 20);
        let dropped = g.find_or_insert(1).unwrap();
        let root = g.find_or_insert(2).unwrap();
        let (x, y) = (g.find_or_insert(3).unwrap(), g.find_or_insert(4).unwrap());
        assert!(g.expand(dropped, &[0, 1]));
        assert!(g.expand(root, &[2, 3]));
        assert!(g.expand(x, &[5]));
        let (r0, r1) = (g.node(root).first_edge, g.node(root).first_edge + 1);
        g.edge_mut(r0).child = x;
        g.edge_mut(r1).child = y;
        let x0 = g.node(x).first_edge;
        g.edge_mut(x0).child = y; // two paths to y: it must be kept once
        g.node_mut(y).visits = 5;
        g.node_mut(y).kind = NodeKind::Win;
        g.compact(2);
        assert_eq!(g.len(), 3);
        assert_eq!(g.find(1), None);
        let y = g.find(4).unwrap();
        assert_eq!(g.node(y).visits, 5);
        assert_eq!(g.node(y).kind, NodeKind::Win);
        let root = g.find(2).unwrap();
        assert_eq!(root, 0);
        let cols: Vec<u8> = g.edges(root).iter().map(|e| e.col).collect();
        assert_eq!(cols, [2, 3]);
        let x = g.find(3).unwrap();
        assert_eq!(g.edges(x)[0].child, y);
        assert_eq!(g.edges(root)[1].child, y);
    }

    #[test]
    fn another_board_empties_it() {
        let mut g = Graph::default();
        g.prepare(&board(), 1, 1 << 20);
        g.find_or_insert(5).unwrap();
        g.prepare(&board(), 1, 1 << 20);
        assert_eq!(g.len(), 1, "same board: kept");
        g.prepare(&Position::new(7, 7, 0, 0).unwrap(), 1, 1 << 20);
        assert!(g.is_empty());
    }
}
