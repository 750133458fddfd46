//! The fast rules against the reference rules: random games on random board sizes, with
//! legal and illegal attempts, both colours, passes, handicap and undo, compared after every
//! step: each point's colour, each group's liberty count, the captures, each move's verdict
//! (superko included) and the Tromp-Taylor score.

use go_engine::game::Game;
use go_engine::point::{Color, Move, Point};
use go_engine::reference::Reference;
use proptest::prelude::*;

/// One step of a random game.
#[derive(Clone, Debug)]
enum Step {
    /// The side to move (or, when `other`, its opponent) plays the `pick`-th empty point.
    Empty {
        pick: u16,
        other: bool,
    },
    /// A stone at raw coordinates, possibly off the board or occupied.
    Raw {
        x: u8,
        y: u8,
        other: bool,
    },
    Pass,
    Undo,
    Resign,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        70 => (any::<u16>(), prop::bool::weighted(0.05))
            .prop_map(|(pick, other)| Step::Empty { pick, other }),
        15 => (0u8..21, 0u8..21, prop::bool::weighted(0.1))
            .prop_map(|(x, y, other)| Step::Raw { x, y, other }),
        6 => Just(Step::Pass),
        8 => Just(Step::Undo),
        1 => Just(Step::Resign),
    ]
}

/// How the game starts: nothing, a fixed handicap, or free handicap stones.
#[derive(Clone, Debug)]
enum Start {
    Even,
    Fixed(usize),
    Free(Vec<(u8, u8)>),
}

fn game() -> impl Strategy<Value = (usize, Start, Vec<Step>)> {
    let size = prop_oneof![3 => 2usize..=5, 3 => 6usize..=9, 1 => 10usize..=19];
    size.prop_flat_map(|size| {
        let start = prop_oneof![
            6 => Just(Start::Even),
            1 => (2usize..=9).prop_map(Start::Fixed),
            1 => prop::collection::vec((0..size as u8, 0..size as u8), 2..6).prop_map(Start::Free),
        ];
        let len = 4 * size * size;
        (
            Just(size),
            start,
            prop::collection::vec(step(), 0..len.min(400)),
        )
    })
}

/// Asserts that the two games show the same position.
fn same_position(fast: &Game, slow: &Reference) {
    let size = fast.size();
    let board = fast.board();
    for y in 0..size {
        for x in 0..size {
            let p = Point::new(x, y);
            assert_eq!(board.stone_at(p), slow.stone(p), "colour of {p:?}");
            if board.stone_at(p).is_some() {
                assert_eq!(
                    board.libs(board.index(p)),
                    slow.liberties(p),
                    "liberties at {p:?}"
                );
            }
        }
    }
    for c in [Color::Black, Color::White] {
        assert_eq!(board.captures(c), slow.captures(c), "captures by {c}");
    }
    assert_eq!(fast.score(), slow.score(), "Tromp-Taylor score");
}

/// Asserts the same verdict for every point and both colours (small boards).
fn same_verdicts(fast: &Game, slow: &Reference) {
    let size = fast.size();
    for y in 0..size {
        for x in 0..size {
            for c in [Color::Black, Color::White] {
                let mv = Move::Play(Point::new(x, y));
                assert_eq!(fast.check(c, mv), slow.check(c, mv), "{c} at ({x}, {y})");
            }
        }
    }
}

fn run(size: usize, start: Start, steps: Vec<Step>) {
    let komi = 7.5;
    let mut fast = Game::new(size, komi).unwrap();
    let mut slow = Reference::new(size, komi);
    match start {
        Start::Even => {}
        Start::Fixed(n) => {
            if let Ok(points) = fast.fixed_handicap(n) {
                for p in points {
                    slow.place(Color::Black, p);
                }
            }
        }
        Start::Free(points) => {
            let points: Vec<Point> = points
                .iter()
                .map(|&(x, y)| Point::new(x.into(), y.into()))
                .collect();
            if fast.set_free_handicap(&points).is_ok() {
                for p in points {
                    slow.place(Color::Black, p);
                }
            }
        }
    }
    same_position(&fast, &slow);
    for step in steps {
        let mover = |other: bool| {
            if other {
                fast.to_move().opponent()
            } else {
                fast.to_move()
            }
        };
        let (color, mv) = match step {
            Step::Empty { pick, other } => {
                let empties: Vec<Point> = (0..size * size)
                    .map(|i| Point::new(i % size, i / size))
                    .filter(|&p| slow.stone(p).is_none())
                    .collect();
                if empties.is_empty() {
                    (mover(other), Move::Pass)
                } else {
                    let p = empties[usize::from(pick) % empties.len()];
                    (mover(other), Move::Play(p))
                }
            }
            Step::Raw { x, y, other } => (mover(other), Move::Play(Point::new(x.into(), y.into()))),
            Step::Pass => (fast.to_move(), Move::Pass),
            Step::Resign => (fast.to_move(), Move::Resign),
            Step::Undo => {
                let undone = fast.undo().is_ok();
                assert_eq!(undone, slow.undo(), "undo verdict");
                same_position(&fast, &slow);
                continue;
            }
        };
        let a = fast.play(color, mv);
        let b = slow.play(color, mv);
        assert_eq!(a, b, "{color} {mv:?}");
        same_position(&fast, &slow);
        if size <= 7 {
            same_verdicts(&fast, &slow);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn fast_rules_agree_with_the_reference((size, start, steps) in game()) {
        run(size, start, steps);
    }
}

/// A long game on each small size that reaches many captures and ko fights: the random
/// games above are short on the bigger boards.
#[test]
fn long_random_games_on_small_boards() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(37);
    for size in 2..=6 {
        for _ in 0..4 {
            let steps: Vec<Step> = (0..600)
                .map(|_| match rng.random_range(0..100) {
                    0..=89 => Step::Empty {
                        pick: rng.random(),
                        other: rng.random_bool(0.03),
                    },
                    90..=95 => Step::Pass,
                    _ => Step::Undo,
                })
                .collect();
            run(size, Start::Even, steps);
        }
    }
}
