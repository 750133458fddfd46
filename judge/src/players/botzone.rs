//! A Reversi bot speaking Botzone's JSON protocol as a [`Player`]: the judge plays the
//! platform, as Botzone's documentation (its wiki's Bot page) describes it.
//!
//! One-turn mode (the default on Botzone): each turn the judge starts the program and
//! writes one line, a JSON object `{"requests":[...],"responses":[...],"time_limit":S,
//! "memory_limit":MB}` plus `"data"` and `"globaldata"` once the bot has given them:
//! - moves are `{"x":column,"y":row}`, 0-based from the top-left (`{"x":3,"y":2}` is d3),
//!   `{"x":-1,"y":-1}` a pass;
//! - `requests` are the opponent's moves and `responses` the bot's, alternating, the game
//!   counted from the standard start: black's first request is `{"x":-1,"y":-1}` (nothing
//!   happened before its first move), white's is black's first move. The opening of the
//!   board is in the history as if the two bots had played it: for black its opening moves
//!   are responses and white's are requests, for white the other way round. So a bot
//!   rebuilds the position by replaying the history;
//! - `time_limit` is the judge's move limit in seconds, `memory_limit` the memory limit in
//!   MiB (0: none); `data` / `globaldata` are what the bot's previous answer in this game
//!   gave (Botzone keeps `globaldata` across games too; the judge does not).
//!
//! The bot answers with its first line of output: one JSON object
//! `{"response":{"x":X,"y":Y}}` (fields `debug`, `data`, `globaldata` optional; `debug`
//! goes to the player's log). The turn is over when the program then exits, or prints the
//! line `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`: then it is kept (paused with SIGSTOP until
//! its next turn, as Botzone pauses it) and later turns write only the newest request,
//! `{"x":X,"y":Y}` on one line. Output written while it waited (a second answer, anything
//! after that line) is `garbage` at its next turn.
//!
//! Verdicts: a first line that is not one JSON object, or has no `response` of two
//! integers, is `garbage`, and so is any other line before the program exits or asks to
//! be kept; the program dying by a signal or exiting with a non-zero status is `crash`
//! (`early exit (exit status 0)` if it printed nothing); no answer, or no exit or
//! keep-running line after it, within the move limit (start-up included, every turn in
//! one-turn mode) is `timeout`; a program that cannot be started is `load`. The referee
//! judges the move itself.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::process::pipes::{Failure, Pipes};
use super::process::{CpuMark, LogSink, ProcessSettings, Program};
use super::{Answer, Fault, Player, preview, program_fault};
use crate::games::Side;
use crate::games::reversi::{Move, Position, Reversi, Setup};

/// The line after which Botzone keeps a bot running.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// A move on the wire: `{"x":column,"y":row}`, `{"x":-1,"y":-1}` for a pass.
fn cell(mv: Move) -> Value {
    match mv {
        Move::Pass => json!({"x": -1, "y": -1}),
        Move::Square { row, col } => json!({"x": col, "y": row}),
    }
}

/// The requests and responses of a bot playing `side` after `history` (every move of the
/// game from the standard start, black's first; it is `side`'s turn).
fn history_lists(history: &[Move], side: Side) -> (Vec<Value>, Vec<Value>) {
    let mut requests = Vec::new();
    let mut responses = Vec::new();
    if side == Side::First {
        // Black moves first: nothing came before.
        requests.push(cell(Move::Pass));
    }
    for (ply, &mv) in history.iter().enumerate() {
        let mover = if ply % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        if mover == side {
            responses.push(cell(mv));
        } else {
            requests.push(cell(mv));
        }
    }
    (requests, responses)
}

/// What a turn's output says: the move, and the data to hand back next turn.
#[derive(Debug, PartialEq)]
pub struct Output {
    /// The move (`{"x":-1,"y":-1}` is a pass; off the board is a move the referee judges).
    pub mv: Move,
    /// `data`, handed back next turn of this game.
    pub data: Option<Value>,
    /// `globaldata`, handed back next turn.
    pub globaldata: Option<Value>,
    /// `debug`, for the player's log (a string as it is, anything else as JSON text).
    pub debug: Option<String>,
}

