//! Whole games on the emulated platform: the program and the unzipped package against a
//! random legal mover and against themselves, in every message form and layout, the framed
//! `ok` first, every reply framed and inside 3 s (the first including start-up).

mod emulator;

use emulator::{
    Board, Conduct, FORMS, Form, MOVE_LIMIT, Outcome, Player, Program, assert_clean, first_reply,
    package, play,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Duration;

/// Short budgets keep the suite fast; the default budget has its own test below.
const BUDGET_MS: u64 = 100;

/// Plays `program` against the random mover in every form, once first and once second,
/// and asserts it never loses and exits cleanly each time.
fn never_loses_to_random(program: &Program, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut slowest = Duration::ZERO;
    for form in FORMS {
        for program_first in [true, false] {
            let board = Board::draw(&mut rng);
            let me = Player::Program(program.clone());
            let (first, second) = if program_first {
                (me, Player::Random)
            } else {
                (Player::Random, me)
            };
            let record = play(&first, &second, board, form, seed);
            let lost = match record.outcome {
                Outcome::FirstWon => !program_first,
                Outcome::SecondWon => program_first,
                Outcome::Tie => false,
            };
            assert!(
                !lost,
                "{} lost to the random mover in {form:?} on {board:?}: {:?}",
                program.name, record.moves
            );
            let conduct = record.conduct[usize::from(!program_first)]
                .as_ref()
                .expect("the program played");
            assert_clean(conduct);
            slowest = slowest.max(conduct.slowest_reply);
        }
    }
    eprintln!(
        "{}: {} games against the random mover, slowest reply {slowest:?}",
        program.name,
        2 * FORMS.len()
    );
}

#[test]
fn binary_never_loses_to_the_random_mover_in_any_form() {
    never_loses_to_random(&Program::binary(BUDGET_MS), 19);
}

#[test]
fn package_never_loses_to_the_random_mover_in_any_form() {
    let dir = package();
    never_loses_to_random(&Program::python(dir.path(), BUDGET_MS), 23);
}

/// Both sides programs: every move of both is checked, whoever wins.
fn plays_itself(first: &Program, second: &Program, forms: &[Form], seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for &form in forms {
        let board = Board::draw(&mut rng);
        let record = play(
            &Player::Program(first.clone()),
            &Player::Program(second.clone()),
            board,
            form,
            seed,
        );
        for conduct in record.conduct.iter().flatten() {
            assert_clean(conduct);
        }
        eprintln!(
            "{} vs {} in {form:?}: {:?} after {} moves",
            first.name,
            second.name,
            record.outcome,
            record.moves.len()
        );
    }
}

#[test]
fn binary_plays_itself_in_every_form() {
    plays_itself(&Program::binary(50), &Program::binary(50), &FORMS, 29);
}

#[test]
fn package_plays_the_binary() {
    let dir = package();
    let python = Program::python(dir.path(), 50);
    let binary = Program::binary(50);
    plays_itself(&python, &binary, &[Form::Counted], 31);
    plays_itself(&binary, &python, &[Form::MovesOnly], 37);
}

#[test]
fn binary_without_the_hello_plays_a_game() {
    let mut program = Program::binary(BUDGET_MS);
    program.args.push("--no-hello".into());
    // The emulator now takes the first frame for a move, and fails on an `ok`.
    program.hello = false;
    plays_itself(&program, &Program::binary(BUDGET_MS), &[Form::Counted], 41);
}

/// At the default budget (2000 ms) the first reply, start-up included, stays inside 3 s, in
/// each of `cases` (message form, whether the program moves first). Moving first with moves
/// only is the slowest case: the first message's wait for a board is part of it.
fn first_move_within_limit(mut program: Program, cases: &[(Form, bool)]) -> Vec<Duration> {
    program.env.clear();
    program.env.push(("GRAVITY4_MOVE_MS".into(), "2000".into()));
    let board = Board {
        rows: 12,
        cols: 12,
        blocked: (5, 6),
    };
    let mut times = Vec::new();
    for &(form, moves_first) in cases {
        let conduct: Conduct = first_reply(&program, board, form, moves_first);
        assert!(conduct.first_reply < MOVE_LIMIT);
        // It then sees its input close mid-game: one line, an error status, no panic.
        assert!(!conduct.status.success());
        assert_eq!(conduct.stderr.lines().count(), 1, "{}", conduct.stderr);
        times.push(conduct.first_reply);
    }
    eprintln!(
        "{}: first reply at the default budget, start-up included: {times:?}",
        program.name
    );
    times
}

#[test]
fn binary_first_move_at_the_default_budget_is_inside_3s() {
    let cases = [
        (Form::MovesOnly, true),
        (Form::Counted, false),
        (Form::ThreeLines, false),
    ];
    let times = first_move_within_limit(Program::binary(0), &cases);
    // The budget is used, not skipped: the search runs about 2 s.
    assert!(
        times.iter().all(|t| *t >= Duration::from_millis(1900)),
        "{times:?}"
    );
}

#[test]
fn package_first_move_at_the_default_budget_is_inside_3s() {
    let dir = package();
    // One case: a Python start-up on a loaded machine is the least predictable part.
    first_move_within_limit(Program::python(dir.path(), 0), &[(Form::MovesOnly, true)]);
}
