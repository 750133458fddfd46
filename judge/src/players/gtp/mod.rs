//! An engine speaking GTP, the Go Text Protocol version 2, as a [`Player`]: the judge is the
//! controller, as a Go server is (CGOS, KGS's `kgsGtp`). One player for every game that
//! speaks GTP, generic over the game: Reversi (Othello) in the dialect Othello engines use
//! (`gtp-rhino`, our `reversi gtp`; [`reversi`]) and Go (GNU Go, our `go-engine gtp`;
//! [`go`]). A small per-game trait, [`GtpGame`], says what differs: the set-up of a game,
//! the move text, the clock commands. The wire is the `gtp-wire` crate's ([`gtp_wire`],
//! shared with the engines): commands are lines, answers are read by
//! [`gtp_wire::read_reply`]. One process, started when the player is opened, kept across
//! games when the run reuses processes and the engine stayed in step (see
//! [`Player::reusable`]).
//!
//! What the judge sends, one command per line (several at once, answers read in order; GTP
//! allows the controller to send several commands before reading their answers):
//! - at the start of each game, waited for up to [`SETUP_TIMEOUT`] (like a library's
//!   load, not charged to any move): the game's set-up ([`GtpGame::set_up`]: `boardsize`,
//!   `clear_board`, for Go `komi` and the handicap, then the opening as `play black f5`,
//!   `play white d6`, ...); any `? ...` answer, silence or death here loses the game by
//!   `load`, with the command and the answer in the detail;
//! - on its turn, timed together as its move: on the first turn of a game the game's
//!   `time_settings` if it sends one, then `play <colour> <move>` for each opponent move
//!   the engine has not seen (passes too), the game's `time_left` if it sends one, and
//!   `genmove <own colour>`. Times are whole seconds, rounded down, or decimals below a
//!   second;
//! - after the game (when the player is dropped), `quit`; an engine that has not closed
//!   its output [`QUIT_GRACE`] later is killed with its whole process group.
//!
//! What it accepts: `=` answers, with or without an id, ended by an empty line; `genmove`'s
//! answer is a move the game reads ([`GtpGame::parse_genmove`]). A `?` to `time_settings`
//! or `time_left` is ignored (the engine keeps its own pace); what a `?` to `play` means is
//! the game's ([`GtpGame::play_kind`]). A `?` to `genmove`, a `genmove` answer that is not
//! a move, a line that is not a GTP answer, or output written before the turn loses by
//! `garbage` with the text; no complete `genmove` answer within the move limit by
//! `timeout`; a dead engine by `crash`. The referee judges the move itself.

pub mod go;
pub mod reversi;

use std::fmt::Display;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gtp_wire::Reply;

use super::process::pipes::{Failure, Pipes};
use super::process::{CpuMark, LogSink, ProcessSettings, Program};
use super::{Answer, Fault, Player, preview, program_fault};
use crate::clock::Clock;
use crate::games::{Game, Side};

/// How long an engine may take to answer the set-up commands of a game.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to exit after `quit`.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What differs between the games a [`GtpPlayer`] plays.
pub trait GtpGame: Game<Move: Display> + Sized {
    /// What a `genmove` answer may be, for the message when it is none.
    const MOVES: &'static str;

    /// The move in a `genmove` answer's text; `None` if it is not one.
    fn parse_genmove(text: &str) -> Option<Self::Move>;

    /// How a `?` to `play <colour> mv` (the opponent's move, told the engine) is taken.
    fn play_kind(mv: Self::Move) -> Kind;

    /// Sends the set-up of a game on `setup` (board, opening, ...) by `deadline`, leaving
    /// `player` with the moves of the game so far (its `begin`) all known to the
    /// engine. `Err` is the `load` fault.
    fn set_up(
        player: &mut GtpPlayer<Self>,
        setup: &Self::Setup,
        deadline: Instant,
    ) -> Result<(), Fault>;

