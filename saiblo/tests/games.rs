//! Whole games on the platform as the judge emulates it (its `saiblo:` players, through
//! the judge's own referee): the program and the unzipped package against a random legal
//! mover and against themselves, in every message form the judge sends, every reply
//! framed, legal and inside 3 s (the first including start-up), the framed `ok` first, and
//! a clean exit once the game is over.

mod common;

use common::Program;
use gravity4_judge::games::connect4::{BoardSpec, Connect4, Point, Position};
use gravity4_judge::games::{Game, Side, Termination};
use gravity4_judge::players::saiblo::{Form, SaibloPlayer};
use gravity4_judge::players::{Answer, Fault, LogSink, Player, ProcessSettings};
use gravity4_judge::referee;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::Duration;

/// The platform's limit per move.
const MOVE_LIMIT: Duration = Duration::from_secs(3);

/// Short budgets keep the suite fast; the default budget has its own test below.
const BUDGET_MS: u64 = 100;

/// Every form the judge's `saiblo:` players send.
fn forms() -> impl Iterator<Item = Form> {
    Form::SCHEMES.into_iter().map(|(_, form)| form)
}

/// A uniformly random legal mover inside the test, which answers at once (so that the
/// judge's clock for a program's first move runs from the program's start) and, with
/// `quit_after`, stops answering after that many moves (the game then ends by its fault,
/// mid-game for the program).
struct Random {
    rng: SmallRng,
    quit_after: Option<usize>,
}

impl Player<Connect4> for Random {
    fn start(&mut self, _: &Connect4, _: &BoardSpec, _: Side) -> Result<(), Fault> {
        Ok(())
    }

    fn next_move(
        &mut self,
        game: &Connect4,
        position: &Position,
        _: Option<Point>,
        _: Duration,
    ) -> Answer<Point> {
        if let Some(left) = self.quit_after.as_mut() {
            if *left == 0 {
                return Answer::fault(Fault::NoMove);
            }
            *left -= 1;
        }
        let moves = game.legal_moves(position);
        Answer::timed(Ok(moves[self.rng.random_range(0..moves.len())]), 0.0)
    }
}

/// A seat at the game.
enum Seat<'a> {
    /// A program, through the judge's `saiblo:` player.
    Program(&'a Program),
    /// The random mover.
    Random { quit_after: Option<usize> },
}

/// What a program did in one game.
#[derive(Debug)]
struct Conduct {
    /// Its name.
    name: String,
    /// How it ended after its input was closed (`exit status 0`, ...), `None` if the
    /// judge had to kill it.
    exit: Option<String>,
    /// Everything it wrote on stderr.
    stderr: String,
    /// Whether it sent the framed `ok`.
    greeted: bool,
    /// Its answers' times as the judge took them, ms (the first includes start-up).
    replies_ms: Vec<f64>,
}

/// A finished game.
struct Record {
    outcome: referee::Outcome<Connect4>,
    /// For each seat (first, second) that was a program, what it did.
    conduct: [Option<Conduct>; 2],
}

/// A program's player and where its stderr goes.
struct Running<'a> {
    program: &'a Program,
    player: SaibloPlayer,
    log: tempfile::NamedTempFile,
}

/// A seat's player: a program started through the judge's `saiblo:` player in `form`, or
/// the random mover seeded from `rng`.
fn open<'a>(seat: Seat<'a>, form: Form, rng: &mut SmallRng) -> Result<Running<'a>, Random> {
    match seat {
        Seat::Program(program) => {
            let settings = ProcessSettings::current(0).expect("the judge's settings");
            let log = tempfile::NamedTempFile::new().unwrap();
            let sink = Arc::new(LogSink::open(log.path(), 1 << 20).unwrap());
            let player = SaibloPlayer::launch(&settings, &program.argv(), &program.env, form, sink);
            Ok(Running {
                program,
                player,
                log,
            })
        }
        Seat::Random { quit_after } => Err(Random {
            rng: SmallRng::seed_from_u64(rng.random()),
            quit_after,
        }),
    }
}

fn player<'s>(seat: &'s mut Result<Running<'_>, Random>) -> &'s mut dyn Player<Connect4> {
    match seat {
        Ok(running) => &mut running.player,
        Err(random) => random,
    }
}

