//! The library calls of the speed bench, for the API from the restructure of issue 18
//! (commit 32327ae: `SearchConfig::strong()`, `search::strong`, playouts in
//! `search::playout`) to issue 36's pruning (e00eaf7, the last commit with the graph search
//! and the transposition table). `scripts/speed-vs.sh` builds the bench of such a commit
//! with this file in `api.rs`'s place: the rest of the bench is the same.

use gravity4::position::Position;
use gravity4::search::graph::Graph;
use gravity4::search::playout::{Outcome, tactical_playout};
use gravity4::search::transpositions::Transpositions;
use gravity4::search::tree::Tree;
use gravity4::search::{SearchConfig, SearchLimits, Techniques, mcgs, strong, uct};
use gravity4::settings::DEFAULT_TABLE_BYTES;
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;

/// What a search works in: the tree alone before issue 36.
pub type Arena = Tree;

/// Runs the search of bench row `row` (a name of `PROFILES` in speed.rs) from `pos` and
/// returns its iterations. "classic" and "strong" are the profiles as they ship; the others
/// are the strong profile with one switch flipped.
pub fn search(
    pos: &Position,
    tree: &mut Tree,
    row: &str,
    limits: &SearchLimits,
    rng: &mut SmallRng,
) -> u64 {
    tree.clear();
    if row == "classic" {
        let report = uct::search(pos, tree, &SearchConfig::classic(), limits, rng);
        return report.expect("positions have moves").iterations;
    }
    let mut config = SearchConfig::strong();
    if row.starts_with("graph") {
        // A fresh graph per measurement, as the tree is cleared: the rate of a search that
        // starts from nothing, like the tree rows.
        config.techniques.graph = true;
        config.techniques.catch_up = row != "graph-no-catch-up";
        let mut graph = Graph::default();
        let report = mcgs::search(pos, 0, &mut graph, &config, limits, rng);
        return report.expect("positions have moves").iterations;
    }
    config.techniques.threat_sequences = row != "strong-chains";
    config.techniques.reply_sequences = row == "strong+replies";
    config.techniques.last_good_reply = row != "strong-lgr";
    config.techniques.policy_adaptation = row != "strong-lgr" && row != "strong-ppa";
    if let Some(switch) = row.strip_prefix("strong+switch:") {
        // Named, not set by field, so this file still builds against commits that predate
        // the switch (`scripts/speed-vs.sh`); asking for one of those panics here.
        config.techniques = Techniques::parse(switch, "").expect("a switch of this build");
    }
    let mut graph = Transpositions::default();
    if row == "strong+table" {
        config.techniques.transpositions = true;
        graph.prepare(pos, DEFAULT_TABLE_BYTES);
    }
    let report = strong::search(pos, 0, tree, &mut graph, &config, limits, rng);
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
