//! The page's HTTP endpoints as plain functions of a request, so they are tested
//! without a server or a browser:
//!
//! | request | answer |
//! | --- | --- |
//! | `GET /` | the page (HTML, CSS and JavaScript in one file, nothing fetched from elsewhere) |
//! | `GET /state[?since=V]` | the game as JSON; with `since`, once its version is past V (a long poll) |
//! | `POST /move` `{"x": ROW, "y": COLUMN}`, `{"pass": true}` or (Go) `{"resign": true}`, optionally `"game": N` | 200, or a 4xx JSON `{"error": ...}` for a malformed, illegal or out-of-turn move |
//! | `POST /new` `{"swap": BOOL}` | 202: the game is left (if still on) and a new one starts |
//! | `POST /quit` | 202: the judge stops |

use std::time::Duration;

use serde_json::{Value, json};

use super::live::{Command, Request, Table};
use crate::view::Shown;

/// The page, embedded in the binary.
const PAGE: &str = include_str!("page.html");
/// How long `/state?since=V` waits for a change before answering with the same state:
/// short enough that no proxy or browser gives up on it, long enough to be rare.
const LONG_POLL: Duration = Duration::from_secs(15);

/// An HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl Reply {
    fn json(status: u16, body: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: body.to_string(),
        }
    }

    /// A JSON `{"error": message}` with `status`.
    pub(super) fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({ "error": message }))
    }
}

/// Answers one request (`url` is the path with its query). The command, if any, goes to
/// the game loop after the reply is sent (so `/quit` is answered before the judge exits).
pub fn handle<G: Shown>(
    table: &Table<G>,
    method: &str,
    url: &str,
    body: &str,
) -> (Reply, Option<Command<G::Move>>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match (method, path) {
        ("GET", "/") => (
            Reply {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: PAGE.to_string(),
            },
            None,
        ),
        ("GET", "/state") => {
            let since = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("since="))
                .map(|v| v.parse::<u64>());
            match since {
                None => (Reply::json(200, &table.state()), None),
                Some(Ok(v)) => (Reply::json(200, &table.wait(v, LONG_POLL)), None),
                Some(Err(_)) => (
                    Reply::error(400, "since must be a state version (a whole number)"),
                    None,
                ),
            }
        }
        ("POST", "/move") => match parse_move(body) {
            Err(why) => (Reply::error(400, &why), None),
            Ok((number, request)) => match table.submit(number, request) {
                Ok(command) => (Reply::json(200, &json!({ "ok": true })), Some(command)),
                Err((status, why)) => (Reply::error(status, &why), None),
            },
        },
        ("POST", "/new") => {
            let swap = match body.trim() {
                "" => Ok(false),
                text => serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| match v.get("swap") {
                        None => Some(false),
                        Some(s) => s.as_bool(),
                    })
                    .ok_or(()),
            };
            match swap {
                Ok(swap) => (
                    Reply::json(202, &json!({ "ok": true })),
                    Some(Command::New { swap }),
                ),
                Err(()) => (
                    Reply::error(400, "expected {\"swap\": true} or {\"swap\": false}"),
                    None,
                ),
            }
        }
        ("POST", "/quit") => (
            Reply::json(202, &json!({ "ok": true })),
            Some(Command::Quit),
        ),
        (_, "/" | "/state" | "/move" | "/new" | "/quit") => (
            Reply::error(405, &format!("{method} is not allowed on {path}")),
            None,
        ),
        _ => (Reply::error(404, &format!("no such page: {path}")), None),
    }
}

