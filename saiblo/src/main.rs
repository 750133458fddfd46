//! `gravity4-saiblo`: the gravity4 engine as a program for the Saiblo platform.
//!
//! Saiblo runs Connect-4 entries as programs talking over stdin/stdout (see README.md beside
//! this crate for the sources):
//!
//! - first line: `M N noX noY`;
//! - before each of our moves: the opponent's move `lastX lastY` (`-1 -1` when we start),
//!   optionally followed by `top` (N numbers) and the board (M*N numbers, 0 empty,
//!   1 opponent, 2 us), on the same line or on lines of their own, each block optionally
//!   preceded by its length (an SDK variant writes `N top... MN board...`);
//! - each reply: a 4-byte big-endian length, then `x y` (row 0 is the top row).
//!
//! The program keeps its own board from the moves, so a bare move is enough; whenever the
//! platform sends `top` and the board they must agree with that record. Any malformed input,
//! illegal move, contradicting board or early end of input ends the program with one line
//! on stderr and a non-zero status; the end of input after a finished game exits 0.
//!
//! The search and its settings are the library's: `GRAVITY4_MOVE_MS` (default 2000),
//! `GRAVITY4_PROFILE`, `GRAVITY4_LOG`, ... as in the root README.

mod game;
mod input;

use game::{Ending, Game, MoveError, Player, SetupError};
use gravity4::position::Position;
use gravity4::request::Request;
use gravity4::session;
use gravity4::settings::Settings;
use input::{Input, Line, Next, Wait};
use std::io::{self, BufReader, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How long a bare move waits for `top` and the board before the program decides this
/// platform sends moves only. Only the first message waits: the form is then known. A
/// platform writes a whole message at once, so lines of one message arrive microseconds
/// apart; 200 ms is far beyond that and still leaves the first move (start-up included)
/// well inside 3 s with the default 2 s budget, since the budget counts from the move's
/// arrival and this wait is part of it.
const FIRST_MESSAGE_GRACE: Duration = Duration::from_millis(200);

const USAGE: &str = "\
usage: gravity4-saiblo [--hello]

Plays gravity Connect-4 on stdin/stdout as the Saiblo platform runs programs: reads
`M N noX noY`, then before each move `lastX lastY` (optionally with top and board),
and answers each with a 4-byte big-endian length and `x y`.

  --hello   first send a framed `ok` (an SDK variant's handshake; off by default)

Environment: GRAVITY4_MOVE_MS (default 2000), GRAVITY4_PROFILE, GRAVITY4_LOG, ...";

/// Why the program stopped before a normal end.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error("malformed input: {0}")]
    Malformed(String),
    #[error("bad first line: {0}")]
    Setup(#[from] SetupError),
    #[error("illegal opponent move ({row}, {col}): {error}")]
    Illegal {
        row: i64,
        col: i64,
        error: MoveError,
    },
    #[error("the board contradicts the moves so far: {0}")]
    Contradiction(String),
    #[error("end of input before the game ended ({0})")]
    Eof(String),
    #[error("{0}")]
    Read(String),
    #[error("cannot write the reply: {0}")]
    Write(io::Error),
}

/// What the platform may send after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Not known yet (before the first message is complete).
    Unknown,
    /// Moves only.
    MovesOnly,
    /// Moves followed by `top` and the board.
    WithBoard,
}

/// The platform's `top` and board as sent.
struct View {
    top: Vec<i64>,
    board: Vec<i64>,
}

fn main() -> ExitCode {
    let mut hello = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--hello" => hello = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-V" | "--version" => {
                println!("gravity4-saiblo {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("gravity4-saiblo: unknown argument {other:?} (try --help)");
                return ExitCode::from(2);
            }
        }
    }
    // One line instead of a panic report: the platform shows stderr, and a panic inside the
    // search is caught below and answered with a legal move anyway.
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("gravity4-saiblo: internal error{place}: {message}");
    }));
    let input = Input::spawn(BufReader::new(io::stdin()));
    let mut output = io::stdout().lock();
    match play(input, &mut output, hello) {
        Ok(ending) => {
            eprintln!("gravity4-saiblo: game over ({ending}), input closed");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("gravity4-saiblo: {failure}");
            ExitCode::FAILURE
        }
    }
}

