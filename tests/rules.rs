//! The bitboard rules (`Position`) against the slow array referee (`tests/common/referee.rs`):
//! random games on random sizes with random blocked cells, compared at every ply, and
//! perft-style counts of move paths from fixed positions.

mod common;

use common::referee::{Board, FIRST, perft};
use gravity4::position::{Position, PositionError, Side};
use proptest::prelude::*;

/// The `Side` that holds referee player `p` in a position built by `Position::new` (the first
/// mover is `Us`).
fn side_of(p: i32) -> Side {
    if p == FIRST { Side::Us } else { Side::Them }
}

/// Asserts every observable of `pos` matches the referee `board`.
fn assert_same(pos: &Position, board: &Board) {
    let ctx = || format!("\n{board:?}\n{pos:?}");
    assert_eq!(
        pos.to_move(),
        side_of(board.to_move()),
        "side to move{}",
        ctx()
    );
    assert_eq!(
        pos.empty_cells(),
        board.empty_cells(),
        "empty cells{}",
        ctx()
    );
    assert_eq!(pos.ply(), board.moves.len(), "ply{}", ctx());
    let mut open = 0u16;
    for y in 0..board.n {
        assert_eq!(pos.top(y) as i32, board.top[y], "top[{y}]{}", ctx());
        assert_eq!(pos.can_play(y), board.can_play(y), "can_play({y}){}", ctx());
        if board.can_play(y) {
            open |= 1 << y;
            assert_eq!(
                pos.landing_row(y) as i32,
                board.top[y] - 1,
                "landing row{}",
                ctx()
            );
        }
    }
    assert_eq!(pos.open_columns(), open, "open columns{}", ctx());
    // Columns off the board are never playable.
    for y in board.n..16 {
        assert!(!pos.can_play(y), "can_play({y}) off the board{}", ctx());
    }
    for x in 0..board.m {
        for y in 0..board.n {
            let expected = match board.at(x, y) {
                0 => None,
                p => Some(side_of(p)),
            };
            assert_eq!(pos.stone(x, y), expected, "stone ({x}, {y}){}", ctx());
        }
    }
}

/// The course arrays for the side to move, rebuilt through `from_course`, must describe the
/// same position with that side as `Us` (or be rejected for the right reason).
fn assert_from_course(board: &Board) {
    let mover = board.to_move();
    let view = board.view(mover);
    let built = Position::from_course(
        board.m as i64,
        board.n as i64,
        &board.top,
        &view,
        board.no_x as i64,
        board.no_y as i64,
    );
    if board.winner().is_some() {
        assert_eq!(built.unwrap_err(), PositionError::AlreadyWon, "{board:?}");
        return;
    }
    if board.is_full() {
        assert_eq!(built.unwrap_err(), PositionError::Full, "{board:?}");
        return;
    }
    let pos =
        built.unwrap_or_else(|e| panic!("from_course rejected a real position: {e}\n{board:?}"));
    assert_eq!(pos.to_move(), Side::Us);
    assert_eq!(pos.empty_cells(), board.empty_cells());
    for y in 0..board.n {
        assert_eq!(pos.top(y) as i32, board.top[y], "top[{y}]\n{board:?}");
        assert_eq!(pos.can_play(y), board.can_play(y));
    }
    for x in 0..board.m {
        for y in 0..board.n {
            let expected = match board.at(x, y) {
                0 => None,
                p if p == mover => Some(Side::Us),
                _ => Some(Side::Them),
            };
            assert_eq!(pos.stone(x, y), expected, "stone ({x}, {y})\n{board:?}");
        }
    }
    // The rebuilt position must also agree on what every move does.
    for y in board.legal_cols() {
        let mut next = board.clone();
        next.play(y);
        assert_eq!(
            pos.is_winning_move(y),
            next.winner().is_some(),
            "is_winning_move({y}) after from_course\n{board:?}"
        );
    }
}

/// Plays `choices` (each picks among the legal columns) from an empty board on both
/// implementations, comparing everything at every ply. Returns the plies played.
fn play_random_game(m: usize, n: usize, no: (usize, usize), choices: &[usize]) -> usize {
    let mut board = Board::new(m, n, no.0, no.1);
    let mut pos = Position::new(m, n, no.0, no.1).expect("valid size and blocked cell");
    assert_eq!((pos.rows(), pos.cols(), pos.blocked()), (m, n, no));
    assert_same(&pos, &board);
    for &choice in choices {
        let legal = board.legal_cols();
        if legal.is_empty() {
            break;
        }
        let y = legal[choice % legal.len()];
        // Every legal move's win status, before playing one of them.
        for &c in &legal {
            let mut next = board.clone();
            next.play(c);
            let wins = next.winner().is_some();
            assert_eq!(
                pos.is_winning_move(c),
                wins,
                "is_winning_move({c})\n{board:?}"
            );
            let row = (board.top[c] - 1) as usize;
            assert_eq!(pos.landing_row(c), row);
            assert_eq!(
                pos.completes_four(pos.to_move(), row, c),
                wins,
                "completes_four\n{board:?}"
            );
        }
        if board.moves.len() % 7 == 3 {
            assert_from_course(&board);
        }
        let won = pos.play(y);
        board.play(y);
        assert_eq!(
            won,
            board.winner().is_some(),
            "play({y}) win flag\n{board:?}"
        );
        assert_same(&pos, &board);
        if won {
            assert_from_course(&board);
            break;
        }
    }
    if board.is_full() {
        assert_from_course(&board);
    }
    board.moves.len()
}