/// `{"x": ROW, "y": COLUMN}`, `{"pass": true}` or `{"resign": true}`, each with an
/// optional `"game": N`.
fn parse_move(body: &str) -> Result<(Option<u32>, Request), String> {
    const EXPECTED: &str =
        r#"expected {"x": ROW, "y": COLUMN}, {"pass": true} or {"resign": true}"#;
    let v: Value = serde_json::from_str(body).map_err(|e| format!("{EXPECTED}: {e}"))?;
    let number = match v.get("game") {
        None => None,
        Some(n) => Some(
            n.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| format!("game must be a game number, not {n}"))?,
        ),
    };
    let coordinate = |key: &str| {
        v.get(key)
            .and_then(Value::as_i64)
            .and_then(|c| i32::try_from(c).ok())
    };
    let request = match (
        v.get("pass"),
        v.get("resign"),
        coordinate("x"),
        coordinate("y"),
    ) {
        (Some(Value::Bool(true)), None, None, None) => Request::Pass,
        (None, Some(Value::Bool(true)), None, None) => Request::Resign,
        (None, None, Some(x), Some(y)) => Request::Cell(x, y),
        _ => return Err(EXPECTED.to_string()),
    };
    Ok((number, request))
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::games::connect4::{BoardSpec, Connect4, Point};
    use crate::games::reversi::{Move, Reversi};
    use crate::games::{Game, Side};
    use crate::players::person::{Person, Watched};
    use crate::players::{Answer, Fault, Player};
    use crate::referee;
    use crate::view::web::live::Page;

    const SPEC: BoardSpec = BoardSpec {
        m: 6,
        n: 7,
        no_x: 5,
        no_y: 0,
    };

    fn table(human: Side) -> (Table<Connect4>, mpsc::Receiver<Command<Point>>) {
        let (tx, rx) = mpsc::channel();
        let t = Table::new(Connect4, SPEC, "bot", 3000, human, tx);
        t.begin(human);
        (t, rx)
    }

    fn get<G: Shown>(t: &Table<G>, url: &str) -> (u16, Value) {
        let (r, c) = handle(t, "GET", url, "");
        assert!(c.is_none());
        assert_eq!(r.content_type, "application/json");
        (r.status, serde_json::from_str(&r.body).unwrap())
    }

    fn post<G: Shown>(
        t: &Table<G>,
        path: &str,
        body: &str,
    ) -> (u16, Value, Option<Command<G::Move>>) {
        let (r, c) = handle(t, "POST", path, body);
        (r.status, serde_json::from_str(&r.body).unwrap(), c)
    }

    /// Sends `Quit` when dropped: a failed assertion then ends the game loop rather than
    /// leaving the thread scope waiting for it forever.
    struct Leave<'a, G: Shown>(&'a Table<G>);

    impl<G: Shown> Drop for Leave<'_, G> {
        fn drop(&mut self) {
            self.0.send(Command::Quit);
        }
    }

    /// Plays the first of the game's legal moves (Connect-4: the leftmost column; Reversi:
    /// the first square in reading order, or the pass), taking `ms` per move.
    struct FirstLegal(f64);

    impl<G: Game> Player<G> for FirstLegal {
        fn start(&mut self, _: &G, _: &G::Setup, _: Side) -> Result<(), Fault> {
            Ok(())
        }
        fn next_move(
            &mut self,
            game: &G,
            p: &G::Position,
            _: Option<G::Move>,
            _: Duration,
        ) -> Answer<G::Move> {
            Answer {
                reply: Ok(game.legal_moves(p)[0]),
                wall_ms: self.0,
                cpu_ms: None,
            }
        }
    }

    #[test]
    fn the_page_is_served_whole_and_names_no_other_site() {
        let (t, _) = table(Side::First);
        let (r, c) = handle(&t, "GET", "/", "");
        assert!(c.is_none());
        assert_eq!(
            (r.status, r.content_type),
            (200, "text/html; charset=utf-8")
        );
        assert!(r.body.contains("<script>") && r.body.contains("</html>"));
        assert!(
            !r.body.contains("://"),
            "the page must fetch nothing from elsewhere"
        );
    }

    #[test]
    fn state_shows_the_grid_and_nothing_is_legal_before_the_persons_turn() {
        let (t, _) = table(Side::First);
        let (status, s) = get(&t, "/state");
        assert_eq!(status, 200);
        assert_eq!((s["rows"].as_i64(), s["cols"].as_i64()), (Some(6), Some(7)));
        assert_eq!(s["cells"][5], "#......");
        assert_eq!(s["cells"][0], ".......");
        assert_eq!(s["turn"], "starting");
        assert_eq!(s["legal"], json!([]));
        assert_eq!(s["game"], 1);
        assert_eq!(s["you"], "first");
        assert_eq!(s["ai"], "bot");
        assert!(s["result"].is_null() && s["last"].is_null());
        // A move before the person's turn is out of turn.
        let (status, e, c) = post(&t, "/move", r#"{"x": 5, "y": 3}"#);
        assert_eq!(status, 409);
        assert!(c.is_none());
        assert!(
            e["error"].as_str().unwrap().contains("not your turn"),
            "{e}"
        );
    }

    #[test]
    fn moves_are_checked_and_a_whole_game_shows_times_and_the_result() {
        let (t, rx) = table(Side::First);
        let t = &t;
        std::thread::scope(|scope| {
            // The game loop: the referee with the person and a 2.5 ms AI, as `run` sets it.
            let game = scope.spawn(move || {
                let mut person = Person(Page {
                    commands: &rx,
                    left_for: None,
                });
                let mut ai = FirstLegal(2.5);
                let mut you = Watched {
                    player: &mut person,
                    side: Side::First,
                    watcher: t,
                };
                let mut it = Watched {
                    player: &mut ai,
                    side: Side::Second,
                    watcher: t,
                };
                let outcome = referee::play(
                    &Connect4,
                    &SPEC,
                    [&mut you, &mut it],
                    Duration::from_secs(1),
                );
                t.finish(&outcome, None);
                outcome
            });
            let _leave = Leave(t);
            // The person stacks column 6 and wins on the fourth stone (the AI stacks column
            // 0 above the blocked cell).
            let mut version = 0;
            let mut played = 0;
            while played < 4 {
                let (_, s) = get(t, &format!("/state?since={version}"));
                version = s["version"].as_u64().unwrap();
                if s["turn"] != "you" {
                    continue;
                }
                // Every column's landing cell is legal; column 0's is above the blocked cell.
                let legal = s["legal"].as_array().unwrap();
                assert_eq!(legal.len(), 7);
                assert_eq!(
                    (&s["can_pass"], &s["can_resign"]),
                    (&json!(false), &json!(false))
                );
                if played == 0 {
                    assert!(legal.contains(&json!([4, 0])), "{legal:?}");
                    // Malformed, misdirected and illegal moves get 4xx answers, nothing sent.
                    for (body, status, says) in [
                        ("column 3", 400, "expected"),
                        (r#"{"x": 1}"#, 400, "expected"),
                        (r#"{"pass": true}"#, 422, "cannot pass"),
                        (r#"{"resign": true}"#, 422, "this game has no resignation"),
                        (r#"{"resign": true, "pass": true}"#, 400, "expected"),
                        (
                            r#"{"x": 9, "y": 9}"#,
                            422,
                            "no legal move at row 9, column 9",
                        ),
                        (r#"{"x": 0, "y": 2, "game": 7}"#, 409, "meant for game 7"),
                    ] {
                        let (code, e, c) = post(t, "/move", body);
                        assert_eq!(code, status, "{body}: {e}");
                        assert!(e["error"].as_str().unwrap().contains(says), "{body}: {e}");
                        assert!(c.is_none());
                    }
                } else {
                    assert_eq!(s["last"], json!([5 - played, 0]), "the AI's last stone");
                }
                // Pointing anywhere in column 6 drops there.
                let (code, ok, c) = post(t, "/move", r#"{"x": 0, "y": 6, "game": 1}"#);
                assert_eq!((code, &ok), (200, &json!({"ok": true})));
                // A second click before the referee took the first is refused.
                let (code, e, _) = post(t, "/move", r#"{"x": 0, "y": 5}"#);
                assert_eq!(code, 409, "{e}");
                t.send(c.unwrap());
                played += 1;
            }
            let outcome = game.join().unwrap();
            assert_eq!(outcome.moves, vec![6, 0, 6, 0, 6, 0, 6]);
        });
        let (_, s) = get(t, "/state");
        assert_eq!(s["turn"], "over");
        assert_eq!(s["result"]["text"], "You win: four in a row!");
        assert_eq!(s["result"]["winner"], "you");
        assert_eq!(s["result"]["line"], json!([[2, 6], [3, 6], [4, 6], [5, 6]]));
        let moves = s["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 7);
        assert_eq!(
            moves[1],
            json!({"by": "ai", "name": "column 0", "cell": [4, 0], "ms": 2.5, "fault": null})
        );
        assert_eq!(moves[6]["cell"], json!([2, 6]));
        assert_eq!(s["ai_total_ms"], 7.5);
        assert_eq!(s["last"], json!([2, 6]));
        assert_eq!(s["cells"][2], "O.....X");
        let (code, e, _) = post(t, "/move", r#"{"x": 0, "y": 5}"#);
        assert_eq!(code, 409);
        assert!(e["error"].as_str().unwrap().contains("game is over"), "{e}");
    }

    #[test]
    fn an_ai_verdict_is_shown_with_its_time() {
        let (t, _) = table(Side::Second);
        let outcome = referee::Outcome::<Connect4> {
            winner: Some(Side::Second),
            termination: crate::games::Termination::Timeout,
            detail: None,
            illegal_point: None,
            margin: None,
            moves: vec![],
            move_ms: vec![3000.4],
            cpu_ms: vec![None],
            peak_kb: [None, None],
        };
        t.finish(&outcome, None);
        let (_, s) = get(&t, "/state");
        assert_eq!(
            s["result"]["text"],
            "bot loses by timeout (no answer within 3000 ms): you win."
        );
        assert_eq!(
            s["moves"],
            json!([{"by": "ai", "name": null, "cell": null, "ms": 3000.4, "fault": "timeout"}])
        );
        assert_eq!(s["ai_total_ms"], 3000.4);
    }

    #[test]
    fn other_requests_get_clear_errors() {
        let (t, _) = table(Side::First);
        assert_eq!(handle(&t, "GET", "/nope", "").0.status, 404);
        assert_eq!(handle(&t, "DELETE", "/state", "").0.status, 405);
        assert_eq!(handle(&t, "GET", "/move", "").0.status, 405);
        assert_eq!(get(&t, "/state?since=x").0, 400);
        let (code, _, c) = post(&t, "/new", r#"{"swap": true}"#);
        assert_eq!((code, c), (202, Some(Command::New { swap: true })));
        let (_, _, c) = post(&t, "/new", "");
        assert_eq!(c, Some(Command::New { swap: false }));
        let (code, _, c) = post(&t, "/new", r#"{"swap": "yes"}"#);
        assert_eq!((code, c), (400, None));
        let (code, _, c) = post(&t, "/quit", "");
        assert_eq!((code, c), (202, Some(Command::Quit)));
    }

    #[test]
    fn new_games_swap_colours_only_played_games_are_saved_and_quit_ends_the_loop() {
        let (tx, rx) = mpsc::channel();
        let t = &Table::new(Connect4, SPEC, "bot", 3000, Side::First, tx);
        let mut saved = Vec::new();
        // Waits for the person's turn (or the end) and returns the state then.
        let settled = |since: &mut u64| loop {
            let (_, s) = get(t, &format!("/state?since={since}"));
            *since = s["version"].as_u64().unwrap();
            if s["turn"] == "you" || s["turn"] == "over" {
                return s;
            }
        };
        std::thread::scope(|scope| {
            let saved = &mut saved;
            let games = scope.spawn(move || {
                let limit = Duration::from_secs(1);
                let open = || Box::new(FirstLegal(1.0)) as Box<dyn Player<Connect4>>;
                super::super::play_games(&Connect4, &SPEC, t, &rx, limit, open(), &open, {
                    |o: &referee::Outcome<Connect4>, human| {
                        saved.push((o.moves.clone(), human));
                        Ok(Some(format!("saved as game {}", saved.len() - 1)))
                    }
                })
            });
            let _leave = Leave(t);
            let mut v = 0;
            let s = settled(&mut v);
            assert_eq!((&s["game"], &s["you"]), (&json!(1), &json!("first")));
            let (_, _, c) = post(t, "/move", r#"{"x": 0, "y": 6}"#);
            t.send(c.unwrap());
            let s = settled(&mut v);
            assert_eq!(s["moves"].as_array().unwrap().len(), 2);
            // Leaving a game on for a new one with colours swapped: the AI starts.
            let (_, _, c) = post(t, "/new", r#"{"swap": true}"#);
            t.send(c.unwrap());
            // Leaving shows on game 1 first (the person's answer, turn still "you"); wait
            // for game 2.
            let s = loop {
                let s = settled(&mut v);
                if s["game"] != 1 {
                    break s;
                }
            };
            assert_eq!((&s["game"], &s["you"]), (&json!(2), &json!("second")));
            assert_eq!(
                s["moves"],
                json!([{"by": "ai", "name": "column 0", "cell": [4, 0], "ms": 1.0, "fault": null}])
            );
            // The AI stacks column 0 and wins on its fourth stone.
            let mut s = s;
            while s["turn"] == "you" {
                let (_, _, c) = post(t, "/move", r#"{"x": 0, "y": 6, "game": 2}"#);
                t.send(c.unwrap());
                s = settled(&mut v);
            }
            assert_eq!(s["result"]["text"], "bot wins: four in a row.");
            assert_eq!(s["result"]["winner"], "ai");
            assert_eq!(s["saved"], "saved as game 0");
            assert_eq!(s["ai_total_ms"], 4.0);
            let (_, _, c) = post(t, "/quit", "");
            t.send(c.unwrap());
            games.join().unwrap().unwrap();
        });
        // Only the game played to its end was saved, with the person second.
        assert_eq!(saved, vec![(vec![0, 6, 0, 6, 0, 6, 0], Side::Second)]);
    }

    #[test]
    fn go_offers_every_legal_point_the_pass_and_resigning() {
        use crate::games::go::Go;
        let game = Go::default();
        let setup = game.setup(4);
        let (tx, rx) = mpsc::channel();
        let t = &Table::new(game, setup, "bot", 6000, Side::First, tx);
        std::thread::scope(|scope| {
            let games = scope.spawn(move || {
                let open = || Box::new(FirstLegal(1.0)) as Box<dyn Player<Go>>;
                super::super::play_games(
                    &game,
                    &setup,
                    t,
                    &rx,
                    Duration::from_secs(1),
                    open(),
                    &open,
                    |_, _| Ok(None),
                )
            });
            let _leave = Leave(t);
            let mut v = 0;
            let mut s = loop {
                let (_, s) = get(t, &format!("/state?since={v}"));
                v = s["version"].as_u64().unwrap();
                if s["turn"] == "you" {
                    break s;
                }
            };
            assert_eq!((&s["kind"], &s["rows"]), (&json!("go"), &json!(9)));
            assert!(
                s["setup"]
                    .as_str()
                    .unwrap()
                    .starts_with("Go 9x9, komi 7.5, opening ")
            );
            assert_eq!(s["col_labels"][8], "J", "no I");
            assert_eq!(
                (&s["row_labels"][0], &s["row_labels"][8]),
                (&json!("9"), &json!("1"))
            );
            // Black first: the empty points (all but the opening's stones), pass and resign.
            let stones = setup.opening().len();
            assert_eq!(s["legal"].as_array().unwrap().len(), 81 - stones);
            assert_eq!(
                (&s["can_pass"], &s["can_resign"]),
                (&json!(true), &json!(true))
            );
            // The last opening stone is marked; an occupied point is refused.
            let last = s["last"].clone();
            let body = format!(r#"{{"x": {}, "y": {}}}"#, last[0], last[1]);
            let (code, e, _) = post(t, "/move", &body);
            assert_eq!(code, 422, "{e}");
            // A stone on A9 (the first legal point), then the AI's, then resigning.
            let (code, _, c) = post(t, "/move", r#"{"x": 0, "y": 0}"#);
            assert_eq!(code, 200);
            t.send(c.unwrap());
            s = loop {
                let (_, s) = get(t, &format!("/state?since={v}"));
                v = s["version"].as_u64().unwrap();
                if s["turn"] == "you" {
                    break s;
                }
            };
            assert_eq!(s["moves"][0]["name"], "A9");
            let (code, _, c) = post(t, "/move", r#"{"resign": true, "game": 1}"#);
            assert_eq!(code, 200);
            t.send(c.unwrap());
            let s = loop {
                let (_, s) = get(t, &format!("/state?since={v}"));
                v = s["version"].as_u64().unwrap();
                if s["turn"] == "over" {
                    break s;
                }
            };
            assert_eq!(s["result"]["termination"], "resign");
            assert_eq!(s["result"]["text"], "You resigned: bot wins.");
            assert_eq!(s["result"]["detail"], "W+R");
            let names: Vec<&str> = s["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["name"].as_str().unwrap())
                .collect();
            assert_eq!(names.len(), 3);
            assert_eq!((names[0], names[2]), ("A9", "resign"));
            assert_eq!(s["can_resign"], false);
            let (_, _, c) = post(t, "/quit", "");
            t.send(c.unwrap());
            games.join().unwrap().unwrap();
        });
    }

    #[test]
    fn reversi_offers_the_pass_exactly_when_it_is_the_only_move() {
        let game = Reversi::default();
        // An opening in which the person (first, as both sides play their first legal
        // move) is left with nothing but a pass at some point.
        let must_pass = |setup: &<Reversi as Game>::Setup| {
            let mut p = game.start(setup);
            while game.end(&p).is_none() {
                let moves = game.legal_moves(&p);
                if game.to_move(&p) == Side::First && moves == [Move::Pass] {
                    return true;
                }
                game.play(&mut p, moves[0]);
            }
            false
        };
        let setup = (0..500)
            .map(|seed| game.setup(seed))
            .find(must_pass)
            .expect("an opening where the first mover must pass");
        let (tx, rx) = mpsc::channel();
        let t = &Table::new(game, setup, "bot", 6000, Side::First, tx);
        let mut passes = 0;
        std::thread::scope(|scope| {
            let games = scope.spawn(move || {
                let open = || Box::new(FirstLegal(1.5)) as Box<dyn Player<Reversi>>;
                super::super::play_games(
                    &game,
                    &setup,
                    t,
                    &rx,
                    Duration::from_secs(1),
                    open(),
                    &open,
                    |_, _| Ok(None),
                )
            });
            let _leave = Leave(t);
            let mut v = 0;
            loop {
                let (_, s) = get(t, &format!("/state?since={v}"));
                v = s["version"].as_u64().unwrap();
                assert_eq!((&s["rows"], &s["cols"]), (&json!(8), &json!(8)));
                assert_eq!(s["col_labels"][3], "d");
                assert_eq!(s["row_labels"][0], "1");
                if s["turn"] == "over" {
                    break;
                }
                if s["turn"] != "you" {
                    continue;
                }
                let legal = s["legal"].as_array().unwrap();
                let body = if s["can_pass"] == true {
                    // Only the pass: no cell is marked, and pointing at one is refused.
                    assert!(legal.is_empty(), "{s}");
                    let (code, e, _) = post(t, "/move", r#"{"x": 0, "y": 0}"#);
                    assert_eq!(code, 422, "{e}");
                    passes += 1;
                    r#"{"pass": true}"#.to_string()
                } else {
                    assert!(!legal.is_empty(), "{s}");
                    let (code, e, _) = post(t, "/move", r#"{"pass": true}"#);
                    assert_eq!(code, 422, "{e}");
                    assert!(e["error"].as_str().unwrap().contains("cannot pass"));
                    format!(r#"{{"x": {}, "y": {}}}"#, legal[0][0], legal[0][1])
                };
                let (code, _, c) = post(t, "/move", &body);
                assert_eq!(code, 200, "{body}");
                t.send(c.unwrap());
            }
            let (_, s) = get(t, "/state");
            assert_eq!(s["result"]["termination"], "discs");
            let text = s["result"]["text"].as_str().unwrap();
            assert!(
                text.starts_with("You win by")
                    || text.starts_with("bot wins by")
                    || text == "Draw: equal discs.",
                "{text}"
            );
            let shown_passes = s["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["by"] == "you" && m["name"] == "pass" && m["cell"].is_null())
                .count();
            assert_eq!(shown_passes, passes);
            let (_, _, c) = post(t, "/quit", "");
            t.send(c.unwrap());
            games.join().unwrap().unwrap();
        });
        assert!(passes >= 1);
    }
}
