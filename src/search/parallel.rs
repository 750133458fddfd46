//! Tree parallelism for the strong search (`GRAVITY4_THREADS=N`, N > 1): N threads walk
//! one tree with virtual loss. With one thread the library runs
//! [`strong::search`](super::strong::search) itself, unchanged.
//!
//! The tree and the count of iterations sit behind one mutex. A thread takes it, backs up
//! the result of its last playout, walks the tree to a new leaf (selection, expansion with
//! tactics and threat sequences, the proofs: exactly the walk of the one-thread search),
//! adds a *virtual loss* along the path (one visit with no result yet, so the other threads
//! see that path as lost once more and pick other leaves), and lets the mutex go for the
//! playout, which is most of an iteration's time. Walks that end on a proven node need no
//! playout and are backed up at once, under the same lock. No `unsafe`: the mutex is the
//! whole of the sharing.
//!
//! What is per thread and why:
//! - the scratch board and the path: each walk plays its own moves;
//! - the random generator: the caller's for the calling thread, and for each helper one
//!   seeded from it, so `GRAVITY4_SEED` still fixes every generator (the interleaving of
//!   the threads, and so the play, is not reproducible with more than one);
//! - the learned playout policies (last good replies, policy adaptation): they are updated
//!   after every playout and read at every playout ply, so sharing them would put the
//!   playouts back under a lock (or need atomics on the 320 KB of a thread's tables, most
//!   of it the pair weights); each thread learns from its own iterations instead, about
//!   1/N of the search's. Their tables are kept in the [`Workspace`] between searches for
//!   their allocation, like the calling thread's;
//! - the UCB1 tables (48 KB, filled in microseconds): read at every tree level, where a
//!   shared copy would cost a pointer more to follow.
//!
//! What is shared read-only: the root, the settings, the order of expansion and the
//! learned evaluation's weights.
//!
//! The helpers are scoped threads ([`std::thread::scope`]): every one is joined (its OS
//! thread, not only its closure) before [`search`] returns, so nothing outlives the call
//! (a runner that gives up on a slow call leaves no thread behind). A panic in any thread raises a flag the others read at their
//! next turn at the mutex (or poisons it), so they stop at once; the first panic is then
//! re-raised in the caller, where the C boundary catches it and plays its fallback move as
//! for any other panic, and the session discards the half-updated tree.

use super::learned::Learned;
use super::outcome::Outcome;
use super::strong::{Walk, Workspace, learned_for, prove_upwards, report, value_model};
use super::tree::{NodeId, NodeKind, ROOT, Tree};
use super::ucb::{MAX_PATH, UcbTables, add_virtual_loss, backup, backup_results};
use super::{SearchConfig, SearchLimits, SearchReport, time_to_stop};
use crate::position::{Position, centre_first};
use crate::threats::ThreatPosition;
use rand::{RngCore, SeedableRng};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The most threads a search runs (`GRAVITY4_THREADS` accepts 1..=16).
pub const MAX_THREADS: usize = 16;

/// Runs the strong search from `root` with `threads` threads (the calling one and
/// `threads - 1` scoped helpers, all joined before it returns) over the one tree of
/// `work`. The same contract as [`strong::search`](super::strong::search): `None` only when
/// `root` has no legal move; `excluded_root_moves` are left out of the root; `work.tree` is
/// empty or a subtree kept for exactly `root`. The deadline, the iteration count and the
/// stops are those of the one-thread search, counted over all threads.
///
/// # Panics
/// Re-raises a panic of any of its threads, after all of them have stopped.
pub fn search<R: RngCore + Clone + SeedableRng + Send>(
    root: &Position,
    excluded_root_moves: u16,
    work: &mut Workspace,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut R,
    threads: usize,
) -> Option<SearchReport> {
    if root.open_columns() == 0 {
        return None;
    }
    let helpers = threads.clamp(1, MAX_THREADS) - 1;
    work.tree.prepare(limits.memory_bytes);
    work.helper_learned.resize_with(helpers, || None);
    let mut helper_rngs: Vec<R> = (0..helpers)
        .map(|_| R::seed_from_u64(rng.next_u64()))
        .collect();
    let search = Search {
        root,
        root_tp: ThreatPosition::new(root.clone()),
        config,
        limits,
        order: centre_first(root.cols()),
        excluded_root_moves,
        start: Instant::now(),
        shared: Mutex::new(Shared {
            tree: &mut work.tree,
            iterations: 0,
            stop: false,
        }),
        abort: AtomicBool::new(false),
    };
    let slots = work.helper_learned.iter_mut().zip(helper_rngs.iter_mut());
    std::thread::scope(|scope| {
        let helpers: Vec<_> = slots
            .map(|(slot, helper_rng)| {
                let search = &search;
                scope.spawn(move || search.run(learned_for(slot, config), helper_rng))
            })
            .collect();
        let own = panic::catch_unwind(AssertUnwindSafe(|| {
            search.run(learned_for(&mut work.learned, config), rng)
        }));
        // Joined by hand: the scope alone waits only until each helper's closure returns,
        // and its OS thread may still be exiting after the call (a test saw one); a join
        // waits for the thread itself, so none runs once `search` returns.
        let mut raised = own.err();
        for helper in helpers {
            if let Err(payload) = helper.join() {
                raised.get_or_insert(payload);
            }
        }
        if let Some(payload) = raised {
            panic::resume_unwind(payload);
        }
    });
    // No thread panicked (its panic would have been re-raised), so the lock is not poisoned.
    let shared = search
        .shared
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    report(shared.tree, shared.iterations)
}

