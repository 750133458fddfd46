//! A Reversi (Othello) engine speaking GTP, the Go Text Protocol in the dialect Othello
//! engines use (`gtp-rhino`, our `reversi gtp`), as a [`Player`]: the judge is the
//! controller. One process, started when the player is opened, kept across games when the
//! run reuses processes and the engine stayed in step (see [`Player::reusable`]).
//!
//! What the judge sends, one command per line (answers are read in order; GTP allows the
//! controller to send several commands before reading their answers):
//! - at the start of each game, waited for up to [`SETUP_TIMEOUT`] (like a library's
//!   load, not charged to any move): `boardsize 8`, `clear_board`, then the opening as
//!   `play black f5`, `play white d6`, ...; any `? ...` answer, silence or death here
//!   loses the game by `load`, with the command and the answer in the detail;
//! - on its turn, timed together as its move: on the first turn of a game
//!   `time_settings 0 S 1` (byo-yomi: S seconds for every move, S the judge's move limit,
//!   whole seconds rounded down when at least 1, else with decimals), then
//!   `play <colour> <move>` for each opponent move the engine has not seen (a pass too),
//!   `time_left <own colour> S 1`, and `genmove <own colour>`;
//! - after the game (when the player is dropped), `quit`; an engine that has not closed
//!   its output [`QUIT_GRACE`] later is killed with its whole process group.
//!
//! What it accepts: `=` answers, with or without an id, ended by an empty line; `genmove`'s
//! answer is a square in any case (`d3`, `D3`) or `pass`. A `?` answer to `time_settings`
//! or `time_left` (`gtp-rhino` takes whole seconds only) and to `play <colour> pass`
//! (`gtp-rhino` answers `? syntax error` even to a forced pass; its board then stays as it
//! is, and its next `genmove` for the side to move is right) is ignored. A `?` answer to
//! any other command during play, a `genmove` answer that is not a move, a line that is
//! not a GTP answer, or output written before the turn loses by `garbage` with the text;
//! no complete `genmove` answer within the move limit by `timeout`; a dead engine by
//! `crash`. The referee judges the move itself (a `pass` while moves exist is `illegal`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::process::pipes::{Failure, Pipes};
use super::process::{CpuMark, LogSink, ProcessSettings, Program};
use super::{Answer, Fault, Player, preview, program_fault};
use crate::games::Side;
use crate::games::reversi::{Move, Position, Reversi, Setup};

/// How long an engine may take to answer the set-up commands of a game.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to exit after `quit`.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The colour name GTP uses for a side (black moves first).
pub(super) fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

/// The byo-yomi seconds the engine is told for a move `limit`: whole seconds rounded down
/// when at least one (GTP's integers; an engine never hears of more time than it has),
/// else the fraction (which engines taking integers refuse; that is tolerated).
fn seconds(limit: Duration) -> String {
    let s = limit.as_secs_f64();
    if s >= 1.0 {
        format!("{}", s.floor() as u64)
    } else {
        format!("{s:.3}")
    }
}

/// One GTP answer: `=` (success) or `?` (failure), and its text (lines joined by `\n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// `=` (true) or `?` (false).
    pub ok: bool,
    /// The text after the status and id, its lines joined by `\n`.
    pub text: String,
}

/// How a command's `?` answer is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnError {
    /// Ignored: an optional command (`time_settings`, `time_left`, `play ... pass`).
    Tolerate,
    /// Loses the game.
    Fail,
}

/// Parses the first line of an answer: `=` or `?`, an optional numeric id, then the text.
pub fn reply_head(line: &str) -> Option<Reply> {
    let ok = match line.as_bytes().first()? {
        b'=' => true,
        b'?' => false,
        _ => return None,
    };
    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    Some(Reply {
        ok,
        text: rest.trim().to_string(),
    })
}

/// Reads one whole answer from `next_line` (each line without its line break): stray
/// empty lines before it are skipped, then its first line ([`reply_head`]) and every line
/// up to the empty line that ends it. `Ok(Err(text))`: the first line is not a GTP
/// answer, and `text` says so; `Err` is `next_line`'s.
pub fn read_reply<E>(
    mut next_line: impl FnMut() -> Result<String, E>,
) -> Result<Result<Reply, String>, E> {
    let mut reply = loop {
        let line = next_line()?;
        // Stray empty lines between answers are harmless.
        if line.trim().is_empty() {
            continue;
        }
        match reply_head(&line) {
            Some(reply) => break reply,
            None => {
                return Ok(Err(format!(
                    "{:?} is not a GTP answer (\"= ...\" or \"? ...\")",
                    preview(&line)
                )));
            }
        }
    };
    loop {
        let line = next_line()?;
        if line.trim().is_empty() {
            return Ok(Ok(reply));
        }
        reply.text.push('\n');
        reply.text.push_str(line.trim_end());
    }
}

