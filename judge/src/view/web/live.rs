//! The game on the table as the page sees it, and the players that feed it.
//!
//! One [`Table`] is shared by the game loop, which writes it (whose turn, the position,
//! each move with its time, the result), and the HTTP side, which reads it, long-polls
//! it and turns the person's clicks into [`Command`]s. The referee drives the game as in
//! tournaments; the table watches each player's turns (a [`Watcher`] of what it was asked
//! and what it answered), and the person's moves arrive from the [`Page`] over a channel.

use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{Value, json};

use crate::games::{Side, Termination};
use crate::players::Answer;
use crate::players::person::{Moves, Watcher};
use crate::record::round_ms;
use crate::referee::Outcome;
use crate::view::{Shown, versus};

/// What the page asks the game loop to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command<M> {
    /// The person's move (already checked against the position).
    Move(M),
    /// Leave this game (if it is still on) and start another, with colours swapped or not.
    New {
        /// Whether the person takes the other side.
        swap: bool,
    },
    /// Leave this game and stop the judge.
    Quit,
}

/// Whose turn it is, as the page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// The AI is being started.
    Starting,
    /// The person may move.
    You,
    /// The person's move is on its way to the referee.
    Sent,
    /// The AI is thinking.
    Ai,
    /// The game is over.
    Over,
}

impl Turn {
    /// The name in `/state`.
    fn name(self) -> &'static str {
        match self {
            Turn::Starting => "starting",
            Turn::You => "you",
            Turn::Sent => "sent",
            Turn::Ai => "ai",
            Turn::Over => "over",
        }
    }
}

/// One answer in the move list.
#[derive(Debug, Clone, PartialEq)]
struct Listed {
    side: Side,
    /// Where it landed; `None` for a pass, a resignation or an answer that was not a move.
    cell: Option<(i32, i32)>,
    /// It was a resignation (Go).
    resigned: bool,
    /// Its wall time as the game log keeps it.
    ms: f64,
    /// The verdict an answer that was not a legal move earned.
    fault: Option<&'static str>,
}

/// How the game ended, for the page.
#[derive(Debug, Clone)]
struct Ending {
    text: String,
    termination: Termination,
    winner: Option<Side>,
    detail: Option<String>,
    line: Vec<(i32, i32)>,
}

/// The state behind the lock.
struct Live<G: Shown> {
    /// Bumped on every change; `/state?since=V` waits for it to move past V.
    version: u64,
    /// Games started so far, this one included.
    number: u32,
    human: Side,
    position: G::Position,
    turn: Turn,
    moves: Vec<Listed>,
    ending: Option<Ending>,
    /// Where the finished game was saved, in words.
    saved: Option<String>,
}

/// A move the person asks for over HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// The move meant by pointing at cell `(x, y)` (row `x`, 0 on top).
    Cell(i32, i32),
    /// A pass.
    Pass,
    /// Giving up the game, where the game allows it (Go).
    Resign,
}

/// The shared game: what the page reads and what its requests go through.
pub(super) struct Table<G: Shown> {
    game: G,
    setup: G::Setup,
    ai_name: String,
    limit_ms: u64,
    live: Mutex<Live<G>>,
    changed: Condvar,
    commands: Sender<Command<G::Move>>,
}

