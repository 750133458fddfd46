use super::*;

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Rules of a `size` board with komi 7.5 and `handicap` stones.
fn rules(size: u32, handicap: u32) -> Rules {
    Rules::new(size, 7.5, handicap).unwrap()
}

/// A setup without an opening.
fn bare(rules: Rules) -> Setup {
    Setup {
        rules,
        opening: [Move::Pass; MAX_OPENING],
        plies: 0,
    }
}

/// The start of a bare `size` board with komi 7.5, Black to move.
fn empty(size: u32) -> (Go, Position) {
    let go = Go {
        rules: rules(size, 0),
    };
    let p = go.start(&bare(go.rules));
    (go, p)
}

/// Plays `moves` (alternating from the side to move), each of which must be legal.
fn play_all(go: &Go, p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let m = mv(m);
        assert!(go.is_legal(p, m), "{m} is legal\n{}", rows(p));
        go.play(p, m);
    }
}

/// The board as rows from the top, `X` black, `O` white.
fn rows(p: &Position) -> String {
    p.cells
        .chunks(p.size)
        .map(|r| {
            r.iter()
                .map(|&c| [".", "X", "O"][c as usize])
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn vertices_are_gtp_letters_without_i_and_rows_from_the_bottom() {
    assert_eq!(mv("A1"), Move::Play { col: 0, row: 0 });
    assert_eq!(mv("j10"), Move::Play { col: 8, row: 9 });
    assert_eq!(mv("Z25"), Move::Play { col: 24, row: 24 });
    assert_eq!(mv("PASS"), Move::Pass);
    assert_eq!(mv("resign"), Move::Resign);
    for bad in ["I5", "A0", "A26", "A05", "", "D", "4D", "D4x", "pas"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
    assert_eq!(mv("h8").to_string(), "H8");
    assert_eq!(Move::Play { col: 25, row: 0 }.to_string(), "(25, 0)");
    assert_eq!(serde_json::to_string(&mv("t19")).unwrap(), "\"T19\"");
    // On a 9x9 board D4 is grid row 5 (from the top), column 3; A9 the top-left corner.
    let (go, p) = empty(9);
    assert_eq!(go.move_cell(&p, mv("D4")), Some((5, 3)));
    assert_eq!(go.move_cell(&p, mv("A9")), Some((0, 0)));
    assert_eq!(go.move_cell(&p, mv("J1")), Some((8, 8)));
    assert_eq!(go.move_cell(&p, mv("K1")), None, "off a 9x9 board");
    assert_eq!(go.move_at(&p, 5, 3), Some(mv("D4")));
    assert_eq!(go.move_at(&p, 9, 0), None);
}

#[test]
fn rules_take_sizes_komi_and_handicaps_gtp_allows() {
    assert_eq!(Rules::default(), rules(9, 0));
    assert_eq!(Rules::default().to_string(), "9x9, komi 7.5");
    let r = Rules::new(19, -0.5, 9).unwrap();
    assert_eq!((r.size(), r.komi(), r.handicap()), (19, -0.5, 9));
    assert_eq!(r.komi_text(), "-0.5");
    assert_eq!(r.to_string(), "19x19, komi -0.5, handicap 9");
    assert_eq!(Rules::new(9, 6.0, 0).unwrap().komi_text(), "6");
    for (size, komi, handicap) in [
        (1, 7.5, 0),
        (26, 7.5, 0),
        (9, 7.25, 0),
        (9, f64::NAN, 0),
        (9, 7.5, 1),
        (9, 7.5, 10),
        (10, 7.5, 5),
        (6, 7.5, 2),
    ] {
        assert!(
            Rules::new(size, komi, handicap).is_err(),
            "{size} {komi} {handicap}"
        );
    }
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(json, r#"{"size":19,"komi":-0.5,"handicap":9}"#);
    assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
    assert!(serde_json::from_str::<Rules>(r#"{"size":19,"komi":0.3,"handicap":0}"#).is_err());
}

#[test]
fn fixed_handicap_is_gtps_table() {
    let names = |size, n| {
        handicap_points(size, n)
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    // GTP 2, section 4.1.1, for 19x19.
    assert_eq!(names(19, 2), "D4 Q16");
    assert_eq!(names(19, 4), "D4 Q16 D16 Q4");
    assert_eq!(names(19, 5), "D4 Q16 D16 Q4 K10");
    assert_eq!(names(19, 6), "D4 Q16 D16 Q4 D10 Q10");
    assert_eq!(names(19, 7), "D4 Q16 D16 Q4 D10 Q10 K10");
    assert_eq!(names(19, 8), "D4 Q16 D16 Q4 D10 Q10 K4 K16");
    assert_eq!(names(19, 9), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
    // The third line below 13x13; no centre on even boards.
    assert_eq!(names(9, 5), "C3 G7 C7 G3 E5");
    assert_eq!(names(13, 3), "D4 K10 D10");
    assert_eq!(names(10, 4), "C3 H8 C8 H3");
    assert!(handicap_points(10, 5).is_empty() && handicap_points(6, 2).is_empty());
    // The same points as the engine's placement (GNU Go's), on every board and count.
    for size in 7..=25u32 {
        for n in 2..=max_handicap(size) {
            let ours: std::collections::BTreeSet<String> = handicap_points(size, n)
                .iter()
                .map(Move::to_string)
                .collect();
            let theirs: std::collections::BTreeSet<String> =
                go_engine::game::Game::fixed_handicap_points(size as usize, n as usize)
                    .unwrap()
                    .into_iter()
                    .map(|p| {
                        Move::Play {
                            col: i32::from(p.x),
                            row: size as i32 - 1 - i32::from(p.y),
                        }
                        .to_string()
                    })
                    .collect();
            assert_eq!(ours, theirs, "{size}x{size}, {n} stones");
        }
        assert_eq!(
            max_handicap(size) as usize,
            go_engine::game::Game::max_fixed_handicap(size as usize)
        );
    }
}

#[test]
fn captures_take_off_whole_groups_without_liberties() {
    let (go, mut p) = empty(5);
    // Black surrounds the white pair B2 C2 on a 5x5 board.
    play_all(&go, &mut p, "B1 B2 C1 C2 A2 pass B3 pass C3 pass");
    assert_eq!(p.stone_at(3, 1), Some(Side::Second), "B2 still white");
    play_all(&go, &mut p, "D2");
    assert_eq!(p.stone_at(3, 1), None, "B2 captured");
    assert_eq!(p.stone_at(3, 2), None, "C2 captured");
    assert_eq!(rows(&p), ".....\n.....\n.XX..\nX..X.\n.XX..");
}

#[test]
fn suicide_is_illegal_unless_it_captures() {
    let (go, mut p) = empty(5);
    // White A2 and B1 surround A1: Black may not play there.
    play_all(&go, &mut p, "pass A2 pass B1");
    assert!(!go.is_legal(&p, mv("A1")));
    let (why, point) = go.describe_illegal(&p, mv("A1"));
    assert_eq!(why, "illegal move A1 (suicide)");
    assert_eq!(point, Some([4, 0]));
    // A group suicide: Black B2 A3 with liberty at A1... filled by White around.
    let (go, mut q) = empty(4);
    play_all(&go, &mut q, "A1 C1 A2 B3 pass A3 pass");
    // Black's A1-A2 group has one liberty, B1... and B2 is surrounded by White.
    assert_eq!(go.to_move(&q), Side::Second);
    play_all(&go, &mut q, "B2");
    assert!(
        !go.is_legal(&q, mv("B1")),
        "B1 would fill Black's last liberty: suicide\n{}",
        rows(&q)
    );
    // But a stone with no liberty that captures is legal: White B1 takes A1 A2.
    play_all(&go, &mut q, "pass B1");
    assert_eq!(q.stone_at(3, 0), None);
    assert_eq!(q.stone_at(2, 0), None);
    // Occupied and off-board points.
    assert_eq!(
        go.describe_illegal(&q, mv("B1")).0,
        "illegal move B1 (the point is occupied)"
    );
    assert!(!go.is_legal(&q, mv("E1")));
    assert_eq!(
        go.describe_illegal(&q, mv("E1")).0,
        "illegal move E1 (off the board)"
    );
}

#[test]
fn a_ko_cannot_be_retaken_at_once_but_after_a_move_elsewhere() {
    let (go, mut p) = empty(5);
    // Black: B3 A2 C2 B1... White: C3 D2 C1 (the ko shape around B2/C2).
    play_all(&go, &mut p, "B3 C3 A2 D2 B1 C1 pass B2");
    // White B2 is in atari; Black takes it at C2.
    play_all(&go, &mut p, "C2");
    assert_eq!(p.stone_at(3, 1), None, "B2 captured");
    // White may not retake at B2 at once: the board would repeat.
    assert!(!go.is_legal(&p, mv("B2")));
    assert_eq!(
        go.describe_illegal(&p, mv("B2")).0,
        "illegal move B2 (it repeats an earlier position (positional superko))"
    );
    // A move elsewhere each, and the retake is legal (the position is new).
    play_all(&go, &mut p, "E5 E4 B2");
    assert_eq!(p.stone_at(3, 2), None, "C2 captured back");
}

#[test]
fn two_passes_end_the_game_scored_by_area_with_komi() {
    let (go, mut p) = empty(5);
    assert_eq!(go.end(&p), None);
    // Black walls off columns A-B, White C-E... a 5x5 split: Black C column, White D.
    play_all(&go, &mut p, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5");
    assert_eq!(go.end(&p), None);
    play_all(&go, &mut p, "pass");
    assert_eq!(go.end(&p), None, "one pass");
    play_all(&go, &mut p, "pass");
    // Black: 15 (A..C), White: 10 (D, E); 15 - 10 - 7.5 = -2.5.
    assert_eq!(p.area(), [15, 10]);
    assert_eq!(p.half_score(), -5);
    assert_eq!(
        go.end(&p),
        Some(GameEnd {
            winner: Some(Side::Second),
            termination: Termination::Score,
            margin: None
        })
    );
    assert_eq!(go.end_detail(&p).as_deref(), Some("W+2.5"));
    assert!(go.legal_moves(&p).is_empty());
    assert!(!go.is_legal(&p, Move::Pass));
    // With komi 5 it is a draw.
    let mut draw = p.clone();
    draw.half_komi = 10;
    assert_eq!(go.end(&draw).unwrap().winner, None);
    assert_eq!(draw.result_text().as_deref(), Some("Draw"));
    // Neutral points (dame) count for nobody; an empty board is komi's.
    let (go, mut e) = empty(3);
    play_all(&go, &mut e, "pass pass");
    assert_eq!(e.area(), [0, 0]);
    assert_eq!(go.end_detail(&e).as_deref(), Some("W+7.5"));
    let (go, mut d) = empty(3);
    play_all(&go, &mut d, "A1 C3 pass pass");
    assert_eq!(d.area(), [1, 1], "the rest touches both");
}

#[test]
fn a_pass_in_between_does_not_end_the_game_and_resigning_does() {
    let (go, mut p) = empty(5);
    play_all(&go, &mut p, "pass C3 pass");
    assert_eq!(go.end(&p), None);
    assert_eq!(go.legal_moves(&p).last(), Some(&Move::Pass));
    assert!(!go.legal_moves(&p).contains(&Move::Resign));
    assert!(go.is_legal(&p, Move::Resign));
    assert_eq!(go.resignation(), Some(Move::Resign));
    go.play(&mut p, Move::Resign);
    assert_eq!(
        go.end(&p),
        Some(GameEnd {
            winner: Some(Side::First),
            termination: Termination::Resign,
            margin: None
        })
    );
    assert_eq!(go.end_detail(&p).as_deref(), Some("B+R"));
    assert!(go.legal_moves(&p).is_empty());
    assert_eq!(go.move_cell(&p, Move::Resign), None);
}

#[test]
fn a_handicap_game_starts_with_blacks_stones_and_white_to_move() {
    let go = Go {
        rules: Rules::new(9, 0.5, 4).unwrap(),
    };
    let setup = go.setup(3);
    assert_eq!(Go::first_mover(&setup), Side::Second);
    let p = go.start(&setup);
    for v in ["C3", "G7", "C7", "G3"] {
        let (row, col) = go.move_cell(&p, mv(v)).unwrap();
        assert_eq!(p.stone_at(row, col), Some(Side::First), "{v}");
    }
    assert_eq!(go.to_move(&p), Side::Second, "White moves first");
    let even = Go::default().setup(3);
    assert_eq!(Go::first_mover(&even), Side::First);
}

#[test]
fn openings_are_two_or_four_stones_off_the_edge_drawn_per_seed() {
    let go = Go::default();
    let mut lengths = std::collections::BTreeMap::new();
    let mut distinct = std::collections::HashSet::new();
    for seed in 0..400u64 {
        let setup = go.setup(seed);
        assert_eq!(go.setup(seed), setup, "reproducible");
        let opening = setup.opening();
        *lengths.entry(opening.len()).or_insert(0) += 1;
        distinct.insert(opening.to_vec());
        for m in opening {
            let Move::Play { col, row } = *m else {
                panic!("{m}")
            };
            assert!(
                (1..8).contains(&col) && (1..8).contains(&row),
                "{m} off the edge"
            );
        }
        let p = go.start(&setup);
        assert_eq!(
            go.to_move(&p),
            Side::First,
            "Black moves after an even opening"
        );
        assert_eq!(go.last_cell(&p), go.move_cell(&p, *opening.last().unwrap()));
        // The log's form reads back as the same setup.
        let json = serde_json::to_string(&setup).unwrap();
        assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
    }
    assert_eq!(lengths.keys().copied().collect::<Vec<_>>(), [2, 4]);
    assert!(lengths.values().all(|&n| n > 150), "{lengths:?}");
    assert!(distinct.len() > 390, "{} distinct openings", distinct.len());
    // Boards too small for an interior pair get none; 3x3 has one interior point.
    for size in [2, 3] {
        let g = Go {
            rules: rules(size, 0),
        };
        assert!(g.setup(1).opening().is_empty(), "{size}x{size}");
    }
    let g = Go { rules: rules(4, 0) };
    assert!(!g.setup(1).opening().is_empty());
}

#[test]
fn the_log_form_of_a_setup_is_checked() {
    let json = r#"{"size":9,"komi":7.5,"handicap":0,"opening":["E5","D4"]}"#;
    let setup: Setup = serde_json::from_str(json).unwrap();
    assert_eq!(serde_json::to_string(&setup).unwrap(), json);
    assert_eq!(setup.opening(), [mv("E5"), mv("D4")]);
    for bad in [
        r#"{"size":9,"komi":7.5,"handicap":0,"opening":["E5"]}"#,
        r#"{"size":9,"komi":7.5,"handicap":0,"opening":["E5","E5"]}"#,
        r#"{"size":9,"komi":7.5,"handicap":0,"opening":["E5","pass"]}"#,
        r#"{"size":9,"komi":7.5,"handicap":0,"opening":["E5","K10"]}"#,
        r#"{"size":9,"komi":7.5,"handicap":4,"opening":["C3","D4"]}"#,
        r#"{"size":9,"komi":7.5,"handicap":0,"opening":["A1","B1","C1","D1","E1","F1"]}"#,
        r#"{"size":30,"komi":7.5,"handicap":0,"opening":[]}"#,
    ] {
        assert!(serde_json::from_str::<Setup>(bad).is_err(), "{bad}");
    }
}

#[test]
fn replay_goes_through_passes_to_the_score() {
    let go = Go::default();
    let setup = go.setup(11);
    let moves: Vec<Move> = ["C3", "pass", "G7", "pass", "pass"]
        .iter()
        .map(|m| mv(m))
        .collect();
    let (positions, cells) = go.replay(&setup, &moves);
    assert_eq!(positions.len(), 6);
    assert_eq!(cells[1], None);
    assert!(go.end(positions.last().unwrap()).is_some());
    assert_eq!(go.grid(&positions[1]).get(6, 2), Cell::First, "C3 black");
}

#[test]
fn games_are_written_as_sgf_that_the_engine_reads_back() {
    use go_engine::point::{Color, Move as EngineMove};
    use go_engine::sgf::record::GameRecord;
    let go = Go {
        rules: Rules::new(9, 0.5, 2).unwrap(),
    };
    let setup: Setup =
        serde_json::from_str(r#"{"size":9,"komi":0.5,"handicap":2,"opening":["E5","D4"]}"#)
            .unwrap();
    let moves = [mv("F6"), mv("pass"), mv("resign")];
    let played = Played {
        id: "0-1-0",
        first: "gnugo@BLACK",
        second: "engine",
        winner: Some(Side::First),
        termination: Termination::Resign,
        detail: Some("B+R"),
    };
    let text = go.record_text(&setup, &moves, &played).unwrap();
    let back = GameRecord::from_sgf(text.as_bytes()).unwrap();
    assert_eq!(back.size, 9);
    assert_eq!(back.komi, Some(0.5));
    assert_eq!(back.handicap, 2);
    assert_eq!(back.setup.len(), 2);
    assert!(back.setup.iter().all(|&(c, _)| c == Color::Black));
    assert_eq!(back.result.as_deref(), Some("B+R"));
    assert_eq!(back.black_player.as_deref(), Some("gnugo@BLACK"));
    let line: Vec<(Color, EngineMove)> = back.moves.iter().map(|m| (m.color, m.mv)).collect();
    // White opens after the handicap: E5 (White), D4 (Black), F6 (White), pass (Black).
    assert_eq!(line.len(), 4);
    assert_eq!(line[0].0, Color::White);
    assert_eq!(line[3], (Color::Black, EngineMove::Pass));
    assert!(text.contains("PL[W]"), "{text}");
    // A verdict is a forfeit (or a loss on time) and says why in the root comment.
    let timeout = Played {
        termination: Termination::Timeout,
        detail: Some("no answer within 6000 ms"),
        winner: Some(Side::Second),
        ..played
    };
    let text = go.record_text(&setup, &moves[..1], &timeout).unwrap();
    assert!(text.contains("RE[W+T]"), "{text}");
    assert!(
        text.contains("Black lost by timeout: no answer within 6000 ms."),
        "{text}"
    );
    let crash = Played {
        termination: Termination::Crash,
        ..timeout
    };
    assert!(
        go.record_text(&setup, &[], &crash)
            .unwrap()
            .contains("RE[W+F]")
    );
}

/// The referee's rules against the engine's (`go_engine::game`, a padded board with
/// incremental groups and Zobrist hashes, written separately), as the other referees are
/// checked against their games' libraries: random games on random sizes, even or with a
/// handicap; after every move the same stones, the same legality of every point for the
/// side to move, the same end after two passes and the same Tromp-Taylor score.
mod against_the_engine {
    use super::*;
    use go_engine::game::Game as Engine;
    use go_engine::point::{Color, Move as EngineMove, Point};
    use proptest::prelude::*;
    use proptest::sample::Index;

    fn engine_move(size: usize, mv: Move) -> EngineMove {
        match mv {
            Move::Play { col, row } => {
                EngineMove::Play(Point::new(col as usize, size - 1 - row as usize))
            }
            Move::Pass => EngineMove::Pass,
            Move::Resign => EngineMove::Resign,
        }
    }

    fn colour(side: Side) -> Color {
        match side {
            Side::First => Color::Black,
            Side::Second => Color::White,
        }
    }

    fn agree(go: &Go, ours: &Position, theirs: &Engine) -> Result<(), TestCaseError> {
        let size = ours.size;
        prop_assert_eq!(colour(go.to_move(ours)), theirs.to_move());
        for y in 0..size {
            for x in 0..size {
                let stone = theirs.board().stone_at(Point::new(x, y)).map(|c| match c {
                    Color::Black => Side::First,
                    Color::White => Side::Second,
                });
                prop_assert_eq!(ours.stone_at(y as i32, x as i32), stone, "({}, {})", x, y);
                let mv = Move::Play {
                    col: x as i32,
                    row: (size - 1 - y) as i32,
                };
                let legal = theirs
                    .check(theirs.to_move(), engine_move(size, mv))
                    .is_ok()
                    && !theirs.is_over();
                prop_assert_eq!(go.is_legal(ours, mv), legal, "{} legal\n{}", mv, rows(ours));
            }
        }
        Ok(())
    }

    /// A board size (small ones often: captures and repetitions come sooner), a handicap
    /// the board takes, and the picks of a game.
    fn games() -> impl Strategy<Value = (u32, u32, Vec<(Index, bool)>)> {
        prop_oneof![3 => 2u32..=6, 3 => 7u32..=9, 1 => 10u32..=13].prop_flat_map(|size| {
            let max = max_handicap(size);
            let handicap = if max == 0 {
                Just(0u32).boxed()
            } else {
                prop_oneof![3 => Just(0u32), 1 => 2..=max].boxed()
            };
            let len = (3 * size * size) as usize;
            (
                Just(size),
                handicap,
                proptest::collection::vec((any::<Index>(), prop::bool::weighted(0.04)), len),
            )
        })
    }

    proptest! {
        #[test]
        fn rules_agree_with_the_engine((size, handicap, picks) in games()) {
            let go = Go { rules: Rules::new(size, 7.5, handicap).unwrap() };
            let setup = bare(go.rules);
            let mut ours = go.start(&setup);
            let mut theirs = Engine::new(size as usize, 7.5).unwrap();
            if handicap > 0 {
                theirs.fixed_handicap(handicap as usize).unwrap();
            }
            agree(&go, &ours, &theirs)?;
            for (pick, pass) in &picks {
                let moves = go.legal_moves(&ours);
                prop_assert!(!moves.is_empty());
                // The pass is listed last; a pass is also played now and then.
                let mv = if *pass { Move::Pass } else { *pick.get(&moves) };
                let mover = theirs.to_move();
                go.play(&mut ours, mv);
                theirs.play(mover, engine_move(size as usize, mv)).expect("legal for the engine");
                agree(&go, &ours, &theirs)?;
                prop_assert_eq!(go.end(&ours).is_some(), theirs.is_over());
                if theirs.is_over() {
                    break;
                }
            }
            // Scored as it stands (ended or not): the same area and score.
            let [b, w] = theirs.area();
            prop_assert_eq!(ours.area(), [b as u32, w as u32]);
            prop_assert_eq!(f64::from(ours.half_score()) / 2.0, theirs.score());
        }
    }
}