/// Plays one game between `first` and `second` on `board`, the programs spoken to in
/// `form`, the moves limited to 3 s as the platform limits them.
fn play(first: Seat, second: Seat, board: BoardSpec, form: Form, seed: u64) -> Record {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seats = [open(first, form, &mut rng), open(second, form, &mut rng)];
    let [a, b] = &mut seats;
    let outcome = referee::play(&Connect4, &board, [player(a), player(b)], MOVE_LIMIT);
    let conduct = seats.map(|seat| {
        let running = seat.ok()?;
        Some(Conduct {
            name: running.program.name.clone(),
            exit: running.player.exit().map(String::from),
            stderr: std::fs::read_to_string(running.log.path()).unwrap(),
            greeted: running.player.greeted(),
            replies_ms: Vec::new(),
        })
    });
    let mut record = Record { outcome, conduct };
    // Each side's answers, the first mover's at even plies.
    for (ply, &ms) in record.outcome.move_ms.iter().enumerate() {
        if let Some(conduct) = record.conduct[ply % 2].as_mut() {
            conduct.replies_ms.push(ms);
        }
    }
    record
}

/// The course's board draw from `rng`'s next seed.
fn draw(rng: &mut SmallRng) -> BoardSpec {
    Connect4.setup(rng.random())
}

/// Asserts a game that ended by the rules, not by a verdict on anyone.
fn assert_by_the_rules(record: &Record, board: BoardSpec, form: Form) {
    let outcome = &record.outcome;
    assert!(
        matches!(outcome.termination, Termination::Four | Termination::Full),
        "{:?} ({:?}) in {form:?} on {board:?} after {:?}",
        outcome.termination,
        outcome.detail,
        outcome.moves
    );
}

/// Asserts a program's clean exit after a finished game: status 0 within the judge's
/// grace, the framed `ok` first as it was told, no panic or traceback, every reply in 3 s.
fn assert_clean(conduct: &Conduct, program: &Program) {
    assert_eq!(
        conduct.exit.as_deref(),
        Some("exit status 0"),
        "{}; stderr: {}",
        conduct.name,
        conduct.stderr
    );
    assert!(
        !conduct.stderr.contains("panicked") && !conduct.stderr.contains("Traceback"),
        "{}: {}",
        conduct.name,
        conduct.stderr
    );
    assert_eq!(conduct.greeted, program.hello, "{}", conduct.name);
    let limit_ms = MOVE_LIMIT.as_secs_f64() * 1e3;
    assert!(
        conduct.replies_ms.iter().all(|&ms| ms <= limit_ms),
        "{}: {:?}",
        conduct.name,
        conduct.replies_ms
    );
}

/// Plays `program` against the random mover in every form, once first and once second,
/// and asserts it never loses and exits cleanly each time.
fn never_loses_to_random(program: &Program, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut slowest = 0.0f64;
    let mut games = 0;
    for form in forms() {
        for program_first in [true, false] {
            let board = draw(&mut rng);
            let me = Seat::Program(program);
            let random = Seat::Random { quit_after: None };
            let (first, second) = if program_first {
                (me, random)
            } else {
                (random, me)
            };
            let record = play(first, second, board, form, seed);
            assert_by_the_rules(&record, board, form);
            let program_side = if program_first {
                Side::First
            } else {
                Side::Second
            };
            assert_ne!(
                record.outcome.winner,
                Some(program_side.other()),
                "{} lost to the random mover in {form:?} on {board:?}: {:?}",
                program.name,
                record.outcome.moves
            );
            let conduct = record.conduct[program_side.index()]
                .as_ref()
                .expect("the program played");
            assert_clean(conduct, program);
            slowest = conduct.replies_ms.iter().fold(slowest, |a, &b| a.max(b));
            games += 1;
        }
    }
    assert_eq!(games, 2 * Form::SCHEMES.len());
    eprintln!(
        "{}: {games} games against the random mover, slowest reply {slowest:.0} ms",
        program.name,
    );
}

#[test]
fn binary_never_loses_to_the_random_mover_in_any_form() {
    never_loses_to_random(&Program::binary(BUDGET_MS), 19);
}

#[test]
fn package_never_loses_to_the_random_mover_in_any_form() {
    let dir = common::package();
    never_loses_to_random(&Program::python(dir.path(), BUDGET_MS), 23);
}

