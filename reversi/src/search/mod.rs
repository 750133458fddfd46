//! Search: two Monte-Carlo tree search engines and an alpha-beta engine (on two evaluations) over the rules in
//! [`crate::position`].
//!
//! * `classic` — the seed-faithful baseline: plain UCT (UCB1, c = 0.8, on win rates in 0..1),
//!   nodes that keep their untried moves and expand one per iteration, uniformly random
//!   playouts, a fresh tree every move, and the final move chosen by the best mean (ties to
//!   the more visited child), as the course seed does.
//! * `strong` (the default until the 1 s matches of issue 50) — the same tree with everything we know to add: tree reuse between
//!   moves, leaves scored by a static evaluation ([`eval`]) instead of random playouts,
//!   corner/edge-aware expansion order, MCTS-solver proofs, exact alpha-beta solves of small
//!   leaves, an exact root solver for the last [`mcts::ROOT_SOLVE_EMPTIES`] empties whose proof
//!   ends the move early, and the final move by visits.
//! * `alphabeta` — iterative-deepening principal-variation search on a phased static
//!   evaluation ([`heuristic`]) with a transposition table, and the exact solver for the last
//!   [`alphabeta::ROOT_SOLVE_EMPTIES`] empties ([`alphabeta`]). Against gtp-rhino level 4 it
//!   scored like `strong` (15-0-5 and 7-1-2), head to head they were even at 1.1 s and
//!   `strong` led at 200 ms, so `strong` stayed the default (reversi/README.md).
//! * `learned` (the default) — the same alpha-beta search on learned pattern tables
//!   ([`patterns`], fitted by [`crate::learned`] and built into the binary), with Multi-ProbCut
//!   ([`mpc`]); it beat `strong` at 200 ms and 1 s a move under both rule sets
//!   (reversi/README.md; the 5 s confirmation is still to be run).
//!
//! All are [`Engine`]s: give them a [`Position`] and [`Limits`], get a [`SearchReport`].
//! The engine needs no move history: tree reuse finds the new position below the old root.

pub mod alphabeta;
pub mod endgame;
pub mod eval;
pub mod heuristic;
pub mod mcts;
pub mod mpc;
pub mod patterns;
pub mod playout;

use std::fmt;
use std::time::Duration;

use crate::position::{Move, Position};

/// How long, and how much, one search may take.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall time for the move. The search stops a little before it (see [`Limits::deadline`]).
    pub time: Duration,
    /// Stop after this many iterations (tests and reproducible experiments); `None`: no limit.
    pub iterations: Option<u64>,
}

impl Limits {
    /// A time budget only.
    pub fn time(ms: u64) -> Limits {
        Limits {
            time: Duration::from_millis(ms),
            iterations: None,
        }
    }

    /// An iteration budget with a generous time cap.
    pub fn iterations(n: u64) -> Limits {
        Limits {
            time: Duration::from_secs(3600),
            iterations: Some(n),
        }
    }

    /// The share of the budget actually searched: 95 %, and at most 250 ms short of it.
    /// Process scheduling, output and the judge's own clock share the rest: on the shared
    /// 2-core machine a 5 s search with a 50 ms margin answered after 4.985 s of wall time
    /// while getting only a fifth of a core, too close to a 5 s limit.
    pub fn deadline(&self) -> Duration {
        let margin = (self.time / 20).min(Duration::from_millis(250));
        self.time.saturating_sub(margin)
    }
}

/// What the search proved about the root, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Nothing proven.
    None,
    /// A forced win.
    Win,
    /// A forced draw at best (and at worst).
    Draw,
    /// Every move loses against perfect play.
    Loss,
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Proof::None => "none",
            Proof::Win => "win",
            Proof::Draw => "draw",
            Proof::Loss => "loss",
        })
    }
}

/// The outcome of one search.
#[derive(Clone, Copy, Debug)]
pub struct SearchReport {
    /// The chosen move (always legal for the searched position).
    pub mv: Move,
    /// Wall time spent, in milliseconds.
    pub ms: u64,
    /// MCTS iterations run this move.
    pub iterations: u64,
    /// Tree nodes after the search (including reused ones).
    pub nodes: u64,
    /// Estimated chance of winning for the side to move with `mv` (draws count half).
    pub winrate: f64,
    /// What was proven.
    pub proof: Proof,
}

