//! Monte-Carlo graph search: the strong search over a [`Graph`] of positions.
//!
//! The same knowledge as the tree search in [`strong`](super::strong) (tactical expansion,
//! threat sequences, MCTS-solver proofs, tactical playouts), on a graph where every position
//! is one node however it was reached, following KataGo's "Monte-Carlo Graph Search from
//! First Principles":
//! - A node's value is its first playout and its children's values weighted by edge visits,
//!   not the sum of the playouts that passed through it, so a position searched through one
//!   move order informs every other order at once.
//! - When an edge leads to a position already visited more often than the edge itself (it was
//!   searched through another order), the iteration stops there and only the edge catches up:
//!   no playout is spent on what is known.
//! - Proofs are facts about positions: a node proven through one parent is seen by the others
//!   the next time they pass through the edge.
//!
//! The graph persists between moves of a game and between games on one board, so the search
//! continues from whatever it already knows about the new root (tree reuse without matching
//! move sequences).

use super::graph::{Graph, GraphId, NIL};
use super::learned::Learned;
use super::playout::{random_playout, tactical_playout, tactical_playout_learned};
use super::threat_sequence::wins_by_threats;
use super::tree::NodeKind;
use super::ucb::{MAX_PATH, UcbTables, first_play_urgency, take_untried};
use super::{SearchConfig, SearchLimits, SearchReport, time_to_stop};
use crate::position::zobrist::position_key;
use crate::position::{MAX_SIZE, Position, centre_first};
use crate::threats::ThreatPosition;
use rand::RngCore;
use std::time::Instant;

/// How an iteration ended at the bottom of its path.
#[derive(Clone, Copy, Debug)]
enum Leaf {
    /// A playout from the last node on the path, scored for the player who moved into it.
    Playout(f64),
    /// The last node is proven (or was just proven): its value is exact.
    Proven,
    /// The last edge's position had more visits than the edge: no playout, the edge takes
    /// the node's value.
    Known,
    /// The graph is full and the last edge has no node: a playout scored for the player who
    /// made the last move, folded into the edge alone.
    EdgeOnly(f64),
}

/// Runs the graph search from `root`. Returns `None` only when `root` has no legal move.
///
/// `graph` keeps what earlier searches on the same board learned; it is prepared here.
/// Root moves in `excluded_root_moves` (bit per column) are marked lost: the exact solver
/// proved them.
pub fn search<R: RngCore>(
    root: &Position,
    excluded_root_moves: u16,
    graph: &mut Graph,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut R,
) -> Option<SearchReport> {
    if root.open_columns() == 0 {
        return None;
    }
    let root_tp = ThreatPosition::new(root.clone());
    let root_key = position_key(root_tp.key(), root.to_move());
    graph.prepare(root, root_key, limits.memory_bytes);
    let Some(root_id) = graph.find_or_insert(root_key) else {
        graph.clear();
        return search(root, excluded_root_moves, graph, config, limits, rng);
    };
    // The root is searched even when proven (it needs a move): its proof is re-derived from
    // its children.
    graph.node_mut(root_id).kind = NodeKind::Open;
    exclude_root_moves(graph, root_id, &root_tp, excluded_root_moves);
    let order = centre_first(root.cols());
    let tables = UcbTables::new();
    let mut scratch = root_tp.clone();
    let mut path = [(0 as GraphId, 0u32); MAX_PATH];
    let mut replies = Learned::new(&config.techniques, config.adaptation_rate);
    let mut iterations = 0u64;
    let start = Instant::now();
    loop {
        let root_proven = graph.node(root_id).kind != NodeKind::Open;
        let root_moves = || graph.edges(root_id).iter().map(|e| (e.kind, e.visits));
        if time_to_stop(iterations, start, config, limits, root_proven, root_moves) {
            break;
        }
        iterations += 1;
        scratch.clone_from(&root_tp);
        replies.begin(root.to_move());
        let (leaf, last, depth) = descend(
            graph,
            root_id,
            &mut scratch,
            &mut path,
            &mut replies,
            &order,
            config,
            &tables,
            rng,
        );
        backup(graph, &path[..depth], last, leaf);
    }
    choose(graph, root_id).map(|(col, winrate)| SearchReport {
        proof: match graph.node(root_id).kind {
            NodeKind::Win => NodeKind::Loss,
            NodeKind::Loss => NodeKind::Win,
            other => other,
        },
        col,
        winrate,
        iterations,
        nodes: graph.len(),
    })
}

