//! The searches' documented contract, "returns `None` only when `root` has no legal move",
//! which `session::choose` relies on (`expect("a validated request has a legal move")`).
//!
//! A deadline that has already passed when the search starts is not exotic: on a loaded
//! machine the thread that calls `getPoint` can be descheduled for longer than a short
//! budget before the search loop first reads the clock. Before the fix (8f570c2) both
//! searches then returned `None`, `session::choose` panicked, and the FFI layer played its
//! fallback move instead of a searched one (seen in the end-to-end games at 15 ms).

use gravity4::position::Position;
use gravity4::search::transpositions::Transpositions;
use gravity4::search::tree::Tree;
use gravity4::search::{SearchConfig, SearchLimits, solver, uct};
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

#[test]
fn uct_search_answers_even_past_its_deadline() {
    let root = Position::new(9, 9, 4, 4).unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    let report = uct::search(
        &root,
        &mut Tree::default(),
        &SearchConfig::default(),
        &expired(),
        &mut rng,
    );
    let report = report.expect("a root with legal moves must get a move");
    assert!(root.can_play(report.col));
}

#[test]
fn solver_search_answers_even_past_its_deadline() {
    let root = Position::new(9, 9, 4, 4).unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    let report = solver::search(
        &root,
        &mut Tree::default(),
        &mut graph_for(&root),
        &SearchConfig::default(),
        &expired(),
        &mut rng,
    );
    let report = report.expect("a root with legal moves must get a move");
    assert!(root.can_play(report.col));
}

#[test]
fn searches_with_time_left_answer() {
    // The same calls with a live deadline: if these fail too, the tests above are not
    // about the deadline.
    let root = Position::new(9, 9, 4, 4).unwrap();
    let limits = SearchLimits {
        deadline: Instant::now() + Duration::from_millis(20),
        ..expired()
    };
    let mut rng = SmallRng::seed_from_u64(1);
    let config = SearchConfig::default();
    let a = uct::search(&root, &mut Tree::default(), &config, &limits, &mut rng);
    assert!(root.can_play(a.expect("uct answers").col));
    let limits = SearchLimits {
        deadline: Instant::now() + Duration::from_millis(20),
        ..expired()
    };
    let mut graph = graph_for(&root);
    let b = solver::search(
        &root,
        &mut Tree::default(),
        &mut graph,
        &config,
        &limits,
        &mut rng,
    );
    assert!(root.can_play(b.expect("solver answers").col));
}

/// A small transposition table ready for `root`'s board, as the strong profile uses one.
fn graph_for(root: &Position) -> Transpositions {
    Transpositions::prepared(root, 1 << 20)
}
