//! The strong profile's search: UCT with proofs (MCTS-solver), tactical expansion and
//! tactical playouts. (The exact solver for the last empty cells is [`endgame`](super::endgame);
//! the proofs here are the Monte-Carlo kind, learned from the tree.)
//!
//! It walks the same [`tree`](super::tree) with the same selection and backup
//! ([`ucb`](super::ucb)) as plain [`uct`](super::uct); the differences:
//! - Positions carry their threats ([`ThreatPosition`]), so every node and playout ply knows
//!   its immediate wins, forced blocks and moves that let the opponent win on top.
//! - Expansion adds only [`Tactics::candidates`](crate::threats::Tactics::candidates): a
//!   winning move proves the node at once, a forced block is the only child, moves that
//!   lose on the spot are left out.
//! - Proofs: terminal and tactically decided nodes are proven wins, losses or ties for the
//!   player who moved into them, and proofs climb the tree (a node is lost for its mover if
//!   any child wins for the opponent; decided when all children are). Selection skips proven
//!   losses, and a proven node is backed up without a playout.
//! - Threat sequences: a node whose side to move wins by a chain of threats
//!   ([`threat_sequence`](super::threat_sequence)) is proven at expansion.
//! - Playouts win when they can, block when they must and avoid losing on the spot.
//! - Transpositions: given a prepared [`Transpositions`] table, a move is judged by the mean
//!   of every iteration through the position it leads to, by any move order; the tree's own
//!   counts still drive exploration (Monte-Carlo graph search).
//! - Reply sequences (optional): a node the search returns to has its unexpanded children
//!   checked for the opponent's chains, so a quiet move that sets one up is refuted at once.
//! - Time: the search stops when the root is proven or has a proven winning move; a forced
//!   move searches on, for the subtree reuse keeps. Optionally (the early stop) it also stops
//!   at a forced move and when the most visited move can no longer be overtaken before the
//!   deadline.

use super::learned::Learned;
use super::playout::{Outcome, random_playout, tactical_playout, tactical_playout_learned};
use super::threat_sequence::wins_by_threats;
use super::transpositions::Transpositions;
use super::tree::{NodeId, NodeKind, ROOT, Tree};
use super::ucb::{MAX_PATH, UcbTables, backup, select_child, select_child_with_prior};
use super::{SearchConfig, SearchLimits, SearchReport, time_to_stop};
use crate::position::zobrist::position_key;
use crate::position::{Position, centre_first};
use crate::threats::ThreatPosition;
use rand::RngCore;
use std::time::Instant;

/// Runs the strong search from `root`. Returns `None` only when `root` has no legal move.
///
/// `excluded_root_moves` (bit per column) are root moves already proven to lose, e.g. by the
/// endgame solver: they are left out of the root unless nothing else is left.
///
/// `tree` is either empty or holds a subtree kept from an earlier search whose root is
/// exactly `root` (see [`Tree::reroot`]); the search continues from it. `graph` shares
/// statistics between transpositions when it has been prepared for `root`'s board
/// ([`Transpositions::prepare`]); an empty table leaves the search a plain tree search.
pub fn search<R: RngCore>(
    root: &Position,
    excluded_root_moves: u16,
    tree: &mut Tree,
    graph: &mut Transpositions,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut R,
) -> Option<SearchReport> {
    let mut learned = Learned::new(&config.techniques, config.adaptation_rate);
    search_learning(
        root,
        excluded_root_moves,
        tree,
        graph,
        &mut learned,
        config,
        limits,
        rng,
    )
}