/// What the threads share behind the mutex.
struct Shared<'t> {
    tree: &'t mut Tree,
    /// Iterations begun by all threads (each counted when its walk starts).
    iterations: u64,
    /// Set by the thread that finds the search over; the others stop at their next turn.
    stop: bool,
}

/// One parallel search: what every thread reads, and the shared tree.
struct Search<'a> {
    root: &'a Position,
    root_tp: ThreatPosition,
    config: &'a SearchConfig,
    limits: &'a SearchLimits,
    /// The order in which a node's children are added (centre first).
    order: Vec<u8>,
    excluded_root_moves: u16,
    start: Instant,
    shared: Mutex<Shared<'a>>,
    /// Raised when a thread panics: the others stop at their next turn.
    abort: AtomicBool,
}

/// Raises its flag when dropped by a panicking thread.
struct RaiseOnPanic<'a>(&'a AtomicBool);

impl Drop for RaiseOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // Relaxed: a hint to stop early; the scope's join orders everything else.
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

impl Search<'_> {
    /// One thread's share of the search: walks under the lock, playouts outside it, until
    /// the search is over.
    fn run<R: RngCore + Clone>(&self, learned: &mut Learned, rng: &mut R) {
        let _raise = RaiseOnPanic(&self.abort);
        let mut walk = Walk {
            learned,
            config: self.config,
            tables: UcbTables::new(),
            order: &self.order,
            excluded_root_moves: self.excluded_root_moves,
            model: value_model(self.root, self.config),
            rng,
        };
        let mut scratch = self.root_tp.clone();
        let mut path = [ROOT; MAX_PATH];
        let mut pending = None;
        while let Some(depth) = self.next_leaf(&mut walk, &mut scratch, &mut path, pending) {
            let outcome = walk.playout(&mut scratch);
            if self.config.techniques.learns_playout_policy() {
                walk.learned.learn(outcome);
            }
            pending = Some((outcome, depth));
        }
    }

    /// Under the lock: backs up `pending` (the outcome of the last playout, whose path is
    /// still in `path`, and its depth), then walks iterations until one ends at a leaf that
    /// needs a playout, and returns that leaf's depth with a virtual loss added along its
    /// path (`scratch` left at the leaf). `None` when the search is over.
    fn next_leaf<R: RngCore + Clone>(
        &self,
        walk: &mut Walk<'_, R>,
        scratch: &mut ThreatPosition,
        path: &mut [NodeId; MAX_PATH],
        pending: Option<(Outcome, usize)>,
    ) -> Option<usize> {
        // A poisoned lock: a thread panicked mid-walk; the scope re-raises its panic.
        let mut shared = self.shared.lock().ok()?;
        let Shared {
            tree,
            iterations,
            stop,
        } = &mut *shared;
        let to_move = self.root.to_move();
        if let Some((outcome, depth)) = pending {
            backup_results(tree, &path[..=depth], to_move, outcome);
            prove_upwards(tree, &path[..=depth]);
        }
        loop {
            if *stop || self.abort.load(Ordering::Relaxed) || self.time_to_stop(tree, *iterations) {
                *stop = true;
                return None;
            }
            *iterations += 1;
            scratch.clone_from(&self.root_tp);
            walk.learned.begin(to_move);
            let (leaf, depth) = walk.descend(tree, scratch, path);
            let Some(outcome) = leaf else {
                add_virtual_loss(tree, &path[..=depth]);
                return Some(depth);
            };
            // Decided in the tree: no playout, so no reason to let the lock go.
            if self.config.techniques.learns_playout_policy() {
                walk.learned.learn(outcome);
            }
            backup(tree, &path[..=depth], to_move, outcome);
            prove_upwards(tree, &path[..=depth]);
        }
    }

    /// The one-thread search's stop rule ([`time_to_stop`]) over the iterations of all
    /// threads: the clock is read every [`CLOCK_EVERY`](super::ucb::CLOCK_EVERY) of them.
    fn time_to_stop(&self, tree: &Tree, iterations: u64) -> bool {
        let root_proven = tree.node(ROOT).kind != NodeKind::Open;
        let root_moves = || tree.children(ROOT).iter().map(|c| (c.kind, c.visits));
        time_to_stop(
            iterations,
            self.start,
            self.config,
            self.limits,
            root_proven,
            root_moves,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::after;
    use super::*;
    use rand::rngs::SmallRng;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::time::Duration;

    /// Limits of `iterations` iterations, or of a minute's clock when `None`.
    fn limits(iterations: Option<u64>) -> SearchLimits {
        SearchLimits {
            max_iterations: iterations,
            ..SearchLimits::for_duration(Duration::from_secs(60), 64 << 20)
        }
    }

    /// The default search with `threads` threads from nothing, and its tree.
    fn run(
        pos: &Position,
        threads: usize,
        limits: &SearchLimits,
        seed: u64,
    ) -> (SearchReport, Workspace) {
        let mut work = Workspace::default();
        let mut rng = SmallRng::seed_from_u64(seed);
        let config = SearchConfig::strong();
        let report = search(pos, 0, &mut work, &config, limits, &mut rng, threads).unwrap();
        (report, work)
    }

    /// Every iteration's virtual loss got its result: at an unproven root every iteration
    /// passed through exactly one child, and a root's and its child's results add to a win
    /// (2 half points) per iteration. No node has more half points than two per visit.
    fn assert_consistent(tree: &Tree, iterations: u64) {
        let root = tree.node(ROOT);
        let children = tree.children(ROOT);
        let visits: u64 = children.iter().map(|c| u64::from(c.visits)).sum();
        let half_points: u64 = children.iter().map(|c| u64::from(c.half_points)).sum();
        assert_eq!(u64::from(root.visits), iterations);
        if root.kind == NodeKind::Open {
            assert_eq!(visits, iterations);
            assert_eq!(half_points + u64::from(root.half_points), 2 * iterations);
        }
        for id in 0..tree.len() as NodeId {
            let n = tree.node(id);
            assert!(n.half_points <= 2 * n.visits, "node {id}: {n:?}");
            let below: u32 = tree.children(id).iter().map(|c| c.visits).sum();
            assert!(below <= n.visits, "node {id}: {n:?}, children {below}");
        }
    }

    /// Random positions of every size: two and three threads play a legal move, make
    /// exactly the iterations asked for, and leave a consistent tree.
    #[test]
    fn legal_moves_and_consistent_visits_on_random_positions() {
        let mut rng = SmallRng::seed_from_u64(51);
        for case in 0..24u64 {
            let (rows, cols) = (9 + (case % 4) as usize, 9 + (case / 4 % 4) as usize);
            let blocked = (case as usize * 7 % rows, case as usize * 5 % cols);
            let mut pos = Position::new(rows, cols, blocked.0, blocked.1).unwrap();
            let mut won = false;
            for _ in 0..rng.next_u32() % 40 {
                let open: Vec<usize> = (0..cols).filter(|&c| pos.can_play(c)).collect();
                won = pos.play(open[rng.next_u32() as usize % open.len()]);
                if won {
                    break;
                }
            }
            if won || pos.open_columns() == 0 {
                continue;
            }
            let threads = 2 + (case % 2) as usize;
            let (report, work) = run(&pos, threads, &limits(Some(3_000)), case);
            assert!(pos.can_play(report.col), "case {case}: {report:?}");
            assert!(report.iterations <= 3_000);
            if report.proof == NodeKind::Open {
                assert_eq!(report.iterations, 3_000, "case {case}");
            }
            assert_consistent(&work.tree, report.iterations);
        }
    }

    #[test]
    fn takes_a_win_in_one_and_proves_a_win_in_three() {
        let (report, _) = run(&after(&[0, 0, 1, 1, 2, 2]), 2, &limits(Some(1_000)), 1);
        assert_eq!((report.col, report.proof), (3, NodeKind::Win));
        let (report, work) = run(&after(&[2, 2, 3, 3]), 2, &limits(Some(200_000)), 2);
        assert_eq!(report.proof, NodeKind::Win, "{report:?}");
        assert!(report.col == 1 || report.col == 4, "{report:?}");
        assert_consistent(&work.tree, report.iterations);
    }

    #[test]
    fn blocks_a_forced_move_with_two_threads() {
        let (report, work) = run(&after(&[0, 1, 6, 2, 6, 3]), 2, &limits(Some(5_000)), 3);
        assert_eq!(report.col, 4);
        assert_consistent(&work.tree, report.iterations);
    }

    /// The deadline holds over all threads (generous: the machine is shared).
    #[test]
    fn stops_at_the_deadline() {
        let pos = Position::new(12, 12, 0, 0).unwrap();
        let start = Instant::now();
        let limits = SearchLimits::for_duration(Duration::from_millis(100), 64 << 20);
        let (report, work) = run(&pos, 2, &limits, 4);
        assert!(start.elapsed() < Duration::from_millis(100 + 150));
        assert!(report.iterations >= 1);
        assert_consistent(&work.tree, report.iterations);
    }

    /// A kept subtree is continued, as the session's reuse hands it over.
    #[test]
    fn continues_a_kept_subtree() {
        let pos = after(&[3, 3, 2]);
        let (first, mut work) = run(&pos, 2, &limits(Some(4_000)), 5);
        let kept = work.tree.node(ROOT).visits;
        let mut rng = SmallRng::seed_from_u64(6);
        let config = SearchConfig::strong();
        let again = limits(Some(1_000));
        let second = search(&pos, 0, &mut work, &config, &again, &mut rng, 2).unwrap();
        assert_eq!(first.iterations, 4_000);
        assert_eq!(work.tree.node(ROOT).visits, kept + 1_000);
        assert!(pos.can_play(second.col));
    }

    /// A generator that panics after a number of draws (`None`: never): a helper's
    /// (`seed_from_u64` makes the helpers') fails in the middle of the search.
    #[derive(Clone)]
    struct Failing {
        inner: SmallRng,
        draws_left: Option<u32>,
    }

    impl Failing {
        fn step(&mut self) {
            if let Some(left) = &mut self.draws_left {
                assert!(*left > 0, "a helper's generator fails (planted)");
                *left -= 1;
            }
        }
    }

    impl RngCore for Failing {
        fn next_u32(&mut self) -> u32 {
            self.step();
            self.inner.next_u32()
        }
        fn next_u64(&mut self) -> u64 {
            self.step();
            self.inner.next_u64()
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            self.step();
            self.inner.fill_bytes(dst)
        }
    }

    impl SeedableRng for Failing {
        type Seed = <SmallRng as SeedableRng>::Seed;
        fn from_seed(seed: Self::Seed) -> Failing {
            Failing {
                inner: SmallRng::from_seed(seed),
                draws_left: Some(5_000),
            }
        }
    }

    /// The search with a helper that panics: the panic reaches the caller after every
    /// thread stopped, long before the deadline.
    fn search_with_a_failing_helper(pos: &Position) -> Option<SearchReport> {
        let mut rng = Failing {
            inner: SmallRng::seed_from_u64(7),
            draws_left: None,
        };
        let limits = SearchLimits::for_duration(Duration::from_secs(20), 64 << 20);
        let config = SearchConfig::strong();
        search(
            pos,
            0,
            &mut Workspace::default(),
            &config,
            &limits,
            &mut rng,
            2,
        )
    }

    #[test]
    fn a_helpers_panic_reaches_the_caller_after_all_threads_stopped() {
        let pos = Position::new(12, 12, 0, 0).unwrap();
        let start = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| search_with_a_failing_helper(&pos)));
        assert!(result.is_err());
        // The calling thread stopped at its next turn, not at the 20 s deadline.
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
    }

    /// Through the C boundary, a helper's panic becomes the fallback move of any panic: a
    /// legal point, not an unwind into the caller.
    #[test]
    fn a_helpers_panic_becomes_the_c_boundarys_fallback_move() {
        use crate::ffi::{RawArgs, answer, free_point};
        let (top, board) = ([9i32; 9], [0i32; 81]);
        let args = RawArgs {
            rows: 9,
            cols: 9,
            top: top.as_ptr(),
            board: board.as_ptr(),
            last_row: -1,
            last_col: -1,
            blocked_row: 0,
            blocked_col: 8,
        };
        let strategy = |request: &crate::request::Request| {
            search_with_a_failing_helper(&request.position).map_or(99, |r| r.col)
        };
        // SAFETY: `top` and `board` have the lengths the sizes ask for.
        let point = unsafe { answer(args, strategy) };
        assert!(!point.is_null());
        // SAFETY: a non-null result of `answer`, freed once below.
        let (x, y) = unsafe { ((*point).x, (*point).y) };
        assert_eq!(
            (x, y),
            (8, 4),
            "the fallback: the centre column's landing cell"
        );
        // SAFETY: as above.
        unsafe { free_point(point) };
    }
}