impl SearchReport {
    /// The per-move log line `REVERSI_LOG=1` prints on stderr.
    pub fn log_line(&self) -> String {
        format!(
            "ms={} iterations={} nodes={} move={} winrate={:.3} proof={}",
            self.ms, self.iterations, self.nodes, self.mv, self.winrate, self.proof
        )
    }
}

/// A Reversi engine: picks a move for a position within limits.
pub trait Engine {
    /// A short name for logs and GTP (`classic`, `strong`, `alphabeta`).
    fn name(&self) -> &'static str;

    /// Forgets everything carried between moves (a new game begins).
    fn new_game(&mut self);

    /// Chooses a move for `pos`, which must not be over. A forced pass returns at once.
    fn choose(&mut self, pos: &Position, limits: Limits) -> SearchReport;
}

/// The engines on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Profile {
    /// The seed-faithful UCT baseline.
    Classic,
    /// The MCTS engine with everything we know to add.
    Strong,
    /// Iterative-deepening alpha-beta on a static evaluation.
    Alphabeta,
    /// The same alpha-beta on the learned pattern tables ([`patterns`]), with Multi-ProbCut
    /// (the default: it beat `strong` at 1 s a move under both rule sets).
    #[default]
    Learned,
}

impl Profile {
    /// Parses `classic`, `strong`, `alphabeta` or `learned`.
    pub fn parse(text: &str) -> Option<Profile> {
        match text.to_ascii_lowercase().as_str() {
            "classic" => Some(Profile::Classic),
            "strong" => Some(Profile::Strong),
            "alphabeta" => Some(Profile::Alphabeta),
            "learned" => Some(Profile::Learned),
            _ => None,
        }
    }

    /// A new engine of this profile, its generator seeded from `seed` or, if `None`, the OS,
    /// tuned by `tuning` (the `classic` baseline takes none of it).
    pub fn engine(
        self,
        seed: Option<u64>,
        memory_bytes: usize,
        tuning: &Tuning,
    ) -> Box<dyn Engine> {
        let config = match self {
            Profile::Classic => mcts::Config::classic(),
            Profile::Strong => tuning.strong,
            Profile::Alphabeta => {
                return Box::new(alphabeta::AlphaBeta::new(memory_bytes, tuning.alphabeta));
            }
            Profile::Learned => {
                let eval = alphabeta::Evaluator::Patterns(tuning.patterns);
                let mpc = tuning.mpc.then(mpc::Mpc::builtin);
                return Box::new(
                    alphabeta::AlphaBeta::with_evaluator(memory_bytes, eval).with_mpc(mpc),
                );
            }
        };
        Box::new(mcts::Mcts::new(config, seed, memory_bytes))
    }
}

/// The engines' experiment knobs, the measured best by default ([`crate::settings`] reads
/// the environment's overrides).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// The `strong` engine's configuration.
    pub strong: mcts::Config,
    /// The `alphabeta` engine's evaluation weights.
    pub alphabeta: heuristic::Weights,
    /// The `learned` engine's pattern tables, per rule set (built in, or `REVERSI_PATTERNS`
    /// for both).
    pub patterns: patterns::ByRule,
    /// Multi-ProbCut in the `learned` engine ([`mpc`]; its fits describe that evaluation).
    pub mpc: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            strong: mcts::Config::strong(),
            alphabeta: heuristic::Weights::DEFAULT,
            // The program checks the built-in tables first and stops with their error
            // (Settings::from_env); a test checks them too.
            patterns: patterns::ByRule::builtin().expect("the built-in pattern tables are valid"),
            // Kept: SPRT at 200 ms, +191 Elo (reversi/README.md).
            mpc: true,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::Classic => "classic",
            Profile::Strong => "strong",
            Profile::Alphabeta => "alphabeta",
            Profile::Learned => "learned",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_keeps_a_margin() {
        assert_eq!(Limits::time(5000).deadline(), Duration::from_millis(4750));
        assert_eq!(Limits::time(10000).deadline(), Duration::from_millis(9750));
        assert_eq!(Limits::time(100).deadline(), Duration::from_millis(95));
    }
}
