//! The directed cleanup in fixed positions: the dead stones go in as few moves as their
//! liberties need, no stone goes into the opponent's area, and the engine passes at the end.

use super::*;
use crate::search::{Config, Limits};
use Color::{Black, White};

/// An engine at `seed` with `komi` on the position of `rows` (`X` Black, `O` White, top row
/// first), `to_move` to move.
fn engine(rows: &[&str], komi: f64, to_move: Color, seed: u64) -> Engine {
    let config = Config {
        seed: Some(seed),
        ..Config::default()
    };
    let mut e = Engine::with_config(rows.len(), komi, config).unwrap();
    let mut stones = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            match ch {
                'X' => stones.push((Black, Point::new(x, y))),
                'O' => stones.push((White, Point::new(x, y))),
                _ => {}
            }
        }
    }
    let mut game = e.game().clone();
    game.set_stones(&stones, to_move).unwrap();
    e.set_game(game);
    e
}

/// White passes and Black answers, with `kgs-genmove_cleanup` when `cleanup`, until Black
/// passes (at most `limit` answers); Black's answers. A fallback search gets 300 playouts.
fn clean_up(e: &mut Engine, cleanup: bool, limit: usize) -> Vec<Move> {
    let mut answers = Vec::new();
    while answers.len() < limit {
        e.play(White, Move::Pass).unwrap();
        let limits = Limits::playouts(300);
        let mv = if cleanup {
            e.genmove_cleanup(Black, &limits)
        } else {
            e.genmove(Black, &limits)
        };
        answers.push(mv);
        if mv == Move::Pass {
            break;
        }
        let stats = e.last_stats().expect("a directed move has its statistics");
        assert_eq!(stats.visits, 0, "no search behind {mv:?}");
        // The first move's status playouts serve the next ones while White passes.
        let fresh = answers.len() == 1;
        assert_eq!(stats.playouts > 0, fresh, "{mv:?}: {stats:?}");
    }
    answers
}

/// True when White has a stone left of column `wall`.
fn white_left_of(e: &Engine, wall: usize) -> bool {
    (0..e.game().size())
        .flat_map(|y| (0..wall).map(move |x| Point::new(x, y)))
        .any(|p| e.board().stone_at(p) == Some(White))
}

/// The lone White invader at A4 of the 7x7 board is dead in Black's three columns: it has
/// three liberties, and the cleanup takes them, all inside Black's area, then passes. With
/// komi -7.5 Black loses as the board stands (the invader makes Black's area neutral) and
/// wins without it, so genmove cleans up too.
#[test]
fn one_dead_stone_goes_in_its_liberties_moves() {
    let rows = [
        "..XO...", "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
    ];
    for cleanup in [true, false] {
        let mut e = engine(&rows, -7.5, White, 31);
        assert!(!e.wins_as_is(Black), "the dead stone counts against Black");
        let answers = clean_up(&mut e, cleanup, 10);
        assert_eq!(answers.len(), 4, "3 liberties, then a pass: {answers:?}");
        assert_eq!(answers.last(), Some(&Move::Pass));
        for mv in &answers[..3] {
            assert!(
                matches!(mv, Move::Play(p) if p.x < 2),
                "{mv:?} in Black's area"
            );
        }
        assert!(!white_left_of(&e, 2), "the invader is off\n{}", e.board());
    }
}