/// Marks lost the positions after the root moves in `mask`, which the exact solver proved
/// lose: a fact about those positions, so the mark holds for every path to them.
fn exclude_root_moves(graph: &mut Graph, root_id: GraphId, root: &ThreatPosition, mask: u16) {
    let to_move = root.position().to_move().other();
    let mut cols = mask & root.position().open_columns();
    while cols != 0 {
        let col = cols.trailing_zeros() as usize;
        cols &= cols - 1;
        let key = position_key(root.key_after(col), to_move);
        if let Some(id) = graph.find_or_insert(key) {
            graph.node_mut(id).kind = NodeKind::Loss;
        }
    }
    // Refresh the snapshots of an already expanded root.
    let first = graph.node(root_id).first_edge;
    for e in first..first + u32::from(graph.node(root_id).edge_count) {
        let child = graph.edge(e).child;
        if child != NIL {
            let kind = graph.node(child).kind;
            graph.edge_mut(e).kind = kind;
        }
    }
}

/// Walks from the root to a leaf, playing the moves on `scratch` and recording each
/// `(node, edge)` step on `path`. Returns how the walk ended, the last node reached (or
/// [`NIL`] for [`Leaf::EdgeOnly`]) and the number of steps.
#[allow(clippy::too_many_arguments)] // the search's working set, passed rather than bundled
#[inline]
fn descend<R: RngCore>(
    graph: &mut Graph,
    root: GraphId,
    scratch: &mut ThreatPosition,
    path: &mut [(GraphId, u32); MAX_PATH],
    replies: &mut Learned,
    order: &[u8],
    config: &SearchConfig,
    tables: &UcbTables,
    rng: &mut R,
) -> (Leaf, GraphId, usize) {
    let mut node = root;
    let mut depth = 0;
    loop {
        let n = *graph.node(node);
        if n.kind != NodeKind::Open {
            return (Leaf::Proven, node, depth);
        }
        if n.edge_count == 0 {
            if n.visits == 0 && node != root {
                return (
                    Leaf::Playout(playout_for_mover(scratch, replies, config, rng)),
                    node,
                    depth,
                );
            }
            let tactics = scratch.tactics();
            let is_root = node == root;
            // The root always gets edges: the search must return a move.
            if !is_root
                && (tactics.wins != 0
                    || config.techniques.threat_sequences && wins_by_threats(scratch, &tactics))
            {
                graph.node_mut(node).kind = NodeKind::Loss;
                return (Leaf::Proven, node, depth);
            }
            let candidates = match tactics.candidates() {
                0 if is_root => tactics.open,
                c => c,
            };
            if candidates == 0 {
                graph.node_mut(node).kind = NodeKind::Win;
                return (Leaf::Proven, node, depth);
            }
            let mut cols = [0u8; MAX_SIZE];
            let mut len = 0;
            for &c in order.iter().filter(|&&c| candidates & (1 << c) != 0) {
                cols[len] = c;
                len += 1;
            }
            if !graph.expand(node, &cols[..len]) {
                return (
                    Leaf::Playout(playout_for_mover(scratch, replies, config, rng)),
                    node,
                    depth,
                );
            }
        }
        let e = select_edge(graph, node, config.exploration, config.first_play, tables);
        path[depth] = (node, e);
        depth += 1;
        let edge = *graph.edge(e);
        let mover = scratch.position().to_move();
        let col = edge.col as usize;
        if config.techniques.learns_playout_policy() {
            replies.record_move(scratch.position(), col);
        }
        let won = scratch.play(col);
        let full = !won && scratch.position().empty_cells() == 0;
        let mut child = edge.child;
        if child == NIL {
            child = graph
                .find_or_insert(position_key(scratch.key(), mover.other()))
                .unwrap_or(NIL);
            graph.edge_mut(e).child = child;
        }
        if child == NIL {
            let result = if won {
                graph.edge_mut(e).kind = NodeKind::Win;
                1.0
            } else if full {
                graph.edge_mut(e).kind = NodeKind::Tie;
                0.5
            } else {
                playout_for_mover(scratch, replies, config, rng)
            };
            return (Leaf::EdgeOnly(result), NIL, depth);
        }
        if won || full {
            graph.node_mut(child).kind = if won { NodeKind::Win } else { NodeKind::Tie };
            return (Leaf::Proven, child, depth);
        }
        let c = graph.node(child);
        if config.techniques.catch_up && c.visits > edge.visits && c.kind == NodeKind::Open {
            return (Leaf::Known, child, depth);
        }
        node = child;
    }
}