/// Plays one game on `input`/`output` until the input ends after the game is over.
fn play(mut input: Input, output: &mut impl Write, hello: bool) -> Result<Ending, Failure> {
    if hello {
        send(output, "ok")?;
    }
    let first = match input.next(Wait::Forever) {
        Next::Line(line) => line,
        Next::Eof => return Err(Failure::Eof("no first line `M N noX noY`".into())),
        Next::Failed(why) => return Err(Failure::Read(why)),
        Next::TimedOut => unreachable!("no deadline"),
    };
    let numbers = integers(&first)?;
    let [rows, cols, blocked_row, blocked_col] = numbers[..] else {
        return Err(Failure::Malformed(format!(
            "the first line must be `M N noX noY`, got {:?}",
            first.text
        )));
    };
    let mut game = Game::new(rows, cols, blocked_row, blocked_col)?;
    let mut form = Form::Unknown;
    // The record as of our last request, for a view that arrives after we answered.
    let mut asked: Option<Game> = None;
    loop {
        let line = match input.next(Wait::Forever) {
            Next::Line(line) => line,
            Next::Eof => {
                return match game.ending() {
                    Some(ending) => Ok(ending),
                    None => Err(Failure::Eof(format!(
                        "{} moves played, no result",
                        game.moves()
                    ))),
                };
            }
            Next::Failed(why) => return Err(Failure::Read(why)),
            Next::TimedOut => unreachable!("no deadline"),
        };
        let numbers = integers(&line)?;
        if numbers.len() != 2
            && form == Form::MovesOnly
            && let Some(before) = &asked
        {
            // `top` and the board came after the first message's wait: check them
            // against the position they describe, and expect them from now on.
            let top =
                top_block(&numbers, before.cols()).ok_or_else(|| unexpected_line(&line, &game))?;
            let board = read_board(&mut input, before)?
                .ok_or_else(|| Failure::Eof("the board never came".into()))?;
            if let Some(why) = before.contradiction(&top, &board) {
                return Err(Failure::Contradiction(why));
            }
            form = Form::WithBoard;
            continue;
        }
        if let Some(ending) = game.ending() {
            return Err(Failure::Malformed(format!(
                "more input after the game ended ({ending}): {:?}",
                line.text
            )));
        }
        if numbers.len() < 2 {
            return Err(unexpected_line(&line, &game));
        }
        let (row, col) = (numbers[0], numbers[1]);
        let last_move = if (row, col) == (-1, -1) {
            if game.moves() > 0 {
                return Err(Failure::Malformed(format!(
                    "`-1 -1` (we move first) after {} moves",
                    game.moves()
                )));
            }
            None
        } else {
            game.play(Player::Opponent, row, col)
                .map_err(|error| Failure::Illegal { row, col, error })?;
            Some((row as usize, col as usize))
        };
        let view = if numbers.len() > 2 {
            form = Form::WithBoard;
            Some(inline_view(&numbers[2..], &game)?)
        } else {
            let wait = match form {
                Form::Unknown => Wait::For(FIRST_MESSAGE_GRACE),
                Form::WithBoard => Wait::Forever,
                // The platform waits for our reply before its next message, so a line that
                // is already here belongs to this one; looking costs nothing.
                Form::MovesOnly => Wait::For(Duration::ZERO),
            };
            let view = read_view(&mut input, &game, wait)?;
            form = match (form, view.is_some()) {
                (_, true) => Form::WithBoard,
                (Form::Unknown, false) => Form::MovesOnly,
                (form, false) => form,
            };
            view
        };
        if let Some(view) = view
            && let Some(why) = game.contradiction(&view.top, &view.board)
        {
            return Err(Failure::Contradiction(why));
        }
        if game.ending().is_some() {
            // The opponent's move ended the game: nothing to answer, wait for the end.
            continue;
        }
        asked = Some(game.clone());
        let col = choose(&game, last_move, line.at);
        let row = game
            .landing_row(col)
            .expect("choose returns an open column");
        send(output, &format!("{row} {col}"))?;
        game.play(Player::Us, row as i64, col as i64)
            .expect("the landing cell of an open column is legal");
    }
}

/// The line's words as integers.
fn integers(line: &Line) -> Result<Vec<i64>, Failure> {
    line.text
        .split_whitespace()
        .map(|word| {
            word.parse::<i64>().map_err(|_| {
                Failure::Malformed(format!("{word:?} is not an integer in {:?}", line.text))
            })
        })
        .collect()
}

fn unexpected_line(line: &Line, game: &Game) -> Failure {
    Failure::Malformed(format!(
        "expected `lastX lastY` (optionally followed by {} top and {} board values), got {:?}",
        game.cols(),
        game.rows() * game.cols(),
        line.text
    ))
}

/// `top` from a line of its own: N values, or N itself followed by them.
fn top_block(numbers: &[i64], cols: usize) -> Option<Vec<i64>> {
    match numbers {
        _ if numbers.len() == cols => Some(numbers.to_vec()),
        [count, rest @ ..] if rest.len() == cols && *count == cols as i64 => Some(rest.to_vec()),
        _ => None,
    }
}

/// `top` and the board on the move's own line, with or without their lengths.
fn inline_view(numbers: &[i64], game: &Game) -> Result<View, Failure> {
    let (cols, cells) = (game.cols(), game.rows() * game.cols());
    if numbers.len() == cols + cells {
        return Ok(View {
            top: numbers[..cols].to_vec(),
            board: numbers[cols..].to_vec(),
        });
    }
    if numbers.len() == cols + cells + 2
        && numbers[0] == cols as i64
        && numbers[1 + cols] == cells as i64
    {
        return Ok(View {
            top: numbers[1..=cols].to_vec(),
            board: numbers[cols + 2..].to_vec(),
        });
    }
    Err(Failure::Malformed(format!(
        "after the move, expected {cols} top and {cells} board values, got {} values",
        numbers.len()
    )))
}

