//! The judge's reader of a Go engine's GTP answers (judge/src/players/gtp_go.rs): the wire
//! is [`judge_gtp`](crate::judge_gtp)'s ([`read_reply`]), the moves are Go's
//! ([`parse_genmove`]: a vertex in any case, `pass`, `resign`).
//!
//! Input: what an engine writes to its stdout, cut into lines as the judge's pipes cut it
//! and read answer after answer. The promise: every answer read, or its first line refused
//! with a message; a `genmove` text taken is a pass, a resignation or a vertex of the
//! largest board (`A1`..`Z25`, no `I`) that writes back to text reading back equal, and the
//! referee judges it on a game of the default rules from an opening. Never a panic.

use gravity4_judge::games::Game;
use gravity4_judge::games::go::{Go, Move};
use gravity4_judge::players::gtp::read_reply;
use gravity4_judge::players::gtp_go::parse_genmove;

use crate::judge_gtp::pipe_lines;
use crate::referee;

/// The target.
pub fn run(data: &[u8]) {
    let game = Go::default();
    let mut position = game.start(&game.setup(u64::from(data.len() as u32)));
    let mut next_line = pipe_lines(data);
    while let Ok(answer) = read_reply(&mut next_line) {
        let reply = match answer {
            Ok(reply) => reply,
            Err(text) => {
                assert!(text.contains("is not a GTP answer"), "{text:?}");
                continue;
            }
        };
        let Some(mv) = parse_genmove(&reply.text) else {
            continue;
        };
        if let Move::Play { col, row } = mv {
            assert!(
                (0..25).contains(&col) && (0..25).contains(&row),
                "{:?} read as {mv:?}",
                reply.text
            );
        }
        assert_eq!(
            parse_genmove(&mv.to_string()),
            Some(mv),
            "{mv} does not read back"
        );
        if game.end(&position).is_none() {
            referee::judge(&game, &mut position, mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_output_keeps_the_promise() {
        run(b"= D4\n\n=1 q16\n\n? illegal move\n\nj9\n= pass\n\n= I5\n\n= Z25\n\n= resign\n\n= A1\n\n");
    }
}