impl<G: Shown> Table<G> {
    /// A table for games of `game` on `setup` against `ai_name` (moves limited to
    /// `limit_ms`), the person on `human`'s side; requests go to `commands`.
    pub fn new(
        game: G,
        setup: G::Setup,
        ai_name: &str,
        limit_ms: u64,
        human: Side,
        commands: Sender<Command<G::Move>>,
    ) -> Table<G> {
        let position = game.start(&setup);
        Table {
            game,
            setup,
            ai_name: ai_name.to_string(),
            limit_ms,
            live: Mutex::new(Live {
                version: 0,
                number: 0,
                human,
                position,
                turn: Turn::Starting,
                moves: Vec::new(),
                ending: None,
                saved: None,
            }),
            changed: Condvar::new(),
            commands,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Live<G>> {
        // A panic elsewhere must not take the page down with it: the state is plain data.
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the state and wakes every waiting `/state`.
    fn update(&self, change: impl FnOnce(&mut Live<G>)) {
        let mut live = self.lock();
        change(&mut live);
        live.version += 1;
        self.changed.notify_all();
    }

    /// The side the person plays in the current game.
    pub fn human(&self) -> Side {
        self.lock().human
    }

    /// A new game with the person on `human`'s side.
    pub fn begin(&self, human: Side) {
        let start = self.game.start(&self.setup);
        self.update(|l| {
            l.number += 1;
            l.human = human;
            l.position = start;
            l.turn = Turn::Starting;
            l.moves.clear();
            l.ending = None;
            l.saved = None;
        });
    }

    /// `side` is asked to move in `position`.
    fn asked(&self, side: Side, position: &G::Position) {
        self.update(|l| {
            l.position = position.clone();
            l.turn = if side == l.human { Turn::You } else { Turn::Ai };
        });
    }

    /// `side` answered in `position`: a legal move goes on the board at once (the
    /// referee, checking it the same way, plays it too); anything else ends the game, and
    /// [`Table::finish`] says how.
    fn answered(&self, side: Side, position: &G::Position, answer: &Answer<G::Move>) {
        let game = &self.game;
        self.update(|l| {
            let mut shown = Listed {
                side,
                cell: None,
                resigned: false,
                ms: round_ms(answer.wall_ms),
                fault: None,
            };
            match &answer.reply {
                Ok(mv) if game.is_legal(position, *mv) => {
                    shown.cell = game.move_cell(position, *mv);
                    shown.resigned = game.resignation() == Some(*mv);
                    let mut next = position.clone();
                    game.play(&mut next, *mv);
                    l.position = next;
                }
                Ok(_) => shown.fault = Some(Termination::Illegal.name()),
                Err(fault) => shown.fault = Some(fault.termination().name()),
            }
            l.moves.push(shown);
        });
    }

    /// The game is over: the board, the move list and the result are set from the
    /// referee's outcome, exactly as the game log records it; `saved` says where it was
    /// saved, if it was.
    pub fn finish(&self, outcome: &Outcome<G>, saved: Option<String>) {
        let game = &self.game;
        let mut position = game.start(&self.setup);
        let mut moves = Vec::new();
        for (i, &logged) in outcome.moves.iter().enumerate() {
            let Some(mv) = game.read_move(&position, logged) else {
                break;
            };
            moves.push(Listed {
                side: game.to_move(&position),
                cell: game.move_cell(&position, mv),
                resigned: game.resignation() == Some(mv),
                ms: round_ms(outcome.move_ms.get(i).copied().unwrap_or(0.0)),
                fault: None,
            });
            game.play(&mut position, mv);
        }
        // The losing answer (a fault or an illegal move) is timed too.
        if let Some(&ms) = outcome.move_ms.get(moves.len()) {
            moves.push(Listed {
                side: game.to_move(&position),
                cell: None,
                resigned: false,
                ms: round_ms(ms),
                fault: Some(outcome.termination.name()),
            });
        }
        let line = match outcome.termination {
            Termination::Four => game.winning_line(&position),
            _ => Vec::new(),
        };
        self.update(|l| {
            l.ending = Some(Ending {
                text: versus::result_text(outcome, l.human, &self.ai_name, self.limit_ms),
                termination: outcome.termination,
                winner: outcome.winner,
                detail: outcome.detail.clone(),
                line,
            });
            l.position = position;
            l.moves = moves;
            l.saved = saved;
            l.turn = Turn::Over;
        });
    }

    /// Checks the person's move against the position and whose turn it is, for game
    /// `number` when the request names one. `Ok` is the command for the game loop (the
    /// table already shows the move as sent); `Err` is an HTTP status and what was wrong.
    pub fn submit(
        &self,
        number: Option<u32>,
        request: Request,
    ) -> Result<Command<G::Move>, (u16, String)> {
        let mut live = self.lock();
        if let Some(n) = number.filter(|&n| n != live.number) {
            return Err((
                409,
                format!(
                    "that move was meant for game {n}; game {} is on",
                    live.number
                ),
            ));
        }
        match live.turn {
            Turn::You => {}
            Turn::Sent => return Err((409, "your move is already in".into())),
            Turn::Ai => {
                return Err((409, format!("not your turn: {} is thinking", self.ai_name)));
            }
            Turn::Starting => return Err((409, "not your turn: the game is starting".into())),
            Turn::Over => return Err((409, "the game is over: start a new one".into())),
        }
        let game = &self.game;
        let mv = match request {
            Request::Cell(x, y) => game.move_at(&live.position, x, y).ok_or_else(|| {
                (
                    422,
                    format!("no legal move at row {x}, column {y}: choose a marked cell"),
                )
            })?,
            Request::Pass => game
                .legal_moves(&live.position)
                .into_iter()
                .find(|&m| game.move_cell(&live.position, m).is_none())
                .ok_or_else(|| (422, "you cannot pass: you have a legal move".to_string()))?,
            Request::Resign => game
                .resignation()
                .ok_or_else(|| (422, "this game has no resignation".to_string()))?,
        };
        live.turn = Turn::Sent;
        live.version += 1;
        self.changed.notify_all();
        Ok(Command::Move(mv))
    }

    /// Hands a command to the game loop (a loop that has ended takes no more).
    pub fn send(&self, command: Command<G::Move>) {
        let _ = self.commands.send(command);
    }

    /// The state once its version differs from `since` or `wait` has passed.
    pub fn wait(&self, since: u64, wait: Duration) -> Value {
        let live = self.lock();
        let (live, _) = self
            .changed
            .wait_timeout_while(live, wait, |l| l.version == since)
            .unwrap_or_else(|e| e.into_inner());
        self.state_of(&live)
    }

    /// The state now.
    pub fn state(&self) -> Value {
        self.state_of(&self.lock())
    }

    /// `/state`'s JSON: the game (`kind`, and the setup in words), the grid (rows of `.`
    /// empty, `#` blocked, `X` first side, `O` second), the person's legal cells, whether
    /// the person may pass or resign, the last move's cell, each answer with who gave it
    /// and its time, the AI's total time, and the result once the game is over.
    fn state_of(&self, l: &Live<G>) -> Value {
        let game = &self.game;
        let grid = game.grid(&l.position);
        let labels = game.labels();
        let cells = grid.text_rows();
        let yours = l.turn == Turn::You;
        let legal = if yours {
            game.legal_moves(&l.position)
        } else {
            Vec::new()
        };
        let legal_cells: Vec<[i32; 2]> = legal
            .iter()
            .filter_map(|&m| game.move_cell(&l.position, m))
            .map(|(x, y)| [x, y])
            .collect();
        let can_pass = legal
            .iter()
            .any(|&m| game.move_cell(&l.position, m).is_none());
        let by = |side: Side| if side == l.human { "you" } else { "ai" };
        let moves: Vec<Value> = l
            .moves
            .iter()
            .map(|m| {
                let name = if m.resigned {
                    "resign".to_string()
                } else {
                    game.played(m.cell)
                };
                json!({
                    "by": by(m.side),
                    "name": m.fault.is_none().then_some(name),
                    "cell": m.cell.map(|(x, y)| [x, y]),
                    "ms": m.ms,
                    "fault": m.fault,
                })
            })
            .collect();
        let ai_total: f64 = l
            .moves
            .iter()
            .filter(|m| m.side != l.human)
            .fold(0.0, |total, m| total + m.ms); // `sum` would start from -0.0
        // From the position, so a Reversi game shows its opening's last move before anyone
        // has moved.
        let last = game.last_cell(&l.position).map(|(x, y)| [x, y]);
        let result = l.ending.as_ref().map(|e| {
            json!({
                "text": e.text,
                "termination": e.termination.name(),
                "winner": e.winner.map(by),
                "detail": e.detail,
                "line": e.line.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
            })
        });
        json!({
            "version": l.version,
            "game": l.number,
            "kind": game.kind().name(),
            "setup": game.setup_line(&self.setup),
            "rows": grid.rows,
            "cols": grid.cols,
            "cells": cells,
            "stones": G::STONES,
            "col_labels": (0..grid.cols).map(|y| (labels.col)(y).to_string()).collect::<Vec<_>>(),
            "row_labels": (0..grid.rows).map(|x| (labels.row)(x, grid.rows).to_string()).collect::<Vec<_>>(),
            "you": l.human.name(),
            "ai": self.ai_name,
            "limit_ms": self.limit_ms,
            "turn": l.turn.name(),
            "legal": legal_cells,
            "can_pass": can_pass,
            "can_resign": yours && game.resignation().is_some(),
            "last": last,
            "moves": moves,
            "ai_total_ms": round_ms(ai_total),
            "result": result,
            "saved": l.saved,
        })
    }
}

/// The table follows each player's turns: whose turn it is, and each answer as it comes.
impl<G: Shown> Watcher<G> for &Table<G> {
    fn asked(&mut self, _: &G, position: &G::Position, side: Side) {
        Table::asked(self, side, position);
    }

    fn answered(&mut self, _: &G, position: &G::Position, side: Side, answer: &Answer<G::Move>) {
        Table::answered(self, side, position, answer);
    }
}

/// The person at the page: each move is the next command from the HTTP side.
pub struct Page<'a, M> {
    /// Where the page's commands arrive.
    pub commands: &'a Receiver<Command<M>>,
    /// The command that made the person leave the game (a new game, or quitting).
    pub left_for: Option<Command<M>>,
}

impl<G: Shown> Moves<G> for Page<'_, G::Move> {
    fn next(&mut self, _: &G, _: &G::Position) -> Result<G::Move, String> {
        match self.commands.recv() {
            Ok(Command::Move(mv)) => Ok(mv),
            other => {
                // A closed channel means the server is gone: as good as quitting.
                self.left_for = Some(other.unwrap_or(Command::Quit));
                Err("left the game".into())
            }
        }
    }
}
