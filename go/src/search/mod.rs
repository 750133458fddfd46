//! The engine: a game and a UCT search with RAVE over it, behind the calls a protocol layer
//! makes (play, genmove, undo, handicap, final score and dead stones).
//!
//! The search keeps one tree between moves: after the moves actually played it keeps the
//! subtree under them ([`tree::Tree::reroot`]) and throws the rest away; an undo, a new komi
//! or anything it cannot follow starts a fresh tree.

pub mod patterns;
pub mod playout;
pub mod tree;
pub mod uct;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::board::Board;
use crate::game::{Game, IllegalMove, SetupError, UndoError};
use crate::point::{Color, Move, Point};
use playout::{Policy, Scratch};
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

/// Resign when the chosen move wins less often than this... (`GO_RESIGN`; 0 never resigns).
pub const RESIGN_THRESHOLD: f64 = 0.1;

/// ...and the root has had at least this many playouts, so the verdict is not noise.
pub const RESIGN_MIN_PLAYOUTS: u32 = 3000;

/// The node cap: 2^21 nodes of 36 bytes, 72 MiB. `GO_MAX_NODES` overrides it.
pub const MAX_NODES: usize = 1 << 21;

/// Playouts behind [`Engine::dead_stones`] and [`Engine::final_score`].
pub const SCORE_PLAYOUTS: u32 = 1000;

/// The status playouts behind the check for dead stones made after a search chose to pass:
/// a twentieth of the search's playouts (its time is spent after the move's budget, and
/// the clock keeps back 5 % of it), at least 64 (or [`Config::score_playouts`] if fewer), at
/// most [`Config::score_playouts`].
fn after_search_playouts(search_playouts: u64, config: &Config) -> u32 {
    let share = u32::try_from(search_playouts / 20).unwrap_or(u32::MAX);
    share.clamp(64.min(config.score_playouts), config.score_playouts)
}

/// How much lower a win rate than the pass's a move may have and still be played instead of
/// passing while the opponent's dead stones are on the board.
const PASS_MARGIN: f64 = 0.05;

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

/// A Go engine: the game, the search, and what the search keeps between moves.
#[derive(Debug)]
pub struct Engine {
    game: Game,
    config: Config,
    tree: Tree,
    anchor: Option<Anchor>,
    rng: SmallRng,
    stats: Option<SearchStats>,
}

impl Engine {
    /// An engine on an empty `size` board with `komi` and the default configuration; `None`
    /// for a size outside 2..=25.
    pub fn new(size: usize, komi: f64) -> Option<Engine> {
        Engine::with_config(size, komi, Config::default())
    }

    /// An engine with an explicit configuration.
    pub fn with_config(size: usize, komi: f64, config: Config) -> Option<Engine> {
        let game = Game::new(size, komi)?;
        let rng = match config.seed {
            Some(s) => SmallRng::seed_from_u64(s),
            None => SmallRng::from_os_rng(),
        };
        Some(Engine {
            game,
            tree: Tree::new(config.max_nodes),
            config,
            anchor: None,
            rng,
            stats: None,
        })
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

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The board, for `showboard`.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The moves since the setup, for SGF.
    pub fn moves(&self) -> &[(Color, Move)] {
        self.game.moves()
    }

    /// The statistics of the last search (`None` before any, or after a shortcut answer).
    pub fn last_stats(&self) -> Option<&SearchStats> {
        self.stats.as_ref()
    }

    /// Replaces the game (e.g. one loaded from SGF); the tree starts afresh.
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.forget_tree();
    }

    /// A new empty board of `size` (GTP `boardsize`); false, changing nothing, if the size is
    /// outside 2..=25.
    pub fn set_size(&mut self, size: usize) -> bool {
        match Game::new(size, self.game.komi()) {
            Some(game) => {
                self.set_game(game);
                true
            }
            None => false,
        }
    }

    /// Empties the board (GTP `clear_board`), keeping size and komi.
    pub fn clear(&mut self) {
        self.game.clear();
        self.forget_tree();
    }

    /// Sets komi (GTP `komi`).
    pub fn set_komi(&mut self, komi: f64) {
        self.game.set_komi(komi);
        self.forget_tree();
    }