/// The move in a `genmove` answer's text, in any case; `None` if it is not one.
pub fn parse_genmove(text: &str) -> Option<Move> {
    text.trim().parse().ok()
}

/// The move a `genmove` exchange ended with: the engine's `?` and an answer that `parse`
/// does not read as a move (`moves` says what would be one) are garbage.
pub(super) fn genmove_answer<M>(
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

/// The engine is out of step or gone: it plays no further game.
pub(super) fn abandon(pipes: &mut Pipes, program: &mut Result<Program, Fault>) {
    pipes.close();
    if let Ok(program) = program {
        program.kill();
    }
    *program = Err(Fault::Load("the engine was stopped after a fault".into()));
}

/// Says `quit` and reads on until the engine closes its output (it exited) or the grace
/// is over; dropping the program then kills whatever is left of its process group.
pub(super) fn quit(pipes: &mut Pipes, program: &Result<Program, Fault>) {
    if program.is_err() {
        return;
    }
    pipes.send("quit\n");
    let deadline = Instant::now() + QUIT_GRACE;
    while pipes.read_more(deadline).is_ok() {
        pipes.consume(usize::MAX);
    }
}

/// A GTP engine in its own process.
pub struct GtpPlayer {
    /// The process, or why it cannot play (every game lost by that fault).
    program: Result<Program, Fault>,
    pipes: Pipes,
    /// This game's colour.
    side: Side,
    /// Every move of the game so far, the opening's included, in order (black's first):
    /// the referee asks each side in turn, passes included, so colours alternate.
    history: Vec<Move>,
    /// How many of `history` the engine has on its board.
    known: usize,
    /// The set-up commands of this game were answered.
    started: bool,
    /// `time_settings` was sent this game.
    timed: bool,
}

impl GtpPlayer {
    /// Starts `argv` with `env` added to its environment, stderr going to `log`. A program
    /// that cannot start loses its games by `load`.
    pub fn launch(
        settings: &ProcessSettings,
        argv: &[String],
        env: &[(String, String)],
        log: Arc<LogSink>,
    ) -> GtpPlayer {
        let mut program = Program::spawn(settings, argv, env, log).map_err(Fault::Load);
        let pipes = match &mut program {
            Ok(p) => Pipes::new(p),
            Err(_) => Pipes::none(),
        };
        GtpPlayer {
            program,
            pipes,
            side: Side::First,
            history: Vec::new(),
            known: 0,
            started: false,
            timed: false,
        }
    }

    /// Reads one whole answer (up to its empty line) by `deadline`.
    fn reply(&mut self, deadline: Instant) -> Result<Reply, Failure> {
        read_reply(|| self.pipes.read_line(deadline))?.map_err(Failure::Garbage)
    }

    /// Sends `commands` at once and reads their answers in order by `deadline`: the last
    /// answer (`?` included), or the command whose answer went wrong and how (a `?` to an
    /// earlier command that must succeed is garbage).
    fn exchange(
        &mut self,
        commands: &[(String, OnError)],
        deadline: Instant,
    ) -> Result<Reply, (String, Failure)> {
        let text: String = commands.iter().map(|(c, _)| format!("{c}\n")).collect();
        self.pipes.send(text);
        let mut last = Reply {
            ok: true,
            text: String::new(),
        };
        for (i, (command, on_error)) in commands.iter().enumerate() {
            last = self.reply(deadline).map_err(|f| (command.clone(), f))?;
            // The last answer is the caller's to judge.
            if !last.ok && *on_error == OnError::Fail && i + 1 < commands.len() {
                let text = format!("`{command}` answered `? {}`", last.text);
                return Err((command.clone(), Failure::Garbage(text)));
            }
        }
        Ok(last)
    }

    /// The `play` commands for the moves the engine has not seen.
    fn catch_up(&self) -> Vec<(String, OnError)> {
        (self.known..self.history.len())
            .map(|ply| {
                let mover = if ply % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                };
                let mv = self.history[ply];
                let on_error = if mv == Move::Pass {
                    OnError::Tolerate
                } else {
                    OnError::Fail
                };
                (format!("play {} {mv}", colour(mover)), on_error)
            })
            .collect()
    }

    /// The engine is out of step or gone: it plays no further game.
    fn abandon(&mut self) {
        abandon(&mut self.pipes, &mut self.program);
    }
}

