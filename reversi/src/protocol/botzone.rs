//! Botzone's Reversi bot protocol, in both of the platform's interaction forms (its wiki's
//! Bot page).
//!
//! JSON: `{"requests":[{"x":..,"y":..}, ...], "responses":[{"x":..,"y":..}, ...]}`. The
//! first request `{"x":-1,"y":-1}` means we are black and move first; otherwise it is black's
//! first move and we are white. After that, requests are the opponent's moves and responses
//! ours, alternating; `{"x":-1,"y":-1}` is a pass. `x` is the column and `y` the row, both
//! 0-based from the top-left (x=3, y=2 is d3). Output: `{"response":{"x":X,"y":Y}}` on one
//! line. `time_limit` (seconds, a number or a numeric string) caps the turn's search at 80 %
//! of it; other fields (`data`, `globaldata`, `memory_limit`, ...) are ignored.
//!
//! Simplified interaction (an input that starts with a number instead of `{`): a line with
//! the turn number `n`, then `2n - 1` lines alternating request and response, each `x y`,
//! the newest request last, then the `data` and `globaldata` lines (not needed: we save
//! nothing). Output: one line `x y`. Without a `time_limit` the platform's documented
//! default of one second a turn applies.
//!
//! One-turn mode reads one input, answers and returns. Keep-running mode then prints
//! `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` and reads each later turn as just the new request,
//! in the first input's form (`{"x":..,"y":..}`, or a full `{"requests":...}` object; or
//! `x y`, blank lines skipped), keeping the engine's tree and the first input's time limit.

use std::io::{self, BufRead, Read, Write};

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
    /// The turn's limit in seconds; the wiki shows it as a string, its C# sample as a number.
    #[serde(default)]
    time_limit: Option<Value>,
}

/// Botzone's time limit for a C or C++ bot's turn when the input does not give one (the
/// wiki: one second; the first turn gets twice that).
pub const DEFAULT_TIME_LIMIT_MS: u64 = 1000;

/// The share of the platform's limit a turn may search: the rest covers start-up, reading
/// the input and writing the answer, and a loaded judge machine.
const LIMIT_SHARE: f64 = 0.8;

/// `time_limit` in milliseconds: seconds as a number or a numeric string (values above 100
/// can only be milliseconds); `None` when absent, empty or not a positive number.
fn time_limit_ms(value: &Value) -> Option<u64> {
    let seconds = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    if !(seconds.is_finite() && seconds > 0.0) {
        return None;
    }
    let ms = if seconds > 100.0 {
        seconds
    } else {
        seconds * 1000.0
    };
    Some(ms as u64)
}

/// How the platform talks to us, fixed by the first input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// One JSON object per turn.
    Json,
    /// Lines of `x y` after the turn number.
    Simple,
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
    parse_json(text, rule).map(|(game, _)| game)
}

/// Parses one input object into a game and the turn's time limit (ms), if it gives one.
fn parse_json(text: &str, rule: Rule) -> Result<(Game, Option<u64>), String> {
    let input: Input =
        serde_json::from_str(text).map_err(|e| format!("malformed Botzone input: {e}"))?;
    let requests = match input.requests {
        Requests::Many(v) => v,
        Requests::One(c) => vec![c],
    };
    let limit = input.time_limit.as_ref().and_then(time_limit_ms);
    Ok((replay(&requests, &input.responses, rule)?, limit))
}

/// One `x y` line of the simplified interaction.
fn parse_cell(line: &str) -> Result<Cell, String> {
    let numbers: Vec<i64> = line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("expected `x y`, got {:?}", line.trim()))?;
    match numbers[..] {
        [x, y] => Ok(Cell { x, y }),
        _ => Err(format!("expected `x y`, got {:?}", line.trim())),
    }
}

/// The next line that is not blank; `Ok(None)` at the end of input.
fn next_line<R: BufRead>(input: &mut R) -> Result<Option<String>, String> {
    loop {
        let mut line = String::new();
        let n = input
            .read_line(&mut line)
            .map_err(|e| format!("reading stdin: {e}"))?;
        if n == 0 {
            return Ok(None);
        }
        if !line.trim().is_empty() {
            return Ok(Some(line));
        }
    }
}

