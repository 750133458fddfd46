//! `go-engine` as a program over pipes: every GTP command it lists, each answer's form, and
//! garbage (random bytes, invalid UTF-8, huge lines, unknown commands, wrong argument counts,
//! illegal moves, superko, moves after two passes) that must be answered with `?` while the
//! engine goes on. Also the settings' errors (one line, exit status 2).

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::ENGINE;
use go_engine::gtp::{GtpError, KNOWN_COMMANDS, is_known_command, parse_command, parse_vertex};
use go_engine::point::Move;
use go_engine::sgf::record::GameRecord;
use testkit::process::GtpProcess;

fn engine() -> GtpProcess {
    // A fixed small budget keeps the test fast; resignation off keeps genmove a vertex.
    GtpProcess::start_with_env(
        "go-engine",
        ENGINE,
        &["gtp", "--move-ms", "30", "--sgf-stats"],
        &[("GO_RESIGN", "0")],
    )
}

fn temp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()))
}

/// A vertex on a `size` board (not `pass`).
#[track_caller]
fn assert_vertex(text: &str, size: usize) {
    assert!(
        matches!(parse_vertex(text, size), Ok(Move::Play(_))),
        "not a vertex on {size}x{size}: {text:?}"
    );
}

/// `B+n`, `W+n` or `0`.
#[track_caller]
fn assert_result(text: &str) {
    let ok = text == "0"
        || text
            .strip_prefix("B+")
            .or_else(|| text.strip_prefix("W+"))
            .is_some_and(|n| n.parse::<f64>().is_ok_and(|x| x > 0.0));
    assert!(ok, "not a result: {text:?}");
}

/// Checks the form of a raw response: `=` or `?`, an optional id, then a space and text or
/// nothing, no empty line inside; returns (success, id, text).
#[track_caller]
fn parse_response(raw: &str) -> (bool, Option<u32>, String) {
    let ok = match raw.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => panic!("bad status in {raw:?}"),
    };
    let first = raw.lines().next().unwrap();
    let digits: String = first[1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let after = &first[1 + digits.len()..];
    assert!(
        after.is_empty() || after.starts_with(' '),
        "bad status line {first:?}"
    );
    assert!(!raw.contains("\n\n") && !raw.contains('\r') && !raw.contains('\t'));
    let id = (!digits.is_empty()).then(|| digits.parse().unwrap());
    (ok, id, raw[1 + digits.len()..].trim().to_string())
}

