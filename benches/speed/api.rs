//! The library calls of the speed bench, for the API since issue 36 (the strong search works
//! in a [`Workspace`]). `scripts/speed-vs.sh` builds this bench against older commits with
//! `api_before_36.rs` or `api_before_18.rs` (taken from commit e74af81) in this file's place:
//! the rest of the bench is the same.

use gravity4::position::Position;
use gravity4::search::config::ADAPTATION_RATE;
use gravity4::search::learned::Learned;
use gravity4::search::outcome::Outcome;
use gravity4::search::playout::{tactical_playout, tactical_playout_learned};
use gravity4::search::strong::{self, Workspace};
use gravity4::search::{SearchConfig, SearchLimits, Techniques, parallel, uct};
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;

/// What a search works in: the strong search's workspace (its tree serves plain UCT).
pub type Arena = Workspace;

/// Runs the search of bench row `row` (a name of `PROFILES` in speed.rs) from `pos` and
/// returns its iterations. "classic" and "strong" are the profiles as they ship; the others
/// are the strong profile with switches off ("strong-switch:LIST", `GRAVITY4_DISABLE`'s
/// names) or the default on N threads ("strong-threads:N", `GRAVITY4_THREADS=N`).
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
    let report = match row.strip_prefix("strong-threads:") {
        Some(n) => {
            let threads = n.parse().expect("strong-threads:N, N a number of threads");
            parallel::search(pos, 0, arena, &config, limits, rng, threads)
        }
        None => strong::search(pos, 0, arena, &config, limits, rng),
    };
    report.expect("positions have moves").iterations
}

/// The strong profile's playout (tactical, keeping threats).
pub fn tactical(pos: &mut ThreatPosition, rng: &mut SmallRng) -> Outcome {
    tactical_playout(pos, true, rng)
}

/// The default's learned playout policies (last good replies, policy adaptation with pair
/// weights), for `--fixed`'s learned playouts.
pub type Policy = Learned;

/// Empty tables of the default's learned policies; `None` where this API has none to
/// measure on their own.
pub fn policy() -> Option<Policy> {
    Some(Learned::new(&Techniques::DEFAULT, ADAPTATION_RATE))
}

/// The default's playout from `pos` (tactical, keeping threats, free choices by `policy`),
/// recorded in `policy` as the search records one. Not inlined, so that callgrind counts
/// it apart.
#[inline(never)]
pub fn learned_playout(
    pos: &mut ThreatPosition,
    policy: &mut Policy,
    rng: &mut SmallRng,
) -> Outcome {
    policy.begin(pos.position().to_move());
    tactical_playout_learned(pos, true, policy, rng)
}

/// What `policy` learns from the playout just recorded (`Learned::learn`), counted apart.
#[inline(never)]
pub fn learn(policy: &mut Policy, outcome: Outcome) {
    policy.learn(outcome);
}
