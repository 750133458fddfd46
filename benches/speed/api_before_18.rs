//! The library calls of the speed bench, for the API before the restructure of issue 18
//! (up to commit 32327ae's parent, e.g. d600866): `scripts/speed-vs.sh` puts this file in
//! place of `api.rs` when the bench does not build otherwise. Same rows, same settings.

use gravity4::position::Position;
use gravity4::search::playout::Outcome;
use gravity4::search::solver::{self, tactical_playout};
use gravity4::search::transpositions::Transpositions;
use gravity4::search::tree::Tree;
use gravity4::search::{SearchConfig, SearchLimits, uct};
use gravity4::settings::DEFAULT_TABLE_BYTES;
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;

/// What a search works in: the tree alone before issue 36.
pub type Arena = Tree;

/// As in `api.rs`. The strong rows use the strong profile's exploration constant 0.5 (the
/// old `SearchConfig::default()` carried the classic 0.8; settings set 0.5).
pub fn search(
    pos: &Position,
    tree: &mut Tree,
    row: &str,
    limits: &SearchLimits,
    rng: &mut SmallRng,
) -> u64 {
    tree.clear();
    if row == "classic" {
        let report = uct::search(pos, tree, &SearchConfig::default(), limits, rng);
        return report.expect("positions have moves").iterations;
    }
    let config = SearchConfig {
        exploration: 0.5,
        threat_sequences: row != "strong-chains",
        reply_sequences: row == "strong+replies",
        ..SearchConfig::default()
    };
    let mut graph = Transpositions::default();
    if row == "strong+table" {
        graph.prepare(pos, DEFAULT_TABLE_BYTES);
    }
    let report = solver::search(pos, tree, &mut graph, &config, limits, rng);
    report.expect("positions have moves").iterations
}

/// The strong profile's playout (tactical, keeping threats).
pub fn tactical(pos: &mut ThreatPosition, rng: &mut SmallRng) -> Outcome {
    tactical_playout(pos, true, rng)
}

/// No learned playouts measured at this API (`policy` gives none).
pub enum Policy {}

/// `None`: the learned playouts' row of `--fixed` is for the API since issue 36.
pub fn policy() -> Option<Policy> {
    None
}

/// Never called: there is no [`Policy`].
pub fn learned_playout(_: &mut ThreatPosition, policy: &mut Policy, _: &mut SmallRng) -> Outcome {
    match *policy {}
}

/// Never called: there is no [`Policy`].
pub fn learn(policy: &mut Policy, _: Outcome) {
    match *policy {}
}
