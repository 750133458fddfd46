//! Monte-Carlo tree search with UCB1 (UCT) over [`Position`](crate::position::Position).
//!
//! The search keeps ONE original position (the root) and ONE scratch position. Every
//! iteration copies the root into the scratch board, walks the tree playing each chosen move
//! on the scratch board, adds at most one new leaf, finishes the game with a playout and
//! backs the result up the path. Nodes store statistics and a column, never boards.
//!
//! Two profiles share that machinery: [`uct`], the course report's plain UCT (the
//! baseline), and [`strong`], the shipped default. The modules, leaves first (no module
//! imports one listed after it, checked by `tests/layering.rs`):
//!
//! - [`outcome`]: how a game ended, the one type every part shares.
//! - [`config`]: what a search does ([`SearchConfig`]: profile, UCB1 constant, techniques)
//!   and the numbers that define it.
//! - [`tree`]: the node arena (indices, no per-node allocation).
//! - [`ucb`]: selection by UCB1 and backup along the path, shared by both profiles.
//! - [`learned`]: the playout policies learned during one search: last good replies and
//!   policy adaptation.
//! - [`ntuple`]: a learned evaluation (n-tuples over windows of four cells), trained
//!   offline and compiled in; a prior for new nodes when switched on.
//! - [`playout`]: finishing the game, random or tactical.
//! - [`threat_sequence`]: wins forced by a chain of threats, proven at expansion.
//! - [`endgame`]: the exact alpha-beta solver for the last few empty cells (the only
//!   "solver" in the exact sense; the strong search's proofs are the MCTS-solver's).
//! - [`uct`]: the classic profile, plain UCT.
//! - [`strong`]: the strong profile, UCT with proofs (MCTS-solver), tactics and learned
//!   playouts, and its [`strong::Workspace`] (tree, learned tables, endgame table).
//! - [`parallel`]: the strong search on several threads over one tree, with virtual loss
//!   (`GRAVITY4_THREADS`; one thread, the default, runs [`strong`] itself).

pub mod config;
pub mod endgame;
pub mod learned;
pub mod ntuple;
pub mod outcome;
pub mod parallel;
pub mod playout;
pub mod strong;
pub mod threat_sequence;
pub mod tree;
pub mod ucb;
pub mod uct;

pub use config::{Profile, SearchConfig, Techniques};

use std::time::{Duration, Instant};
use tree::NodeKind;

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

/// True when a search loop should stop before its next iteration: the iterations asked for
/// are done, the root is proven, or (read every [`ucb::CLOCK_EVERY`] iterations) the
/// deadline has passed or the root is [`decided`]. At least one iteration always runs (it
/// expands the root), so even a call that arrives past its deadline answers with a move.
pub(crate) fn time_to_stop<I: Iterator<Item = (NodeKind, u32)> + Clone>(
    iterations: u64,
    start: Instant,
    config: &SearchConfig,
    limits: &SearchLimits,
    root_proven: bool,
    root_moves: impl FnOnce() -> I,
) -> bool {
    if limits.max_iterations.is_some_and(|m| iterations >= m) {
        return true;
    }
    if iterations > 0 && iterations.is_multiple_of(ucb::CLOCK_EVERY) {
        let now = Instant::now();
        if now >= limits.deadline || decided(root_moves(), config, limits, iterations, (start, now))
        {
            return true;
        }
    }
    root_proven
}

