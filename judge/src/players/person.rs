//! A person as a player: the human-move loop, once for every board a person plays on.
//!
//! Where the moves come from differs (keys typed in the terminal, clicks on a page), and
//! is a [`Moves`]; the player around it is the same: nothing to load or start, each move
//! the person's next one, timed by the judge's wall clock (a person has no time limit),
//! and a person who leaves the game loses it by `crash`, the detail saying how they left.

use std::time::{Duration, Instant};

use super::{Answer, Fault, Player};
use crate::games::{Game, Side};

/// Where a person's moves come from.
pub trait Moves<G: Game> {
    /// The person's move in `position` (the referee still checks it), or `Err` with how
    /// they left the game instead (`quit`, `left the game`).
    fn next(&mut self, game: &G, position: &G::Position) -> Result<G::Move, String>;
}

/// The person whose moves come from `M`.
pub struct Person<M>(pub M);

impl<G: Game, M: Moves<G>> Player<G> for Person<M> {
    fn start(&mut self, _: &G, _: &G::Setup, _: Side) -> Result<(), Fault> {
        Ok(())
    }

    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        _: Option<G::Move>,
        _: Duration,
    ) -> Answer<G::Move> {
        let start = Instant::now();
        let reply = self.0.next(game, position).map_err(Fault::Crash);
        Answer::timed(reply, start.elapsed().as_secs_f64() * 1e3)
    }
}

/// What watches a player's turns: told when it is asked and what it answered.
pub trait Watcher<G: Game> {
    /// `side` is asked to move in `position`.
    fn asked(&mut self, game: &G, position: &G::Position, side: Side);

    /// `side` answered `answer` in `position`.
    fn answered(&mut self, game: &G, position: &G::Position, side: Side, answer: &Answer<G::Move>);
}

/// A player (the person, or the AI they play) whose turns a [`Watcher`] follows, as a
/// board drawn for a person does. Start, the game's end and stop go to the player as
/// they come.
pub struct Watched<'a, G: Game, W> {
    /// The player itself.
    pub player: &'a mut dyn Player<G>,
    /// The side it plays.
    pub side: Side,
    /// What follows its turns.
    pub watcher: W,
}

impl<G: Game, W: Watcher<G>> Player<G> for Watched<'_, G, W> {
    fn start(&mut self, game: &G, setup: &G::Setup, side: Side) -> Result<(), Fault> {
        self.player.start(game, setup, side)
    }

    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        last: Option<G::Move>,
        limit: Duration,
    ) -> Answer<G::Move> {
        self.watcher.asked(game, position, self.side);
        let answer = self.player.next_move(game, position, last, limit);
        self.watcher.answered(game, position, self.side, &answer);
        answer
    }

    fn game_over(&mut self, game: &G, position: &G::Position, last: Option<G::Move>) {
        self.player.game_over(game, position, last);
    }

    fn stop(&mut self) {
        self.player.stop();
    }
}