/// Reads a bot's output (one JSON object, the keep-running line already removed).
pub fn parse_output(text: &str) -> Result<Output, String> {
    let shown = || {
        let t = text.trim();
        let head = preview(t);
        if head.len() < t.len() {
            format!("{head:?}...")
        } else {
            format!("{head:?}")
        }
    };
    let value: Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("output {} is not one JSON object ({e})", shown()))?;
    let Some(response) = value.get("response") else {
        return Err(format!("output {} has no \"response\"", shown()));
    };
    let coordinate = |k: &str| {
        response
            .get(k)
            .and_then(Value::as_i64)
            .and_then(|v| i32::try_from(v).ok())
    };
    let (Some(x), Some(y)) = (coordinate("x"), coordinate("y")) else {
        return Err(format!(
            "\"response\" {} is not {{\"x\":column,\"y\":row}} with integers",
            serde_json::to_string(response).unwrap_or_default()
        ));
    };
    let mv = if (x, y) == (-1, -1) {
        Move::Pass
    } else {
        // Off the board is a move too: the referee calls it illegal.
        Move::Square { row: y, col: x }
    };
    let debug = value.get("debug").map(|d| match d {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    });
    Ok(Output {
        mv,
        data: value.get("data").cloned(),
        globaldata: value.get("globaldata").cloned(),
        debug,
    })
}

/// A program kept running between turns, with its pipes.
struct Running {
    program: Result<Program, Fault>,
    pipes: Pipes,
    /// Its CPU clock when this turn was asked.
    cpu: CpuMark,
}

/// A Botzone-protocol bot: a process per turn, or one kept running for the game.
pub struct BotzonePlayer {
    settings: ProcessSettings,
    argv: Vec<String>,
    env: Vec<(String, String)>,
    log: Arc<LogSink>,
    /// This game's colour.
    side: Side,
    /// Every move of the game so far, the opening's included (black's first).
    history: Vec<Move>,
    /// The bot's `data` and `globaldata` from its last answer.
    data: Option<Value>,
    globaldata: Option<Value>,
    /// The bot asked to be kept running; it is paused until its next turn.
    running: Option<Running>,
    /// Why it cannot play, once it cannot (a failed start, a fault).
    broken: Option<Fault>,
}

/// How a turn's output ended.
#[derive(Clone, Copy)]
enum End {
    /// The program exited; its output is all it wrote.
    Exited,
    /// It printed the keep-running line and waits for its next request.
    KeepRunning,
}

impl BotzonePlayer {
    /// A bot run as `argv` with `env` added to its environment, stderr going to `log`.
    /// Nothing starts until its first turn (each turn starts it, unless it asked to be
    /// kept running); whether it can start at all was checked before the run.
    pub fn new(
        settings: &ProcessSettings,
        argv: &[String],
        env: &[(String, String)],
        log: Arc<LogSink>,
    ) -> BotzonePlayer {
        BotzonePlayer {
            settings: settings.clone(),
            argv: argv.to_vec(),
            env: env.to_vec(),
            log,
            side: Side::First,
            history: Vec::new(),
            data: None,
            globaldata: None,
            running: None,
            broken: None,
        }
    }

    /// The full input of a turn: the history, limits and saved data.
    fn full_input(&self, limit: Duration) -> String {
        let (requests, responses) = history_lists(&self.history, self.side);
        let mut input = json!({
            "requests": requests,
            "responses": responses,
            "time_limit": limit.as_secs_f64(),
            "memory_limit": self.settings.memory_limit_mb,
        });
        if let Some(data) = &self.data {
            input["data"] = data.clone();
        }
        if let Some(globaldata) = &self.globaldata {
            input["globaldata"] = globaldata.clone();
        }
        let mut line = input.to_string();
        line.push('\n');
        line
    }