    /// The `time_settings` command sent on a game's first turn, if any: from the move
    /// `limit`, or from the game `clock` when the referee keeps one.
    fn time_settings(limit: Duration, clock: Option<&Clock>) -> Option<String>;

    /// The `time_left` command for `colour` sent before each `genmove`, if any.
    fn time_left(colour: &str, limit: Duration, clock: Option<&Clock>) -> Option<String>;
}

/// The colour name GTP uses for a side (black moves first).
fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

/// Seconds as GTP's time commands take them: whole seconds rounded down from one up (an
/// engine never hears of more time than it has), else the fraction (`0` for none; engines
/// taking integers refuse a fraction, which is tolerated).
fn seconds(time: Duration) -> String {
    let s = time.as_secs_f64();
    if s >= 1.0 {
        format!("{}", s.floor() as u64)
    } else if time.is_zero() {
        "0".into()
    } else {
        format!("{s:.3}")
    }
}

/// How a command's answer is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Ignored when refused (`time_settings`, `time_left`, Reversi's `play ... pass`).
    Optional,
    /// Must succeed: a `?` loses the game, the detail naming the command and the answer.
    Required,
    /// Tells the engine the opponent's move: refusing it is refusing a legal move.
    Play,
    /// The last command, whose answer the caller reads.
    Last,
}

/// The move a `genmove` exchange ended with: the engine's `?` and an answer that `parse`
/// does not read as a move (`moves` says what would be one) are garbage.
fn genmove_answer<M>(
    exchanged: Result<Reply, (String, Failure)>,
    genmove: &str,
    parse: impl Fn(&str) -> Option<M>,
    moves: &str,
) -> Result<M, Failure> {
    match exchanged {
        Ok(reply) if !reply.ok => Err(Failure::Garbage(format!(
            "`{genmove}` answered `? {}`",
            reply.text
        ))),
        Ok(reply) => parse(&reply.text).ok_or_else(|| {
            Failure::Garbage(format!(
                "`{genmove}` answered {:?}, not a move ({moves})",
                preview(&reply.text)
            ))
        }),
        Err((_, failure)) => Err(failure),
    }
}

/// A GTP engine in its own process, playing game `G`.
pub struct GtpPlayer<G: GtpGame> {
    /// The process, or why it cannot play (every game lost by that fault).
    program: Result<Program, Fault>,
    pipes: Pipes,
    /// This game's side.
    side: Side,
    /// Who made the first move of `history` (Go: White after a handicap).
    first: Side,
    /// The moves of the game so far that the engine must hear of, in order; sides
    /// alternate from `first`, passes included.
    history: Vec<G::Move>,
    /// How many of `history` the engine has on its board.
    known: usize,
    /// The set-up commands of this game were answered.
    started: bool,
    /// `time_settings` was sent this game.
    timed: bool,
    /// The game clock, as the referee last told it (none: no clock).
    clock: Option<Clock>,
}

impl<G: GtpGame> GtpPlayer<G> {
    /// Starts `argv` with `env` added to its environment, stderr going to `log`. A program
    /// that cannot start loses its games by `load`.
    pub fn launch(
        settings: &ProcessSettings,
        argv: &[String],
        env: &[(String, String)],
        log: Arc<LogSink>,
    ) -> GtpPlayer<G> {
        let mut program = Program::spawn(settings, argv, env, log).map_err(Fault::Load);
        let pipes = match &mut program {
            Ok(p) => Pipes::new(p),
            Err(_) => Pipes::none(),
        };
        GtpPlayer {
            program,
            pipes,
            side: Side::First,
            first: Side::First,
            history: Vec::new(),
            known: 0,
            started: false,
            timed: false,
            clock: None,
        }
    }

    /// A game's moves so far (`history`, the first made by `first`), none of them known to
    /// the engine yet: `catch_up` tells them.
    fn begin(&mut self, first: Side, history: Vec<G::Move>) {
        self.first = first;
        self.history = history;
        self.known = 0;
    }

