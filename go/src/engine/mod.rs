//! The engine's front end: the game record and the calls a protocol layer makes (play,
//! undo, handicap, genmove), over the search ([`crate::search`]). What the front end
//! decides itself lives beside this file: when to pass, resign or clean up (`turn.rs`), the
//! directed capture of dead stones at the end (`cleanup.rs`), and which stones are dead and
//! what the score is (`scoring.rs`). Data flows one way: the front
//! end hands the search the game and reads the root's moves back; the search knows nothing
//! of it.

mod cleanup;
mod scoring;
mod turn;

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::board::Board;
use crate::game::{Game, IllegalMove, SetupError, UndoError};
use crate::point::{Color, Move, Point};
use crate::search::{Config, Limits, Search, SearchStats};

/// The most playouts of one ponder (the opponent's turn): a bound on a controller that
/// never sends its next command, about ten minutes on 9x9 (the tree's node cap bounds the
/// memory).
pub const PONDER_PLAYOUTS: u64 = 10_000_000;

/// A Go engine: the game, the search, and what the search keeps between moves.
#[derive(Debug)]
pub struct Engine {
    game: Game,
    search: Search,
    /// The engine's generator: the seeds of the search's threads and of the status
    /// playouts, in the order they are asked for.
    rng: SmallRng,
    stats: Option<SearchStats>,
    /// The judgement behind the last directed cleanup move, for the next one while the
    /// opponent only passes ([`cleanup::Kept`]).
    kept: Option<cleanup::Kept>,
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
            search: Search::new(config),
            rng,
            stats: None,
            kept: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        self.search.config()
    }

    /// Changes the configuration (the tree is kept; its cap follows).
    pub fn set_config(&mut self, config: Config) {
        self.search.set_config(config);
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
        self.search.forget();
    }

    /// Chooses a move for `color` within `limits` and plays it (GTP `genmove`). After a
    /// resignation the controller wants the game to go on: the resignation is taken back
    /// first (as `undo` would) and the position searched.
    pub fn genmove(&mut self, color: Color, limits: &Limits) -> Move {
        self.withdraw_resignation();
        let mv = self.think(color, limits, false);
        self.commit(color, mv);
        mv
    }

    /// Takes back the last move if it is a resignation; returns it if so.
    fn withdraw_resignation(&mut self) -> Option<(Color, Move)> {
        self.game.resigned()?;
        Some(self.undo().expect("a resignation is a move to take back"))
    }

    /// Plays the search's answer.
    fn commit(&mut self, color: Color, mv: Move) {
        self.game
            .play(color, mv)
            .expect("the search plays legal moves");
    }

    /// Chooses a move for `color` without playing it (GTP `reg_genmove`). After a
    /// resignation the position before it is searched, and the resignation kept.
    pub fn reg_genmove(&mut self, color: Color, limits: &Limits) -> Move {
        let withdrawn = self.withdraw_resignation();
        let mv = self.think(color, limits, false);
        if let Some((resigner, resign)) = withdrawn {
            self.game
                .play(resigner, resign)
                .expect("the resignation was legal");
            self.forget_tree();
        }
        mv
    }

    /// Searches the position for the side to move until `stop` is set by another thread, or
    /// [`PONDER_PLAYOUTS`]: the opponent's time, spent on the tree that our next search keeps
    /// (the moves played in between are followed down it). Nothing when the game is over.
    /// Returns the playouts run.
    pub fn ponder(&mut self, stop: &AtomicBool) -> u64 {
        if self.game.is_over() {
            return 0;
        }
        let color = self.game.to_move();
        let limits = Limits::playouts(PONDER_PLAYOUTS);
        let rng = &mut self.rng;
        let searched = self
            .search
            .run_until(&self.game, color, &limits, false, rng, stop);
        searched.playouts
    }

    /// Like [`Engine::genmove`], but never passes while the opponent has dead stones on the
    /// board (KGS's `kgs-genmove_cleanup`), and never resigns: it takes them by directed
    /// moves (`cleanup.rs`), and passes once none is left and the game has had its passes.
    /// After the game's two passes it judges and searches the position without them.
    pub fn genmove_cleanup(&mut self, color: Color, limits: &Limits) -> Move {
        self.withdraw_resignation();
        let mv = self.think(color, limits, true);
        self.commit(color, mv);
        mv
    }
}

#[cfg(test)]
mod tests;
