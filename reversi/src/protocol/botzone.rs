//! Botzone's Reversi bot protocol (JSON).
//!
//! Input: `{"requests":[{"x":..,"y":..}, ...], "responses":[{"x":..,"y":..}, ...]}`. The
//! first request `{"x":-1,"y":-1}` means we are black and move first; otherwise it is black's
//! first move and we are white. After that, requests are the opponent's moves and responses
//! ours, alternating; `{"x":-1,"y":-1}` is a pass. `x` is the column and `y` the row, both
//! 0-based from the top-left (x=3, y=2 is d3). Output: `{"response":{"x":X,"y":Y}}` on one
//! line. Extra fields (`data`, `globaldata`, `time_limit`, ...) are ignored.
//!
//! One-turn mode reads one JSON object (it may span lines), answers and returns. Keep-running
//! mode then prints `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` and reads each later request as one
//! JSON line holding just the new request (a full `{"requests":...}` object is accepted too),
//! keeping the engine's tree between turns.

use std::io::{BufRead, Write};

use serde::Deserialize;
use serde_json::Value;

use super::Player;
use crate::bitboard::Square;
use crate::position::{Color, Move, Position, Rule};

/// The line that asks Botzone to keep the bot running.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// One move on the wire.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub struct Cell {
    /// Column 0..8, or -1 (pass / "you move first").
    pub x: i64,
    /// Row 0..8, or -1.
    pub y: i64,
}

impl Cell {
    /// The wire form of a move.
    pub fn from_move(mv: Move) -> Cell {
        match mv {
            Move::Pass => Cell { x: -1, y: -1 },
            Move::Play(sq) => Cell {
                x: i64::from(sq.col()),
                y: i64::from(sq.row()),
            },
        }
    }

    /// The move this cell names, or why it names none.
    pub fn to_move(self) -> Result<Move, String> {
        if self.x == -1 && self.y == -1 {
            return Ok(Move::Pass);
        }
        u8::try_from(self.y)
            .ok()
            .zip(u8::try_from(self.x).ok())
            .and_then(|(row, col)| Square::from_row_col(row, col))
            .map(Move::Play)
            .ok_or_else(|| format!("cell x={} y={} is off the board", self.x, self.y))
    }
}

/// The full-history input object.
#[derive(Debug, Deserialize)]
struct Input {
    requests: Requests,
    #[serde(default)]
    responses: Vec<Cell>,
}

/// `requests` as a list, or (leniently) a single object.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Requests {
    Many(Vec<Cell>),
    One(Cell),
}

/// A game rebuilt from the history: the position with us to move, and our colour.
#[derive(Debug, Clone, Copy)]
pub struct Game {
    /// The position, us to move (or over).
    pub pos: Position,
    /// Our colour.
    pub me: Color,
}

/// Applies one wire move for the side to move, with a message naming the turn on failure.
fn apply(pos: &Position, cell: Cell, what: &str) -> Result<Position, String> {
    let mv = cell.to_move()?;
    if mv == Move::Pass && pos.is_game_over() {
        // After the end both sides can only "pass"; a platform that asks once more gets a
        // pass back rather than an error.
        return Ok(*pos);
    }
    pos.play(mv)
        .map_err(|e| format!("{what} ({}, {}): {e}\n{pos}", cell.x, cell.y))
}

/// Rebuilds the game from the requests and responses so far.
pub fn replay(requests: &[Cell], responses: &[Cell], rule: Rule) -> Result<Game, String> {
    let first = requests.first().ok_or("requests is empty")?;
    if responses.len() + 1 != requests.len() {
        return Err(format!(
            "expected one more request than responses, got {} and {}",
            requests.len(),
            responses.len()
        ));
    }
    let me = if first.x == -1 && first.y == -1 {
        Color::Black
    } else {
        Color::White
    };
    let mut pos = Position::start(rule);
    for (turn, request) in requests.iter().enumerate() {
        if !(turn == 0 && me == Color::Black) {
            pos = apply(&pos, *request, &format!("request {turn}"))?;
        }
        if let Some(response) = responses.get(turn) {
            pos = apply(&pos, *response, &format!("response {turn}"))?;
        }
    }
    if !pos.is_game_over() && pos.to_move() != me {
        return Err(format!("after the history it is not our ({me}) turn"));
    }
    Ok(Game { pos, me })
}