#[test]
fn every_listed_command_answers_in_its_form() {
    let mut e = engine();
    // The administrative commands, with ids echoed.
    e.send_raw(b"7 protocol_version\n");
    assert_eq!(
        parse_response(&e.read_response().unwrap()),
        (true, Some(7), "2".into())
    );
    e.send_raw(b"8 frobnicate\n");
    assert_eq!(
        parse_response(&e.read_response().unwrap()),
        (false, Some(8), "unknown command".into())
    );
    assert_eq!(e.ok("name"), "go-engine");
    assert_eq!(e.ok("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(e.ok("known_command genmove"), "true");
    assert_eq!(e.ok("known_command gogui-analyze_commands"), "false");
    let listed: Vec<String> = e.ok("list_commands").lines().map(str::to_string).collect();
    assert_eq!(listed, KNOWN_COMMANDS);

    // Setting up.
    assert_eq!(e.ask("boardsize 26"), Err("unacceptable size".into()));
    assert_eq!(e.ask("boardsize 1"), Err("unacceptable size".into()));
    e.ok("boardsize 9");
    e.ok("clear_board");
    e.ok("komi 6.5");
    e.ok("komi -3");
    e.ok("komi 7");

    // Moves: play, genmove, reg_genmove, undo.
    e.ok("play black E5");
    assert_eq!(
        e.ask("play white e5"),
        Err("illegal move: E5 is occupied".into())
    );
    let reply = e.ok("genmove w");
    assert_vertex(&reply, 9);
    assert_ne!(reply, "E5");
    let regression = e.ok("reg_genmove b");
    assert_vertex(&regression, 9);
    // reg_genmove played nothing: the point it chose is still free.
    e.ok(&format!("play b {regression}"));
    e.ok("undo");
    let cleanup = e.ok("kgs-genmove_cleanup b");
    assert_vertex(&cleanup, 9);
    e.ok("undo");
    e.ok("undo");
    e.ok("undo");
    assert_eq!(e.ask("undo"), Err("cannot undo".into()));

    // The board and the score.
    e.ok("play b c3");
    e.ok("play w g7");
    let board = e.ok("showboard");
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines.len(), 11, "{board}");
    assert!(lines[0].trim_start().starts_with("A B C D E F G H J"));
    assert!(lines[7].starts_with(" 3  . . X"), "{board}");
    assert!(lines[3].starts_with(" 7  . . . . . . O"), "{board}");
    assert_result(&e.ok("final_score"));
    for status in ["alive", "dead", "seki"] {
        let list = e.ok(&format!("final_status_list {status}"));
        for v in list.split_whitespace() {
            assert_vertex(v, 9);
        }
    }
    let alive = e.ok("final_status_list alive");
    assert!(alive.contains("C3") && alive.contains("G7"), "{alive}");
    assert!(e.ask("final_status_list unknown").is_err());

    // Handicap.
    assert_eq!(e.ask("fixed_handicap 2"), Err("board not empty".into()));
    e.ok("clear_board");
    assert!(
        e.ask("fixed_handicap 10")
            .unwrap_err()
            .starts_with("invalid number of stones")
    );
    assert!(e.ask("fixed_handicap 1").is_err());
    assert_eq!(e.ok("fixed_handicap 2"), "G7 C3");
    e.ok("clear_board");
    let free = e.ok("place_free_handicap 3");
    assert_eq!(free.split_whitespace().count(), 3, "{free}");
    free.split_whitespace().for_each(|v| assert_vertex(v, 9));
    e.ok("clear_board");
    assert_eq!(
        e.ask("set_free_handicap C3 C3"),
        Err("bad vertex list".into())
    );
    assert_eq!(
        e.ask("set_free_handicap C3 pass"),
        Err("bad vertex list".into())
    );
    assert_eq!(
        e.ask("set_free_handicap C3"),
        Err("invalid number of stones: 1".into())
    );
    e.ok("set_free_handicap C3 G7 E5");
    // White moves first after a handicap.
    assert_vertex(&e.ok("genmove white"), 9);

    // Time.
    e.ok("time_settings 300 0 0");
    e.ok("time_settings 0 1 1");
    // 0.6 s left for the period's one stone: the budget is 0.45 s.
    e.ok("time_left white 0.6 1");
    let start = Instant::now();
    assert_vertex(&e.ok("genmove white"), 9);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "the clock is kept"
    );
    e.ok("time_left black 30 0");
    for settings in ["none", "absolute 60", "byoyomi 60 5 3", "canadian 60 30 10"] {
        e.ok(&format!("kgs-time_settings {settings}"));
    }
    for bad in [
        "time_settings 1 2",
        "time_settings a b c",
        "time_left b 30",
        "time_left x 30 0",
        "kgs-time_settings fischer 60 5",
        "kgs-time_settings byoyomi 60",
    ] {
        assert!(e.ask(bad).unwrap_err().starts_with("syntax error"), "{bad}");
    }

    // SGF out and back in.
    e.ok("kgs-time_settings none");
    // Black's move on a point White's two searched moves left free (D4 is a natural one).
    let free = ["d4", "j9", "a9", "j1"];
    assert!(
        free.iter()
            .any(|v| e.ask(&format!("play black {v}")).is_ok())
    );
    let sgf = e.ok("printsgf");
    let record = GameRecord::from_sgf(sgf.as_bytes()).unwrap();
    assert_eq!(record.size, 9);
    assert_eq!(record.komi, Some(7.0));
    assert_eq!(record.handicap, 3);
    assert_eq!(record.moves.len(), 3);
    let stats = record.moves[0].comment.as_deref().unwrap();
    assert!(
        stats.starts_with("playouts ") && stats.contains("\npv "),
        "{stats}"
    );
    assert_eq!(record.moves[2].comment, None, "the controller's move");
    let path = temp("program.sgf");
    e.ok(&format!("printsgf {}", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap().trim(), sgf);
    e.ok("boardsize 13");
    assert_eq!(e.ok(&format!("loadsgf {}", path.display())), "white");
    assert_eq!(e.ok("printsgf"), sgf);
    // The position before move 2: the handicap and White's first move.
    assert_eq!(e.ok(&format!("loadsgf {} 2", path.display())), "black");
    let partial = GameRecord::from_sgf(e.ok("printsgf").as_bytes()).unwrap();
    assert_eq!(partial.moves.len(), 1);
    std::fs::write(&path, "(;GM[1]SZ[9];B[ee];W[ee])").unwrap();
    assert!(
        e.ask(&format!("loadsgf {}", path.display()))
            .unwrap_err()
            .starts_with("cannot load file")
    );
    std::fs::write(&path, "not sgf at all").unwrap();
    assert!(e.ask(&format!("loadsgf {}", path.display())).is_err());
    assert!(e.ask("loadsgf /nonexistent/game.sgf").is_err());
    assert!(e.ask("printsgf /nonexistent/dir/game.sgf").is_err());
    let _ = std::fs::remove_file(&path);
    // The failed loads left the game alone.
    assert_eq!(
        GameRecord::from_sgf(e.ok("printsgf").as_bytes())
            .unwrap()
            .moves
            .len(),
        1
    );

    assert_eq!(e.quit(), Some(0));
}

#[test]
fn illegal_moves_superko_and_play_after_two_passes() {
    let mut e = engine();
    // Simple ko on 5x5.
    e.ok("boardsize 5");
    for mv in [
        "b b5", "w c5", "b a4", "w b4", "b b3", "w d4", "b e1", "w c3", "b c4",
    ] {
        e.ok(&format!("play {mv}"));
    }
    assert_eq!(
        e.ask("play w b4"),
        Err("illegal move: B4 retakes a ko".into())
    );
    // Occupied, suicide, off the board.
    assert!(e.ask("play w b5").unwrap_err().starts_with("illegal move"));
    e.ok("clear_board");
    e.ok("play b a2");
    e.ok("play b b1");
    assert_eq!(
        e.ask("play w a1"),
        Err("illegal move: A1 is suicide".into())
    );
    assert!(e.ask("play w f1").unwrap_err().starts_with("syntax error"));
    assert!(e.ask("play w i1").unwrap_err().starts_with("syntax error"));
    // Positional superko beyond simple ko, on 2x2: Black retakes three stones.
    e.ok("boardsize 2");
    for mv in ["b a2", "w b1", "b b2", "w a1", "b a2", "w b2"] {
        e.ok(&format!("play {mv}"));
    }
    assert_eq!(
        e.ask("play b a2"),
        Err("illegal move: A2 repeats an earlier position (positional superko)".into())
    );
    // The engine does not choose it either.
    let reply = e.ok("genmove b");
    assert_ne!(reply.to_ascii_uppercase(), "A2");
    // Two passes end the game; moves after them are still accepted (as by GNU Go), and the
    // engine still answers.
    e.ok("boardsize 9");
    e.ok("play b e5");
    e.ok("play w pass");
    e.ok("play b pass");
    assert_result(&e.ok("final_score"));
    e.ok("play w c3");
    let after = e.ok("genmove b");
    assert!(
        after == "pass" || parse_vertex(&after, 9).is_ok(),
        "{after}"
    );
    assert_eq!(e.quit(), Some(0));
}

/// A line of random bytes that is no known command (so garbage never quits, writes files
/// or loads them).
fn random_line(state: &mut u64, len: usize) -> Vec<u8> {
    const ALPHABET: &[u8] = b" 0123456789#\t\r\x00\x07\x7f\xff\xc3\xa9abcdeglmnopqrstuvwxyz-+.";
    loop {
        let line: Vec<u8> = (0..len)
            .map(|_| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                if state.is_multiple_of(5) {
                    (*state >> 24) as u8
                } else {
                    ALPHABET[((*state >> 8) % ALPHABET.len() as u64) as usize]
                }
            })
            .filter(|&b| b != b'\n')
            .collect();
        match parse_command(&line) {
            Ok(c) if is_known_command(&c.name) => continue,
            _ => return line,
        }
    }
}

