//! The bitboard rules against a slow, obviously-correct reference written with (row, col)
//! loops: flips, legal moves, passes, the house rule, game end and disc bookkeeping, on random
//! positions (proptest) and over 1,000 random games per rule set. Perft to depth 8 runs in
//! release (`cargo test -p reversi --release -- --ignored`).

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use reversi::{Color, Move, Position, Rule, Square, perft};

/// The reference board: `cells[row][col]` is 0 empty, 1 black, 2 white.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Board {
    cells: [[u8; 8]; 8],
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn colour_code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

impl Board {
    fn of(pos: &Position) -> Board {
        let mut cells = [[0u8; 8]; 8];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let bit = 1u64 << (r * 8 + c);
                if pos.black() & bit != 0 {
                    *cell = 1;
                } else if pos.white() & bit != 0 {
                    *cell = 2;
                }
            }
        }
        Board { cells }
    }

    /// The cells a disc of `me` at (r, c) flips, walking each direction plainly.
    fn flips(&self, me: u8, r: i32, c: i32) -> Vec<(i32, i32)> {
        let mut all = Vec::new();
        if self.cells[r as usize][c as usize] != 0 {
            return all;
        }
        let them = 3 - me;
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let (mut rr, mut cc) = (r + dr, c + dc);
            while (0..8).contains(&rr) && (0..8).contains(&cc) {
                let v = self.cells[rr as usize][cc as usize];
                if v == them {
                    line.push((rr, cc));
                } else {
                    if v == me && !line.is_empty() {
                        all.extend(line.iter().copied());
                    }
                    break;
                }
                rr += dr;
                cc += dc;
            }
        }
        all
    }

    /// Standard-rule moves of `me`, row-major.
    fn moves(&self, me: u8) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for r in 0..8 {
            for c in 0..8 {
                if !self.flips(me, r, c).is_empty() {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn count(&self, v: u8) -> usize {
        self.cells.iter().flatten().filter(|&&x| x == v).count()
    }
}

/// The reference's legal moves for `pos` (house rule included): squares, `[Pass]`, or none.
fn reference_moves(pos: &Position) -> Vec<Move> {
    let board = Board::of(pos);
    let me = colour_code(pos.to_move());
    let standard = board.moves(me);
    let theirs = board.moves(3 - me);
    if standard.is_empty() && theirs.is_empty() {
        return Vec::new();
    }
    let forbidden = |r: i32, c: i32| match (pos.rule(), pos.last_move()) {
        (Rule::NoAdjacent, Some(Move::Play(sq))) => {
            (r - sq.row() as i32).abs() + (c - sq.col() as i32).abs() == 1
        }
        _ => false,
    };
    let allowed: Vec<Move> = standard
        .into_iter()
        .filter(|&(r, c)| !forbidden(r, c))
        .map(|(r, c)| Move::Play(Square::from_row_col(r as u8, c as u8).unwrap()))
        .collect();
    if allowed.is_empty() {
        vec![Move::Pass]
    } else {
        allowed
    }
}

/// Checks one move against the reference: legality, the exact flipped set, the counts.
fn check_move(pos: &Position, mv: Move) -> Position {
    let moves = reference_moves(pos);
    assert_eq!(pos.legal_moves(), moves, "legal moves of\n{pos}");
    assert!(moves.contains(&mv));
    let next = pos.play(mv).unwrap();
    let before = Board::of(pos);
    let after = Board::of(&next);
    let me = colour_code(pos.to_move());
    assert_eq!(next.to_move(), pos.to_move().other());
    assert_eq!(next.last_move(), Some(mv));
    match mv {
        Move::Pass => assert_eq!(before, after),
        Move::Play(sq) => {
            let (r, c) = (sq.row() as i32, sq.col() as i32);
            let flips = before.flips(me, r, c);
            let mut expected = before;
            expected.cells[r as usize][c as usize] = me;
            for &(fr, fc) in &flips {
                expected.cells[fr as usize][fc as usize] = me;
            }
            assert_eq!(after, expected, "{mv} from\n{pos}");
            // Bookkeeping: one disc more for the mover plus the flips; the flips less for the
            // other side.
            assert_eq!(after.count(me), before.count(me) + 1 + flips.len());
            assert_eq!(after.count(3 - me), before.count(3 - me) - flips.len());
            assert_eq!(next.empties() + 1, pos.empties());
        }
    }
    next
}

/// Plays one random game, every move checked; the final position.
fn random_game(rule: Rule, rng: &mut SmallRng) -> Position {
    let mut pos = Position::start(rule);
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(pos.is_game_over());
            assert!(reference_moves(&pos).is_empty());
            let board = Board::of(&pos);
            assert!(board.moves(1).is_empty() && board.moves(2).is_empty());
            let result = pos.result().unwrap();
            assert_eq!(result.black as usize, board.count(1));
            assert_eq!(result.white as usize, board.count(2));
            return pos;
        }
        assert!(pos.result().is_none());
        let mv = moves[rng.random_range(0..moves.len())];
        pos = check_move(&pos, mv);
    }
}