/// Parses one input object into a game.
pub fn parse_input(text: &str, rule: Rule) -> Result<Game, String> {
    let input: Input =
        serde_json::from_str(text).map_err(|e| format!("malformed Botzone input: {e}"))?;
    let requests = match input.requests {
        Requests::Many(v) => v,
        Requests::One(c) => vec![c],
    };
    replay(&requests, &input.responses, rule)
}

/// Reads lines until they form one complete JSON value; `Ok(None)` at the end of input.
fn read_value<R: BufRead>(input: &mut R) -> Result<Option<String>, String> {
    let mut text = String::new();
    loop {
        let mut line = String::new();
        let n = input
            .read_line(&mut line)
            .map_err(|e| format!("reading stdin: {e}"))?;
        if n == 0 {
            return if text.trim().is_empty() {
                Ok(None)
            } else {
                Err(format!(
                    "input ended inside a JSON value: {:?}",
                    text.trim()
                ))
            };
        }
        text.push_str(&line);
        if text.trim().is_empty() {
            text.clear();
            continue;
        }
        match serde_json::from_str::<Value>(&text) {
            Ok(_) => return Ok(Some(text)),
            Err(e) if e.is_eof() => continue,
            Err(e) => return Err(format!("malformed Botzone input: {e}")),
        }
    }
}

/// Our answer for `pos`, searched with the player's budget.
fn answer(player: &mut Player, pos: &Position) -> Move {
    if pos.is_game_over() || pos.must_pass() {
        return Move::Pass;
    }
    player.think(pos, player.move_ms).mv
}

fn write_response<W: Write>(output: &mut W, mv: Move, keep_running: bool) -> Result<(), String> {
    let cell = Cell::from_move(mv);
    let mut text = format!("{{\"response\":{{\"x\":{},\"y\":{}}}}}\n", cell.x, cell.y);
    if keep_running {
        text.push_str(KEEP_RUNNING);
        text.push('\n');
    }
    output
        .write_all(text.as_bytes())
        .and_then(|()| output.flush())
        .map_err(|e| format!("writing stdout: {e}"))
}