/// [`search`] whose playouts start from, and add to, what `learned` already holds
/// (built by [`Learned::new`] for `config`): empty tables, or those of an earlier search of
/// the same game ([`Techniques::keep_learned`](super::Techniques::keep_learned)).
#[allow(clippy::too_many_arguments)] // search's arguments and the tables it learns into
pub fn search_learning<R: RngCore>(
    root: &Position,
    excluded_root_moves: u16,
    tree: &mut Tree,
    graph: &mut Transpositions,
    replies: &mut Learned,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut R,
) -> Option<SearchReport> {
    if root.open_columns() == 0 {
        return None;
    }
    tree.prepare(limits.memory_bytes);
    let root_tp = ThreatPosition::new(root.clone());
    let order = centre_first(root.cols());
    let tables = UcbTables::new();
    let mut scratch = root_tp.clone();
    let mut path = [ROOT; MAX_PATH];
    let mut keys = [0u64; MAX_PATH];
    let graph_on = !graph.is_unprepared();
    // One branch per search, not per node: the table's lookups compile out without it.
    let descend = if graph_on {
        descend::<true, R>
    } else {
        descend::<false, R>
    };
    let mut iterations = 0u64;
    let start = Instant::now();
    loop {
        let root_proven = tree.node(ROOT).kind != NodeKind::Open;
        let root_moves = || tree.children(ROOT).iter().map(|c| (c.kind, c.visits));
        if time_to_stop(iterations, start, config, limits, root_proven, root_moves) {
            break;
        }
        iterations += 1;
        scratch.clone_from(&root_tp);
        replies.begin(root.to_move());
        let (outcome, depth) = descend(
            tree,
            graph,
            &mut scratch,
            &mut path,
            &mut keys,
            replies,
            &order,
            excluded_root_moves,
            config,
            &tables,
            rng,
        );
        if config.techniques.learns_playout_policy() {
            replies.learn(outcome);
        }
        backup(tree, &path[..=depth], root.to_move(), outcome);
        if graph_on {
            backup_positions(graph, &keys[..=depth], root, outcome);
        }
        prove_upwards(tree, &path[..=depth]);
    }
    choose(tree).map(|(col, winrate)| SearchReport {
        proof: root_proof(tree),
        col,
        winrate,
        iterations,
        nodes: tree.len(),
    })
}

/// With reply sequences, a node's children are checked for the opponent's chains on the
/// iteration that finds the node with this many visits.
const REPLY_CHECK_VISITS: u32 = 8;

/// Walks to a new leaf, a proven node or the end of the game, expanding with tactics; then
/// finishes with a tactical playout. Returns the outcome and the depth reached on `path`.
/// With `GRAPH`, children are judged by their positions' shared means and `keys` receives
/// the key of each position on the path. With a learned playout policy on, `replies`
/// records every move of the path and the playout.
#[allow(clippy::too_many_arguments)] // the search's working set, passed rather than bundled
#[inline]
fn descend<const GRAPH: bool, R: RngCore>(
    tree: &mut Tree,
    graph: &Transpositions,
    scratch: &mut ThreatPosition,
    path: &mut [NodeId; MAX_PATH],
    keys: &mut [u64; MAX_PATH],
    replies: &mut Learned,
    order: &[u8],
    excluded_root_moves: u16,
    config: &SearchConfig,
    tables: &UcbTables,
    rng: &mut R,
) -> (Outcome, usize) {
    let mut node = ROOT;
    let mut depth = 0;
    if GRAPH {
        keys[0] = position_key(scratch.key(), scratch.position().to_move());
    }
    loop {
        let n = *tree.node(node);
        // The side that moved into `node`: the opposite of the side to move in `scratch`.
        let mover = scratch.position().to_move().other();
        match n.kind {
            NodeKind::Win => return (Outcome::Win(mover), depth),
            NodeKind::Loss => return (Outcome::Win(mover.other()), depth),
            NodeKind::Tie => return (Outcome::Tie, depth),
            NodeKind::Open => {}
        }
        if n.child_count == 0 {
            if n.visits == 0 && node != ROOT {
                return (playout(scratch, replies, config, rng), depth);
            }
            let tactics = scratch.tactics();
            let is_root = node == ROOT;
            // The root always gets children: the search must return a move even when the
            // position is decided, so it expands the win alone, or every move when all lose.
            if !is_root
                && (tactics.wins != 0
                    || config.techniques.threat_sequences && wins_by_threats(scratch, &tactics))
            {
                // The side to move wins at once or by force: the mover into this node has
                // lost.
                tree.node_mut(node).kind = NodeKind::Loss;
                return (Outcome::Win(mover.other()), depth);
            }
            let candidates = match tactics.candidates() {
                0 if is_root => tactics.open,
                c if is_root && c & !excluded_root_moves != 0 => c & !excluded_root_moves,
                c => c,
            };
            if candidates == 0 {
                // Every move lets the opponent win next: the mover into this node has won.
                tree.node_mut(node).kind = NodeKind::Win;
                return (Outcome::Win(mover), depth);
            }
            if !tree.expand_columns(node, order, candidates) {
                return (playout(scratch, replies, config, rng), depth);
            }
        }
        if config.techniques.reply_sequences && n.visits == REPLY_CHECK_VISITS {
            prove_replies_lost(tree, node, scratch);
        }
        let prior = config.techniques.policy_prior;
        let (child, known) = if GRAPH {
            select_in_graph(tree, node, graph, scratch, config.exploration, tables)
        } else if let Some(weights) = prior
            .then(|| replies.policy_weights(scratch.position()))
            .flatten()
        {
            let child = select_child_with_prior(tree, node, config.exploration, tables, &weights);
            (child, None)
        } else {
            (
                select_child::<true>(tree, node, config.exploration, config.first_play, tables),
                None,
            )
        };
        if let Some((visits, half_points)) = known {
            // The position behind this edge has been searched more, by other move orders,
            // than through this edge: back its mean up instead of searching it again (MCGS).
            // The key stays out of the shared backup, so the edge catches up with the node.
            depth += 1;
            path[depth] = child;
            keys[depth] = 0;
            let p_win = f64::from(half_points) / (2.0 * f64::from(visits));
            let mover_into_child = scratch.position().to_move();
            let outcome = if f64::from(rng.next_u32()) < p_win * 4_294_967_296.0 {
                Outcome::Win(mover_into_child)
            } else {
                Outcome::Win(mover_into_child.other())
            };
            return (outcome, depth);
        }
        let col = tree.node(child).col as usize;
        if config.techniques.learns_playout_policy() {
            if config.techniques.ppa_tree {
                let columns = tree.children(node).iter().fold(0, |m, c| m | 1 << c.col);
                replies.note_choice(columns, scratch.position());
            }
            replies.record_move(scratch.position(), col);
        }
        let won = scratch.play(col);
        depth += 1;
        path[depth] = child;
        if GRAPH {
            keys[depth] = position_key(scratch.key(), scratch.position().to_move());
        }
        node = child;
        if won {
            tree.node_mut(child).kind = NodeKind::Win;
            return (Outcome::Win(mover.other()), depth);
        }
        if scratch.position().empty_cells() == 0 {
            tree.node_mut(child).kind = NodeKind::Tie;
            return (Outcome::Tie, depth);
        }
    }
}

