//! C++ hosts: `tests/fixtures/host.cpp` compiled with `g++` against `include/gravity4.h` and
//! linked with `-lgravity4`; `tests/fixtures/course_point.cpp` with the course's own `Point`
//! class and declarations, `dlopen`ing the library like the course judge. Each plays a game;
//! the moves they print are replayed through the Rust referee as an independent check.

mod common;

use common::cdylib::{cdylib_path, manifest_dir, release_dir};
use common::referee::Board;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A scratch directory for this test process's binaries.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gravity4-cpp-host-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        dir
    })
}

/// Compiles `fixture` with g++ and the given extra arguments; fails clearly without g++.
fn compile(fixture: &str, extra: &[&str]) -> PathBuf {
    let src = manifest_dir().join("tests/fixtures").join(fixture);
    let exe = scratch().join(fixture.trim_end_matches(".cpp"));
    let out = match Command::new("g++")
        .args([
            "-std=c++17",
            "-O1",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pthread",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .args(extra)
        .output()
    {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("g++ not found: install it (apt-get install g++)")
        }
        Err(e) => panic!("could not run g++: {e}"),
    };
    assert!(
        out.status.success(),
        "g++ failed on {fixture}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// The host linked against the library through the generated header.
fn host() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        cdylib_path();
        let include = manifest_dir().join("include");
        let lib_dir = release_dir();
        compile(
            "host.cpp",
            &[
                &format!("-I{}", include.display()),
                &format!("-L{}", lib_dir.display()),
                "-lgravity4",
                &format!("-Wl,-rpath,{}", lib_dir.display()),
            ],
        )
    })
}

/// Replays the `MOVE x y` lines on the referee (which panics on an illegal move) and checks
/// the host's verdict line against the referee's.
fn replay(out: &Output, m: usize, n: usize, no: (usize, usize)) -> usize {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "host failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut board = Board::new(m, n, no.0, no.1);
    let mut verdict = None;
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["MOVE", x, y] => {
                let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
                assert!(
                    board.is_legal(x, y),
                    "host played illegal ({x}, {y})\n{board:?}"
                );
                assert_eq!(board.winner(), None, "moves after the game ended");
                board.play(y as usize);
            }
            _ => verdict = Some(line.to_owned()),
        }
    }
    let expected = match board.winner() {
        // The host numbers sides 0 (first) and 1.
        Some(p) => format!("WIN {}", p - 1),
        None => {
            assert!(board.is_full(), "game stopped early\n{board:?}");
            "TIE".to_owned()
        }
    };
    assert_eq!(verdict.as_deref(), Some(expected.as_str()), "{board:?}");
    board.moves.len()
}

#[test]
fn cpp_host_plays_through_the_generated_header() {
    for (m, n, no, lib_side) in [(9, 9, (8, 4), "0"), (12, 10, (0, 9), "1")] {
        let out = Command::new(host())
            .args([
                &m.to_string(),
                &n.to_string(),
                &no.0.to_string(),
                &no.1.to_string(),
            ])
            .arg(lib_side)
            .env("GRAVITY4_MOVE_MS", "20")
            .env_remove("GRAVITY4_LOG")
            .output()
            .expect("run host");
        replay(&out, m, n, no);
        // Telemetry is off by default: a C++ host sees nothing on stderr.
        assert!(
            out.stderr.is_empty(),
            "unexpected stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn cpp_host_sees_one_telemetry_line_per_library_call() {
    let (m, n, no) = (9, 11, (4, 5));
    let out = Command::new(host())
        .args([
            &m.to_string(),
            &n.to_string(),
            &no.0.to_string(),
            &no.1.to_string(),
            "0",
        ])
        .env("GRAVITY4_MOVE_MS", "20")
        .env("GRAVITY4_LOG", "1")
        .output()
        .expect("run host");
    let plies = replay(&out, m, n, no);
    // The library moved first: it made the odd-numbered plies 1, 3, ...
    let calls = plies.div_ceil(2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), calls, "one line per call: {lines:#?}");
    for line in lines {
        for key in ["ms=", "iterations=", "nodes=", "move=", "winrate="] {
            assert!(line.contains(key), "no {key} in {line:?}");
        }
    }
}

#[test]
fn course_judge_layout_self_play_through_dlopen() {
    let exe = compile("course_point.cpp", &["-ldl"]);
    for (m, n, no) in [(10, 9, (5, 0)), (11, 12, (10, 6))] {
        let out = Command::new(&exe)
            .arg(cdylib_path())
            .args([
                &m.to_string(),
                &n.to_string(),
                &no.0.to_string(),
                &no.1.to_string(),
            ])
            .env("GRAVITY4_MOVE_MS", "20")
            .env_remove("GRAVITY4_LOG")
            .output()
            .expect("run course_point");
        replay(&out, m, n, no);
    }
}
