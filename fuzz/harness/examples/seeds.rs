//! Writes the fuzz targets' seed corpora, `fuzz/corpus/TARGET/seed-*`, from real traffic:
//! games recorded in `docs/runs/` (positions, GTP sessions and Botzone inputs as the judge
//! sends them, run directories), the cases of `tests/bad_input.rs`, and what our own
//! programs answer to those inputs. `cargo run -p gravity4-fuzzing --example seeds`
//! rewrites the same files (the engines' answers aside, which depend on the clock), or
//! only those of the groups it names (`-- saiblo go`); the files the fuzzer adds are left
//! alone.

use std::path::{Path, PathBuf};

use gravity4_fuzzing::get_point::{Call, Game};
use gravity4_judge::games::Game as _;
use gravity4_judge::games::connect4::{Connect4, Point};
use gravity4_judge::players::protocol::{ChildMessage, MoveRequest, write_message, write_request};
use gravity4_judge::run_dir::RunInfo;
use gravity4_judge::schedule::Shard;
use reversi::protocol::gtp::Gtp;
use reversi::protocol::{Player, botzone};
use reversi::{Profile, Rule, Tuning};
use serde_json::{Value, json};

use go_engine::gmp::{GmpConfig, play_game};
use go_engine::gtp::format_vertex;
use go_engine::gtp::session::Session;
use go_engine::player::Player as GoPlayer;
use go_engine::point::{Color as GoColor, Move as GoMove};
use go_engine::sgf::record::GameRecord;
use gravity4::session;
use gravity4_fuzzing::saiblo_reader;
use gravity4_judge::games::Side;
use gravity4_judge::games::connect4::{BoardSpec, Position as Connect4Position};
use gravity4_judge::players::saiblo::{Form, message};
use gravity4_saiblo::input::Input;
use gravity4_saiblo::program::Program;
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Writes `fuzz/corpus/TARGET/seed-NAME`.
fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = root().join("fuzz/corpus").join(target);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("seed-{name}")), bytes).unwrap();
}