/// True when a search should stop before its deadline, given each root move's proof and
/// visits: a move is proven to win, or (with the early stop) the move is forced or the most
/// visited move leads the runner-up by more visits than the time left can give.
///
/// Fixed-work runs (tests, benches) do exactly the work asked. Without the early stop a
/// forced move still searches its whole budget: the move cannot change, but the budget
/// cannot be banked either, and the search below it is what reuse hands to our next move.
pub(crate) fn decided(
    moves: impl Iterator<Item = (NodeKind, u32)> + Clone,
    config: &SearchConfig,
    limits: &SearchLimits,
    iterations: u64,
    (start, now): (Instant, Instant),
) -> bool {
    if moves.clone().any(|(kind, _)| kind == NodeKind::Win) {
        return true;
    }
    if limits.max_iterations.is_some() || !config.techniques.early_stop {
        return false;
    }
    if moves.clone().count() == 1 {
        return true;
    }
    let (mut first, mut second) = (0u32, 0u32);
    for (_, visits) in moves.filter(|&(kind, _)| kind != NodeKind::Loss) {
        if visits > first {
            second = first;
            first = visits;
        } else if visits > second {
            second = visits;
        }
    }
    let elapsed = now.duration_since(start).as_secs_f64().max(1e-6);
    let left = limits.deadline.saturating_duration_since(now).as_secs_f64();
    f64::from(first - second) > iterations as f64 / elapsed * left
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

/// Helpers shared by the searches' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::strong::Workspace;
    use super::tree::Tree;
    use super::{Profile, SearchConfig, SearchLimits, SearchReport, strong, uct};
    use crate::position::Position;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::time::{Duration, Instant};

    /// Runs the search of `config`'s profile for exactly `iterations` iterations with a
    /// seeded generator, from nothing.
    pub fn run_fixed(
        config: &SearchConfig,
        pos: &Position,
        iterations: u64,
        seed: u64,
    ) -> SearchReport {
        let limits = SearchLimits {
            deadline: Instant::now() + Duration::from_secs(60),
            max_iterations: Some(iterations),
            memory_bytes: 64 << 20,
        };
        let mut rng = SmallRng::seed_from_u64(seed);
        match config.profile {
            Profile::Classic => uct::search(pos, &mut Tree::default(), config, &limits, &mut rng),
            Profile::Strong => {
                strong::search(pos, 0, &mut Workspace::default(), config, &limits, &mut rng)
            }
        }
        .unwrap()
    }

    /// The learned playout policies switched off in every combination, as
    /// `GRAVITY4_DISABLE` lists, for tests that each leaves a search correct.
    pub const LEARNED_POLICIES_OFF: [&str; 6] = [
        "",
        "ppa-pairs",
        "policy-adaptation",
        "last-good-reply",
        "last-good-reply,ppa-pairs",
        "last-good-reply,policy-adaptation",
    ];

    /// The strong profile with the techniques of the comma list `disable` switched off.
    pub fn strong_without(disable: &str) -> SearchConfig {
        let (techniques, unknown) = super::Techniques::parse("", disable);
        assert!(unknown.is_empty(), "{unknown:?}");
        SearchConfig {
            techniques,
            ..SearchConfig::strong()
        }
    }

    /// The 6x7 board (blocked cell top right) after `moves`, none of which may win.
    pub fn after(moves: &[usize]) -> Position {
        let mut pos = Position::new(6, 7, 0, 6).unwrap();
        for &c in moves {
            assert!(!pos.play(c));
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn early_stop_only_when_asked_and_the_leader_cannot_be_overtaken() {
        let mut moves = [
            (NodeKind::Open, 1000),
            (NodeKind::Open, 10),
            (NodeKind::Open, 5),
        ];
        let start = Instant::now();
        let now = start + Duration::from_secs(1);
        let limits = |left_ms| SearchLimits {
            deadline: now + Duration::from_millis(left_ms),
            max_iterations: None,
            memory_bytes: 1 << 20,
        };
        let mut on = SearchConfig::strong();
        on.techniques.early_stop = true;
        let at = (start, now);
        // 1015 iterations in 1 s: half a second more brings about 508, less than the lead
        // of 990; two seconds more could overtake.
        assert!(decided(moves.iter().copied(), &on, &limits(500), 1015, at));
        assert!(!decided(
            moves.iter().copied(),
            &on,
            &limits(2000),
            1015,
            at
        ));
        let mut off = on;
        off.techniques.early_stop = false;
        assert!(!decided(
            moves.iter().copied(),
            &off,
            &limits(500),
            1015,
            at
        ));
        // A proven win at the root stops either way.
        moves[2].0 = NodeKind::Win;
        assert!(decided(
            moves.iter().copied(),
            &off,
            &limits(2000),
            1015,
            at
        ));
    }
}