    /// Sends `commands` at once and reads their answers in order by `deadline`: the last
    /// answer (`?` included), or the command whose answer went wrong and how.
    fn exchange(
        &mut self,
        commands: &[(String, Kind)],
        deadline: Instant,
    ) -> Result<Reply, (String, Failure)> {
        let text: String = commands.iter().map(|(c, _)| format!("{c}\n")).collect();
        self.pipes.send(text);
        let mut last = Reply {
            ok: true,
            text: String::new(),
        };
        for (command, kind) in commands {
            last = self.reply(deadline).map_err(|f| (command.clone(), f))?;
            let refused = match kind {
                _ if last.ok => None,
                Kind::Optional | Kind::Last => None,
                Kind::Required => Some(format!("`{command}` answered `? {}`", last.text)),
                Kind::Play => Some(format!(
                    "refused the opponent's legal move: `{command}` answered `? {}`",
                    last.text
                )),
            };
            if let Some(text) = refused {
                return Err((command.clone(), Failure::Garbage(text)));
            }
        }
        Ok(last)
    }

    /// Reads one whole answer (up to its empty line) by `deadline`.
    fn reply(&mut self, deadline: Instant) -> Result<Reply, Failure> {
        gtp_wire::read_reply(|| self.pipes.read_line(deadline))?.map_err(|line| {
            Failure::Garbage(format!(
                "{:?} is not a GTP answer (\"= ...\" or \"? ...\")",
                preview(&line)
            ))
        })
    }

    /// The side that made move `ply` of `history`.
    fn mover(&self, ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The `play` commands for the moves the engine has not seen, each of the game's
    /// [`GtpGame::play_kind`].
    fn catch_up(&self) -> Vec<(String, Kind)> {
        (self.known..self.history.len())
            .map(|ply| {
                let mv = self.history[ply];
                (
                    format!("play {} {mv}", colour(self.mover(ply))),
                    G::play_kind(mv),
                )
            })
            .collect()
    }

    /// Marks every move of `history` as known to the engine; with `forget`, drops them too
    /// (the moves of the game are then counted from here).
    fn caught_up(&mut self, forget: bool) {
        if forget {
            self.history.clear();
        }
        self.known = self.history.len();
    }

    /// Runs set-up `commands`, all of which must succeed.
    fn run_setup(&mut self, commands: &[(String, Kind)], deadline: Instant) -> Result<(), Fault> {
        match self.exchange(commands, deadline) {
            Ok(reply) if reply.ok => Ok(()),
            Ok(reply) => {
                let last = &commands.last().expect("set-up commands").0;
                Err(Fault::Load(format!("`{last}` answered `? {}`", reply.text)))
            }
            Err(e) => Err(self.setup_fault(e)),
        }
    }

    /// The `load` fault of a set-up command whose answer went wrong.
    fn setup_fault(&mut self, (command, failure): (String, Failure)) -> Fault {
        match failure {
            Failure::Timeout => Fault::Load(format!(
                "no answer to `{command}` within {} s",
                SETUP_TIMEOUT.as_secs()
            )),
            Failure::Ended => {
                let how = match program_fault(&mut self.program, Failure::Ended) {
                    Fault::Crash(how) => how,
                    other => format!("{other:?}"),
                };
                Fault::Load(format!("{how} before answering `{command}`"))
            }
            Failure::Garbage(text) => Fault::Load(text),
        }
    }

    /// The commands of a turn with a move `limit`: the game's time commands, the moves the
    /// engine has not seen, and `genmove` (last).
    fn turn_commands(&mut self, limit: Duration) -> Vec<(String, Kind)> {
        let me = colour(self.side);
        let mut commands = Vec::new();
        if !self.timed
            && let Some(command) = G::time_settings(limit, self.clock.as_ref())
        {
            commands.push((command, Kind::Optional));
            self.timed = true;
        }
        commands.extend(self.catch_up());
        if let Some(command) = G::time_left(me, limit, self.clock.as_ref()) {
            commands.push((command, Kind::Optional));
        }
        commands.push((format!("genmove {me}"), Kind::Last));
        commands
    }

    /// The engine is out of step or gone: it plays no further game.
    fn abandon(&mut self) {
        self.pipes.close();
        if let Ok(program) = &mut self.program {
            program.kill();
        }
        self.program = Err(Fault::Load("the engine was stopped after a fault".into()));
    }
}

impl<G: GtpGame> Player<G> for GtpPlayer<G> {
    fn start(&mut self, _game: &G, setup: &G::Setup, side: Side) -> Result<(), Fault> {
        if let Err(fault) = &self.program {
            return Err(fault.clone());
        }
        if self.started {
            return Ok(());
        }
        self.side = side;
        self.timed = false;
        self.clock = None;
        let result = match self.pipes.unasked() {
            Some(failure) => Err(self.setup_fault(("the set-up".into(), failure))),
            None => G::set_up(self, setup, Instant::now() + SETUP_TIMEOUT),
        };
        match result {
            Ok(()) => {
                self.started = true;
                Ok(())
            }
            Err(fault) => {
                self.abandon();
                Err(fault)
            }
        }
    }