#[test]
fn garbage_is_answered_and_the_engine_goes_on() {
    let mut e = engine();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut input = Vec::new();
    let mut expected = 0;
    for i in 0..3000 {
        let line = random_line(&mut state, i % 40);
        if !matches!(parse_command(&line), Err(GtpError::Blank)) {
            expected += 1;
        }
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    // Lines no reader could keep: 1 MB with and without an id, and a name of invalid UTF-8.
    for prefix in [&b"55 play b "[..], b""] {
        input.extend_from_slice(prefix);
        input.extend(std::iter::repeat_n(b'x', 1 << 20));
        input.push(b'\n');
        expected += 1;
    }
    input.extend_from_slice(b"56 pl\xc3\x28y b e5\n");
    expected += 1;
    // Wrong argument counts and bad arguments for every command that takes some.
    let bad = [
        "protocol_version 1",
        "name x",
        "known_command",
        "list_commands all",
        "boardsize",
        "boardsize 9 9",
        "boardsize -9",
        "clear_board now",
        "komi",
        "komi seven",
        "play",
        "play b",
        "play b e5 e6",
        "play red e5",
        "play b z99",
        "genmove",
        "genmove b w",
        "genmove purple",
        "reg_genmove",
        "kgs-genmove_cleanup",
        "undo 2",
        "showboard all",
        "final_score now",
        "final_status_list",
        "final_status_list alive dead",
        "fixed_handicap",
        "fixed_handicap two",
        "place_free_handicap",
        "set_free_handicap",
        "set_free_handicap z1 a1",
        "time_settings",
        "time_left",
        "kgs-time_settings",
        "loadsgf",
        "loadsgf a 1 2",
        "loadsgf a b",
        "printsgf a b",
        "quit now",
        "Name",
        "GENMOVE b",
        "42",
    ];
    for line in bad {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
        expected += 1;
    }
    let failures = e.send_while_reading(&input, |next| {
        let mut failures = 0;
        for n in 0..expected {
            let raw = next().unwrap_or_else(|| panic!("the engine stopped after {n} responses"));
            let (ok, _, _) = parse_response(&raw);
            failures += usize::from(!ok);
        }
        failures
    });
    // Only the few random lines that happened to be a known command with good arguments
    // could succeed, and none is (known commands are filtered out).
    assert_eq!(failures, expected);
    // Still alive, still in step.
    e.send_raw(b"999 name\n");
    assert_eq!(e.read_response().unwrap(), "=999 go-engine\n");
    assert_eq!(e.ok("boardsize 9"), "");
    assert_vertex(&e.ok("genmove b"), 9);
    assert_eq!(e.quit(), Some(0));
}

#[test]
fn the_end_of_input_ends_the_session_cleanly() {
    let out = Command::new(ENGINE)
        .args(["gtp"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let out = Command::new(ENGINE)
        .args(["gtp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"1 name\nquit\nname\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=1 go-engine\n\n=\n\n"
    );
}

#[test]
fn bad_settings_are_one_line_and_exit_status_2() {
    for (args, env) in [
        (&["gtp", "--move-ms", "0"][..], None),
        (&["gtp", "--threads", "x"], None),
        (&["gtp", "--frobnicate"], None),
        (&["gmp", "--size", "9"], None),
        (&["chess"], None),
        (&["bench", "--seconds", "0"], None),
        (&["bench", "--log"], None),
        (&["gtp"], Some(("GO_MOVE_MS", "soon"))),
        (&["gtp"], Some(("GO_POLICY", "heavier"))),
        (&["gtp"], Some(("GO_RESIGN", "2"))),
    ] {
        let mut command = Command::new(ENGINE);
        command.args(args).stdin(Stdio::null());
        if let Some((k, v)) = env {
            command.env(k, v);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} {env:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?} {env:?}: {err}");
        assert!(err.starts_with("go-engine: "), "{err}");
        assert!(out.stdout.is_empty());
    }
    let out = Command::new(ENGINE).arg("--help").output().unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("go-engine gtp")
    );
}

#[test]
fn bench_prints_every_line_of_its_table() {
    let out = Command::new(ENGINE)
        .args(["bench", "--seconds", "0.05", "--threads", "3"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // The rows: board, then a policy or a thread count, then the figures.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.first().is_some_and(|b| *b == "9x9" || *b == "19x19"))
        .collect();
    let keys: Vec<String> = rows.iter().map(|w| format!("{} {}", w[0], w[1])).collect();
    assert_eq!(
        keys,
        [
            "9x9 light",
            "9x9 heavy",
            "19x19 light",
            "19x19 heavy",
            "9x9 1",
            "9x9 2",
            "9x9 3",
            "19x19 1",
            "19x19 2",
            "19x19 3"
        ],
        "{text}"
    );
    for row in &rows {
        let playouts: u64 = row[2].parse().unwrap();
        let per_cpu: f64 = row[5].parse().unwrap();
        assert!(playouts > 0 && per_cpu > 0.0, "{text}");
    }
    // Every thread count of a size runs the same number of playouts.
    assert_eq!(rows[4][2], rows[6][2], "{text}");
    assert!(text.contains("load average"), "{text}");
}

#[test]
fn self_play_on_an_absolute_clock_never_runs_out() {
    // 3 s for each side's whole game, told once: the engine counts its own time.
    let mut e = engine();
    e.ok("boardsize 9");
    e.ok("time_settings 3 0 0");
    let mut spent = [Duration::ZERO; 2];
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < 200 {
        let side = moves % 2;
        let start = Instant::now();
        let mv = e.ok(["genmove b", "genmove w"][side]);
        spent[side] += start.elapsed();
        passes = if mv == "pass" { passes + 1 } else { 0 };
        moves += 1;
    }
    println!("{moves} moves, time used: {spent:?}");
    assert!(moves > 20, "{moves} moves");
    for (side, t) in spent.iter().enumerate() {
        assert!(*t < Duration::from_secs(3), "side {side} used {t:?} of 3 s");
    }
    assert_eq!(e.quit(), Some(0));
}
