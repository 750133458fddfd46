//! The GTP wire layer end to end: a controller's byte stream read into commands and answered
//! with formatted responses; any bytes at all read without a panic; and, with GNU Go 3.8,
//! its vertices read back through our conversion and an SGF we wrote loaded by its
//! `loadsgf` (skipped, saying so, when GNU Go is not installed, except under `CI=true`, where
//! they fail).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command as Process, Stdio};

use go_engine::gtp::{
    CommandReader, GtpError, format_error, format_response, format_vertex, parse_command,
    parse_vertex,
};
use go_engine::point::{Color, Move, Point};
use go_engine::sgf::record::{GameRecord, RecordedMove};
use proptest::prelude::*;
use testkit::partner::{GNUGO, gnugo_missing};

/// Answers every command with its name and arguments, the way a dispatcher would use the
/// wire layer: read, answer, skip blank lines, answer unreadable ones with `?`.
fn answer_all(input: &[u8]) -> String {
    let mut reader = CommandReader::new(input);
    let mut out = String::new();
    while let Some(result) = reader.read_command().unwrap() {
        match result {
            Ok(c) if c.name == "fail" => out.push_str(&format_response(c.id, Err("failed"))),
            Ok(c) => {
                let text = std::iter::once(c.name.as_str())
                    .chain(c.args.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
                out.push_str(&format_response(c.id, Ok(&text)));
            }
            Err(e) => out.push_str(&format_error(&e).expect("blank lines are skipped")),
        }
    }
    out
}

#[test]
fn a_session_reads_and_answers_in_order() {
    let input = b"1 protocol_version\n\
        \n\
        # a comment line\n\
        2 name # a trailing comment\n\
        \tplay\tblack\tD4\r\n\
        3 fail\n\
        4\n\
        5 play white \xff\xfe\n\
        list_commands";
    assert_eq!(
        answer_all(input),
        "=1 protocol_version\n\n\
         =2 name\n\n\
         = play black D4\n\n\
         ?3 failed\n\n\
         ?4 syntax error: no command\n\n\
         ?5 syntax error: invalid UTF-8\n\n\
         = list_commands\n\n"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_bytes_are_read_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut reader = CommandReader::new(&bytes[..]);
        let mut lines = 0;
        while let Some(result) = reader.read_command().unwrap() {
            lines += 1;
            match result {
                Ok(c) => prop_assert!(!c.name.is_empty()),
                Err(e) => prop_assert!(!e.is_blank()),
            }
        }
        prop_assert!(lines <= bytes.iter().filter(|&&b| b == b'\n').count() + 1);
        let _ = parse_command(&bytes);
    }

    #[test]
    fn command_like_lines_are_read_without_panicking(words in proptest::collection::vec(
        prop::sample::select(vec![
            "1", "007", "2147483648", "play", "genmove", "b", "WHITE", "D4", "pass", "#", " ",
            "\t", "\r", "\x00", "\x7f", "\u{e9}", "\u{2028}",
        ]),
        0..12,
    )) {
        let line = words.concat();
        if let Err(e) = parse_command(line.as_bytes()) {
            prop_assert_eq!(format_error(&e).is_none(), e.is_blank());
        }
    }

    #[test]
    fn responses_end_with_the_only_empty_line(text in ".{0,80}", id in proptest::option::of(0u32..1000)) {
        for result in [Ok(text.as_str()), Err(text.as_str())] {
            let response = format_response(id, result);
            prop_assert!(response.ends_with("\n\n"));
            prop_assert!(!response[..response.len() - 2].contains("\n\n"), "{:?}", response);
            prop_assert!(!response.contains('\t') && !response.contains('\r'));
        }
    }

    #[test]
    fn vertices_parse_or_fail_cleanly(text in "[a-zA-Z]?[0-9+-]{0,4}|pass|PASS", size in 1usize..30) {
        match parse_vertex(&text, size) {
            Ok(Move::Play(p)) => {
                prop_assert!(p.on_board(size));
                prop_assert!(format_vertex(Move::Play(p), size).eq_ignore_ascii_case(&text)
                    || text.len() > 2 && text.as_bytes()[1] == b'0');
            }
            Ok(mv) => prop_assert_eq!(mv, Move::Pass),
            Err(e) => prop_assert_eq!(e, GtpError::InvalidVertex(text.clone())),
        }
    }
}

/// Sends `script` to `gnugo --mode gtp` and returns its responses (text after `= `).
fn gnugo_gtp(script: &str) -> Vec<String> {
    let mut child = Process::new(GNUGO)
        .args(["--mode", "gtp", "--level", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("GNU Go starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split("\n\n")
        .filter(|r| !r.is_empty())
        .map(|r| {
            assert!(r.starts_with('='), "GNU Go failed: {r}");
            r[1..].trim().to_string()
        })
        .collect()
}

fn vertices(text: &str, size: usize) -> BTreeSet<Point> {
    text.split_whitespace()
        .map(|v| match parse_vertex(v, size) {
            Ok(Move::Play(p)) => p,
            other => panic!("{v}: {other:?}"),
        })
        .collect()
}

#[test]
fn gnu_go_s_vertices_are_where_we_read_them() {
    if gnugo_missing() {
        return;
    }
    let answers = gnugo_gtp("boardsize 19\nfixed_handicap 4\nboardsize 9\nfixed_handicap 2\n");
    // The 4-4 points of 19x19 (D4 D16 Q4 Q16): x and y from the top-left at 3 and 15.
    let corners = [(3, 3), (15, 3), (3, 15), (15, 15)].map(|(x, y)| Point::new(x, y));
    assert_eq!(vertices(&answers[1], 19), BTreeSet::from(corners));
    // 9x9's handicap 2: C3 (lower left, x 2, y 6 from the top) and G7.
    let pair = [Point::new(2, 6), Point::new(6, 2)];
    assert_eq!(vertices(&answers[3], 9), BTreeSet::from(pair));
}

#[test]
fn gnu_go_loads_the_sgf_we_write() {
    if gnugo_missing() {
        return;
    }
    for size in [9, 19] {
        let mut game = GameRecord::new(size);
        game.komi = Some(7.5);
        game.handicap = 2;
        let (lo, hi) = (2, size - 3);
        game.setup = vec![
            (Color::Black, Point::new(lo, hi)),
            (Color::Black, Point::new(hi, lo)),
        ];
        game.to_play = Some(Color::White);
        let moves = [
            (Color::White, Move::Play(Point::new(lo, lo))),
            (Color::Black, Move::Pass),
            (Color::White, Move::Play(Point::new(hi, hi))),
            (Color::Black, Move::Play(Point::new(size / 2, size / 2))),
            (Color::White, Move::Pass),
        ];
        game.moves = moves
            .iter()
            .map(|&(color, mv)| RecordedMove {
                color,
                mv,
                comment: Some("playouts 100; win [0.5]; pv \\ D4 pass".into()),
            })
            .collect();
        game.comment = Some("written by go-engine's tests".into());
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("gtp-load-{size}-{}.sgf", std::process::id()));
        std::fs::write(&path, game.to_sgf()).unwrap();
        let answers = gnugo_gtp(&format!(
            "loadsgf {}\nlist_stones black\nlist_stones white\n",
            path.display()
        ));
        let _ = std::fs::remove_file(&path);
        // After White's pass, Black is to move.
        assert_eq!(answers[0], "black", "{size}x{size}");
        let stones = |color: Color| -> BTreeSet<Point> {
            game.setup
                .iter()
                .filter(|&&(c, _)| c == color)
                .map(|&(_, p)| p)
                .chain(game.moves.iter().filter_map(|m| match m.mv {
                    Move::Play(p) if m.color == color => Some(p),
                    _ => None,
                }))
                .collect()
        };
        assert_eq!(vertices(&answers[1], size), stones(Color::Black), "{size}");
        assert_eq!(vertices(&answers[2], size), stones(Color::White), "{size}");
    }
}
