//! `go-engine`'s command line (clap): `--help` and `--version` on the program and on every
//! mode (status 0, on standard output), and a usage error for an unknown flag or mode, a
//! bad value or a missing one (status 2, one line on standard error).

use std::process::{Command, Output, Stdio};

const ENGINE: &str = env!("CARGO_BIN_EXE_go-engine");

fn run(args: &[&str]) -> Output {
    Command::new(ENGINE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("go-engine runs")
}

#[test]
fn help_prints_the_usage_of_the_program_and_of_each_mode() {
    for (args, usage) in [
        (&["--help"][..], "Usage: go-engine <COMMAND>"),
        (&["help"], "Usage: go-engine <COMMAND>"),
        (&["gtp", "--help"], "Usage: go-engine gtp [OPTIONS]"),
        (
            &["gmp", "--help"],
            "Usage: go-engine gmp [OPTIONS] --color <COLOR> --size <S>",
        ),
        (&["bench", "--help"], "Usage: go-engine bench [OPTIONS]"),
        (&["help", "gmp"], "Usage: go-engine gmp"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(usage), "{args:?}: {text}");
        assert!(
            text.contains("GO_MOVE_MS"),
            "{args:?}: the environment is in the help"
        );
        assert!(out.stderr.is_empty(), "{args:?}");
    }
    let gtp = String::from_utf8(run(&["gtp", "--help"]).stdout).unwrap();
    for flag in [
        "--move-ms",
        "--threads",
        "--sgf-stats",
        "--log",
        "--ponder",
        "--version",
    ] {
        assert!(gtp.contains(flag), "{flag} in {gtp}");
    }
}

#[test]
fn version_is_on_every_mode() {
    for args in [
        &["--version"][..],
        &["-V"],
        &["gtp", "--version"],
        &["gmp", "-V"],
        &["bench", "--version"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with("go-engine"), "{args:?}: {text}");
        assert!(
            text.trim_end().ends_with(env!("CARGO_PKG_VERSION")),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn usage_errors_exit_with_status_2() {
    for args in [
        &["--frobnicate"][..],
        &["gtp", "--frobnicate"],
        &["gmp", "--color", "black", "--size", "9", "--bogus"],
        &["bench", "--move-ms", "5"],
        &["chess"],
        &["gtp", "--move-ms", "0"],
        &["gmp", "--color", "red", "--size", "9"],
        &["gmp", "--size", "9"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("go-engine: "), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // No mode at all: the help, on standard error, and status 2.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("Usage: go-engine <COMMAND>")
    );
}

#[test]
fn a_flag_overrides_its_variable_and_a_bad_variable_is_still_an_error() {
    // A bad GO_MOVE_MS stops the program even when --move-ms is given: every variable is read
    // and checked once at start.
    let out = Command::new(ENGINE)
        .args(["gtp", "--move-ms", "100"])
        .env("GO_MOVE_MS", "soon")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        "go-engine: GO_MOVE_MS=\"soon\": expected a positive integer"
    );
    // A good one is taken, and the flag wins over it: bench adds a search line for a thread
    // count above 2.
    let three_threads = |args: &[&str], threads: Option<&str>| {
        let mut command = Command::new(ENGINE);
        command.args(args).stdin(Stdio::null());
        if let Some(n) = threads {
            command.env("GO_THREADS", n);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().any(|l| l.starts_with("9x9          3 "))
    };
    let bench = ["bench", "--seconds", "0.01"];
    assert!(!three_threads(&bench, None));
    assert!(three_threads(&bench, Some("3")));
    assert!(!three_threads(
        &[&bench[..], &["--threads", "2"]].concat(),
        Some("3")
    ));
    assert!(three_threads(
        &[&bench[..], &["--threads", "3"]].concat(),
        Some("2")
    ));
}
