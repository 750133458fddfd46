//! The search: a UCT tree with RAVE over the position a game has reached, kept between
//! moves. [`Search::run`] searches the position of a [`Game`] for one side within
//! [`Limits`]; the engine's front end (`crate::engine`) reads the root's moves from it
//! ([`Search::best`], [`Search::best_play`], [`Search::pv`]) and applies the rules of
//! passing and resigning. Nothing here knows the front end: data flows from it to here.
//!
//! The search keeps one tree between moves: after the moves actually played it keeps the
//! subtree under them ([`tree::Tree::reroot`]) and throws the rest away; an undo, a new komi
//! or anything it cannot follow starts a fresh tree ([`Search::forget`]).

pub mod patterns;
pub mod playout;
pub mod prior;
pub mod tree;
pub mod uct;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::board::Board;
use crate::game::Game;
use crate::model::{Model, Recent};
use crate::point::{Color, Move};
use playout::Policy;
use tree::{NodeId, PASS, ROOT, Tree};
use uct::{Context, Worker};

/// RAVE's equivalence parameter `k` (visits at which AMAF and real results weigh the same).
/// Gelly and Silver found MoGo best around 1000 on 9x9. Self-play on 9x9 at 2000 playouts a
/// move (40 games each) found no difference across 500..5000: 2000 scored 21-19 against 500
/// and 22-18 against 5000. `GO_RAVE_K` overrides it.
pub const RAVE_EQUIVALENCE: f32 = 2000.0;

/// The UCT exploration constant on win rates in 0..1. RAVE engines explore through the AMAF
/// values and the priors (MoGo and Fuego use 0 or nearly): in A/B self-play on 9x9 at 2000
/// playouts a move (examples/ab.rs, 40 games), c = 0 scored 25-15 against c = 0.1.
/// `GO_UCT_C` overrides it.
pub const EXPLORATION: f32 = 0.0;

/// Virtual visits of the even-game prior (and of each knowledge bonus), as in Fuego's and
/// MoGo's "even game heuristic". In A/B self-play on 9x9 at 2000 playouts a move (40 games
/// each), 20 scored 24-16 against 10 with c = 0.1 and 24-16 against 10 with c = 0 (of 40).
/// `GO_PRIOR` overrides it.
pub const PRIOR_EVEN: f32 = 20.0;

/// The move model's weight in the priors: a move of probability `p` gets `MODEL_PRIOR √p`
/// virtual wins ([`prior`]). 80 beat 40 by +43 ± 32 Elo on 9x9 at 200 ms a move (SPRT H1
/// after 211 pairs, go/README.md). `GO_MODEL_PRIOR` overrides it.
pub const MODEL_PRIOR: f32 = 80.0;

/// Resign when the chosen move wins less often than this... (`GO_RESIGN`; 0 never resigns).
pub const RESIGN_THRESHOLD: f64 = 0.1;

/// ...and the root has had at least this many playouts, so the verdict is not noise; under
/// a clock, at least [`RESIGN_BUDGET_SHARE`] of what a move's search gets there, and never
/// fewer than [`RESIGN_MIN_VISITS`] ([`resign_visits`]).
pub const RESIGN_MIN_PLAYOUTS: u32 = 3000;

/// Under a clock the root needs this share of the playouts its move's budget gives
/// ([`Searched::budget_playouts`]) before a resignation: a short clock never gives 3000
/// (issue 49: a 13x13 game of 20 s, lost at 0.0 %, was never resigned).
pub const RESIGN_BUDGET_SHARE: f64 = 0.5;

/// The fewest root visits behind a resignation, whatever the clock: below this a low win
/// rate is too often the noise of a young tree. The front end also asks the chosen move's
/// win rate to be under the threshold by two standard errors of its own visits. 200 is
/// below what a 13x13 move of 80 ms (a game of 5 s) gave on the shared machine at load 12
/// (250 to 600 playouts); 3000 would take it seconds.
pub const RESIGN_MIN_VISITS: u32 = 200;

