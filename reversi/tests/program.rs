//! The `reversi` program end to end: GTP and Botzone over pipes, and clear errors (no panic
//! trace) on malformed input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], input: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reversi"));
    // Only the variables a test sets: none leaks in from the caller's environment.
    for name in reversi::settings::ENV_VARS {
        cmd.env_remove(name);
    }
    cmd.args(args)
        .env("REVERSI_MOVE_MS", "50")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the reversi binary starts");
    // A program that stops at start-up closes its stdin unread: that broken pipe is not the
    // test's failure, its exit status and stderr say what happened.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn gtp_plays_a_game_fragment_and_logs() {
    let out = run(
        &["gtp", "--rule", "no-adjacent", "--log"],
        "1 boardsize 8\n2 clear_board\n3 play black d3\n4 play white e3\n5 genmove white\n6 quit\n",
        &[],
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(&replies[..4], ["=1", "=2", "=3", "?4 illegal move"]);
    // Under the house rule, white's only reply to d3 is c5.
    assert_eq!(replies[4], "=5 c5");
    assert_eq!(replies[5], "=6");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("ms=") && stderr.contains("move=c5"),
        "{stderr}"
    );
}

#[test]
fn botzone_one_turn() {
    let out = run(
        &["botzone"],
        "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}",
        &[],
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let legal = [(3, 2), (2, 3), (5, 4), (4, 5)];
    assert!(
        legal
            .iter()
            .any(|(x, y)| stdout.trim() == format!("{{\"response\":{{\"x\":{x},\"y\":{y}}}}}")),
        "{stdout}"
    );
}

#[test]
fn malformed_input_gets_a_clear_error_and_no_panic() {
    for (args, input, env) in [
        (vec!["botzone"], "garbage", vec![]),
        (
            vec!["botzone"],
            "{\"requests\":[{\"x\":7,\"y\":7}]}",
            vec![],
        ),
        (vec!["botzone"], "", vec![]),
        (vec!["gtp"], "", vec![("REVERSI_MOVE_MS", "soon")]),
        (vec!["gtp"], "", vec![("REVERSI_PROFILE", "weak")]),
    ] {
        let out = run(&args, input, &env);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} {input:?}: {stderr}");
        assert!(stderr.starts_with("reversi: "), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // Bad flags are clap's errors (status 2), not panics.
    let out = run(&["gtp", "--rule", "diagonal"], "", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("no-adjacent")
    );
}

#[test]
fn a_bad_setting_stops_every_mode_at_start_up_with_one_line() {
    let modes: [&[&str]; 3] = [
        &["gtp"],
        &["botzone", "--keep-running"],
        &["selfplay", "--games", "2"],
    ];
    for (name, value, expected) in [
        ("REVERSI_LOG", "yes", "0 or 1"),
        ("REVERSI_MEMORY_MB", "lots", "a positive integer (MiB)"),
        ("REVERSI_STRONG_C", "0,3", "a number >= 0"),
        ("REVERSI_LEAF_EMPTIES", "-1", "an integer from 0 to 60"),
        ("REVERSI_CUTOFF", "none", "a number of plies or full"),
        ("REVERSI_EVAL_STABILITY", "high", "a number"),
        ("REVERSI_AB_WEIGHTS", "1,2", "16 comma-separated integers"),
    ] {
        for args in modes {
            // Input a mode would answer, so only the setting can stop it.
            let out = run(args, "1 name\n2 quit\n", &[(name, value)]);
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?} {name}={value}: {stderr}"
            );
            assert_eq!(
                stderr,
                format!("reversi: {name}={value:?}: expected {expected}\n"),
                "{args:?}"
            );
            assert!(out.stdout.is_empty(), "{args:?} {name}={value}");
        }
    }
    // The same run with a good value plays on.
    let out = run(&["gtp"], "1 name\n2 quit\n", &[("REVERSI_STRONG_C", "0.5")]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=1 reversi\n\n=2\n\n"
    );
}