/// Finishes the game from `scratch` and scores it for the player who made the last move
/// (win 1, tie 0.5, loss 0). With a learned policy (last good replies, move averages), the
/// playout uses and then learns from `replies` (which holds the iteration's path so far).
#[inline(always)]
fn playout_for_mover<R: RngCore>(
    scratch: &mut ThreatPosition,
    replies: &mut Learned,
    config: &SearchConfig,
    rng: &mut R,
) -> f64 {
    let mover = scratch.position().to_move().other();
    let keep_threats = config.techniques.keep_threats;
    let outcome =
        if config.techniques.tactical_playouts && config.techniques.learns_playout_policy() {
            let outcome = tactical_playout_learned(scratch, keep_threats, replies, rng);
            replies.learn(outcome);
            outcome
        } else if config.techniques.tactical_playouts {
            tactical_playout(scratch, keep_threats, rng)
        } else {
            random_playout(scratch.position_for_playout(), rng)
        };
    f64::from(outcome.half_points_for(mover)) * 0.5
}

/// UCB1 over the edges of `id` on their children's values: an untried edge is taken at once
/// (centre first), or scored by first-play urgency with `first_play`; an edge into a proven
/// loss never.
#[inline]
fn select_edge(
    graph: &Graph,
    id: GraphId,
    exploration: f32,
    first_play: Option<f32>,
    tables: &UcbTables,
) -> u32 {
    let parent = graph.node(id);
    let first = parent.first_edge;
    let scale = exploration * (2.0 * tables.ln(parent.visits.max(1))).sqrt();
    let urgency =
        first_play.map(|offset| first_play_urgency(parent.value() as f32, parent.visits, offset));
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, e) in graph.edges(id).iter().enumerate() {
        if e.kind == NodeKind::Loss {
            continue;
        }
        if e.visits == 0 {
            if take_untried(urgency, first + i as u32, &mut best, &mut best_score) {
                return first + i as u32;
            }
            continue;
        }
        let score = e.q + scale * tables.inv_and_inv_sqrt(e.visits).1;
        if score > best_score {
            best_score = score;
            best = first + i as u32;
        }
    }
    best
}

/// Folds the iteration into the graph from the bottom up: the last node takes its playout,
/// then every edge on the path takes its child's new value and proof, its parent's sum is
/// adjusted by what that edge's share changed, and the parent is proven from its edges
/// while proofs keep coming (MCTS-solver), so the next edge up already sees the proof.
#[inline]
fn backup(graph: &mut Graph, path: &[(GraphId, u32)], last: GraphId, leaf: Leaf) {
    match leaf {
        Leaf::Playout(result) => {
            let n = graph.node_mut(last);
            n.visits += 1;
            n.sum += result;
        }
        Leaf::Proven => graph.node_mut(last).visits += 1,
        Leaf::Known | Leaf::EdgeOnly(_) => {}
    }
    let mut proving = true;
    for (i, &(parent, e)) in path.iter().enumerate().rev() {
        let edge = *graph.edge(e);
        let (q, kind) = match (leaf, edge.child) {
            (Leaf::EdgeOnly(result), NIL) if i + 1 == path.len() => {
                let q = (f64::from(edge.q) * f64::from(edge.visits) + result)
                    / f64::from(edge.visits + 1);
                (q as f32, edge.kind)
            }
            (_, NIL) => (edge.q, edge.kind),
            (_, child) => {
                let c = graph.node(child);
                (c.value() as f32, c.kind)
            }
        };
        // Shares use the stored f32 value on both sides, so the sum stays exactly the
        // visit-weighted mean of what the edges hold.
        let old_share = f64::from(edge.visits) * (1.0 - f64::from(edge.q));
        let new_share = f64::from(edge.visits + 1) * (1.0 - f64::from(q));
        let edge = graph.edge_mut(e);
        edge.visits += 1;
        edge.q = q;
        edge.kind = kind;
        proving &= graph.node(parent).kind == NodeKind::Open;
        if proving {
            let proof = match kind {
                NodeKind::Open => None,
                // The side to move at `parent` has a winning move: the parent's mover loses.
                NodeKind::Win => Some(NodeKind::Loss),
                NodeKind::Tie | NodeKind::Loss => best_proven(graph, parent),
            };
            match proof {
                Some(proof) => graph.node_mut(parent).kind = proof,
                None => proving = false,
            }
        }
        let p = graph.node_mut(parent);
        p.visits += 1;
        p.sum += new_share - old_share;
    }
}