/// The simplified interaction's first input after its turn-number line `first`: `2n - 1`
/// lines of `x y`, requests and responses alternating. The `data` and `globaldata` lines
/// after them are left unread (a keep-running turn skips them as blank lines: we never
/// save any).
fn read_simple<R: BufRead>(first: &str, input: &mut R, rule: Rule) -> Result<Game, String> {
    let turn: usize = first
        .trim()
        .parse()
        .ok()
        .filter(|&n| (1..=200).contains(&n))
        .ok_or_else(|| format!("expected the turn number, got {:?}", first.trim()))?;
    let (mut requests, mut responses) = (Vec::new(), Vec::new());
    for i in 0..2 * turn - 1 {
        let line = next_line(input)?
            .ok_or_else(|| format!("input ended after {i} of {} lines", 2 * turn - 1))?;
        let cell = parse_cell(&line)?;
        if i % 2 == 0 {
            requests.push(cell);
        } else {
            responses.push(cell);
        }
    }
    replay(&requests, &responses, rule)
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

/// Our answer for `pos`, searched with the player's budget capped at
/// [`LIMIT_SHARE`] of the platform's `limit_ms`.
fn answer(player: &mut Player, pos: &Position, limit_ms: u64) -> Move {
    if pos.is_game_over() || pos.must_pass() {
        return Move::Pass;
    }
    let cap = (limit_ms as f64 * LIMIT_SHARE) as u64;
    player.think(pos, player.move_ms.min(cap)).mv
}

fn write_response<W: Write>(
    output: &mut W,
    mv: Move,
    form: Form,
    keep_running: bool,
) -> Result<(), String> {
    let cell = Cell::from_move(mv);
    let mut text = match form {
        Form::Json => format!("{{\"response\":{{\"x\":{},\"y\":{}}}}}\n", cell.x, cell.y),
        Form::Simple => format!("{} {}\n", cell.x, cell.y),
    };
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
    let first = next_line(&mut input)?
        .ok_or("no input: expected a Botzone JSON object or a turn number")?;
    let (form, mut game, limit) = if first.trim_start().starts_with('{') {
        let text = read_value(&mut io::Cursor::new(first).chain(&mut input))?
            .ok_or("no input: expected a Botzone JSON object")?;
        let (game, limit) = parse_json(&text, rule)?;
        (Form::Json, game, limit)
    } else {
        (Form::Simple, read_simple(&first, &mut input, rule)?, None)
    };
    let limit_ms = limit.unwrap_or(DEFAULT_TIME_LIMIT_MS);
    loop {
        let mv = answer(player, &game.pos, limit_ms);
        game.pos = game.pos.play(mv).unwrap_or(game.pos);
        write_response(&mut output, mv, form, keep_running)?;
        if !keep_running {
            return Ok(());
        }
        let request = match form {
            Form::Json => {
                let Some(text) = read_value(&mut input)? else {
                    return Ok(());
                };
                let value: Value = serde_json::from_str(&text)
                    .map_err(|e| format!("malformed Botzone input: {e}"))?;
                if value.get("requests").is_some() {
                    game = parse_input(&text, rule)?;
                    continue;
                }
                serde_json::from_value(value)
                    .map_err(|e| format!("malformed Botzone request {:?}: {e}", text.trim()))?
            }
            Form::Simple => match next_line(&mut input)? {
                Some(line) => parse_cell(&line)?,
                None => return Ok(()),
            },
        };
        game.pos = apply(&game.pos, request, "request")?;
        if !game.pos.is_game_over() && game.pos.to_move() != game.me {
            return Err("after the request it is not our turn".to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Profile;

    fn player() -> Player {
        Player {
            engine: Profile::Strong.engine(Some(2), 1 << 24, &Default::default()),
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

    /// A predictable engine: the first legal move. It remembers the time each search was
    /// given.
    #[derive(Default)]
    struct First(std::rc::Rc<std::cell::RefCell<Vec<u128>>>);

    impl crate::search::Engine for First {
        fn name(&self) -> &'static str {
            "first"
        }
        fn new_game(&mut self) {}
        fn choose(
            &mut self,
            pos: &Position,
            limits: crate::search::Limits,
        ) -> crate::search::SearchReport {
            self.0.borrow_mut().push(limits.time.as_millis());
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
            engine: Box::new(First::default()),
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

    /// Runs a bot with a budget of `move_ms` on `input`: its output and the budgets its
    /// searches got.
    fn timed_run(input: &str, move_ms: u64, keep_running: bool) -> (String, Vec<u128>) {
        let budgets = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut p = Player {
            engine: Box::new(First(budgets.clone())),
            move_ms,
            log: false,
        };
        let mut out = Vec::new();
        run(
            input.as_bytes(),
            &mut out,
            &mut p,
            Rule::Standard,
            keep_running,
        )
        .unwrap();
        let budgets = budgets.borrow().clone();
        (String::from_utf8(out).unwrap(), budgets)
    }

    #[test]
    fn time_limit_caps_the_budget_and_one_second_is_the_default() {
        let opening = r#""requests":[{"x":-1,"y":-1}],"responses":[]"#;
        for (limit, budget) in [
            (r#","time_limit":1"#, 800),
            (r#","time_limit":"2""#, 1600),
            (r#","time_limit":6000"#, 4800),
            (r#","time_limit":30"#, 5000),
            (r#","time_limit":"""#, 800),
            ("", 800),
        ] {
            let (_, budgets) = timed_run(&format!("{{{opening}{limit}}}\n"), 5000, false);
            assert_eq!(budgets, [budget], "{limit}");
        }
        // A keep-running bot keeps the first turn's limit.
        let after_c3 = Position::start(Rule::Standard)
            .play(Move::parse("d3").unwrap())
            .unwrap()
            .play(Move::parse("c3").unwrap())
            .unwrap();
        let next = Cell::from_move(after_c3.legal_moves()[0]);
        let input = format!(
            "{{\"requests\":[{{\"x\":3,\"y\":2}}],\"time_limit\":2}}\n{{\"x\":{},\"y\":{}}}\n",
            next.x, next.y
        );
        assert_eq!(timed_run(&input, 5000, true).1, [1600, 1600]);
    }

    #[test]
    fn simplified_interaction_one_turn_and_keep_running() {
        // Turn 1 as black: `-1 -1`, then the data and globaldata lines.
        let (out, budgets) = timed_run("1\n-1 -1\n\n\n", 5000, false);
        assert_eq!(budgets, [800]);
        let c = Cell::from_move(Position::start(Rule::Standard).legal_moves()[0]);
        assert_eq!(out, format!("{} {}\n", c.x, c.y));
        // Turn 2 as white, the history alternating request and response: black's d3 (3 2),
        // our c3 (2 2), black's reply; then keep running on bare `x y` lines.
        let after_c3 = Position::start(Rule::Standard)
            .play(Move::parse("d3").unwrap())
            .unwrap()
            .play(Move::parse("c3").unwrap())
            .unwrap();
        let black = after_c3.legal_moves()[0];
        let ours = after_c3.play(black).unwrap().legal_moves()[0];
        let black2 = after_c3
            .play(black)
            .unwrap()
            .play(ours)
            .unwrap()
            .legal_moves()[0];
        let (b, b2) = (Cell::from_move(black), Cell::from_move(black2));
        let input = format!("2\n3 2\n2 2\n{} {}\n\n\n{} {}\n", b.x, b.y, b2.x, b2.y);
        let (out, _) = timed_run(&input, 5000, true);
        let lines: Vec<&str> = out.lines().collect();
        let o = Cell::from_move(ours);
        assert_eq!(lines[0], format!("{} {}", o.x, o.y));
        assert_eq!(lines[1], KEEP_RUNNING);
        assert_eq!(lines.len(), 4, "{out}");
        // Malformed simplified input is an error with nothing written.
        for bad in ["0\n", "1\n", "1\n3\n", "2\n3 2\nx y\n3 3\n", "abc\n"] {
            let mut out = Vec::new();
            let r = run(
                bad.as_bytes(),
                &mut out,
                &mut player(),
                Rule::Standard,
                false,
            );
            assert!(r.is_err() && out.is_empty(), "{bad:?}");
        }
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
