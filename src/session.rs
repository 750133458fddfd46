//! What the library keeps between calls, and why that is safe.
//!
//! The course judge calls `getPoint` on a new thread every move, loads one instance for both
//! sides when a library plays itself, and runs game after game in one process. What is kept
//! must be correct under all three, so it is keyed by *position*, never by thread or call
//! count. It is the strong search's [`Workspace`] and the last search:
//!
//! - The tree arena's memory, so a call does not page-fault a fresh 100 MB in.
//! - For the strong profile, the exact endgame solver's table: its bounds are facts about
//!   positions (keyed with the side to move), so an attempt that ran out of time leaves the
//!   next one a head start. A different board empties it.
//! - For the strong profile, the learned playout tables' memory (emptied for every search).
//! - For the strong profile, the last search: its root position, the move we chose and the
//!   tree. If the new position is exactly that root plus our move plus the opponent's reply
//!   (`lastX, lastY`), the search continues from that grandchild's subtree. Anything else (a
//!   new game, the other side of a self-play game, a position edited by hand) fails the
//!   comparison and starts a fresh tree.
//!
//! It all sits behind one mutex; a concurrent second caller gets a fresh workspace instead
//! of waiting.

use crate::position::{Position, centre_first};
use crate::request::Request;
use crate::search::endgame::{self, EndgameTable};
use crate::search::strong::Workspace;
use crate::search::tree::{NodeKind, ROOT, Tree};
use crate::search::{Profile, SearchLimits, SearchReport, parallel, strong, uct};
use crate::settings::{ENDGAME_NODES_PER_ITERATION, Settings};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::{Mutex, TryLockError};
use std::time::{Duration, Instant};

/// The state kept between calls.
#[derive(Default)]
struct Session {
    /// The tree, the learned tables and the endgame table.
    work: Workspace,
    /// What the last strong search looked at and chose.
    last: Option<LastSearch>,
}

/// What the previous strong search looked at and chose.
struct LastSearch {
    root: Position,
    our_col: usize,
}

static SESSION: Mutex<Option<Session>> = Mutex::new(None);

/// Forgets everything kept between calls, as if the library had just been loaded: for runs
/// that must not depend on the calls before them (fuzzing, reproducible tests).
pub fn reset() {
    let mut guard = SESSION
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *guard = None;
}

/// Chooses a column for `request` within the budget in `settings`.
pub fn choose(request: &Request, settings: &Settings) -> usize {
    let mut guard = match SESSION.try_lock() {
        Ok(guard) => Some(guard),
        // A panic mid-search poisoned the lock; the state is checked before any reuse, and a
        // half-updated tree is discarded below because `last` is only set after a search.
        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    };
    let mut fresh = None;
    let session = match guard.as_deref_mut() {
        Some(slot) => slot.get_or_insert_with(Session::default),
        None => fresh.get_or_insert_with(Session::default),
    };
    let limits = SearchLimits {
        deadline: deadline(request, settings),
        max_iterations: settings.iterations,
        memory_bytes: settings.tree_bytes,
    };
    let mut rng = match settings.seed {
        Some(seed) => SmallRng::seed_from_u64(seed),
        None => SmallRng::from_os_rng(),
    };
    let config = &settings.search;
    let last = session
        .last
        .take()
        .filter(|last| continues_last_search(last, request));
    let work = &mut session.work;
    let (report, reused) = match config.profile {
        Profile::Classic => {
            let report = uct::search(&request.position, &mut work.tree, config, &limits, &mut rng);
            (report, 0)
        }
        Profile::Strong => search_strong(request, settings, work, last, &limits, &mut rng),
    };
    let Some(report) = report else {
        // Unreachable for a validated request (searches always run one iteration), but a
        // wrong answer here would cost the game.
        return fallback_column(request);
    };
    if config.profile == Profile::Strong {
        session.last = Some(LastSearch {
            root: request.position.clone(),
            our_col: report.col,
        });
    }
    if settings.log {
        log_line(request, &report, config.profile, reused);
    }
    report.col
}

/// The strong profile's move: the kept subtree when `last` continues into this position,
/// then the exact endgame solver, then MCTS over the moves it did not prove lost. Returns the
/// report and how many nodes were reused.
fn search_strong(
    request: &Request,
    settings: &Settings,
    work: &mut Workspace,
    last: Option<LastSearch>,
    limits: &SearchLimits,
    rng: &mut SmallRng,
) -> (Option<SearchReport>, u32) {
    let config = &settings.search;
    let reused = reuse_subtree(
        &mut work.tree,
        last.filter(|_| config.techniques.reuse),
        request,
    );
    let endgame = config
        .techniques
        .endgame
        .then(|| solve_endgame(request, settings, &mut work.endgame));
    let losing = match endgame.flatten() {
        Some(Endgame::Win(report)) => return (Some(report), reused),
        Some(Endgame::Excluded(losing)) => losing,
        _ => 0,
    };
    // A kept tree keeps its statistics; its root children the endgame solver proved lost
    // are marked so selection and the final choice skip them.
    work.tree.mark_root_losses(losing);
    let pos = &request.position;
    let report = match settings.threads {
        1 => strong::search(pos, losing, work, config, limits, rng),
        // Scoped threads, every one joined before this returns (`parallel`'s module doc).
        threads => parallel::search(pos, losing, work, config, limits, rng, threads),
    };
    (report, reused)
}

/// The most central open column: the answer when no search produced one.
fn fallback_column(request: &Request) -> usize {
    let open = request.position.open_columns();
    centre_first(request.position.cols())
        .into_iter()
        .map(usize::from)
        .find(|&c| open & (1 << c) != 0)
        .unwrap_or(0)
}

