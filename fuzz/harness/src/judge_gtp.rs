//! The judge's reader of a GTP engine's answers (judge/src/players/gtp/, one player for
//! Reversi and Go): the wire is the shared reader's ([`read_reply`], gtp-wire), the moves
//! each game's ([`reversi::parse_genmove`]: a square in any case or `pass`;
//! [`go::parse_genmove`]: a vertex in any case, `pass`, `resign`).
//!
//! Input: what an engine writes to its stdout. It is cut into lines as the judge's pipes
//! cut it (at `\n`, one `\r` before it dropped, invalid UTF-8 replaced; a last line
//! without `\n` is the end of output) and read answer after answer until the output ends.
//! The promise: every answer is read, or the first line that is not one is refused; an
//! answer's text has no empty line, and no blanks around its first line or after any
//! other; a `genmove` text that a game takes is a move of its board (a Reversi square, a
//! Go vertex of the largest board, `A1`..`Z25` without `I`) that writes back to text
//! reading back equal, and that game's referee judges it (a legal move is played on the
//! game from an opening, an illegal one described). Never a panic.

use gravity4_judge::games::Game;
use gravity4_judge::games::go::{self as go_game, Go};
use gravity4_judge::games::reversi::{self as reversi_game, Reversi};
use gravity4_judge::players::gtp::{go, reversi};
use gtp_wire::read_reply;

use crate::referee;

/// The lines of `data` as the judge's pipes deliver them: `Err` once a line has no `\n`.
pub fn pipe_lines(data: &[u8]) -> impl FnMut() -> Result<String, ()> + '_ {
    let mut rest = data;
    move || {
        let end = rest.iter().position(|&b| b == b'\n').ok_or(())?;
        let mut line = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(stripped) = line.strip_suffix(b"\r") {
            line = stripped;
        }
        Ok(String::from_utf8_lossy(line).into_owned())
    }
}

/// The text of an answer keeps the shape the reader promises.
fn assert_well_formed(text: &str) {
    let mut lines = text.split('\n');
    let head = lines.next().unwrap_or("");
    assert_eq!(
        head,
        head.trim(),
        "blanks around the first line of {text:?}"
    );
    for line in lines {
        assert!(
            !line.trim().is_empty() && line == line.trim_end(),
            "an empty line or trailing blanks inside {text:?}"
        );
    }
}

/// Reversi's reading of a `genmove` text: a square of the board, read back equal, judged.
fn reversi_move(game: &Reversi, position: &mut <Reversi as Game>::Position, text: &str) {
    let Some(mv) = reversi::parse_genmove(text) else {
        return;
    };
    if let reversi_game::Move::Square { row, col } = mv {
        assert!(
            (0..8).contains(&row) && (0..8).contains(&col),
            "{text:?} read as {mv:?}"
        );
    }
    let again = reversi::parse_genmove(&mv.to_string());
    assert_eq!(again, Some(mv), "{mv} does not read back");
    referee::judge(game, position, mv);
}

/// Go's reading of a `genmove` text: a vertex of the largest board, read back equal, judged.
fn go_move(game: &Go, position: &mut <Go as Game>::Position, text: &str) {
    let Some(mv) = go::parse_genmove(text) else {
        return;
    };
    if let go_game::Move::Play { col, row } = mv {
        assert!(
            (0..25).contains(&col) && (0..25).contains(&row),
            "{text:?} read as {mv:?}"
        );
    }
    assert_eq!(
        go::parse_genmove(&mv.to_string()),
        Some(mv),
        "{mv} does not read back"
    );
    if game.end(position).is_none() {
        referee::judge(game, position, mv);
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let seed = u64::from(data.len() as u32);
    let (othello, go) = (Reversi::default(), Go::default());
    let mut reversi_position = othello.start(&othello.setup(seed));
    let mut go_position = go.start(&go.setup(seed));
    let mut next_line = pipe_lines(data);
    while let Ok(answer) = read_reply(&mut next_line) {
        // A line that is no answer: the judge stops reading there (the engine loses by
        // garbage); read on to reach more answers.
        let Ok(reply) = answer else {
            continue;
        };
        assert_well_formed(&reply.text);
        reversi_move(&othello, &mut reversi_position, &reply.text);
        go_move(&go, &mut go_position, &reply.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_as_pipes_cut_them() {
        let mut next = pipe_lines(b"= d3\r\n\n\xffx\nno end");
        assert_eq!(next(), Ok("= d3".to_string()));
        assert_eq!(next(), Ok(String::new()));
        assert_eq!(next(), Ok("\u{fffd}x".to_string()));
        assert_eq!(next(), Err(()));
    }

    #[test]
    fn engine_output_keeps_the_promise() {
        run(b"= \n\n=1 D3\n\n? syntax error\n\nd3\n= pass\n\n=2 c4\nmore text\n\n= a9\n\n");
        run(b"= D4\n\n=1 q16\n\n? illegal move\n\nj9\n= pass\n\n= I5\n\n= Z25\n\n= resign\n\n= A1\n\n");
    }
}
