//! Rungs 8 to 10: the `gravity4` library's own search at growing shares of its budget.
//!
//! They call [`gravity4::session::choose`], the very code path the library's `getPoint` uses,
//! with the per-move budget scaled down. So the ladder follows the library: if it gains a
//! stronger configuration, rung 10 plays it, and `GRAVITY4_MOVE_MS` scales every UCT rung.

use crate::{fresh_rng, greedy};
use gravity4::ffi::Request;
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
/// played rather than `gravity4::ffi::answer`'s blind centre-column fallback.
pub fn choose_with_share(request: &Request, permille: u32) -> usize {
    choose_with_settings(request, &share(&Settings::from_env(), permille))
}

/// `settings` with `permille`/1000 of its budget (at least [`MIN_BUDGET`]).
pub fn share(settings: &Settings, permille: u32) -> Settings {
    let budget = (settings.budget * permille / 1000).max(MIN_BUDGET);
    Settings {
        budget,
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

/// Rung 10: the library exactly as it ships (full budget): the strongest we have.
pub fn choose_full(request: &Request) -> usize {
    choose_with_share(request, 1000)
}