/// White's three dead stones in Black's corner of the 9x9 board (Black alive below with its
/// eyes, White on the right likewise) have seven liberties: seven moves, all in Black's
/// area, then a pass. Black loses as the board stands and wins without them, so genmove
/// cleans up too.
#[test]
fn a_dead_group_goes_in_as_many_moves_as_it_has_liberties() {
    let rows = [
        "....X.O..",
        ".OO.X.O..",
        ".O..X.O..",
        "....X.O..",
        "XXXXX.O..",
        "X.X.X.OOO",
        "XXXXX.O.O",
        "X.X.X.OOO",
        ".XX.X.O.O",
    ];
    for cleanup in [true, false] {
        let mut e = engine(&rows, 7.5, White, 32);
        assert!(!e.wins_as_is(Black), "the dead stones count against Black");
        let answers = clean_up(&mut e, cleanup, 20);
        assert_eq!(answers.len(), 8, "7 liberties, then a pass: {answers:?}");
        assert_eq!(answers.last(), Some(&Move::Pass));
        for mv in &answers[..7] {
            assert!(
                matches!(mv, Move::Play(p) if p.x < 4 && p.y < 4),
                "{mv:?} in Black's area"
            );
        }
        assert!(!white_left_of(&e, 4), "{}", e.board());
        assert!(e.wins_as_is(Black));
    }
}

/// A seki misread as dead is not broken: filling either shared liberty would put Black's
/// own group in atari, so there is no directed move.
#[test]
fn a_seki_misread_as_dead_gets_no_directed_move() {
    let e = engine(
        &[
            ".OOOX.X..",
            "XO.OXXXXX",
            "XXXXOOOOO",
            "OOOOOOOOO",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ],
        7.5,
        Black,
        33,
    );
    let board = e.board();
    // Black owns the seki's White stones and its two shared liberties in every playout;
    // White owns the rest of the board.
    let seki_white = [(1, 0), (2, 0), (3, 0), (1, 1), (3, 1)];
    let black_owned: Vec<usize> = seki_white
        .iter()
        .chain(&[(0, 0), (2, 1)])
        .map(|&(x, y)| board.index(Point::new(x, y)))
        .collect();
    let owners = (0..board.len())
        .map(|i| {
            if black_owned.contains(&i) {
                [1, 0]
            } else {
                [0, 1]
            }
        })
        .collect();
    let judged = Judgement {
        owners,
        playouts: 1,
        wins: [1, 0],
    };
    assert!(judged.has_dead(board, White));
    assert_eq!(capture_move(e.game(), Black, &judged), None);
}

/// A judgement of `board` in which Black owns every point left of column `wall` (the
/// points in `white_points` aside) and White the rest.
fn split_at(board: &Board, wall: usize, white_points: &[Point]) -> Judgement {
    let owners = (0..board.len())
        .map(|i| {
            let p = board.point(i);
            if usize::from(p.x) < wall && !white_points.contains(&p) {
                [1, 0]
            } else {
                [0, 1]
            }
        })
        .collect();
    Judgement {
        owners,
        playouts: 1,
        wins: [1, 0],
    }
}

/// Captures come first, then ataris, then the rest; never a point the opponent owns.
#[test]
fn a_capture_comes_before_an_atari_and_the_opponents_points_never() {
    // White's dead stones: A9 in atari (its liberty A8), C5 with two liberties (C6, C4),
    // B2 with four.
    let e = engine(
        &[
            "OX..X.O..",
            "....X.O..",
            "....X.O..",
            "....X.O..",
            ".XOXX.O..",
            "....X.O..",
            "....X.O..",
            ".O..X.O..",
            "....X.O..",
        ],
        7.5,
        Black,
        34,
    );
    let board = e.board();
    let (a8, c6) = (Point::new(0, 1), Point::new(2, 3));
    assert_eq!(
        capture_move(e.game(), Black, &split_at(board, 5, &[])),
        Some(a8)
    );
    // A8 White's: the atari of C5, at its first liberty in index order.
    let judged = split_at(board, 5, &[a8]);
    assert_eq!(capture_move(e.game(), Black, &judged), Some(c6));
    // Only B2 dead (the other two White's): one of its four liberties.
    let judged = split_at(board, 5, &[a8, Point::new(0, 0), Point::new(2, 4), c6]);
    let mv = capture_move(e.game(), Black, &judged).unwrap();
    assert_eq!(mv.x.abs_diff(1) + mv.y.abs_diff(7), 1, "{mv:?}");
}
