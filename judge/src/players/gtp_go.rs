//! A Go engine speaking GTP version 2 as a [`Player`]: the judge is the controller, as a Go
//! server is (CGOS, KGS's `kgsGtp`). One process, started when the player is opened, kept
//! across games when the run reuses processes and the engine stayed in step. The wire is
//! [`super::gtp`]'s (answers read by [`read_reply`]); what is said on it is Go's.
//!
//! What the judge sends, one command per line (several at once, answers read in order):
//! - at the start of each game, waited for up to [`SETUP_TIMEOUT`] (not charged to any
//!   move): `boardsize N`, `clear_board`, `komi K`; with a handicap `fixed_handicap H`,
//!   whose answer must name the referee's points (GTP's fixed placement), else (a `?`, or
//!   other points) `clear_board` and `set_free_handicap` with the referee's points; then
//!   the opening as `play black E5`, `play white C3`, ... Any other `? ...` answer,
//!   silence or death here loses the game by `load`, with the command and the answer;
//! - on its turn, timed together as its move: on a game clock, on the first turn of a game
//!   `time_settings M B S` (main time, byo-yomi period, stones per period: Canadian, as
//!   GTP defines it); then `play <colour> <move>` for each opponent move the engine has
//!   not seen (passes too); on a clock `time_left <own colour> T S` (main time left and
//!   0, or the period's time and stones left); and `genmove <own colour>`. Without a
//!   clock the judge says nothing of time: the engine thinks as it was told on its
//!   command line (`--move-ms`, GNU Go's `--level`), and the per-move limit is the
//!   judge's alone. Times are whole seconds, rounded down, or decimals below a second;
//! - after the game (when the player is dropped), `quit`; an engine that has not closed
//!   its output [`QUIT_GRACE`] later is killed with its whole process group.
//!
//! What it accepts: `=` answers, with or without an id, ended by an empty line;
//! `genmove`'s answer is a vertex in any case (`D4`, `d4`), `pass` or `resign`. A `?` to
//! `time_settings` or `time_left` is ignored (the engine keeps its own pace). A `?` to
//! `play` means the engine refused the opponent's legal move: it loses by `garbage`,
//! the detail saying `refused ...`; so does a `?` to `genmove`, a `genmove` answer that is
//! not a move, a line that is not a GTP answer, or output written before the turn. No
//! complete `genmove` answer within the move's limit is `timeout`; a dead engine `crash`.
//! The referee judges the move itself (an occupied point, suicide or a superko repetition
//! is `illegal`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::gtp::{Reply, SETUP_TIMEOUT, abandon, colour, genmove_answer, quit, read_reply};
use super::process::pipes::{Failure, Pipes};
use super::process::{CpuMark, LogSink, ProcessSettings, Program};
use super::{Answer, Fault, Player, program_fault};
use crate::clock::Clock;
use crate::games::go::{Go, Move, Position, Setup};
use crate::games::{Game, Side};

/// Seconds as GTP's time commands take them: whole seconds rounded down from one up (an
/// engine never hears of more time than it has), else the fraction (`0` for none).
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

/// The move in a `genmove` answer's text (a vertex in any case, `pass`, `resign`).
pub fn parse_genmove(text: &str) -> Option<Move> {
    text.trim().parse().ok()
}

/// The vertices of a `fixed_handicap` answer (`D4 Q16 ...`), if every word is one.
fn parse_vertices(text: &str) -> Option<Vec<Move>> {
    text.split_whitespace()
        .map(|w| match w.parse() {
            Ok(mv @ Move::Play { .. }) => Some(mv),
            _ => None,
        })
        .collect()
}

/// Whether two lists name the same points, in any order.
fn same_points(a: &[Move], b: &[Move]) -> bool {
    let key = |m: &Move| match *m {
        Move::Play { col, row } => (col, row),
        _ => (-1, -1),
    };
    let mut a: Vec<_> = a.iter().map(key).collect();
    let mut b: Vec<_> = b.iter().map(key).collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// How a command's answer is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Ignored when refused (`time_settings`, `time_left`).
    Optional,
    /// Must succeed (set-up commands).
    Required,
    /// Tells the engine the opponent's move: refusing it is refusing a legal move.
    Play,
    /// The last command, whose answer the caller reads.
    Last,
}