/// The root visits a resignation needs after a search whose budget gave `budget_playouts`
/// (`None`: a search to a number of playouts, not a deadline): [`RESIGN_MIN_PLAYOUTS`], or
/// under a deadline [`RESIGN_BUDGET_SHARE`] of the budget's playouts within
/// [`RESIGN_MIN_VISITS`]..=[`RESIGN_MIN_PLAYOUTS`].
pub fn resign_visits(budget_playouts: Option<u64>) -> u32 {
    match budget_playouts {
        None => RESIGN_MIN_PLAYOUTS,
        Some(n) => {
            let share = (n as f64 * RESIGN_BUDGET_SHARE).min(f64::from(RESIGN_MIN_PLAYOUTS));
            (share as u32).max(RESIGN_MIN_VISITS)
        }
    }
}

/// A search under a deadline may stop early, once it has used this share of its budget,
/// when its most visited root move leads the next by more visits than the playouts the
/// time left can give (Huang, Coulom and Lin 2010's early stop): a forced or settled move
/// saves the rest of its time for later moves. Searches to a number of playouts never stop
/// early, so play at fixed playouts is unchanged.
pub const EARLY_STOP_AFTER: f64 = 0.5;

/// ...and not before this much search: below it the playout rate is too young to trust,
/// and what an early stop saves is small.
pub const EARLY_STOP_MIN: Duration = Duration::from_millis(100);

/// The node cap: 2^21 nodes of 36 bytes, 72 MiB. `GO_MAX_NODES` overrides it.
pub const MAX_NODES: usize = 1 << 21;

/// Playouts behind the dead stones and the final score ([`Config::score_playouts`]; the
/// front end's status playouts).
pub const SCORE_PLAYOUTS: u32 = 1000;

/// Playouts of a search given no limit at all.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// The search's knobs. [`Config::default`] holds the constants; the `GO_*` variables
/// override them through [`crate::settings::Settings`].
#[derive(Clone, Debug)]
pub struct Config {
    /// Search threads (1: the calling thread only).
    pub threads: usize,
    /// The playout policy.
    pub policy: Policy,
    /// Use the AMAF statistics in selection.
    pub rave: bool,
    /// RAVE's equivalence parameter.
    pub rave_equivalence: f32,
    /// UCT's exploration constant.
    pub exploration: f32,
    /// The even prior's virtual visits.
    pub prior_even: f32,
    /// The move model behind the priors (`None`: hand-written knowledge).
    pub model: Option<Arc<Model>>,
    /// The model's weight in the priors.
    pub model_prior: f32,
    /// Progressive widening over the model's order of the children (with a model only: the
    /// hand-written priors leave the children in the board's order).
    pub widening: bool,
    /// Resignation threshold on the chosen move's win rate (0: never resign).
    pub resign_threshold: f64,
    /// Keep the subtree of the moves played between searches.
    pub reuse: bool,
    /// The node cap.
    pub max_nodes: usize,
    /// A leaf is expanded when an iteration reaches it with this many visits behind it.
    pub expand_visits: u32,
    /// A seed for reproducible searches (`None`: from the OS).
    pub seed: Option<u64>,
    /// Playouts behind the dead stones and the final score ([`SCORE_PLAYOUTS`]; the fuzz
    /// targets take fewer, so that an input that scores often stays quick).
    pub score_playouts: u32,
}

impl Default for Config {
    /// The shipped constants; the `GO_*` overrides are read once, by
    /// [`crate::settings::Settings::from_env`], and laid over these.
    fn default() -> Config {
        Config {
            threads: 1,
            policy: Policy::Heavy,
            rave: true,
            rave_equivalence: RAVE_EQUIVALENCE,
            exploration: EXPLORATION,
            prior_even: PRIOR_EVEN,
            // The shipped weights are checked by a test and, with a clear error, at the
            // program's start (crate::settings); a library user whose binary is broken gets
            // the hand-written knowledge.
            model: crate::model::shipped().ok(),
            model_prior: MODEL_PRIOR,
            widening: true,
            resign_threshold: RESIGN_THRESHOLD,
            reuse: true,
            max_nodes: MAX_NODES,
            expand_visits: uct::EXPAND_VISITS,
            seed: None,
            score_playouts: SCORE_PLAYOUTS,
        }
    }
}

