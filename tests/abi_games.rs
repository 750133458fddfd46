//! The C ABI end to end: the release cdylib loaded with `libloading` as the course judge
//! loads it, whole games through `getPoint`/`clearPoint` on every board size the judge draws,
//! with the blocked cell at the corners, edge middles and centre. Every move must be legal.

mod common;

use common::cdylib::{Mover, Outcome, lib, parallel, play_game};
use common::referee::{Board, placements};
use std::time::Duration;

const SIZES: std::ops::RangeInclusive<usize> = 9..=12;

/// The judge's limit is 3 s per move; at a 15 ms budget anything near it is a hang.
const HANG: Duration = Duration::from_millis(1500);

#[test]
fn every_size_and_blocked_placement_against_a_random_mover() {
    // 16 sizes x 9 placements; the library alternates between moving first and second.
    let mut jobs = Vec::new();
    for m in SIZES {
        for n in SIZES {
            for (i, no) in placements(m, n).into_iter().enumerate() {
                jobs.push((m, n, no, (m * 100 + n * 10 + i) as u64));
            }
        }
    }
    let games = parallel(jobs, 4, |(m, n, no, seed)| {
        let movers = if seed % 2 == 0 {
            [Mover::Library, Mover::Random(seed)]
        } else {
            [Mover::Random(seed), Mover::Library]
        };
        let game = play_game(m, n, no, movers);
        (m, n, no, seed, game)
    });
    let mut library_wins = 0;
    for (m, n, no, seed, game) in &games {
        assert!(
            game.slowest < HANG,
            "{m}x{n} blocked {no:?}: a move took {:?}",
            game.slowest
        );
        let library = if seed % 2 == 0 { 1 } else { 2 };
        if game.outcome == Outcome::Win(library) {
            library_wins += 1;
        }
    }
    // A search that returned any legal move at random would win about half; UCT should
    // crush a random mover. Loose bound: this checks the moves are chosen, not strength.
    assert!(
        library_wins * 10 >= games.len() * 9,
        "the library beat a random mover only {library_wins} times in {}",
        games.len()
    );
}

#[test]
fn self_play_through_one_loaded_instance() {
    // Both sides call the same loaded library alternately with opposite views, as the judge
    // does when a library plays itself. One game per size, placements cycling.
    let jobs: Vec<_> = SIZES
        .flat_map(|m| SIZES.map(move |n| (m, n)))
        .enumerate()
        .map(|(i, (m, n))| (m, n, placements(m, n)[i % 9]))
        .collect();
    let games = parallel(jobs, 4, |(m, n, no)| {
        (
            m,
            n,
            no,
            play_game(m, n, no, [Mover::Library, Mover::Library]),
        )
    });
    for (m, n, no, game) in &games {
        assert!(
            game.slowest < HANG,
            "{m}x{n} blocked {no:?}: a move took {:?}",
            game.slowest
        );
        // A self-play game that ended by a win must have put a four on the board; one that
        // ended by a tie must have filled every playable cell.
        match game.outcome {
            Outcome::Win(_) => assert!(game.board.winner().is_some()),
            Outcome::Tie => assert_eq!(game.board.empty_cells(), 0, "{:?}", game.board),
        }
    }
}

#[test]
fn takes_an_immediate_win_through_the_abi() {
    // 9x9, blocked (0, 8): the mover (2) has three on the bottom row at columns 0..2 and the
    // opponent's stones are stacked above them; column 3 wins at once.
    let mut board = Board::new(9, 9, 0, 8);
    for y in [0, 0, 1, 1, 2, 2] {
        board.play(y);
    }
    // After six moves the first player (our mover) is to move and holds (8,0),(8,1),(8,2).
    let (point, _) = lib().call_on_new_thread(&board);
    let p = point.expect("a legal move exists");
    assert_eq!((p.x, p.y), (8, 3), "missed the win\n{board:?}");
}

#[test]
fn blocks_an_immediate_loss_through_the_abi() {
    // The opponent has three on the bottom row (columns 1..3); column 0 holds our stone, so
    // only column 4 stops the four.
    let mut board = Board::new(9, 9, 0, 8);
    for y in [0, 1, 8, 2, 8, 3] {
        board.play(y);
    }
    assert_eq!(board.to_move(), 1);
    let (point, _) = lib().call_on_new_thread(&board);
    let p = point.expect("a legal move exists");
    assert_eq!((p.x, p.y), (8, 4), "did not block\n{board:?}");
}

