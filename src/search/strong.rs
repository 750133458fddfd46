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
//! - Playouts win when they can, block when they must and avoid losing on the spot; their
//!   free choices follow the policies learned during the search ([`learned`](super::learned)).
//! - Optionally (`value-model`, off by default), a new node's first visit adds a few virtual
//!   visits at the learned evaluation's value ([`ntuple`](super::ntuple)) before its playout.
//! - Time: the search stops when the root is proven or has a proven winning move; a forced
//!   move searches on, for the subtree reuse keeps. Optionally (the early stop) it also stops
//!   at a forced move and when the most visited move can no longer be overtaken before the
//!   deadline.
//!
//! What the search works in, and what outlives one search, is one value, [`Workspace`]: the
//! tree, the learned policies' tables and the endgame solver's table. The session owns it.

use super::endgame::EndgameTable;
use super::learned::Learned;
use super::ntuple::{Model, Windows};
use super::outcome::Outcome;
use super::playout::{random_playout, tactical_playout, tactical_playout_learned};
use super::threat_sequence::wins_by_threats;
use super::tree::{NodeId, NodeKind, ROOT, Tree};
use super::ucb::{MAX_PATH, UcbTables, backup, select_child};
use super::{SearchConfig, SearchLimits, SearchReport, time_to_stop};
use crate::position::{Position, centre_first};
use crate::threats::ThreatPosition;
use rand::RngCore;
use std::time::Instant;

/// The strong search's working set: the tree (whose subtree the next move may continue
/// from), the tables its playouts learn into (emptied for each search, their memory kept)
/// and the exact endgame solver's table (kept while the board stays the same).
#[derive(Default)]
pub struct Workspace {
    /// The search tree; the session reroots it to continue a game or clears it.
    pub tree: Tree,
    /// The exact solver's bounds, facts about positions of one board.
    pub endgame: EndgameTable,
    /// The learned playout policies of the last search, kept for their allocation.
    pub(super) learned: Option<Learned>,
    /// The same for the helper threads of a parallel search ([`super::parallel`]), one
    /// each.
    pub(super) helper_learned: Vec<Option<Learned>>,
}

/// Empty learned tables for `config` in `slot`, reusing the last search's memory when it
/// fits.
pub(super) fn learned_for<'a>(
    slot: &'a mut Option<Learned>,
    config: &SearchConfig,
) -> &'a mut Learned {
    let (techniques, rate) = (&config.techniques, config.adaptation_rate);
    match slot {
        Some(learned) if learned.is_for(techniques, rate) => learned.clear(),
        _ => *slot = Some(Learned::new(techniques, rate)),
    }
    slot.as_mut().expect("filled above")
}

/// Runs the strong search from `root` in `work`. Returns `None` only when `root` has no
/// legal move.
///
/// `excluded_root_moves` (bit per column) are root moves already proven to lose, e.g. by the
/// endgame solver: they are left out of the root unless nothing else is left.
///
/// `work.tree` is either empty or holds a subtree kept from an earlier search whose root is
/// exactly `root` (see [`Tree::reroot`]); the search continues from it.
pub fn search<R: RngCore + Clone>(
    root: &Position,
    excluded_root_moves: u16,
    work: &mut Workspace,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut R,
) -> Option<SearchReport> {
    if root.open_columns() == 0 {
        return None;
    }
    work.tree.prepare(limits.memory_bytes);
    let root_tp = ThreatPosition::new(root.clone());
    let order = centre_first(root.cols());
    let learned = learned_for(&mut work.learned, config);
    let mut walk = Walk {
        learned,
        config,
        tables: UcbTables::new(),
        order: &order,
        excluded_root_moves,
        model: value_model(root, config),
        rng,
    };
    let tree = &mut work.tree;
    let mut scratch = root_tp.clone();
    let mut path = [ROOT; MAX_PATH];
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
        walk.learned.begin(root.to_move());
        let (leaf, depth) = walk.descend(tree, &mut scratch, &mut path);
        let outcome = leaf.unwrap_or_else(|| walk.playout(&mut scratch));
        if config.techniques.learns_playout_policy() {
            walk.learned.learn(outcome);
        }
        backup(tree, &path[..=depth], root.to_move(), outcome);
        prove_upwards(tree, &path[..=depth]);
    }
    report(tree, iterations)
}

