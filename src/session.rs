//! What the library keeps between calls, and why that is safe.
//!
//! The course judge calls `getPoint` on a new thread every move, loads one instance for both
//! sides when a library plays itself, and runs game after game in one process. What is kept
//! must be correct under all three, so it is keyed by *position*, never by thread or call
//! count:
//!
//! - The tree arena's memory, so a call does not page-fault a fresh 100 MB in.
//! - For the strong profile, the transposition table: its statistics belong to positions,
//!   not to a game or a side, so they stay valid as long as the board does (a different
//!   board size or blocked cell empties it).
//! - For the strong profile, the exact endgame solver's table: its bounds are facts about
//!   positions (keyed with the side to move), so an attempt that ran out of time leaves the
//!   next one a head start. A different board empties it.
//! - For the strong profile with `graph`, the graph of positions: like the tables above,
//!   its nodes are facts about positions, so the next search starts from whatever it knows
//!   about its root, however the game got there. A different board empties it.
//! - For the strong profile, the last search: its root position, the move we chose and the
//!   tree. If the new position is exactly that root plus our move plus the opponent's reply
//!   (`lastX, lastY`), the search continues from that grandchild's subtree. Anything else (a
//!   new game, the other side of a self-play game, a position edited by hand) fails the
//!   comparison and starts a fresh tree.
//! - For the strong profile with `keep-learned`, what the playouts learned in the last
//!   search, kept under the same rule as the subtree: its tables are keyed by side (ours or
//!   the opponent's), which only means the same thing in the same game from the same chair.
//!
//! It all sits behind one mutex; a concurrent second caller gets a fresh arena instead of
//! waiting.

use crate::position::zobrist::position_key;
use crate::position::{Position, centre_first};
use crate::request::Request;
use crate::search::endgame::{self, EndgameTable};
use crate::search::graph::Graph;
use crate::search::learned::Learned;
use crate::search::transpositions::Transpositions;
use crate::search::tree::NodeKind;
use crate::search::tree::{ROOT, Tree};
use crate::search::{Profile, SearchLimits, SearchReport, mcgs, strong, uct};
use crate::settings::{ENDGAME_NODES_PER_ITERATION, Settings};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::{Mutex, TryLockError};
use std::time::{Duration, Instant};

/// The state kept between calls.
#[derive(Default)]
struct Session {
    tree: Tree,
    /// Shared statistics per position (strong profile); kept while the board stays the same.
    graph: Transpositions,
    /// The exact solver's bounds (strong profile); kept while the board stays the same.
    endgame: EndgameTable,
    /// The graph search's positions (strong profile with `graph`); kept while the board
    /// stays the same.
    positions: Graph,
    /// What the last tree search's playouts learned (strong profile with `keep-learned`).
    learned: Option<Learned>,
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
    let tree = &mut session.tree;
    let (report, reused) = match config.profile {
        Profile::Classic => {
            let report = uct::search(&request.position, tree, config, &limits, &mut rng);
            (report, 0)
        }
        Profile::Strong => {
            let keep_learned = config.techniques.keep_learned && last.is_some();
            let reused = reuse_subtree(tree, last.filter(|_| config.techniques.reuse), request);
            let learned = session.learned.take().filter(|_| keep_learned);
            let endgame = config
                .techniques
                .endgame
                .then(|| solve_endgame(request, settings, &mut session.endgame));
            let mut switched_off = Transpositions::default();
            let graph = if config.techniques.transpositions {
                session
                    .graph
                    .prepare(&request.position, settings.table_bytes);
                &mut session.graph
            } else {
                &mut switched_off
            };
            match endgame.flatten() {
                Some(Endgame::Win(report)) => (Some(report), reused),
                solved => {
                    let losing = match solved {
                        Some(Endgame::Excluded(losing)) => losing,
                        _ => 0,
                    };
                    if plays_graph(settings, &request.position) {
                        search_graph(request, settings, losing, &mut session.positions, &mut rng)
                    } else {
                        // A kept tree keeps its statistics; its root children the endgame
                        // solver proved lost are marked so selection and the final choice
                        // skip them.
                        tree.mark_root_losses(losing);
                        let mut learned = learned.unwrap_or_else(|| {
                            Learned::new(&config.techniques, config.adaptation_rate)
                        });
                        let report = strong::search_learning(
                            &request.position,
                            losing,
                            tree,
                            graph,
                            &mut learned,
                            config,
                            &limits,
                            &mut rng,
                        );
                        session.learned = config.techniques.keep_learned.then_some(learned);
                        (report, reused)
                    }
                }
            }
        }
    };
    let Some(report) = report else {
        // Unreachable for a validated request (searches always run one iteration), but a
        // wrong answer here would cost the game: play the most central open column.
        let open = request.position.open_columns();
        return centre_first(request.position.cols())
            .into_iter()
            .map(usize::from)
            .find(|&c| open & (1 << c) != 0)
            .unwrap_or(0);
    };
    if config.profile == Profile::Strong {
        session.last = Some(LastSearch {
            root: request.position.clone(),
            our_col: report.col,
        });
    }
    if settings.log {
        // Which search played (when the endgame solver found the win, the one that would have).
        let search = match config.profile {
            Profile::Strong if plays_graph(settings, &request.position) => "graph",
            _ => "tree",
        };
        log_line(request, &report, (config.profile, search), reused);
    }
    report.col
}