/// If every edge of `id` leads to a proven position, the value of `id` for the player who
/// moved into it.
fn best_proven(graph: &Graph, id: GraphId) -> Option<NodeKind> {
    let mut any_tie = false;
    for e in graph.edges(id) {
        let kind = match e.child {
            NIL => e.kind,
            child => graph.node(child).kind,
        };
        match kind {
            NodeKind::Open => return None,
            NodeKind::Win => return Some(NodeKind::Loss),
            NodeKind::Tie => any_tie = true,
            NodeKind::Loss => {}
        }
    }
    Some(if any_tie {
        NodeKind::Tie
    } else {
        NodeKind::Win
    })
}

/// The move to play: a proven win at once; else the most visited move that is not a proven
/// loss, ties broken by the better value; a lost position plays its most visited move.
fn choose(graph: &Graph, root: GraphId) -> Option<(usize, f64)> {
    let edges = graph.edges(root);
    if let Some(win) = edges.iter().find(|e| e.kind == NodeKind::Win) {
        return Some((win.col as usize, 1.0));
    }
    let by_visits = |a: &&super::graph::Edge, b: &&super::graph::Edge| {
        a.visits.cmp(&b.visits).then(a.q.total_cmp(&b.q))
    };
    edges
        .iter()
        .filter(|e| e.kind != NodeKind::Loss)
        .max_by(by_visits)
        .or_else(|| edges.iter().max_by(by_visits))
        .map(|e| (e.col as usize, f64::from(e.q)))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{LEARNED_POLICIES, after, strong_with};
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::time::Duration;

    fn limits(iterations: u64, memory: usize) -> SearchLimits {
        SearchLimits {
            max_iterations: Some(iterations),
            ..SearchLimits::for_duration(Duration::from_secs(60), memory)
        }
    }

    fn run(pos: &Position, iterations: u64) -> (SearchReport, Graph) {
        run_with(&SearchConfig::strong(), pos, iterations)
    }

    /// `config`'s search of `pos` for `iterations`, seeded, in a fresh graph.
    fn run_with(config: &SearchConfig, pos: &Position, iterations: u64) -> (SearchReport, Graph) {
        let mut graph = Graph::default();
        let mut rng = SmallRng::seed_from_u64(5);
        let r = search(
            pos,
            0,
            &mut graph,
            config,
            &limits(iterations, 64 << 20),
            &mut rng,
        )
        .unwrap();
        (r, graph)
    }

    /// With every learned playout policy the search still proves a win in three (an
    /// open three on the bottom row), which only playouts and proofs that stay correct find.
    #[test]
    fn learned_policies_keep_the_search_correct() {
        let pos = after(&[2, 2, 3, 3]);
        for switches in LEARNED_POLICIES {
            let mut config = strong_with(switches);
            config.techniques.graph = true;
            let (r, _) = run_with(&config, &pos, 200_000);
            assert_eq!(r.proof, NodeKind::Win, "{switches}");
            assert!(r.col == 1 || r.col == 4, "{switches}: {r:?}");
        }
    }

    #[test]
    fn takes_an_immediate_win() {
        let (r, _) = run(&after(&[0, 0, 1, 1, 2, 2]), 1_000);
        assert_eq!(r.col, 3);
        assert_eq!(r.proof, NodeKind::Win);
    }

    #[test]
    fn blocks_the_opponents_immediate_win() {
        let (r, _) = run(&after(&[0, 1, 6, 2, 6, 3]), 5_000);
        assert_eq!(r.col, 4);
    }

    #[test]
    fn proves_small_boards_as_the_exact_solver_does() {
        use super::super::endgame::{EndgameTable, solve_root};
        for (rows, cols, blocked) in [
            (4, 4, (0, 0)),
            (4, 5, (3, 2)),
            (5, 4, (0, 3)),
            (5, 5, (4, 0)),
        ] {
            let pos = Position::new(rows, cols, blocked.0, blocked.1).unwrap();
            let (r, _) = run(&pos, 400_000);
            let mut table = EndgameTable::for_board(&pos);
            let far = Instant::now() + Duration::from_secs(60);
            let values = solve_root(&pos, &mut table, far).values;
            let best = values.iter().flatten().max().copied().unwrap();
            let expect = [NodeKind::Loss, NodeKind::Tie, NodeKind::Win][(best + 1) as usize];
            // Ties are rarely proven by MCTS-solver (the tree search proves none of these
            // either); a win must be, and any proof must be the exact one.
            assert!(
                r.proof == expect || r.proof == NodeKind::Open && expect == NodeKind::Tie,
                "{rows}x{cols} {blocked:?}: {r:?}, exact {expect:?}"
            );
        }
    }

    #[test]
    fn move_orders_reaching_one_position_share_one_node() {
        let root = after(&[]);
        let (_, graph) = run(&root, 20_000);
        let node_after = |cols: &[usize]| {
            let mut tp = ThreatPosition::new(root.clone());
            for &c in cols {
                tp.play(c);
            }
            graph.find(position_key(tp.key(), tp.position().to_move()))
        };
        let one = node_after(&[2, 3, 4]).expect("searched");
        assert_eq!(node_after(&[4, 3, 2]), Some(one));
        // The node's visits count iterations through either order (or that caught up on it).
        assert!(graph.node(one).visits > 1);
    }

    #[test]
    fn values_are_visit_weighted_means_of_the_children() {
        let (_, graph) = run(&after(&[3]), 20_000);
        // At every expanded, open node with fresh snapshots: sum = first playout + shares.
        let mut checked = 0;
        for id in 0..graph.len() as GraphId {
            let n = graph.node(id);
            if n.kind != NodeKind::Open || n.edge_count == 0 {
                continue;
            }
            let edge_visits: u32 = graph.edges(id).iter().map(|e| e.visits).sum();
            assert!(n.visits >= edge_visits, "{n:?}");
            let shares: f64 = graph
                .edges(id)
                .iter()
                .map(|e| f64::from(e.visits) * (1.0 - f64::from(e.q)))
                .sum();
            let own = n.sum - shares;
            // What is left is the node's own playouts (one, or more once the arena was full).
            assert!(
                own > -1e-3 && own <= f64::from(n.visits - edge_visits) + 1e-3,
                "{own} {n:?}"
            );
            checked += 1;
        }
        assert!(checked > 100);
    }

    #[test]
    fn respects_the_memory_cap_and_keeps_searching() {
        let pos = Position::new(12, 12, 5, 5).unwrap();
        let mut graph = Graph::default();
        let mut rng = SmallRng::seed_from_u64(3);
        let r = search(
            &pos,
            0,
            &mut graph,
            &SearchConfig::strong(),
            &limits(20_000, 200 * 96),
            &mut rng,
        )
        .unwrap();
        assert_eq!(r.iterations, 20_000);
        assert!(graph.len() <= 200);
    }

    #[test]
    fn continues_from_what_it_knows_about_the_next_root() {
        let root = after(&[]);
        let mut graph = Graph::default();
        let mut rng = SmallRng::seed_from_u64(9);
        let config = SearchConfig::strong();
        let r = search(
            &root,
            0,
            &mut graph,
            &config,
            &limits(20_000, 64 << 20),
            &mut rng,
        )
        .unwrap();
        let mut next = root.clone();
        next.play(r.col);
        next.play(3);
        let key = position_key(ThreatPosition::new(next.clone()).key(), next.to_move());
        let known = graph.find(key).map_or(0, |id| graph.node(id).visits);
        assert!(known > 0, "the reply was searched");
        search(
            &next,
            0,
            &mut graph,
            &config,
            &limits(1_000, 64 << 20),
            &mut rng,
        )
        .unwrap();
        let id = graph.find(key).unwrap();
        assert!(graph.node(id).visits >= known + 1_000 - 1);
    }
}