    /// Plays `mv` for `color` (GTP `play`); returns the stones captured.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<u32, IllegalMove> {
        self.game.play(color, mv)
    }

    /// Takes back the last move (GTP `undo`).
    pub fn undo(&mut self) -> Result<(Color, Move), UndoError> {
        let undone = self.game.undo()?;
        self.forget_tree();
        Ok(undone)
    }

    /// GTP's fixed handicap (`fixed_handicap`).
    pub fn fixed_handicap(&mut self, count: usize) -> Result<Vec<Point>, SetupError> {
        let points = self.game.fixed_handicap(count)?;
        self.forget_tree();
        Ok(points)
    }

    /// The engine's own free handicap placement (`place_free_handicap`): the fixed points,
    /// at most as many as the board has (GTP 4.1.2 lets an engine place fewer).
    pub fn place_free_handicap(&mut self, count: usize) -> Result<Vec<Point>, SetupError> {
        if count < 2 {
            return Err(SetupError::BadCount(count));
        }
        let max = Game::max_fixed_handicap(self.game.size());
        if max == 0 {
            return Err(SetupError::BoardTooSmall(self.game.size()));
        }
        self.fixed_handicap(count.min(max))
    }

    /// Places handicap stones chosen by the controller (`set_free_handicap`).
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        self.game.set_free_handicap(points)?;
        self.forget_tree();
        Ok(())
    }

    fn forget_tree(&mut self) {
        self.anchor = None;
        self.tree.reset();
    }

    /// Chooses a move for `color` within `limits` and plays it (GTP `genmove`). After a
    /// resignation it answers a pass and changes nothing.
    pub fn genmove(&mut self, color: Color, limits: &Limits) -> Move {
        let mv = self.think(color, limits, false);
        self.commit(color, mv);
        mv
    }

    /// Plays the search's answer unless the game is already over.
    fn commit(&mut self, color: Color, mv: Move) {
        if self.game.resigned().is_none() {
            self.game
                .play(color, mv)
                .expect("the search plays legal moves");
        }
    }

    /// Chooses a move for `color` without playing it (GTP `reg_genmove`).
    pub fn reg_genmove(&mut self, color: Color, limits: &Limits) -> Move {
        self.think(color, limits, false)
    }

    /// Like [`Engine::genmove`], but never passes while the opponent has dead stones on the
    /// board (KGS's `kgs-genmove_cleanup`), and never resigns.
    pub fn genmove_cleanup(&mut self, color: Color, limits: &Limits) -> Move {
        let mv = self.think(color, limits, true);
        self.commit(color, mv);
        mv
    }

    /// The search behind the genmove calls.
    fn think(&mut self, color: Color, limits: &Limits, cleanup: bool) -> Move {
        self.stats = None;
        if self.game.resigned().is_some() {
            return Move::Pass;
        }
        // The opponent passed and the board as it stands wins: end the game, unless the
        // opponent's dead stones are still on the board. Scored as it stands (Tromp-Taylor,
        // as the judge and CGOS score), a dead stone is the opponent's point: capture first.
        let opponent_passed =
            matches!(self.game.moves().last(), Some(&(c, Move::Pass)) if c != color);
        // Whether the opponent has dead stones on the board, once estimated.
        let mut dead_opponents = None;
        if opponent_passed && !cleanup && self.wins_as_is(color) {
            if !self.has_dead_stones(color.opponent(), self.config.score_playouts) {
                return Move::Pass;
            }
            dead_opponents = Some(true);
        }
        let start = Instant::now();
        self.prepare_tree(color);
        if cleanup {
            dead_opponents =
                Some(self.has_dead_stones(color.opponent(), self.config.score_playouts));
        }
        // Cleaning up, the pass is not among the root's moves while dead stones remain (KGS's
        // rule); otherwise the search may choose it, and the choice is weighed below.
        self.prepare_root(color, cleanup && dead_opponents == Some(true));
        let reused_visits = self.tree.node(ROOT).visits;
        let playouts = self.run(color, limits);
        let mut best = self.tree.best_child(ROOT).expect("the root has children");
        if self.tree.node(best).mv == PASS && !cleanup {
            let dead = match dead_opponents {
                Some(known) => known,
                None => self.has_dead_stones(
                    color.opponent(),
                    after_search_playouts(playouts, &self.config),
                ),
            };
            if dead {
                best = self.instead_of_passing(best).unwrap_or(best);
            }
        }
        let node = *self.tree.node(best);
        let mut chosen = self.to_move(node.mv);
        let win_rate = node.mean();
        if !cleanup
            && self.config.resign_threshold > 0.0
            && win_rate < self.config.resign_threshold
            && self.tree.node(ROOT).visits >= RESIGN_MIN_PLAYOUTS
        {
            chosen = Move::Resign;
        }
        let mut pv = Vec::new();
        let mut id = ROOT;
        while let Some(child) = self.tree.best_child(id) {
            if self.tree.node(child).visits == 0 {
                break;
            }
            pv.push(self.to_move(self.tree.node(child).mv));
            id = child;
        }
        self.stats = Some(SearchStats {
            chosen,
            playouts,
            win_rate,
            visits: node.visits,
            pv,
            nodes: self.tree.len(),
            reused_visits,
            elapsed: start.elapsed(),
        });
        chosen
    }

    /// The root's most visited move other than the pass, when the search chose to pass while
    /// the opponent's dead stones are on the board: taking them costs nothing under area
    /// scoring, and left there they count for the opponent. `None` (pass after all) when that
    /// move's win rate is clearly below the pass's, as when the "dead" stones are in fact alive
    /// (a seki the playouts misread) and playing in would lose.
    fn instead_of_passing(&self, pass: NodeId) -> Option<NodeId> {
        let child = self
            .tree
            .children(ROOT)
            .filter(|&c| c != pass)
            .max_by_key(|&c| (self.tree.node(c).visits, std::cmp::Reverse(c)))?;
        let (move_rate, pass_rate) = (self.tree.node(child).mean(), self.tree.node(pass).mean());
        (self.tree.node(child).visits > 0 && move_rate >= pass_rate - PASS_MARGIN).then_some(child)
    }

    /// The move of a node's `mv` field.
    fn to_move(&self, mv: u16) -> Move {
        if mv == PASS {
            Move::Pass
        } else {
            Move::Play(self.game.board().point(usize::from(mv)))
        }
    }

    /// True when `color` wins the game if it ends now, scored as the board stands.
    fn wins_as_is(&self, color: Color) -> bool {
        let score = self.game.score();
        match color {
            Color::Black => score > 0.0,
            Color::White => score < 0.0,
        }
    }

    /// Keeps the subtree under the moves played since the last search if the tree can follow
    /// them, else starts a fresh tree.
    fn prepare_tree(&mut self, color: Color) {
        let reused = self.config.reuse && self.follow_moves(color).is_some();
        if !reused {
            self.tree.reset();
        }
        self.anchor = Some(Anchor {
            moves: self.game.moves().len(),
            hash: self.game.board().hash(),
            to_move: color,
        });
    }

    /// Walks the tree down the moves played since the anchor and reroots there.
    fn follow_moves(&mut self, color: Color) -> Option<()> {
        let anchor = self.anchor?;
        let moves = self.game.moves();
        if anchor.moves > moves.len() || self.game.positions()[anchor.moves] != anchor.hash {
            return None;
        }
        let mut id: NodeId = ROOT;
        let mut expected = anchor.to_move;
        for &(c, mv) in &moves[anchor.moves..] {
            if c != expected {
                return None;
            }
            let code = match mv {
                Move::Play(p) => self.game.board().index(p) as u16,
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
    fn prepare_root(&mut self, color: Color, no_pass: bool) {
        let legal = |engine: &Engine, mv: u16| {
            let m = engine.to_move(mv);
            engine.game.check(color, m).is_ok()
        };
        let kept_ok = self.tree.node(ROOT).child_count > 0
            && self
                .tree
                .children(ROOT)
                .all(|c| legal(self, self.tree.node(c).mv));
        if !kept_ok {
            self.tree.drop_children(ROOT);
            let mut nodes = Vec::new();
            uct::children(
                self.game.board(),
                color,
                self.game.passes(),
                &self.config,
                &mut nodes,
            );
            nodes.retain(|n| legal(self, n.mv));
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

    /// Runs iterations until `limits`; returns the number of playouts.
    fn run(&mut self, color: Color, limits: &Limits) -> u64 {
        let cap = limits.playout_cap();
        let deadline = limits.deadline;
        let threads = self.config.threads.max(1);
        let shared = Mutex::new(std::mem::replace(&mut self.tree, Tree::new(1)));
        let done = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        let ctx = Context {
            root: self.game.board(),
            to_move: color,
            passes: self.game.passes(),
            komi: self.game.komi(),
            config: &self.config,
        };
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.random()).collect();
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
                if local.is_multiple_of(32) && deadline.is_some_and(|d| Instant::now() >= d) {
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

    /// How many of `playouts` playouts from the current position (side to move first) ended
    /// with each point owned by Black and by White, indexed by the board's array index
    /// ([`Board::index`]).
    pub fn ownership(&mut self, playouts: u32) -> Vec<[u32; 2]> {
        let board = self.game.board();
        let mut counts = vec![[0u32; 2]; board.len()];
        let mut scratch_board = board.clone();
        let mut scratch = Scratch::default();
        let mut rng = SmallRng::seed_from_u64(self.rng.random());
        for _ in 0..playouts {
            scratch_board.copy_from(board);
            // From no passes: after a game that ended in two passes the playouts must still
            // be played out, or nothing would ever be found dead.
            playout::playout(
                &mut scratch_board,
                self.game.to_move(),
                0,
                Policy::Heavy,
                &mut rng,
                &mut scratch,
                |_, _| {},
            );
            for i in board.points() {
                if let Some(c) = scratch_board.playout_owner(i) {
                    counts[i][c.index()] += 1;
                }
            }
        }
        counts
    }

    /// The dead stones (GTP `final_status_list dead`): stones the opponent owns at the end of
    /// most of [`Config::score_playouts`] playouts from the current position, row by row.
    pub fn dead_stones(&mut self) -> Vec<Point> {
        self.dead_stones_by(self.config.score_playouts)
    }

    /// [`Engine::dead_stones`] from `playouts` playouts.
    fn dead_stones_by(&mut self, playouts: u32) -> Vec<Point> {
        let counts = self.ownership(playouts);
        let board = self.game.board();
        board
            .points()
            .filter(|&i| {
                crate::board::stone_color(board.at(i))
                    .is_some_and(|c| 2 * counts[i][c.opponent().index()] > playouts)
            })
            .map(|i| board.point(i))
            .collect()
    }

    /// True when `color` has stones that `playouts` status playouts call dead.
    fn has_dead_stones(&mut self, color: Color, playouts: u32) -> bool {
        self.dead_stones_by(playouts)
            .iter()
            .any(|&p| self.game.board().stone_at(p) == Some(color))
    }

    /// The score with the dead stones removed (GTP `final_score`): Black's area minus White's
    /// minus komi, Tromp-Taylor on the board without [`Engine::dead_stones`].
    pub fn final_score(&mut self) -> f64 {
        let dead = self.dead_stones();
        let board = self.game.board();
        let mut is_dead = vec![false; board.len()];
        for p in dead {
            is_dead[board.index(p)] = true;
        }
        let [b, w] = board.area_without(&is_dead);
        b as f64 - w as f64 - self.game.komi()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn engine(size: usize, komi: f64, seed: u64) -> Engine {
        let config = Config {
            seed: Some(seed),
            ..Config::default()
        };
        Engine::with_config(size, komi, config).unwrap()
    }

    /// Plays rows of `X` and `O` (top row first) onto the engine's board, alternating colours
    /// with passes as needed, then leaves `to_move` to move.
    fn setup(e: &mut Engine, rows: &[&str], to_move: Color) {
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                match ch {
                    'X' => stones.push((Black, Point::new(x, y))),
                    'O' => stones.push((White, Point::new(x, y))),
                    _ => {}
                }
            }
        }
        let mut game = e.game().clone();
        game.set_stones(&stones, to_move).unwrap();
        e.set_game(game);
    }

    #[test]
    fn captures_to_win_a_capturing_race() {
        let mut e = engine(7, 0.5, 1);
        setup(
            &mut e,
            &[
                ".......", //
                ".XXXXX.", ".XOOOX.", ".XOX.X.", ".XOOOX.", ".XXXXX.", ".......",
            ],
            Black,
        );
        let b = e.board();
        assert_eq!(
            b.libs(b.index(Point::new(3, 3))),
            1,
            "Black's stone in atari"
        );
        assert_eq!(
            b.libs(b.index(Point::new(2, 2))),
            1,
            "White's group in atari"
        );
        let mv = e.genmove(Black, &Limits::playouts(2000));
        assert_eq!(mv, Move::Play(Point::new(4, 3)));
        assert_eq!(e.board().captures(Black), 7);
        assert!(e.last_stats().unwrap().win_rate > 0.8);
    }

    #[test]
    fn passes_when_only_its_own_eyes_are_left() {
        let mut e = engine(5, 0.5, 2);
        setup(
            &mut e,
            &[
                "X.XXX", //
                "XXXXX", "XXX.X", "XXXXX", "XXXXX",
            ],
            Black,
        );
        assert_eq!(e.genmove(Black, &Limits::playouts(100)), Move::Pass);
    }

    #[test]
    fn passes_after_the_opponent_when_ahead() {
        let mut e = engine(5, 0.5, 3);
        setup(
            &mut e,
            &[
                ".XXO.", //
                "X.XOO", "XXXO.", "X.XOO", ".XXO.",
            ],
            White,
        );
        e.play(White, Move::Pass).unwrap();
        // Both sides alive, so no dead stone to take first. Black: 11 stones + 4 eyes; White:
        // 7 stones + 3 eyes.
        assert!(e.dead_stones().is_empty());
        assert_eq!(e.game().score(), 15.0 - 10.0 - 0.5);
        assert_eq!(e.genmove(Black, &Limits::playouts(100)), Move::Pass);
        assert!(e.game().is_over());
    }

    #[test]
    fn self_play_never_fills_its_own_eyes_and_ends_by_passing() {
        for (size, seed) in [(5, 4), (7, 5)] {
            let mut e = engine(size, 0.5, seed);
            let mut color = Black;
            for _ in 0..4 * size * size {
                if e.game().is_over() {
                    break;
                }
                let before = e.board().clone();
                let mv = e.genmove(color, &Limits::playouts(300));
                if let Move::Play(p) = mv {
                    let i = before.index(p);
                    assert!(
                        !before.is_true_eye(color, i),
                        "{color} filled its own eye at {p:?}\n{before}"
                    );
                }
                color = color.opponent();
            }
            assert!(e.game().is_over(), "{size}x{size} self-play did not end");
        }
    }

    #[test]
    fn the_tree_is_kept_under_the_moves_played() {
        let mut e = engine(9, 7.5, 6);
        e.genmove(Black, &Limits::playouts(3000));
        let pv = e.last_stats().unwrap().pv.clone();
        assert!(pv.len() >= 2, "a principal variation: {pv:?}");
        e.play(White, pv[1]).unwrap();
        e.genmove(Black, &Limits::playouts(500));
        let stats = e.last_stats().unwrap();
        assert!(stats.reused_visits > 0, "the reply's subtree was kept");
        assert_eq!(stats.playouts, 500);
        // An undo forgets the tree.
        e.undo().unwrap();
        e.genmove(Black, &Limits::playouts(100));
        assert_eq!(e.last_stats().unwrap().reused_visits, 0);
    }

    #[test]
    fn threads_share_one_tree() {
        let config = Config {
            threads: 2,
            seed: Some(7),
            ..Config::default()
        };
        let mut e = Engine::with_config(9, 7.5, config).unwrap();
        let mv = e.reg_genmove(Black, &Limits::playouts(2000));
        let stats = e.last_stats().unwrap();
        assert_eq!(stats.playouts, 2000);
        assert_eq!(
            e.tree.node(ROOT).visits,
            2000,
            "every virtual loss was backed up"
        );
        assert!(matches!(mv, Move::Play(_)));
        assert!(e.moves().is_empty(), "reg_genmove does not play");
    }

    #[test]
    fn a_lone_invader_is_dead_and_scored_so() {
        let mut e = engine(7, 7.5, 8);
        setup(
            &mut e,
            &[
                "..XO...", //
                "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
            ],
            Black,
        );
        assert_eq!(e.dead_stones(), vec![Point::new(0, 3)]);
        // Black: 3 columns; White: 4 columns with the invader removed.
        assert_eq!(e.final_score(), 21.0 - 28.0 - 7.5);
        // The same once the game has ended in two passes: the playouts still play it out.
        e.play(Black, Move::Pass).unwrap();
        e.play(White, Move::Pass).unwrap();
        assert_eq!(e.dead_stones(), vec![Point::new(0, 3)]);
        assert_eq!(e.final_score(), 21.0 - 28.0 - 7.5);
    }

    #[test]
    fn cleanup_does_not_pass_while_dead_stones_remain() {
        let mut e = engine(7, 7.5, 9);
        setup(
            &mut e,
            &[
                "..XO...", //
                "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
            ],
            White,
        );
        e.play(White, Move::Pass).unwrap();
        let mv = e.genmove_cleanup(Black, &Limits::playouts(500));
        assert_ne!(mv, Move::Pass);
    }

    /// The final position of the rules check's game 9-2-0 (docs/runs/go-vs-gnugo-37): GNU Go
    /// (White) passed, and ours passed too with White's dead stone at C3 in its area, so the
    /// judge scored B+0.5 where GNU Go's final_score said B+3.5.
    #[test]
    fn does_not_pass_while_the_opponents_dead_stones_are_on_the_board() {
        let rows = [
            "X.XOO.O..", //
            ".XXO.O.O.",
            "..XXO.O.O",
            "XXXOOO.O.",
            "..XXXOO.O",
            ".XXXOOXOO",
            ".XOXOOXXO",
            ".X.XOXXXX",
            "XXXXXX.X.",
        ];
        let dead = Point::new(2, 6);
        let mut e = engine(9, 7.5, 21);
        setup(&mut e, &rows, White);
        assert_eq!(e.board().stone_at(dead), Some(White));
        let mut black_moves = Vec::new();
        loop {
            e.play(White, Move::Pass).unwrap();
            let mv = e.genmove(Black, &Limits::playouts(2000));
            black_moves.push(mv);
            if mv == Move::Pass || black_moves.len() == 4 {
                break;
            }
        }
        assert_ne!(black_moves[0], Move::Pass, "the dead stone is still there");
        assert_eq!(black_moves.last(), Some(&Move::Pass), "{black_moves:?}");
        assert_eq!(e.board().stone_at(dead), None, "{black_moves:?}");
        assert_eq!(e.game().score(), 3.5, "GNU Go's final_score");
    }

    #[test]
    fn free_handicap_placement_is_the_fixed_one_capped() {
        let mut e = engine(9, 0.5, 14);
        assert_eq!(e.place_free_handicap(1), Err(SetupError::BadCount(1)));
        let points = e.place_free_handicap(12).unwrap();
        assert_eq!(points.len(), 9, "9x9 takes at most 9 stones");
        assert_eq!(e.game().handicap(), 9);
        assert_eq!(e.game().to_move(), White);
        let mut small = engine(5, 0.5, 15);
        assert_eq!(
            small.place_free_handicap(2),
            Err(SetupError::BoardTooSmall(5))
        );
    }

    #[test]
    fn a_deadline_stops_the_search() {
        let mut e = engine(9, 7.5, 13);
        let start = Instant::now();
        e.reg_genmove(Black, &Limits::time(Duration::from_millis(200)));
        // Without the deadline the search would never stop (no playout cap is set); the
        // margin is for a loaded machine.
        assert!(start.elapsed() < Duration::from_secs(3));
        assert!(e.last_stats().unwrap().playouts > 0);
    }

    #[test]
    fn genmove_after_a_resignation_changes_nothing() {
        let mut e = engine(5, 0.5, 12);
        e.play(Black, Move::Resign).unwrap();
        assert_eq!(e.genmove(White, &Limits::playouts(10)), Move::Pass);
        assert_eq!(e.moves().len(), 1);
    }

    #[test]
    fn resigns_a_lost_game() {
        let mut e = engine(5, 0.5, 10);
        setup(
            &mut e,
            &[
                ".O.O.", //
                "OOOOO", ".....", "OOOOO", ".O.O.",
            ],
            Black,
        );
        let mv = e.genmove(Black, &Limits::playouts(4000));
        assert_eq!(mv, Move::Resign, "{:?}", e.last_stats());
        assert_eq!(e.game().resigned(), Some(Black));
    }

    #[test]
    fn seki_is_alive_and_its_liberties_are_nobodys() {
        let mut e = engine(9, 7.5, 11);
        // Black's inner five stones and White's share the liberties (0,0) and (2,1): whoever
        // fills one is captured. Around them, Black lives at the top right, White below.
        setup(
            &mut e,
            &[
                ".OOOX.X..", //
                "XO.OXXXXX",
                "XXXXOOOOO",
                "OOOOOOOOO",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
            Black,
        );
        let b = e.board();
        for (x, y) in [(1, 0), (0, 1)] {
            assert_eq!(
                b.libs(b.index(Point::new(x, y))),
                2,
                "the seki group at ({x},{y})"
            );
        }
        // Black: 12 stones and 3 eye points; White: 19 stones and 45 points; (0,0) and (2,1)
        // reach both colours.
        assert_eq!(e.game().area(), [15, 64]);
        assert_eq!(e.dead_stones(), Vec::<Point>::new());
        assert_eq!(e.final_score(), 15.0 - 64.0 - 7.5);
    }
}