/// When a search stops: at a deadline, after a number of playouts, or at whichever comes
/// first. With neither, [`DEFAULT_PLAYOUTS`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
}

impl Limits {
    /// A limit of `n` playouts.
    pub fn playouts(n: u64) -> Limits {
        Limits {
            deadline: None,
            playouts: Some(n),
        }
    }

    /// A limit of `d` from now.
    pub fn time(d: Duration) -> Limits {
        Limits {
            deadline: Some(Instant::now() + d),
            playouts: None,
        }
    }

    fn playout_cap(&self) -> u64 {
        match (self.deadline, self.playouts) {
            (None, None) => DEFAULT_PLAYOUTS,
            (_, Some(n)) => n,
            (Some(_), None) => u64::MAX,
        }
    }
}

/// What the last search found, for logs and SGF comments.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// The move chosen.
    pub chosen: Move,
    /// Playouts run by this search.
    pub playouts: u64,
    /// The chosen move's win rate for the mover (0..1).
    pub win_rate: f64,
    /// The chosen move's visits.
    pub visits: u32,
    /// The principal variation from the root (most visited children), chosen move first.
    pub pv: Vec<Move>,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Visits the root held before the search (kept by tree reuse).
    pub reused_visits: u32,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// Where the kept tree's root stands in the game.
#[derive(Clone, Copy, Debug)]
struct Anchor {
    /// Moves of the game at the root.
    moves: usize,
    /// The position's hash at the root.
    hash: u64,
    /// The side to move at the root.
    to_move: Color,
}

/// A move of the root as the search left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its visits.
    pub visits: u32,
    /// Its win rate for the side to move at the root (0..1).
    pub win_rate: f64,
}

/// What one [`Search::run`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Playouts run.
    pub playouts: u64,
    /// Visits the root held before (kept by tree reuse).
    pub reused_visits: u32,
    /// Under a deadline, the playouts the whole budget gives at this search's rate (more
    /// than `playouts` after an early stop); `None` for a search to a number of playouts.
    pub budget_playouts: Option<u64>,
}

/// The search: its configuration, the tree, and where the tree's root stands in the game.
#[derive(Debug)]
pub struct Search {
    config: Config,
    tree: Tree,
    anchor: Option<Anchor>,
    /// What the last [`Search::run`] did.
    last_run: Option<Searched>,
}

