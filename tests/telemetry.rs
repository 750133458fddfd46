//! Telemetry: with `GRAVITY4_LOG=1` every `getPoint` writes exactly one stderr line of
//! `key=value` fields (at least `ms`, `iterations`, `nodes`, `move`, `winrate`); without it
//! nothing is printed. Checked in child processes, whose stderr is the library's alone.

mod common;

use common::cdylib::lib;
use common::referee::Board;
use common::{report, reports, run_child, stderr_lines};
use std::collections::BTreeMap;

const BUDGET_MS: u64 = 30;

/// The positions the child plays, one call each: openings, a mid-game, a forced win.
fn positions() -> Vec<Board> {
    let mut mid = Board::new(10, 11, 9, 5);
    for y in [5, 4, 6, 5, 3, 6, 4, 2, 7, 8] {
        mid.play(y);
    }
    let mut win = Board::new(9, 9, 0, 8);
    for y in [0, 0, 1, 1, 2, 2] {
        win.play(y);
    }
    vec![Board::new(9, 9, 4, 4), Board::new(12, 12, 11, 0), mid, win]
}

#[test]
fn child_calls() {
    if !common::is_child() {
        return;
    }
    let lib = lib();
    for board in positions() {
        let (p, _) = lib.call_on_new_thread(&board);
        let p = p.expect("a legal move exists");
        report(&format!("{}", p.y));
    }
}

/// Parses a telemetry line into its fields. A leading tag naming the library (`gravity4:`)
/// is allowed so the line can be told apart on a shared stderr; every other token must be
/// `key=value`.
fn fields(line: &str) -> Result<BTreeMap<String, String>, String> {
    let mut tokens = line.split_whitespace().peekable();
    if tokens
        .peek()
        .is_some_and(|t| t.ends_with(':') && !t.contains('='))
    {
        tokens.next();
    }
    tokens
        .map(|t| match t.split_once('=') {
            Some((k, v)) if !k.is_empty() && !v.is_empty() => Ok((k.to_owned(), v.to_owned())),
            _ => Err(format!("token {t:?} is not key=value in {line:?}")),
        })
        .collect()
}

#[test]
fn log_on_writes_one_key_value_line_per_call() {
    for profile in [None, Some("classic")] {
        check_log_on(profile);
    }
}

fn check_log_on(profile: Option<&str>) {
    let budget = BUDGET_MS.to_string();
    let mut envs = vec![("GRAVITY4_LOG", "1"), ("GRAVITY4_MOVE_MS", budget.as_str())];
    envs.extend(profile.map(|p| ("GRAVITY4_PROFILE", p)));
    let out = run_child("child_calls", &envs);
    let moves = reports(&out);
    let lines = stderr_lines(&out);
    assert_eq!(moves.len(), positions().len());
    assert_eq!(
        lines.len(),
        moves.len(),
        "{profile:?}: one telemetry line per call expected, stderr was {lines:#?}"
    );
    for (line, col) in lines.iter().zip(&moves) {
        let f = fields(line).unwrap_or_else(|e| panic!("{e}"));
        let get = |k: &str| {
            f.get(k)
                .unwrap_or_else(|| panic!("no {k}= in {line:?}"))
                .as_str()
        };
        let ms: u64 = get("ms").parse().expect("ms is an integer");
        let iterations: u64 = get("iterations").parse().expect("iterations: integer");
        let nodes: u64 = get("nodes").parse().expect("nodes: integer");
        let winrate: f64 = get("winrate").parse().expect("winrate: a number");
        assert_eq!(
            get("move"),
            col,
            "move= must be the column returned: {line:?}"
        );
        assert!(
            (0.0..=1.0).contains(&winrate),
            "winrate out of 0..1: {line:?}"
        );
        assert!(nodes >= 1, "the tree has at least its root: {line:?}");
        assert!(iterations >= 1, "a 30 ms search runs iterations: {line:?}");
        // Milliseconds, not microseconds: a 30 ms budget reads as tens, even on a loaded
        // machine (tests/budget.rs holds the tight timing checks).
        assert!(
            ms < 1000,
            "ms={ms} for a {BUDGET_MS} ms budget: wrong unit?"
        );
    }
    // The forced win (last position) should be seen as nearly certain.
    let f = fields(lines.last().unwrap()).unwrap();
    let winrate: f64 = f["winrate"].parse().unwrap();
    assert!(
        winrate > 0.9,
        "winning move reported with winrate {winrate}"
    );
}

#[test]
fn log_off_by_default_prints_nothing() {
    for log in [None, Some("0")] {
        let mut envs = vec![("GRAVITY4_MOVE_MS", "20")];
        envs.extend(log.map(|v| ("GRAVITY4_LOG", v)));
        let out = run_child("child_calls", &envs);
        assert_eq!(reports(&out).len(), positions().len());
        let lines = stderr_lines(&out);
        assert!(
            lines.is_empty(),
            "with GRAVITY4_LOG={log:?} the library must print nothing, got {lines:#?}"
        );
    }
}

#[test]
fn the_parser_rejects_what_it_should() {
    // The checks above are only as good as this parser.
    assert!(fields("ms=1 iterations=2 nodes=3 move=4 winrate=0.5").is_ok());
    assert!(fields("gravity4: ms=1 move=4").is_ok());
    assert!(fields("ms=1 moved to 4").is_err());
    assert!(fields("ms= move=4").is_err());
}

#[test]
#[should_panic(expected = "ran no test")]
fn a_child_name_matching_no_test_fails_the_parent() {
    // The child binary passes with "0 passed" for a name it does not have: run_child must not.
    run_child("child_calls_misspelt", &[]);
}

#[test]
fn the_passed_count_comes_from_the_summary_line() {
    let summary = |n: u32| {
        format!(
            "\nrunning {n} test\nREPORT 4\n.\ntest result: ok. {n} passed; 0 failed; 0 ignored; \
             0 measured; 3 filtered out; finished in 0.05s\n\n"
        )
    };
    assert_eq!(common::tests_passed(&summary(1)), Some(1));
    assert_eq!(common::tests_passed(&summary(0)), Some(0));
    assert_eq!(common::tests_passed("REPORT 4\n"), None);
    assert_eq!(
        common::tests_passed("test result: FAILED. 0 passed; 1 failed;"),
        None
    );
}
