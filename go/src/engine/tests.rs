//! The engine's rules around the search, in whole positions.

use super::*;
use Color::{Black, White};
use std::time::{Duration, Instant};

fn engine(size: usize, komi: f64, seed: u64) -> Engine {
    let config = Config {
        seed: Some(seed),
        ..Config::default()
    };
    Engine::with_config(size, komi, config).unwrap()
}

/// Plays rows of `X` and `O` (top row first) onto the engine's board, alternating colours
/// with passes as needed, then leaves `to_move` to move.
fn setup(e: &mut Engine, rows: &[&str], to_move: Color) {
    let mut stones = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
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
}

#[test]
fn captures_to_win_a_capturing_race() {
    let mut e = engine(7, 0.5, 1);
    setup(
        &mut e,
        &[
            ".......", //
            ".XXXXX.", ".XOOOX.", ".XOX.X.", ".XOOOX.", ".XXXXX.", ".......",
        ],
        Black,
    );
    let b = e.board();
    assert_eq!(
        b.libs(b.index(Point::new(3, 3))),
        1,
        "Black's stone in atari"
    );
    assert_eq!(
        b.libs(b.index(Point::new(2, 2))),
        1,
        "White's group in atari"
    );
    let mv = e.genmove(Black, &Limits::playouts(2000));
    assert_eq!(mv, Move::Play(Point::new(4, 3)));
    assert_eq!(e.board().captures(Black), 7);
    assert!(e.last_stats().unwrap().win_rate > 0.8);
}

#[test]
fn passes_when_only_its_own_eyes_are_left() {
    let mut e = engine(5, 0.5, 2);
    setup(
        &mut e,
        &[
            "X.XXX", //
            "XXXXX", "XXX.X", "XXXXX", "XXXXX",
        ],
        Black,
    );
    assert_eq!(e.genmove(Black, &Limits::playouts(100)), Move::Pass);
}

#[test]
fn passes_after_the_opponent_when_ahead() {
    let mut e = engine(5, 0.5, 3);
    setup(
        &mut e,
        &[
            ".XXO.", //
            "X.XOO", "XXXO.", "X.XOO", ".XXO.",
        ],
        White,
    );
    e.play(White, Move::Pass).unwrap();
    // Both sides alive, so no dead stone to take first. Black: 11 stones + 4 eyes; White:
    // 7 stones + 3 eyes.
    assert!(e.dead_stones().is_empty());
    assert_eq!(e.game().score(), 15.0 - 10.0 - 0.5);
    assert_eq!(e.genmove(Black, &Limits::playouts(100)), Move::Pass);
    assert!(e.game().is_over());
}

#[test]
fn self_play_never_fills_its_own_eyes_and_ends_by_passing() {
    for (size, seed) in [(5, 4), (7, 5)] {
        let mut e = engine(size, 0.5, seed);
        let mut color = Black;
        for _ in 0..4 * size * size {
            if e.game().is_over() {
                break;
            }
            let before = e.board().clone();
            let mv = e.genmove(color, &Limits::playouts(300));
            if let Move::Play(p) = mv {
                let i = before.index(p);
                assert!(
                    !before.is_true_eye(color, i),
                    "{color} filled its own eye at {p:?}\n{before}"
                );
            }
            color = color.opponent();
        }
        assert!(e.game().is_over(), "{size}x{size} self-play did not end");
    }
}

#[test]
fn the_tree_is_kept_under_the_moves_played() {
    let mut e = engine(9, 7.5, 6);
    e.genmove(Black, &Limits::playouts(3000));
    let pv = e.last_stats().unwrap().pv.clone();
    assert!(pv.len() >= 2, "a principal variation: {pv:?}");
    e.play(White, pv[1]).unwrap();
    e.genmove(Black, &Limits::playouts(500));
    let stats = e.last_stats().unwrap();
    assert!(stats.reused_visits > 0, "the reply's subtree was kept");
    assert_eq!(stats.playouts, 500);
    // An undo forgets the tree.
    e.undo().unwrap();
    e.genmove(Black, &Limits::playouts(100));
    assert_eq!(e.last_stats().unwrap().reused_visits, 0);
}

#[test]
fn threads_share_one_tree() {
    let config = Config {
        threads: 2,
        seed: Some(7),
        ..Config::default()
    };
    let mut e = Engine::with_config(9, 7.5, config).unwrap();
    let mv = e.reg_genmove(Black, &Limits::playouts(2000));
    let stats = e.last_stats().unwrap();
    assert_eq!(stats.playouts, 2000);
    assert_eq!(
        e.search.root_visits(),
        2000,
        "every virtual loss was backed up"
    );
    assert!(matches!(mv, Move::Play(_)));
    assert!(e.moves().is_empty(), "reg_genmove does not play");
}

#[test]
fn a_lone_invader_is_dead_and_scored_so() {
    let mut e = engine(7, 7.5, 8);
    setup(
        &mut e,
        &[
            "..XO...", //
            "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
        ],
        Black,
    );
    assert_eq!(e.dead_stones(), vec![Point::new(0, 3)]);
    // Black: 3 columns; White: 4 columns with the invader removed.
    assert_eq!(e.final_score(), 21.0 - 28.0 - 7.5);
    // The same once the game has ended in two passes: the playouts still play it out.
    e.play(Black, Move::Pass).unwrap();
    e.play(White, Move::Pass).unwrap();
    assert_eq!(e.dead_stones(), vec![Point::new(0, 3)]);
    assert_eq!(e.final_score(), 21.0 - 28.0 - 7.5);
}