/// Marks lost (for the side to move at `at`) every child of `id` not yet expanded after
/// which the opponent wins at once or by a chain of threats. `at` is the position of `id`.
/// (An expanded child has looked for its own chain.)
#[inline(never)]
fn prove_replies_lost(tree: &mut Tree, id: NodeId, at: &ThreatPosition) {
    let first = tree.node(id).first_child;
    for i in 0..tree.node(id).child_count as NodeId {
        let child = first + i;
        let c = *tree.node(child);
        if c.kind != NodeKind::Open || c.child_count > 0 {
            continue;
        }
        let mut next = at.clone();
        if next.play(c.col as usize) {
            continue; // a win at once: `descend` proves it when it gets there
        }
        // A win at once counts as a chain of length zero.
        if wins_by_threats(&next, &next.tactics()) {
            tree.node_mut(child).kind = NodeKind::Loss;
        }
    }
}

/// UCB1 over the children of `id` as in [`select_child`], but each child's mean is that of
/// its position in `graph` (every path's iterations) when the table holds at least the
/// child's own visits; exploration still counts the visits through this edge. Also returns
/// the chosen child's shared statistics when they hold more visits than its edge and the
/// child is unproven: the caller can back them up instead of searching.
#[inline]
fn select_in_graph(
    tree: &Tree,
    id: NodeId,
    graph: &Transpositions,
    at: &ThreatPosition,
    exploration: f32,
    tables: &UcbTables,
) -> (NodeId, Option<(u32, u32)>) {
    let parent = tree.node(id);
    let first = parent.first_child;
    let scale = exploration * (2.0 * tables.ln(parent.visits.max(1))).sqrt();
    let child_to_move = at.position().to_move().other();
    let mut best = (first, None);
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in tree.children(id).iter().enumerate() {
        if child.kind == NodeKind::Loss {
            continue;
        }
        let key = position_key(at.key_after(child.col as usize), child_to_move);
        let shared = graph.get(key);
        if child.visits == 0 {
            return (first + i as NodeId, shared.filter(|&(n, _)| n > 0));
        }
        let (visits, half_points) = match shared {
            Some((visits, half_points)) if visits >= child.visits => (visits, half_points),
            _ => (child.visits, child.half_points),
        };
        let inv_sqrt = tables.inv_and_inv_sqrt(child.visits).1;
        let score = half_points as f32 * 0.5 * tables.inv_and_inv_sqrt(visits).0 + scale * inv_sqrt;
        if score > best_score {
            best_score = score;
            best = (
                first + i as NodeId,
                shared.filter(|&(n, _)| n > child.visits),
            );
        }
    }
    if tree.node(best.0).kind != NodeKind::Open {
        best.1 = None;
    }
    best
}

