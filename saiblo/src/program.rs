//! The Saiblo program's side of the platform's protocol: read, check, answer.
//!
//! Saiblo runs Connect-4 entries as programs talking over stdin/stdout (see README.md beside
//! this crate for the sources):
//!
//! - first of all, before reading anything, the program sends a framed `ok` (the platform's
//!   own template does; `--no-hello` leaves it out);
//! - first line: `M N noX noY`;
//! - before each of our moves: the opponent's move `lastX lastY` (`-1 -1` when we start)
//!   leading a line, optionally followed by `top` (N numbers) and the board (M*N numbers,
//!   0 empty, 1 opponent, 2 us), each block optionally preceded by its count (the
//!   template reads `lastX lastY N top... MN board...`), on the move's line and on any
//!   number of lines after it, in any layout;
//! - each reply: a 4-byte big-endian length, then `x y` (row 0 is the top row).
//!
//! The program keeps its own board from the moves, so a bare move is enough; whenever the
//! platform sends `top` and the board they must agree with that record. Any malformed input,
//! illegal move, contradicting board or early end of input ends the program with one line
//! on stderr and a non-zero status; the end of input after a finished game exits 0.
//!
//! The search and its settings are the library's, given by the caller (the program reads
//! them from the environment: `GRAVITY4_MOVE_MS`, default 2000, `GRAVITY4_PROFILE`, ...).

use crate::game::{Ending, Game, MoveError, Player};
use crate::input::{Input, Line, Next, Wait};
use gravity4::position::PositionError;
use gravity4::request::Request;
use gravity4::session;
use gravity4::settings::Settings;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// How long a bare move waits for `top` and the board before the program decides this
/// platform sends moves only. Only the first message waits: the form is then known. A
/// platform writes a whole message at once, so lines of one message arrive microseconds
/// apart; 200 ms is far beyond that and still leaves the first move (start-up included)
/// well inside 3 s with the default 2 s budget, since the budget counts from the move's
/// arrival and this wait is part of it.
const FIRST_MESSAGE_GRACE: Duration = Duration::from_millis(200);

