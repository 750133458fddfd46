//! The Saiblo program's reader (saiblo/src/program.rs), the whole program but its process.
//!
//! Input: what the platform writes to the program's stdin, all of it there at once, a
//! blank line standing for the platform's pause while it waits for the answer
//! ([`Input::read_all`], so that no wait depends on timing): every message form it accepts
//! (a bare move, `top` and the board with or without counts, in any layout). The program
//! searches a fixed number of iterations with a fixed seed from a fresh session, without
//! the framed `ok`. The promise: it reads the game to its end or stops with an error that
//! says why, never a panic (not even one it catches); what it writes is frames of `x y`,
//! one per move asked; the game it recorded, replayed on the judge's referee from the
//! first line's board, is legal move after move, its own moves are exactly its answers in
//! order, the opponent's are lines of the input in order (`row col` leading them), and it
//! ended where the referee says it ended.

use std::io::Cursor;

use gravity4::session;
use gravity4::settings::Settings;
use gravity4_judge::games::Game as _;
use gravity4_judge::games::connect4::{BoardSpec, Connect4, Point, Position};
use gravity4_saiblo::game::{Ending, Game, Player};
use gravity4_saiblo::input::Input;
use gravity4_saiblo::program::Program;

use crate::panics;

/// Search iterations per move.
pub const ITERATIONS: u64 = 48;
/// The search's seed.
const SEED: u64 = 38;
/// Tree memory per move.
const TREE_BYTES: usize = 1 << 20;

/// The settings the program searches with here.
pub fn settings() -> Settings {
    Settings {
        iterations: Some(ITERATIONS),
        seed: Some(SEED),
        tree_bytes: TREE_BYTES,
        ..Settings::default()
    }
}

/// The frames of `out`, as `(row, col)`; panics on anything else.
pub fn replies(mut out: &[u8]) -> Vec<(i64, i64)> {
    let mut replies = Vec::new();
    while !out.is_empty() {
        let (length, rest) = out.split_first_chunk::<4>().expect("a whole length");
        let length = u32::from_be_bytes(*length) as usize;
        assert!(rest.len() >= length, "a frame cut short: {out:?}");
        let text = std::str::from_utf8(&rest[..length]).expect("a frame of text");
        let words: Vec<i64> = text.split(' ').map(|w| w.parse().expect("`x y`")).collect();
        let [row, col] = words[..] else {
            panic!("frame {text:?} is not `x y`");
        };
        replies.push((row, col));
        out = &rest[length..];
    }
    replies
}

/// The first two words of `line`, if both are integers.
fn leading_move(line: &str) -> Option<(i64, i64)> {
    let mut words = line.split_whitespace().map(|w| w.parse::<i64>().ok());
    Some((words.next()??, words.next()??))
}

/// The target.
pub fn run(data: &[u8]) {
    session::reset();
    let mut program = Program::new(settings(), false);
    let mut out = Vec::new();
    let input = Input::read_all(Cursor::new(data));
    let (result, panicked) = panics::watch(|| program.play(input, &mut out));
    assert!(
        !panicked,
        "a panic, caught or not (above); the end: {result:?}"
    );
    if let Err(failure) = &result {
        assert!(
            !failure.to_string().trim().is_empty(),
            "an error saying nothing"
        );
    }
    let replies = replies(&out);
    let Some(game) = program.game() else {
        assert!(
            result.is_err() && replies.is_empty(),
            "{result:?} without a game"
        );
        return;
    };
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n').filter(|l| !l.trim().is_empty());
    let spec = first_line_board(&mut lines, game);
    let position = replay_record(&spec, game, &replies, &mut lines);
    check_ending(game, &position);
    if result.is_ok() {
        assert!(game.ending().is_some(), "a good end before the game's end");
    }
}

/// The board of the game, checked against the first of `lines`, read independently (the
/// line is taken).
fn first_line_board<'a>(lines: &mut impl Iterator<Item = &'a str>, game: &Game) -> BoardSpec {
    let first: Vec<i64> = lines
        .next()
        .expect("a game from no line")
        .split_whitespace()
        .map(|w| w.parse().expect("a first line of integers"))
        .collect();
    let (blocked_row, blocked_col) = game.blocked();
    assert_eq!(
        first,
        [
            game.rows() as i64,
            game.cols() as i64,
            blocked_row as i64,
            blocked_col as i64
        ],
        "the board is not the first line's"
    );
    BoardSpec {
        m: game.rows() as i32,
        n: game.cols() as i32,
        no_x: blocked_row as i32,
        no_y: blocked_col as i32,
    }
}

/// The game's record replayed move by move on the referee: each move legal, ours exactly
/// the `replies` in order, the opponent's found in order among the rest of `lines`; the
/// position it ends in.
fn replay_record<'a>(
    spec: &BoardSpec,
    game: &Game,
    replies: &[(i64, i64)],
    lines: &mut impl Iterator<Item = &'a str>,
) -> Position {
    let rules = Connect4;
    let mut position = rules.start(spec);
    let mut answers = replies.iter();
    for (i, &(player, row, col)) in game.history().iter().enumerate() {
        let mv = Point {
            x: row as i32,
            y: col as i32,
        };
        assert!(
            rules.end(&position).is_none() && rules.is_legal(&position, mv),
            "move {i} ({row}, {col}) of {player:?} is illegal: {:?}",
            game.history()
        );
        rules.play(&mut position, mv);
        let at = (row as i64, col as i64);
        match player {
            Player::Us => assert_eq!(answers.next(), Some(&at), "answer {i}"),
            Player::Opponent => assert!(
                lines.any(|l| leading_move(l) == Some(at)),
                "the opponent's move {at:?} is no line of the input (in order)"
            ),
        }
    }
    assert_eq!(answers.next(), None, "an answer the record does not have");
    position
}

/// The program's ending of the game against the referee's at `position`.
fn check_ending(game: &Game, position: &Position) {
    let end = Connect4.end(position);
    match game.ending() {
        None => assert!(end.is_none(), "the referee ended the game: {end:?}"),
        Some(Ending::Tie) => assert_eq!(end.map(|e| e.winner), Some(None), "a tie"),
        Some(Ending::Won(player)) => {
            let last = game.history().last().expect("a win without a move");
            assert_eq!(last.0, player, "won by the one who did not move last");
            assert!(
                end.is_some_and(|e| e.winner.is_some()),
                "{player:?} won, says the program; the referee: {end:?}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_and_garbage_is_not() {
        assert_eq!(replies(b"\0\0\0\x033 4\0\0\0\x0411 0"), [(3, 4), (11, 0)]);
        let cut = std::panic::catch_unwind(|| replies(b"\0\0\0\x053 4"));
        assert!(cut.is_err());
    }

    #[test]
    fn games_in_every_form_and_errors_keep_the_promise() {
        // Moves only; moving first; a counted view; an illegal move; a contradiction.
        run(b"4 4 0 0\n3 1\n");
        run(b"6 7 0 6\n-1 -1\n");
        run(b"4 4 3 3\n-1 -1 4 4 4 4 3 16 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        run(b"4 4 0 0\n2 1\n");
        run(b"4 4 0 0\n3 1 4 4 4 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        run(b"5 5 2 2\nx y\n");
        run(b"13 4 0 0\n");
    }
}
