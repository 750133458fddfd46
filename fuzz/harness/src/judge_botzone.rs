//! The judge's reader of a Botzone bot's answers (judge/src/players/botzone.rs).
//!
//! Input: what a bot writes to its stdout, cut into lines as the judge's pipes cut it;
//! each line is read as a turn's answer with [`parse_output`], as the judge reads the
//! first line of every turn. The promise: an answer is taken or refused with a message,
//! never a panic; a taken answer's move is the `response` it holds (`-1 -1` a pass), which
//! the referee then judges on the game from an opening.

use gravity4_judge::games::Game;
use gravity4_judge::games::reversi::{Move, Reversi};
use gravity4_judge::players::botzone::parse_output;
use serde_json::Value;

use crate::judge_gtp::pipe_lines;
use crate::referee;

/// The target.
pub fn run(data: &[u8]) {
    let game = Reversi::default();
    let mut position = game.start(&game.setup(u64::from(data.len() as u32)));
    let mut next_line = pipe_lines(data);
    while let Ok(line) = next_line() {
        let output = match parse_output(&line) {
            Ok(output) => output,
            Err(text) => {
                assert!(!text.is_empty(), "refused without a reason: {line:?}");
                continue;
            }
        };
        // What the line says, read independently.
        let value: Value = serde_json::from_str(line.trim()).expect("an answer is JSON");
        let xy = |k: &str| value["response"][k].as_i64();
        let expected = match (xy("x"), xy("y")) {
            (Some(-1), Some(-1)) => Move::Pass,
            (Some(x), Some(y)) => Move::Square {
                row: y as i32,
                col: x as i32,
            },
            _ => panic!("{line:?} was taken without a response"),
        };
        assert_eq!(output.mv, expected, "{line:?}");
        assert_eq!(output.data.as_ref(), value.get("data"), "{line:?}");
        referee::judge(&game, &mut position, output.mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_output_keeps_the_promise() {
        run(concat!(
            "{\"response\":{\"x\":3,\"y\":2},\"data\":[1]}\n",
            "{\"response\":{\"x\":-1,\"y\":-1}}\n",
            "{\"response\":{\"x\":2147483647,\"y\":-2147483648}}\n",
            "garbage\n",
            "{\"response\":{\"x\":1e3,\"y\":2}}\n",
        )
        .as_bytes());
    }
}