    fn clock(&mut self, clock: &Clock) {
        self.clock = Some(clock.clone());
    }

    fn next_move(
        &mut self,
        _game: &G,
        _position: &G::Position,
        last: Option<G::Move>,
        limit: Duration,
    ) -> Answer<G::Move> {
        let start = Instant::now();
        if let Err(fault) = &self.program {
            return Answer::fault(fault.clone());
        }
        let cpu = CpuMark::read(self.program.as_ref().ok());
        if let Some(mv) = last {
            self.history.push(mv);
        }
        let commands = self.turn_commands(limit);
        let genmove = &commands.last().expect("genmove is sent").0;
        let result = match self.pipes.unasked() {
            Some(failure) => Err(failure),
            None => genmove_answer(
                self.exchange(&commands, start + limit),
                genmove,
                G::parse_genmove,
                G::MOVES,
            ),
        };
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        // Read before a fault kills the engine.
        let cpu_ms = cpu.spent(self.program.as_ref().ok());
        let reply = match result {
            Ok(mv) => {
                // The engine played it on its own board.
                self.history.push(mv);
                self.known = self.history.len();
                Ok(mv)
            }
            Err(failure) => {
                let fault = program_fault(&mut self.program, failure);
                self.abandon();
                Err(fault)
            }
        };
        Answer {
            reply,
            wall_ms,
            cpu_ms,
        }
    }

    fn peak_memory_kb(&self) -> Option<u64> {
        self.program.as_ref().ok()?.peak_memory_kb()
    }

    fn stop(&mut self) {
        // The engine stays up for another game if the run keeps processes; the next
        // game's `clear_board` resets it. If not, dropping the player quits it.
        self.started = false;
    }

    fn reusable(&self) -> bool {
        self.program.is_ok()
    }
}

impl<G: GtpGame> Drop for GtpPlayer<G> {
    /// Says `quit` and reads on until the engine closes its output (it exited) or the grace
    /// is over; dropping the program then kills whatever is left of its process group.
    fn drop(&mut self) {
        if self.program.is_err() {
            return;
        }
        self.pipes.send("quit\n");
        let deadline = Instant::now() + QUIT_GRACE;
        while self.pipes.read_more(deadline).is_ok() {
            self.pipes.consume(usize::MAX);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_whole_seconds_rounded_down_or_a_fraction() {
        assert_eq!(seconds(Duration::from_millis(59_900)), "59");
        assert_eq!(seconds(Duration::from_millis(5250)), "5");
        assert_eq!(seconds(Duration::from_millis(1000)), "1");
        assert_eq!(seconds(Duration::from_millis(500)), "0.500");
        assert_eq!(seconds(Duration::from_millis(250)), "0.250");
        assert_eq!(seconds(Duration::ZERO), "0");
    }
}
