//! The searches' documented contract, "returns `None` only when `root` has no legal move",
//! which `session::choose` relies on (`expect("a validated request has a legal move")`),
//! checked for the two profiles as they ship: [`SearchConfig::classic`] and the default,
//! [`SearchConfig::strong`].
//!
//! A deadline that has already passed when the search starts is not exotic: on a loaded
//! machine the thread that calls `getPoint` can be descheduled for longer than a short
//! budget before the search loop first reads the clock. Before the fix (8f570c2) both
//! searches then returned `None`, `session::choose` panicked, and the FFI layer played its
//! fallback move instead of a searched one (seen in the end-to-end games at 15 ms).

use gravity4::position::Position;
use gravity4::search::strong::Workspace;
use gravity4::search::tree::Tree;
use gravity4::search::{SearchConfig, SearchLimits, SearchReport, strong, uct};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// Limits whose deadline passed a while ago.
fn expired() -> SearchLimits {
    let now = Instant::now();
    SearchLimits {
        deadline: now.checked_sub(Duration::from_millis(50)).unwrap_or(now),
        max_iterations: None,
        memory_bytes: 16 << 20,
    }
}

/// Limits with 20 ms left.
fn live() -> SearchLimits {
    SearchLimits {
        deadline: Instant::now() + Duration::from_millis(20),
        ..expired()
    }
}

/// The classic profile's search, as `getPoint` runs it.
fn classic(root: &Position, limits: &SearchLimits) -> Option<SearchReport> {
    let mut rng = SmallRng::seed_from_u64(1);
    let config = SearchConfig::classic();
    uct::search(root, &mut Tree::default(), &config, limits, &mut rng)
}

/// The default profile's search, as `getPoint` runs it.
fn default_strong(root: &Position, limits: &SearchLimits) -> Option<SearchReport> {
    let mut rng = SmallRng::seed_from_u64(1);
    let config = SearchConfig::strong();
    strong::search(
        root,
        0,
        &mut Workspace::default(),
        &config,
        limits,
        &mut rng,
    )
}

#[test]
fn the_classic_profile_answers_even_past_its_deadline() {
    let root = Position::new(9, 9, 4, 4).unwrap();
    let report = classic(&root, &expired()).expect("a root with legal moves must get a move");
    assert!(root.can_play(report.col));
}

#[test]
fn the_default_profile_answers_even_past_its_deadline() {
    let root = Position::new(9, 9, 4, 4).unwrap();
    let report =
        default_strong(&root, &expired()).expect("a root with legal moves must get a move");
    assert!(root.can_play(report.col));
}

#[test]
fn both_profiles_answer_with_time_left() {
    // The same calls with a live deadline: if these fail too, the tests above are not
    // about the deadline.
    let root = Position::new(9, 9, 4, 4).unwrap();
    let a = classic(&root, &live()).expect("classic answers");
    assert!(root.can_play(a.col));
    let b = default_strong(&root, &live()).expect("the default answers");
    assert!(root.can_play(b.col));
}