/// The report of a search that made `iterations` in `tree`; `None` when the root has no
/// children (the memory cap left no room even for them).
pub(super) fn report(tree: &Tree, iterations: u64) -> Option<SearchReport> {
    choose(tree).map(|(col, winrate)| SearchReport {
        proof: root_proof(tree),
        col,
        winrate,
        iterations,
        nodes: tree.len(),
    })
}

/// What one iteration's walk reads and writes besides the tree (which is passed to
/// [`Walk::descend`], so that threads can share it): the learned policies, the search's
/// settings and its generator.
pub(super) struct Walk<'a, R> {
    pub(super) learned: &'a mut Learned,
    pub(super) config: &'a SearchConfig,
    /// Owned, not shared between threads: one pointer less to follow at every tree level.
    pub(super) tables: UcbTables,
    /// The order in which a node's children are added (centre first).
    pub(super) order: &'a [u8],
    /// Root moves the endgame solver proved lost (bit per column).
    pub(super) excluded_root_moves: u16,
    /// With `value-model`, the learned evaluation and the windows of the root's board.
    pub(super) model: Option<(&'static Model, Windows)>,
    pub(super) rng: &'a mut R,
}

/// The learned evaluation for boards of `root`'s geometry, when `config` asks for it and
/// the shipped weights passed their checks (otherwise the search runs without it).
pub(super) fn value_model(
    root: &Position,
    config: &SearchConfig,
) -> Option<(&'static Model, Windows)> {
    if !config.techniques.value_model {
        return None;
    }
    let model = Model::shipped().ok()?;
    Some((model, Windows::new(root.geometry())))
}

impl<R: RngCore + Clone> Walk<'_, R> {
    /// Walks `tree` to a new leaf, a proven node or the end of the game, expanding with
    /// tactics. Returns the outcome when the walk decided it, `None` when a playout from
    /// `scratch` (left at the leaf) must finish the game, and the depth reached on `path`.
    /// With a learned playout policy on, every move of the path is recorded for
    /// [`Learned::learn`].
    #[inline(always)]
    pub(super) fn descend(
        &mut self,
        tree: &mut Tree,
        scratch: &mut ThreatPosition,
        path: &mut [NodeId; MAX_PATH],
    ) -> (Option<Outcome>, usize) {
        let config = self.config;
        let mut node = ROOT;
        let mut depth = 0;
        loop {
            let n = *tree.node(node);
            // The side that moved into `node`: the opposite of the side to move in `scratch`.
            let mover = scratch.position().to_move().other();
            match n.kind {
                NodeKind::Win => return (Some(Outcome::Win(mover)), depth),
                NodeKind::Loss => return (Some(Outcome::Win(mover.other())), depth),
                NodeKind::Tie => return (Some(Outcome::Tie), depth),
                NodeKind::Open => {}
            }
            if n.child_count == 0 {
                if n.visits == 0 && node != ROOT {
                    if depth as u32 <= config.model_depth {
                        self.add_model_prior(tree, node, scratch);
                    }
                    return (None, depth);
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
                    return (Some(Outcome::Win(mover.other())), depth);
                }
                let excluded = self.excluded_root_moves;
                let candidates = match tactics.candidates() {
                    0 if is_root => tactics.open,
                    c if is_root && c & !excluded != 0 => c & !excluded,
                    c => c,
                };
                if candidates == 0 {
                    // Every move lets the opponent win next: the mover into this node has won.
                    tree.node_mut(node).kind = NodeKind::Win;
                    return (Some(Outcome::Win(mover)), depth);
                }
                if !tree.expand_columns(node, self.order, candidates) {
                    return (None, depth);
                }
            }
            let child = select_child::<true>(tree, node, config.exploration, &self.tables);
            let col = tree.node(child).col as usize;
            if config.techniques.learns_playout_policy() {
                self.learned.record_move(scratch.position(), col);
            }
            // The walk's copy starts afresh each iteration, and nothing reads its key.
            let won = scratch.play_without_key(col);
            depth += 1;
            path[depth] = child;
            node = child;
            if won {
                tree.node_mut(child).kind = NodeKind::Win;
                return (Some(Outcome::Win(mover.other())), depth);
            }
            if scratch.position().empty_cells() == 0 {
                tree.node_mut(child).kind = NodeKind::Tie;
                return (Some(Outcome::Tie), depth);
            }
        }
    }

    /// With a learned evaluation, gives the new leaf `node` (whose position is `scratch`)
    /// the configured number of virtual visits at the model's value for the player who
    /// moved into it; the playout that follows counts as usual. Only the leaf's own
    /// statistics change, so the prior steers the choice among siblings without biasing
    /// the means above it.
    #[inline]
    fn add_model_prior(&mut self, tree: &mut Tree, node: NodeId, scratch: &ThreatPosition) {
        let Some((model, windows)) = &self.model else {
            return;
        };
        let to_move_wins = model.value(windows, scratch.position());
        let visits = self.config.model_prior;
        let half_points = (2.0 * visits as f32 * (1.0 - to_move_wins)).round() as u32;
        let n = tree.node_mut(node);
        n.visits += visits;
        n.half_points += half_points;
    }

    /// Finishes the game with the playout policy the configuration asks for.
    #[inline(always)]
    pub(super) fn playout(&mut self, scratch: &mut ThreatPosition) -> Outcome {
        let techniques = &self.config.techniques;
        let keep_threats = techniques.keep_threats;
        if techniques.tactical_playouts && techniques.learns_playout_policy() {
            tactical_playout_learned(scratch, keep_threats, self.learned, self.rng)
        } else if techniques.tactical_playouts {
            tactical_playout(scratch, keep_threats, self.rng)
        } else {
            random_playout(scratch.position_for_playout(), self.rng)
        }
    }
}

