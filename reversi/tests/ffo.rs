//! The FFO endgame suite (Gunnar Andersson's positions #40-#59, `tests/data/ffo-40-59.txt`):
//! the file reads whole, and the exact solver finds #40's published score and best move. The
//! other positions take from seconds to hours: `examples/ffo.rs` benchmarks them.

use std::time::Duration;

use reversi::search::endgame::Solver;
use reversi::search::endgame::ffo::parse_suite;

const SUITE: &str = include_str!("data/ffo-40-59.txt");

#[test]
fn the_suite_file_holds_positions_40_to_59_with_their_empties() {
    let suite = parse_suite(SUITE).expect("the suite parses");
    let numbers: Vec<u32> = suite.iter().map(|p| p.number).collect();
    assert_eq!(numbers, (40..=59).collect::<Vec<_>>());
    // Each line's comment gives its empties ("# 20 empties"): the board must agree.
    for (p, line) in suite
        .iter()
        .zip(SUITE.lines().filter(|l| !l.starts_with('#')))
    {
        let said = line.split("# ").nth(1).and_then(|c| c.split(' ').next());
        assert_eq!(
            said,
            Some(p.position.empties().to_string().as_str()),
            "{line}"
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes unoptimised; runs in the ci and release profiles"
)]
fn ffo_40_is_solved_with_its_published_score_and_move() {
    let suite = parse_suite(SUITE).expect("the suite parses");
    let p = suite
        .iter()
        .find(|p| p.number == 40)
        .expect("#40 is in the file");
    // Generous: seconds in the ci profile on a loaded machine; the limit only turns a hang
    // into a failure.
    let run = p.solve(&mut Solver::new(), Some(Duration::from_secs(300)));
    let answer = run.answer.expect("solved within the limit");
    assert!(
        p.is_right(answer),
        "found {answer:?}, published {:+} {:?}",
        p.score,
        p.best
    );
    assert!(run.nodes > 0);
}
