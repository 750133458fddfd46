//! The judge's reader of a GTP engine's answers (judge/src/players/gtp.rs).
//!
//! Input: what an engine writes to its stdout. It is cut into lines as the judge's pipes
//! cut it (at `\n`, one `\r` before it dropped, invalid UTF-8 replaced; a last line
//! without `\n` is the end of output) and read answer after answer with
//! [`read_reply`] until the output ends. The promise: every answer is read, or the first
//! line that is not one is refused with a message; an answer's text has no empty line, and
//! no blanks around its first line or after any other; a `genmove` text that [`parse_genmove`] takes is a pass or
//! a square of the board written back the same way, and the referee judges it (a legal
//! move is played on the game from an opening, an illegal one described). Never a panic.

use gravity4_judge::games::Game;
use gravity4_judge::games::reversi::{Move, Reversi};
use gravity4_judge::players::gtp::{parse_genmove, read_reply};

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

/// The target.
pub fn run(data: &[u8]) {
    let game = Reversi::default();
    let mut position = game.start(&game.setup(u64::from(data.len() as u32)));
    let mut next_line = pipe_lines(data);
    while let Ok(answer) = read_reply(&mut next_line) {
        let reply = match answer {
            Ok(reply) => reply,
            Err(text) => {
                assert!(text.contains("is not a GTP answer"), "{text:?}");
                // The judge stops reading here (the engine loses by garbage); read on to
                // reach more answers.
                continue;
            }
        };
        let mut lines = reply.text.split('\n');
        let head = lines.next().unwrap_or("");
        assert_eq!(
            head,
            head.trim(),
            "blanks around the first line of {reply:?}"
        );
        for line in lines {
            assert!(
                !line.trim().is_empty() && line == line.trim_end(),
                "an empty line or trailing blanks inside {reply:?}"
            );
        }
        let Some(mv) = parse_genmove(&reply.text) else {
            continue;
        };
        if let Move::Square { row, col } = mv {
            assert!(
                (0..8).contains(&row) && (0..8).contains(&col),
                "{:?} read as {mv:?}",
                reply.text
            );
        }
        assert_eq!(
            parse_genmove(&mv.to_string()),
            Some(mv),
            "{mv} does not read back"
        );
        referee::judge(&game, &mut position, mv);
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
    }
}