/// Both sides programs: every move of both is checked, whoever wins, and both exit
/// cleanly (the one that did not make the last move is told it).
fn plays_itself(first: &Program, second: &Program, forms: &[Form], seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for &form in forms {
        let board = draw(&mut rng);
        let record = play(
            Seat::Program(first),
            Seat::Program(second),
            board,
            form,
            seed,
        );
        assert_by_the_rules(&record, board, form);
        for (conduct, program) in record.conduct.iter().zip([first, second]) {
            assert_clean(conduct.as_ref().expect("a program played"), program);
        }
        eprintln!(
            "{} vs {} in {form:?}: {:?} by {:?} after {} moves",
            first.name,
            second.name,
            record.outcome.winner,
            record.outcome.termination,
            record.outcome.moves.len()
        );
    }
}

#[test]
fn binary_plays_itself_in_every_form() {
    let forms: Vec<Form> = forms().collect();
    plays_itself(&Program::binary(50), &Program::binary(50), &forms, 29);
}

#[test]
fn package_plays_the_binary() {
    let dir = common::package();
    let python = Program::python(dir.path(), 50);
    let binary = Program::binary(50);
    plays_itself(&python, &binary, &[Form::Counted], 31);
    plays_itself(&binary, &python, &[Form::Last], 37);
}

#[test]
fn binary_without_the_hello_plays_a_game() {
    let mut program = Program::binary(BUDGET_MS);
    program.args.push("--no-hello".into());
    // The judge takes an `ok` silently; `assert_clean` checks that none came.
    program.hello = false;
    plays_itself(&program, &Program::binary(BUDGET_MS), &[Form::Counted], 41);
}

/// At the default budget (2000 ms) the first reply, start-up included, stays inside 3 s, in
/// each of `cases` (message form, whether the program moves first). Moving first with moves
/// only is the slowest case: the first message's wait for a board is part of it. Returns
/// the first replies' times, ms.
fn first_move_within_limit(mut program: Program, cases: &[(Form, bool)]) -> Vec<f64> {
    program.env.retain(|(key, _)| key != "GRAVITY4_MOVE_MS");
    program.env.push(("GRAVITY4_MOVE_MS".into(), "2000".into()));
    let board = BoardSpec {
        m: 12,
        n: 12,
        no_x: 5,
        no_y: 6,
    };
    let mut times = Vec::new();
    for &(form, moves_first) in cases {
        // The random mover moves first if the program does not, then quits at its next
        // turn: the program's input closes mid-game.
        let random = Seat::Random {
            quit_after: Some(usize::from(!moves_first)),
        };
        let me = Seat::Program(&program);
        let (first, second) = if moves_first {
            (me, random)
        } else {
            (random, me)
        };
        let record = play(first, second, board, form, 43);
        let outcome = &record.outcome;
        assert_eq!(
            outcome.termination,
            Termination::Null,
            "{:?}",
            outcome.detail
        );
        let conduct = record.conduct[usize::from(!moves_first)]
            .as_ref()
            .expect("the program played");
        assert_eq!(conduct.replies_ms.len(), 1, "{conduct:?}");
        let first_reply = conduct.replies_ms[0];
        assert!(first_reply < 3000.0, "{conduct:?}");
        // It then sees its input close mid-game: one line, an error status, no panic.
        assert_eq!(
            conduct.exit.as_deref(),
            Some("exit status 1"),
            "{conduct:?}"
        );
        assert_eq!(conduct.stderr.lines().count(), 1, "{}", conduct.stderr);
        assert!(
            conduct
                .stderr
                .contains("end of input before the game ended"),
            "{}",
            conduct.stderr
        );
        times.push(first_reply);
    }
    eprintln!(
        "{}: first reply at the default budget, start-up included: {times:?} ms",
        program.name
    );
    times
}

#[test]
fn binary_first_move_at_the_default_budget_is_inside_3s() {
    let cases = [
        (Form::Last, true),
        (Form::Counted, false),
        (Form::Blocks, false),
    ];
    let times = first_move_within_limit(Program::binary(0), &cases);
    // The budget is used, not skipped: the search runs about 2 s.
    assert!(times.iter().all(|&ms| ms >= 1900.0), "{times:?}");
}

#[test]
fn package_first_move_at_the_default_budget_is_inside_3s() {
    let dir = common::package();
    // One case: a Python start-up on a loaded machine is the least predictable part.
    first_move_within_limit(Program::python(dir.path(), 0), &[(Form::Last, true)]);
}