/// True when the graph, not the tree, searches `position`: the `graph` technique is on and
/// the board has at least [`Settings::graph_min_cells`] cells.
fn plays_graph(settings: &Settings, position: &Position) -> bool {
    settings.search.techniques.graph
        && position.rows() * position.cols() >= settings.graph_min_cells
}

/// Runs the graph search for `request`, continuing from what the kept graph knows about its
/// position (or from nothing without `reuse`); returns the report and the visits the root
/// already had.
fn search_graph(
    request: &Request,
    settings: &Settings,
    losing: u16,
    positions: &mut Graph,
    rng: &mut SmallRng,
) -> (Option<SearchReport>, u32) {
    if !settings.search.techniques.reuse {
        positions.clear();
    }
    let root_key = position_key(request.position.stones_key(), request.position.to_move());
    let known = positions
        .find(root_key)
        .map_or(0, |id| positions.node(id).visits);
    let limits = SearchLimits {
        deadline: deadline(request, settings),
        max_iterations: settings.iterations,
        memory_bytes: settings.graph_bytes,
    };
    let report = mcgs::search(
        &request.position,
        losing,
        positions,
        &settings.search,
        &limits,
        rng,
    );
    (report, known)
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

fn log_line(
    request: &Request,
    report: &SearchReport,
    (profile, search): (Profile, &str),
    reused: u32,
) {
    eprintln!(
        "gravity4: ms={} iterations={} nodes={} move={} winrate={:.4} proof={:?} reused={} profile={} search={search}",
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
    use std::sync::PoisonError;

    #[test]
    fn the_graph_searches_the_boards_it_is_asked_to() {
        let mut settings = Settings::from_env();
        settings.search.techniques.graph = true;
        settings.graph_min_cells = 121;
        let small = Position::new(10, 12, 0, 0).unwrap();
        let large = Position::new(11, 11, 0, 0).unwrap();
        assert!(!plays_graph(&settings, &small) && plays_graph(&settings, &large));
        settings.graph_min_cells = 0;
        assert!(plays_graph(&settings, &small));
        settings.search.techniques.graph = false;
        assert!(!plays_graph(&settings, &large));
    }

    /// With `keep-learned`, our next move of the same game goes on learning into the tables
    /// of the last search; a position that does not continue it (a new game) starts them
    /// afresh, and without the switch none are kept. (The only test that calls [`choose`],
    /// so nothing else touches the session meanwhile.)
    #[test]
    fn learned_tables_are_kept_for_the_next_move_of_the_game() {
        let learned = || {
            let session = SESSION.lock().unwrap_or_else(PoisonError::into_inner);
            let kept = session.as_ref().and_then(|s| s.learned.as_ref());
            kept.map(Learned::iterations_learned)
        };
        let ask = |position: &Position, last_move, ms, keep_learned| {
            let mut settings = Settings::from_env();
            settings.budget = Duration::from_millis(ms);
            settings.log = false;
            settings.search.techniques.keep_learned = keep_learned;
            let entry = Instant::now();
            let request = Request {
                position: position.clone(),
                last_move,
                entry,
            };
            choose(&request, &settings)
        };
        let board = Position::new(9, 9, 0, 0).unwrap();
        let ours = ask(&board, None, 300, true);
        let first = learned().expect("kept");
        assert!(first > 0);
        let mut next = board.clone();
        next.play(ours);
        let theirs = (ours + 1) % 9;
        let row = next.landing_row(theirs);
        next.play(theirs);
        // A 1 ms search learns from far fewer iterations than the 300 ms one: only the kept
        // tables can hold more than the first search's.
        ask(&next, Some((row, theirs)), 1, true);
        let second = learned().expect("kept");
        assert!(second > first, "{second} after {first}");
        ask(&board, None, 1, true);
        let fresh = learned().expect("kept");
        assert!(
            fresh < first,
            "a new game learned {fresh}, the first search {first}"
        );
        ask(&board, None, 1, false);
        assert_eq!(learned(), None);
    }

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
