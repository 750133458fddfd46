//! Rungs 8 to 10: the `gravity4` library's own search at growing shares of its budget.
//!
//! They call [`gravity4::session::choose`], the very code path the library's `getPoint` uses,
//! with the per-move budget scaled down and the search pinned to the strong profile as it
//! was when the ladder was measured ([`LADDER_SEARCH`]): a yardstick that moved whenever the
//! library improved could never show the improvement, and the default profile is expected
//! to beat rung 10. `GRAVITY4_MOVE_MS` still scales every UCT rung; the other `GRAVITY4_*`
//! search switches (`GRAVITY4_THREADS` too) do not reach them.

use crate::{fresh_rng, greedy};
use gravity4::request::Request;
use gravity4::search::config::{ADAPTATION_RATE, MODEL_DEPTH, MODEL_PRIOR};
use gravity4::search::{Profile, SearchConfig, Techniques};
use gravity4::session;
use gravity4::settings::Settings;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

/// Shares are never cut below this, so even `GRAVITY4_MOVE_MS=20` leaves rung 8 a few
/// thousand iterations.
const MIN_BUDGET: Duration = Duration::from_millis(2);

/// The library's move with `permille`/1000 of the budget `Settings::from_env()` gives (at
/// least [`MIN_BUDGET`]).
///
/// If the library's search fails (it panics when its deadline passes before its first
/// iteration, which a few-millisecond share can meet on a loaded machine), the greedy-safe move is
/// played rather than the C boundary's blind centre-column fallback.
pub fn choose_with_share(request: &Request, permille: u32) -> usize {
    choose_with_settings(request, &share(&Settings::from_env(), permille))
}

/// The search the UCT rungs play, fixed: the strong profile with the exploration constant
/// and techniques it had when the ladder was measured (UCB1 c = 0.8; proofs, tactics, tree
/// reuse, the endgame solver and the early stop; no learned playout policies).
pub const LADDER_SEARCH: SearchConfig = SearchConfig {
    profile: Profile::Strong,
    exploration: 0.8,
    // Named switches on, everything else off: a technique added to the library later stays
    // out of the ladder unless it is named here.
    techniques: Techniques {
        tactical_playouts: true,
        reuse: true,
        endgame: true,
        early_stop: true,
        ..Techniques::NONE
    },
    // Unread: policy adaptation and the learned evaluation are off.
    adaptation_rate: ADAPTATION_RATE,
    model_prior: MODEL_PRIOR,
    model_depth: MODEL_DEPTH,
};

/// `settings` with `permille`/1000 of its budget (at least [`MIN_BUDGET`]) and the search
/// pinned to [`LADDER_SEARCH`] on one thread.
pub fn share(settings: &Settings, permille: u32) -> Settings {
    let budget = (settings.budget * permille / 1000).max(MIN_BUDGET);
    Settings {
        budget,
        search: LADDER_SEARCH,
        // One thread, as when the ladder was measured, whatever GRAVITY4_THREADS says.
        threads: 1,
        ..*settings
    }
}

/// The library's move under `settings`, or the greedy-safe move if the library's search
/// fails.
pub fn choose_with_settings(request: &Request, settings: &Settings) -> usize {
    catch_unwind(AssertUnwindSafe(|| session::choose(request, settings)))
        .unwrap_or_else(|_| greedy::greedy_move(&request.position, true, true, &mut fresh_rng()))
}

/// Rung 8: 4.5% of the budget.
///
/// The shares of rungs 8 and 9 were placed by measurement (judge, `GRAVITY4_MOVE_MS=100`):
/// 6% scored 72% against rung 7, 25% scored 69.5% against 6%, but the full budget only 63.5%
/// against 25% (the strong profile stops early once its choice is settled, so more time buys
/// less at the top). 4.5% and 16% split that range into three roughly equal steps.
pub fn choose_4_5_percent(request: &Request) -> usize {
    choose_with_share(request, 45)
}

/// Rung 9: 16% of the budget.
pub fn choose_16_percent(request: &Request) -> usize {
    choose_with_share(request, 160)
}

/// Rung 10: the full budget, with the pinned search of [`LADDER_SEARCH`] (the library's
/// default before the learned playout policies and the tuned exploration constant).
pub fn choose_full(request: &Request) -> usize {
    choose_with_share(request, 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_scale_the_budget_and_pin_the_search() {
        let mut settings = Settings::from_env();
        settings.budget = Duration::from_millis(2000);
        settings.search = SearchConfig {
            profile: Profile::Classic,
            exploration: 3.0,
            techniques: Techniques::parse("", "reuse,endgame").0,
            adaptation_rate: 1.0,
            model_prior: 9,
            model_depth: 2,
        };
        settings.threads = 4;
        let rung = share(&settings, 160);
        assert_eq!(rung.threads, 1);
        assert_eq!(rung.budget, Duration::from_millis(320));
        assert_eq!(rung.search, LADDER_SEARCH);
        assert_eq!(rung.search.profile, Profile::Strong);
        assert_eq!(rung.search.exploration, 0.8);
        assert!(rung.search.techniques.reuse && rung.search.techniques.endgame);
        assert!(!rung.search.techniques.last_good_reply);
        assert_eq!(share(&settings, 0).budget, MIN_BUDGET);
    }
}