fn game_strategy() -> impl Strategy<Value = (usize, usize, (usize, usize), Vec<usize>)> {
    (4usize..=12, 4usize..=12).prop_flat_map(|(m, n)| {
        (
            Just(m),
            Just(n),
            (0..m, 0..n),
            prop::collection::vec(0usize..1000, 0..=144),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_games_agree_with_the_slow_referee((m, n, no, choices) in game_strategy()) {
        play_random_game(m, n, no, &choices);
    }

    /// Games that favour one column at a time fill columns early and stack stones around the
    /// blocked cell, which uniform games rarely do on big boards.
    #[test]
    fn column_stacking_games_agree((m, n, no, cols) in game_strategy()) {
        let choices: Vec<usize> = cols.iter().map(|c| c / 250).collect();
        play_random_game(m, n, no, &choices);
    }
}

#[test]
fn long_games_reach_ties_and_full_columns() {
    // Deterministic sweep over every size and several blocked cells with a generator that
    // avoids immediate wins where it can, so many games fill the whole board.
    let mut rng = common::Rng::new(42);
    let mut ties = 0;
    for m in 4..=12 {
        for n in 4..=12 {
            for no in common::referee::placements(m, n) {
                let mut board = Board::new(m, n, no.0, no.1);
                let mut pos = Position::new(m, n, no.0, no.1).unwrap();
                loop {
                    let legal = board.legal_cols();
                    if legal.is_empty() {
                        ties += 1;
                        assert_eq!(pos.open_columns(), 0);
                        assert_eq!(pos.empty_cells(), 0);
                        break;
                    }
                    let quiet: Vec<usize> = legal
                        .iter()
                        .copied()
                        .filter(|&c| !pos.is_winning_move(c))
                        .collect();
                    let pool = if quiet.is_empty() { &legal } else { &quiet };
                    let y = pool[rng.below(pool.len())];
                    let won = pos.play(y);
                    board.play(y);
                    assert_eq!(won, board.winner().is_some(), "{board:?}");
                    assert_same(&pos, &board);
                    if won {
                        break;
                    }
                }
            }
        }
    }
    // Random play rarely draws by itself; this makes sure the "full board" path is covered.
    assert!(ties > 50, "only {ties} games reached a full board");
}

/// Move paths of length `depth` with the bitboard rules (no moves after a win).
fn fast_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    (0..pos.cols())
        .filter(|&c| pos.can_play(c))
        .map(|c| {
            let mut next = pos.clone();
            if next.play(c) {
                u64::from(depth == 1)
            } else {
                fast_perft(&next, depth - 1)
            }
        })
        .sum()
}

fn both_after(m: usize, n: usize, no: (usize, usize), moves: &[usize]) -> (Position, Board) {
    let mut pos = Position::new(m, n, no.0, no.1).unwrap();
    let mut board = Board::new(m, n, no.0, no.1);
    for &y in moves {
        assert!(!pos.play(y));
        board.play(y);
    }
    (pos, board)
}

#[test]
fn perft_matches_the_slow_referee() {
    // (rows, cols, blocked cell, opening moves, depth).
    type PerftCase = (usize, usize, (usize, usize), &'static [usize], u32);
    let cases: &[PerftCase] = &[
        // Standard 6x7 with the blocked cell in a top corner: paths only feel it at depth 6.
        (6, 7, (0, 6), &[], 5),
        // The blocked cell on the bottom row of the centre column.
        (6, 7, (5, 3), &[], 5),
        // Small boards fill columns and meet the blocked cell quickly.
        (4, 4, (0, 0), &[], 8),
        (4, 5, (2, 2), &[2, 2], 7),
        (5, 4, (4, 1), &[1, 0, 1, 0, 1, 0], 6),
        // A 12x12 middle game with threats on the board.
        (12, 12, (6, 6), &[6, 5, 7, 6, 4, 7, 5, 3, 8, 9, 2, 1], 3),
        (9, 10, (8, 9), &[9, 9, 9, 0, 0, 0, 1, 1], 4),
    ];
    for &(m, n, no, moves, depth) in cases {
        let (pos, board) = both_after(m, n, no, moves);
        for d in 1..=depth {
            let slow = perft(&board, d);
            let fast = fast_perft(&pos, d);
            assert_eq!(
                fast, slow,
                "perft({d}) from {m}x{n} blocked {no:?} after {moves:?}"
            );
        }
    }
}

#[test]
fn perft_of_connect_four_is_the_known_sequence() {
    // Checks both implementations against published Connect-4 perft numbers (7 columns,
    // 6 rows): 7^d up to depth 6, then 823536 at depth 7 (7^7 minus the 7 paths that put a
    // seventh stone in one column). Here the blocked cell at the top of column 6 leaves that
    // column 5 cells: at depth 6 the one path of six stones there disappears, at depth 7 also
    // the 7 * 6 paths with exactly six stones there.
    let board = Board::new(6, 7, 0, 6);
    let pos = Position::new(6, 7, 0, 6).unwrap();
    let expected = [7, 49, 343, 2401, 16807, 117_649 - 1, 823_536 - 42];
    for (d, &e) in (1..).zip(&expected) {
        assert_eq!(fast_perft(&pos, d), e, "bitboard perft({d})");
        if d <= 6 {
            assert_eq!(perft(&board, d), e, "reference perft({d})");
        }
    }
}