/// `top` and the board on lines of their own, if a line arrives within `wait`.
fn read_view(input: &mut Input, game: &Game, wait: Wait) -> Result<Option<View>, Failure> {
    let line = match input.next(wait) {
        Next::Line(line) => line,
        Next::TimedOut => return Ok(None),
        // A message cut short is an error, unless the move ended the game and the platform
        // simply stopped.
        Next::Eof if game.ending().is_some() || !matches!(wait, Wait::Forever) => {
            return Ok(None);
        }
        Next::Eof => return Err(Failure::Eof("`top` never came".into())),
        Next::Failed(why) => return Err(Failure::Read(why)),
    };
    let numbers = integers(&line)?;
    let top = top_block(&numbers, game.cols()).ok_or_else(|| {
        Failure::Malformed(format!(
            "expected the {} values of `top`, got {:?}",
            game.cols(),
            line.text
        ))
    })?;
    match read_board(input, game)? {
        Some(board) => Ok(Some(View { top, board })),
        None if game.ending().is_some() => Ok(None),
        None => Err(Failure::Eof("the board never came".into())),
    }
}

/// The board: M*N values over one or more lines, or M*N itself followed by them on one line.
/// `None` at the end of input.
fn read_board(input: &mut Input, game: &Game) -> Result<Option<Vec<i64>>, Failure> {
    let cells = game.rows() * game.cols();
    let mut board = Vec::with_capacity(cells);
    while board.len() < cells {
        let line = match input.next(Wait::Forever) {
            Next::Line(line) => line,
            Next::Eof => return Ok(None),
            Next::Failed(why) => return Err(Failure::Read(why)),
            Next::TimedOut => unreachable!("no deadline"),
        };
        let numbers = integers(&line)?;
        if board.is_empty() && numbers.len() == cells + 1 && numbers[0] == cells as i64 {
            return Ok(Some(numbers[1..].to_vec()));
        }
        board.extend(numbers);
    }
    if board.len() > cells {
        return Err(Failure::Malformed(format!(
            "the board has {} values, expected {cells}",
            board.len()
        )));
    }
    Ok(Some(board))
}

/// Our column: the library's search on our record of the game, budgeted from `entry` (the
/// message's arrival). A failure inside the search still yields a legal move.
fn choose(game: &Game, last_move: Option<(usize, usize)>, entry: Instant) -> usize {
    let fallback = || {
        let centre2 = game.cols() as i64 - 1;
        (0..game.cols())
            .filter(|&c| game.landing_row(c).is_some())
            .min_by_key(|&c| (2 * c as i64 - centre2).abs())
            .expect("a game still going has an open column")
    };
    let (blocked_row, blocked_col) = game.blocked();
    let position = match Position::from_course(
        game.rows() as i64,
        game.cols() as i64,
        game.top(),
        game.board(),
        blocked_row as i64,
        blocked_col as i64,
    ) {
        Ok(position) => position,
        Err(error) => {
            eprintln!("gravity4-saiblo: cannot search this position ({error}); playing centre");
            return fallback();
        }
    };
    let request = Request {
        position,
        last_move,
        entry,
    };
    let settings = Settings::from_env();
    match panic::catch_unwind(AssertUnwindSafe(|| session::choose(&request, &settings))) {
        Ok(col) if game.landing_row(col).is_some() => col,
        Ok(col) => {
            eprintln!("gravity4-saiblo: the search chose full column {col}; playing centre");
            fallback()
        }
        // The hook has printed the one line already.
        Err(_) => fallback(),
    }
}

/// One framed reply: a 4-byte big-endian length, then the text.
fn send(output: &mut impl Write, text: &str) -> Result<(), Failure> {
    let length = u32::try_from(text.len()).expect("replies are a few bytes");
    output
        .write_all(&length.to_be_bytes())
        .and_then(|()| output.write_all(text.as_bytes()))
        .and_then(|()| output.flush())
        .map_err(Failure::Write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_replies_big_endian() {
        let mut out = Vec::new();
        send(&mut out, "11 3").unwrap();
        assert_eq!(out, b"\0\0\0\x0411 3");
    }

    #[test]
    fn reads_top_and_board_with_or_without_lengths() {
        let game = Game::new(4, 4, 0, 0).unwrap();
        assert_eq!(top_block(&[4, 4, 4, 4], 4), Some(vec![4; 4]));
        assert_eq!(top_block(&[4, 4, 3, 4, 4], 4), Some(vec![4, 3, 4, 4]));
        assert_eq!(top_block(&[5, 4, 3, 4, 4], 4), None);
        let mut plain: Vec<i64> = vec![4; 4];
        plain.extend([0; 16]);
        let view = inline_view(&plain, &game).unwrap();
        assert_eq!((view.top.len(), view.board.len()), (4, 16));
        let mut counted = vec![4];
        counted.extend([4; 4]);
        counted.push(16);
        counted.extend([0; 16]);
        let view = inline_view(&counted, &game).unwrap();
        assert_eq!((view.top, view.board), (vec![4; 4], vec![0; 16]));
        assert!(inline_view(&plain[1..], &game).is_err());
    }
}