/// The first `count` records of a recorded run's log.
fn games(run: &str, count: usize) -> Vec<Value> {
    let text =
        std::fs::read_to_string(root().join("docs/runs").join(run).join("games.jsonl")).unwrap();
    text.lines()
        .take(count)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A recorded Connect-4 game as `(M, N, (noX, noY), columns)`.
fn connect4_game(record: &Value) -> (i32, i32, (i32, i32), Vec<i32>) {
    let b = &record["board"];
    let int = |v: &Value| v.as_i64().unwrap() as i32;
    let moves = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(int)
        .collect();
    (
        int(&b["M"]),
        int(&b["N"]),
        (int(&b["noX"]), int(&b["noY"])),
        moves,
    )
}

/// The position after the first `plies` columns of a game.
fn after(m: i32, n: i32, no: (i32, i32), columns: &[i32]) -> Game {
    let mut game = Game::new(m, n, no);
    for &c in columns {
        assert!(game.drop(c));
    }
    game
}

fn get_point() {
    let t = "get_point";
    // tests/bad_input.rs: a quiet 9x9 mid-game blocked at (5, 4), and what goes wrong.
    let mid = after(9, 9, (5, 4), &[4, 4, 3, 5, 4, 4, 2, 6, 0, 8]).call();
    let with = |f: &dyn Fn(&mut Call)| {
        let mut c = mid.clone();
        f(&mut c);
        c.encode()
    };
    write(t, "midgame", &mid.encode());
    write(t, "null-top", &with(&|c| c.top = None));
    write(t, "null-board", &with(&|c| c.board = None));
    for (m, n) in [
        (3, 9),
        (13, 9),
        (0, 0),
        (9, -7),
        (i32::MIN, 9),
        (9, i32::MAX),
    ] {
        let c = Call {
            m,
            n,
            top: Some(vec![9]),
            board: Some(vec![0]),
            last: (-1, -1),
            no: (0, 0),
            classic: false,
            small_tree: false,
        };
        write(t, &format!("size-{m}x{n}"), &c.encode());
    }
    for (m, n) in [(4, 4), (12, 12)] {
        write(
            t,
            &format!("empty-{m}x{n}"),
            &after(m, n, (m - 1, 0), &[]).call().encode(),
        );
    }
    for bad in [10, -1, i32::MIN] {
        write(
            t,
            &format!("top3-{bad}"),
            &with(&|c| c.top.as_mut().unwrap()[3] = bad),
        );
    }
    write(t, "every-top-10", &with(&|c| c.top = Some(vec![10; 9])));
    write(
        t,
        "top-disagrees",
        &with(&|c| c.top.as_mut().unwrap()[0] = 9),
    );
    write(
        t,
        "only-top-blocked",
        &with(&|c| {
            let mut top = vec![0; 9];
            top[4] = 6;
            c.top = Some(top);
        }),
    );
    for (cell, value) in [(0, 3), (44, i32::MIN)] {
        write(
            t,
            &format!("board{cell}-{value}"),
            &with(&|c| c.board.as_mut().unwrap()[cell] = value),
        );
    }
    write(
        t,
        "stone-on-blocked",
        &with(&|c| c.board.as_mut().unwrap()[5 * 9 + 4] = 1),
    );
    for no in [(-1, -1), (9, 4)] {
        write(
            t,
            &format!("blocked-{}-{}", no.0, no.1),
            &with(&|c| c.no = no),
        );
    }
    write(t, "last-99-99", &with(&|c| c.last = (99, 99)));
    let four = after(9, 9, (0, 0), &[0, 0, 1, 1, 2, 2, 3]).call();
    write(t, "four-already", &four.encode());
    // Recorded games (docs/runs): mid-game, the move before the last, and a full board's
    // last empty cell.
    for (run, k) in [
        ("22-last-good-reply-200", 0),
        ("ladder-2000-seed2042", 3),
        ("28-ppa-pairs-200", 5),
    ] {
        let (m, n, no, moves) = connect4_game(&games(run, k + 1)[k]);
        let name = format!("{run}-{k}");
        write(
            t,
            &format!("{name}-mid"),
            &after(m, n, no, &moves[..moves.len() / 2]).call().encode(),
        );
        write(
            t,
            &format!("{name}-last"),
            &after(m, n, no, &moves[..moves.len() - 1]).call().encode(),
        );
    }
    let text = std::fs::read_to_string(root().join("docs/runs/22-last-good-reply-200/games.jsonl"))
        .unwrap();
    let full = text
        .lines()
        .find(|l| l.contains(r#""termination":"full""#))
        .unwrap();
    let (m, n, no, moves) = connect4_game(&serde_json::from_str(full).unwrap());
    write(
        t,
        "full-last-cell",
        &after(m, n, no, &moves[..moves.len() - 1]).call().encode(),
    );
}

/// A recorded Reversi game: its rule, opening and moves, in Othello notation.
fn reversi_game(record: &Value) -> (Rule, Vec<String>) {
    let b = &record["board"];
    let rule = Rule::parse(b["rule"].as_str().unwrap()).unwrap();
    let opening = b["moves"].as_str().unwrap();
    let mut moves: Vec<String> = (0..opening.len() / 2)
        .map(|k| opening[2 * k..2 * k + 2].to_string())
        .collect();
    moves.extend(
        record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string()),
    );
    (rule, moves)
}

fn colour(ply: usize) -> &'static str {
    if ply.is_multiple_of(2) {
        "black"
    } else {
        "white"
    }
}

/// What the judge sends a GTP engine that plays on after `plies` moves of a game, then
/// asks for the next.
fn gtp_session(moves: &[String], plies: usize) -> String {
    let mut s = String::from("boardsize 8\nclear_board\n");
    for (ply, mv) in moves[..plies].iter().enumerate() {
        s += &format!("play {} {mv}\n", colour(ply));
    }
    let me = colour(plies);
    s += &format!("time_settings 0 6 1\ntime_left {me} 6 1\ngenmove {me}\n");
    s
}

/// A settings byte and the text, as the Reversi targets read them.
fn with_flags(flags: u8, text: &str) -> Vec<u8> {
    let mut out = vec![flags];
    out.extend_from_slice(text.as_bytes());
    out
}

fn player() -> Player {
    Player {
        engine: Profile::Strong.engine(Some(1), 1 << 24, &Tuning::default()),
        move_ms: 20,
        log: false,
    }
}

/// The Botzone input of the side to move after `plies` moves: requests and responses.
fn botzone_input(moves: &[String], plies: usize, extra: Value) -> String {
    let me = plies % 2;
    let cell = |mv: &str| match mv {
        "pass" => json!({"x": -1, "y": -1}),
        sq => {
            let b = sq.as_bytes();
            json!({"x": b[0] - b'a', "y": b[1] - b'1'})
        }
    };
    let mut requests = Vec::new();
    let mut responses = Vec::new();
    if me == 0 {
        requests.push(json!({"x": -1, "y": -1}));
    }
    for (ply, mv) in moves[..plies].iter().enumerate() {
        if ply % 2 == me {
            responses.push(cell(mv));
        } else {
            requests.push(cell(mv));
        }
    }
    let mut input = json!({"requests": requests, "responses": responses});
    for (k, v) in extra.as_object().unwrap() {
        input[k] = v.clone();
    }
    input.to_string() + "\n"
}

fn reversi() {
    let standard = games("reversi-standard-5000-seed2112", 1);
    let no_adjacent = games("reversi-no-adjacent-5000-seed2113", 1);
    let (_, moves) = reversi_game(&standard[0]);
    let (_, moves_na) = reversi_game(&no_adjacent[0]);
    let pass_at = moves.iter().position(|m| m == "pass").unwrap();

    // GTP: the judge's sessions (an opening, a mid-game, right after a pass, the end), the
    // other commands controllers send, and what our engine answers to each.
    let mut sessions = vec![
        ("opening", 0u8, gtp_session(&moves, 6)),
        ("midgame", 0, gtp_session(&moves, 20)),
        ("after-pass", 0, gtp_session(&moves, pass_at + 1)),
        ("endgame", 2, gtp_session(&moves, moves.len() - 3)),
        ("no-adjacent", 1, gtp_session(&moves_na, 12)),
    ];
    sessions.push((
        "commands",
        0,
        "1 protocol_version\nname\nversion\n# a comment\n\n3 boardsize 8\n4 boardsize 9\n\
         known_command genmove\nlist_commands\nlist_games\nset_game Othello\nkomi 0\n\
         play B d3\nplay white d3\nplay w C5\nshowboard\nundo\nundo\nundo\nfinal_score\n\
         time_settings 0 1 1\ntime_left b 0.5 0\ngenmove b\nfrobnicate\n7\nquit\nname\n"
            .to_string(),
    ));
    for (name, flags, text) in &sessions {
        let input = with_flags(*flags, text);
        write("reversi_gtp", name, &input);
        let mut out = Vec::new();
        Gtp::new(
            if flags & 1 == 1 {
                Rule::NoAdjacent
            } else {
                Rule::Standard
            },
            player(),
        )
        .run(text.as_bytes(), &mut out)
        .unwrap();
        write("judge_gtp", name, &out);
    }
    // gtp-rhino's ways: upper case, ids, `?` to a pass, a multi-line answer.
    let rhino =
        b"=\n\n=\n\n? syntax error\n\n=\n\n= D3\n\n=12 PASS\n\n= \n   a b c d\n1  . . .\n\n";
    write("judge_gtp", "rhino", rhino);
    write("gtp_wire", "rhino-answers", rhino);
    // The shared reader's odd lines: a comment in Latin-1, blanks, CR, an id alone, an id
    // too large, bytes that are not UTF-8, a control character inside a name; then answers.
    write(
        "gtp_wire",
        "odd-lines",
        b"1 name\n\n# comment caf\xe9\n  \t\r\n2 play b D4\n7\n99999999999 x\nn\xc3me\n\
          gen\x01move w # x\n= D3\n\n? illegal move\n\n=3 a\n b \n\n",
    );

    // Botzone: the JSON form (first turns, a mid-game with time limit and data, keep
    // running), and the simplified form, with our bot's answers for the judge's reader.
    let b = "reversi_botzone";
    let mut inputs = vec![
        ("black-first", 0u8, botzone_input(&moves, 0, json!({}))),
        ("white-first", 0, botzone_input(&moves, 1, json!({}))),
        (
            "midgame",
            0,
            botzone_input(
                &moves,
                21,
                json!({"time_limit": "1", "memory_limit": 256, "data": "x", "globaldata": ""}),
            ),
        ),
        (
            "after-pass",
            0,
            botzone_input(&moves, pass_at + 1, json!({"time_limit": 0.5})),
        ),
        (
            "no-adjacent",
            2,
            botzone_input(&moves_na, 12, json!({"time_limit": 1})),
        ),
    ];
    let first = botzone_input(&moves, 0, json!({}));
    inputs.push((
        "keep-running",
        1,
        format!(
            "{first}{{\"x\":2,\"y\":2}}\n{}\n",
            botzone_input(&moves, 0, json!({})).trim()
        ),
    ));
    inputs.push(("simple", 0, "2\n-1 -1\n3 2\n2 2\n\n\n".to_string()));
    inputs.push(("simple-keep-running", 1, "1\n-1 -1\n\n\n2 2\n".to_string()));
    let mut answers = Vec::new();
    for (name, flags, text) in &inputs {
        write(b, name, &with_flags(*flags, text));
        let mut out = Vec::new();
        let rule = if flags & 2 == 2 {
            Rule::NoAdjacent
        } else {
            Rule::Standard
        };
        let _ = botzone::run(
            text.as_bytes(),
            &mut out,
            &mut player(),
            rule,
            flags & 1 == 1,
        );
        if text.starts_with('{') {
            answers.extend(out);
        }
    }
    answers.extend_from_slice(
        b"{\"response\":{\"x\":3,\"y\":2},\"debug\":{\"winrate\":0.5},\"data\":[1,2],\"globaldata\":\"g\"}\n\
          {\"response\":{\"x\":-1,\"y\":-1}}\n{\"response\":{\"x\":9,\"y\":-3}}\n",
    );
    write("judge_botzone", "answers", &answers);
}

/// A Connect-4 game the judge draws from `seed`, played to the end by the first legal
/// move in a rotating order: what a host relays, and what the judge asks it.
fn judge_worker() {
    let game = Connect4;
    for seed in [1u64, 2112] {
        let setup = game.setup(seed);
        let mut position = game.start(&setup);
        let mut frames = seed.to_le_bytes().to_vec();
        frames.push(0);
        write_message(&mut frames, &ChildMessage::Ready).unwrap();
        let mut requests = seed.to_le_bytes().to_vec();
        requests.push(0);
        let mut k = 0;
        while game.end(&position).is_none() {
            let side = game.to_move(&position);
            let spec = position.spec();
            let last = position.last().unwrap_or(Point { x: -1, y: -1 });
            // The first few requests: a whole game's would make a large seed.
            if k < 30 {
                write_request(
                    &mut requests,
                    &MoveRequest {
                        m: spec.m,
                        n: spec.n,
                        top: position.top().to_vec(),
                        board: position.board_for(side).to_vec(),
                        last_x: last.x,
                        last_y: last.y,
                        no_x: spec.no_x,
                        no_y: spec.no_y,
                    },
                )
                .unwrap();
            }
            let moves = game.legal_moves(&position);
            let p = moves[k % moves.len()];
            k += 3;
            let message = ChildMessage::Point {
                x: p.x,
                y: p.y,
                cpu_ns: 1_500_000 + k as u64,
            };
            write_message(&mut frames, &message).unwrap();
            game.play(&mut position, p);
        }
        write_message(&mut frames, &ChildMessage::Null { cpu_ns: 7 }).unwrap();
        write("judge_worker", &format!("game-{seed}"), &frames);
        write("judge_worker", &format!("requests-{seed}"), &requests);
    }
    let mut load = vec![0; 9];
    for text in [
        "libfoo.so: cannot open shared object file: No such file or directory",
        "missing symbol clearPoint: undefined symbol: clearPoint",
    ] {
        write_message(&mut load, &ChildMessage::LoadError(text.into())).unwrap();
    }
    write("judge_worker", "load-errors", &load);
}

/// `run.json` and the first `count` lines of `games.jsonl` of a recorded run.
fn run_files(run: &str, count: usize) -> (String, Vec<String>) {
    let dir = root().join("docs/runs").join(run);
    let info = std::fs::read_to_string(dir.join("run.json")).unwrap();
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    (info, text.lines().take(count).map(str::to_owned).collect())
}

fn judge_files() {
    let t = "judge_files";
    let join = |parts: &[String]| parts.join("\0").into_bytes();
    for (name, run) in [
        ("connect4", "ladder-2000-seed2041-rungs-8-9-10"),
        ("reversi", "reversi-no-adjacent-5000-seed2113"),
    ] {
        let (info, lines) = run_files(run, 4);
        write(t, name, &join(&[info, lines.join("\n") + "\n"]));
    }
    // A stopped run: a torn last line and a board with one game.
    let (info, lines) = run_files("28-ppa-pairs-200", 3);
    let torn = format!("{}\n{}", lines.join("\n"), &lines[0][..40]);
    write(t, "stopped", &join(&[info, torn]));
    // Two shards of one run, each with its boards' games (run.json says which).
    let (info, lines) = run_files("ladder-2000-seed2041-rungs-8-9-10", 12);
    let mut value: Value = serde_json::from_str(&info).unwrap();
    let run: RunInfo = serde_json::from_str(&info).unwrap();
    let pairings = run.mode.pairings(run.players.len()).len();
    let mut parts = Vec::new();
    for index in 1..=2 {
        let shard = Shard::new(index, 2).unwrap();
        value["shard"] = json!(shard.to_string());
        let owned: Vec<&String> = lines
            .iter()
            .filter(|l| {
                let r: Value = serde_json::from_str(l).unwrap();
                let (pairing, pair) = (r["pairing"].as_u64().unwrap(), r["pair"].as_u64().unwrap());
                shard.owns(pairing as usize, pair as u32, pairings)
            })
            .take(4)
            .collect();
        parts.push(serde_json::to_string_pretty(&value).unwrap());
        parts.push(owned.iter().map(|l| format!("{l}\n")).collect());
    }
    write(t, "shards", &join(&parts));
    // Two runs of the same players pooled.
    let (info_a, a) = run_files("full-vs-d600866-lgr", 2);
    let (info_b, b) = run_files("full-vs-d600866-lgr-2205", 2);
    write(
        t,
        "pooled",
        &join(&[info_a, a.join("\n"), info_b, b.join("\n")]),
    );
}

/// What the platform sends the Saiblo program in `form` over a game on `spec`, the
/// program (as the target runs it) answering and the opponent playing the first open
/// column of `columns` (a recorded game's) from its turn on; with the program's output
/// (its `ok` first) for the judge's side.
fn saiblo_session(spec: BoardSpec, form: Form, first: bool, columns: &[i32]) -> (String, Vec<u8>) {
    let rules = Connect4;
    let mut position = rules.start(&spec);
    let us = if first { Side::First } else { Side::Second };
    let mut input = format!("{} {} {} {}\n", spec.m, spec.n, spec.no_x, spec.no_y);
    let mut output = Vec::new();
    let mut columns = columns.iter().cycle();
    let tell = |position: &Connect4Position| {
        message(
            form,
            position.last(),
            position.top(),
            position.board_for(us),
        )
    };
    while rules.end(&position).is_none() {
        if rules.to_move(&position) == us {
            // The platform waits for the answer: a blank line in the targets' input.
            input += &tell(&position);
            input += "\n";
            session::reset();
            let mut program = Program::new(saiblo_reader::settings(), true);
            output.clear();
            let result = program.play(Input::read_all(input.as_bytes()), &mut output);
            let replies = saiblo_reader::replies(&output[6..]);
            let &(x, y) = replies
                .last()
                .unwrap_or_else(|| panic!("no answer ({result:?}) to {input}"));
            rules.play(
                &mut position,
                Point {
                    x: x as i32,
                    y: y as i32,
                },
            );
        } else {
            let mv = columns
                .by_ref()
                .find_map(|&c| position.drop_point(c))
                .expect("an open column");
            rules.play(&mut position, mv);
        }
    }
    if rules.to_move(&position) == us {
        // The platform tells the program the move that ended the game.
        input += &tell(&position);
    }
    (input, output)
}

fn saiblo() {
    let records = games("22-last-good-reply-200", 2);
    for (k, record) in records.iter().enumerate() {
        let (m, n, (no_x, no_y), columns) = connect4_game(record);
        let spec = BoardSpec { m, n, no_x, no_y };
        for (i, &(scheme, form)) in Form::SCHEMES.iter().enumerate() {
            // Both seats over the nine forms; whole games in a few forms, their first
            // moves (cut where the platform would wait) in the others.
            let (input, output) = saiblo_session(spec, form, (i + k) % 2 == 0, &columns);
            let input = if i % 3 == k {
                input
            } else {
                let cut: String = input.split_inclusive('\n').take(8).collect();
                cut
            };
            write("saiblo_reader", &format!("{scheme}-{k}"), input.as_bytes());
            if i == 0 {
                write("judge_saiblo", &format!("answers-{k}"), &output);
            }
        }
    }
    // saiblo/tests/errors.rs: what the program must refuse, one of each kind.
    for (name, text) in [
        ("bad-size", "3 9 0 0\n"),
        ("blocked-off", "9 9 9 0\n"),
        ("not-integers", "9 9 0 0\nx y\n"),
        ("illegal-move", "9 9 0 0\n3 4\n"),
        ("minus-one-late", "4 4 0 0\n3 1\n-1 -1\n"),
        (
            "contradiction",
            "4 4 0 0\n3 1 4 4 4 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
        ),
        (
            "too-many",
            "4 4 0 0\n-1 -1 4 4 4 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
        ),
        ("cut-view", "4 4 0 0\n-1 -1\n4 4 4 4\n0 0 0\n"),
    ] {
        write("saiblo_reader", name, text.as_bytes());
    }
    let frame = |text: &[u8]| {
        let mut v = (text.len() as u32).to_be_bytes().to_vec();
        v.extend_from_slice(text);
        v
    };
    let mut garbage = frame(b"ok");
    garbage.extend(frame(b"3 4 5"));
    garbage.extend(b"hello\n");
    write("judge_saiblo", "garbage", &garbage);
}

/// The judge's set-up of a Go game and its first `plies` moves, as it sends them to a GTP
/// engine, then a `genmove`.
fn go_gtp_session(record: &GameRecord, plies: usize) -> String {
    let size = record.size;
    let mut s = format!(
        "boardsize {size}\nclear_board\nkomi {}\n",
        record.komi.unwrap_or(7.5)
    );
    let stones: Vec<String> = record
        .setup
        .iter()
        .filter(|(c, _)| *c == GoColor::Black)
        .map(|&(_, p)| format_vertex(GoMove::Play(p), size))
        .collect();
    if !stones.is_empty() {
        s += &format!("set_free_handicap {}\n", stones.join(" "));
    }
    let moves = record.move_list();
    for &(color, mv) in &moves[..plies.min(moves.len())] {
        s += &format!("play {color} {}\n", format_vertex(mv, size));
    }
    let me = moves.get(plies).map_or(GoColor::Black, |&(c, _)| c);
    s += &format!("time_settings 60 5 1\ntime_left {me} 59 0\ngenmove {me}\n");
    s
}

fn go() {
    let dir = root().join("go/tests/sgf");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(file).unwrap();
        write("go_sgf", &name, &bytes);
        let Ok(record) = GameRecord::from_sgf(&bytes) else {
            continue;
        };
        if record.size > 9 && name != "gnugo-printsgf-handicap" {
            continue;
        }
        // The judge's sessions, and our engine's answers to them (what the judge reads).
        let plies = record.move_list().len();
        for (part, at) in [("opening", plies.min(3)), ("late", plies.saturating_sub(2))] {
            let text = go_gtp_session(&record, at);
            write("go_gtp", &format!("{name}-{part}"), text.as_bytes());
            let mut out = Vec::new();
            Session::new(&go_settings())
                .run(text.as_bytes(), &mut out)
                .unwrap();
            write("judge_gtp", &format!("go-{name}-{part}"), &out);
        }
    }
    let commands = "1 protocol_version\nname\nversion\n# a comment\n\n3 boardsize 7\n\
                    4 boardsize 30\nknown_command genmove\nlist_commands\nkomi 6.5\n\
                    fixed_handicap 2\nplay B d4\nplay white d4\nplay w C5\nshowboard\nundo\n\
                    reg_genmove b\nkgs-genmove_cleanup w\nfinal_status_list dead\nfinal_score\n\
                    printsgf\nfrobnicate\n7\nquit\nname\n";
    write("go_gtp", "commands", commands.as_bytes());
    let mut out = Vec::new();
    Session::new(&go_settings())
        .run(commands.as_bytes(), &mut out)
        .unwrap();
    write("judge_gtp", "go-commands", &out);
    // The shared wire layer: the same commands read, the answers read back.
    write("gtp_wire", "go-commands", commands.as_bytes());
    write("gtp_wire", "go-answers", &out);

    // GMP: what our engine as Black sends its opponent over a 9x9 game (GNU Go's side of
    // the wire is the same protocol), read by our engine as White; and by one as Black.
    for (name, size, head) in [("white-9x9", 9usize, 1u8), ("white-5x5", 5, 3)] {
        let (to_white, from_black) = std::io::pipe().unwrap();
        let (to_black, from_white) = std::io::pipe().unwrap();
        let mut config = GmpConfig::new(size, GoColor::Black);
        config.newgame_wait = Duration::ZERO;
        config.linger = Duration::from_millis(200);
        let black = std::thread::spawn(move || {
            let mut player = GoPlayer::new(&go_settings(), size, 7.5).unwrap();
            let mut sent = Vec::new();
            let tee = Tee(from_black, &mut sent);
            let _ = play_game(to_black, tee, &config, &mut player);
            sent
        });
        let mut config = GmpConfig::new(size, GoColor::White);
        config.linger = Duration::from_millis(200);
        let mut player = GoPlayer::new(&go_settings(), size, 7.5).unwrap();
        let white = play_game(to_white, from_white, &config, &mut player);
        let sent = black.join().unwrap();
        println!(
            "gmp {name}: {} bytes, white: {:?}",
            sent.len(),
            white.map(|o| o.moves.len())
        );
        let mut input = vec![head];
        input.extend(sent);
        write("go_gmp", name, &input);
    }
}

/// A writer that keeps a copy of what it writes.
struct Tee<'a, W>(W, &'a mut Vec<u8>);

impl<W: std::io::Write> std::io::Write for Tee<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(bytes)?;
        self.1.extend_from_slice(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// The Go engine's settings in the targets (a fixed playout count and seed).
fn go_settings() -> go_engine::settings::Settings {
    let mut settings = go_engine::settings::Settings::from_vars(|_| None).unwrap();
    settings.playouts = Some(gravity4_fuzzing::go_gtp::PLAYOUTS);
    settings.config.seed = Some(38);
    settings
}

/// Every group of seeds, or those named on the command line (`-- saiblo go`).
fn main() {
    let groups: [(&str, fn()); 6] = [
        ("get_point", get_point),
        ("reversi", reversi),
        ("judge_worker", judge_worker),
        ("judge_files", judge_files),
        ("saiblo", saiblo),
        ("go", go),
    ];
    let named: Vec<String> = std::env::args().skip(1).collect();
    for (name, group) in groups {
        if named.is_empty() || named.iter().any(|n| n == name) {
            group();
        }
    }
}
