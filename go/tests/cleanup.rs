//! The end of the game through the player, as GTP drives it (issue 49 item 6): with the
//! opponent's dead stones on the board, `kgs-genmove_cleanup` and `genmove` after the
//! opponent's pass take them in as few moves as their liberties need, play no stone into
//! the opponent's area, and pass once none is left. Fixed positions at a fixed seed; a
//! search, where one runs at all, gets 300 playouts.

use go_engine::player::{Generate, Player};
use go_engine::point::{Color, Move, Point};
use go_engine::settings::Settings;
use go_engine::sgf::record::{GameRecord, RecordedMove};

/// A player at seed 41 on the position of `rows` (`X` Black, `O` White, top row first) with
/// `komi`, after the moves `moves`.
fn player(rows: &[&str], komi: f64, moves: &[(Color, Move)]) -> Player {
    let mut settings = Settings::from_vars(|_| None).expect("an empty environment is valid");
    settings.config.seed = Some(41);
    settings.config.threads = 1;
    settings.playouts = Some(300);
    settings.sgf_stats = true;
    let mut record = GameRecord::new(rows.len());
    record.komi = Some(komi);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'X' => record.setup.push((Color::Black, Point::new(x, y))),
                'O' => record.setup.push((Color::White, Point::new(x, y))),
                _ => {}
            }
        }
    }
    for &(color, mv) in moves {
        record.moves.push(RecordedMove {
            color,
            mv,
            comment: None,
        });
    }
    let mut p = Player::new(&settings, rows.len(), komi).expect("a valid size");
    p.load(&record, None).expect("a legal position");
    p
}

/// The final position of the rules check's game 9-2-0 (docs/runs/go-vs-gnugo-37): White's
/// stone at C3 is dead in Black's area, and White (GNU Go) has passed.
const ONE_DEAD_STONE: [&str; 9] = [
    "X.XOO.O..",
    ".XXO.O.O.",
    "..XXO.O.O",
    "XXXOOO.O.",
    "..XXXOO.O",
    ".XXXOOXOO",
    ".XOXOOXXO",
    ".X.XOXXXX",
    "XXXXXX.X.",
];

/// The one dead stone with both sides cleaning up (each side's moves by
/// `kgs-genmove_cleanup`): Black captures it at its last liberty, C2, and both pass. Before
/// the directed cleanup the same self-play took 16 moves, with White's stones played into
/// Black's area and captured there.
#[test]
fn one_dead_stone_goes_in_one_move_when_both_sides_clean_up() {
    let mut p = player(&ONE_DEAD_STONE, 7.5, &[(Color::White, Move::Pass)]);
    let mut moves = Vec::new();
    while !p.engine().game().is_over() && moves.len() < 20 {
        let color = p.engine().game().to_move();
        moves.push(p.genmove(color, Generate::Cleanup));
    }
    let c2 = Move::Play(Point::new(2, 7));
    assert_eq!(moves, vec![c2, Move::Pass, Move::Pass]);
    assert_eq!(p.engine().board().stone_at(Point::new(2, 6)), None);
    assert_eq!(p.final_score(), "B+3.5");
    // The directed move's comment: the status playouts, no search tree.
    let comment = p.comments()[1].clone().expect("our move's statistics");
    assert!(comment.contains("visits 0"), "{comment}");
}

/// After both sides passed (KGS then asks for `kgs-genmove_cleanup`), White's three dead
/// stones in Black's corner (seven liberties) go in seven moves of Black's, all in its
/// corner, while White passes; then Black passes.
#[test]
fn a_dead_group_after_two_passes_goes_in_as_many_moves_as_it_has_liberties() {
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
    let passes = [(Color::Black, Move::Pass), (Color::White, Move::Pass)];
    let mut p = player(&rows, 7.5, &passes);
    assert!(p.engine().game().is_over());
    let mut answers = Vec::new();
    loop {
        let mv = p.genmove(Color::Black, Generate::Cleanup);
        answers.push(mv);
        if mv == Move::Pass || answers.len() == 12 {
            break;
        }
        p.play(Color::White, Move::Pass).unwrap();
    }
    assert_eq!(answers.len(), 8, "7 liberties, then a pass: {answers:?}");
    for mv in &answers[..7] {
        assert!(
            matches!(mv, Move::Play(pt) if pt.x < 4 && pt.y < 4),
            "{mv:?} outside Black's corner"
        );
    }
    assert_eq!(answers[7], Move::Pass);
    for (x, y) in [(1, 1), (2, 1), (1, 2)] {
        assert_eq!(p.engine().board().stone_at(Point::new(x, y)), None);
    }
    assert_eq!(p.final_score(), "B+10.5", "45 points against 27, komi 7.5");
}
