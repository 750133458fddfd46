//! The time budget: 2000 ms by default, counted from entry into `getPoint`;
//! `GRAVITY4_MOVE_MS` overrides it; a call may overrun by at most 20 ms. Measured as the
//! judge measures, from the creation of the thread that calls `getPoint`.
//!
//! On this shared two-core machine the assertion is generous (budget + 100 ms); the measured
//! overrun is printed (`cargo test --release --test budget -- --nocapture`).

mod common;

use common::cdylib::lib;
use common::referee::Board;
use common::{report, reports, run_child};

/// Positions where nothing is forced, so a search should use its whole budget.
fn positions() -> Vec<Board> {
    let mut mid = Board::new(12, 12, 6, 6);
    for y in [6, 5, 7, 6, 4, 7, 5, 3, 8, 9, 2, 1] {
        mid.play(y);
    }
    vec![
        Board::new(12, 12, 0, 0),
        Board::new(9, 9, 8, 4),
        mid,
        Board::new(10, 12, 5, 11),
    ]
}

#[test]
fn child_timed_calls() {
    if !common::is_child() {
        return;
    }
    let lib = lib();
    let count: usize = std::env::var("CALLS").map_or(usize::MAX, |c| c.parse().unwrap());
    for board in positions().into_iter().take(count) {
        let (p, elapsed) = lib.call_on_new_thread(&board);
        let p = p.expect("a legal move exists");
        assert!(board.is_legal(p.x, p.y));
        report(&format!("{}", elapsed.as_secs_f64() * 1000.0));
    }
}

/// Times the child's calls with these library settings; returns milliseconds per call.
fn timed(envs: &[(&str, &str)]) -> Vec<f64> {
    let out = run_child("child_timed_calls", envs);
    reports(&out).iter().map(|t| t.parse().unwrap()).collect()
}

fn worst(times: &[f64]) -> f64 {
    times.iter().cloned().fold(f64::MIN, f64::max)
}

/// Calls per setting are timed up to `ATTEMPTS` times and each position keeps its best
/// time: a real overrun repeats, a scheduling hiccup on a loaded machine does not.
const ATTEMPTS: usize = 3;

/// Best time per call over attempts, stopping once every call satisfies `ok`.
fn best_of(envs: &[(&str, &str)], ok: impl Fn(f64) -> bool) -> Vec<f64> {
    let mut best = timed(envs);
    for _ in 1..ATTEMPTS {
        if best.iter().all(|&t| ok(t)) {
            break;
        }
        println!("retrying {envs:?} after {best:.1?} ms");
        for (b, t) in best.iter_mut().zip(timed(envs)) {
            *b = b.min(t);
        }
    }
    best
}

#[test]
fn move_ms_overrides_the_budget_and_is_not_overrun() {
    const BUDGET: f64 = 200.0;
    let within = |t: f64| t < BUDGET + 100.0;
    let settings: [&[(&str, &str)]; 2] = [
        &[("GRAVITY4_MOVE_MS", "200"), ("GRAVITY4_PROFILE", "classic")],
        &[("GRAVITY4_MOVE_MS", "200")],
    ];
    let runs: Vec<Vec<f64>> = std::thread::scope(|s| {
        let handles: Vec<_> = settings
            .iter()
            .map(|e| s.spawn(move || best_of(e, within)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, times) in ["classic", "default profile"].iter().zip(&runs) {
        assert_eq!(times.len(), positions().len());
        println!(
            "budget {BUDGET} ms, {name}: calls took {times:.1?} ms, worst overrun {:+.1} ms",
            worst(times) - BUDGET
        );
        for &t in times {
            assert!(
                within(t),
                "{name}: a {BUDGET} ms call took {t:.1} ms in each of {ATTEMPTS} attempts \
                 (limit: overrun under 20 ms; 100 ms allowed on a shared machine)"
            );
        }
    }
    // The classic UCT always searches until its deadline: far below the budget would mean
    // the override was not honoured (the default profile stops early when the root is
    // proven or has a proven winning move).
    for &t in &runs[0] {
        assert!(
            t >= BUDGET * 0.9,
            "classic: a {BUDGET} ms call returned after {t:.1} ms"
        );
    }
}

#[test]
fn default_budget_is_two_seconds() {
    let in_range = |t: f64| (1900.0..2100.0).contains(&t);
    let runs: Vec<f64> = std::thread::scope(|s| {
        let classic = s.spawn(move || {
            best_of(&[("CALLS", "1"), ("GRAVITY4_PROFILE", "classic")], in_range)[0]
        });
        let default = s.spawn(move || best_of(&[("CALLS", "1")], |t| t < 2100.0)[0]);
        vec![classic.join().unwrap(), default.join().unwrap()]
    });
    let (classic, default) = (runs[0], runs[1]);
    println!("default budget: classic took {classic:.1} ms, the default profile {default:.1} ms");
    assert!(
        in_range(classic),
        "the default budget should be 2000 ms: a classic call took {classic:.1} ms"
    );
    assert!(
        default < 2100.0,
        "the default profile overran the 2000 ms default: {default:.1} ms"
    );
}