/// Adds the outcome to the shared statistics of every position on the path, each from the
/// view of the side that moved into it (as [`backup`] does for the tree); a key of 0 (a
/// position whose mean was backed up in place of a search) is skipped.
#[inline]
fn backup_positions(graph: &mut Transpositions, keys: &[u64], root: &Position, outcome: Outcome) {
    let mut mover = root.to_move().other();
    for (&key, ply) in keys.iter().zip(root.ply() as u32..) {
        if key != 0 {
            graph.add(key, ply, outcome.half_points_for(mover));
        }
        mover = mover.other();
    }
}

/// Finishes the game with the playout policy the configuration asks for.
#[inline(always)]
fn playout<R: RngCore>(
    scratch: &mut ThreatPosition,
    replies: &mut Learned,
    config: &SearchConfig,
    rng: &mut R,
) -> Outcome {
    let keep_threats = config.techniques.keep_threats;
    if config.techniques.tactical_playouts && config.techniques.learns_playout_policy() {
        tactical_playout_learned(scratch, keep_threats, replies, rng)
    } else if config.techniques.tactical_playouts {
        tactical_playout(scratch, keep_threats, rng)
    } else {
        random_playout(scratch.position_for_playout(), rng)
    }
}

/// Climbs from the end of `path` proving parents from their children, stopping at the first
/// node that stays unproven.
fn prove_upwards(tree: &mut Tree, path: &[NodeId]) {
    for pair in path.windows(2).rev() {
        let (parent, child) = (pair[0], pair[1]);
        if tree.node(parent).kind != NodeKind::Open {
            continue; // proven in `descend` (tactics) already; keep climbing
        }
        let kind = match tree.node(child).kind {
            NodeKind::Open => return,
            // The side to move at `parent` has a winning move: the parent's mover loses.
            NodeKind::Win => NodeKind::Loss,
            NodeKind::Tie | NodeKind::Loss => match best_proven(tree, parent) {
                Some(kind) => kind,
                None => return,
            },
        };
        tree.node_mut(parent).kind = kind;
    }
}