impl Search {
    /// A search with `config` and an empty tree.
    pub fn new(config: Config) -> Search {
        Search {
            tree: Tree::new(config.max_nodes),
            config,
            anchor: None,
            last_run: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the configuration (the tree is kept; its cap follows).
    pub fn set_config(&mut self, config: Config) {
        self.tree.set_max_nodes(config.max_nodes);
        self.config = config;
    }

    /// Forgets the tree: the next search starts afresh.
    pub fn forget(&mut self) {
        self.anchor = None;
        self.tree.reset();
    }

    /// Searches the position of `game` for `color` within `limits`, keeping what it can of
    /// the last search's tree; without the pass among the root's moves when `no_pass`. The
    /// threads' seeds are drawn from `rng`.
    pub fn run(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        no_pass: bool,
        rng: &mut SmallRng,
    ) -> Searched {
        self.run_until(game, color, limits, no_pass, rng, &AtomicBool::new(false))
    }

    /// Like [`Search::run`], and stops as soon as another thread sets `stop` (pondering:
    /// the session stops the search when the controller's next command arrives).
    pub fn run_until(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        no_pass: bool,
        rng: &mut SmallRng,
        stop: &AtomicBool,
    ) -> Searched {
        self.prepare_tree(game, color);
        self.prepare_root(game, color, no_pass);
        let reused_visits = self.tree.node(ROOT).visits;
        let start = Instant::now();
        let playouts = self.iterate(game, color, limits, rng, stop);
        let budget_playouts = limits.deadline.map(|deadline| {
            let rate = playouts as f64 / start.elapsed().as_secs_f64().max(1e-6);
            (rate * deadline.saturating_duration_since(start).as_secs_f64()) as u64
        });
        let searched = Searched {
            playouts,
            reused_visits,
            budget_playouts,
        };
        self.last_run = Some(searched);
        searched
    }

    /// What the last [`Search::run`] did (`None` before any).
    pub fn last_run(&self) -> Option<Searched> {
        self.last_run
    }

    /// The root's move to play: the most visited (the first of equals).
    pub fn best(&self, board: &Board) -> RootMove {
        let best = self.tree.best_child(ROOT).expect("the root has children");
        self.root_move(board, best)
    }

    /// The root's most visited move other than the pass (the first of equals), if any.
    pub fn best_play(&self, board: &Board) -> Option<RootMove> {
        let child = self
            .tree
            .children(ROOT)
            .filter(|&c| self.tree.node(c).mv != PASS)
            .max_by_key(|&c| (self.tree.node(c).visits, std::cmp::Reverse(c)))?;
        Some(self.root_move(board, child))
    }

    /// The root's visits.
    pub fn root_visits(&self) -> u32 {
        self.tree.node(ROOT).visits
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.tree.len()
    }

    /// The principal variation from the root (most visited children), while they have
    /// visits.
    pub fn pv(&self, board: &Board) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut id = ROOT;
        while let Some(child) = self.tree.best_child(id) {
            if self.tree.node(child).visits == 0 {
                break;
            }
            pv.push(to_move(board, self.tree.node(child).mv));
            id = child;
        }
        pv
    }

    fn root_move(&self, board: &Board, id: NodeId) -> RootMove {
        let node = self.tree.node(id);
        RootMove {
            mv: to_move(board, node.mv),
            visits: node.visits,
            win_rate: node.mean(),
        }
    }

    /// Keeps the subtree under the moves played since the last search if the tree can follow
    /// them, else starts a fresh tree.
    fn prepare_tree(&mut self, game: &Game, color: Color) {
        let reused = self.config.reuse && self.follow_moves(game, color).is_some();
        if !reused {
            self.tree.reset();
        }
        self.anchor = Some(Anchor {
            moves: game.moves().len(),
            hash: game.board().hash(),
            to_move: color,
        });
    }

    /// Walks the tree down the moves played since the anchor and reroots there.
    fn follow_moves(&mut self, game: &Game, color: Color) -> Option<()> {
        let anchor = self.anchor?;
        let moves = game.moves();
        if anchor.moves > moves.len() || game.positions()[anchor.moves] != anchor.hash {
            return None;
        }
        let mut id: NodeId = ROOT;
        let mut expected = anchor.to_move;
        for &(c, mv) in &moves[anchor.moves..] {
            if c != expected {
                return None;
            }
            let code = match mv {
                Move::Play(p) => game.board().index(p) as u16,
                Move::Pass => PASS,
                Move::Resign => return None,
            };
            id = self.tree.child_by_move(id, code)?;
            expected = c.opponent();
        }
        if expected != color {
            return None;
        }
        self.tree.reroot(id);
        Some(())
    }

    /// Gives the root its children: the legal moves under positional superko (the tree below
    /// knows simple ko only), without the pass when cleaning up dead stones.
    fn prepare_root(&mut self, game: &Game, color: Color, no_pass: bool) {
        let legal = |mv: u16| game.check(color, to_move(game.board(), mv)).is_ok();
        let kept_ok = self.tree.node(ROOT).child_count > 0
            && self
                .tree
                .children(ROOT)
                .all(|c| legal(self.tree.node(c).mv));
        if !kept_ok {
            self.tree.drop_children(ROOT);
            let mut nodes = Vec::new();
            let recent = recent_moves(game);
            prior::children(
                game.board(),
                color,
                game.passes(),
                recent,
                &self.config,
                &mut nodes,
            );
            nodes.retain(|n| legal(n.mv));
            if !self.tree.expand(ROOT, &nodes) {
                self.tree.reset();
                let ok = self.tree.expand(ROOT, &nodes);
                assert!(ok, "the node cap holds the root's children");
            }
        }
        // The pass is the last child: dropping it keeps the others contiguous.
        let count = self.tree.node(ROOT).child_count;
        let last = self.tree.node(ROOT).first_child + NodeId::from(count) - 1;
        if no_pass && count > 1 && self.tree.node(last).mv == PASS {
            self.tree.node_mut(ROOT).child_count -= 1;
        }
    }

    /// Runs iterations until `limits` or `stop`; returns the number of playouts.
    fn iterate(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        rng: &mut SmallRng,
        stop: &AtomicBool,
    ) -> u64 {
        let cap = limits.playout_cap();
        let deadline = limits.deadline;
        let threads = self.config.threads.max(1);
        let shared = Mutex::new(std::mem::replace(&mut self.tree, Tree::new(1)));
        let done = AtomicU64::new(0);
        let ctx = Context {
            root: game.board(),
            to_move: color,
            passes: game.passes(),
            komi: game.komi(),
            recent: recent_moves(game),
            config: &self.config,
        };
        let seeds: Vec<u64> = (0..threads).map(|_| rng.random()).collect();
        let start = Instant::now();
        let work = |seed: u64| {
            let mut worker = Worker::new(ctx.root, SmallRng::seed_from_u64(seed));
            let mut local = 0u64;
            while !stop.load(Ordering::Relaxed) {
                if done.fetch_add(1, Ordering::Relaxed) >= cap {
                    done.fetch_sub(1, Ordering::Relaxed);
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                worker.iterate(&shared, &ctx);
                local += 1;
                if local.is_multiple_of(32)
                    && deadline.is_some_and(|d| ends(&shared, &done, start, d))
                {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        };
        if threads == 1 {
            work(seeds[0]);
        } else {
            std::thread::scope(|s| {
                for &seed in &seeds {
                    s.spawn(move || work(seed));
                }
            });
        }
        self.tree = shared.into_inner().expect("a search thread panicked");
        done.load(Ordering::Relaxed)
    }
}

/// Whether a search that started at `start` stops now: at its `deadline`, or early when the
/// most visited root move cannot be overtaken in the time left ([`EARLY_STOP_AFTER`]).
fn ends(tree: &Mutex<Tree>, done: &AtomicU64, start: Instant, deadline: Instant) -> bool {
    let now = Instant::now();
    if now >= deadline {
        return true;
    }
    let spent = now - start;
    let budget = deadline - start;
    if spent < EARLY_STOP_MIN || spent.as_secs_f64() < EARLY_STOP_AFTER * budget.as_secs_f64() {
        return false;
    }
    let rate = done.load(Ordering::Relaxed) as f64 / spent.as_secs_f64();
    let to_come = rate * (deadline - now).as_secs_f64();
    let tree = tree.lock().expect("a search thread panicked");
    let (mut first, mut second) = (0u32, 0u32);
    for child in tree.children(ROOT) {
        let visits = tree.node(child).visits;
        if visits > first {
            (first, second) = (visits, first);
        } else if visits > second {
            second = visits;
        }
    }
    f64::from(first - second) > to_come
}

/// The move of a node's `mv` field on `board`.
fn to_move(board: &Board, mv: u16) -> Move {
    if mv == PASS {
        Move::Pass
    } else {
        Move::Play(board.point(usize::from(mv)))
    }
}

/// The game's last two moves as board indices, most recent first (`None`: a pass or none).
fn recent_moves(game: &Game) -> Recent {
    let mut recent = [None, None];
    for (k, &(_, mv)) in game.moves().iter().rev().take(2).enumerate() {
        if let Move::Play(p) = mv {
            recent[k] = Some(game.board().index(p));
        }
    }
    recent
}