/// Runs the bot: one turn, or with `keep_running` every turn until the input ends.
pub fn run<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    player: &mut Player,
    rule: Rule,
    keep_running: bool,
) -> Result<(), String> {
    let text = read_value(&mut input)?.ok_or("no input: expected a Botzone JSON object")?;
    let mut game = parse_input(&text, rule)?;
    loop {
        let mv = answer(player, &game.pos);
        game.pos = game.pos.play(mv).unwrap_or(game.pos);
        write_response(&mut output, mv, keep_running)?;
        if !keep_running {
            return Ok(());
        }
        let Some(text) = read_value(&mut input)? else {
            return Ok(());
        };
        let value: Value =
            serde_json::from_str(&text).map_err(|e| format!("malformed Botzone input: {e}"))?;
        if value.get("requests").is_some() {
            game = parse_input(&text, rule)?;
        } else {
            let cell: Cell = serde_json::from_value(value)
                .map_err(|e| format!("malformed Botzone request {:?}: {e}", text.trim()))?;
            game.pos = apply(&game.pos, cell, "request")?;
            if !game.pos.is_game_over() && game.pos.to_move() != game.me {
                return Err("after the request it is not our turn".to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Profile;

    fn player() -> Player {
        Player {
            engine: Profile::Strong.engine(Some(2), 1 << 24),
            move_ms: 20,
            log: false,
        }
    }

    fn response_cell(line: &str) -> Cell {
        let v: Value = serde_json::from_str(line).unwrap();
        serde_json::from_value(v["response"].clone()).unwrap()
    }

    #[test]
    fn first_request_minus_one_means_black() {
        let g = parse_input(
            r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#,
            Rule::Standard,
        )
        .unwrap();
        assert_eq!(g.me, Color::Black);
        assert_eq!(g.pos, Position::start(Rule::Standard));
        // Black's d3 is x=3, y=2.
        let g = parse_input(r#"{"requests":[{"x":3,"y":2}]}"#, Rule::Standard).unwrap();
        assert_eq!(g.me, Color::White);
        assert_eq!(g.pos.black_discs(), 4);
    }

    #[test]
    fn one_turn_answers_a_legal_move_across_lines() {
        let input = "{\"requests\":[{\"x\":-1,\"y\":-1},\n{\"x\":2,\"y\":2}],\n\"responses\":[{\"x\":3,\"y\":2}], \"data\":\"\"}\n";
        let mut out = Vec::new();
        run(
            input.as_bytes(),
            &mut out,
            &mut player(),
            Rule::Standard,
            false,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.lines().count(), 1);
        let game = parse_input(
            r#"{"requests":[{"x":-1,"y":-1},{"x":2,"y":2}],"responses":[{"x":3,"y":2}]}"#,
            Rule::Standard,
        )
        .unwrap();
        let mv = response_cell(out.trim()).to_move().unwrap();
        assert!(game.pos.is_legal(mv));
    }

    /// A predictable engine: the first legal move.
    struct First;

    impl crate::search::Engine for First {
        fn name(&self) -> &'static str {
            "first"
        }
        fn new_game(&mut self) {}
        fn choose(
            &mut self,
            pos: &Position,
            _: crate::search::Limits,
        ) -> crate::search::SearchReport {
            crate::search::SearchReport {
                mv: pos.legal_moves()[0],
                ms: 0,
                iterations: 0,
                nodes: 0,
                winrate: 0.5,
                proof: crate::search::Proof::None,
            }
        }
    }

    #[test]
    fn keep_running_takes_bare_requests() {
        // We are white after black's d3 and answer c3 (the first legal move); black then
        // plays its first legal move, sent as a bare request.
        let after_d3 = Position::start(Rule::Standard)
            .play(Move::parse("d3").unwrap())
            .unwrap();
        let after_c3 = after_d3.play(Move::parse("c3").unwrap()).unwrap();
        let black = after_c3.legal_moves()[0];
        let cell = Cell::from_move(black);
        let input = format!(
            "{{\"requests\":[{{\"x\":3,\"y\":2}}],\"responses\":[]}}\n\n{{\"x\":{},\"y\":{}}}\n",
            cell.x, cell.y
        );
        let mut p = Player {
            engine: Box::new(First),
            move_ms: 10,
            log: false,
        };
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out, &mut p, Rule::Standard, true).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[0], r#"{"response":{"x":2,"y":2}}"#);
        assert_eq!(lines[1], KEEP_RUNNING);
        assert_eq!(lines[3], KEEP_RUNNING);
        let second = response_cell(lines[2]).to_move().unwrap();
        let pos = after_c3.play(black).unwrap();
        assert_eq!(second, pos.legal_moves()[0]);
    }

    #[test]
    fn the_strong_engine_answers_keep_running_turns_legally() {
        let input = "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n";
        let mut out = Vec::new();
        run(
            input.as_bytes(),
            &mut out,
            &mut player(),
            Rule::NoAdjacent,
            true,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let mv = response_cell(text.lines().next().unwrap())
            .to_move()
            .unwrap();
        assert!(Position::start(Rule::NoAdjacent).is_legal(mv));
    }

    #[test]
    fn a_pass_after_the_end_is_accepted() {
        let over = Position::from_parts(u64::MAX, 0, Color::White, None, Rule::Standard).unwrap();
        assert!(over.is_game_over());
        assert_eq!(apply(&over, Cell { x: -1, y: -1 }, "request"), Ok(over));
        assert!(apply(&over, Cell { x: 0, y: 0 }, "request").is_err());
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        for bad in [
            "",
            "{",
            "[1,2]",
            r#"{"requests":[]}"#,
            r#"{"requests":[{"x":9,"y":0}]}"#,
            r#"{"requests":[{"x":0,"y":0}]}"#,
            r#"{"requests":[{"x":-1,"y":-1}],"responses":[{"x":3,"y":2}]}"#,
            "not json",
        ] {
            let mut out = Vec::new();
            let r = run(
                bad.as_bytes(),
                &mut out,
                &mut player(),
                Rule::Standard,
                false,
            );
            assert!(r.is_err(), "{bad:?}");
            assert!(out.is_empty());
        }
    }
}