/// If every child of `id` is proven, the value of `id` for the player who moved into it.
fn best_proven(tree: &Tree, id: NodeId) -> Option<NodeKind> {
    let mut any_tie = false;
    for c in tree.children(id) {
        match c.kind {
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

/// The root's proven value for the side to move there.
fn root_proof(tree: &Tree) -> NodeKind {
    match tree.node(ROOT).kind {
        NodeKind::Win => NodeKind::Loss,
        NodeKind::Loss => NodeKind::Win,
        other => other,
    }
}

/// The move to play: a proven win at once; else the most visited move that is not a proven
/// loss (robust child), ties broken by the better mean; a lost position plays its most
/// visited move. Returns the column and that child's mean.
fn choose(tree: &Tree) -> Option<(usize, f64)> {
    let children = tree.children(ROOT);
    if let Some(win) = children.iter().find(|c| c.kind == NodeKind::Win) {
        return Some((win.col as usize, 1.0));
    }
    let by_visits = |a: &&super::tree::Node, b: &&super::tree::Node| {
        a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean()))
    };
    children
        .iter()
        .filter(|c| c.kind != NodeKind::Loss)
        .max_by(by_visits)
        .or_else(|| children.iter().max_by(by_visits))
        .map(|c| {
            let mean = match c.kind {
                NodeKind::Tie => 0.5,
                NodeKind::Loss => 0.0,
                _ => c.mean(),
            };
            (c.col as usize, mean)
        })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, after};
    use super::super::ucb::CLOCK_EVERY;
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::time::Duration;

    /// The shipped default's search, with a transposition table as well.
    fn run(pos: &Position, iterations: u64) -> SearchReport {
        testing::run_fixed(
            |pos, tree, config, limits, rng| {
                search(pos, 0, tree, &mut graph_for(pos), config, limits, rng)
            },
            &SearchConfig::strong(),
            pos,
            iterations,
            5,
        )
    }

    fn graph_for(pos: &Position) -> Transpositions {
        Transpositions::prepared(pos, 1 << 20)
    }

    /// The tree node reached from the root by `cols`.
    fn node_after(tree: &Tree, cols: &[usize]) -> NodeId {
        cols.iter().fold(ROOT, |id, &c| {
            tree.child_by_col(id, c).expect("the search reached it")
        })
    }

    #[test]
    fn move_orders_reaching_one_position_share_its_statistics() {
        let root = after(&[]);
        let mut tree = Tree::default();
        let mut graph = graph_for(&root);
        let limits = SearchLimits {
            max_iterations: Some(20_000),
            ..SearchLimits::for_duration(std::time::Duration::from_secs(60), 16 << 20)
        };
        let config = SearchConfig::strong();
        let mut rng = SmallRng::seed_from_u64(3);
        search(&root, 0, &mut tree, &mut graph, &config, &limits, &mut rng).unwrap();
        // Us at columns 2 and 4, Them at 3: two move orders, one position.
        let one = *tree.node(node_after(&tree, &[2, 3, 4]));
        let other = *tree.node(node_after(&tree, &[4, 3, 2]));
        assert!(one.visits > 0 && other.visits > 0);
        let mut pos = ThreatPosition::new(root);
        for c in [2, 3, 4] {
            pos.play(c);
        }
        let key = position_key(pos.key(), pos.position().to_move());
        // The table counts every iteration that searched the position, by either order: more
        // than the lesser order alone. Edges that only backed up the shared mean (an order
        // that lagged the position) are not searches of it, so it can be less than the sum.
        let (shared, _) = graph.get(key).expect("both orders searched it");
        assert!(
            shared > one.visits.min(other.visits),
            "{shared} {one:?} {other:?}"
        );
        assert!(
            shared <= one.visits + other.visits,
            "{shared} {one:?} {other:?}"
        );
    }

    #[test]
    fn an_unprepared_table_leaves_it_a_tree_search() {
        let root = after(&[3, 3]);
        let mut graph = Transpositions::default();
        let limits = SearchLimits {
            max_iterations: Some(2_000),
            ..SearchLimits::for_duration(std::time::Duration::from_secs(60), 16 << 20)
        };
        let mut rng = SmallRng::seed_from_u64(3);
        let config = SearchConfig::strong();
        search(
            &root,
            0,
            &mut Tree::default(),
            &mut graph,
            &config,
            &limits,
            &mut rng,
        )
        .unwrap();
        assert!(graph.is_unprepared());
    }

    /// A forced move (one candidate) searches its whole budget, for the subtree tree reuse
    /// keeps; only the early stop plays it at the first clock check.
    #[test]
    fn a_forced_move_searches_its_budget_unless_the_early_stop_is_on() {
        // Them holds the bottom row's columns 1 to 3 next to Us in column 0: the block at
        // column 4 is the only candidate. On 12x12 nothing is proven within 100 ms.
        let mut pos = Position::new(12, 12, 0, 11).unwrap();
        for col in [0, 1, 6, 2, 6, 3] {
            assert!(!pos.play(col));
        }
        let iterations = |early_stop| {
            let limits = SearchLimits::for_duration(Duration::from_millis(100), 64 << 20);
            let mut config = SearchConfig::strong();
            config.techniques.early_stop = early_stop;
            let mut tree = Tree::default();
            let mut graph = Transpositions::default();
            let mut rng = SmallRng::seed_from_u64(1);
            let report =
                search(&pos, 0, &mut tree, &mut graph, &config, &limits, &mut rng).unwrap();
            assert_eq!((report.col, tree.children(ROOT).len()), (4, 1));
            assert_eq!(report.proof, NodeKind::Open);
            report.iterations
        };
        assert_eq!(iterations(true), CLOCK_EVERY);
        // Searching on past the first clock check is the point. An unoptimised test build
        // on a loaded machine makes only a few thousand iterations in 100 ms (20 clock
        // checks' worth once failed under a load of 3 on 2 cores), so the bound is low.
        assert!(iterations(false) > 4 * CLOCK_EVERY);
    }

    #[test]
    fn proves_an_immediate_win() {
        let report = run(&after(&[0, 0, 1, 1, 2, 2]), 1000);
        assert_eq!((report.col, report.proof), (3, NodeKind::Win));
    }

    #[test]
    fn blocks_and_knows_a_double_threat_is_lost() {
        // Them holds (5,1),(5,2),(5,3) next to Us at (5,0): the block at col 4 is forced.
        let report = run(&after(&[0, 1, 6, 2, 6, 3]), 1000);
        assert_eq!(report.col, 4);
        // Them holds (5,2),(5,3),(5,4) with (5,1) and (5,5) both open: lost for Us.
        let pos = after(&[6, 2, 6, 3, 0, 4]);
        let report = run(&pos, 5000);
        assert_eq!(report.proof, NodeKind::Loss, "{pos:?}");
    }

    /// With every learned playout policy the tree search still proves the win in three.
    #[test]
    fn learned_policies_keep_the_search_correct() {
        let pos = after(&[2, 2, 3, 3]);
        for switches in testing::LEARNED_POLICIES {
            let config = testing::strong_with(switches);
            let report = testing::run_fixed(
                |pos, tree, config, limits, rng| {
                    search(
                        pos,
                        0,
                        tree,
                        &mut Transpositions::default(),
                        config,
                        limits,
                        rng,
                    )
                },
                &config,
                &pos,
                200_000,
                5,
            );
            assert_eq!(report.proof, NodeKind::Win, "{switches}");
            assert!(report.col == 1 || report.col == 4, "{switches}: {report:?}");
        }
    }

    #[test]
    fn proves_a_win_in_three() {
        // Us to move can make an open three on the bottom row (cols 2,3 held; 1 or 4 makes
        // two threats at once). Bottom row is row 5 of a 6x7 board.
        let pos = after(&[2, 2, 3, 3]);
        let report = run(&pos, 200_000);
        assert_eq!(report.proof, NodeKind::Win, "{pos:?}");
        assert!(report.col == 1 || report.col == 4, "{report:?}");
    }

    #[test]
    fn reply_sequences_refute_moves_that_allow_a_chain() {
        // Them holds (5,2),(5,3) with the bottom row open on both sides; Us to move. Any move
        // away from columns 1 and 4 lets Them make an open three (two threats at once),
        // except column 6, whose third stone threatens and wins the tempo.
        let root = after(&[6, 2, 6, 3]);
        // Enough iterations for the root to reach the visits at which children are checked;
        // too few for most children to be expanded (and check themselves).
        let expanded = |reply_sequences| {
            let mut tree = Tree::default();
            let limits = SearchLimits {
                max_iterations: Some(u64::from(REPLY_CHECK_VISITS) + 1),
                ..SearchLimits::for_duration(std::time::Duration::from_secs(60), 1 << 20)
            };
            let mut config = SearchConfig::strong();
            config.techniques.reply_sequences = reply_sequences;
            let mut rng = SmallRng::seed_from_u64(3);
            let mut graph = Transpositions::default();
            search(&root, 0, &mut tree, &mut graph, &config, &limits, &mut rng).unwrap();
            (0..7)
                .map(|c| tree.node(tree.child_by_col(ROOT, c).unwrap()).kind)
                .collect::<Vec<_>>()
        };
        let with = expanded(true);
        for c in [0, 2, 3, 5] {
            assert_eq!(with[c], NodeKind::Loss, "column {c}: {with:?}");
        }
        for c in [1, 4, 6] {
            assert_eq!(with[c], NodeKind::Open, "column {c}: {with:?}");
        }
        // Without, as few iterations leave some of those moves unproven.
        let without = expanded(false);
        assert!(
            [0, 2, 3, 5].iter().any(|&c| without[c] == NodeKind::Open),
            "{without:?}"
        );
    }
}
