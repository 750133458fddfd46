//! Every strategy plays legal moves, the tactical ones see what they must, and the arena runs.

use gravity4::position::Position;
use gravity4::request::Request;
use gravity4::settings::Settings;
use gravity4_ladder::alphabeta::{self, WIN};
use gravity4_ladder::arena::{Board, play_match};
use gravity4_ladder::{LADDER, fresh_rng, greedy, open_columns, uct};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn request(position: &Position) -> Request {
    Request {
        position: position.clone(),
        last_move: None,
        entry: Instant::now(),
    }
}

/// The position after `moves` (columns, alternating from `Side::Us`) on a 9x9 board whose
/// blocked cell is out of the way in the top-left corner.
fn after(moves: &[usize]) -> Position {
    let mut pos = Position::new(9, 9, 0, 0).unwrap();
    for &col in moves {
        assert!(!pos.play(col), "setup move {col} ended the game");
    }
    pos
}

/// Random mid-game positions on course-sized boards: some random moves, stopping before the
/// game ends.
fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut pos = Board::random(&mut rng).position();
            let plies = rng.random_range(0..pos.empty_cells());
            for _ in 0..plies {
                let open: Vec<usize> = open_columns(&pos).collect();
                let col = open[rng.random_range(0..open.len())];
                let mut next = pos.clone();
                if next.play(col) || next.empty_cells() == 0 {
                    break;
                }
                pos = next;
            }
            pos
        })
        .collect()
}

#[test]
fn every_rung_plays_a_legal_column() {
    let positions = random_positions(40, 1);
    // The UCT rungs read the budget from the environment; a short one keeps the test fast.
    let settings = Settings {
        budget: Duration::from_millis(5),
        ..Settings::from_env()
    };
    for pos in &positions {
        for rung in &LADDER[..6] {
            let col = (rung.choose)(&request(pos));
            assert!(
                pos.can_play(col),
                "rung {} played {col} in\n{pos:?}",
                rung.number
            );
        }
        let col = uct::choose_with_settings(&request(pos), &settings);
        assert!(pos.can_play(col), "uct played {col} in\n{pos:?}");
    }
}

#[test]
fn ladder_is_numbered_in_order() {
    for (i, rung) in LADDER.iter().enumerate() {
        assert_eq!(rung.number as usize, i + 1);
        // By value: a `const` array's elements have no one address (each use may get its
        // own copy, as builds with several codegen units showed).
        let found = gravity4_ladder::rung(rung.number);
        assert_eq!((found.number, found.name), (rung.number, rung.name));
    }
}

#[test]
fn greedy_takes_a_win_and_blocks_one() {
    // Us holds (8,0),(8,1),(8,2), Them (7,0),(7,1),(8,8); Us to move wins at column 3.
    let win = after(&[0, 0, 1, 1, 2, 8]);
    for safe in [false, true] {
        for _ in 0..20 {
            let col = greedy::greedy_move(&win, safe, safe, &mut fresh_rng());
            assert_eq!(col, 3, "{win:?}");
        }
    }
    // Them holds (8,0),(8,1),(8,2) and threatens column 3; Us has no win: block.
    let block = after(&[8, 0, 8, 1, 7, 2]);
    for safe in [false, true] {
        for _ in 0..20 {
            let col = greedy::greedy_move(&block, safe, safe, &mut fresh_rng());
            assert_eq!(col, 3, "{block:?}");
        }
    }
}

#[test]
fn greedy_safe_does_not_open_a_win_on_top() {
    // Them holds (7,1),(7,2),(7,3) above mixed bottom stones: a stone in column 0 or 4 lands
    // on row 8 and lets Them win on row 7 above it. Us has no win and nothing to block now.
    let pos = after(&[1, 2, 3, 1, 7, 2, 8, 3]);
    assert!(!pos.is_winning_move(0) && !pos.is_winning_move(4));
    for _ in 0..50 {
        let col = greedy::greedy_move(&pos, true, true, &mut fresh_rng());
        assert!(col != 0 && col != 4, "greedy-safe played {col} in\n{pos:?}");
    }
}

#[test]
fn alphabeta_finds_a_double_threat() {
    // Us holds (8,3),(8,4) on the bottom row, Them the two cells above. Column 2 or 5 makes an
    // open three with two empty ends on the bottom row: Them blocks one, Us wins at the other.
    let pos = after(&[3, 3, 4, 4]);
    for depth in [2, 3, 5] {
        for _ in 0..10 {
            let far = Instant::now() + Duration::from_secs(60);
            let result = alphabeta::best_move(&pos, depth, far, &mut fresh_rng());
            assert!(
                [2, 5].contains(&result.col),
                "depth {depth} chose {result:?} in\n{pos:?}"
            );
            assert!(result.score > WIN - 10, "depth {depth}: {result:?}");
        }
    }
}

#[test]
fn alphabeta_blocks_a_double_threat_in_the_making() {
    // Mirror of the above with Them to set it up: Us must stop Them's open three on the bottom.
    // Them holds (8,3),(8,4),(7,8); Us (7,3),(7,4),(8,8). Only columns 2 and 5 stop Them
    // from making an open three on the bottom row.
    let pos = after(&[8, 3, 3, 4, 4, 8]);
    for _ in 0..10 {
        let far = Instant::now() + Duration::from_secs(60);
        let result = alphabeta::best_move(&pos, 3, far, &mut fresh_rng());
        assert!([2, 5].contains(&result.col), "{result:?} in\n{pos:?}");
    }
}

#[test]
fn arena_plays_a_short_match() {
    let random: &gravity4_ladder::arena::Player = &LADDER[0].choose;
    let greedy: &gravity4_ladder::arena::Player = &LADDER[1].choose;
    let result = play_match(greedy, random, 5, 7, 2);
    assert_eq!(result.games(), 10);
    assert!(
        result.score() > 0.5,
        "greedy should beat random: {result:?}"
    );
}
