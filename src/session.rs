//! What the library keeps between calls, and why that is safe.
//!
//! The course judge calls `getPoint` on a new thread every move, loads one instance for both
//! sides when a library plays itself, and runs game after game in one process. So nothing
//! about the *game* is kept here: every call searches from the position it is given, which is
//! correct under all three. The only thing kept is the tree's memory (a cleared arena), so a
//! call does not pay to page-fault a fresh 100 MB in. It sits behind a mutex; a second,
//! concurrent caller simply gets a fresh arena instead of waiting.

use crate::ffi::Request;
use crate::search::tree::Tree;
use crate::search::{SearchConfig, SearchLimits, SearchReport, solver, uct};
use crate::settings::{Profile, Settings};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::{Mutex, TryLockError};

static ARENA: Mutex<Option<Tree>> = Mutex::new(None);

/// Chooses a column for `request` within the budget in `settings`.
pub fn choose(request: &Request, settings: &Settings) -> usize {
    let mut guard = match ARENA.try_lock() {
        Ok(guard) => Some(guard),
        // A panic mid-search left the arena locked-and-poisoned; it is reset before use anyway.
        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    };
    let mut fresh = None;
    let tree = match guard.as_deref_mut() {
        Some(slot) => slot.get_or_insert_with(Tree::default),
        None => fresh.get_or_insert_with(Tree::default),
    };
    let limits = SearchLimits {
        deadline: request.entry + settings.budget,
        max_iterations: None,
        memory_bytes: settings.tree_bytes,
    };
    let mut rng = SmallRng::from_os_rng();
    let config = SearchConfig::default();
    let report = match settings.profile {
        Profile::Classic => uct::search(&request.position, tree, &config, &limits, &mut rng),
        Profile::Strong => solver::search(&request.position, tree, &config, &limits, &mut rng),
    }
    .expect("a validated request has a legal move");
    if settings.log {
        log_line(request, &report, settings.profile);
    }
    report.col
}

fn log_line(request: &Request, report: &SearchReport, profile: Profile) {
    eprintln!(
        "gravity4: ms={} iterations={} nodes={} move={} winrate={:.4} proof={:?} profile={}",
        request.entry.elapsed().as_millis(),
        report.iterations,
        report.nodes,
        report.col,
        report.winrate,
        report.proof,
        profile.name()
    );
}
