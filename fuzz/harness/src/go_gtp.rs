//! The Go engine's GTP session (go/src/gtp), on whatever a controller sends.
//!
//! Input: the session's standard input, at most [`MAX_LINES`] lines (each command may
//! search or score, so longer inputs would only be slower), without `loadsgf` lines (a
//! file name would read the machine's files; the SGF reader has its own target,
//! [`go_sgf`](crate::go_sgf)). The engine plays [`PLAYOUTS`](crate::go_engine::PLAYOUTS)
//! playouts a move with a fixed seed. The promise: one well-formed answer per command
//! (`=` or `?`, the command's id when it has a valid one, no empty line inside, ended by an
//! empty line), none for blank lines and comments, nothing after a successful `quit`; no
//! panic, not even one the session catches; the game the session keeps replays legally
//! from its setup.

use go_engine::gtp::session::Session;
use gtp_wire::{GtpError, MAX_LINE, parse_command, preprocess};

pub use crate::go_engine::PLAYOUTS;
use crate::go_engine::{assert_replays, settings};
use crate::panics;

/// The most input lines given to the session.
pub const MAX_LINES: usize = 32;

/// A line as the session is expected to see it: a command (its id if valid, its name), or
/// nothing to answer. The session reads lines with the shared reader (gtp-wire); a line
/// it cannot read is answered with the id it starts with.
fn command(line: &[u8]) -> Option<(Option<u32>, Vec<u8>)> {
    if line.len() > MAX_LINE {
        return Some((leading_id(line), Vec::new()));
    }
    leading(line)
}

/// The id and name of a line as [`parse_command`] reads it; `None` for a blank line.
fn leading(line: &[u8]) -> Option<(Option<u32>, Vec<u8>)> {
    match parse_command(line) {
        Ok(command) => Some((command.id, command.name.into_bytes())),
        Err(GtpError::Blank) => None,
        Err(e) => Some((e.id(), Vec::new())),
    }
}

/// The id a too-long line is answered with: its first [`MAX_LINE`] bytes' (what the reader
/// keeps of it).
fn leading_id(line: &[u8]) -> Option<u32> {
    leading(&line[..MAX_LINE]).and_then(|(id, _)| id)
}

/// The target.
pub fn run(data: &[u8]) {
    let lines: Vec<&[u8]> = data
        .split(|&b| b == b'\n')
        .take(MAX_LINES)
        .filter(|l| !preprocess(l).windows(7).any(|w| w == b"loadsgf"))
        .collect();
    let input = lines.join(&b'\n');
    let mut session = Session::new(&settings());
    let mut out = Vec::new();
    let (result, panicked) = panics::watch(|| session.run(&input[..], &mut out));
    assert!(!panicked, "a panic, caught or not (above)");
    result.expect("reading memory and writing to it cannot fail");

    let text = String::from_utf8(out).expect("answers are UTF-8");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "an answer not ended by an empty line: {text:?}"
    );
    let mut answers = text.split_terminator("\n\n");
    // The session's lines: the input's, the last one counted only if it has bytes.
    let count = if input.last() == Some(&b'\n') || input.is_empty() {
        input.split(|&b| b == b'\n').count() - 1
    } else {
        input.split(|&b| b == b'\n').count()
    };
    for line in input.split(|&b| b == b'\n').take(count) {
        let Some((id, name)) = command(line) else {
            continue;
        };
        let answer = answers
            .next()
            .unwrap_or_else(|| panic!("no answer to {:?}", String::from_utf8_lossy(line)));
        let head = answer.split([' ', '\n']).next().unwrap_or_default();
        let status = head.chars().next();
        assert!(
            matches!(status, Some('=' | '?')),
            "{answer:?} is not an answer"
        );
        match id {
            Some(id) => assert_eq!(&head[1..], id.to_string(), "the id of {answer:?}"),
            None => assert_eq!(head.len(), 1, "an id in {answer:?} for a line without one"),
        }
        assert!(
            !answer.starts_with(['\n', ' ']) && answer.lines().all(|l| !l.trim().is_empty()),
            "{answer:?} has an empty line"
        );
        if name == b"quit" && status == Some('=') {
            break;
        }
    }
    assert_eq!(
        answers.next(),
        None,
        "an answer to no command (or after quit)"
    );
    assert_replays(session.player().engine().game());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_keep_the_promise() {
        run(
            b"1 boardsize 7\n\n# comment\nclear_board\n2 genmove b\nplay w d4\n\
              3 genmove w\nundo\nfinal_score\n99999999999 name\n7\nquit\nname\n",
        );
        run(b"boardsize 9\nfixed_handicap 2\ngenmove w\ngenmove b\nloadsgf /dev/zero\nlist_commands");
    }
}