/// Share of the move budget the exact solver may use before MCTS takes over: small, because
/// a solve that does not finish is time MCTS loses (40% measured clearly worse, STRENGTH.md).
const ENDGAME_SHARE: f64 = 0.1;

/// What the exact solver settled at the root.
enum Endgame {
    /// A proven win: play this move, no search needed.
    Win(SearchReport),
    /// No win; these root moves (bit per column) are proven losses, unless all are.
    Excluded(u16),
}

/// The most empty cells at which the solver is tried with `share` of time: 44 at 20 ms (the
/// share of a 200 ms move), 4 more per doubling, at most [`endgame::MAX_EMPTY`] (57 at the
/// default 2 s). In real games a 20 ms solve first finishes at 47 empty cells on average and
/// a 200 ms one at 51 (`cargo bench --bench endgame`); an attempt that does not finish costs
/// the search its share, which a short move can afford less, and one that is tried early
/// leaves its table to the next.
fn endgame_max_empty(share: Duration) -> usize {
    let doublings = (share.as_secs_f64() / 0.020).log2();
    let max_empty = 44.0 + 4.0 * doublings;
    max_empty.clamp(0.0, endgame::MAX_EMPTY as f64) as usize
}

/// Runs the exact solver when few cells are left, within a share of the budget. What it
/// settled before the deadline counts even when it did not finish.
fn solve_endgame(
    request: &Request,
    settings: &Settings,
    table: &mut EndgameTable,
) -> Option<Endgame> {
    let pos = &request.position;
    let share = settings.budget.mul_f64(ENDGAME_SHARE);
    if pos.empty_cells() > endgame_max_empty(share) {
        return None;
    }
    table.prepare(pos);
    let solve = match settings.iterations {
        Some(iterations) => {
            let nodes = iterations.saturating_mul(ENDGAME_NODES_PER_ITERATION);
            endgame::solve_root_within(pos, table, deadline(request, settings), nodes)
        }
        None => endgame::solve_root(pos, table, request.entry + share),
    };
    if let Some(col) = solve.winning_move() {
        return Some(Endgame::Win(SearchReport {
            proof: NodeKind::Win,
            col,
            winrate: 1.0,
            iterations: solve.nodes,
            nodes: 0,
        }));
    }
    let losing = solve.losing_moves();
    // When every move loses, the search still picks the one that resists longest.
    let open = pos.open_columns();
    Some(Endgame::Excluded(if losing == open { 0 } else { losing }))
}

/// When the search must stop: the budget after the call's entry, or with a fixed iteration
/// count ([`Settings::iterations`]) a day later, so that only the count stops it.
fn deadline(request: &Request, settings: &Settings) -> Instant {
    match settings.iterations {
        Some(_) => request.entry + Duration::from_secs(24 * 3600),
        None => request.entry + settings.budget,
    }
}

/// True when `request`'s position is exactly the last search's root plus the move we chose
/// and the opponent's reply (`lastX, lastY`): the same game, from the same side.
fn continues_last_search(last: &LastSearch, request: &Request) -> bool {
    let Some((_, their_col)) = request.last_move else {
        return false;
    };
    let mut expected = last.root.clone();
    for col in [last.our_col, their_col] {
        if !expected.can_play(col) || expected.play(col) {
            return false;
        }
    }
    expected == request.position
}

/// Keeps the subtree for `request` if `last`, the last search, is one it continues
/// ([`continues_last_search`]); returns the visits kept (0 when the tree starts afresh).
fn reuse_subtree(tree: &mut Tree, last: Option<LastSearch>, request: &Request) -> u32 {
    let kept = last.and_then(|last| {
        let (_, their_col) = request.last_move?;
        let ours = tree.child_by_col(ROOT, last.our_col)?;
        tree.child_by_col(ours, their_col)
    });
    match kept {
        Some(id) => {
            tree.reroot(id);
            tree.node(ROOT).visits
        }
        None => {
            tree.clear();
            0
        }
    }
}

fn log_line(request: &Request, report: &SearchReport, profile: Profile, reused: u32) {
    eprintln!(
        "gravity4: ms={} iterations={} nodes={} move={} winrate={:.4} proof={:?} reused={} profile={}",
        request.entry.elapsed().as_millis(),
        report.iterations,
        report.nodes,
        report.col,
        report.winrate,
        report.proof,
        reused,
        profile.name()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn the_solver_is_tried_earlier_with_more_time() {
        let ms = |ms| endgame_max_empty(Duration::from_millis(ms));
        assert_eq!(ms(20), 44);
        assert_eq!(ms(40), 48);
        assert_eq!(ms(200), 57);
        assert_eq!(ms(2000), endgame::MAX_EMPTY);
        assert!(ms(1) < ms(10) && ms(0) == 0);
    }

    /// When the endgame solver proves a win, the move is played without a search and the
    /// tree may be empty; the next call continues that game. Looking for the subtree then
    /// indexed the empty tree, panicked, and the FFI played a blind fallback move.
    #[test]
    fn reuse_after_a_move_played_without_a_search() {
        let root = Position::new(9, 9, 0, 0).unwrap();
        let mut next = root.clone();
        next.play(4);
        let row = next.landing_row(3);
        next.play(3);
        let request = Request {
            position: next,
            last_move: Some((row, 3)),
            entry: Instant::now(),
        };
        let last = LastSearch { root, our_col: 4 };
        let mut tree = Tree::default();
        assert_eq!(reuse_subtree(&mut tree, Some(last), &request), 0);
        assert!(tree.is_empty());
    }
}