/// A GTP Go engine in its own process.
pub struct GoGtpPlayer {
    /// The process, or why it cannot play (every game lost by that fault).
    program: Result<Program, Fault>,
    pipes: Pipes,
    /// This game's side.
    side: Side,
    /// Who makes the game's first move after the setup (White after a handicap).
    first: Side,
    /// Every move since the setup (the opening is sent at the start), in order; sides
    /// alternate from `first`, passes included.
    history: Vec<Move>,
    /// How many of `history` the engine has on its board.
    known: usize,
    /// The set-up commands of this game were answered.
    started: bool,
    /// The game clock, as the referee last told it (none: no clock).
    clock: Option<Clock>,
    /// `time_settings` was sent this game.
    timed: bool,
}

impl GoGtpPlayer {
    /// Starts `argv` with `env` added to its environment, stderr going to `log`. A program
    /// that cannot start loses its games by `load`.
    pub fn launch(
        settings: &ProcessSettings,
        argv: &[String],
        env: &[(String, String)],
        log: Arc<LogSink>,
    ) -> GoGtpPlayer {
        let mut program = Program::spawn(settings, argv, env, log).map_err(Fault::Load);
        let pipes = match &mut program {
            Ok(p) => Pipes::new(p),
            Err(_) => Pipes::none(),
        };
        GoGtpPlayer {
            program,
            pipes,
            side: Side::First,
            first: Side::First,
            history: Vec::new(),
            known: 0,
            started: false,
            clock: None,
            timed: false,
        }
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
            let read = read_reply(|| self.pipes.read_line(deadline));
            last = match read {
                Ok(Ok(reply)) => reply,
                Ok(Err(garbage)) => return Err((command.clone(), Failure::Garbage(garbage))),
                Err(failure) => return Err((command.clone(), failure)),
            };
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

    /// The side that made move `ply` of the game (after the setup).
    fn mover(&self, ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The `play` commands for the moves the engine has not seen.
    fn catch_up(&self) -> Vec<(String, Kind)> {
        (self.known..self.history.len())
            .map(|ply| {
                let mv = self.history[ply];
                (format!("play {} {mv}", colour(self.mover(ply))), Kind::Play)
            })
            .collect()
    }

    /// The set-up of a game on `setup`: board, komi, the handicap (fixed, or free when
    /// the engine places other points or none), the opening. `Err` is the `load` fault.
    fn set_up(&mut self, setup: &Setup) -> Result<(), Fault> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        let rules = setup.rules();
        let mut commands = vec![
            (format!("boardsize {}", rules.size()), Kind::Required),
            ("clear_board".to_string(), Kind::Required),
            (format!("komi {}", rules.komi_text()), Kind::Last),
        ];
        self.run_setup(&commands, deadline)?;
        let stones = setup.handicap_stones();
        if !stones.is_empty() {
            let fixed = format!("fixed_handicap {}", stones.len());
            let answer = self.exchange(&[(fixed, Kind::Last)], deadline);
            let placed = match answer {
                Ok(reply) if reply.ok => parse_vertices(&reply.text),
                Ok(_) => None,
                Err(e) => return Err(self.setup_fault(e)),
            };
            if !placed.is_some_and(|p| same_points(&p, &stones)) {
                let vertices: Vec<String> = stones.iter().map(Move::to_string).collect();
                commands = vec![
                    ("clear_board".to_string(), Kind::Required),
                    (
                        format!("set_free_handicap {}", vertices.join(" ")),
                        Kind::Last,
                    ),
                ];
                self.run_setup(&commands, deadline)?;
            }
        }
        // The opening has whole pairs of plies: its first mover also moves first after it.
        self.first = Go::first_mover(setup);
        self.history = setup.opening().to_vec();
        self.known = 0;
        let plays: Vec<(String, Kind)> = self
            .catch_up()
            .into_iter()
            .map(|(c, _)| (c, Kind::Required))
            .collect();
        if !plays.is_empty() {
            self.run_setup(&plays, deadline)?;
        }
        // The game's own moves are counted from after the opening.
        self.history.clear();
        Ok(())
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

    /// The engine is out of step or gone: it plays no further game.
    fn abandon(&mut self) {
        abandon(&mut self.pipes, &mut self.program);
    }
}

impl Player<Go> for GoGtpPlayer {
    fn start(&mut self, _game: &Go, setup: &Setup, side: Side) -> Result<(), Fault> {
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
            None => self.set_up(setup),
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
        _game: &Go,
        _position: &Position,
        last: Option<Move>,
        limit: Duration,
    ) -> Answer<Move> {
        let start = Instant::now();
        if let Err(fault) = &self.program {
            return Answer::fault(fault.clone());
        }
        let cpu = CpuMark::read(self.program.as_ref().ok());
        if let Some(mv) = last {
            self.history.push(mv);
        }
        let me = colour(self.side);
        let mut commands = Vec::new();
        if let Some(clock) = &self.clock
            && !self.timed
        {
            let s = clock.settings();
            commands.push((
                format!(
                    "time_settings {} {} {}",
                    seconds(Duration::from_millis(s.main_ms)),
                    seconds(Duration::from_millis(s.byoyomi_ms)),
                    s.byoyomi_stones
                ),
                Kind::Optional,
            ));
            self.timed = true;
        }
        commands.extend(self.catch_up());
        if let Some(clock) = &self.clock {
            let left = clock.time_left();
            commands.push((
                format!("time_left {me} {} {}", seconds(left.time), left.stones),
                Kind::Optional,
            ));
        }
        let genmove = format!("genmove {me}");
        commands.push((genmove.clone(), Kind::Last));
        let result = match self.pipes.unasked() {
            Some(failure) => Err(failure),
            None => genmove_answer(
                self.exchange(&commands, start + limit),
                &genmove,
                parse_genmove,
                "a vertex like D4, pass or resign",
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

impl Drop for GoGtpPlayer {
    fn drop(&mut self) {
        quit(&mut self.pipes, &self.program);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genmove_answers_are_vertices_passes_and_resignations_in_any_case() {
        assert_eq!(parse_genmove("D4"), Some(Move::Play { col: 3, row: 3 }));
        assert_eq!(parse_genmove("j10"), Some(Move::Play { col: 8, row: 9 }));
        assert_eq!(parse_genmove(" PASS "), Some(Move::Pass));
        assert_eq!(parse_genmove("Resign"), Some(Move::Resign));
        for bad in [
            "",
            "I5",
            "D0",
            "D26",
            "D04",
            "4D",
            "D4 E5",
            "pass pass",
            "?",
        ] {
            assert_eq!(parse_genmove(bad), None, "{bad}");
        }
    }

    #[test]
    fn fixed_handicap_answers_are_compared_as_sets() {
        let ours = crate::games::go::handicap_points(9, 3);
        let theirs = parse_vertices("C7 G7 C3").unwrap();
        assert!(same_points(&ours, &theirs), "{ours:?}");
        assert!(!same_points(&ours, &parse_vertices("C7 G3 G7").unwrap()));
        assert!(!same_points(&ours, &parse_vertices("C7 G7").unwrap()));
        assert_eq!(parse_vertices("C7 pass"), None);
        assert_eq!(parse_vertices(""), Some(vec![]));
    }

    #[test]
    fn times_are_whole_seconds_rounded_down_or_a_fraction() {
        assert_eq!(seconds(Duration::from_millis(59_900)), "59");
        assert_eq!(seconds(Duration::from_millis(1000)), "1");
        assert_eq!(seconds(Duration::from_millis(250)), "0.250");
        assert_eq!(seconds(Duration::ZERO), "0");
    }
}