/// Why the program stopped before a normal end.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Words that are not the protocol's.
    #[error("malformed input: {0}")]
    Malformed(String),
    /// A first line that is no board.
    #[error("bad first line: {0}")]
    Setup(#[from] PositionError),
    /// The opponent's move is not a legal one.
    #[error("illegal opponent move ({row}, {col}): {error}")]
    Illegal {
        /// Row sent.
        row: i64,
        /// Column sent.
        col: i64,
        /// Why it is illegal.
        error: MoveError,
    },
    /// The platform's `top` or board is not the game of the moves.
    #[error("the board contradicts the moves so far: {0}")]
    Contradiction(String),
    /// The input ended inside a game or a message.
    #[error("end of input before the game ended ({0})")]
    Eof(String),
    /// The input could not be read.
    #[error("{0}")]
    Read(String),
    /// The reply could not be written.
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

/// The program: its settings and the game it keeps.
pub struct Program {
    /// The search's settings for every move.
    settings: Settings,
    /// Send the framed `ok` first.
    hello: bool,
    /// The game, once the first line made one: kept after the end, good or bad.
    game: Option<Game>,
}

impl Program {
    /// A program that searches with `settings` and sends the framed `ok` first if `hello`.
    pub fn new(settings: Settings, hello: bool) -> Program {
        Program {
            settings,
            hello,
            game: None,
        }
    }

    /// The game as the program recorded it, once the first line made one.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Plays one game on `input`/`output` until the input ends after the game is over.
    pub fn play(&mut self, mut input: Input, output: &mut impl Write) -> Result<Ending, Failure> {
        if self.hello {
            send(output, "ok")?;
        }
        let game = self.game.insert(read_header(&mut input)?);
        let mut form = Form::Unknown;
        // The record as of our last request, for a view that arrives after we answered.
        let mut asked: Option<Game> = None;
        loop {
            let line = match input.next(Wait::Forever) {
                Next::Line(line) => line,
                Next::Eof => return game_over_at_eof(game),
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
                let view = complete_view(&mut input, before, numbers)?
                    .ok_or_else(|| Failure::Eof("the board never came".into()))?;
                if let Some(why) = before.contradiction(&view.top, &view.board) {
                    return Err(Failure::Contradiction(why));
                }
                form = Form::WithBoard;
                continue;
            }
            let last_move = play_opponent_move(game, &line, &numbers)?;
            let view = read_view(&mut input, game, &numbers, &mut form)?;
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
            let col = choose(game, last_move, line.at, &self.settings);
            let row = game
                .landing_row(col)
                .expect("choose returns an open column");
            send(output, &format!("{row} {col}"))?;
            game.play(Player::Us, row as i64, col as i64)
                .expect("the landing cell of an open column is legal");
        }
    }
}

/// Reads the first line, `M N noX noY`, into a new game.
fn read_header(input: &mut Input) -> Result<Game, Failure> {
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
    Ok(Game::new(rows, cols, blocked_row, blocked_col)?)
}

/// The end of the input: the game's result if it is over, else the failure to say so.
fn game_over_at_eof(game: &Game) -> Result<Ending, Failure> {
    match game.ending() {
        Some(ending) => Ok(ending),
        None => Err(Failure::Eof(format!(
            "{} moves played, no result",
            game.moves()
        ))),
    }
}

/// Plays the opponent's move that `line` (read as `numbers`) starts with, or takes `-1 -1`
/// as "we move first"; returns the move, `None` for `-1 -1`.
fn play_opponent_move(
    game: &mut Game,
    line: &Line,
    numbers: &[i64],
) -> Result<Option<(usize, usize)>, Failure> {
    if let Some(ending) = game.ending() {
        return Err(Failure::Malformed(format!(
            "more input after the game ended ({ending}): {:?}",
            line.text
        )));
    }
    if numbers.len() < 2 {
        return Err(unexpected_line(line, game));
    }
    let (row, col) = (numbers[0], numbers[1]);
    if (row, col) == (-1, -1) {
        if game.moves() > 0 {
            return Err(Failure::Malformed(format!(
                "`-1 -1` (we move first) after {} moves",
                game.moves()
            )));
        }
        return Ok(None);
    }
    game.play(Player::Opponent, row, col)
        .map_err(|error| Failure::Illegal { row, col, error })?;
    Ok(Some((row as usize, col as usize)))
}

/// The view (`top` and the board) that follows a move, on the same line (`numbers` past the
/// move) or the next ones, as far as `form` says the platform sends one; learns `form` from
/// the first message.
fn read_view(
    input: &mut Input,
    game: &Game,
    numbers: &[i64],
    form: &mut Form,
) -> Result<Option<View>, Failure> {
    if numbers.len() > 2 {
        *form = Form::WithBoard;
        return complete_view(input, game, numbers[2..].to_vec());
    }
    let wait = match *form {
        Form::Unknown => Wait::For(FIRST_MESSAGE_GRACE),
        Form::WithBoard => Wait::Forever,
        // The platform waits for our reply before its next message, so a line that is
        // already here belongs to this one; looking costs nothing.
        Form::MovesOnly => Wait::For(Duration::ZERO),
    };
    let view = match input.next(wait) {
        Next::Line(next) => complete_view(input, game, integers(&next)?)?,
        Next::TimedOut => None,
        // A message cut short is an error, unless the move ended the game and the platform
        // simply stopped, or no view was due.
        Next::Eof if game.ending().is_some() || !matches!(wait, Wait::Forever) => None,
        Next::Eof => return Err(Failure::Eof("`top` never came".into())),
        Next::Failed(why) => return Err(Failure::Read(why)),
    };
    *form = match (*form, view.is_some()) {
        (_, true) => Form::WithBoard,
        (Form::Unknown, false) => Form::MovesOnly,
        (form, false) => form,
    };
    Ok(view)
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

/// How many numbers the view (`top` and the board) that `numbers` begin has: `N + M*N`, or
/// `N + M*N + 2` when each block is preceded by its count (`N top... MN board...`, what the
/// platform's template reads). Counted iff the first number is `N` and the one after
/// `N + 1` numbers is `M*N`: without counts that one is the board's second value, 0 to 2,
/// never `M*N` (16 or more). With fewer than `N + 2` numbers in, `N + M*N`: both forms have
/// at least that many, so the form is settled before the view can be complete.
fn view_size(numbers: &[i64], game: &Game) -> usize {
    let (cols, cells) = (game.cols(), game.rows() * game.cols());
    let counted =
        numbers.len() >= cols + 2 && numbers[0] == cols as i64 && numbers[cols + 1] == cells as i64;
    if counted {
        cols + cells + 2
    } else {
        cols + cells
    }
}

/// The view `numbers` hold exactly, else the error of a message with more numbers than its
/// view has (one with fewer is still being read).
fn split_view(numbers: &[i64], game: &Game) -> Result<View, Failure> {
    let (cols, cells) = (game.cols(), game.rows() * game.cols());
    let size = view_size(numbers, game);
    if numbers.len() != size {
        return Err(Failure::Malformed(format!(
            "after the move, expected {cols} top and {cells} board values (each block \
             optionally preceded by its count), got {} values",
            numbers.len()
        )));
    }
    let counts = usize::from(size > cols + cells);
    Ok(View {
        top: numbers[counts..counts + cols].to_vec(),
        board: numbers[size - cells..].to_vec(),
    })
}

/// The view that `numbers` (from the move's line, or the line after it) begin, completed
/// from as many further lines as it takes, whatever their layout. `None` if the input ends
/// inside it after the game ended (the platform may simply stop then).
fn complete_view(
    input: &mut Input,
    game: &Game,
    mut numbers: Vec<i64>,
) -> Result<Option<View>, Failure> {
    while numbers.len() < view_size(&numbers, game) {
        match input.next(Wait::Forever) {
            Next::Line(line) => numbers.extend(integers(&line)?),
            Next::Eof if game.ending().is_some() => return Ok(None),
            Next::Eof => {
                return Err(Failure::Eof(format!(
                    "the message's `top` and board stopped after {} values",
                    numbers.len()
                )));
            }
            Next::Failed(why) => return Err(Failure::Read(why)),
            Next::TimedOut => unreachable!("no deadline"),
        }
    }
    split_view(&numbers, game).map(Some)
}

/// Our column: the library's search on our record of the game, budgeted from `entry` (the
/// message's arrival). A failure inside the search still yields a legal move.
fn choose(
    game: &Game,
    last_move: Option<(usize, usize)>,
    entry: Instant,
    settings: &Settings,
) -> usize {
    let fallback = || {
        let centre2 = game.cols() as i64 - 1;
        (0..game.cols())
            .filter(|&c| game.landing_row(c).is_some())
            .min_by_key(|&c| (2 * c as i64 - centre2).abs())
            .expect("a game still going has an open column")
    };
    let position = match game.for_search() {
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
    match panic::catch_unwind(AssertUnwindSafe(|| session::choose(&request, settings))) {
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
    fn tells_counted_views_from_uncounted_ones_by_their_numbers() {
        let game = Game::new(4, 4, 0, 0).unwrap();
        let mut plain: Vec<i64> = vec![4; 4];
        plain.extend([0; 16]);
        let mut counted = vec![4];
        counted.extend([4; 4]);
        counted.push(16);
        counted.extend([0; 16]);
        // Too few numbers to tell: both forms have at least N + M*N.
        for cut in 0..6 {
            assert_eq!(view_size(&counted[..cut], &game), 20);
        }
        assert_eq!(view_size(&counted[..6], &game), 22);
        assert_eq!(view_size(&plain, &game), 20);
        let view = split_view(&plain, &game).unwrap();
        assert_eq!((view.top, view.board), (vec![4; 4], vec![0; 16]));
        let view = split_view(&counted, &game).unwrap();
        assert_eq!((view.top, view.board), (vec![4; 4], vec![0; 16]));
        // top[0] may equal N in a view without counts: the board's second value decides.
        let mut top_is_n = plain.clone();
        top_is_n[5] = 1;
        assert_eq!(view_size(&top_is_n, &game), 20);
        // More numbers than the view has.
        let mut long = plain.clone();
        long.push(0);
        assert!(split_view(&long, &game).is_err());
        counted.push(0);
        let error = split_view(&counted, &game).err().unwrap().to_string();
        assert!(
            error.contains("expected 4 top and 16 board values"),
            "{error}"
        );
        assert!(error.contains("got 23 values"), "{error}");
    }
}