impl Player<Reversi> for GtpPlayer {
    fn start(&mut self, _game: &Reversi, setup: &Setup, side: Side) -> Result<(), Fault> {
        if let Err(fault) = &self.program {
            return Err(fault.clone());
        }
        if self.started {
            return Ok(());
        }
        self.side = side;
        self.history = setup.opening_moves();
        self.known = 0;
        self.timed = false;
        let mut commands = vec![
            ("boardsize 8".to_string(), OnError::Fail),
            ("clear_board".to_string(), OnError::Fail),
        ];
        commands.extend(self.catch_up());
        let deadline = Instant::now() + SETUP_TIMEOUT;
        let result = match self.pipes.unasked() {
            Some(failure) => Err(("the set-up".to_string(), failure)),
            None => self.exchange(&commands, deadline),
        };
        let fault = match result {
            Ok(reply) if reply.ok => {
                self.known = self.history.len();
                self.started = true;
                return Ok(());
            }
            Ok(reply) => {
                let last = &commands.last().expect("set-up commands").0;
                Fault::Load(format!("`{last}` answered `? {}`", reply.text))
            }
            Err((command, Failure::Timeout)) => Fault::Load(format!(
                "no answer to `{command}` within {} s",
                SETUP_TIMEOUT.as_secs()
            )),
            Err((command, Failure::Ended)) => {
                let how = match program_fault(&mut self.program, Failure::Ended) {
                    Fault::Crash(how) => how,
                    other => format!("{other:?}"),
                };
                Fault::Load(format!("{how} before answering `{command}`"))
            }
            Err((_, Failure::Garbage(text))) => Fault::Load(text),
        };
        self.abandon();
        Err(fault)
    }

    fn next_move(
        &mut self,
        _game: &Reversi,
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
        let s = seconds(limit);
        let mut commands = Vec::new();
        if !self.timed {
            commands.push((format!("time_settings 0 {s} 1"), OnError::Tolerate));
            self.timed = true;
        }
        commands.extend(self.catch_up());
        let me = colour(self.side);
        commands.push((format!("time_left {me} {s} 1"), OnError::Tolerate));
        let genmove = format!("genmove {me}");
        commands.push((genmove.clone(), OnError::Fail));
        let result = match self.pipes.unasked() {
            Some(failure) => Err(failure),
            None => genmove_answer(
                self.exchange(&commands, start + limit),
                &genmove,
                parse_genmove,
                "a1..h8 or pass",
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

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        quit(&mut self.pipes, &self.program);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_with_or_without_ids() {
        assert_eq!(
            reply_head("= D3"),
            Some(Reply {
                ok: true,
                text: "D3".into()
            })
        );
        assert_eq!(
            reply_head("=12 pass"),
            Some(Reply {
                ok: true,
                text: "pass".into()
            })
        );
        assert_eq!(
            reply_head("? syntax error"),
            Some(Reply {
                ok: false,
                text: "syntax error".into()
            })
        );
        assert_eq!(
            reply_head("="),
            Some(Reply {
                ok: true,
                text: String::new()
            })
        );
        assert_eq!(reply_head("d3"), None);
        assert_eq!(reply_head(""), None);
    }

    #[test]
    fn genmove_answers_are_moves_in_any_case() {
        assert_eq!(parse_genmove("D3"), Some(Move::Square { row: 2, col: 3 }));
        assert_eq!(parse_genmove("h8"), Some(Move::Square { row: 7, col: 7 }));
        assert_eq!(parse_genmove("PASS"), Some(Move::Pass));
        assert_eq!(parse_genmove("pass"), Some(Move::Pass));
        for bad in ["", "i1", "a9", "resign", "d3 e4", "33"] {
            assert_eq!(parse_genmove(bad), None, "{bad}");
        }
    }

    #[test]
    fn engines_hear_whole_seconds_never_more_than_the_limit() {
        assert_eq!(seconds(Duration::from_millis(5250)), "5");
        assert_eq!(seconds(Duration::from_millis(1000)), "1");
        assert_eq!(seconds(Duration::from_millis(500)), "0.500");
    }
}