#[test]
fn cleanup_does_not_pass_while_dead_stones_remain() {
    let mut e = engine(7, 7.5, 9);
    setup(
        &mut e,
        &[
            "..XO...", //
            "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
        ],
        White,
    );
    e.play(White, Move::Pass).unwrap();
    let mv = e.genmove_cleanup(Black, &Limits::playouts(500));
    assert_ne!(mv, Move::Pass);
}

/// The final position of the rules check's game 9-2-0 (docs/runs/go-vs-gnugo-37): GNU Go
/// (White) passed, and ours passed too with White's dead stone at C3 in its area, so the
/// judge scored B+0.5 where GNU Go's final_score said B+3.5.
#[test]
fn does_not_pass_while_the_opponents_dead_stones_are_on_the_board() {
    let rows = [
        "X.XOO.O..", //
        ".XXO.O.O.",
        "..XXO.O.O",
        "XXXOOO.O.",
        "..XXXOO.O",
        ".XXXOOXOO",
        ".XOXOOXXO",
        ".X.XOXXXX",
        "XXXXXX.X.",
    ];
    let dead = Point::new(2, 6);
    let mut e = engine(9, 7.5, 21);
    setup(&mut e, &rows, White);
    assert_eq!(e.board().stone_at(dead), Some(White));
    let mut black_moves = Vec::new();
    loop {
        e.play(White, Move::Pass).unwrap();
        let mv = e.genmove(Black, &Limits::playouts(2000));
        black_moves.push(mv);
        if mv == Move::Pass || black_moves.len() == 4 {
            break;
        }
    }
    assert_ne!(black_moves[0], Move::Pass, "the dead stone is still there");
    assert_eq!(black_moves.last(), Some(&Move::Pass), "{black_moves:?}");
    assert_eq!(e.board().stone_at(dead), None, "{black_moves:?}");
    assert_eq!(e.game().score(), 3.5, "GNU Go's final_score");
}

#[test]
fn free_handicap_placement_is_the_fixed_one_capped() {
    let mut e = engine(9, 0.5, 14);
    assert_eq!(e.place_free_handicap(1), Err(SetupError::BadCount(1)));
    let points = e.place_free_handicap(12).unwrap();
    assert_eq!(points.len(), 9, "9x9 takes at most 9 stones");
    assert_eq!(e.game().handicap(), 9);
    assert_eq!(e.game().to_move(), White);
    let mut small = engine(5, 0.5, 15);
    assert_eq!(
        small.place_free_handicap(2),
        Err(SetupError::BoardTooSmall(5))
    );
}

#[test]
fn a_deadline_stops_the_search() {
    let mut e = engine(9, 7.5, 13);
    let start = Instant::now();
    e.reg_genmove(Black, &Limits::time(Duration::from_millis(200)));
    // Without the deadline the search would never stop (no playout cap is set); the
    // margin is for a loaded machine.
    assert!(start.elapsed() < Duration::from_secs(3));
    assert!(e.last_stats().unwrap().playouts > 0);
}

#[test]
fn a_resignation_keeps_the_side_to_move_and_genmove_takes_it_back() {
    let mut e = engine(5, 0.5, 12);
    e.play(Black, Move::Play(Point::new(2, 2))).unwrap();
    e.play(White, Move::Resign).unwrap();
    assert_eq!(
        e.game().to_move(),
        White,
        "nobody moves after a resignation"
    );
    assert_eq!(e.game().resigned(), Some(White));
    // reg_genmove searches the position and keeps the resignation.
    let mv = e.reg_genmove(White, &Limits::playouts(50));
    assert!(matches!(mv, Move::Play(_)), "{mv:?}");
    assert_eq!(e.game().resigned(), Some(White));
    // undo takes back the resignation alone.
    e.undo().unwrap();
    assert_eq!(e.moves().len(), 1);
    assert_eq!(e.game().to_move(), White);
    e.play(White, Move::Resign).unwrap();
    // genmove takes it back too and plays a searched move, not a blind pass.
    let mv = e.genmove(White, &Limits::playouts(50));
    assert!(matches!(mv, Move::Play(_)), "{mv:?}");
    assert_eq!(e.game().resigned(), None);
    assert_eq!(e.moves().len(), 2);
    assert_eq!(e.moves()[1], (White, mv));
    assert_eq!(e.game().to_move(), Black);
}

#[test]
fn resigns_a_lost_game() {
    let mut e = engine(5, 0.5, 10);
    setup(
        &mut e,
        &[
            ".O.O.", //
            "OOOOO", ".....", "OOOOO", ".O.O.",
        ],
        Black,
    );
    let mv = e.genmove(Black, &Limits::playouts(4000));
    assert_eq!(mv, Move::Resign, "{:?}", e.last_stats());
    assert_eq!(e.game().resigned(), Some(Black));
}

#[test]
fn seki_is_alive_and_its_liberties_are_nobodys() {
    let mut e = engine(9, 7.5, 11);
    // Black's inner five stones and White's share the liberties (0,0) and (2,1): whoever
    // fills one is captured. Around them, Black lives at the top right, White below.
    setup(
        &mut e,
        &[
            ".OOOX.X..", //
            "XO.OXXXXX",
            "XXXXOOOOO",
            "OOOOOOOOO",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ],
        Black,
    );
    let b = e.board();
    for (x, y) in [(1, 0), (0, 1)] {
        assert_eq!(
            b.libs(b.index(Point::new(x, y))),
            2,
            "the seki group at ({x},{y})"
        );
    }
    // Black: 12 stones and 3 eye points; White: 19 stones and 45 points; (0,0) and (2,1)
    // reach both colours.
    assert_eq!(e.game().area(), [15, 64]);
    assert_eq!(e.dead_stones(), Vec::<Point>::new());
    assert_eq!(e.final_score(), 15.0 - 64.0 - 7.5);
}
