//! The Reversi engine's Botzone reader (`reversi botzone`, reversi/src/protocol/botzone.rs).
//!
//! Input: one byte of settings (bit 0: keep running; bit 1: the no-adjacent rule; bits
//! 2-3: the engine), then what the platform writes to the bot's stdin. The promise: the
//! bot either answers or stops with an error, never a panic; every line it writes is an
//! answer in the form of the first input (`{"response":{"x":X,"y":Y}}` or `X Y`, a square
//! of the board or `-1 -1` for a pass) or, in keep-running mode, the keep-running line
//! after each answer; one answer in one-turn mode, at least one when it ends without an
//! error. When the whole input is one JSON object, the bot answers exactly when the object
//! describes a game (`parse_input` agrees) and its answer is legal there (a pass exactly
//! when it must pass or the game is over).

use reversi::Rule;
use reversi::bitboard::Square;
use reversi::protocol::botzone::{self, Cell, KEEP_RUNNING};
use serde_json::Value;

use crate::engine;

/// The cell an answer line names, in the JSON form or the simplified one.
fn answer_cell(line: &str, json: bool) -> Option<Cell> {
    if json {
        let value: Value = serde_json::from_str(line).ok()?;
        let object = value.as_object()?;
        let response = object.get("response")?.as_object()?;
        if object.len() != 1 || response.len() != 2 {
            return None;
        }
        Some(Cell {
            x: response.get("x")?.as_i64()?,
            y: response.get("y")?.as_i64()?,
        })
    } else {
        match line.split(' ').collect::<Vec<_>>()[..] {
            [x, y] => Some(Cell {
                x: x.parse().ok()?,
                y: y.parse().ok()?,
            }),
            _ => None,
        }
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let Some((&flags, input)) = data.split_first() else {
        return;
    };
    let keep_running = flags & 1 == 1;
    let rule = if flags & 2 == 2 {
        Rule::NoAdjacent
    } else {
        Rule::Standard
    };
    let mut player = engine::player(flags >> 2);
    let mut out = Vec::new();
    let result = botzone::run(input, &mut out, &mut player, rule, keep_running);
    let out = String::from_utf8(out).expect("the bot writes UTF-8");
    let json = String::from_utf8_lossy(input).trim_start().starts_with('{');
    let cells = answers(&out, json, keep_running);
    if result.is_ok() {
        assert!(
            !cells.is_empty(),
            "ended without an error and without an answer"
        );
    }
    check_answer_in_one_object(input, rule, &cells, &out);
}

/// The cells the bot's output `out` answers, each a square or a pass, checked line by
/// line: in keep-running mode every other line the keep-running line and none missing,
/// else at most one answer.
fn answers(out: &str, json: bool, keep_running: bool) -> Vec<Cell> {
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        out.is_empty() || out.ends_with('\n'),
        "the last answer has no line break: {out:?}"
    );
    let mut cells = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if keep_running && k % 2 == 1 {
            assert_eq!(*line, KEEP_RUNNING, "line {k} of {out:?}");
            continue;
        }
        let cell = answer_cell(line, json)
            .unwrap_or_else(|| panic!("line {k}, {line:?}, is not an answer (output {out:?})"));
        let on_board = u8::try_from(cell.y)
            .ok()
            .zip(u8::try_from(cell.x).ok())
            .and_then(|(row, col)| Square::from_row_col(row, col))
            .is_some();
        assert!(
            on_board || (cell.x, cell.y) == (-1, -1),
            "{line:?} names no square"
        );
        cells.push(cell);
    }
    if keep_running {
        assert!(
            lines.len().is_multiple_of(2),
            "an answer without the keep-running line: {out:?}"
        );
    } else {
        assert!(
            cells.len() <= 1,
            "more than one answer in one turn: {out:?}"
        );
    }
    cells
}

/// When the whole `input` is one JSON object: the bot answered exactly when the object
/// describes a game, and its answer is legal there.
fn check_answer_in_one_object(input: &[u8], rule: Rule, cells: &[Cell], out: &str) {
    let one_object = std::str::from_utf8(input)
        .ok()
        .filter(|t| serde_json::from_str::<Value>(t).is_ok_and(|v| v.is_object()));
    let Some(text) = one_object else {
        return;
    };
    let game = botzone::parse_input(text, rule);
    assert_eq!(
        game.is_ok(),
        !cells.is_empty(),
        "parse_input says {game:?}, the bot answered {out:?}"
    );
    if let (Ok(game), Some(cell)) = (game, cells.first()) {
        let mv = cell.to_move().expect("checked on the board");
        let pass_due = game.pos.is_game_over() || game.pos.must_pass();
        let legal = if pass_due {
            mv == reversi::Move::Pass
        } else {
            game.pos.is_legal(mv)
        };
        assert!(legal, "answered {mv} in\n{}", game.pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_in_both_forms() {
        let c = |x, y| Some(Cell { x, y });
        assert_eq!(answer_cell(r#"{"response":{"x":3,"y":2}}"#, true), c(3, 2));
        assert_eq!(answer_cell(r#"{"response":{"x":3}}"#, true), None);
        assert_eq!(answer_cell("-1 -1", false), c(-1, -1));
        assert_eq!(answer_cell("3  2", false), None);
    }

    #[test]
    fn turns_in_both_forms_keep_the_promise() {
        run(b"\x00{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n");
        run(b"\x01{\"requests\":[{\"x\":2,\"y\":3}],\"responses\":[]}\n{\"x\":-1,\"y\":-1}\n");
        run(b"\x02\n1\n-1 -1\n");
        run(b"\x03\n2\n-1 -1\n3 2\n2 2\n\n\n4 2\n");
        run(b"\x00{\"requests\":[{\"x\":9,\"y\":3}]}");
        run(b"\x00not json");
    }
}