/// Climbs from the end of `path` proving parents from their children, stopping at the first
/// node that stays unproven.
pub(super) fn prove_upwards(tree: &mut Tree, path: &[NodeId]) {
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

    /// The shipped default's search.
    fn run(pos: &Position, iterations: u64) -> SearchReport {
        testing::run_fixed(&SearchConfig::strong(), pos, iterations, 5)
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
            let mut work = Workspace::default();
            let mut rng = SmallRng::seed_from_u64(1);
            let report = search(&pos, 0, &mut work, &config, &limits, &mut rng).unwrap();
            assert_eq!((report.col, work.tree.children(ROOT).len()), (4, 1));
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

    /// With every combination of the learned playout policies the search still proves the
    /// win in three.
    #[test]
    fn learned_policies_keep_the_search_correct() {
        let pos = after(&[2, 2, 3, 3]);
        for disable in testing::LEARNED_POLICIES_OFF {
            let config = testing::strong_without(disable);
            let report = testing::run_fixed(&config, &pos, 200_000, 5);
            assert_eq!(report.proof, NodeKind::Win, "without {disable}");
            assert!(
                report.col == 1 || report.col == 4,
                "without {disable}: {report:?}"
            );
        }
    }

    /// With the learned evaluation's prior the search still proves the win in three, and
    /// the prior is what changes the search (the same seed plays differently).
    #[test]
    fn the_value_model_keeps_the_search_correct() {
        let pos = after(&[2, 2, 3, 3]);
        let mut config = SearchConfig::strong();
        config.techniques.value_model = true;
        let report = testing::run_fixed(&config, &pos, 200_000, 5);
        assert_eq!(report.proof, NodeKind::Win, "{report:?}");
        assert!(report.col == 1 || report.col == 4, "{report:?}");
        let open = after(&[3, 3, 2]);
        let with = testing::run_fixed(&config, &open, 3_000, 5);
        let without = testing::run_fixed(&SearchConfig::strong(), &open, 3_000, 5);
        assert_ne!(with.winrate.to_bits(), without.winrate.to_bits());
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

    /// The learned tables of one search do not leak into the next: a second search in the
    /// same workspace (its tree cleared) reports exactly what a fresh workspace does.
    #[test]
    fn a_kept_workspace_searches_as_a_fresh_one() {
        let pos = after(&[3, 3, 2]);
        let limits = SearchLimits {
            max_iterations: Some(3_000),
            ..SearchLimits::for_duration(Duration::from_secs(60), 16 << 20)
        };
        let config = SearchConfig::strong();
        let fresh = |work: &mut Workspace| {
            work.tree.clear();
            let mut rng = SmallRng::seed_from_u64(9);
            let report = search(&pos, 0, work, &config, &limits, &mut rng).unwrap();
            (report.col, report.winrate.to_bits(), report.nodes)
        };
        let mut kept = Workspace::default();
        let first = fresh(&mut kept);
        assert_eq!(fresh(&mut kept), first);
        assert_eq!(fresh(&mut Workspace::default()), first);
    }
}