#[test]
fn the_opening_move_after_the_opponent_and_from_scratch() {
    // lastX/lastY = (-1, -1) when the library moves first, the opponent's move otherwise;
    // both must give a legal answer, including when the blocked cell sits in the bottom row
    // of the column the opponent just played (top skips it).
    let lib = lib();
    for (m, n) in [(9, 9), (12, 12), (9, 12), (12, 9)] {
        for no in placements(m, n) {
            let mut board = Board::new(m, n, no.0, no.1);
            let (p, _) = lib.call_on_new_thread(&board);
            let p = p.expect("first move");
            assert!(board.is_legal(p.x, p.y), "{p:?}\n{board:?}");
            board.play(no.1);
            let (p, _) = lib.call_on_new_thread(&board);
            let p = p.expect("reply");
            assert!(board.is_legal(p.x, p.y), "{p:?}\n{board:?}");
        }
    }
}

#[test]
fn a_single_open_column_is_played_even_if_the_blocked_cell_is_in_it() {
    // Everything but one column filled without a four: the only legal move is forced, and
    // top of that column skips the blocked cell.
    let lib = lib();
    let (m, n) = (9, 9);
    for no in [(8, 4), (0, 4), (4, 4)] {
        let board = Board::filled_except(m, n, no.0, no.1, 4);
        assert_eq!(board.legal_cols(), vec![4], "{board:?}");
        let p = lib.call(
            m,
            n,
            &board.top,
            &board.view(board.to_move()),
            board.last(),
            no,
        );
        let p = p.expect("one legal move left");
        assert!(board.is_legal(p.x, p.y), "{p:?}\n{board:?}");
    }
}

#[test]
fn child_games() {
    if !common::is_child() {
        return;
    }
    // Corner and edge placements on the four extreme sizes, self-play and against a random
    // mover, under whatever profile the parent chose.
    let mut jobs = Vec::new();
    for (i, (m, n)) in [(9, 9), (9, 12), (12, 9), (12, 12)].into_iter().enumerate() {
        let p = placements(m, n);
        jobs.push((m, n, p[i], [Mover::Library, Mover::Library]));
        jobs.push((m, n, p[i + 4], [Mover::Library, Mover::Random(i as u64)]));
        jobs.push((m, n, p[8 - i], [Mover::Random(i as u64), Mover::Library]));
    }
    for (m, n, no, game) in parallel(jobs, 4, |(m, n, no, movers)| {
        (m, n, no, play_game(m, n, no, movers))
    }) {
        assert!(game.slowest < HANG, "{m}x{n} {no:?}: {:?}", game.slowest);
    }
}

#[test]
fn classic_profile_games_are_legal_too() {
    // The default profile is covered in-process above; the classic UCT is selected with
    // GRAVITY4_PROFILE, which needs a process of its own.
    common::run_child(
        "child_games",
        &[
            ("GRAVITY4_PROFILE", "classic"),
            ("GRAVITY4_MOVE_MS", common::cdylib::TEST_MOVE_MS),
        ],
    );
}

#[test]
fn state_kept_between_calls_never_leaks_into_another_position() {
    // The library may keep its search between calls (keyed by position and lastX/lastY).
    // X (the library) must block column 4; after O's reply in column 8, X wins in column 4.
    // Unrelated calls in between (another game, the other side's view) and a lying lastX/lastY
    // must not change either answer.
    let lib = lib();
    let p1 = Board::from_diagram(&[
        "........#",
        ".........",
        ".........",
        ".........",
        ".........",
        "XOOO.....",
        "OOXXX....",
        "XXXOX....",
        "XOXXO....",
    ]);
    let mut p2 = p1.clone();
    p2.cells[5 * 9 + 4] = 1; // X blocks at (5, 4)
    p2.top[4] = 5;
    p2.cells[8 * 9 + 8] = 2; // O replies at (8, 8)
    p2.top[8] = 8;
    assert_eq!(p2.winner(), None);
    let no = (p1.no_x, p1.no_y);
    let ask = |b: &Board, last: (i32, i32)| {
        let p = lib
            .call(9, 9, &b.top, &b.view(1), last, no)
            .expect("legal moves exist");
        (p.x, p.y)
    };
    let other = Board::new(12, 12, 3, 7);
    for round in 0..2 {
        assert_eq!(
            ask(&p1, (5, 3)),
            (5, 4),
            "round {round}: must block\n{p1:?}"
        );
        if round == 1 {
            // Another game, and the opponent's view of this one, between the two moves.
            lib.call(12, 12, &other.top, &other.view(1), (-1, -1), (3, 7));
            lib.call(9, 9, &p2.top, &p2.view(2), (5, 4), no);
        }
        assert_eq!(ask(&p2, (8, 8)), (4, 4), "round {round}: must win\n{p2:?}");
        assert_eq!(ask(&p2, (8, 0)), (4, 4), "lying lastX/lastY\n{p2:?}");
        assert_eq!(ask(&p2, (-1, -1)), (4, 4), "no last move\n{p2:?}");
    }
}
