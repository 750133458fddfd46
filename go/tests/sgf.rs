//! The SGF reader and writer on a corpus: hand-written files covering setup stones, handicap,
//! passes, variations, escaped text, a collection and FF[3]-style identifiers, and GNU Go
//! 3.8's own output (`gnugo --benchmark 20 --boardsize 9 --level 1 -o FILE`; GTP
//! `fixed_handicap 2` ... `printsgf FILE`; a GMP game's `-o FILE`), and a game the judge wrote
//! (`DIR/sgf/ID.sgf`). Every file reads, writes and reads back to the same tree; each one's
//! Go content is checked; broken and random input gives errors, never a panic.

use std::fs;
use std::path::{Path, PathBuf};

use go_engine::point::{Color, Move, Point};
use go_engine::sgf::record::{GameRecord, parse_point};
use go_engine::sgf::{self, SgfErrorKind, Value};
use proptest::prelude::*;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sgf")
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn read(name: &str) -> Vec<u8> {
    fs::read(corpus_dir().join(name)).unwrap()
}

fn game(name: &str) -> GameRecord {
    GameRecord::from_sgf(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn p(s: &str) -> Point {
    parse_point(s, 25).unwrap()
}

fn play(color: Color, s: &str) -> (Color, Move) {
    (color, Move::Play(p(s)))
}

use Color::{Black as B, White as W};

#[test]
fn every_corpus_file_round_trips_read_write_read() {
    let files = corpus();
    assert!(files.len() >= 10, "the corpus is missing files: {files:?}");
    for (name, bytes) in files {
        let trees = sgf::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = sgf::write_collection(&trees);
        let again = sgf::parse(written.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again, trees, "{name} changed through write:\n{written}");
        // Writing is a function of the tree: the second writing is the first.
        assert_eq!(sgf::write_collection(&again), written, "{name}");
        // The Go game survives too (every file of the corpus is Go).
        let record = GameRecord::from_tree(&trees[0]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rebuilt = GameRecord::from_sgf(record.to_sgf().as_bytes()).unwrap();
        assert_eq!(rebuilt, record, "{name} as a record");
    }
}

#[test]
fn setup_stones_and_the_player_to_move() {
    let g = game("setup.sgf");
    assert_eq!(g.size, 9);
    let black: Vec<Point> = ["ba", "ca", "da", "ab", "bb", "cb"].map(p).to_vec();
    // AW[ac:dc] is the rectangle ac..dc; AE[ac] then clears ac.
    let white: Vec<Point> = ["ea", "db", "eb", "bc", "cc", "dc"].map(p).to_vec();
    let of = |c: Color| -> Vec<Point> {
        g.setup
            .iter()
            .filter(|&&(k, _)| k == c)
            .map(|&(_, q)| q)
            .collect()
    };
    assert_eq!(of(B), black);
    assert_eq!(of(W), white);
    assert_eq!(g.to_play, Some(B));
    assert_eq!(g.comment.as_deref(), Some("Black to play and live."));
    assert_eq!(g.move_list(), [play(B, "aa"), play(W, "ac"), play(B, "ea")]);
    assert_eq!(g.moves[0].comment.as_deref(), Some("Correct."));
}

#[test]
fn handicap_komi_and_game_information() {
    let g = game("handicap.sgf");
    assert_eq!((g.size, g.handicap, g.komi), (19, 4, Some(0.5)));
    assert_eq!(g.setup, ["dd", "pd", "dp", "pp"].map(|s| (B, p(s))));
    assert_eq!(g.rules.as_deref(), Some("Chinese"));
    assert_eq!(g.black_player.as_deref(), Some("Kuro"));
    assert_eq!(g.white_player.as_deref(), Some("Shiro"));
    assert_eq!(g.date.as_deref(), Some("2023-04-01"));
    assert_eq!(g.result.as_deref(), Some("W+12.5"));
    assert_eq!(g.moves.len(), 11);
    assert_eq!(g.move_list()[..2], [play(W, "qf"), play(B, "nc")]);
}

#[test]
fn passes_empty_and_tt() {
    let g = game("passes.sgf");
    assert_eq!(
        g.move_list(),
        [
            play(B, "cc"),
            (W, Move::Pass),
            play(B, "bc"),
            (W, Move::Pass),
            (B, Move::Pass),
            play(W, "dd"),
            (B, Move::Pass),
            (W, Move::Pass),
        ]
    );
    // Written back, every pass is FF[4]'s empty value.
    let written = g.to_sgf();
    assert!(
        !written.contains("[tt]") && written.matches("[]").count() == 5,
        "{written}"
    );
}

#[test]
fn variations_are_kept_and_play_follows_the_main_line() {
    let trees = sgf::parse(&read("variations.sgf")).unwrap();
    let tree = &trees[0];
    assert_eq!(tree.len(), 14);
    let mv = |id| {
        let node = tree.node(id);
        node.value("B")
            .or_else(|| node.value("W"))
            .map(|v| v.raw().to_string())
    };
    let first = tree.children(tree.root())[0];
    let answers: Vec<_> = tree.children(first).iter().map(|&id| mv(id)).collect();
    assert_eq!(
        answers,
        [Some("cc".into()), Some("gg".into()), Some("ge".into())]
    );
    let g = GameRecord::from_tree(tree).unwrap();
    assert_eq!(
        g.move_list(),
        [
            play(B, "ee"),
            play(W, "cc"),
            play(B, "gg"),
            play(W, "cg"),
            play(B, "gc")
        ]
    );
}

#[test]
fn escaped_text_and_soft_line_breaks_decode() {
    let trees = sgf::parse(&read("escaped.sgf")).unwrap();
    let root = trees[0].node(trees[0].root());
    let text = |id: &str| root.value(id).unwrap().simple_text();
    assert_eq!(text("GN"), "Escapes: brackets ] and backslashes \\");
    assert_eq!(text("PB"), "Ren\u{e9} ] the \\ first");
    assert_eq!(text("PW"), "Line breaks become spaces in SimpleText");
    assert_eq!(
        root.value("C").unwrap().text(),
        "A closing bracket ] inside,\na backslash \\ inside,\ntab here, a soft line break, \
         and a colon : unescaped."
    );
    let (app, version) = root.value("AP").unwrap().compose().unwrap();
    assert_eq!(
        (app.simple_text(), version.simple_text()),
        ("my:app".into(), "1.0]beta".into())
    );
    let g = GameRecord::from_tree(&trees[0]).unwrap();
    assert_eq!(
        g.moves[0].comment.as_deref(),
        Some("caf\u{e9} \u{2014} UTF-8 text soft break after CRLF")
    );
    assert_eq!(g.moves[1].comment.as_deref(), Some("\\"));
    // Text decoded and encoded again is the same text.
    for value in root.properties.iter().flat_map(|p| p.values.iter()) {
        let decoded = value.text();
        assert_eq!(Value::from_text(&decoded).text(), decoded);
    }
}

#[test]
fn a_collection_keeps_both_games_and_plays_the_first() {
    let trees = sgf::parse(&read("collection.sgf")).unwrap();
    assert_eq!(trees.len(), 2);
    let first = game("collection.sgf");
    assert_eq!(
        (first.size, first.komi, first.moves.len()),
        (9, Some(6.5), 3)
    );
    let second = GameRecord::from_tree(&trees[1]).unwrap();
    assert_eq!((second.size, second.handicap), (13, 2));
    assert_eq!(second.move_list(), [play(W, "gg"), play(B, "jj")]);
}

#[test]
fn ff3_lowercase_identifiers_read_as_their_capitals() {
    let trees = sgf::parse(&read("ff3-lowercase.sgf")).unwrap();
    let root = trees[0].node(trees[0].root());
    let idents: Vec<&str> = root.properties.iter().map(|p| p.ident.as_str()).collect();
    assert_eq!(idents, ["GM", "FF", "SZ", "K", "PB", "PW", "AB", "AW"]);
    let g = game("ff3-lowercase.sgf");
    assert_eq!(g.black_player.as_deref(), Some("Old"));
    assert_eq!(g.setup, [(B, p("pd")), (W, p("dp"))]);
    assert_eq!(
        g.move_list(),
        [
            play(W, "dd"),
            play(B, "pp"),
            (W, Move::Pass),
            play(B, "qc"),
            (W, Move::Pass)
        ]
    );
    assert_eq!(
        g.moves[4].comment.as_deref(),
        Some("Both passes styles in one FF[3] file.")
    );
}

#[test]
fn gnu_go_output_loads() {
    let g = game("gnugo-benchmark-9x9.sgf");
    assert_eq!((g.size, g.komi, g.handicap), (9, Some(5.5), 0));
    assert_eq!(g.rules.as_deref(), Some("Japanese"));
    assert_eq!(g.result.as_deref(), Some("W+6.7"));
    assert_eq!(g.moves.len(), 30);
    assert!(
        g.moves.iter().enumerate().all(
            |(i, m)| m.color == if i % 2 == 0 { B } else { W } && matches!(m.mv, Move::Play(_))
        )
    );
    assert_eq!(g.moves[0].comment.as_deref(), Some("random move"));
    assert_eq!(g.move_list()[0], play(B, "fc"));

    // From two GNU Gos playing each other over GMP (the --mode gmp side's file):
    // gnugo --mode gmp --color black --chinese-rules --level 1 -o FILE, its stdin and stdout
    // piped to gnugo --mode sgmp --color white --boardsize 9 --komi 7 --chinese-rules ...
    let g = game("gnugo-gmp-9x9.sgf");
    assert_eq!(
        (g.size, g.komi, g.rules.as_deref()),
        (9, Some(5.5), Some("Chinese"))
    );
    assert_eq!(g.moves.len(), 37);
    assert_eq!(
        g.moves[35..].iter().map(|m| m.mv).collect::<Vec<_>>(),
        [Move::Pass; 2]
    );
    assert_eq!(g.result.as_deref(), Some("B+15.5"));

    let g = game("gnugo-printsgf-handicap.sgf");
    assert_eq!((g.size, g.komi, g.handicap), (9, Some(7.0), 2));
    assert_eq!(g.setup.len(), 5);
    assert_eq!(g.to_play, Some(W));
    assert!(g.moves.is_empty());
}

#[test]
fn a_judge_game_replays_to_its_result() {
    // Game 0-1-0 of the first 9x9 strength run (scripts/go-strength.sh 9): go-engine at 5 s
    // a move against GNU Go level 10, komi 7, the judge's 4-move opening, two passes.
    let g = game("judge-9x9-komi7.sgf");
    assert_eq!((g.size, g.komi, g.handicap), (9, Some(7.0), 0));
    assert_eq!(g.rules.as_deref(), Some("Chinese"));
    assert_eq!(g.result.as_deref(), Some("B+2"));
    assert_eq!(g.moves.len(), 49);
    assert_eq!(&g.move_list()[..2], [play(B, "be"), play(W, "eh")]);
    let mut game = go_engine::game::Game::new(g.size, g.komi.unwrap()).unwrap();
    for (color, mv) in g.move_list() {
        game.play(color, mv).expect("the judge's moves are legal");
    }
    assert!(game.is_over());
    assert_eq!(game.score(), 2.0, "Tromp-Taylor: Black by 2");
}

#[test]
fn broken_files_are_errors_at_their_offsets() {
    let cases: &[(&str, usize, SgfErrorKind)] = &[
        ("", 0, SgfErrorKind::NoGameTree),
        ("GM[1]SZ[9]", 0, SgfErrorKind::NoGameTree),
        ("(;GM[1]SZ[9];B[aa]", 0, SgfErrorKind::UnclosedTree),
        ("(;GM[1]C[unfinished", 8, SgfErrorKind::UnterminatedValue),
        (
            "(;GM[1]C[escaped end\\])",
            8,
            SgfErrorKind::UnterminatedValue,
        ),
        ("(;GM[1];B)", 9, SgfErrorKind::MissingValue),
        ("(;GM[1];b[aa])", 8, SgfErrorKind::LowercaseIdent),
        ("(;GM[1]();B[aa])", 7, SgfErrorKind::EmptySequence),
        (
            "(;GM[1](;B[aa])(;B[bb]);W[cc])",
            23,
            SgfErrorKind::NodeAfterVariation,
        ),
        (
            "(;GM[1] ;B[aa] =[bb])",
            15,
            SgfErrorKind::Unexpected {
                found: b'=',
                expected: "';', '(' or ')'",
            },
        ),
    ];
    for (text, offset, kind) in cases {
        let e = sgf::parse(text.as_bytes()).unwrap_err();
        assert_eq!((&e.offset, &e.kind), (offset, kind), "{text:?}: {e}");
    }
}

#[test]
fn every_prefix_of_the_corpus_reads_or_fails_cleanly() {
    for (name, bytes) in corpus() {
        for end in 0..bytes.len() {
            if let Ok(trees) = sgf::parse(&bytes[..end]) {
                let written = sgf::write_collection(&trees);
                assert_eq!(
                    sgf::parse(written.as_bytes()).unwrap(),
                    trees,
                    "{name}[..{end}]"
                );
            }
        }
    }
}

fn round_trips_if_it_reads(bytes: &[u8]) {
    if let Ok(trees) = sgf::parse(bytes) {
        let written = sgf::write_collection(&trees);
        let again = sgf::parse(written.as_bytes()).expect("written SGF reads");
        assert_eq!(again, trees);
        let _ = GameRecord::from_tree(&trees[0]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        round_trips_if_it_reads(&bytes);
    }

    #[test]
    fn random_sgf_tokens_never_panic(tokens in proptest::collection::vec(
        prop::sample::select(vec![
            "(", ")", ";", "[", "]", "\\", ":", "B", "W", "AB", "SZ", "GM", "[aa]", "[]",
            "[tt]", "[9]", "[3:3]", "[aa:cc]", " ", "\n", "x", "\u{e9}", "\\\n",
        ]),
        0..60,
    )) {
        round_trips_if_it_reads(tokens.concat().as_bytes());
    }

    #[test]
    fn mutated_corpus_files_never_panic(
        file in 0usize..100,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let files = corpus();
        let mut bytes = files[file % files.len()].1.clone();
        for (at, byte, how) in edits {
            let i = at.index(bytes.len() + 1);
            match how {
                0 => bytes.insert(i, byte),
                1 if i < bytes.len() => bytes[i] = byte,
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        round_trips_if_it_reads(&bytes);
    }
}