    /// Starts the program for this turn and sends the full input, or wakes the kept one
    /// and sends the newest request. `Err` is a fault before anything was asked.
    fn ask(&mut self, limit: Duration) -> Result<Running, Fault> {
        if let Some(mut kept) = self.running.take() {
            if let Ok(program) = &mut kept.program {
                program.resume();
            }
            kept.cpu = CpuMark::read(kept.program.as_ref().ok());
            if let Some(failure) = kept.pipes.unasked() {
                return Err(program_fault(&mut kept.program, failure));
            }
            let newest = self.history.last().copied().unwrap_or(Move::Pass);
            kept.pipes.send(format!("{}\n", cell(newest)));
            return Ok(kept);
        }
        let mut program = Program::spawn(&self.settings, &self.argv, &self.env, self.log.clone())
            .map_err(Fault::Load)?;
        let pipes = Pipes::new(&mut program);
        pipes.send(self.full_input(limit));
        Ok(Running {
            program: Ok(program),
            pipes,
            cpu: CpuMark::started(),
        })
    }

    /// The next non-empty line by `deadline`; at the end of output, a last line without
    /// its line break, or `Ended`.
    fn next_line(pipes: &mut Pipes, deadline: Instant) -> Result<String, Failure> {
        loop {
            match pipes.read_line(deadline) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Ok(line),
                Err(Failure::Ended) if !pipes.inbox().iter().all(u8::is_ascii_whitespace) => {
                    let line = String::from_utf8_lossy(pipes.inbox()).into_owned();
                    pipes.consume(usize::MAX);
                    return Ok(line);
                }
                Err(failure) => return Err(failure),
            }
        }
    }

    /// Plays one turn: the move and the CPU time the program took to answer (ms, when
    /// read), or the fault. The answer is the first line of output (Botzone's single-line
    /// JSON); the turn ends when the program then exits or prints the keep-running line,
    /// and anything else it prints first is garbage.
    fn turn(&mut self, limit: Duration, start: Instant) -> Result<(Move, Option<f64>), Fault> {
        let deadline = start + limit;
        let mut turn = self.ask(limit)?;
        let answer = Self::next_line(&mut turn.pipes, deadline);
        // Read at the answer, before a program that ends its turn by exiting has gone.
        let cpu_ms = turn.cpu.spent(turn.program.as_ref().ok());
        let output = answer.and_then(|line| {
            parse_output(&line)
                .map_err(Failure::Garbage)
                .and_then(|output| match Self::next_line(&mut turn.pipes, deadline) {
                    Ok(line) if line.trim() == KEEP_RUNNING => Ok((output, End::KeepRunning)),
                    Ok(line) => Err(Failure::Garbage(format!(
                        "output after its answer: {:?}",
                        preview(&line)
                    ))),
                    Err(Failure::Ended) => Ok((output, End::Exited)),
                    Err(failure) => Err(failure),
                })
        });
        let (output, end) = output.map_err(|failure| program_fault(&mut turn.program, failure))?;
        match (end, &mut turn.program) {
            (End::Exited, Ok(program)) => {
                let how = program.reap();
                if how != "exit status 0" {
                    return Err(Fault::Crash(format!("{how} after writing its answer")));
                }
            }
            (End::KeepRunning, Ok(program)) => program.pause(),
            (_, Err(_)) => {}
        }
        if let End::KeepRunning = end {
            self.running = Some(turn);
        }
        if let Some(debug) = &output.debug {
            self.log
                .drain(format!("botzone debug: {debug}\n").as_bytes());
        }
        if output.data.is_some() {
            self.data = output.data;
        }
        if output.globaldata.is_some() {
            self.globaldata = output.globaldata;
        }
        Ok((output.mv, cpu_ms))
    }
}

impl Player<Reversi> for BotzonePlayer {
    fn start(&mut self, _game: &Reversi, setup: &Setup, side: Side) -> Result<(), Fault> {
        if let Some(fault) = &self.broken {
            return Err(fault.clone());
        }
        // A second call for the same game (as `judge play` makes) changes nothing.
        if self.history.is_empty() {
            self.side = side;
            self.history = setup.opening_moves();
        }
        Ok(())
    }