#[test]
fn thousand_random_games_per_rule_match_the_reference() {
    for (rule, seed) in [(Rule::Standard, 1), (Rule::NoAdjacent, 2)] {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut passes = 0;
        for _ in 0..1000 {
            let end = random_game(rule, &mut rng);
            assert!(end.empties() < 60);
            passes += u32::from(end.last_move() == Some(Move::Pass));
        }
        let _ = passes;
    }
}

#[test]
fn house_rule_games_do_pass_under_the_rule() {
    // Some random house-rule game must reach a pass forced by the rule alone (standard moves
    // exist but all touch the last move): the case the rule adds.
    let mut rng = SmallRng::seed_from_u64(3);
    let mut seen = 0;
    for _ in 0..300 {
        let mut pos = Position::start(Rule::NoAdjacent);
        while !pos.is_game_over() {
            let moves = pos.legal_moves();
            if moves == [Move::Pass] {
                let standard = reversi::bitboard::legal_moves(pos.own(), pos.opp());
                if standard != 0 {
                    seen += 1;
                    // After the pass the rule is lifted: the opponent's moves are standard.
                    let next = pos.play(Move::Pass).unwrap();
                    assert_eq!(next.forbidden(), 0);
                }
            }
            pos = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
    }
    assert!(seen > 0, "no rule-forced pass in 300 games");
}

#[test]
fn perft_to_depth_6() {
    let p = Position::start(Rule::Standard);
    let expected = [1, 4, 12, 56, 244, 1396, 8200];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32), n);
    }
}

#[test]
#[ignore = "seconds in debug; run in release with --ignored"]
fn perft_to_depth_8() {
    let p = Position::start(Rule::Standard);
    assert_eq!(perft(&p, 7), 55092);
    assert_eq!(perft(&p, 8), 390216);
}

/// A position reached by `plies` random moves from the start.
fn walk(rule: Rule, seed: u64, plies: usize) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::start(rule);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Flips are exactly the bracketed discs, and every legal square of the bitboards is one
    /// of the reference's, on positions all through the game.
    #[test]
    fn flips_and_moves_match_the_reference(seed in any::<u64>(), plies in 0usize..64, nadj in any::<bool>()) {
        let rule = if nadj { Rule::NoAdjacent } else { Rule::Standard };
        let pos = walk(rule, seed, plies);
        let moves = reference_moves(&pos);
        prop_assert_eq!(pos.legal_moves(), moves.clone());
        for mv in moves {
            check_move(&pos, mv);
        }
        // Squares that are not legal are refused with an error, never applied.
        for i in 0..64 {
            let mv = Move::Play(Square::new(i).unwrap());
            prop_assert_eq!(pos.play(mv).is_ok(), pos.legal_moves().contains(&mv));
        }
        prop_assert_eq!(pos.play(Move::Pass).is_ok(), pos.legal_moves() == [Move::Pass]);
    }

    /// Arbitrary disc layouts (not only reachable ones): the bitboard flips of every empty
    /// square equal the reference's.
    #[test]
    fn flips_on_arbitrary_boards(black in any::<u64>(), white_raw in any::<u64>(), white_to_move in any::<bool>()) {
        let white = white_raw & !black;
        let to_move = if white_to_move { Color::White } else { Color::Black };
        let pos = Position::from_parts(black, white, to_move, None, Rule::Standard).unwrap();
        let board = Board::of(&pos);
        let me = colour_code(to_move);
        let mut expected_moves = 0u64;
        for r in 0..8 {
            for c in 0..8 {
                let sq = Square::from_row_col(r as u8, c as u8).unwrap();
                if board.cells[r as usize][c as usize] != 0 {
                    continue;
                }
                let flips = board.flips(me, r, c);
                let mask: u64 = flips.iter().map(|&(fr, fc)| 1u64 << (fr * 8 + fc)).sum();
                prop_assert_eq!(reversi::bitboard::flips(pos.own(), pos.opp(), sq), mask);
                if !flips.is_empty() {
                    expected_moves |= sq.bit();
                }
            }
        }
        prop_assert_eq!(pos.move_mask(), expected_moves);
    }
}
