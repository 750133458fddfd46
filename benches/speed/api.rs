//! The library calls of the speed bench, for the API since issue 36 (the strong search works
//! in a [`Workspace`]). `scripts/speed-vs.sh` builds this bench against older commits with
//! `api_before_36.rs` or `api_before_18.rs` in this file's place: the rest of the bench is
//! the same.

use gravity4::position::Position;
use gravity4::search::outcome::Outcome;
use gravity4::search::playout::tactical_playout;
use gravity4::search::strong::{self, Workspace};
use gravity4::search::{SearchConfig, SearchLimits, Techniques, uct};
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;

/// What a search works in: the strong search's workspace (its tree serves plain UCT).
pub type Arena = Workspace;

/// Runs the search of bench row `row` (a name of `PROFILES` in speed.rs) from `pos` and
/// returns its iterations. "classic" and "strong" are the profiles as they ship; the others
/// are the strong profile with switches off ("strong-switch:LIST", `GRAVITY4_DISABLE`'s
/// names).
pub fn search(
    pos: &Position,
    arena: &mut Arena,
    row: &str,
    limits: &SearchLimits,
    rng: &mut SmallRng,
) -> u64 {
    arena.tree.clear();
    if row == "classic" {
        let report = uct::search(pos, &mut arena.tree, &SearchConfig::classic(), limits, rng);
        return report.expect("positions have moves").iterations;
    }
    let mut config = SearchConfig::strong();
    config.techniques.threat_sequences = row != "strong-chains";
    config.techniques.last_good_reply = row != "strong-lgr";
    config.techniques.policy_adaptation = row != "strong-lgr" && row != "strong-ppa";
    if let Some(switches) = row.strip_prefix("strong-switch:") {
        let (techniques, unknown) = Techniques::parse("", &switches.replace('+', ","));
        assert!(unknown.is_empty(), "{unknown:?}");
        config.techniques = techniques;
    }
    let report = strong::search(pos, 0, arena, &config, limits, rng);
    report.expect("positions have moves").iterations
}

/// The strong profile's playout (tactical, keeping threats).
pub fn tactical(pos: &mut ThreatPosition, rng: &mut SmallRng) -> Outcome {
    tactical_playout(pos, true, rng)
}