    fn next_move(
        &mut self,
        _game: &Reversi,
        _position: &Position,
        last: Option<Move>,
        limit: Duration,
    ) -> Answer<Move> {
        let start = Instant::now();
        if let Some(fault) = &self.broken {
            return Answer::fault(fault.clone());
        }
        if let Some(mv) = last {
            self.history.push(mv);
        }
        let turn = self.turn(limit, start);
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        let (reply, cpu_ms) = match turn {
            Ok((mv, cpu_ms)) => {
                self.history.push(mv);
                (Ok(mv), cpu_ms)
            }
            Err(fault) => {
                self.running = None;
                self.broken = Some(fault.clone());
                (Err(fault), None)
            }
        };
        Answer {
            reply,
            wall_ms,
            cpu_ms,
        }
    }

    /// Only a bot kept running has a process between turns to read.
    fn peak_memory_kb(&self) -> Option<u64> {
        self.running
            .as_ref()?
            .program
            .as_ref()
            .ok()?
            .peak_memory_kb()
    }

    fn stop(&mut self) {
        // Dropping a kept program kills its (paused) process group and its scratch dir.
        self.running = None;
        self.history.clear();
        self.broken = Some(Fault::Load("the game is over".into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn moves_are_column_x_row_y() {
        assert_eq!(cell(sq("d3")), json!({"x": 3, "y": 2}));
        assert_eq!(cell(sq("a8")), json!({"x": 0, "y": 7}));
        assert_eq!(cell(Move::Pass), json!({"x": -1, "y": -1}));
    }

    #[test]
    fn the_history_gives_each_side_its_own_moves_as_responses() {
        let none = json!({"x": -1, "y": -1});
        // From the start: black gets the "you move first" request, white black's move.
        let (req, resp) = history_lists(&[], Side::First);
        assert_eq!((req, resp), (vec![none.clone()], vec![]));
        let (req, resp) = history_lists(&[sq("f5")], Side::Second);
        assert_eq!((req, resp), (vec![cell(sq("f5"))], vec![]));
        // After an opening f5 d6 c3 d3 (black to move): black played f5 and c3.
        let opening = [sq("f5"), sq("d6"), sq("c3"), sq("d3")];
        let (req, resp) = history_lists(&opening, Side::First);
        assert_eq!(req, vec![none, cell(sq("d6")), cell(sq("d3"))]);
        assert_eq!(resp, vec![cell(sq("f5")), cell(sq("c3"))]);
        // White after one more black move, a pass included as (-1, -1).
        let moves = [sq("f5"), sq("d6"), sq("c3"), Move::Pass, sq("c4")];
        let (req, resp) = history_lists(&moves, Side::Second);
        assert_eq!(req, vec![cell(sq("f5")), cell(sq("c3")), cell(sq("c4"))]);
        assert_eq!(resp, vec![cell(sq("d6")), cell(Move::Pass)]);
    }

    #[test]
    fn outputs_parse_and_everything_else_is_garbage() {
        let out = parse_output(r#"{"response":{"x":3,"y":2},"debug":"hi","data":"d1"}"#).unwrap();
        assert_eq!(out.mv, sq("d3"));
        assert_eq!(out.data, Some(json!("d1")));
        assert_eq!(out.debug.as_deref(), Some("hi"));
        assert_eq!(
            parse_output("{\"response\":{\"x\":-1,\"y\":-1}}\n")
                .unwrap()
                .mv,
            Move::Pass
        );
        // Off the board is a move (illegal), not garbage.
        assert_eq!(
            parse_output(r#"{"response":{"x":9,"y":-3}}"#).unwrap().mv,
            Move::Square { row: -3, col: 9 }
        );
        for (bad, says) in [
            ("hello", "is not one JSON object"),
            ("", "is not one JSON object"),
            (r#"{"response":{"x":1}}"#, "with integers"),
            (r#"{"response":"d3"}"#, "with integers"),
            (r#"{"answer":{"x":1,"y":2}}"#, "has no \"response\""),
            (
                "{\"response\":{\"x\":3,\"y\":2}}\n{\"response\":{\"x\":3,\"y\":2}}",
                "not one JSON",
            ),
            (r#"{"response":{"x":1.5,"y":2}}"#, "with integers"),
        ] {
            let err = parse_output(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
